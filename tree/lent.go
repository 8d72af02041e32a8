package tree

import (
	"bytes"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/fastyaml"
)

// Comments a document's text lends to the document before it.
//
// The text of a document starts at its "---" line (documentStarts), but
// yaml.v3 reads the comment lines right after a bare "---" line, when a
// blank line follows them, as the foot comment of the document before:
//
//	data:
//	  x: "1"
//	---
//	# c1       <- the first document's FootComment, though in the
//	# c2          second document's text
//
//	kind: ConfigMap
//
// (a comment before "---", in the first document's own text, is its foot
// comment too, and is lost when the next document lends one). Those lines
// are written once, with the text of the document that holds them in the
// source: a document's own text, as the writer lines it up with its
// renderings, is its tree with the foot comment its own text gives it
// (ownDocs), and a document read from its text alone (Load, the checks of
// edited documents) is read with the texts around it that decide where
// yaml.v3 puts those comments (readWindow).

// lends reports whether the text of a document may start with comments
// yaml.v3 gives the document before it: a "---" line with nothing after
// the marker, comment lines, and then a blank line or the end of the text.
// The "---" line may follow blank lines and directives, which a text
// starts with after a "..." line (documentStarts): yaml.v3 lends the
// comments after "---" all the same ("a: 1\n...\n%YAML 1.1\n---\n# c\n\nb:
// 1" has "# c" as the first document's foot comment). It errs on the side
// of yes: the callers read the texts to know.
func lends(chunk []byte) bool {
	line, rest := cutLine(markerLine(chunk))
	if !isMarker(line, "---") || len(bytes.TrimSpace(line[3:])) > 0 {
		return false
	}
	comments := 0
	for len(rest) > 0 {
		line, rest = cutLine(rest)
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0:
			return comments > 0
		case t[0] != '#':
			return false
		}
		comments++
		if crlfEnded(chunk, rest) {
			return true
		}
	}
	return comments > 0
}

// crlfEnded reports whether the line of text that ends where rest starts
// ends with "\r\n". yaml.v3 reads the "\n" of a comment line ended so as
// a blank line of its own (a full read of "---\n# c\r\nk: v" makes "# c"
// the document before's foot comment, as "---\n# c\n\nk: v" does): after
// such a comment line, the comments lent end.
func crlfEnded(text, rest []byte) bool {
	end := len(text) - len(rest)
	return end >= 2 && text[end-2] == '\r' && text[end-1] == '\n'
}

// markerLine returns text from its first line that is neither blank nor
// a directive (a line starting with "%"): where the text of a document
// that follows a "..." line has its "---" line, if it has one.
func markerLine(text []byte) []byte {
	for len(text) > 0 {
		line, rest := cutLine(text)
		if len(bytes.TrimSpace(line)) > 0 && line[0] != '%' {
			break
		}
		text = rest
	}
	return text
}

// lentLines returns the "---" line (with the blank and directive lines
// before it) and the comment lines after it that a document's text lends
// the document before (lends), nil when it lends none.
func lentLines(chunk []byte) []byte {
	if !lends(chunk) {
		return nil
	}
	_, rest := cutLine(markerLine(chunk))
	for len(rest) > 0 {
		next, after := cutLine(rest)
		if t := bytes.TrimSpace(next); len(t) == 0 || t[0] != '#' {
			break
		}
		rest = after
		if crlfEnded(chunk, rest) {
			break
		}
	}
	return chunk[:len(chunk)-len(rest)]
}

