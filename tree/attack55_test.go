package tree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// Attack of 2026-11-30 on aab4144 (lentOf: the comment lines after a bare
// "---" are lent to the document before when its snapshot's foot comment
// ends with them; editDoc keeps them, and the blank lines after them,
// above the rendering; rootText after the "---" line when the empty
// document has its own foot comment; the writer's "---" before a first
// document written as no text; lineEnd for a text without a line break)
// and 66efee9 (the splice removed: rendered documents in their frame).
//
// Every stream case (a55Check) is a54Check (a48Check: yaml.v3 and Read
// read the output as the edited trees, key order too, comment lines
// kept; WriteYAML = preserved, Options.Whole the same bytes, outlined
// reads alike; the same output twice; a stream not written whole keeps
// its documents not edited byte for byte, its markers, directives, BOM
// and line ends), and:
//   - with keep (the edit adds or removes no comment of the source): each
//     comment of the source is in the output as many times (none lost,
//     none doubled), unless the stream is written whole;
//   - each edited document's text keeps the line end of its source text
//     (a mixed stream's documents each theirs);
//   - an outlined read (testOutline) with only the edited documents
//     loaded writes what reads as the edited documents with the same
//     comment lines, the documents not edited byte for byte unless
//     Rewritten.
//
// Streams written whole are counted and logged (allowed: the documents
// read the same). A55_FULL=1 runs many more cases.
//
// The default run (GOMAXPROCS=1): lent 24,101 cases (1,211 written whole,
// all but the finding 1 ones after comments after "...", finding 5),
// writer 6,000, roots 1,399 (28 whole: finding 1), empty first 380 (25
// whole: finding 4); no other failure. The same lent cases on 2a5845b
// (the splice): 873 of 7,192 written whole, 45 wrong (attack54's
// finding 4); here 350 of those 7,192, 3 newly whole (finding 1).

var a55Trace = func() *os.File {
	if p := os.Getenv("A55TRACE"); p != "" {
		f, _ := os.Create(p)
		return f
	}
	return nil
}()

func a55Full() bool { return os.Getenv("A55_FULL") != "" }

type a55Stats struct {
	a54Stats
	outlinedWhole int
	known         map[string]int
}

func (s *a55Stats) log(t *testing.T) {
	t.Helper()
	s.a54Stats.log(t)
	t.Logf("  outlined reads (edited documents alone loaded) rewritten: %d; known findings: %v", s.outlinedWhole, s.known)
}

// run checks one case: the edit applied to the documents in edited
// (for the outlined read, which loads those alone).
func (s *a55Stats) run(t *testing.T, in string, edit a48Edit, edited []int, keep bool, what string) a54Result {
	t.Helper()
	if raceSkip(&s.seen) {
		return a54Result{}
	}
	if s.known == nil {
		s.known = map[string]int{}
	}
	r, bad := a54Check(in, edit, keep)
	if bad == "skip" {
		s.skipped++
		return r
	}
	if bad == "" || strings.HasPrefix(bad, a48V3Only) {
		if b := a55Extra(in, r, keep); b != "" {
			bad = b
		}
	}
	if bad == "" || strings.HasPrefix(bad, a48V3Only) {
		b, whole := a55Outlined(in, edit, edited)
		if whole {
			s.outlinedWhole++
		}
		if b != "" {
			bad = b
		}
	}
	s.cases++
	if s.outcomes == nil {
		s.outcomes = map[outcome]int{}
	}
	for _, o := range r.outcomes {
		s.outcomes[o]++
	}
	if a55Trace != nil {
		fmt.Fprintf(a55Trace, "%s\t%d\twhole=%v\tbad=%q\tin=%q\tout=%q\t%v\t%s\n", s.label, s.seen, r.whole, bad, in, r.out, r.outcomes, what)
	}
	if r.whole {
		s.whole++
		if len(s.firstWhole) < 6 {
			s.firstWhole = append(s.firstWhole, fmt.Sprintf("%q (%s) -> %q", in, what, r.out))
		}
	}
	if strings.HasPrefix(bad, a48V3Only) {
		s.v3++
		if len(s.firstV3) < 3 {
			s.firstV3 = append(s.firstV3, fmt.Sprintf("%q (%s): %s", in, what, bad))
		}
		return r
	}
	if bad != "" {
		if k := a55Known(in, r, bad, what); k != "" {
			s.known[k]++
			return r
		}
		if k := a54Known(in, r, bad); k != "" && k != "empty document written whole" {
			// (attack54's finding 4, fixed, is not excused here)
			return r
		}
		s.bad++
		if s.bad <= 15 {
			t.Errorf("%s: %q (%s): %s: %q (outcomes %v)", s.label, in, what, bad, r.out, r.outcomes)
		}
	}
	return r
}

