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

// Attack of 2026-11-30 on items moved in a list (moveItems, movedText),
// items added to lists with a gap after the dash (gappedItem) and the
// relaxed comment rules (removedLines, addedLines: a comment line at the
// entries' column read back at once).

// a44Result is what a44Check found of one edit.
type a44Result struct {
	direct   []byte // replaceValues' text, when it wrote one
	inPlace  bool
	outcomes []outcome
	out      []byte
}

// a44Check reads in, snapshots it, edits it by edit and checks: no
// panic; the output reads (kmerge's reader and yaml.v3) as the edited
// documents; a document written in place holds every comment on its
// node; replaceValues' own text, when it writes one, reads so too; the
// same edit written twice is the same bytes; Options.Whole writes the
// same values. It returns "" or what failed.
func a44Check(in string, edit func(*Stream)) (res a44Result, bad string) {
	defer func() {
		if r := recover(); r != nil {
			bad = fmt.Sprintf("panic: %v", r)
		}
	}()
	run := func(opts Options) (*Stream, []byte, string) { return a45Run(in, opts, nil, edit) }
	st, out, e := run(Options{})
	if e != "" {
		return res, e
	}
	res.out = out
	docsOK := func(text []byte, what string, comments bool) string {
		back, err := Read(text, Options{})
		if err != nil || len(back.Docs) != len(st.Docs) {
			return fmt.Sprintf("%s: does not read as %d documents (%v): %q", what, len(st.Docs), err, text)
		}
		for i := range back.Docs {
			if !Equal(back.Docs[i], st.Docs[i]) {
				return fmt.Sprintf("%s: document %d reads otherwise: %s\n%q", what, i, nodeDiff(back.Docs[i], st.Docs[i], "doc"), text)
			}
		}
		v3, err := v3Docs(text)
		if err != nil {
			return fmt.Sprintf("%s: yaml.v3: %v: %q", what, err, text)
		}
		v3 = nonEmpty(v3)
		want := nonEmpty(st.Docs)
		if len(v3) == len(want) {
			for i := range v3 {
				if !Equal(v3[i], want[i]) {
					return fmt.Sprintf("%s: yaml.v3 reads document %d otherwise: %q", what, i, text)
				}
			}
		}
		if comments && len(st.Docs) == 1 {
			if p := commentsDiffer(back.Docs[0], st.Docs[0]); p != "" && !footsMovedOnly(back.Docs[0], st.Docs[0]) {
				return fmt.Sprintf("%s: the comments of %s read otherwise: %q", what, p, text)
			}
		}
		return ""
	}
	if b := docsOK(out, "WriteYAML", false); b != "" {
		return res, b
	}
	direct, ok := replaceAll(st)
	res.direct, res.inPlace = direct, ok
	if ok {
		if b := docsOK(direct, "replaceValues", true); b != "" {
			return res, b
		}
	}
	p, outcomes, err := st.preserved()
	if err != nil {
		return res, "preserved: " + err.Error()
	}
	res.outcomes = outcomes
	if p != nil && len(st.Docs) == 1 && slices.Contains(outcomes, replaced) {
		if b := docsOK(p, "preserved", true); b != "" {
			return res, b
		}
	}
	_, again, _ := run(Options{})
	if !bytes.Equal(again, out) {
		return res, fmt.Sprintf("not deterministic: %q then %q", out, again)
	}
	wst, whole, e := run(Options{Whole: true})
	if e != "" {
		return res, "whole: " + e
	}
	back, err := Read(whole, Options{})
	if err != nil || len(back.Docs) != len(wst.Docs) {
		return res, fmt.Sprintf("whole: does not read back: %v %q", err, whole)
	}
	for i := range back.Docs {
		if !Equal(back.Docs[i], st.Docs[i]) {
			return res, fmt.Sprintf("whole and default read otherwise: %q / %q", whole, out)
		}
	}
	return res, ""
}

// a44Lines returns text's lines, sorted, line breaks and a final one
// aside.
func a44Lines(text []byte) []string {
	s := strings.ReplaceAll(string(text), "\r\n", "\n")
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(l)
	return l
}

// a44Seq is the block sequence at path (keys; item indexes of one digit)
// of document d.
func a44Seq(st *Stream, d int, path ...string) *yaml.Node {
	return nodeAt(Root(st.Docs[d]), path...)
}

// a44Order sets the items of the list at path of document 0: indexes of
// its items, or new items' texts.
func a44Order(path string, items ...any) func(st *Stream) {
	return func(st *Stream) {
		var p []string
		if path != "" {
			p = strings.Split(path, ".")
		}
		l := a44Seq(st, 0, p...)
		var c []*yaml.Node
		for _, it := range items {
			switch it := it.(type) {
			case int:
				c = append(c, l.Content[it])
			case string:
				var d yaml.Node
				if err := yaml.Unmarshal([]byte(it), &d); err != nil {
					panic(err)
				}
				unstyled(d.Content[0])
				c = append(c, d.Content[0])
			}
		}
		l.Content = c
	}
}

