// Package linediff compares sequences of lines.
//
// Diff finds a shortest edit script with Myers' O((N+M)D) algorithm ("An
// O(ND) Difference Algorithm and Its Variations", 1986) in its linear-space
// form: the middle snake of the two sequences splits the problem in two,
// recursively. Time is O((N+M)·D) for D differing lines, memory O(N+M);
// lines found in only one of the sequences are set aside first, so that
// unrelated inputs cost linear time. Where a middle snake is not found in
// costLimit steps, Diff splits at the point the search reached furthest
// (GNU diff's heuristic): its script is then valid, not always shortest.
// The result is a list of hunks, each replacing a range of the first
// sequence by a range of the second. DiffBounded gives up beyond a number of
// edits, for callers that prefer a cheap fallback to an expensive diff.
// Unified formats the difference as a unified diff (diff -u).
package linediff

import (
	"slices"
	"strconv"
	"strings"
)

// Hunk is one change: lines A[A0:A1] of the first sequence are replaced by
// lines B[B0:B1] of the second. Ranges are half-open and 0-based. A pure
// insertion has A0 == A1 (the lines go before A[A0]); a pure deletion has
// B0 == B1.
type Hunk struct {
	A0, A1 int
	B0, B1 int
}

// Diff returns the hunks of an edit script that turns a into b, in order:
// a shortest one unless the changes are many (see costLimit). Lines outside the hunks are equal and correspond one to one: the
// i-th line of a not in any hunk equals the i-th line of b not in any hunk.
// Adjacent changes are merged into one hunk, so two hunks are always
// separated by at least one equal line. Equal inputs give no hunks.
func Diff(a, b []string) []Hunk {
	h, _ := DiffBounded(a, b, -1)
	return h
}

// DiffBounded is Diff, except that it stops and returns false when turning
// a into b takes more than maxD deleted and inserted lines (maxD < 0: no
// bound). The work done is then O((N+M)·maxD).
func DiffBounded(a, b []string, maxD int) ([]Hunk, bool) {
	ia, ib := intern(a, b)
	// A line that the other side lacks is deleted or inserted whatever
	// the rest: leave such lines out of the search, which then only sees
	// lines that may match (for unrelated inputs, none).
	inA, inB := presence(ia), presence(ib)
	fa, mapA := keep(ia, inB)
	fb, mapB := keep(ib, inA)
	if maxD >= 0 {
		maxD -= len(a) - len(fa) + len(b) - len(fb)
		if maxD < 0 {
			return nil, false
		}
	}
	d := &differ{a: fa, b: fb, delA: make([]bool, len(fa)), insB: make([]bool, len(fb))}
	if maxD < 0 && len(fa)+len(fb) > 2*costLimit {
		// long: between the lines found once on each side, in order
		// (patience diff's anchors), so that the search is short where
		// the changes are many but far apart
		a0, b0 := 0, 0
		for _, an := range anchors(fa, fb) {
			d.compare(a0, an[0], b0, an[1], -1)
			a0, b0 = an[0]+1, an[1]+1
		}
		d.compare(a0, len(fa), b0, len(fb), -1)
	} else if !d.compare(0, len(fa), 0, len(fb), maxD) {
		return nil, false
	}
	// back to the full sequences: left-out lines are changes
	delA, insB := make([]bool, len(a)), make([]bool, len(b))
	for i := range delA {
		delA[i] = true
	}
	for j := range insB {
		insB[j] = true
	}
	for i, del := range d.delA {
		delA[mapA[i]] = del
	}
	for j, ins := range d.insB {
		insB[mapB[j]] = ins
	}
	return hunks(delA, insB), true
}

// presence returns the set of line numbers in lines.
func presence(lines []int32) map[int32]bool {
	set := make(map[int32]bool, len(lines))
	for _, l := range lines {
		set[l] = true
	}
	return set
}

// keep returns the lines that are in set, and for each its index in lines.
func keep(lines []int32, set map[int32]bool) ([]int32, []int) {
	out := make([]int32, 0, len(lines))
	index := make([]int, 0, len(lines))
	for i, l := range lines {
		if set[l] {
			out = append(out, l)
			index = append(index, i)
		}
	}
	return out, index
}

