package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// kmerge's YAML writer. It writes every tree kmerge holds (every node kind
// and style, anchors, aliases, tags, comments in every place) as the text
// yaml.v3's encoder gives for it, with the indentation width and sequence
// style of the stream (Style), except where that text would not read back
// as the tree: there it writes what does (the writer's own rules, each
// stated where the writer decides, and listed in docs/ARCHITECTURE.md,
// "Writing YAML"). What each style can hold and how text is written in it
// come from the YAML 1.2.2 specification (chapters 5 to 9); the choices it
// leaves open, from yaml.v3's encoder's output. The differential tests in
// write_test.go (and the bench module's TestWriterAgrees) compare the two
// on generated trees of every shape, the YAML test suite, the benchmark
// corpus and every YAML file of the repository.
//
// The parts:
//
//   - write.go (this file): documents and streams, and the line the
//     writer is on (its column, whether it needs a space before the next
//     token, whether it holds only indentation) and the indentation of
//     the collection it is in;
//   - write_node.go: nodes in their places: block and flow mappings and
//     sequences, keys written plain or after "? ", anchors and tags;
//   - write_scalar.go: the style a scalar is written in (the rule for
//     strings of quote.go among them) and its tag;
//   - write_text.go: scalars in each style: plain, single-quoted,
//     double-quoted with escapes, literal and folded blocks with their
//     indicators;
//   - write_comment.go: where comments go, yaml.v3's places included
//     (a comment it cannot put after its node waits for the next place a
//     comment of its kind goes).
//
// What the writer writes, line by line, is decided as it goes; nothing is
// written twice or read back.

// WriteYAML writes documents as one YAML stream in the given style.
func WriteYAML(w io.Writer, st Style, docs ...*yaml.Node) error {
	var buf bytes.Buffer
	if err := encodeYAML(&buf, st, docs); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// encodeYAML appends documents to buf as WriteYAML writes them, "---"
// between them: nothing is written to the caller's writer before all of
// them are.
func encodeYAML(buf *bytes.Buffer, st Style, docs []*yaml.Node) error {
	for i, d := range docs {
		if i > 0 || emptyText(d) {
			// (a first document whose root is written as no text, an
			// empty null, would be no document, before the next one's
			// "---" or alone: it starts with "---" too; attack54,
			// attack55)
			buf.WriteString("---\n")
		}
		out, err := appendDocument(buf.AvailableBuffer(), d, st)
		if err != nil {
			return err
		}
		if i == 0 && len(out) == 1 && out[0] == '\n' && emptyText(d) {
			continue // (the "---" line is the document: no empty line after it)
		}
		buf.Write(out)
	}
	return nil
}

// appendDocument appends the document doc (a document node, or the node
// a document holds) written as YAML in style st, without a "---" line.
func appendDocument(b []byte, doc *yaml.Node, st Style) ([]byte, error) {
	w := newWriter(b, st)
	w.document(doc)
	return w.out, w.err
}

// appendAt appends the block collection n written as YAML in style st as
// the writer writes it in a document where its entries (keys, or the
// dashes of items) are at column col: its lines indented from there, its
// first line too; waiting reports whether a comment of n was left
// waiting for its place at the end (writer.waiting), which a document
// going on after n would have written further on.
func appendAt(b []byte, n *yaml.Node, st Style, col int) (_ []byte, waiting bool, err error) {
	w := newWriter(b, st)
	w.base, w.part = col, true
	w.document(n)
	return w.out, w.waiting(), w.err
}

// keptWaiting returns the comments lost from their slots and the tail,
// head, key line and line comments waiting for their place that hold
// more than blank lines, and empties their slots.
func (w *writer) keptWaiting() string {
	c := strings.Join(w.lost, "\n")
	w.lost = nil
	for _, s := range []*string{&w.tail, &w.head, &w.keyLine, &w.line} {
		if strings.TrimSpace(*s) != "" { // (blank lines alone are no comment to keep)
			c = joinComments(c, *s)
		}
		*s = ""
	}
	return c
}

// writer writes one document.
type writer struct {
	out     []byte
	step    int  // the indentation width
	compact bool // sequences in mappings at the column of their key

	// The line: where it starts in out; room: what was written last
	// leaves room for what comes next (a space, a line break, an
	// indicator that ends with a space), so that it needs no space
	// before it; lead: the line holds only indentation and the "- " or
	// "? " of items and keys.
	lineStart int
	room      bool
	lead      bool

	// indent is the column of the collection the writer is in (or of the
	// scalar it writes: the column its continuation lines start at); -1
	// before the root. indents holds those of the collections around.
	indent  int
	indents []int
	base    int  // the root collection's column (appendAt)
	part    bool // the writer writes part of a document (appendAt): comments waiting at its end are reported, not written
	flow    int  // the flow collections the writer is in

	comments
	kept keptBlock // the last block scalar with keep chomping written

	err error

	indentsBuf [16]int // indents' first backing array (most trees are not deeper)
}

func newWriter(b []byte, st Style) *writer {
	step := st.Indent
	if step < 2 || step > 9 {
		// yaml.v3 writes these widths with two spaces
		step = 2
	}
	if b == nil {
		b = make([]byte, 0, 512)
	}
	w := &writer{out: b, step: step, compact: st.CompactSequences, lineStart: len(b), room: true, lead: true, indent: -1}
	w.indents = w.indentsBuf[:0]
	w.footCol = -1
	// the text before b is not the writer's: its line starts at b's end
	return w
}

// errNodeKind is the error for a node the writer cannot write.
var errNodeKind = errors.New("cannot write the document as YAML")

func (w *writer) fail(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("%w: %s", errNodeKind, fmt.Sprintf(format, args...))
	}
}