// a55Known names a finding of this attack a case shows (logged in
// TestAttack55Findings), or "".
func a55Known(in string, r a54Result, bad, what string) string {
	switch {
	case strings.Contains(what, `tag "" style 1 `) && (strings.Contains(bad, "reads 0 documents") || strings.Contains(bad, "reads 1 documents (<nil>), want 2")):
		// finding 3: an empty root without a tag but TaggedStyle, first of
		// several documents (or alone: finding 2)
		return "tagged without a tag"
	}
	return ""
}

// a55Count counts the comments of a text (a54CommentTexts).
func a55Count(text string) map[string]int {
	m := map[string]int{}
	for _, c := range a54CommentTexts(text) {
		m[c]++
	}
	return m
}

// a55Extra checks what a54Check does not: comments neither lost nor
// doubled, each edited document's line ends.
func a55Extra(in string, r a54Result, keep bool) string {
	if r.whole || r.out == nil {
		return ""
	}
	if keep {
		ci, co := a55Count(in), a55Count(string(r.out))
		for c, n := range ci {
			if co[c] != n {
				return fmt.Sprintf("comment %q %d times, source %d", c, co[c], n)
			}
		}
	}
	src, out := []byte(in), r.out
	if crOnly(src) {
		return "" // (a54Frame: lone CR kept)
	}
	_, bi := cutBOM(src)
	_, bo := cutBOM(out)
	si, so := documentStarts(bi), documentStarts(bo)
	if len(si) != len(r.outcomes) || len(so) != len(r.outcomes) {
		return ""
	}
	for i, o := range r.outcomes {
		if o == copied {
			continue
		}
		ti, to := textOf(bi, si, i), textOf(bo, so, i)
		e := a54EOL(ti)
		if e == "" {
			// (a text without a line break takes the stream's, where the
			// stream has one kind)
			if e = a54EOL(src); e == "mixed" {
				continue
			}
		}
		if g := a54EOL(to); e != "mixed" && g != "" && g != e {
			return fmt.Sprintf("document %d: line ends %s, its source %s: %q", i, g, e, to)
		}
	}
	return ""
}

// a55Outlined writes in read with testOutline, the documents edited
// alone loaded, and checks that the output reads as the edited stream
// (values, key order, comment lines), the documents not edited kept byte
// for byte unless the stream was rewritten.
func a55Outlined(in string, edit a48Edit, edited []int) (bad string, whole bool) {
	defer func() {
		if p := recover(); p != nil {
			bad = fmt.Sprintf("outlined: panic: %v", p)
		}
	}()
	full, err := Read([]byte(in), Options{})
	if err != nil || full.LoadAll() != nil {
		return "", false
	}
	full.Snapshot()
	edit(full.Docs)
	st, err := Read([]byte(in), Options{Outline: testOutline})
	if err != nil {
		return fmt.Sprintf("outlined: Read: %v", err), false
	}
	for _, i := range edited {
		if i < len(st.Docs) {
			if err := st.Load(i); err != nil {
				return fmt.Sprintf("outlined: Load: %v", err), false
			}
		}
	}
	st.Snapshot()
	edit(st.Docs)
	var b bytes.Buffer
	if err := st.WriteYAML(&b); err != nil {
		return fmt.Sprintf("outlined: WriteYAML: %v", err), false
	}
	out := b.Bytes()
	back, err := Read(out, Options{})
	if err != nil || len(back.Docs) != len(full.Docs) {
		return fmt.Sprintf("outlined: reads as %d documents (%v), want %d: %q", len(back.Docs), err, len(full.Docs), out), st.Rewritten()
	}
	for i := range back.Docs {
		if !Equal(back.Docs[i], full.Docs[i]) || !sameKeyOrder(back.Docs[i], full.Docs[i]) {
			return fmt.Sprintf("outlined: document %d reads otherwise: %q", i, out), st.Rewritten()
		}
	}
	if !sameStreamComments(back.Docs, full.Docs) {
		return fmt.Sprintf("outlined: comment lines lost or added: %q", out), st.Rewritten()
	}
	if st.Rewritten() || crOnly([]byte(in)) {
		return "", st.Rewritten()
	}
	_, bi := cutBOM([]byte(in))
	_, bo := cutBOM(out)
	si, so := documentStarts(bi), documentStarts(bo)
	if len(si) != len(so) {
		return fmt.Sprintf("outlined: %d texts, source %d: %q", len(so), len(si), out), false
	}
	for i := range si {
		if !slices.Contains(edited, i) && !bytes.Equal(textOf(bi, si, i), textOf(bo, so, i)) {
			return fmt.Sprintf("outlined: document %d not edited: %q, source %q", i, textOf(bo, so, i), textOf(bi, si, i)), false
		}
	}
	return "", false
}

