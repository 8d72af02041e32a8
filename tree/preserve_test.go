package tree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/internal/linediff"
	yaml "go.yaml.in/yaml/v3"
)

const corpusDir = "testdata/preserve"

// corpus returns the names of the manifests of testdata/preserve.
func corpus(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(corpusDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if filepath.Base(n) != "edits.yaml" {
			out = append(out, filepath.Base(n))
		}
	}
	return out
}

func readCorpus(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpusDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// write writes st with WriteYAML and returns the text.
func write(t testing.TB, st *Stream) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := st.WriteYAML(&out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestPreserveUnchanged writes every manifest of the corpus back without
// an edit: the output is the input, byte for byte.
func TestPreserveUnchanged(t *testing.T) {
	names := corpus(t)
	if len(names) < 12 {
		t.Fatalf("the corpus has %d files, want at least 12", len(names))
	}
	same, plainSame := 0, 0
	for _, name := range names {
		data := readCorpus(t, name)
		st, err := Read(data, Options{File: name})
		if err != nil {
			t.Fatal(err)
		}
		st.Snapshot()
		if out := write(t, st); !bytes.Equal(out, data) {
			t.Errorf("%s: written back differently:\n%s", name, unified(data, out))
			continue
		}
		same++
		// without Snapshot, yaml.v3 rewrites most of them
		st.snapshot = nil
		if bytes.Equal(write(t, st), data) {
			plainSame++
		}
	}
	t.Logf("%d of %d corpus files written back byte for byte (without Snapshot: %d)", same, len(names), plainSame)
}

// unified is the line diff of two texts, for failure messages.
func unified(a, b []byte) string {
	return linediff.Unified("input", "output", linediff.SplitLines(string(a)), linediff.SplitLines(string(b)), 2)
}

// changedLines counts the lines removed from a plus the lines added in b.
func changedLines(a, b []byte) int {
	n := 0
	for _, h := range linediff.Diff(linediff.SplitLines(string(a)), linediff.SplitLines(string(b))) {
		n += h.A1 - h.A0 + h.B1 - h.B0
	}
	return n
}

// editCase is a case of testdata/preserve/edits.yaml.
type editCase struct {
	Name    string   `yaml:"name"`
	Edits   []editOp `yaml:"edits"`
	Minimal int      `yaml:"minimal"` // lines a careful hand edit changes (removed + added)
	Changed int      `yaml:"changed"` // lines the writer changes (removed + added)
	Expect  string   `yaml:"expect"`  // "" (byte-range edits), "rendered" (documents as the writer renders them) or "stream"
	Why     string   `yaml:"why"`     // why the writer changes more than Minimal
}

// editOp is one edit, done with plain yaml.v3 node operations.
type editOp struct {
	Op    string   `yaml:"op"` // set, add, delete, append, remove, swap
	Doc   int      `yaml:"doc"`
	Path  []string `yaml:"path"`  // keys and sequence indexes from the document's root
	Key   string   `yaml:"key"`   // add: the new key
	At    *int     `yaml:"at"`    // add: position among the keys (default: last)
	Value string   `yaml:"value"` // set: the new scalar value; add, append: YAML text of the new value
	I     int      `yaml:"i"`     // swap: the items to swap
	J     int      `yaml:"j"`
}

type editFile struct {
	File  string     `yaml:"file"`
	Cases []editCase `yaml:"cases"`
}

// lookup follows path from n.
func lookup(n *yaml.Node, path []string) (*yaml.Node, error) {
	for _, p := range path {
		switch n.Kind {
		case yaml.MappingNode:
			v := MapGet(n, p)
			if v == nil {
				return nil, fmt.Errorf("no key %q", p)
			}
			n = v
		case yaml.SequenceNode:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil, fmt.Errorf("no item %q", p)
			}
			n = n.Content[i]
		default:
			return nil, fmt.Errorf("%q: not a collection", p)
		}
	}
	return n, nil
}

// parseValue reads YAML text as one node.
func parseValue(text string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return NewNull(), nil
	}
	return doc.Content[0], nil
}