// TestAttack44Probe runs hand-written moves, gapped insertions and edits
// next to comment lines through a44Check, and logs what replaceValues
// wrote (go test -v).
func TestAttack44Probe(t *testing.T) {
	for _, c := range []struct {
		in   string
		edit func(*Stream)
	}{
		{"l:\n- a\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- name: a\n  x: 1\n- name: b\n  y: 2\n", a44Order("l", 1, 0)},
		{"l:\n- name: a\n  x: 1\n- name: b\n  y: 2", a44Order("l", 1, 0)},
		{"l:\n- name: a\n  x: 1\n- name: b\n  y: 2\n---\nz: 1\n", a44Order("l", 1, 0)},
		{"l:\n- |+\n  a\n\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- b\n- |+\n  a\n\n", a44Order("l", 1, 0)},
		{"l:\n- b\n- |+\n  a\n\nm: 1\n", a44Order("l", 1, 0)},
		{"l:\n- x: |+\n    a\n\n- b\nm: 1\n", a44Order("l", 1, 0)},
		{"l:\n- x: |\n    a\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- >-\n  a\n  b\n- c\n", a44Order("l", 1, 0)},
		{"l:\n- a\n- b\n- a\n", a44Order("l", 1, 0, 2)},
		{"l:\n- a\n- b\n- a\n", a44Order("l", 0, 2, 1)},
		{"l:\n- a # one\n- b\n- a # two\n", a44Order("l", 2, 1, 0)},
		{"l:\n# h a\n- a\n# h b\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- a\n  # foot a\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- a\n- b\n  # foot b\n", a44Order("l", 1, 0)},
		{"l:\n- a\n- b\n# foot l\nm: 1\n", a44Order("l", 1, 0)},
		{"l:\n- a\n- b\n\n# foot l\n\nm: 1\n", a44Order("l", 1, 0)},
		{"l:\n- a\n\n- b\n", a44Order("l", 1, 0)},
		{"l:\n\n- a\n\n- b\n\n", a44Order("l", 1, 0)},
		{"l:\n- &x a\n- *x\n", a44Order("l", 1, 0)},
		{"l:\n- &x a\n- b\n- *x\n", a44Order("l", 1, 0, 2)},
		{"l:\n- !t a\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- [a, b]\n- {c: d}\n", a44Order("l", 1, 0)},
		{"l:\n- - a\n  - b\n- - c\n", a44Order("l", 1, 0)},
		{"l:\n- - a\n  - b\n- - c\n", a44Order("l.0", 1, 0)},
		{"l:\n- x:\n  - a\n  - b\n- y\n", a44Order("l.0.x", 1, 0)},
		{"l:\n- x:\n  - a\n  - b\n- y\n", func(st *Stream) { a44Order("l.0.x", 1, 0)(st); a44Order("l", 1, 0)(st) }},
		{"a:\n  l:\n    - a\n    - b\n  m: 1\n", a44Order("a.l", 1, 0)},
		{"l:\r\n- a\r\n- b", a44Order("l", 1, 0)},
		{"l:\r\n- a\r\n# c\r\n- b\r\n", a44Order("l", 1, 0)},
		{"l:\n- a\nm:\n- b\n", func(st *Stream) {
			l, m := a44Seq(st, 0, "l"), a44Seq(st, 0, "m")
			l.Content, m.Content = m.Content, l.Content
		}},
		{"- a\n- b\n", a44Order("", 1, 0)},
		{"- a\n- b\n# end\n", a44Order("", 1, 0)},
		{"# top\n- a\n- b\n", a44Order("", 1, 0)},
		{"- a\n- b\n...\n---\n- c\n", a44Order("", 1, 0)},
		{"l:\n- a\n- b\n- c\n- d\n", a44Order("l", 3, 2, 1, 0)},
		{"l:\n- a\n- b\n- c\n- d\n", a44Order("l", 3, "new", 1, 0)},
		{"l:\n- a\n- b\n- c\n- d\n", a44Order("l", 1, "a", 2)},
		{"l:\n# c\n- y\n- k\n# c\n- x\n", a44Order("l", 2, 1)},
		{"l:\n# c\n- y\n- k\n# c\n- x\n", a44Order("l", 2, 1, 0)},
		{"l:\n# c\n- y\n# c\n- x\n", a44Order("l", 1)},
		{"l:\n- b\n- &x a\n- *x\n", a44Order("l", 2, 1, 0)},
		{"l:\n- b\n- &x a\n- *x\n", a44Order("l", 2, 0, 1)},
		{"a: &x 1\nl:\n- *x\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- &x a\n- *x\n- &x b\n- *x\n", a44Order("l", 2, 3, 0, 1)},
		{"l:\n- &x a\n- *x\n- &x b\n- *x\n", a44Order("l", 0, 3, 2, 1)},
		{"l:\n- &x a\n- c\n- &x b\nm: *x\n", a44Order("l", 2, 1, 0)},
		{"l:\n- !!str a\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- 'a'\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- a\n-\n- b\n", a44Order("l", 2, 1, 0)},
		{"l:\n- a\n- \n# c\n- b\n", a44Order("l", 2, 1, 0)},
		{"l:\n- a\n- b\n...\n# c\n---\n- d\n", a44Order("l", 1, 0)},
		{"l:\n- a\n- b\n# c\n---\n- d\n", a44Order("l", 1, 0)},
		{"l:\n- a\n- b:\n  - x\n  - y\n# c\n---\n- d\n", a44Order("l", 1, 0)},
		{"l:\n- a\n- b:\n  - x\n  - y\n  # c\n---\n- d\n", a44Order("l", 1, 0)},
		{"l:\n- a\n- b: |+\n    x\n\n---\n- d\n", a44Order("l", 1, 0)},
		{"l:\n- |\n  x\n- b", a44Order("l", 1, 0)},
		{"l:\n- b\n- |\n  x", a44Order("l", 1, 0)},
		{"l:\n- >\n  x\n\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- >\n  x\n\n\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- b\n- |-\n  x\n\n", a44Order("l", 1, 0)},
		{"l:\n- |2\n   x\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- k: |\n    x\n  # c\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- a\n  # foot a\n\n# head b\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- a\n\n# head b\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- a\n\n# head b\n\n- b\n", a44Order("l", 1, 0)},
		{"l:\n- a\r\n- b\n- c\r\n", a44Order("l", 2, 1, 0)},
		{"l:\n- a\n- b\n- c\n", a44Order("l", 2, "a", 1)},
		{"l:\n- x: 1\n  y: 2\n- x: 1\n  y: 3\n", a44Order("l", 1, 0)},
		{"l:\n- x: 1\n  y: 2\n- x: 1\n  y: 2\n- z\n", a44Order("l", 2, 1, 0)},
		{"l:\n- a\n- b\nm:\n- c\n", func(st *Stream) {
			l, m := a44Seq(st, 0, "l"), a44Seq(st, 0, "m")
			m.Content = append(m.Content, l.Content[0])
			l.Content = l.Content[1:]
		}},
		{"l:\n- x:\n  - a\n  - b\n- x:\n  - c\n", func(st *Stream) {
			p, q := a44Seq(st, 0, "l", "0", "x"), a44Seq(st, 0, "l", "1", "x")
			p.Content, q.Content = []*yaml.Node{p.Content[1]}, append(q.Content, p.Content[0])
		}},
		{"l:\n- x:\n  - a\n  - b\n- x:\n  - c\n", func(st *Stream) {
			p, q := a44Seq(st, 0, "l", "0", "x"), a44Seq(st, 0, "l", "1", "x")
			p.Content, q.Content = []*yaml.Node{p.Content[1], q.Content[0]}, []*yaml.Node{p.Content[0]}
		}},
		// gaps
		{"l:\n-  name: a\n", a44Order("l", 0, "name: b\nv: 1")},
		{"l:\n-     name: a\n", a44Order("l", 0, "name: b\nv: 1")},
		{"l:\n-   name: a\n", a44Order("l", 0, "name: b\nv:\n- x\n- y")},
		{"l:\n-   name: a\n", a44Order("l", 0, "name: b\nv:\n  k: x")},
		{"l:\n-   name: a\n", a44Order("l", 0, "v: |\n  x\nname: b")},
		{"l:\n-   name: a\n", a44Order("l", 0, "v: [1, 2]\nname: b")},
		{"l:\n-   name: a\n", a44Order("l", 0, "{name: b}")},
		{"l:\n-   name: a\n", a44Order("l", 0, "name: b # c")},
		{"l:\n-   name: a\n", a44Order("l", 0, "- x\n- y")},
		{"l:\n-   - a\n", a44Order("l", 0, "name: b")},
		{"l:\n-   name: a\n-   name: c\n", a44Order("l", 0, "name: b", 1)},
		{"l:\n-   name: a\n    v: 1\n", a44Order("l", 0, "name: b")},
		{"  l:\n    -   name: a\n", a44Order("l", 0, "name: b\nv:\n  w: 1")},
		{"l:\n-   name: a\n", a44Order("l", 0, "&x name: b")},
		{"l:\n-   name: a\n", a44Order("l", 0, "name: &x b\nw: *x")},
		{"l:\n-   name: a\n", a44Order("l", 0, "'': b")},
		{"l:\n-   name: a\n", a44Order("l", 0, "name:\nw: 1")},
		{"l:\n-   name: a\n", a44Order("l", 0, "name: \"multi\\nline\"")},
		{"l:\n-   name: a\n", a44Order("l", 0, "x: |-\n  one\n  two")},
		{"l:\n-   name: a\n# end\n", a44Order("l", 0, "name: b")},
		{"l:\n-   name: a\n  # end\n", a44Order("l", 0, "name: b")},
		{"l:\n-   name: a\n    # end\n", a44Order("l", 0, "name: b")},
		{"l:\n-   name: a\n---\nx: 1\n", a44Order("l", 0, "name: b")},
		{"l:\r\n-   name: a\r\n", a44Order("l", 0, "name: b\nv: 1")},
		{"l:\n-   name: a", a44Order("l", 0, "name: b\nv: 1")},
		// comments
		{"a: 1\nb: 2\n# about c\nc: 3\n", func(st *Stream) { Root(st.Docs[0]).Content = slices.Delete(Root(st.Docs[0]).Content, 2, 4) }},
		{"a: 1\nb: 2\n# about c\n---\nc: 3\n", func(st *Stream) { Root(st.Docs[0]).Content = slices.Delete(Root(st.Docs[0]).Content, 2, 4) }},
		{"a:\n  b: 1\n  c: 2\n  # foot\nd: 1\n", func(st *Stream) { m := a44Seq(st, 0, "a"); m.Content = m.Content[:2] }},
		{"a:\n  b: 1\n  c: 2\n# foot\nd: 1\n", func(st *Stream) { m := a44Seq(st, 0, "a"); m.Content = m.Content[:2] }},
		{"a:\n  b: 1\n  c: 2\n  # foot\n", func(st *Stream) { m := a44Seq(st, 0, "a"); m.Content = m.Content[:2] }},
		{"a:\n  b: 1\n  c: 2\n  # foot\n", func(st *Stream) { MapSet(a44Seq(st, 0, "a"), "z", NewString("1")) }},
		{"a:\n  b: 1\n  c: 2\n\n  # foot\n", func(st *Stream) { MapSet(a44Seq(st, 0, "a"), "z", NewString("1")) }},
		{"a:\n  b:\n    x: 1\n  # foot b\nc: 2\n", func(st *Stream) { MapSet(a44Seq(st, 0, "a", "b"), "z", NewString("1")) }},
		{"a:\n  b:\n    x: 1\n  # foot b\nc: 2\n", func(st *Stream) { m := a44Seq(st, 0, "a", "b"); m.Content = nil; MapSet(m, "y", NewString("1")) }},
		{"l:\n  - a\n  # c\n  - b\n", a44Order("l", 0, "z", 1)},
		{"l:\n  - a\n  # c\n  - b\n", a44Order("l", 1)},
		{"l:\n  - a\n  # c\n  - b\n", a44Order("l", 0)},
		{"l:\n  - a\n  # c\n", a44Order("l", 0, "z")},
		{"l:\n  - a\n  # c\n", a44Order("l")},
		{"l:\n  - a\n  - b\n  # c\n", a44Order("l", 0)},
		{"l:\r\n  - a\r\n  - b\r\n  # c\r\n", a44Order("l", 0)},
		{"l:\r\n  - a\r\n  - b\r\n  # c\r\nm: 1\r\n", a44Order("l", 0)},
		{"l:\n  - a\n  - b\n  # c\n---\nx: 1\n", a44Order("l", 0)},
		{"l:\n  - a\n  - b\n  # c\n---\nx: 1\n", a44Order("l", 0, 1, "z")},
		{"k:\n  l:\n    - a\n    - b\n  # c\nm: 1\n", a44Order("k.l", 0)},
		{"k:\n  l:\n    - a\n    - b\n  # c\nm: 1\n", a44Order("k.l", 0, 1, "z")},
		{"k:\n  l:\n  - a\n  - b\n  # c\n  m: 1\n", a44Order("k.l", 0)},
		{"k:\n  l:\n  - a\n  - b\n  # c\n  m: 1\n", a44Order("k.l", 0, 1, "z")},
		{"k:\n  l:\n  - a\n  - b\n  # c\n", a44Order("k.l", 0, 1, "z")},
		{"k:\n  l:\n  - a\n  - b\n  # c\n", a44Order("k.l", 0)},
	} {
		res, bad := a44Check(c.in, c.edit)
		if bad != "" {
			t.Errorf("%q: %s", c.in, bad)
			continue
		}
		t.Logf("%q -> %v %q (%v)", c.in, res.inPlace, res.direct, res.outcomes)
	}
}

