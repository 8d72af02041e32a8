package tree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// Attack of 2026-11-30 on 238e612: removedLines takes the comment lines
// right of a removed entry's column after it only where a node of it has
// a foot comment (feet); lentOf keeps the comment lines ending an empty
// document's text before the next "---" (LF) its own; encodeYAML starts
// a lone or first document written as no text with "---".
//
// Every stream case goes through a55Stats.run (a54Check, a48Check: the
// output reads as the edited trees, with yaml.v3 and Read, comments node
// by node where written by byte ranges, comment lines kept; WriteYAML =
// preserved; Whole and outlined reads alike; documents not edited byte
// for byte), and, for the removal cases, a56Direct: the text
// replaceValues writes for the stream (replaceAll), where it writes one,
// reads as the edited documents, each comment on its node (footsMoved
// aside), the comment lines as a multiset. A56_FULL=1 runs many more.
//
// The default run (GOMAXPROCS=1): removed random 10,000 (4,842 direct
// texts right, 5,155 refused, 3 finding 1), removed systematic 14,496
// (7,966 right, 5,770 refused, 760 finding 1), lent 9,968 (5,032
// skipped: fewer documents than built), writer 7,944; no other failure.
// Logged: a48Blanks' blank lines around a cut entry (6), a source
// without line breaks rendered with LF (27), yaml.v3-only comment
// differences.

func a56Full() bool { return os.Getenv("A56_FULL") != "" }

// a56Direct checks the text replaceAll writes (byte ranges alone, no
// read-back) for in given edit. It returns "refused", "" (right) or what
// is wrong.
func a56Direct(in string, edit a48Edit) (out []byte, bad string) {
	defer func() {
		if p := recover(); p != nil {
			bad = fmt.Sprintf("direct: panic: %v", p)
		}
	}()
	st, err := Read([]byte(in), Options{})
	if err != nil || st.LoadAll() != nil {
		return nil, "refused"
	}
	st.Snapshot()
	edit(st.Docs)
	direct, ok := replaceAll(st)
	if !ok {
		return nil, "refused"
	}
	back, err := Read(direct, Options{})
	if err != nil || len(back.Docs) != len(st.Docs) {
		return direct, fmt.Sprintf("direct: %d documents (%v), want %d", len(back.Docs), err, len(st.Docs))
	}
	for i := range back.Docs {
		if !Equal(back.Docs[i], st.Docs[i]) {
			return direct, fmt.Sprintf("direct: document %d reads otherwise", i)
		}
		if p := commentsDiffer(back.Docs[i], st.Docs[i]); p != "" && !footsMovedOnly(back.Docs[i], st.Docs[i]) {
			return direct, fmt.Sprintf("direct: document %d: comments of %q moved", i, p)
		}
	}
	if !sameStreamComments(back.Docs, st.Docs) {
		var a, b []string
		for _, d := range back.Docs {
			a = commentLines(d, a)
		}
		for _, d := range st.Docs {
			b = commentLines(d, b)
		}
		return direct, fmt.Sprintf("direct: comment lines %q, want %q", a, b)
	}
	return direct, ""
}

// a56Stats is a55Stats with what the attack counts and logs but does not
// fail: a48Blanks' blank lines "added" or "lost" where an entry was cut
// (the blank lines around a cut entry stay, by design; the line diff
// pairs them otherwise), and a55Extra's line ends of a source without a
// line break (a rendering's LF).
type a56Stats struct {
	a55Stats
	blanks, noEOL int
	firstBlanks   []string
}