// apply does op on the documents, with plain node operations.
func (op editOp) apply(docs []*yaml.Node) error {
	if op.Doc >= len(docs) {
		return fmt.Errorf("no document %d", op.Doc)
	}
	root := Root(docs[op.Doc])
	switch op.Op {
	case "set": // change a scalar's value, keeping its tag, style and comments
		n, err := lookup(root, op.Path)
		if err != nil {
			return err
		}
		if n.Kind != yaml.ScalarNode {
			return fmt.Errorf("set: %v is not a scalar", op.Path)
		}
		n.Value = op.Value
	case "add": // add a key to a mapping
		m, err := lookup(root, op.Path)
		if err != nil || m.Kind != yaml.MappingNode {
			return fmt.Errorf("add: %v is not a mapping (%v)", op.Path, err)
		}
		v, err := parseValue(op.Value)
		if err != nil {
			return err
		}
		k := NewString(op.Key)
		at := len(m.Content)
		if op.At != nil {
			at = 2 * *op.At
		}
		m.Content = slices.Insert(m.Content, at, k, v)
	case "delete": // delete a key of a mapping
		m, err := lookup(root, op.Path[:len(op.Path)-1])
		if err != nil || !MapDelete(m, op.Path[len(op.Path)-1]) {
			return fmt.Errorf("delete %v: %v", op.Path, err)
		}
	case "append": // append an item to a sequence
		s, err := lookup(root, op.Path)
		if err != nil || s.Kind != yaml.SequenceNode {
			return fmt.Errorf("append: %v is not a sequence (%v)", op.Path, err)
		}
		v, err := parseValue(op.Value)
		if err != nil {
			return err
		}
		s.Content = append(s.Content, v)
	case "remove": // delete an item of a sequence
		s, err := lookup(root, op.Path[:len(op.Path)-1])
		i, err2 := strconv.Atoi(op.Path[len(op.Path)-1])
		if err != nil || err2 != nil || s.Kind != yaml.SequenceNode || i >= len(s.Content) {
			return fmt.Errorf("remove %v: not an item", op.Path)
		}
		s.Content = slices.Delete(s.Content, i, i+1)
	case "swap": // swap two items of a sequence
		s, err := lookup(root, op.Path)
		if err != nil || s.Kind != yaml.SequenceNode || op.I >= len(s.Content) || op.J >= len(s.Content) {
			return fmt.Errorf("swap: %v (%v)", op.Path, err)
		}
		s.Content[op.I], s.Content[op.J] = s.Content[op.J], s.Content[op.I]
	default:
		return fmt.Errorf("unknown edit %q", op.Op)
	}
	return nil
}

// TestPreserveEdits applies the scripted edits of testdata/preserve/edits.yaml
// to the corpus and checks that (a) the output reads as the edited tree,
// (b) documents no edit touched are copied byte for byte, (c) exactly the
// expected number of lines differ between input and output, and the
// expected way of writing (splice, or a fallback) was taken.
func TestPreserveEdits(t *testing.T) {
	var files []editFile
	if err := yaml.Unmarshal(readCorpus(t, "edits.yaml"), &files); err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	totalLines, cases, minimal, changed, fallbacks := 0, 0, 0, 0, 0
	for _, f := range files {
		data := readCorpus(t, f.File)
		covered[f.File] = true
		totalLines += len(linediff.SplitLines(string(data)))
		for _, c := range f.Cases {
			t.Run(strings.TrimSuffix(f.File, ".yaml")+"/"+c.Name, func(t *testing.T) {
				st, err := Read(data, Options{File: f.File})
				if err != nil {
					t.Fatal(err)
				}
				st.Snapshot()
				touched := map[int]bool{}
				for _, op := range c.Edits {
					if err := op.apply(st.Docs); err != nil {
						t.Fatal(err)
					}
					touched[op.Doc] = true
				}
				out := write(t, st)
				diff := unified(data, out)

				// (a) the output reads as the edited documents
				back, err := Read(out, Options{File: "output"})
				if err != nil {
					t.Fatalf("output does not read: %v\n%s", err, diff)
				}
				if len(back.Docs) != len(st.Docs) {
					t.Fatalf("output has %d documents, want %d", len(back.Docs), len(st.Docs))
				}
				for i := range st.Docs {
					if !Equal(back.Docs[i], st.Docs[i]) {
						t.Fatalf("document %d reads back differently:\n%s", i, diff)
					}
				}

				// the way it was written
				pre, outcomes, err := st.preserved()
				if err != nil {
					t.Fatal(err)
				}
				switch c.Expect {
				case "stream":
					if pre != nil {
						t.Fatalf("expected the whole stream to be rendered by yaml.v3, got %v", outcomes)
					}
					fallbacks++
				case "", "rendered":
					if pre == nil {
						t.Fatalf("the whole stream was rendered by yaml.v3:\n%s", diff)
					}
					if !bytes.Equal(pre, out) {
						t.Fatal("WriteYAML and preserved disagree")
					}
					want := replaced
					if c.Expect == "rendered" {
						want = rendered
						fallbacks++
					}
					for i, o := range outcomes {
						if touched[i] && o != want && o != copied && !(want == replaced && o == canonical) {
							// (a source that is the writer's rendering of
							// its snapshot is written as the writer
							// renders the edit: canonical)
							t.Errorf("document %d: outcome %d, want %d:\n%s", i, o, want, diff)
						}
						if !touched[i] && o != copied {
							t.Errorf("document %d was not edited, yet not copied", i)
						}
					}
					// (b) untouched documents are byte-identical
					_, inBody := cutBOM(data)
					_, outBody := cutBOM(out)
					in, got := chunks(inBody), chunks(outBody)
					if len(in) != len(got) {
						t.Fatalf("%d document texts in, %d out", len(in), len(got))
					}
					for i := range in {
						if !touched[i] && in[i] != got[i] {
							t.Errorf("untouched document %d changed:\n%s", i, unified([]byte(in[i]), []byte(got[i])))
						}
					}
				default:
					t.Fatalf("unknown expect %q", c.Expect)
				}

				// (c) as many changed lines as reasoned in the fixture
				n := changedLines(data, out)
				if n != c.Changed {
					t.Errorf("%d lines changed, the fixture says %d (a hand edit: %d):\n%s", n, c.Changed, c.Minimal, diff)
				}
				if c.Changed > c.Minimal && c.Why == "" && c.Expect == "" {
					t.Errorf("the fixture says the writer changes more lines than a hand edit, without saying why")
				}
				if testing.Verbose() && os.Getenv("PRESERVE_SHOW") != "" {
					t.Logf("\n%s", diff)
				}
				cases++
				minimal += c.Minimal
				changed += n
			})
		}
	}
	for _, name := range corpus(t) {
		if !covered[name] {
			t.Errorf("%s has no edit cases", name)
		}
	}
	// (d) the figure
	t.Logf("%d edit cases on %d corpus lines: a hand edit changes %d lines, the writer %d (%d beyond the edit); %d cases take a fallback",
		cases, totalLines, minimal, changed, changed-minimal, fallbacks)
}

