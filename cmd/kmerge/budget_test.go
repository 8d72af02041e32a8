package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
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
