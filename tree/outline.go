package tree

import (
	"bytes"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/fastyaml"
)

// Reading only what identifies the documents of a stream.
//
// With Options.Outline, Read may leave the documents of a YAML stream
// unparsed: each document is then an outline, a tree holding only the
// parts the Outline names (an object's apiVersion, kind and metadata.name,
// say), and the rest of its text is checked (it must be YAML Read would
// accept, within the limits) but no nodes are made for it. Load parses a
// document fully when the caller needs it; a document left outlined is
// written out as its source text.

// An Outline names the parts of a document that an outline holds: the
// entries of a mapping by key, each with an Outline of its value, the
// items of a sequence with one Outline for all of them, or everything
// below a node (All). A nil *Outline (an entry named with nothing below
// it) holds the node itself: a scalar with its value, a mapping or a
// sequence without its contents. The document's root is always held,
// with the kind, tag, style, value, line and column of every node held;
// comments are not. Its fields:
//
//	Fields map[string]*Outline // of a mapping: the entries kept, by key
//	Items  *Outline            // of a sequence: what of each item
//	All    bool                // the whole value
//
// It is the outline internal/fastyaml's Skim reads with, the one reader of
// YAML (readOutlines).
type Outline = fastyaml.Outline

// Outlined reports whether document i of the stream is an outline (see
// Options.Outline): Load parses it.
func (s *Stream) Outlined(i int) bool { return s.outlined != nil && s.outlined[i] }

// Outlines reports whether some document of the stream is an outline.
func (s *Stream) Outlines() bool { return s.outlined != nil }

// Load parses document i of the stream, an outline (Outlined), fully:
// Docs[i] is then the document Read would have given without
// Options.Outline, nodes at the same lines and columns. A document that is
// not an outline is left as it is. Should the document's text not read as
// one document matching its outline (which the way Read cuts a stream into
// documents rules out), every outline of the stream is parsed, from the
// whole stream, as Read without Options.Outline parses it.
func (s *Stream) Load(i int) error {
	if !s.Outlined(i) {
		return nil
	}
	_, body := cutBOM(s.src)
	start, end := s.chunk(i)
	var rr *rangedRead
	if s.col0 == 0 {
		// (columns count from the text's lines: replaceValues compares
		// a node's column with its line's indentation)
		rr = &rangedRead{}
	}
	doc, ok := s.readChunkInto(body[start:end], i, rr)
	if !ok || !sameOutline(outline(doc, s.outline), s.Docs[i]) {
		return s.LoadAll()
	}
	s.Docs[i] = doc
	s.outlined[i] = false
	s.left--
	if rr != nil && rr.doc == doc {
		// The parse is kept as it was read, with the byte ranges of its
		// nodes: it is the document's snapshot, now or when Snapshot is
		// called, and byte-range edits do not read the text again
		// (replaceValues); the stream's document is a copy of it, the one
		// edits change (a document is loaded to be edited: the copy
		// Snapshot would make)
		s.Docs[i] = Clone(doc)
		if s.ranged == nil {
			s.ranged = make([]*rangedRead, len(s.Docs))
		}
		s.ranged[i] = rr
	}
	if s.snapshot != nil {
		s.snapshot[i] = s.pristine(i) // as it was read: nothing has edited it
	}
	s.settle()
	return nil
}

// Unload lets go of the parse of document i, which Load made: the
// document is an outline again, written as its source text. It is for a
// reader of a long stream that looks at one document at a time, so that
// what it holds is one document's tree, not the stream's; a document that
// was edited since it was loaded must not be unloaded (its edit would not
// be written). It does nothing to a document that is not from an outline
// (or once every document of the stream is loaded).
func (s *Stream) Unload(i int) {
	if s.outlined == nil || s.outlined[i] || s.outline == nil {
		return
	}
	s.Docs[i] = outline(s.Docs[i], s.outline)
	s.outlined[i] = true
	s.left++
	if s.snapshot != nil {
		s.snapshot[i] = s.Docs[i]
	}
	if s.ranged != nil {
		s.ranged[i] = nil
	}
}

// LoadAll parses every outline of the stream (see Load), reading the
// stream again as a whole.
func (s *Stream) LoadAll() error {
	if s.outlined == nil {
		return nil
	}
	docs, err := s.readYAML(s.src)
	if err != nil {
		return err
	}
	if len(docs) != len(s.Docs) {
		return errorf(s.File, 0, 0, "the stream reads as %d documents, not %d", len(docs), len(s.Docs))
	}
	for i, d := range docs {
		if s.outlined[i] {
			s.Docs[i] = d
			if s.snapshot != nil {
				s.snapshot[i] = Clone(d)
			}
		}
	}
	s.outlined, s.starts, s.startLines = nil, nil, nil
	s.detectStyle()
	return nil
}

