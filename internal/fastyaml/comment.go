package fastyaml

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// A commenter gives comments to nodes where yaml.v3 puts them.
//
// A comment on the line of a node's text is that node's line comment (a
// key's when its value is on the lines below). The other comments are read
// as lines of a gap: the comment lines and blank lines between the line of
// one token and the next token. A gap is settled when the reader reaches
// the next token and knows which collections ended before it: its lines
// are cut into runs, and each run goes to a node (see settle).
type commenter struct {
	r   *reader
	off bool // Skim leaves comments out

	lines  []gapLine    // the gap being read
	closed []closedColl // the collections that ended in it, innermost first

	// What the gap follows.
	footable bool // the text of a node, without a comment after it: a first paragraph may be its entry's foot
	empty    bool // a key or a dash without a value on its line
	keyCol   int  // the column of that key
	dash     bool // a dash (or "?") without a value on its line

	target *yaml.Node // the node a comment on the current line goes to
	deny   bool       // a comment on the current line is refused

	// A foot comment for the next item of a sequence (yaml.v3 gives the
	// foot of an item that is a collection to the first scalar of the
	// item after it).
	nextFoot  string
	nextLine  string     // a line comment for the first scalar read (after properties)
	propsLine bool       // a comment on the current line is nextLine
	joinFoot  *yaml.Node // the node that took it: a foot of its own is added

	prehead      string // the comments before a --- line
	carried      string // the head comment of an empty item ending a sequence
	carriedFirst bool   // that item is a sequence's first
	firstDoc     bool   // the document being read is the stream's first
	afterMarker  bool   // the gap follows a --- line

	// in flow collections: the comments before the next node, the state
	// of each collection being read
	flowHead string
	flows    []flowLevel

	emptyRoot *yaml.Node // the root of the document being read, when empty

	afterEnd   bool // a comment on the current line is on a ... line
	endComment int  // the gap line that was a comment on a ... line, -1 if none

	buf []byte
}

// A gapLine is a comment line (the comment is src[s:e], at column col) or
// a blank line (s < 0).
type gapLine struct {
	s, e, col int
}

// A closedColl is a collection that ended in a gap, at column col; block
// says it ended with the end of a block (yaml.v3's BLOCK-END token: a block
// mapping, or a block sequence but one at its key's column).
type closedColl struct {
	n     *yaml.Node
	col   int
	block bool
}

// lineTarget names the node a comment at the end of the current line
// belongs to: a key whose value is below, a block scalar.
func (c *commenter) lineTarget(n *yaml.Node) {
	if c.off {
		return
	}
	c.start(c.r.line > 0)
	c.empty = true
	c.target = n
	c.keyCol = n.Column - 1
}

// dashEnd starts the gap after a dash (or "?") without an item on its
// line: a comment on its line is a line of the gap.
func (c *commenter) dashEnd(col int) {
	if c.off {
		return
	}
	c.start(c.r.line > 0)
	c.empty, c.dash = true, true
	c.target = nil
	c.keyCol = col
}

// propsEnd starts the gap after properties that end their line: yaml.v3
// gives a comment on their line to the first key or item below.
func (c *commenter) propsEnd() {
	if c.off {
		return
	}
	c.start(false)
	c.empty = true
	c.target = nil
	c.propsLine = true
}

// markerLine starts the gap after a --- line.
func (c *commenter) markerLine() {
	if c.off {
		return
	}
	c.target = nil
	c.deny = false
	c.propsLine = false // (the properties were the last document's)
}

// endMarker starts the gap after a ... marker.
func (c *commenter) endMarker() {
	if c.off {
		return
	}
	c.start(true)
	c.target = nil
	c.afterEnd = true
}

// scalarEnd starts the gap after a scalar, an alias or a flow collection,
// whose line may end with its line comment.
//
// What yaml.v3 does with a comment line followed by a blank line depends
// on what the gap follows (a foot comment of the entry, or a part of the
// next one's head): it is a foot after a node, but for a key or dash
// without a value on its line, and for a node ending on the stream's first
// line other than a plain scalar without a comment after it.
func (c *commenter) scalarEnd(n *yaml.Node) {
	if c.off {
		return
	}
	c.start(c.r.line > 0 || n.Kind == yaml.ScalarNode && n.Style&^yaml.TaggedStyle == 0)
	c.target = n
}

// blockScalarEnd starts the gap after a block scalar's last line, and
// the empty lines after it that were its own (trailing).
func (c *commenter) blockScalarEnd(n *yaml.Node, trailing int) {
	if c.off {
		return
	}
	c.start(true)
	c.target = nil
	for range trailing {
		c.blank()
	}
}

