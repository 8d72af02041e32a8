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

// Attack of 2026-11-30 on entries added after an entry whose value ends
// with foot comments (addedLines: the new lines after the comment lines
// right of their column), the foot comment moved down a kept entry's value
// to a new last entry (footsMoved, lastFoot; the tests' footsMovedOnly)
// and items of one line added to lists with spaces after their dashes
// (gappedItem). Every output is read back by kmerge's reader and by
// yaml.v3, every comment where the edited tree has it or moved as
// footsMoved documents it (a49Match: the moves are found here from the
// entries the edit added, not from the code's), and a text written in
// place holds every line of its source, in order, when the edit only
// added entries.

// a49Edit edits a stream, recording the keys (or items) of the entries it
// adds in added (when not nil).
type a49Edit func(st *Stream, added map[*yaml.Node]bool)

// a49Stats counts one family's cases.
type a49Stats struct {
	cases, skipped, inPlace, bad, unproven, v3Checked int
	afterComment                                      int                                // in place, new lines right after a comment line of the input
	label                                             string                             // what a failure's message starts with
	inPlaceCheck                                      func(in string, out []byte) string // more checks of a text written in place
	seen                                              int                                // (raceSkip)
	known                                             int                                // outputs of known, older moves (a49DocFoot, a49FirstLine, a49Dropped, a49LineThenComment)
	older                                             int                                // wrong texts not written in place (the splice's, the writer's)
}

func (s *a49Stats) String() string {
	return fmt.Sprintf("%d deep foot comments moved (so far), %d cases, %d in place (%d with new lines right after a comment line), %d checked with yaml.v3's comment places, %d skipped, %d bad, %d wrong unproven texts, %d known older moves, %d wrong texts of the older ways",
		a49DeepMoves, s.cases, s.inPlace, s.afterComment, s.v3Checked, s.skipped, s.bad, s.unproven, s.known, s.older)
}

// run checks edit of in (a49Check) and reports a failure (the first 15).
func (s *a49Stats) run(t *testing.T, in string, edit a49Edit, pure bool) {
	t.Helper()
	if raceSkip(&s.seen) {
		return
	}
	bad, inPlace, v3, after := a49Check(in, edit, pure)
	if bad == "" && inPlace && s.inPlaceCheck != nil {
		bad = s.inPlaceCheck(in, a49Out)
	}
	if after {
		s.afterComment++
	}
	switch {
	case bad == "skip":
		s.skipped++
		return
	case strings.HasPrefix(bad, "unproven "):
		s.unproven++
		bad = ""
	case strings.HasPrefix(bad, "known: "):
		s.known++
		if strings.HasPrefix(bad, "known: CRLF") && os.Getenv("A49V") != "" {
			t.Logf("%s%q: %s", s.label, in, bad)
		}
		bad = ""
	case strings.HasPrefix(bad, "older: "):
		s.older++
		if s.older <= 3 {
			t.Logf("%s%q: %s", s.label, in, bad)
		}
		bad = ""
	}
	s.cases++
	if inPlace {
		s.inPlace++
	}
	if v3 {
		s.v3Checked++
	}
	if bad != "" {
		s.bad++
		if s.bad <= 15 {
			t.Errorf("%s%q: %s", s.label, in, bad)
		}
	}
}

