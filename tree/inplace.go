package tree

import (
	"bytes"
	"cmp"
	"errors"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/fastyaml"
)

// Writing changed values, removed and added entries as byte-range edits.
//
// The commonest edit changes values and nothing else: an image, a replica
// count, an environment variable's value. When every difference between a
// document's snapshot and its edited tree is a scalar value (its text, tag
// or style) that is not a key, and neither the old nor the new value is a
// block scalar, an empty node, an alias or anchored, and no comment
// changed (but a line comment: below), the document's text is read again with the ranges of its
// scalars (fastyaml.ParseRanges), and the range of each changed value is
// replaced by the writer's text of the new one for its place (in a block
// collection or a flow one), on one line. Every other byte is the
// source's: comments, blank lines, indentation, spacing inside the line,
// quoting of other values, line ends (CRLF stays CRLF), a missing final
// newline, a "---" line.
//
// Changed values alone, the text reads as the edited document without
// being read back:
//   - what the reader reads at a range is one scalar, its properties
//     included, and a range is replaced only when the reader, reading the
//     document's text alone, gives the snapshot's values at those places
//     (the same kinds, lengths, values, tags and comments along the way;
//     Snapshot may be taken after edits): the ranges are those of the
//     snapshot's nodes, and the text kept holds the snapshot's comments;
//   - a range is replaced only when what follows it ends any scalar (the
//     end, a blank, a line break, in a flow collection a ',', ']' or
//     '}'; not the '#' yaml.v3 reads as a comment right after a closing
//     quote, which after plain text would be part of it: endsValue);
//   - the writer's text for the new value is one scalar that reads as the
//     new value in that place (its own rule: plain text only where it
//     reads back as itself, in a flow collection without flow
//     indicators, never ending in a blank or holding " #"), on one line,
//     so what follows ends it as it ended the old one;
//   - it is plain where the old text was plain and quoted where it was
//     quoted, or no comment line follows it, its text's line breaks are LF
//     or CRLF and no blank line after it holds a tab (kindFree): yaml.v3
//     places a comment after the one otherwise than after the other in
//     places ("0: 0\r#" gives the comment to 0 as its foot comment,
//     "0: '0'\r#" to what follows as its head comment), and reads a tab
//     on a blank line after a plain scalar only.
// TestReplaceValuesRandom and FuzzReplaceValues read every document
// written so back, every node's comments compared.
//
// Entries removed from a block collection are cut from the text with
// their lines, entries added to one are inserted as the writer's lines for
// them at their siblings' column (entryEdits, removedLines, addedLines;
// where no entry of a mapping stays, where the first removed one was);
// a mapping's entry whose value changed otherwise than a scalar's text (a
// block scalar, a null given text, another kind, a flow collection) has
// its lines replaced by the writer's, its key's text kept
// (rewrittenLines); a block sequence's items are aligned first (itemEdits,
// alignItems): see there for when.
//
// A scalar value's line comment added, changed or removed in a block
// collection replaces the rest of the value's line (lineCommentText);
// such a text is read again at once, and must hold every comment where
// the edited tree has it (yaml.v3 places the comment lines below a line
// by what the line ends with), and read back too.
//
// A kept key's head comment added, changed or removed is its comment
// lines above the key replaced (headText), and the text read again at once
// too. Every other edit (a foot comment of a kept node changed, a comment
// that would go to another node, an item changed where its layout would be
// lost) is refused: the document is rendered (preserve.go).

// valueEdit is one edit of a document's text: a changed value, an entry
// removed from a block collection, or one added to it.
type valueEdit struct {
	kind editKind

	// a changed value: the snapshot's node as the document's text reads
	// it again (with its range), the edited tree's node, and whether it is
	// in a flow collection; a removed entry: its key (or item) and value
	// as the text reads them (value nil for an item)
	read, now *yaml.Node
	flow      bool
	value     *yaml.Node

	// a removed entry's nodes in the snapshot, an added one's in the
	// edited tree (value nil for an item)
	key, val *yaml.Node

	// where an added entry goes: after the lines of the kept entry whose
	// key (or item) and value the text reads as afterK and afterV, or,
	// when none is before it, before the line of the kept entry beforeK;
	// its column is that of the collection's entries (a key's, an
	// item's dash), read from sibling
	afterK, afterV, beforeK *yaml.Node
	sibling                 *yaml.Node

	// the collection an entry is removed from or added to, as the text
	// reads it; an added entry's, as the edited tree has it (footsMoved)
	parent, into *yaml.Node

	// a rewritten entry's key and value in the snapshot (key and val:
	// in the edited tree; read and value: as the text reads them)
	oldKey, oldVal *yaml.Node

	// an added item that goes where a removed one was: the removed item
	// as the text reads it (its lines' start, its head comment's)
	replaces *yaml.Node

	// an added item that is a removed one moved (identical to it,
	// comments included; moveItems): its lines are the removed item's
	// lines, copied, not the writer's; from is that item as the text reads
	// it (nil before the text is read)
	moved bool
	from  *yaml.Node

	// a removed entry whose head comment lines stay, and the added entry
	// (replaces) written after them without its head comment: the two
	// have the same one (an item whose null got text, written anew: its
	// comment lines kept as they are, not written anew at its column;
	// FuzzReplaceValues, 2026-11-30)
	keepHead bool

	// a removed entry or item that an added one holding a comment goes
	// in place of (an added one's replaces)
	replaced bool

	// a removed entry whose foot comment lines stay, after the lines
	// rewrittenLines writes anew without it: the key keeps its foot
	// comment, and its lines are the source's
	keepFoot bool

	// a removed entry whose lines rewrittenLines writes anew: a compact
	// mapping's first key ("- a: 1") is cut to its line's end, not to the
	// next key's text (removedLines)
	rewrite bool
}

// An editList is the edits valueEdits finds in a document, and the cells
// of alignment tables its lists may still take (alignItems): a table
// takes up to len(a)×len(b) ≤ 1<<16 cells, and a document's lists as many
// as 128 per item of theirs (2,000 lists of 256 items, each changed at
// both ends, took 4.6 s more than the general way; attack, 2026-11-29).
type editList struct {
	list  []valueEdit
	cells int

	// the document's text, its aliases and merge keys expanded as Read
	// expands them, reads as the snapshot, comments included (expandsTo):
	// its anchored nodes, aliases and merge keys are the snapshot's where
	// they are unchanged
	expanded bool
}

// expandsTo reports whether read, a document as its text reads it, is
// snap once its aliases and merge keys are expanded as Read expands them
// (normalizeDoc, on a copy): the same nodes, comments and styles.
func (s *Stream) expandsTo(read, snap *yaml.Node) bool {
	norm, ok := copyAliased(read, map[*yaml.Node]*yaml.Node{})
	if !ok {
		return false
	}
	if _, err := normalizeDoc(norm, s.File, s.limits, &aliases{}); err != nil {
		return false
	}
	return identical(norm, snap)
}

// copyAliased returns a copy of n whose aliases point to the copies of
// their anchored nodes (copies: what n's nodes became, in the order of
// the text, which has an anchor before its aliases); ok is false for an
// alias to a node outside n (an earlier document's).
func copyAliased(n *yaml.Node, copies map[*yaml.Node]*yaml.Node) (*yaml.Node, bool) {
	c := *n
	copies[n] = &c
	if n.Kind == yaml.AliasNode {
		target, ok := copies[n.Alias]
		c.Alias = target
		return &c, ok
	}
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, child := range n.Content {
			var ok bool
			if c.Content[i], ok = copyAliased(child, copies); !ok {
				return nil, false
			}
		}
	}
	return &c, true
}

// alignCells is the cells of alignment tables a document's lists take,
// in all, each time valueEdits reads it: the lists past them are aligned
// in one pass (alignItems).
const alignCells = 1 << 22

// An editKind says what a valueEdit does.
type editKind uint8

const (
	valueChanged editKind = iota
	entryRemoved
	entryAdded
	entryRewritten // a mapping's entry whose value changed otherwise: its lines written anew
	commentChanged // a scalar value's line comment added, changed or removed
	headChanged    // a block mapping's key's head comment added, changed or removed (its lines above the key)
	flowReplaced   // a flow collection whose entries changed, on one line: its text replaced by the writer's (flowText)
	rootAdded      // an empty document given a root: the writer's lines after the document's text (rootText)
)

// replaceValues returns the text of an edited document whose source text
// is chunk (first: the stream's first document), by replacing the ranges
// of its changed values, cutting, inserting and replacing lines (see
// above); ok is false when the edit is of another kind, and the document
// must be written otherwise. proven is false when lines were cut or
// inserted: the text is then read back before it is used (preserved),
// as the attacks of 2026-11-29 found two ways to write text that did not
// read; values replaced alone are proven by construction, and so is the
// text of a stream's one document that was read back here already. rr
// is the document's parse Load kept, or nil: used when it is the parse
// of this text (the snapshot's), else the text is read again.
func (s *Stream) replaceValues(chunk, lent []byte, snap, doc *yaml.Node, first, last bool, rr *rangedRead) (text []byte, proven bool, as *yaml.Node, ok bool) {
	edits := editList{cells: alignCells}
	if !valueEdits(nil, snap, doc, false, false, &edits) || len(edits.list) == 0 {
		return nil, false, nil, false
	}
	own, ok := inStream(ownText(chunk, lent), last)
	if !ok {
		return nil, false, nil, false
	}
	var read *yaml.Node // the document as own reads it, its nodes' ranges in ranges
	var ranges *fastyaml.Ranges
	if rr != nil && rr.doc == snap && bytes.Equal(rr.text, own) {
		// the snapshot is the parse of this very text (Load): read again,
		// it would be the same nodes
		read, ranges = rr.doc, rr.ranges
	} else {
		docs, r, err := fastyaml.ParseRanges(own, s.limits.MaxDepth)
		if err != nil || len(docs) != docsIn(last) {
			return nil, false, nil, false
		}
		read, ranges = docs[0], r
	}
	edits = editList{list: edits.list[:0], cells: alignCells} // (the same alignments)
	switch {
	case read == snap:
		// the parse Load kept, which normalizing left unchanged: it
		// expands to itself (no walk on every loaded document)
		edits.expanded = true
	case anyNode(read, func(m *yaml.Node) bool { return m.Anchor != "" || m.Kind == yaml.AliasNode }):
		edits.expanded = s.expandsTo(read, snap)
	}
	if !valueEdits(read, snap, doc, false, false, &edits) {
		return nil, false, nil, false
	}
	lines := false    // entries removed or added: the text is cut at line breaks
	comments := false // line comments changed: the text is read back
	outer := false    // lines cut or inserted before a comment left of them: the text is read back
	for _, e := range edits.list {
		lines = lines || e.kind != valueChanged && e.kind != commentChanged
		// (an entry added or written anew with comments, a patch's: the
		// writer puts them where they read as its nodes' in a text of
		// their own, and where they are read in this one is checked)
		comments = comments || e.kind == commentChanged || e.kind == headChanged || e.kind == flowReplaced || e.kind == rootAdded ||
			(e.kind == entryAdded || e.kind == entryRewritten) && (commented(e.key) || commented(e.val))
	}
	// the text's line breaks, found once (kindFree, addedLines)
	breaksOK, eol := lfOrCRLF(chunk), []byte("\n")
	if bytes.Contains(chunk, []byte("\r\n")) || bytes.IndexByte(chunk, '\n') < 0 && lineEnd(chunk, s.src) == "\r\n" {
		// (a text without a line break, "---" alone at the end of a
		// stream, takes the stream's)
		eol = []byte("\r\n")
	}
	blocks := false // (cutsLines: the document has a block scalar)
	if lines {
		var cut bool
		if cut, blocks = cutsLines(chunk, ranges, read); !cut {
			return nil, false, nil, false
		}
	}
	regions := make([]textEdit, 0, len(edits.list))
	// an added entry that goes where a removed one was, with the same
	// head comment, keeps that one's comment lines (keepHead)
	heads := map[*yaml.Node]bool{}
	for i := range edits.list {
		e := &edits.list[i]
		if e.kind == entryAdded && e.replaces != nil && !heads[e.replaces] && e.key.HeadComment != "" && e.key.HeadComment == e.replaces.HeadComment {
			heads[e.replaces], e.keepHead = true, true
		}
	}
	// a removed item that an added one holding comments goes in place of
	// keeps its own comment lines out of its cut (the writer lays out the
	// new item's comments, which may be the same ones); in place of one
	// without any comment, the removed item's comments go with it
	replacedBy := map[*yaml.Node]bool{}
	for _, e := range edits.list {
		if e.kind == entryAdded && e.replaces != nil && (commented(e.key) || commented(e.val)) {
			replacedBy[e.replaces] = true
		}
	}
	for i := range edits.list {
		if e := &edits.list[i]; e.kind == entryRemoved {
			e.keepHead = e.keepHead || heads[e.read]
			e.replaced = replacedBy[e.read]
		}
	}
	// the removed entries' lines first: an added entry goes where one
	// was, or next to them (the comment lines they cut are no neighbours)
	var cuts []textEdit
	cutAt := map[*yaml.Node]textEdit{} // a removed entry's read node: its cut
	for _, e := range edits.list {
		if e.kind == entryRemoved {
			// (the comment lines the text lends the document before are
			// blank lines in own, as the document reads: not the first
			// entry's, nor in its way)
			from, to, left, ok := removedLines(own[:len(chunk)], ranges, e, first, blocks)
			if !ok {
				return nil, false, nil, false
			}
			outer = outer || left
			cuts = append(cuts, textEdit{from: from, to: to})
			cutAt[e.read] = textEdit{from: from, to: to}
		}
	}
	slices.SortFunc(cuts, func(a, b textEdit) int { return a.from - b.from })
	for _, e := range edits.list {
		var g textEdit
		switch e.kind {
		case entryRemoved:
			continue
		case entryAdded:
			at, text, left, ok := s.addedLines(chunk, ranges, e, first, eol, cuts, cutAt)
			if !ok {
				return nil, false, nil, false
			}
			outer = outer || left
			g = textEdit{from: at, to: at, text: text, added: true, block: mayEndInBlock(e.key, e.val), foot: endsWithFoot(e.key, e.val)}
			if at == len(chunk) && (len(chunk) == 0 || chunk[len(chunk)-1] != '\n') {
				g.lead = len(eol) // (addedLines' line break first)
			}
		case entryRewritten:
			from, to, text, left, ok := s.rewrittenLines(chunk, ranges, e, first, blocks, eol)
			if !ok {
				return nil, false, nil, false
			}
			outer = outer || left
			// (a foot comment of the key that its lines held stays in
			// them, after the new lines: the new lines do not end with
			// it, rewrittenLines' keepFoot)
			kept := keepsFoot(e)
			g = textEdit{from: from, to: to, text: text, added: true, block: mayEndInBlock(e.key, e.val), foot: endsWithFoot(e.key, e.val) && !kept, inline: from > 0 && chunk[from-1] != '\n'}
		case headChanged:
			from, to, text, ok := headText(chunk, ranges, e, first, eol)
			if !ok {
				return nil, false, nil, false
			}
			g = textEdit{from: from, to: to, text: text}
		case rootAdded:
			at, text, ok := rootText(chunk, e.read, e.now, s.Style, eol)
			if !ok {
				return nil, false, nil, false
			}
			g = textEdit{from: at, to: at, text: text, added: true, block: mayEndInBlock(e.now, nil), foot: endsWithFoot(e.now, nil)}
		case flowReplaced:
			// the collection's text, on one line, replaced by the
			// writer's on one line: no line comes or goes (read back at
			// once, as comments changed are)
			r, ok := ranges.Of(e.read)
			if !ok || bytes.ContainsAny(chunk[r.Start:r.End], "\r\n") {
				return nil, false, nil, false
			}
			text, ok := flowText(e.now, s.Style)
			if !ok {
				return nil, false, nil, false
			}
			g = textEdit{from: r.Start, to: r.End, text: text}
		case commentChanged:
			r, ok := ranges.Of(e.read)
			if !ok || !breaksOK {
				return nil, false, nil, false
			}
			to, text, ok := lineCommentText(chunk, r.End, e.read.LineComment, e.now.LineComment)
			if !ok {
				return nil, false, nil, false
			}
			g = textEdit{from: r.End, to: to, text: text}
		default:
			r, ok := ranges.Of(e.read)
			if !ok {
				return nil, false, nil, false
			}
			if !endsValue(chunk[r.End:], e.flow) {
				// what follows the text is not what ends a scalar anywhere
				// (a '#' right after a closing quote, which yaml.v3 reads as
				// a comment: after plain text it would not be one)
				return nil, false, nil, false
			}
			value, ok := valueText(e.now, s.Style, e.flow)
			kind := quotedText(value) != (e.read.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0)
			multiline := bytes.ContainsAny(chunk[r.Start:r.End], "\r\n")
			if !ok || (kind || multiline) && !kindFree(chunk, r.End, breaksOK) {
				// yaml.v3 places a comment after a plain scalar otherwise
				// than after a quoted one in places ("0: 0\r#" has the
				// comment as the foot comment of 0, "0: '0'\r#" as the head
				// comment of what follows), and after a quoted scalar of
				// several lines otherwise than after one of one line
				// ("0: \"x\r\n  y\"\r\n#" has the comment as the foot
				// comment of 0, "0: \"z\"\r\n#" as the head comment of what
				// follows; attack, 2026-11-29): a value changes from plain
				// to quoted or back, or from several lines to one, only
				// where no comment line follows it (kindFree)
				return nil, false, nil, false
			}
			g = textEdit{from: r.Start, to: r.End, text: value}
		}
		regions = append(regions, g)
	}
	regions = append(regions, cuts...)
	// in the order of the text; an insertion before what is cut or
	// replaced at its offset; insertions at one offset in the edit's order
	slices.SortStableFunc(regions, func(a, b textEdit) int {
		if a.from != b.from {
			return a.from - b.from
		}
		return (a.to - a.from) - (b.to - b.from)
	})
	out := make([]byte, 0, len(chunk)+64)
	at := 0
	var added []textEdit // the added entries' ends in out (from), and whether each may end with a block scalar
	for _, g := range regions {
		if g.from < at {
			return nil, false, nil, false // (overlapping edits)
		}
		out = append(out, chunk[at:g.from]...)
		if g.lead > 0 && len(out) > 0 && out[len(out)-1] == '\n' {
			// the text before ends with a line break after all: the
			// lines at its end were cut, or written anew with one
			g.text = g.text[g.lead:]
		}
		if g.added && g.lead == 0 && !g.inline && len(out) > 0 && out[len(out)-1] != '\n' {
			// new lines after new lines written as the text's last,
			// without a line break: they are not the last. New lines go
			// at the start of a line, so the text before ends with a line
			// break unless new lines written open end it, right before or
			// before lines cut up to here (a nested list's last item
			// replaced, then the outer list's: "  - k: v- m: p"; attack,
			// 2026-11-29)
			out = append(out, eol...)
		}
		out = append(out, g.text...)
		if g.added {
			first := bytes.TrimLeft(g.text, "\r\n")
			col := len(first) - len(bytes.TrimLeft(first, " "))
			if g.inline {
				col = g.from - (bytes.LastIndexByte(chunk[:g.from], '\n') + 1) // (the key's, after the dash)
			}
			added = append(added, textEdit{from: len(out), block: g.block, foot: g.foot, col: col})
		}
		at = g.to
	}
	out = append(out, chunk[at:]...)
	for _, g := range added {
		if !blanksFollow(out, g.from, g.block) {
			return nil, false, nil, false
		}
		if line, _ := lineAt(out, g.from); g.foot && !blankLine(line) && len(line)-len(bytes.TrimLeft(line, " ")) >= g.col {
			// a foot comment ending the new lines right above a line at
			// their column or right of it (the next entry's, or a new
			// entry's): the writer writes a blank line between them, and
			// yaml.v3 reads the comment as the next entry's head comment
			// but after a line that ends with CRLF, where the text read
			// back holds it in its place and Options.Whole wrote the blank
			// line ("a: 1\r\nb: 2\r\n" given "z: 0" with "# foot"
			// before b; attack, 2026-11-30)
			return nil, false, nil, false
		}
	}
	if first && bytes.HasPrefix(out, []byte("\ufeff")) {
		// a U+FEFF that began a later line (a key's first character,
		// "0:\n\ufeff0:") now begins the stream, where it is a byte
		// order mark: the key would lose it (FuzzReplaceValues,
		// 2026-11-30; the stream's read-back caught it)
		return nil, false, nil, false
	}
	lastBlock := len(added) > 0 && added[len(added)-1].from == len(out) && added[len(added)-1].block
	if n := len(regions); n > 0 && regions[n-1].to == len(chunk) && !regions[n-1].added && len(regions[n-1].text) == 0 &&
		!blocks && !lastBlock && chunk[len(chunk)-1] != '\n' && chunk[len(chunk)-1] != '\r' && len(out) > 0 && out[len(out)-1] == '\n' {
		// the text ended without a line break and its last lines were
		// cut: the line before them keeps its break, which the text's
		// end did not have ("a: 1\nb: 2" without b is "a: 1", as the
		// writer writes it; attacks, 2026-11-29); not in
		// a document with a block scalar, nor after new lines that may
		// end with one (lastBlock: added or written anew right before
		// the cut), whose last line would lose its line break, its
		// value one ("c: |\n  x\n" at the text's end is "x", not
		// "x\n"; attack, 2026-11-29)
		out = bytes.TrimSuffix(bytes.TrimSuffix(out, []byte("\n")), []byte("\r"))
	}
	if comments || outer || lines && (len(eol) == 2 || anyNode(snap, emptyPlain)) && commented(snap) {
		// A comment line left of lines cut or inserted right before it
		// is not always an outer node's: yaml.v3 gives it to the entry
		// before as its foot comment when the next line is further left
		// still ("a:\n  l:\n    - x\n # c\nm: 1" gives "# c" to x, and
		// to a new item "- w" inserted after x; attack, 2026-11-30), and
		// the read-back of the stream compares comment lines, not their
		// places: the text is read here, every comment in its place.
		//
		// yaml.v3 places the comment lines below a line by what the line
		// ends with: with CRLF line ends, "# c" below "k: 1" is the foot
		// comment of k, below "k: 1 #" the head comment of the next key.
		// The comment lines are the same either way, which is all the
		// read-back compares (sameComments); the text is read here, and
		// must hold every comment where the edited tree has it (attack,
		// 2026-11-29: TestReplaceValuesRandom's check of the places, on
		// generated streams). With CRLF line ends, lines cut or
		// inserted anywhere may move a comment: yaml.v3 gives "#" of
		// "k0: ''\r\n#\r\nk1: y" to k1, of "new: 1\r\nk0: ''\r\n#\r\nk1:
		// y" to k0 (its foot comment), and "#" above "-\r\n  k: y" to k,
		// then to a key added before k. yaml.v3 gives a comment above
		// empty values to the first node after them with text, which a
		// new line or a cut one may change: "#\n- !\n- !\n- a" gives "#"
		// to a, and to x of "#\n- !\n- x\n- a", the second item replaced
		// (attack, 2026-11-30).
		var outLent []byte // (the same lines, at the start of out)
		if lent != nil {
			outLent = lentLines(out)
		}
		own, ok := inStream(ownText(out, outLent), last)
		if !ok {
			return nil, false, nil, false
		}
		back, err := fastyaml.Parse(own, s.limits.MaxDepth)
		if err != nil || len(back) != docsIn(last) {
			return nil, false, nil, false
		}
		if !sameCommentPlaces(back[0], doc) {
			// the foot comment of a collection's last entry, entries
			// added after it, is the new last entry's (yaml.v3: the
			// comment lines stay at the collection's end, after them);
			// else a comment moved
			if as = footsMoved(doc, edits.list, back[0]); as == nil || !sameCommentPlaces(back[0], as) {
				return nil, false, nil, false
			}
		}
		if first && last && Equal(back[0], doc) {
			// the stream's one document, read as the stream is: what
			// preserved would read back again (readsAs)
			return out, true, as, true
		}
	}
	return out, !lines && !comments, as, true
}

