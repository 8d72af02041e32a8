package tree

import (
	"bytes"
	"errors"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// blockProblems are the messages of go.yaml.in/yaml/v3's parser about the
// structure of block collections: a key or a list item at an indentation
// that continues nothing. The parser reports them at the line where the
// collection it was reading started (its "context"), which can be far
// above the line at fault: in
//
//	spec:
//	  replicas: 2
//	 template: {}
//
// it names the line of spec. problemLine finds the line at fault.
var blockProblems = map[string]bool{
	"did not find expected key":           true,
	"did not find expected '-' indicator": true,
}

// problemLine returns the line (from 1) and column of the token the YAML
// parser failed at, for an error of the parser about block structure
// (msg, without its "yaml: line N: " prefix) whose full text is full. It
// is the first line such that the input up to its end fails with the same
// error: before it the input parses (or fails otherwise), from it on the
// parser meets the same token at fault. The column is that of the line's
// first character that is not a space. ok is false for other errors, for
// inputs over maxProblemSearch bytes, and when no line can be told for
// sure.
func problemLine(data []byte, msg, full string) (line, column int, ok bool) {
	if !blockProblems[msg] || len(data) > maxProblemSearch {
		return 0, 0, false
	}
	ends := lineEnds(data)
	fails := func(k int) bool { return decodeError(data[:ends[k-1]]) == full }
	// the smallest k with fails(k): fails(len(ends)) holds for the whole
	// input; lines before the fault parse
	lo, hi := 1, len(ends)
	if !fails(hi) {
		return 0, 0, false
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo > 1 && fails(lo-1) {
		return 0, 0, false
	}
	text := string(data[:ends[lo-1]])
	if i := strings.LastIndexByte(strings.TrimSuffix(text, "\n"), '\n'); i >= 0 {
		text = text[i+1:]
	}
	trimmed := strings.TrimLeft(text, " ")
	if strings.TrimSpace(trimmed) == "" {
		return 0, 0, false
	}
	return lo, len([]rune(text)) - len([]rune(trimmed)) + 1, true
}

// maxProblemSearch bounds the input problemLine searches: it parses up to
// log2(lines) prefixes of it, about 1.5 seconds for 512 KiB of
// YAML; beyond, the parser's line stands.
const maxProblemSearch = 512 << 10

// lineEnds returns, for each line of data, the offset just after it (its
// \n, or the end of data for a last line without one).
func lineEnds(data []byte) []int {
	var ends []int
	for i := 0; i < len(data); {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			ends = append(ends, len(data))
			break
		}
		i += j + 1
		ends = append(ends, i)
	}
	return ends
}

// decodeError returns the text of the first error decoding the YAML
// documents of data, "" when there is none.
func decodeError(data []byte) string {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return ""
		}
		if err != nil {
			return err.Error()
		}
	}
}
