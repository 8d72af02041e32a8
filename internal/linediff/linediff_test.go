package linediff

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ")
}

func TestDiff(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b string // lines separated by spaces
		want []Hunk
	}{
		{"both empty", "", "", nil},
		{"equal", "a b c", "a b c", nil},
		{"a empty: all insert", "", "a b c", []Hunk{{0, 0, 0, 3}}},
		{"b empty: all delete", "a b c", "", []Hunk{{0, 3, 0, 0}}},
		{"replace one", "a b c", "a x c", []Hunk{{1, 2, 1, 2}}},
		{"insert at start", "b c", "a b c", []Hunk{{0, 0, 0, 1}}},
		{"insert at end", "a b", "a b c", []Hunk{{2, 2, 2, 3}}},
		{"delete in middle", "a b c d", "a d", []Hunk{{1, 3, 1, 1}}},
		{"two hunks", "a b c d e", "a x c d y e", []Hunk{{1, 2, 1, 2}, {4, 4, 4, 5}}},
		{"nothing in common", "a b", "c d e", []Hunk{{0, 2, 0, 3}}},
		// repeated lines: any shortest script will do; this one is what
		// the algorithm picks, and the checks below hold for all
		{"repeated lines", "a a a", "a a", []Hunk{{2, 3, 2, 2}}},
		{"repeated insert", "x x", "x x x x", []Hunk{{2, 2, 2, 4}}},
		{"swap", "a b", "b a", []Hunk{{0, 1, 0, 0}, {2, 2, 1, 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := lines(c.a), lines(c.b)
			got := Diff(a, b)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Diff(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
			}
			checkHunks(t, a, b, got)
			if d := edits(got); d != lcsDistance(a, b) {
				t.Errorf("%d edits, shortest is %d", d, lcsDistance(a, b))
			}
		})
	}
}

// checkHunks checks that the hunks are ordered, separated, and turn a into b.
func checkHunks(t *testing.T, a, b []string, hunks []Hunk) {
	t.Helper()
	if got := Apply(a, b, hunks); !reflect.DeepEqual(got, b) && !(len(got) == 0 && len(b) == 0) {
		t.Fatalf("applying %v to %q gives %q, want %q", hunks, a, got, b)
	}
	pa, pb := 0, 0
	for i, h := range hunks {
		if h.A0 > h.A1 || h.B0 > h.B1 || h.A0 == h.A1 && h.B0 == h.B1 {
			t.Fatalf("hunk %d is malformed: %v", i, h)
		}
		if h.A0-pa != h.B0-pb || h.A0 < pa || (i > 0 && h.A0 == pa) {
			t.Fatalf("hunk %d does not follow hunk %d by equal lines: %v", i, i-1, hunks)
		}
		for k := 0; k < h.A0-pa; k++ {
			if a[pa+k] != b[pb+k] {
				t.Fatalf("lines between hunks differ: %q, %q", a[pa+k], b[pb+k])
			}
		}
		pa, pb = h.A1, h.B1
	}
	if len(a)-pa != len(b)-pb {
		t.Fatalf("trailing equal lines do not match: %v", hunks)
	}
}

func edits(hunks []Hunk) int {
	d := 0
	for _, h := range hunks {
		d += h.A1 - h.A0 + h.B1 - h.B0
	}
	return d
}

// lcsDistance is the length of a shortest edit script, by dynamic programming.
func lcsDistance(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
			} else {
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return len(a) + len(b) - 2*prev[len(b)]
}

// TestDiffProperty checks on random sequences over small alphabets (many
// repeated lines) that the hunks turn a into b and that the script is as
// short as dynamic programming says it can be.
func TestDiffProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gen := func(n, alphabet int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = string(rune('a' + r.IntN(alphabet)))
		}
		return s
	}
	for i := 0; i < 3000; i++ {
		alphabet := 1 + r.IntN(6)
		a := gen(r.IntN(30), alphabet)
		var b []string
		if r.IntN(2) == 0 {
			b = gen(r.IntN(30), alphabet)
		} else {
			// b as a few edits of a
			b = append([]string(nil), a...)
			for e := r.IntN(5); e > 0; e-- {
				p := r.IntN(len(b) + 1)
				switch r.IntN(3) {
				case 0:
					b = append(b[:p], append([]string{string(rune('a' + r.IntN(alphabet)))}, b[p:]...)...)
				case 1:
					if p < len(b) {
						b = append(b[:p], b[p+1:]...)
					}
				case 2:
					if p < len(b) {
						b[p] = "z"
					}
				}
			}
		}
		h := Diff(a, b)
		checkHunks(t, a, b, h)
		if d, want := edits(h), lcsDistance(a, b); d != want {
			t.Fatalf("Diff(%q, %q): %d edits, shortest is %d", a, b, d, want)
		}
		if bh, ok := DiffBounded(a, b, edits(h)); !ok || !reflect.DeepEqual(bh, h) {
			t.Fatalf("DiffBounded with the exact bound: %v, %v; want %v", bh, ok, h)
		}
		if d := edits(h); d > 0 {
			if _, ok := DiffBounded(a, b, d-1); ok {
				t.Fatalf("DiffBounded(%q, %q, %d) succeeded, the distance is %d", a, b, d-1, d)
			}
		}
	}
}