// a49Check checks edit of in: a45Check (no panic; the output reads as the
// edited documents, with Read and with yaml.v3; Options.Whole, outlines,
// determinism; replaceValues' text), then the output's comments, as Read
// and as yaml.v3 read it (where yaml.v3 reads the input's as Read does),
// each on its node or moved as documented (a49Match); an empty outline
// with Load writes what reads the same; and a text written in place by an
// edit that only added entries (pure) holds every line of the input, in
// order, and no comment line of the input twice.
func a49Check(in string, edit a49Edit, pure bool) (bad string, inPlace, v3, after bool) {
	defer func() {
		if r := recover(); r != nil {
			bad = fmt.Sprintf("panic: %v", r)
		}
	}()
	plain := func(st *Stream) { edit(st, nil) }
	res, bad := a45Check(in, nil, plain)
	a49Out = res.out
	if bad == "skip" {
		return bad, false, false, false
	}
	inPlace = res.inPlace && bytes.Equal(res.out, res.direct)
	if strings.HasPrefix(bad, "unproven ") && inPlace {
		bad = "written: " + bad
	}
	if bad != "" && !inPlace && !strings.HasPrefix(bad, "panic") && (strings.HasPrefix(bad, "WriteYAML: ") || strings.HasPrefix(bad, "outlined: ")) {
		// (a text the splice or the writer's full rendering wrote, older
		// ways than the ones attacked here: counted, the first shown;
		// attack49's report names those found)
		return "older: " + bad, inPlace, false, false
	}
	if bad != "" && inPlace && a49FirstLine(in, string(res.out)) {
		return "known: first line: " + bad, inPlace, false, false
	}
	if bad != "" {
		return bad, inPlace, false, false
	}
	if inPlace && pure {
		after = a49AfterComment(in, string(res.out))
	}
	st, err := Read([]byte(in), Options{})
	if err != nil {
		return "skip", false, false, false
	}
	for i := range st.Docs {
		if err := st.Load(i); err != nil {
			return "load: " + err.Error(), inPlace, false, after
		}
	}
	st.Snapshot()
	added := map[*yaml.Node]bool{}
	edit(st, added)
	var b bytes.Buffer
	if err := st.WriteYAML(&b); err != nil {
		return "write: " + err.Error(), inPlace, false, after
	}
	out := b.Bytes()
	if !bytes.Equal(out, res.out) {
		return fmt.Sprintf("not deterministic: %q then %q", res.out, out), inPlace, false, after
	}
	if !inPlace {
		// (the splice and the writer's full rendering, older ways, keep
		// comment lines, not always their places: the stream's read-back
		// compares the lines; their texts are checked by a45Check)
		return "", inPlace, false, after
	}
	// kmerge's reader
	back, err := Read(out, Options{})
	if err != nil || len(back.Docs) != len(st.Docs) {
		return fmt.Sprintf("does not read back (%v): %q", err, out), inPlace, false, after
	}
	for i := range back.Docs {
		if p := a49Match(back.Docs[i], st.Docs[i], added); p != "" {
			if a49DocFoot(back.Docs[i], st.Docs[i], added) {
				return "known: document foot", inPlace, false, after
			}
			if a49FirstLine(in, string(out)) {
				return "known: first line: " + p, inPlace, false, after
			}
			return fmt.Sprintf("Read: document %d: %s: %q", i, p, out), inPlace, false, after
		}
	}
	// yaml.v3, where it reads the input's comments as Read does (not at
	// a stream's end without a line break, where the two readers place
	// the last comment lines otherwise, a difference fastyaml's tests
	// allow: a47's "placed")
	if a49V3Places([]byte(in)) == "" && strings.HasSuffix(in, "\n") && bytes.HasSuffix(out, []byte("\n")) {
		v3 = true
		dec := yaml.NewDecoder(bytes.NewReader(out))
		for i := 0; ; i++ {
			var d yaml.Node
			if err := dec.Decode(&d); err != nil {
				if err.Error() != "EOF" {
					return fmt.Sprintf("yaml.v3: %v: %q", err, out), inPlace, v3, after
				}
				break
			}
			if i >= len(st.Docs) {
				break // (a45Check compared the values)
			}
			if p := a49Match(&d, st.Docs[i], added); p != "" {
				if a49DocFoot(&d, st.Docs[i], added) {
					return "known: document foot", inPlace, v3, after
				}
				if a49FirstLine(in, string(out)) {
					return "known: first line: " + p, inPlace, v3, after
				}
				if a49Dropped(&d, st.Docs[i]) {
					// (yaml.v3 drops a comment line in arrangements
					// fastyaml's doc names: " # f3" of "a: 0\nb:\n  k:
					// w\n# f0\n\n# f2\n # f3\n", written so before)
					return "known: yaml.v3 drops comment lines", inPlace, v3, after
				}
				if strings.Contains(in, "\r\n") && a49LineThenComment(string(out)) {
					// (with CRLF line ends yaml.v3 places comment lines
					// otherwise than Read in places, the text read back by
					// Read: "e: [1]\r\nn: v # lc\r\n# f0\r\nm: 1\r\n"
					// gives "# f0" to n, Read to m; written so before the
					// changes attacked here: attack49's report)
					return fmt.Sprintf("known: CRLF: yaml.v3: document %d: %s: %q", i, p, out), inPlace, v3, after
				}
				return fmt.Sprintf("yaml.v3: document %d: %s: %q", i, p, out), inPlace, v3, after
			}
		}
	}
	// an empty outline, every document loaded
	_, outl, e := a45Run(in, Options{Outline: &Outline{}}, nil, plain)
	if e != "" {
		return "empty outline: " + e, inPlace, v3, after
	}
	if back, err := Read(outl, Options{}); err != nil || len(back.Docs) != len(st.Docs) {
		return fmt.Sprintf("empty outline: does not read back (%v): %q", err, outl), inPlace, v3, after
	} else {
		for i := range back.Docs {
			if !Equal(back.Docs[i], st.Docs[i]) {
				return fmt.Sprintf("empty outline: document %d reads otherwise: %q", i, outl), inPlace, v3, after
			}
		}
	}
	if inPlace && pure {
		if p := a49Kept(in, string(out), added); p != "" {
			return fmt.Sprintf("in place: %s: %q", p, out), inPlace, v3, after
		}
	}
	return "", inPlace, v3, after
}

// a49Out is the output a49Check checked last (the tests run one at a
// time).
var a49Out []byte

// a49AfterComment reports whether out, in with lines inserted, has an
// inserted line right after a comment line of in.
func a49AfterComment(in, out string) bool {
	a := strings.Split(strings.ReplaceAll(in, "\r\n", "\n"), "\n")
	b := strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n")
	j := 0
	prev := ""
	for _, l := range b {
		if j < len(a) && a[j] == l {
			j++
			prev = l
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(prev, " \t"), "#") {
			return true
		}
		prev = l
	}
	return false
}

// a49Kept reports how out is not in with lines inserted: every line of
// in, in order (the last one's line break aside), and among the inserted
// lines no comment line of in (unless the added entries have comments).
func a49Kept(in, out string, added map[*yaml.Node]bool) string {
	norm := func(s string) []string {
		s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
		return strings.Split(s, "\n")
	}
	a, b := norm(in), norm(out)
	j := 0
	var extra []string
	for _, l := range b {
		if j < len(a) && a[j] == l {
			j++
			continue
		}
		extra = append(extra, l)
	}
	if j < len(a) {
		return fmt.Sprintf("line %d of the input, %q, not kept", j+1, a[j])
	}
	comments := map[string]bool{}
	for _, l := range a {
		if i := strings.Index(l, "#"); i >= 0 {
			comments[strings.TrimSpace(l[i:])] = true
		}
	}
	for _, l := range extra {
		if i := strings.Index(l, "#"); i >= 0 && comments[strings.TrimSpace(l[i:])] {
			return fmt.Sprintf("a comment of the input among the new lines: %q", l)
		}
	}
	return ""
}

