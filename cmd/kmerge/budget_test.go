package main

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestMemoryBudget: the budget sets the runtime's soft memory limit to four
// times the inputs counted plus 100 MiB, less the program's share; the
// files named count by their size (standard input, "-", as it is read:
// recorder.ReadText); with GOMEMLIMIT set, and for run (tests), it is left
// alone.
func TestMemoryBudget(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)

	dir := t.TempDir()
	file := filepath.Join(dir, "a.yaml")
	if err := os.WriteFile(file, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	b := newMemoryBudget()
	defer b.stop()
	b.addFiles([]string{file, "-", dir})
	if got, want := debug.SetMemoryLimit(-1), int64(4*1000+budgetBase-programShare); got != want {
		t.Errorf("limit %d, want %d", got, want)
	}
	rec := &recorder{r: strings.NewReader(strings.Repeat("x", 500)), budget: b}
	if text, err := rec.ReadText(0); err != nil || len(text) != 500 {
		t.Fatalf("ReadText: %d bytes, %v", len(text), err)
	}
	if got, want := debug.SetMemoryLimit(-1), int64(4*1500+budgetBase-programShare); got != want {
		t.Errorf("after standard input: limit %d, want %d", got, want)
	}

	debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "1GiB")
	newMemoryBudget().add(1 << 20)
	(*memoryBudget)(nil).add(1 << 20) // run's: none
	if got := debug.SetMemoryLimit(-1); got != old {
		t.Errorf("with GOMEMLIMIT set: limit %d, want it left at %d", got, old)
	}
}

// TestLimitFor: the limit is the budget (four times the inputs plus 100
// MiB, less the program's share) until the live heap needs more, then one
// and a half times the live heap.
func TestLimitFor(t *testing.T) {
	const mib = 1 << 20
	base := int64(budgetBase - programShare)
	for _, c := range []struct{ inputs, live, want int64 }{
		{0, 0, base},
		{10 * mib, 0, 40*mib + base},
		{10 * mib, 50 * mib, 40*mib + base}, // 75 MiB < 124 MiB
		{10 * mib, 100 * mib, 150 * mib},    // past the budget: 1.5 × live
		{0, 600 * mib, 900 * mib},
	} {
		if got := limitFor(c.inputs, c.live); got != c.want {
			t.Errorf("limitFor(%d, %d) = %d, want %d", c.inputs, c.live, got, c.want)
		}
	}
}

// TestMemoryBudgetFollowsLiveHeap: after a collection that leaves more
// live than the budget allows, the limit is raised to 1.5 times the live
// heap, and never lowered again.
func TestMemoryBudgetFollowsLiveHeap(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	t.Setenv("GOMEMLIMIT", "")
	os.Unsetenv("GOMEMLIMIT")
	b := newMemoryBudget()
	defer b.stop()
	b.add(1000)
	budget := debug.SetMemoryLimit(-1)

	live := make([][]byte, 0, 200)
	for range 200 { // 200 MiB live: more than the budget of 100 MiB
		live = append(live, make([]byte, 1<<20))
	}
	runtime.GC()
	runtime.GC() // the cleanup of the first collection runs after it; the second's surely has
	// (a collection the allocations set off may have seen part of them
	// live, and its cleanup run late: the limit follows the live heap,
	// collection after collection, until it holds all 200 MiB; 287 MB,
	// 1.5 times 183 MiB, was seen under -race before this waited)
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) < 300<<20 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	raised := debug.SetMemoryLimit(-1)
	if raised < 300<<20 {
		t.Errorf("with 200 MiB live the limit is %d, want at least 300 MiB (the budget was %d)", raised, budget)
	}
	runtime.KeepAlive(live)
	live = nil
	runtime.GC()
	runtime.GC()
	if got := debug.SetMemoryLimit(-1); got < raised {
		t.Errorf("after the heap shrank the limit fell to %d from %d", got, raised)
	}
}
