package tree

import (
	"bytes"
	"strings"

	"github.com/kmerge/kmerge/internal/linediff"
)

// A document the byte-range edits do not write is the writer's rendering,
// set in its source text's frame: the directives and "---" line before it,
// the "..." line after it, the source's line ends.

// pin marks the source lines that stay around a rendering.
type pin uint8

const (
	pinNone pin = iota
	pinLead     // a directive or the "---" line: before the document's content
	pinTail     // a "..." line: after it
)

// srcLine is a line of a document's source text.
type srcLine struct {
	text string // without the line terminator
	pin  pin
}

// sourceLines splits a document's text into lines, marking its markers and
// directives, and returns the line terminator most of its lines use.
func sourceLines(chunk []byte) ([]srcLine, string) {
	var lines []srcLine
	crlf, lf := 0, 0
	lead := true // no content or "---" yet
	for off := 0; off < len(chunk); {
		l := srcLine{}
		end := bytes.IndexByte(chunk[off:], '\n')
		if end < 0 {
			l.text = string(chunk[off:])
			off = len(chunk)
		} else {
			l.text = string(chunk[off : off+end])
			off += end + 1
			if t, ok := strings.CutSuffix(l.text, "\r"); ok {
				l.text = t
				crlf++
			} else {
				lf++
			}
		}
		b := []byte(l.text)
		switch {
		case isMarker(b, "---"):
			l.pin, lead = pinLead, false
		case isMarker(b, "..."):
			l.pin = pinTail
		case lead && strings.HasPrefix(l.text, "%"):
			l.pin = pinLead
		case !isBlankOrComment(b):
			lead = false
		}
		lines = append(lines, l)
	}
	if crlf > lf {
		return lines, "\r\n"
	}
	return lines, "\n"
}

// renderedText is the text of a document written as the writer renders
// it: the directives and markers of its source, with a bare "---",
// around b, with line ends eol.
func renderedText(chunk, b []byte, eol string) []byte {
	src, _ := sourceLines(chunk)
	var out []byte
	for _, l := range src {
		if l.pin == pinLead {
			if isMarker([]byte(l.text), "---") && strings.TrimSpace(l.text) != "---" {
				l.text = "---" // what followed the marker is in b
			}
			if strings.HasPrefix(l.text, "%") {
				// a comment after a directive is in b too, the first
				// node's head comment ("%YAML 1.1 #": FuzzReplaceValues,
				// 2026-11-30); a directive's parameters hold no blank
				if i := strings.IndexAny(l.text, " \t"); i >= 0 {
					if j := strings.Index(l.text[i:], "#"); j >= 0 && (l.text[i+j-1] == ' ' || l.text[i+j-1] == '\t') {
						l.text = strings.TrimRight(l.text[:i+j], " \t")
					}
				}
			}
			out = append(out, l.text+eol...)
		}
	}
	for _, l := range renderedLines(b, true) {
		out = append(out, l+eol...)
	}
	for _, l := range src {
		if l.pin == pinTail {
			if strings.TrimSpace(l.text) != "..." {
				l.text = "..." // (a comment after the marker is the document's foot comment: in b)
			}
			out = append(out, l.text+eol...)
		}
	}
	return out
}

// renderedLines splits a rendering into lines. Without keepBlank it leaves
// out the blank lines outside block scalars (around comments, in a
// comment of several paragraphs); blank lines in block scalars are
// content and stay.
func renderedLines(text []byte, keepBlank bool) []string {
	lines := linediff.SplitLines(string(text))
	if keepBlank {
		return lines
	}
	out := lines[:0:0]
	block := -1 // indentation of an open block scalar's header
	for _, l := range lines {
		if isBlank(l) {
			if block >= 0 {
				out = append(out, l)
			}
			continue
		}
		if block >= 0 && indent(l) <= block {
			block = -1
		}
		if block < 0 && isBlockHeader(l) {
			block = indent(l)
		}
		out = append(out, l)
	}
	return out
}

// indent is the column of the first character of l that is not a space.
func indent(l string) int {
	return len(l) - len(strings.TrimLeft(l, " "))
}

// isBlockHeader reports whether a rendered line ends with the header of a
// literal or folded block scalar ("key: |-", "- >", "| # comment").
func isBlockHeader(l string) bool {
	f := strings.Fields(l)
	for i, t := range f {
		if strings.HasPrefix(t, "#") {
			f = f[:i]
			break
		}
	}
	if len(f) == 0 {
		return false
	}
	t := f[len(f)-1]
	if t[0] != '|' && t[0] != '>' || strings.Trim(t[1:], "0123456789+-") != "" {
		return false
	}
	return len(f) == 1 || f[len(f)-2] == "-" || strings.HasSuffix(f[len(f)-2], ":")
}

func isBlank(l string) bool { return strings.TrimSpace(l) == "" }

// lineEnd returns the line end of the lines written into chunk, a
// document's text in the stream src: the one most of chunk's lines end
// with, or, in a text without a line break ("---" alone at the end of a
// stream), the one most of src's lines end with.
func lineEnd(chunk, src []byte) string {
	if bytes.IndexByte(chunk, '\n') >= 0 {
		_, eol := sourceLines(chunk)
		return eol
	}
	if crlf := bytes.Count(src, []byte("\r\n")); crlf > 0 && 2*crlf > bytes.Count(src, []byte("\n")) {
		return "\r\n"
	}
	return "\n"
}