// a49DocFoot reports whether got's comments are want's with the document's
// foot comment and that of the root collection's last entry (its key or
// item) swapped, one of them empty: yaml.v3 gives the comment lines after
// a root collection of one entry whose value is on the stream's first
// line and not plain to the document ("e: [1]\n# f"), of more to its last
// entry ("a: 0\ne: [1]\n# f"), and an entry added before it or the one
// before it cut in place changes which (a49FirstLine's case; a known move
// of the byte-range writer, older than the changes attacked here:
// attack49's report).
func a49DocFoot(got, want *yaml.Node, added map[*yaml.Node]bool) bool {
	if want.Kind != yaml.DocumentNode || len(want.Content) != 1 {
		return false
	}
	r := want.Content[0]
	if r.Kind != yaml.MappingNode && r.Kind != yaml.SequenceNode || len(r.Content) == 0 {
		return false
	}
	step := 1
	if r.Kind == yaml.MappingNode {
		step = 2
	}
	last := r.Content[len(r.Content)-step]
	if (want.FootComment == "") == (last.FootComment == "") {
		return false
	}
	copies := map[*yaml.Node]*yaml.Node{}
	var cp func(n *yaml.Node) *yaml.Node
	cp = func(n *yaml.Node) *yaml.Node {
		c := *n
		copies[n] = &c
		if n.Kind != yaml.AliasNode {
			c.Content = make([]*yaml.Node, len(n.Content))
			for i, k := range n.Content {
				c.Content[i] = cp(k)
			}
		}
		return &c
	}
	w := cp(want)
	wl := copies[last]
	w.FootComment, wl.FootComment = wl.FootComment, w.FootComment
	a := map[*yaml.Node]bool{}
	for n := range added {
		a[copies[n]] = true
	}
	return a49Match(got, w, a) == ""
}

// a49FirstLine reports whether in's first line is an entry whose value
// (or an item) is a quoted scalar or a flow collection, or starts with
// properties ("k0: !t", its value below), and out does not
// start with it: yaml.v3 gives the comment lines below such a node on the
// stream's first line to the next node (a head comment), below it on a
// later line to it (a foot comment), and lines added before it, or cut,
// in place change which ("e: 'q'\n# f0\n\n# f2\nm: 1\n" given a first
// key; a known move of the byte-range writer, older than the changes
// attacked here: attack49's report).
func a49FirstLine(in, out string) bool {
	first, _, _ := strings.Cut(in, "\n")
	first = strings.TrimSuffix(first, "\r")
	t := strings.TrimPrefix(first, "- ")
	if _, v, ok := strings.Cut(t, ": "); ok {
		t = v
	}
	t = strings.TrimSpace(t)
	return t != "" && strings.ContainsAny(t[:1], "'\"[{!&") && !strings.HasPrefix(out, first)
}

// a49LineThenComment reports whether text has a new entry's line with a
// line comment (a49Entry's "# line ...", a49GapEdit's "# line new") right
// above a comment line: with CRLF line ends, yaml.v3 gives such a comment
// line to the new key as its foot comment, Read to the next node (a known
// difference of the readers, written so before the changes attacked
// here: "e: [1]\r\nn: v # lc\r\n# f0\r\nm: 1\r\n", and below a block
// scalar's lines, "- a\r\n- | # lc\r\n  x\r\n# - x\r\n...\r\n").
func a49LineThenComment(text string) bool {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	for i := 0; i+1 < len(lines); i++ {
		if !strings.Contains(lines[i], " # line ") {
			continue
		}
		j := i + 1
		if strings.Contains(lines[i], ": | #") || strings.Contains(lines[i], "- | #") {
			// (a block scalar's lines first)
			for j < len(lines) && indent(lines[j]) > indent(lines[i]) && !strings.HasPrefix(strings.TrimLeft(lines[j], " "), "#") {
				j++
			}
		}
		if j < len(lines) && strings.HasPrefix(strings.TrimLeft(lines[j], " \t"), "#") {
			return true
		}
	}
	return false
}

// a49Dropped reports whether got holds fewer comment lines than want,
// none that want does not.
func a49Dropped(got, want *yaml.Node) bool {
	return droppedLines(commentLines(got, nil), commentLines(want, nil))
}

// droppedLines reports whether g, comment lines, are fewer than w and
// each one of w's (a49Dropped, a51Dropped).
func droppedLines(g, w []string) bool {
	if len(g) >= len(w) {
		return false
	}
	for _, l := range g {
		i := slices.Index(w, l)
		if i < 0 {
			return false
		}
		w = slices.Delete(w, i, i+1)
	}
	return true
}

// a49Match returns where got's comments are not want's, "" when each is on
// its node or moved as footsMoved documents: in a collection whose last
// entries the edit added (added: their keys or items), the last foot
// comment of the kept entry before them (its key's or item's, or down its
// value's last entries: a mapping's last key's, a node's) on the new last
// entry's key (or item), or on a node inside it (landedFoot), which has
// none of its own in want.
func a49Match(got, want *yaml.Node, added map[*yaml.Node]bool) string {
	over := map[*yaml.Node]string{}
	a49Moves(got, want, added, over)
	return a49Diff(got, want, over, "")
}

func a49Moves(g, w *yaml.Node, added map[*yaml.Node]bool, over map[*yaml.Node]string) {
	if g.Kind != w.Kind || len(g.Content) != len(w.Content) || w.Kind == yaml.AliasNode {
		return
	}
	if w.Kind == yaml.MappingNode || w.Kind == yaml.SequenceNode {
		step := 1
		if w.Kind == yaml.MappingNode {
			step = 2
		}
		n := len(w.Content) / step
		if last := (n - 1) * step; n >= 2 && added[w.Content[last]] && w.Content[last].FootComment == "" {
			k := n - 1
			for k >= 0 && added[w.Content[k*step]] {
				k--
			}
			if k >= 0 {
				gn, wn := g.Content[k*step], w.Content[k*step]
				var gv, wv *yaml.Node
				if step == 2 {
					gv, wv = g.Content[k*step+1], w.Content[k*step+1]
				}
				gf, wf := footPair(gn, gv, wn, wv)
				dst := w.Content[last]
				if wf != nil && g.Content[last].FootComment != wf.FootComment {
					// or a node inside the new entry ("n:\n- p\n- q\n#
					// t": q's, yaml.v3), which has none of its own
					gl, wl := g.Content[last], w.Content[last]
					if step == 2 {
						gl, wl = g.Content[last+1], w.Content[last+1]
					}
					gd, wd := landedFoot(gl, wl, func(n *yaml.Node) string { return n.FootComment })
					if dst = wd; gd == nil || gd.FootComment != wf.FootComment {
						dst = nil
					}
				}
				if wf != nil && gf.FootComment == "" && dst != nil {
					over[wf], over[dst] = "", wf.FootComment
					if wf != wn {
						a49DeepMoves++
					}
				}
			}
		}
	}
	for i := range w.Content {
		a49Moves(g.Content[i], w.Content[i], added, over)
	}
}

