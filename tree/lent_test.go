package tree

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// lentLayouts are streams with comments between documents, in each of the
// places yaml.v3 gives them to one document or the other: after "---" and
// a blank line (the document before's foot comment, though in the next
// document's text), after "---" without one (the next document's first
// key's head comment), before "---" (the document before's foot comment),
// both (yaml.v3 keeps only the one after "---" in the tree, the text
// keeps both), in an empty document, indented, with CRLF line ends, each
// document of a chain lending to the one before.
var lentLayouts = []struct {
	name, in string
}{
	{"after --- then blank", "a: 1\nk: x\n---\n# c1\n# c2\n\nb: 1\nk: x\n---\nc: 1\nk: x\n"},
	{"after --- without blank", "a: 1\nk: x\n---\n# c1\n# c2\nb: 1\nk: x\n---\nc: 1\nk: x\n"},
	{"before ---", "a: 1\nk: x\n# c1\n# c2\n---\nb: 1\nk: x\n---\nc: 1\nk: x\n"},
	{"before and after ---", "a: 1\nk: x\n# c0\n---\n# c1\n\nb: 1\nk: x\n---\nc: 1\nk: x\n"},
	{"before --- with blank, after --- then blank", "a: 1\nk: x\n# c0\n\n---\n# c1\n\nb: 1\nk: x\n---\nc: 1\nk: x\n"},
	{"chain", "a: 1\nk: x\n---\n# c1\n\nb: 1\nk: x\n---\n# c2\n\n# c3\nc: 1\nk: x\n"},
	{"in an empty document", "a: 1\nk: x\n---\n# c1\n\n---\nb: 1\nk: x\n---\nc: 1\nk: x\n# c2\n---\n# c3\n"},
	{"indented, blank lines around", "a: 1\nk: x\n---\n  # c1\n\n\nb: 1\nk: x\n\n---\n\n# c2\n\nc: 1\nk: x\n"},
	{"nested last entry", "a: 1\nk:\n  m: x\n---\n# c1\n\nb: 1\nk:\n  m: x\n---\n# c2\n\nc:\n  - 1\nk: x\n"},
	{"CRLF", "a: 1\r\nk: x\r\n---\r\n# c1\r\n\r\nb: 1\r\nk: x\r\n---\r\nc: 1\r\nk: x\r\n"},
	// after "...", the text of the next document starts at the line after
	// it (documentStarts): blank lines and directives before its "---"
	// line change nothing of what yaml.v3 lends (a full read gives "# c1"
	// to the first document here too); the comment was written twice
	// when the first document was written by the writer (attack,
	// 2026-11-29)
	{"after ... and a directive", "a: 1\nk: x\n...\n%YAML 1.1\n---\n# c1\n\nb: 1\nk: x\n---\nc: 1\nk: x\n"},
	{"after ... and a blank line", "a: 1\nk: x\n...\n\n---\n# c1\n\nb: 1\nk: x\n---\nc: 1\nk: x\n"},
}

