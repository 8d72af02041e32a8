package conformance

import (
	"os"
	"strconv"
	"testing"
)

// TestDifferentialDiff compares patch creation with upstream's
// CreateTwoWayMergePatch and CreateThreeWayMergePatch (with and without
// overwrite) on random (original, modified, current) triples: the same
// patch bytes, the same conflicts, the same errors.
func TestDifferentialDiff(t *testing.T) {
	subjects, err := Subjects()
	if err != nil {
		t.Fatal(err)
	}
	n := casesPerSubject(t) / 2
	base := uint64(1)
	if s := os.Getenv("KMERGE_DIFF_SEED"); s != "" {
		base, _ = strconv.ParseUint(s, 10, 64)
	}
	failures, total := 0, 0
	for _, s := range subjects {
		for i := 0; i < n; i++ {
			total++
			if v := CompareDiff(s, NewDiffCase(s, base+uint64(i))); v.Unexplained() {
				failures++
				if failures <= 10 {
					t.Errorf("%s\n%s", v.Category, v.Detail)
				}
			}
		}
	}
	t.Logf("%d diff triples over %d subjects (two-way, three-way, three-way with overwrite each); %d unexplained", total, len(subjects), failures)
}

// TestDiffRoundTrip checks that applying a two-way patch to the original
// gives the modified document, plain and extended.
func TestDiffRoundTrip(t *testing.T) {
	subjects, err := Subjects()
	if err != nil {
		t.Fatal(err)
	}
	n := casesPerSubject(t) / 2
	failures, total := 0, 0
	for _, s := range subjects {
		for i := 0; i < n; i++ {
			c := NewDiffCase(s, uint64(i)+7, true)
			for _, extended := range []bool{false, true} {
				total++
				if msg := RoundTrip(s, c, extended); msg != "" {
					failures++
					if failures <= 10 {
						t.Errorf("subject %s seed %d extended %v: %s\n original: %s\n modified: %s", s.Name, c.Seed, extended, msg, c.Original, c.Modified)
					}
				}
			}
		}
	}
	t.Logf("%d round trips; %d failed", total, failures)
}

// FuzzDiff explores seeds for both diff properties: the same patches as
// upstream, and round trips (plain and extended).
func FuzzDiff(f *testing.F) {
	subjects, err := Subjects()
	if err != nil {
		f.Fatal(err)
	}
	for i := range subjects {
		f.Add(uint64(i*104729), uint8(i), false)
	}
	f.Fuzz(func(t *testing.T, seed uint64, which uint8, extended bool) {
		s := subjects[int(which)%len(subjects)]
		if v := CompareDiff(s, NewDiffCase(s, seed)); v.Unexplained() {
			t.Fatalf("%s\n%s", v.Category, v.Detail)
		}
		c := NewDiffCase(s, seed, true)
		if msg := RoundTrip(s, c, extended); msg != "" {
			t.Fatalf("round trip (extended %v): %s\n original: %s\n modified: %s", extended, msg, c.Original, c.Modified)
		}
	})
}