// footsMoved returns a copy of doc in which, in each block collection
// that entries were added at the end of (after its last kept entry), the
// foot comment of that kept entry is the collection's new last entry's:
// the tree the text of those edits reads as, the new lines inserted before
// the comment lines, which yaml.v3 gives the last entry ("a: 1\n# end"
// given b: "a: 1\nb: 2\n# end", the foot comment of b). It returns nil when
// no collection has such a comment to move, or the new last entry has a
// foot comment of its own. The foot comment is a mapping's entry's key's,
// or a sequence's item's, or that of the last node in the entry's value
// that has one (lastFoot: yaml.v3 gives a comment line at a list's
// column below its last item's nested list to that list's last item,
// "- a:\n  - p\n# c", and to a new item "- x" added before it). Where
// back, the text read again, gives a moved comment to a node inside the
// new entry rather than to its key or item (its last item: pairNodes,
// footHolder), that node holds it; where back holds it where it was (the
// new lines went after the comment lines: addedLines), it is not moved.
// An entry written anew keeps its key's foot comment, taken so inside
// its new value where back puts it there.
func footsMoved(doc *yaml.Node, edits []valueEdit, back *yaml.Node) *yaml.Node {
	type move struct{ from, to, value *yaml.Node }
	var moves []move
	added := map[*yaml.Node]bool{}
	for _, e := range edits {
		if e.kind == entryAdded {
			added[e.key] = true
		}
	}
	for _, e := range edits {
		if e.kind == entryRewritten && e.key.FootComment != "" && lastFoot(e.key, e.val) == e.key {
			// an entry written anew, its key's foot comment after its
			// new lines (rewrittenLines): where the text puts it inside
			// them, below (with CRLF line ends, "k:\r\n- p\r\n# f"
			// gives "# f" to p)
			moves = append(moves, move{from: e.key, to: e.key, value: e.val})
			continue
		}
		b := e.into
		if e.kind != entryAdded || b == nil || b.Kind != yaml.MappingNode && b.Kind != yaml.SequenceNode {
			continue
		}
		step := 1
		if b.Kind == yaml.MappingNode {
			step = 2
		}
		entry := func(i int) *yaml.Node { return b.Content[i*step] }
		n := len(b.Content) / step
		if n < 2 || entry(n-1) != e.key {
			continue // (not the collection's new last entry)
		}
		k := n - 1
		for k >= 0 && added[entry(k)] {
			k--
		}
		if k < 0 || e.key.FootComment != "" {
			continue
		}
		if t := e.parent; t == nil || e.afterK == nil || len(t.Content) < step || t.Content[len(t.Content)-step] != e.afterK {
			// (the kept entry was not the last in the text: the entries
			// after it were removed, and the comment lines after it,
			// its own foot comment, stay its; "a: 1\n# fa\n\nb: 2"
			// without b, given zz, wrote "# fa" after zz; attack50)
			continue
		}
		var value *yaml.Node
		if step == 2 {
			value = b.Content[k*step+1]
		}
		if from := lastFoot(entry(k), value); from != nil {
			m := move{from: from, to: e.key}
			if step == 2 {
				m.value = b.Content[len(b.Content)-1]
			}
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		return nil
	}
	copies := map[*yaml.Node]*yaml.Node{}
	as, ok := copyAliased(doc, copies)
	if !ok {
		return nil
	}
	var at map[*yaml.Node]*yaml.Node // as's nodes to back's, one for one
	if back != nil {
		if at = map[*yaml.Node]*yaml.Node{}; !pairNodes(as, back, at) {
			at = nil
		}
	}
	for _, m := range moves {
		from, to := copies[m.from], copies[m.to]
		if from != to {
			if at != nil && at[from].FootComment == from.FootComment {
				// the comment stayed where it was: the new lines went
				// after its lines (addedLines: foot comment lines right
				// of their column), another collection's may have moved
				continue
			}
			to.FootComment, from.FootComment = from.FootComment, ""
		}
		if at == nil || at[to].FootComment == to.FootComment {
			continue
		}
		// yaml.v3 gives such comment lines to a node inside the new entry
		// by what its last lines are: after a list at its key's column, to
		// its last item when that is a scalar or a flow collection
		// ("n:\n- p\n- q\n# t": q's), else to the key. The text read back
		// says which node of the new entry holds it: the comment is the
		// entry's all the same, at the end of its lines.
		within := to
		if m.value != nil {
			within = copies[m.value]
		}
		if n := footHolder(within, at, to.FootComment); n != nil {
			to.FootComment, n.FootComment = "", to.FootComment
		}
	}
	return as
}

// pairNodes maps each node of a to the node of b at its place (at),
// reporting whether the two trees have one shape.
func pairNodes(a, b *yaml.Node, at map[*yaml.Node]*yaml.Node) bool {
	if a.Kind != b.Kind || len(a.Content) != len(b.Content) {
		return false
	}
	at[a] = b
	for i := range a.Content {
		if !pairNodes(a.Content[i], b.Content[i], at) {
			return false
		}
	}
	return true
}

// footHolder returns the node in n (n or below it) without a foot
// comment whose node in the text read back (at) holds foot, or nil (and
// nil for an empty plain scalar, where the two readers differ).
func footHolder(n *yaml.Node, at map[*yaml.Node]*yaml.Node, foot string) *yaml.Node {
	if n.FootComment == "" && at[n] != nil && at[n].FootComment == foot {
		if n.Kind == yaml.ScalarNode && n.Value == "" && n.Style&^yaml.TaggedStyle == 0 {
			// (not an empty value, "- !t": kmerge's reader gives it the
			// comment where yaml.v3 gives it to the key above; attack,
			// 2026-11-30)
			return nil
		}
		return n
	}
	for _, c := range n.Content {
		if h := footHolder(c, at, foot); h != nil {
			return h
		}
	}
	return nil
}

// lastFoot returns the node holding the foot comment that ends the
// entry whose key (or item) is k and value v, as endsWithFoot finds it:
// k's own, or the last one down the value's last entries; nil when none
// does.
func lastFoot(k, v *yaml.Node) *yaml.Node {
	if k.FootComment != "" {
		return k
	}
	n := k
	if v != nil {
		n = v
	}
	for {
		if n.FootComment != "" {
			return n
		}
		if n.Kind == yaml.ScalarNode || n.Kind == yaml.AliasNode || len(n.Content) == 0 {
			return nil
		}
		if n.Kind == yaml.MappingNode && len(n.Content) >= 2 && n.Content[len(n.Content)-2].FootComment != "" {
			return n.Content[len(n.Content)-2] // (an entry's foot comment, on its key)
		}
		n = n.Content[len(n.Content)-1]
	}
}

// sameCommentPlaces reports whether two trees of one shape hold the same
// comments on every node.
func sameCommentPlaces(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || len(a.Content) != len(b.Content) ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment {
		return false
	}
	for i := range a.Content {
		if !sameCommentPlaces(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// lineCommentText returns the edit that changes the line comment old of
// a scalar value whose text ends at end in chunk (its line's breaks LF
// or CRLF) to now: the text from end to the end of the line (to) is
// replaced by text, the blanks before the comment kept (one when there
// was none), no comment cut with the blanks before it. ok is false when
// the rest of the line is not blanks and old (a comment there that is
// not the value's) or now is not one line. A comment yaml.v3 may place
// otherwise after the change (the line's next lines decide) is caught
// where the text is read again (replaceValues: every comment in its
// place).
func lineCommentText(chunk []byte, end int, old, now string) (to int, text []byte, ok bool) {
	to = end + bytes.IndexByte(chunk[end:], '\n')
	if to < end {
		to = len(chunk)
	}
	if to > end && chunk[to-1] == '\r' {
		to--
	}
	rest := chunk[end:to]
	had := bytes.TrimLeft(rest, " \t")
	gap := rest[:len(rest)-len(had)]
	if string(had) != old || old != "" && old[0] != '#' || strings.ContainsAny(now, "\r\n\u0085\u2028\u2029") {
		return 0, nil, false
	}
	if now == "" {
		return to, nil, true
	}
	if len(had) == 0 || len(gap) == 0 {
		gap = []byte(" ")
	}
	text = append(bytes.Clone(gap), now...)
	if now[0] != '#' {
		text = append(append(bytes.Clone(gap), "# "...), now...)
	}
	return to, text, true
}

// inStream returns the text of a document (ownText) followed, when it is
// not the stream's last (last), by the "---" line the next document starts
// with, as it is in the stream: the comment lines at the end of a
// document's text are its foot comment before a "---", the foot comment of
// its last node at the end of a stream (yaml.v3 and the reader alike), and
// the text must read as the snapshot does in the stream (the end-to-end
// tests' comment between documents: every edit of the document before it
// was refused). ok is false for a text before the last that does not end
// with a line break: no "---" could follow it. The text read so holds
// docsIn(last) documents, the one of chunk first.
func inStream(own []byte, last bool) ([]byte, bool) {
	if last {
		return own, true
	}
	if len(own) == 0 || own[len(own)-1] != '\n' {
		return nil, false
	}
	return append(own[:len(own):len(own)], "---\n"...), true
}

// docsIn returns the number of documents inStream's text holds.
func docsIn(last bool) int {
	if last {
		return 1
	}
	return 2
}

// ownText returns the text of a document (chunk) as it reads as the
// document of the stream: without the comment lines it lends the document
// before it, lent (lentOf; a prefix of chunk), which are made blank lines of
// the same length, so that offsets in it are offsets in chunk. Read alone,
// the chunk would give them to its own document; they are written where
// they are, and an edit that would have to cut or move them is refused
// where a comment line is in its way, as anywhere.
func ownText(chunk, lent []byte) []byte {
	if lent == nil {
		return chunk
	}
	own := bytes.Clone(chunk)
	_, rest := cutLine(markerLine(lent)) // (the "---" line, and the lines before it, stay)
	for i := len(lent) - len(rest); i < len(lent); i++ {
		if own[i] != '\n' && own[i] != '\r' {
			own[i] = ' '
		}
	}
	return own
}

// blanksFollow reports whether the blank lines of text from offset at on
// (after an added entry's lines, what is cut around them cut) may follow
// the added entry: none holds a tab (yaml.v3 reads a tab on a blank line
// after a plain scalar, not after a quoted one or a key), and when the
// entry may end with a block scalar (block) each is empty: a line of
// blanks more indented than the scalar's text is a line of it. An empty
// line after a block scalar is not its value's, but with the keep
// chomping indicator ("|+"), whose value's own empty lines end the new
// text (text before at ends with an empty line): there are none then.
func blanksFollow(text []byte, at int, block bool) bool {
	keep := block && (bytes.HasSuffix(text[:at], []byte("\n\n")) || bytes.HasSuffix(text[:at], []byte("\n\r\n")))
	for l := at; l < len(text); {
		line, next := lineAt(text, l)
		if !blankLine(line) {
			break
		}
		if keep || block && !emptyLine(line) || bytes.IndexByte(line, '\t') >= 0 {
			return false
		}
		l = next
	}
	return true
}

// mayEndInBlock reports whether the writer may write the entry whose key
// (or item) is k and value v (nil for an item) ending with a block
// scalar: its last scalar has a block style, or a line break in its
// value (the writer chooses the style of a text of several lines).
func mayEndInBlock(k, v *yaml.Node) bool {
	n := lastOf(k, v)
	return n.Kind == yaml.ScalarNode && (n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || bytes.ContainsAny([]byte(n.Value), "\n\r\u0085\u2028\u2029"))
}

// valueEdits appends to edits the values of b (the edited tree) that
// differ from a (its snapshot), in the order of the text, and reports
// whether a and b differ in those only (see above). read, when not nil,
// is a as the document's text reads it again: it must have a's kinds,
// lengths, values, tags and comments, and it is the node an edit names.
// flow: a is in a flow collection; key: a is a mapping's key.
func valueEdits(read, a, b *yaml.Node, flow, key bool, edits *editList) bool {
	if a.Kind == yaml.DocumentNode && emptyRoot(a) && !identical(a, b) {
		// an empty document (comment lines, blank lines, a "---") given
		// a root: its lines go after the document's text (rootText), the
		// document's comments where they are (read back: lines inserted)
		if b.Kind != yaml.DocumentNode || len(b.Content) != 1 || a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
			anyNode(b, func(m *yaml.Node) bool { return m.Anchor != "" || m.Kind == yaml.AliasNode }) {
			return false
		}
		edits.list = append(edits.list, valueEdit{kind: rootAdded, read: read, now: b.Content[0]})
		return true
	}
	if a.Anchor != "" || b.Anchor != "" || a.Kind == yaml.AliasNode ||
		read != nil && (!readAs(read, a) || edits.expanded && a.Kind == yaml.MappingNode && !keysRead(read, a)) {
		// an anchored node, or one the text reads otherwise (an alias, a
		// mapping with a merge key, which Read expands into copies and
		// entries, its keys then not the text's keys one for one, even
		// where as many): its text stays as it is when it is unchanged and the
		// text, expanded so, reads as the snapshot (expanded; else a
		// Snapshot taken after an edit); an edit in it is not written
		// here (it would change what the aliases stand for too, or not
		// show)
		return (read == nil || edits.expanded) && identical(a, b)
	}
	if a.Kind != b.Kind ||
		a.HeadComment != b.HeadComment && !(key && !flow && a.Kind == yaml.ScalarNode) || a.FootComment != b.FootComment {
		return false
	}
	if a.HeadComment != b.HeadComment {
		// a block mapping's key's head comment: its lines above the key
		// (headText)
		edits.list = append(edits.list, valueEdit{kind: headChanged, read: read, now: b})
	}
	// a line comment changed: a scalar value's in a block collection
	// alone, on its line (lineCommentText)
	comment := a.LineComment != b.LineComment
	if comment && (a.Kind != yaml.ScalarNode || key || flow) {
		return false
	}
	if a.Kind == yaml.ScalarNode {
		const block = yaml.LiteralStyle | yaml.FoldedStyle
		if comment && (a.Style&block != 0 || a.Value == "") {
			return false // (a block's header line, an empty value's line: written otherwise)
		}
		if a.Value == b.Value && a.Tag == b.Tag && a.Style == b.Style {
			if comment {
				edits.list = append(edits.list, valueEdit{kind: commentChanged, read: read, now: b})
			}
			return true
		}
		if key || a.Style&block != 0 || b.Style&block != 0 || a.Value == "" || b.Value == "" {
			return false
		}
		if !flow && b.Style&yaml.DoubleQuotedStyle == 0 && strings.ContainsAny(b.Value, "\n\r\u0085\u2028\u2029") {
			// a text of lines the writer writes over lines (a block
			// scalar, a quoted scalar folded): not in the place of a
			// value on its line, the entry is written anew (rewritable)
			return false
		}
		edits.list = append(edits.list, valueEdit{kind: valueChanged, read: read, now: b, flow: flow})
		if comment {
			edits.list = append(edits.list, valueEdit{kind: commentChanged, read: read, now: b})
		}
		return true
	}
	if a.Style != b.Style || a.Tag != b.Tag {
		return false
	}
	if a.Style&yaml.FlowStyle != 0 && (len(a.Content) != len(b.Content) || a.Kind == yaml.MappingNode && !sameKeys(a, b)) {
		// a flow collection whose entries were added, removed or
		// reordered: its text replaced by the writer's, where neither
		// holds a comment, an anchor or an alias (flowText)
		// (over several lines, as its entries' lines tell, it is
		// written anew with its entry, rewritable)
		if !plainFlow(a) || !plainFlow(b) || anyNode(a, func(m *yaml.Node) bool { return m.Line != a.Line }) {
			return false
		}
		edits.list = append(edits.list, valueEdit{kind: flowReplaced, read: read, now: b, flow: flow})
		return true
	}
	if len(a.Content) != len(b.Content) || a.Kind == yaml.MappingNode && !sameKeys(a, b) ||
		a.Kind == yaml.SequenceNode && a.Style&yaml.FlowStyle == 0 && len(a.Content) > 0 {
		// (a block sequence's items as itemEdits pairs them, as many or
		// not: one removed and one added elsewhere are not the items
		// between changed one by one)
		return entryEdits(read, a, b, edits)
	}
	flow = flow || a.Style&yaml.FlowStyle != 0
	for i := range a.Content {
		var r *yaml.Node
		if read != nil {
			r = read.Content[i]
		}
		if a.Kind == yaml.MappingNode && i%2 == 1 && !flow {
			if !entryValueEdits(read, a, b, i-1, i-1, edits) {
				return false
			}
			continue
		}
		if !valueEdits(r, a.Content[i], b.Content[i], flow, a.Kind == yaml.MappingNode && i%2 == 0, edits) {
			return false
		}
	}
	return true
}

// merges reports whether n is a mapping with a merge key ("<<").
func merges(n *yaml.Node) bool {
	for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		if isMergeKey(n.Content[i]) {
			return true
		}
	}
	return false
}

// keysRead reports whether mapping read, as the text reads it, has the
// keys of mapping a, of as many entries, one for one: the same kinds and
// values (a merge key's "<<" is none of a's keys, which hold the entries
// it brings in).
func keysRead(read, a *yaml.Node) bool {
	for i := 0; i+1 < len(a.Content); i += 2 {
		if r, k := read.Content[i], a.Content[i]; r.Kind != k.Kind || r.Value != k.Value {
			return false
		}
	}
	return true
}

// plainFlow reports whether flow collection n holds no comment, anchor or
// alias, on it or in it, but its own line comment (after its text, kept
// as it is: valueEdits has it unchanged): its text is the writer's values
// and nothing else to keep.
func plainFlow(n *yaml.Node) bool {
	return n.HeadComment == "" && n.FootComment == "" && n.Anchor == "" && !slices.ContainsFunc(n.Content, func(c *yaml.Node) bool {
		return anyNode(c, func(m *yaml.Node) bool {
			return m.Kind == yaml.AliasNode || m.Anchor != "" || m.HeadComment != "" || m.LineComment != "" || m.FootComment != ""
		})
	})
}

// flowText returns the writer's text of flow collection n (plainFlow) as
// a value, on one line, without its line comment (which stays after it in
// the text): ok is false when the writer writes it over more.
func flowText(n *yaml.Node, st Style) (text []byte, ok bool) {
	bare := *n
	bare.LineComment = ""
	entry := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "k"}, &bare}}
	out, waiting, err := appendAt(nil, entry, st, 0)
	if err != nil || waiting || !bytes.HasPrefix(out, []byte("k: ")) || !bytes.HasSuffix(out, []byte("\n")) {
		return nil, false
	}
	text = out[len("k: ") : len(out)-1]
	if len(text) == 0 || bytes.IndexByte(text, '\n') >= 0 || text[0] != '[' && text[0] != '{' && text[0] != '!' {
		return nil, false
	}
	return text, true
}