// lentEdits edit one document of a lentLayouts stream (the documents
// holding the key k), and give the text expected: the input with the
// edited lines written anew and every other line, every comment, where it
// was. Each finds its lines in the input by their text.
var lentEdits = []struct {
	name     string
	edit     func(root *yaml.Node)
	want     func(doc string) string // the document's text edited
	firstKey bool                    // edits the first key: not made when it has a head comment (deleting the key deletes it)
}{{
	name: "set the last key",
	edit: func(root *yaml.Node) {
		if v := MapGet(root, "k"); v.Kind == yaml.ScalarNode {
			v.Value = "w"
		} else {
			MapGet(v, "m").Value = "w"
		}
	},
	want: func(doc string) string {
		if strings.Contains(doc, "  m: x") {
			return strings.Replace(doc, "  m: x", "  m: w", 1)
		}
		return strings.Replace(doc, "k: x", "k: w", 1)
	},
}, {
	name: "add a key at the end",
	edit: func(root *yaml.Node) { MapSet(root, "z", NewString("new")) },
	want: func(doc string) string {
		// after the last entry's lines, before the comments and blank
		// lines that end the document's text (a comment right after the
		// last entry and followed by a blank line, the entry's foot
		// comment in yaml.v3, is the new entry's then: footsMoved; the
		// splice wrote the new entry after it until 2026-11-30)
		lines := strings.SplitAfter(doc, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		last := 0
		for j, l := range lines {
			if t := strings.TrimSpace(l); t != "" && t[0] != '#' && !markerOrDirective(t) {
				last = j
			}
		}
		at := last + 1
		eol := "\n"
		if strings.HasSuffix(lines[last], "\r\n") {
			eol = "\r\n"
		}
		return strings.Join(lines[:at], "") + "z: new" + eol + strings.Join(lines[at:], "")
	},
}, {
	name:     "delete the first key",
	firstKey: true,
	edit:     func(root *yaml.Node) { root.Content = root.Content[2:] },
	want: func(doc string) string {
		// the first content line, and the lines indented below it
		lines := strings.SplitAfter(doc, "\n")
		for j, l := range lines {
			if t := strings.TrimSpace(l); t != "" && t[0] != '#' && !markerOrDirective(t) {
				end := j + 1
				for end < len(lines) && strings.HasPrefix(lines[end], " ") {
					end++
				}
				return strings.Join(lines[:j], "") + strings.Join(lines[end:], "")
			}
		}
		return doc
	},
}}

// markerOrDirective reports whether a line of the lentLayouts, trimmed, is
// a document marker or a directive: not a document's content.
func markerOrDirective(t string) bool {
	return t == "---" || t == "..." || t[0] == '%'
}

// TestLentComments: a comment between two documents is written once,
// where it was, whichever document is edited (the first, a middle one, the
// last) and however the stream is read and written: fully or with
// outlines loaded one by one, rendering only what changed or whole
// (Options.Whole). The comment yaml.v3 gives the document before though it
// is in the next document's text (after "---" and a blank line) was
// written twice before: once at the end of the edited document, once with
// the next document's text. The output also reads as the edited documents.
func TestLentComments(t *testing.T) {
	for _, l := range lentLayouts {
		_, body := cutBOM([]byte(l.in))
		texts := chunks(body)
		full := read(t, l.in)
		for i := range texts {
			for _, e := range lentEdits {
				if !strings.Contains(texts[i], "k:") || e.firstKey && Root(full.Docs[i]).Content[0].HeadComment != "" {
					continue // an empty document; a key whose comment goes with it
				}
				var want strings.Builder
				for j, c := range texts {
					if j == i {
						c = e.want(c)
					}
					want.WriteString(c)
				}
				for _, mode := range []struct {
					name string
					opts Options
				}{{"fast", Options{}}, {"whole", Options{Whole: true}}, {"outlined", Options{Outline: testOutline}}, {"outlined whole", Options{Outline: testOutline, Whole: true}}} {
					t.Run(fmt.Sprintf("%s/doc %d/%s/%s", l.name, i, e.name, mode.name), func(t *testing.T) {
						st, err := Read([]byte(l.in), mode.opts)
						if err != nil {
							t.Fatal(err)
						}
						if err := st.Load(i); err != nil {
							t.Fatal(err)
						}
						st.Snapshot()
						e.edit(Root(st.Docs[i]))
						out := write(t, st)
						if string(out) != want.String() {
							t.Errorf("got\n%s\nwant\n%s\n%s", out, want.String(), unified([]byte(want.String()), out))
						}
						if got, in := commentCount(out), commentCount([]byte(l.in)); got != in {
							t.Errorf("%d comment lines written, %d read", got, in)
						}
						if err := st.LoadAll(); err != nil { // the documents left outlined, to compare
							t.Fatal(err)
						}
						back, err := Read(out, Options{})
						if err != nil || !equalDocs(back.Docs, st.Docs) {
							t.Errorf("output does not read as the edited documents (%v)", err)
						}
					})
				}
			}
		}
	}
}

// commentCount counts the lines of text that are comments (a '#' first
// after spaces); the texts of the tests hold no '#' in values.
func commentCount(text []byte) int {
	n := 0
	for _, l := range bytes.Split(text, []byte("\n")) {
		if t := bytes.TrimSpace(l); len(t) > 0 && t[0] == '#' {
			n++
		}
	}
	return n
}

// TestLoadLentComments: a document loaded from its text (an outline) is
// the document a full read gives, every field of every node, comments
// included: the foot comment the next document's text lends it, and
// without the comments its own text lends the document before.
// TestLentFirstLineChanged: the first line of a document whose text lends
// comments to the document before (a "---" line, comment lines, and a
// blank line, or with CRLF line ends no blank line: crlfEnded) is changed,
// where the source writes it otherwise than yaml.v3 (y, which yaml.v3
// quotes: its rendering of the snapshot has no line equal to the source's
// first line, so the change reaches the top of the text). The output is
// the input with that line replaced, as the splice promises (Snapshot's
// doc), and the lent comments where they were, line ends kept. Before, the
// splice wrote the document without the lent lines, which no longer read
// as the document before's, and the whole stream was written by yaml.v3
// (with LF line ends).
func TestLentFirstLineChanged(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a: 1\r\n---\r\n# c\r\nb: y\r\nk: x\r\n", "a: 1\r\n---\r\n# c\r\nb: z\r\nk: x\r\n"},
		{"a: 1\r\n---\r\n# c\r\n# d\r\nb: y\r\n---\r\nc: 1\r\n", "a: 1\r\n---\r\n# c\r\n# d\r\nb: z\r\n---\r\nc: 1\r\n"},
		{"a: 1\n---\n# c\n\nb: y\nk: x\n", "a: 1\n---\n# c\n\nb: z\nk: x\n"},
	} {
		for _, whole := range []bool{false, true} {
			st, err := Read([]byte(c.in), Options{Whole: whole})
			if err != nil {
				t.Fatal(err)
			}
			st.Snapshot()
			MapGet(Root(st.Docs[1]), "b").Value = "z"
			if out := write(t, st); string(out) != c.want {
				t.Errorf("%q (whole %v): got\n%q\nwant\n%q", c.in, whole, out, c.want)
			}
		}
	}
}

