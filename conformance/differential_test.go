package conformance

import (
	"os"
	"sort"
	"strconv"
	"testing"
)

// casesPerSubject is how many random cases each schema gets; six subjects,
// so the default runs 24,000 cases. KMERGE_DIFF_CASES changes it.
func casesPerSubject(t testing.TB) int {
	if s := os.Getenv("KMERGE_DIFF_CASES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("KMERGE_DIFF_CASES: %v", err)
		}
		return n
	}
	return 4000
}

// TestDifferential compares kmerge with upstream's StrategicMergePatch on
// random documents and patches: the same accept/reject decision on every
// case; with OrderUpstream the same result; with OrderSpec the same result up
// to list order. Differences a documented rule explains are counted, any
// other fails the test.
func TestDifferential(t *testing.T) {
	subjects, err := Subjects()
	if err != nil {
		t.Fatal(err)
	}
	n := casesPerSubject(t)
	base := uint64(1)
	if s := os.Getenv("KMERGE_DIFF_SEED"); s != "" {
		base, _ = strconv.ParseUint(s, 10, 64)
	}
	counts := map[string]int{}
	reasonMismatches := 0
	failures := 0
	for _, s := range subjects {
		for i := 0; i < n; i++ {
			c := NewCase(s, base+uint64(i))
			v := Compare(s, c)
			counts[v.Category]++
			if v.ReasonMismatch != "" {
				reasonMismatches++
				if reasonMismatches <= 5 {
					t.Logf("reason differs: %s\n doc: %s\n patch: %s", v.ReasonMismatch, c.Doc, c.Patch)
				}
			}
			if v.Unexplained() {
				failures++
				if failures <= 10 {
					t.Errorf("%s\n%s", v.Category, v.Detail)
				}
			}
		}
	}
	var cats []string
	total := 0
	for c, k := range counts {
		cats = append(cats, c)
		total += k
	}
	sort.Strings(cats)
	for _, c := range cats {
		t.Logf("%-40s %6d", c, counts[c])
	}
	t.Logf("%d cases over %d subjects; %d unexplained; %d with another rejection reason", total, len(subjects), failures, reasonMismatches)
	if reasonMismatches > 0 {
		t.Errorf("%d rejections carry a reason other than the one upstream's message maps to", reasonMismatches)
	}
}

// FuzzDifferential explores seeds: go test -fuzz FuzzDifferential.
func FuzzDifferential(f *testing.F) {
	subjects, err := Subjects()
	if err != nil {
		f.Fatal(err)
	}
	for i := range subjects {
		f.Add(uint64(i*7919), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, which uint8) {
		s := subjects[int(which)%len(subjects)]
		v := Compare(s, NewCase(s, seed))
		if v.Unexplained() {
			t.Fatalf("%s\n%s", v.Category, v.Detail)
		}
	})
}
