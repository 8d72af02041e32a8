package tree

import (
	"bytes"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/fastyaml"
)

// Writing changed values and removed entries as byte-range edits.
//
// The commonest edit changes values and nothing else: an image, a replica
// count, an environment variable's value. When every difference between a
// document's snapshot and its edited tree is a scalar value (its text, tag
// or style) that is not a key, and neither the old nor the new value is a
// block scalar, an empty node, an alias or anchored, and no comment
// changed, the document's text is read again with the ranges of its
// scalars (fastyaml.ParseRanges), and the range of each changed value is
// replaced by the writer's text of the new one for its place (in a block
// collection or a flow one), on one line. Every other byte is the
// source's: comments, blank lines, indentation, spacing inside the line,
// quoting of other values, line ends (CRLF stays CRLF), a missing final
// newline, a "---" line.
//
// The text reads as the edited document without being read back:
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
//     quoted: yaml.v3 places a comment after the one otherwise than after
//     the other in places ("0: 0\r#" gives the comment to 0 as its foot
//     comment, "0: '0'\r#" to what follows as its head comment).
// TestReplaceValuesRandom and FuzzReplaceValues read every document
// written so back, every node's comments compared.
//
// Entries removed from a block collection are cut from the text with
// their lines (removals, removedLines): see there for when.
//
// Every other edit (an entry added, a key renamed, a comment changed, a
// block scalar) is written as rerender and splice write it (preserve.go).

// valueEdit is one changed value: the snapshot's node as the document's
// text reads it again (with its range), the edited tree's node, and
// whether it is in a flow collection; or one entry removed from a block
// collection: its key (or item) and value as the text reads them (now
// nil; value nil for an item), and its snapshot's nodes.
type valueEdit struct {
	read, now *yaml.Node
	flow      bool

	removed      bool
	value        *yaml.Node // (read) a removed entry's value, nil for an item
	snapK, snapV *yaml.Node // the snapshot's entry, to check for anchors
}

// replaceValues returns the text of an edited document whose source text
// is chunk, by replacing the ranges of its changed values (see above); ok
// is false when the edit is not only changed values, and the document must
// be written otherwise.
func (s *Stream) replaceValues(chunk []byte, snap, doc *yaml.Node) (text []byte, ok bool) {
	var edits []valueEdit
	if !valueEdits(nil, snap, doc, false, false, &edits) || len(edits) == 0 {
		return nil, false
	}
	docs, ranges, err := fastyaml.ParseRanges(chunk, s.limits.MaxDepth)
	if err != nil || len(docs) != 1 {
		return nil, false
	}
	edits = edits[:0]
	if !valueEdits(docs[0], snap, doc, false, false, &edits) {
		return nil, false
	}
	cut, blocks := false, false // (cutsLines, once there is a removal)
	for _, e := range edits {
		if e.removed {
			if cut, blocks = cutsLines(chunk, ranges, docs[0]); !cut {
				return nil, false
			}
			break
		}
	}
	out := make([]byte, 0, len(chunk)+64)
	at := 0
	for _, e := range edits {
		if e.removed {
			from, to, ok := removedLines(chunk, ranges, e, blocks)
			if !ok || from < at {
				return nil, false
			}
			out = append(out, chunk[at:from]...)
			at = to
			continue
		}
		g, ok := ranges.Of(e.read)
		if !ok || g.Start < at {
			return nil, false
		}
		if !endsValue(chunk[g.End:], e.flow) {
			// what follows the text is not what ends a scalar anywhere
			// (a '#' right after a closing quote, which yaml.v3 reads as
			// a comment: after plain text it would not be one)
			return nil, false
		}
		value, ok := valueText(e.now, s.Style, e.flow)
		if !ok || quotedText(value) != (e.read.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0) {
			// yaml.v3 places a comment after a plain scalar otherwise
			// than after a quoted one in places ("0: 0\r#" has the
			// comment as the foot comment of 0, "0: '0'\r#" as the head
			// comment of what follows): a value changes in place only
			// from plain to plain, or from quoted to quoted
			return nil, false
		}
		out = append(out, chunk[at:g.Start]...)
		out = append(out, value...)
		at = g.End
	}
	return append(out, chunk[at:]...), true
}

