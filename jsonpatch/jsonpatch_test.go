package jsonpatch_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/tree"
)

// fixture is one case of testdata/rfc6902.yaml or testdata/cases.yaml.
type fixture struct {
	Name   string `yaml:"name"`
	Doc    string `yaml:"doc"`
	Patch  string `yaml:"patch"`
	Result string `yaml:"result"`
	// ReadError: tree.Read rejects the patch with this message; the case
	// then applies the patch as yaml.v3 parses it.
	ReadError string     `yaml:"readError"`
	Error     *wantError `yaml:"error"`
}

type wantError struct {
	Index   int    `yaml:"index"`
	Reason  string `yaml:"reason"`
	At      string `yaml:"at"` // line:column of the operation, when the case checks it
	Message string `yaml:"message"`
}

func loadFixtures(tb testing.TB, name string) []fixture {
	tb.Helper()
	var cases []fixture
	if err := yaml.Unmarshal(nodetest.MustRead(tb, name), &cases); err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	for _, c := range cases {
		if (c.Result == "") == (c.Error == nil) {
			tb.Fatalf("%s: case %q needs a result or an error", name, c.Name)
		}
	}
	return cases
}

// runFixture applies the case's patch to its document, given as document
// nodes or as root values, and checks the result or the error. Either way
// the patch must be unchanged; on success the result must share no node
// with the patch, have the expected keys in the expected order, and be
// doc itself when doc is a document node; on error the document must be
// exactly as it was.
func runFixture(t *testing.T, c fixture, roots bool) {
	doc := nodetest.ReadDoc(t, c.Doc)
	var patch *yaml.Node
	if c.ReadError != "" {
		_, err := tree.Read([]byte(c.Patch), tree.Options{})
		if err == nil || !strings.Contains(err.Error(), c.ReadError) {
			t.Fatalf("tree.Read of the patch: %v, want an error saying %q", err, c.ReadError)
		}
		patch = nodetest.RawDoc(t, c.Patch)
	} else {
		patch = nodetest.ReadDoc(t, c.Patch)
	}
	if roots {
		doc, patch = tree.Root(doc), tree.Root(patch)
	}
	docBefore, patchBefore := tree.Clone(doc), tree.Clone(patch)
	got, err := jsonpatch.Apply(doc, patch, jsonpatch.Options{File: "patch"})
	if !reflect.DeepEqual(patch, patchBefore) {
		t.Errorf("Apply modified the patch")
	}
	if c.Error != nil {
		checkError(t, err, *c.Error)
		if got != nil {
			t.Errorf("Apply returned a result with its error: %s", nodetest.JSONOf(t, got))
		}
		if !reflect.DeepEqual(doc, docBefore) {
			t.Errorf("the document changed although the patch was rejected: now %s", nodetest.JSONOf(t, doc))
		}
		return
	}
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	want := nodetest.ReadDoc(t, c.Result)
	if !roots && got != doc {
		t.Errorf("Apply returned a new document node; want doc itself")
	}
	if !tree.Equal(got, want) {
		t.Errorf("result %s, want %s", nodetest.JSONOf(t, got), nodetest.JSONOf(t, want))
	}
	if g, w := nodetest.KeyOrder(got), nodetest.KeyOrder(want); !slices.Equal(g, w) {
		t.Errorf("key order %q, want %q", g, w)
	}
	nodetest.CheckNoSharing(t, got, patch)
}

func checkError(t *testing.T, err error, want wantError) {
	t.Helper()
	var e *jsonpatch.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want a *jsonpatch.Error", err, err)
	}
	// the message starts with the position, with the patch's name
	msg, ok := strings.CutPrefix(e.Error(), e.Pos.String())
	if !ok || e.Pos.File != "patch" {
		t.Errorf("message %q does not start with the position %v", e.Error(), e.Pos)
	}
	if msg != want.Message {
		t.Errorf("message\n got %s\nwant %s", msg, want.Message)
	}
	if e.Index != want.Index || string(e.Reason) != want.Reason {
		t.Errorf("index %d, reason %s; want %d, %s", e.Index, e.Reason, want.Index, want.Reason)
	}
	if want.At != "" {
		if at := fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Column); at != want.At {
			t.Errorf("at %s, want %s", at, want.At)
		}
	}
}