// readAs reports whether read, a node as the document's text reads it
// again, is node a of the snapshot, as far as a's edits can tell: the same
// kind, length, value, tag and comments, and no anchor (a snapshot taken
// after an edit is not what its text reads as, and the text is kept but
// for the edits; Read expands aliases into copies and merge keys into the
// entries they stand for, so an anchor is in the text alone: an edit under
// it would show at its aliases too).
func readAs(read, a *yaml.Node) bool {
	return read.Kind == a.Kind && len(read.Content) == len(a.Content) && read.Value == a.Value && read.Tag == a.Tag &&
		read.HeadComment == a.HeadComment && read.LineComment == a.LineComment && read.FootComment == a.FootComment &&
		read.Anchor == ""
}

// entryValueEdits appends to edits the edits of the value of an entry of
// block mapping a (the snapshot's; b the edited tree's, read the text's or
// nil) whose key is at index ka of a, kb of b, a key both have: the
// changed values in it (valueEdits), or, where valueEdits cannot write
// them and the value is not a block collection in both, the entry
// rewritten (rewritable).
func entryValueEdits(read, a, b *yaml.Node, ka, kb int, edits *editList) bool {
	var rk, rv *yaml.Node
	if read != nil {
		rk, rv = read.Content[ka], read.Content[ka+1]
	}
	n := len(edits.list)
	if valueEdits(rv, a.Content[ka+1], b.Content[kb+1], false, false, edits) {
		return true
	}
	edits.list = edits.list[:n]
	// an alias whose copy changed: the entry written anew with its new
	// value (its anchor stays, for the other aliases), where the text,
	// aliases expanded, reads as the snapshot
	alias := read != nil && rv.Kind == yaml.AliasNode && edits.expanded
	// so too a mapping with a merge key ("<<: *m") whose entries changed:
	// the tree holds the entries it merged, which the new lines write out
	// (not one with an anchor in it: an alias elsewhere would lose it)
	alias = alias || read != nil && edits.expanded && merges(rv) && !anchoredIn(rv)
	if !rewritable(a.Content[ka+1], b.Content[kb+1]) && !alias || read != nil && (!readAs(rk, a.Content[ka]) || !alias && !readAs(rv, a.Content[ka+1])) {
		// (the text's entry must be the snapshot's: "<<: *m" is read
		// as m's entries)
		return false
	}
	edits.list = append(edits.list, valueEdit{kind: entryRewritten, parent: read, read: rk, value: rv,
		oldKey: a.Content[ka], oldVal: a.Content[ka+1], key: b.Content[kb], val: b.Content[kb+1]})
	return true
}

