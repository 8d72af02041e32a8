package mergepatch_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/tree"
)

// rfcCase is one entry of testdata/rfc7396.yaml: three JSON texts.
type rfcCase struct {
	Name     string `yaml:"name"`
	Original string `yaml:"original"`
	Patch    string `yaml:"patch"`
	Result   string `yaml:"result"`
}

func loadRFCCases(tb testing.TB) []rfcCase {
	tb.Helper()
	var cases []rfcCase
	if err := yaml.Unmarshal(nodetest.MustRead(tb, "rfc7396.yaml"), &cases); err != nil {
		tb.Fatal(err)
	}
	if len(cases) != 16 {
		tb.Fatalf("testdata/rfc7396.yaml has %d cases, want the 15 of Appendix A and the example of section 3", len(cases))
	}
	return cases
}

// TestRFC7396 runs the test cases of RFC 7396 (Appendix A and the example
// of section 3), on document nodes and on root values: the result must be
// the RFC's (tree.Equal), with the original's keys first in their order and
// the new keys after them in patch order; the patch must be unchanged and
// share no node with the result.
func TestRFC7396(t *testing.T) {
	for _, c := range loadRFCCases(t) {
		for _, roots := range []bool{false, true} {
			name := c.Name
			if roots {
				name += "/roots"
			}
			t.Run(name, func(t *testing.T) {
				doc, patch, want := nodetest.ReadDoc(t, c.Original), nodetest.ReadDoc(t, c.Patch), nodetest.ReadDoc(t, c.Result)
				if roots {
					doc, patch = tree.Root(doc), tree.Root(patch)
				}
				before := tree.Clone(patch)
				got, err := mergepatch.Apply(doc, patch, mergepatch.Options{})
				if err != nil {
					t.Fatalf("Apply: %v", err)
				}
				if roots == (got.Kind == yaml.DocumentNode) {
					t.Errorf("result is a %v node; want a document exactly when doc is one", got.Kind)
				}
				if !roots && got != doc {
					t.Errorf("Apply returned a new document node; want doc itself")
				}
				if !tree.Equal(got, want) {
					t.Errorf("result %s, want %s", nodetest.JSONOf(t, got), nodetest.JSONOf(t, want))
				}
				if g, w := nodetest.KeyOrder(got), nodetest.KeyOrder(want); !slices.Equal(g, w) {
					t.Errorf("key order %q, want %q", g, w)
				}
				if !reflect.DeepEqual(patch, before) {
					t.Errorf("Apply modified the patch: now %s", nodetest.JSONOf(t, patch))
				}
				nodetest.CheckNoSharing(t, got, patch)
			})
		}
	}
}