// a44Gen writes documents of block lists: items scalar, mappings,
// nested lists, block scalars, flow collections, with head comments,
// line comments, comment lines at several columns, blank lines, gaps
// after the dash, anchors and tags.
type a44Gen struct {
	r *rand.Rand
	b strings.Builder
	n int // (names)
	u int // indentation unit: 2, or 4
}

func (g *a44Gen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g *a44Gen) name() string {
	g.n++
	if g.r.IntN(5) == 0 {
		return "dup" // (identical items)
	}
	return fmt.Sprint("v", g.n)
}

// comment writes a comment line or a blank line, maybe, at ind or
// another column.
func (g *a44Gen) comment(ind int) {
	for g.r.IntN(5) == 0 {
		col := ind
		switch g.r.IntN(4) {
		case 0:
			col = 0
		case 1:
			col = ind + 2
		case 2:
			if ind >= 2 {
				col = ind - 2
			}
		}
		if g.r.IntN(4) == 0 {
			g.b.WriteString("\n")
		} else {
			g.b.WriteString(strings.Repeat(" ", col) + g.pick("# c", "#", "# - x", "# k: v") + "\n")
		}
	}
}

func (g *a44Gen) lc() string {
	if g.r.IntN(6) == 0 {
		return " " + g.pick("# l", "#", "# x")
	}
	return ""
}

