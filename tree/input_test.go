package tree

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// endless is a reader that never ends: reading it all would never return.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

func TestReadInputLimit(t *testing.T) {
	_, err := ReadInput(endless{}, "<stdin>", &Limits{MaxBytes: 1 << 10})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Limit != "bytes" || !strings.Contains(err.Error(), "<stdin>: input is more than the limit of 1024 bytes") {
		t.Fatalf("an endless input under a 1 KiB limit: %v", err)
	}
	data, err := ReadInput(strings.NewReader("a: 1\n"), "<stdin>", &Limits{MaxBytes: 5})
	if err != nil || string(data) != "a: 1\n" {
		t.Fatalf("an input of exactly the limit: %q, %v", data, err)
	}
}

func TestReadFileLimit(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(name, []byte(strings.Repeat("a: 1\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(name, &Limits{MaxBytes: 100})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Limit != "bytes" || !strings.Contains(err.Error(), "input is 500 bytes, more than the limit of 100") {
		t.Fatalf("a 500-byte file under a 100-byte limit: %v", err)
	}
	if data, err := ReadFile(name, nil); err != nil || len(data) != 500 {
		t.Fatalf("under the default limits: %d bytes, %v", len(data), err)
	}
}

// TestWriteYAMLHandMadeTree: a hand-made tree that makes yaml.v3's emitter
// panic (a nil item, which Read never makes) is an error, not a panic.
func TestWriteYAMLHandMadeTree(t *testing.T) {
	bad := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{nil}}
	var b bytes.Buffer
	err := WriteYAML(&b, Style{}, bad)
	if err == nil || !strings.Contains(err.Error(), "cannot write the document as YAML") {
		t.Fatalf("WriteYAML of a sequence with a nil item: %v, %q", err, b.String())
	}
}

// TestWriteYAMLRespelled: what yaml.v3's emitter writes wrongly (found by
// FuzzRead) is respelled so that it reads back the same: folded scalars
// with a more-indented line (extra line breaks), keep-chomped block
// scalars followed by a comment (the blank line before the comment taken
// in), a line comment before a tagged block collection (the tag at column
// 0).
func TestWriteYAMLRespelled(t *testing.T) {
	for _, in := range []string{
		">\n 0\n  0", "k: >\n  a\n    b\n  c\n", "- >-\n  x\n  \ty\n",
		">+\n\n#", "|+\n\n#", "a: >+\n  x\n\n\n# c\n", "a: |+\n  x\n\n# c\nb: 1\n",
		"0: #\n !0\n 0:", "k: # c\n  !!map\n  a: 1\n", "k: # c\n  !t\n  - 1\n",
		"0: #\n &0\n 0:", "k: # c\n  &a\n  - 1\nl: *a\n",
	} {
		st, err := Read([]byte(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteYAML(&b, st.Style, st.Docs...); err != nil {
			t.Fatal(err)
		}
		back, err := Read(b.Bytes(), Options{})
		if err != nil || !equalDocs(back.Docs, st.Docs) {
			t.Errorf("%q written as %q reads back differently (%v)", in, b.String(), err)
		}
	}
}

// TestJSONEscapesLineSeparators: NEL, U+2028, U+2029 and the other C1
// controls are escaped in JSON output, which then reads back (as JSON or
// as YAML) to the same string (found by FuzzRead: "\N" in YAML is NEL).
func TestJSONEscapesLineSeparators(t *testing.T) {
	n := NewString("a\u0085b\u2028c\u2029d\u0080e\u009f\u007f")
	b, err := MarshalJSON(n)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"a\u0085b\u2028c\u2029d\u0080e\u009f\u007f"`; string(b) != want {
		t.Fatalf("MarshalJSON: %s, want %s", b, want)
	}
	st, err := Read(b, Options{})
	if err != nil || len(st.Docs) != 1 || Root(st.Docs[0]).Value != n.Value {
		t.Fatalf("%s reads back as %v (%v)", b, st, err)
	}
}

// TestReadLargestLimit: the largest byte limit (math.MaxInt, what
// --limit bytes=8Ei gives) reads the whole input. Reading one byte more
// than the limit used to compute math.MaxInt64+1, which wraps around to a
// negative count: every input read as empty, without an error.
func TestReadLargestLimit(t *testing.T) {
	const text = "a: 1\n"
	lim := &Limits{MaxBytes: math.MaxInt}
	if data, err := ReadInput(strings.NewReader(text), "<stdin>", lim); err != nil || string(data) != text {
		t.Errorf("ReadInput under the largest limit: %q, %v; want %q", data, err, text)
	}
	name := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(name, lim); err != nil || string(data) != text {
		t.Errorf("ReadFile under the largest limit: %q, %v; want %q", data, err, text)
	}
	// a pipe is not a regular file: ReadFile reads it as a stream
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if data, err := ReadInput(f, name, &Limits{MaxBytes: math.MaxInt - 1}); err != nil || string(data) != text {
		t.Errorf("ReadInput under a limit of math.MaxInt-1: %q, %v; want %q", data, err, text)
	}
}

// TestWriteYAMLCommentBeforeFlow: a line comment after a key whose value
// is written in flow style (emptied by an edit, or of flow style) goes
// after the value: yaml.v3's emitter wrote "k: # c" and the value on the
// next line at the key's column ("{}": kmerge apply printed a document
// neither kmerge nor kubectl reads, exit 0), or dropped the comment
// ("k: {a: 1}"). Found by FuzzRerender. Expected: the value where it
// belongs, the comment kept on the key's line, as yaml.v3 writes a
// value's own line comment; through the writers that keep the text
// (Snapshot) as through the plain one.
func TestWriteYAMLCommentBeforeFlow(t *testing.T) {
	for _, c := range []struct {
		in   string
		edit func(v *yaml.Node)
		want string
	}{
		{"k: # c\n  a: 1\nz: w\n", func(v *yaml.Node) { v.Content = nil }, "k: {} # c\nz: w\n"},
		{"k: # c\n  - 1\nz: w\n", func(v *yaml.Node) { v.Content = nil }, "k: [] # c\nz: w\n"},
		{"k: # c\n  a: 1\nz: w\n", func(v *yaml.Node) { v.Style |= yaml.FlowStyle }, "k: {a: 1} # c\nz: w\n"},
		{"z: w\nk: # c\n  - 1\n", func(v *yaml.Node) { v.Content = nil; v.LineComment = "# d" }, "z: w\nk: [] # c # d\n"},
	} {
		for _, keep := range []bool{false, true} {
			st, err := Read([]byte(c.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if keep {
				st.Snapshot()
			}
			c.edit(MapGet(Root(st.Docs[0]), "k"))
			var b bytes.Buffer
			if err := st.WriteYAML(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != c.want {
				t.Errorf("%q edited (snapshot %v): written as %q, want %q", c.in, keep, b.String(), c.want)
			}
			if _, err := Read(b.Bytes(), Options{}); err != nil {
				t.Errorf("%q edited (snapshot %v): %q does not read back: %v", c.in, keep, b.String(), err)
			}
		}
	}
}
