package smp

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// swapDedupe is upstream's in-place duplicate removal as upstream writes
// it, comparing every two items: the reference for dedupeExact.
func swapDedupe(s []string) []string {
	keys := slices.Clone(s)
	length := len(s) - 1
	for i := 0; i < length; i++ {
		for j := i + 1; j <= length; j++ {
			if keys[i] == keys[j] {
				s[j], keys[j] = s[length], keys[length]
				s = s[:length]
				length--
				j--
			}
		}
	}
	return s
}

// TestDedupeExact: dedupeExact, which makes upstream's writes without
// comparing every two items (a list of n with one duplicate took n^2
// comparisons), leaves the same list and the same backing array (what a
// live list sharing it then holds) as upstream's loop, on random lists of
// few and many values, duplicated in runs, at the end, everywhere.
func TestDedupeExact(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 4))
	for round := range 20000 {
		n := r.IntN(40)
		values := 1 + r.IntN(n+1)
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(r.IntN(values))
			if r.IntN(8) == 0 && i > 0 {
				s[i] = s[r.IntN(i)]
			}
		}
		a, b := slices.Clone(s), slices.Clone(s)
		got := dedupeExact(a, func(v string) string { return v })
		want := swapDedupe(b)
		if !slices.Equal(got, want) || !slices.Equal(a, b) {
			t.Fatalf("round %d, %q:\ngot  %q, array %q\nwant %q, array %q", round, s, got, a, want, b)
		}
	}
}