// valueEdits appends to edits the values of b (the edited tree) that
// differ from a (its snapshot), in the order of the text, and reports
// whether a and b differ in those only (see above). read, when not nil,
// is a as the document's text reads it again: it must have a's kinds,
// lengths, values, tags and comments, and it is the node an edit names.
// flow: a is in a flow collection; key: a is a mapping's key.
func valueEdits(read, a, b *yaml.Node, flow, key bool, edits *[]valueEdit) bool {
	if a.Kind != b.Kind || a.Anchor != "" || b.Anchor != "" || a.Kind == yaml.AliasNode ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment {
		return false
	}
	if read != nil && (read.Kind != a.Kind || len(read.Content) != len(a.Content) || read.Value != a.Value || read.Tag != a.Tag ||
		read.HeadComment != a.HeadComment || read.LineComment != a.LineComment || read.FootComment != a.FootComment) {
		// (a snapshot taken after an edit is not what its text reads as,
		// and the text is kept but for the values)
		return false
	}
	if a.Kind == yaml.ScalarNode {
		if a.Value == b.Value && a.Tag == b.Tag && a.Style == b.Style {
			return true
		}
		const block = yaml.LiteralStyle | yaml.FoldedStyle
		if key || a.Style&block != 0 || b.Style&block != 0 || a.Value == "" || b.Value == "" {
			return false
		}
		*edits = append(*edits, valueEdit{read: read, now: b, flow: flow})
		return true
	}
	if a.Style != b.Style || a.Tag != b.Tag {
		return false
	}
	if len(a.Content) != len(b.Content) {
		return removals(read, a, b, edits)
	}
	flow = flow || a.Style&yaml.FlowStyle != 0
	for i := range a.Content {
		var r *yaml.Node
		if read != nil {
			r = read.Content[i]
		}
		if !valueEdits(r, a.Content[i], b.Content[i], flow, a.Kind == yaml.MappingNode && i%2 == 0, edits) {
			return false
		}
	}
	return true
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

// valueText returns the writer's text of scalar n as a value in a block
// collection, or in a flow one: its tag when written, and its text; ok is
// false when that text is not one line.
func valueText(n *yaml.Node, st Style, flow bool) (text []byte, ok bool) {
	w := newWriter(nil, st)
	if flow {
		w.flow = 1
	}
	w.scalar(n, place{inMap: true})
	if w.err != nil || len(w.out) == 0 || bytes.IndexByte(w.out, '\n') >= 0 {
		return nil, false
	}
	return w.out, true
}

// removals appends to edits the entries of a, a block collection of the
// snapshot, that b (the edited tree's) no longer has, and the changed
// values of those it keeps; it reports whether b is a with entries removed
// and values changed, and no more: a mapping's kept entries are a's in a's
// order (the same keys), a sequence's kept items are equal to a's, in a's
// order, and b keeps one at least (an empty block collection has no text
// of its own). read is a as the text reads it, or nil.
func removals(read, a, b *yaml.Node, edits *[]valueEdit) bool {
	if a.Kind == yaml.DocumentNode || a.Style&yaml.FlowStyle != 0 || len(b.Content) == 0 || len(b.Content) > len(a.Content) {
		return false
	}
	child := func(i int) *yaml.Node {
		if read == nil {
			return nil
		}
		return read.Content[i]
	}
	j := 0
	if a.Kind == yaml.MappingNode {
		for i := 0; i < len(a.Content); i += 2 {
			if j < len(b.Content) && identical(a.Content[i], b.Content[j]) {
				if !valueEdits(child(i), a.Content[i], b.Content[j], false, true, edits) ||
					!valueEdits(child(i+1), a.Content[i+1], b.Content[j+1], false, false, edits) {
					return false
				}
				j += 2
				continue
			}
			*edits = append(*edits, valueEdit{read: child(i), value: child(i + 1), removed: true, snapK: a.Content[i], snapV: a.Content[i+1]})
		}
		return j == len(b.Content)
	}
	for i, c := range a.Content {
		if j < len(b.Content) && identical(c, b.Content[j]) {
			if !valueEdits(child(i), c, b.Content[j], false, false, edits) {
				return false
			}
			j++
			continue
		}
		*edits = append(*edits, valueEdit{read: child(i), removed: true, snapK: c})
	}
	return j == len(b.Content)
}

// removedLines returns the bytes from..to of chunk that removing entry e
// (a removals edit) cuts: its lines, from the line its key (or its item's
// dash) is on, which holds nothing before but indentation, to the end of
// the line its value ends on, which holds nothing after but blanks and a
// comment (a line comment of a node of the entry), and the blank lines
// before them that are empty (not those that hold blanks, which may be
// lines of a block scalar before). ok is false where that would not read as the collection
// without the entry, or could move a comment:
//   - an anchor in the entry (an alias elsewhere may name it);
//   - a head or foot comment in the entry, a comment line among its lines
//     or next to them, with blank lines only between (yaml.v3 gives a
//     comment to a node by what comes before and after it);
//   - a line break other than LF or CRLF in the text (the lines are cut
//     at "\n"), an item whose text is not on its dash's line;
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
func removedLines(chunk []byte, ranges *fastyaml.Ranges, e valueEdit, blocks bool) (from, to int, ok bool) {
	if anchoredOrCommented(e.snapK) || e.snapV != nil && anchoredOrCommented(e.snapV) {
		return 0, 0, false
	}
	first, ok := ranges.Of(e.read)
	if !ok {
		return 0, 0, false
	}
	end := first.End
	if e.value != nil {
		if v, ok := ranges.Of(e.value); ok {
			end = v.End
		} else {
			// an empty value: the entry ends with its colon
			i := first.End
			for i < len(chunk) && chunk[i] == ' ' {
				i++
			}
			if i >= len(chunk) || chunk[i] != ':' {
				return 0, 0, false
			}
			end = i + 1
		}
	}
	ls := bytes.LastIndexByte(chunk[:first.Start], '\n') + 1
	prefix := bytes.TrimLeft(chunk[ls:first.Start], " ")
	if e.value == nil {
		if len(prefix) < 2 || prefix[0] != '-' || len(bytes.TrimLeft(prefix[1:], " ")) != 0 {
			return 0, 0, false // (not "- - a", "-\n  a", "- # c\n  a")
		}
	} else if len(prefix) != 0 {
		return 0, 0, false // (not "- a: 1", "? a")
	}
	to = len(chunk)
	rest := chunk[end:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest, to = rest[:i], end+i+1
	}
	if rest = bytes.TrimLeft(bytes.TrimSuffix(rest, []byte("\r")), " \t"); len(rest) > 0 && rest[0] != '#' {
		return 0, 0, false
	}
	for l := ls; l < to; {
		line, next := lineAt(chunk, l)
		if commentLine(line) {
			return 0, 0, false
		}
		l = next
	}
	// the empty lines right before go too; not a line of blanks, which
	// may be a line of a block scalar before ("a: |\n  x\n   \n" is
	// "x\n \n"), nor those before it (kept, it stays where it was,
	// after what it followed)
	from = ls
	for p, cut := ls, true; p > 0; {
		ps := bytes.LastIndexByte(chunk[:p-1], '\n') + 1
		line := chunk[ps : p-1]
		if commentLine(line) {
			return 0, 0, false
		}
		if !blankLine(line) {
			break
		}
		if cut = cut && emptyLine(line); cut {
			from = ps
		}
		p = ps
	}
	for l := to; l < len(chunk); {
		line, next := lineAt(chunk, l)
		if commentLine(line) {
			return 0, 0, false
		}
		if !blankLine(line) {
			break
		}
		if !emptyLine(line) && (blocks || bytes.IndexByte(line, '\t') >= 0) {
			return 0, 0, false
		}
		l = next
	}
	return from, to, true
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

// anchoredOrCommented reports whether n or a node in it has an anchor, a
// head comment or a foot comment.
func anchoredOrCommented(n *yaml.Node) bool {
	if n.Anchor != "" || n.HeadComment != "" || n.FootComment != "" {
		return true
	}
	if n.Kind == yaml.AliasNode {
		return false
	}
	for _, c := range n.Content {
		if anchoredOrCommented(c) {
			return true
		}
	}
	return false
}

// cutsLines reports whether entries can be removed from doc, read from
// chunk with ranges, by cutting lines (removedLines): its line breaks are
// LF or CRLF, and no block scalar keeps its trailing empty lines ("|+":
// the blank lines after it, which a cut may take, are its value's); and
// whether doc has a block scalar.
func cutsLines(chunk []byte, ranges *fastyaml.Ranges, doc *yaml.Node) (ok, blocks bool) {
	for i := 0; ; {
		j := bytes.IndexByte(chunk[i:], '\r')
		if j < 0 {
			break
		}
		if i += j + 1; i >= len(chunk) || chunk[i] != '\n' {
			return false, false // a lone CR
		}
	}
	if bytes.Contains(chunk, []byte("\u0085")) || bytes.Contains(chunk, []byte("\u2028")) || bytes.Contains(chunk, []byte("\u2029")) {
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