func (s *a56Stats) run(t *testing.T, in string, edit a48Edit, edited []int, keep bool, what string) {
	t.Helper()
	if raceSkip(&s.seen) {
		return
	}
	if s.known == nil {
		s.known = map[string]int{}
		s.outcomes = map[outcome]int{}
	}
	r, bad := a54Check(in, edit, keep)
	if bad == "skip" {
		s.skipped++
		return
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
	for _, o := range r.outcomes {
		s.outcomes[o]++
	}
	if r.whole {
		s.whole++
		if len(s.firstWhole) < 6 {
			s.firstWhole = append(s.firstWhole, fmt.Sprintf("%q (%s) -> %q", in, what, r.out))
		}
	}
	switch {
	case bad == "":
	case strings.HasPrefix(bad, a48V3Only):
		s.v3++
		if len(s.firstV3) < 3 {
			s.firstV3 = append(s.firstV3, fmt.Sprintf("%q (%s): %s", in, what, a48Short(bad)))
		}
	case strings.HasPrefix(bad, "blank lines between"):
		s.blanks++
		if len(s.firstBlanks) < 3 {
			s.firstBlanks = append(s.firstBlanks, fmt.Sprintf("%q (%s): %s", in, what, a48Short(bad)))
		}
	case strings.HasPrefix(bad, "document ") && strings.Contains(bad, ": line ends lf, its source :") && a54EOL([]byte(in)) == "":
		s.noEOL++
	default:
		if k := a56Known(in, r, bad, what); k != "" {
			s.known[k]++
			return
		}
		if k := a54Known(in, r, bad); k != "" && k != "empty document written whole" {
			s.known["a54: "+k]++
			return
		}
		s.bad++
		if s.bad <= 15 {
			t.Errorf("%s: %q (%s): %s: %q (outcomes %v)", s.label, in, what, bad, r.out, r.outcomes)
		}
	}
}

func (s *a56Stats) log(t *testing.T) {
	t.Helper()
	s.a55Stats.log(t)
	t.Logf("  blank lines around a cut (a48Blanks, by design): %d; a source without line breaks rendered with LF: %d", s.blanks, s.noEOL)
	for _, b := range s.firstBlanks {
		t.Logf("  blanks: %s", b)
	}
}

// a56Known names a finding of this attack that a stream case shows, or "".
func a56Known(in string, r a54Result, bad, what string) string {
	return ""
}

// --- 1. removed entries and their comments --------------------------------

// a56Gen writes a document of nested block mappings and lists with
// comment lines (heads, feet, at several columns) and blank lines
// between entries, and after the whole.
type a56Gen struct {
	r *rand.Rand
	b strings.Builder
	n int
}

func (g *a56Gen) comments(col int) {
	switch g.r.IntN(7) {
	case 0:
		g.b.WriteString(strings.Repeat(" ", col) + fmt.Sprintf("# c%d\n", g.n))
		g.n++
	case 1:
		c := max(0, col+[]int{-2, -1, 1, 2}[g.r.IntN(4)])
		g.b.WriteString(strings.Repeat(" ", c) + fmt.Sprintf("# o%d\n", g.n))
		g.n++
	case 2:
		g.b.WriteString("\n")
	case 3:
		g.b.WriteString(fmt.Sprintf("\n%s# b%d\n", strings.Repeat(" ", col), g.n))
		g.n++
	}
}

func (g *a56Gen) coll(col, depth int, seq bool) {
	n := 1 + g.r.IntN(3)
	ind := strings.Repeat(" ", col)
	for i := range n {
		g.comments(col)
		lead := ind + fmt.Sprintf("k%d%d:", depth, i)
		if seq {
			lead = ind + "-"
		}
		g.b.WriteString(lead)
		if depth < 3 && g.r.IntN(3) != 0 {
			sub := g.r.IntN(2) == 0
			line := ""
			if g.r.IntN(5) == 0 {
				line = fmt.Sprintf(" # l%d", g.n)
				g.n++
			}
			g.b.WriteString(line + "\n")
			c := col + 2
			if sub && !seq && g.r.IntN(2) == 0 {
				c = col // ("k:\n- a")
			}
			g.coll(c, depth+1, sub)
			continue
		}
		v := []string{" 1", " v", "", " 'q'", " [1]"}[g.r.IntN(5)]
		if g.r.IntN(5) == 0 {
			v += fmt.Sprintf(" # l%d", g.n)
			g.n++
		}
		g.b.WriteString(v + "\n")
	}
	if g.r.IntN(3) == 0 {
		g.comments(col)
	}
}

// a56Doc builds a stream of one (or two) documents.
func a56Doc(r *rand.Rand) string {
	g := &a56Gen{r: r}
	if r.IntN(4) == 0 {
		g.b.WriteString("# top\n\n")
	}
	g.coll(0, 0, r.IntN(3) == 0)
	for range r.IntN(3) {
		g.comments([]int{0, 1, 2, 4}[r.IntN(4)])
	}
	if r.IntN(6) == 0 {
		g.b.WriteString("---\nz: 1\n# zf\n")
	}
	in := g.b.String()
	if r.IntN(4) == 0 {
		in = strings.ReplaceAll(in, "\n", "\r\n")
	}
	if r.IntN(4) == 0 {
		in = strings.TrimRight(in, "\r\n")
	}
	return in
}

// a56Colls lists n's collections, pre-order.
func a56Colls(n *yaml.Node, out []*yaml.Node) []*yaml.Node {
	if n == nil {
		return out
	}
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		out = append(out, n)
	}
	for _, c := range n.Content {
		out = a56Colls(c, out)
	}
	return out
}

