package tree

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// Attack of 2026-11-30 on entries removed or written anew with their
// key's (or item's) foot comment (removedLines, footLines, rewrittenLines)
// and on entries removed below comment lines that are not their head
// comment (the entry before's foot comment, left in place, the text read
// back). Every case goes through a48Check: the output read with yaml.v3
// node for node (key order too) against yaml.v3's reading of the source
// with the same edit, and with Read against kmerge's edited trees; a
// document written by byte ranges holds every comment on its node (both
// readers), its blank lines kept (a48Blanks); Options.Whole writes the
// same bytes, outlined reads what reads the same. On top of that (a50Bytes):
// a text of byte-range edits that only removed entries holds the source's
// lines alone, in order (no line's bytes changed, its indentation, its
// line break), and no output of CRLF source turns a line break into LF;
// where the collection's last entry was removed and one added at its end,
// every comment stays on its node (a50Strict: no footsMoved move).
//
// The attack's runs, on 4b43a5a (ATTACK50_FULL=1): systematic 790,994
// cases (364,776 written by byte ranges), random 292,124 (51,616), layouts
// 875,420 (323,456); by default 47,089 (19,717), 17,289 (2,958) and 30,186
// (11,167). What they found is logged, not failed (the report of the
// attack names each, with the commit it is on):
//   - a50MovedFoot: "a: 1\n# fa\n\nb: 2\n" without b, given zz at the end,
//     is "a: 1\nzz: new\n# fa\n\n": a's foot comment is zz's, read by
//     yaml.v3 and by Read (footsMoved lets it by); 1b8dab4 wrote "a: 1\n#
//     fa\n\nzz: new\n" (new in 4b43a5a: b is cut below a's comment);
//   - items written anew where one had a foot comment keep the blank line
//     between them before or after the new lines ("l:\n- t\n# fi\n\n-
//     y\n" both given values of other kinds: "l:\n\n- 7\n- |\n ...");
//   - the blank line above a head comment kept for the entry written in
//     the removed one's place goes below it (on 1b8dab4 too);
//   - texts yaml.v3 alone reads otherwise (its comment places or dropped
//     comment lines, fastyaml's "placed"), and the writer's whole
//     rendering of a CRLF stream in LF (Rewritten), older ways.

// a50Target is an entry of a block collection: the collection at path
// (indexes into Content, from the document node) of document doc, its
// entry e (a mapping's key at Content[2e], a list's item at Content[e]).
type a50Target struct {
	doc, e int
	path   []int
	m      bool // a mapping's entry
	n      int  // the collection's entries
	foot   bool // the entry's key (item) has a foot comment (Read's)
	item   bool // the collection is a block list's item (compact: "- a: 1")
}

// a50Targets returns the entries of the block collections of docs.
func a50Targets(docs []*yaml.Node) []a50Target {
	var out []a50Target
	var walk func(d int, n *yaml.Node, path []int, item bool)
	walk = func(d int, n *yaml.Node, path []int, item bool) {
		if n.Kind == yaml.AliasNode {
			return
		}
		if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle == 0 {
			step := 1
			if n.Kind == yaml.MappingNode {
				step = 2
			}
			for e := 0; e*step < len(n.Content); e++ {
				out = append(out, a50Target{doc: d, e: e, path: slices.Clone(path), m: step == 2,
					n: len(n.Content) / step, foot: n.Content[e*step].FootComment != "", item: item})
			}
		}
		for i, c := range n.Content {
			walk(d, c, append(path, i), n.Kind == yaml.SequenceNode && n.Style&yaml.FlowStyle == 0)
		}
	}
	for d, doc := range docs {
		walk(d, doc, nil, false)
	}
	return out
}

// a50Ops: the ops on a target (a50Edit).
const a50Ops = 15

// a50Removes reports whether op o only removes entries.
func a50Removes(o int) bool { return o == 0 || o == 2 || o == 3 || o == 10 }

// a50UsesKind reports whether op o writes a new value (of a kind).
func a50UsesKind(o int) bool { return !a50Removes(o) && o != 11 }

// a50Edit returns op o on target t, new values of kind k (a48New), and
// whether it applies (the neighbours it needs are there):
//
//	0 remove the entry          6 write it anew, remove the next
//	1 write it anew (a value    7 remove it, write the one before anew
//	  of kind k; an item        8 add an entry after it
//	  replaced)                 9 write it and the next anew
//	2 remove it and the next   10 remove it in every document that has it
//	3 remove it and the one    11 remove the one before it and add one
//	  before                      after it
//	4 remove it, add an entry at the collection's end
//	5 remove it, add an entry where it was
//	12 write it anew without its key's (item's) foot comment
//	13 write it anew, its key's (item's) foot comment another
//	14 remove it, add an entry where it was with its head comment (keepHead)
func a50Edit(t a50Target, o, k int) (a48Edit, bool) {
	need := map[int][2]int{2: {0, 1}, 3: {1, 0}, 6: {0, 1}, 7: {1, 0}, 9: {0, 1}, 11: {1, 0}}
	if nb, ok := need[o]; ok && (t.e < nb[0] || t.e+nb[1] >= t.n) {
		return nil, false
	}
	return func(docs []*yaml.Node) {
		ds := []int{t.doc}
		if o == 10 {
			ds = ds[:0]
			for d := range docs {
				ds = append(ds, d)
			}
		}
		for _, d := range ds {
			if d >= len(docs) {
				continue
			}
			c := a48Node(docs[d], t.path)
			if c == nil || (c.Kind == yaml.MappingNode) != t.m || c.Kind != yaml.MappingNode && c.Kind != yaml.SequenceNode {
				continue
			}
			step := 1
			if t.m {
				step = 2
			}
			n := len(c.Content) / step
			if t.e >= n || o != 10 && n != t.n {
				continue
			}
			at := func(e int) int { return e * step }
			del := func(e, m int) { c.Content = slices.Delete(c.Content, at(e), at(e+m)) }
			key := func() *yaml.Node {
				name := "zz"
				for t.m && MapIndex(c, name) >= 0 {
					name += "z"
				}
				return NewString(name)
			}
			entry := func(k int) []*yaml.Node {
				if t.m {
					return []*yaml.Node{key(), a48New(k)}
				}
				return []*yaml.Node{a48New(k)}
			}
			anew := func(e, k int) {
				if t.m {
					c.Content[at(e)+1] = a48New(k)
				} else {
					c.Content[at(e)] = a48New(k)
				}
			}
			e := t.e
			switch o {
			case 0, 10:
				del(e, 1)
			case 1:
				anew(e, k)
			case 2:
				del(e, 2)
			case 3:
				del(e-1, 2)
			case 4:
				del(e, 1)
				c.Content = append(c.Content, entry(k)...)
			case 5:
				del(e, 1)
				c.Content = slices.Insert(c.Content, at(e), entry(k)...)
			case 6:
				anew(e, k)
				del(e+1, 1)
			case 7:
				del(e, 1)
				anew(e-1, k)
			case 8:
				c.Content = slices.Insert(c.Content, at(e+1), entry(k)...)
			case 9:
				anew(e, k)
				anew(e+1, k+1)
			case 11:
				c.Content = slices.Insert(c.Content, at(e+1), entry(5)...)
				del(e-1, 1)
			case 14:
				head := c.Content[at(e)].HeadComment
				del(e, 1)
				n := entry(k)
				n[0].HeadComment = head
				c.Content = slices.Insert(c.Content, at(e), n...)
			case 12, 13:
				foot := map[int]string{12: "", 13: "# new foot"}[o]
				if t.m {
					c.Content[at(e)+1] = a48New(k)
					c.Content[at(e)].FootComment = foot
				} else {
					c.Content[at(e)] = a48New(k)
					c.Content[at(e)].FootComment = foot
				}
			}
		}
	}, true
}