// lentOf returns the lines of chunk, the text of document i, that it
// lends the document before (lentLines), when they are lent: the
// snapshot of document i-1 has their comment as the end of its foot
// comment, and they do not end the text of an empty document before
// another (LF). lends errs on the side of yes: the comment lines of an empty
// document followed by another "---" are its own foot comment ("0\n---\n#\n---\n1":
// the second document's), not lent. Without a snapshot of document i-1 to
// tell (not loaded), the lines are taken as lent.
func (s *Stream) lentOf(chunk []byte, i int) []byte {
	if i == 0 {
		return nil
	}
	lent := lentLines(chunk)
	if lent == nil || i-1 >= len(s.snapshot) || s.Outlined(i-1) || s.snapshot[i-1] == nil {
		return lent
	}
	// the comment lines after "---" (a lone CR ends a line too)
	_, rest := cutLine(markerLine(lent))
	lines := commentLines(&yaml.Node{FootComment: strings.ReplaceAll(string(rest), "\r", "\n")}, nil)
	foot := commentLines(&yaml.Node{FootComment: s.snapshot[i-1].FootComment}, nil)
	if len(foot) < len(lines) || !slices.Equal(foot[len(foot)-len(lines):], lines) {
		return nil
	}
	if len(lent) == len(chunk) && i+1 < len(s.Docs) && !crlfEnded(chunk, nil) {
		// comment lines ending the text of an empty document, LF-ended,
		// right before the next "---", are its own foot comment, whatever
		// the document before ends with ("0\n# c\n---\n# c\n---\n1":
		// each document's "# c"; attack55); with CRLF they are lent
		// whatever follows them
		return nil
	}
	return lent
}

// cutLine splits text after its first line, returning the line without its
// line break: "\n", "\r\n" or a lone "\r" (YAML's three).
func cutLine(text []byte) (line, rest []byte) {
	i := bytes.IndexAny(text, "\r\n")
	if i < 0 {
		return text, nil
	}
	if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
		return text[:i], text[i+2:]
	}
	return text[:i], text[i+1:]
}

// readWindow parses text as document i of a stream whose source (after a
// byte order mark) is body, the documents' texts starting at starts, in
// the context that decides where yaml.v3 puts the comments around it: the
// empty documents next to it (the comments of an empty document may go to
// the document before it), the document before when document i's own text
// lends it comments (lends), and, with lent, the documents after it that
// lend it some (empty ones, or one starting with comments lent). Those are
// read with it, from the source, followed by a "---" line when a document
// follows them (a comment before "---" is a document's foot comment; at
// the end of the input, its last key's). Without lent, document i is read
// with the comments its own text holds, none lent by the next document.
// It returns the document and the index of the first document read, and
// fails unless that reads as the documents it should.
func (s *Stream) readWindow(body []byte, starts []int, text []byte, i int, lent bool) (*yaml.Node, int, bool) {
	return s.readWindowReach(body, starts, text, i, lent, windowReach)
}

// windowReach is how many documents before and after document i readWindow
// reads at most. The documents that decide where yaml.v3 puts comments
// around one are its neighbours: its scanner looks two tokens ahead, and
// a document's end leaves its parser with no comment pending, so beyond a
// few documents (a few tokens: an empty one is one token, "---") the text
// decides nothing about document i. A run of empty documents, or of
// documents each lending comments to the one before, read whole for each
// of its documents, made a stream of n of them n^2 work (issue 25:
// 2,000 documents "---\n# c\n" took 3.6 s to patch, 4,000 over 30 s).
// TestWindowReach compares windows of this reach with windows as far as
// such runs go, on random streams of such documents.
const windowReach = 3

// readWindowReach is readWindow reading at most reach documents before
// document i and after it.
func (s *Stream) readWindowReach(body []byte, starts []int, text []byte, i int, lent bool, reach int) (*yaml.Node, int, bool) {
	return s.readWindowInto(body, starts, text, i, lent, reach, nil)
}

// A rangedRead is a document's parse that is its snapshot (Load: nothing
// has edited it), with the byte ranges of its nodes in text, the text it
// was read from: byte-range edits of that same text use them instead of
// reading it again (replaceValues).
type rangedRead struct {
	doc    *yaml.Node
	ranges *fastyaml.Ranges
	text   []byte
}

