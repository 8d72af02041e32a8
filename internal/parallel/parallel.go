// Package parallel runs independent steps on several goroutines.
package parallel

import (
	"runtime"
	"sync"
)

// For calls f(0), ..., f(n-1), each once, on up to workers goroutines
// (0: runtime.GOMAXPROCS(0); 1: one after the other, in order) and returns
// when all have returned. f must be safe to call concurrently for
// different i.
func For(n, workers int, f func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers == 1 || n < 2 {
		for i := range n {
			f(i)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
