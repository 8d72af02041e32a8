package tree

import (
	"bytes"

	yaml "go.yaml.in/yaml/v3"
)

// Writing an edited document by rendering only what changed.
//
// preserved's general way to write an edited document renders the whole
// document twice with the writer (its snapshot and the edited tree)
// and lines the renderings up with the source text. Most edits change a
// few entries of a large document: rerender finds them by comparing the
// snapshot with the edited tree (the units: the deepest mapping entries
// or sequence items that hold every change below them, in a block
// collection whose keys or items are otherwise the same), renders each
// unit alone, old and new, in a document of its ancestors (one entry each,
// so that it gets its indentation, and the place of its first line after
// a "- " when it is the first entry of a sequence item), and writes the
// source text with each unit's lines replaced by its new rendering.
//
// A unit's old rendering must be the source's text of it, line for line,
// and every line of the source must be indented as yaml.v3 indents it
// (laidOut), or rerender gives up (and preserved writes the document its
// general way): a unit is replaced only where the source is what yaml.v3
// writes for it, among lines indented as yaml.v3 indents them. yaml.v3
// writes a block entry the same wherever its ancestors put it, which makes
// the result what the general way gives: for a source that is yaml.v3's
// rendering (YAML written by a program), the rendering of the edited
// tree; for a hand-written source, the source with the changed lines
// replaced, as the splice writes them when the lines around them are
// indented as yaml.v3 indents them (it indents new lines like the source
// lines around them). Foot comments are the exception (one makes the
// emitter write a blank line before what follows it), so a unit that has
// one gives up too. TestRerender and FuzzRerender compare the two ways.

// unitOf is a part of a document rerender writes anew: entries of a
// mapping or items of a sequence, one after the other (their parent's
// children from..to in the snapshot, the same place's children in the
// edited tree), with the ancestors of the parent.
type unitOf struct {
	path           []*yaml.Node // the collections from the root down to the parent (of the edited tree)
	index          []int        // in each but the parent, the index of the child on the way (of the key, in a mapping)
	oldP, newP     *yaml.Node   // the parent in the snapshot and in the edited tree
	oldFrom, oldTo int          // the unit's children of oldP (indexes in Content)
	newFrom, newTo int          // and of newP
}