// TestRFC6902 runs the examples of RFC 6902, Appendix A.1 to A.16.
func TestRFC6902(t *testing.T) {
	cases := loadFixtures(t, "rfc6902.yaml")
	if len(cases) != 16 {
		t.Fatalf("testdata/rfc6902.yaml has %d cases, want the 16 of Appendix A", len(cases))
	}
	for i, c := range cases {
		if !strings.HasPrefix(c.Name, fmt.Sprintf("A.%d ", i+1)) {
			t.Fatalf("case %d is %q, want A.%d", i, c.Name, i+1)
		}
		for _, roots := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/roots=%v", c.Name, roots), func(t *testing.T) { runFixture(t, c, roots) })
		}
	}
}

// TestCases runs testdata/cases.yaml: edge cases and errors.
func TestCases(t *testing.T) {
	for _, c := range loadFixtures(t, "cases.yaml") {
		for _, roots := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/roots=%v", c.Name, roots), func(t *testing.T) { runFixture(t, c, roots) })
		}
	}
}

// TestRFC6901 checks the pointers of RFC 6901, section 5, on its document:
// a test operation with the value the RFC gives passes, one with another
// value fails, and copy takes the value to a new member.
func TestRFC6901(t *testing.T) {
	var spec struct {
		Doc      string `yaml:"doc"`
		Pointers []struct {
			Pointer string `yaml:"pointer"`
			Value   string `yaml:"value"`
		} `yaml:"pointers"`
	}
	if err := yaml.Unmarshal(nodetest.MustRead(t, "rfc6901.yaml"), &spec); err != nil {
		t.Fatal(err)
	}
	if len(spec.Pointers) != 12 {
		t.Fatalf("testdata/rfc6901.yaml has %d pointers, want the 12 of section 5", len(spec.Pointers))
	}
	for _, p := range spec.Pointers {
		t.Run(strconv.Quote(p.Pointer), func(t *testing.T) {
			ptr, err := yaml.Marshal(p.Pointer)
			if err != nil {
				t.Fatal(err)
			}
			ptrText := strings.TrimSpace(string(ptr))
			doc := nodetest.ReadDoc(t, spec.Doc)
			ok := fmt.Sprintf("[{op: test, path: %s, value: %s}]", ptrText, p.Value)
			if _, err := jsonpatch.Apply(doc, nodetest.ReadDoc(t, ok), jsonpatch.Options{}); err != nil {
				t.Errorf("test with the RFC's value: %v", err)
			}
			bad := fmt.Sprintf("[{op: test, path: %s, value: [%s]}]", ptrText, p.Value)
			_, err = jsonpatch.Apply(doc, nodetest.ReadDoc(t, bad), jsonpatch.Options{})
			var e *jsonpatch.Error
			if !errors.As(err, &e) || e.Reason != jsonpatch.ReasonTest {
				t.Errorf("test with another value: %v, want a test failure", err)
			}
			cp := fmt.Sprintf("[{op: copy, from: %s, path: /copied}]", ptrText)
			got, err := jsonpatch.Apply(doc, nodetest.ReadDoc(t, cp), jsonpatch.Options{})
			if err != nil {
				t.Fatalf("copy: %v", err)
			}
			if v := tree.MapGet(tree.Root(got), "copied"); !tree.Equal(v, nodetest.ReadDoc(t, p.Value)) {
				t.Errorf("copy gives %s, want %s", nodetest.JSONOf(t, v), p.Value)
			}
		})
	}
}