// start begins a gap.
func (c *commenter) start(footable bool) {
	c.propsLine = false
	c.afterEnd = false
	c.endComment = -1
	c.footable = footable
	c.empty, c.dash, c.deny = false, false, false
	c.closed = c.closed[:0]
}

// lineComment takes the comment src[s:e] at the end of a line.
func (c *commenter) lineComment(s, e int) {
	if c.off {
		return
	}
	crlf := c.r.crlfLine(c.r.line)
	if c.propsLine {
		// after properties: the line comment of the first scalar
		// below, after the one waiting from a "?" line above them
		// ("? #a" then " !t #b" then " 0": "#a\n#b"; FuzzDifferential,
		// 2026-11-29)
		c.propsLine = false
		c.nextLine = joinText(c.nextLine, c.r.src[s:e])
		if crlf {
			c.blank()
		}
		return
	}
	if c.deny && c.r.dropLost {
		// (yaml.v3 drops a comment on a directive's line)
		return
	}
	if c.afterEnd {
		// on a ... line: a line of the gap, which yaml.v3 drops at the
		// end of the stream
		c.afterEnd = false
		c.endComment = len(c.lines)
		c.lines = append(c.lines, gapLine{s, e, c.r.col(s)})
		c.footable = false
		if crlf {
			c.blank()
		}
		return
	}
	if c.deny || c.target == nil {
		c.lines = append(c.lines, gapLine{s, e, c.r.col(s)})
		c.footable = false
		if crlf {
			c.blank()
		}
		return
	}
	if c.target.LineComment != "" {
		c.target.LineComment += "\n" + c.r.src[s:e]
	} else {
		c.target.LineComment = c.r.src[s:e]
	}
	if c.r.line == 0 {
		// (yaml.v3 reads no foot paragraph after a line comment on
		// the stream's first line)
		c.footable = false
	}
	c.target = nil
	if crlf {
		c.blank()
	}
}

// commentLine takes a line holding only a comment.
func (c *commenter) commentLine(s, e, col int) {
	if c.off {
		return
	}
	c.lines = append(c.lines, gapLine{s, e, col})
}

// blank takes an empty line (or one of blanks only).
func (c *commenter) blank() {
	if c.off {
		return
	}
	c.lines = append(c.lines, gapLine{-1, -1, 0})
}

// collectionEnd notes a collection that ended in the gap, at column col.
func (c *commenter) collectionEnd(n *yaml.Node, col int, block bool) {
	if c.off {
		return
	}
	c.closed = append(c.closed, closedColl{n, col, block})
}

// give sets a comment of a node, after one it has.
func (c *commenter) give(slot *string, text string) {
	if text == "" {
		return
	}
	if *slot != "" {
		*slot += "\n" + text
		return
	}
	*slot = text
}

// settled ends a gap.
func (c *commenter) settled() {
	c.afterMarker = false
	c.lines = c.lines[:0]
	c.closed = c.closed[:0]
	c.target = nil
}

// noComment notes that a comment on the current line (after a directive)
// is a line of the gap.
func (c *commenter) noComment() {
	if c.off {
		return
	}
	c.start(false)
	c.deny = true
}

// text returns the comment of lines[from:to]: its comment lines without
// their indentation, one empty line for each run of blank lines between
// them, and an empty line at the end if blank lines end it (trail).
func (c *commenter) text(from, to int, trail bool) string {
	b := c.buf[:0]
	blank := false
	first := -1
	for _, l := range c.lines[from:to] {
		if l.s < 0 {
			blank = true
			continue
		}
		if first < 0 {
			first = l.s
		}
		if len(b) > 0 {
			b = append(b, '\n')
			if blank {
				b = append(b, '\n')
			}
		}
		blank = false
		b = append(b, c.r.src[l.s:l.e]...)
	}
	if len(b) == 0 {
		return ""
	}
	if trail && blank {
		b = append(b, '\n')
	}
	c.buf = b
	if first+len(b) <= c.r.end && c.r.src[first:first+len(b)] == string(b) {
		return c.r.src[first : first+len(b)]
	}
	return string(b)
}

// first settles the gap before the first token of a node, after a key or
// a dash on the line before: every comment of it is the head comment of
// that token's node.
func (c *commenter) first() string {
	if c.off {
		return ""
	}
	if len(c.lines) == 0 {
		c.settled()
		return c.joinPre("")
	}
	h := ""
	from := 0
	// After a dash or a --- line, the first blank line ends a comment
	// before it as a foot comment, which yaml.v3 gives to the first
	// scalar that follows (after a dash), or to the document before
	// (after a ---).
	if (c.dash || c.afterMarker) && c.footable {
		if end, ok := c.paragraph(); ok {
			text := c.text(0, end, false)
			if docs := c.r.docs; c.afterMarker && len(docs) > 0 {
				if c.r.dropLost {
					// (yaml.v3 replaces the foot the document had)
					docs[len(docs)-1].FootComment = ""
				}
				c.give(&docs[len(docs)-1].FootComment, text)
			} else {
				c.addNextFoot(text)
			}
			from = end
		}
	}
	h = c.text(from, len(c.lines), true)
	c.settled()
	return c.joinPre(h)
}