// a56RemoveEdit removes entry j of the c-th collection of document 0,
// then maybe adds one (add: 1 at the end, 2 first, 3 in the middle of the
// parent), or writes the value of the entry after it anew (add 4).
func a56RemoveEdit(c, j, add int) a48Edit {
	return func(docs []*yaml.Node) {
		if len(docs) == 0 || len(docs[0].Content) == 0 {
			return
		}
		cs := a56Colls(docs[0].Content[0], nil)
		if c >= len(cs) {
			return
		}
		n := cs[c]
		step := 1
		if n.Kind == yaml.MappingNode {
			step = 2
		}
		m := len(n.Content) / step
		if m == 0 {
			return
		}
		k := j % m
		n.Content = slices.Delete(slices.Clone(n.Content), k*step, k*step+step)
		var add1 []*yaml.Node
		if step == 2 {
			add1 = []*yaml.Node{NewString("new"), NewString("nv")}
		} else {
			add1 = []*yaml.Node{NewString("ni")}
		}
		switch add {
		case 1:
			n.Content = append(n.Content, add1...)
		case 2:
			n.Content = append(add1, n.Content...)
		case 3:
			p := (len(n.Content) / step / 2) * step
			n.Content = slices.Insert(n.Content, p, add1...)
		case 4:
			if k*step < len(n.Content) {
				v := n.Content[k*step+step-1]
				nv := a54Map(NewString("w"), NewString("x"))
				nv.HeadComment, nv.LineComment, nv.FootComment = v.HeadComment, v.LineComment, v.FootComment
				n.Content[k*step+step-1] = nv
			}
		}
	}
}

type a56DirectStats struct {
	refused, ok, bad, known int
	first                   []string
}

func (d *a56DirectStats) note(t *testing.T, in string, edit a48Edit, what string) {
	t.Helper()
	out, bad := a56Direct(in, edit)
	switch {
	case bad == "refused":
		d.refused++
	case bad == "":
		d.ok++
	case a56DirectKnown(in, out, bad):
		d.known++
		if len(d.first) < 4 {
			d.first = append(d.first, fmt.Sprintf("%q (%s) -> %q: %s", in, what, out, bad))
		}
	default:
		d.bad++
		if d.bad <= 10 {
			t.Errorf("%q (%s): %s: %q", in, what, bad, out)
		}
	}
}

// a56DirectKnown: finding 1 (pre-existing), replaceValues' text of a
// removal drops a comment line that Read gives a node kept (the
// document's or an outer collection's foot comment, after the removed
// entry's value with feet), which preservedWith's read-back catches.
//
// Fixed since (removedLines takes no more comment lines right of the
// entry's column than the foot comments ending its value have:
// trailingFootLines): none is known now, every such text is bad.
func a56DirectKnown(in string, out []byte, bad string) bool {
	return false
}

