package tree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// Attack of 2026-11-30 on e3c01b4 and fb699af (tree/inplace.go): foot
// comment lines cut with a removed last item left of its column
// (footLines), entries added after an entry whose end is cut (addedLines),
// alias items whose copy changed written anew expanded (itemEdits), and
// mappings with a merge key whose entries changed written anew, merged
// entries written out (entryValueEdits).
//
// Every case (a53Check): Read, every document loaded, Snapshot, an edit of
// kmerge's trees (an alias item's copy Cloned first, as patches do), then
// WriteYAML (the same bytes as preserved). The output must read, with Read,
// as the edited trees (values, tags, key order: Equal, sameKeyOrder), and
// with yaml.v3 (aliases and merge keys resolved) as their values; a read
// error (an alias to a vanished anchor) fails. A document written by byte
// ranges (outcome replaced) must hold every comment where the edited tree
// has it (Read; footsMovedOnly let by), the stream the edited trees'
// comment lines, yaml.v3 the comment lines Read finds in the output, and
// the lines changed (common leading and trailing lines aside) must lie in
// the span of the entries the case edits (from the line after the entry
// before, or the collection's line, to the line of the next node after
// the entry's subtree). No panic.
//
// A53_FULL=1 runs every systematic case and many more random ones; A53V=1
// logs every output written by byte ranges.

type a53Span struct {
	doc  int
	path []string // keys and item indexes, from the document's root
}

type a53Case struct {
	in    string
	edit  func(docs []*yaml.Node) bool
	spans []a53Span // nil: the lines are not checked
	what  string
	rule  string // "alias", "merge", "cut", "mixed"
}

type a53Stats struct {
	label                        string
	cases, skipped, inPlace, bad int
	byRule                       map[string]int // written by byte ranges, by rule
	outcomes                     map[outcome]int
	v3Only                       int // comment lines yaml.v3 alone reads otherwise (logged)
	seen                         int
	firstV3, firstOlder          []string
	older                        int
	linesChecked                 int
}

func (s *a53Stats) String() string {
	return fmt.Sprintf("%s: %d cases (%d skipped), outcomes %v, %d written by byte ranges (by rule %v; lines checked %d), %d yaml.v3-only comment differences (logged), %d comments moved by older ways (logged), %d bad",
		s.label, s.cases, s.skipped, s.outcomes, s.inPlace, s.byRule, s.linesChecked, s.v3Only, s.older, s.bad)
}

func (s *a53Stats) run(t *testing.T, c a53Case) {
	t.Helper()
	if raceSkip(&s.seen) {
		return
	}
	r := a53Check(c)
	if r.skip {
		s.skipped++
		return
	}
	s.cases++
	if s.outcomes == nil {
		s.outcomes, s.byRule = map[outcome]int{}, map[string]int{}
	}
	for _, o := range r.outcomes {
		s.outcomes[o]++
	}
	if r.inPlace {
		s.inPlace++
		s.byRule[c.rule]++
		if r.lines {
			s.linesChecked++
		}
		if os.Getenv("A53V") != "" {
			t.Logf("replaced: %q (%s) -> %q", c.in, c.what, r.out)
		}
	}
	if r.older != "" {
		s.older++
		if len(s.firstOlder) < 3 {
			s.firstOlder = append(s.firstOlder, fmt.Sprintf("%q (%s): %s: %q", c.in, c.what, r.older, r.out))
		}
	}
	if r.v3Only != "" {
		s.v3Only++
		if len(s.firstV3) < 3 {
			s.firstV3 = append(s.firstV3, fmt.Sprintf("%q (%s): %s: %q", c.in, c.what, r.v3Only, r.out))
		}
	}
	if r.bad != "" {
		if a53Known(c, r) != "" {
			return
		}
		s.bad++
		if s.bad <= 20 {
			t.Errorf("%s: %q (%s): %s: %q (outcomes %v)", s.label, c.in, c.what, r.bad, r.out, r.outcomes)
		}
	}
}

// a53Known names an accepted difference, or "".
func a53Known(c a53Case, r a53Result) string {
	return ""
}

type a53Result struct {
	skip     bool
	bad      string
	v3Only   string
	older    string // a comment moved by an older way (splice, rendering): logged
	out      []byte
	outcomes []outcome
	inPlace  bool
	lines    bool
}

func a53Decode(n *yaml.Node) (any, error) {
	var v any
	err := n.Decode(&v)
	return v, err
}

