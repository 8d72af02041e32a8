package tree

import (
	"bytes"
)

// JoinStreams joins YAML streams (files) into one stream that reads as the
// documents of each, in order: nothing of one stream runs into the next.
// Empty streams are left out, and the first stream is copied as it is. A
// later stream loses its byte order mark (one is allowed at the start of
// the output only), and a stream that does not end in a line break gets
// one, unless it is the last: where that line break would change the
// stream's last value (a block scalar that ends the text without one, as
// in "k: |\n  text", whose value has no final line break), the stream is
// rewritten in full (WriteYAML of its documents), which keeps its values
// but not its layout. A stream is separated from the one before by a
// "---" line, unless it starts with its own (after comments): a line of
// comments before a "---" of the stream would otherwise make an empty
// document of its own. A stream that starts with a directive (%YAML, %TAG)
// follows a "..." line, the only place YAML allows one.
//
// A lone carriage return is a line break, as YAML reads it: when no stream
// holds an LF and one holds a CR (an old Mac's files), the line breaks
// the join adds are CRs too.
//
// Text that does not read as YAML (JSON texts read as YAML) is joined by
// the same rules, as far as they go. When only one stream is not empty,
// it is the result, not a copy of it.
func JoinStreams(streams ...[]byte) []byte {
	last := -1 // the last non-empty stream, which keeps its end as it is
	size, nonEmpty := 0, 0
	cr, lf := false, false
	for i, s := range streams {
		if len(s) > 0 {
			last = i
			nonEmpty++
		}
		size += len(s) + len("\n...\n---\n")
		cr = cr || bytes.IndexByte(s, '\r') >= 0
		lf = lf || bytes.IndexByte(s, '\n') >= 0
	}
	eol := "\n"
	if cr && !lf {
		eol = "\r"
	}
	if nonEmpty == 1 {
		return streams[last] // the first stream, as it is: no copy
	}
	out := make([]byte, 0, size)
	for i, s := range streams {
		if len(s) == 0 {
			continue
		}
		if i != last {
			s = terminated(s, eol)
		}
		if len(out) == 0 {
			out = append(out, s...)
			continue
		}
		s = trimBlankLines(bytes.TrimPrefix(s, []byte(bom)))
		if len(s) == 0 {
			continue
		}
		first := firstLine(s)
		switch {
		case first != nil && first[0] == '%',
			// an indented comment after a block scalar would be
			// its text: end the document first
			len(s) > 0 && (s[0] == ' ' || s[0] == '\t'):
			if firstLine(out) != nil && !isMarker(lastLine(out), "...") {
				out = append(out, "..."+eol...)
			}
		}
		if first != nil && first[0] != '%' && !isMarker(first, "---") {
			out = append(out, "---"+eol...)
		}
		out = append(out, s...)
	}
	return out
}

const bom = "\ufeff"

// terminated returns s ending in a line break: s itself when it has one
// (an LF, or a CR), else s and the line break eol when that reads as the
// same documents, else s rewritten in full.
func terminated(s []byte, eol string) []byte {
	if len(s) == 0 || s[len(s)-1] == '\n' || s[len(s)-1] == '\r' {
		return s
	}
	plus := append(s[:len(s):len(s)], eol...)
	if !bytes.ContainsAny(s, "|>") {
		return plus // no block scalar, whose value the line break could end
	}
	unlimited := &Limits{} // s was read once already, under the caller's limits
	a, err := Read(s, Options{Limits: unlimited})
	if err != nil {
		return plus
	}
	b, err := Read(plus, Options{Limits: unlimited})
	if err == nil && a.Format == b.Format && sameDocs(a, b) {
		return plus
	}
	var w bytes.Buffer
	if a.WriteYAML(&w) != nil || w.Len() == 0 || w.Bytes()[w.Len()-1] != '\n' {
		return plus
	}
	return w.Bytes()
}

// sameDocs reports whether two streams hold the same documents.
func sameDocs(a, b *Stream) bool {
	if a.LoadAll() != nil || b.LoadAll() != nil || len(a.Docs) != len(b.Docs) {
		return false
	}
	for i := range a.Docs {
		if !Equal(Root(a.Docs[i]), Root(b.Docs[i])) {
			return false
		}
	}
	return true
}

// firstLine returns the first line of s that is neither blank nor a
// comment, without its line break; nil when there is none.
func firstLine(s []byte) []byte {
	for len(s) > 0 {
		var line []byte
		line, s = cutLine(s)
		if line = bytes.TrimPrefix(line, []byte(bom)); !isBlankOrComment(line) {
			return line
		}
	}
	return nil
}

// trimBlankLines returns s without its leading blank lines, which would
// be part of a block scalar (with keep chomping, |+) that ends the stream
// before.
func trimBlankLines(s []byte) []byte {
	for {
		line, rest := cutLine(s) // (lent.go)
		if len(line) == len(s) || len(bytes.TrimLeft(line, " \t")) > 0 {
			return s // the last line, without a line break, or not blank
		}
		s = rest
	}
}

// lastLine returns the last line of s, which ends in a line break, without
// it.
func lastLine(s []byte) []byte {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		s = bytes.TrimSuffix(s[:n-1], []byte{'\r'})
	} else if n > 0 && s[n-1] == '\r' {
		s = s[:n-1]
	}
	return s[bytes.LastIndexAny(s, "\r\n")+1:]
}