// paragraph returns the end of the gap's first paragraph of comments
// when the gap starts with one and a blank line follows it.
func (c *commenter) paragraph() (int, bool) {
	i := 0
	for i < len(c.lines) && c.lines[i].s >= 0 {
		i++
	}
	return i, i > 0 && i < len(c.lines)
}

// addNextFoot adds to the foot comment for the next item.
func (c *commenter) addNextFoot(text string) {
	if text == "" {
		return
	}
	if c.nextFoot != "" {
		c.nextFoot += "\n" + text
	} else {
		c.nextFoot = text
	}
}

// joinPre puts the comments before a --- line before head.
func (c *commenter) joinPre(head string) string {
	if c.prehead == "" {
		return head
	}
	if head != "" {
		head = c.prehead + "\n" + head
	} else {
		head = c.prehead
	}
	c.prehead = ""
	return head
}

// atomic reports whether an item of a sequence takes a foot comment
// after it itself: a scalar or a flow collection, not an empty item (a
// null without text) or a block collection.
func atomic(n *yaml.Node) bool {
	if n.Kind == yaml.ScalarNode || n.Kind == yaml.AliasNode {
		return !(n.Tag == nullTag && n.Value == "" && n.Style == 0)
	}
	return n.Style&yaml.FlowStyle != 0
}

// footOf returns the slot of the foot comment of the i-th collection that
// ended in the gap (from the innermost), as a collection at whose column
// comments are: the key of a mapping's last entry, a sequence's last item
// if a scalar or a flow collection; for a sequence ending with a block
// collection or an empty item, the slot of the collection around it that
// ended, or prev (the entry before the next token's) if none did.
// Indentless sequences (a mapping's value at its key's column), which
// have no column of their own, are passed (all: they are taken as any
// other, for the foot of the last node read: that of its innermost
// collection).
func (c *commenter) footOf(i int, prev *string, all bool) *string {
	for ; i < len(c.closed); i++ {
		n := c.closed[i].n
		if !all && (!c.closed[i].block || n.Kind == yaml.SequenceNode) {
			// (the comments at a block sequence's column go to
			// what takes those of the collection around it)
			continue
		}
		k := len(n.Content)
		if k == 0 {
			continue
		}
		if n.Kind == yaml.MappingNode {
			return &n.Content[k-2].FootComment
		}
		if last := n.Content[k-1]; atomic(last) {
			return &last.FootComment
		}
	}
	return prev
}

// lastItem returns a sequence's last item.
func lastItem(s *yaml.Node) *yaml.Node {
	return s.Content[len(s.Content)-1]
}

// A run is a part of a gap's lines given to one node: comment lines at one
// column (and those indented at least as the innermost collection that
// ended, and blank lines), from lines[from] to lines[to-1].
type run struct {
	from, to int
	col      int
	foot     bool // in the gap's first paragraph, a foot comment
}