// a50Stats counts one generator's cases.
type a50Stats struct {
	cases, skipped, inPlace, footInPlace, aboveInPlace, bad, v3, older, moved, movedFoot int
	label                                                                                string
	keepHead                                                                             bool // (the case's edit: op 14)
	looseBlanks                                                                          bool // blank lines placed otherwise, none added, logged (the random streams)
	loose                                                                                int
	seen                                                                                 int // (raceSkip)
}

func (s *a50Stats) String() string {
	return fmt.Sprintf("%s: %d cases, %d written by byte ranges (%d of them on an entry with a foot comment, %d below a comment line), %d skipped, %d bad, %d read otherwise by yaml.v3 alone (logged), %d CRLF lost by older ways (logged), %d blank lines moved beside new lines (logged), %d foot comments moved past a removed last entry to an added one (logged), %d blank lines placed otherwise (logged)",
		s.label, s.cases, s.inPlace, s.footInPlace, s.aboveInPlace, s.skipped, s.bad, s.v3, s.older, s.moved, s.movedFoot, s.loose)
}

// a50Above reports whether the line above the target's first line, past
// blank lines, is a comment line that is not the entry's head comment
// (Read's: its key or item has none).
func a50Above(in string, docs []*yaml.Node, t a50Target) bool {
	c := a48Node(docs[t.doc], t.path)
	if c == nil {
		return false
	}
	step := 1
	if t.m {
		step = 2
	}
	k := c.Content[t.e*step]
	if k.HeadComment != "" || k.Line < 2 {
		return false
	}
	lines := strings.Split(in, "\n")
	for l := k.Line - 2; l >= 0 && l < len(lines); l-- {
		s := strings.Trim(lines[l], " \t\r")
		if s == "" {
			continue
		}
		return s[0] == '#'
	}
	return false
}

// run checks op o of kind k on target tg of in.
func (s *a50Stats) run(t *testing.T, in string, tg a50Target, above bool, o, k int, what string) {
	t.Helper()
	edit, ok := a50Edit(tg, o, k)
	if !ok {
		return
	}
	if v3, err := a48V3Docs([]byte(in)); err != nil || tg.doc >= len(v3) || a50Through(v3[tg.doc], tg.path) {
		// (an edit in an alias's copy: yaml.v3's tree has the alias)
		s.skipped++
		return
	}
	// (the lines checked when entries were removed alone, the collection
	// not left empty, "a: {}", nor a compact mapping's first key cut from
	// its dash's line)
	// (op 10 removes at the path in every document, where the collection
	// may be another)
	removed := map[int]int{0: 1, 2: 2, 3: 2}[o]
	// (the collection's last entry removed and one added at its end: the
	// foot comment of the entry before it is that entry's still, not the
	// new one's, which footsMoved allows where the entry before was the
	// last one; a50Strict)
	strict := (o == 4 || o == 5 || o == 14) && t50Last(tg)
	s.keepHead = o == 14
	s.runEditStrict(t, in, edit, tg.foot, above, a50Removes(o) && o != 10 && !tg.item && removed < tg.n, strict, what)
	s.keepHead = false
}

// a50Nulls matches a48Check's finding of a null read with another text.
var a50Nulls = regexp.MustCompile(`^document \d+ reads otherwise \(yaml.v3\) at [/0-9]*: 8 "(|null|~)" !!null 0 / 8 "(|null|~)" !!null 0: `)

// a50MovedFoot starts what a50Strict finds where the one move footsMoved
// allows moved the foot comment of the entry before a removed last entry
// to the entry added at the collection's end (attack50's report).
const a50MovedFoot = "known: foot comment moved past a removed last entry: "

// t50Last reports whether tg is its collection's last entry, not its
// only one.
func t50Last(tg a50Target) bool { return tg.e == tg.n-1 && tg.n > 1 }

