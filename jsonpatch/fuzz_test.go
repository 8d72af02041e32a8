package jsonpatch_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/tree"
)

// FuzzApply applies a JSON patch to a document, both JSON or YAML (inputs
// that tree.Read rejects are skipped), as document nodes and as root
// values, and checks that Apply does not panic; that the patch is
// unchanged; that an error is an *Error naming an operation of the patch
// (or -1 for a patch that is no array) and leaves the document exactly as
// it was; and that a result shares no node with the patch, is doc itself
// when doc is a document node, and that its JSON output and its YAML output
// read back as the same JSON.
func FuzzApply(f *testing.F) {
	for _, name := range []string{"rfc6902.yaml", "cases.yaml"} {
		for _, c := range loadFixtures(f, name) {
			f.Add(c.Doc, c.Patch)
		}
	}
	f.Add(string(nodetest.MustRead(f, "preserve", "original.yaml")), string(nodetest.MustRead(f, "preserve", "patch.yaml")))
	f.Add("a: &x {b: 1}\nc: *x\n<<: {m: 1}\n", "- {op: copy, from: /c, path: /a/d}\n- {op: move, from: /m, path: /c/b}\n")
	f.Add("", "[{op: add, path: '', value: 1}]")
	f.Add("[1, [2, [3]]]", "[{op: move, from: /1/1, path: /0}, {op: test, path: /0/0, value: 3.0e0}]")
	f.Add("a: 0x1F\nb: .inf\n", "[{op: test, path: /a, value: 31}, {op: copy, from: /b, path: /c}]")

	nodetest.FuzzDocPatch(f, checkApply)
}

func checkApply(t *testing.T, doc, patch *yaml.Node) {
	docBefore, patchBefore := tree.Clone(doc), tree.Clone(patch)
	got, err := jsonpatch.Apply(doc, patch, jsonpatch.Options{})
	if !reflect.DeepEqual(patch, patchBefore) {
		t.Fatalf("Apply modified the patch")
	}
	if err != nil {
		var e *jsonpatch.Error
		if !errors.As(err, &e) {
			t.Fatalf("error %v is a %T, not a *jsonpatch.Error", err, err)
		}
		ops := tree.Deref(patch)
		isArray := ops != nil && ops.Kind == yaml.SequenceNode
		switch {
		case e.Index == -1 && isArray:
			t.Fatalf("error %q names no operation, but the patch is an array", err)
		case e.Index != -1 && (!isArray || e.Index >= len(ops.Content) || e.Index < 0):
			t.Fatalf("error %q names operation %d of a patch that has none such", err, e.Index)
		case e.Index >= 0 && e.Pos.Line == 0:
			t.Fatalf("error %q has no position", err)
		case e.Msg == "" || e.Reason == "":
			t.Fatalf("error %+v has no message or reason", e)
		}
		if got != nil {
			t.Fatalf("Apply returned a result with its error")
		}
		if !reflect.DeepEqual(doc, docBefore) {
			t.Fatalf("the document changed although the patch was rejected (%v)", err)
		}
		return
	}
	if got == nil {
		t.Fatalf("Apply returned nil without an error")
	}
	if doc != nil && doc.Kind == yaml.DocumentNode && got != doc {
		t.Fatalf("Apply returned a new document node")
	}
	nodetest.CheckNoSharing(t, got, patch)
	if len(nodetest.NodeSet(got, nil)) > 100000 {
		// copies of copies (up to Apply's limit of 8 MiB): the
		// checks below would take seconds; TestCopyLimit covers these
		return
	}

	// The JSON output reads back as the same JSON (tree.Equal would be too
	// strict: a YAML number such as 080 is a float whose JSON text 80 reads
	// back as an integer).
	j, jsonErr := tree.MarshalJSON(got)
	if jsonErr == nil {
		// read as JSON: tree.Read takes only '{' and '[' for JSON, and as
		// YAML a scalar such as "\x7f" is not allowed
		format := tree.JSON
		s, err := tree.Read(j, tree.Options{Format: &format})
		if err != nil {
			t.Fatalf("the JSON of the result does not read back: %v\n%s", err, j)
		}
		if again, _ := tree.MarshalJSON(s.Docs[0]); len(s.Docs) != 1 || !bytes.Equal(again, j) {
			t.Fatalf("the JSON of the result reads back as another value:\n%s\n%s", j, again)
		}
	}
	// So does the YAML output, unless the writer already fails the input.
	var out bytes.Buffer
	if jsonErr == nil && writesBack(docBefore) && tree.WriteYAML(&out, tree.Style{Indent: 2}, got) == nil {
		s, err := tree.Read(out.Bytes(), tree.Options{})
		if err != nil {
			t.Fatalf("the YAML of the result does not read back: %v\n%s", err, out.Bytes())
		}
		var back *yaml.Node
		if len(s.Docs) > 0 {
			back = s.Docs[0]
		}
		if again, _ := tree.MarshalJSON(back); !bytes.Equal(again, j) {
			t.Fatalf("the YAML of the result reads back as another value:\n%s\nJSON before: %s\nafter:       %s", out.Bytes(), j, again)
		}
	}
}

// writesBack reports whether the YAML writer gives back the JSON value of
// n: it does not for some inputs (an empty null in a flow collection comes
// out as an empty quoted string), whatever Apply does with them.
func writesBack(n *yaml.Node) bool {
	var out bytes.Buffer
	if tree.WriteYAML(&out, tree.Style{Indent: 2}, n) != nil {
		return false
	}
	s, err := tree.Read(out.Bytes(), tree.Options{})
	if err != nil {
		return false
	}
	var back *yaml.Node
	if len(s.Docs) > 0 {
		back = s.Docs[0]
	}
	a, errA := tree.MarshalJSON(back)
	b, errB := tree.MarshalJSON(n)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}