// a49DeepMoves counts the moves a49Moves allowed of a foot comment down
// a kept entry's value (lastFoot's, the second change attacked), found in
// the outputs (the tests run one at a time).
var a49DeepMoves int

func a49Diff(g, w *yaml.Node, over map[*yaml.Node]string, path string) string {
	foot := w.FootComment
	if f, ok := over[w]; ok {
		foot = f
	}
	here := path + "/" + w.Value
	if g.HeadComment != w.HeadComment || g.LineComment != w.LineComment || g.FootComment != foot {
		return fmt.Sprintf("comments of %s: got H%q L%q F%q, want H%q L%q F%q", here, g.HeadComment, g.LineComment, g.FootComment,
			w.HeadComment, w.LineComment, foot)
	}
	if g.Kind != w.Kind || len(g.Content) != len(w.Content) || w.Kind == yaml.AliasNode {
		return ""
	}
	for i := range w.Content {
		if p := a49Diff(g.Content[i], w.Content[i], over, here); p != "" {
			return p
		}
	}
	return ""
}

// a49Layout is a document of the foot family: a block collection (kind:
// 0 a mapping, 1 a list of compact mappings, 2 a compact mapping's keys,
// 3 a list) at column col, an entry e in it whose value (value, one of
// a49Value's) is followed by the lines of block (comment and blank lines
// at many columns), then what follows (after).
type a49Layout struct {
	kind, col, value, after int
	flush, prev, head, crlf bool
	later                   bool // a document before it
	block                   []string
}

// a49Value returns the text of value form v after "e:" (or an item's
// dash), its collection's first line on the dash's line when inline, its
// lines at column j.
func a49Value(v, j int, inline bool) string {
	in := func(n int) string { return strings.Repeat(" ", n) }
	first := func(s string) string {
		if inline {
			return " " + strings.TrimLeft(s, " ")
		}
		return "\n" + s
	}
	switch v {
	case 0:
		return " 1\n"
	case 1:
		return first(in(j)+"- p\n") + in(j) + "- q\n"
	case 2:
		return first(in(j)+"q: 1\n") + in(j) + "r: 2\n"
	case 3:
		return first(in(j)+"q:\n") + in(j+2) + "- p\n"
	case 4:
		return first(in(j)+"- name: a\n") + in(j+2) + "args:\n" + in(j+2) + "- p\n"
	case 5:
		return " |\n" + in(j) + "text\n"
	case 6:
		return " |+\n" + in(j) + "text\n\n"
	case 7:
		return " >-\n" + in(j) + "t\n"
	case 8:
		return " [1, 2]\n"
	case 9:
		return first(in(j)+"- |\n") + in(j+2) + "x\n"
	case 10:
		return "\n"
	case 11:
		return first(in(j)+"q:\n") + in(j+2) + "r: 1\n" + in(j+2) + "s:\n" + in(j+4) + "- p\n"
	case 12:
		return first(in(j)+"- - p\n") + in(j+2) + "- q\n"
	case 13:
		return " 'quoted'\n"
	case 14:
		return " &an\n" + in(j) + "q: 1\n"
	case 15:
		return first(in(j)+"q: |\n") + in(j+2) + "x\n"
	case 16:
		return first(in(j)+"q:\n") + in(j+2) + "- a: 1\n" + in(j+4) + "b: 2 # lc\n"
	case 17:
		return first(in(j)+"- a\n") + in(j) + "  # inner foot\n" + in(j) + "- b\n"
	case 18:
		return " [1,\n" + in(j) + "2]\n"
	case 19:
		return " a\n" + in(j) + "b\n"
	case 20:
		return " \"a\n" + in(j) + "b\"\n"
	case 21:
		return first(in(j)+"q: {a: 1,\n") + in(j+2) + "b: 2}\n"
	case 22:
		return first(in(j)+"- !t\n") + in(j+2) + "k: v\n"
	case 23:
		return first(in(j)+"q: # lc\n") + in(j+2) + "- p # lp\n"
	}
	panic(v)
}

const a49Values = 24

// a49Blocks are the lines after e's value: comments at columns around
// col (the collection's) and j (e's value's), blank lines.
func a49Block(r *rand.Rand, col, j int) []string {
	n := 1 + r.IntN(4)
	var out []string
	comment := false
	for i := range n {
		if r.IntN(4) == 0 && i > 0 {
			out = append(out, []string{"", " ", "\t", "  \t", strings.Repeat(" ", j)}[r.IntN(5)])
			continue
		}
		cols := []int{0, col, col + 1, col + 2, j, j + 2, max(col-1, 0), max(j-1, 0), col + 3}
		lead := strings.Repeat(" ", cols[r.IntN(len(cols))])
		if r.IntN(12) == 0 {
			lead += "\t" // (a tab before the '#')
		}
		text := fmt.Sprintf("# f%d", i)
		if r.IntN(10) == 0 {
			text = []string{"#", "#f", "# f  ", "## f", "# - x", "#k: v"}[r.IntN(6)]
		}
		out = append(out, lead+text)
		comment = true
	}
	if !comment {
		out = append(out, strings.Repeat(" ", j)+"# f9")
	}
	return out
}