func TestAttack56Removed(t *testing.T) {
	n := 10000
	if a56Full() {
		n = 120000
	} else if testing.Short() {
		n = 800
	}
	s := &a56Stats{a55Stats: a55Stats{a54Stats: a54Stats{label: "removed"}}}
	d := &a56DirectStats{}
	r := rand.New(rand.NewPCG(56, 1))
	seen := 0
	for range n {
		in := a56Doc(r)
		st, err := Read([]byte(in), Options{})
		if err != nil || len(st.Docs) == 0 || st.LoadAll() != nil || len(st.Docs[0].Content) == 0 {
			continue
		}
		cs := a56Colls(st.Docs[0].Content[0], nil)
		if len(cs) == 0 {
			continue
		}
		c, j, add := r.IntN(len(cs)), r.IntN(4), r.IntN(8)
		if add > 4 {
			add = 0
		}
		edit := a56RemoveEdit(c, j, add)
		what := fmt.Sprintf("remove %d/%d add %d", c, j, add)
		s.run(t, in, edit, []int{0}, false, what)
		if raceSkip(&seen) {
			continue
		}
		d.note(t, in, edit, what)
	}
	s.log(t)
	t.Logf("direct (replaceAll): %d right, %d refused, %d known (finding 1), %d bad", d.ok, d.refused, d.known, d.bad)
	for _, f := range d.first {
		t.Logf("  known: %s", f)
	}
	if s.outcomes[replaced] < raceScaled(n/4) {
		t.Errorf("few documents written by byte ranges: %v", s.outcomes)
	}
}

// TestAttack56RemovedSystematic: an entry or item whose value has head
// comments, foot comments, both or none, nested at depth 1 to 3, followed
// by comment lines at several columns, blank lines, the next entry's head
// comment or the document's end; LF and CRLF, a final line break or not.
func TestAttack56RemovedSystematic(t *testing.T) {
	values := []struct{ text, what string }{
		{"\n  b: 1\n", "plain"},
		{"\n  # h\n  b: 1\n", "head"},
		{"\n  b: 1\n  # f\n", "foot"},
		{"\n  # h\n  b: 1\n  # f\n", "both"},
		{"\n  b:\n    # h\n    c: 1\n", "nested head"},
		{"\n  b:\n    c: 1\n    # f\n", "nested foot"},
		{"\n  b:\n    c: 1\n    # f\n  d: 2\n", "nested foot mid"},
		{"\n  b:\n  - c\n  # f\n", "list foot"},
		{"\n  - c\n  # f\n  - d\n", "items foot mid"},
		{"\n  - # h\n    c\n", "item head"},
		{"\n  b:\n    d:\n      # h\n      e: 1\n", "deep head"},
		{"\n  b:\n    d:\n      e: 1\n      # f\n", "deep foot"},
	}
	afters := []string{"", " #a\n", "  #a\n", "   #a\n", "\n #a\n", "\n  #a\n", "#a\n", "\n#a\n", "  #a\n\n #b\n", "\n\n    #a\n"}
	nexts := []string{"", "x: 2\n", "# nh\nx: 2\n", "\n# nh\n\nx: 2\n", "---\ny: 1\n"}
	s := &a56Stats{a55Stats: a55Stats{a54Stats: a54Stats{label: "removed systematic"}}}
	d := &a56DirectStats{}
	r := rand.New(rand.NewPCG(56, 2))
	seen := 0
	for _, v := range values {
		for _, a := range afters {
			for _, nx := range nexts {
				for _, pre := range []string{"w: 0\n", "w:\n  u: 0\n", "l:\n- p\n"} {
					for _, nest := range []int{0, 1} {
						for _, eol := range []string{"\n", "\r\n"} {
							for _, final := range []bool{true, false} {
								if !a56Full() && r.IntN(4) != 0 {
									continue
								}
								body := "k:" + v.text + a
								if nest == 1 {
									// the entry one level down
									var b strings.Builder
									for _, l := range strings.SplitAfter(body, "\n") {
										if l != "" && l != "\n" {
											b.WriteString("  ")
										}
										b.WriteString(l)
									}
									body = "m:\n  z: 0\n" + b.String()
								}
								in := pre + body + nx
								if eol != "\n" {
									in = strings.ReplaceAll(in, "\n", eol)
								}
								if !final {
									in = strings.TrimRight(in, "\r\n")
								}
								// remove k: the root's entry 1 (nest 0) or m's entry 1
								c, j := 0, 1
								if nest == 1 {
									c = 1
									if strings.HasPrefix(pre, "w:\n") || strings.HasPrefix(pre, "l:") {
										c = 2
									}
								}
								for _, add := range []int{0, 1, 2, 4} {
									edit := a56RemoveEdit(c, j, add)
									what := fmt.Sprintf("%s after %q next %q add %d", v.what, a, nx, add)
									s.run(t, in, edit, []int{0}, false, what)
									if raceSkip(&seen) {
										continue
									}
									d.note(t, in, edit, what)
								}
							}
						}
					}
				}
			}
		}
	}
	s.log(t)
	t.Logf("direct (replaceAll): %d right, %d refused, %d known (finding 1), %d bad", d.ok, d.refused, d.known, d.bad)
	for _, f := range d.first {
		t.Logf("  known: %s", f)
	}
}