// settle gives the gap's comments to nodes, before the next token at
// column n. levels are the slots of the foot comments of the collections
// that ended in the gap, innermost first, and their columns; prev is the
// slot of the foot comment of the entry before the next token (nil if
// none), head that of the next token's head comment.
//
// The rules, found by comparing with yaml.v3 on every arrangement of up to
// four lines around the ends of nested collections (TestGaps):
//
//   - A paragraph that starts the gap, right after the text of a node, and
//     that a blank line ends, is a foot paragraph; the rest of the gap is
//     the head part.
//   - Both are cut into runs: a run is comment lines at one column, and
//     lines indented at least as the innermost collection that ended
//     (blank lines too, in the head part). A run at the column of a
//     collection that ended claims that collection's foot (the first such
//     run only); the first run of the head part (when there is no foot
//     paragraph) claims the innermost's; a lone foot paragraph claims the
//     foot its column names (that of the collection at its column, the
//     innermost's when deeper, the entry before's otherwise); the last run
//     of the head part at the next token's column is the token's head;
//     every other run is the entry before's foot.
//   - Comments stay in order: a run goes at least as deep as the runs
//     after it.
//
// When no collection ended, the head part's last run is the next token's
// head and every other run the entry before's foot.
func (c *commenter) settle(n int, levels []level, innerSlot, footPrev, prev, head *string, eof, rootEnds bool) {
	lines := c.lines
	if len(lines) == 0 {
		return
	}
	footEnd := 0
	// (after a key without a value on its line, a paragraph that is not
	// less indented than the key is the next token's; one that is, is a
	// foot, after a dash too, even on the stream's first line)
	if c.footable && !(c.empty && !c.dash && !c.shallower(c.keyCol)) || c.empty && c.shallower(c.keyCol) {
		for footEnd < len(lines) && lines[footEnd].s >= 0 {
			footEnd++
		}
		if footEnd == len(lines) && !eof {
			// (the end of the stream ends a paragraph as a blank
			// line does)
			footEnd = 0
		}
	}
	inner := n
	if len(levels) > 0 {
		inner = levels[0].col
	}
	var runsArr [8]run
	runs := runsArr[:0]
	split := func(from, to int, foot bool) {
		start := len(runs)
		for i := from; i < to; i++ {
			l := lines[i]
			if l.s < 0 {
				if len(runs) > start && !foot {
					runs[len(runs)-1].to = i + 1
				}
				continue
			}
			if len(runs) > start {
				r := &runs[len(runs)-1]
				if l.col >= inner || l.col == r.col {
					r.to = i + 1
					continue
				}
			}
			runs = append(runs, run{from: i, to: i + 1, col: l.col, foot: foot})
		}
	}
	split(0, footEnd, true)
	nfoot := len(runs)
	split(footEnd, len(lines), false)
	if len(runs) == 0 {
		return
	}
	// claims: -1 the head, 0 the entry before's foot, k the foot of
	// levels[len(levels)-k] (deeper is larger); innermost says a claim of
	// the entry before's foot is the innermost's (its node's foot, for a
	// sequence's item: prev, not footPrev)
	const H = -1
	depth := len(levels)
	exact := func(col int) int {
		for i, l := range levels {
			if l.col == col {
				return depth - i
			}
		}
		return -1
	}
	var claimArr [8]int
	var innerArr [8]bool
	claim, innermost := claimArr[:0], innerArr[:0]
	used := 0 // bits of the levels whose column a run had
	last := len(runs) - 1
	closedAt := -1         // at the end of the stream, the run at the root's column (which ends it)
	raise, own := H, false // the claim of the last run of a stream, whose own slot is the document's foot
	for k, r := range runs {
		s, in := 0, false
		switch {
		case r.foot && nfoot == 1:
			switch {
			case r.col >= inner:
				s, in = depth, true
			case exact(r.col) > 0:
				s = exact(r.col)
			}
		case r.foot && k == 0:
			s, in = depth, true
		case !r.foot && k == last && (r.col == n || depth == 0):
			s = H
		case !r.foot && k == last && eof:
			// the document's, but its column ends the collections
			// deeper (as any other run's does)
			s, own = H, true
			if e := exact(r.col); e > 0 && used&(1<<e) == 0 {
				raise = e
			}
		case !r.foot && k == nfoot && nfoot == 0:
			s, in = depth, true
		default:
			if e := exact(r.col); e > 0 && used&(1<<e) == 0 {
				s = e
			}
		}
		if e := exact(r.col); e > 0 && e < 63 {
			used |= 1 << e
		}
		if rootEnds && s == 0 && closedAt >= 0 {
			s = H // after the root ended
		}
		if rootEnds && r.col == n && closedAt < 0 {
			closedAt = k
		}
		claim = append(claim, s)
		innermost = append(innermost, in)
	}
	cur := H
	if own {
		cur = raise
	}
	for k := last; k >= 0; k-- {
		if own && k == last {
			continue
		}
		if cur != H && (claim[k] == H || claim[k] < cur) {
			claim[k] = cur
		}
		cur = claim[k]
	}
	// each run's slot, and the channel it is given by: comments given to
	// one node by two channels (the innermost's foot and a level's, the
	// entry before's as the innermost and as a foot paragraph) are both
	// kept, where yaml.v3 keeps the later (dropLost)
	slotOf := func(k int) (*string, int) {
		switch s := claim[k]; {
		case eof && k == last && !runs[k].foot && (own || s == H):
			return head, -5
		case s == H:
			return head, -1
		case s == depth && innermost[k]:
			return innerSlot, -2
		case s > 0:
			return levels[depth-s].slot, s
		case innermost[k]:
			return prev, -3
		}
		return footPrev, -4
	}
	var givenArr [8]given
	gv := givenArr[:0]
	for k := 0; k <= last; {
		slot, ch := slotOf(k)
		j := k
		for j < last && runs[j+1].foot == runs[k].foot {
			s2, ch2 := slotOf(j + 1)
			if s2 != slot || ch2 != ch {
				break
			}
			j++
		}
		text := c.text(runs[k].from, runs[j].to, !runs[k].foot)
		if slot == nil {
			slot = head
		}
		gv = append(gv, given{slot, ch, text})
		k = j + 1
	}
	for i, g := range gv {
		if c.r.dropLost && g.ch == -5 && i > 0 && gv[i-1].slot == g.slot && (gv[i-1].ch == -4 || gv[i-1].ch == -1) {
			// (yaml.v3 drops the last comment of a stream when the
			// document's foot has another)
			continue
		}
		if c.r.dropLost && g.ch == -2 && !c.empty {
			// (yaml.v3 drops the foot given to the node before when
			// another is given to the same node)
			lost := false
			for _, h := range gv[i+1:] {
				if h.slot == g.slot && h.ch != g.ch {
					lost = true
				}
			}
			if lost {
				continue
			}
		}
		c.give(g.slot, g.text)
	}
}