// text returns l's document, and the path to its collection (in its
// first document; for kind 2, the list whose item it is).
func (l a49Layout) text() (string, []string) {
	in := func(n int) string { return strings.Repeat(" ", n) }
	var b strings.Builder
	if l.later {
		b.WriteString("p: 0\n# foot p\n---\n")
	}
	if l.head {
		b.WriteString("# head\n")
	}
	var path []string
	c := l.col
	wrapped := true
	switch {
	case c == 0 && (l.kind == 0 || l.kind == 2 || l.flush):
		wrapped = false
	case c == 0:
		b.WriteString("top:\n")
		path = []string{"top"}
	case c == 2:
		b.WriteString("top:\n")
		path = []string{"top"}
	default:
		b.WriteString("top:\n  mid:\n")
		path = []string{"top", "mid"}
		if l.kind == 1 || l.kind == 2 || l.kind == 3 {
			c = 4
		}
	}
	var entry func(name, v string) string // an entry's text, its value v
	j := c + 2                            // e's value's column
	switch l.kind {
	case 0:
		entry = func(name, v string) string { return in(c) + name + ":" + v }
		if l.flush {
			j = c
		}
	case 1:
		entry = func(name, v string) string { return in(c) + "- " + name + ":" + v }
		j = c + 4
		if l.flush {
			j = c + 2
		}
	case 2:
		entry = func(name, v string) string { return in(c+2) + name + ":" + v }
		j = c + 4
		if l.flush {
			j = c + 2
		}
	case 3:
		entry = func(name, v string) string { return in(c) + "-" + v }
	}
	if l.kind == 2 {
		b.WriteString(in(c) + "- z: 0\n")
		if l.prev {
			b.WriteString(in(c) + "- a: 0\n")
		}
	} else if l.prev {
		if l.kind == 3 {
			b.WriteString(in(c) + "- a0\n")
		} else {
			b.WriteString(entry("a", " 0\n"))
		}
	}
	v := a49Value(l.value, j, l.kind == 3)
	if l.kind == 3 && (l.value == 0 || l.value == 10) {
		v = " " + strings.TrimLeft(v, " ")
		if l.value == 10 {
			v = " e\n"
		}
	}
	if l.kind == 2 && !l.prev {
		// (e first in its item: on the dash's line)
		s := strings.TrimPrefix(entry("e", v), in(c+2))
		b.WriteString(in(c) + "- " + s)
	} else {
		b.WriteString(entry("e", v))
	}
	for _, line := range l.block {
		b.WriteString(line + "\n")
	}
	next := func() {
		if l.kind == 3 {
			b.WriteString(in(c) + "- m\n")
		} else {
			b.WriteString(entry("m", " 1\n"))
		}
	}
	outer := func() {
		if wrapped {
			b.WriteString("out: 1\n")
		}
	}
	switch l.after {
	case 0:
		next()
	case 1:
		next()
		outer()
	case 2:
		outer()
	case 3:
	case 4:
		next()
		b.WriteString("---\nz: 1\n")
	case 5:
		b.WriteString("---\nz: 1\n")
	case 6:
		next()
		b.WriteString("...\n")
	case 7:
		b.WriteString("...\n")
	case 8:
		s := strings.TrimSuffix(b.String(), "\n")
		b.Reset()
		b.WriteString(s)
	case 9:
		next()
		b.WriteString("# doc foot\n")
	case 10:
		if c > 0 {
			b.WriteString(in(c-2) + "  # between\n")
		}
		next()
	}
	return b.String(), path
}

const a49Afters = 11

// a49Entry returns a new entry for collection c (a key and value, or an
// item) named name; shape picks its value and comments.
func a49Entry(c *yaml.Node, name string, shape int) []*yaml.Node {
	var v *yaml.Node
	switch shape % 5 {
	case 0, 4:
		v = NewString("v-" + name)
	case 1:
		v = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{NewString("k"), NewString("w")}}
	case 2:
		v = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{NewString("i")}}
	case 3:
		v = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "x\ny\n"}
	}
	first := v
	if c.Kind == yaml.MappingNode {
		first = NewString(name)
	}
	// (comments where yaml.v3 reads them: a key's or item's head and
	// foot comments, a scalar's line comment; the writer places others
	// on the lines of other nodes)
	switch shape / 5 {
	case 1:
		first.HeadComment = "# head " + name
	case 2:
		if v.Kind == yaml.ScalarNode {
			v.LineComment = "# line " + name
		}
	case 3:
		if first.Kind == yaml.ScalarNode {
			first.FootComment = "# foot " + name
		}
	}
	if c.Kind == yaml.MappingNode {
		return []*yaml.Node{first, v}
	}
	return []*yaml.Node{v}
}

const a49Shapes = 20

// a49Insert inserts entry (a49Entry's) at entry index i of c, recording it.
func a49Insert(c *yaml.Node, i int, entry []*yaml.Node, added map[*yaml.Node]bool) {
	step := 1
	if c.Kind == yaml.MappingNode {
		step = 2
	}
	i = min(i, len(c.Content)/step)
	c.Content = slices.Insert(c.Content, i*step, entry...)
	if added != nil {
		added[entry[0]] = true
	}
}