// chunks cuts a stream's text into the texts of its documents.
func chunks(body []byte) []string {
	starts := documentStarts(body)
	out := make([]string, len(starts))
	for i, s := range starts {
		end := len(body)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		out[i] = string(body[s:end])
	}
	return out
}

// TestPreserveFallbacks covers edits that splicing cannot write: the
// output still reads as the edited documents, written as yaml.v3 renders
// them, for the one document or for the stream.
func TestPreserveFallbacks(t *testing.T) {
	big := func() string {
		var b strings.Builder
		b.WriteString("# a long list\nitems:\n")
		for i := range 3000 {
			fmt.Fprintf(&b, "  - item-%d   # number %d\n", i, i)
		}
		return b.String()
	}()
	for _, c := range []struct {
		name string
		in   string
		edit func(st *Stream)
		want string
		how  string // "rendered" or "stream"
	}{{
		// The document's content starts on its "---" line, which a
		// splice keeps as it is: "--- {a: 1, b: 2}" followed by the new
		// rendering does not read, so the document is rendered, after a
		// bare "---". The first document is copied. (A changed value
		// alone, or entries of a flow collection without comments, are
		// written in place instead: TestReplaceValues, TestFlowReplaced;
		// a comment added is not.)
		name: "content on the marker line",
		in:   "a: 1 # one\n--- {a: 1, b: 2}\n",
		edit: func(st *Stream) {
			MapDelete(Root(st.Docs[1]), "b")
			MapGet(Root(st.Docs[1]), "a").LineComment = "# A"
		},
		how: "rendered",
	}, {
		// Editing the anchored mapping would change what the alias
		// stands for: the document is rendered, aliases expanded.
		name: "anchor with alias",
		in:   "base: &b\n  x: 1\nother: *b\n",
		edit: func(st *Stream) { MapGet(MapGet(Root(st.Docs[0]), "base"), "x").Value = "2" },
		want: "base:\n  x: 2\nother:\n  x: 1\n",
		how:  "rendered",
	}, {
		// Many changes and a comment of a kept node changed (the
		// document's head comment, which byte-range edits do not write):
		// the document is rendered. (Changed values and added items
		// alone would be written in place, however many, and so would
		// the list's key renamed.)
		name: "too many changes",
		in:   big,
		edit: func(st *Stream) {
			items := MapGet(Root(st.Docs[0]), "items")
			for _, it := range items.Content {
				it.Value += "-renamed"
			}
			items.Content = append(items.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "added"})
			Root(st.Docs[0]).Content[0].HeadComment = "# the list"
			st.Docs[0].HeadComment = "# the list"
		},
		how: "rendered",
	}, {
		// A document added to the stream has no source text: the whole
		// stream is rendered.
		name: "document added",
		in:   "a:   1\n",
		edit: func(st *Stream) {
			st.Docs = append(st.Docs, &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{NewString("x")}})
		},
		want: "a: 1\n---\nx\n",
		how:  "stream",
	}, {
		// Snapshot called again after an edit: the source no longer
		// reads as the snapshot, and the check of the output catches it.
		name: "snapshot after an edit",
		in:   "a:   1\nb: 2\n",
		edit: func(st *Stream) {
			MapGet(Root(st.Docs[0]), "a").Value = "5"
			st.Snapshot()
		},
		want: "a: 5\nb: 2\n",
		how:  "stream",
	}} {
		t.Run(c.name, func(t *testing.T) {
			st, err := Read([]byte(c.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			st.Snapshot()
			c.edit(st)
			out := write(t, st)
			back, err := Read(out, Options{})
			if err != nil || len(back.Docs) != len(st.Docs) {
				t.Fatalf("output does not read back (%v):\n%s", err, out)
			}
			for i := range st.Docs {
				if !Equal(back.Docs[i], st.Docs[i]) {
					t.Fatalf("document %d reads back differently:\n%s", i, out)
				}
			}
			if c.want != "" && string(out) != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, c.want)
			}
			pre, outcomes, err := st.preserved()
			if err != nil {
				t.Fatal(err)
			}
			switch c.how {
			case "stream":
				if pre != nil {
					t.Errorf("expected the whole stream rendered, got outcomes %v", outcomes)
				}
			case "rendered":
				if pre == nil || !slices.Contains(outcomes, rendered) {
					t.Errorf("expected a rendered document, got outcomes %v", outcomes)
				}
			}
		})
	}
}