// --- 1. lent comment lines ------------------------------------------------

var (
	// a55Prevs are the documents before: their text, and whether it ends
	// with "..." (then directives may follow).
	a55Prevs = []string{"a: 1\n", "a:\n  b: 1\n", "- a\n", "a: |\n  t\n", "0\n", "a: 1 # l\n", "---\n", "a: [1]\n", "a: 1\n...\n", "a: &p 1\nb: *p\n"}
	// a55PrevFoots are comment lines that end it (its own foot comment).
	a55PrevFoots = []string{"", "", "# c\n", "# d\n", "# c\n# c\n", "\n# c\n", "# d\n\n# c\n", "  # c\n"}
	// a55Leads are the "---" lines (and what is before them).
	a55Leads = []string{"---\n", "---\n", "---   \n", "%YAML 1.2\n---\n", "\n---\n"}
	// a55Lents are the comment lines after the bare "---".
	a55Lents = []string{"# c\n", "# c\n# d\n", "  # c\n", "# c\n  # d\n", "#\n", "# c\n# c\n", "# d\n", "# e\n# c\n"}
	// a55Gaps follow them.
	a55Gaps = []string{"", "\n", "\n\n", "  \n"}
	// a55Bodies are the document's content.
	a55Bodies = []string{"", "", "x: 1\n", "x: &a 1\ny: *a\n", "- i\n- j\n", "s\n", "# own\nx: 1\n", "x: 1\n# xf\n", "x:\n  y: 1\n", "x: 1\n...\n"}
	// a55Nexts are documents after it.
	a55Nexts = []string{"", "", "---\ny: 2\n", "---\n# n\n\ny: 2\n", "---\n# c\n---\ny: 2\n", "---\n", "# n\n---\ny: 2\n"}
)

// a55LentCase builds a stream: prev, its foot, the lead, lent lines, a
// gap, the body, next; line ends, final line break, BOM.
func a55LentCase(r *rand.Rand) (in string, what string) {
	pick := func(l []string) string { return l[r.IntN(len(l))] }
	prev, foot, lead, lent, gap, body, next := pick(a55Prevs), pick(a55PrevFoots), pick(a55Leads), pick(a55Lents), pick(a55Gaps), pick(a55Bodies), pick(a55Nexts)
	if strings.HasPrefix(lead, "%") && !strings.HasSuffix(prev, "...\n") {
		prev += "...\n"
	}
	if strings.HasSuffix(prev, "...\n") && strings.HasPrefix(foot, "\n") {
		foot = foot[1:]
	}
	if strings.HasPrefix(prev, "a: |") && strings.HasPrefix(foot, " ") {
		foot = "" // (the block scalar's content)
	}
	if strings.HasSuffix(body, "...\n") && next == "" {
		body = strings.TrimSuffix(body, "...\n")
	}
	in = prev + foot + lead + lent + gap + body + next
	switch r.IntN(8) {
	case 0, 1:
		in = strings.ReplaceAll(in, "\n", "\r\n")
	case 2:
		in = strings.ReplaceAll(in, "\n", "\r")
	case 3:
		// mixed: the document's lines CRLF, the rest LF, or the other way
		d := lead + lent + gap + body
		crd := strings.ReplaceAll(d, "\n", "\r\n")
		if r.IntN(2) == 0 {
			in = prev + foot + crd + next
		} else {
			in = strings.ReplaceAll(prev+foot, "\n", "\r\n") + d + strings.ReplaceAll(next, "\n", "\r\n")
		}
	}
	final := r.IntN(3) != 0
	if !final {
		in = strings.TrimRight(in, "\r\n")
	}
	if r.IntN(8) == 0 {
		in = "\ufeff" + in
	}
	return in, fmt.Sprintf("prev %q foot %q lead %q lent %q gap %q body %q next %q final %v", prev, foot, lead, lent, gap, body, next, final)
}

