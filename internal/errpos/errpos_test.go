package errpos

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// TestErrorPosition: tree.ErrorPosition finds the position of each error
// type of kmerge's packages that carries one, also wrapped; errors without
// a line have none.
func TestErrorPosition(t *testing.T) {
	_, yamlErr := tree.Read([]byte("a: 1\nb: [\n"), tree.Options{File: "m.yaml"})
	_, kp := syntax.ParseKpatch([]byte("[deployment.web]\nreplicas 3\n"), "p.kpatch")
	_, invalid := kmerge.Patch(context.Background(), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), []byte("data: {a: 1}\n"), kmerge.PatchOptions{PatchName: "patch.yaml", Validate: validate.Strict})
	_, doc := kmerge.Patch(context.Background(), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), []byte("metadata:\n  $patch: merge\n"), kmerge.PatchOptions{PatchName: "patch.yaml"})
	for _, c := range []struct {
		err  error
		want string // "" for no position
	}{
		{yamlErr, "m.yaml:2:4"}, // the [ not closed
		{fmt.Errorf("reading: %w", yamlErr), "m.yaml:2:4"},
		{kp, "p.kpatch:2:1"},
		{doc, "patch.yaml:2:11"},
		{invalid, "patch.yaml:1:8"},
		{&tree.SyntaxError{Pos: tree.Position{File: "big.yaml"}, Msg: "too big"}, ""},
		{errors.New("plain"), ""},
	} {
		if c.err == nil {
			t.Fatalf("no error to test (want %s)", c.want)
		}
		pos, ok := tree.ErrorPosition(c.err)
		got := ""
		if ok {
			got = fmt.Sprintf("%s:%d:%d", pos.File, pos.Line, pos.Column)
		}
		if got != c.want {
			t.Errorf("%v: position %q, want %q", c.err, got, c.want)
		}
	}
}

// TestQuote: the line and a caret under the column; tabs kept so that the
// caret lines up; CRLF line ends; lines that are not there or too long.
func TestQuote(t *testing.T) {
	long := make([]byte, 201)
	for i := range long {
		long[i] = 'x'
	}
	for _, c := range []struct {
		data      string
		line, col int
		want      string
	}{
		{"a: 1\nreplicas: many\n", 2, 11, "  replicas: many\n            ^\n"},
		{"\tkey: v\n", 1, 3, "  \tkey: v\n  \t ^\n"},
		{"a\r\nb: c\r\n", 2, 4, "  b: c\n     ^\n"},
		{"a: 1\n", 1, 0, "  a: 1\n"}, // no column: no caret
		{"a: 1\n", 3, 1, ""},
		{"a: 1\n", 0, 1, ""},
		{string(long), 1, 1, ""},
		// control characters show as their pictures, one character each
		{"x: \"a\x00b\x01\x7f\u0080\"\n", 1, 6, "  x: \"a\u2400b\u2401\u2421\ufffd\"\n       ^\n"},
	} {
		if got := Quote([]byte(c.data), tree.Position{Line: c.line, Column: c.col}); got != c.want {
			t.Errorf("%q %d:%d:\n got %q\nwant %q", c.data, c.line, c.col, got, c.want)
		}
	}
}

// TestQuoteMasked: a line holding a secret value is quoted masked
// (secret.Line); when the mask starts before the column (the column
// pointed into a flow mapping whose earlier values are secret), the caret
// points at the mask instead of past the end of the line.
func TestQuoteMasked(t *testing.T) {
	for _, c := range []struct {
		data      string
		line, col int
		want      string
	}{
		{"data:\n  password: hunter2\n", 2, 3, "    password: ***\n    ^\n"},
		{"patch: {data: {a: c2VjcmV0LWE=, token: \"bad!\"}}\n", 1, 35, "  patch: ***\n         ^\n"},
		{"stringData.password: s3cret-${values.missing}\n", 1, 29, "  stringData.password: ***\n                       ^\n"},
	} {
		if got := QuoteMasked([]byte(c.data), tree.Position{Line: c.line, Column: c.col}); got != c.want {
			t.Errorf("%q %d:%d:\n got %q\nwant %q", c.data, c.line, c.col, got, c.want)
		}
	}
}

// TestQuoteLineBreaks: the line quoted is the line the position counts.
// In YAML, NEL, LS, PS and a lone "\r" end lines, as kmerge's reader (and
// yaml.v3) count them; in a .kpatch file "\n", "\r\n" and a lone "\r"
// do, and LS or PS in a quoted line show as U+FFFD. The lines used to be cut at "\n"
// alone: an error at line 4 of a Secret whose line 4 held two LS quoted
// line 6, "  password: hunter2" (the attack of 2026-11-29).
func TestQuoteLineBreaks(t *testing.T) {
	secretYAML := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s # c\u2028\u2028 bad\nstringData:\n  password: hunter2\n"
	for _, c := range []struct {
		file, data string
		line, col  int
		want       string
	}{
		{"s.yaml", secretYAML, 6, 2, "   bad\n   ^\n"},
		{"s.yaml", secretYAML, 5, 1, "  \n  ^\n"},
		{"s.yaml", secretYAML, 8, 3, "    password: hunter2\n    ^\n"},
		{"a.yaml", "a: 1\u2028b: [- ]\n", 2, 5, "  b: [- ]\n      ^\n"},
		{"a.yaml", "a: 1\u0085b: 2\u2029c: 3\rd: 4\r\ne: 5", 4, 1, "  d: 4\n  ^\n"},
		{"a.yaml", "a: 1\u0085b: 2\u2029c: 3\rd: 4\r\ne: 5", 5, 4, "  e: 5\n     ^\n"},
		{"a.yaml", "a: 1\n", 3, 1, ""},
		{"p.kpatch", "[cm.a]\ndata.x: \"p\u2028q\u0085\"\r\nbad line\n", 3, 1, "  bad line\n  ^\n"},
		{"p.kpatch", "[cm.a]\ndata.x: \"p\u2028q\u0085\"\r\nbad line\n", 2, 9, "  data.x: \"p\ufffdq\ufffd\"\n          ^\n"},
		// a lone "\r" ends a .kpatch line too, as the parser counts them
		// since it reads old Macs' files (it quoted the line after the
		// error's, or none in a file of CRs; attack, 2026-11-29)
		{"p.kpatch", "# a\r[secret.s]\nstringData.bad key: x\nstringData.password: hunter2\n", 3, 1, "  stringData.bad key: x\n  ^\n"},
		{"p.kpatch", "# a\r[cm.a]\rbad line\r", 3, 1, "  bad line\n  ^\n"},
	} {
		if got := Quote([]byte(c.data), tree.Position{File: c.file, Line: c.line, Column: c.col}); got != c.want {
			t.Errorf("%s line %d of %q: got\n%q\nwant\n%q", c.file, c.line, c.data, got, c.want)
		}
	}
}