// a49Inner returns the block collection e's value is or ends with, down
// (deep: its last one), or nil.
func a49Inner(v *yaml.Node, deep bool) *yaml.Node {
	var found *yaml.Node
	for v != nil && (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 {
		found = v
		if !deep {
			return found
		}
		v = v.Content[len(v.Content)-1]
	}
	return found
}

// a49FootEdit is edit op of layout l's collection (path) with new
// entries of shape.
func a49FootEdit(l a49Layout, path []string, op, shape int) a49Edit {
	return func(st *Stream, added map[*yaml.Node]bool) {
		d := 0
		if l.later {
			d = 1
		}
		if d >= len(st.Docs) {
			return
		}
		c := nodeAt(Root(st.Docs[d]), path...)
		if c == nil {
			return
		}
		if l.kind == 2 {
			if c.Kind != yaml.SequenceNode || len(c.Content) < 2 {
				return
			}
			c = c.Content[1]
		}
		if c.Kind != yaml.MappingNode && c.Kind != yaml.SequenceNode {
			return
		}
		step := 1
		if c.Kind == yaml.MappingNode {
			step = 2
		}
		ei := 0
		if l.prev {
			ei = 1
		}
		if ei*step >= len(c.Content) {
			return
		}
		ev := c.Content[ei*step]
		if step == 2 {
			ev = c.Content[ei*step+1]
		} else if l.kind == 1 && ev.Kind == yaml.MappingNode && len(ev.Content) >= 2 {
			ev = ev.Content[1]
		}
		n := func(s string) string { return fmt.Sprintf("n%d%s", op, s) }
		inner := a49Inner(ev, false)
		deep := a49Inner(ev, true)
		switch op {
		case 0:
			a49Insert(c, ei+1, a49Entry(c, n("a"), shape), added)
		case 1:
			a49Insert(c, 1<<30, a49Entry(c, n("a"), shape), added)
		case 2:
			a49Insert(c, ei+1, a49Entry(c, n("a"), shape), added)
			a49Insert(c, ei+2, a49Entry(c, n("b"), 0), added)
		case 3:
			a49Insert(c, ei+1, a49Entry(c, n("a"), shape), added)
			a49Insert(c, 1<<30, a49Entry(c, n("b"), 0), added)
		case 4:
			if inner != nil {
				a49Insert(inner, 1<<30, a49Entry(inner, n("i"), 0), added)
			}
			a49Insert(c, ei+1, a49Entry(c, n("a"), shape), added)
		case 5:
			if len(c.Content) > (ei+1)*step {
				c.Content = slices.Delete(c.Content, (ei+1)*step, (ei+2)*step)
			}
			a49Insert(c, ei+1, a49Entry(c, n("a"), shape), added)
		case 6:
			if inner != nil {
				a49Insert(inner, 1<<30, a49Entry(inner, n("i"), shape), added)
			}
		case 7:
			if deep != nil {
				a49Insert(deep, 1<<30, a49Entry(deep, n("d"), shape), added)
			}
		case 8:
			if deep != nil {
				a49Insert(deep, 1<<30, a49Entry(deep, n("d"), 0), added)
				a49Insert(deep, 1<<30, a49Entry(deep, n("e"), shape), added)
			}
			a49Insert(c, ei+1, a49Entry(c, n("a"), 0), added)
		case 9:
			// e's last scalar changed, an entry added after e
			if last := lastOf(ev, nil); last.Kind == yaml.ScalarNode && last.Value != "" {
				last.Value += "-changed"
				last.Tag, last.Style = "!!str", 0
			}
			a49Insert(c, ei+1, a49Entry(c, n("a"), shape), added)
		case 10:
			if inner != nil {
				s := 1
				if inner.Kind == yaml.MappingNode {
					s = 2
				}
				inner.Content = inner.Content[:len(inner.Content)-s]
			}
			a49Insert(c, ei+1, a49Entry(c, n("a"), shape), added)
		case 11:
			a49Insert(c, 1<<30, a49Entry(c, n("a"), shape), added)
			if inner != nil {
				a49Insert(inner, 1<<30, a49Entry(inner, n("i"), 0), added)
			}
		case 12:
			a49Insert(c, 0, a49Entry(c, n("a"), shape), added)
		case 13:
			// after e, and after the next entry too
			a49Insert(c, ei+1, a49Entry(c, n("a"), shape), added)
			a49Insert(c, ei+3, a49Entry(c, n("b"), shape), added)
		case 14, 15, 16:
			// the entries reordered (a list's items moved: their lines
			// copied), one added after e
			var es [][]*yaml.Node
			for j := 0; j+step <= len(c.Content); j += step {
				es = append(es, c.Content[j:j+step:j+step])
			}
			last := es[len(es)-1][0]
			switch op {
			case 14:
				slices.Reverse(es)
			case 15:
				// e last
				e := es[ei]
				es = append(slices.Delete(es, ei, ei+1), e)
			case 16:
				// the entry after e before it
				if ei+1 < len(es) {
					es[ei], es[ei+1] = es[ei+1], es[ei]
				}
			}
			c.Content = slices.Concat(es...)
			// (the entries now after the old last one: as if added after
			// it, the foot comment ending it may go to the new last,
			// as footsMoved documents; moved items are added entries)
			for j := len(es) - 1; j >= 0 && es[j][0] != last; j-- {
				if added != nil {
					added[es[j][0]] = true
				}
			}
			if shape%2 == 0 {
				for j, x := range es {
					if len(x) > 0 && (step == 1 && x[0] == ev || step == 2 && x[1] == ev) {
						a49Insert(c, j+1, a49Entry(c, n("a"), shape), added)
						break
					}
				}
			}
		}
	}
}

const a49Ops = 17

// a49Pure reports whether op only adds entries.
func a49Pure(op int) bool { return op != 5 && op != 9 && op != 10 && op < 14 }

// a49Layouts returns the foot family's layouts: every kind, column,
// value and after with one block of each of nblocks random ones (seeded).
func a49FootCases(seed uint64, n int, visit func(l a49Layout)) {
	r := rand.New(rand.NewPCG(seed, 4949))
	for range n {
		l := a49Layout{
			kind: r.IntN(4), col: []int{0, 2, 4}[r.IntN(3)], value: r.IntN(a49Values), after: r.IntN(a49Afters),
			flush: r.IntN(4) == 0, prev: r.IntN(4) != 0, head: r.IntN(6) == 0,
		}
		j := l.col + 2
		if l.kind == 1 || l.kind == 2 {
			j = l.col + 4
		}
		l.block = a49Block(r, l.col, j)
		l.crlf = r.IntN(5) == 0
		l.later = r.IntN(6) == 0
		visit(l)
	}
}

// TestAttack49Foots: entries added after, around and in an entry whose
// value ends with comment lines (a49Layout), every op of a49FootEdit.
func TestAttack49Foots(t *testing.T) {
	n := 800
	if os.Getenv("ATTACK49_FULL") != "" {
		n = 20000
	}
	var s a49Stats
	a49FootCases(1, n, func(l a49Layout) {
		in, path := l.text()
		if l.crlf {
			in = strings.ReplaceAll(in, "\n", "\r\n")
		}
		if _, err := Read([]byte(in), Options{}); err != nil {
			s.skipped++
			return
		}
		r := rand.New(rand.NewPCG(uint64(len(in)), uint64(s.cases)))
		for op := range a49Ops {
			s.run(t, in, a49FootEdit(l, path, op, r.IntN(a49Shapes)), a49Pure(op))
		}
	})
	t.Logf("foots: %s", &s)
}

// a49V3Places returns where yaml.v3 places a comment of text otherwise
// than Read, or "" (a47V3Places, every node compared: commentsDiffer
// names a node by its value, and one without, a document or a collection,
// by "", as if none differed).
func a49V3Places(text []byte) string {
	back, err := Read(text, Options{})
	if err != nil {
		return "unread"
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for i := 0; ; i++ {
		var d yaml.Node
		if dec.Decode(&d) != nil {
			return ""
		}
		if i < len(back.Docs) {
			if p := a49Diff(&d, back.Docs[i], nil, ""); p != "" {
				return fmt.Sprintf("document %d: %s", i, p)
			}
		}
	}
}

// a49Gapped are lists whose items have spaces after their dashes (G:
// the dash and the gap), in places around them; a49Items are the items
// added to them.
var a49GapLists = []string{
	"l:\nG a\nG b\n",
	"l:\n  G a\n  G b\nm: 1\n",
	"G a\nG b\n",
	"top:\n  l:\n    G a\n    G b # c\n  n: 2\n",
	"l:\nG name: a\n  G b\n",
	"l:\nG a\n# foot a\nG b\n",
	"l:\nG a\nG b\n# foot b\nm: 1\n",
	"l:\n  # head a\n  G a\n\n  G b\n\n",
	"l:\nG 'a'\nG \"b\"\n",
	"l:\nG &x a\nG *x\n",
	"l:\nG !t a\nG b\n",
	"l:\nG [a]\nG {b: 1}\n",
	"l:\nG a\nG b",
	"l:\nG a\nG b\n---\nk:\nG c\n",
	"l:\nG a\nG b\n...\n",
	"- k:\n  G a\n  G b\n",
	"l:\nG - a\nG - b\n",
	"l:\nG |\n    x\nG b\n",
	"l:\nG a\n\nG b\n\n# end\n",
	"l:\nG a   # c\nG b\t# d\n",
}

// a49Items are texts of one item each.
var a49Items = []string{
	"x", "'quoted'", `"a\tb"`, "''", "null", "~", "", "!t x", "!!str 1", "&n x", "*x", "[p, q]", "{p: 1}", "[]", "{}",
	"- y", "- - y", "true", "1.5", "'#'", "'a: b'", "' lead'", "'trail '", "é", "\"x\\ny\"", "'- z'",
	"'" + strings.Repeat("long ", 30) + "'", strings.Repeat("word ", 30), "k: v", "!t [a]", "&m [a]", "|\n  lit", ">-\n  fold",
	"\"\"", "'*x'", "'&x'", "'!x'", "'%x'", "'@x'", "'`x'", "'[x'", "'{x'", "'? x'", "? x\n: y",
}

// a49ItemNode returns item s's node (nil when it does not read).
func a49ItemNode(s string) *yaml.Node {
	var d yaml.Node
	if err := yaml.Unmarshal([]byte("- "+strings.ReplaceAll(s, "\n", "\n  ")), &d); err != nil || len(d.Content) == 0 || len(d.Content[0].Content) != 1 {
		if s == "" {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
		}
		return nil
	}
	n := d.Content[0].Content[0]
	unstyled(n)
	return n
}

// a49GapEdit adds items (a49Items' indices) to the i-th block list of
// document d at positions pos (an index, or -1 for the end), removes the
// item at del (-1: none) first, and comments the first new item (head,
// line or foot, as comment says).
func a49GapEdit(d, i int, items, pos []int, del, comment int) a49Edit {
	return func(st *Stream, added map[*yaml.Node]bool) {
		if d >= len(st.Docs) {
			return
		}
		var lists []*yaml.Node
		for _, c := range a47Collections(st.Docs[d], nil) {
			if c.Kind == yaml.SequenceNode {
				lists = append(lists, c)
			}
		}
		if i >= len(lists) {
			return
		}
		c := lists[i]
		if del >= 0 && del < len(c.Content) {
			c.Content = slices.Delete(c.Content, del, del+1)
		}
		for k, it := range items {
			n := a49ItemNode(a49Items[it])
			if n == nil {
				continue
			}
			if n.Kind == yaml.AliasNode {
				// (an alias of an anchor of the document, or none)
				var anchor *yaml.Node
				anyNode(st.Docs[d], func(m *yaml.Node) bool {
					if m.Anchor != "" && anchor == nil {
						anchor = m
					}
					return false
				})
				if anchor == nil {
					continue
				}
				n.Alias, n.Value = anchor, anchor.Anchor
			}
			if n.Anchor != "" {
				n.Anchor = fmt.Sprintf("n49%d", k) // (an anchor of its own)
			}
			if k == 0 {
				switch comment {
				case 1:
					n.HeadComment = "# head new"
				case 2:
					if n.Kind == yaml.ScalarNode || n.Kind == yaml.AliasNode || n.Style&yaml.FlowStyle != 0 {
						n.LineComment = "# line new"
					}
				case 3:
					n.FootComment = "# foot new"
				}
			}
			p := pos[k%len(pos)]
			if p < 0 || p > len(c.Content) {
				p = len(c.Content)
			}
			a49Insert(c, p, []*yaml.Node{n}, added)
		}
	}
}

// TestAttack49Gapped adds items of one line (and others) to lists with
// 1 to 4 spaces or a tab after their dashes: first, between, last,
// several, after a removal, with comments.
func TestAttack49Gapped(t *testing.T) {
	full := os.Getenv("ATTACK49_FULL") != ""
	var s a49Stats
	// the items added to a list whose items have g spaces after their
	// dashes have them too: every line of the output not in the input
	// that starts with a dash (after blanks), the input's own all "- "
	// followed by g-1 spaces more
	s.inPlaceCheck = func(in string, out []byte) string {
		gap := ""
		for _, l := range strings.Split(strings.ReplaceAll(in, "\r\n", "\n"), "\n") {
			t := strings.TrimLeft(l, " ")
			if !strings.HasPrefix(t, "-") || strings.HasPrefix(t, "---") {
				continue
			}
			g := t[:1+len(t[1:])-len(strings.TrimLeft(t[1:], " "))]
			if strings.HasPrefix(t[len(g):], "- ") || len(t) == len(g) {
				return "" // (a list in a list's item, an item below its dash)
			}
			if gap != "" && g != gap {
				return "" // (two gaps)
			}
			gap = g
		}
		if len(gap) < 3 {
			return ""
		}
		have := map[string]bool{}
		for _, l := range strings.Split(strings.ReplaceAll(in, "\r\n", "\n"), "\n") {
			have[l] = true
		}
		for _, l := range strings.Split(strings.ReplaceAll(string(out), "\r\n", "\n"), "\n") {
			if t := strings.TrimLeft(l, " "); !have[l] && strings.HasPrefix(t, "- ") && !strings.HasPrefix(t, gap) {
				return fmt.Sprintf("a new item %q without the gap %q of its list's items: %q", l, gap, out)
			}
		}
		return ""
	}
	gaps := []string{"-", "- ", "-  ", "-   ", "-\t", "- \t"}
	r := rand.New(rand.NewPCG(49, 3))
	for _, list := range a49GapLists {
		for _, gap := range gaps {
			for _, crlf := range []bool{false, true} {
				in := strings.ReplaceAll(list, "G", gap)
				if crlf {
					in = strings.ReplaceAll(in, "\n", "\r\n")
				}
				st, err := Read([]byte(in), Options{})
				if err != nil {
					s.skipped++
					continue
				}
				nlists := 0
				for d := range st.Docs {
					for _, c := range a47Collections(st.Docs[d], nil) {
						if c.Kind == yaml.SequenceNode {
							nlists++
						}
					}
				}
				for d := range st.Docs {
					for i := range nlists {
						for it := range a49Items {
							if !full && (it+i+d)%3 != 0 && !crlf {
								continue
							}
							if !full && crlf && (it+i+d)%9 != 0 {
								continue
							}
							for _, p := range []int{0, 1, -1} {
								s.run(t, in, a49GapEdit(d, i, []int{it}, []int{p}, -1, 0), true)
							}
							s.run(t, in, a49GapEdit(d, i, []int{it, r.IntN(len(a49Items))}, []int{-1}, -1, 0), true)
							s.run(t, in, a49GapEdit(d, i, []int{it, r.IntN(len(a49Items)), r.IntN(len(a49Items))}, []int{0, 2, -1}, -1, r.IntN(4)), true)
							s.run(t, in, a49GapEdit(d, i, []int{it}, []int{r.IntN(3) - 1}, r.IntN(3), r.IntN(4)), false)
						}
					}
				}
			}
		}
	}
	t.Logf("gapped: %s", &s)
}

// a49RandomEdit adds entries after random entries of random block
// collections (the last ones often), of several collections at once,
// after moving or removing one at times; pure reports whether it only
// added entries.
func a49RandomEdit(r *rand.Rand) (a49Edit, bool) {
	seed1, seed2 := r.Uint64(), r.Uint64()
	kind := r.IntN(6)
	rounds := 1 + r.IntN(3)
	if kind == 2 {
		rounds = 1 // (a49Match's moves are of one edit of a collection)
	}
	return func(st *Stream, added map[*yaml.Node]bool) {
		r := rand.New(rand.NewPCG(seed1, seed2))
		d := r.IntN(len(st.Docs))
		cs := a47Collections(st.Docs[d], nil)
		if len(cs) == 0 {
			return
		}
		for k := range rounds {
			c := cs[r.IntN(len(cs))]
			step := 1
			if c.Kind == yaml.MappingNode {
				step = 2
			}
			n := len(c.Content) / step
			at := n
			if r.IntN(3) == 0 {
				at = r.IntN(n + 1)
			}
			switch kind {
			case 1:
				// the last removed first
				if n > 1 {
					c.Content = c.Content[:len(c.Content)-step]
					at = min(at, n-1)
				}
			case 2:
				// the last moved first (a list's item: its lines copied)
				if n > 1 {
					last := c.Content[len(c.Content)-step:]
					c.Content = append(slices.Clone(last), c.Content[:len(c.Content)-step]...)
					if added != nil {
						for j := step; j < len(c.Content); j += step {
							added[c.Content[j]] = true
						}
					}
				}
			}
			name := fmt.Sprintf("r%d%d", k, r.IntN(100))
			if c.Kind == yaml.MappingNode && MapIndex(c, name) >= 0 {
				continue
			}
			a49Insert(c, at, a49Entry(c, name, r.IntN(a49Shapes)), added)
			if r.IntN(3) == 0 {
				a49Insert(c, at+1, a49Entry(c, name+"b", r.IntN(a49Shapes)), added)
			}
		}
		// (pure, a text in place the input with lines inserted: for
		// one collection edited; entries added to a list and to a list
		// in it may pair the old inner list with a new item, its items
		// written anew: "- a\n- - b\n" given "- i" before the inner list
		// and "- |\n  x\n  y\n" first in it is "- a\n- - i\n- - |\n
		// x\n    y\n  - b\n", alignItems' choice: attack49's report)
	}, (kind == 0 || kind >= 3) && rounds == 1
}

// TestAttack49Random: a44Gen's documents with more comment lines
// (a47Commented) and hostileGen's streams, LF and CRLF, a49RandomEdit's
// edits.
func TestAttack49Random(t *testing.T) {
	n := 2500
	if os.Getenv("ATTACK49_FULL") != "" {
		n = 60000
	}
	var s a49Stats
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 4949))
		var in string
		if seed%2 == 0 {
			g := a44Gen{r: r}
			in = a47Commented(g.doc(), r)
		} else {
			g := hostileGen{r: r}
			in = g.stream()
		}
		if r.IntN(6) == 0 {
			in = strings.ReplaceAll(in, "\n", "\r\n")
		}
		if _, err := Read([]byte(in), Options{}); err != nil {
			s.skipped++
			continue
		}
		if _, err := a45V3([]byte(in)); err != nil {
			s.skipped++ // (yaml.v3 decodes no value of "!!null 1")
			continue
		}
		for k := range 2 {
			s.label = fmt.Sprintf("seed %d, edit %d: ", seed, k)
			e, pure := a49RandomEdit(r)
			s.run(t, in, e, pure)
		}
	}
	t.Logf("random: %s", &s)
}