// intern replaces every line by a number, equal lines by equal numbers, so
// that comparisons in the inner loop are cheap.
func intern(a, b []string) ([]int32, []int32) {
	ids := make(map[string]int32, len(a)+len(b))
	conv := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	return conv(a), conv(b)
}

type differ struct {
	a, b   []int32
	delA   []bool // delA[i]: a[i] is deleted
	insB   []bool // insB[j]: b[j] is inserted
	vf, vr []int  // furthest reaching paths, forward and reverse, reused
}

// compare marks the deleted lines of a[a0:a1] and the inserted lines of
// b[b0:b1]. With maxD >= 0 it reports false, marking nothing useful, when
// more than maxD edits are needed.
func (d *differ) compare(a0, a1, b0, b1, maxD int) bool {
	for a0 < a1 && b0 < b1 && d.a[a0] == d.b[b0] {
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && d.a[a1-1] == d.b[b1-1] {
		a1, b1 = a1-1, b1-1
	}
	switch {
	case a0 == a1:
		if maxD >= 0 && b1-b0 > maxD {
			return false
		}
		for j := b0; j < b1; j++ {
			d.insB[j] = true
		}
		return true
	case b0 == b1:
		if maxD >= 0 && a1-a0 > maxD {
			return false
		}
		for i := a0; i < a1; i++ {
			d.delA[i] = true
		}
		return true
	}
	x, y, u, v, ok := d.middleSnake(a0, a1, b0, b1, maxD)
	if !ok {
		return false
	}
	// Both halves are strictly smaller (the total D is at least 2 once
	// common prefix and suffix are gone), and their edits add up to at
	// most D, already checked against the bound.
	d.compare(a0, x, b0, y, -1)
	d.compare(u, a1, v, b1, -1)
	return true
}

// middleSnake finds the middle snake of a shortest edit script of
// a[a0:a1] and b[b0:b1], both non-empty: the diagonal run from (x, y) to
// (u, v) (absolute indexes) that a shortest path crosses half way.
func (d *differ) middleSnake(a0, a1, b0, b1, maxD int) (x, y, u, v int, ok bool) {
	n, m := a1-a0, b1-b0
	delta := n - m
	odd := delta&1 != 0
	half := (n + m + 1) / 2
	off := half + 1
	size := 2*half + 3
	if cap(d.vf) < size {
		d.vf = make([]int, size)
		d.vr = make([]int, size)
	}
	vf, vr := d.vf[:size], d.vr[:size]
	vf[off+1], vr[off+1] = 0, 0
	a, b := d.a, d.b
	for D := 0; D <= half; D++ {
		// A path found at step D of both searches has 2D-1 or 2D edits.
		if maxD >= 0 && 2*D-1 > maxD {
			return 0, 0, 0, 0, false
		}
		if maxD < 0 && D > costLimit {
			if x, y, ok := furthest(vf[off-D+1:off+D], D-1, n, m); ok {
				return a0 + x, b0 + y, a0 + x, b0 + y, true
			}
		}
		for k := -D; k <= D; k += 2 {
			var px int
			if k == -D || (k != D && vf[off+k-1] < vf[off+k+1]) {
				px = vf[off+k+1] // down: insert b[y]
			} else {
				px = vf[off+k-1] + 1 // right: delete a[x]
			}
			py := px - k
			sx, sy := px, py
			for px < n && py < m && a[a0+px] == b[b0+py] {
				px, py = px+1, py+1
			}
			vf[off+k] = px
			if odd {
				// the reverse search covers diagonals delta-(D-1)..delta+(D-1)
				if kr := delta - k; kr >= -(D-1) && kr <= D-1 && px+vr[off+kr] >= n {
					return a0 + sx, b0 + sy, a0 + px, b0 + py, true
				}
			}
		}
		for k := -D; k <= D; k += 2 {
			// the same search on the reversed sequences
			var px int
			if k == -D || (k != D && vr[off+k-1] < vr[off+k+1]) {
				px = vr[off+k+1]
			} else {
				px = vr[off+k-1] + 1
			}
			py := px - k
			sx, sy := px, py
			for px < n && py < m && a[a1-1-px] == b[b1-1-py] {
				px, py = px+1, py+1
			}
			vr[off+k] = px
			if !odd {
				if kf := delta - k; kf >= -D && kf <= D && vf[off+kf]+px >= n {
					if maxD >= 0 && 2*D > maxD {
						return 0, 0, 0, 0, false
					}
					return a1 - px, b1 - py, a1 - sx, b1 - sy, true
				}
			}
		}
	}
	panic("linediff: no middle snake") // unreachable: the paths always meet
}

// anchors returns the lines that are found once in a and once in b, as
// pairs of their indexes, the longest run of them that is in the same
// order on both sides (found as patience sorting finds it, O(k log k)).
func anchors(a, b []int32) [][2]int {
	top := int32(0) // the largest line number
	for _, l := range a {
		top = max(top, l)
	}
	for _, l := range b {
		top = max(top, l)
	}
	inA, inB := make([]int32, top+1), make([]int32, top+1)
	atB := make([]int, top+1)
	for _, l := range a {
		inA[l]++
	}
	for j, l := range b {
		inB[l]++
		atB[l] = j
	}
	var pairs [][2]int // the unique lines, in a's order
	for i, l := range a {
		if inA[l] == 1 && inB[l] == 1 {
			pairs = append(pairs, [2]int{i, atB[l]})
		}
	}
	// the longest increasing run of b's indexes: tails[k] is the pair
	// ending the best run of k+1 found so far, prev links a run's pairs
	var tails []int
	prev := make([]int, len(pairs))
	for p, pr := range pairs {
		k, _ := slices.BinarySearchFunc(tails, pr[1], func(t int, j int) int { return pairs[t][1] - j })
		if k > 0 {
			prev[p] = tails[k-1]
		} else {
			prev[p] = -1
		}
		if k == len(tails) {
			tails = append(tails, p)
		} else {
			tails[k] = p
		}
	}
	if len(tails) == 0 {
		return nil
	}
	out := make([][2]int, len(tails))
	for k, p := len(tails)-1, tails[len(tails)-1]; k >= 0; k, p = k-1, prev[p] {
		out[k] = pairs[p]
	}
	return out
}

// costLimit is how many steps middleSnake takes, for Diff, before it
// settles for a split that is not on a shortest path: GNU diff's
// heuristic (its "too expensive" cost), so that many changes far apart
// cost O((N+M)·costLimit), not O((N+M)·D) (20,000 documents, every other
// one deleted: D = 70,000 lines, 13 s before).
const costLimit = 1024

// furthest returns, of the forward search's furthest points after D steps
// (vf: diagonals -D..D, x on each), the one furthest along (x+y largest)
// within the n by m rectangle, strictly inside it; ok is false when there
// is none.
func furthest(vf []int, D, n, m int) (x, y int, ok bool) {
	best := -1
	for i := 0; i <= 2*D; i += 2 {
		k := i - D
		px := vf[i]
		py := px - k
		if px < 0 || py < 0 || px > n || py > m || px+py >= n+m || px+py == 0 {
			continue
		}
		if px+py > best {
			best, x, y = px+py, px, py
		}
	}
	return x, y, best > 0
}

// hunks turns marks of deleted and inserted lines into hunks. Unmarked
// lines of a and b correspond in order.
func hunks(delA, insB []bool) []Hunk {
	var out []Hunk
	i, j := 0, 0
	n, m := len(delA), len(insB)
	for i < n || j < m {
		if i < n && j < m && !delA[i] && !insB[j] {
			i, j = i+1, j+1
			continue
		}
		h := Hunk{A0: i, B0: j}
		for i < n && delA[i] {
			i++
		}
		for j < m && insB[j] {
			j++
		}
		h.A1, h.B1 = i, j
		out = append(out, h)
	}
	return out
}

// Apply returns a with the hunks applied, taking the new lines from b: for
// hunks from Diff(a, b) the result equals b. The hunks must be in order and
// must not overlap.
func Apply(a, b []string, hunks []Hunk) []string {
	out := make([]string, 0, len(b))
	pos := 0
	for _, h := range hunks {
		out = append(out, a[pos:h.A0]...)
		out = append(out, b[h.B0:h.B1]...)
		pos = h.A1
	}
	return append(out, a[pos:]...)
}

// SplitLines splits text into lines without their line terminators ("\n";
// a "\r" before it stays part of the line). A final line without a
// terminator is a line; a final terminator does not start another one, so
// "a\nb\n" and "a\nb" both give ["a", "b"], and "" gives none.
func SplitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Unified returns the difference between a and b as a unified diff, the
// format of diff -u and patch: a "--- aName" and a "+++ bName" header, then
// for each group of changes a "@@ -l,n +l,n @@" header followed by the lines,
// each prefixed with ' ' (context), '-' (only in a) or '+' (only in b). Each
// group shows up to context equal lines around its changes; changes closer
// than 2*context lines share a group. As in GNU diff, a count of 1 is left
// out ("@@ -3 +3 @@") and an empty range is numbered by the line before it.
// Lines are given without terminators and each is written followed by "\n";
// a missing newline at the end of a file is not marked (UnifiedText marks
// it). Equal inputs give "".
func Unified(aName, bName string, a, b []string, context int) string {
	return unified(aName, bName, a, b, context)
}

// noNewline is the line diff(1) and patch(1) write after a line that has no
// line terminator: the last line of a file that does not end in one.
const noNewline = "\\ No newline at end of file\n"

// UnifiedText is Unified on two texts, split into lines by SplitLines, that
// also says where a text does not end in a line terminator, as diff -u and
// git diff do: the last line of such a text is followed by the line
// "\ No newline at end of file" wherever it is shown, and it differs from
// the same line with a terminator (so "x\n" and "x" differ, and their diff
// replaces the line). patch(1) needs the marker: without it, a hunk that
// ends a file without a final newline does not apply.
func UnifiedText(aName, bName, a, b string, context int) string {
	return unified(aName, bName, endLines(a), endLines(b), context)
}

// endLines is SplitLines, but a last line without a terminator keeps a
// "\n" at its end: no line SplitLines gives holds one, so the line differs
// from the same line with a terminator, and unified prints the marker
// after it.
func endLines(text string) []string {
	lines := SplitLines(text)
	if text != "" && text[len(text)-1] != '\n' {
		lines[len(lines)-1] += "\n"
	}
	return lines
}

// writeLine writes a line of a unified diff: its prefix, the line and a
// line terminator, and after a line that had none (endLines) the marker.
func writeLine(sb *strings.Builder, prefix byte, line string) {
	sb.WriteByte(prefix)
	if l, ok := strings.CutSuffix(line, "\n"); ok {
		sb.WriteString(l)
		sb.WriteString("\n" + noNewline)
		return
	}
	sb.WriteString(line)
	sb.WriteByte('\n')
}

func unified(aName, bName string, a, b []string, context int) string {
	hunks := Diff(a, b)
	if len(hunks) == 0 {
		return ""
	}
	if context < 0 {
		context = 0
	}
	var sb strings.Builder
	sb.WriteString("--- " + aName + "\n")
	sb.WriteString("+++ " + bName + "\n")
	for g := 0; g < len(hunks); {
		// group the hunks whose context overlaps or touches
		e := g
		for e+1 < len(hunks) && hunks[e+1].A0-hunks[e].A1 <= 2*context {
			e++
		}
		first, last := hunks[g], hunks[e]
		aStart := max(first.A0-context, 0)
		aEnd := min(last.A1+context, len(a))
		bStart := first.B0 - (first.A0 - aStart)
		bEnd := last.B1 + (aEnd - last.A1)
		sb.WriteString("@@ -" + rangeText(aStart, aEnd-aStart) + " +" + rangeText(bStart, bEnd-bStart) + " @@\n")
		pos := aStart
		for _, h := range hunks[g : e+1] {
			for ; pos < h.A0; pos++ {
				writeLine(&sb, ' ', a[pos])
			}
			for _, l := range a[h.A0:h.A1] {
				writeLine(&sb, '-', l)
			}
			for _, l := range b[h.B0:h.B1] {
				writeLine(&sb, '+', l)
			}
			pos = h.A1
		}
		for ; pos < aEnd; pos++ {
			writeLine(&sb, ' ', a[pos])
		}
		g = e + 1
	}
	return sb.String()
}

// rangeText formats a range of a hunk header: 1-based first line and count,
// the count left out when it is 1, the line before the range when it is empty.
func rangeText(start, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(count)
}