// col is the column the writer is at, in bytes: it is compared with
// indentation only while the line holds nothing but spaces and
// indicators, and with 0.
func (w *writer) col() int { return len(w.out) - w.lineStart }

// newline ends the line.
func (w *writer) newline() {
	w.out = append(w.out, '\n')
	w.lineStart = len(w.out)
	w.lead = true
}

// text writes s, which holds no line break, as it is.
func (w *writer) text(s string) {
	w.out = append(w.out, s...)
}

// indicator writes an indicator (or the text of an anchor, a tag): a space
// before it if space asks for one and there is no room; after it there is
// room if roomAfter (it ends with a space); the line holds only
// indentation and indicators still if it did and lead (the indicator is
// a "- " or "? ").
func (w *writer) indicator(s string, space, roomAfter, lead bool) {
	if space && !w.room {
		w.out = append(w.out, ' ')
	}
	w.out = append(w.out, s...)
	w.room = roomAfter
	w.lead = w.lead && lead
}

// indentLine starts a line at the column of the collection the writer is
// in: it ends the line unless the line holds only indentation up to that
// column (after the "- " of an item, a key or a nested item goes on the
// same line); a blank line first when the line before is a foot comment
// at that column (comment.go).
func (w *writer) indentLine() {
	col := max(w.indent, 0)
	if w.footCol == col {
		w.beforeBlank()
	}
	if c := w.col(); !w.lead || c > col || c == col && !w.room {
		w.newline()
	}
	if w.footCol == col {
		w.newline()
	}
	w.pad(col)
}

// scalarLine starts a line of a scalar at its column (no blank line:
// one there would be the scalar's; yaml.v3 writes one when a foot
// comment before the scalar was at that column, which changes the
// text).
func (w *writer) scalarLine() {
	col := max(w.indent, 0)
	if c := w.col(); !w.lead || c > col || c == col && !w.room {
		w.newline()
	}
	w.pad(col)
}

// pad indents the line to column col.
func (w *writer) pad(col int) {
	for c := w.col(); c < col; c++ {
		w.out = append(w.out, ' ')
	}
	w.room, w.lead = true, true
	w.footCol = -1
}

// Indentation. A collection or a scalar gets its column when the writer
// enters it: the root's is 0 (a scalar's, for its continuation lines,
// one step); an item of a block sequence is two columns right of the
// dash; anything else goes to the next multiple of the indentation width
// right of the collection holding it; a block sequence that is the value
// of a mapping entry two columns less with compact sequences, its dashes
// at the column of the key.

// enter sets the column of a collection or scalar the writer enters:
// flow says it is a scalar or a flow collection, item that it is an item
// of a block sequence, compactSeq that it is a block sequence to write
// compact.
func (w *writer) enter(flow, item, compactSeq bool) {
	w.indents = append(w.indents, w.indent)
	switch {
	case w.indent < 0 && flow:
		w.indent = w.step
		return
	case w.indent < 0:
		w.indent = w.base
		return
	case item:
		w.indent += 2
	default:
		w.indent = w.step * ((w.indent + w.step) / w.step)
	}
	if compactSeq {
		w.indent -= 2
	}
}

// leave goes back to the column of the collection around.
func (w *writer) leave() {
	w.indent = w.indents[len(w.indents)-1]
	w.indents = w.indents[:len(w.indents)-1]
}

// document writes a document: its head comment and a blank line, its
// node, its foot comment after a blank line.
func (w *writer) document(d *yaml.Node) {
	if d == nil {
		w.fail("no document")
		return
	}
	root := d
	if d.Kind == yaml.DocumentNode {
		switch len(d.Content) {
		case 0:
			// an empty document is written as one holding null, as a
			// reader reads it
			root = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		case 1:
			root = d.Content[0]
		default:
			w.fail("a document of %d nodes", len(d.Content))
			return
		}
		w.take(d.HeadComment, "", "", "")
		if w.head != "" {
			w.flushHead()
			w.newline()
		}
	}
	w.takeNode(root, place{root: true}, "")
	w.flushHead()
	w.start(root, place{root: true})
	w.afterStart(root)
	w.body(root, place{root: true})
	if !w.part {
		// comments still waiting for their place when the document ends
		// (yaml.v3 drops them, and a foot comment of the root's when the
		// document has one) go, in the order they were taken, before the
		// document's own foot comment: their text is kept, as the
		// document's foot comment when read back (a bare node written as
		// a document too)
		if c := w.keptWaiting(); c != "" {
			if strings.TrimSpace(w.foot) != "" {
				c = joinComments(c, w.foot)
			}
			w.foot = c
		}
	}
	if d.Kind == yaml.DocumentNode {
		w.add(&w.foot, d.FootComment)
	}
	// a foot comment of the document is set apart by a blank line
	w.footCol = 0
	w.flushFoot()
	w.footCol = -1
	w.indentLine()
}

// emptyText reports whether the document d holds a root the writer
// writes as no text: an empty plain null without an anchor or a tag it
// shows.
func emptyText(d *yaml.Node) bool {
	if d == nil || d.Kind != yaml.DocumentNode || len(d.Content) != 1 {
		return false
	}
	r := d.Content[0]
	const quoted = yaml.SingleQuotedStyle | yaml.DoubleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle
	switch r.Tag {
	case "":
	case "!!null", yamlTagPrefix + "null":
		if r.Style&yaml.TaggedStyle != 0 {
			return false // (the tag is shown)
		}
	default:
		return false
	}
	return r.Kind == yaml.ScalarNode && r.Value == "" && r.Style&quoted == 0 && r.Anchor == ""
}