// a55Edit is an edit of document d (the one after the lent lines) or of
// the one before, of kind k; keep: it adds or removes no comment line.
func a55Edit(k, d int) (edit a48Edit, edited []int, keep bool, what string) {
	scalarIn := func(n *yaml.Node) *yaml.Node {
		var found *yaml.Node
		var walk func(*yaml.Node)
		walk = func(m *yaml.Node) {
			if found != nil || m == nil || m.Kind == yaml.AliasNode {
				return
			}
			if m.Kind == yaml.ScalarNode {
				found = m
				return
			}
			if m.Kind == yaml.MappingNode {
				for j := 1; j < len(m.Content); j += 2 {
					walk(m.Content[j])
				}
				return
			}
			for _, c := range m.Content {
				walk(c)
			}
		}
		walk(n)
		return found
	}
	root := func(docs []*yaml.Node, j int) *yaml.Node {
		if j < 0 || j >= len(docs) || docs[j].Kind != yaml.DocumentNode || len(docs[j].Content) == 0 {
			return nil
		}
		return docs[j].Content[0]
	}
	value := func(j int) a48Edit {
		return func(docs []*yaml.Node) {
			if s := scalarIn(root(docs, j)); s != nil {
				if s.Value == "" && s.Tag == "!!null" && s == root(docs, j) {
					return // (an empty root: kind 6)
				}
				s.Value, s.Tag, s.Style = "new", "!!str", 0
			}
		}
	}
	switch k % 10 {
	case 0:
		return value(d), []int{d}, true, "value"
	case 1: // under an anchor: rendered
		return func(docs []*yaml.Node) {
			if r := root(docs, d); r != nil {
				var anch *yaml.Node
				for _, n := range a54Nodes(r, func(m *yaml.Node) bool { return m.Anchor != "" }, nil) {
					anch = n
					break
				}
				if anch != nil {
					if s := scalarIn(anch); s != nil {
						s.Value, s.Tag, s.Style = "new", "!!str", 0
						return
					}
				}
				r.Anchor = "z" // (an anchor added: rendered)
			}
		}, []int{d}, true, "under anchor"
	case 2:
		return func(docs []*yaml.Node) {
			if r := root(docs, d); r != nil && !(r.Kind == yaml.ScalarNode && r.Value == "" && r.Tag == "!!null") {
				r.HeadComment = "# h"
			}
		}, []int{d}, false, "root head"
	case 3:
		return func(docs []*yaml.Node) {
			if d < len(docs) && len(root(docs, d).Content) > 0 {
				docs[d].HeadComment = "# dh"
			}
		}, []int{d}, false, "document head"
	case 4: // a kept collection's foot comment
		return func(docs []*yaml.Node) {
			if r := root(docs, d); r != nil && (r.Kind == yaml.MappingNode || r.Kind == yaml.SequenceNode) {
				r.FootComment = "# nf"
			}
		}, []int{d}, false, "root foot"
	case 5:
		return value(d - 1), []int{d - 1}, true, "value before"
	case 6: // an empty root given a value
		mk := []func() *yaml.Node{
			func() *yaml.Node { return NewString("x") },
			func() *yaml.Node { n := NewString("x"); n.Anchor = "r"; return n },
			func() *yaml.Node { return a54Map(NewString("k"), NewString("v")) },
			func() *yaml.Node { return NewSeq(NewString("a")) },
			func() *yaml.Node { return a54Str("t\n", yaml.LiteralStyle) },
		}[(k/10)%5]
		set := a54SetRoot(d, mk)
		return func(docs []*yaml.Node) {
			if r := root(docs, d); r != nil && r.Kind == yaml.ScalarNode && r.Value == "" && r.Tag == "!!null" {
				set(docs)
			}
		}, []int{d}, true, fmt.Sprintf("root %d", (k/10)%5)
	case 7:
		return a48Both(value(d-1), value(d)), []int{d - 1, d}, true, "values both"
	case 8: // a key added first, commented: rendered or byte ranges
		return func(docs []*yaml.Node) {
			if r := root(docs, d); r != nil && r.Kind == yaml.MappingNode {
				key := NewString("first")
				r.Content = append([]*yaml.Node{key, NewString("v")}, r.Content...)
			}
		}, []int{d}, true, "key first"
	default: // the document before under its anchor, this one's head
		return a48Both(func(docs []*yaml.Node) {
			if r := root(docs, d-1); r != nil {
				r.Anchor = "q"
			}
		}, func(docs []*yaml.Node) {
			if r := root(docs, d); r != nil && r.Kind != yaml.ScalarNode {
				r.HeadComment = "# h2"
			}
		}), []int{d - 1, d}, false, "both rendered"
	}
}