func TestDiffBoundedLarge(t *testing.T) {
	// Two unrelated sequences of 20000 lines: 40000 edits. The bound stops
	// the search long before the quadratic work.
	a, b := make([]string, 20000), make([]string, 20000)
	for i := range a {
		a[i], b[i] = "a"+strings.Repeat("x", i%7), "b"+strings.Repeat("y", i%5)
	}
	if _, ok := DiffBounded(a, b, 2000); ok {
		t.Fatal("DiffBounded accepted 40000 edits with a bound of 2000")
	}
	b = append([]string(nil), a...)
	b[100], b[15000] = "changed", "changed too"
	h, ok := DiffBounded(a, b, 2000)
	if !ok || len(h) != 2 {
		t.Fatalf("two changed lines: %v, %v", h, ok)
	}
}

func TestSplitLines(t *testing.T) {
	for in, want := range map[string][]string{
		"":          nil,
		"\n":        {""},
		"a":         {"a"},
		"a\nb\n":    {"a", "b"},
		"a\nb":      {"a", "b"},
		"a\r\n\nb":  {"a\r", "", "b"},
		"a\n\n":     {"a", ""},
		"only text": {"only text"},
	} {
		if got := SplitLines(in); !reflect.DeepEqual(got, want) {
			t.Errorf("SplitLines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnified(t *testing.T) {
	for _, c := range []struct {
		name    string
		a, b    string
		context int
		want    string
	}{
		{"equal", "a\nb\n", "a\nb\n", 3, ""},
		{"change in the middle", "a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nD\ne\nf\ng\n", 1,
			"--- old\n+++ new\n@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n"},
		{"counts of one are left out", "a\nb\nc\n", "a\nB\nc\n", 0,
			"--- old\n+++ new\n@@ -2 +2 @@\n-b\n+B\n"},
		{"insert into empty", "", "x\ny\n", 3,
			"--- old\n+++ new\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"delete everything", "x\ny\n", "", 3,
			"--- old\n+++ new\n@@ -1,2 +0,0 @@\n-x\n-y\n"},
		{"pure insertion numbered by the line before", "a\nb\nc\n", "a\nb\nnew\nc\n", 0,
			"--- old\n+++ new\n@@ -2,0 +3 @@\n+new\n"},
		{"two groups", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\nX\n3\n4\n5\n6\n7\n8\nY\n10\n", 2,
			"--- old\n+++ new\n@@ -1,4 +1,4 @@\n 1\n-2\n+X\n 3\n 4\n@@ -7,4 +7,4 @@\n 7\n 8\n-9\n+Y\n 10\n"},
		{"changes close together share a group", "1\n2\n3\n4\n5\n6\n", "1\nX\n3\n4\nY\n6\n", 1,
			"--- old\n+++ new\n@@ -1,6 +1,6 @@\n 1\n-2\n+X\n 3\n 4\n-5\n+Y\n 6\n"},
		{"context clipped at both ends", "a\nb\n", "a\nc\nb\n", 5,
			"--- old\n+++ new\n@@ -1,2 +1,3 @@\n a\n+c\n b\n"},
		{"yaml edit", "spec:\n  replicas: 1\n  template:\n    metadata:\n      name: x\n",
			"spec:\n  replicas: 3\n  template:\n    metadata:\n      name: x\n      labels: {}\n", 2,
			"--- a/deploy.yaml\n+++ b/deploy.yaml\n@@ -1,5 +1,6 @@\n spec:\n-  replicas: 1\n+  replicas: 3\n   template:\n     metadata:\n       name: x\n+      labels: {}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			aName, bName := "old", "new"
			if c.name == "yaml edit" {
				aName, bName = "a/deploy.yaml", "b/deploy.yaml"
			}
			got := Unified(aName, bName, SplitLines(c.a), SplitLines(c.b), c.context)
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// TestUnifiedTextNoNewline: a text without a final line terminator is
// marked as diff -u marks it. Each expected output is GNU diff 3's
// `diff -u` of the two texts (headers aside), checked by hand against
// POSIX's description of the marker: it follows the line that lacks the
// terminator, wherever that line is printed (context, deleted or inserted).
func TestUnifiedTextNoNewline(t *testing.T) {
	const mark = "\\ No newline at end of file\n"
	for _, c := range []struct {
		name string
		a, b string
		want string
	}{
		{"old lacks it", "a\nx", "a\ny\n", "@@ -1,2 +1,2 @@\n a\n-x\n" + mark + "+y\n"},
		{"new lacks it", "a\nx\n", "a\ny", "@@ -1,2 +1,2 @@\n a\n-x\n+y\n" + mark},
		{"only the newline removed", "x\n", "x", "@@ -1 +1 @@\n-x\n+x\n" + mark},
		{"only the newline added", "x", "x\n", "@@ -1 +1 @@\n-x\n" + mark + "+x\n"},
		{"both lack it, in the context", "a\nb\nc", "a\nB\nc", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n" + mark},
		{"both lack it, both changed", "a\nb", "a\nc", "@@ -1,2 +1,2 @@\n a\n-b\n" + mark + "+c\n" + mark},
		{"from nothing", "", "x", "@@ -0,0 +1 @@\n+x\n" + mark},
		{"to nothing", "x", "", "@@ -1 +0,0 @@\n-x\n" + mark},
		{"far from the end: no mark", "a\nb\nc\nd\ne\nf\ng", "A\nb\nc\nd\ne\nf\ng", "@@ -1,2 +1,2 @@\n-a\n+A\n b\n"},
		{"equal without newlines", "a\nb", "a\nb", ""},
		{"with newlines as Unified", "a\nb\n", "a\nc\n", "@@ -1,2 +1,2 @@\n a\n-b\n+c\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want != "" {
				want = "--- old\n+++ new\n" + want
			}
			if got := UnifiedText("old", "new", c.a, c.b, 1); got != want {
				t.Errorf("UnifiedText(%q, %q):\n%s\nwant:\n%s", c.a, c.b, got, want)
			}
		})
	}
}

// TestUnifiedTextPatch: patch(1), the reader a diff is for, turns the old
// text into the new one with UnifiedText's output, whether either ends in
// a line terminator or not. It runs GNU patch when the machine has it (the
// pure-Go check above holds without it).
func TestUnifiedTextPatch(t *testing.T) {
	bin, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("no patch(1) on this machine: TestUnifiedTextNoNewline checks the format")
	}
	texts := []string{"", "x", "x\n", "a\nx", "a\nx\n", "a\ny", "a\ny\n", "1\n2\n3\n4\n5\n6\n7\n8", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\n5\nsix\n7\n8"}
	dir := t.TempDir()
	for _, a := range texts {
		for _, b := range texts {
			if a == b {
				continue
			}
			diff := UnifiedText("a/f.txt", "b/f.txt", a, b, 3)
			if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(a), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "-p1", "--batch", "--silent", "--no-backup-if-mismatch", "-r", "-")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(diff)
			out, err := cmd.CombinedOutput()
			got, rerr := os.ReadFile(filepath.Join(dir, "f.txt"))
			if os.IsNotExist(rerr) && b == "" {
				got, rerr = nil, nil // patch removes a file the diff empties
			}
			if err != nil || rerr != nil || string(got) != b {
				t.Errorf("patch -p1 of %q to %q: %v %s, file %q (%v); diff:\n%s", a, b, err, out, got, rerr, diff)
			}
		}
	}
}

// TestDiffLong: a long diff of many changes far apart (20,000 documents
// of 7 lines, every other one deleted: 70,000 lines) is found between
// the lines found once on each side, and is the shortest one (the search
// through all of it took 13 s: the hostile corpus's diff-20k-deletions);
// long inputs of many repeated lines, where the search settles for a
// split that is not on a shortest path (costLimit), still get hunks that
// turn a into b.
func TestDiffLong(t *testing.T) {
	var a, b []string
	for i := range 20_000 {
		doc := []string{"---", "apiVersion: v1", "kind: ConfigMap", "metadata:", fmt.Sprintf("  name: c%d", i), "data:", fmt.Sprintf("  k: v%d", i)}
		a = append(a, doc...)
		if i%2 == 1 {
			b = append(b, doc...)
		}
	}
	h := Diff(a, b)
	checkHunks(t, a, b, h)
	if d := edits(h); d != 70_000 {
		t.Errorf("%d edits, want 70000 (the deleted documents' lines)", d)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3 {
		a, b := make([]string, 6000), make([]string, 6000)
		for i := range a {
			a[i], b[i] = string(rune('a'+r.IntN(3))), string(rune('a'+r.IntN(3)))
		}
		checkHunks(t, a, b, Diff(a, b))
	}
}
