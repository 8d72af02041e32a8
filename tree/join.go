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
// Text that does not read as YAML (JSON texts read as YAML) is joined by
// the same rules, as far as they go.
func JoinStreams(streams ...[]byte) []byte {
	last := -1 // the last non-empty stream, which keeps its end as it is
	size := 0
	for i, s := range streams {
		if len(s) > 0 {
			last = i
		}
		size += len(s) + len("\n...\n---\n")
	}
	out := make([]byte, 0, size)
	for i, s := range streams {
		if len(s) == 0 {
			continue
		}
		if i != last {
			s = terminated(s)
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
				out = append(out, "...\n"...)
			}
		}
		if first != nil && first[0] != '%' && !isMarker(first, "---") {
			out = append(out, "---\n"...)
		}
		out = append(out, s...)
	}
	return out
}

const bom = "\ufeff"

// terminated returns s ending in a line break: s itself when it has one,
// else s and a line break when that reads as the same documents, else s
// rewritten in full.
func terminated(s []byte) []byte {
	if len(s) == 0 || s[len(s)-1] == '\n' {
		return s
	}
	plus := append(s[:len(s):len(s)], '\n')
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
		line := s
		if i := bytes.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = nil
		}
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
		i := bytes.IndexByte(s, '\n')
		if i < 0 || len(bytes.TrimLeft(s[:i], " \t\r")) > 0 {
			return s
		}
		s = s[i+1:]
	}
}

// lastLine returns the last line of s, which ends in a line break, without
// it.
func lastLine(s []byte) []byte {
	s = bytes.TrimSuffix(s, []byte{'\n'})
	return s[bytes.LastIndexByte(s, '\n')+1:]
}
