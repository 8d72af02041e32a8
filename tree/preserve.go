package tree

import (
	"bytes"
	"io"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Writing YAML so that what was not edited keeps its text.
//
// The source is cut into one chunk per document by its document markers
// (documentStarts). A document whose tree is its snapshot's is its chunk,
// copied; an edited one is its chunk with the byte ranges of the nodes
// the edit changed replaced (inplace.go), or, where those edits refuse
// (a comment that would go to another node, an edit under an anchor, a
// layout they cannot prove), the writer's rendering of the document.
// Everything written is checked by reading it back, and the whole stream
// falls back to the writer's rendering when the check fails.

// Snapshot records the current documents of the stream as its "original"
// state (deep copies), so that WriteYAML can later keep every untouched
// byte. Call it after Read and before editing the documents.
//
// After Snapshot, WriteYAML on a stream read from YAML writes each document
// as follows; documents are matched with their snapshots by position.
//
//   - A document that yaml.v3 renders exactly as its snapshot is copied
//     from the source text unchanged, with its "---" line, comments and
//     blank lines. When no document changed, the output is the input.
//   - An edited document is written as byte-range edits of its source
//     text where they can write its edit (tree/inplace.go): changed values
//     replaced in their bytes, removed entries and items cut with their
//     lines, added ones inserted as the writer's lines at their siblings'
//     column, entries whose value changed otherwise written anew in their
//     lines, a scalar value's line comment changed on its line, a flow
//     collection on one line written anew in its text, an item moved
//     copied as its lines; every
//     other byte is kept, spacing, blank lines, comments and CRLF line
//     ends included. A text whose lines were cut or inserted, or a line
//     comment changed, is read back (changed values alone are proven as
//     they are written, but with Options.Whole). Anchors, aliases and
//     merge keys stay as they are written where nothing under them
//     changed.
//   - Any other edited document (a comment of a kept node changed but a
//     scalar value's line comment or a key's head comment, an edit under
//     an anchor or in an alias, a comment that byte-range edits would
//     hand to another node) is written as the writer renders it, after its
//     own directives and "---" line, before its "..." line, in the line
//     ends of its source (CRLF stays CRLF). That keeps every value and
//     comment, and loses the document's blank lines and unusual spacing.
//     A document whose source text is exactly the writer's rendering of
//     its snapshot (YAML written by a program) keeps everything so.
//
// The source is cut into documents at its markers: a document's text runs
// from its "---" line up to the next document's "---" line, so comments and
// blank lines between two documents belong to the first one, as yaml.v3
// reads them, unless the first one ends with a "..." line: then what
// follows "..." belongs to the next document. Text before the first
// document (comments, directives) belongs to the first document, text
// after the last one to the last. Comment lines right after a bare "---"
// and followed by a blank line, which yaml.v3 reads as the foot comment of
// the document before, stay in the text of the document after: written
// once, where they were, whichever of the two is edited (see lent.go).
//
// Whenever the output would not read back as the current documents (the
// documents were added or removed, the source does not cut into documents
// that read as the snapshots, Snapshot was called again after edits), the
// whole stream is written by the writer, as without Snapshot. Snapshot has
// no effect on streams read from JSON.
//
// Call it before any edit: the snapshots are taken to be what the source
// reads as; the ways above check it (byte-range edits compare the text
// read again with the snapshot on every node, and read back). A
// document loaded from an outline (Load) keeps the tree it was read as,
// with the byte range of every node, and that is its snapshot: what was
// done to the document since Load is written as edits, and its text is
// not read again to edit it.
func (s *Stream) Snapshot() {
	if s.snapshot != nil {
		s.resnapshot = true
	}
	s.snapshot = make([]*yaml.Node, len(s.Docs))
	for i := range s.Docs {
		if !s.Outlined(i) { // an outline is copied as it was: Load snapshots it
			s.snapshot[i] = s.pristine(i)
		}
	}
}

// pristine returns the tree document i was read as: the parse Load kept
// (rangedRead), or a copy of the document.
func (s *Stream) pristine(i int) *yaml.Node {
	if rr := s.rangedRead(i); rr != nil {
		return rr.doc
	}
	return Clone(s.Docs[i])
}

// Rewritten reports whether the last WriteYAML after Snapshot could not
// keep the source's text, and wrote every document with the writer
// (WriteYAML; see Snapshot). Joined with others, the parts of a long stream
// (SplitStream) write what the whole stream writes unless one of them was
// rewritten: the whole stream is then rewritten too, every document of it.
func (s *Stream) Rewritten() bool { return s.rewritten }

// DropSnapshot discards the copies Snapshot made, and the memory they hold:
// WriteYAML then writes the stream as if Snapshot had never been called.
func (s *Stream) DropSnapshot() { s.snapshot, s.resnapshot, s.ranged = nil, false, nil }

// Snapshotted reports whether the stream holds a snapshot: Snapshot was
// called, and DropSnapshot was not since.
func (s *Stream) Snapshotted() bool { return s.snapshot != nil }

// writePreserving writes the stream keeping its source text, or, when that
// cannot be done correctly, as the function WriteYAML writes it.
func (s *Stream) writePreserving(w io.Writer) error {
	out, _, err := s.preserved()
	if err != nil {
		return err
	}
	s.rewritten = out == nil
	if out == nil {
		if err := s.LoadAll(); err != nil {
			return err
		}
		return WriteYAML(w, s.Style, s.kept()...)
	}
	_, err = w.Write(out)
	return err
}

// outcome is how a document was written.
type outcome uint8

const (
	copied    outcome = iota // unchanged: the source text
	rendered                 // edited: the writer's rendering (byte-range edits refused)
	canonical                // edited: the source was the writer's rendering, so is the output
	replaced                 // edited: the source text with the changed values' ranges replaced (inplace.go)
)

// written reports whether a document written so has its text already when
// preserved's first loop ends (replaceValues).
func written(o outcome) bool { return o == replaced }

// docEdit is what preserved learns about one document.
type docEdit struct {
	changed bool
	a, b    []byte // renderings of the snapshot and of the current tree
	outcome outcome
	text    []byte     // what was written
	proven  bool       // a replaced text that reads as the current tree (replaceValues)
	as      *yaml.Node // a replaced text's comments, where not the tree's: a foot comment moved (footsMoved)
}

// preserved returns the stream written with its source text kept and how
// each document was written, or nil when the stream must be written by
// the writer instead. An edited document is written by byte-range edits
// (replaceValues) where they can write it, else rendered (editDoc); when
// reading the output back finds a text of byte-range edits wrong, the
// stream is written again without them (retry).
func (s *Stream) preserved() ([]byte, []outcome, error) {
	n := len(s.Docs)
	if len(s.snapshot) != n {
		return nil, nil, nil
	}
	if crOnly(s.src) {
		return s.preservedCR()
	}
	if s.removed != nil {
		return s.preservedRemoving()
	}
	edits := make([]docEdit, n)
	changed := false
	_, body := cutBOM(s.src)
	var starts []int // of the documents' texts, found when one is edited
	for i, d := range s.Docs {
		if s.Outlined(i) || identical(s.snapshot[i], d) {
			continue
		}
		unflowFilled(s.snapshot[i], d)
		if starts == nil {
			if starts = documentStarts(body); len(starts) != n {
				return nil, nil, nil
			}
		}
		// the trees as the document's text holds them: without the
		// comments the next document's text lends it (lent.go)
		snap, d, ok := s.ownDocs(body, starts, i)
		if !ok {
			return nil, nil, nil
		}
		// Changed values, removed, added and rewritten entries are
		// written as byte-range edits (replaceValues), read back where
		// lines were cut or inserted (proven: values alone); the other
		// edits are rendered below.
		if !s.noReplace {
			chunk := textOf(body, starts, i)
			if text, proven, as, ok := s.replaceValues(chunk, s.lentOf(chunk, i), snap, d, i == 0, i == n-1, s.rangedRead(i)); ok {
				if s.mangle != nil {
					text = s.mangle(text)
				}
				if !bytes.Equal(text, chunk) {
					// (Snapshot called again, perhaps after edits: the
					// snapshot may not be what the text reads as, and
					// replaceValues compares them only where values
					// changed; the text is read back, as every text is
					// then. Else an edit made before that Snapshot, in
					// another part of the document, was lost; attack,
					// 2026-11-30)
					proven = proven && !s.resnapshot && !s.whole
					if as != nil && d != s.Docs[i] {
						// (the moves of footsMoved, on the document as its
						// own text holds it: the stream reads the foot
						// comment the next text lends it too, ownDocs)
						c := *as
						c.FootComment = s.Docs[i].FootComment
						as = &c
					}
					edits[i] = docEdit{changed: true, outcome: replaced, text: text, proven: proven, as: as}
					changed = true
				}
				continue
			}
		}
		hint := len(s.src)/n + 512 // the source's bytes per document
		a, err := renderDoc(s.Style, snap, hint)
		if err != nil {
			return nil, nil, err
		}
		b, err := renderDoc(s.Style, d, hint)
		if err != nil {
			return nil, nil, err
		}
		if !bytes.Equal(a, b) {
			edits[i] = docEdit{changed: true, a: a, b: b}
			changed = true
		}
	}
	outcomes := make([]outcome, n)
	if !changed && !s.resnapshot {
		return s.src, outcomes, nil // nothing to check: the source reads as the snapshot
	}
	var out []byte
	if n == 0 {
		out = s.src
	} else {
		bom, _ := cutBOM(s.src)
		if starts == nil {
			if starts = documentStarts(body); len(starts) != n {
				return nil, nil, nil
			}
		}
		out = append(out, bom...)
		for i := range n {
			end := len(body)
			if i+1 < n {
				end = starts[i+1]
			}
			chunk := body[starts[i]:end]
			if !edits[i].changed {
				out = append(out, chunk...)
				continue
			}
			text := edits[i].text
			if !written(edits[i].outcome) {
				text = s.editDoc(chunk, i, &edits[i])
			}
			if lent := s.lentOf(chunk, i); lent != nil && !bytes.HasPrefix(text, lent) {
				// the comments this text lends the document before are
				// that document's (lent.go), and its writing dropped them
				return nil, nil, nil
			}
			out = append(out, text...)
			outcomes[i], edits[i].text = edits[i].outcome, text
		}
	}
	if n == 1 && written(outcomes[0]) {
		if !edits[0].proven && !s.readsAs(out, s.Docs[0], edits[0].comments(s.Docs[0]), replaced) {
			return s.retry()
		}
		return out, outcomes, nil
	}
	// A stream of one canonical document is yaml.v3's rendering of it, as
	// WriteYAML without a snapshot writes it: that reads back as the
	// document (FuzzRead checks it).
	if n == 1 && outcomes[0] == canonical {
		return out, outcomes, nil
	}
	if s.starts != nil {
		// documents read one by one (outlines, loaded or not) are read
		// back so, a comment between two of them where their texts put it
		return s.checkEdited(out, outcomes, edits)
	}
	// Read everything back: the output must be the current documents; a
	// document of byte-range edits must hold every comment on its node
	// (commentsKept); when a document was written otherwise than copied
	// after the first (yaml.v3 gives a comment of one document's text to
	// its neighbour: a comment after "---" once the document before ends
	// otherwise), the stream must hold all the comment lines, as the
	// outlined stream checks them (each document's own text: checkEdited).
	docs, err := readYAML(out, s.File, s.limits)
	ok := err == nil && len(docs) == n
	moved := false
	for i := 0; ok && i < n; i++ {
		ok = Equal(docs[i], s.Docs[i]) && sameKeyOrder(docs[i], s.Docs[i]) && (!written(outcomes[i]) || commentsKept(outcomes[i], docs[i], edits[i].comments(s.Docs[i])))
		// (a text of byte-range edits whose first lines are now comment
		// lines, after "---", lends them to the document before with
		// CRLF line ends, a document copied and not compared: "b:\r\n-
		// x\r\n# mid\r\nk: x" without b kept "# mid", the foot comment
		// of x, as the document before's; attack45, 2026-11-30)
		moved = moved || ok && outcomes[i] != copied && i > 0
	}
	if ok && (moved || commentedDocEnd(body)) {
		// A comment after "..." is in the text of the document after it
		// (documentStarts), which yaml.v3 gives the document before when
		// a blank line follows it, or a CRLF: written with the one text
		// and the other document's rendering, it was written twice, or
		// not at all
		ok = sameStreamComments(docs, s.Docs)
	}
	switch {
	case ok:
		return out, outcomes, nil
	case slices.Contains(outcomes, replaced) && !s.noReplace:
		return s.retry()
	}
	return nil, nil, nil
}

// rangedRead returns the parse of document i that Load kept (rangedRead),
// or nil.
func (s *Stream) rangedRead(i int) *rangedRead {
	if i < len(s.ranged) {
		return s.ranged[i]
	}
	return nil
}

// crOnly reports whether every line break of src is a lone carriage
// return (an old Mac's text): it holds a CR and no LF.
func crOnly(src []byte) bool {
	return bytes.IndexByte(src, '\r') >= 0 && bytes.IndexByte(src, '\n') < 0
}

// preservedCR is preserved for a source whose line breaks are lone
// carriage returns: the edits and checks, whose rules are
// written for lines ended by LF, run on the text with LF line breaks,
// and the output gets the source's back. The two texts read as the same
// values and the same nodes at the same lines and columns (YAML reads a
// CR as it reads an LF, a line break, in a scalar as in a comment, and
// both are one byte); the writer writes no raw line break but as one
// (a CR or LF in a value it escapes in double quotes), so every LF of the
// output is a line break, written back as a CR; an output holding a CR
// (a comment's, written raw) is not one of those texts. Written with LF rules
// alone, such a file came out with every line break an LF and without
// its last.
func (s *Stream) preservedCR() ([]byte, []outcome, error) {
	t := *s
	t.src = bytes.ReplaceAll(s.src, []byte("\r"), []byte("\n"))
	out, outcomes, err := t.preserved()
	if bytes.IndexByte(out, '\r') >= 0 {
		// a CR the edits wrote (a comment's CRLF, which the writer
		// writes raw) would be another line break among the CRs: a
		// head comment "# c\r\n# d" in a flow collection read back with
		// a blank line between (attack, 2026-11-29); the writer writes
		// such a stream
		return nil, nil, err
	}
	if out != nil {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r"))
	}
	return out, outcomes, err
}

// retry is preserved after a text written by byte-range edits did not
// read back as the edited documents: without them.
func (s *Stream) retry() ([]byte, []outcome, error) {
	t := *s
	t.noReplace = true
	return t.preserved()
}

// preservedRemoving is preserved for a stream some of whose documents
// were removed: the output is the text of the others, each written as
// preserved writes it, and is read back whole (the documents around a
// removed one must read as they did).
func (s *Stream) preservedRemoving() ([]byte, []outcome, error) {
	if err := s.LoadAll(); err != nil { // to compare every document read back
		return nil, nil, err
	}
	out, outcomes, err := s.withoutRemoved().preserved()
	if err != nil || out == nil {
		return nil, nil, err
	}
	kept := s.kept()
	docs, err := readYAML(out, s.File, s.limits)
	ok := err == nil && len(docs) == len(kept)
	for i := 0; ok && i < len(kept); i++ {
		ok = Equal(docs[i], kept[i]) && !(written(outcomes[i]) && !sameComments(docs[i], kept[i]))
	}
	if !ok {
		return nil, nil, nil
	}
	return out, outcomes, nil
}

// withoutRemoved returns a stream of the documents of s that were not
// removed, with their snapshots, whose source is the text of those
// documents: the text of a removed one is cut out.
func (s *Stream) withoutRemoved() *Stream {
	bom, body := cutBOM(s.src)
	starts := documentStarts(body)
	t := *s
	t.removed, t.Docs, t.snapshot, t.src = nil, nil, nil, append([]byte(nil), bom...)
	if len(starts) != len(s.Docs) {
		// the source does not cut into its documents: written whole,
		// by yaml.v3 (the snapshot no longer lines up)
		t.Docs = s.kept()
		return &t
	}
	for i, d := range s.Docs {
		if s.removed[i] {
			continue
		}
		end := len(body)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		t.src = append(t.src, body[starts[i]:end]...)
		t.Docs, t.snapshot = append(t.Docs, d), append(t.snapshot, s.snapshot[i])
	}
	return &t
}

// commentsKept reports whether got, a document read back from text written
// so, holds the comments of want, its tree: a text of byte-range edits
// every comment on its node (sameCommentPlaces); a rendering holds them
// as the writer places them.
func commentsKept(o outcome, got, want *yaml.Node) bool {
	return !written(o) || sameCommentPlaces(got, want)
}

// editDoc returns the text of edited document i, whose source text is
// chunk, when byte-range edits (replaceValues) do not write it: the
// writer's rendering of the document, in the line ends of chunk
// (renderedText), after the "---" line and the comment lines the text
// lends the document before (lent.go), which stay as they are. A source
// that is exactly the writer's rendering of its snapshot, as programs
// write YAML (kustomize, kyaml, kubectl with yaml.v3), keeps its
// comments, order, quoting and indentation so (canonical); another loses
// its blank lines and unusual spacing in this document alone, never a
// value or a comment.
func (s *Stream) editDoc(chunk []byte, i int, e *docEdit) []byte {
	keep := s.lentOf(chunk, i)
	if keep != nil {
		for rest := chunk[len(keep):]; len(keep) > 0 && len(rest) > 0; {
			// (and the blank lines after them, which make them lent: the
			// rendering starts with the document's first node)
			line, after := cutLine(rest)
			if len(bytes.TrimSpace(line)) > 0 {
				break
			}
			keep, rest = chunk[:len(chunk)-len(after)], after
		}
	}
	rest, eol := chunk[len(keep):], lineEnd(chunk, s.src)
	if bytes.Equal(renderedText(rest, e.a, eol), rest) {
		e.outcome = canonical
	} else {
		e.outcome = rendered
	}
	text := renderedText(rest, e.b, eol)
	if n := len(keep); n > 0 && keep[n-1] != '\n' {
		// the lent lines end the text without a line break: the
		// rendering starts on a line of its own
		text = append([]byte(eol), text...)
	}
	if n := len(keep); n > 0 && len(text) > 0 && !crlfEnded(keep, nil) && !bytes.HasSuffix(keep, []byte("\n\n")) && !bytes.HasSuffix(keep, []byte("\n\r\n")) {
		// lent comment lines end at a blank line (or a CRLF): right
		// above the rendering's first line, they would be its head
		// comment ("0\n---\n#\n" given a value)
		text = append([]byte(eol), text...)
	}
	return append(keep[:len(keep):len(keep)], text...)
}

// readsAs reports whether text, a document written as o says, is one
// YAML document that reads as doc: the same value, and its comments as
// commentsKept asks of o (every comment on its node for byte-range edits:
// lines cut or inserted can hand a comment line to another node,
// "0:\n#\n !\n00:" given an entry after 0's making the "#" above 00 the
// new key's, which comparing comment lines alone would not see;
// FuzzReplaceValues, 2026-11-30).
func (s *Stream) readsAs(text []byte, doc, comments *yaml.Node, o outcome) bool {
	docs, err := readYAML(text, s.File, s.limits)
	return err == nil && len(docs) == 1 && Equal(docs[0], doc) && sameKeyOrder(docs[0], doc) && commentsKept(o, docs[0], comments)
}

// sameKeyOrder reports whether a and b, trees that hold the same value
// (Equal), have every mapping's keys in the same order. Equal compares a
// mapping key by key, in any order, and a text written otherwise than by
// the writer can put a new key's line before the last key's (the splice
// did: "- |+\n  x\n- c: |\n    t\n\n  d: 2\n#\n" given z after d was
// "c, z, d"; attack48, 2026-11-30): the text must read as the edited
// tree, its order too.
func sameKeyOrder(a, b *yaml.Node) bool {
	a, b = Deref(a), Deref(b)
	if a == nil || b == nil || a.Kind != b.Kind || len(a.Content) != len(b.Content) {
		return true // (not two collections alike: Equal decides)
	}
	for i := range a.Content {
		if a.Kind == yaml.MappingNode && i%2 == 0 {
			if ka, kb := Resolve(a.Content[i]), Resolve(b.Content[i]); ka == nil || kb == nil || ka.Value != kb.Value {
				return false
			}
			continue
		}
		if !sameKeyOrder(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// comments returns the tree whose comments the document's text holds:
// doc, its tree, but where its edits moved a foot comment (footsMoved).
func (e *docEdit) comments(doc *yaml.Node) *yaml.Node {
	if e.as != nil {
		return e.as
	}
	return doc
}

// renderDoc renders one document as WriteYAML does, without "---", into a
// buffer first sized for about sizeHint bytes.
func renderDoc(st Style, doc *yaml.Node, sizeHint int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(sizeHint)
	if err := encodeYAML(&buf, st, []*yaml.Node{doc}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// identical reports whether two trees are the same to the writer:
// then they render the same, without rendering them. Positions do not
// count; aliases are left to the renderings.
func identical(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		len(a.Content) != len(b.Content) || a.Kind == yaml.AliasNode {
		return false
	}
	for i := range a.Content {
		if !identical(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// sameComments reports whether two trees hold the same comment lines, as
// multisets. Comparing lines rather than whole comments keeps a comment
// that yaml.v3 reads into another node, or splits between a foot and a head
// comment, from counting as lost.
func sameComments(a, b *yaml.Node) bool {
	ca, cb := commentLines(a, nil), commentLines(b, nil)
	if len(ca) != len(cb) {
		return false
	}
	slices.Sort(ca)
	slices.Sort(cb)
	return slices.Equal(ca, cb)
}

// sameComments for streams: a and b hold the same comment lines, in
// whichever documents.
func sameStreamComments(a, b []*yaml.Node) bool {
	var ca, cb []string
	for _, d := range a {
		ca = commentLines(d, ca)
	}
	for _, d := range b {
		cb = commentLines(d, cb)
	}
	slices.Sort(ca)
	slices.Sort(cb)
	return slices.Equal(ca, cb)
}

// commentLines appends the non-empty lines of every comment in n, trimmed.
func commentLines(n *yaml.Node, out []string) []string {
	if n == nil {
		return out
	}
	for _, c := range [...]string{n.HeadComment, n.LineComment, n.FootComment} {
		for c != "" {
			line, rest, _ := strings.Cut(c, "\n")
			if line = strings.TrimSpace(line); line != "" {
				out = append(out, line)
			}
			c = rest
		}
	}
	for _, c := range n.Content {
		out = commentLines(c, out)
	}
	return out
}

// cutBOM splits a leading UTF-8 byte order mark from src.
func cutBOM(src []byte) (bom, rest []byte) {
	if bytes.HasPrefix(src, utf8BOM) {
		return src[:len(utf8BOM)], src[len(utf8BOM):]
	}
	return nil, src
}

// documentStarts returns the offset in src where each document's text
// starts; a document's text ends where the next one's starts (the last one
// at the end of src). The first document starts at 0, so that it holds the
// comments and directives before it. A later document starts at its "---"
// line, or, when the document before ended with "...", right after that
// line, so that comments after "..." belong to the next document (as
// yaml.v3 reads them). The count is checked against the parsed stream by
// the caller.
func documentStarts(src []byte) []int {
	var starts []int
	open := false // a document has started and not ended with "..."
	pending := 0  // where a document starting now would start
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		next := len(src)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(src)
		}
		line := src[off:end]
		switch {
		case isMarker(line, "---"):
			if open {
				starts = append(starts, off)
			} else {
				starts = append(starts, pending)
			}
			open = true
		case isMarker(line, "..."):
			open = false
			pending = next
		case open || isBlankOrComment(line) || line[0] == '%':
		default: // content without "---": the first document, or an error
			starts = append(starts, pending)
			open = true
		}
		off = next
	}
	if len(starts) > 0 {
		starts[0] = 0
	}
	return starts
}

// isMarker reports whether line is the document marker m ("---" or "...")
// at the start of a line, alone or followed by a space and more.
func isMarker(line []byte, m string) bool {
	return len(line) >= 3 && string(line[:3]) == m &&
		(len(line) == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r')
}

func isBlankOrComment(line []byte) bool {
	t := bytes.TrimLeft(line, " \t\r")
	return len(t) == 0 || t[0] == '#'
}

// unflowFilled writes in block style the collections that were empty flow
// collections in the snapshot ({} or [], as templates render an empty
// value) and have content now: a person filling resources: {} writes a
// block. Nodes are matched by their position in the source.
func unflowFilled(snapshot, doc *yaml.Node) {
	type pos struct{ line, col int }
	empty := map[pos]bool{}
	var find func(n *yaml.Node)
	find = func(n *yaml.Node) {
		if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle != 0 && len(n.Content) == 0 && n.Line > 0 {
			empty[pos{n.Line, n.Column}] = true
		}
		for _, c := range n.Content {
			find(c)
		}
	}
	find(snapshot)
	if len(empty) == 0 {
		return
	}
	var fix func(n *yaml.Node, inFlow bool)
	fix = func(n *yaml.Node, inFlow bool) {
		flow := n.Style&yaml.FlowStyle != 0
		if flow && !inFlow && len(n.Content) > 0 && empty[pos{n.Line, n.Column}] {
			n.Style &^= yaml.FlowStyle
			flow = false
		}
		for _, c := range n.Content {
			fix(c, inFlow || flow)
		}
	}
	fix(doc, false)
}