// TestPreserve applies a patch with every operation to a commented YAML
// document and checks the output byte for byte against
// testdata/preserve/result.yaml, written by hand: comments, key order and
// quoting of what the patch leaves alone stay; a scalar replaced by a
// scalar keeps its comments and its quotes; a moved value keeps its
// comments and those of its key; new members come last.
func TestPreserve(t *testing.T) {
	read := func(name string) *tree.Stream { return nodetest.ReadStream(t, "preserve", name) }
	nodetest.RequireWritesBack(t, "preserve", "original.yaml")
	doc, patch := read("original.yaml"), read("patch.yaml")
	before := tree.Clone(patch.Docs[0])
	if _, err := jsonpatch.Apply(doc.Docs[0], patch.Docs[0], jsonpatch.Options{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tree.WriteYAML(&out, doc.Style, doc.Docs...); err != nil {
		t.Fatal(err)
	}
	if want := nodetest.MustRead(t, "preserve", "result.yaml"); !bytes.Equal(out.Bytes(), want) {
		t.Errorf("output differs from testdata/preserve/result.yaml:\n--- got\n%s--- want\n%s", out.Bytes(), want)
	}
	if !reflect.DeepEqual(patch.Docs[0], before) {
		t.Errorf("Apply modified the patch")
	}
	nodetest.CheckNoSharing(t, doc.Docs[0], patch.Docs[0])
}

// TestInPlace checks that Apply edits the document's nodes: the root and
// nested nodes stay, a replaced scalar keeps its node, a moved value is the
// same node at its new place.
func TestInPlace(t *testing.T) {
	doc := nodetest.ReadDoc(t, "a:\n  b: 1 # one\n  c: [x, y]\nd: {e: 1}\n")
	root := doc.Content[0]
	a := tree.MapGet(root, "a")
	b := tree.MapGet(a, "b")
	d := tree.MapGet(root, "d")
	patch := nodetest.ReadDoc(t, "[{op: replace, path: /a/b, value: 2}, {op: move, from: /d, path: /a/c/0}, {op: add, path: /f, value: 3}]")
	got, err := jsonpatch.Apply(doc, patch, jsonpatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got != doc || doc.Content[0] != root || tree.MapGet(root, "a") != a || tree.MapGet(a, "b") != b {
		t.Fatalf("nodes replaced; want the document edited in place")
	}
	if b.Value != "2" || b.LineComment != "# one" {
		t.Errorf("b is %q with comment %q, want 2 with comment \"# one\"", b.Value, b.LineComment)
	}
	if tree.MapGet(a, "c").Content[0] != d {
		t.Errorf("the moved value is a new node")
	}
	if want := `{"a":{"b":2,"c":[{"e":1},"x","y"]},"f":3}`; nodetest.JSONOf(t, got) != want {
		t.Errorf("result %s, want %s", nodetest.JSONOf(t, got), want)
	}

	r := tree.Root(nodetest.ReadDoc(t, "a: 1\n"))
	got, err = jsonpatch.Apply(r, nodetest.ReadDoc(t, "[{op: add, path: /b, value: 2}]"), jsonpatch.Options{})
	if err != nil || got != r {
		t.Errorf("Apply on a root value: %v; want the root itself", err)
	}
	got, err = jsonpatch.Apply(r, nodetest.ReadDoc(t, "[{op: replace, path: '', value: [1]}]"), jsonpatch.Options{})
	if err != nil || got == r || nodetest.JSONOf(t, got) != "[1]" {
		t.Errorf("replacing a root value: %v; want a new node [1]", err)
	}
	if nodetest.JSONOf(t, r) != `{"a":1,"b":2}` {
		t.Errorf("the old root changed when a new one replaced it: %s", nodetest.JSONOf(t, r))
	}
}

// TestAtomic applies patches that change the document in every way and
// then fail, and checks that every node of the document is as before.
func TestAtomic(t *testing.T) {
	const doc = "# head\na: 1 # c\nb: [1, 2, {c: d}]\ne: {f: 'g'}\n"
	changes := []string{
		"{op: add, path: /x, value: {y: 1}}",
		"{op: add, path: /b/0, value: 0}",
		"{op: add, path: /a, value: [1]}",
		"{op: remove, path: /b/1}",
		"{op: remove, path: /e}",
		"{op: replace, path: /a, value: 2}",
		"{op: replace, path: /e/f, value: h}",
		"{op: replace, path: /b, value: x}",
		"{op: move, from: /b/2, path: /e/z}",
		"{op: move, from: /a, path: /b/-}",
		"{op: move, from: /e, path: ''}",
		"{op: copy, from: '', path: /e/copy}",
		"{op: copy, from: /b, path: /b/0}",
		"{op: replace, path: '', value: 1}",
		"{op: add, path: '', value: 2}",
	}
	failures := []string{
		"{op: test, path: /nothing, value: 1}",
		"{op: remove, path: /a/b/c}",
		"{op: add, path: /zz/zz, value: 1}",
	}
	for _, roots := range []bool{false, true} {
		for i := range changes {
			for _, f := range failures {
				// every change alone, and all changes from i on, then a failure
				for _, ops := range [][]string{{changes[i], f}, append(slices.Clone(changes[i:]), f)} {
					d := nodetest.ReadDoc(t, doc)
					if roots {
						d = tree.Root(d)
					}
					before := tree.Clone(d)
					patch := "[" + strings.Join(ops, ", ") + "]"
					if _, err := jsonpatch.Apply(d, nodetest.ReadDoc(t, patch), jsonpatch.Options{}); err == nil {
						t.Fatalf("%s: no error", patch)
					}
					if !reflect.DeepEqual(d, before) {
						t.Errorf("%s (roots %v): the document changed: %s", patch, roots, nodetest.JSONOf(t, d))
					}
				}
			}
		}
	}
}

// TestConcurrent applies one patch to many documents at once (run with
// -race): Apply has no shared state and only reads the patch.
func TestConcurrent(t *testing.T) {
	patch := nodetest.ReadDoc(t, "[{op: add, path: /b, value: {c: [1]}}, {op: copy, from: /b, path: /d}, {op: test, path: /d/c/0, value: 1.0}]")
	before := tree.Clone(patch)
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		wg.Go(func() {
			doc := nodetest.ReadDoc(t, "a: 1\n")
			got, err := jsonpatch.Apply(doc, patch, jsonpatch.Options{})
			if err == nil && nodetest.JSONOf(t, got) != `{"a":1,"b":{"c":[1]},"d":{"c":[1]}}` {
				err = fmt.Errorf("result %s", nodetest.JSONOf(t, got))
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if !reflect.DeepEqual(patch, before) {
		t.Errorf("Apply modified the patch")
	}
}

// TestNullsAndEmpty covers nil nodes and empty documents: a nil or empty
// document is null; a nil or empty patch is not an array.
func TestNullsAndEmpty(t *testing.T) {
	empty := func() *yaml.Node { return &yaml.Node{Kind: yaml.DocumentNode} }
	set := func() *yaml.Node { return nodetest.ReadDoc(t, `[{"op": "add", "path": "", "value": {"a": 1}}]`) }
	got, err := jsonpatch.Apply(nil, set(), jsonpatch.Options{})
	if err != nil || nodetest.JSONOf(t, got) != `{"a":1}` {
		t.Errorf("nil document: %v", err)
	}
	d := empty()
	got, err = jsonpatch.Apply(d, set(), jsonpatch.Options{})
	if err != nil || got != d || nodetest.JSONOf(t, got) != `{"a":1}` {
		t.Errorf("empty document: %v", err)
	}
	got, err = jsonpatch.Apply(nil, nodetest.ReadDoc(t, "[]"), jsonpatch.Options{})
	if err != nil || got == nil || nodetest.JSONOf(t, got) != "null" {
		t.Errorf("nil document, empty patch: %v %v; want a null node", got, err)
	}
	for _, p := range []*yaml.Node{nil, empty(), nodetest.ReadDoc(t, "null")} {
		_, err := jsonpatch.Apply(nodetest.ReadDoc(t, "a: 1"), p, jsonpatch.Options{})
		var e *jsonpatch.Error
		if !errors.As(err, &e) || e.Index != -1 || e.Reason != jsonpatch.ReasonInvalid {
			t.Errorf("patch %v: %v, want an invalid-patch error", p, err)
		}
	}
}

// TestOddTrees checks that trees tree.Read never returns work or fail
// cleanly: aliases (edited as copies, so that other references do not
// change), documents nested in values, nil nodes, keys that are not
// scalars, duplicate members in an operation.
func TestOddTrees(t *testing.T) {
	aliased := nodetest.RawDoc(t, "a: &x {b: 1}\nc: *x\nl: &l [1]\nm: *l\n")
	patch := nodetest.RawDoc(t, "- &v {op: add, path: /c/d, value: &w {e: 1}}\n- {op: add, path: /m/-, value: *w}\n- {op: test, path: /a, value: {b: 1}}\n- {op: copy, from: /c, path: /f}\n")
	got, err := jsonpatch.Apply(aliased, patch, jsonpatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if j, want := nodetest.JSONOf(t, got), `{"a":{"b":1},"c":{"b":1,"d":{"e":1}},"l":[1],"m":[1,{"e":1}],"f":{"b":1,"d":{"e":1}}}`; j != want {
		t.Errorf("aliases: result %s, want %s", j, want)
	}
	var out bytes.Buffer
	if err := tree.WriteYAML(&out, tree.Style{Indent: 2}, got); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "&") > 2 {
		t.Errorf("anchors were copied:\n%s", out.String())
	}

	nested := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		tree.NewString("a"), {Kind: yaml.DocumentNode, Content: []*yaml.Node{tree.Root(nodetest.ReadDoc(t, "{b: 1}"))}},
		tree.NewString("dangling"),
	}}
	got, err = jsonpatch.Apply(nested, nodetest.ReadDoc(t, "[{op: add, path: /a/c, value: 2}, {op: add, path: /z, value: 1}]"), jsonpatch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if j, want := nodetest.JSONOf(t, got), `{"a":{"b":1,"c":2},"z":1}`; j != want {
		t.Errorf("nested document: result %s, want %s", j, want)
	}

	badKey := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{tree.NewMap(), tree.NewString("v")}}
	if _, err := jsonpatch.Apply(badKey, nodetest.ReadDoc(t, "[{op: add, path: /a, value: 1}]"), jsonpatch.Options{}); err == nil || !strings.Contains(err.Error(), "has a key that is an object") {
		t.Errorf("non-scalar key in the document: %v", err)
	}
	badOp := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Content: []*yaml.Node{tree.NewSeq(), tree.NewString("v")}}}}
	if _, err := jsonpatch.Apply(nodetest.ReadDoc(t, "a: 1"), badOp, jsonpatch.Options{}); err == nil || !strings.Contains(err.Error(), "member name is an array") {
		t.Errorf("non-scalar key in the patch: %v", err)
	}
	nils := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{nil}}
	if _, err := jsonpatch.Apply(nodetest.ReadDoc(t, "a: 1"), nils, jsonpatch.Options{}); err == nil {
		t.Errorf("nil operation: no error")
	}
	nilValue := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Content: []*yaml.Node{
		tree.NewString("op"), tree.NewString("add"), tree.NewString("path"), tree.NewString("/b"), tree.NewString("value"), nil,
	}}}}
	got, err = jsonpatch.Apply(nodetest.ReadDoc(t, "a: 1"), nilValue, jsonpatch.Options{})
	if err != nil || nodetest.JSONOf(t, got) != `{"a":1,"b":null}` {
		t.Errorf("nil value: %v", err)
	}
	for _, zero := range []*yaml.Node{{}, {Kind: yaml.MappingNode}, {Kind: yaml.SequenceNode}, {Kind: yaml.ScalarNode}} {
		if _, err := jsonpatch.Apply(zero, nodetest.ReadDoc(t, "[{op: add, path: '', value: 1}]"), jsonpatch.Options{}); err != nil {
			t.Errorf("doc %+v: %v", zero, err)
		}
	}
}

