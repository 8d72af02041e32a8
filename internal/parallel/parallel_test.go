package parallel

import (
	"sync/atomic"
	"testing"
)

func TestFor(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 7} {
		for _, n := range []int{0, 1, 2, 100} {
			var calls atomic.Int64
			seen := make([]int32, n)
			For(n, workers, func(i int) {
				calls.Add(1)
				atomic.AddInt32(&seen[i], 1)
			})
			if int(calls.Load()) != n {
				t.Errorf("workers %d, n %d: %d calls", workers, n, calls.Load())
			}
			for i, c := range seen {
				if c != 1 {
					t.Errorf("workers %d, n %d: f(%d) called %d times", workers, n, i, c)
				}
			}
		}
	}
}
