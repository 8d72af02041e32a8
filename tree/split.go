package tree

import "bytes"

// A Part is a run of whole documents of a YAML stream (SplitStream).
type Part struct {
	Text []byte // the documents' text: a slice of the stream's
	Line int    // the line Text starts at in the stream, the first being 1
	// Docs is the number of documents in Text, as Read finds them when
	// the part reads (counted from its text, as the document limit counts
	// them): the documents before a part are the Docs of the parts before.
	Docs int
}

// SplitStream cuts a long YAML stream into parts of about size bytes each,
// so that the parts can be read, edited and written one at a time, or
// several at once: read with Options.Line (the part's Line) and
// Options.Style (st, the style of the whole stream), a part holds the same
// documents, at the same lines, as the whole stream does there, and the
// writing of each part (WriteYAML) joined is the writing of the whole. It
// returns no parts for a stream it does not cut: one not longer than twice
// size, one that looks like JSON, one with a lone carriage return, NEL, LS
// or PS (line breaks YAML counts and the cuts do not: otherBreaks), or one
// without a place to cut.
//
// A stream is cut only before a "---" line that follows a line of content
// (neither blank nor a comment nor a marker) and precedes one (after
// comment lines, but no blank line): the documents on either side then
// read the same alone as together. Comments between two documents, empty
// documents and directives give a document's comments to its neighbour
// (yaml.v3 reads them so), and a stream with a comment after a "..." line
// is not cut at all.
func SplitStream(data []byte, size int) (parts []Part, st Style) {
	if size <= 0 || len(data) <= 2*size || looksLikeJSON(data) || otherBreaks(data) {
		return nil, Style{}
	}
	if _, body := cutBOM(data); commentedDocEnd(body) {
		return nil, Style{}
	}
	start, line := 0, 1 // of the part being cut
	for from := start + size; from < len(data); {
		i := bytes.Index(data[from:], []byte("\n---\n"))
		if i < 0 {
			break
		}
		at := from + i + 1 // the "---" line
		from = at + 4
		if !contentBefore(data[start:at]) || !contentAfter(data[at+4:]) {
			continue
		}
		parts = append(parts, Part{Text: data[start:at], Line: line})
		line += bytes.Count(data[start:at], []byte{'\n'})
		start = at
		from = at + size
	}
	if len(parts) == 0 {
		return nil, Style{}
	}
	parts = append(parts, Part{Text: data[start:], Line: line})
	for i := range parts {
		_, body := cutBOM(parts[i].Text)
		parts[i].Docs = len(documentStarts(body))
	}
	return parts, detectStyle(data)
}

// contentBefore reports whether the last line of text (which ends with a
// line break) is a line of content.
func contentBefore(text []byte) bool {
	text = text[:len(text)-1]
	last := text[bytes.LastIndexByte(text, '\n')+1:]
	return isContent(last)
}

// contentAfter reports whether text (after a "---" line) starts with a
// line of content, after comment lines perhaps (a comment separated from
// what follows by a blank line can be the document before's).
func contentAfter(text []byte) bool {
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		if isContent(line) {
			return true
		}
		if t := bytes.TrimLeft(line, " \t"); len(t) == 0 || t[0] != '#' || bytes.IndexByte(line, '\r') >= 0 {
			return false // a blank line, a marker, a directive
		}
	}
	return false
}

// isContent reports whether a line holds something of a document: it is
// neither blank nor a comment, a marker or a directive.
func isContent(line []byte) bool {
	return !isBlankOrComment(line) && line[0] != '%' && !isMarker(line, "---") && !isMarker(line, "...") &&
		bytes.IndexByte(line, '\r') < 0
}