// scalar returns a scalar for a value at indentation ind (block scalars'
// lines).
func (g *a44Gen) scalar(ind int) string {
	pad := strings.Repeat(" ", ind+2)
	switch g.r.IntN(14) {
	case 0:
		return "|\n" + pad + "lit\n" + pad + "two"
	case 1:
		return "|+\n" + pad + "kept\n"
	case 2:
		return ">-\n" + pad + "fold\n" + pad + "ed"
	case 3:
		return "[a, " + g.name() + "]"
	case 4:
		return "{k: " + g.name() + "}"
	case 5:
		return "'" + g.name() + "'"
	case 6:
		return "!t " + g.name()
	case 7:
		return fmt.Sprintf("&a%d %s", g.r.IntN(3), g.name())
	case 8:
		return ""
	case 9:
		return fmt.Sprintf("*a%d", g.r.IntN(3))
	}
	return g.name()
}

// mapping writes a block mapping's entries at column ind, the first one
// after first (written already: a dash and a gap).
func (g *a44Gen) mapping(ind int, first bool, depth int) {
	pad := strings.Repeat(" ", ind)
	for i := range 1 + g.r.IntN(3) {
		if i > 0 || !first {
			g.comment(ind)
			g.b.WriteString(pad)
		}
		key := g.pick("name", "k", "image", "x")
		if i > 0 {
			key = fmt.Sprint(key, i)
		}
		g.b.WriteString(key + ":")
		switch k := g.r.IntN(6); {
		case k == 0 && depth < 3:
			g.b.WriteString(g.lc() + "\n")
			g.list(ind+g.r.IntN(2)*g.u, depth+1)
		case k == 1 && depth < 3:
			g.b.WriteString(g.lc() + "\n")
			g.comment(ind + g.u)
			g.b.WriteString(strings.Repeat(" ", ind+g.u))
			g.mapping(ind+g.u, true, depth+1)
		default:
			s := g.scalar(ind)
			if s != "" {
				g.b.WriteString(" " + s)
			}
			if !strings.Contains(s, "\n") {
				g.b.WriteString(g.lc())
			}
			if !strings.HasSuffix(s, "\n") {
				g.b.WriteString("\n")
			}
		}
	}
}