// a50Strict returns where the comments of out, read, are not where edit
// of in puts them (no foot comment moved to entries added after a
// collection's last entry, footsMoved: the entry the comment followed
// was not the last), or "".
func a50Strict(in string, out []byte, edit a48Edit) string {
	st, err := Read([]byte(in), Options{})
	if err != nil || st.LoadAll() != nil {
		return ""
	}
	st.Snapshot()
	edit(st.Docs)
	back, err := Read(out, Options{})
	if err != nil || len(back.Docs) != len(st.Docs) {
		return ""
	}
	for i := range back.Docs {
		if a48Shape(back.Docs[i], st.Docs[i], "") != "" {
			continue
		}
		if d := a48Comments(back.Docs[i], st.Docs[i], ""); d != "" {
			if footsMovedOnly(back.Docs[i], st.Docs[i]) {
				// (attack50's report: "a: 1\n# fa\n\nb: 2\n" without b,
				// given zz, is "a: 1\nzz: new\n# fa\n\n", a's comment
				// zz's; counted, the first shown)
				return fmt.Sprintf("%sdocument %d at %s: %q", a50MovedFoot, i, d, out)
			}
			return fmt.Sprintf("document %d: comments moved at %s: %q", i, d, out)
		}
	}
	return ""
}

// runEdit checks edit of in (a48Check, a50Bytes); foot and above say
// what the edited entry has, for the counts.
func (s *a50Stats) runEdit(t *testing.T, in string, edit a48Edit, foot, above, lines bool, what string) {
	t.Helper()
	s.runEditStrict(t, in, edit, foot, above, lines, false, what)
}

// runEditStrict is runEdit, and with strict a text of byte-range edits
// holds every comment where the edited tree has it (a50Strict).
func (s *a50Stats) runEditStrict(t *testing.T, in string, edit a48Edit, foot, above, lines, strict bool, what string) {
	t.Helper()
	if raceSkip(&s.seen) {
		return
	}
	res, bad := a48Check(in, edit)
	if strict && res.inPlace && (bad == "" || strings.HasPrefix(bad, "blank lines between")) {
		// (the foot comment moved with the blank line after it, which
		// a48Blanks finds first)
		if b := a50Strict(in, res.out, edit); b != "" {
			bad = b
		}
	}
	if a50Nulls.MatchString(bad) {
		// (a null written "null" in a flow collection, or "~" read: the
		// same value, another text; yaml.v3's node for node comparison)
		s.skipped++
		return
	}
	if bad == "skip" {
		s.skipped++
		return
	}
	s.cases++
	if res.inPlace {
		s.inPlace++
		if foot {
			s.footInPlace++
		}
		if above {
			s.aboveInPlace++
		}
	}
	if bad == "" && res.out != nil {
		bad = a50Bytes(in, res.out, res.inPlace && lines)
		if bad != "" && !res.inPlace {
			// (the splice's and the writer's, older ways)
			s.older++
			if dir := os.Getenv("A50DUMP"); dir != "" {
				os.WriteFile(fmt.Sprintf("%s/older-%s-%05d.txt", dir, s.label, s.older), []byte(fmt.Sprintf("%s %v\n--- in\n%q\n--- bad\n%s\n", what, res.outcomes, in, bad)), 0o644)
			}
			if s.older <= 3 {
				t.Logf("%s (outcomes %v): %q: %s", what, res.outcomes, in, bad)
			}
			return
		}
	}
	if strings.HasPrefix(bad, a50MovedFoot) {
		s.movedFoot++
		if dir := os.Getenv("A50DUMP"); dir != "" {
			os.WriteFile(fmt.Sprintf("%s/moved-%s-%05d.txt", dir, s.label, s.movedFoot), []byte(fmt.Sprintf("%s %v\n--- in\n%q\n--- bad\n%s\n", what, res.outcomes, in, bad)), 0o644)
		}
		if s.movedFoot <= 3 {
			t.Logf("%s (outcomes %v): %q: %s", what, res.outcomes, in, bad)
		}
		return
	}
	if strings.HasPrefix(bad, "blank lines between") && res.inPlace && (!lines && a50BlankMoved(in, res.out) || s.keepHead) {
		// (attack50's report: items written anew where one with a foot
		// comment was, "- t\n# f\n\n- y\n" both items given values of
		// other kinds, keep the blank line that was between them before
		// or after the new lines: "\n- 7\n- |\n  new line\n"; an entry
		// written where one with its head comment was (keepHead) has the
		// blank line above that comment after it, "k1: 0\n\n# h\nk2:
		// 1\nk3: 2\n" is "k1: 0\n# h\nzz: new\n\nk3: 2\n", as on
		// 1b8dab4)
		s.moved++
		if s.moved <= 3 {
			t.Logf("%s (outcomes %v): %q: %s", what, res.outcomes, in, bad)
		}
		return
	}
	if strings.HasPrefix(bad, "blank lines between") && res.inPlace && s.looseBlanks && a50Blanks(string(res.out)) <= a50Blanks(in) {
		// (the random streams: a blank line kept where the lines around
		// it were cut or written anew, as on 1b8dab4, "k5:\n    - |\n
		// x\n\n    - |\n      y\n" without its items but the last
		// keeps the blank line after the first, now after "k5:"; none
		// added)
		s.loose++
		if s.loose <= 3 {
			t.Logf("%s (outcomes %v): %q: %s", what, res.outcomes, a48Short(in), a48Short(bad))
		}
		return
	}
	if strings.HasPrefix(bad, a48V3Only) {
		s.v3++
		if dir := os.Getenv("A50DUMP"); dir != "" {
			os.WriteFile(fmt.Sprintf("%s/v3-%s-%05d.txt", dir, s.label, s.v3), []byte(fmt.Sprintf("%s %v %v\n--- in\n%q\n--- bad\n%s\n", what, res.outcomes, res.inPlace, in, bad)), 0o644)
		}
		if s.v3 <= 3 {
			t.Logf("%s (outcomes %v): %q: %s", what, res.outcomes, a48Short(in), a48Short(bad))
		}
		return
	}
	if bad != "" {
		s.bad++
		if dir := os.Getenv("A50DUMP"); dir != "" {
			os.WriteFile(fmt.Sprintf("%s/%s-%05d.txt", dir, s.label, s.bad), []byte(fmt.Sprintf("%s %v\n--- in\n%q\n--- bad\n%s\n", what, res.outcomes, in, bad)), 0o644)
		}
		if s.bad <= 15 {
			t.Errorf("%s (outcomes %v): %q: %s", what, res.outcomes, a48Short(in), a48Short(bad))
		}
	}
}

