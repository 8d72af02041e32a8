package fastyaml

import (
	yaml "go.yaml.in/yaml/v3"
)

// A commenter gives comments to nodes where yaml.v3 puts them.
//
// A comment on the line of a node's text is that node's line comment (a
// key's when its value is on the lines below). The other comments are read
// as lines of a gap: the comment lines and blank lines between the line of
// one token and the next token. A gap is settled when the reader reaches
// the next token and knows which collections ended before it. Its lines
// are cut into comments (see cut), each given to a node by rules that
// depend on where the gap is: before the next entry of a collection, before
// the first token of a node, at the start or the end of a document. The
// rules were found by comparing with yaml.v3 on every arrangement of a few
// comment and blank lines in each kind of place (TestGaps); an arrangement
// the rules do not cover is refused.
type commenter struct {
	r   *reader
	off bool // Skim leaves comments out

	lines    []gapLine    // the gap being read
	footable bool         // it follows a scalar: its entry may take a foot comment
	empty    bool         // it follows a key or a dash without a value on its line
	dash     bool         // it follows a dash
	closed   []*yaml.Node // the collections that ended in it, innermost first
	cols     []int        // their columns

	target *yaml.Node // the node a comment on the current line goes to
	deny   bool       // a comment on the current line is refused

	// A foot comment for the next item of a sequence (yaml.v3 gives the
	// foot of an item that is a collection to the item after it).
	nextFoot string
	joinFoot *yaml.Node // the node that took it: a foot of its own is added
	joinBuf  string

	prehead     string // the comments before a --- line
	carried     string // the head comment of an empty item ending a sequence
	firstDoc    bool   // the document being read is the stream's first
	afterMarker bool   // the gap follows a --- line

	buf []byte
}

// A gapLine is a comment line (the comment is src[s:e], at column col) or
// a blank line (s < 0).
type gapLine struct {
	s, e, col int
}

// lineTarget names the node a comment at the end of the current line
// belongs to: a key whose value is below, nil after a dash or a document
// marker (the comment is then read as a line of the gap).
func (c *commenter) lineTarget(n *yaml.Node) {
	if c.off {
		return
	}
	c.start(false)
	c.empty = true
	c.target = n
}

// dashEnd starts the gap after a dash without an item on its line.
func (c *commenter) dashEnd() {
	if c.off {
		return
	}
	c.start(c.r.line > 0)
	c.empty, c.dash = true, true
	c.target = nil
}

// scalarEnd starts the gap after a scalar or a flow collection, whose line
// may end with its line comment.
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
	c.start(c.r.line > 0 || n.Kind == yaml.ScalarNode && n.Style == 0)
	c.target = n
}

// blockScalarEnd starts the gap after a block scalar's last line.
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
	if len(c.lines) > 0 {
		c.r.refuse("internal: a gap not settled")
	}
	c.footable = footable
	c.empty, c.dash, c.deny = false, false, false
	c.closed = c.closed[:0]
	c.cols = c.cols[:0]
}

