package tree

import (
	yaml "go.yaml.in/yaml/v3"
)

// Nodes in their places. The writer walks the tree once; for each node it
// takes the node's comments (write_comment.go), starts a line for it as
// its place asks (an entry's key at the column of its mapping, an item
// after "- "), writes the node's first tokens (its anchor, its tag, and a
// scalar whole), and then, for a collection, its entries or items and its
// end.
//
// A collection is written in flow style ([a, b], {a: b}) when its style
// says so, when it is empty, or inside another flow collection; else in
// block style. A key is written before its colon on the line of its
// entry (a simple key) when it fits on one line: a scalar without line
// breaks, an alias, or an empty collection, of at most 128 bytes with its
// anchor and tag; any other key is written after "? " on lines of its
// own, its colon at the start of the line after it.

// place is where a node is written.
type place struct {
	root   bool // the node of a document
	item   bool // an item of a block sequence
	inSeq  bool // an item of a sequence
	inMap  bool // a key or a value of a mapping
	key    bool // a key of a mapping
	simple bool // a key written on the line of its entry

	// line and head, when set, are the node's line and head comments as
	// the writer puts them (keyComments), instead of its own
	line, head       string
	lineSet, headSet bool
}

// keyAfter returns the line comment of a simple key that is a
// collection (an empty one), and makes the key's place hold none: the
// comment goes after the value, as that of a scalar key does. yaml.v3
// writes it after the key, and the colon then starts the next line,
// which does not read.
func (p *place) keyAfter(k *yaml.Node) string {
	if k == nil || k.Kind != yaml.MappingNode && k.Kind != yaml.SequenceNode {
		return ""
	}
	c := p.lineComment(k)
	p.line, p.lineSet = "", true
	return c
}

// footComment is the foot comment of n in place p: none for a key,
// whose foot comment the mapping writes after the value.
func (p place) footComment(n *yaml.Node) string {
	if p.key {
		return ""
	}
	return n.FootComment
}

// headComment is the head comment of n in place p.
func (p place) headComment(n *yaml.Node) string {
	if p.headSet {
		return p.head
	}
	return n.HeadComment
}

// lineComment is the line comment of n in place p.
func (p place) lineComment(n *yaml.Node) string {
	if p.lineSet {
		return p.line
	}
	return n.LineComment
}

// takeNode takes the comments a node has as the writer reaches it: a
// scalar's or an alias's all of them (but a key's foot comment, which the
// mapping writes after the value), a collection's head comment (its line
// and foot comments are taken at its end), and tail, the foot comment of
// the key before, for a key that is a scalar or a mapping.
func (w *writer) takeNode(n *yaml.Node, p place, tail string) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode, yaml.AliasNode:
		if n.Kind == yaml.AliasNode {
			tail = ""
		}
		w.take(p.headComment(n), p.lineComment(n), p.footComment(n), tail)
	case yaml.MappingNode:
		w.take(p.headComment(n), "", "", tail)
	default:
		w.take(p.headComment(n), "", "", "")
	}
}

// start writes the first tokens of node n in place p: an alias, a scalar
// with its anchor and tag, or the anchor and tag of a collection.
func (w *writer) start(n *yaml.Node, p place) {
	if n == nil {
		w.fail("a nil node")
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		w.scalar(n, p)
	case yaml.AliasNode:
		w.anchor('*', n.Value)
	case yaml.MappingNode, yaml.SequenceNode:
		w.anchor('&', n.Anchor)
		w.tag(collectionTag(n))
	default:
		w.fail("a node of kind %d", n.Kind)
	}
}

// inFlow reports whether a collection n is written in flow style.
func (w *writer) inFlow(n *yaml.Node) bool {
	return w.flow > 0 || n.Style&yaml.FlowStyle != 0 || len(n.Content) == 0
}

// body writes the entries or items of a collection n, started in place
// p, and its end.
func (w *writer) body(n *yaml.Node, p place) {
	if n == nil || w.err != nil {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		if w.inFlow(n) {
			w.flowMapping(n, p)
		} else {
			w.blockMapping(n, p)
		}
	case yaml.SequenceNode:
		if w.inFlow(n) {
			w.flowSequence(n, p)
		} else {
			w.blockSequence(n, p)
		}
	}
}

// blockSequence writes the items of a block sequence, each after "- " at
// the sequence's column, its comments around it.
func (w *writer) blockSequence(s *yaml.Node, p place) {
	// a sequence that is the value of an entry is compact when the style
	// asks, and the line holds its key (or a comment after the key ended
	// it)
	compactSeq := w.compact && p.inMap && (w.col() == 0 || !w.lead)
	keys := w.indent
	w.enter(false, p.item, compactSeq)
	if compactSeq && w.indent < keys {
		// yaml.v3 puts the dashes left of the key with some widths (3:
		// a mapping in an item, its keys at column 2, the dashes at 1),
		// which does not read: they go at the key's column
		w.indent = keys
	}
	for _, it := range s.Content {
		w.takeNode(it, place{}, "")
		w.flushHead()
		w.indentLine()
		w.indicator("-", true, false, true)
		ip := place{item: true, inSeq: true}
		w.start(it, ip)
		w.afterStart(it)
		w.body(it, ip)
	}
	w.take("", p.lineComment(s), p.footComment(s), "")
	w.leave()
}