func TestAttack55Lent(t *testing.T) {
	n := 30000
	if a55Full() {
		n = 300000
	} else if testing.Short() {
		n = 1500
	}
	s := &a55Stats{a54Stats: a54Stats{label: "lent"}}
	r := rand.New(rand.NewPCG(55, 1))
	for i := range n {
		in, what := a55LentCase(r)
		k := r.IntN(50)
		d := 1 // (the document after the lent lines)
		edit, edited, keep, ew := a55Edit(k, d)
		s.run(t, in, edit, edited, keep, what+" edit "+ew)
		_ = i
	}
	s.log(t)
	if s.outcomes[rendered]+s.outcomes[canonical] < raceScaled(800) || s.outcomes[replaced] < raceScaled(800) {
		t.Errorf("few documents rendered or replaced: %v", s.outcomes)
	}
}

// --- 2. the writer: documents written as no text ----------------------------

// a55Doc makes a document of kind k: an empty root of some tag, value,
// style, anchor and comments, an empty document, or a plain one.
func a55Doc(k int) (*yaml.Node, string) {
	doc := &yaml.Node{Kind: yaml.DocumentNode}
	if k == 0 {
		return doc, "no content"
	}
	if k == 1 {
		doc.Content = []*yaml.Node{NewString("x")}
		return doc, "x"
	}
	if k == 2 {
		doc.Content = []*yaml.Node{a54Map(NewString("k"), NewString("v"))}
		return doc, "k: v"
	}
	k -= 3
	tags := []string{"!!null", "", "tag:yaml.org,2002:null", "!", "!!str", "!e"}
	vals := []string{"", "~", "null"}
	styles := []yaml.Style{0, yaml.TaggedStyle, yaml.FlowStyle, yaml.DoubleQuotedStyle, yaml.LiteralStyle}
	r := &yaml.Node{Kind: yaml.ScalarNode}
	r.Tag = tags[k%len(tags)]
	k /= len(tags)
	r.Value = vals[k%len(vals)]
	k /= len(vals)
	r.Style = styles[k%len(styles)]
	k /= len(styles)
	switch k % 8 {
	case 1:
		r.HeadComment = "# h"
	case 2:
		r.LineComment = "# l"
	case 3:
		r.FootComment = "# f"
	case 4:
		doc.HeadComment = "# dh"
	case 5:
		doc.FootComment = "# df"
	case 6:
		r.Anchor = "a"
	case 7:
		r.HeadComment, r.LineComment, r.FootComment, doc.HeadComment, doc.FootComment = "# h", "# l", "# f", "# dh", "# df"
	}
	doc.Content = []*yaml.Node{r}
	return doc, fmt.Sprintf("%q tag %q style %v anchor %q comments %q %q %q doc %q %q %q", r.Value, r.Tag, r.Style, r.Anchor, r.HeadComment, r.LineComment, r.FootComment, doc.HeadComment, doc.LineComment, doc.FootComment)
}

const a55DocKinds = 3 + 6*3*5*8

// a55EmptyRoot reports whether d's root is an empty null as Read reads
// it (its content empty or a plain empty null).
func a55Empty(d *yaml.Node) bool {
	return len(d.Content) == 0 || len(d.Content) == 1 && d.Content[0].Kind == yaml.ScalarNode && d.Content[0].Value == "" && d.Content[0].ShortTag() == "!!null" && d.Content[0].Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
}

// a55WriterCheck writes docs with the writer and reads them back.
func a55WriterCheck(docs []*yaml.Node, st Style) (out []byte, bad string) {
	defer func() {
		if p := recover(); p != nil {
			bad = fmt.Sprintf("panic: %v", p)
		}
	}()
	var b bytes.Buffer
	if err := WriteYAML(&b, st, docs...); err != nil {
		return nil, "" // (refused: an error, not a wrong text)
	}
	out = b.Bytes()
	var b2 bytes.Buffer
	WriteYAML(&b2, st, docs...)
	if !bytes.Equal(out, b2.Bytes()) {
		return out, "not deterministic"
	}
	back, err := Read(out, Options{})
	if err != nil {
		return out, fmt.Sprintf("Read: %v", err)
	}
	if len(back.Docs) != len(docs) {
		return out, fmt.Sprintf("Read: %d documents, want %d", len(back.Docs), len(docs))
	}
	for i := range docs {
		if !Equal(back.Docs[i], docs[i]) && !(a55Empty(back.Docs[i]) && a55Empty(docs[i])) {
			return out, fmt.Sprintf("Read: document %d reads otherwise", i)
		}
	}
	if !sameStreamComments(back.Docs, docs) {
		var ca, cb []string
		for _, d := range back.Docs {
			ca = commentLines(d, ca)
		}
		for _, d := range docs {
			cb = commentLines(d, cb)
		}
		return out, fmt.Sprintf("comment lines %q, want %q", ca, cb)
	}
	got, err := a48V3Docs(out)
	if err != nil || len(got) != len(docs) {
		return out, fmt.Sprintf("yaml.v3: %d documents (%v), want %d", len(got), err, len(docs))
	}
	for i := range docs {
		var gv, wv any
		if err := got[i].Decode(&gv); err != nil {
			return out, fmt.Sprintf("yaml.v3: document %d: %v", i, err)
		}
		var w any
		if err := back.Docs[i].Decode(&wv); err == nil && !reflect.DeepEqual(gv, wv) {
			return out, fmt.Sprintf("yaml.v3: document %d reads %v, Read %v", i, gv, wv)
		}
		_ = w
	}
	return out, ""
}