// TestErrorFormat checks Error() for errors about the patch as a whole, an
// operation without op, a move, and the position in front, with the
// patch's name (Options.File).
func TestErrorFormat(t *testing.T) {
	_, err := jsonpatch.Apply(nodetest.ReadDoc(t, "a: {b: 1}"), nodetest.ReadDoc(t, "- op: move\n  from: /a/b\n  path: /c/d\n"), jsonpatch.Options{File: "patch.yaml"})
	var e *jsonpatch.Error
	if !errors.As(err, &e) {
		t.Fatalf("%v", err)
	}
	if pos, ok := tree.ErrorPosition(err); !ok || pos != (tree.Position{File: "patch.yaml", Line: 1, Column: 3}) {
		t.Errorf("position %v", pos)
	}
	if got, want := e.Error(), `patch.yaml:1:3: operation 0 (move /a/b to /c/d): no member "c" in the root object`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if e.Op != "move" || e.Path != "/c/d" || e.From != "/a/b" || !e.HasPath || !e.HasFrom {
		t.Errorf("fields %+v", e)
	}
	_, err = jsonpatch.Apply(nodetest.ReadDoc(t, "a: 1"), nodetest.ReadDoc(t, `[{"op": "remove", "path": ""}]`), jsonpatch.Options{})
	if !errors.As(err, &e) || e.Path != "" || !e.HasPath || e.HasFrom {
		t.Errorf("remove of the whole document: %+v", e)
	}
}