// blockMapping writes the entries of a block mapping: each key at the
// mapping's column (after the "- " of an item, for the first key of a
// mapping that is one), its colon, and its value.
func (w *writer) blockMapping(m *yaml.Node, p place) {
	w.enter(false, p.item, false)
	tail := ""
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		kp, vp := w.keyComments(k, v)
		w.takeNode(k, kp, tail)
		tail = footOf(k)
		w.flushHead()
		w.indentLine()
		if w.line != "" {
			// a line comment waiting: it goes after the colon or the value
			w.put(&w.keyLine, w.line)
			w.line = ""
		}
		simple := w.simpleKey(k)
		if simple {
			kp.simple = true
			after := kp.keyAfter(k)
			w.start(k, kp)
			w.body(k, kp)
			w.put(&w.keyLine, after)
		} else {
			w.indicator("?", true, false, true)
			w.start(k, kp)
			w.body(k, kp)
		}
		w.takeNode(v, vp, "")
		if simple {
			w.indicator(":", false, false, false)
		} else {
			w.indentLine()
			w.indicator(":", true, false, true)
		}
		w.placeKeyLine(v)
		w.start(v, vp)
		w.afterStart(v)
		w.body(v, vp)
	}
	w.take("", p.lineComment(m), p.footComment(m), tail)
	w.flushHead()
	w.leave()
}

// footOf is the foot comment of a key, or "" for a nil one.
func footOf(k *yaml.Node) string {
	if k == nil {
		return ""
	}
	return k.FootComment
}

// placeKeyLine puts the line comment a key took: after the value, as its
// line comment, when the value is a scalar without one; after the colon,
// when a block collection follows (without a tag or an anchor). Otherwise
// it waits.
func (w *writer) placeKeyLine(v *yaml.Node) {
	if w.keyLine == "" || v == nil {
		return
	}
	switch v.Kind {
	case yaml.ScalarNode:
		if w.line == "" {
			w.line, w.keyLine = w.keyLine, ""
		}
	case yaml.MappingNode, yaml.SequenceNode:
		// (yaml.v3 writes it too when the value is an empty collection,
		// before its bracket: see flowStart)
		// and before a tag or an anchor, which then starts the next line
		// at the key's column)
		if !w.inFlow(v) && !taggedBlock(v) {
			w.line, w.keyLine = w.keyLine, w.line
			w.flushLine()
			w.line, w.keyLine = w.keyLine, w.line
		}
	}
}

// keyComments returns the places of a key and its value with the line
// comments the writer puts on them. Two places where yaml.v3 puts the
// line comment of a key make text that does not read back, and the
// writer puts it elsewhere:
//
//   - when the value is written in flow style (a flow collection, or an
//     empty one), yaml.v3 writes the comment after the colon and the
//     value on the next line at the key's column ("k: # c" then "{}"),
//     which does not read, or drops it ("k: {a: b}"): the writer writes
//     it after the value, on its line ("k: {} # c"), before the value's
//     own;
//   - when the value is a block collection with a tag or an anchor,
//     yaml.v3 writes the comment after the colon and the tag or anchor at
//     the start of the next line, which does not read: the writer writes
//     it above the key, after the key's head comment.
func (w *writer) keyComments(k, v *yaml.Node) (kp, vp place) {
	kp, vp = place{inMap: true, key: true}, place{inMap: true}
	if k == nil || v == nil || k.LineComment == "" || v.Kind != yaml.MappingNode && v.Kind != yaml.SequenceNode {
		return kp, vp
	}
	switch {
	case len(v.Content) == 0 || v.Style&yaml.FlowStyle != 0:
		kp.line, kp.lineSet = "", true
		vp.line, vp.lineSet = k.LineComment, true
		if v.LineComment != "" {
			vp.line += " " + v.LineComment
		}
	case taggedBlock(v):
		kp.line, kp.lineSet = "", true
		kp.head, kp.headSet = joinComments(k.HeadComment, k.LineComment), true
	}
	return kp, vp
}

// taggedBlock reports whether v, a block collection, has an anchor or a
// tag the writer writes.
func taggedBlock(v *yaml.Node) bool {
	if v.Anchor != "" {
		return true
	}
	switch v.Kind {
	case yaml.MappingNode:
		return v.Style&yaml.TaggedStyle != 0 || v.Tag != "" && v.Tag != "!!map"
	case yaml.SequenceNode:
		return v.Style&yaml.TaggedStyle != 0 || v.Tag != "" && v.Tag != "!!seq"
	}
	return false
}