func TestAttack55Writer(t *testing.T) {
	n := 6000
	if a55Full() {
		n = 100000
	} else if testing.Short() {
		n = 1000
	}
	r := rand.New(rand.NewPCG(55, 2))
	styles := []Style{{}, {Indent: 4}, {CompactSequences: true}, {Indent: 3, CompactSequences: true}}
	cases, bad, seen, single, tagged := 0, 0, 0, 0, 0
	for range n {
		m := 1 + r.IntN(3)
		var docs []*yaml.Node
		var whats []string
		for range m {
			k := r.IntN(a55DocKinds)
			if r.IntN(4) == 0 {
				k = r.IntN(3)
			}
			d, w := a55Doc(k)
			docs, whats = append(docs, d), append(whats, w)
		}
		if raceSkip(&seen) {
			continue
		}
		cases++
		out, b := a55WriterCheck(docs, styles[r.IntN(len(styles))])
		if b == "" {
			continue
		}
		if a55WriterKnown(docs, out, b) {
			single++
			continue
		}
		if a55TaggedNoTag(docs) {
			tagged++
			continue
		}
		bad++
		if bad <= 15 {
			t.Errorf("writer: %v: %s: %q", whats, b, out)
		}
	}
	t.Logf("writer: %d cases, %d bad, %d a single document written as no text, %d a first root TaggedStyle without a tag (known, logged in TestAttack55Findings)", cases, bad, single, tagged)
}

// a55WriterKnown reports a finding this attack logged: a stream of one
// document whose root is written as no text reads as no document.
func a55WriterKnown(docs []*yaml.Node, out []byte, bad string) bool {
	return len(docs) == 1 && (emptyText(docs[0]) || a55TaggedNoTag(append(docs, docs[0]))) && (strings.Contains(bad, "0 documents, want 1") || strings.Contains(bad, "yaml.v3: 0 documents"))
}

// a55TaggedNoTag reports the other finding: the first of several
// documents has an empty root without a tag but TaggedStyle set, which
// the writer writes as no text (no tag to show) and emptyText takes as
// shown.
func a55TaggedNoTag(docs []*yaml.Node) bool {
	if len(docs) < 2 || len(docs[0].Content) != 1 {
		return false
	}
	r := docs[0].Content[0]
	return r.Kind == yaml.ScalarNode && r.Value == "" && r.Tag == "" && r.Anchor == "" && r.Style&yaml.TaggedStyle != 0 && r.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
}

// --- 3. rootText: an empty document's own foot comment ---------------------

func TestAttack55Roots(t *testing.T) {
	prevs := []string{"0\n", "a: 1\n# c\n", "a: 1\n# d\n", "- a\n", "a: 1\n...\n", "a: 1\n# c\n# d\n"}
	leads := []string{"---\n", "--- # m\n", "---  \n"}
	comments := []string{"# c\n", "# c\n# d\n", "  # c\n", "# c\n\n# d\n", "#\n"}
	gaps := []string{"", "\n"}
	nexts := []string{"", "---\n1\n", "---\n", "---\n# c\n\n1\n"}
	roots := []func() *yaml.Node{
		func() *yaml.Node { return NewString("x") },
		func() *yaml.Node { n := NewString("x"); n.Anchor = "r"; return n },
		func() *yaml.Node { return a54Map(NewString("k"), NewString("v")) },
		func() *yaml.Node { return a54Str("t\n", yaml.LiteralStyle) },
		func() *yaml.Node { n := NewString("x"); n.HeadComment = "# rh"; return n },
	}
	s := &a55Stats{a54Stats: a54Stats{label: "roots"}}
	r := rand.New(rand.NewPCG(55, 3))
	for _, prev := range prevs {
		for _, lead := range leads {
			for _, c := range comments {
				for _, gap := range gaps {
					for _, next := range nexts {
						for _, eol := range []string{"\n", "\r\n", "\r"} {
							for _, final := range []bool{true, false} {
								if !a55Full() && r.IntN(3) != 0 {
									continue
								}
								in := prev + lead + c + gap + next
								if eol != "\n" {
									in = strings.ReplaceAll(in, "\n", eol)
								}
								if !final {
									in = strings.TrimRight(in, "\r\n")
								}
								k := r.IntN(len(roots))
								s.run(t, in, a54SetRoot(1, roots[k]), []int{1}, k != 4, fmt.Sprintf("root %d", k))
							}
						}
					}
				}
			}
		}
	}
	s.log(t)
	if s.outcomes[replaced] < raceScaled(200) {
		t.Errorf("few roots added by byte ranges: %v", s.outcomes)
	}
}