// rerender returns the text of an edited document, whose source text is
// chunk (starting at line first of the stream's source), written by
// rendering only the parts that changed; ok is false when that cannot be
// done, and the document must be written otherwise.
//
// proven says that the text need not be read back to know it reads as the
// edited document, comments included: every unit, old and new, was written
// in the plain shapes (appendDocumentPlain: no scalar over several lines,
// no block scalar), and its new rendering, read back in the document of
// its ancestors, is that document. The source reads as the snapshot, the
// units' old renderings are its lines, which are laid out as yaml.v3 lays
// them out, and everything else of the edited tree is the snapshot's: each
// unit's lines, replaced by lines that read as its new entries or items at
// the same place, read as those, and the lines around them read as they
// did (a line after a unit is a sibling of it, or of an ancestor, or a
// comment or a blank line, which no value of the writer's takes in).
func (s *Stream) rerender(chunk []byte, first int, snap, doc *yaml.Node) (text []byte, proven, ok bool) {
	if bytes.IndexByte(chunk, '\r') >= 0 {
		// Lines that all end with CRLF are rerendered as the lines they
		// are without the CRs, which are put back at the end of every
		// line written. yaml.v3 reads a CRLF after a comment otherwise
		// than an LF (comment.go), so such a text is read back.
		lf, ok := withoutCRs(chunk)
		if !ok {
			return nil, false, false
		}
		text, _, ok := s.rerender(lf, first, snap, doc)
		if !ok {
			return nil, false, false
		}
		return bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n")), false, true
	}
	if len(chunk) == 0 || chunk[len(chunk)-1] != '\n' {
		return nil, false, false
	}
	if lentLines(chunk) != nil {
		// comments the text lends the document before (lent.go): the
		// general way gives up on an edit that moves them (preservedWith),
		// and so must this one (FuzzRerender found "---\n#\n\n#\nk:" with k
		// deleted, rerendered with the first comment kept where it was)
		return nil, false, false
	}
	if snap.Kind != yaml.DocumentNode || doc.Kind != yaml.DocumentNode || len(snap.Content) != 1 || len(doc.Content) != 1 ||
		snap.HeadComment != doc.HeadComment || snap.LineComment != doc.LineComment || snap.FootComment != "" || doc.FootComment != "" {
		return nil, false, false
	}
	var units []unitOf
	if whole := diffUnits(snap.Content[0], doc.Content[0], nil, nil, &units); whole {
		return nil, false, false // the root itself changed
	}
	lines := bytes.SplitAfter(chunk, []byte{'\n'})
	lines = lines[:len(lines)-1] // the empty string after the last "\n"
	if !laidOut(snap.Content[0], lines, first, s.col0, s.Style) {
		return nil, false, false
	}
	proven = true
	type repl struct {
		from, to int
		text     []byte
	}
	var repls []repl
	for _, u := range units {
		old, ok := s.renderUnit(u, false)
		if !ok {
			return nil, false, false
		}
		oldText, oldLines := old.text, old.lines
		unit, ok := s.renderUnit(u, true)
		if !ok {
			return nil, false, false
		}
		newText := unit.text
		proven = proven && old.emitted && unit.emitted && unit.readsBack()
		// the unit's first line that is not a head comment is the line of
		// its first key, or of its first item's first node
		at := u.oldP.Content[u.oldFrom].Line
		h := 0
		for h < len(oldLines) && isBlankOrComment(oldLines[h]) {
			h++
		}
		from := at - first - h
		to := from + len(oldLines)
		if h == len(oldLines) || from < 0 || to > len(lines) || len(repls) > 0 && from < repls[len(repls)-1].to {
			return nil, false, false
		}
		if !bytes.Equal(bytes.Join(lines[from:to], nil), oldText) {
			return nil, false, false // the source does not write the unit as yaml.v3 does
		}
		if len(repls) > 0 && onlyBlanksOrComments(lines[repls[len(repls)-1].to:from]) {
			// two units with nothing but blank lines and comments between
			// them are one change to the general way, which writes the
			// lines between as the rendering has them (no blank line)
			return nil, false, false
		}
		for _, l := range lines[to:] {
			if !blankLine(bytes.TrimSuffix(l, []byte("\n"))) {
				break
			}
			if bytes.IndexByte(l, '\t') >= 0 {
				// a tab on a blank line after the unit: yaml.v3 reads it
				// after a plain scalar, not after a quoted one or a key,
				// which the new lines may end with (attack, 2026-11-29)
				return nil, false, false
			}
		}
		repls = append(repls, repl{from, to, newText})
	}
	out := make([]byte, 0, len(chunk)+256)
	at := 0
	for _, r := range repls {
		out = append(out, bytes.Join(lines[at:r.from], nil)...)
		out = append(out, r.text...)
		at = r.to
	}
	out = append(out, bytes.Join(lines[at:], nil)...)
	return out, proven, true
}

// withoutCRs returns text with every CRLF made an LF, and whether every
// line of it ended with CRLF: no LF alone, no CR alone.
func withoutCRs(text []byte) ([]byte, bool) {
	lf := bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	if bytes.IndexByte(lf, '\r') >= 0 || bytes.Count(lf, []byte("\n")) != bytes.Count(text, []byte("\n")) ||
		len(text)-len(lf) != bytes.Count(text, []byte("\n")) {
		return nil, false
	}
	return lf, true
}