func a53Check(c a53Case) (r a53Result) {
	defer func() {
		if p := recover(); p != nil {
			r.bad = fmt.Sprintf("panic: %v", p)
		}
	}()
	in := c.in
	st, err := Read([]byte(in), Options{})
	if err != nil {
		return a53Result{skip: true}
	}
	if err := st.LoadAll(); err != nil {
		return a53Result{skip: true}
	}
	v3in, err := a48V3Docs([]byte(in))
	if err != nil || len(v3in) != len(st.Docs) {
		return a53Result{skip: true}
	}
	st.Snapshot()
	if !c.edit(st.Docs) {
		return a53Result{skip: true}
	}
	pre, outcomes, err := st.preserved()
	if err != nil {
		r.bad = "preserved: " + err.Error()
		return r
	}
	var b bytes.Buffer
	if err := st.WriteYAML(&b); err != nil {
		r.bad = "WriteYAML: " + err.Error()
		return r
	}
	out := b.Bytes()
	r.out, r.outcomes = out, outcomes
	if pre != nil && !bytes.Equal(pre, out) {
		r.bad = fmt.Sprintf("preserved wrote %q", pre)
		return r
	}
	for _, o := range outcomes {
		r.inPlace = r.inPlace || o == replaced
	}
	back, err := Read(out, Options{})
	if err != nil {
		r.bad = "Read: " + err.Error()
		return r
	}
	if err := back.LoadAll(); err != nil || len(back.Docs) != len(st.Docs) {
		r.bad = fmt.Sprintf("Read: %d documents (%v)", len(back.Docs), err)
		return r
	}
	for i := range st.Docs {
		if !Equal(back.Docs[i], st.Docs[i]) || !sameKeyOrder(back.Docs[i], st.Docs[i]) {
			r.bad = fmt.Sprintf("Read: document %d reads otherwise", i)
			return r
		}
	}
	v3, err := a48V3Docs(out)
	if err != nil || len(v3) != len(st.Docs) {
		r.bad = fmt.Sprintf("yaml.v3: %d documents (%v)", len(v3), err)
		return r
	}
	for i := range v3 {
		got, err := a53Decode(v3[i])
		if err != nil {
			r.bad = fmt.Sprintf("yaml.v3: document %d: %v", i, err)
			return r
		}
		want, err := a53Decode(st.Docs[i])
		if err != nil {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			r.bad = fmt.Sprintf("yaml.v3: document %d reads %v, want %v", i, got, want)
			return r
		}
	}
	if !r.inPlace {
		for i := range st.Docs {
			if d := a48Comments(back.Docs[i], st.Docs[i], ""); d != "" && !footsMovedOnly(back.Docs[i], st.Docs[i]) {
				r.older = fmt.Sprintf("document %d (outcome %v): comments moved: %s", i, outcomes[i], d)
			}
		}
		return r
	}
	crlf := strings.Contains(in, "\r\n")
	if crlf && !strings.Contains(strings.ReplaceAll(in, "\r\n", ""), "\n") && bytes.Contains(bytes.ReplaceAll(out, []byte("\r\n"), nil), []byte("\n")) {
		r.bad = "LF line ends in a CRLF text"
		return r
	}
	if !crlf && bytes.Contains(out, []byte("\r")) {
		r.bad = "CR in an LF text"
		return r
	}
	for i := range st.Docs {
		if outcomes[i] != replaced {
			continue
		}
		if d := a48Comments(back.Docs[i], st.Docs[i], ""); d != "" && !footsMovedOnly(back.Docs[i], st.Docs[i]) {
			r.bad = fmt.Sprintf("document %d: comments moved: %s", i, d)
			return r
		}
	}
	if !sameStreamComments(back.Docs, st.Docs) {
		r.bad = "comment lines lost or added (Read)"
		return r
	}
	// yaml.v3's comment lines of the output, as a set, are Read's
	var gl, wl []string
	for i := range v3 {
		gl, wl = commentLines(v3[i], gl), commentLines(back.Docs[i], wl)
	}
	slices.Sort(gl)
	slices.Sort(wl)
	if !slices.Equal(slices.Compact(gl), slices.Compact(wl)) {
		r.v3Only = fmt.Sprintf("yaml.v3 comment lines %q, Read's %q", gl, wl)
	}
	// the changed lines
	if c.spans != nil {
		from, to := -1, -1
		for _, sp := range c.spans {
			f, e, ok := a53SpanLines(v3in, sp)
			if !ok {
				from = -2
				break
			}
			if from == -1 || f < from {
				from = f
			}
			to = max(to, e)
		}
		if from >= 0 {
			r.lines = true
			li, lo := a53Lines(in), a53Lines(string(out))
			p := 0
			for p < len(li) && p < len(lo) && li[p] == lo[p] {
				p++
			}
			s := 0
			for s < len(li)-p && s < len(lo)-p && li[len(li)-1-s] == lo[len(lo)-1-s] {
				s++
			}
			// input lines p+1 .. len(li)-s (1-based) changed
			if p+1 <= len(li)-s && (p+1 < from || len(li)-s >= to) {
				r.bad = fmt.Sprintf("lines %d-%d changed, outside the edited entries' lines %d-%d", p+1, len(li)-s, from, to-1)
				return r
			}
		}
	}
	return r
}