// --- 4. a first document given an empty root, in a stream -------------------

func TestAttack55EmptyFirst(t *testing.T) {
	srcs := []string{"a: 1\n---\nb: 2\n", "a: 1 # x\n---\nb: 2\n", "a: 1\r\n---\r\nb:   2\r\n", "---\na: 1\n---\nb: 2\n", "# top\na: 1\n---\nb: 2\n", "a: 1\n...\n---\nb: 2\n", "a: 1\n"}
	s := &a55Stats{a54Stats: a54Stats{label: "empty first"}}
	for _, src := range srcs {
		for k := 3; k < a55DocKinds; k += 7 {
			doc, what := a55Doc(k)
			root := doc.Content[0]
			if root.Tag == "!" || root.Tag == "!e" || root.Style&yaml.FlowStyle != 0 {
				continue // (yaml.v3 decodes "!" otherwise than Read; flow: a scalar's style no writer takes)
			}
			edit := func(docs []*yaml.Node) {
				d, _ := a55Doc(k)
				docs[0].HeadComment, docs[0].FootComment = d.HeadComment, d.FootComment
				docs[0].Content = d.Content
			}
			if !strings.Contains(src, "---") && (emptyText(doc) || a55TaggedNoTag([]*yaml.Node{doc, doc})) {
				continue // (finding 2: one document written as no text)
			}
			s.run(t, src, edit, []int{0}, false, what)
		}
	}
	s.log(t)
}

