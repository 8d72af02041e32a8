// Package nodetest holds the helpers that the tests of the packages editing
// yaml.v3 trees (jsonpatch, mergepatch) share: reading fixtures, rendering
// values, and checking that a result shares no node with its patch.
package nodetest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/fastyaml"
	"github.com/kmerge/kmerge/tree"
)

// MustRead returns the contents of a file under testdata.
func MustRead(tb testing.TB, path ...string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{"testdata"}, path...)...))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// ReadDoc parses a stream of one document and returns its document node.
func ReadDoc(tb testing.TB, text string) *yaml.Node {
	tb.Helper()
	s, err := tree.Read([]byte(text), tree.Options{})
	if err != nil {
		tb.Fatalf("parse %q: %v", text, err)
	}
	if len(s.Docs) != 1 {
		tb.Fatalf("parse %q: %d documents, want 1", text, len(s.Docs))
	}
	return s.Docs[0]
}

// RawDoc parses text with kmerge's reader alone and returns its first
// document node: aliases stay aliases and nothing is checked, for trees
// tree.Read would never return.
func RawDoc(tb testing.TB, text string) *yaml.Node {
	tb.Helper()
	docs, err := fastyaml.Parse([]byte(text), 0)
	if err != nil {
		tb.Fatalf("parse %q: %v", text, err)
	}
	if len(docs) == 0 {
		tb.Fatalf("parse %q: no document", text)
	}
	return docs[0]
}

// JSONOf returns n as compact JSON.
func JSONOf(tb testing.TB, n *yaml.Node) string {
	tb.Helper()
	b, err := tree.MarshalJSON(n)
	if err != nil {
		tb.Fatalf("MarshalJSON: %v", err)
	}
	return string(b)
}

// First parses fuzz input and returns its first document (nil if there is
// none), or that document's root; false if the input does not read under
// small limits.
func First(text string, root bool) (*yaml.Node, bool) {
	limits := tree.Limits{MaxBytes: 1 << 16, MaxDocuments: 10, MaxDepth: 100, MaxNodes: 10000}
	s, err := tree.Read([]byte(text), tree.Options{Limits: &limits})
	if err != nil {
		return nil, false
	}
	if len(s.Docs) == 0 {
		return nil, true
	}
	if root {
		return tree.Root(s.Docs[0]), true
	}
	return s.Docs[0], true
}

// KeyOrder lists the paths of all object keys of n in document order, so
// that two values with the same keys in the same order give the same list.
func KeyOrder(n *yaml.Node) []string {
	var out []string
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		n = tree.Root(n)
		switch tree.KindOf(n) {
		case tree.Object:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := path + "/" + n.Content[i].Value
				out = append(out, p)
				walk(n.Content[i+1], p)
			}
		case tree.Array:
			for i, c := range n.Content {
				walk(c, path+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(n, "")
	return out
}

// HasNull reports whether n or any value inside it is null.
func HasNull(n *yaml.Node) bool {
	if tree.KindOf(n) == tree.Null {
		return true
	}
	for _, c := range n.Content {
		if HasNull(c) {
			return true
		}
	}
	return false
}

// NodeSet collects the nodes of the tree n into set (a new one if nil).
func NodeSet(n *yaml.Node, set map[*yaml.Node]bool) map[*yaml.Node]bool {
	if set == nil {
		set = map[*yaml.Node]bool{}
	}
	if n == nil || set[n] {
		return set
	}
	set[n] = true
	NodeSet(n.Alias, set)
	for _, c := range n.Content {
		NodeSet(c, set)
	}
	return set
}

// CheckNoSharing fails if the result holds a node of the patch: values the
// patch brings must be copies.
func CheckNoSharing(tb testing.TB, result, patch *yaml.Node) {
	tb.Helper()
	inPatch := NodeSet(patch, nil)
	for n := range NodeSet(result, nil) {
		if inPatch[n] {
			tb.Errorf("the result shares a node with the patch: %s %q at line %d", n.ShortTag(), n.Value, n.Line)
			return
		}
	}
}

// FuzzDocPatch runs check on every pair of fuzz inputs that reads under
// small limits, twice: as document nodes, then as their root values.
func FuzzDocPatch(f *testing.F, check func(t *testing.T, doc, patch *yaml.Node)) {
	f.Fuzz(func(t *testing.T, docText, patchText string) {
		for _, roots := range []bool{false, true} {
			doc, ok := First(docText, roots)
			if !ok {
				return
			}
			patch, ok := First(patchText, roots)
			if !ok {
				return
			}
			check(t, doc, patch)
		}
	})
}

// ReadStream reads a file under testdata.
func ReadStream(tb testing.TB, path ...string) *tree.Stream {
	tb.Helper()
	s, err := tree.Read(MustRead(tb, path...), tree.Options{File: filepath.Join(path...)})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// RequireWritesBack fails unless the file under testdata, read and written
// back untouched, is byte for byte what was read: the ground on which a
// test can say that nothing unrelated to a patch changed.
func RequireWritesBack(tb testing.TB, path ...string) {
	tb.Helper()
	s := ReadStream(tb, path...)
	var b bytes.Buffer
	if err := tree.WriteYAML(&b, s.Style, s.Docs...); err != nil || b.String() != string(MustRead(tb, path...)) {
		tb.Fatalf("yaml.v3 does not write testdata/%s back unchanged (%v):\n%s", filepath.Join(path...), err, b.Bytes())
	}
}