// settle forgets the outlines once none is left (but not where the
// documents' texts start: they were read one by one, and are checked so
// when written, see checkEdited), and detects the style of the stream once
// a document is parsed (an outlined stream has none until then: it is only
// needed to write parsed documents).
func (s *Stream) settle() {
	s.detectStyle()
	if s.left == 0 {
		s.outlined = nil
	}
}

// chunk returns where the text of document i starts and ends in the
// source, after a byte order mark.
func (s *Stream) chunk(i int) (start, end int) {
	_, body := cutBOM(s.src)
	start, end = s.starts[i], len(body)
	if i+1 < len(s.starts) {
		end = s.starts[i+1]
	}
	return start, end
}

// readChunk parses text as document i of the stream (its source text, or
// what is written for it) as the stream reads it, in the context that
// decides where yaml.v3 puts the comments around it (readWindow, with the
// comments the next documents lend it). It fails unless that reads as the
// documents it should; the document's nodes get the lines they have in
// the source.
func (s *Stream) readChunk(text []byte, i int) (*yaml.Node, bool) {
	return s.readChunkInto(text, i, nil)
}

// readChunkInto is readChunk, with the byte ranges of the parse kept in
// rr where readWindowInto keeps them.
func (s *Stream) readChunkInto(text []byte, i int, rr *rangedRead) (*yaml.Node, bool) {
	_, body := cutBOM(s.src)
	doc, lo, ok := s.readWindowInto(body, s.starts, text, i, true, windowReach, rr)
	if !ok {
		return nil, false
	}
	shiftPos(doc, s.line0+s.startLines[lo], s.col0)
	return doc, true
}

// shiftPos moves the nodes of a tree down by lines and right by cols.
func shiftPos(n *yaml.Node, lines, cols int) {
	if lines == 0 && cols == 0 {
		return
	}
	n.Line += lines
	n.Column += cols
	for _, c := range n.Content {
		shiftPos(c, lines, cols)
	}
}

// readOutlines reads the outlines of a YAML stream, or reports that it
// cannot: the caller then parses the stream fully, which also gives the
// error of an input that is not valid. It succeeds only when every
// document reads, within the limits, and the stream cuts into documents
// at its markers (documentStarts) as the parser reads them.
//
// The stream is read by internal/fastyaml's Skim, the reader that parses
// it otherwise, building only the outlines' nodes: that reads
// what a parse reads (a document that is not valid YAML fails it), and
// counts each document's nodes and depth for the limits, for a fraction
// of a parse's time and memory. Where Skim declines (anchors, tags, a key
// given twice, input fastyaml leaves to yaml.v3...), the stream is parsed
// (readYAML, which gives the errors) and the outlines taken from its
// documents.
func (s *Stream) readOutlines(data []byte, o *Outline) ([]*yaml.Node, []int, bool) {
	docs, ok := skimOutlines(data, s.limits, o)
	if ok {
		for _, d := range docs {
			shiftPos(d, s.line0, s.col0)
		}
	} else {
		var err error
		if docs, err = s.readYAML(data); err != nil || s.aliases.across {
			// a stream with an alias naming an anchor of an earlier
			// document (yaml.v3 allows it) is not left outlined: the text
			// of that document copied as it is would mean what the anchor
			// holds once a patch has changed it
			return nil, nil, false
		}
		for i, d := range docs {
			docs[i] = outline(d, o)
		}
	}
	_, body := cutBOM(data)
	starts := documentStarts(body)
	if len(starts) != len(docs) || commentedDocEnd(body) || contentOnMarker(body, starts) {
		return nil, nil, false
	}
	return docs, starts, true
}

// contentOnMarker reports whether a document of body starts with content
// on its "---" line ("--- |", `--- "a"`): where yaml.v3 puts the comments
// at the end of such a document is not where a document read on its own
// (Load) has them, so a stream holding one is read whole (FuzzOutline
// found `--- "0"` then "#").
func contentOnMarker(body []byte, starts []int) bool {
	for _, at := range starts {
		line, _ := cutLine(body[at:])
		if !bytes.HasPrefix(line, []byte("---")) || !marker(line[3:]) {
			continue
		}
		if rest := bytes.TrimSpace(line[3:]); len(rest) > 0 && rest[0] != '#' {
			return true
		}
	}
	return false
}

// skimOutlines reads the outlines of a stream with fastyaml.Skim, within
// the limits readYAML applies (addDocument); ok is false when Skim declines
// the stream or a document is beyond a limit.
func skimOutlines(data []byte, limits Limits, o *Outline) ([]*yaml.Node, bool) {
	skimmed, err := fastyaml.Skim(data, o)
	if err != nil || limits.MaxDocuments > 0 && len(skimmed) > limits.MaxDocuments {
		return nil, false
	}
	docs := make([]*yaml.Node, len(skimmed))
	for i, d := range skimmed {
		if limits.MaxDepth > 0 && d.Depth > limits.MaxDepth || limits.MaxNodes > 0 && d.Nodes > limits.MaxNodes {
			return nil, false
		}
		docs[i] = d.Doc
	}
	return docs, true
}