// a50BlankMoved reports whether out has as many blank lines as in, one
// of them right before or after a line that is not in (a blank line moved
// beside lines written anew).
func a50BlankMoved(in string, out []byte) bool {
	blank := func(l string) bool { return strings.Trim(l, " \t\r\n") == "" }
	a, b := strings.SplitAfter(in, "\n"), strings.SplitAfter(string(out), "\n")
	src := map[string]bool{}
	na, nb := 0, 0
	for _, l := range a {
		src[l] = true
		if l != "" && blank(l) {
			na++
		}
	}
	beside := false
	for j, l := range b {
		if l == "" || !blank(l) {
			continue
		}
		nb++
		for _, k := range []int{j - 1, j + 1} {
			if k >= 0 && k < len(b) && b[k] != "" && !blank(b[k]) && !src[b[k]] {
				beside = true
			}
		}
	}
	return na == nb && beside
}

// a50Blanks counts the blank lines of text.
func a50Blanks(text string) int {
	n := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" && strings.Trim(l, " \t\r\n") == "" {
			n++
		}
	}
	return n
}

// a50Through reports whether path from n passes an alias, or ends
// outside n.
func a50Through(n *yaml.Node, path []int) bool {
	for _, i := range path {
		if n.Kind == yaml.AliasNode || i >= len(n.Content) {
			return true
		}
		n = n.Content[i]
	}
	return n.Kind == yaml.AliasNode
}

// a50Bytes checks the bytes of out, written from in: with CRLF line
// breaks alone in the source, no line break of out is LF alone; with
// lines (a text of byte-range edits that removed entries alone), out's
// lines are lines of in, in order, whole (the last may have lost its line
// break, the source's last without one).
func a50Bytes(in string, out []byte, lines bool) string {
	if strings.Contains(in, "\r\n") && strings.Count(in, "\n") == strings.Count(in, "\r\n") &&
		strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
		return fmt.Sprintf("a CRLF line break turned LF: %q", out)
	}
	if !lines {
		return ""
	}
	a, b := strings.SplitAfter(in, "\n"), strings.SplitAfter(string(out), "\n")
	i := 0
	for j, l := range b {
		if l == "" {
			continue
		}
		for i < len(a) && a[i] != l && !(j == len(b)-1 && strings.TrimRight(a[i], "\r\n") == l) {
			i++
		}
		if i == len(a) {
			return fmt.Sprintf("line %d, %q, is not a line of the source's in order: %q", j+1, l, out)
		}
		i++
	}
	return ""
}