// --- 2. lentOf: empty documents' comments, LF and CRLF ----------------------

// a56LentCase builds a stream of 2 to 5 documents, many empty with
// comment lines after their bare "---" (texts alike across neighbours),
// others with content and foot comments alike; each document's lines LF
// or CRLF; maybe no final line break.
func a56LentCase(r *rand.Rand) (in string, n int, what string) {
	n = 2 + r.IntN(4)
	comments := []string{"# c\n", "# c\n", "# d\n", "# c\n# d\n", "  # c\n", "#\n", "# c\n\n", "\n# c\n", ""}
	contents := []string{"a: 1\n", "- i\n", "0\n", "a:\n  b: 1\n", "a: &x 1\nb: *x\n"}
	var b strings.Builder
	var kinds []string
	for i := range n {
		var d string
		empty := r.IntN(3) != 0
		switch {
		case i == 0 && r.IntN(2) == 0:
			if empty {
				d = comments[r.IntN(len(comments))]
			} else {
				d = contents[r.IntN(len(contents))] + comments[r.IntN(len(comments))]
			}
		case empty:
			d = []string{"---\n", "---\n", "--- # m\n", "---  \n"}[r.IntN(4)] + comments[r.IntN(len(comments))]
		default:
			d = "---\n" + []string{"", "# h\n", "# c\n"}[r.IntN(3)] + contents[r.IntN(len(contents))] + comments[r.IntN(len(comments))]
		}
		if r.IntN(6) == 0 && !empty && i < n-1 {
			d += "...\n"
		}
		crlf := r.IntN(3)
		if crlf == 1 {
			d = strings.ReplaceAll(d, "\n", "\r\n")
		} else if crlf == 2 && r.IntN(2) == 0 {
			// the lines after the marker CRLF, the marker LF, or the other way
			l, rest, _ := strings.Cut(d, "\n")
			if r.IntN(2) == 0 {
				d = l + "\n" + strings.ReplaceAll(rest, "\n", "\r\n")
			} else {
				d = l + "\r\n" + rest
			}
		}
		b.WriteString(d)
		kinds = append(kinds, fmt.Sprintf("%q", d))
	}
	in = b.String()
	if r.IntN(4) == 0 {
		in = strings.TrimRight(in, "\r\n")
	}
	return in, n, strings.Join(kinds, " ")
}

func TestAttack56Lent(t *testing.T) {
	n := 15000
	if a56Full() {
		n = 200000
	} else if testing.Short() {
		n = 1000
	}
	s := &a56Stats{a55Stats: a55Stats{a54Stats: a54Stats{label: "lent"}}}
	r := rand.New(rand.NewPCG(56, 3))
	for range n {
		in, m, what := a56LentCase(r)
		st, err := Read([]byte(in), Options{})
		if err != nil || len(st.Docs) != m {
			s.skipped++
			continue
		}
		d := 1 + r.IntN(m-1)
		edit, edited, keep, ew := a55Edit(r.IntN(50), d)
		s.run(t, in, edit, edited, keep, what+" edit "+ew+fmt.Sprintf(" of %d", d))
	}
	s.log(t)
	if s.outcomes[replaced] < raceScaled(n/20) {
		t.Errorf("few documents written by byte ranges: %v", s.outcomes)
	}
}

// --- 3. the writer: empty roots as no text ---------------------------------

