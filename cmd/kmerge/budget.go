package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
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
//
// A run whose patches make much more than they read (a thousand wildcard
// sections on a thousand objects: 120 KB in, 13 MB out, half a gigabyte
// live) needs more than the budget. With the limit kept, the collector
// would run again as soon as it finished, and such a run took 3.6 times
// the processor time of one without the limit. So after every collection
// the limit follows what is live: it is the budget or one and a half times
// the live heap, whichever is larger (limitFor); the collector then never
// runs more than about twice as often as without a limit.
type memoryBudget struct {
	mu       sync.Mutex
	bytes    int64 // of the inputs counted so far
	off      bool  // GOMEMLIMIT is set, or this is not the command's main
	watching bool  // the collections are watched (watch)
	limit    int64 // the limit last set
}

// limitFor is the soft memory limit for a budget of inputs bytes when the
// last collection left live bytes on the heap.
func limitFor(inputs, live int64) int64 {
	limit := 4*inputs + budgetBase - programShare
	if grown := live + live/2; grown > limit {
		return grown
	}
	return limit
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
	b.set(0)
	if !b.watching {
		b.watching = true
		b.watch()
	}
}

// set raises the runtime's limit to limitFor the inputs counted and live
// bytes on the heap; it never lowers it (a heap that shrinks after a peak
// is not made to collect more often for it). b.mu is held.
func (b *memoryBudget) set(live int64) {
	if limit := limitFor(b.bytes, live); limit > b.limit {
		b.limit = limit
		debug.SetMemoryLimit(limit)
	}
}

// watch asks to be called after the next collection: a cleanup on an
// object nothing refers to runs once a collection has found it
// unreachable. Each call arms the next one, so the limit is looked at
// after every collection for as long as the process runs.
func (b *memoryBudget) watch() {
	sentinel := &struct {
		_ [16]byte
		_ *int
	}{} // with a pointer and of 16 bytes or more: not in a shared tiny block
	runtime.AddCleanup(sentinel, func(b *memoryBudget) { b.collected() }, b)
}

// collected raises the limit to what the live heap now needs.
func (b *memoryBudget) collected() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.off {
		b.watching = false
		return
	}
	if sample[0].Value.Kind() == metrics.KindUint64 {
		b.set(int64(sample[0].Value.Uint64()))
	}
	b.watch()
}

// stop ends the watching after the next collection, and leaves the limit
// as it is (tests).
func (b *memoryBudget) stop() {
	b.mu.Lock()
	b.off = true
	b.mu.Unlock()
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