// TestPreserveWithoutSnapshot checks that streams without a snapshot, and
// streams read from JSON, are written as before.
func TestPreserveWithoutSnapshot(t *testing.T) {
	in := "a:   1\n\nb: [x,   y]\n"
	st := read(t, in)
	// "y" is quoted: a YAML 1.1 reader takes it for a boolean (quote.go)
	if got := string(write(t, st)); got != "a: 1\nb: [x, \"y\"]\n" {
		t.Errorf("without Snapshot: %q", got)
	}
	js := read(t, `{"a": 1, "b": [1, 2]}`)
	js.Snapshot()
	MapGet(Root(js.Docs[0]), "a").Value = "2"
	var plain bytes.Buffer
	if err := WriteYAML(&plain, js.Style, js.Docs...); err != nil {
		t.Fatal(err)
	}
	if got := write(t, js); !bytes.Equal(got, plain.Bytes()) || string(got) != "a: 2\nb:\n  - 1\n  - 2\n" {
		t.Errorf("JSON with Snapshot: %q, want %q", got, plain.Bytes())
	}
	empty := read(t, "# only a comment\n")
	empty.Snapshot()
	if got := string(write(t, empty)); got != "# only a comment\n" {
		t.Errorf("a stream without documents: %q", got)
	}
}

func TestDocumentStarts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string // the text of each document
	}{
		{"a: 1\n", []string{"a: 1\n"}},
		{"", nil},
		{"# only a comment\n", nil},
		{"---\n", []string{"---\n"}},
		{"# lead\n---\na: 1\n---\nb: 2\n", []string{"# lead\n---\na: 1\n", "---\nb: 2\n"}},
		{"a: 1\n# between\n\n---\nb: 2", []string{"a: 1\n# between\n\n", "---\nb: 2"}},
		{"%YAML 1.1\n---\na: 1\n...\n# after\n%YAML 1.1\n---\nb: 2\n...\n# end\n",
			[]string{"%YAML 1.1\n---\na: 1\n...\n", "# after\n%YAML 1.1\n---\nb: 2\n...\n# end\n"}},
		{"--- |\n  text\n--- >\n  more\n", []string{"--- |\n  text\n", "--- >\n  more\n"}},
		{"a: |\n  ---x\n  ...y\n--- # c\nb: 1\n", []string{"a: |\n  ---x\n  ...y\n", "--- # c\nb: 1\n"}},
		{"a: 1\r\n---\r\nb: 2\r\n", []string{"a: 1\r\n", "---\r\nb: 2\r\n"}},
		{"---\n---\n", []string{"---\n", "---\n"}},
	} {
		got := chunks([]byte(c.in))
		if len(got) == 0 {
			got = nil
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
		if st, err := Read([]byte(c.in), Options{}); err != nil || len(st.Docs) != len(c.want) {
			t.Errorf("%q: yaml.v3 reads %d documents (%v), want %d", c.in, len(st.Docs), err, len(c.want))
		}
	}
}

