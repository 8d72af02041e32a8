package fastyaml

import (
	"fmt"
	yaml "go.yaml.in/yaml/v3"
	"os"
	"strconv"
	"strings"
	"testing"
)

func zzGapsFor(t *testing.T, before, after string, cols []int, n int, show int) (int, int) {
	total, bad := 0, 0
	shown := 0
	for _, g := range gaps(n, cols) {
		in := before + g + after
		want, werr := decodeV3([]byte(in))
		if werr != nil {
			continue
		}
		total++
		var drops [][2]int
		got, err := parse([]byte(in), 0, true)
		if err != nil {
			bad++
			if shown < show {
				shown++
				t.Logf("ERR %q: %v", in, err)
			}
			continue
		}
		d := diffDocs(got, want)
		if d == "" && len(drops) > 0 {
			zzPairs[fmt.Sprintf("OK %v", drops)]++
		}
		if d != "" {
			zzPairs[fmt.Sprintf("BAD %v %q", drops, before)]++
			bad++
			if shown < show {
				shown++
				t.Logf("%q + %q + %q: %s", before, g, after, d)
			}
		}
	}
	return total, bad
}

func TestZZGaps(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	n := 3
	if s := os.Getenv("N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	show := 3
	if s := os.Getenv("SHOW"); s != "" {
		show, _ = strconv.Atoi(s)
	}
	only := os.Getenv("CTX")
	tt, tb := 0, 0
	for i, c := range gapContexts {
		if only != "" && strconv.Itoa(i) != only {
			continue
		}
		total, bad := zzGapsFor(t, c.before, c.after, c.cols, n, show)
		tt += total
		tb += bad
		if bad > 0 {
			t.Logf("ctx %d %q|%q: %d of %d wrong", i, c.before, c.after, bad, total)
		}
	}
	t.Logf("%d of %d wrong", tb, tt)
	t.Logf("%v", zzPairs)
}

// lostComment reports whether yaml.v3 dropped a comment of the input (its
// trees hold fewer comment lines than the input has: the "#k" markers).
func lostComment(in string, docs []*yaml.Node) bool {
	var all strings.Builder
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		all.WriteString(n.HeadComment + "\n" + n.LineComment + "\n" + n.FootComment + "\n")
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, d := range docs {
		walk(d)
	}
	for k := 0; k < 10; k++ {
		m := fmt.Sprintf("#%d\n", k)
		if strings.Contains(in, m) && !strings.Contains(all.String()+"\n", fmt.Sprintf("#%d\n", k)) {
			return true
		}
	}
	return false
}

var zzPairs = map[string]int{}