// a50Bodies hold foot comments of keys and items at several depths, in
// the shapes the attack's brief names, and comment lines right above
// entries that are not their head comments.
var a50Bodies = []string{
	// a key's foot comment, a blank line ending it
	"a: 1\n# fa\n\nb: 2\nc: 3\n",
	"a: 1\nb: 2\n# fb\n\nc: 3\n",
	"a: 1\n# fa1\n# fa2\n\nb: 2\n",
	"a: 1\n  # indented fa\n\nb: 2\n",
	"a: 1\n    # fa\n  # fa2\n\nb: 2\n",
	"a: 1\n#fa\n\nb: 2\n",
	"a: 1\n#\n\nb: 2\n",
	"a: 1\n# fa  \n\nb: 2\n",
	"a: 1\n# fa\n\n\nb: 2\n",
	"a: 1\n# fa\n  \nb: 2\n",
	"a: 1\n# fa\n \t\nb: 2\n",
	"a: 1\n# fa\n\n# hb\nb: 2\n",
	"a: 1\n# fa\n\n# more\n\nb: 2\n",
	"a: 1\n# c\nb: 2\n",
	"a: 1\n# c1\n\n# c2\nb: 2\n",
	"a: 1\n\n# fa\n\nb: 2\n",
	"# ha\na: 1\n# fa\n\nb: 2\n",
	"a: 1 # la\n# fa\n\nb: 2\n",
	"a: 'q'\n# fa\n\nb: 2\n",
	"a: \"q\n  r\"\n# fa\n\nb: 2\n",
	"a: plain\n  more\n# fa\n\nb: 2\n",
	"a:\n# fa\n\nb: 2\n",
	"a: ~\n# fa\n\nb: 2\n",
	"a: &x 1\n# fa\n\nb: *x\nc: 3\n",
	"a: !t 1\n# fa\n\nb: 2\n",
	"? a\n: 1\n# fa\n\nb: 2\n",
	// block scalars and flow collections right before the foot lines
	"a: |\n  text\n# fa\n\nb: 2\n",
	"a: |-\n  text\n\n# fa\n\nb: 2\n",
	"a: >-\n  text\n  more\n# fa\n\nb: 2\n",
	"a: |+\n  text\n\n# fa\n\nb: 2\n",
	"a: [1,\n  2]\n# fa\n\nb: 2\n",
	"a: {x: 1,\n  y: 2}\n# fa\n\nb: 2\n",
	"a:\n  x: |\n    t\n\n  # fx\n\n  y: 2\n",
	"a:\n  x: |-\n    t\n  # fx\nb: 1\n",
	"a:\n  x: [\n    1\n  ]\n  # fx\n\n  y: 2\n",
	// the last entry: the foot at a document's end, before a less
	// indented key
	"a: 1\nb: 2\n# end\n",
	"a: 1\nb: 2\n# end1\n# end2\n",
	"a: 1\nb: 2\n\n# doc foot\n",
	"a: 1\nb: 2\n# end\n\n# more\n",
	"a:\n  x: 1\n  y: 2\n  # fy\nb: 3\n",
	"a:\n  x: 1\n  y: 2\n    # deeper fy\nb: 3\n",
	"a:\n  x: 1\n  y: 2\n # col1\nb: 3\n",
	"a:\n  x: 1\n  y: 2\n# col0\nb: 3\n",
	"a:\n  x: 1\n  y: 2\n  # fy\n",
	"a:\n  x: 1\n  y: 2\n  # fy\n# fa\n",
	// nested keys' foot comments
	"a:\n  x: 1\n  # fx\n\n  y: 2\nb: 3\n",
	"a:\n  x: 1\n   # fx col3\n\n  y: 2\n",
	"a:\n  x: 1\n\n  # fx after blank\nb: 2\n",
	"a:\n  x: 1\n\n  # fx\n\nb: 2\n",
	"a:\n  x: 1\n  # fx\n\n  # more\nb: 2\n",
	"a:\n  x: 1\n  # fx\n  y: 2\n",
	"a:\n  x: 1\n  # c\n  # d\n\n  # e\n  y: 2\n",
	"a:\n  x:\n    p: 1\n    # fp\n  # fx\nb: 3\n",
	"a:\n  x:\n    p: 1\n  # fx\n\n  y: 2\n",
	"a:\n  x:\n    p: 1\n    # fp\n\n  # fx\n\nb: 2\n",
	"a:\n  # hx\n  x: 1\n  # fx\n\nb: 2\n",
	"a:\n  x: 1 # lx\n  # fx\n\n  y: 2 # ly\n  # fy\nz: 1\n",
	"a:\n  x: 1\n  # fx\n\n  y:\n    z: 1\n    # fz\n\n  w: 2\n",
	"a:\n  b:\n    c: 1\n    # fc\n\n    d: 2\n    # fd\n  # fb\n# fa\n",
	"a: 1\n# fa\n\nb:\n  x: 1\n  # fx\n\n  y: 2\n  # fy\n\nc: 3\n# fc\n",
	// comment lines at column 0 inside a nested mapping
	"a:\n  x: 1\n# c0\n  y: 2\n",
	"a:\n  x: 1\n\n# c0\n\n  y: 2\n",
	"a:\n  x: 1\n  # fx\n\n# c0\n\nb: 2\n",
	"a:\n  x: 1\n# c0\n\n  y: 2\nb: 3\n",
	// items' foot comments
	"- x\n# fx\n\n- y\n- z\n",
	"- x\n- y\n# end\n",
	"- x\n  # fx\n- y\n",
	"a:\n- x\n# fx\n\n- y\nb: 2\n",
	"a:\n  - x\n  # fx\n\n  - y\n",
	"a:\n  - x\n  - y\n  # fy\nb: 2\n",
	"a:\n  - x\n  # fx\n\n  # more\n  - y\n",
	"- - x\n  # fx\n- y\n",
	"- - x\n  - y\n  # fy\n# fi\n- z\n",
	"- - x\n  # fx\n\n  - y\n- z\n",
	"- |\n  t\n# fi\n\n- y\n",
	"- [1,\n  2]\n# fi\n\n- y\n",
	// compact mappings' and their items' foot comments
	"- a: 1\n  # fa\n- b: 2\n",
	"- a: 1\n  b: 2\n  # fb\n\n- c: 3\n",
	"- a: 1\n  # fa\n\n  b: 2\n- c: 3\n",
	"- a: 1\n  b: 2\n# fi\n\n- c: 3\n  d: 4\n",
	"l:\n  - a: 1\n    b: 2\n    # fb\n  # fi\n  - c: 3\n",
	"l:\n- a: 1\n  # fa\n\n  b: 2\n  c: 3\n",
	"- a:\n    x: 1\n    # fx\n  # fa\n\n  b: 2\n",
	// comment lines right above an entry that are not its head comment
	"a: 1\n# fa\n\nb:\n  x: 1\nc: 3\n",
	"a:\n  x: 1\n# c0\n\n  y: 2\n  z: 3\n",
	"a:\n  x:\n    p: 1\n    # fp\n\n  y: 2\n  z: 3\n",
	"a: 1\n  # deeper\n\nb: 2\nc: 3\n",
	"a:\n  - x\n  # fx\n\n  - y\n  - z\n",
	"a: 1\n# fa\n\n\n\nb: 2\nc: 3\n",
	"a:\n  x: 1\n  # fx\n\n\n  y: 2\n",
	// anchors, aliases and tags near
	"a: &x\n  p: 1\n# fa\n\nb: *x\nc: 2\n",
	"a: 1\n# fa\n\nb: !!str 2\nc: 3\n",
	"!!map\na: 1\n# fa\n\nb: 2\n",
	"a: !t\n  p: 1\n  # fp\n\nb: 2\n",
	// the value's own comments with the key's foot
	"a:\n  # hx\n  x: 1\n  # fx\n\n  y: 2\n# fa\n\nb: 2\n",
	"a: # la\n  x: 1\n# fa\n\nb: 2\n",
	"a:\n  - x\n  # fx\n# fa\n\nb: 2\n",
	// comment lines after a nested entry's foot, right of the outer key's
	// column (yaml.v3: the outer key's foot comment)
	"a:\n  w: 0\n  x: 1\n  # c1\n\n  # c2\nb: 2\n",
	"a:\n  w: 0\n  x: 1\n  # c1\n\n  # c2\n\nb: 2\n",
	"a:\n  w: 0\n  x:\n    p: 1\n    # c1\n\n    # c2\n  y: 2\n",
	"a:\n  - w\n  - x\n  # c1\n\n  # c2\nb: 2\n",
	"a:\n  x:\n    p: 1\n  # c\n    # d\n  y: 2\n",
	// tabs and trailing blanks
	"a: 1\n\t# fa\n\nb: 2\n",
	"a: 1\n# fa\t\n\nb: 2\n",
	"a: 1 \n# fa\n\nb: 2 \n",
	"a:\t1\n# fa\n\nb: 2\n",
	// line comments before the foot (yaml.v3 places a comment line after
	// a line comment otherwise)
	"a: 1 # la\nb: 2 # lb\n# c\n\nd: 4\n",
	"a: 1\nb: 2 # lb\n# c\n\nd: 4\n",
	"a:\n  x: 1 # lx\n  # fx\n  y: 2\n",
	// lists at their key's column (compact sequences), indentation by 4
	"s:\n- q\na: 1\n# fa\n\nb: 2\n",
	"a:\n- x\n# fx\nb: 2\n",
	"a:\n    x: 1\n    # fx\n\n    y: 2\nb: 3\n",
	"a:\n    - x\n    # fx\n\n    - y\n",
}