// TestAttack55Findings holds what this attack found: each case's output
// is logged ("known"); what holds is checked strictly (the output reads
// as the edited documents, a48Check).
//
//  1. (new with aab4144) lentOf takes the comment lines after a bare
//     "---" as lent when the document before's foot comment ends with
//     the same text, though they are the empty document's own foot
//     comment (another "---" follows them): "0\n# c\n---\n# c\n---\n1"
//     given a root is written whole, "0\n\n# c\n---\nx\n\n# c\n---\n1\n",
//     where "0\n---\n# c\n---\n1" gets "x" after its "---" line
//     (rootText) and 2a5845b spliced "0\n# c\n---\n# c\nx\n---\n1\n".
//     Want "0\n# c\n---\nx\n# c\n---\n1\n". In the runs: every stream
//     written whole of the roots family (28 of 1,399), 2 of the lent
//     family's 350 (the rest: comments after "...", below).
//  2. (pre-existing) A stream of one document whose root is written as no
//     text (an empty null) is "" or "\n", no document: WriteYAML of
//     it, and "a: 1\n" given an empty null root (canonical, not read
//     back). Want "---\n" or "null\n" (one document).
//  3. (pre-existing; aab4144's emptyText incomplete) An empty root
//     without a tag but with TaggedStyle is written as no text, and
//     emptyText takes it as a tag shown: the first of several documents
//     is no document ("\n---\nx\n" reads as one), written whole from a
//     stream too.
//  4. (pre-existing, better than 2a5845b's wrong output) A first document
//     without "---" given an empty root (a rendering of no text in its
//     frame) writes the stream whole: "a: 1\r\n---\r\nb:   2\r\n" is
//     "---\n\n---\nb: 2\n", the second document's bytes and the CRLF
//     lost. Want the first text "---\r\n" and the rest kept.
//
// 1 to 4 are fixed (strict below): lentOf asks whether an empty
// document's own foot comment starts with the lines; encodeYAML writes
// "---" for a first document written as no text, alone or not, TaggedStyle
// without a tag showing none (emptyText). 5 is known:
//
//  5. (pre-existing) Comments after "..." (commentedDocEnd) make most
//     edits of the documents around them written whole (348 of the lent
//     family's 7,192 cases; 354 with 2a5845b), CRLF and lone CR lost.
func TestAttack55Findings(t *testing.T) {
	x := func() *yaml.Node { return NewString("x") }
	emptyRoot := func(style yaml.Style, tag string) a48Edit {
		return func(docs []*yaml.Node) {
			docs[0].Content[0] = &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Style: style}
		}
	}
	for _, c := range []struct {
		name, in string
		edit     a48Edit
		want     string
	}{
		{"1. own foot comment = the foot before", "0\n# c\n---\n# c\n---\n1\n", a54SetRoot(1, x), "0\n# c\n---\nx\n# c\n---\n1\n"},
		{"1. own foot comment = the foot before, a map", "a: 1\n# c\n---\n# c\n---\n", a54SetRoot(1, func() *yaml.Node { return a54Map(NewString("k"), NewString("v")) }), "a: 1\n# c\n---\nk: v\n# c\n---\n"},
		{"2. one document, an empty root", "a: 1\n", emptyRoot(0, "!!null"), "---\n"},
		{"3. TaggedStyle without a tag", "a: 1\n---\nb: 2\n", emptyRoot(yaml.TaggedStyle, ""), "---\n---\nb: 2\n"},
		{"4. first document, an empty root", "a: 1\r\n---\r\nb:   2\r\n", emptyRoot(0, "!!null"), "---\r\n---\r\nb:   2\r\n"},
		{"5. comment after ...", "a: 1\n...\n# c\n\n---\nb: &x 2\nc: *x\n", func(docs []*yaml.Node) { v := docs[1].Content[0].Content[1]; v.Value, v.Tag = "new", "!!str" }, "a: 1\n...\n# c\n\n---\nb: new\nc: 2\n"},
	} {
		out, outcomes, whole, err := a54Write(c.in, c.edit)
		_, bad := a48Check(c.in, c.edit)
		if err != nil {
			t.Errorf("%s: %q: %v", c.name, c.in, err)
			continue
		}
		switch {
		case string(out) == c.want && bad == "":
		case strings.HasPrefix(c.name, "5."):
			// (known, pre-existing: comment lines after "..." that the
			// document before holds, in the text of the document after
			// it, send the stream to the writer when that document is
			// rendered: its rendering drops them)
			t.Logf("known: %s: %q -> %q (outcomes %v, whole %v; check: %s), want %q", c.name, c.in, out, outcomes, whole, a48Short(bad), c.want)
		default:
			t.Errorf("%s: %q -> %q (outcomes %v, whole %v; check: %s), want %q", c.name, c.in, out, outcomes, whole, a48Short(bad), c.want)
		}
	}
	// findings 2 and 3, the writer alone (fixed: encodeYAML writes "---"
	// for a first document written as no text, emptyText)
	var b bytes.Buffer
	tagged := &yaml.Node{Kind: yaml.ScalarNode, Style: yaml.TaggedStyle}
	WriteYAML(&b, Style{}, &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{tagged}}, &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{NewString("x")}})
	if got, _ := a48V3Docs(b.Bytes()); len(got) != 2 {
		t.Errorf("3. writer: TaggedStyle empty root without a tag, then x: %q, %d documents (want 2)", b.Bytes(), len(got))
	}
	b.Reset()
	WriteYAML(&b, Style{}, &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!null"}}})
	if got, _ := a48V3Docs(b.Bytes()); len(got) != 1 {
		t.Errorf("2. writer: one document, an empty null: %q, %d documents (want 1)", b.Bytes(), len(got))
	}
	// what holds (strict): the brief's lent cases
	for _, c := range []struct {
		in   string
		edit a48Edit
		want string
	}{
		{"0\n---\n# c\n---\n1\n", a54SetRoot(1, x), "0\n---\nx\n# c\n---\n1\n"},
		{"0\r\n---\r\n# c\r\n---\r\n1", a54SetRoot(1, x), "0\r\n---\r\n# c\r\nx\r\n---\r\n1"},
		{"0\r\n---", a54SetRoot(1, x), "0\r\n---\r\nx"},
		{"0\n# d\n---\n# c\n\nb: &x 2\nc: *x\n", func(docs []*yaml.Node) { v := docs[1].Content[0].Content[1]; v.Value, v.Tag = "new", "!!str" }, "0\n# d\n---\n# c\n\nb: new\nc: 2\n"},
		{"0\n---\n# c\n  # d\n\nb: 2\n", func(docs []*yaml.Node) { docs[1].Content[0].HeadComment = "# h" }, "0\n---\n# c\n  # d\n\n# h\nb: 2\n"},
	} {
		out, outcomes, whole, err := a54Write(c.in, c.edit)
		_, bad := a48Check(c.in, c.edit)
		if err != nil || string(out) != c.want || bad != "" || whole {
			t.Errorf("%q -> %q (outcomes %v, whole %v, %v; check: %s), want %q", c.in, out, outcomes, whole, err, a48Short(bad), c.want)
		}
	}
}
