package fastyaml

import (
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"
)

// reduce removes lines from in while the outcome stays o.
func reduce(in, o string) string {
	lines := strings.SplitAfter(in, "\n")
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(lines); i++ {
			try := append(append([]string{}, lines[:i]...), lines[i+1:]...)
			if got, _ := outcome(strings.Join(try, "")); got == o {
				lines = try
				changed = true
				i--
			}
		}
	}
	return strings.Join(lines, "")
}

func TestZZReduce(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	g := &gen{r: rand.New(rand.NewPCG(1, 2))}
	seen := map[string]int{}
	for range 3000 {
		in := g.stream()
		o, _ := outcome(in)
		if o == bothEqual || o == bothRefuse {
			continue
		}
		m := reduce(in, o)
		seen[o+" "+m]++
	}
	var keys []string
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) < len(keys[j]) })
	for i, k := range keys {
		if i > 60 {
			break
		}
		t.Logf("%d %q", seen[k], k)
	}
	t.Logf("%d distinct", len(keys))
}

func TestZZReduceDiffer(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	g := &gen{r: rand.New(rand.NewPCG(1, 2))}
	seen := map[string]int{}
	for range 20000 {
		in := g.stream()
		o, _ := outcome(in)
		if o == bothEqual || o == bothRefuse || o == placed {
			continue
		}
		m := reduce(in, o)
		seen[o+" "+m]++
	}
	for k, n := range seen {
		t.Logf("%d %q", n, k)
	}
}
