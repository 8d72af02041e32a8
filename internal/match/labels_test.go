package match

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestLabelSelectorRules: Matches, which merges the requirements on each
// key and looks at each label once, agrees with checking the requirements
// one after the other (matchEach, as kubectl states them), on random
// selectors of several requirements on few keys and random labels.
func TestLabelSelectorRules(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	keys, values := []string{"a", "b", "c"}, []string{"x", "y", "z", ""}
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	set := func() string {
		var vs []string
		for range 1 + r.IntN(3) {
			vs = append(vs, pick(values))
		}
		return "(" + strings.Join(vs, ",") + ")"
	}
	for range 20000 {
		var reqs []string
		for range 1 + r.IntN(4) {
			k := pick(keys)
			switch r.IntN(7) {
			case 0:
				reqs = append(reqs, k+"="+pick(values))
			case 1:
				reqs = append(reqs, k+"!="+pick(values))
			case 2:
				reqs = append(reqs, k)
			case 3:
				reqs = append(reqs, "!"+k)
			case 4:
				reqs = append(reqs, k+" in "+set())
			case 5:
				reqs = append(reqs, k+" notin "+set())
			default:
				reqs = append(reqs, k+"=="+pick(values))
			}
		}
		text := strings.Join(reqs, ",")
		sel, err := ParseLabels(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		labels := map[string]string{}
		for _, k := range keys {
			if r.IntN(3) > 0 {
				labels[k] = pick(values)
			}
		}
		if got, want := sel.Matches(labels), sel.matchEach(labels); got != want {
			t.Fatalf("%q on %v: %v, one requirement after the other %v", text, labels, got, want)
		}
	}
}

// TestLabelSelectorManyRequirements: a selector of 10,000 requirements on
// 10,000 objects costs about what one requirement does, per object.
func TestLabelSelectorManyRequirements(t *testing.T) {
	var reqs []string
	for i := range 10000 {
		reqs = append(reqs, fmt.Sprintf("k%d!=v", i))
	}
	sel, err := ParseLabels(strings.Join(reqs, ","))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := range 10000 {
		if !sel.Matches(map[string]string{"a": "b", fmt.Sprintf("k%d", i): "w"}) {
			t.Fatal("no match")
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}