// rewritable reports whether an entry whose value a (the snapshot's)
// became b is written anew whole when valueEdits cannot write the change:
// where the value is not a block collection (not empty) of the same kind in both (the
// edits inside one are written where they are, or the document otherwise,
// not its whole text anew), nor an alias.
func rewritable(a, b *yaml.Node) bool {
	block := func(n *yaml.Node) bool {
		return (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0
	}
	if a.Kind == yaml.AliasNode || b.Kind == yaml.AliasNode {
		return false
	}
	return !(block(a) && block(b) && a.Kind == b.Kind)
}

// quotedText reports whether text, a scalar as the writer writes it (its
// tag first, if any), is quoted.
func quotedText(text []byte) bool {
	if len(text) > 0 && text[0] == '!' {
		if i := bytes.IndexByte(text, ' '); i >= 0 {
			text = text[i+1:]
		}
	}
	return len(text) > 0 && (text[0] == '\'' || text[0] == '"')
}

// endsValue reports whether rest, the text after a value, starts with
// what ends any scalar there: the end of the text, a blank, a line break
// (LF, CR, NEL, LS, PS), or, in a flow collection, a ',', ']' or '}'.
func endsValue(rest []byte, flow bool) bool {
	if len(rest) == 0 {
		return true
	}
	switch c := rest[0]; {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		return true
	case flow && (c == ',' || c == ']' || c == '}'):
		return true
	}
	return bytes.HasPrefix(rest, []byte("\u0085")) || bytes.HasPrefix(rest, []byte("\u2028")) || bytes.HasPrefix(rest, []byte("\u2029"))
}

// A textEdit is a part of a document's text, from..to, and what is
// written in its place.
type textEdit struct {
	from, to int
	text     []byte

	// an added entry's lines, and whether the entry may end with a
	// block scalar (mayEndInBlock)
	added, block bool

	// the length of the line break an added entry's text starts with at
	// the end of a text without a final line break (addedLines)
	lead int

	// an added entry's lines end with a foot comment (endsWithFoot), and
	// their column
	foot bool
	col  int

	// the lines start after a dash on its line: a compact mapping's
	// first key written anew ("- a: 1")
	inline bool
}

// valueText returns the writer's text of scalar n as a value in a block
// collection, or in a flow one: its tag when written, and its text; ok is
// false when that text is not one line.
func valueText(n *yaml.Node, st Style, flow bool) (text []byte, ok bool) {
	w := newWriter(nil, st)
	if flow {
		w.flow = 1
	}
	w.scalar(n, place{inMap: true})
	if w.err != nil || len(w.out) == 0 || bytes.ContainsAny(w.out, "\n\r\u0085\u2028\u2029") {
		// (a line break of YAML 1.1 readers too, NEL, LS and PS, which a
		// quoted text folds over lines: "'x\u2028  y'"; attack52,
		// 2026-11-30)
		return nil, false
	}
	return w.out, true
}

// entryEdits appends to edits the entries of a, a block collection of the
// snapshot, that b (the edited tree's) no longer has, those b has that a
// has not, and the changed values of those both have; it reports whether
// b differs from a in those alone: a mapping's keys (scalars, each once)
// that both have are in the same order; a sequence's items as itemEdits
// finds them. Both have one entry at least (an empty block collection has
// no text of its own). read is a as the text reads it, or nil.
func entryEdits(read, a, b *yaml.Node, edits *editList) bool {
	if a.Kind == yaml.DocumentNode || a.Style&yaml.FlowStyle != 0 || len(a.Content) == 0 || len(b.Content) == 0 {
		return false
	}
	child := func(i int) *yaml.Node {
		if read == nil {
			return nil
		}
		return read.Content[i]
	}
	if a.Kind == yaml.SequenceNode {
		return itemEdits(read, a, b, edits)
	}
	inA, inB := keysOf(a), keysOf(b)
	if inA == nil || inB == nil {
		return false
	}
	var afterK, afterV *yaml.Node // the last kept entry (read)
	kept := false                 // one is
	var added []valueEdit         // before the first kept entry
	removed := false              // an entry is removed
	var replaces *yaml.Node       // the first one's key (read)
	i, j := 0, 0
	for i < len(a.Content) || j < len(b.Content) {
		switch {
		case i < len(a.Content) && !inB[a.Content[i].Value]:
			appendRemoval(edits, read, child(i), child(i+1), a.Content[i], a.Content[i+1])
			if !removed {
				removed, replaces = true, child(i)
			}
			i += 2
		case j < len(b.Content) && !inA[b.Content[j].Value]:
			ed := valueEdit{kind: entryAdded, key: b.Content[j], val: b.Content[j+1], sibling: child(0), afterK: afterK, afterV: afterV, parent: read, into: b}
			if !kept {
				added = append(added, ed)
			} else {
				edits.list = append(edits.list, ed)
			}
			j += 2
		case i < len(a.Content) && j < len(b.Content) && keyKept(a.Content[i], b.Content[j]):
			if a.Content[i].HeadComment != b.Content[j].HeadComment {
				edits.list = append(edits.list, valueEdit{kind: headChanged, read: child(i), now: b.Content[j]})
			}
			if !entryValueEdits(read, a, b, i, j, edits) {
				return false
			}
			if !kept && len(added) > 0 {
				// the entries added before the first kept one go before
				// its line
				for _, ed := range added {
					ed.beforeK = child(i)
					edits.list = append(edits.list, ed)
				}
				added = nil
			}
			afterK, afterV, kept = child(i), child(i+1), true
			i, j = i+2, j+2
		default:
			return false // (keys in another order, a key changed)
		}
	}
	if len(added) > 0 {
		// no entry is kept: the new entries go where the first removed
		// one was ("name: web" replaced by "labels: ...")
		if !removed {
			return false
		}
		for _, ed := range added {
			ed.replaces = replaces
			edits.list = append(edits.list, ed)
		}
	}
	return true
}

// itemEdits is entryEdits for two block sequences, a of the snapshot and
// b of the edited tree (read: a as the text reads it, or nil). The items
// a and b start and end with identical are kept; those between are
// aligned (alignItems): an item of a is kept where it is identical to
// one of b, paired with one of b where the edits in it are written in
// place (valueEdits; two mappings only when alike: the same item by a
// key), removed, or an item of b added, after the last item of a before
// it that stays (or, when none does, before the first that stays after
// it). The items removed and those added must be others (replacedItems),
// wherever they are in the list: an item changed otherwise than in its
// values would be written anew whole, and so would an item moved, changed
// or not (kept items between where it was and where it goes: a strategic
// merge patch's $setElementOrder), its layout lost where the general way
// keeps it ("image:   x   # c" written "image: x # c"; attack,
// 2026-11-29). Some item of a must stay, to place the new ones by.
func itemEdits(read, a, b *yaml.Node, edits *editList) bool {
	child := func(i int) *yaml.Node {
		if read == nil {
			return nil
		}
		return read.Content[i]
	}
	na, nb := len(a.Content), len(b.Content)
	var mine []int // this list's removals and additions, in edits.list (not its items' own)
	head := 0
	for head < na && head < nb && identical(a.Content[head], b.Content[head]) {
		head++
	}
	tail := 0
	for tail < na-head && tail < nb-head && identical(a.Content[na-1-tail], b.Content[nb-1-tail]) {
		tail++
	}
	steps := alignItems(a.Content[head:na-tail], b.Content[head:nb-tail], &edits.cells)
	before := head - 1               // the last item of a that stays, before the steps done
	var removed, added []*yaml.Node  // (in the whole list)
	var replaces *yaml.Node          // the first item removed since the last that stays, as the text reads it
	var pending []int                // items of b to add before the next item of a that stays
	since := 0                       // removed's length when the last that stays was passed
	aliases := map[*yaml.Node]bool{} // removed items whose text is an alias ("- *a")
	var gone []*yaml.Node            // the items removed since the last that stays, as the text reads them
	remove := func(i int) {
		mine = append(mine, len(edits.list))
		appendRemoval(edits, read, child(i), nil, a.Content[i], nil)
		removed = append(removed, a.Content[i])
		if replaces == nil {
			replaces = child(i)
		}
		gone = append(gone, child(i))
		if r := child(i); r != nil && r.Kind == yaml.AliasNode {
			aliases[a.Content[i]] = true
		}
	}
	flush := func(next int) bool {
		// the items removed and added since the last that stays, before
		// item next of a (which stays)
		if len(pending) > 0 && before < 0 && next >= na && len(removed) == since {
			// no item of a stays and none was removed (a pair whose edits
			// cannot be written in place was removed and added, or every
			// item replaced, is placed where the first removed one was):
			// nothing to place the new items by (FuzzReplaceValues,
			// 2026-11-29: an index out of range)
			return false
		}
		for n, k := range pending {
			mine = append(mine, len(edits.list))
			// where the first removed item was (others in their place),
			// or after the last that stays, or before the next; the
			// second where the second removed one was, and so on (the
			// rest where the last was, in order), the
			// blank lines and comment lines between them kept between
			// them (attack52, 2026-11-30: all went where the first was,
			// "- q\n\n- s" both written anew was "- …\n- …\n\n")
			at := replaces
			if r := gone[min(n, max(len(gone)-1, 0)):]; n > 0 && len(r) > 0 && r[0] != nil {
				at = r[0] // (those after the last removed one's rank where it was, after it)
			}
			ed := valueEdit{kind: entryAdded, key: b.Content[k], sibling: child(0), parent: read, replaces: at, into: b}
			switch {
			case before >= 0:
				ed.afterK = child(before)
			case next < na:
				ed.beforeK = child(next)
			}
			edits.list = append(edits.list, ed)
		}
		pending, replaces, gone, since = pending[:0], nil, gone[:0], len(removed)
		before = next
		return true
	}
	for _, st := range steps {
		i, j := head+st.i, head+st.j
		switch st.op {
		case removedItem:
			remove(i)
		case addedItem:
			pending = append(pending, j)
			added = append(added, b.Content[j])
		default:
			if st.op == paired {
				n := len(edits.list)
				if !valueEdits(child(i), a.Content[i], b.Content[j], false, false, edits) {
					// not written in place: the one removed, the other
					// added
					edits.list = edits.list[:n]
					remove(i)
					pending = append(pending, j)
					added = append(added, b.Content[j])
					continue
				}
			}
			if !flush(i) {
				return false
			}
		}
	}
	if !flush(na - tail) {
		return false
	}
	// an item moved is its lines copied (moveItems); items changed
	// otherwise than in their values (a null given text) would be written
	// anew whole, more lines than the edit (FuzzReplaceValues,
	// 2026-11-29; attack, 2026-11-29): left to the general way
	removed, added = moveItems(edits.list, mine, removed, added)
	if edits.expanded && len(aliases) > 0 {
		// an alias item whose copy changed has no layout of its own to
		// keep ("- *a"): it is written anew, expanded, where it was (its
		// anchor stays, for the other aliases), where the text, aliases
		// expanded, reads as the snapshot (expanded)
		removed = slices.DeleteFunc(slices.Clone(removed), func(n *yaml.Node) bool { return aliases[n] })
	}
	return replacedItems(removed, added)
}

// moveItems marks the items added by the edits of one list (mine, in
// list) that are identical to a removed one, comments included, as that item moved:
// its lines are cut where it was and copied where it goes, its layout and
// comments with it, as a person moving it would (a strategic merge
// patch's $setElementOrder, a swap). Each removed item is matched once,
// the first added identical to it first. It returns the removed and added
// items that are not moved (of removed and added, the snapshot's and the
// edited tree's).
func moveItems(list []valueEdit, mine []int, removed, added []*yaml.Node) (others, new []*yaml.Node) {
	if len(removed) == 0 || len(added) == 0 {
		return removed, added
	}
	seed := maphash.MakeSeed()
	byPrint := map[uint64][]int{} // removed items' edits, by fingerprint
	for _, i := range mine {
		if e := &list[i]; e.kind == entryRemoved {
			h := fingerprint(seed, e.key)
			byPrint[h] = append(byPrint[h], i)
		}
	}
	taken := map[*yaml.Node]bool{} // (of the snapshot)
	for _, i := range mine {
		e := &list[i]
		if e.kind != entryAdded {
			continue
		}
		if anchored(e.key) || hasAlias(e.key) {
			// an item whose text holds an anchor or an alias (the text as
			// read, list[r].read below: the tree read holds none) copied
			// where it goes would move an anchor past an alias of it, or
			// an alias past its anchor or another of its name ("- *a\n-
			// &a x" names no node, "- &x a\n- *x\n- &x b\n- *x"
			// reordered read a, b, b, b; attack, 2026-11-30): as in
			// renderedEntry, not moved
			continue
		}
		h := fingerprint(seed, e.key)
		for k, r := range byPrint[h] {
			if identical(list[r].key, e.key) && (list[r].read == nil || !anchored(list[r].read) && !hasAlias(list[r].read)) {
				e.moved, e.from = true, list[r].read
				taken[list[r].key], taken[e.key] = true, true
				byPrint[h] = slices.Delete(byPrint[h], k, k+1)
				break
			}
		}
	}
	for _, n := range removed {
		if !taken[n] {
			others = append(others, n)
		}
	}
	for _, n := range added {
		if !taken[n] {
			new = append(new, n)
		}
	}
	return others, new
}

// An itemStep is one step of the alignment of two lists of items: an
// item of the first kept as an identical item of the second, paired with
// an item of the second (the same item, changed), removed, or an item of
// the second added; i and j index the lists.
type itemStep struct {
	op   itemOp
	i, j int
}

// An itemOp says what an itemStep does.
type itemOp uint8

const (
	kept itemOp = iota
	paired
	removedItem
	addedItem
)

// alignItems returns the steps that turn items a into items b, in order,
// keeping as many items as can be (identical in both, the longest common
// subsequence), then pairing as many as can be (pairable: of a kind, two
// mappings alike): a removal or an addition costs two units, a pairing
// three less what the items have in common (pairCost), a kept item
// nothing, so that an item kept between a removal
// and an addition wins over pairings as many (a pairing is a changed line
// where a removal is none: "- 0", "- 0000", "- 000" becoming "- 0000",
// "- x", "- ~" keeps "0000", not three values changed; FuzzReplaceValues,
// 2026-11-29), and a pairing over a removal and an addition. A shortest
// alignment is found in a table of len(a)×len(b) cells where that is at
// most 1<<16 cells, within what the document's lists may still take
// (cells, taken from it), and comparing the items of every cell costs at
// most 1<<22 keys (the items between those a list starts and ends with
// alike: what an edit changed); otherwise an item of a is kept at the first
// identical item of b after the last kept, and between two kept items
// the items are paired from the front and the back, the rest removed and
// added. The items are read once (itemInfos): a cell compares numbers and
// the items' keys, never whole items or comments, so that the work is
// bounded by the table and the keys, not by the items' sizes too (a list
// of 256 mappings of 200 keys each, its first and last items changed,
// took 33 s comparing them in every cell; attack, 2026-11-29).
func alignItems(a, b []*yaml.Node, cells *int) []itemStep {
	n, m := len(a), len(b)
	ia, ib := itemInfos(a, b)
	same := func(i, j int) bool { return ia[i].class == ib[j].class }
	pair := func(i, j int) bool { return pairable(a[i], b[j], &ia[i], &ib[j]) }
	keys := func(infos []itemInfo) int {
		k := 0
		for _, in := range infos {
			k += 1 + len(in.keys)
		}
		return k
	}
	var steps []itemStep
	if n*m <= 1<<16 && n*m <= *cells && m*keys(ia)+n*keys(ib) <= 1<<22 {
		*cells -= n * m
		// cost[i*(m+1)+j]: the cost of turning a[i:] into b[j:]
		w := m + 1
		cost := make([]int32, (n+1)*w)
		for i := n; i >= 0; i-- {
			for j := m; j >= 0; j-- {
				var c int32
				switch {
				case i == n:
					c = moveCost * int32(m-j)
				case j == m:
					c = moveCost * int32(n-i)
				default:
					c = moveCost + min(cost[(i+1)*w+j], cost[i*w+j+1])
					if same(i, j) {
						c = min(c, cost[(i+1)*w+j+1])
					} else if pair(i, j) {
						c = min(c, pairCost(a[i], b[j], &ia[i], &ib[j])+cost[(i+1)*w+j+1])
					}
				}
				cost[i*w+j] = c
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			c := cost[i*w+j]
			switch {
			case i < n && j < m && same(i, j) && c == cost[(i+1)*w+j+1]:
				steps = append(steps, itemStep{kept, i, j})
				i, j = i+1, j+1
			case i < n && j < m && !same(i, j) && pair(i, j) && c == pairCost(a[i], b[j], &ia[i], &ib[j])+cost[(i+1)*w+j+1]:
				steps = append(steps, itemStep{paired, i, j})
				i, j = i+1, j+1
			case i < n && (j == m || c == moveCost+cost[(i+1)*w+j]):
				steps = append(steps, itemStep{removedItem, i, j})
				i++
			default:
				steps = append(steps, itemStep{addedItem, i, j})
				j++
			}
		}
		return steps
	}
	// long: kept items found in order (b's items by their class)
	at := map[int][]int{}
	for j := range m {
		at[ib[j].class] = append(at[ib[j].class], j)
	}
	type anchor struct{ i, j int }
	var anchors []anchor
	from := 0 // b's items before it are taken
	for i := range n {
		js := at[ia[i].class]
		for len(js) > 0 && js[0] < from {
			js = js[1:] // (taken)
		}
		if len(js) > 0 {
			anchors = append(anchors, anchor{i, js[0]})
			from = js[0] + 1
			js = js[1:]
		}
		at[ia[i].class] = js
	}
	anchors = append(anchors, anchor{n, m})
	i, j := 0, 0
	for _, k := range anchors {
		ea, eb := k.i, k.j
		var back []itemStep
		for i < ea && j < eb && pair(i, j) {
			steps = append(steps, itemStep{paired, i, j})
			i, j = i+1, j+1
		}
		for i < ea && j < eb && pair(ea-1, eb-1) {
			ea, eb = ea-1, eb-1
			back = append(back, itemStep{paired, ea, eb})
		}
		for ; i < ea; i++ {
			steps = append(steps, itemStep{removedItem, i, j})
		}
		for ; j < eb; j++ {
			steps = append(steps, itemStep{addedItem, i, j})
		}
		slices.Reverse(back)
		steps = append(steps, back...)
		if k.i < n {
			steps = append(steps, itemStep{kept, k.i, k.j})
		}
		i, j = k.i+1, k.j+1
	}
	return steps
}

// The costs of alignItems' steps: a removal or an addition costs
// moveCost, a pairing pairUnit*3 less what the two items have in common
// (pairCost), a kept item nothing. A unit is 1024: two items with more
// than 15 entries alike were as alike as any others (of 16, the most
// pairCost took), and a removed item before a changed one, both with 16
// entries alike, was paired with it again (attack, 2026-11-29); the
// table's costs stay below 1<<31 (at most moveCost times 1<<16+1 steps).
const (
	pairUnit = 1 << 10
	moveCost = 2 * pairUnit
)

// pairCost is the cost of pairing items x and y in alignItems, read as
// ix and iy (itemInfos): three units (a removal or an addition costs
// two) less one for each entry the two mappings have alike, key and
// value, at their places (commonEntries) (at most one unit less one: a pairing costs more than a removal,
// less than a removal and an addition), so that of two items that could
// be paired with a changed one the one it changed wins (containers
// "sidecar" and "app", the first removed and the second's image changed,
// paired the sidecar with the app: its name and image written anew, the
// image's spacing lost, three lines changed where one was); four units
// where one is a flow collection and the other not, or their entries'
// values differ so (the entry is then written anew, more lines than a
// removal and a change elsewhere: FuzzReplaceValues, 2026-11-29). Entries of the same place are compared
// when the mappings have as many, else entries of the same key (a key's
// value in both when entries were added or removed: "a: {}" paired with
// "a: {0: }" and a new key, when the item after it had that "a"
// already), found by merging the hash-ordered keys of one's flow
// collections with those of the other's block ones: a cell of the table
// costs those of both items, not the product of their keys (MapGet for each key made the alignment of
// lists of mappings of 16 keys five times slower; attack, 2026-11-29).
func pairCost(x, y *yaml.Node, ix, iy *itemInfo) int32 {
	if flowDiffers(x, y) {
		return 4 * pairUnit
	}
	if x.Kind != yaml.MappingNode || y.Kind != yaml.MappingNode {
		return 3 * pairUnit
	}
	if len(x.Content) == len(y.Content) {
		for k := 1; k < len(x.Content); k += 2 {
			if flowDiffers(x.Content[k], y.Content[k]) {
				return 4 * pairUnit
			}
		}
	} else {
		either := func(p, q itemKey) bool { return true }
		if anyKeyPair(ix.flows, iy.blocks, either) || anyKeyPair(ix.blocks, iy.flows, either) {
			return 4 * pairUnit
		}
	}
	return 3*pairUnit - min(commonEntries(ix.entries, iy.entries), pairUnit-1)
}

// commonEntries returns how many entries x and y (itemInfo's entries)
// hold alike in their places, up to pairUnit-1 (what pairCost takes of
// it): entries compared place by place, as the items of a list of one
// shape have them (keys in another order count less; a merge of the
// entries sorted took a third of the alignment of long lists of mappings,
// its branches mispredicted). Of lists of different lengths, the places
// of the longer after some point are taken as many later as it has more
// entries, at the point where that finds most alike: the entries added or
// removed in one place (a key removed from the changed item), as the
// edits of an item are. Compared from the front alone, the entries after
// a removed key were in other places, and an item whose entries after it
// were alike at the places of the changed one's won the pairing
// (containers "app" and "sidecar", alike in all but name and image, the
// app's command removed and the sidecar deleted: the sidecar paired with
// the app, its name and image written anew, the app's lines cut; attack,
// 2026-11-29; an item that lost an entry in the middle was as alike what it
// became as a removed item of the same first keys: FuzzReplaceValues,
// 2026-11-29).
func commonEntries(x, y []uint64) int32 {
	if len(x) > len(y) {
		x, y = y, x
	}
	d := len(y) - len(x)
	var n int32
	if d == 0 {
		for k := range x {
			if x[k] == y[k] {
				n++
			}
		}
		return min(n, pairUnit-1)
	}
	// n: alike with y's places after the point; run: what moving the
	// point past x's entries so far gains, best its most
	var run, best int32
	for k, e := range x {
		if e == y[k] {
			run++
		}
		if e == y[k+d] {
			n++
			run--
		}
		best = max(best, run)
	}
	return min(n+best, pairUnit-1)
}

// flowDiffers reports whether one of x and y is a flow collection and the
// other a block one.
func flowDiffers(x, y *yaml.Node) bool {
	coll := func(n *yaml.Node) bool { return n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode }
	return coll(x) && coll(y) && x.Style&yaml.FlowStyle != y.Style&yaml.FlowStyle
}

// pairable reports whether items x (of the snapshot) and y (of the edited
// tree), read as ix and iy (itemInfos), may be the same item, changed in
// ways valueEdits writes: of one kind, not aliases, not anchored, with the
// same comments (but a scalar's line comment); two scalars neither empty
// nor block scalars; two mappings
// alike (a key of both with the same scalar value, or collections in
// both).
func pairable(x, y *yaml.Node, ix, iy *itemInfo) bool {
	const block = yaml.LiteralStyle | yaml.FoldedStyle
	switch {
	case x.Kind != y.Kind || x.Kind == yaml.AliasNode || x.Anchor != "" || y.Anchor != "":
		return false
	case x.Kind == yaml.ScalarNode:
		// (what valueEdits writes in place: a line comment changed too)
		return x.Style&block == 0 && y.Style&block == 0 && x.Value != "" && y.Value != "" &&
			x.HeadComment == y.HeadComment && x.FootComment == y.FootComment
	case ix.comments != iy.comments:
		return false
	case x.Kind == yaml.MappingNode:
		return alikeKeys(ix.keys, iy.keys)
	}
	return true
}

// replacedItems reports whether the items removed, of the snapshot, are
// others than the items added, of the edited tree, in their place, not
// the same items changed: no removed one is a mapping with a key of an
// added mapping with the same scalar value, or with a collection as the
// value in both ("- name: A" replaced by "- name: B", not "- kind: Pod"
// changed in its labels), and no removed one is a list where an added one
// is a list. A changed item would be written anew whole, more lines than
// its edit, where the general way keeps its layout; a scalar item is one
// line, and a flow collection without comments one text the writer
// writes anew whole either way (as an entry's flow value is, rewritable),
// not compared (one with comments inside may be over lines the writer
// indents otherwise: attack, 2026-11-29). (Few items: at most 64 pairs of collections are
// compared, each mapping's keys read once.)
func replacedItems(removed, added []*yaml.Node) bool {
	colls := func(items []*yaml.Node) []*yaml.Node {
		var c []*yaml.Node
		for _, n := range items {
			if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && (n.Style&yaml.FlowStyle == 0 || slices.ContainsFunc(n.Content, commented)) {
				c = append(c, n)
			}
		}
		return c
	}
	removed, added = colls(removed), colls(added)
	if len(removed)*len(added) > 64 {
		return false
	}
	seed := maphash.MakeSeed()
	keys := make([][]itemKey, len(added))
	for j, d := range added {
		keys[j] = mappingKeys(seed, d)
	}
	for _, r := range removed {
		kr := mappingKeys(seed, r)
		for j, d := range added {
			if r.Kind == yaml.SequenceNode && d.Kind == yaml.SequenceNode ||
				r.Kind == yaml.MappingNode && d.Kind == yaml.MappingNode && alikeKeys(kr, keys[j]) {
				return false
			}
		}
	}
	return true
}

// An itemInfo is what alignItems compares of an item: its class (items
// identical to each other have one), the class of its comments, and its
// keys when it is a mapping (itemKey).
type itemInfo struct {
	class, comments int
	keys            []itemKey
	flows, blocks   []itemKey // (the keys whose values are flow collections, block ones: pairCost)
	entries         []uint64  // a mapping's entries, key and value, as fingerprints (pairCost)
}

// An itemKey is a key of a mapping and its value, with a hash of what
// alike compares of them (the key's text; the value's text when it is a
// scalar, or that it is not one).
type itemKey struct {
	h    uint64
	k, v *yaml.Node
}

// itemInfos reads items a and b (itemInfo): each item's nodes once, and
// once more when it is identical to an item read before.
func itemInfos(a, b []*yaml.Node) (ia, ib []itemInfo) {
	seed := maphash.MakeSeed()
	type rep struct {
		n     *yaml.Node
		class int
	}
	classes := make(map[uint64][]rep, len(a)+len(b)) // the first item of each class, by fingerprint
	nclass := 0
	comments := map[[3]string]int{{}: 0} // (none: 0)
	read := func(items []*yaml.Node) []itemInfo {
		infos := make([]itemInfo, len(items))
		for i, x := range items {
			h, entries := itemFingerprint(seed, x)
			class := -1
			reps := classes[h]
			for _, r := range reps[:min(len(reps), 4)] {
				// (a few: more are alike in the fingerprint only, or never
				// identical, as aliases; an item not found is a class of
				// its own, kept where it is identical all the same)
				if identical(r.n, x) {
					class = r.class
					break
				}
			}
			if class < 0 {
				class = nclass
				nclass++
				classes[h] = append(reps, rep{x, class})
			}
			cc := 0
			if c := [3]string{x.HeadComment, x.LineComment, x.FootComment}; c != [3]string{} {
				var ok bool
				if cc, ok = comments[c]; !ok {
					cc = len(comments)
					comments[c] = cc
				}
			}
			keys := mappingKeys(seed, x)
			var flows, blocks []itemKey
			for _, k := range keys {
				switch {
				case k.v.Kind != yaml.MappingNode && k.v.Kind != yaml.SequenceNode:
				case k.v.Style&yaml.FlowStyle != 0:
					flows = append(flows, k)
				default:
					blocks = append(blocks, k)
				}
			}
			infos[i] = itemInfo{class: class, comments: cc, keys: keys, flows: flows, blocks: blocks, entries: entries}
		}
		return infos
	}
	return read(a), read(b)
}

// mappingKeys returns the keys of n when it is a mapping (itemKey), in
// the order of their hashes; nil for another node.
func mappingKeys(seed maphash.Seed, n *yaml.Node) []itemKey {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	keys := make([]itemKey, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var h maphash.Hash
		h.SetSeed(seed)
		h.WriteString(k.Value)
		h.WriteByte(0)
		if v.Kind == yaml.ScalarNode {
			h.WriteByte(1)
			h.WriteString(v.Value)
		}
		keys = append(keys, itemKey{h: h.Sum64(), k: k, v: v})
	}
	slices.SortFunc(keys, func(x, y itemKey) int { return cmp.Compare(x.h, y.h) })
	return keys
}

// alikeKeys reports whether two mappings whose keys are x and y
// (mappingKeys) are alike: they have a key in common whose values are
// equal scalars, or collections both.
func alikeKeys(x, y []itemKey) bool {
	return anyKeyPair(x, y, func(p, q itemKey) bool {
		ps, qs := p.v.Kind == yaml.ScalarNode, q.v.Kind == yaml.ScalarNode
		return ps && qs && p.v.Value == q.v.Value || !ps && !qs
	})
}

// anyKeyPair reports whether f holds for entries p of x and q of y
// (mappingKeys) with the same key's text and the same hash (the value's
// text when it is a scalar: an entry whose value is a collection is found
// by its key alone), merging the two lists in the order of their hashes.
func anyKeyPair(x, y []itemKey, f func(p, q itemKey) bool) bool {
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch h := x[i].h; {
		case h < y[j].h:
			i++
		case h > y[j].h:
			j++
		default:
			ei, ej := i, j
			for ei < len(x) && x[ei].h == h {
				ei++
			}
			for ej < len(y) && y[ej].h == h {
				ej++
			}
			for _, p := range x[i:ei] {
				for _, q := range y[j:ej] {
					if p.k.Value == q.k.Value && f(p, q) {
						return true
					}
				}
			}
			i, j = ei, ej
		}
	}
	return false
}

// fingerprint returns a hash of what identical compares of n: nodes
// identical have the same. Each node's fields are hashed alone and mixed
// into its hash in order, then its children's hashes (one walk of the
// subtree, no buffer).
func fingerprint(seed maphash.Seed, n *yaml.Node) uint64 {
	h := nodeHash(seed, n)
	for _, c := range n.Content {
		h = mixHash(h, fingerprint(seed, c))
	}
	return h
}

// itemFingerprint is fingerprint of item n and, when n is a mapping, the
// hashes of its entries, key and value (itemInfo's entries), from the
// same walk.
func itemFingerprint(seed maphash.Seed, n *yaml.Node) (uint64, []uint64) {
	if n.Kind != yaml.MappingNode {
		return fingerprint(seed, n), nil
	}
	h := nodeHash(seed, n)
	entries := make([]uint64, 0, len(n.Content)/2)
	var key uint64
	for k, c := range n.Content {
		f := fingerprint(seed, c)
		h = mixHash(h, f)
		if k%2 == 0 {
			key = f
		} else {
			entries = append(entries, key*31+f)
		}
	}
	return h, entries
}

// nodeHash is the hash of n's own fields, its children left out: its
// kind, style and number of children, and each of its texts that is not
// empty with its place (a value "a" is not a tag "a").
func nodeHash(seed maphash.Seed, n *yaml.Node) uint64 {
	h := mixHash(uint64(n.Kind)<<48|uint64(n.Style)<<32, uint64(len(n.Content)))
	for i, s := range [...]string{n.Tag, n.Value, n.Anchor, n.HeadComment, n.LineComment, n.FootComment} {
		if s != "" {
			h = mixHash(h+uint64(i+1), maphash.String(seed, s))
		}
	}
	return h
}

// mixHash mixes x into hash h: h rotated (so that the order of what is
// mixed in counts), x added by exclusive or, the sum multiplied by an odd
// constant (2⁶⁴ divided by the golden ratio), which spreads every bit
// over the higher ones.
func mixHash(h, x uint64) uint64 {
	return (bits.RotateLeft64(h, 27) ^ x) * 0x9e3779b97f4a7c15
}

// appendRemoval appends to edits the removal of the entry of parent
// whose key (or item) and value the text reads as read and value, and the
// snapshot holds as k and v.
func appendRemoval(edits *editList, parent, read, value, k, v *yaml.Node) {
	edits.list = append(edits.list, valueEdit{kind: entryRemoved, parent: parent, read: read, value: value, key: k, val: v})
}

// sameKeys reports whether mappings a and b, of as many entries, have
// the same keys in the same order.
func sameKeys(a, b *yaml.Node) bool {
	for i := 0; i < len(a.Content); i += 2 {
		if !keyKept(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// keyKept reports whether key y of the edited tree is key x of the
// snapshot, kept: identical but for its head comment, which is written
// where it is (headText).
func keyKept(x, y *yaml.Node) bool {
	if x.HeadComment == y.HeadComment || x.Kind != yaml.ScalarNode {
		return identical(x, y)
	}
	c := *y
	c.HeadComment = x.HeadComment
	return identical(x, &c)
}

// headText returns the part of chunk from..to that the head comment of a
// kept key takes (e.read: the key as the text reads it, with its range;
// e.now: the edited tree's key), and its new text: the comment lines right
// above the key's line (headLines: they must be its head comment, line for
// line), or none, replaced by the new comment's lines at the key's column
// with the chunk's line breaks (none when the comment is removed). ok is
// false for a key not alone at the start of its line but for indentation
// (a compact "- k: v", "? k"), the first node of a document after the
// stream's first (startsDocument: comments before it may be in the text
// of the document before), or a new comment the writer would not write
// line for line so (a line not starting with '#', a blank line in it, a
// character a comment cannot hold). Where the comment lines are read,
// before and after, is checked by replaceValues (the text is read back,
// every comment on its node).
func headText(chunk []byte, ranges *fastyaml.Ranges, e valueEdit, first bool, eol []byte) (from, to int, text []byte, ok bool) {
	if e.read == nil || e.read.Kind != yaml.ScalarNode {
		return 0, 0, nil, false
	}
	r, ok := ranges.Of(e.read)
	if !ok {
		return 0, 0, nil, false
	}
	ls := bytes.LastIndexByte(chunk[:r.Start], '\n') + 1
	indent := chunk[ls:r.Start]
	if len(bytes.TrimLeft(indent, " ")) != 0 || e.read.Column != len(indent)+1 {
		return 0, 0, nil, false
	}
	from = ls
	if e.read.HeadComment != "" {
		if from, ok = headLines(chunk, ls, e.read.HeadComment); !ok {
			return 0, 0, nil, false
		}
	}
	if !first && startsDocument(chunk, from) || afterIndicator(chunk, from) {
		return 0, 0, nil, false
	}
	if e.now.HeadComment != "" {
		for _, line := range strings.Split(e.now.HeadComment, "\n") {
			if len(line) == 0 || line[0] != '#' || !commentText(line) || strings.ContainsAny(line, "\r\u0085\u2028\u2029") {
				return 0, 0, nil, false
			}
			text = append(append(append(text, indent...), line...), eol...)
		}
	}
	return from, ls, text, true
}

// afterIndicator reports whether the first line above offset at (a line
// start) that is neither blank nor a comment line holds indicators alone,
// "-", "?" or ":", and maybe a comment: the key below is the first of a
// mapping that is a list item whose dash is alone on its line ("-\n  k: v"),
// or an explicit key ("?\n  k"). The writer writes a
// head comment of such a key after the indicator ("- # c\n  k: v", "# c\n?
// k"), not on a line of its own above the key, and Options.Whole wrote
// otherwise (attack, 2026-11-30).
func afterIndicator(chunk []byte, at int) bool {
	for at > 0 {
		ps := bytes.LastIndexByte(chunk[:at-1], '\n') + 1
		line := chunk[ps : at-1]
		at = ps
		if blankLine(line) || commentLine(line) {
			continue
		}
		for _, f := range bytes.Fields(line) {
			if f[0] == '#' {
				break
			}
			if len(f) != 1 || f[0] != '-' && f[0] != '?' && f[0] != ':' {
				return false
			}
		}
		return true
	}
	return false
}

// commentText reports whether every character of line, a comment's, is
// one a comment may hold (commentChar), as the writer writes it.
func commentText(line string) bool {
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if !commentChar(r, size) {
			return false
		}
		i += size
	}
	return true
}

// keysOf returns the set of the keys of mapping m, or nil when one is not
// a scalar or is there twice.
func keysOf(m *yaml.Node) map[string]bool {
	keys := make(map[string]bool, len(m.Content)/2)
	for i := 0; i < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode || keys[k.Value] {
			return nil
		}
		keys[k.Value] = true
	}
	return keys
}

// removedLines returns the bytes from..to of chunk that removing entry e
// (an entryEdits removal) cuts: its lines, from the line its key (or its
// item's dash) is on, which holds nothing before but indentation, to the
// end of the line its value ends on, which holds nothing after but blanks
// and a comment (a line comment of a node of the entry); the blank lines
// around them stay, as a person removing the entry would leave them. ok
// is false where that would not read as the collection without the entry,
// or could move a comment:
//   - an anchor in the entry (an alias elsewhere may name it), a tag (a
//     comment on the line of a tag alone goes to the first scalar after
//     it);
//   - a comment line among its lines or after them, with blank lines
//     only between (yaml.v3 gives a comment to a node by what comes before
//     and after it), but for comment lines after them left of the entry's
//     column (an outer node's, as addedLines says), for the head and foot
//     comments of the nodes of its value (or, for an item no added item
//     replaces, of its own nodes), which go with it (the comment lines
//     among its lines and those right after them right of its column),
//     and for its key's (or item's) foot comment and the last one down
//     its value (lastFoot), which go with it too (footLines), or stay
//     after an entry's new lines, its key keeping it (keepFoot); comment lines right above it that are not its head
//     comment (the entry before's foot comment) stay, and the text is
//     read back, every comment in its place;
//   - a line break other than LF or CRLF in the text (the lines are cut
//     at "\n"), an item whose text is not on its dash's line;
//   - the entry first in a document after the stream's first
//     (startsDocument): comments in the text of the document before may
//     be its;
//   - a blank line after the cut that holds a tab (yaml.v3 reads a tab on
//     a blank line after a plain scalar, not after a key, a quoted scalar
//     or at the start of a document), or blanks where the document has a
//     block scalar, blocks (after the cut it follows what was before it:
//     more indented than a block scalar's text, it is a line of its value,
//     "a: |\n  p\n   \n" is "p\n \n").
//
// The chunk has no block scalar that keeps its trailing empty lines
// ("|+"), whose value the blank lines cut could be part of, and no line
// break other than LF and CRLF (cutsLines).
func removedLines(chunk []byte, ranges *fastyaml.Ranges, e valueEdit, first, blocks bool) (from, to int, outer, ok bool) {
	// (a removed item's nodes' comments go with it, as an entry's
	// value's do; not one an item written anew with comments replaces,
	// whose comments the writer would write in its own layout: replaced)
	items := e.value == nil && !e.replaced
	below := commentedBelow
	if items {
		below = anchoredIn
	}
	if below(e.key) || e.val != nil && anchoredIn(e.val) ||
		below(e.read) || e.value != nil && anchoredIn(e.value) ||
		e.key.HeadComment != e.read.HeadComment || e.key.FootComment != e.read.FootComment ||
		tagged(e.read) || e.value != nil && tagged(e.value) || withProps(chunk, ranges, e.parent) {
		// (the text's nodes too: Read expands aliases into copies, and
		// an anchor is in the text alone; a comment on the line of a tag
		// alone is given to the first scalar after it, yaml.v3)
		return 0, 0, false, false
	}
	r, ok := ranges.Of(e.read)
	if !ok || e.value != nil && e.read.Column != e.parent.Column {
		// (a key not at its mapping's column: "? k")
		return 0, 0, false, false
	}
	end := r.End
	if e.value != nil {
		if v, ok := ranges.Of(e.value); ok {
			end = v.End
		} else {
			// an empty value: the entry ends with its colon
			if !emptyNull(e.value) {
				return 0, 0, false, false // (rangeless text: emptyNull)
			}
			i := r.End
			for i < len(chunk) && chunk[i] == ' ' {
				i++
			}
			if i >= len(chunk) || chunk[i] != ':' {
				return 0, 0, false, false
			}
			end = i + 1
		}
	}
	ls := bytes.LastIndexByte(chunk[:r.Start], '\n') + 1
	prefix := bytes.TrimLeft(chunk[ls:r.Start], " ")
	if e.value == nil {
		if len(prefix) < 2 || prefix[0] != '-' || len(bytes.TrimLeft(prefix[1:], " ")) != 0 {
			return 0, 0, false, false // (not "- - a", "-\n  a", "- # c\n  a")
		}
	}
	// a compact mapping's first key, on its item's dash line ("- a: 1"):
	// its text is cut from its first character, the dash kept
	compact := e.value != nil && len(prefix) >= 2 && prefix[0] == '-' && len(bytes.TrimLeft(prefix[1:], " ")) == 0 &&
		len(e.parent.Content) >= 2 && e.parent.Content[0] == e.read
	if e.value != nil && len(prefix) != 0 && !compact {
		return 0, 0, false, false // (not "? a", "- &x a: 1", a later key)
	}
	if compact && (e.read.HeadComment != "" || !e.rewrite && len(e.parent.Content) < 4) {
		// (a comment above the dash line is the item's or its first
		// key's; a mapping's only entry cut would leave "- ", a null)
		return 0, 0, false, false
	}
	to = len(chunk)
	rest := chunk[end:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest, to = rest[:i], end+i+1
	}
	if rest = bytes.TrimLeft(bytes.TrimSuffix(rest, []byte("\r")), " \t"); len(rest) > 0 && (rest[0] != '#' || endsEmpty(e.read, e.value)) {
		// (a comment after an empty value, "- # c", is the next node's)
		return 0, 0, false, false
	}
	// The value's own comments (head and foot comments of the nodes in
	// it) go with it: the comment lines among the entry's lines, and
	// those right after them right of its column (the foot comments of
	// the value's last nodes). A comment line there without such
	// comments in the value is another node's: refused.
	inner := e.value != nil && headOrFoot(e.value) || e.val != nil && headOrFoot(e.val) ||
		items && slices.ContainsFunc(e.read.Content, headOrFoot)
	for l := ls; l < to; {
		line, next := lineAt(chunk, l)
		if commentLine(line) && !inner {
			return 0, 0, false, false
		}
		l = next
	}
	// the entry's lines alone: the blank lines before and after it stay,
	// as a person removing it would leave them (a line of blanks may be
	// a line of a block scalar before it: "a: |\n  x\n   \n" is "x\n \n")
	from = ls
	if compact {
		from = r.Start
	}
	if e.read.HeadComment != "" {
		// the entry's head comment goes with it: the comment lines right
		// above it, which must be that comment and nothing else (or they
		// stay, the entry's replacement's: keepHead)
		head, ok := headLines(chunk, ls, e.read.HeadComment)
		if !ok {
			return 0, 0, false, false
		}
		if !e.keepHead {
			from = head
		}
	}
	for p := from; p > 0 && !e.keepHead && !compact; {
		ps := bytes.LastIndexByte(chunk[:p-1], '\n') + 1
		line := chunk[ps : p-1]
		if commentLine(line) {
			// not the entry's: another node's, the entry before's foot
			// comment where yaml.v3 gives it so (with CRLF line ends,
			// "a: 1\r\n# c\r\nb: 2" gives "# c" to a), which the cut
			// may hand to the node after: the text is read back, every
			// comment in its place
			outer = true
			break
		}
		if !blankLine(line) {
			break
		}
		p = ps
	}
	col := r.Start - ls - len(prefix) // the entry's column (its dash's)
	// (the comment lines right of its column after it are the value's
	// only where a node in it has a foot comment: after a value with
	// head comments alone they are an outer node's, the document's foot
	// comment in "0:\n#\n 0\n\n #"; FuzzReplaceValues, 2026-11-30)
	// (and no more of them than the foot comments ending it have lines: the
	// lines after those, right of its column after a blank line, are an
	// outer node's too, "a: 0\nk:\n  b: 1\n  #a\n\n #b" without k, whose
	// "#b" is the document's; attack56)
	feet := trailingFootLines(e.read) + max(trailingFootLines(e.value), trailingFootLines(e.val)) // (the value as read, as the snapshot has it)
	for l := to; inner && feet > 0 && l < len(chunk); {
		line, next := lineAt(chunk, l)
		if indent := len(line) - len(bytes.TrimLeft(line, " ")); commentLine(line) && indent > r.Start-ls {
			to = next // (with the blank lines before it)
			feet--
		} else if !blankLine(line) {
			break
		}
		l = next
	}
	if f := lastFoot(e.read, e.value); f != nil {
		// the entry's foot comment (a key's or an item's; yaml.v3 gives
		// it the comment lines after the entry that a blank line ends,
		// and with CRLF line ends every comment line after it) goes with
		// it, or, rewritten, is written again after its new lines (the
		// key keeps it): the comment lines that follow the entry's,
		// which must be that comment and nothing else, and a removed
		// entry's blank lines before them; the text is read back. So
		// does the last foot comment down its value (lastFoot: "- a:\n
		// - p\n# c", p's) where its lines are at the entry's column, not
		// taken above (right of it, they were)
		end, ok := footLines(chunk, to, f.FootComment, col, !e.rewrite || e.keepFoot && f == e.read)
		if !ok && f == e.read {
			return 0, 0, false, false
		}
		if ok && !(e.keepFoot && f == e.read) {
			to = end
		}
		outer = outer || ok
	}
	for l := to; l < len(chunk); {
		line, next := lineAt(chunk, l)
		if commentLine(line) {
			if indent := len(line) - len(bytes.TrimLeft(line, " ")); indent <= col && line[indent] == '#' {
				// an outer node's, the next entry's head comment, or the
				// foot comment of the entry before: replaceValues reads
				// the text back, every comment in its place
				outer = true
				break
			}
			return 0, 0, false, false
		}
		if !blankLine(line) {
			break
		}
		if !emptyLine(line) && (blocks || bytes.IndexByte(line, '\t') >= 0) {
			return 0, 0, false, false
		}
		l = next
	}
	if compact && !e.rewrite {
		// the cut runs to the next key's text, which takes the dash's
		// line ("- a: 1\n  b: 2" without a is "- b: 2"): blank lines
		// alone before its line, indentation alone before it on its line
		// (its column, the key's)
		rn, ok := ranges.Of(e.parent.Content[2])
		if !ok {
			return 0, 0, false, false
		}
		lsn := bytes.LastIndexByte(chunk[:rn.Start], '\n') + 1
		if lsn < to || rn.Start-lsn != r.Start-ls || len(bytes.Trim(chunk[lsn:rn.Start], " ")) != 0 || len(bytes.Trim(chunk[to:lsn], " \t\r\n")) != 0 {
			return 0, 0, false, false
		}
		to, outer = rn.Start, false
	}
	// (the entry first in a document after the stream's first: what the
	// document before's text holds is not read here, and the stream is
	// read back, every comment of an edited document in its place)
	return from, to, outer, true
}

// startsDocument reports whether the text of chunk from offset at on is
// the start of its document's content: before it only blank lines, a ---
// line or directives. Comments before that, in the text of the document
// before (after its "..." line), are given to the first node (yaml.v3),
// which an edit there would change.
func startsDocument(chunk []byte, at int) bool {
	for at > 0 {
		ps := bytes.LastIndexByte(chunk[:at-1], '\n') + 1
		line := chunk[ps : at-1]
		switch {
		case blankLine(line):
			at = ps
			continue
		case bytes.HasPrefix(line, []byte("---")), bytes.HasPrefix(line, []byte("%")):
			return true
		}
		return false
	}
	return true
}

// lineAt returns the line of chunk that starts at offset l, without its
// "\n", and the offset of the next.
func lineAt(chunk []byte, l int) (line []byte, next int) {
	if i := bytes.IndexByte(chunk[l:], '\n'); i >= 0 {
		return chunk[l : l+i], l + i + 1
	}
	return chunk[l:], len(chunk)
}

// blankLine reports whether line holds blanks only (a CR of its CRLF too).
func blankLine(line []byte) bool {
	return len(bytes.Trim(line, " \t\r")) == 0
}

// emptyLine reports whether line is empty (but for the CR of its CRLF).
func emptyLine(line []byte) bool {
	return len(line) == 0 || len(line) == 1 && line[0] == '\r'
}

// commentLine reports whether line's first character other than a blank
// starts a comment.
func commentLine(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	return len(t) > 0 && t[0] == '#'
}

// commentedBelow is anchoredOrCommented but for n's own head and foot
// comments.
func commentedBelow(n *yaml.Node) bool {
	if n.Anchor != "" {
		return true
	}
	for _, c := range n.Content {
		if anchoredOrCommented(c) {
			return true
		}
	}
	return false
}

// footLines returns the offset after the comment lines of chunk from
// offset at on (after blank lines, when blanks), which must be the foot
// comment foot, line for line, at any column (the reader gave them to the
// node: "  # no more" after "    - q", the last item of a nested list,
// is q's; not left of col with CRLF line ends); ok is false when they are not, or
// another comment line follows them at column col (the node's entry's)
// or right of it, or right of the least column of the lines (one left of
// both is an outer node's: "# end" at the root's column; not with CRLF
// line ends). The blank
// lines that end a foot comment ("# c\n" before a blank line) stay, as
// the blank lines around a removed entry do; without blanks (the entry's
// lines written again, the comment with them) the comment must hold no
// blank line.
func footLines(chunk []byte, at int, foot string, col int, blanks bool) (int, bool) {
	foot = strings.TrimRight(foot, "\n")
	if !blanks && strings.Contains(foot, "\n\n") {
		return 0, false
	}
	l, least := at, col
	for blanks && l < len(chunk) {
		line, next := lineAt(chunk, l)
		if !blankLine(line) {
			break
		}
		l = next
	}
	for _, want := range strings.Split(foot, "\n") {
		if l >= len(chunk) {
			return 0, false
		}
		line, next := lineAt(chunk, l)
		cr := bytes.HasSuffix(line, []byte("\r"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		trimmed := bytes.TrimLeft(line, " ")
		if want == "" && blankLine(line) {
			l = next
			continue
		}
		if !commentLine(line) || string(trimmed) != want || cr && len(line)-len(trimmed) < col {
			// (not left of the column with CRLF line ends, where the two
			// readers place comment lines otherwise, a known difference)
			return 0, false
		}
		least = min(least, len(line)-len(trimmed))
		l = next
	}
	if l < len(chunk) {
		if line, _ := lineAt(chunk, l); commentLine(line) && (len(line)-len(bytes.TrimLeft(line, " ")) >= least || bytes.HasSuffix(line, []byte("\r"))) {
			// (with CRLF line ends, any: yaml.v3 gives such a line to the
			// next item, kmerge's reader as its head comment: "  - b\r\n
			// # f\r\n# end\r\n  - c" without b; attack52, 2026-11-30)
			return 0, false
		}
	}
	return l, true
}

// headLines returns the offset of the first of the comment lines of
// chunk right above the line at offset ls (no blank line between), which
// must be the head comment head, line for line; ok is false when they are
// not.
func headLines(chunk []byte, ls int, head string) (int, bool) {
	want := strings.Split(head, "\n")
	from := ls
	for k := len(want) - 1; k >= 0; k-- {
		if from == 0 {
			return 0, false
		}
		ps := bytes.LastIndexByte(chunk[:from-1], '\n') + 1
		line := bytes.TrimSuffix(chunk[ps:from-1], []byte("\r"))
		if !commentLine(line) || string(bytes.TrimLeft(line, " ")) != want[k] {
			return 0, false
		}
		from = ps
	}
	return from, true
}

// anchored reports whether n or a node in it has an anchor.
func anchored(n *yaml.Node) bool {
	return anyNode(n, func(m *yaml.Node) bool { return m.Anchor != "" })
}

// commented reports whether n or a node in it has a comment.
func commented(n *yaml.Node) bool {
	return n != nil && anyNode(n, func(m *yaml.Node) bool { return m.HeadComment != "" || m.LineComment != "" || m.FootComment != "" })
}

// anchoredOrCommented reports whether n or a node in it has an anchor, a
// head comment or a foot comment.
func anchoredOrCommented(n *yaml.Node) bool {
	return anyNode(n, func(m *yaml.Node) bool { return m.Anchor != "" || m.HeadComment != "" || m.FootComment != "" })
}

// anchoredIn reports whether n or a node in it has an anchor.
func anchoredIn(n *yaml.Node) bool {
	return anyNode(n, func(m *yaml.Node) bool { return m.Anchor != "" })
}

// headOrFoot reports whether n or a node in it has a head or a foot
// comment.
func headOrFoot(n *yaml.Node) bool {
	return anyNode(n, func(m *yaml.Node) bool { return m.HeadComment != "" || m.FootComment != "" })
}

// kindFree reports whether a value whose text ends at offset end of chunk
// may change from plain to quoted or back: the text's line breaks are LF
// or CRLF (breaksOK, lfOrCRLF), the first line after the value's that is not blank is no
// comment line (what yaml.v3 gives such a line to depends on which the
// value is), and the blank lines before it hold no tab.
func kindFree(chunk []byte, end int, breaksOK bool) bool {
	if !breaksOK {
		return false
	}
	_, l := lineAt(chunk, end)
	for l < len(chunk) {
		line, next := lineAt(chunk, l)
		if commentLine(line) || bytes.IndexByte(line, '\t') >= 0 && blankLine(line) {
			// (and yaml.v3 reads a tab on a blank line after a plain
			// scalar, not after a quoted one: "0\n\t")
			return false
		}
		if !blankLine(line) {
			break
		}
		l = next
	}
	return true
}

// lfOrCRLF reports whether every line break of chunk is LF or CRLF (no
// lone CR, NEL, LS or PS).
func lfOrCRLF(chunk []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(chunk[i:], '\r')
		if j < 0 {
			break
		}
		if i += j + 1; i >= len(chunk) || chunk[i] != '\n' {
			return false // a lone CR
		}
	}
	return !bytes.Contains(chunk, []byte("\u0085")) && !bytes.Contains(chunk, []byte("\u2028")) && !bytes.Contains(chunk, []byte("\u2029"))
}

// cutsLines reports whether entries can be removed from doc, read from
// chunk with ranges, by cutting lines (removedLines): its line breaks are
// LF or CRLF, and no block scalar keeps its trailing empty lines ("|+":
// the blank lines after it, which a cut may take, are its value's); and
// whether doc has a block scalar.
func cutsLines(chunk []byte, ranges *fastyaml.Ranges, doc *yaml.Node) (ok, blocks bool) {
	if !lfOrCRLF(chunk) {
		return false, false
	}
	blocks, keep := blockScalars(chunk, ranges, doc)
	return !keep, blocks
}

// blockScalars reports whether n or a node in it is a block scalar, and
// whether one's header has the keep indicator '+'.
func blockScalars(chunk []byte, ranges *fastyaml.Ranges, n *yaml.Node) (found, keep bool) {
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		g, ok := ranges.Of(n)
		if !ok {
			return true, true // (its properties on a line before it: unknown)
		}
		header, _ := lineAt(chunk, g.Start)
		return true, bytes.IndexByte(header, '+') >= 0
	}
	if n.Kind == yaml.AliasNode {
		return false, false
	}
	for _, c := range n.Content {
		a, k := blockScalars(chunk, ranges, c)
		if k {
			return true, true
		}
		found = found || a
	}
	return found, false
}

// addedLines returns where in chunk added entry e (an entryEdits edit)
// goes and its text: the writer's text of a collection holding the entry
// alone, written at the column of the collection's entries (a key's, an
// item's dash; appendAt), with the line break the chunk uses (eol). It goes
// after the lines of the kept entry before it (its last line ends with
// nothing but blanks and a comment), or, when it comes first, before the
// line of the kept entry after it (which holds nothing before that but
// indentation, and the dash of an item). ok is false where that could move
// a comment or read otherwise:
//   - a comment line right after the lines it goes after (but for one
//     left of the new lines: an outer node's, which stays after them), or right before
//     the line it goes before, blank lines between, or a head comment of
//     the entry it goes before, wherever its text is (yaml.v3 gives a
//     comment to a node by what is before and after it);
//   - a comment, an anchor or an alias in the entry, a tag in the entry
//     before it (yaml.v3 gives a comment on the line of a tag alone to the
//     first scalar after it);
//   - the collection's entries not at the start of their lines (but for a
//     dash: "- a: 1", where the new key goes at a's column);
//   - a block scalar ending the text without a line break before it (the
//     line break the new lines need would be its value's), or a new
//     entry there ending with a text of lines without a block style
//     (mayEndInBlock: the writer may write a block scalar, whose last
//     line would have none);
//   - going first in a document after the stream's first
//     (startsDocument);
//   - blank lines after the new lines that the new entry's end reads
//     otherwise than the source's did (blanksFollow, checked by
//     replaceValues on the whole text, removed lines cut).
//
// The writer's text of the entry reads as the entry (its tests), written
// at its column as the writer writes it in the document: its lines are
// whole lines of the text, at the column of the entries around them.
func (s *Stream) addedLines(chunk []byte, ranges *fastyaml.Ranges, e valueEdit, first bool, eol []byte, cuts []textEdit, cutAt map[*yaml.Node]textEdit) (at int, text []byte, outer, ok bool) {
	var rendered []byte
	if e.moved {
		rendered, ok = movedText(chunk, cutAt, e.from)
	} else {
		rendered, ok = s.renderedEntry(chunk, ranges, e)
	}
	if !ok {
		return 0, nil, false, false
	}
	// uncut returns l, or the end of the cut l is in
	uncut := func(l int) int {
		for _, c := range cuts {
			if c.from <= l && l < c.to {
				return c.to
			}
		}
		return l
	}
	lead := false // a line break goes first: the text ends without one
	if cut, ok := cutAt[e.replaces]; ok && e.replaces != nil {
		// where the removed item's lines were: what is around them was
		// checked for their cut (removedLines); at the end of a text
		// without a final line break, as rewrittenLines writes there
		from, end := cut.from, cut.from
		if from > 0 && chunk[from-1] != '\n' {
			return 0, nil, false, false // (a compact mapping's first key cut: mid-line)
		}
		for n := uncut(end); n != end; n = uncut(end) {
			end = n // (cuts one after the other)
		}
		final, ok := finalBreak(chunk, end, e.key, e.val)
		if !ok {
			return 0, nil, false, false
		}
		return from, withBreaks(rendered, eol, false, final), false, true
	}
	if e.afterK != nil {
		end, ok := entryEnd(chunk, ranges, e.afterK, e.afterV)
		if !ok || tagged(e.afterK) || e.afterV != nil && tagged(e.afterV) {
			// (a comment on the line of a tag alone is given to the first
			// scalar after it, yaml.v3: "a: !t #c\n  b:" then a new key)
			return 0, nil, false, false
		}
		rest, next := lineAt(chunk, end)
		if emptyItemLast(e.afterK, e.afterV) || passesComment(chunk, ranges, e.afterK, e.afterV) {
			// (an empty item's head comment is the next node's, yaml.v3:
			// "#\n- \nb:" gives "#" to b, and would give it to a new
			// entry after the item; FuzzReplaceValues, 2026-11-29)
			return 0, nil, false, false
		}
		if r := bytes.TrimLeft(bytes.TrimSuffix(rest, []byte("\r")), " \t"); len(r) > 0 && (r[0] != '#' || endsEmpty(e.afterK, e.afterV)) {
			// (a comment after an empty value, "- # c", is the next node's)
			return 0, nil, false, false
		}
		at = next
		for _, c := range cuts {
			if c.from < at && at < c.to {
				// the end of the entry before is cut (its last item
				// removed, its foot comment lines with it): the new
				// lines go where the cut starts, after what is left of
				// it (the random edits' CronJob, 2026-11-30)
				if c.to == len(chunk) && chunk[len(chunk)-1] != '\n' {
					return 0, nil, false, false // (the text's last line, without a line break)
				}
				at = c.from
			}
		}
		lead = at == len(chunk) && (len(chunk) == 0 || chunk[len(chunk)-1] != '\n')
		if lead && (endsInBlockScalar(e.afterK, e.afterV) || mayEndInBlock(e.key, e.val) && !endsInBlockScalar(e.key, e.val)) {
			// (the last line of a block scalar before would get a line
			// break, its value too; a new text of lines without a block
			// style may be written as a block scalar too, the writer
			// choosing, and its last line would have no line break: its
			// value's; one with a block style gets it below)
			return 0, nil, false, false
		}
		col := len(rendered) - len(bytes.TrimLeft(rendered, " ")) // the new lines' column
		// the foot comments of the entry before's value: the comment lines
		// after it right of the new lines' column, when its value ends
		// with one (a list's "  # no more items" below its last item):
		// the new lines go after them, and the text is read back
		// (not with CRLF line ends, where kmerge's reader and yaml.v3
		// place comment lines otherwise, a known difference; attack47's
		// cases: "  b:\r\n    c: 1\r\n    # fc\r\n" given a key after b)
		foot := len(eol) == 1 && endsWithFoot(e.afterK, e.afterV)
		after := at // (the line after the entry before)
		for l := uncut(at); l < len(chunk); l = uncut(l) {
			line, next := lineAt(chunk, l)
			if indent := len(line) - len(bytes.TrimLeft(line, " ")); foot && commentLine(line) && indent > col {
				at, outer = next, true
				l = next
				continue
			}
			if commentLine(line) {
				if indent := len(line) - len(bytes.TrimLeft(line, " ")); indent <= col && line[indent] == '#' {
					// a comment left of the new lines is an outer node's
					// (the next key's head comment, a foot comment of an
					// entry around the collection) before them as after
					// them, one at their column the next entry's head
					// comment or the collection's foot comment: the new
					// lines go before it (or the foot comment of the entry
					// before, which would be theirs: replaceValues reads
					// the text back, every comment in its place)
					outer = true
					break
				}
				return 0, nil, false, false
			}
			if !blankLine(line) {
				break
			}
			l = next
		}
		if at != after && at == len(chunk) && chunk[len(chunk)-1] != '\n' {
			return 0, nil, false, false // (after a last comment line without a line break)
		}
	} else {
		r, ok := ranges.Of(e.beforeK)
		if !ok || firstHeadComment(e.beforeK) {
			// (a head comment may be before the --- line: "# c\n---\na: 1";
			// one of the item's first node, down, is the node's before it
			// too, and would be the new item's: "- #\n  - &a\n    - y"
			// gives "#" to y; attack, 2026-11-30)
			return 0, nil, false, false
		}
		at = bytes.LastIndexByte(chunk[:r.Start], '\n') + 1
		prefix := bytes.TrimLeft(chunk[at:r.Start], " ")
		if e.val != nil && len(prefix) != 0 || e.val == nil && (len(prefix) < 2 || prefix[0] != '-' || len(bytes.TrimLeft(prefix[1:], " ")) != 0) {
			return 0, nil, false, false
		}
		for l := at; l > 0; {
			ps := bytes.LastIndexByte(chunk[:l-1], '\n') + 1
			if commentLine(chunk[ps : l-1]) {
				return 0, nil, false, false
			}
			if !blankLine(chunk[ps : l-1]) {
				break
			}
			l = ps
		}
		if !first && startsDocument(chunk, at) {
			return 0, nil, false, false
		}
	}
	return at, withBreaks(rendered, eol, lead, !lead || endsInBlockLine(e.key, e.val)), outer, true
}

// movedText returns the lines of the removed item that an added one is
// (moveItems; from: the removed item as the text reads it), as its cut
// takes them (removedLines: its head comment's lines too, its line
// comments, its layout), with "\n" line breaks as the writer's text has
// them (addedLines gives them the chunk's). ok is false when the item was
// not cut, or its lines do not end with a line break (the text's last,
// without one).
func movedText(chunk []byte, cutAt map[*yaml.Node]textEdit, from *yaml.Node) ([]byte, bool) {
	cut, ok := cutAt[from]
	if !ok || from == nil || cut.to <= cut.from || chunk[cut.to-1] != '\n' {
		return nil, false
	}
	return bytes.ReplaceAll(chunk[cut.from:cut.to], []byte("\r\n"), []byte("\n")), true
}

// firstHeadComment reports whether n, or its first entry or item, down,
// has a head comment.
func firstHeadComment(n *yaml.Node) bool {
	for ; n.HeadComment == ""; n = n.Content[0] {
		if n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
			return false
		}
	}
	return true
}

// renderedEntry returns the writer's text of entry e (added, or
// rewritten) alone, at the column of the collection's entries, read from
// e.sibling: its lines end with "\n". ok is false for an entry with a
// head or foot comment, an anchor or an alias, or a line comment the
// writer puts after the entry (waiting), in a collection with properties
// in the text or whose keys are not at its column.
func (s *Stream) renderedEntry(chunk []byte, ranges *fastyaml.Ranges, e valueEdit) ([]byte, bool) {
	if anchored(e.key) || hasAlias(e.key) || e.val != nil && (anchored(e.val) || hasAlias(e.val)) {
		return nil, false
	}
	col, gap, ok := entryColumn(chunk, ranges, e.sibling, e.val == nil)
	if !ok || e.val != nil && e.sibling.Column != e.parent.Column || withProps(chunk, ranges, e.parent) {
		// (a key not at its mapping's column: "? k"; a comment on the
		// line of the collection's tag is its first scalar's)
		return nil, false
	}
	if e.keepHead {
		k := *e.key
		k.HeadComment = "" // (its lines are the source's, above: keepHead)
		e.key = &k
	}
	// the entry in a collection of its own
	alone := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{e.key}}
	if e.val != nil {
		alone = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{e.key, e.val}}
	}
	// the writer's text of the entry where it is: its nested lines
	// indented from the entry's column as the writer indents them there
	// (with an indentation width of 4, a mapping's keys at column 6 have
	// the keys of their values at 8, not 10), its continuation lines too
	var rendered []byte
	var waiting bool
	var err error
	if gap > 1 {
		rendered, waiting, err = s.gappedItem(e.key, col, gap)
	} else {
		rendered, waiting, err = appendAt(nil, alone, s.Style, col)
	}
	if err != nil || len(rendered) == 0 || rendered[len(rendered)-1] != '\n' || bytes.HasPrefix(rendered, []byte("---")) || waiting {
		// (a comment still waiting for its place at the entry's end, as
		// the line comment of a block collection does for the next
		// scalar's line, is written after it in the document, and would
		// be dropped here: "a: x # c" whose value became a mapping keeping
		// the comment; attack, 2026-11-29)
		return nil, false
	}
	if len(renderedLines(rendered, false)) != len(renderedLines(rendered, true)) {
		// a blank line outside block scalars: one inside a comment of the
		// entry (a patch's "# a\n\n# b"), which the text read back
		// holds otherwise than the writer's rendering: Options.Whole
		// must write what this way writes ("  - a: 1" given "p1:\n  #
		// c\n\n  # q\n  p2: x"; attack, 2026-11-30)
		return nil, false
	}
	if anyNode(alone, func(m *yaml.Node) bool { return m.LineComment != "" }) {
		// a line comment the writer puts where it reads as another
		// node's (a key's, after its scalar value: "- 0: x # k", the
		// value's; FuzzReplaceValues, 2026-11-29): the text read alone
		// must hold every comment on its node
		back, err := fastyaml.Parse(rendered, s.limits.MaxDepth)
		if err != nil || len(back) != 1 || len(back[0].Content) != 1 || !sameCommentPlaces(back[0].Content[0], alone) {
			return nil, false
		}
	}
	return rendered, true
}