// readWindowInto is readWindowReach; with rr, the window is read with the
// byte ranges of its nodes, kept in rr when the window is document i's
// text alone (and the "---" line after it) and normalizing the parse
// changed nothing in it.
func (s *Stream) readWindowInto(body []byte, starts []int, text []byte, i int, lent bool, reach int, rr *rangedRead) (*yaml.Node, int, bool) {
	n := len(starts)
	lo, hi := s.windowStartReach(body, starts, text, i, reach), i
	for lent && hi+1 < n && hi-i < reach && (s.empty(hi+1) || lends(textOf(body, starts, hi+1))) {
		hi++
	}
	first, _ := textAt(body, starts, lo)
	start, end := textAt(body, starts, i)
	_, last := textAt(body, starts, hi)
	var window []byte
	window = append(window, body[first:start]...)
	window = append(window, text...)
	window = append(window, body[end:last]...)
	want := hi - lo + 1
	if hi+1 < n {
		next, _ := cutLine(body[last:])
		if isMarker(next, "---") || !lent {
			// without lent, a document follows: its "---" line, and
			// nothing it lends (in its text, after "..." when not)
			if len(window) > 0 && window[len(window)-1] != '\n' {
				return nil, 0, false
			}
			window = append(window, "---\n"...)
			want++
		}
	}
	limits := s.limits
	limits.MaxDocuments = 0 // counted by Read
	if rr != nil && lo == i && hi == i {
		docs, ranges, changed, err := readYAMLRanges(window, s.File, limits)
		if err != nil || len(docs) != want {
			return nil, 0, false
		}
		if !changed {
			*rr = rangedRead{doc: docs[0], ranges: ranges, text: window}
		}
		return docs[0], lo, true
	}
	docs, err := readYAML(window, s.File, limits)
	if err != nil || len(docs) != want {
		return nil, 0, false
	}
	return docs[i-lo], lo, true
}

// windowStartReach returns the first document readWindow reads with
// document i, whose text is text, going back reach documents at most: i
// itself unless an empty document is next to it, or its text lends
// comments to the one before (and so on up).
func (s *Stream) windowStartReach(body []byte, starts []int, text []byte, i, reach int) int {
	lo := i
	for lo > 0 && i-lo < reach && (s.empty(lo-1) || s.empty(lo) || lo == i && lends(text) || lo < i && lends(textOf(body, starts, lo))) {
		lo--
	}
	return lo
}

// empty reports whether document j holds nothing: nothing after "---", or
// no "---" either.
func (s *Stream) empty(j int) bool {
	c := s.Docs[j].Content
	return len(c) == 0 || c[0].Kind == yaml.ScalarNode && c[0].Value == "" && c[0].Tag == "!!null"
}

// textAt returns where the text of document j starts and ends in body, the
// documents' texts starting at starts.
func textAt(body []byte, starts []int, j int) (start, end int) {
	start, end = starts[j], len(body)
	if j+1 < len(starts) {
		end = starts[j+1]
	}
	return start, end
}

// textOf returns the text of document j in body.
func textOf(body []byte, starts []int, j int) []byte {
	start, end := textAt(body, starts, j)
	return body[start:end]
}

// ownDocs returns the snapshot and the current tree of document i, an
// edited one, as its own text holds them: with the foot comment the text
// gives it, not one the next document's text lends it (which is written
// with that text). body and starts are the source's documents. When the
// next document lends none, they are the stream's trees; ok is false when
// the document's text does not read as its snapshot but for that foot
// comment, or an edit changed the foot comment: the stream is then
// written otherwise.
func (s *Stream) ownDocs(body []byte, starts []int, i int) (snap, doc *yaml.Node, ok bool) {
	snap, doc = s.snapshot[i], s.Docs[i]
	if i+1 >= len(starts) || snap.Kind != yaml.DocumentNode || snap.FootComment == "" && doc.FootComment == "" {
		return snap, doc, true
	}
	if !lends(textOf(body, starts, i+1)) {
		return snap, doc, true
	}
	if doc.Kind != yaml.DocumentNode || doc.FootComment != snap.FootComment {
		return nil, nil, false
	}
	own, _, ok := s.readWindow(body, starts, textOf(body, starts, i), i, false)
	if !ok {
		return nil, nil, false
	}
	if own.FootComment == snap.FootComment {
		return snap, doc, true // nothing was lent
	}
	snap, doc = withFoot(snap, own.FootComment), withFoot(doc, own.FootComment)
	if !identical(own, snap) {
		return nil, nil, false
	}
	return snap, doc, true
}

// withFoot returns a copy of the document node d (sharing its content)
// with the foot comment foot.
func withFoot(d *yaml.Node, foot string) *yaml.Node {
	c := *d
	c.FootComment = foot
	return &c
}