func a53Lines(s string) []string {
	return strings.SplitAfter(s, "\n")
}

// a53Find resolves path in doc (a document node): the collection and the
// entry's index in it (a mapping's key index).
func a53Find(doc *yaml.Node, path []string) (*yaml.Node, int) {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	var parent *yaml.Node
	at := -1
	for _, p := range path {
		for n != nil && n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n == nil {
			return nil, -1
		}
		switch n.Kind {
		case yaml.MappingNode:
			i := MapIndex(n, p)
			if i < 0 {
				return nil, -1
			}
			parent, at, n = n, i, n.Content[i+1]
		case yaml.SequenceNode:
			i, err := strconv.Atoi(p)
			if err != nil || i >= len(n.Content) {
				return nil, -1
			}
			parent, at, n = n, i, n.Content[i]
		default:
			return nil, -1
		}
	}
	return parent, at
}

func a53Node(doc *yaml.Node, path []string) *yaml.Node {
	p, i := a53Find(doc, path)
	if p == nil {
		return nil
	}
	if p.Kind == yaml.MappingNode {
		return p.Content[i+1]
	}
	return p.Content[i]
}

// a53SpanLines returns the lines (1-based, [from, to)) of an entry of the
// source read by yaml.v3.
func a53SpanLines(docs []*yaml.Node, sp a53Span) (int, int, bool) {
	if sp.doc >= len(docs) {
		return 0, 0, false
	}
	p, i := a53Find(docs[sp.doc], sp.path)
	if p == nil {
		return 0, 0, false
	}
	step := 1
	if p.Kind == yaml.MappingNode {
		step = 2
	}
	var sub []*yaml.Node
	if step == 2 {
		sub = []*yaml.Node{p.Content[i], p.Content[i+1]}
	} else {
		sub = []*yaml.Node{p.Content[i]}
	}
	from := p.Line
	if i >= step {
		from = a53MaxLine(p.Content[i-1]) + 1
		if step == 2 {
			from = max(a53MaxLine(p.Content[i-2]), a53MaxLine(p.Content[i-1])) + 1
		}
	}
	last := 0
	from = min(from, sub[0].Line) // (a flow collection's entries share lines)
	in := map[*yaml.Node]bool{}
	for _, n := range sub {
		last = max(last, a53MaxLine(n))
		a53Mark(n, in)
	}
	to := 1 << 30
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || in[n] {
			return
		}
		if n.Kind != yaml.DocumentNode && n.Line > last && n.Line < to {
			to = n.Line
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, d := range docs {
		walk(d)
	}
	return from, max(to, last+1), true
}

func a53Mark(n *yaml.Node, in map[*yaml.Node]bool) {
	in[n] = true
	for _, c := range n.Content {
		a53Mark(c, in)
	}
}

func a53MaxLine(n *yaml.Node) int {
	m := n.Line
	for _, c := range n.Content {
		m = max(m, a53MaxLine(c))
	}
	return m
}

// a53Mutate changes n (a copy) by op; false: not applicable.
//
//	0 a scalar's value changed (the first scalar below)
//	1 an entry added (a scalar: written as a mapping)
//	2 the first entry removed (a scalar: written as a list)
//	3 the last entry removed
func a53Mutate(n *yaml.Node, op int) bool {
	h, l, f := n.HeadComment, n.LineComment, n.FootComment
	defer func() { n.HeadComment, n.LineComment, n.FootComment = h, l, f }()
	switch op {
	case 0:
		for n.Kind != yaml.ScalarNode {
			if len(n.Content) == 0 {
				return false
			}
			if n.Kind == yaml.MappingNode {
				n = n.Content[1]
			} else {
				n = n.Content[0]
			}
		}
		n.Value, n.Tag, n.Style = "edited", "!!str", 0
	case 1:
		switch n.Kind {
		case yaml.MappingNode:
			n.Content = append(n.Content, NewString("zz"), NewString("new"))
		case yaml.SequenceNode:
			n.Content = append(n.Content, NewString("new"))
		default:
			*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{NewString("zz"), NewString("new")}}
		}
	case 2, 3:
		step := 1
		if n.Kind == yaml.MappingNode {
			step = 2
		}
		switch {
		case n.Kind == yaml.ScalarNode:
			*n = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{NewString("s")}}
		case len(n.Content) < 2*step:
			return false
		case op == 2:
			n.Content = n.Content[step:]
		default:
			n.Content = n.Content[:len(n.Content)-step]
		}
	}
	return true
}