// withBreaks returns rendered, lines ending with "\n", with the line
// breaks eol: one first with lead, none at the end without final.
func withBreaks(rendered, eol []byte, lead, final bool) []byte {
	text := make([]byte, 0, len(rendered)+16)
	if lead {
		text = append(text, eol...)
	}
	for len(rendered) > 0 {
		i := bytes.IndexByte(rendered, '\n')
		text = append(text, rendered[:i]...)
		rendered = rendered[i+1:]
		if len(rendered) > 0 || final {
			text = append(text, eol...)
		}
	}
	return text
}

// rewrittenLines returns the part of chunk that rewritten entry e (a
// mapping's entry whose value changed otherwise than valueEdits writes in
// place: another kind, a block scalar, a null given text or text taken
// away, a flow collection, a comment) takes, and the writer's text of the
// entry as the edited tree has it, at its column with the chunk's line
// breaks: the entry's lines, cut as removedLines cuts a removed entry
// (ok under the same conditions), replaced by the entry's new lines
// written as addedLines writes an added one (under its conditions on the
// new entry) but for the key, whose text stays the source's (the entry
// is rendered with a stand-in key, then its text put in). At the end of
// a text without a final line break, the new
// lines end without one too, unless the entry ends with a block scalar
// (its line break is its value's) or may (mayEndInBlock: refused).
func (s *Stream) rewrittenLines(chunk []byte, ranges *fastyaml.Ranges, e valueEdit, first, blocks bool, eol []byte) (from, to int, text []byte, outer, ok bool) {
	if e.key.LineComment != "" && !((e.val.Kind == yaml.MappingNode || e.val.Kind == yaml.SequenceNode) && e.val.Style&yaml.FlowStyle == 0 && len(e.val.Content) > 0) {
		// the key's line comment ("k: # c" over a value below) is
		// written after a value on the key's line, where it reads as the
		// value's (FuzzReplaceValues, 2026-11-29: "0: #\n !" given text)
		return 0, 0, nil, false, false
	}
	// (a head comment the key keeps stays in its lines: keepHead)
	keep := e.key.HeadComment != "" && e.key.HeadComment == e.oldKey.HeadComment
	// (and a foot comment it keeps stays in its lines after the new
	// ones, followed by what followed it: keepFoot)
	keepFoot := keepsFoot(e)
	from, to, outer, ok = removedLines(chunk, ranges, valueEdit{kind: entryRemoved, parent: e.parent, read: e.read, value: e.value, key: e.oldKey, val: e.oldVal, keepHead: keep, keepFoot: keepFoot, rewrite: true}, first, blocks)
	if !ok {
		return 0, 0, nil, false, false
	}
	// the key keeps its text: the entry is rendered with a stand-in key
	// of its comments, whose text is then the source's
	stand := *e.key
	stand.Kind, stand.Tag, stand.Value, stand.Style, stand.Anchor = yaml.ScalarNode, "!!str", "k", 0, ""
	if keepFoot {
		stand.FootComment = ""
	}
	rendered, ok := s.renderedEntry(chunk, ranges, valueEdit{kind: entryAdded, key: &stand, val: e.val, sibling: e.read, parent: e.parent, keepHead: keep})
	kr, found := ranges.Of(e.read)
	if !ok || !found {
		return 0, 0, nil, false, false
	}
	// (its indentation, its text, and the blanks before its colon: a key
	// of properties alone or an alias needs one, "! :" and "*a :" not
	// being "!:" and "*a:"; FuzzReplaceValues, 2026-11-29)
	colon := kr.End
	for colon < to && (chunk[colon] == ' ' || chunk[colon] == '\t') {
		colon++
	}
	if colon >= to || chunk[colon] != ':' {
		return 0, 0, nil, false, false
	}
	key := chunk[from:colon]
	i := len(key) - len(bytes.TrimLeft(key, " "))
	if from > 0 && chunk[from-1] != '\n' {
		// a compact mapping's first key, cut from its text on: the new
		// lines' first goes after the dash, their others at their column
		// (the key's: the rendering's indentation of its first line)
		i = kr.Start - (bytes.LastIndexByte(chunk[:from], '\n') + 1)
		if len(rendered) < i+2 || !bytes.Equal(rendered[:i+1], append(bytes.Repeat([]byte(" "), i), 'k')) || rendered[i+1] != ':' {
			return 0, 0, nil, false, false
		}
	} else if len(rendered) < i+2 || !bytes.Equal(rendered[:i+1], append(bytes.Repeat([]byte(" "), i), 'k')) || rendered[i+1] != ':' {
		return 0, 0, nil, false, false
	}
	rendered = append(append([]byte(nil), key...), rendered[i+1:]...)
	final, ok := finalBreak(chunk, to, e.key, e.val)
	if !ok {
		return 0, 0, nil, false, false
	}
	return from, to, withBreaks(rendered, eol, false, final), outer, true
}