// FuzzPreserve reads any YAML, makes a small edit to its first mapping
// (none when edit is 0), and writes it after Snapshot: the output must read
// as the edited documents, and without an edit be the input itself. The
// edit is made again on yaml.v3's rendering of the input, whose documents
// are written as the rendering of the edited tree: the output must read as
// the edited documents and be what splicing gives (checkCanonical).
func FuzzPreserve(f *testing.F) {
	for _, name := range corpus(f) {
		data := readCorpus(f, name)
		f.Add(string(data), uint8(0))
		f.Add(string(data), uint8(1))
		f.Add(string(data), uint8(5))
		f.Add(string(data), uint8(9))
	}
	for _, l := range lentLayouts {
		f.Add(l.in, uint8(3)) // a key set in the first document, whose foot comment the next text lends
	}
	f.Add("a: 1\n--- {a: 1, b: 2}\n", uint8(4))
	f.Add("- a\n-   b: 1\n    c: 2\n", uint8(3))
	f.Fuzz(func(t *testing.T, src string, edit uint8) {
		lim := Limits{MaxBytes: 1 << 16, MaxDocuments: 50, MaxDepth: 50, MaxNodes: 5000}
		st, err := Read([]byte(src), Options{Limits: &lim})
		if err != nil || st.Format != YAML {
			return
		}
		st.Snapshot()
		if edit == 0 {
			if out := write(t, st); string(out) != src {
				t.Fatalf("unedited stream written differently:\n%s", unified([]byte(src), out))
			}
			return
		}
		if !fuzzEdit(st.Docs, edit) {
			return
		}
		// The guarantee is relative to yaml.v3: when its own rendering of
		// the edited documents does not read back, neither can ours.
		var plain bytes.Buffer
		if WriteYAML(&plain, st.Style, st.Docs...) != nil {
			return
		}
		if p, err := Read(plain.Bytes(), Options{Limits: &lim}); err != nil || !equalDocs(p.Docs, st.Docs) {
			return
		}
		out := write(t, st)
		back, err := Read(out, Options{Limits: &lim})
		if err != nil {
			t.Fatalf("output does not read: %v\n%s", err, out)
		}
		if !equalDocs(back.Docs, st.Docs) {
			t.Fatalf("output reads differently:\n%s", unified([]byte(src), out))
		}

		// The same edit on the writer's rendering of the source, which
		// is written by byte ranges or as the rendering of the edited
		// tree: it must read back too.
		orig, _ := Read([]byte(src), Options{Limits: &lim})
		var canon bytes.Buffer
		if WriteYAML(&canon, orig.Style, orig.Docs...) != nil {
			return
		}
		cs, err := Read(canon.Bytes(), Options{Limits: &lim})
		if err != nil || len(cs.Docs) != len(orig.Docs) {
			return
		}
		cs.Snapshot()
		if !fuzzEdit(cs.Docs, edit) {
			return
		}
		cout := write(t, cs)
		if back, err := Read(cout, Options{Limits: &lim}); err != nil || !equalDocs(back.Docs, cs.Docs) {
			t.Fatalf("output of the canonical source reads differently (%v):\n%s", err, unified(canon.Bytes(), cout))
		}
	})
}