// given is a comment given to a node's slot by a channel of settle.
type given struct {
	slot *string
	ch   int
	text string
}

// shallower reports whether the gap's first paragraph has a comment
// line less indented than col.
func (c *commenter) shallower(col int) bool {
	for _, l := range c.lines {
		if l.s < 0 {
			return false
		}
		if l.col < col {
			return true
		}
	}
	return false
}

// A level is a collection that ended in a gap: the slot of its foot
// comment and its column.
type level struct {
	slot *string
	col  int
}

// next settles the gap before the next entry of a collection at column
// col (a key or a dash), whose entry before is prev (for a mapping its
// key, for a sequence its item). It returns the head comment of the entry.
func (c *commenter) next(col int, prev *yaml.Node, seq bool) string {
	if c.off {
		return ""
	}
	head := ""
	if len(c.lines) > 0 && !blanksOnly(c.lines) {
		// (a gap of blank lines alone gives no comment to any node:
		// settle finds no run in it; with CRLF line ends, every line
		// comment is followed by one, as yaml.v3 reads it, which made
		// the settling of every entry's gap after a commented line
		// half of the reading of such files)
		head = c.nextGap(col, prev, seq)
	}
	if c.carried != "" {
		head = joinText(c.carried, head)
		c.carried = ""
	}
	c.settled()
	return head
}

// nextGap is next's settling of the gap's lines (apart, so that the
// head comment it hands settle by address is allocated only where there
// is a gap to settle: next runs once for every entry).
func (c *commenter) nextGap(col int, prev *yaml.Node, seq bool) string {
	head := ""
	var levelsArr [8]level
	levels := levelsArr[:0]
	// the foot of the entry before: a mapping's key; for a sequence,
	// its item (of a comment after it) or the next item (of a
	// paragraph after it)
	var pfoot, ffoot *string
	switch {
	case !seq:
		pfoot = &prev.FootComment
		ffoot = pfoot
	case atomic(prev):
		pfoot = &prev.FootComment
		ffoot = &c.nextFoot
	default:
		pfoot = &c.nextFoot
		ffoot = pfoot
	}
	for i, cc := range c.closed {
		if cc.col == col && !cc.block {
			// a sequence at its key's column: the entry before's
			// foot goes to its last item
			if last := lastItem(cc.n); atomic(last) {
				pfoot = &last.FootComment
				ffoot = pfoot
			}
			continue
		}
		if cc.block {
			levels = append(levels, level{c.footOf(i, pfoot, false), cc.col})
		}
	}
	c.settle(col, levels, c.footOf(0, pfoot, true), ffoot, pfoot, &head, false, false)
	return head
}

// blanksOnly reports whether the lines of a gap are all blank lines.
func blanksOnly(lines []gapLine) bool {
	for _, l := range lines {
		if l.s >= 0 {
			return false
		}
	}
	return true
}

// joinText joins two comments, one above the other.
func joinText(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "\n" + b
}

// carry keeps the head comment of an empty item that ends a sequence for
// the next token.
func (c *commenter) carry(head string) {
	if c.off {
		return
	}
	c.carried = joinText(c.carried, head)
}

// item gives a sequence's item its head comment.
func (c *commenter) item(item *yaml.Node, head string) {
	if c.off {
		return
	}
	if head != "" {
		c.give(&item.HeadComment, head)
	}
}

// firstScalar gives the foot comment meant for the item being read to its
// first scalar n (the item, or its first key), made now: yaml.v3 gives the
// foot comment of an item that is a collection (and of an empty item) to
// the scalar that starts the next item.
func (c *commenter) firstScalar(n *yaml.Node) {
	if c.nextLine != "" {
		c.give(&n.LineComment, c.nextLine)
		c.nextLine = ""
	}
	if c.nextFoot == "" {
		return
	}
	c.give(&n.FootComment, c.nextFoot)
	c.nextFoot = ""
	c.joinFoot = n
}

