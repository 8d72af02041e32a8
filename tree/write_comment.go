package tree

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Where the writer puts comments. A node's comments are its head comment
// (the lines above it), its line comment (after it, on its line) and its
// foot comment (the lines below it). yaml.v3's encoder puts each where
// the node's text lets it, and the writer puts them where yaml.v3 does:
//
//   - a head comment goes above the line of its node: above the key of
//     an entry, the dash of an item, the first key or item of a block
//     collection (the collection's own), at that line's indentation; a
//     document's above its first line, followed by a blank line;
//   - a line comment goes after the last token of its node's line: after
//     a scalar, after an empty or flow collection, after the header of a
//     block scalar; a key's after its colon when a block collection
//     follows, else after its value (then it replaces the value's when
//     the value has none);
//   - a foot comment goes on the lines after its node, at the indentation
//     of the collection holding it, and what follows at that indentation
//     is set apart by a blank line; the foot comment of a key after its
//     value (before the next key, or at the end of the mapping); a
//     document's after a blank line.
//
// A comment yaml.v3 cannot put where it belongs (the line comment of a
// block collection, which has no line of its own; the head comment of a
// scalar value, which follows its key on the line) waits, as it does in
// yaml.v3, for the next place a comment of its kind is written: the next
// key, item or end of a collection for a head comment, the next scalar's
// line for a line comment. A comment that finds no place before the
// document ends, which yaml.v3 drops, the writer writes in the
// document's foot comment, before the document's own (write.go,
// document): its text is kept. The writer models this
// with one slot for each kind of comment (comments): a node sets the
// slots of the comments it has as the writer reaches it, and each place
// writes and empties the slot of its kind. A node's comment replaces a
// waiting one of its kind in yaml.v3, which drops that one; the writer
// keeps it: a head or foot comment waiting goes on the lines before the
// node's own, where it was going ("a:", "  # h", "  0", "b: 1": "# h"
// goes above "b"); a line comment, which cannot share its place, in the
// document's foot comment, before the comments still waiting there (lost:
// "a: #k", "  0 #v", "b: #j", "  1 #w": "#k" waits for a place after the
// value 0, which has its own comment, and "#j" takes its slot).
//
// Where yaml.v3's places make text that does not read back, the writer
// puts the comment elsewhere (write_node.go, keyComment): the line
// comment of a key whose value is written in flow style goes after the
// value, and that of a key whose value is a tagged or anchored block
// collection above the key.

// comments are the slots of the comments waiting for their place: head,
// line and foot comments; tail, the foot comment of the last key written,
// which goes after its value; keyLine, a line comment taken by a key,
// which goes after the colon or after the value; lost, the line
// comments another one replaced in their slot, in the order they were
// taken, for the end of the document (a list: joined once, at the end;
// joined as they came, 80,000 of them took 14 s). footCol is the column of
// the foot comment written last, until the next line starts (-1: none).
type comments struct {
	head, line, foot, tail, keyLine string
	lost                            []string
	footCol                         int
}

// take sets the slots of the comments a node has.
func (c *comments) take(head, line, foot, tail string) {
	c.add(&c.head, head)
	c.put(&c.line, line)
	c.add(&c.foot, foot)
	c.add(&c.tail, tail)
}

// add puts comment s, if not empty, in a slot of comments written on
// lines of their own, after the one the slot holds (blank lines alone
// are no comment to keep).
func (c *comments) add(slot *string, s string) {
	if s == "" {
		return
	}
	if strings.TrimSpace(*slot) != "" {
		s = joinComments(*slot, s)
	}
	*slot = s
}

// put sets a slot of line comments to comment s, if not empty; the
// comment the slot held, which found no place before s came, is kept in
// lost.
func (c *comments) put(slot *string, s string) {
	if s == "" {
		return
	}
	if strings.TrimSpace(*slot) != "" {
		c.lost = append(c.lost, *slot)
	}
	*slot = s
}

