package main

import (
	"os"
	"runtime/debug"
	"sync"
)

// A memory budget: the command tells the Go runtime the memory it means
// to stay within, four times the bytes of its inputs plus 100 MiB
// (docs/performance.md), as its soft memory limit (debug.SetMemoryLimit):
// the collector then runs more often as the heap nears the budget, rather
// than letting it grow to twice what is live, which a long stream, whose
// input and output are held in memory, would otherwise make a peak of
// several times its size. It is no hard limit: the runtime goes past it
// when what is live needs more. GOMEMLIMIT, when set, is the user's
// choice, and the command keeps it.
//
// The budget is set by main only (run in tests leaves the runtime alone),
// once the inputs are known: the manifest files before a run reads them,
// standard input as it is read (recorder.ReadText).
type memoryBudget struct {
	mu    sync.Mutex
	bytes int64 // of the inputs counted so far
	off   bool  // GOMEMLIMIT is set, or this is not the command's main
}

// budgetBase is the part of the budget that does not depend on the
// inputs, and programShare the part of it left out of the runtime's limit:
// the program's code and data, and what the limit does not count, take
// about that of the process's resident memory.
const (
	budgetBase   = 100 << 20
	programShare = 16 << 20
)

func newMemoryBudget() *memoryBudget {
	_, set := os.LookupEnv("GOMEMLIMIT")
	return &memoryBudget{off: set}
}

// add counts n more bytes of input and sets the limit.
func (b *memoryBudget) add(n int64) {
	if b == nil || b.off || n <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.bytes += n
	debug.SetMemoryLimit(4*b.bytes + budgetBase - programShare)
}

// addFiles counts the sizes of the files named (standard input, "-", is
// counted as it is read).
func (b *memoryBudget) addFiles(paths []string) {
	if b == nil || b.off {
		return
	}
	var n int64
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	b.add(n)
}
