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
