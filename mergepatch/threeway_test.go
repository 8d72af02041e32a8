package mergepatch_test

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/tree"
)

// threeWayCase is one entry of testdata/threeway.yaml.
type threeWayCase struct {
	Name      string   `yaml:"name"`
	Original  string   `yaml:"original"`
	Modified  string   `yaml:"modified"`
	Current   string   `yaml:"current"`
	Patch     string   `yaml:"patch"`
	Conflicts []string `yaml:"conflicts"`
}

// readDocOrEmpty reads one document; "" is an empty document.
func readDocOrEmpty(t *testing.T, text string) *yaml.Node {
	if text == "" {
		return &yaml.Node{Kind: yaml.DocumentNode}
	}
	return nodetest.ReadDoc(t, text)
}

// TestThreeWayDiff runs testdata/threeway.yaml: the patch with overwrite
// (JSON text, so key order counts), the conflicts without it (the patch
// when there are none), the inputs untouched and sharing no node with the
// patch.
func TestThreeWayDiff(t *testing.T) {
	var cases []threeWayCase
	if err := yaml.Unmarshal(nodetest.MustRead(t, "threeway.yaml"), &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			o, m, cur := readDocOrEmpty(t, c.Original), readDocOrEmpty(t, c.Modified), readDocOrEmpty(t, c.Current)
			before := []*yaml.Node{tree.Clone(o), tree.Clone(m), tree.Clone(cur)}
			p, err := mergepatch.ThreeWayDiff(o, m, cur, true)
			if err != nil {
				t.Fatalf("overwrite: %v", err)
			}
			if got := nodetest.JSONOf(t, p); got != c.Patch {
				t.Errorf("patch %s, want %s", got, c.Patch)
			}
			for i, n := range []*yaml.Node{o, m, cur} {
				if !reflect.DeepEqual(n, before[i]) {
					t.Errorf("input %d was modified", i)
				}
				nodetest.CheckNoSharing(t, p, n)
			}

			p, err = mergepatch.ThreeWayDiff(o, m, cur, false)
			var ce *change.LiveConflictError
			switch {
			case len(c.Conflicts) == 0 && err != nil:
				t.Fatalf("without overwrite: %v", err)
			case len(c.Conflicts) == 0:
				if got := nodetest.JSONOf(t, p); got != c.Patch {
					t.Errorf("without overwrite: patch %s, want %s", got, c.Patch)
				}
			case !errors.As(err, &ce):
				t.Fatalf("without overwrite: %v, want conflicts at %v", err, c.Conflicts)
			default:
				var paths []string
				for _, cf := range ce.Conflicts {
					paths = append(paths, cf.Path.String())
					if tree.Equal(cf.Patch, cf.Changed) {
						t.Errorf("conflict at %s with equal values %s", cf.Path, nodetest.JSONOf(t, cf.Patch))
					}
				}
				if !slices.Equal(paths, c.Conflicts) {
					t.Errorf("conflicts at %v, want %v", paths, c.Conflicts)
				}
				if got := nodetest.JSONOf(t, ce.Patch); got != c.Patch {
					t.Errorf("the refused patch %s, want %s", got, c.Patch)
				}
			}
		})
	}
}

