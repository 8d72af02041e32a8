package fastyaml

import (
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// A Range is where a node's text is in the input a parse read: its bytes
// are data[Start:End].
type Range struct {
	Start, End int
}

// Ranges are the byte ranges of the nodes of a parse (ParseRanges).
//
// A node's range runs from its first property (its tag or anchor), or
// from its text when it has none, to the end of its text:
//   - a quoted scalar's closing quote, a plain scalar's last character
//     that is not a blank, over every line it continues on;
//   - a block scalar's (| or >) last text line (the empty lines after it,
//     which chomping may keep in its value, are outside), or its header's
//     indicators when it has no text line;
//   - an alias's name; the properties of a node of properties alone;
//   - a flow collection's closing bracket;
//   - a block collection's last node's end (or its last indicator's, a
//     ':' or '-' with an empty value), so that it starts at its first key
//     or dash (or its properties) and ends on the line of its last text.
//
// Comments, the blanks around the text and the indicators before it
// ("- ", ": ") are outside a node's range; inside a collection's are its
// nodes' ranges, with what is between them (comment lines too). Empty
// nodes without properties and scalars whose properties are on a line
// before their text (comment lines may be between) have no range.
type Ranges struct {
	spans []span // in the order of the text
}

// A span is a node's range.
type span struct {
	n *yaml.Node
	Range
}

// Of returns the range of n, a node of the parse that returned r, and
// whether it has one. It finds n by its line and column (a range starts
// at its node's position, and ranges come in the order of the text), in
// logarithmic time.
func (r *Ranges) Of(n *yaml.Node) (Range, bool) {
	if r == nil {
		return Range{}, false
	}
	i := sort.Search(len(r.spans), func(i int) bool {
		m := r.spans[i].n
		return m.Line > n.Line || m.Line == n.Line && m.Column >= n.Column
	})
	// (a collection and its first key or item start at one place)
	for ; i < len(r.spans) && r.spans[i].n.Line == n.Line && r.spans[i].n.Column == n.Column; i++ {
		if r.spans[i].n == n {
			return r.spans[i].Range, true
		}
	}
	return Range{}, false
}

// ParseRanges is Parse, and also returns the range of every node that has
// one (Ranges). It is for the few documents whose text is edited in place:
// recording the ranges costs 32 bytes a node.
func ParseRanges(data []byte, maxDepth int) ([]*yaml.Node, *Ranges, error) {
	return parse(data, maxDepth, false, true)
}

// ranged records the range of scalar n, whose text is src[start:end] and
// whose properties are p.
func (r *reader) ranged(n *yaml.Node, p props, start, end int) {
	if r.ranges == nil {
		return
	}
	if end <= start {
		if !p.has {
			return
		}
		start, end = p.start, p.end // a node of properties alone ("&a : b")
	}
	r.lastEnd = max(r.lastEnd, end)
	if p.has && strings.IndexByte(r.src[p.start:p.end], '\n') >= 0 {
		return // properties over lines ("&a\n!t"): comment lines may be between them
	}
	if p.has {
		if strings.IndexByte(r.src[p.start:start], '\n') >= 0 {
			return // comment lines may be between them ("!\n#\nx")
		}
		start = p.start
	}
	r.ranges = append(r.ranges, span{n, Range{start, end}})
}

// rangeOpen starts the range of collection n, at its properties p or, when
// it has none, at pos (its first key, dash or bracket), and returns its
// index for rangeClose (-1 when ranges are not recorded).
func (r *reader) rangeOpen(n *yaml.Node, p props) int {
	if r.ranges == nil {
		return -1
	}
	start := r.pos
	if p.has {
		start = p.start
	}
	r.ranges = append(r.ranges, span{n, Range{start, start}})
	return len(r.ranges) - 1
}

// rangeClose ends the range opened at i where the text of the last node
// read ends: a block collection's is its last node's, a flow
// collection's its closing bracket (flow records it before).
func (r *reader) rangeClose(i int) {
	if i < 0 {
		return
	}
	r.ranges[i].End = max(r.ranges[i].Start, r.lastEnd)
}

// inputOffsets makes the ranges, offsets of the text the reader read (each
// line break a "\n"), offsets of data: a line that ended with "\r\n" or
// NEL was one byte longer there, one that ended with LS or PS two.
func (r *reader) inputOffsets() {
	// where each line of the read text starts, and the bytes data has
	// more than it before that line
	text := r.src[:r.end]
	n := strings.Count(text, "\n") + 1
	starts, extra := make([]int, 1, n), make([]int, 1, n)
	more, ci, si := 0, 0, 0
	for i := strings.IndexByte(text, '\n'); i >= 0; {
		line := int32(len(starts) - 1)
		if ci < len(r.crlf) && r.crlf[ci] == line {
			more++
			ci++
		}
		if si < len(r.seps) && r.seps[si].line == line {
			if r.seps[si].sep == 0x85 {
				more++
			} else {
				more += 2
			}
			si++
		}
		starts, extra = append(starts, i+1), append(extra, more)
		j := strings.IndexByte(text[i+1:], '\n')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	// the ranges come in the order of their starts: the line of a start
	// is found from the line of the start before, that of an end from
	// its start's (most end on it)
	l := 0
	lineOf := func(from, x int) int {
		for k := 0; k < 4; k++ {
			if from+1 >= len(starts) || starts[from+1] > x {
				return from
			}
			from++
		}
		return from + sort.SearchInts(starts[from:], x+1) - 1
	}
	for i, g := range r.ranges {
		if g.Start < starts[l] {
			l = 0 // (not in order after all: from the first line)
		}
		l = lineOf(l, g.Start)
		e := lineOf(l, max(g.End, g.Start))
		if g.End < g.Start {
			e = lineOf(0, g.End)
		}
		r.ranges[i].Range = Range{g.Start + extra[l], g.End + extra[e]}
	}
}
