package tree

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/lines"
)

// FuzzRead reads any input as a stream: no panic; an error is a
// *SyntaxError whose line is inside the input; what reads writes back (as
// YAML, and as JSON) into text that reads as the same documents; WriteYAML's
// encoder per document writes what one encoder for the stream would,
// where that encoder's text keeps every comment (lostComments).
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a # c\ndata: {a: '1', b: \"x\"}\n",
		"a: &x [1, 2]\nb: *x\nc:\n  <<: {d: 1}\n",
		"--- 1\n--- [a, {b: c}]\n...\n",
		`{"a": [1, 2.50, -0, 1e3, "x\u00e9"], "b": null, "c": {}}`,
		"k: |\n  line\n   more\nl: >-\n  folded\n",
		"? a\n: b\n",
		"a: {b: }\n",
		"!%C3", // a tag escape that is not UTF-8: refused, as yaml.v3 refuses it
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		lim := Limits{MaxBytes: 1 << 16, MaxDocuments: 50, MaxDepth: 50, MaxNodes: 5000}
		st, err := Read([]byte(in), Options{File: "f", Limits: &lim})
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if se.Pos.File != "f" || se.Pos.Line > lineCount([]byte(in))+1 {
				t.Fatalf("error outside the input: %v", err)
			}
			return
		}
		var y bytes.Buffer
		if err := st.WriteYAML(&y); err != nil {
			return // a document yaml.v3 cannot write (the reader took it; the writer refuses, with an error)
		}
		var w bytes.Buffer
		if err := WriteYAML(&w, st.Style, st.Docs...); err == nil {
			// (compared where yaml.v3's text keeps every comment and reads
			// back: the writer's own rules are for where it does not, a
			// "," in a tag's shorthand among them)
			// (and where it holds every document: yaml.v3 writes a first
			// document whose root is an empty null as no text, which
			// reads as no document; the writer starts it with "---")
			if one, err := oneEncoder(st.Style, st.Docs); err == nil && !bytes.Equal(w.Bytes(), one) && len(lostComments(one, st.Docs...)) == 0 && readsBack(one, st.Docs, &lim) && v3Documents(one) == len(st.Docs) {
				t.Fatalf("an encoder per document writes\n%s\none encoder writes\n%s", w.Bytes(), one)
			}
		}
		back, err := Read(y.Bytes(), Options{Limits: &lim})
		if err != nil {
			t.Fatalf("written YAML does not read: %v\n%s", err, y.String())
		}
		if !equalDocs(nonEmpty(back.Docs), nonEmpty(st.Docs)) {
			t.Fatalf("written YAML reads differently:\nin:\n%s\nout:\n%s", in, y.String())
		}
		for _, d := range st.Docs {
			b, err := MarshalJSON(d)
			if err != nil {
				continue // a YAML value JSON cannot hold (a NaN, an infinity)
			}
			j, err := Read(b, Options{Limits: &lim})
			if err != nil || len(j.Docs) != 1 {
				t.Fatalf("written JSON does not read: %v\n%s", err, b)
			}
			if !jsonEqual(j.Docs[0], d) {
				t.Fatalf("written JSON reads differently:\n%s", b)
			}
		}
	})
}

// jsonEqual compares a value with its JSON rendering read back: numbers by
// their JSON value (YAML's 0x10 is JSON's 16), everything else as Equal.
func jsonEqual(a, b *yaml.Node) bool {
	ka, kb := KindOf(a), KindOf(b)
	if ka.Scalar() || kb.Scalar() {
		if (ka == Int || ka == Float) && (kb == Int || kb == Float) {
			fa, _ := FloatValue(a)
			fb, _ := FloatValue(b)
			return fa == fb
		}
		return Equal(a, b)
	}
	if ka != kb {
		return false
	}
	ra, rb := Root(a), Root(b)
	if len(ra.Content) != len(rb.Content) {
		return false
	}
	for i := range ra.Content {
		if ka == Object && i%2 == 0 {
			if ra.Content[i].Value != rb.Content[i].Value { // JSON keys are strings: 0 is "0"
				return false
			}
			continue
		}
		if !jsonEqual(ra.Content[i], rb.Content[i]) {
			return false
		}
	}
	return true
}

// nonEmpty leaves out empty documents (a lone --- reads as one, which
// writes as nothing): they hold no value.
func nonEmpty(docs []*yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	for _, d := range docs {
		if r := Root(d); r != nil && !(KindOf(r) == Null && r.Value == "") {
			out = append(out, d)
		}
	}
	return out
}

// lineCount counts lines as YAML does: \n, \r\n and a lone \r end one, and
// text after the last break is a line too.
func lineCount(data []byte) int {
	// (as the reader counts them: at NEL, LS and PS too; "\u0085\u0085\""
	// has its error at 3:1, FuzzRead, 2026-11-30)
	s := lines.NormalizeYAML(string(data))
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// readsBack reports whether text, a stream as yaml.v3's encoder writes
// docs, reads (by kmerge's reader) as docs.
func readsBack(text []byte, docs []*yaml.Node, lim *Limits) bool {
	back, err := Read(text, Options{Limits: lim})
	return err == nil && equalDocs(nonEmpty(back.Docs), nonEmpty(docs))
}

// v3Documents returns how many documents yaml.v3's decoder reads in
// text, or -1 where it fails.
func v3Documents(text []byte) int {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	n := 0
	for {
		var d yaml.Node
		err := dec.Decode(&d)
		if err == io.EOF {
			return n
		}
		if err != nil {
			return -1
		}
		n++
	}
}