// a53Copy replaces the node at path by a Clone of it (an alias's copy, as
// patches do) and returns the clone.
func a53Copy(doc *yaml.Node, path []string) *yaml.Node {
	p, i := a53Find(doc, path)
	if p == nil {
		return nil
	}
	if p.Kind == yaml.MappingNode {
		i++
	}
	p.Content[i] = Clone(p.Content[i])
	return p.Content[i]
}

func a53Ind(n int) string { return strings.Repeat(" ", n) }

// a53Stream dresses a document's text: o selects what follows, the line
// ends and document markers.
//
//	0 as is  1 "m9: 1" after  2 "# end" after  3 no last line break
//	4 CRLF   5 "---" first and a second document  6 a second document
//	first    7 "# end" at column 2, no last line break
func a53Stream(body string, o int) (string, int) {
	switch o {
	case 1:
		return body + "m9: 1\n", 0
	case 2:
		return body + "# end\n", 0
	case 3:
		return strings.TrimSuffix(body, "\n"), 0
	case 4:
		return strings.ReplaceAll(body, "\n", "\r\n"), 0
	case 5:
		return "---\n" + body + "---\nz: 1\n", 0
	case 6:
		return "z: 1\n---\n" + body, 1
	case 7:
		return body + "  # end", 0
	}
	return body, 0
}

const a53Streams = 8

// a53Block writes an anchored value (&name) of kind k at column col (the
// block lines' indentation), after a key or a dash: " &name ..." and its
// lines.
//
//	0 scalar  1 flow list  2 flow mapping  3 block mapping  4 block list
//	5 block mapping with an anchor inside (&name_n)  6 block scalar
//	7 block mapping with a merge key (of base)
func a53Block(name string, k, col int) string {
	in := a53Ind(col)
	switch k {
	case 0:
		return " &" + name + " x\n"
	case 1:
		return " &" + name + " [1, 2]\n"
	case 2:
		return " &" + name + " {a: 1, b: 2}\n"
	case 3:
		return " &" + name + "\n" + in + "a: 1\n" + in + "b: 2\n"
	case 4:
		return " &" + name + "\n" + in + "- 1\n" + in + "- 2\n"
	case 5:
		return " &" + name + "\n" + in + "a: &" + name + "_n 1\n" + in + "b: 2\n"
	case 6:
		return " &" + name + " |\n" + in + "text\n"
	case 7:
		return " &" + name + "\n" + in + "<<: *base\n" + in + "b: 2\n"
	}
	panic(k)
}

const a53Kinds = 8

// a53AliasFrag is a fragment of a document's root mapping: a list (key
// "l"+sfx) holding aliases to an anchored value, with its edit.
type a53AliasParams struct {
	kind    int  // a53Block's
	inList  bool // the anchor on the list's first item, else an entry before
	place   int  // 0 "l:\n- ", 1 "l:\n  - ", 2 nested "o:\n  l:\n    - ", 3 in a list's item "l:\n- - ", 4 flow "l: [*c, *c, t]"
	gap     bool // "-   *c"
	comment int  // on the first alias: 0 none, 1 line, 2 head, 3 foot after it (at the item's column), 4 head at column 0
	aliases int  // 1..3
	edited  int  // bit i: alias i's copy changed; bit 3: the anchored item
	op      int  // a53Mutate's
	tail    bool // an item "- t" after the aliases
}