// list writes a block list at column ind.
func (g *a44Gen) list(ind int, depth int) {
	pad := strings.Repeat(" ", ind)
	gap := 1
	if g.r.IntN(3) == 0 {
		gap = 2 + g.r.IntN(3)
	}
	for range 1 + g.r.IntN(5) {
		g.comment(ind)
		if g.r.IntN(5) == 0 {
			g.b.WriteString(pad + "# head " + g.name() + "\n")
		}
		g.b.WriteString(pad + "-" + strings.Repeat(" ", gap))
		switch k := g.r.IntN(8); {
		case k < 3:
			g.mapping(ind+1+gap, true, depth+1)
		case k == 3 && depth < 3:
			g.list(ind+1+gap, depth+1)
		case k == 4 && depth < 3:
			g.b.WriteString(g.lc() + "\n")
			g.list(ind+g.u, depth+1)
		default:
			s := g.scalar(ind)
			g.b.WriteString(s)
			if !strings.Contains(s, "\n") {
				g.b.WriteString(g.lc())
			}
			if !strings.HasSuffix(s, "\n") {
				g.b.WriteString("\n")
			}
		}
	}
	g.comment(ind)
}

// doc writes a document.
func (g *a44Gen) doc() string {
	g.b.Reset()
	g.u = 2 + 2*g.r.IntN(2)
	if g.r.IntN(6) == 0 {
		g.comment(0)
		g.list(0, 0)
	} else {
		for i := range 1 + g.r.IntN(3) {
			g.comment(0)
			g.b.WriteString(fmt.Sprintf("k%d:", i))
			switch g.r.IntN(4) {
			case 0:
				g.b.WriteString("\n" + strings.Repeat(" ", g.u))
				g.mapping(g.u, true, 1)
			case 1:
				g.b.WriteString(" " + g.name() + "\n")
			default:
				g.b.WriteString(g.lc() + "\n")
				g.list(g.r.IntN(2)*g.u, 1)
			}
		}
	}
	g.comment(0)
	s := g.b.String()
	if g.r.IntN(4) == 0 {
		s += g.pick("---\nz: 1\n", "...\n---\n- d\n", "# between\n---\nz: 1\n")
	}
	switch g.r.IntN(6) {
	case 0:
		s = strings.ReplaceAll(s, "\n", "\r\n")
	case 1:
		s = strings.TrimRight(s, "\n")
	}
	return s
}

// a44Lists returns the block sequences of n.
func a44Lists(n *yaml.Node, out []*yaml.Node) []*yaml.Node {
	if n.Kind == yaml.AliasNode {
		return out
	}
	if n.Kind == yaml.SequenceNode && n.Style&yaml.FlowStyle == 0 {
		out = append(out, n)
	}
	for _, c := range n.Content {
		out = a44Lists(c, out)
	}
	return out
}