// TestThreeWayDiffNotObject: arrays and scalars are rejected, naming the
// document and where its value is; upstream fails on them too.
func TestThreeWayDiffNotObject(t *testing.T) {
	obj := nodetest.ReadDoc(t, `{"a":1}`)
	for _, c := range []struct {
		docs [3]string
		want string
	}{
		{[3]string{`[1]`, `{}`, `{}`}, "1:1: the original document is an array: a three-way JSON merge patch needs objects"},
		{[3]string{`{}`, "\n  5", `{}`}, "2:3: the modified document is an integer: a three-way JSON merge patch needs objects"},
		{[3]string{`{}`, `{}`, `"s"`}, "1:1: the current document is a string: a three-way JSON merge patch needs objects"},
	} {
		var docs [3]*yaml.Node
		for i, s := range c.docs {
			docs[i] = nodetest.ReadDoc(t, s)
		}
		_, err := mergepatch.ThreeWayDiff(docs[0], docs[1], docs[2], true)
		var ne *mergepatch.NotObjectError
		if !errors.As(err, &ne) || err.Error() != c.want {
			t.Errorf("%v: %v, want %s", c.docs, err, c.want)
		}
	}
	// root values work as document nodes do; nil is an empty document
	if p, err := mergepatch.ThreeWayDiff(tree.Root(obj), nil, tree.Root(obj), true); err != nil || nodetest.JSONOf(t, p) != `{"a":null}` {
		t.Errorf("roots: %v %v", p, err)
	}
}

// FuzzThreeWayDiff checks ThreeWayDiff on its own, for documents without
// nulls (whose meaning a merge patch cannot carry):
//   - with overwrite, applying the patch to current gives what kubectl
//     apply promises: every field modified has, the fields original had and
//     modified dropped deleted, the fields only current has kept, at every
//     depth where modified and current both hold objects;
//   - without overwrite, the same patch or a *ConflictError carrying it;
//     when there is no conflict, every change made to current since
//     original survives the patch;
//   - with current equal to original, the patch is the two-way Diff's;
//   - the inputs are not modified, the patch shares no node with them, and
//     the same inputs give the same patch.
//
// conformance/ compares ThreeWayDiff with upstream on random triples.
func FuzzThreeWayDiff(f *testing.F) {
	var cases []threeWayCase
	if err := yaml.Unmarshal(nodetest.MustRead(f, "threeway.yaml"), &cases); err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		f.Add(c.Original, c.Modified, c.Current)
	}
	f.Add("a: {b: 1, c: [1, {d: 2}]}\ne: x\n", "a: {b: 2}\nf: {}\n", "a: {b: 1, c: 3, g: 4}\ne: y\nh: [1]\n")
	f.Fuzz(func(t *testing.T, original, modified, current string) {
		var docs [3]*yaml.Node
		for i, s := range []string{original, modified, current} {
			st, err := tree.Read([]byte(s), tree.Options{Limits: &tree.Limits{MaxBytes: 1 << 12, MaxDepth: 20, MaxNodes: 200}})
			if err != nil || len(st.Docs) > 1 {
				return
			}
			if len(st.Docs) == 1 {
				docs[i] = st.Docs[0]
			}
			if r := tree.Root(docs[i]); r != nil && tree.KindOf(r) != tree.Null && nodetest.HasNull(r) {
				return
			}
		}
		o, m, c := docs[0], docs[1], docs[2]
		before := [3]*yaml.Node{tree.Clone(o), tree.Clone(m), tree.Clone(c)}
		p, err := mergepatch.ThreeWayDiff(o, m, c, true)
		var ne *mergepatch.NotObjectError
		if errors.As(err, &ne) {
			return
		}
		if err != nil {
			t.Fatalf("overwrite: %v", err)
		}
		for i, n := range docs {
			if !reflect.DeepEqual(n, before[i]) {
				t.Fatalf("input %d was modified", i)
			}
			nodetest.CheckNoSharing(t, p, n)
		}
		if again, _ := mergepatch.ThreeWayDiff(o, m, c, true); nodetest.JSONOf(t, again) != nodetest.JSONOf(t, p) {
			t.Fatalf("not deterministic: %s then %s", nodetest.JSONOf(t, p), nodetest.JSONOf(t, again))
		}
		oo, mo, co := rootObject(o), rootObject(m), rootObject(c)
		result, err := mergepatch.Apply(tree.Clone(co), p, mergepatch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := applied(oo, mo, co); !tree.Equal(result, want) {
			t.Fatalf("applying the patch %s to current gives %s, want %s", nodetest.JSONOf(t, p), nodetest.JSONOf(t, result), nodetest.JSONOf(t, want))
		}

		safe, err := mergepatch.ThreeWayDiff(o, m, c, false)
		var ce *change.LiveConflictError
		switch {
		case errors.As(err, &ce):
			if len(ce.Conflicts) == 0 || nodetest.JSONOf(t, ce.Patch) != nodetest.JSONOf(t, p) {
				t.Fatalf("conflicts %v for patch %s, want some for %s", ce.Conflicts, nodetest.JSONOf(t, ce.Patch), nodetest.JSONOf(t, p))
			}
		case err != nil:
			t.Fatalf("without overwrite: %v", err)
		default:
			if nodetest.JSONOf(t, safe) != nodetest.JSONOf(t, p) {
				t.Fatalf("without overwrite %s, with %s", nodetest.JSONOf(t, safe), nodetest.JSONOf(t, p))
			}
			if path, ok := survives(mergepatch.Diff(oo, co), co, result, ""); !ok {
				t.Fatalf("no conflict reported, but the live change at %s is undone: patch %s, result %s", path, nodetest.JSONOf(t, p), nodetest.JSONOf(t, result))
			}
		}

		two, err := mergepatch.ThreeWayDiff(o, m, o, true)
		if err != nil || !tree.Equal(two, mergepatch.Diff(oo, mo)) {
			t.Fatalf("current = original: %v, want the two-way Diff %s", err, nodetest.JSONOf(t, mergepatch.Diff(oo, mo)))
		}
	})
}