// TestPreserve patches a commented YAML document with a YAML merge patch
// and checks the output byte for byte against testdata/preserve/result.yaml,
// which was written by hand: comments, key order and quoting of what the
// patch leaves alone stay; a scalar replaced by a scalar keeps its comments,
// and its quotes when both values are strings; new keys come last, in patch
// order, quoted and commented as in the patch; nulls of a new object are
// dropped. yaml.v3's emitter writes this input back unchanged, so nothing
// unrelated to the patch differs.
func TestPreserve(t *testing.T) {
	read := func(name string) *tree.Stream { return nodetest.ReadStream(t, "preserve", name) }
	// The claim that nothing unrelated changes rests on this: the
	// original, written back untouched, is byte for byte what was read.
	nodetest.RequireWritesBack(t, "preserve", "original.yaml")

	doc, patch := read("original.yaml"), read("patch.yaml")
	before := tree.Clone(patch.Docs[0])
	if _, err := mergepatch.Apply(doc.Docs[0], patch.Docs[0], mergepatch.Options{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tree.WriteYAML(&out, doc.Style, doc.Docs...); err != nil {
		t.Fatal(err)
	}
	want := nodetest.MustRead(t, "preserve", "result.yaml")
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("output differs from testdata/preserve/result.yaml:\n--- got\n%s--- want\n%s", out.Bytes(), want)
	}
	if !reflect.DeepEqual(patch.Docs[0], before) {
		t.Errorf("Apply modified the patch")
	}
	nodetest.CheckNoSharing(t, doc.Docs[0], patch.Docs[0])
}

// TestPatchNotModified applies patches whose values land in the result in
// every way (new keys, new nested objects with nulls to drop, replaced
// arrays, scalars copied into existing nodes, a whole-document replacement)
// and checks that every field of every patch node, comments and positions
// included, is as before, and that the result shares no node with the patch.
func TestPatchNotModified(t *testing.T) {
	patches := []struct{ doc, patch string }{
		{"a: 1\nb: {c: 2}\n", "# head\na: 2 # line\nb:\n  c: null\n  d: [1, null, {e: null}]\nf:\n  g: null\n  h: {i: null, j: 'k'}\n"},
		{"a: [1, 2]\n", "a: {b: null, c: 1}\n"},
		{"a: 1\n", "[1, {a: null}]\n"},
		{"a: \"x\"\n", "a: y # comment\n"},
		{"null\n", "a: {b: {c: null}}\n"},
		{"a: 1\n", "null\n"},
	}
	for _, p := range patches {
		doc, patch := nodetest.ReadDoc(t, p.doc), nodetest.ReadDoc(t, p.patch)
		before := tree.Clone(patch)
		got, err := mergepatch.Apply(doc, patch, mergepatch.Options{})
		if err != nil {
			t.Fatalf("%q + %q: %v", p.doc, p.patch, err)
		}
		if !reflect.DeepEqual(patch, before) {
			t.Errorf("%q + %q: Apply modified the patch", p.doc, p.patch)
		}
		nodetest.CheckNoSharing(t, got, patch)
	}
}

// TestInPlace checks that an object document is edited in place: Apply
// returns the document node it was given, or the root it was given, and
// nested objects and scalars the patch changes keep their nodes.
func TestInPlace(t *testing.T) {
	const docText = "a:\n  b: 1 # one\n  c: x\nd: 2\n"
	const patchText = "a:\n  b: 2\n  e: 3\nd: null\n"

	doc := nodetest.ReadDoc(t, docText)
	root := doc.Content[0]
	a := tree.MapGet(root, "a")
	b := tree.MapGet(a, "b")
	got, err := mergepatch.Apply(doc, nodetest.ReadDoc(t, patchText), mergepatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got != doc || len(doc.Content) != 1 || doc.Content[0] != root {
		t.Fatalf("document not edited in place")
	}
	if tree.MapGet(root, "a") != a || tree.MapGet(a, "b") != b {
		t.Errorf("nested object or scalar replaced by a new node")
	}
	if b.Value != "2" || b.LineComment != "# one" {
		t.Errorf("b is %q with comment %q, want 2 with comment \"# one\"", b.Value, b.LineComment)
	}
	if want := "{\"a\":{\"b\":2,\"c\":\"x\",\"e\":3}}"; nodetest.JSONOf(t, got) != want {
		t.Errorf("result %s, want %s", nodetest.JSONOf(t, got), want)
	}

	root = tree.Root(nodetest.ReadDoc(t, docText))
	got, err = mergepatch.Apply(root, tree.Root(nodetest.ReadDoc(t, patchText)), mergepatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got != root {
		t.Errorf("Apply on root values returned a new root")
	}
}

// TestScalars checks how a scalar replaced by a scalar is written: it keeps
// its comments, keeps its quotes when both values are strings, and takes
// the patch's style otherwise; a value of another kind takes the replaced
// value's comments.
func TestScalars(t *testing.T) {
	cases := []struct{ doc, patch, want string }{
		{"a: \"x\" # c\n", "a: y\n", "a: \"y\" # c\n"},
		{"a: 'x'\n", "{\"a\": \"y\"}", "a: 'y'\n"},
		{"a: \"1\"\n", "a: 2\n", "a: 2\n"},
		{"a: 1\n", "a: '2'\n", "a: '2'\n"},
		{"a: 1\n", "{\"a\": \"2\"}", "a: \"2\"\n"}, // a plain string that reads as a number is quoted
		// y is written quoted: a YAML 1.1 reader takes it for a boolean
		// (the writer's rule, tree/quote.go)
		{"a: x\n", "a: y # from the patch\n", "a: \"y\" # from the patch\n"},
		{"a: x # doc\n", "a: y # patch\n", "a: \"y\" # doc\n"},
		{"a: |\n  one\n  two\n", "a: \"three\\nfour\"\n", "a: |-\n  three\n  four\n"},
		{"a: x # c\n", "a: [1, 2]\n", "a: [1, 2] # c\n"},
		{"a: [1] # c\n", "a: {b: 1}\n", "a: {b: 1} # c\n"},
		{"\"k\": v\n", "\"k\": w\nnew: 1\n'q': 2\n", "\"k\": w\nnew: 1\n'q': 2\n"},
		{"a: 1\n", "1: x\n", "a: 1\n\"1\": x\n"},                   // JSON keys are strings
		{"a: 1\n", "? >-\n  b\n: !!str 2\n", "a: 1\nb: !!str 2\n"}, // a new key is a plain or quoted string; values are copied as written
	}
	for _, c := range cases {
		doc := nodetest.ReadDoc(t, c.doc)
		if _, err := mergepatch.Apply(doc, nodetest.ReadDoc(t, c.patch), mergepatch.Options{}); err != nil {
			t.Fatalf("%q + %q: %v", c.doc, c.patch, err)
		}
		var out bytes.Buffer
		if err := tree.WriteYAML(&out, tree.Style{Indent: 2}, doc); err != nil {
			t.Fatal(err)
		}
		if out.String() != c.want {
			t.Errorf("%q + %q:\ngot  %q\nwant %q", c.doc, c.patch, out.String(), c.want)
		}
	}
}

// TestNullsAndEmpty covers nil nodes, empty documents and null: a null or
// missing document is no object, a null or missing patch makes the result
// null.
func TestNullsAndEmpty(t *testing.T) {
	empty := func() *yaml.Node { return &yaml.Node{Kind: yaml.DocumentNode} }
	obj := func() *yaml.Node { return nodetest.ReadDoc(t, "{\"a\": 1, \"b\": null}") }
	cases := []struct {
		name       string
		doc, patch *yaml.Node
		want       string
		isDoc      bool
	}{
		{"nil doc", nil, obj(), `{"a":1}`, false},
		{"empty doc", empty(), obj(), `{"a":1}`, true},
		{"null doc", nodetest.ReadDoc(t, "null"), obj(), `{"a":1}`, true},
		{"nil patch", obj(), nil, `null`, true},
		{"empty patch", obj(), empty(), `null`, true},
		{"null patch", nodetest.ReadDoc(t, "~"), nodetest.ReadDoc(t, "null"), `null`, true},
		{"both nil", nil, nil, `null`, false},
		{"both empty", empty(), empty(), `null`, true},
		{"empty objects", nodetest.ReadDoc(t, "{}"), nodetest.ReadDoc(t, "{}"), `{}`, true},
	}
	for _, c := range cases {
		got, err := mergepatch.Apply(c.doc, c.patch, mergepatch.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got == nil {
			t.Fatalf("%s: nil result", c.name)
		}
		if (got.Kind == yaml.DocumentNode) != c.isDoc {
			t.Errorf("%s: result is a %v node", c.name, got.Kind)
		}
		if j := nodetest.JSONOf(t, got); j != c.want {
			t.Errorf("%s: result %s, want %s", c.name, j, c.want)
		}
	}
}

// TestLargeObjects checks objects around the size at which Apply indexes
// keys: changes, deletions and additions must give the same result as for
// small objects, including a key deleted and set again by one patch.
func TestLargeObjects(t *testing.T) {
	for _, n := range []int{1, 15, 16, 17, 40, 1000} {
		var doc, patch, want strings.Builder
		doc.WriteString("{")
		patch.WriteString("{")
		want.WriteString("{")
		sep := func(b *strings.Builder) {
			if b.Len() > 1 {
				b.WriteString(",")
			}
		}
		for i := 0; i < n; i++ {
			sep(&doc)
			fmt.Fprintf(&doc, `"k%d":%d`, i, i)
			switch i % 3 {
			case 0: // unchanged
				sep(&want)
				fmt.Fprintf(&want, `"k%d":%d`, i, i)
			case 1: // changed
				sep(&patch)
				fmt.Fprintf(&patch, `"k%d":"v%d"`, i, i)
				sep(&want)
				fmt.Fprintf(&want, `"k%d":"v%d"`, i, i)
			case 2: // deleted
				sep(&patch)
				fmt.Fprintf(&patch, `"k%d":null`, i)
			}
		}
		for i := 0; i < n; i++ {
			if i%5 == 0 {
				sep(&patch)
				fmt.Fprintf(&patch, `"new%d":{"x":%d,"y":null}`, i, i)
				sep(&want)
				fmt.Fprintf(&want, `"new%d":{"x":%d}`, i, i)
			}
		}
		doc.WriteString("}")
		patch.WriteString("}")
		want.WriteString("}")
		d := nodetest.ReadDoc(t, doc.String())
		got, err := mergepatch.Apply(d, nodetest.ReadDoc(t, patch.String()), mergepatch.Options{})
		if err != nil {
			t.Fatalf("%d keys: %v", n, err)
		}
		if j := nodetest.JSONOf(t, got); j != want.String() {
			t.Errorf("%d keys: result\n%s\nwant\n%s", n, j, want.String())
		}
	}
}

// TestReAdd checks that a patch that deletes a key and sets it twice (only
// possible in a tree built by hand: tree.Read rejects duplicate keys) ends
// with the key set once, at the end, to its last value, in small and
// indexed objects.
func TestReAdd(t *testing.T) {
	for _, n := range []int{2, 20} {
		doc := tree.NewMap()
		for i := 0; i < n; i++ {
			doc.Content = append(doc.Content, tree.NewString(fmt.Sprint("k", i)), tree.NewString("v"))
		}
		patch := tree.NewMap()
		patch.Content = append(patch.Content,
			tree.NewString("k0"), tree.NewNull(),
			tree.NewString("k0"), tree.NewString("set"),
			tree.NewString("k0"), tree.NewString("again"),
			tree.NewString("k1"), tree.NewNull())
		got, err := mergepatch.Apply(doc, patch, mergepatch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Content) != 2*(n-1) || got.Content[len(got.Content)-2].Value != "k0" || got.Content[len(got.Content)-1].Value != "again" {
			t.Errorf("%d keys: result %s, want k0 last with value again and k1 gone", n, nodetest.JSONOf(t, got))
		}
	}
}

// TestNonScalarKey checks the one error of Apply: a mapping, in the
// document or the patch, with a key that is not a scalar. Such trees only
// come from hand-built nodes; tree.Read rejects them.
func TestNonScalarKey(t *testing.T) {
	bad := func() *yaml.Node {
		m := tree.NewMap()
		m.Content = append(m.Content, tree.NewMap(), tree.NewString("v"))
		return m
	}
	nilKey := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{nil, tree.NewString("v")}}
	obj := nodetest.ReadDoc(t, "a: {b: 1}\n")
	cases := []struct {
		name       string
		doc, patch *yaml.Node
		want       string // the message: the patch's name, the path, what is wrong
	}{
		{"in the document", bad(), tree.Root(nodetest.ReadDoc(t, "a: 1\n")), "p: mapping key is a mapping; JSON objects need string keys"},
		{"in the patch", tree.Root(nodetest.ReadDoc(t, "a: 1\n")), bad(), "p: mapping key is a mapping; JSON objects need string keys"},
		{"nil key in the patch", nil, nilKey, "p: mapping key is missing; JSON objects need string keys"},
		{"nested in a new object", obj, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{tree.NewString("c"), bad()}}, "p: c: mapping key is a mapping; JSON objects need string keys"},
	}
	for _, c := range cases {
		got, err := mergepatch.Apply(c.doc, c.patch, mergepatch.Options{File: "p"})
		var e *mergepatch.Error
		switch {
		case err == nil:
			t.Errorf("%s: no error; result %v", c.name, got)
		case !errors.As(err, &e):
			t.Errorf("%s: error %v is a %T, not a *mergepatch.Error", c.name, err, err)
		case err.Error() != c.want:
			t.Errorf("%s: error %q, want %q", c.name, err, c.want)
		}
	}
}

// TestOddTrees checks that trees tree.Read never returns do not make Apply
// panic: unexpanded aliases, a document node nested in a value, a mapping
// with a key and no value, zero nodes, and a patch that is the document.
func TestOddTrees(t *testing.T) {
	aliased := nodetest.RawDoc(t, "a: &x {b: 1}\nc: *x\nd: &s str\n")
	aliasPatch := nodetest.RawDoc(t, "c: {b: 2}\nd: other\ne: &y {f: null, g: 1}\nh: *y\n")
	got, err := mergepatch.Apply(aliased, aliasPatch, mergepatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if j, want := nodetest.JSONOf(t, got), `{"a":{"b":1},"c":{"b":2},"d":"other","e":{"g":1},"h":{"g":1}}`; j != want {
		t.Errorf("aliases: result %s, want %s", j, want)
	}

	nested := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		tree.NewString("a"), {Kind: yaml.DocumentNode, Content: []*yaml.Node{tree.Root(nodetest.ReadDoc(t, "{b: 1}"))}},
		tree.NewString("dangling"),
	}}
	got, err = mergepatch.Apply(nested, tree.Root(nodetest.ReadDoc(t, "a: {c: 2}\nz: 1\n")), mergepatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if j, want := nodetest.JSONOf(t, got), `{"a":{"b":1,"c":2},"z":1}`; j != want {
		t.Errorf("nested document: result %s, want %s", j, want)
	}

	for _, zero := range []*yaml.Node{{}, {Kind: yaml.MappingNode}, {Kind: yaml.SequenceNode}, {Kind: yaml.ScalarNode}} {
		if _, err := mergepatch.Apply(tree.Root(nodetest.ReadDoc(t, "a: 1\n")), zero, mergepatch.Options{}); err != nil {
			t.Errorf("patch %+v: %v", zero, err)
		}
		if _, err := mergepatch.Apply(zero, tree.Root(nodetest.ReadDoc(t, "a: {b: 1}\n")), mergepatch.Options{}); err != nil {
			t.Errorf("doc %+v: %v", zero, err)
		}
	}

	self := nodetest.ReadDoc(t, "a: 1\nb: null\nc: {d: null, e: 2}\n")
	got, err = mergepatch.Apply(self, self, mergepatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if j, want := nodetest.JSONOf(t, got), `{"a":1,"c":{"e":2}}`; j != want {
		t.Errorf("patch is the document: result %s, want %s", j, want)
	}
}

// BenchmarkApplyLarge patches an object of 100,000 keys with 50,000
// changes, deletions and additions: the time per key must not grow with
// the size of the object.
func BenchmarkApplyLarge(b *testing.B) {
	var doc, patch strings.Builder
	doc.WriteString("{")
	patch.WriteString("{")
	for i := 0; i < 100000; i++ {
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `"k%d":%d`, i, i)
		if i%2 == 0 {
			if i > 0 {
				patch.WriteString(",")
			}
			switch i % 3 {
			case 0:
				fmt.Fprintf(&patch, `"k%d":null`, i)
			case 1:
				fmt.Fprintf(&patch, `"k%d":"x"`, i)
			default:
				fmt.Fprintf(&patch, `"n%d":1`, i)
			}
		}
	}
	doc.WriteString("}")
	patch.WriteString("}")
	p := nodetest.ReadDoc(b, patch.String())
	d := nodetest.ReadDoc(b, doc.String())
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		dc := tree.Clone(d)
		b.StartTimer()
		if _, err := mergepatch.Apply(dc, p, mergepatch.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
