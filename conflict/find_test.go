package conflict

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// naiveFind is Find as its documentation says it, by comparing every two
// changes of different records: the reference TestFindIndexed compares the
// indexed Find with.
func naiveFind(records []change.Record) []Conflict {
	var objects []string
	byObject := map[string][]int{}
	for i, r := range records {
		if _, ok := byObject[r.Object]; !ok {
			objects = append(objects, r.Object)
		}
		byObject[r.Object] = append(byObject[r.Object], i)
	}
	var out []Conflict
	for _, obj := range objects {
		idx := byObject[obj]
		// nodes: paths with key fields in any order are one; numbered as
		// the index numbers them (every prefix of every path, in order)
		id := map[string]int{}
		first := map[string]fieldpath.Path{}
		key := func(p fieldpath.Path) string {
			var b strings.Builder
			for _, e := range p {
				if e.Kind == fieldpath.KeyElement {
					sig, fields := sortedKey(e)
					b.WriteString("k" + sig + "=" + valuesKey(fields, strings.Split(sig, "\x00")))
				} else {
					b.WriteString(e.String())
				}
				b.WriteByte(1)
			}
			return b.String()
		}
		for _, ri := range idx {
			for _, c := range records[ri].Changes {
				for i := range c.Path {
					k := key(c.Path[:i+1])
					if _, ok := id[k]; !ok {
						id[k] = len(id) + 1
						first[k] = c.Path[:i+1]
					}
				}
				if _, ok := id[key(c.Path)]; !ok { // the root
					id[key(c.Path)], first[key(c.Path)] = 0, c.Path
				}
			}
		}
		type at struct{ rec, ch int }
		part := map[string]map[at]bool{} // anchor -> participating changes
		for a := 0; a < len(idx); a++ {
			for b := a + 1; b < len(idx); b++ {
				ra, rb := &records[idx[a]], &records[idx[b]]
				for i, x := range ra.Changes {
					for j, y := range rb.Changes {
						ax, ok := conflicts(x, y, ra.Patch, rb.Patch)
						if !ok {
							continue
						}
						ay, _ := conflicts(y, x, rb.Patch, ra.Patch)
						// where each way round says they meet: the path of x
						// or y, cut to a depth
						place := func(w where, p, q fieldpath.Path) (string, bool) {
							switch w.of {
							case 1:
								return key(p[:w.depth]), true
							case 2:
								return key(q[:w.depth]), true
							}
							return "", false
						}
						kx, ky := key(x.Path), key(y.Path)
						px, okx := place(ax, x.Path, y.Path)
						py, oky := place(ay, y.Path, x.Path)
						anchor := kx
						switch {
						case kx == ky:
						case okx && oky && px == py:
							anchor = px
						case fieldpath.Compare(first[kx], first[ky]) > 0:
							anchor = ky
						}
						if part[anchor] == nil {
							part[anchor] = map[at]bool{}
						}
						part[anchor][at{a, i}], part[anchor][at{b, j}] = true, true
					}
				}
			}
		}
		var anchors []string
		for k := range part {
			anchors = append(anchors, k)
		}
		slices.SortFunc(anchors, func(a, b string) int { return cmp.Compare(id[a], id[b]) })
		for _, anchor := range anchors {
			var sides []at
			atAnchor := map[int]bool{}
			elsewhere := map[int]int{}
			for m := range part[anchor] {
				if key(records[idx[m.rec]].Changes[m.ch].Path) == anchor {
					sides = append(sides, m)
					atAnchor[m.rec] = true
				} else if ch, ok := elsewhere[m.rec]; !ok || shownBefore(records[idx[m.rec]].Changes, m.ch, ch) {
					elsewhere[m.rec] = m.ch
				}
			}
			for rec, ch := range elsewhere {
				if !atAnchor[rec] {
					sides = append(sides, at{rec, ch})
				}
			}
			slices.SortFunc(sides, func(a, b at) int {
				if c := cmp.Compare(a.rec, b.rec); c != 0 {
					return c
				}
				return cmp.Compare(a.ch, b.ch)
			})
			c := Conflict{Object: obj}
			for _, m := range sides {
				r := &records[idx[m.rec]]
				c.Sides = append(c.Sides, Side{r.Patch, r.Changes[m.ch]})
			}
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b Conflict) int {
		if c := comparePos(a.Sides[1].Change.Pos, b.Sides[1].Change.Pos); c != 0 {
			return c
		}
		return fieldpath.Compare(a.Sides[0].Change.Path, b.Sides[0].Change.Path)
	})
	return out
}

