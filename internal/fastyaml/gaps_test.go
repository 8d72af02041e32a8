package fastyaml

import (
	"fmt"
	"strings"
	"testing"
)

// gapContexts are places between two tokens where comment lines and blank
// lines go: the text before and after the gap, and the columns comments
// are put at.
var gapContexts = []struct {
	before, after string
	cols          []int
}{
	// the next entry of the same collection
	{"a: 1\n", "b: 2\n", []int{0, 2}},
	{"a: 'x'\n", "b: 2\n", []int{0, 2}},
	{"a: x\n  y\n", "b: 2\n", []int{0, 2}},
	{"a: \"x\n  y\"\n", "b: 2\n", []int{0, 2}},
	{"a: [x]\n", "b: 2\n", []int{0, 2}},
	{"a: |\n  x\n", "b: 2\n", []int{0}},
	{"a:\n", "b: 2\n", []int{0, 2}},
	{"a: # l\n", "b: 2\n", []int{0, 2}},
	{"a: 1 # l\n", "b: 2\n", []int{0, 2}},
	{"a: x\n  y # l\n", "b: 2\n", []int{0, 2}},
	{"a: 'x' # l\n", "b: 2\n", []int{0, 2}},
	{"a: 'x\n  y' # l\n", "b: 2\n", []int{0, 2}},
	{"a: [x,\n  y]\n", "b: 2\n", []int{0, 2}},
	{"a: [x,\n  y] # l\n", "b: 2\n", []int{0, 2}},
	{"a: | # l\n  x\n", "b: 2\n", []int{0}},
	{"a: >+\n  x\n\n", "b: 2\n", []int{0}},
	{"- a\n", "- b\n", []int{0, 2}},
	{"- a # l\n", "- b\n", []int{0, 2}},
	{"-\n", "- b\n", []int{0, 2}},
	{"- # l\n", "- b\n", []int{0, 2}},
	{"- [a]\n", "- b\n", []int{0, 2}},
	{"- a: b\n", "- c\n", []int{0}},
	{"- a: b\n", "- c: d\n", []int{0}},
	{"- - a\n", "- b\n", []int{0}},
	{"a:\n- b\n", "- c\n", []int{0, 2}},
	{"a:\n  b: c\n", "  d: e\n", []int{0, 1, 2, 4}},
	{"a:\n  b: [c]\n", "  d: e\n", []int{0, 2}},
	{"a:\n  b:\n", "  d: e\n", []int{0, 2}},
	{"a:\n  b: # l\n", "  d: e\n", []int{0, 2}},
	{"- a: b\n", "  c: d\n", []int{0, 2, 4}},
	{"x:\n  - a\n", "  - b\n", []int{0, 2, 4}},
	{"x:\n  -\n", "  - b\n", []int{0, 2, 4}},
	{"x:\n  - a: b\n", "  - c\n", []int{0, 2, 4}},
	{"x:\n  - [a]\n", "  - c\n", []int{0, 2, 4}},
	// collections closing
	{"a:\n  b: c\n", "d: e\n", []int{0, 1, 2, 3, 4}},
	{"a:\n  b: [c]\n", "d: e\n", []int{0, 2, 4}},
	{"a:\n  b:\n", "d: e\n", []int{0, 2, 4}},
	{"a:\n  b: |\n    c\n", "d: e\n", []int{0, 2}},
	{"a:\n  b:\n    c: d\n", "e: f\n", []int{0, 2, 4, 6}},
	{"a:\n  b:\n  - c: d\n", "e: f\n", []int{0, 2, 4}},
	{"a:\n  - b:\n    - c\n", "e: f\n", []int{0, 2, 4, 6}},
	{"a:\n  b:\n    c: d\n", "  e: f\n", []int{0, 2, 4, 6}},
	{"a:\n  - b: c\n", "  - d\n", []int{0, 2, 4}},
	{"a:\n  - b: c\n", "  - d: e\n", []int{0, 2, 4}},
	{"a:\n- b\n", "c: d\n", []int{0, 2}},
	{"a:\n- b: c\n", "d: e\n", []int{0, 2}},
	{"a:\n  - b\n", "c: d\n", []int{0, 2, 4}},
	{"a:\n  - b: c\n", "d: e\n", []int{0, 4}},
	{"- a: b\n  c: d\n", "- e\n", []int{0, 2, 4}},
	{"- - a\n  - b\n", "- c\n", []int{0, 2, 4}},
	{"x:\n  a:\n  - b\n", "  c: d\n", []int{2, 4}},
	// the first token of a node
	{"a:\n", "  b: c\n", []int{0, 2, 4}},
	{"a: # l\n", "  b: c\n", []int{0, 2, 4}},
	{"a:\n", "- b\n", []int{0, 2}},
	{"a:\n", "  - b\n", []int{0, 2, 4}},
	{"-\n", "  a: b\n", []int{0, 2, 4}},
	{"- # l\n", "  a: b\n", []int{0, 2, 4}},
	{"a:\n", "  x\n", []int{0, 2, 4}},
	{"", "a: 1\n", []int{0, 2}},
	{"", "- a\n", []int{0, 2}},
	{"", "x\n", []int{0, 2}},
	{"---\n", "a: 1\n", []int{0, 2}},
	{"--- # l\n", "a: 1\n", []int{0, 2}},
	{"# h\n---\n", "a: 1\n", []int{0, 2}},
	// the end of a document
	{"a: 1\n", "", []int{0, 2}},
	{"a: 1 # l\n", "", []int{0, 2}},
	{"a:\n  b: c\n", "", []int{0, 2, 4}},
	{"a:\n  - b:\n      c: d\n", "", []int{0, 2, 4, 6}},
	{"a:\n  - b:\n    - c\n", "", []int{0, 2, 4, 6}},
	{"- a:\n    b: c\n", "", []int{0, 2, 4}},
	{"- a\n", "", []int{0, 2}},
	{"- a: b\n", "", []int{0, 2}},
	{"a: [x]\n", "", []int{0, 2}},
	{"a:\n", "", []int{0, 2}},
	{"x\n", "", []int{0, 2}},
	{"a: 1\n", "---\nb: 2\n", []int{0, 2}},
	{"a: 1\n", "...\n", []int{0, 2}},
	{"a:\n  b: c\n", "---\n", []int{0, 2}},
	{"---\n", "", []int{0, 2}},
	{"a: 1\n---\n", "", []int{0, 2}},
}