// lineComment takes the comment src[s:e] at the end of a line.
func (c *commenter) lineComment(s, e int) {
	if c.off {
		return
	}
	if c.deny {
		c.r.refuse("a comment after a directive or a ... marker")
	}
	if c.target == nil {
		c.lines = append(c.lines, gapLine{s, e, c.r.col(s)})
		c.footable = false
		return
	}
	if c.target.LineComment != "" {
		c.r.refuse("two line comments for a node")
	}
	if c.r.line == 0 {
		c.footable = false
	}
	c.target.LineComment = c.r.src[s:e]
	c.target = nil
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

// collectionEnd notes a collection that ended in the gap.
func (c *commenter) collectionEnd(n *yaml.Node, col int) {
	if c.off {
		return
	}
	c.closed = append(c.closed, n)
	c.cols = append(c.cols, col)
}

// A segment is one comment cut from a gap: lines[from:to] (from and to-1
// are comment lines), and whether blank lines after it count (trail).
type segment struct {
	from, to int
	col      int  // the column of its first line
	trail    bool // blank lines followed it before it ended
	how      byte // what ended it: 'b' the gap's first blank line, 'd' a comment less indented, 'e' the next token
	fresh    bool // no blank line before it in the gap
}

// cut cuts the gap's lines into comments. A comment runs from a comment
// line over the comment lines after it, and over blank lines between them
// (a run of blank lines becomes one empty line of the comment); it ends
// at a comment line less indented than indent and than the comment's
// first line, at the end of the gap, and at the first blank line of the
// gap if flush (for a comment at indent or deeper) or shallow (for one
// less indented) says so.
func (c *commenter) cut(indent int, flush, shallow bool, segs []segment) []segment {
	open := false
	var cur segment
	blankSeen := false
	for i, l := range c.lines {
		if l.s < 0 {
			if !blankSeen {
				blankSeen = true
				if open && (cur.col >= indent && flush || cur.col < indent && shallow) {
					cur.how = 'b'
					segs = append(segs, cur)
					open = false
					continue
				}
			}
			if open {
				cur.trail = true
			}
			continue
		}
		if open && l.col < indent && l.col != cur.col {
			cur.how = 'd'
			segs = append(segs, cur)
			open = false
		}
		if !open {
			cur = segment{from: i, col: l.col, fresh: !blankSeen}
			open = true
		}
		cur.to = i + 1
		cur.trail = false
	}
	if open {
		cur.how = 'e'
		segs = append(segs, cur)
	}
	return segs
}

// text returns a segment's comment: its lines without their indentation,
// one empty line for each run of blank lines between them, and an empty
// line at the end if trail. The text is a part of the input when the input
// has it as it is (comment lines at column 0, single empty lines).
func (c *commenter) text(s segment) string {
	b := c.buf[:0]
	blank := false
	for _, l := range c.lines[s.from:s.to] {
		if l.s < 0 {
			blank = true
			continue
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
	if s.trail {
		b = append(b, '\n')
	}
	c.buf = b
	first := c.lines[s.from].s
	if first+len(b) <= c.r.end && c.r.src[first:first+len(b)] == string(b) {
		return c.r.src[first : first+len(b)]
	}
	return string(b)
}

// give sets a comment of a node, which must not have one there.
func (c *commenter) give(slot *string, text string) {
	if *slot != "" {
		c.r.refuse("two comments for one place of a node")
	}
	*slot = text
}

// settled ends a gap.
func (c *commenter) settled() {
	c.afterMarker = false
	c.lines = c.lines[:0]
	c.closed = c.closed[:0]
	c.cols = c.cols[:0]
	c.target = nil
}

// noComment refuses a comment at the end of the current line (after a
// directive, or a ... marker).
func (c *commenter) noComment() {
	c.start(false)
	c.deny = true
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
	if len(c.closed) > 0 {
		c.r.refuse("internal: collections ended before a first token")
	}
	if k := len(c.r.open); k > 0 {
		for _, l := range c.lines {
			if l.s >= 0 && l.col < c.r.open[k-1] {
				c.r.refuse("a comment less indented than the collection around")
			}
		}
	}
	if c.afterMarker && !c.firstDoc {
		comment := false
		for _, l := range c.lines {
			if l.s >= 0 {
				comment = true
			} else if comment {
				// yaml.v3 makes the comment before the blank line a
				// foot comment of the document before.
				c.r.refuse("a blank line after comments after ---")
			}
		}
	}
	// After a dash or a --- line, the first blank line ends a comment
	// before it as a foot comment, which yaml.v3 gives to the first
	// scalar that follows.
	var segs [2]segment
	s := c.cut(-1, (c.dash || c.afterMarker) && c.footable, false, segs[:0])
	h := ""
	for _, s := range s {
		if s.how == 'b' {
			if c.nextFoot != "" {
				// (one for the item before, joined)
				c.nextFoot += "\n" + c.text(s)
			} else {
				c.nextFoot = c.text(s)
			}
		} else {
			h = c.text(s)
		}
	}
	c.settled()
	return c.joinPre(h)
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
	if n.Kind == yaml.ScalarNode {
		return !(n.Tag == nullTag && n.Value == "" && n.Style == 0)
	}
	return n.Style == yaml.FlowStyle
}

// footOf returns the node that takes the foot comment of the i-th
// collection that ended (from the innermost): the key of a mapping's last
// entry, a sequence's last item if a scalar or a flow collection; for a
// sequence ending with a block collection or an empty item, what takes
// that of the collection around it; nil if that is the entry before the
// next token.
func (c *commenter) footOf(i, deep int) *yaml.Node {
	for ; i < deep; i++ {
		n := c.closed[i]
		k := len(n.Content)
		switch {
		case k == 0:
			c.r.refuse("a foot comment for an empty collection")
		case n.Kind == yaml.MappingNode:
			return n.Content[k-2]
		case atomic(n.Content[k-1]):
			return n.Content[k-1]
		}
	}
	return nil // the entry before col's takes it
}

// next settles the gap before the next entry of a collection at column
// col (a key or a dash), whose entry before is prev (for a mapping its
// key, for a sequence its item). It returns the head comment of the entry.
func (c *commenter) next(col int, prev *yaml.Node, seq bool) string {
	if c.off {
		return ""
	}
	if c.carried != "" && (seq || len(c.closed) != 1) {
		c.r.refuse("an empty item's head comment after collections ended")
	}
	if len(c.lines) == 0 {
		c.settled()
		h := c.carried
		c.carried = ""
		return h
	}
	if c.nextFoot != "" {
		c.r.refuse("internal: a foot comment not given")
	}
	// The node the foot comment of the entry before goes to.
	var pfoot *string
	switch {
	case !seq:
		pfoot = &prev.FootComment
	case atomic(prev):
		pfoot = &prev.FootComment
		if prev == c.joinFoot {
			// It holds the foot comment of the item before.
			c.joinBuf = prev.FootComment
			prev.FootComment = ""
		}
	default:
		pfoot = &c.nextFoot
	}
	// A sequence at col that ended (a key's value, its dashes at the
	// key's column) takes it instead.
	var itemFoot *string
	deep := len(c.closed)
	if deep > 0 && c.cols[deep-1] == col {
		s := c.closed[deep-1]
		deep--
		if s.Kind != yaml.SequenceNode || len(s.Content) == 0 {
			c.r.refuse("internal: a collection at the next key's column")
		}
		// (When its last item is a block collection or empty, the key
		// before takes the foot comment; so it does of a comment less
		// indented than col.)
		if last := s.Content[len(s.Content)-1]; atomic(last) {
			itemFoot = &last.FootComment
		}
	}
	c.shape(col, deep)
	if c.empty && deep > 0 {
		for _, l := range c.lines {
			if l.s >= 0 && l.col > col && l.col < c.cols[0] {
				c.r.refuse("a comment between the columns of two collections after an empty value")
			}
		}
	}
	var segsArr [4]segment
	// The first blank line ends a comment before it after a scalar; when
	// collections ended, also after anything but an empty value, and
	// always for a comment less indented than they.
	flush := c.footable || deep > 0 && !c.empty
	segs := c.cut(max(col, c.colsOr(deep, col)), flush, flush || deep > 0, segsArr[:0])
	head := ""
	var last *string // where a foot comment after the first blank line went
	deeper := 0
	var first segment // the first comment indented otherwise than col
	for _, s := range segs {
		if deep > 0 && s.col != col && (s.col > col || s.how != 'b') {
			// The comment indented more than col: the foot comment of
			// the innermost collection's last entry; when the first
			// blank line ended it and it is less indented than that
			// collection, of the collection at its column, or of the
			// entry before if none is.
			deeper++
			i := 0
			switch {
			case deeper == 1 && s.how == 'b' && s.col < c.cols[0]:
				for i < deep && c.cols[i] != s.col {
					i++
				}
			case deeper == 2 && first.how == 'b' && first.col == c.cols[0] && s.col == c.cols[0]:
				// A second paragraph at the innermost collection's
				// column, after one the first blank line ended: the
				// foot comment of the entry before.
				i = deep
			case deeper > 1:
				c.r.refuse("comments indented otherwise than the next token cut apart")
			}
			first = s
			if i < deep {
				if n := c.footOf(i, deep); n != nil {
					c.give(&n.FootComment, c.text(s))
					continue
				}
			}
			if seq || itemFoot != nil {
				c.r.refuse("a foot comment between a sequence and the collections in it")
			}
			if s.how == 'e' {
				c.give(pfoot, c.text(s))
				continue
			}
		}
		switch {
		case s.how == 'e':
			head = c.text(s)
		case s.how == 'b':
			last = pfoot
			switch {
			case seq && s.col < col:
				last = &c.nextFoot // (yaml.v3 gives it to the next item)
			case itemFoot != nil && s.col >= col:
				last = itemFoot
			}
			c.give(last, c.text(s))
		case last != nil:
			c.r.refuse("a comment ended by one less indented after a foot comment")
		case itemFoot != nil:
			c.r.refuse("a comment ended by one less indented after a sequence")
		default:
			// A comment ended by one less indented than col.
			c.give(pfoot, c.text(s))
		}
	}
	if c.carried != "" {
		for _, s := range segs {
			if s.how != 'e' {
				c.r.refuse("foot comments after an empty item's head comment")
			}
		}
		if head != "" {
			head = c.carried + "\n" + head
		} else {
			head = c.carried
		}
		c.carried = ""
	}
	if c.joinBuf != "" {
		if prev.FootComment == "" {
			prev.FootComment = c.joinBuf
		} else {
			prev.FootComment = c.joinBuf + "\n" + prev.FootComment
		}
		c.joinBuf = ""
	}
	c.settled()
	return head
}

// shape refuses the arrangements of comments in a gap before a token at
// column col that the rules do not cover, deep collections deeper than col
// having ended: comments less indented than col; when collections ended,
// comments between the columns of the innermost and col, and other than
// one paragraph of comments at least as indented as the innermost
// followed by comments at col.
func (c *commenter) shape(col, deep int) {
	// 1: in the first deeper paragraph, 2: after it, 3: after a comment
	// at col, 4: in a second deeper paragraph (at the innermost's column)
	phase := 0
	same := false // the first deeper paragraph is at the innermost's column
	for _, l := range c.lines {
		switch {
		case l.s < 0:
			if phase == 1 {
				phase = 2
			}
		case l.col < col && (c.empty || !c.footable && deep == 0):
			c.r.refuse("a comment less indented than the next token")
		case deep == 0:
		case l.col == col:
			phase = 3
		case phase == 0:
			phase = 1
			same = l.col == c.cols[0]
		case phase == 1:
			same = same && l.col == c.cols[0]
		case (phase == 2 && same || phase == 4) && l.col == c.cols[0]:
			phase = 4
		case phase != 1:
			c.r.refuse("comments deeper than the next token's after others")
		}
	}
}

// isCol reports whether col is the column of a collection that ended.
func (c *commenter) isCol(col int) bool {
	for _, k := range c.cols {
		if k == col {
			return true
		}
	}
	return false
}

// colsOr returns the column of the innermost deeper collection that ended,
// or col if none did.
func (c *commenter) colsOr(deep, col int) int {
	if deep > 0 {
		return c.cols[0]
	}
	return col
}

// carry keeps the head comment of an empty item that ends a sequence for
// the next token.
func (c *commenter) carry(head string) {
	if c.off {
		return
	}
	if c.carried != "" {
		c.r.refuse("two head comments of empty items")
	}
	c.carried = head
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
// the scalar that starts the next item. (A flow collection or a block
// scalar there is refused.)
func (c *commenter) firstScalar(n *yaml.Node) {
	if c.nextFoot == "" {
		return
	}
	c.give(&n.FootComment, c.nextFoot)
	c.nextFoot = ""
	c.joinFoot = n
}

// The document's comments.

// marker: a --- line. The comments before it (at the start of the
// stream) are cut apart from those after it: they make one head comment,
// joined with the first token's.
func (c *commenter) marker() {
	if c.off {
		return
	}
	c.target = nil
	c.afterMarker = true
	c.footable = c.r.line > 0 // (for an empty document)
	if len(c.lines) > 0 {
		var segs [2]segment
		s := c.cut(-1, false, false, segs[:0])
		if len(s) == 1 {
			c.prehead = c.text(s[0])
		}
		c.lines = c.lines[:0]
	}
}

// emptyDoc: a document without content.
func (c *commenter) emptyDoc(n *yaml.Node) {
	if c.off {
		return
	}
	if c.prehead != "" {
		c.r.refuse("comments before --- in an empty document")
	}
}

// docEnd settles the gap at the end of a document, whose root is root:
// before the end of the stream (eof), or before a --- or ... marker.
//
// The comments right after the last token (before the gap's first blank
// line) are the foot comments of the entries that ended, as before the
// next entry of a collection: of the innermost collection's last entry
// for those indented as it is or more, else of the root's last entry (or
// the root, a scalar). What follows the first blank line is the
// document's foot comment; so is what follows right after the last token
// before a marker (not before the end of the stream). After a flow
// collection or a key or dash without a value, all of it is the
// document's foot comment.
func (c *commenter) docEnd(doc, root *yaml.Node, eof bool) {
	if c.off {
		return
	}
	if c.carried != "" {
		if len(c.closed) != 1 || c.closed[0] != root || c.hasComments() {
			c.r.refuse("an empty item's head comment at the end of a document")
		}
		doc.FootComment, c.carried = c.carried, ""
	}
	if len(c.lines) == 0 {
		c.settled()
		return
	}
	// The root's column, and the collections deeper than the root that
	// ended.
	col, deep := root.Column-1, len(c.closed)
	if root.Kind != yaml.ScalarNode {
		if deep == 0 || c.closed[deep-1] != root {
			c.r.refuse("internal: the root did not end")
		}
		deep--
	}
	if deep > 0 && c.cols[deep-1] == col {
		c.r.refuse("a sequence at the root's column ending with the document")
	}
	if col > 0 {
		c.r.refuse("comments at the end of a document whose root is indented")
	}
	// The node the foot comment of the root's last entry goes to; nil
	// where yaml.v3 gives it to the document.
	var pfoot *string
	switch {
	case root.Kind == yaml.ScalarNode:
		if root.Tag == nullTag && root.Value == "" && root.Style == 0 {
			// An empty document: yaml.v3 gives the comments of one
			// after another to the one before.
			if !c.firstDoc {
				c.r.refuse("comments in an empty document after another")
			}
			break
		}
		pfoot = &root.FootComment
	case root.Style == yaml.FlowStyle:
	case root.Kind == yaml.MappingNode:
		pfoot = &root.Content[len(root.Content)-2].FootComment
	case atomic(root.Content[len(root.Content)-1]):
		pfoot = &root.Content[len(root.Content)-1].FootComment
	}
	flush := c.footable || deep > 0 && !c.empty
	if !flush && deep == 0 {
		pfoot = nil
	}
	indent := col
	if deep > 0 {
		indent = c.cols[0]
	}
	var segsArr [4]segment
	var segs []segment
	if !eof {
		// As before a next entry at the root's column.
		c.shape(col, deep)
		for _, l := range c.lines {
			if l.s >= 0 && (deep > 0 && l.col > col && l.col < c.cols[0] || c.empty && l.col > col) {
				c.r.refuse("a comment at the end of a document between the columns of two collections")
			}
		}
		segs = c.cut(indent, flush, true, segsArr[:0])
		for _, s := range segs {
			switch {
			case pfoot == nil && (deep == 0 || s.col == col):
				c.give(&doc.FootComment, c.text(s))
			case deep > 0 && s.col > col:
				c.give(&c.footOf(0, deep).FootComment, c.text(s))
			case s.how == 'b':
				c.give(pfoot, c.text(s))
			default:
				c.give(&doc.FootComment, c.text(s))
			}
		}
		c.settled()
		return
	}
	// At the end of the stream: the comments before the first blank line
	// as before a next entry, those after it the document's.
	if c.r.end > 0 && c.r.src[c.r.end-1] != '\n' {
		c.r.refuse("comments at the end of a stream without a line break")
	}
	c.shape(col, deep)
	for _, l := range c.lines {
		if l.s >= 0 && l.col < col {
			c.r.refuse("a comment at the end of a stream less indented than the root")
		}
	}
	if (c.empty || !c.footable) && deep > 0 {
		for _, l := range c.lines {
			if l.s >= 0 && l.col > col {
				c.r.refuse("comments at the end of a stream after an empty value")
			}
		}
	}
	if !flush && deep == 0 {
		segs = c.cut(-1, false, false, segsArr[:0])
		if len(segs) == 1 {
			c.give(&doc.FootComment, c.text(segs[0]))
		}
		c.settled()
		return
	}
	blank := len(c.lines)
	for i, l := range c.lines {
		if l.s < 0 {
			blank = i
			break
		}
	}
	all := c.lines
	c.lines = all[:blank]
	segs = c.cut(indent, flush, true, segsArr[:0])
	for _, s := range segs {
		// A comment ended by one less indented is the innermost
		// collection's foot comment; the others go by their column:
		// to the collection at it (the innermost when deeper).
		var n *yaml.Node
		if deep > 0 && s.col > col {
			i := 0
			if s.how != 'd' && s.col < c.cols[0] {
				for i < deep && c.cols[i] != s.col {
					i++
				}
				if i == deep {
					c.r.refuse("a comment at the end of a stream between the columns of two collections")
				}
			}
			n = c.footOf(i, deep)
		}
		switch {
		case n != nil:
			c.give(&n.FootComment, c.text(s))
		case pfoot == nil:
			c.give(&doc.FootComment, c.text(s))
		default:
			c.give(pfoot, c.text(s))
		}
	}
	c.lines = all[blank:]
	var more [2]segment
	rest := c.cut(indent, false, false, more[:0])
	switch {
	case len(rest) > 1:
		c.r.refuse("comments at the end of a stream cut apart")
	case len(rest) == 1 && len(segs) > 0 && deep > 0:
		for _, l := range c.lines {
			if l.s >= 0 && l.col != col && c.isCol(l.col) {
				c.r.refuse("a comment at the end of a stream at a collection's column")
			}
		}
		fallthrough
	case len(rest) == 1:
		c.give(&doc.FootComment, c.text(rest[0]))
	}
	c.lines = all
	c.settled()
}

// streamEnd: comments after the last document (after a ... line), or
// in a stream without documents, which yaml.v3 drops.
func (c *commenter) streamEnd(docs []*yaml.Node) {
	if c.off {
		return
	}
	if len(c.lines) > 0 && len(docs) > 0 {
		c.r.refuse("comments after a document's ... line")
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
	var segs [2]segment
	rest := c.lines[last:]
	c.lines = c.lines[:last]
	s := c.cut(-1, false, false, segs[:0])
	if len(s) == 1 {
		s[0].trail = false
		c.give(&doc.HeadComment, c.text(s[0]))
	}
	c.lines = append(c.lines[:0], rest...)
}

// hasComments reports whether the gap has comment lines.
func (c *commenter) hasComments() bool {
	if c.off {
		return false
	}
	for _, l := range c.lines {
		if l.s >= 0 {
			return true
		}
	}
	return false
}