// a50Streams returns the streams a body goes in: LF and CRLF, with and
// without a final line break, before and after other documents ("---",
// "...", a comment the next document's text lends the one before).
func a50Streams(body string) []string {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	open := strings.TrimSuffix(body, "\n")
	return []string{
		body,
		crlf(body),
		open,
		crlf(open),
		"x: 1\n---\n" + body,
		"x: 1\n---\n# lent\n\n" + body,
		crlf("x: 1\n---\n# lent\n" + body),
		body + "---\ny: 2\n",
		body + "...\n---\ny: 2\n",
		crlf(body + "...\n# after dots\n---\ny: 2\n"),
		body + "---\n# lent next\n\ny: 2\n",
		crlf(body + "---\n# lent next\ny: 2\n"),
		"x: 1\n---\n" + body + "---\n" + body,
		crlf(body + "---\n" + open),
		// mixed line breaks: CRLF on comment lines alone, on the others
		// alone
		a50Mixed(body, true),
		a50Mixed(body, false),
		"\ufeff---\n" + body,
		"--- # c\n" + body + "...\n",
	}
}

// a50Mixed returns body with CRLF line breaks on its comment lines
// (comments) or on its other lines.
func a50Mixed(body string, comments bool) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(body, "\n") {
		if strings.HasSuffix(l, "\n") && commentLine([]byte(l)) == comments {
			l = strings.TrimSuffix(l, "\n") + "\r\n"
		}
		b.WriteString(l)
	}
	return b.String()
}

// TestAttack50Systematic runs every op on every entry of every body in
// streams of it (a50Streams): by default the body alone, LF and CRLF, and
// a third of the other streams (by turns), new values of kinds 1 (a
// mapping), 2 (a list) and 8 (a block scalar) for ops 1 and 13, one of
// them by turns for the others; with ATTACK50_FULL=1 every stream, every
// kind for every op.
func TestAttack50Systematic(t *testing.T) {
	full := os.Getenv("ATTACK50_FULL") != ""
	kinds := []int{1, 2, 8}
	if full {
		kinds = []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	}
	s := a50Stats{label: "systematic"}
	for bi, body := range a50Bodies {
		for si, in := range a50Streams(body) {
			if !full && si > 1 && (bi+si)%3 != 0 {
				continue
			}
			st, err := Read([]byte(in), Options{})
			if err != nil || st.LoadAll() != nil {
				s.skipped++
				continue
			}
			for ti, tg := range a50Targets(st.Docs) {
				above := a50Above(in, st.Docs, tg)
				for o := range a50Ops {
					ks := kinds
					switch {
					case !a50UsesKind(o):
						ks = kinds[:1]
					case !full && o != 1 && o != 13:
						ks = []int{kinds[(bi+si+ti+o)%len(kinds)]}
					}
					for _, k := range ks {
						s.run(t, in, tg, above, o, k, fmt.Sprintf("body %d stream %d doc %d path %v entry %d op %d new %d", bi, si, tg.doc, tg.path, tg.e, o, k))
					}
				}
			}
		}
	}
	t.Log(s.String())
	if s.footInPlace == 0 || s.aboveInPlace == 0 {
		t.Errorf("no case of the new code: %s", s.String())
	}
}

// a50Gen writes streams whose entries are followed by comment lines at
// several columns (foot comments of keys and items, at the entry's
// column, right and left of it), blank lines (some with blanks, a tab),
// values of every kind right before them (block scalars, flow
// collections over lines, quoted and plain scalars over lines, empty
// values, anchors and tags), compact mappings in lists, lists at their
// key's column, several documents, LF, CRLF or both, with and without a
// final line break.
type a50Gen struct {
	r     *rand.Rand
	lines []string
	keys  int
	notes int // comments written (each comment's text is its own: the checks diff lines)
}

func (g *a50Gen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g *a50Gen) line(col int, s string) {
	if strings.HasPrefix(s, "# ") {
		g.notes++
		s += fmt.Sprint(g.notes)
	}
	g.lines = append(g.lines, strings.Repeat(" ", max(col, 0))+s)
}

func (g *a50Gen) name() string {
	g.keys++
	return fmt.Sprintf("k%d", g.keys)
}

// gap writes what may follow an entry at column col: comment lines and
// blank lines.
func (g *a50Gen) gap(col int) {
	if g.r.IntN(3) == 0 {
		return
	}
	for range 1 + g.r.IntN(3) {
		switch g.r.IntN(10) {
		case 0, 1, 2, 3:
			g.line(col, "# f")
		case 4:
			g.line(col+g.pick1(1, 2, 4), "# r")
		case 5:
			g.line(col-g.pick1(1, 2, 4), "# l")
		case 6:
			g.line(0, "# z")
		case 7, 8:
			g.line(0, "")
		case 9:
			g.line(0, g.pick("  ", " \t", " "))
		}
	}
}

func (g *a50Gen) pick1(v ...int) int { return v[g.r.IntN(len(v))] }

// lc returns a line comment, now and then.
func (g *a50Gen) lc() string {
	if g.r.IntN(6) == 0 {
		return " # lc"
	}
	return ""
}

