package jsonpatch_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/tree"
)

// TestWideObjects: a patch of many operations on objects of many members,
// which an applier looks up through an index of each large object kept up
// to date by the operations' own edits (each operation scanned the
// object: 20,000 adds took 20 s), gives the document, key order included,
// and the change records that applying its operations one patch at a time
// gives (each patch indexing the objects anew). The operations add,
// replace, remove, move, copy and test members of an object of 20 to 60
// members and of objects nested in it, named by members that come and go.
func TestWideObjects(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 6))
	for round := range 200 {
		var doc strings.Builder
		doc.WriteString("data:\n")
		live := map[string]bool{} // the members of /data
		obj := map[string]bool{}  // those that hold objects
		var names []string        // every name ever used, to pick from
		for i := range 20 + r.IntN(40) {
			name := fmt.Sprintf("k%d", i)
			if i%7 == 0 {
				fmt.Fprintf(&doc, "  %s: {a: 1, b: 2}\n", name)
				obj[name] = true
			} else {
				fmt.Fprintf(&doc, "  %s: v%d\n", name, i)
			}
			live[name] = true
			names = append(names, name)
		}
		pick := func() string { return names[r.IntN(len(names))] }
		var ops []string
		for i := range 100 {
			k := pick()
			switch r.IntN(7) {
			case 0, 1:
				n := fmt.Sprintf("n%d", i)
				names = append(names, n)
				live[n], obj[n] = true, false
				ops = append(ops, fmt.Sprintf(`{"op":"add","path":"/data/%s","value":"x%d"}`, n, i))
			case 2:
				if live[k] {
					ops = append(ops, fmt.Sprintf(`{"op":"replace","path":"/data/%s","value":{"c":%d}}`, k, i))
					obj[k] = true
				} else {
					ops = append(ops, fmt.Sprintf(`{"op":"add","path":"/data/%s","value":%d}`, k, i))
					live[k], obj[k] = true, false
				}
			case 3:
				if live[k] {
					ops = append(ops, fmt.Sprintf(`{"op":"remove","path":"/data/%s"}`, k))
					delete(live, k)
				}
			case 4:
				to := fmt.Sprintf("m%d", i)
				if live[k] && k != to {
					ops = append(ops, fmt.Sprintf(`{"op":"move","from":"/data/%s","path":"/data/%s"}`, k, to))
					delete(live, k)
					live[to], obj[to] = true, obj[k]
					names = append(names, to)
				}
			case 5:
				to := pick()
				if live[k] && k != to {
					ops = append(ops, fmt.Sprintf(`{"op":"copy","from":"/data/%s","path":"/data/%s"}`, k, to))
					live[to], obj[to] = true, obj[k]
				}
			case 6:
				if live[k] && obj[k] {
					ops = append(ops, fmt.Sprintf(`{"op":"add","path":"/data/%s/z","value":%d}`, k, i), // a member of a nested object
						fmt.Sprintf(`{"op":"test","path":"/data/%s/z","value":%d}`, k, i))
				}
			}
		}
		read := func(text string) *tree.Stream {
			st, err := tree.Read([]byte(text), tree.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		run := func(together bool) string {
			d := read(doc.String()).Docs[0]
			log := &change.Log{}
			var b strings.Builder
			patches := []string{"[" + strings.Join(ops, ",") + "]"}
			if !together {
				patches = patches[:0]
				for _, o := range ops {
					patches = append(patches, "["+o+"]")
				}
			}
			for _, p := range patches {
				res, err := jsonpatch.Apply(d, read(p).Docs[0], jsonpatch.Options{File: "p", Record: log})
				if err != nil {
					t.Fatalf("round %d: %v", round, err) // the operations are valid by construction
				}
				d = res
			}
			var out bytes.Buffer
			if err := tree.WriteYAML(&out, tree.Style{}, d); err != nil {
				t.Fatal(err)
			}
			for _, c := range log.Changes {
				fmt.Fprintf(&b, "%s\n", c)
			}
			return out.String() + b.String()
		}
		if got, want := run(true), run(false); got != want {
			t.Fatalf("round %d, document:\n%s\npatch: [%s]\ntogether:\n%s\none by one:\n%s", round, doc.String(), strings.Join(ops, ",\n"), got, want)
		}
	}
}

// TestIndexNoticesNewContent: an Index kept from one patch to the next
// notices an object whose members someone else replaced (kpatch copies a
// JSON patch's new whole document into the object's node), and indexes it
// anew rather than finding members it no longer has.
func TestIndexNoticesNewContent(t *testing.T) {
	mapping := func(prefix string) string {
		var b strings.Builder
		for i := range 40 {
			fmt.Fprintf(&b, "%s%d: v\n", prefix, i)
		}
		return b.String()
	}
	read := func(text string) *tree.Stream {
		st, err := tree.Read([]byte(text), tree.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	doc := read(mapping("k")).Docs[0]
	ix := &jsonpatch.Index{}
	if _, err := jsonpatch.Apply(doc, read(`[{"op":"add","path":"/k40","value":"w"}]`).Docs[0], jsonpatch.Options{Index: ix}); err != nil {
		t.Fatal(err)
	}
	tree.Root(doc).Content = tree.Root(read(mapping("n")).Docs[0]).Content
	if _, err := jsonpatch.Apply(doc, read(`[{"op":"remove","path":"/n7"}]`).Docs[0], jsonpatch.Options{Index: ix}); err != nil {
		t.Errorf("a member of the new content: %v", err)
	}
	if _, err := jsonpatch.Apply(doc, read(`[{"op":"remove","path":"/k7"}]`).Docs[0], jsonpatch.Options{Index: ix}); err == nil {
		t.Error("a member of the old content was found")
	}
}

// TestRollbackAfterAppends: a patch that fails puts the document back as it
// was when its operations had appended members to an object (recorded
// without copying its content, into the room its array has) and then
// edited it in place, or not, or edited it in place first.
func TestRollbackAfterAppends(t *testing.T) {
	var doc strings.Builder
	for i := range 40 {
		fmt.Fprintf(&doc, "k%d: v\n", i)
	}
	for _, ops := range []string{
		`{"op":"remove","path":"/k3"}`,
		`{"op":"add","path":"/a","value":1},{"op":"add","path":"/b","value":2}`,
		`{"op":"add","path":"/a","value":1},{"op":"remove","path":"/k3"},{"op":"add","path":"/b","value":2},{"op":"replace","path":"/k5","value":3}`,
		`{"op":"add","path":"/a","value":1},{"op":"move","from":"/k0","path":"/k39"},{"op":"copy","from":"/k1","path":"/c"}`,
	} {
		st, err := tree.Read([]byte(doc.String()), tree.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d := st.Docs[0]
		var before bytes.Buffer
		if err := tree.WriteYAML(&before, tree.Style{}, d); err != nil {
			t.Fatal(err)
		}
		root := tree.Root(d)
		root.Content = slices.Grow(root.Content, 8) // room to append in place
		n := len(root.Content)
		p, err := tree.Read([]byte("["+ops+`,{"op":"remove","path":"/missing"}]`), tree.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := jsonpatch.Apply(d, p.Docs[0], jsonpatch.Options{}); err == nil {
			t.Fatalf("%s: no error", ops)
		}
		var after bytes.Buffer
		if err := tree.WriteYAML(&after, tree.Style{}, d); err != nil {
			t.Fatal(err)
		}
		if after.String() != before.String() || len(root.Content) != n {
			t.Errorf("%s: after the failed patch:\n%s\nwant:\n%s", ops, after.String(), before.String())
		}
	}
}