// a44Edit edits document 0 of st by seed: items moved (shuffled, one
// moved, two swapped), added (new mappings, scalars, copies of items),
// removed, moved to another list, changed; pure reports whether the
// edit only moved items within their lists.
func a44Edit(st *Stream, seed uint64) (pure bool) {
	r := rand.New(rand.NewPCG(seed, 44))
	lists := a44Lists(st.Docs[0], nil)
	if len(lists) == 0 {
		return true
	}
	pure = true
	for range 1 + r.IntN(2) {
		l := lists[r.IntN(len(lists))]
		n := len(l.Content)
		switch k := r.IntN(12); {
		case k < 3:
			r.Shuffle(n, func(i, j int) { l.Content[i], l.Content[j] = l.Content[j], l.Content[i] })
		case k < 5:
			i, j := r.IntN(n), r.IntN(n)
			it := l.Content[i]
			l.Content = slices.Delete(l.Content, i, i+1)
			l.Content = slices.Insert(l.Content, min(j, len(l.Content)), it)
		case k == 5:
			i, j := r.IntN(n), r.IntN(n)
			l.Content[i], l.Content[j] = l.Content[j], l.Content[i]
		case k == 6:
			pure = false
			var it *yaml.Node
			switch r.IntN(4) {
			case 0:
				it = Clone(l.Content[r.IntN(n)])
			case 1:
				it = NewString("new")
			case 2:
				it = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{NewString("name"), NewString("new"), NewString("v"), NewString("1")}}
			default:
				it = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{NewString("name"), NewString("new"),
					NewString("l"), {Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{NewString("a"), NewString("b")}}}}
				if r.IntN(2) == 0 {
					it.Content[2].HeadComment = "# about l"
				}
			}
			l.Content = slices.Insert(l.Content, r.IntN(n+1), it)
			r.Shuffle(len(l.Content), func(i, j int) {
				if r.IntN(2) == 0 {
					l.Content[i], l.Content[j] = l.Content[j], l.Content[i]
				}
			})
		case k == 7 && n > 1:
			pure = false
			i := r.IntN(n)
			l.Content = slices.Delete(l.Content, i, i+1)
			r.Shuffle(len(l.Content), func(i, j int) { l.Content[i], l.Content[j] = l.Content[j], l.Content[i] })
		case k == 8 && len(lists) > 1:
			pure = false
			m := lists[r.IntN(len(lists))]
			i := r.IntN(n)
			it := l.Content[i]
			if m == l || n < 2 || anyNode(it, func(x *yaml.Node) bool { return x == m }) {
				break // (not into itself)
			}
			l.Content = slices.Delete(l.Content, i, i+1)
			m.Content = slices.Insert(m.Content, r.IntN(len(m.Content)+1), it)
		case k == 9:
			pure = false
			i := r.IntN(n)
			if s := l.Content[i]; s.Kind == yaml.ScalarNode {
				s.Value, s.Tag, s.Style = "changed", "!!str", 0
			}
			r.Shuffle(n, func(i, j int) { l.Content[i], l.Content[j] = l.Content[j], l.Content[i] })
		case k == 10:
			pure = false
			i := r.IntN(n)
			l.Content[i].HeadComment = "# new head"
			r.Shuffle(n, func(i, j int) { l.Content[i], l.Content[j] = l.Content[j], l.Content[i] })
		default:
			pure = false
			// an entry added to or removed from a mapping (the comment
			// rules)
			var maps []*yaml.Node
			anyNode(st.Docs[0], func(m *yaml.Node) bool {
				if m.Kind == yaml.MappingNode && m.Style&yaml.FlowStyle == 0 {
					maps = append(maps, m)
				}
				return false
			})
			if len(maps) == 0 {
				break
			}
			m := maps[r.IntN(len(maps))]
			if r.IntN(2) == 0 && len(m.Content) > 2 {
				j := r.IntN(len(m.Content) / 2)
				m.Content = slices.Delete(m.Content, 2*j, 2*j+2)
			} else {
				j := r.IntN(len(m.Content)/2 + 1)
				if MapGet(m, fmt.Sprint("z", j)) == nil {
					m.Content = slices.Insert(m.Content, 2*j, NewString(fmt.Sprint("z", j)), NewString("0"))
				}
			}
		}
	}
	return pure
}

var a44N = 1500

// TestAttack44Random: a44Gen's documents, a44Edit's edits, a44Check's
// checks; a pure move written in place is the source's lines, reordered.
func TestAttack44Random(t *testing.T) {
	var s1 uint64 = 44
	if v := os.Getenv("ATTACK44_SEED"); v != "" {
		fmt.Sscan(v, &s1)
		fmt.Sscan(os.Getenv("ATTACK44_N"), &a44N)
	}
	g := &a44Gen{r: rand.New(rand.NewPCG(s1, 1))}
	docs, edits, inPlace, moves, fails := 0, 0, 0, 0, 0
	seen := 0 // (raceSkip)
	for i := range a44N {
		in := g.doc()
		if _, err := Read([]byte(in), Options{}); err != nil {
			continue
		}
		docs++
		for e := range 4 {
			if raceSkip(&seen) {
				continue
			}
			seed := uint64(i*10 + e)
			var pure bool
			res, bad := a44Check(in, func(st *Stream) { pure = a44Edit(st, seed) })
			edits++
			if bad == "" && res.inPlace && pure && !strings.Contains(in, "*a") {
				// (an alias item moved is written as its value: the tree
				// holds no aliases)
				moves++
				if !slices.Equal(a44Lines([]byte(in)), a44Lines(res.direct)) {
					bad = fmt.Sprintf("a move written in place is not the source's lines: %q", res.direct)
				}
			}
			if res.inPlace {
				inPlace++
			}
			if bad != "" {
				fails++
				if fails <= 15 {
					t.Errorf("input %q, edit seed %d: %s", in, seed, bad)
				}
			}
		}
	}
	t.Logf("%d documents, %d edits, %d written in place (%d pure moves), %d failed", docs, edits, inPlace, moves, fails)
}