func a53AliasFrag(p a53AliasParams, sfx string) (string, func(docs []*yaml.Node, d int) bool, [][]string) {
	name := "c" + sfx
	l := "l" + sfx
	var b strings.Builder
	if p.kind == 7 {
		b.WriteString("base" + sfx + ": &base" + sfx + "\n  w: 0\n")
	}
	blk := func(col int) string {
		s := a53Block(name, p.kind, col)
		if p.kind == 7 {
			s = strings.ReplaceAll(s, "*base", "*base"+sfx)
		}
		return s
	}
	if !p.inList || p.place == 4 {
		b.WriteString(name + ":" + blk(2))
	}
	var listPath []string
	var dash string
	col := 0 // the dash's column
	switch p.place {
	case 0:
		b.WriteString(l + ":\n")
		listPath = []string{l}
	case 1:
		b.WriteString(l + ":\n")
		col = 2
		listPath = []string{l}
	case 2:
		b.WriteString("o" + sfx + ":\n  " + l + ":\n")
		col = 4
		listPath = []string{"o" + sfx, l}
	case 3:
		b.WriteString(l + ":\n")
		col = 2
		listPath = []string{l, "0"}
	}
	dash = "- "
	if p.gap {
		dash = "-   "
	}
	if p.place == 4 {
		items := []string{}
		for range p.aliases {
			items = append(items, "*"+name)
		}
		if p.tail {
			items = append(items, "t")
		}
		lc := ""
		if p.comment == 1 {
			lc = " # lc"
		}
		b.WriteString(l + ": [" + strings.Join(items, ", ") + "]" + lc + "\n")
		listPath = []string{l}
	} else {
		first := true
		item := func(text string) {
			if first && p.place == 3 {
				b.WriteString("- " + a53Ind(col-2))
			} else {
				b.WriteString(a53Ind(col))
			}
			first = false
			b.WriteString(dash + text)
		}
		if p.inList {
			item(strings.TrimPrefix(blk(col+len(dash)), " "))
		}
		for a := range p.aliases {
			if a == 0 && p.comment == 2 && !(first && p.place == 3) {
				b.WriteString(a53Ind(col) + "# h\n")
			}
			if a == 0 && p.comment == 4 && !(first && p.place == 3) {
				b.WriteString("# h0\n")
			}
			lc := ""
			if a == 0 && p.comment == 1 {
				lc = " # lc"
			}
			item("*" + name + lc + "\n")
			if a == 0 && p.comment == 3 {
				b.WriteString(a53Ind(col) + "# f\n")
			}
		}
		if p.tail {
			item("t\n")
		}
	}
	off := 0
	if p.inList && p.place != 4 {
		off = 1
	}
	var spans [][]string
	for a := range p.aliases {
		if p.edited&(1<<a) != 0 {
			spans = append(spans, append(slices.Clone(listPath), strconv.Itoa(a+off)))
		}
	}
	if p.edited&8 != 0 {
		if p.inList && p.place != 4 {
			spans = append(spans, append(slices.Clone(listPath), "0"))
		} else {
			spans = append(spans, []string{name})
		}
	}
	edit := func(docs []*yaml.Node, d int) bool {
		for a := range p.aliases {
			if p.edited&(1<<a) != 0 {
				c := a53Copy(docs[d], append(slices.Clone(listPath), strconv.Itoa(a+off)))
				if c == nil || !a53Mutate(c, p.op) {
					return false
				}
			}
		}
		if p.edited&8 != 0 {
			path := []string{name}
			if p.inList && p.place != 4 {
				path = append(slices.Clone(listPath), "0")
			}
			n := a53Node(docs[d], path)
			if n == nil || !a53Mutate(n, p.op) {
				return false
			}
		}
		return true
	}
	return b.String(), edit, spans
}

// a53MergeParams: a mapping with a merge key, and its edit.
type a53MergeParams struct {
	form  int // 0 "<<: *b", 1 "<<: [*a, *b]", 2 "<<: [*b]", 3 "<<: *b # lc", 4 "\"<<\": *b" (no merge key), 5 "<<: *f" (a flow base)
	pos   int // the merge key: 0 first, 1 after "p", 2 last
	extra int // 0 none, 1 "x: 5" (overrides), 2 "q: *s", 3 "r: &r 3" (+ "u: *r" after), 4 head comment on p, 5 "p: 2 # lc", 6 block scalar, 7 flow value, 8 nested mapping, 9 head comment on "<<"
	place int // 0 entry "c:", 1 a list's item "l:\n- ", 2 nested "o:\n  c:\n    "
	op    int // 0 p changed, 1 x (merged) changed, 2 p removed, 3 x removed, 4 zz added, 5 y (merged from b) changed, 6 every merged entry removed
}