// TestCommentAfterDocEnd: a comment after "..." is in the text of the
// document after it (documentStarts), but yaml.v3 gives it to the
// document before when a blank line follows it, or when its line ends
// with CRLF (crlfEnded). Whichever document is edited, the output holds
// it once (it was written twice, with the edited document's writing and
// the next one's text, or not at all, the next one's text written without
// it), and reads as the edited documents.
func TestCommentAfterDocEnd(t *testing.T) {
	for _, in := range []string{
		"k: v\r\n...\r\n# after\r\n---\r\nk2: v2\r\nl: 1\r\n",
		"k: v\n...\n# after\n\n---\nk2: v2\nl: 1\n",
	} {
		for _, edit := range []struct {
			name string
			edit func(docs []*yaml.Node)
		}{
			{"add to the first", func(docs []*yaml.Node) { MapSet(Root(docs[0]), "n", NewString("x")) }},
			{"delete the first key of the second", func(docs []*yaml.Node) { MapDelete(Root(docs[1]), "k2") }},
			{"add to the second", func(docs []*yaml.Node) { MapSet(Root(docs[1]), "n", NewString("x")) }},
		} {
			for _, whole := range []bool{false, true} {
				st, err := Read([]byte(in), Options{Whole: whole})
				if err != nil {
					t.Fatal(err)
				}
				st.Snapshot()
				edit.edit(st.Docs)
				out := write(t, st)
				if n := strings.Count(string(out), "# after"); n != 1 {
					t.Errorf("%q, %s (whole %v): %d comments written:\n%q", in, edit.name, whole, n, out)
				}
				back, err := Read(out, Options{})
				if err != nil || !equalDocs(back.Docs, st.Docs) {
					t.Errorf("%q, %s: the output does not read as the edited documents (%v)", in, edit.name, err)
				}
			}
		}
	}
}