// keepsFoot reports whether entry e, written anew (rewrittenLines), keeps
// its key's foot comment lines as they are after its new lines: its key
// has the snapshot's foot comment, and nothing in its new value has one
// after it (lastFoot).
func keepsFoot(e valueEdit) bool {
	return e.key.FootComment != "" && e.key.FootComment == e.oldKey.FootComment && lastFoot(e.key, e.val) == e.key
}

// finalBreak says whether the writer's lines for the entry whose key (or
// item) is k and value v, written in chunk in place of lines that end at
// offset end, end with a line break: not at the end of a text without a
// final one, unless the entry ends with a block scalar (its line break is
// its value's). ok is false there for an entry that may end with a block
// scalar without a block style (mayEndInBlock: the writer choosing, its
// last line would lose its line break).
func finalBreak(chunk []byte, end int, k, v *yaml.Node) (final, ok bool) {
	open := end == len(chunk) && (len(chunk) == 0 || chunk[len(chunk)-1] != '\n')
	if open && mayEndInBlock(k, v) && !endsInBlockScalar(k, v) {
		return false, false
	}
	return !open || endsInBlockLine(k, v), true
}

// entryColumn returns the column of the entries of the block collection
// whose entry sibling is (a key, or an item when item): the length of the
// text before it on its line, which must be indentation, and for an item
// or a compact mapping a dash ("- a: 1"); for an item, the dash's column
// and the spaces after the dash (gap: 1 as the writer writes it, 3 in
// "-   a: 1", as some write lists indented by four).
func entryColumn(chunk []byte, ranges *fastyaml.Ranges, sibling *yaml.Node, item bool) (col, gap int, ok bool) {
	r, ok := ranges.Of(sibling)
	if !ok {
		return 0, 0, false
	}
	ls := bytes.LastIndexByte(chunk[:r.Start], '\n') + 1
	prefix := chunk[ls:r.Start]
	spaces := len(prefix) - len(bytes.TrimLeft(prefix, " "))
	rest := prefix[spaces:]
	switch {
	case item && len(rest) >= 2 && rest[0] == '-' && len(bytes.TrimLeft(rest[1:], " ")) == 0:
		return spaces, len(rest) - 1, true
	case !item && len(bytes.Trim(rest, " -")) == 0 && (len(rest) == 0 || rest[0] == '-'):
		return len(prefix), 0, true
	}
	return 0, 0, false
}