// gaps returns every gap of up to n lines, each blank or a comment at one
// of cols; the comments say their line in the gap (#0, #1...).
func gaps(n int, cols []int) []string {
	out := []string{""}
	var rec func(prefix string, k int)
	rec = func(prefix string, k int) {
		if k == n {
			return
		}
		for o := -1; o < len(cols); o++ {
			l := "\n"
			if o >= 0 {
				l = strings.Repeat(" ", cols[o]) + fmt.Sprintf("#%d\n", k)
			}
			out = append(out, prefix+l)
			rec(prefix+l, k+1)
		}
	}
	rec("", 0)
	return out
}

// TestGaps compares Parse with yaml.v3 on comments and blank lines put
// between two tokens in every way of up to four lines, in each context:
// the trees must be the same (but for the comments yaml.v3 drops, which
// Parse keeps: outcome compares with those dropped).
func TestGaps(t *testing.T) {
	n := 4
	if testing.Short() || raceEnabled {
		n = 3
	}
	total := 0
	counts := map[string]int{}
	for _, c := range gapContexts {
		for _, g := range gaps(n, c.cols) {
			in := c.before + g + c.after
			o, d := outcome(in)
			counts[o]++
			total++
			switch o {
			case bothEqual, bothRefuse:
			default:
				t.Errorf("%q + %q + %q: %s: %s", c.before, g, c.after, o, d)
			}
		}
	}
	t.Logf("%d gaps: %v", total, counts)
}