// scalar writes a scalar value after head (a key and its colon, a dash),
// at column col (its continuation lines right of it). Each text is its
// own (the checks diff lines).
func (g *a50Gen) scalar(col int, head string) {
	g.notes++
	u := fmt.Sprint(g.notes)
	switch g.r.IntN(14) {
	case 0:
		g.line(col, head+" |"+g.lc())
		for i := range 1 + g.r.IntN(2) {
			g.line(col+2, fmt.Sprintf("text%s.%d", u, i))
		}
		if g.r.IntN(3) == 0 {
			g.line(0, "")
		}
	case 1:
		g.line(col, head+" "+g.pick("|-", ">-", ">", "|2"))
		g.line(col+2, "folded"+u)
		g.line(col+2, "more"+u)
	case 2:
		g.line(col, head+" ["+u+",")
		g.line(col+2, "2]"+g.lc())
	case 3:
		g.line(col, head+" {p: "+u+",")
		g.line(col+2, "q: 2}")
	case 4:
		g.line(col, head+" plain"+u)
		g.line(col+2, "more"+u+g.lc())
	case 5:
		g.line(col, head+" \"dq"+u)
		g.line(col+2, "more\""+g.lc())
	case 6:
		g.line(col, head+g.lc())
	case 7:
		g.line(col, head+" ~"+g.lc())
	case 8:
		g.line(col, head+" 'sq"+u+"'"+g.lc())
	case 9:
		g.line(col, head+" &a"+u+" v"+g.lc())
	case 10:
		g.line(col, head+" !t v"+u+g.lc())
	default:
		g.line(col, head+" v"+u+g.lc())
	}
}

// value writes the value of key line head at column col: a scalar on its
// line, or a collection below.
func (g *a50Gen) value(col int, head string, depth int) {
	if depth >= 3 || g.r.IntN(5) < 2 {
		g.scalar(col, head)
		return
	}
	g.line(col, head+g.lc())
	if g.r.IntN(5) == 0 {
		g.line(col+2, "# hv")
	}
	switch g.r.IntN(5) {
	case 0, 1:
		g.mapping(col+g.pick1(2, 2, 4), depth+1)
	case 2:
		g.list(col, depth+1) // (at the key's column)
	default:
		g.list(col+2, depth+1)
	}
}

func (g *a50Gen) mapping(col, depth int) {
	for range 1 + g.r.IntN(4) {
		if g.r.IntN(6) == 0 {
			g.line(col, "# h")
		}
		g.value(col, g.name()+":", depth)
		g.gap(col)
	}
}

func (g *a50Gen) list(col, depth int) {
	for range 1 + g.r.IntN(4) {
		if g.r.IntN(8) == 0 {
			g.line(col, "# hi")
		}
		switch k := g.r.IntN(6); {
		case k == 0 && depth < 3:
			// a compact mapping
			g.value(col+2, "- "+g.name()+":", depth+1)
			g.lines[len(g.lines)-1] = strings.Replace(g.lines[len(g.lines)-1], strings.Repeat(" ", col+2)+"- ", strings.Repeat(" ", col)+"- ", 1)
			if g.r.IntN(2) == 0 {
				g.gap(col + 2)
			}
			for range g.r.IntN(3) {
				g.value(col+2, g.name()+":", depth+1)
				if g.r.IntN(2) == 0 {
					g.gap(col + 2)
				}
			}
		case k == 1 && depth < 3:
			// a nested list
			g.notes++
			g.line(col, fmt.Sprintf("- - x%d", g.notes))
			if g.r.IntN(2) == 0 {
				g.gap(col + 2)
			}
			g.line(col+2, fmt.Sprintf("- y%d", g.notes))
		default:
			g.scalar(col, "-")
		}
		g.gap(col)
	}
}