// The document's comments.

// marker: a --- line. The comments before it (at the start of the
// stream) make one head comment, joined with the first token's.
func (c *commenter) marker() {
	if c.off {
		return
	}
	c.target = nil
	c.afterMarker = true
	// (the column of a key without a value was the document before's:
	// properties alone on a line after the marker, which keep the gap
	// "empty", compared the comments before them with it, " a:\n---\n#\n!t"
	// giving "#" to !t as a foot where yaml.v3 gives it to the document,
	// as after "a:"; FuzzOutline, 2026-11-30)
	c.keyCol = 0
	if len(c.lines) > 0 {
		from := 0
		if docs := c.r.docs; len(docs) > 0 && c.footable {
			// after a ... line: its first paragraph, when a blank
			// line ends it, is the document before's foot
			if end, ok := c.paragraph(); ok {
				c.give(&docs[len(docs)-1].FootComment, c.text(0, end, false))
				from = end
			}
		}
		c.prehead = joinText(c.prehead, c.text(from, len(c.lines), true))
		c.lines = c.lines[:0]
	}
	c.footable = c.r.line > 0 // (for an empty document)
	c.deny = false
}

// emptyDoc: a document without content.
func (c *commenter) emptyDoc(n *yaml.Node) {
	if c.off {
		return
	}
	c.emptyRoot = n
	c.carriedFirst = false
	if c.prehead != "" {
		c.give(&c.r.doc.FootComment, c.prehead)
		c.prehead = ""
	}
}

// docEnd settles the gap at the end of a document, whose root is root:
// before the end of the stream (eof), or before a --- or ... marker.
func (c *commenter) docEnd(doc, root *yaml.Node, eof bool) {
	if c.off {
		return
	}
	if c.carried != "" {
		if !c.r.dropLost || !c.carriedFirst {
			c.give(&doc.FootComment, c.carried)
		}
		c.carried = ""
	}
	c.carriedFirst = false
	if c.nextFoot != "" {
		c.give(&doc.FootComment, c.nextFoot)
		c.nextFoot = ""
	}
	if len(c.lines) == 0 {
		c.settled()
		return
	}
	n := 0
	if eof && c.r.end > 0 && c.r.src[c.r.end-1] != '\n' && c.comments() == 1 {
		// the end of the stream is at the end of its last line (of a
		// gap of one comment: yaml.v3 reads those of more as if a line
		// break ended them)
		n = c.r.colOf(c.r.end)
	}
	// the collections that end: those deeper than n (the others are
	// the collection the end is in, and those around it); pfoot is the
	// foot of the last entry of the innermost that does not (or the
	// root's, or the document's)
	var pfoot *string
	var levelsArr [8]level
	levels := levelsArr[:0]
	rootEnds := false
	switch {
	case root == c.emptyRoot:
		// an empty document: the comments after its --- line are the
		// document before's, those after a blank line its own
		pfoot = &doc.FootComment
		if docs := c.r.docs; len(docs) > 0 {
			pfoot = &docs[len(docs)-1].FootComment
		}
	case root.Kind == yaml.ScalarNode || root.Kind == yaml.AliasNode || root.Style&yaml.FlowStyle != 0:
		pfoot = &root.FootComment
	default:
		open := len(c.closed)
		for i, cc := range c.closed {
			if cc.block && cc.col <= n || cc.n == root && cc.col <= n {
				open = i
				break
			}
		}
		if open < len(c.closed) {
			pfoot = c.footOf(open, &doc.FootComment, true)
			rootEnds = c.closed[open].n == root && c.closed[open].col == n
		} else {
			pfoot = &doc.FootComment
		}
		for i, cc := range c.closed[:open] {
			if cc.block || cc.n == root {
				levels = append(levels, level{c.footOf(i, pfoot, false), cc.col})
				if cc.n == root {
					levels[len(levels)-1].slot = c.footOf(i, pfoot, true)
				}
			}
		}
	}
	inner := c.footOf(0, pfoot, true)
	if len(c.closed) == 0 || len(levels) == 0 && c.closed[0].n == root {
		inner = pfoot
	}
	c.settle(n, levels, inner, pfoot, pfoot, &doc.FootComment, eof, rootEnds)
	if c.nextFoot != "" {
		c.give(&doc.FootComment, c.nextFoot)
		c.nextFoot = ""
	}
	c.settled()
}

