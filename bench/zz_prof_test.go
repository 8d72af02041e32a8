package bench

import (
	"testing"

	"github.com/kmerge/kmerge/bench/corpus"
)

func BenchmarkZRead(b *testing.B) {
	var all [][]byte
	for _, kind := range corpus.Kinds[2:3] {
		in := inputs(b, kind)
		all = append(all, in.DocYAML...)
		all = append(all, in.DocHandYAML...)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, d := range all {
			if _, err := KmergeSkim(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}
