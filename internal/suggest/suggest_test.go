package suggest

import (
	"slices"
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"name", "name", 0},
		{"Deployment", "deployment", 0}, // letter case does not count
		{"deploymnet", "deployment", 1}, // a swap of two neighbours is one edit
		{"nme", "name", 1},              // an insertion
		{"replicsa", "replicas", 1},
		{"wbe", "web", 1},
		{"kitten", "sitting", 3}, // the textbook case
		{"ca", "abc", 3},         // optimal string alignment, not Damerau: no edit of a swapped pair
		{"patch-fil", "patch-file", 1},
		{"héllo", "hello", 1}, // runes, not bytes
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	kinds := []string{"deployment", "daemonset", "statefulset", "service", "configmap", "pod", "job", "role", "node"}
	for _, c := range []struct {
		word       string
		candidates []string
		want       []string
	}{
		{"deploymnet", kinds, []string{"deployment"}},
		{"servcie", kinds, []string{"service"}},
		{"pdo", kinds, []string{"pod"}},
		{"pod", kinds, nil},                             // itself is not a suggestion
		{"jbo", kinds, []string{"job"}},                 // one swap
		{"xyz", kinds, nil},                             // nothing near
		{"node", []string{"role"}, nil},                 // two edits is too far for four letters
		{"gizmo", []string{"gadget"}, nil},              // far
		{"out", []string{"output-dir", "outline"}, nil}, // names that hold it are no typos of it
		{"con", []string{"cona", "conb", "conc", "cond"}, []string{"cona", "conb", "conc"}}, // one edit each: the first three
		{"nme", []string{"name", "image", "name"}, []string{"name"}},                        // repeats once
		{"porr", []string{"port", "pore", "pork", "porn", "poor"}, []string{"port", "pore", "pork"}},
		{"", kinds, nil},
	} {
		if got := Closest(c.word, c.candidates); !slices.Equal(got, c.want) {
			t.Errorf("Closest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	quote := func(s string) string { return "--" + s }
	for _, c := range []struct {
		word       string
		candidates []string
		want       string
	}{
		{"patch-fil", []string{"patch", "patch-file", "schema"}, "did you mean --patch-file?"},
		{"strcit", []string{"strict", "set"}, "did you mean --strict?"},
		{"sett", []string{"set", "seta"}, "did you mean --set or --seta?"},
		{"porr", []string{"port", "pore", "pork"}, "did you mean --port, --pore or --pork?"},
		{"frobnicate", []string{"strict"}, ""},
	} {
		if got := DidYouMean(c.word, c.candidates, quote); got != c.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if got := Phrase([]string{"a"}, nil); got != "did you mean a?" {
		t.Errorf("Phrase without quote = %q", got)
	}
}

func TestMaxDistance(t *testing.T) {
	// the limits the package doc promises, at their edges
	for n, want := range map[int]int{1: 1, 4: 1, 5: 2, 9: 2, 10: 3, 40: 3} {
		if got := MaxDistance(n); got != want {
			t.Errorf("MaxDistance(%d) = %d, want %d", n, got, want)
		}
	}
	if !strings.Contains(DidYouMean("deploymnet", []string{"deployment"}, nil), "deployment") {
		t.Error("a swap in a long word is not suggested")
	}
}