func TestLoadLentComments(t *testing.T) {
	for _, l := range lentLayouts {
		full, err := Read([]byte(l.in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range full.Docs {
			st, err := Read([]byte(l.in), Options{Outline: testOutline})
			if err != nil {
				t.Fatal(err)
			}
			if !st.Outlines() {
				t.Fatalf("%s: not outlined", l.name)
			}
			if err := st.Load(i); err != nil {
				t.Fatal(err)
			}
			if d := nodeDiff(st.Docs[i], full.Docs[i], "doc"); d != "" {
				t.Errorf("%s: document %d loads differently from the full read: %s", l.name, i, d)
			}
		}
	}
}

// TestLends pins what lends takes for text that may lend comments to the
// document before.
func TestLends(t *testing.T) {
	for in, want := range map[string]bool{
		"---\n# c\n\nb: 1\n":         true,
		"---  \n# c\n# d\n\nb: 1\n":  true,
		"---\n  # c\n \nb: 1\n":      true,
		"---\r\n# c\r\n\r\nb: 1\r\n": true,
		"---\n# c\n":                 true, // an empty document's
		"---\n# c\nb: 1\n":           false,
		"---\n\n# c\n\nb: 1\n":       false,
		"--- # m\n# c\n\nb: 1\n":     false,
		"--- !!map\n# c\n\nb: 1\n":   false,
		"# c\n\nb: 1\n":              false,
		"---\n":                      false,
		// a text after "..." starts at the line after it: blank lines
		// and directives before "---"
		"\n%YAML 1.1\n---\n# c\n\nb: 1\n":    true,
		"\n  \n---\n# c\n\nb: 1\n":           true,
		"%YAML 1.1\n# x\n---\n# c\n\nb: 1\n": false,
		"\nb: 1\n":                           false,
	} {
		if got := lends([]byte(in)); got != want {
			t.Errorf("lends(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestCommentsKept: editing values keeps every comment of the input where
// it was, so the output has as many comment lines as the input, whichever
// document is edited and however the stream is read and written. The
// inputs are the preservation corpus and the streams made for the edges
// of documents (outlineEdges, lentLayouts); each edit sets the first or
// the last plain scalar value of one document (not a key), which changes
// no comment. A comment line is a line whose first character after
// spaces is '#', outside block scalars: the inputs have no other line
// starting with '#', and no block scalar is edited.
func TestCommentsKept(t *testing.T) {
	inputs := map[string][]byte{}
	for _, name := range corpus(t) {
		inputs[name] = readCorpus(t, name)
	}
	for i, s := range outlineEdges {
		inputs[fmt.Sprintf("edge-%d", i)] = []byte(s)
	}
	for _, l := range lentLayouts {
		inputs[l.name] = []byte(l.in)
	}
	modes := []Options{{}, {Whole: true}, {Outline: testOutline}, {Outline: testOutline, Whole: true}}
	checked := 0
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		data := inputs[name]
		want := commentCount(data)
		full, err := Read(data, Options{})
		if err != nil {
			continue // an edge that is not YAML
		}
		for i := range full.Docs {
			for _, last := range []bool{false, true} {
				for m, opts := range modes {
					st, err := Read(data, opts)
					if err != nil {
						t.Fatal(err)
					}
					if err := st.Load(i); err != nil {
						t.Fatal(err)
					}
					st.Snapshot()
					v := plainValue(st.Docs[i], last)
					if v == nil {
						continue
					}
					v.Value = "edited"
					out := write(t, st)
					checked++
					if got := commentCount(out); got != want {
						t.Errorf("%s, document %d, %s value, mode %d: %d comment lines written, %d read:\n%s", name, i, map[bool]string{false: "first", true: "last"}[last], m, got, want, unified(data, out))
					}
				}
			}
		}
	}
	if checked < 200 {
		t.Errorf("only %d edits checked", checked)
	}
}

// plainValue returns the first (or the last) plain scalar of a document
// that is not a mapping's key, or nil.
func plainValue(doc *yaml.Node, last bool) *yaml.Node {
	var found *yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for j, c := range n.Content {
			if found != nil && !last {
				return
			}
			if c.Kind == yaml.ScalarNode && c.Style == 0 && c.Tag == "!!str" && !isKey(n, j) {
				found = c
			}
			walk(c)
		}
	}
	walk(doc)
	return found
}

// TestLoneCR: a carriage return not followed by a line feed is a line
// break to YAML: a stream holding one is read whole, not outlined, and not
// cut into parts (FuzzOutline found "00\n---\r#\r\n0": the comment after
// "---\r" is the first document's foot comment in a full read, and the
// outline's line rules did not see the line break).
func TestLoneCR(t *testing.T) {
	for in, want := range map[string]bool{"a\r\nb\r\n": false, "a\nb": false, "a\rb": true, "a\r": true, "a\r\n\rb": true, "": false} {
		if got := loneCR([]byte(in)); got != want {
			t.Errorf("loneCR(%q) = %v, want %v", in, got, want)
		}
	}
	in := "00\n---\r#\r\n0"
	whole, err := Read([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Read([]byte(in), Options{Outline: testOutline})
	if err != nil {
		t.Fatal(err)
	}
	if st.Outlines() {
		t.Errorf("%q was outlined", in)
	}
	if len(st.Docs) != len(whole.Docs) || st.Docs[0].FootComment != whole.Docs[0].FootComment {
		t.Errorf("%q: read with outlines differs from the full read", in)
	}
	long := strings.Repeat("a: b\n---\n", 100) + "c: d\re: f\n"
	if parts, _ := SplitStream([]byte(long), 64); parts != nil {
		t.Errorf("a stream with a lone carriage return was cut into %d parts", len(parts))
	}
}

// TestLentLines: the "---" line and the comment lines a document's text
// lends the document before; a document edited whole keeps them or the
// stream is written the general way (FuzzOutline found the outlined
// writer dropping them: input kept in testdata/fuzz/FuzzOutline).
func TestLentLines(t *testing.T) {
	for in, want := range map[string]string{
		"---\n# a\n# b\n\nk: v\n":         "---\n# a\n# b\n",
		"---\n#\n\n0 :":                   "---\n#\n",
		"---\nk: v\n":                     "",
		"--- # c\n# a\n\nk: v\n":          "",
		"k: v\n":                          "",
		"%YAML 1.1\n\n---\n# a\n\nk: v\n": "%YAML 1.1\n\n---\n# a\n",
	} {
		if got := string(lentLines([]byte(in))); got != want {
			t.Errorf("lentLines(%q) = %q, want %q", in, got, want)
		}
	}
}

// windowFragments are document texts whose comments yaml.v3 places by the
// documents around them: comment-only documents (a comment lent to the
// document before, kept, after a blank line, CRLF-ended, before "..." or
// another "---"), empty ones, documents whose text lends comments before
// their content, foot comments, a comment on the "---" line. %d numbers a
// comment, so that one that moves to another document shows.
var windowFragments = []string{
	"---\n# c%d\n",
	"---\n",
	"---\n# c%d\n\n",
	"---\n# c%d\n\nk: v\n",
	"---\nk: v\n",
	"---\n# a%d\n# b\n",
	"---\nk: v\n# f%d\n",
	"---\n# c%d\nk: v\n",
	"---\n\n# c%d\n",
	"---\n# c%d\r\n",
	"---\nk: v\n\n# f%d\n\n",
	"--- # x%d\n",
	"---\n# c%d\n...\n",
	"---\n- a\n# c%d\n",
	"---\n# c%d\n\n# d\n\n",
}

// TestWindowReach: a document read with the documents around it that
// decide where yaml.v3 puts its comments (readWindow) reads the same, all
// its comments included, when the window reaches windowReach documents
// before and after it at most as when it reaches as far as the run of
// empty or lending documents goes (a run read whole for each of its
// documents made n such documents n^2 work, issue 25), and even when it
// reaches one document: on random streams of windowFragments, each
// document read as its own text and as another fragment (an edit), with
// and without the comments the next documents lend it.
func TestWindowReach(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 8))
	fragment := func(i int) string {
		f := windowFragments[r.IntN(len(windowFragments))]
		if strings.Contains(f, "%d") {
			f = fmt.Sprintf(f, i)
		}
		return f
	}
	cut := 0
	for round := range 400 {
		var b strings.Builder
		b.WriteString([]string{"", "k: v\n", "# h\n"}[r.IntN(3)]) // the first document without "---"
		for i := range 3 + r.IntN(3*windowReach) {
			b.WriteString(fragment(i))
		}
		src := b.String()
		st, err := Read([]byte(src), Options{})
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		_, body := cutBOM(st.src)
		starts := documentStarts(body)
		if len(starts) != len(st.Docs) {
			t.Fatalf("%q: %d starts, %d documents", src, len(starts), len(st.Docs))
		}
		for i := range starts {
			texts := [][]byte{textOf(body, starts, i)}
			if i > 0 {
				texts = append(texts, []byte(fragment(1000+i)))
			}
			for _, text := range texts {
				for _, lent := range []bool{false, true} {
					want, lo, okw := st.readWindowReach(body, starts, text, i, lent, len(starts))
					for _, reach := range []int{windowReach, 1} {
						got, at, ok := st.readWindowReach(body, starts, text, i, lent, reach)
						if ok != okw || ok && !identical(got, want) {
							t.Fatalf("round %d, document %d read as %q (lent %v): reach %d gives %v, a whole run %v; stream:\n%q\ngot:\n%s\nwant:\n%s",
								round, i, text, lent, reach, ok, okw, src, showDoc(got), showDoc(want))
						}
						if at != lo {
							cut++
						}
					}
				}
			}
		}
	}
	if cut < 1000 {
		t.Errorf("only %d windows cut short", cut)
	}
}

// showDoc is a document as yaml.v3 writes it, comments included.
func showDoc(doc *yaml.Node) string {
	if doc == nil {
		return "(none)"
	}
	b, err := renderDoc(Style{}, doc, 0)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// TestSeparatorsReadWhole: NEL, LS and PS are line breaks to kmerge's
// reader, as to yaml.v3, and to no line-based rule of outlines and cuts:
// a stream holding one is read whole, and its documents have the lines
// the whole read counts. Cut at "\n" alone, a ConfigMap after 3,000
// others whose lines held an LS was reported at line 21,673, not 24,001
// (the attack of 2026-11-29).
func TestSeparatorsReadWhole(t *testing.T) {
	for in, want := range map[string]bool{"a\u2028b": true, "a\u0085": true, "\u2029": true, "a\r": true, "a\r\nb\n": false, "a\u2027": false} {
		if got := otherBreaks([]byte(in)); got != want {
			t.Errorf("otherBreaks(%q) = %v, want %v", in, got, want)
		}
	}
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm%d # x\u2028  # y\n", i)
	}
	b.WriteString("---\nlast: doc\n")
	data := []byte(b.String())
	whole, err := Read(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := whole.Docs[len(whole.Docs)-1].Content[0].Line
	if want != 3000*6+2 {
		t.Fatalf("the whole read puts the last document at line %d, want %d", want, 3000*6+2)
	}
	if parts, _ := SplitStream(data, 64<<10); parts != nil {
		t.Errorf("a stream with LS was cut into %d parts", len(parts))
	}
	st, err := Read(data, Options{Outline: testOutline})
	if err != nil {
		t.Fatal(err)
	}
	if st.Outlines() {
		t.Error("a stream with LS was outlined")
	}
}

// TestLentLinesOnlyCRLF: a document whose text is its "---" line and the
// comment lines it lends the document before, nothing after them, given
// a value: the value's line ends with the stream's CRLF, learnt from the
// lent lines (the spliced rest has no line break to learn it from; it
// was written "x\n" in a CRLF stream; attack, 2026-11-29), and starts on
// a line of its own when the lent lines end the text without one.
func TestLentLinesOnlyCRLF(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"0\r\n---\r\n#\r\n", "0\r\n---\r\n#\r\nx\r\n"},
		{"0\r\n---\r\n#\r\n---\r\n1\r\n", "0\r\n---\r\n#\r\nx\r\n---\r\n1\r\n"},
		{"0\r\n---\r\n#", "0\r\n---\r\n#\r\nx"},
	} {
		st, err := Read([]byte(c.in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		st.Snapshot()
		n := Root(st.Docs[1])
		n.Value, n.Tag, n.Style = "x", "!!str", 0
		if out := write(t, st); string(out) != c.want {
			t.Errorf("%q: got\n%q\nwant\n%q", c.in, out, c.want)
		}
	}
}