// a44Insert edits document 0 of st by seed without moving items: a new
// item inserted in a list (mappings with nested collections, comments),
// an entry added to or removed from a mapping, an item removed.
func a44Insert(st *Stream, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 45))
	var colls []*yaml.Node
	anyNode(st.Docs[0], func(m *yaml.Node) bool {
		if (m.Kind == yaml.MappingNode || m.Kind == yaml.SequenceNode) && m.Style&yaml.FlowStyle == 0 {
			colls = append(colls, m)
		}
		return false
	})
	if len(colls) == 0 {
		return
	}
	c := colls[r.IntN(len(colls))]
	str := NewString
	newMap := func() *yaml.Node {
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for i := range 1 + r.IntN(3) {
			var v *yaml.Node
			switch r.IntN(6) {
			case 0:
				v = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{str("a"), str("b")}}
			case 1:
				v = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{str("in"), str("1")}}
			case 2:
				v = str("two\nlines\n")
			case 3:
				v = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: []*yaml.Node{str("a")}}
			case 4:
				v = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{
					{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{str("p"), str("1"), str("q"), str("2")}}}}
			default:
				v = str(fmt.Sprint("x", i))
			}
			k := str(fmt.Sprint("n", i))
			if i > 0 && r.IntN(5) == 0 {
				k.HeadComment = "# about n"
			}
			if r.IntN(6) == 0 && v.Kind == yaml.ScalarNode {
				v.LineComment = "# lc"
			}
			m.Content = append(m.Content, k, v)
		}
		return m
	}
	switch {
	case c.Kind == yaml.SequenceNode && r.IntN(4) > 0:
		var it *yaml.Node
		switch r.IntN(4) {
		case 0:
			it = str("new")
		default:
			it = newMap()
		}
		c.Content = slices.Insert(c.Content, r.IntN(len(c.Content)+1), it)
	case c.Kind == yaml.SequenceNode:
		if len(c.Content) > 1 {
			i := r.IntN(len(c.Content))
			c.Content = slices.Delete(c.Content, i, i+1)
		}
	case r.IntN(2) == 0 && len(c.Content) > 2:
		j := r.IntN(len(c.Content) / 2)
		c.Content = slices.Delete(c.Content, 2*j, 2*j+2)
	default:
		j := r.IntN(len(c.Content)/2 + 1)
		if MapGet(c, fmt.Sprint("z", j)) == nil {
			v := str("0")
			if r.IntN(3) == 0 {
				v = newMap()
			}
			c.Content = slices.Insert(c.Content, 2*j, str(fmt.Sprint("z", j)), v)
		}
	}
}

// TestAttack44Inserts: a44Gen's documents, a44Insert's edits, a44Check's
// checks.
func TestAttack44Inserts(t *testing.T) {
	s1, n := a44Scale(45, 1500)
	g := &a44Gen{r: rand.New(rand.NewPCG(s1, 2))}
	docs, edits, inPlace, fails := 0, 0, 0, 0
	seen := 0 // (raceSkip)
	for i := range n {
		in := g.doc()
		if _, err := Read([]byte(in), Options{}); err != nil {
			continue
		}
		docs++
		for e := range 4 {
			if raceSkip(&seen) {
				continue
			}
			seed := uint64(i*10 + e)
			res, bad := a44Check(in, func(st *Stream) { a44Insert(st, seed) })
			edits++
			if res.inPlace {
				inPlace++
			}
			if bad != "" {
				fails++
				if fails <= 15 {
					t.Errorf("input %q, edit seed %d: %s", in, seed, bad)
				}
			}
		}
	}
	t.Logf("%d documents, %d edits, %d written in place, %d failed", docs, edits, inPlace, fails)
}

// TestAttack44Hostile: hostileGen's streams (comment lines between keys
// and values, properties alone on lines, empty items), a44Edit's and
// a44Insert's edits, a44Check's checks.
func TestAttack44Hostile(t *testing.T) {
	s1, n := a44Scale(46, 1000)
	g := &hostileGen{r: rand.New(rand.NewPCG(s1, 3))}
	docs, edits, inPlace, fails := 0, 0, 0, 0
	seen := 0 // (raceSkip)
	for i := range n {
		in := g.stream()
		if _, err := Read([]byte(in), Options{}); err != nil {
			continue
		}
		docs++
		for e := range 4 {
			if raceSkip(&seen) {
				continue
			}
			seed := uint64(i*10 + e)
			edit := func(st *Stream) { a44Edit(st, seed) }
			if e%2 == 1 {
				edit = func(st *Stream) { a44Insert(st, seed) }
			}
			res, bad := a44Check(in, edit)
			edits++
			if res.inPlace {
				inPlace++
			}
			if bad != "" {
				fails++
				if fails <= 15 {
					t.Errorf("input %q, edit %d seed %d: %s", in, e%2, seed, bad)
				}
			}
		}
	}
	t.Logf("%d streams, %d edits, %d written in place, %d failed", docs, edits, inPlace, fails)
}

// TestAttack44MovedAnchors: an item moved in a list whose text holds an
// anchor or an alias is not its lines copied where it goes (moveItems):
// an anchor moved past an alias of it leaves the alias naming no node,
// or another node of the anchor's name ("- &x a\n- *x\n- &x b\n- *x"
// reordered was written "- &x a\n- &x b\n- *x\n- *x", which reads as
// a, b, b, b); as renderedEntry, such an item is left to the general
// way, which writes the edited values (attack, 2026-11-30).
func TestAttack44MovedAnchors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		edit     func(*Stream)
		want     string
	}{
		{"an anchor moved past its alias", "l:\n- name: &a1 v\n- b\n- *a1\n", a44Order("l", 1, 2, 0), ""},
		// the item holding the alias is written by the writer, as its value
		// (the tree holds no alias)
		{"an anchor moved past another of its name", "l:\n- &x a\n- *x\n- &x b\n- *x\n", a44Order("l", 0, 3, 2, 1),
			"l:\n- &x a\n- &x b\n- *x\n- a\n"},
		{"an item holding an alias moved before its anchor", "l:\n- b\n- &x a\n- k: *x\n", a44Order("l", 2, 0, 1), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkEntryEdit(t, c.in, c.edit, c.want)
			if _, bad := a44Check(c.in, c.edit); bad != "" {
				t.Error(bad)
			}
		})
	}
}