// a56EmptyDoc is a document with an empty root (or none) of tag, style
// and comments of k.
func a56EmptyDoc(k int) (*yaml.Node, string) {
	doc := &yaml.Node{Kind: yaml.DocumentNode}
	tags := []string{"", "!!null", "tag:yaml.org,2002:null"}
	styles := []yaml.Style{0, yaml.TaggedStyle, yaml.FlowStyle}
	if k%17 == 16 {
		return doc, "no content"
	}
	if k%17 == 15 {
		doc.Content = []*yaml.Node{NewString("x")}
		return doc, "x"
	}
	r := &yaml.Node{Kind: yaml.ScalarNode, Tag: tags[k%3], Style: styles[(k/3)%3]}
	k /= 9
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
		r.HeadComment, doc.FootComment = "# h", "# df"
	case 7:
		r.HeadComment, r.LineComment, r.FootComment, doc.HeadComment, doc.FootComment = "# h", "# l", "# f", "# dh", "# df"
	}
	doc.Content = []*yaml.Node{r}
	return doc, fmt.Sprintf("tag %q style %v comments %q %q %q doc %q %q", r.Tag, r.Style, r.HeadComment, r.LineComment, r.FootComment, doc.HeadComment, doc.FootComment)
}

// a56WriterFix checks a55WriterCheck and more: yaml.v3 reads as many
// documents; Read of the output then WriteYAML (the stream's) gives the
// same bytes, and the writer on the documents read back does too.
func a56WriterFix(docs []*yaml.Node, st Style) (out []byte, bad string) {
	out, bad = a55WriterCheck(docs, st)
	if bad != "" || out == nil {
		return out, bad
	}
	back, err := Read(out, Options{})
	if err != nil || back.LoadAll() != nil {
		return out, fmt.Sprintf("Read: %v", err)
	}
	back.Snapshot()
	var b bytes.Buffer
	if err := back.WriteYAML(&b); err != nil || !bytes.Equal(b.Bytes(), out) {
		return out, fmt.Sprintf("Read then WriteYAML: %q (%v)", b.Bytes(), err)
	}
	// the writer on the documents read back: the same values, the same
	// comment lines; written so, read and written again, the same bytes
	// (a fixpoint after one round: the first round may move a comment
	// between empty documents, a56Moved)
	b.Reset()
	if err := WriteYAML(&b, st, back.Docs...); err != nil {
		return out, fmt.Sprintf("written again: %v", err)
	}
	out2 := bytes.Clone(b.Bytes())
	back2, err := Read(out2, Options{})
	if err != nil || len(back2.Docs) != len(docs) {
		return out, fmt.Sprintf("written again: %q reads %d documents (%v)", out2, len(back2.Docs), err)
	}
	for i := range back2.Docs {
		if !Equal(back2.Docs[i], back.Docs[i]) && !(a55Empty(back2.Docs[i]) && a55Empty(back.Docs[i])) {
			return out, fmt.Sprintf("written again: %q: document %d reads otherwise", out2, i)
		}
	}
	if !sameStreamComments(back2.Docs, back.Docs) {
		return out, fmt.Sprintf("written again: %q: comment lines", out2)
	}
	if got, err := a48V3Docs(out2); err != nil || len(got) != len(docs) {
		return out, fmt.Sprintf("written again: %q: yaml.v3 reads %d documents (%v)", out2, len(got), err)
	}
	b.Reset()
	if err := WriteYAML(&b, st, back2.Docs...); err != nil || !bytes.Equal(b.Bytes(), out2) {
		return out, fmt.Sprintf("not a fixpoint: %q written again %q, then %q (%v)", out, out2, b.Bytes(), err)
	}
	if !bytes.Equal(out2, out) {
		bad = "moved"
	}
	// (an edit of the read-back stream, its last document given a
	// value, keeps the others)
	last := len(back.Docs) - 1
	if len(back.Docs[last].Content) == 1 {
		back.Docs[last].Content[0].Value, back.Docs[last].Content[0].Tag, back.Docs[last].Content[0].Style = "y", "!!str", 0
	} else {
		back.Docs[last].Content = []*yaml.Node{NewString("y")}
	}
	b.Reset()
	if err := back.WriteYAML(&b); err != nil {
		return out, fmt.Sprintf("edited: %v", err)
	}
	again, err := Read(b.Bytes(), Options{})
	if err != nil || len(again.Docs) != len(docs) {
		return out, fmt.Sprintf("edited: %q reads %d documents (%v), want %d", b.Bytes(), len(again.Docs), err, len(docs))
	}
	for i := range again.Docs {
		if !Equal(again.Docs[i], back.Docs[i]) {
			return out, fmt.Sprintf("edited: %q: document %d reads otherwise", b.Bytes(), i)
		}
	}
	if !sameStreamComments(again.Docs, back.Docs) {
		return out, fmt.Sprintf("edited: %q: comment lines", b.Bytes())
	}
	return out, bad
}

