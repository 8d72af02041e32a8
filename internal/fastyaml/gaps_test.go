package fastyaml

import (
	"errors"
	"fmt"
	"sort"
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
// between two tokens in every way of up to four lines, in each context.
func TestGaps(t *testing.T) {
	total, fast, bad := 0, 0, 0
	reasons := map[string]int{}
	for _, c := range gapContexts {
		cfast, ctotal := 0, 0
		for _, g := range gaps(4, c.cols) {
			in := c.before + g + c.after
			if _, err := decodeV3([]byte(in)); err != nil {
				continue
			}
			total++
			ctotal++
			got, err := Parse([]byte(in), 0)
			if err != nil {
				var u *Unsupported
				if !errors.As(err, &u) {
					t.Fatalf("%q: %v", in, err)
				}
				if strings.HasPrefix(u.Reason, internalError) {
					t.Errorf("%q: %v", in, err)
					bad++
				}
				reasons[u.Reason]++
				continue
			}
			want, _ := decodeV3([]byte(in))
			if d := diffDocs(got, want); d != "" {
				bad++
				if bad <= 40 {
					t.Errorf("%q + %q + %q: %s", c.before, g, c.after, d)
				}
				continue
			}
			fast++
			cfast++
		}
		if testing.Verbose() {
			t.Logf("%q|%q: %d of %d", c.before, c.after, cfast, ctotal)
		}
	}
	var rs []string
	for r, n := range reasons {
		rs = append(rs, fmt.Sprintf("%6d %s", n, r))
	}
	sort.Strings(rs)
	t.Logf("%d gaps, %d on the fast path, %d wrong; refused:\n%s", total, fast, bad, strings.Join(rs, "\n"))
}