func equalDocs(a, b []*yaml.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// fuzzEdit edits the first mapping of the documents, depth first: by
// edit%3 it sets the value of a key, adds a key, or deletes a key, the key
// chosen by edit/3. It reports false when there is no mapping to edit.
func fuzzEdit(docs []*yaml.Node, edit uint8) bool {
	var first *yaml.Node
	var find func(n *yaml.Node)
	find = func(n *yaml.Node) {
		if first != nil || n == nil {
			return
		}
		if n.Kind == yaml.MappingNode {
			first = n
			return
		}
		for _, c := range n.Content {
			find(c)
		}
	}
	for _, d := range docs {
		find(d)
	}
	if first == nil {
		return false
	}
	pairs := len(first.Content) / 2
	k := int(edit / 3)
	switch edit % 3 {
	case 0:
		if pairs == 0 {
			return false
		}
		first.Content[2*(k%pairs)+1] = NewString("fuzz-" + strconv.Itoa(int(edit)))
	case 1:
		MapSet(first, "fuzz"+strconv.Itoa(k), NewString("v"))
	case 2:
		if pairs == 0 {
			return false
		}
		first.Content = slices.Delete(first.Content, 2*(k%pairs), 2*(k%pairs)+2)
	}
	return true
}

// TestPreserveRandomEdits makes random edits (set, add or delete keys, add
// or remove items, with scalar, block and flow values) anywhere in the
// corpus: the output always reads as the edited documents, and edited
// documents are always written by byte-range edits, except where an edit
// changes what an alias stands for (06-anchors.yaml), which is rendered.
func TestPreserveRandomEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	values := []string{"x", "a: 1\nb: [2]", "- p\n- q", "{f: 1}", "|\n  text\n  more\n"}
	counts := map[outcome]int{}
	for _, name := range corpus(t) {
		data := readCorpus(t, name)
		for range 40 {
			st, err := Read(data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			st.Snapshot()
			var colls []*yaml.Node
			var collect func(n *yaml.Node)
			collect = func(n *yaml.Node) {
				if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
					colls = append(colls, n)
				}
				for _, c := range n.Content {
					collect(c)
				}
			}
			for _, d := range st.Docs {
				collect(d)
			}
			var desc []string
			for e := range 1 + r.IntN(3) {
				c := colls[r.IntN(len(colls))]
				v, err := parseValue(values[r.IntN(len(values))])
				if err != nil {
					t.Fatal(err)
				}
				switch n := len(c.Content); {
				case c.Kind == yaml.MappingNode && n > 0 && r.IntN(3) == 0:
					i := 2 * r.IntN(n/2)
					desc = append(desc, "delete "+c.Content[i].Value)
					c.Content = slices.Delete(c.Content, i, i+2)
				case c.Kind == yaml.MappingNode && n > 0 && r.IntN(2) == 0:
					i := 2*r.IntN(n/2) + 1
					desc = append(desc, "set "+c.Content[i-1].Value)
					c.Content[i] = v
				case c.Kind == yaml.MappingNode:
					desc = append(desc, "add")
					MapSet(c, "new"+strconv.Itoa(e), v)
				case n > 0 && r.IntN(2) == 0:
					i := r.IntN(n)
					desc = append(desc, "remove item "+strconv.Itoa(i))
					c.Content = slices.Delete(c.Content, i, i+1)
				default:
					desc = append(desc, "append")
					c.Content = append(c.Content, v)
				}
			}
			out := write(t, st)
			back, err := Read(out, Options{})
			if err != nil || !equalDocs(back.Docs, st.Docs) {
				t.Fatalf("%s, %v: output does not read as the edited documents (%v):\n%s", name, desc, err, unified(data, out))
			}
			_, outcomes, err := st.preserved()
			if err != nil {
				t.Fatal(err)
			}
			if outcomes == nil {
				t.Fatalf("%s, %v: the stream was rendered", name, desc)
			}
			for i, o := range outcomes {
				counts[o]++
				if o == rendered && name != "06-anchors.yaml" {
					t.Errorf("%s, %v: document %d was rendered:\n%s", name, desc, i, unified(data, out))
				}
			}
		}
	}
	t.Logf("documents copied: %d, by byte ranges: %d, rendered: %d", counts[copied], counts[replaced], counts[rendered])
}