// streamEnd: comments after the last document (after a ... line), or
// in a stream without documents, which yaml.v3 drops.
func (c *commenter) streamEnd(docs []*yaml.Node) {
	if c.off {
		return
	}
	if len(c.lines) > 0 && len(docs) > 0 {
		last := &docs[len(docs)-1].FootComment
		if c.r.dropLost {
			// (yaml.v3 keeps of the comments after a ... line at the
			// end only the first paragraph, if right after the line,
			// in place of the document's foot)
			end := 0
			if c.endComment < 0 {
				for end < len(c.lines) && c.lines[end].s >= 0 {
					end++
				}
			}
			c.lines = c.lines[:end]
			if end > 0 {
				*last = ""
			}
		}
		c.give(last, c.text(0, len(c.lines), false))
	}
	c.settled()
	c.prehead = ""
}

// docHead takes from the gap before the first token of a document without
// a --- marker its head comment: the comments up to the last blank line
// after one (the rest are the token's).
func (c *commenter) docHead(doc *yaml.Node) {
	if c.off {
		return
	}
	last := -1
	seen := false
	for i, l := range c.lines {
		if l.s >= 0 {
			seen = true
		} else if seen {
			last = i
		}
	}
	if last < 0 {
		return
	}
	c.give(&doc.HeadComment, c.text(0, last, false))
	rest := c.lines[last:]
	c.lines = append(c.lines[:0], rest...)
}

// comments counts the gap's comment lines.
func (c *commenter) comments() int {
	k := 0
	for _, l := range c.lines {
		if l.s >= 0 {
			k++
		}
	}
	return k
}

// firstCommentAt returns the offset of the gap's first comment line if it
// is at column col, -1 otherwise.
// firstComment returns the offset and the column of the first comment
// line of the gap, or -1.
func (c *commenter) firstComment() (int, int) {
	if c.off {
		return -1, 0
	}
	for _, l := range c.lines {
		if l.s >= 0 {
			return l.s, l.col
		}
	}
	return -1, 0
}

func (c *commenter) firstCommentAt(col int) int {
	if c.off {
		return -1
	}
	for _, l := range c.lines {
		if l.s >= 0 {
			if l.col == col {
				return l.s
			}
			return -1
		}
	}
	return -1
}

// Flow collections.
//
// Inside a flow collection the gaps are settled as between the entries of a
// block collection without collections ending (settle, no levels): before
// an entry, the first paragraph after the entry before (when a blank line
// ends it) is that entry's foot, the rest the head of the entry's first
// node; before the closing bracket, both are the last entry's foot (the
// rest the collection's when a foot paragraph took the last entry's). A
// comment on the line of a node is its line comment; after a value's colon
// that of the first scalar of the value, or, the value empty, of the next
// scalar, or the collection's when it ends first (flowEmpty); yaml.v3 drops one right after an
// opening bracket or between a key and its colon, which kmerge keeps as the
// next node's head.

// A flowLevel is the state of the comments of a flow collection being read.
type flowLevel struct {
	n        *yaml.Node // the collection
	tok      byte       // the last token: '[' the opening, 'n' a node, ':' a colon, '?' an explicit key
	tokLine  int        // its line
	last     *yaml.Node // the node whose line comment a comment after tok is
	prevFoot *string    // the foot of the entry before (nil before the first)
	head     string     // the head comment for the next node
	entry    bool       // the next node starts an entry
	waiting  string     // a comment after a colon, for the next scalar (nextLine), or the collection's line comment at its end
	outer    string     // the head comment for this collection, a node of the one it is in (flowHead), kept while it is read
}

// flowStart: a flow collection opens (n), its bracket on the current line.
func (c *commenter) flowStart(n *yaml.Node) {
	if c.off {
		return
	}
	outer := ""
	if len(c.flows) > 0 {
		// a collection in a collection: the comment lines before it are
		// its head comment once it is read, not its first node's
		// (yaml.v3: "[\n#\n[a]]" gives "#" to [a]; FuzzDifferential,
		// 2026-11-29)
		outer, c.flowHead = c.flowHead, ""
	}
	c.flows = append(c.flows, flowLevel{n: n, tok: '[', tokLine: c.r.line, entry: true, outer: outer})
	c.lines = c.lines[:0]
	c.footable = c.r.line > 0
	c.empty, c.dash = false, false
}

// flowBlank: an empty line inside a flow collection.
func (c *commenter) flowBlank() {
	if c.off {
		return
	}
	c.blank()
}

// flowComment: a comment inside a flow collection.
func (c *commenter) flowComment(s, e int) {
	if c.off || len(c.flows) == 0 {
		return
	}
	f := &c.flows[len(c.flows)-1]
	text := c.r.src[s:e]
	if c.r.line != f.tokLine {
		c.lines = append(c.lines, gapLine{s, e, c.r.col(s)})
		return
	}
	switch f.tok {
	case 'n':
		c.give(&f.last.LineComment, text)
		if c.r.line == 0 {
			c.footable = false
		}
	case ':':
		c.nextLine = joinText(c.nextLine, text)
		f.waiting = joinText(f.waiting, text)
	default:
		if !c.r.dropLost {
			f.head = joinText(f.head, text)
		}
	}
}