// gappedItem returns the writer's text of item n for a list whose items
// have gap spaces after the dash, more than the writer's one ("-   name:
// a", lists indented by four), at column col (the dash's): the item,
// a mapping, is written at the column of its siblings' keys (col+1+gap),
// and its first line's indentation becomes the dash and the gap, as a
// person adding an item to such a list writes it (appendAt's results).
// Another item (a scalar, an alias, a flow collection, a block scalar, a
// list) is the writer's lines for it with the gap after its dash ("-   x",
// "-   |" over its text), the lines below moved right with the first.
// It fails for a mapping item whose text would not start with its first
// key (a head comment, a property), an item with head or foot comments,
// and a block scalar whose header gives its indentation.
func (s *Stream) gappedItem(n *yaml.Node, col, gap int) (_ []byte, waiting bool, err error) {
	refused := errors.New("not an item written at its siblings' keys")
	if n.Kind != yaml.MappingNode || n.Style&yaml.FlowStyle != 0 {
		if n.HeadComment != "" || n.FootComment != "" {
			return nil, false, refused
		}
		// the writer's lines for a list of the item alone, at col: the
		// dash followed by gap blanks, and the lines below (a block
		// scalar's text, a nested list's items, a long scalar's
		// continuation lines) moved right as far as the first line's
		// text moved (a block scalar's text is as indented as its
		// first line; one whose header gives the indentation, "|2",
		// counts it from the dash, which did not move: refused)
		alone := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{n}}
		text, waiting, err := appendAt(nil, alone, s.Style, col)
		dash := append(bytes.Repeat([]byte(" "), col), "- "...)
		if err != nil || waiting || len(text) == 0 || text[len(text)-1] != '\n' || !bytes.HasPrefix(text, dash) {
			return nil, false, refused
		}
		first, rest, _ := bytes.Cut(text[len(dash):], []byte("\n"))
		if len(first) == 0 || first[0] == ' ' || (first[0] == '|' || first[0] == '>') && bytes.ContainsAny(first, "123456789") {
			return nil, false, refused
		}
		out := append(append(dash[:col+1:col+1], bytes.Repeat([]byte(" "), gap)...), first...)
		out = append(out, '\n')
		for len(rest) > 0 {
			line, next, _ := bytes.Cut(rest, []byte("\n"))
			if len(line) > 0 {
				out = append(out, bytes.Repeat([]byte(" "), gap-1)...)
			}
			out = append(append(out, line...), '\n')
			rest = next
		}
		return out, false, nil
	}
	if n.Kind != yaml.MappingNode || n.Style&yaml.FlowStyle != 0 || len(n.Content) == 0 || n.HeadComment != "" || n.Anchor != "" ||
		n.Tag != "!!map" && n.Tag != "" || n.Content[0].HeadComment != "" {
		return nil, false, refused
	}
	inner := col + 1 + gap
	rendered, waiting, err := appendAt(nil, n, s.Style, inner)
	if err != nil || len(rendered) <= inner || len(bytes.TrimLeft(rendered[:inner], " ")) != 0 || rendered[inner] == ' ' || rendered[inner] == '#' {
		return nil, false, refused
	}
	copy(rendered[col:], "-")
	return rendered, waiting, nil
}

