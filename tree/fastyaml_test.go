package tree

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestFastReaderSameResult: readYAML, which parses with internal/fastyaml
// what it can, gives what yaml.v3's Decoder alone gives (decodeYAML, the
// reader before it): the same documents after normalization, node for
// node, the same errors, the same YAML written out, on every YAML file and
// fuzz corpus of the repository, with the default limits and with small
// ones.
func TestFastReaderSameResult(t *testing.T) {
	inputs := repositoryYAML(t)
	small := Limits{MaxBytes: 1 << 20, MaxDocuments: 2, MaxDepth: 4, MaxNodes: 40}
	for _, lim := range []Limits{DefaultLimits(), small} {
		for _, in := range inputs {
			got, gerr := readYAML([]byte(in), "f.yaml", lim)
			want, _, werr := decodeYAML([]byte(in), "f.yaml", lim)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() && !depthFirst(gerr, werr) {
				t.Fatalf("error %v, want %v, on\n%s", gerr, werr, in)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("documents differ on\n%s", in)
			}
			var g, w bytes.Buffer
			gerr = WriteYAML(&g, Style{Indent: 2}, got...)
			werr = WriteYAML(&w, Style{Indent: 2}, want...)
			if (gerr == nil) != (werr == nil) || !bytes.Equal(g.Bytes(), w.Bytes()) {
				t.Fatalf("written YAML differs on\n%s", in)
			}
		}
	}
}

// depthFirst reports whether got is the error of nesting too deep that
// kmerge's reader meets while reading, and want an error at or after its
// place that yaml.v3 meets first because it reads a document whole before
// its depth is checked: kmerge's reader reports the first problem in the
// order of the text.
func depthFirst(got, want error) bool {
	var g, w *SyntaxError
	if !errors.As(got, &g) || !errors.As(want, &w) || g.Limit != "depth" || w.Limit != "" {
		return false
	}
	return w.Pos.Line == 0 || w.Pos.Line > g.Pos.Line || w.Pos.Line == g.Pos.Line && (w.Pos.Column == 0 || w.Pos.Column >= g.Pos.Column) // 0: no column told
}

// repositoryYAML returns every YAML file and fuzz input of the repository.
func repositoryYAML(t *testing.T) []string {
	t.Helper()
	var inputs []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		switch {
		case d.IsDir():
		case strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			inputs = append(inputs, string(b))
		case filepath.Base(filepath.Dir(filepath.Dir(path))) == "fuzz":
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<24)
			for sc.Scan() {
				if q, ok := strings.CutPrefix(sc.Text(), "string("); ok {
					if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
						inputs = append(inputs, s)
					}
				}
			}
			return sc.Err()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) < 300 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	return inputs
}

// TestDocumentCountBeforeParsing: Read refuses a stream of more documents
// than the limit before parsing it (checkDocumentCount), with the error
// that parsing the documents one by one gives (decodeYAML, which checks the
// limit as each document comes), and never refuses a stream that parsing
// accepts: on hand-written streams and on every YAML file and fuzz input
// of the repository, with limits of 1 to 3 documents.
func TestDocumentCountBeforeParsing(t *testing.T) {
	hand := []string{
		"a: 1\n---\nb: 2\n---\nc: 3\n---\nd: 4\n",
		"---\na: 1\n---\nb: 2\n---\nc: 3\n---\nd: 4\n",
		"# head\n---\na: 1\n---\nb: 2\n--- # c\nc: 3\n---\n# comment\n\nd: 4\n",
		"a: 1\n...\n---\nb: 2\n...\n# comment\n---\nc: 3\n...\n# comment\n\n--- d\n",
		"%YAML 1.1\n---\na\n---\nb\n---\nc\n---\nd\n",
		"\ufeffa\n---\nb\n---\nc\n---\nd\n",
		"---\n---\n---\n---\n",
		"a: |\n  text\n---\nb\n---\nc\n--- d\n",
	}
	for _, in := range hand {
		lim := DefaultLimits()
		lim.MaxDocuments = 3
		_, _, want := decodeYAML([]byte(strings.TrimPrefix(in, "\ufeff")), "f.yaml", lim)
		got := checkDocumentCount([]byte(in), "f.yaml", lim)
		if got == nil || want == nil || got.Error() != want.Error() {
			t.Errorf("%q: counted %v, parsing gives %v", in, got, want)
		}
	}
	compared := 0
	for _, in := range append(hand, repositoryYAML(t)...) {
		for max := 1; max <= 3; max++ {
			lim := DefaultLimits()
			lim.MaxDocuments = max
			got := checkDocumentCount([]byte(in), "f.yaml", lim)
			if got == nil {
				continue
			}
			_, _, want := decodeYAML([]byte(strings.TrimPrefix(in, "\ufeff")), "f.yaml", lim)
			var se *SyntaxError
			if want == nil {
				t.Errorf("refused with at most %d documents, though it parses:\n%s", max, in)
			} else if errors.As(want, &se) && se.Limit == "documents" {
				compared++
				if got.Error() != want.Error() {
					t.Errorf("with at most %d documents: counted %v, parsing gives %v, on\n%s", max, got, want, in)
				}
			}
		}
	}
	if compared < 50 {
		t.Errorf("only %d streams over a limit compared", compared)
	}
}