func a53MergeFrag(p a53MergeParams, sfx string) (string, func(docs []*yaml.Node, d int) bool, [][]string) {
	var b strings.Builder
	bn, an, fn, sn := "b"+sfx, "a"+sfx, "f"+sfx, "s"+sfx
	b.WriteString(bn + ": &" + bn + "\n  x: 1\n  y: 2\n")
	b.WriteString(an + ": &" + an + "\n  w: 0\n  x: 9\n")
	b.WriteString(fn + ": &" + fn + " {x: 1, y: 2}\n")
	if p.extra == 2 {
		b.WriteString(sn + ": &" + sn + " sv\n")
	}
	var col int
	var path []string
	var head string
	switch p.place {
	case 0:
		head = "c" + sfx + ":\n"
		col = 2
		path = []string{"c" + sfx}
	case 1:
		head = "l" + sfx + ":\n"
		col = 2
		path = []string{"l" + sfx, "0"}
	case 2:
		head = "o" + sfx + ":\n  c" + sfx + ":\n"
		col = 4
		path = []string{"o" + sfx, "c" + sfx}
	}
	in := a53Ind(col)
	merge := map[int]string{0: "<<: *" + bn, 1: "<<: [*" + an + ", *" + bn + "]", 2: "<<: [*" + bn + "]", 3: "<<: *" + bn + " # lc",
		4: "\"<<\": *" + bn, 5: "<<: *" + fn}[p.form]
	var lines []string
	if p.extra == 9 {
		lines = append(lines, "# mh")
	}
	lines = append(lines, merge)
	pl := []string{"p: 2"}
	switch p.extra {
	case 1:
		pl = append(pl, "x: 5")
	case 2:
		pl = append(pl, "q: *"+sn)
	case 3:
		pl = append(pl, "r: &r"+sfx+" 3")
	case 4:
		pl = []string{"# ph", "p: 2"}
	case 5:
		pl = []string{"p: 2 # lc"}
	case 6:
		pl = append(pl, "t: |", "  text")
	case 7:
		pl = append(pl, "v: [1, {k: 2}]")
	case 8:
		pl = append(pl, "n:", "  k: v")
	}
	switch p.pos {
	case 0:
		lines = append(lines, pl...)
	case 1:
		lines = append(pl, lines...)
	case 2:
		lines = append(pl, lines...)
		lines = append(lines, "z0: 0")
		lines[len(lines)-1], lines[len(lines)-2] = lines[len(lines)-2], lines[len(lines)-1]
	}
	b.WriteString(head)
	for i, ln := range lines {
		if p.place == 1 && i == 0 {
			b.WriteString("- " + ln + "\n")
			continue
		}
		b.WriteString(in + ln + "\n")
	}
	if p.extra == 3 {
		b.WriteString("u" + sfx + ": *r" + sfx + "\n")
	}
	if p.place == 1 {
		b.WriteString("- t\n")
	}
	edit := func(docs []*yaml.Node, d int) bool {
		m := a53Node(docs[d], path)
		if m == nil || m.Kind != yaml.MappingNode {
			return false
		}
		set := func(k string) bool {
			v := MapGet(m, k)
			if v == nil || v.Kind != yaml.ScalarNode {
				return false
			}
			v.Value, v.Tag, v.Style = "edited", "!!str", 0
			return true
		}
		switch p.op {
		case 0:
			return set("p")
		case 1:
			return set("x")
		case 2:
			return MapDelete(m, "p")
		case 3:
			return MapDelete(m, "x")
		case 4:
			m.Content = append(m.Content, NewString("zz"), NewString("new"))
		case 5:
			return set("y")
		case 6:
			ok := false
			for _, k := range []string{"x", "y", "w"} {
				ok = MapDelete(m, k) || ok
			}
			return ok
		}
		return true
	}
	return b.String(), edit, [][]string{path}
}

// a53CutParams: a list's last items removed, with foot comment lines below
// at several columns, and entries added after.
type a53CutParams struct {
	col    int // the outer list's dash column: 0 or 2
	inner  int // the inner list's dash column, relative to the item's keys: 0 or 2
	foots  int // the foot comment lines' columns: an index into a53FootSets
	blank  bool
	after  int // 0 nothing, 1 "more: 1" in the item, 2 another item, 3 comment line at column 0 ("# end" is a53Stream's)
	op     int // 0 last arg removed, 1 last two, 2 last arg removed + zz added in the item, 3 + zz added at the root, 4 args removed, 5 the last arg of both items removed (two items), 6 last arg removed + an item added to the outer list
	twoArg bool
	arg    int // the args' kind: 0 plain, 1 block scalar, 2 block scalar keeping its line breaks (|+), 3 a mapping, 4 an alias (to "x": &x0 at the top), 5 a flow list
}

// a53Arg writes an arg item of kind k, its dash at column c.
func a53Arg(k, c int, v string) string {
	in := a53Ind(c)
	switch k {
	case 1:
		return in + "- |\n" + in + "  " + v + "\n"
	case 2:
		return in + "- |+\n" + in + "  " + v + "\n\n"
	case 3:
		return in + "- k: " + v + "\n" + in + "  j: w\n"
	case 4:
		return in + "- *x0\n"
	case 5:
		return in + "- [" + v + "]\n"
	}
	return in + "- " + v + "\n"
}

var a53FootSets = [][]int{{}, {-2}, {0}, {-2, -4}, {2}, {0, -2}, {-4, 0}, {-2, 2}}

