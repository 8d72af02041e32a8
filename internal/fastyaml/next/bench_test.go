package next

import (
	"os"
	"testing"

	"github.com/kmerge/kmerge/internal/fastyaml"
)

func benchFiles(b *testing.B) map[string][]byte {
	m := map[string][]byte{}
	for _, n := range []string{"deployment-hand", "deployment-program", "service-hand", "configmap-hand", "pipeline-program"} {
		d, err := os.ReadFile("../testdata/manifests/" + n + ".yaml")
		if err != nil {
			b.Fatal(err)
		}
		m[n] = d
	}
	return m
}

func BenchmarkRead(b *testing.B) {
	for name, d := range benchFiles(b) {
		b.Run(name+"/new", func(b *testing.B) {
			b.SetBytes(int64(len(d)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/old", func(b *testing.B) {
			b.SetBytes(int64(len(d)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := fastyaml.Parse(d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/v3", func(b *testing.B) {
			b.SetBytes(int64(len(d)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decodeV3(d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