// colonBelow reports whether the first line after offset at's that holds
// more than blanks and a comment starts with a ':' (after blanks).
func colonBelow(chunk []byte, at int) bool {
	_, l := lineAt(chunk, at)
	for l < len(chunk) {
		line, next := lineAt(chunk, l)
		if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] != '#' && t[0] != '\r' {
			return t[0] == ':'
		}
		l = next
	}
	return false
}

// entryEnd returns the offset where the text of the entry whose key (or
// item) is k and value v (nil for an item) ends.
func entryEnd(chunk []byte, ranges *fastyaml.Ranges, k, v *yaml.Node) (int, bool) {
	r, ok := ranges.Of(k)
	if !ok {
		return 0, false
	}
	end := r.End
	if v != nil {
		if g, ok := ranges.Of(v); ok {
			end = max(end, g.End)
		} else if !emptyNull(v) {
			return 0, false // (rangeless text: emptyNull)
		}
	}
	if emptyBelowLast(chunk, ranges, k, v) {
		// an explicit key with an empty value: its ':' on a line after
		// the key's, where no range says ("? 0\n:" took new entries
		// between the two; FuzzReplaceValues, 2026-11-29); so too the
		// entry's last, deeper: a comment line between that key and
		// its ':' is the node's after the entry, a new one's there
		// ("x:\n  ? a\n  # c\n  :\ny: 1" then a new key; attack,
		// 2026-11-29)
		return 0, false
	}
	return end, true
}

// emptyNull reports whether v, a value the text reads without a range,
// is the empty null it is taken for: one that holds text without a range
// is a scalar whose properties are on a line before it, where no range
// says where its text ends ("0:\n !\n 00": the entry was cut at its
// colon, its value's lines left, and a new entry went between the two;
// FuzzReplaceValues, 2026-11-30).
func emptyNull(v *yaml.Node) bool {
	return v.Kind == yaml.ScalarNode && v.Value == "" && v.Anchor == "" && (v.Tag == "" || v.Tag == "!!null")
}

// emptyBelowLast reports whether the entry whose key (or item) is k and
// value v (nil for an item) ends with an empty value without a range
// whose ':' is on a line after its key's (colonBelow): its own value, or
// that of the last entry of its last collection, down (lastValue).
func emptyBelowLast(chunk []byte, ranges *fastyaml.Ranges, k, v *yaml.Node) bool {
	k, v = lastValue(k, v)
	if v == nil {
		return false
	}
	if _, ok := ranges.Of(v); ok {
		return false
	}
	r, ok := ranges.Of(k)
	return ok && colonBelow(chunk, r.End)
}

// passesComment reports whether the entry whose key (or item) is k and
// value v (nil for an item) ends with an empty value written on a line
// after its key, a comment line between the two ("0:\n#\n !\n00:"): its
// own value, or that of the last entry of its last collection, down
// (lastValue). yaml.v3 gives such a comment to the node after the entry
// (00's head comment), which an entry added after it would be
// (FuzzReplaceValues, 2026-11-30).
func passesComment(chunk []byte, ranges *fastyaml.Ranges, k, v *yaml.Node) bool {
	k, v = lastValue(k, v)
	if v == nil || v.Value != "" {
		return false
	}
	rk, ok := ranges.Of(k)
	rv, okv := ranges.Of(v)
	return ok && okv && rk.End < rv.Start && bytes.Contains(chunk[rk.End:rv.Start], []byte("#"))
}

// lastValue returns the key and the scalar value of the pair the entry
// whose key (or item) is k and value v (nil for an item) ends with: its
// own, or that of the last entry of its last collection, down; v is nil
// when it ends otherwise (with an item, an alias, an empty collection).
func lastValue(k, v *yaml.Node) (*yaml.Node, *yaml.Node) {
	for {
		if v != nil {
			if v.Kind == yaml.ScalarNode {
				return k, v
			}
			k, v = v, nil // (its last entry, if a collection)
		}
		switch {
		case k.Kind == yaml.MappingNode && len(k.Content) >= 2:
			k, v = k.Content[len(k.Content)-2], k.Content[len(k.Content)-1]
		case k.Kind == yaml.SequenceNode && len(k.Content) > 0:
			k = k.Content[len(k.Content)-1]
		default:
			return k, nil
		}
	}
}

// withProps reports whether collection n has properties in the text (a
// tag, "!" too, or an anchor): a comment on their line, when they are
// alone on it, is given to the first scalar after them (yaml.v3), which
// an entry cut or added first would change ("! #\na: 1").
func withProps(chunk []byte, ranges *fastyaml.Ranges, n *yaml.Node) bool {
	if n.Style&yaml.TaggedStyle != 0 || n.Anchor != "" {
		return true
	}
	g, ok := ranges.Of(n)
	return !ok || chunk[g.Start] == '!' || chunk[g.Start] == '&'
}

// tagged reports whether n or a node in it has a tag written in the
// text.
func tagged(n *yaml.Node) bool {
	return anyNode(n, func(m *yaml.Node) bool { return m.Style&yaml.TaggedStyle != 0 })
}

// hasAlias reports whether n is or holds an alias.
func hasAlias(n *yaml.Node) bool {
	return anyNode(n, func(m *yaml.Node) bool { return m.Kind == yaml.AliasNode })
}

// anyNode reports whether f holds for n or a node in it (not through
// aliases).
func anyNode(n *yaml.Node, f func(*yaml.Node) bool) bool {
	if f(n) {
		return true
	}
	if n.Kind == yaml.AliasNode {
		return false
	}
	for _, c := range n.Content {
		if anyNode(c, f) {
			return true
		}
	}
	return false
}

// emptyPlain reports whether n is an empty scalar, not quoted nor a
// block scalar.
func emptyPlain(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "" && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
}

// emptyItemLast reports whether the entry whose key (or item) is k and
// value v (nil for an item) ends with an empty item of a block sequence,
// or is one.
func emptyItemLast(k, v *yaml.Node) bool {
	if v == nil && k.Kind == yaml.ScalarNode {
		return k.Value == "" && k.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
	}
	n := v
	if n == nil {
		n = k
	}
	for {
		switch {
		case n.Kind == yaml.SequenceNode && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0:
			last := n.Content[len(n.Content)-1]
			if last.Kind == yaml.ScalarNode {
				return last.Value == "" && last.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
			}
			n = last
		case n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0:
			n = n.Content[len(n.Content)-1]
		default:
			return false
		}
	}
}

// endsEmpty reports whether the entry whose key (or item) is k and value
// v (nil for an item) ends with an empty node: a comment on its line is
// not its but the next node's (yaml.v3).
func endsEmpty(k, v *yaml.Node) bool {
	n := lastOf(k, v)
	return n.Kind == yaml.ScalarNode && n.Value == "" && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
}

// lastOf returns the last node of the entry whose key (or item) is k and
// value v (nil for an item): its last scalar or alias, or its last empty
// collection.
func lastOf(k, v *yaml.Node) *yaml.Node {
	n := k
	if v != nil {
		n = v
	}
	for n.Kind != yaml.ScalarNode && n.Kind != yaml.AliasNode && len(n.Content) > 0 {
		n = n.Content[len(n.Content)-1]
	}
	return n
}

// endsInBlockScalar reports whether the entry whose key (or item) is k
// and value v (nil for an item) ends with a block scalar.
func endsInBlockScalar(k, v *yaml.Node) bool {
	return lastOf(k, v).Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0
}

// endsInBlockLine reports whether the writer's lines for the entry whose
// key (or item) is k and value v (nil for an item) end with a line of a
// block scalar: it ends with one, and no foot comment follows it. An
// entry added with comments (a patch's) may end with a block scalar and
// then a comment line, which needs no line break at the end of a text
// without a final one: with one, Options.Whole wrote
// otherwise ("l:\n- a" given "- |\n  x\n# foot"; attack, 2026-11-30).
func endsInBlockLine(k, v *yaml.Node) bool {
	return endsInBlockScalar(k, v) && !endsWithFoot(k, v)
}

// endsWithFoot reports whether the writer's lines for the entry whose key
// (or item) is k and value v (nil for an item) end with a foot comment:
// one of the entry's, or of a node last in it.
func endsWithFoot(k, v *yaml.Node) bool {
	return lastFoot(k, v) != nil
}

// emptyRoot reports whether document d holds an empty root: no text
// (a plain empty null without a tag, an anchor or comments).
func emptyRoot(d *yaml.Node) bool {
	if len(d.Content) != 1 {
		return false
	}
	r := d.Content[0]
	return r.Kind == yaml.ScalarNode && r.Value == "" && r.Tag == "!!null" && r.Style == 0 && r.Anchor == "" && !commented(r)
}

// rootText returns the writer's lines for root, the new root of a
// document whose text, chunk, holds no node, and where they go: after the
// text, its comment lines staying above them (with CRLF line ends, the
// comment lines after a bare "---" stay the document's before, lent.go),
// or, when doc (the document as chunk reads) has a foot comment, right
// after its "---" line, the comment lines staying after them (the
// document's foot comment; at the end of the stream they would be the
// root's, and the read-back sends the document to the writer, which
// sets them apart by a blank line: no blank line is added here, where
// every line but the new ones is the source's). The read-back checks whose they are. Not
// after a "..." line, which would end the document before the new lines.
// The text of a chunk without a final line break gets none (the loop
// writing the edits puts one before the lines), but after a block scalar,
// whose value holds it.
func rootText(chunk []byte, doc, root *yaml.Node, st Style, eol []byte) (at int, text []byte, ok bool) {
	at = len(chunk)
	for rest := chunk; len(rest) > 0; {
		var line []byte
		line, rest = cutLine(rest)
		switch {
		case isMarker(line, "..."):
			return 0, nil, false
		case isMarker(line, "---") && doc != nil && doc.FootComment != "" && len(rest) > 0:
			at = len(chunk) - len(rest)
		}
	}
	text, err := renderDoc(st, &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}, 0)
	if err != nil || len(text) == 0 || bytes.HasPrefix(text, []byte("---")) {
		return 0, nil, false
	}
	if len(eol) == 2 {
		text = bytes.ReplaceAll(text, []byte("\n"), eol)
	}
	if at == len(chunk) && len(chunk) > 0 && chunk[len(chunk)-1] != '\n' && !mayEndInBlock(root, nil) {
		text = bytes.TrimSuffix(text, eol)
	}
	return at, text, true
}

// trailingFootLines returns the number of comment lines in the foot
// comments that end n (0 for nil): its own, and those of its last node
// down (of a mapping, its last key's and value's), which the text has
// after n's last line; a foot comment of a node before them is among n's
// lines.
func trailingFootLines(n *yaml.Node) int {
	count := 0
	for n != nil {
		count += len(commentLines(&yaml.Node{FootComment: n.FootComment}, nil))
		if n.Kind == yaml.AliasNode || len(n.Content) == 0 {
			break
		}
		if n.Kind == yaml.MappingNode && len(n.Content) >= 2 {
			count += len(commentLines(&yaml.Node{FootComment: n.Content[len(n.Content)-2].FootComment}, nil))
		}
		n = n.Content[len(n.Content)-1]
	}
	return count
}