func TestAttack56Writer(t *testing.T) {
	styles := []Style{{}, {Indent: 4}, {CompactSequences: true}}
	cases, bad, moved := 0, 0, 0
	seen := 0
	var firstMoved []string
	check := func(docs []*yaml.Node, whats []string, st Style) {
		if raceSkip(&seen) {
			return
		}
		cases++
		out, b := a56WriterFix(docs, st)
		if b == "moved" {
			moved++
			if len(firstMoved) < 4 {
				firstMoved = append(firstMoved, fmt.Sprintf("%v: %q", whats, out))
			}
			return
		}
		if b != "" {
			bad++
			if bad <= 15 {
				t.Errorf("writer: %v: %s: %q", whats, b, out)
			}
		}
	}
	// systematic: one and two documents, every kind
	const kinds = 17 * 8
	for k := range kinds {
		d, w := a56EmptyDoc(k)
		check([]*yaml.Node{d}, []string{w}, Style{})
		for k2 := 0; k2 < kinds; k2 += 5 {
			d1, _ := a56EmptyDoc(k)
			d2, w2 := a56EmptyDoc(k2)
			check([]*yaml.Node{d1, d2}, []string{w, w2}, styles[k2%3])
		}
	}
	n := 4000
	if a56Full() {
		n = 60000
	}
	r := rand.New(rand.NewPCG(56, 4))
	for range n {
		m := 1 + r.IntN(3)
		var docs []*yaml.Node
		var whats []string
		for range m {
			d, w := a56EmptyDoc(r.IntN(kinds))
			docs, whats = append(docs, d), append(whats, w)
		}
		check(docs, whats, styles[r.IntN(3)])
	}
	t.Logf("writer: %d cases, %d bad, %d written otherwise from the documents read back (a comment of an empty document read as another's: values and comment lines the same, logged)", cases, bad, moved)
	for _, m := range firstMoved {
		t.Logf("  moved: %s", m)
	}
}