// flowIndicator: a colon (':') or an explicit key's '?' read inside a flow
// collection.
func (c *commenter) flowIndicator(tok byte) {
	if c.off || len(c.flows) == 0 {
		return
	}
	f := &c.flows[len(c.flows)-1]
	c.flowSettle(f)
	f.tok, f.tokLine = tok, c.r.line
}

// flowSettle settles the gap before a node, or before the closing
// bracket (end).
func (c *commenter) flowSettle(f *flowLevel) {
	if len(c.lines) == 0 {
		return
	}
	if f.entry && f.prevFoot != nil {
		head := ""
		c.settle(0, nil, f.prevFoot, f.prevFoot, f.prevFoot, &head, false, false)
		f.head = joinText(f.head, head)
	} else {
		f.head = joinText(f.head, c.text(0, len(c.lines), true))
	}
	c.lines = c.lines[:0]
	c.footable = true
}

// flowNodeStart: a node of the flow collection is about to be read.
func (c *commenter) flowNodeStart() {
	if c.off || len(c.flows) == 0 {
		return
	}
	f := &c.flows[len(c.flows)-1]
	c.flowSettle(f)
	f.entry = false
	c.flowHead, f.head = f.head, ""
}

// flowNode: a node read inside a flow collection; empty: of its
// properties alone, which leaves a comment after a colon waiting
// (flowEmpty).
func (c *commenter) flowNode(n *yaml.Node, empty bool) {
	if c.off || len(c.flows) == 0 {
		return
	}
	f := &c.flows[len(c.flows)-1]
	if c.flowHead != "" {
		c.give(&n.HeadComment, c.flowHead)
		c.flowHead = ""
	}
	f.tok, f.tokLine, f.last = 'n', c.r.line, n
	if !empty {
		f.waiting = ""
	}
}

// flowEntryEnd: an entry of the flow collection ended; foot is the slot of
// its foot comment.
func (c *commenter) flowEntryEnd(foot *string) {
	if c.off || len(c.flows) == 0 {
		return
	}
	f := &c.flows[len(c.flows)-1]
	f.prevFoot = foot
	f.entry = true
}

// flowEnd: a flow collection closes: the gap before its bracket is its
// last entry's foot.
func (c *commenter) flowEnd(n *yaml.Node) {
	if c.off || len(c.flows) == 0 {
		return
	}
	f := &c.flows[len(c.flows)-1]
	if len(c.lines) > 0 {
		if f.prevFoot == nil {
			if !c.r.dropLost {
				c.give(&n.FootComment, c.text(0, len(c.lines), false))
			}
		} else {
			coll := ""
			given := *f.prevFoot
			c.settle(0, nil, f.prevFoot, f.prevFoot, &coll, &coll, false, false)
			if coll != "" {
				if *f.prevFoot != given {
					c.give(&n.FootComment, coll)
				} else {
					c.give(f.prevFoot, coll)
				}
			}
		}
		c.lines = c.lines[:0]
	}
	if f.head != "" {
		c.give(&n.FootComment, f.head)
	}
	if f.waiting != "" && c.nextLine == f.waiting {
		// a comment after a colon no scalar took (the value empty, the
		// collection ending): the collection's line comment, yaml.v3's
		// "{a: ,#c\n}"
		c.give(&n.LineComment, f.waiting)
		c.nextLine = ""
	}
	outer := f.outer
	c.flows = c.flows[:len(c.flows)-1]
	if len(c.flows) > 0 {
		p := &c.flows[len(c.flows)-1]
		p.tok, p.tokLine, p.last = 'n', c.r.line, n
	}
	c.flowHead = outer // (flowNode gives it to n)
}

// undefer takes back head, deferred by deferHead and not given since, and
// reports whether it could.
func (c *commenter) undefer(head string) bool {
	switch {
	case c.off:
		return false
	case c.prehead == head:
		c.prehead = ""
	case strings.HasSuffix(c.prehead, "\n"+head):
		c.prehead = c.prehead[:len(c.prehead)-len(head)-1]
	default:
		return false
	}
	return true
}

// deferHead keeps a head comment for the first token of the node below
// (the first key or item, the scalar): yaml.v3 gives the head comment of a
// node whose properties end their line to it.
func (c *commenter) deferHead(head string) {
	if c.off || head == "" {
		return
	}
	c.prehead = joinText(c.prehead, head)
}