func a53CutFrag(p a53CutParams, sfx string) (string, func(docs []*yaml.Node, d int) bool, [][]string) {
	var b strings.Builder
	l := "l" + sfx
	if p.arg == 4 {
		b.WriteString("x" + sfx + ": &x0 xv\n")
	}
	b.WriteString(l + ":\n")
	kc := p.col + 2 // the item's keys' column
	ic := kc + p.inner
	items := 1
	if p.op == 5 || p.after == 2 {
		items = 2
	}
	for it := range items {
		b.WriteString(a53Ind(p.col) + "- name: n" + strconv.Itoa(it) + "\n")
		b.WriteString(a53Ind(kc) + "args:\n")
		b.WriteString(a53Arg(p.arg, ic, "p"))
		if p.twoArg {
			b.WriteString(a53Arg(p.arg, ic, "q"))
		}
		b.WriteString(a53Arg(p.arg, ic, "r"))
		if p.blank {
			b.WriteString("\n")
		}
		for k, fc := range a53FootSets[p.foots] {
			c := ic + fc
			if c < 0 {
				c = 0
			}
			b.WriteString(a53Ind(c) + "# f" + strconv.Itoa(k) + "\n")
		}
		if p.after == 1 {
			b.WriteString(a53Ind(kc) + "more: 1\n")
		}
	}
	if p.after == 3 {
		b.WriteString("# out\n")
	}
	edit := func(docs []*yaml.Node, d int) bool {
		root := Root(docs[d])
		lst := MapGet(root, l)
		if lst == nil || lst.Kind != yaml.SequenceNode {
			return false
		}
		cut := func(it, n int) bool {
			if it >= len(lst.Content) {
				return false
			}
			args := MapGet(lst.Content[it], "args")
			if args == nil || len(args.Content) < n+1 {
				return false
			}
			args.Content = args.Content[:len(args.Content)-n]
			return true
		}
		switch p.op {
		case 0:
			return cut(0, 1)
		case 1:
			return cut(0, 2)
		case 2:
			if !cut(0, 1) {
				return false
			}
			MapSet(lst.Content[0], "zz", NewString("new"))
		case 3:
			if !cut(0, 1) {
				return false
			}
			MapSet(root, "zz", NewString("new"))
		case 4:
			return MapDelete(lst.Content[0], "args")
		case 5:
			return cut(0, 1) && cut(1, 1)
		case 6:
			if !cut(len(lst.Content)-1, 1) {
				return false
			}
			lst.Content = append(lst.Content, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{NewString("name"), NewString("added")}})
		}
		return true
	}
	var spans [][]string
	if p.op != 3 && p.op != 6 {
		spans = [][]string{{l, "0"}}
		if p.op == 5 {
			spans = append(spans, []string{l, "1"})
		}
	}
	return b.String(), edit, spans
}

func a53Case1(body string, frag func(docs []*yaml.Node, d int) bool, spans [][]string, o int, rule, what string) a53Case {
	in, d := a53Stream(body, o)
	var sp []a53Span
	for _, s := range spans {
		sp = append(sp, a53Span{doc: d, path: s})
	}
	if spans == nil {
		sp = nil
	}
	return a53Case{in: in, edit: func(docs []*yaml.Node) bool { return d < len(docs) && frag(docs, d) }, spans: sp, what: what, rule: rule}
}

func a53Full() bool { return os.Getenv("A53_FULL") != "" }

func TestAttack53Aliases(t *testing.T) {
	s := &a53Stats{label: "aliases"}
	r := rand.New(rand.NewPCG(53, 1))
	for kind := range a53Kinds {
		for _, inList := range []bool{false, true} {
			for place := range 5 {
				for _, gap := range []bool{false, true} {
					for comment := range 5 {
						for aliases := 1; aliases <= 3; aliases++ {
							for _, edited := range []int{1, 2, 3, 4, 8 | 2, 8 | 1} {
								if edited&^8 >= 1<<aliases {
									continue
								}
								for op := range 4 {
									if (place == 4 && gap) || (place == 4 && comment > 1) {
										continue
									}
									p := a53AliasParams{kind: kind, inList: inList, place: place, gap: gap, comment: comment, aliases: aliases, edited: edited, op: op, tail: r.IntN(2) == 0}
									o := r.IntN(a53Streams)
									if !a53Full() && r.IntN(3) != 0 {
										continue
									}
									body, edit, spans := a53AliasFrag(p, "")
									if kind == 5 && r.IntN(2) == 0 {
										body += "m: *c_n\n"
									}
									s.run(t, a53Case1(body, edit, spans, o, "alias", fmt.Sprintf("%+v stream %d", p, o)))
								}
							}
						}
					}
				}
			}
		}
	}
	t.Log(s)
	for _, x := range s.firstV3 {
		t.Log("yaml.v3 alone: ", x)
	}
	for _, x := range s.firstOlder {
		t.Log("older way: ", x)
	}
	if s.inPlace < raceScaled(500) {
		t.Errorf("only %d written by byte ranges", s.inPlace)
	}
}

func TestAttack53Merges(t *testing.T) {
	s := &a53Stats{label: "merges"}
	r := rand.New(rand.NewPCG(53, 2))
	for form := range 6 {
		for pos := range 3 {
			for extra := range 10 {
				for place := range 3 {
					for op := range 7 {
						for o := range a53Streams {
							if !a53Full() && r.IntN(3) != 0 {
								continue
							}
							p := a53MergeParams{form: form, pos: pos, extra: extra, place: place, op: op}
							body, edit, spans := a53MergeFrag(p, "")
							s.run(t, a53Case1(body, edit, spans, o, "merge", fmt.Sprintf("%+v stream %d", p, o)))
						}
					}
				}
			}
		}
	}
	t.Log(s)
	for _, x := range s.firstV3 {
		t.Log("yaml.v3 alone: ", x)
	}
	for _, x := range s.firstOlder {
		t.Log("older way: ", x)
	}
	if s.inPlace < raceScaled(500) {
		t.Errorf("only %d written by byte ranges", s.inPlace)
	}
}