// shownBefore reports whether the change a of changes is shown in a
// conflict rather than b: one that changes something (not passive) before
// one that reads, then the first.
func shownBefore(changes []change.Change, a, b int) bool {
	if passive(changes[a]) != passive(changes[b]) {
		return !passive(changes[a])
	}
	return a < b
}

// randomRecords makes records of a few patches to one or two objects,
// their changes drawn from small pools of paths, operations and values so
// that they often meet: fields, items by key (one or two fields, in either
// order), by index, members of a set, and fields of items (key fields
// among them).
func randomRecords(t *testing.T, r *rand.Rand) []change.Record {
	paths := []string{
		"", "a", "a.b", "a.c", "a.b.d", "a[0]",
		"l", "l[name=x]", "l[name=y]", "l[name=x].port", "l[name=x].name", "l[name=y].v",
		"l[port=1,protocol=TCP]", "l[protocol=TCP,port=1]", "l[port=1]", "l[port=1].name", "l[port=1,protocol=UDP].v",
		"l[0]", "l[1]", "l[0].v", "l[1].name", "l[=x]",
		"l[name=x,port=1]", "l[port=1,name=y]", "l[name=x,port=1].port", "l[name=y,port=1].port", "l[name=x,port=2].name", "l[name=y,port=2].v",
		"s", "s[=v]", "s[=w]", "s[0]",
	}
	values := []string{"", "1", "2", "x", "{b: 1}", "{b: 2, c: 1}", "{c: 1, b: 2}", "[1]", "[b]", "{}", "[]",
		"{name: x}", "{name: y, v: 1}", "{port: 1, protocol: TCP}", "[{name: x}]", "[{name: y}, {name: x}]"}
	kinds := []change.PatchType{change.FieldPatch, change.StrategicPatch, change.MergePatch, change.JSONPatch}
	objects := []string{"o", "o", "o", "p"}
	line := 0
	var records []change.Record
	for range 2 + r.IntN(5) {
		rec := change.Record{Object: objects[r.IntN(len(objects))], Patch: kinds[r.IntN(len(kinds))]}
		for range 1 + r.IntN(4) {
			op := change.Op(r.IntN(int(change.Merge) + 1))
			v := values[1+r.IntN(len(values)-1)]
			switch op {
			case change.Delete, change.Exists:
				v = ""
			case change.Create, change.Merge:
				v = []string{"{}", "[]", "x"}[r.IntN(3)]
			case change.Retain:
				v = []string{"[b]", "[name, port]", "[c]"}[r.IntN(3)]
			case change.Order:
				v = []string{"", "", "[{name: x}]", "[{name: y}, {name: x}]", "[x, v]"}[r.IntN(5)]
			}
			line++
			c := ch(t, op, paths[r.IntN(len(paths))], v)
			c.Pos = tree.Position{File: "p", Line: line, Column: 1}
			rec.Changes = append(rec.Changes, c)
		}
		records = append(records, rec)
	}
	return records
}

// TestFindIndexed: Find, which compares only the changes whose paths meet
// (an index of paths) and alike changes once, finds the conflicts that
// comparing every two changes finds (naiveFind), on random records.
func TestFindIndexed(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 26))
	n, found := findCases, 0
	for i := range n {
		records := randomRecords(t, r)
		got, want := Find(records), naiveFind(records)
		found += len(want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			var b strings.Builder
			for _, rec := range records {
				fmt.Fprintf(&b, "%s %s:\n", rec.Object, rec.Patch)
				for _, c := range rec.Changes {
					fmt.Fprintf(&b, "  %s%s\n", c.Pos, c)
				}
			}
			t.Fatalf("case %d:\n%s\ngot:\n%s\nwant:\n%s", i, b.String(), show(got), show(want))
		}
	}
	if found < n/2 {
		t.Errorf("only %d conflicts in %d cases", found, n)
	}
}

func show(cs []Conflict) string {
	var lines []string
	for _, c := range cs {
		lines = append(lines, c.String())
	}
	return strings.Join(lines, "\n")
}