// TestPreserveEdgeCases pins the output for layouts around the edges of
// byte-range edits: byte order mark, markers with comments, empty documents,
// directives, flow collections over several lines, CRLF.
func TestPreserveEdgeCases(t *testing.T) {
	root := func(st *Stream, i int) *yaml.Node { return Root(st.Docs[i]) }
	for _, c := range []struct {
		name, in string
		edit     func(st *Stream)
		want     string
		outcomes []outcome
	}{{
		name: "byte order mark",
		in:   "\uFEFFa: 1\nb: 2\n",
		edit: func(st *Stream) { MapGet(root(st, 0), "b").Value = "3" },
		want: "\uFEFFa: 1\nb: 3\n", outcomes: []outcome{replaced}, // a changed value, replaced in place (the text after the mark is also yaml.v3's rendering: the same bytes)
	}, {
		name: "comment on the marker line",
		in:   "a: 1\n--- # second\nb: 2\nc: 3\n",
		edit: func(st *Stream) { MapGet(root(st, 1), "c").Value = "4" },
		want: "a: 1\n--- # second\nb: 2\nc: 4\n", outcomes: []outcome{copied, replaced},
	}, {
		// yaml.v3 reads the marker's comment as b's head comment: deleting
		// b deletes it, which a splice cannot do without touching "---".
		name: "deleting the key the marker comment belongs to",
		in:   "a: 1\n--- # second\nb: 2\nc: 3\n",
		edit: func(st *Stream) { MapDelete(root(st, 1), "b") },
		want: "a: 1\n---\nc: 3\n", outcomes: []outcome{copied, rendered},
	}, {
		name: "empty document in between",
		in:   "a: 1\n---\n# nothing here\n---\nb: 2\n",
		edit: func(st *Stream) { MapGet(root(st, 2), "b").Value = "3" },
		want: "a: 1\n---\n# nothing here\n---\nb: 3\n", outcomes: []outcome{copied, copied, replaced},
	}, {
		name: "key inserted first, after a directive and a comment",
		in:   "%YAML 1.1\n# lead\n---\na: 1\n",
		edit: func(st *Stream) {
			root(st, 0).Content = slices.Insert(root(st, 0).Content, 0, NewString("z"), NewString("0"))
		},
		// "# lead" is a's head comment: inserted before a, z would take
		// it; the document is rendered, the comment above a
		want: "%YAML 1.1\n---\nz: \"0\"\n# lead\na: 1\n", outcomes: []outcome{rendered},
	}, {
		name: "flow mapping over two lines",
		in:   "a: {x: 1,\n    y: 2}\nb: 1\n",
		edit: func(st *Stream) { MapGet(MapGet(root(st, 0), "a"), "y").Value = "3" },
		// the value alone changed: it is replaced in place
		// (replaceValues), and the key stays as the source has it, as any
		// text no edit touches (a splice renders the edited lines, and
		// quotes "y", which a YAML 1.1 reader takes for a boolean)
		want: "a: {x: 1,\n    y: 3}\nb: 1\n", outcomes: []outcome{replaced},
	}, {
		name: "dash followed by spaces",
		in:   "- a\n-   b\n- c\n",
		edit: func(st *Stream) { root(st, 0).Content = append(root(st, 0).Content, NewString("d")) },
		want: "- a\n-   b\n- c\n- d\n", outcomes: []outcome{replaced}, // inserted in place (inplace.go)
	}, {
		name: "literal block added to a CRLF file",
		in:   "key: value\r\nlist:\r\n  - 1\r\n",
		edit: func(st *Stream) {
			MapSet(root(st, 0), "text", &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.LiteralStyle, Value: "x\ny\n"})
		},
		want: "key: value\r\nlist:\r\n  - 1\r\ntext: |\r\n  x\r\n  y\r\n", outcomes: []outcome{replaced}, // inserted in place, with the source's line ends
	}, {
		name: "mapping emptied, blank lines after it kept",
		in:   "a:\n  b:\n    c: 1\n\n\nd: 2\n",
		edit: func(st *Stream) { MapDelete(MapGet(root(st, 0), "a"), "b") },
		want: "a: {}\n\n\nd: 2\n", outcomes: []outcome{replaced},
	}, {
		name: "block scalar added at the end of a file without a final newline",
		in:   "a: 1\nb: 2",
		edit: func(st *Stream) {
			MapSet(root(st, 0), "c", &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.LiteralStyle, Value: "x\n"})
		},
		want: "a: 1\nb: 2\nc: |\n  x\n", outcomes: []outcome{replaced}, // (its line break is its value's)
	}, {
		name: "value changed at the end of a file without a final newline",
		in:   "a: 1\nb: 2",
		edit: func(st *Stream) { MapGet(root(st, 0), "b").Value = "3" },
		want: "a: 1\nb: 3", outcomes: []outcome{replaced},
	}} {
		t.Run(c.name, func(t *testing.T) {
			st := read(t, c.in)
			st.Snapshot()
			c.edit(st)
			if out := string(write(t, st)); out != c.want {
				t.Errorf("got %q\nwant %q", out, c.want)
			}
			if _, oc, _ := st.preserved(); !slices.Equal(oc, c.outcomes) {
				t.Errorf("outcomes %v, want %v", oc, c.outcomes)
			}
		})
	}
}

// TestEqualLargeMappings checks that Equal gives the same answers for
// mappings large enough to be indexed.
func TestEqualLargeMappings(t *testing.T) {
	var a, b, c strings.Builder
	for i := range 200 {
		fmt.Fprintf(&a, "k%d: %d\n", i, i)
		fmt.Fprintf(&b, "k%d: %d\n", 199-i, 199-i)
		v := i
		if i == 150 {
			v = -1
		}
		fmt.Fprintf(&c, "k%d: %d\n", i, v)
	}
	ma, mb, mc := read(t, a.String()).Docs[0], read(t, b.String()).Docs[0], read(t, c.String()).Docs[0]
	if !Equal(ma, mb) || !Equal(mb, ma) {
		t.Error("mappings with the same entries in another order must be equal")
	}
	if Equal(ma, mc) || Equal(mc, ma) {
		t.Error("mappings with one different value must differ")
	}
	MapDelete(Root(mb), "k7")
	MapSet(Root(mb), "other", NewString("7"))
	if Equal(ma, mb) || Equal(mb, ma) {
		t.Error("mappings with different keys must differ")
	}
}