func TestAttack53Cuts(t *testing.T) {
	s := &a53Stats{label: "cuts"}
	for col := 0; col <= 2; col += 2 {
		for inner := 0; inner <= 2; inner += 2 {
			for foots := range a53FootSets {
				for _, blank := range []bool{false, true} {
					for after := range 4 {
						for op := range 7 {
							for _, two := range []bool{false, true} {
								for o := range a53Streams {
									arg := 0
									if a53Full() || (col+inner+foots+after+op+o)%3 == 0 {
										arg = (foots + after + op + o) % 6
									}
									p := a53CutParams{col: col, inner: inner, foots: foots, blank: blank, after: after, op: op, twoArg: two, arg: arg}
									body, edit, spans := a53CutFrag(p, "")
									s.run(t, a53Case1(body, edit, spans, o, "cut", fmt.Sprintf("%+v stream %d", p, o)))
								}
							}
						}
					}
				}
			}
		}
	}
	t.Log(s)
	for _, x := range s.firstV3 {
		t.Log("yaml.v3 alone: ", x)
	}
	for _, x := range s.firstOlder {
		t.Log("older way: ", x)
	}
	if s.inPlace < raceScaled(500) {
		t.Errorf("only %d written by byte ranges", s.inPlace)
	}
}

// TestAttack53Random: documents of two to four fragments (aliases, merge
// keys, cuts) with random parameters, edited together.
func TestAttack53Random(t *testing.T) {
	s := &a53Stats{label: "random"}
	n := 4000
	if a53Full() {
		n = 60000
	}
	r := rand.New(rand.NewPCG(53, 3))
	for range n {
		k := 2 + r.IntN(3)
		var body strings.Builder
		var edits []func(docs []*yaml.Node, d int) bool
		var spans [][]string
		var what []string
		unbounded := false
		for f := range k {
			sfx := strconv.Itoa(f)
			var txt string
			var e func(docs []*yaml.Node, d int) bool
			var sp [][]string
			switch r.IntN(3) {
			case 0:
				p := a53AliasParams{kind: r.IntN(a53Kinds), inList: r.IntN(2) == 0, place: r.IntN(5), gap: r.IntN(2) == 0, comment: r.IntN(5),
					aliases: 1 + r.IntN(3), op: r.IntN(4), tail: r.IntN(2) == 0}
				if p.place == 4 {
					p.gap, p.comment = false, r.IntN(2)
				}
				p.edited = r.IntN(1<<p.aliases) | 8*r.IntN(2)
				txt, e, sp = a53AliasFrag(p, sfx)
				what = append(what, fmt.Sprintf("alias %+v", p))
			case 1:
				p := a53MergeParams{form: r.IntN(6), pos: r.IntN(3), extra: r.IntN(10), place: r.IntN(3), op: r.IntN(7)}
				txt, e, sp = a53MergeFrag(p, sfx)
				if r.IntN(3) == 0 {
					e, sp = func([]*yaml.Node, int) bool { return true }, [][]string{}
				}
				what = append(what, fmt.Sprintf("merge %+v", p))
			case 2:
				p := a53CutParams{col: 2 * r.IntN(2), inner: 2 * r.IntN(2), foots: r.IntN(len(a53FootSets)), blank: r.IntN(4) == 0, after: r.IntN(4), op: r.IntN(7), twoArg: r.IntN(2) == 0, arg: r.IntN(6)}
				if p.arg == 4 && sfx != "0" {
					p.arg = 0 // (one anchor x0)
				}
				if p.op == 3 {
					p.op = 0
				}
				txt, e, sp = a53CutFrag(p, sfx)
				what = append(what, fmt.Sprintf("cut %+v", p))
			}
			body.WriteString(txt)
			edits = append(edits, e)
			unbounded = unbounded || sp == nil
			spans = append(spans, sp...)
		}
		if unbounded {
			spans = nil
		}
		o := r.IntN(a53Streams)
		all := func(docs []*yaml.Node, d int) bool {
			for _, e := range edits {
				if !e(docs, d) {
					return false
				}
			}
			return true
		}
		// (the lines of several fragments are not bounded one by one: the
		// union of their spans)
		s.run(t, a53Case1(body.String(), all, spans, o, "mixed", fmt.Sprintf("%s stream %d", strings.Join(what, "; "), o)))
	}
	t.Log(s)
	for _, x := range s.firstV3 {
		t.Log("yaml.v3 alone: ", x)
	}
	for _, x := range s.firstOlder {
		t.Log("older way: ", x)
	}
}
