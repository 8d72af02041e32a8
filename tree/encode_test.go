package tree

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// oneEncoder writes documents the plain way, one yaml.v3 encoder for the
// whole stream: what WriteYAML must give byte for byte, although it uses
// an encoder per document to bound its memory.
func oneEncoder(st Style, docs []*yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(max(st.Indent, 2))
	if st.CompactSequences {
		enc.CompactSeqIndent()
	}
	for _, d := range docs {
		if err := enc.Encode(encodable(d)); err != nil {
			return nil, err
		}
	}
	err := enc.Close()
	return buf.Bytes(), err
}

// TestEncoderPerDocument compares WriteYAML with oneEncoder on every YAML
// stream under the repository's testdata folders and on streams that end
// documents in ways that need a marker (block scalars kept open, plain
// multi-line scalars, comments after the last value).
func TestEncoderPerDocument(t *testing.T) {
	streams := map[string][]byte{
		"keep chomping": []byte("a: |+\n  x\n\n---\nb: 1\n"),
		"root block":    []byte("|+\n  x\n\n---\n|-\n  y\n---\nplain\n  more\n---\nz\n"),
		"foot comments": []byte("a: 1\n# foot\n---\n# head\nb: 2\n---\n---\n# only a comment\n"),
		"scalars":       []byte("1\n---\n\"s\"\n---\n[a, b]\n---\n{}\n"),
	}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "fuzz") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.Contains(path, "testdata") && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			streams[path] = data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for name, data := range streams {
		s, err := Read(data, Options{File: name})
		if err != nil || len(s.Docs) == 0 {
			continue
		}
		var got bytes.Buffer
		if err := WriteYAML(&got, s.Style, s.Docs...); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want, err := oneEncoder(s.Style, s.Docs)
		if err != nil {
			t.Errorf("%s: one encoder: %v", name, err)
			continue
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: an encoder per document writes\n%s\none encoder writes\n%s", name, got.Bytes(), want)
		}
		compared++
	}
	if compared < 100 {
		t.Errorf("compared %d streams, expected the repository's testdata (hundreds)", compared)
	}
	t.Logf("%d streams compared", compared)
}

// TestWriterQuotes: the writer's rule for strings (quote.go), on strings
// read from JSON (no style of their own) and from YAML. Expected texts:
// YAML 1.1's boolean words (yaml.org/type/bool.html: y|Y|yes|Yes|YES|n|N|
// no|No|NO|on|On|ON|off|Off|OFF, and true/false) in any letter case,
// YAML 1.1's base-60 numbers (yaml.org/type/int.html, float.html) and its
// value key "=" are double-quoted, keys as well as values; words that are
// strings in YAML 1.1 too (yess, onto, 1:60, a:1) stay plain; a string
// whose first line starts with a tab is double-quoted instead of written
// as a block scalar (yaml.v3's emitter gives that block no indentation
// indicator, and the tab then reads as indentation, which is an error).
func TestWriterQuotes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": "yes", "b": "No", "c": "ON", "d": "off", "e": "y", "f": "N"}`,
			"a: \"yes\"\nb: \"No\"\nc: \"ON\"\nd: \"off\"\ne: \"y\"\nf: \"N\"\n"},
		{`{"a": "oN", "b": "yEs", "c": "tRuE", "d": "nULL", "e": "FaLsE"}`,
			"a: \"oN\"\nb: \"yEs\"\nc: \"tRuE\"\nd: \"nULL\"\ne: \"FaLsE\"\n"},
		{`{"a": "1:30", "b": "-1:20:30", "c": "190:20:30.15", "d": "+1_000:30", "e": "="}`,
			"a: \"1:30\"\nb: \"-1:20:30\"\nc: \"190:20:30.15\"\nd: \"+1_000:30\"\ne: \"=\"\n"},
		{`{"yes": 1, "on": {"off": "n"}}`, "\"yes\": 1\n\"on\":\n  \"off\": \"n\"\n"},
		{`["y", "yess", "onto", "1:60", "a:1", "1:2:", "--1:20", "=="]`,
			"- \"y\"\n- yess\n- onto\n- 1:60\n- a:1\n- '1:2:'\n- --1:20\n- ==\n"},
		{`{"a": "\tx\ny\n", "b": "\n\tx\n", "c": "x\n\ty\n"}`,
			"a: \"\\tx\\ny\\n\"\nb: \"\\n\\tx\\n\"\nc: |\n  x\n  \ty\n"},
		// YAML sources: plain words are the writer's to quote; quoted
		// and tagged ones keep their style; a literal block that starts
		// with a tab (readable with an indentation indicator) is quoted
		{"a: yes\nb: 'on'\nc: !!str off\n", "a: \"yes\"\nb: 'on'\nc: !!str off\n"},
		{"a: |2\n  \tx\n  y\n", "a: \"\\tx\\ny\\n\"\n"},
		// a timestamp (it holds ":") in a flow collection is quoted, and
		// then keeps its tag: quoted text reads as a string (yaml.v3's
		// encoder drops the tag, and its text reads back as a string)
		{"a: [2001-12-14t21:59:43.10-05:00, 2002-12-14]\n", "a: [!!timestamp '2001-12-14t21:59:43.10-05:00', 2002-12-14]\n"},
	} {
		st, err := Read([]byte(c.in), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		var b bytes.Buffer
		if err := st.WriteYAML(&b); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if b.String() != c.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.in, b.String(), c.want)
		}
		back, err := Read(b.Bytes(), Options{})
		if err != nil || !equalDocs(back.Docs, st.Docs) {
			t.Errorf("%s: written as %q reads back differently (%v)", c.in, b.String(), err)
		}
	}
}