// TestFindManyPatches: many patches that change one path are one conflict
// listing them all; many patches that change paths that do not meet are
// none; either is found in about linear time (the pairs of 4,000 patches
// would be 8 million).
func TestFindManyPatches(t *testing.T) {
	const n = 4000
	at := func(c change.Change, line int) change.Change {
		c.Pos = tree.Position{File: "p", Line: line, Column: 1}
		return c
	}
	var one, many []change.Record
	for i := range n {
		v := fmt.Sprint(i % 3) // three values: every set has a partner of another
		one = append(one, change.Record{Object: "o", Patch: change.FieldPatch, Changes: []change.Change{at(ch(t, change.Set, "data.a", v), i+1)}})
		many = append(many, change.Record{Object: "o", Patch: change.FieldPatch, Changes: []change.Change{at(ch(t, change.Set, fmt.Sprintf("data.k%d", i), "1"), i+1)}})
	}
	start := time.Now()
	got := Find(one)
	if len(got) != 1 || len(got[0].Sides) != n {
		t.Fatalf("%d patches setting one path: %d conflicts, want 1 of %d sides", n, len(got), n)
	}
	if s := got[0].String(); !strings.HasPrefix(s, "o: p:1:1 (field patch) sets data.a to 0, p:2:1 (field patch) sets data.a to 1, ") ||
		!strings.HasSuffix(s, ", and p:4000:1 (field patch) sets data.a to 0") {
		t.Errorf("conflict: %.200s...", s)
	}
	if got := Find(many); len(got) != 0 {
		t.Fatalf("%d patches setting paths that do not meet: %d conflicts", n, len(got))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestFindManyItemsByTwoFields: many field patches each changing a key
// field of its own item, named by two key fields ([name=c<i>,image=i]
// .image, and the item's existence the selector needs), do not conflict:
// no item is named by another's name, before or after (issue 25: each
// change was compared with every item named by a key of the field it
// set, 2,000 patches gave 3,998,000 conflicts in 15 s and 1.1 GB). Two
// patches on the same item, or on an item another may be ([image=i]),
// do conflict.
func TestFindManyItemsByTwoFields(t *testing.T) {
	const n = 4000
	at := func(c change.Change, line, col int) change.Change {
		c.Pos = tree.Position{File: "p", Line: line, Column: col}
		return c
	}
	section := func(i int, path string) change.Record {
		return change.Record{Object: "o", Patch: change.FieldPatch, Changes: []change.Change{
			at(ch(t, change.Exists, strings.TrimSuffix(path, ".image"), ""), 2*i+1, 16),
			at(ch(t, change.Set, path, "j"), 2*i+1, 1),
		}}
	}
	var records []change.Record
	for i := range n {
		records = append(records, section(i, fmt.Sprintf("spec.containers[name=c%d,image=i].image", i)))
	}
	start := time.Now()
	if got := Find(records); len(got) != 0 {
		t.Fatalf("%d patches on their own items: %d conflicts, the first: %s", n, len(got), got[0])
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	// the same item: one conflict; an item each may be: one with each
	for other, want := range map[string]int{"spec.containers[name=c7,image=i].image": 1, "spec.containers[image=i].image": 10} {
		got := Find(append(slices.Clone(records[:10]), section(n, other)))
		if len(got) < want {
			t.Errorf("with %s: %d conflicts, want %d:\n%s", other, len(got), want, show(got))
		}
	}
}

// TestFindManyOrders: many strategic patches each ordering one list with
// $setElementOrder, each naming another item (what n patches record:
// merges into the list and into the item, a set of its image, the order
// the directive gives), are one conflict at the list listing the orders,
// and nothing below it conflicts; many JSON patches each testing one path
// for another value and setting a field below it are none. Either is found
// in about linear time: every order was compared with every other, and
// with every change below the list (6,000 patches: 40 s, issue 25).
func TestFindManyOrders(t *testing.T) {
	const n = 4000
	at := func(c change.Change, line, col int) change.Change {
		c.Pos = tree.Position{File: "p", Line: line, Column: col}
		return c
	}
	var orders, tests []change.Record
	for i := range n {
		item := fmt.Sprintf("spec.containers[name=c%d]", i)
		orders = append(orders, change.Record{Object: "o", Patch: change.StrategicPatch, Changes: []change.Change{
			at(ch(t, change.Merge, "spec", "{}"), 3*i+3, 10),
			at(ch(t, change.Merge, "spec.containers", "[]"), 3*i+3, 60),
			at(ch(t, change.Merge, item, "{}"), 3*i+3, 70),
			at(ch(t, change.Set, item+".image", "j"), 3*i+3, 80),
			at(ch(t, change.Order, "spec.containers", fmt.Sprintf("[{name: c%d}]", i)), 3*i+3, 18),
		}})
		tests = append(tests, change.Record{Object: "o", Patch: change.JSONPatch, Changes: []change.Change{
			at(ch(t, change.Test, "spec.containers[0].name", fmt.Sprintf("c%d", i)), i+1, 1),
			at(ch(t, change.Exists, "spec.containers[0]", ""), i+1, 2),
		}})
	}
	start := time.Now()
	got := Find(orders)
	if len(got) != 1 || len(got[0].Sides) != n {
		t.Fatalf("%d orders: %d conflicts, want 1 of %d sides:\n%.2000s", n, len(got), n, show(got))
	}
	if s := got[0].String(); !strings.HasPrefix(s, `o: p:3:18 (strategic patch) orders spec.containers by [{"name":"c0"}], p:6:18`) {
		t.Errorf("conflict: %.300s...", s)
	}
	if got := Find(tests); len(got) != 0 {
		t.Fatalf("%d tests: %d conflicts, want none:\n%.2000s", n, len(got), show(got))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestFindManyInsertions: many field patches inserting an item into one
// list (what n sections [pod.p.containers[-0]] record: the item inserted,
// named by its key, and the existence of index 0, next to which it goes)
// are one conflict at the list of n sides, each shown by its insertion
// (not n conflicts of n sides, about the index they need); many appending
// (the item alone) are none, since items by different keys do not meet;
// many JSON patches inserting at index 0 (each item of its own value) are
// one conflict too, found without comparing every two of them.
// Either is found in about linear time: comparing every insertion with
// every other, for the items the insertions might rename, took 30 s for
// 4,000 (and the n² sides 3.8 GB).
func TestFindManyInsertions(t *testing.T) {
	const n = 4000
	at := func(c change.Change, line, col int) change.Change {
		c.Pos = tree.Position{File: "p", Line: line, Column: col}
		return c
	}
	var front, appended, atIndex []change.Record
	for i := range n {
		// a JSON patch's add at /spec/containers/0: an insertion named by index
		atIndex = append(atIndex, change.Record{Object: "o", Patch: change.JSONPatch, Changes: []change.Change{
			at(ch(t, change.Insert, "spec.containers[0]", fmt.Sprintf("{name: c%d}", i)), i+1, 1),
		}})
		ins := at(ch(t, change.Insert, fmt.Sprintf("spec.containers[name=c%d]", i), fmt.Sprintf("{name: c%d, image: x}", i)), 4*i+1, 1)
		need := at(ch(t, change.Exists, "spec.containers[0]", ""), 4*i+1, 18)
		front = append(front, change.Record{Object: "o", Patch: change.FieldPatch, Changes: []change.Change{need, ins}})
		appended = append(appended, change.Record{Object: "o", Patch: change.FieldPatch, Changes: []change.Change{ins}})
	}
	start := time.Now()
	got := Find(front)
	if len(got) != 1 || len(got[0].Sides) != n {
		sides := 0
		for _, c := range got {
			sides += len(c.Sides)
		}
		t.Fatalf("%d insertions at the front: %d conflicts of %d sides in all, want 1 of %d", n, len(got), sides, n)
	}
	if s := got[0].String(); !strings.HasPrefix(s, `o: p:1:1 (field patch) inserts spec.containers[name=c0] to {"name":"c0","image":"x"}, p:5:1 (field patch) inserts spec.containers[name=c1]`) {
		t.Errorf("conflict: %.300s...", s)
	}
	if got := Find(appended); len(got) != 0 {
		t.Fatalf("%d appends: %d conflicts, want none", n, len(got))
	}
	if got := Find(atIndex); len(got) != 1 || len(got[0].Sides) != n {
		t.Fatalf("%d insertions at index 0: %d conflicts, want 1 of %d sides", n, len(got), n)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}
