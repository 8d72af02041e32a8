// Package suggest finds, for a name that names nothing (a kind, an object,
// a field, a selector key, a flag), the names it was probably meant to be:
// the "did you mean ...?" of kmerge's messages. Names are compared by edit
// distance, ignoring letter case; every message that can suggest something
// uses this one package, so that all of them suggest alike.
package suggest

import (
	"strings"
)

// Distance returns the optimal string alignment distance between a and b:
// the number of single-character insertions, deletions, substitutions and
// swaps of two adjacent characters that turn one into the other (a typo
// like "deploymnet" is one swap away from "deployment"). Letters are
// compared without regard to case.
func Distance(a, b string) int {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	// three rows of the classic dynamic programme: i-2, i-1 and i
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// MaxDistance is how far a candidate may be from a word of n characters
// and still be suggested: 1 up to 4 characters (so that "pod" does not
// suggest "job", nor "node" "role"), 2 up to 9, 3 beyond.
func MaxDistance(n int) int {
	switch {
	case n <= 4:
		return 1
	case n <= 9:
		return 2
	}
	return 3
}

// Closest returns the candidates nearest to word: those at the smallest
// distance from it that is at most MaxDistance(len(word)), in the order
// given, without repeats, at most three. A candidate equal to word is
// never suggested: it is not a different name. Names that merely hold the
// word, far from it, are not suggested either: "out" is no typo of
// "output-dir".
func Closest(word string, candidates []string) []string {
	n := len([]rune(word))
	if n == 0 {
		return nil
	}
	limit := MaxDistance(n)
	best := limit + 1
	var out []string
	seen := map[string]bool{}
	for _, c := range candidates {
		if c == word || seen[c] {
			continue
		}
		d := Distance(word, c)
		switch {
		case d > limit:
		case d < best:
			best, out = d, []string{c}
			seen = map[string]bool{c: true}
		case d == best:
			out = append(out, c)
			seen[c] = true
		}
	}
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// DidYouMean returns "did you mean X?" (or "X or Y?", "X, Y or Z?") for
// the candidates nearest to word, each written by quote (nil: as it is),
// or "" when none is near.
func DidYouMean(word string, candidates []string, quote func(string) string) string {
	return Phrase(Closest(word, candidates), quote)
}

// Phrase returns "did you mean X?" for names already chosen, "" for none.
func Phrase(names []string, quote func(string) string) string {
	if len(names) == 0 {
		return ""
	}
	if quote == nil {
		quote = func(s string) string { return s }
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	list := q[len(q)-1]
	if len(q) > 1 {
		list = strings.Join(q[:len(q)-1], ", ") + " or " + list
	}
	return "did you mean " + list + "?"
}