// TestAttack44CommentLines: entries removed and added next to comment
// lines at their column and left of it (the relaxed rules: read back at
// once), through a44Check.
func TestAttack44CommentLines(t *testing.T) {
	del := func(path string, i int) func(*Stream) {
		return func(st *Stream) {
			var p []string
			if path != "" {
				p = a44Path(path)
			}
			n := a44Seq(st, 0, p...)
			if n.Kind == yaml.MappingNode {
				n.Content = slices.Delete(n.Content, 2*i, 2*i+2)
			} else {
				n.Content = slices.Delete(n.Content, i, i+1)
			}
		}
	}
	addKey := func(path string, i int) func(*Stream) {
		return func(st *Stream) {
			var p []string
			if path != "" {
				p = a44Path(path)
			}
			n := a44Seq(st, 0, p...)
			n.Content = slices.Insert(n.Content, 2*i, NewString("z"), NewString("0"))
		}
	}
	for _, c := range []struct {
		in   string
		edit func(*Stream)
	}{
		{"a: 1\nb: 2\n# c\n---\n# d\nc: 3\n", del("", 1)},
		{"a: 1\nb: 2\n# c\n\n---\nc: 3\n", del("", 1)},
		{"a: 1\nb: 2\n# c\n...\n---\nc: 3\n", del("", 1)},
		{"a: 1\nb: 2\n# c\n---\nc: 3\n", addKey("", 2)},
		{"a: 1\nb: 2\n# c\n---\nc: 3\n", addKey("", 1)},
		{"a:\n  b: 1\n  # c\n  d: 2\n# e\nf: 1\n", del("a", 1)},
		{"a:\n  b: 1\n  # c\n  d: 2\n# e\nf: 1\n", addKey("a", 2)},
		{"a:\n  b: 1\n  # c\n  d: 2\n# e\nf: 1\n", addKey("a", 1)},
		{"a:\n  b: 1\n  # c\n  d: 2\n# e\nf: 1\n", del("a", 0)},
		{"a:\r\n  b: 1\r\n  # c\r\n  d: 2\r\n# e\r\nf: 1\r\n", del("a", 0)},
		{"a:\r\n  b: 1\r\n  # c\r\n  d: 2\r\n# e\r\nf: 1\r\n", addKey("a", 1)},
		{"a:\n  b:\n    x: 1\n  # c\n  d: 2\n", del("a.b", 0)},
		{"a:\n  b:\n    x: 1\n    y: 2\n  # c\n  d: 2\n", del("a.b", 1)},
		{"a:\n  b:\n    x: 1\n    y: 2\n  # c\n  d: 2\n", addKey("a.b", 2)},
		{"a:\n  b:\n    x: 1\n    y: 2\n    # c\n  d: 2\n", addKey("a.b", 2)},
		{"a:\n  b:\n    x: 1\n    y: 2\n    # c\n  d: 2\n", del("a.b", 1)},
		{"a:\n  b:\n    x: 1\n    y: 2\n    # c\n\n  d: 2\n", del("a.b", 1)},
		{"l:\n- a: 1\n  b: 2\n  # c\n- d\n", del("l.0", 1)},
		{"l:\n- a: 1\n  b: 2\n  # c\n- d\n", addKey("l.0", 2)},
		{"l:\n- a: 1\n  b: 2\n# c\n- d\n", addKey("l.0", 2)},
		{"l:\n- a: 1\n  b: 2\n# c\n- d\n", del("l.0", 1)},
		{"- a: 1\n  b: 2\n  # c\n", del("0", 1)},
		{"- a: 1\n  b: 2\n  # c\n", addKey("0", 2)},
		{"- a: 1\n  b: 2\n  # c\n---\n- x\n", addKey("0", 2)},
		{"a: 1\nb: |\n  x\n# c\nd: 1\n", del("", 1)},
		{"a: 1\nb: |+\n  x\n\n# c\nd: 1\n", del("", 1)},
		{"a: 1\nb: |+\n  x\n\n# c\nd: 1\n", addKey("", 2)},
		{"a: 1\nb: 2 # lc\n# c\nd: 1\n", del("", 1)},
		{"a: 1 # la\n# c\nb: 2\n", del("", 0)},
		{"a: 1\n# c\n# d\nb: 2\n", addKey("", 1)},
		{"a: 1\n#\nb: 2\n", addKey("", 1)},
		{"a: 1\n\n# c\nb: 2\n", addKey("", 1)},
		{"a: 1\n# c\n\nb: 2\n", addKey("", 1)},
		{"a: 1\n# c\n\nb: 2\n", del("", 0)},
	} {
		res, bad := a44Check(c.in, c.edit)
		if bad != "" {
			t.Errorf("%q: %s", c.in, bad)
			continue
		}
		t.Logf("%q -> %v %q (%v)", c.in, res.inPlace, res.direct, res.outcomes)
	}
}

// a44Path splits a path of keys and item indexes at its dots.
func a44Path(s string) []string { return strings.Split(s, ".") }

// a44Scale returns the seed and count of a generated attack44 test:
// seed and n, or ATTACK44_SEED's and ATTACK44_N's.
func a44Scale(seed uint64, n int) (uint64, int) {
	if v := os.Getenv("ATTACK44_SEED"); v != "" {
		fmt.Sscan(v, &seed)
		fmt.Sscan(os.Getenv("ATTACK44_N"), &n)
	}
	return seed, n
}