// rootObject returns the root of doc, {} for an empty document.
func rootObject(doc *yaml.Node) *yaml.Node {
	if r := tree.Deref(tree.Root(doc)); r != nil && tree.KindOf(r) == tree.Object {
		return r
	}
	return tree.NewMap()
}

// applied is what kubectl apply promises for objects o (last applied), m
// (new) and c (live): m's fields; where m and c both hold an object, the
// same one level down (with the last applied object there, if any); c's
// fields that m lacks, unless o had them.
func applied(o, m, c *yaml.Node) *yaml.Node {
	out := tree.NewMap()
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, mv := m.Content[i], m.Content[i+1]
		cv := tree.MapGet(c, k.Value)
		if tree.KindOf(mv) == tree.Object && tree.KindOf(cv) == tree.Object {
			ov := tree.MapGet(o, k.Value)
			if tree.KindOf(ov) != tree.Object {
				ov = tree.NewMap()
			}
			mv = applied(ov, tree.Deref(mv), tree.Deref(cv))
		}
		out.Content = append(out.Content, k, mv)
	}
	for i := 0; i+1 < len(c.Content); i += 2 {
		k := c.Content[i]
		if tree.MapGet(m, k.Value) == nil && tree.MapGet(o, k.Value) == nil {
			out.Content = append(out.Content, k, c.Content[i+1])
		}
	}
	return out
}

// survives reports whether the changes made to the live object (changed,
// a merge patch from original to live) are all in the result: a deleted
// field is still absent, a value still the live one, inside objects field
// by field. It returns the first path where not.
func survives(changed, live, result *yaml.Node, path string) (string, bool) {
	for i := 0; i+1 < len(changed.Content); i += 2 {
		k, v := changed.Content[i].Value, changed.Content[i+1]
		at := path + "." + k
		lv, rv := tree.MapGet(live, k), tree.MapGet(result, k)
		switch tree.KindOf(v) {
		case tree.Null:
			if rv != nil {
				return at, false
			}
		case tree.Object:
			if tree.KindOf(rv) != tree.Object {
				return at, false
			}
			if p, ok := survives(v, tree.Deref(lv), tree.Deref(rv), at); !ok {
				return p, false
			}
		default:
			if !tree.Equal(lv, rv) {
				return at, false
			}
		}
	}
	return "", true
}