// stream returns a stream of one to three documents.
func (g *a50Gen) stream() string {
	g.lines, g.keys, g.notes = g.lines[:0], 0, 0
	docs := 1 + g.r.IntN(3)
	if g.r.IntN(2) == 0 {
		docs = 1
	}
	for d := range docs {
		if d > 0 {
			if g.r.IntN(3) == 0 {
				g.line(0, "...")
			}
			g.line(0, "---")
			if g.r.IntN(3) == 0 {
				g.line(0, "# lent")
				if g.r.IntN(2) == 0 {
					g.line(0, "")
				}
			}
		}
		if g.r.IntN(4) == 0 {
			g.list(0, 0)
		} else {
			g.mapping(0, 0)
		}
	}
	var b strings.Builder
	mode := g.r.IntN(10) // LF, CRLF or mixed
	for i, l := range g.lines {
		b.WriteString(l)
		crlf := mode >= 5 && mode < 9 || mode == 9 && g.r.IntN(2) == 0
		if i < len(g.lines)-1 || g.r.IntN(4) != 0 {
			if crlf {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

// TestAttack50Random edits generated streams (a50Gen): every op on the
// entries with foot comments and below comment lines (some of them), on
// other entries, and pairs of ops.
func TestAttack50Random(t *testing.T) {
	n := 1200
	if os.Getenv("ATTACK50_FULL") != "" {
		n = 20000
	}
	s := a50Stats{label: "random", looseBlanks: true}
	g := &a50Gen{r: rand.New(rand.NewPCG(50, 1))}
	r := rand.New(rand.NewPCG(50, 2))
	for seed := range n {
		in := g.stream()
		st, err := Read([]byte(in), Options{})
		if err != nil || st.LoadAll() != nil {
			s.skipped++
			continue
		}
		tgs := a50Targets(st.Docs)
		if len(tgs) == 0 {
			continue
		}
		var picked []a50Target
		var aboves []bool
		for _, tg := range tgs {
			above := a50Above(in, st.Docs, tg)
			if (tg.foot || above) && r.IntN(3) > 0 || r.IntN(12) == 0 {
				picked, aboves = append(picked, tg), append(aboves, above)
			}
		}
		for i, tg := range picked {
			for o := range a50Ops {
				k := r.IntN(12)
				s.run(t, in, tg, aboves[i], o, k, fmt.Sprintf("seed %d doc %d path %v entry %d op %d new %d", seed, tg.doc, tg.path, tg.e, o, k))
			}
		}
		for range 2 {
			a, b := tgs[r.IntN(len(tgs))], tgs[r.IntN(len(tgs))]
			oa, ob, k := r.IntN(a50Ops), r.IntN(a50Ops), r.IntN(12)
			ea, ok1 := a50Edit(a, oa, k)
			eb, ok2 := a50Edit(b, ob, k+1)
			if !ok1 || !ok2 {
				continue
			}
			s.runEdit(t, in, a48Both(ea, eb), a.foot || b.foot, false, false, fmt.Sprintf("seed %d pair %v/%d op %d, %v/%d op %d new %d", seed, a.path, a.e, oa, b.path, b.e, ob, k))
		}
	}
	t.Log(s.String())
	if s.footInPlace == 0 || s.aboveInPlace == 0 {
		t.Errorf("no case of the new code: %s", s.String())
	}
}

// a50Layout is one arrangement of the lines around an entry (the target,
// t or its item) in a collection at column col: what comes before it
// (nothing, an entry, an entry and its foot comment), its value, the
// lines after it (comment lines at its column, right and left of it, at
// column 0, blank lines, lines of blanks) and what follows them (the next
// entry, a less indented key, the end, another document).
type a50Layout struct {
	col, before, value, next int
	item, crlf               bool
	gap                      []int
}

// a50GapLines: the lines a gap is made of (a50Layout.text).
const a50GapLines = 6

func (l a50Layout) text() string {
	var b []string
	ind := func(c int) string { return strings.Repeat(" ", max(c, 0)) }
	c := l.col
	if c > 0 {
		b = append(b, "p:")
	}
	entry := func(name string) string {
		if l.item {
			return ind(c) + "- " + name
		}
		return ind(c) + name + ": 0"
	}
	switch l.before {
	case 1:
		b = append(b, entry("w"))
	case 2:
		b = append(b, entry("w"), ind(c)+"# fw", "")
	case 3:
		b = append(b, entry("w"), ind(c)+"# cw")
	}
	head := ind(c) + "t:"
	vc := c + 2 // (the value's lines)
	if l.item {
		head = ind(c) + "-"
	}
	switch l.value {
	case 0:
		b = append(b, head+" 1")
	case 1:
		b = append(b, head+" |", ind(vc)+"x")
	case 2:
		if l.item {
			b = append(b, ind(c)+"- x: 1", ind(vc)+"y: 2")
		} else {
			b = append(b, head, ind(vc)+"x: 1")
		}
	case 3:
		b = append(b, head+" [1,", ind(vc)+"2]")
	case 4:
		b = append(b, head+" 'q' # lc")
	}
	for i, g := range l.gap {
		n := fmt.Sprint(i)
		switch g {
		case 0:
			b = append(b, ind(c)+"# c"+n)
		case 1:
			b = append(b, ind(c+2)+"# r"+n)
		case 2:
			b = append(b, ind(c-1)+"# l"+n)
		case 3:
			b = append(b, "# z"+n)
		case 4:
			b = append(b, "")
		case 5:
			b = append(b, ind(c+1))
		}
	}
	switch l.next {
	case 0:
		b = append(b, entry("n"))
	case 1:
		b = append(b, "q: 4")
	case 2:
	case 3:
		b = append(b, "---", "d: 1")
	}
	text := strings.Join(b, "\n") + "\n"
	if l.crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	return text
}

// a50Layouts calls visit with every layout whose gap has up to three
// lines.
func a50Layouts(visit func(l a50Layout)) {
	var gaps [][]int
	gaps = append(gaps, nil)
	for n := 1; n <= 3; n++ {
		k := 1
		for range n {
			k *= a50GapLines
		}
		for i := range k {
			g := make([]int, n)
			for j, x := 0, i; j < n; j++ {
				g[j], x = x%a50GapLines, x/a50GapLines
			}
			gaps = append(gaps, g)
		}
	}
	for _, col := range []int{0, 2} {
		for _, item := range []bool{false, true} {
			for before := range 4 {
				for value := range 5 {
					for next := range 4 {
						if next == 1 && col == 0 {
							continue
						}
						for _, gap := range gaps {
							for _, crlf := range []bool{false, true} {
								visit(a50Layout{col: col, item: item, before: before, value: value, next: next, gap: gap, crlf: crlf})
							}
						}
					}
				}
			}
		}
	}
}

// TestAttack50Layouts removes and writes anew the entry of layouts of the
// lines around it (a50Layout): one layout in 29 by default (by turns),
// every one with ATTACK50_FULL=1.
func TestAttack50Layouts(t *testing.T) {
	stride := 29
	if os.Getenv("ATTACK50_FULL") != "" {
		stride = 1
	}
	s := a50Stats{label: "layouts"}
	n := 0
	a50Layouts(func(l a50Layout) {
		n++
		if n%stride != 0 {
			return
		}
		in := l.text()
		st, err := Read([]byte(in), Options{})
		if err != nil || st.LoadAll() != nil {
			s.skipped++
			return
		}
		for _, tg := range a50Targets(st.Docs[:1]) {
			if len(tg.path) != l.col/2+1 || tg.e != 0 && tg.e != 1 {
				continue // (the collection of t, or of its item)
			}
			if l.before == 0 && tg.e != 0 || l.before > 0 && tg.e != 1 {
				continue
			}
			above := a50Above(in, st.Docs, tg)
			for _, o := range []int{0, 1, 3, 4, 6, 8, 12} {
				k := []int{1, 2, 8}[n%3]
				s.run(t, in, tg, above, o, k, fmt.Sprintf("layout %+v op %d new %d", l, o, k))
			}
		}
	})
	t.Log(s.String())
	if s.footInPlace == 0 || s.aboveInPlace == 0 {
		t.Errorf("no case of the new code: %s", s.String())
	}
}
