package tree

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	textlines "github.com/kmerge/kmerge/internal/lines"
)

// TextOrigin returns where line 1, column 1 of a string's value is in the
// stream's YAML text, when the value is text kept line for line at one
// column: every line i of the value is line Line+i-1 of the file, its
// column c is column Column+c-1. That holds for a literal block scalar
// (kpatch: |, then lines indented alike) and for a value on one line
// written as it reads (plain, or quoted without escapes). ok is false
// otherwise: a folded or multi-line flow scalar, escapes, a JSON stream,
// a node that is not in the text. Text such as a .kpatch file inside a
// manifest is parsed at this origin, so that positions in it are
// positions in the file.
func (s *Stream) TextOrigin(n *yaml.Node) (pos Position, ok bool) {
	if s == nil || s.src == nil || n == nil || n.Kind != yaml.ScalarNode || n.Line < 1 || n.Column < 1 {
		return Position{}, false
	}
	// (the lines the reader counts: at "\n" alone, a text of CRs, NELs
	// or LSs before the node had fewer lines than its position counts,
	// and the node's line was taken for a later one)
	lines := textlines.SplitYAML(string(s.src))
	if n.Line > len(lines) {
		return Position{}, false
	}
	head := lines[n.Line-1]
	at := byteOffset(head, n.Column-1)
	if at < 0 || at >= len(head) {
		return Position{}, false
	}
	if n.Style&yaml.LiteralStyle != 0 {
		pos, ok = literalOrigin(lines, n, head[at:])
		pos.File = s.File
		return pos, ok
	}
	if strings.Contains(n.Value, "\n") {
		return Position{}, false
	}
	q := 0
	if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
		q = 1
	}
	if !strings.HasPrefix(head[at+q:], n.Value) {
		return Position{}, false // escapes: the text is not the value
	}
	return Position{File: s.File, Line: n.Line, Column: n.Column + q}, true
}

// literalOrigin is TextOrigin for a literal block scalar whose indicator
// (|, |-, |+) is header: its lines follow the indicator's line, at the
// indentation of its first line that is not blank.
func literalOrigin(lines []string, n *yaml.Node, header string) (Position, bool) {
	header = strings.TrimSpace(header)
	if i := strings.Index(header, "#"); i >= 0 {
		header = strings.TrimSpace(header[:i])
	}
	if header != "|" && header != "|-" && header != "|+" {
		return Position{}, false // an indentation indicator, or not the indicator at all
	}
	value := strings.Split(strings.TrimSuffix(n.Value, "\n"), "\n")
	if n.Line+len(value) > len(lines) {
		return Position{}, false
	}
	indent := -1
	for i, v := range value {
		src := lines[n.Line+i]
		if v == "" {
			if strings.TrimLeft(src, " ") != "" {
				return Position{}, false
			}
			continue
		}
		if indent < 0 {
			indent = len(src) - len(strings.TrimLeft(src, " "))
		}
		if len(src) < indent || strings.TrimLeft(src[:indent], " ") != "" || src[indent:] != v {
			return Position{}, false
		}
	}
	if indent < 0 {
		return Position{}, false // no text
	}
	return Position{Line: n.Line + 1, Column: indent + 1}, true
}

// byteOffset returns the offset in s of the rune at index col (0-based),
// -1 past the end.
func byteOffset(s string, col int) int {
	for i := range s {
		if col == 0 {
			return i
		}
		col--
	}
	if col == 0 {
		return len(s)
	}
	return -1
}

// ShiftPositions moves the node n and everything under it as if the text
// it was read from started at origin: line l becomes origin.Line+l-1,
// column c becomes origin.Column+c-1 (text kept line for line at one
// column, as TextOrigin finds it).
func ShiftPositions(n *yaml.Node, origin Position) {
	if n == nil {
		return
	}
	if n.Line > 0 {
		n.Line += origin.Line - 1
	}
	if n.Column > 0 {
		n.Column += origin.Column - 1
	}
	for _, c := range n.Content {
		ShiftPositions(c, origin)
	}
}