// diffUnits appends to units the parts of b (the edited tree) that differ
// from a (its snapshot), a and b being the children reached through path
// and index. It reports whether a as a whole differs: its kind, style, tag
// or comments (or it is a flow collection or a scalar that differs at
// all); the caller then makes the entry or item holding it a unit. Of a
// mapping whose keys changed, or a sequence whose items did, the entries
// or items from the first change to the last are a unit (with the one
// before, or after, when they are only added or only removed); entries
// and items around them are compared in turn.
func diffUnits(a, b *yaml.Node, path []*yaml.Node, index []int, units *[]unitOf) (whole bool) {
	if identical(a, b) {
		return false
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Anchor != "" || b.Anchor != "" ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		a.Style&yaml.FlowStyle != 0 || a.Kind != yaml.MappingNode && a.Kind != yaml.SequenceNode {
		return true
	}
	step := 1 // children per entry
	if a.Kind == yaml.MappingNode {
		step = 2
	}
	// the same children at the start and at the end, compared one by
	// one: entries with the same key; items when there are as many, or
	// identical, or mappings with the same first entry (a list's merge
	// key comes first, as in "- name: x")
	same := func(i, j int) bool {
		x, y := a.Content[i], b.Content[j]
		switch {
		case a.Kind == yaml.MappingNode:
			return identical(x, y)
		case len(a.Content) == len(b.Content):
			return true
		case x.Kind == yaml.MappingNode && y.Kind == yaml.MappingNode && len(x.Content) >= 2 && len(y.Content) >= 2:
			return identical(x.Content[0], y.Content[0]) && identical(x.Content[1], y.Content[1])
		}
		return identical(x, y)
	}
	na, nb := len(a.Content), len(b.Content)
	pre := 0
	for pre < na && pre < nb && same(pre, pre) {
		pre += step
	}
	post := 0
	for post < na-pre && post < nb-pre && same(na-post-step, nb-post-step) {
		post += step
	}
	path = append(path[:len(path):len(path)], b)
	child := func(i, j int) {
		v := i + step - 1 // the value, in a mapping
		if diffUnits(a.Content[v], b.Content[j+step-1], path, append(index[:len(index):len(index)], j), units) {
			*units = append(*units, unitOf{path: path, index: index, oldP: a, newP: b, oldFrom: i, oldTo: i + step, newFrom: j, newTo: j + step})
		}
	}
	lo, hi := pre, post // the children before and after the unit of changed ones
	changed := pre < na-post || pre < nb-post
	if changed && (pre == na-post || pre == nb-post) { // only added, or only removed: with the child before, or after
		switch {
		case pre > 0:
			lo -= step
		case post > 0:
			hi -= step
		default:
			return true // to or from an empty collection
		}
	}
	for i := 0; i < lo; i += step {
		child(i, i)
	}
	if changed {
		*units = append(*units, unitOf{path: path, index: index, oldP: a, newP: b, oldFrom: lo, oldTo: na - hi, newFrom: lo, newTo: nb - hi})
	}
	for k := hi; k > 0; k -= step {
		child(na-k, nb-k)
	}
	return false
}

// renderUnit renders a unit (its old or its new side) as the lines yaml.v3
// writes for it in its document: its ancestors hold one entry or item each,
// on the way to it, and its own mapping a placeholder entry before it when
// it does not start at the first, so that each ancestor is one line before
// the unit's (a mapping entry on the way is a line, with the "- " of the
// item it is the first entry of; an item is not a line of its own). It
// gives up on what would not render that way: flow style, anchors, tags, a
// sequence item on the way that is a sequence, foot comments in the unit.
// renderedUnit is a unit rendered: its lines, and the document of its
// ancestors it was rendered in, and all of that document's text; emitted
// says that it is of the plain shapes (appendDocumentPlain).
type renderedUnit struct {
	text    []byte
	lines   [][]byte
	doc     *yaml.Node
	all     []byte
	emitted bool
}

// readsBack reports whether the text of the unit's document reads as the
// document, comments included.
func (r *renderedUnit) readsBack() bool {
	docs, err := readYAML(r.all, "", Limits{})
	return err == nil && len(docs) == 1 && Equal(docs[0], r.doc) && sameComments(docs[0], r.doc)
}

func (s *Stream) renderUnit(u unitOf, edited bool) (r renderedUnit, ok bool) {
	p, from, to := u.oldP, u.oldFrom, u.oldTo
	if edited {
		p, from, to = u.newP, u.newFrom, u.newTo
	}
	children := p.Content[from:to]
	for _, c := range children {
		if hasFootComment(c) {
			return r, false
		}
	}
	prefix := 0
	n := &yaml.Node{Kind: p.Kind, Tag: p.Tag, Style: p.Style}
	if p.Kind == yaml.MappingNode && from > 0 {
		n.Content = append(n.Content, NewString("x"), NewString("x")) // the entry before the unit
		prefix++
	}
	n.Content = append(n.Content, children...)
	// the ancestors, from the parent up
	for d := len(u.path) - 2; d >= 0; d-- {
		orig := u.path[d]
		if orig.Style&yaml.FlowStyle != 0 || orig.Anchor != "" || orig.Style&yaml.TaggedStyle != 0 || u.path[d+1].Anchor != "" {
			return r, false
		}
		up := &yaml.Node{Kind: orig.Kind, Tag: orig.Tag, Style: orig.Style}
		i := u.index[d]
		switch orig.Kind {
		case yaml.MappingNode:
			key := orig.Content[i]
			if key.Kind != yaml.ScalarNode || key.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || key.Anchor != "" {
				return r, false
			}
			up.Content = append(up.Content, &yaml.Node{Kind: key.Kind, Tag: key.Tag, Style: key.Style, Value: key.Value})
			prefix++ // the key's line
		case yaml.SequenceNode:
			if u.path[d+1].Kind != yaml.MappingNode {
				return r, false // an item that is a sequence: "- - x"
			}
		default:
			return r, false
		}
		up.Content = append(up.Content, n)
		n = up
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{n}}
	text, plain, err := appendDocumentPlain(nil, doc, s.Style)
	if err != nil {
		return r, false
	}
	r.emitted = plain
	all := bytes.SplitAfter(text, []byte{'\n'})
	all = all[:len(all)-1]
	if prefix >= len(all) {
		return r, false
	}
	r.lines = all[prefix:]
	r.text, r.doc, r.all = bytes.Join(r.lines, nil), doc, text
	return r, true
}

// hasFootComment reports whether a node of the tree n has a foot comment.
func hasFootComment(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.FootComment != "" {
		return true
	}
	for _, c := range n.Content {
		if hasFootComment(c) {
			return true
		}
	}
	return false
}

// laidOut reports whether the source text of a document (its lines, the
// first being line first of the stream, each with col0 columns of the
// file before it: Options.Column) indents every line as yaml.v3 writes the
// document in style st: each key, item and block scalar's content where
// the emitter puts it, "- " before an item's content, no line but those of
// keys, items, block scalars, comments and markers (a scalar or a flow
// collection over several lines, say, fails). The emitter's rule, as its
// output shows it: the content of a sequence item is 2 columns right of
// its dash; any other nested block (a mapping's value, a block scalar's
// text) is at the next multiple of the indentation after its parent's,
// less 2 for a sequence in the compact style.
func laidOut(root *yaml.Node, lines [][]byte, first, col0 int, st Style) bool {
	ind := st.Indent
	if ind < 2 || ind > 9 {
		ind = 2 // as yaml.v3's emitter takes it
	}
	next := func(col int, seq bool) int {
		c := ind * ((col + ind) / ind)
		if seq && st.CompactSequences {
			c -= 2
		}
		return c
	}
	seen := make([]bool, len(lines))
	last := 0 // the line of the last node looked at: lines only go down
	// line returns the source line of a node, marked as seen, or nil
	line := func(n *yaml.Node) []byte {
		i := n.Line - first
		if i < 0 || i >= len(lines) || n.Line < last {
			return nil
		}
		last = n.Line
		seen[i] = true
		return lines[i]
	}
	// block checks the content lines of a block scalar n: the first is
	// indented by col, as are the others but for what the value holds
	block := func(n *yaml.Node, col int) bool {
		if v := n.Value; v != "" && (v[0] == ' ' || v[0] == '\n') {
			return false // written with an indentation indicator
		}
		firstContent, blank := true, false
		for i := n.Line - first + 1; i < len(lines); i++ {
			l := lines[i]
			if isBlank(string(l)) {
				blank = true
				continue
			}
			k := indentOf(l)
			if k < col {
				break
			}
			blank = false
			if firstContent && k != col {
				return false
			}
			firstContent = false
			seen[i] = true
		}
		return !blank // a blank line after the text may be the scalar's or not
	}
	// dash checks the line of a sequence item whose dash is at column col:
	// "- " and the item's first node, or, for a mapping whose first key
	// has a head comment, "- " and the comment's first line, as yaml.v3
	// writes it, with the rest of the comment and the key on the lines
	// below, at col+2
	dash := func(it *yaml.Node, col int) bool {
		l := line(it)
		if l == nil || it.Column-1-col0 != col+2 {
			return false
		}
		isDash := func(l []byte, next byte) bool {
			return len(l) >= col+3 && indentOf(l) == col && l[col] == '-' && l[col+1] == ' ' && (next == 0 || l[col+2] == next)
		}
		if isDash(l, 0) {
			return true
		}
		if it.Kind != yaml.MappingNode || len(it.Content) == 0 || it.Content[0].HeadComment == "" || indentOf(l) != col+2 {
			return false
		}
		for i := it.Line - first - 1; i >= 0 && !seen[i]; i-- {
			switch {
			case isDash(lines[i], '#'):
				seen[i] = true
				return true
			case indentOf(lines[i]) != col+2 || lines[i][col+2] != '#':
				return false
			}
		}
		return false
	}
	isBlock := func(n *yaml.Node) bool {
		return n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0
	}
	// check checks a block collection whose keys or dashes are at column col
	var check func(n *yaml.Node, col int) bool
	check = func(n *yaml.Node, col int) bool {
		if n.Anchor != "" || n.Style&(yaml.TaggedStyle|yaml.FlowStyle) != 0 || len(n.Content) == 0 {
			return false
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Kind != yaml.ScalarNode || k.Column-1-col0 != col || isBlock(k) || k.Anchor != "" || line(k) == nil {
					return false
				}
				var ok bool
				switch {
				case isBlock(v):
					ok = v.Line == k.Line && block(v, next(col, false))
				case v.Kind == yaml.ScalarNode || v.Style&yaml.FlowStyle != 0:
					ok = v.Line == k.Line && oneLine(v, v.Line)
				default:
					ok = v.Line > k.Line && check(v, next(col, v.Kind == yaml.SequenceNode))
				}
				if !ok {
					return false
				}
			}
			return true
		case yaml.SequenceNode:
			for _, it := range n.Content {
				if !dash(it, col) {
					return false
				}
				var ok bool
				switch {
				case isBlock(it):
					ok = block(it, col+2)
				case it.Kind == yaml.ScalarNode || it.Style&yaml.FlowStyle != 0:
					ok = oneLine(it, it.Line)
				default:
					ok = check(it, col+2)
				}
				if !ok {
					return false
				}
			}
			return true
		}
		return false
	}
	switch {
	case root.Kind == yaml.ScalarNode && !isBlock(root):
		if line(root) == nil {
			return false
		}
	case !check(root, 0):
		return false
	}
	for i, l := range lines {
		l = bytes.TrimSuffix(l, []byte{'\n'})
		if !seen[i] && !isBlankOrComment(l) && !isMarker(l, "---") && !isMarker(l, "...") && l[0] != '%' {
			return false
		}
	}
	return true
}

// onlyBlanksOrComments reports whether there are lines, and each is blank
// or a comment.
func onlyBlanksOrComments(lines [][]byte) bool {
	for _, l := range lines {
		if !isBlankOrComment(bytes.TrimSuffix(l, []byte{'\n'})) {
			return false
		}
	}
	return len(lines) > 0
}

// oneLine reports whether a flow collection or scalar has every node on
// line l (a scalar's own line cannot be told: the caller's other checks
// find a scalar that goes on).
func oneLine(n *yaml.Node, l int) bool {
	if n.Line != l || n.Anchor != "" || n.Kind == yaml.AliasNode {
		return false
	}
	for _, c := range n.Content {
		if !oneLine(c, l) {
			return false
		}
	}
	return true
}

// indentOf returns the number of spaces a line starts with.
func indentOf(l []byte) int {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	return i
}