func joinComments(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

// simpleKey reports whether a key is written on the line of its entry.
func (w *writer) simpleKey(k *yaml.Node) bool {
	if k == nil {
		return false
	}
	size := 0
	switch k.Kind {
	case yaml.AliasNode:
		size = len(k.Value)
	case yaml.ScalarNode:
		f := w.form(k, place{key: true})
		if f.class.multiline {
			return false
		}
		size = len(k.Anchor) + len(f.handle) + len(f.suffix) + len(f.value)
	case yaml.MappingNode, yaml.SequenceNode:
		if len(k.Content) > 0 {
			return false
		}
		h, s := collectionTag(k)
		size = len(k.Anchor) + len(h) + len(s)
	default:
		return false
	}
	return size <= 128
}

// flowSequence writes a flow sequence: "[", the items separated by ", ",
// "]". An item with a line comment is followed by its comma and the
// comment, and the next item starts a line at the sequence's column.
func (w *writer) flowSequence(s *yaml.Node, p place) {
	if len(s.Content) > 0 {
	}
	w.indicator("[", true, true, false)
	w.enter(true, p.item, false)
	w.flow++
	trail := false
	for i, it := range s.Content {
		w.takeNode(it, place{}, "")
		if i > 0 && !trail {
			w.indicator(",", false, false, false)
		}
		w.flushHead()
		if w.col() == 0 {
			w.indentLine()
		}
		ip := place{inSeq: true}
		w.start(it, ip)
		trail = w.afterFlowNode(it)
		w.body(it, ip)
	}
	w.take("", p.lineComment(s), p.footComment(s), "")
	w.flow--
	w.leave()
	if w.col() == 0 {
		w.indentLine()
	}
	w.indicator("]", false, false, false)
	w.afterEnd(p)
}

// afterEnd writes the comments waiting after the end of a flow
// collection; but not after a key, whose colon must follow on its line:
// they wait for the value.
func (w *writer) afterEnd(p place) {
	if !p.simple {
		w.flushLine()
		w.flushFoot()
	}
}

// flowMapping writes a flow mapping: "{", the entries "key: value"
// separated by ", ", "}"; a key that is not simple after "? ".
func (w *writer) flowMapping(m *yaml.Node, p place) {
	if len(m.Content) > 0 {
	}
	w.indicator("{", true, true, false)
	w.enter(true, p.item, false)
	w.flow++
	trail := false
	tail := ""
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		kp, vp := w.keyComments(k, v)
		w.takeNode(k, kp, tail)
		tail = footOf(k)
		if i > 0 && !trail {
			w.indicator(",", false, false, false)
		}
		w.flushHead()
		if w.col() == 0 {
			w.indentLine()
		}
		simple := w.simpleKey(k)
		after := ""
		if simple {
			kp.simple = true
			after = kp.keyAfter(k)
		} else {
			w.indicator("?", true, false, false)
		}
		w.start(k, kp)
		w.body(k, kp)
		w.takeNode(v, vp, "")
		if simple {
			w.indicator(":", false, false, false)
		} else {
			w.indicator(":", true, false, false)
		}
		w.take("", after, "", "")
		w.start(v, vp)
		trail = w.afterFlowNode(v)
		w.body(v, vp)
	}
	w.take("", p.lineComment(m), p.footComment(m), tail)
	if w.head != "" || w.foot != "" || w.tail != "" {
		if len(m.Content) > 1 && !trail {
			w.indicator(",", false, false, false)
		}
	}
	w.flushHead()
	w.flow--
	w.leave()
	w.indicator("}", false, false, false)
	w.afterEnd(p)
}

// trailing reports whether comments wait to be written after a node in
// a flow collection: its comma is then written before them.
func (w *writer) trailing() bool {
	return w.line != "" || w.foot != "" || w.tail != ""
}

// afterStart writes the comments waiting after the first tokens of a
// node in a block collection or a document: a line comment on its line, a
// foot comment on the lines below; but not before the bracket of a flow
// collection (see flowStart).
func (w *writer) afterStart(n *yaml.Node) {
	if w.flowStart(n) {
		return
	}
	w.flushLine()
	w.flushFoot()
}

// afterFlowNode writes the comments waiting after an item or a value of
// a flow collection, after its comma (the next item or key then starts a
// line), and reports whether it wrote the comma; but not before the
// bracket of a flow collection (see flowStart).
func (w *writer) afterFlowNode(n *yaml.Node) (comma bool) {
	if w.flowStart(n) {
		return false
	}
	if w.trailing() {
		w.indicator(",", false, false, false)
		comma = true
	}
	w.flushLine()
	w.flushFoot()
	return comma
}

// flowStart reports whether n is a collection written in flow style,
// whose bracket follows its first tokens (its anchor and tag). yaml.v3
// writes the comments waiting after those tokens before the bracket,
// which then starts the next line at column 0 (in a flow collection,
// after a comma that ends the entry before its value): text that does
// not read. The writer lets them wait for the next place inside the
// collection, or after it.
func (w *writer) flowStart(n *yaml.Node) bool {
	return n != nil && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && w.inFlow(n)
}