// BenchmarkWriteYAML compares writing a stream of a large ConfigMap and 50
// small ones: by yaml.v3, after Snapshot with no edit (a copy), and after
// Snapshot with one value of the large document or of a small one edited.
func BenchmarkWriteYAML(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("apiVersion: v1\nkind: ConfigMap\ndata:\n")
	for i := range 5000 {
		fmt.Fprintf(&sb, "  key%d: value %d   # c\n", i, i)
	}
	for i := range 50 {
		fmt.Fprintf(&sb, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm%d\ndata:\n  a: b\n", i)
	}
	src := []byte(sb.String())
	for _, c := range []struct {
		name     string
		snapshot bool
		doc      int // edited document, -1 for none
	}{{"plain", false, -1}, {"unchanged", true, -1}, {"large edited", true, 0}, {"small edited", true, 30}} {
		b.Run(c.name, func(b *testing.B) {
			st, err := Read(src, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if c.snapshot {
				st.Snapshot()
			}
			switch c.doc {
			case 0:
				MapGet(MapGet(Root(st.Docs[0]), "data"), "key100").Value = "changed"
			case 30:
				MapGet(MapGet(Root(st.Docs[30]), "data"), "a").Value = "c"
			}
			var out bytes.Buffer
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				out.Reset()
				if err := st.WriteYAML(&out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestLoneCRFile: a file whose every line break is a lone carriage return
// (an old Mac's text) keeps its line breaks where an edit is written with
// its source kept: every line the edit leaves alone is the source's,
// ended by a CR, and the lines the edit writes are ended by CRs too. The
// expected texts are the edits of the same file with LF line breaks, as
// the other tests have them, with each LF a CR ("": the writer's text of
// the edited documents, where the edit's would hold a CR of its own). Such a file came out with
// every line break an LF and without its last (a removed comment, a
// removed entry).
func TestLoneCRFile(t *testing.T) {
	at := func(st *Stream, key string) *yaml.Node { return MapGet(Root(st.Docs[0]), key) }
	for _, c := range []struct {
		name, in string
		edit     func(st *Stream)
		want     string
	}{
		{"comment removed", "a: 1 #o\rb: 2\r", func(st *Stream) { at(st, "a").LineComment = "" }, "a: 1\rb: 2\r"},
		{"comment removed, no final break", "a: 1 #o\rb: 2", func(st *Stream) { at(st, "a").LineComment = "" }, "a: 1\rb: 2"},
		{"entry removed", "a: 1\rb: 2 # two\rc: 3\r", func(st *Stream) {
			r := Root(st.Docs[0])
			r.Content = slices.Delete(r.Content, 2, 4)
		}, "a: 1\rc: 3\r"},
		{"value of two lines", "a: 1\rb: 2\r", func(st *Stream) { at(st, "b").Value, at(st, "b").Tag = "x\ny\n", "!!str" }, "a: 1\rb: |\r  x\r  y\r"},
		{"value holding a CR", "a: 1\rb: 2\r", func(st *Stream) { at(st, "b").Value, at(st, "b").Tag = "x\ry", "!!str" }, "a: 1\rb: \"x\\ry\"\r"},
		{"nested value", "a:\r  # about b\r  b: 1\rc: 2\r", func(st *Stream) { MapGet(at(st, "a"), "b").Value = "3" }, "a:\r  # about b\r  b: 3\rc: 2\r"},
		// a comment holding a CRLF (a program's): written raw, its CR
		// would be a line break more; the writer writes the stream, with
		// LF line breaks
		{"comment of a CRLF in a flow collection", "a: {x: 1,\r  z: 2}\r", func(st *Stream) {
			MapGet(at(st, "a"), "z").HeadComment = "# c\r\n# d"
		}, ""},
		{"two documents", "a: 1\r---\rb: 2 #o\r", func(st *Stream) { MapGet(Root(st.Docs[1]), "b").LineComment = "" }, "a: 1\r---\rb: 2\r"},
		// the style is the file's, found on its CR lines: the added lines
		// are indented as the LF file's are (they were by two spaces, and
		// the items under a key indented)
		{"indented by four", "a:\r    b: 1\r    c:\r    - x\rd: 2\r", func(st *Stream) { at(st, "a").Content[0].HeadComment = "# h" }, "a:\r    # h\r    b: 1\r    c:\r    - x\rd: 2\r"},
		{"mapping added, indented by four", "a:\r    b: 1\r    c:\r    - x\rd: 2\r", func(st *Stream) {
			MapSet(at(st, "a"), "e", &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{NewString("f"), NewString("z")}})
		}, "a:\r    b: 1\r    c:\r    - x\r    e:\r        f: z\rd: 2\r"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := read(t, c.in)
			st.Snapshot()
			c.edit(st)
			var b bytes.Buffer
			if err := st.WriteYAML(&b); err != nil {
				t.Fatal(err)
			}
			want := c.want
			if want == "" { // as the writer writes the edited documents
				var w bytes.Buffer
				if err := WriteYAML(&w, st.Style, st.Docs...); err != nil {
					t.Fatal(err)
				}
				want = w.String()
			}
			if b.String() != want {
				t.Errorf("got %q, want %q", b.String(), want)
			}
			back := read(t, b.String())
			if !equalDocs(back.Docs, st.Docs) {
				t.Errorf("%q reads otherwise", b.String())
			}
		})
	}
}