// TestCopyLimit checks that a patch that copies the document into itself
// until the copies would add more than the limit (Options.MaxExpanded, by
// default tree.DefaultLimits().MaxExpanded, 8 MiB) is rejected before the
// copy that crosses it is made, and one that stays below passes.
func TestCopyLimit(t *testing.T) {
	bomb := func(n int) *yaml.Node {
		return nodetest.ReadDoc(t, "["+strings.Repeat(`{"op": "copy", "from": "", "path": "/-"},`, n-1)+`{"op": "copy", "from": "", "path": "/-"}]`)
	}
	doc := nodetest.ReadDoc(t, "[1]")
	got, err := jsonpatch.Apply(doc, bomb(10), jsonpatch.Options{})
	if err != nil || len(tree.Root(got).Content) != 11 {
		t.Fatalf("10 copies: %v", err)
	}
	doc = nodetest.ReadDoc(t, "[1]")
	before := tree.Clone(doc)
	_, err = jsonpatch.Apply(doc, bomb(40), jsonpatch.Options{})
	var e *jsonpatch.Error
	// [1] costs 2 nodes and 1 byte of text: 2*nodeCost+1 = 305 bytes
	// (nodeCost is the size of a yaml.Node, 152 bytes); each copy doubles
	// the document, so copy k (from 0) adds 305*2^k, and copies 0 to k add
	// 305*(2^(k+1)-1): more than 8 MiB (8,388,608) first at k = 14.
	if !errors.As(err, &e) || e.Reason != jsonpatch.ReasonLimit || e.Index != 14 {
		t.Fatalf("40 copies: %v, want a limit error at operation 14", err)
	}
	if !reflect.DeepEqual(doc, before) {
		t.Errorf("the document changed")
	}
	// the same with a lower limit: 305*(2^(k+1)-1) > 10,000 first at k = 5
	doc = nodetest.ReadDoc(t, "[1]")
	_, err = jsonpatch.Apply(doc, bomb(40), jsonpatch.Options{MaxExpanded: 10000})
	if !errors.As(err, &e) || e.Reason != jsonpatch.ReasonLimit || e.Index != 5 {
		t.Fatalf("40 copies, limit 10,000: %v, want a limit error at operation 5", err)
	}
	// and none
	doc = nodetest.ReadDoc(t, "[1]")
	if got, err := jsonpatch.Apply(doc, bomb(16), jsonpatch.Options{MaxExpanded: -1}); err != nil || len(tree.Root(got).Content) != 17 {
		t.Fatalf("16 copies without a limit: %v", err)
	}
}

// TestEmptyNull checks that a null the patch writes as nothing (YAML's
// "value:") lands as null even in a flow collection, where yaml.v3 would
// write an empty null as an empty quoted string (found by FuzzApply).
func TestEmptyNull(t *testing.T) {
	doc := nodetest.ReadDoc(t, "l: [a, b]\nm: {k: v}\n")
	patch := nodetest.ReadDoc(t, "- op: replace\n  path: /l/0\n  value:\n- op: add\n  path: /m/n\n  value:\n")
	if _, err := jsonpatch.Apply(doc, patch, jsonpatch.Options{}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tree.WriteYAML(&out, tree.Style{Indent: 2}, doc); err != nil {
		t.Fatal(err)
	}
	// the key n is quoted: a YAML 1.1 reader takes it for a boolean
	// (the writer's rule, tree/quote.go)
	if want := "l: [null, b]\nm: {k: v, \"n\": null}\n"; out.String() != want {
		t.Errorf("got\n%swant\n%s", out.String(), want)
	}
}