// waiting reports whether a comment waits for its place: the writer
// writes it in the foot comment at the end of the document, where the
// document's text goes on it would be written further on.
func (w *writer) waiting() bool {
	return w.head != "" || w.line != "" || w.foot != "" || w.tail != "" || w.keyLine != "" || len(w.lost) > 0
}

// flushHead writes the waiting tail (the foot comment of the key before)
// and head comment, each on lines of their own at the column of the
// collection.
func (w *writer) flushHead() {
	if w.tail != "" {
		w.indentLine()
		w.comment(w.tail)
		w.tail = ""
		w.footCol = max(w.indent, 0)
	}
	if w.head != "" {
		w.indentLine()
		w.comment(w.head)
		w.head = ""
	}
}

// flushLine writes the waiting line comment after what is on the line.
func (w *writer) flushLine() {
	if w.line == "" {
		return
	}
	if !w.room {
		w.out = append(w.out, ' ')
	}
	w.comment(w.line)
	w.line = ""
}

// flushFoot writes the waiting foot comment on lines of its own.
func (w *writer) flushFoot() {
	if w.foot == "" {
		return
	}
	w.indentLine()
	w.comment(w.foot)
	w.foot = ""
	w.footCol = max(w.indent, 0)
}

// comment writes the lines of a comment, each at the column of the
// collection, and ends the line. A line that does not start with "#"
// gets "# " before it.
func (w *writer) comment(c string) {
	if c != "" && breakWidth(c, 0) > 0 && w.lead {
		w.beforeBlank()
	}
	breaks, pound := false, false
	for i := 0; i < len(c); {
		if n := breakWidth(c, i); n > 0 {
			w.lineBreak(c[i : i+n])
			i += n
			breaks, pound = true, false
			continue
		}
		if breaks {
			w.indentLine()
		}
		if !pound {
			if c[i] != '#' {
				w.out = append(w.out, "# "...)
			}
			pound = true
		}
		n := charWidth(c, i)
		if r, size := utf8.DecodeRuneInString(c[i:]); !commentChar(r, size) {
			// (a comment has no escapes: written raw, the text would
			// not read)
			w.fail("a comment holding %s, which YAML text cannot hold", describeChar(r, size, c[i]))
			return
		}
		w.out = append(w.out, c[i:i+n]...)
		i += n
		w.lead = false
		breaks = false
	}
	if !breaks {
		w.newline()
	}
	w.room = true
}

// commentChar reports whether the character r (of size bytes in UTF-8;
// utf8.RuneError of size 1 is a byte that is not UTF-8) may stand in a
// comment: a printable character of YAML (a tab, 0x20 to 0x7E, NEL, 0xA0
// to 0xD7FF, 0xE000 to 0xFFFD, 0x10000 and above). Line breaks are
// written as line breaks before this is asked. A byte order mark is one:
// kmerge's reader (as yaml.v3's) reads it in a comment, and written after
// the comment's "#" it is never taken for the stream's (refused, an input
// that read, with one in a comment, failed to be written once rewritten
// whole: an anchor, KMERGE_THOROUGH=1; attack, 2026-11-29).
func commentChar(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size <= 1:
		return false
	case r == '\t', r >= 0x20 && r <= 0x7E, r == 0x85:
		return true
	case r >= 0xA0 && r <= 0xD7FF, r >= 0x10000:
		return true
	}
	return r >= 0xE000 && r <= 0xFFFD
}

// describeChar names a character for an error: "U+0000", or "the byte
// 0xFF" (b) where it is no UTF-8.
func describeChar(r rune, size int, b byte) string {
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("the byte %#x, which is no UTF-8,", b)
	}
	return fmt.Sprintf("%U", r)
}

// lineBreak writes a line break of a comment or a scalar as it is: a line
// feed, a carriage return, or a line break of Unicode (NEL, U+2028,
// U+2029), which YAML reads as one too.
func (w *writer) lineBreak(br string) {
	if br == "\n" {
		w.newline()
		return
	}
	w.out = append(w.out, br...)
	w.lineStart = len(w.out)
	w.lead = true
}