// commentedDocEnd reports whether a "..." line of src has a comment after
// the marker, or on a line after it before anything but directives: yaml.v3 gives
// such a comment to the document before or to the next one depending on
// what follows it, while the "..." line ends the text of the one before
// (documentStarts).
func commentedDocEnd(src []byte) bool {
	// (lines start after every line break of YAML, a lone CR too: "0:
	// 1\r... #" is a "..." line; FuzzReplaceValues, 2026-11-29; the
	// text is searched for "...", not cut into lines: every file kmerge
	// apply reads is)
	for at := 0; ; at += 3 {
		i := bytes.Index(src[at:], []byte("..."))
		if i < 0 {
			return false
		}
		at += i
		if at > 0 && src[at-1] != '\n' && src[at-1] != '\r' {
			continue
		}
		line, rest := cutLine(src[at:])
		if !isMarker(line, "...") {
			continue
		}
		if len(bytes.TrimSpace(line[3:])) > 0 {
			return true
		}
		// (past blank lines and directives: "...\n%YAML 1.1\n# c\n---\nk: v"
		// gives "# c" to k)
		if t := bytes.TrimLeft(markerLine(rest), " \t"); len(t) > 0 && t[0] == '#' {
			return true
		}
	}
}

// outline returns the outline of a parsed document: a copy of the parts o
// names, without comments.
func outline(doc *yaml.Node, o *Outline) *yaml.Node {
	c := &yaml.Node{Kind: doc.Kind, Style: doc.Style, Tag: doc.Tag, Value: doc.Value, Line: doc.Line, Column: doc.Column}
	for _, r := range doc.Content {
		c.Content = append(c.Content, outlineNode(r, o))
	}
	return c
}

func outlineNode(n *yaml.Node, o *Outline) *yaml.Node {
	c := &yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Value: n.Value, Line: n.Line, Column: n.Column}
	switch {
	case o == nil:
	case o.All:
		for _, x := range n.Content {
			c.Content = append(c.Content, outlineNode(x, o))
		}
	case n.Kind == yaml.MappingNode && o.Fields != nil:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if sub, ok := o.Fields[n.Content[i].Value]; ok {
				c.Content = append(c.Content, outlineNode(n.Content[i], nil), outlineNode(n.Content[i+1], sub))
			}
		}
	case n.Kind == yaml.SequenceNode && o.Items != nil:
		for _, x := range n.Content {
			c.Content = append(c.Content, outlineNode(x, o.Items))
		}
	}
	return c
}

// sameOutline reports whether two outlines are the same, positions
// included.
func sameOutline(a, b *yaml.Node) bool {
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameOutline(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// checkEdited checks the output of preserved for a stream with outlined
// documents, where reading the whole output back, as preserved does
// otherwise, would parse them all: each edited document's text is read
// back on its own instead (followed by "---" where the next document
// starts with it, see readChunk), and must be the current document (with
// the comments of byte-range edits on their nodes). That is the same check: every document's
// text after the first starts at a document marker ("---", or after the
// "..." ending the one before), so the stream reads as its documents'
// texts do one by one. Should a check fail, the outlines are parsed and the stream
// is written as it is without them. So are they when an edited document's
// text after the first may lend comments to the document before (lends):
// its check reads the document before from the source, and would not see
// a comment the edit made that document's (the head comment of the one
// node after "---", a blank line and a tag, edited away, the comment lines
// kept: read back, they are the foot comment of the document before;
// FuzzOutline, 2026-11-29). Such texts are rare (a bare "---", comment
// lines, a blank line).
func (s *Stream) checkEdited(out []byte, outcomes []outcome, edits []docEdit) ([]byte, []outcome, error) {
	var body []byte
	var starts []int
	for i, e := range edits {
		text := e.text
		if !e.changed && s.resnapshot && !s.Outlined(i) {
			// Snapshot was called again, perhaps after edits: a document
			// written as its source text is checked too, as preserved
			// reads every document back when the stream has no outlines
			// (else an edit made before the second Snapshot was lost on
			// a loaded document whose parse Load did not keep; attack,
			// 2026-11-30)
			if starts == nil {
				_, body = cutBOM(s.src)
				starts = documentStarts(body)
			}
			text = textOf(body, starts, i)
		} else if !e.changed || e.proven {
			continue // (values replaced alone: the nodes the comments go to stay)
		}
		var doc *yaml.Node
		ok := i == 0 || !lends(text)
		if ok {
			doc, ok = s.readChunk(text, i)
		}
		if !ok || !Equal(doc, s.Docs[i]) || !commentsKept(outcomes[i], doc, e.comments(s.Docs[i])) {
			if err := s.LoadAll(); err != nil {
				return nil, nil, err
			}
			// every document is a full read now; without the texts'
			// starts, preserved reads the whole output back (LoadAll
			// forgets them, but not when every outline was loaded one by
			// one: preserved came back here, without end)
			s.starts, s.startLines = nil, nil
			return s.preserved()
		}
	}
	return out, outcomes, nil
}