// TestAttack56Findings holds what this attack found, fixed since (strict),
// and what holds, strict.
//
//  1. (pre-existing: aab4144 the same) replaceValues' text for a removed
//     entry whose value has a foot comment (feet) takes the comment lines
//     right of the entry's column after a blank line, which Read gives the
//     document (its foot comment): "a: 0\nk:\n  b: 1\n  #a\n\n #b\n"
//     without k is "a: 0\n", "#b" lost (at column 2, "  #b", too). Want
//     "a: 0\n\n #b\n". preservedWith reads the text back and renders the
//     document instead ("a: 0\n\n#b\n": right, the layout lost), so
//     WriteYAML is right; 238e612's feet rule fixed the value with head
//     comments alone ("a: 0\nk:\n  # h\n  b: 1\n\n #b\n": aab4144's text
//     "a: 0\n", now refused). In the runs: removed random 3 of 10,000
//     cases' direct texts, systematic 760 of 14,496. Fixed: removedLines
//     takes no more comment lines right of the entry's column than the
//     foot comments ending its value have (trailingFootLines); now 0 and
//     0, as many texts written right as before (4,842 and 7,966).
//
// Logged, not a finding of 238e612: the writer writes an empty root's
// head or line comment, or its document's, after the "---" line, where
// Read gives it to the document before as its foot comment ("x\n---\n#
// h\n\n": "# h" doc 0's): values and comment lines kept, the writer on
// the documents read back writes otherwise ("x\n\n# h\n---\n\n"),
// a fixpoint from there; aab4144 the same.
func TestAttack56Findings(t *testing.T) {
	rm := func(k int) a48Edit {
		return func(docs []*yaml.Node) {
			n := docs[0].Content[0]
			n.Content = slices.Delete(slices.Clone(n.Content), 2*k, 2*k+2)
		}
	}
	for _, c := range []struct{ in, wantOut string }{
		{"a: 0\nk:\n  b: 1\n  #a\n\n #b\n", "a: 0\n\n #b\n"},
		{"a: 0\nk:\n  b: 1\n  #a\n\n  #b\n", "a: 0\n\n  #b\n"},
	} {
		// (fixed: the byte-range edits refuse it now, and the document is
		// rendered; or, written, the text must be right)
		if direct, bad := a56Direct(c.in, rm(1)); bad != "refused" && (bad != "" || string(direct) != c.wantOut) {
			t.Errorf("1. %q without k: replaceValues %q (%s), want %q or refused", c.in, direct, bad, c.wantOut)
		}
		// what holds: WriteYAML's output reads right
		if _, b := a48Check(c.in, rm(1)); b != "" {
			t.Errorf("1. %q: %s", c.in, b)
		}
	}
	// strict: the value with head comments alone (238e612), and the
	// removals whose following comment lines are the value's
	for _, c := range []struct{ in, want string }{
		{"a: 0\nk:\n  # h\n  b: 1\n\n #b\n", "a: 0\n\n#b\n"},
		{"0:\n#\n 0\n\n #", ""},
		{"a: 0\nk:\n  b: 1\n  #a\n", "a: 0\n"},
		{"a: 0\nk:\n  b: 1\n  #a\nc: 2\n", "a: 0\nc: 2\n"},
		{"a: 0\r\nk:\r\n  b:\r\n  - 1\r\n  #a\r\nc: 2", "a: 0\r\nc: 2"},
	} {
		e := rm(1)
		if strings.HasPrefix(c.in, "0:") {
			e = rm(0)
		}
		out, _, _, err := a54Write(c.in, e)
		_, bad := a48Check(c.in, e)
		if d, b := a56Direct(c.in, e); b != "" && b != "refused" {
			t.Errorf("%q: direct %q: %s", c.in, d, b)
		}
		if err != nil || bad != "" || c.want != "" && string(out) != c.want {
			t.Errorf("%q -> %q (%v; check %s), want %q", c.in, out, err, a48Short(bad), c.want)
		}
	}
	// strict: lentOf, an empty document's own comment lines (LF) and the
	// lent ones (CRLF); a neighbour's edit keeps them
	x := func() *yaml.Node { return NewString("x") }
	for _, c := range []struct {
		in   string
		edit a48Edit
		want string
	}{
		{"0\n# c\n---\n# c\n---\n# c\n---\n1\n", a54SetRoot(2, x), "0\n# c\n---\n# c\n---\nx\n# c\n---\n1\n"},
		{"0\r\n# c\r\n---\r\n# c\r\n---\r\n1\r\n", a54SetRoot(1, x), "0\r\n# c\r\n---\r\n# c\r\nx\r\n---\r\n1\r\n"},
		{"---\n# c\n---\n# c\n---\na: 1\n", func(docs []*yaml.Node) { docs[2].Content[0].Content[1].Value = "2" }, "---\n# c\n---\n# c\n---\na: 2\n"},
	} {
		out, outcomes, whole, err := a54Write(c.in, c.edit)
		_, bad := a48Check(c.in, c.edit)
		if err != nil || string(out) != c.want || bad != "" || whole {
			t.Errorf("%q -> %q (outcomes %v, whole %v, %v; check: %s), want %q", c.in, out, outcomes, whole, err, a48Short(bad), c.want)
		}
	}
	// strict: the writer, a lone or first document written as no text
	for _, c := range []struct {
		docs []*yaml.Node
		want string
	}{
		{[]*yaml.Node{{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!null"}}}}, "---\n"},
		{[]*yaml.Node{{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode}}}, {Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode}}}}, "---\n---\n\n"},
		{[]*yaml.Node{{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Style: yaml.TaggedStyle}}}}, "---\n"},
	} {
		var b bytes.Buffer
		if err := WriteYAML(&b, Style{}, c.docs...); err != nil || b.String() != c.want {
			t.Errorf("writer: %q (%v), want %q", b.Bytes(), err, c.want)
		}
		if _, bad := a56WriterFix(c.docs, Style{}); bad != "" {
			t.Errorf("writer: %q: %s", c.want, bad)
		}
	}
}
