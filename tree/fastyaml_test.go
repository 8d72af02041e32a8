package tree

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/fastyaml"
)

// TestFastReaderSameResult: readYAML, which reads with internal/fastyaml,
// gives what yaml.v3's Decoder gives, each document normalized as readYAML
// normalizes it (decodeV3): the same documents, node for node, the same
// YAML written out, and an error where yaml.v3 gives one (kmerge's own, at
// the same place or before), on every YAML file and fuzz corpus of the
// repository, with the default limits and with small ones. The inputs
// kmerge refuses on purpose (docs/yaml.md) are skipped.
func TestFastReaderSameResult(t *testing.T) {
	inputs := repositoryYAML(t)
	small := Limits{MaxBytes: 1 << 20, MaxDocuments: 2, MaxDepth: 4, MaxNodes: 40}
	for _, lim := range []Limits{DefaultLimits(), small} {
		for _, in := range inputs {
			got, gerr := readYAML([]byte(in), "f.yaml", lim)
			want, werr := decodeV3([]byte(in), "f.yaml", lim)
			if gerr != nil && werr == nil && deliberate(gerr) {
				continue
			}
			if gerr == nil && werr != nil && laterVersion.MatchString(in) {
				continue // a later YAML 1.x, read as 1.2 with a warning (errors_test.go)
			}
			if (gerr == nil) != (werr == nil) {
				t.Fatalf("error %v, want %v, on\n%q", gerr, werr, in)
			}
			if gerr != nil {
				continue
			}
			if !reflect.DeepEqual(got, want) && nullsPlaced(got, want) && reflect.DeepEqual(got, want) {
				continue // (the position of an empty null: internal/fastyaml's known differences)
			}
			if !reflect.DeepEqual(got, want) {
				if !morePlaced(got, want) {
					t.Fatalf("documents differ on\n%q", in)
				}
				// kmerge keeps a comment yaml.v3 drops: the written
				// YAML has it too
				continue
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

// nullsPlaced gives the empty nulls of want got's lines and columns where
// the two trees have the same kinds and lengths down to them, and reports
// whether it changed one: the positions yaml.v3 gives an empty value by
// the token after it, which internal/fastyaml's differential tests name
// (FuzzDifferential's outcomes "slotted" and "ended", whose seeds this
// test reads too: "  ? 0\r#").
func nullsPlaced(got, want []*yaml.Node) bool {
	changed := false
	var walk func(g, w *yaml.Node)
	walk = func(g, w *yaml.Node) {
		if g == nil || w == nil || g.Kind != w.Kind || len(g.Content) != len(w.Content) {
			return
		}
		if g.Kind == yaml.ScalarNode && g.Tag == "!!null" && w.Tag == "!!null" && g.Value == "" && w.Value == "" &&
			(g.Line != w.Line || g.Column != w.Column) {
			w.Line, w.Column = g.Line, g.Column
			changed = true
		}
		for i := range g.Content {
			walk(g.Content[i], w.Content[i])
		}
	}
	if len(got) == len(want) {
		for i := range got {
			walk(got[i], want[i])
		}
	}
	return changed
}

// morePlaced reports whether got holds every comment want holds (and
// perhaps more, that yaml.v3 drops) and differs from want in comments
// only (internal/fastyaml's tests hold yaml.v3's comment rules to be
// followed in every arrangement they know).
func morePlaced(got, want []*yaml.Node) bool {
	g, w := map[string]int{}, map[string]int{}
	var walk func(n *yaml.Node, m map[string]int)
	walk = func(n *yaml.Node, m map[string]int) {
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, l := range strings.Split(c, "\n") {
				if l != "" {
					m[l]++
				}
			}
		}
		for _, c := range n.Content {
			walk(c, m)
		}
	}
	for _, d := range got {
		walk(d, g)
	}
	for _, d := range want {
		walk(d, w)
	}
	for l, n := range w {
		if g[l] < n {
			return false
		}
	}
	strip := func(docs []*yaml.Node) []*yaml.Node {
		var out []*yaml.Node
		for _, d := range docs {
			c := Clone(d)
			var clear func(n *yaml.Node)
			clear = func(n *yaml.Node) {
				n.HeadComment, n.LineComment, n.FootComment = "", "", ""
				for _, k := range n.Content {
					clear(k)
				}
			}
			clear(c)
			out = append(out, c)
		}
		return out
	}
	return reflect.DeepEqual(strip(got), strip(want))
}

// deliberate reports whether an error of readYAML is one for input yaml.v3
// reads and kmerge refuses on purpose (fastyaml.OnPurpose).
func deliberate(err error) bool {
	return fastyaml.OnPurpose(err.Error())
}

// laterVersion finds a %YAML directive of a later 1.x than 1.2, which
// kmerge reads as 1.2 (with a warning) and yaml.v3 refuses; on a line
// ended by a lone CR too (FuzzDifferential's corpus, 2026-11-29).
var laterVersion = regexp.MustCompile(`(?m)(^|\r)%YAML[ \t]+0?1\.0?([3-9]|[1-9][0-9])([ \t\r]|$)`)

// decodeV3 is readYAML with yaml.v3's Decoder: each document decoded in
// turn and normalized as readYAML does, the %YAML directives of a version
// 1.2 to 1.9 read as 1.1 (yaml.v3 reads no other).
func decodeV3(data []byte, file string, limits Limits) ([]*yaml.Node, error) {
	data = regexp.MustCompile(`(?m)^(%YAML[ \t]+)0?1\.0?[2-9]([ \t\r]|$)`).ReplaceAll(data, []byte("${1}1.1${2}")) // (1.02 too)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	var al aliases
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return docs, nil
			}
			return nil, err
		}
		if _, err := addDocument(docs, &doc, file, limits, &al); err != nil {
			return nil, err
		}
		docs = append(docs, &doc)
	}
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
// that parsing the documents one by one gives (readYAML, which checks the
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
		_, want := readYAML([]byte(strings.TrimPrefix(in, "\ufeff")), "f.yaml", lim)
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
			_, want := readYAML([]byte(strings.TrimPrefix(in, "\ufeff")), "f.yaml", lim)
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
