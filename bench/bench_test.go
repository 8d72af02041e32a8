package bench

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/bench/corpus"
	"github.com/kmerge/kmerge/tree"
)

// Batch is the number of documents of each kind one benchmark operation
// patches: the corpus varies (1-4 containers, 5-30 env entries, ...), and a
// batch averages over it. The ns/doc metric is the time per document.
const Batch = 20

var prepared = map[string]*Inputs{}

func inputs(b testing.TB, kind string) *Inputs {
	if in, ok := prepared[kind]; ok {
		return in
	}
	var cases []corpus.Case
	if n, ok := envSize(kind); ok {
		cases = []corpus.Case{corpus.EnvList(n)}
	} else {
		cases = corpus.Generate(kind, Batch)
	}
	in, err := Prepare(cases)
	if err != nil {
		b.Fatal(err)
	}
	prepared[kind] = in
	runtime.GC() // the generator's trees are garbage now
	return in
}

func envSize(kind string) (int, bool) {
	var n int
	_, err := fmt.Sscanf(kind, "env=%d", &n)
	return n, err == nil
}

// run times f over every case of in, one operation for the whole batch.
func run(b *testing.B, in *Inputs, f func(i int) error) {
	b.ReportAllocs()
	b.SetBytes(int64(in.Bytes))
	for b.Loop() {
		for i := range in.Names {
			if err := f(i); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(in.Names)), "ns/doc")
}

// BenchmarkApplyJSON: strategic merge patch, JSON in and JSON out, the path
// an API server takes: kmerge against k8s.io/apimachinery's
// StrategicMergePatch with the Go structs' patch metadata.
func BenchmarkApplyJSON(b *testing.B) {
	for _, kind := range corpus.Kinds {
		b.Run("kind="+kind, func(b *testing.B) {
			in := inputs(b, kind)
			b.Run("impl=kmerge", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := KmergeJSON(in.DocJSON[i], in.PatchJSON[i], in.Types[i]); return err })
			})
			b.Run("impl=upstream", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := UpstreamJSON(in.DocJSON[i], in.PatchJSON[i], in.Structs[i]); return err })
			})
		})
	}
}

// BenchmarkApplyYAML: strategic merge patch, YAML in and YAML out. kmerge
// keeps comments (kmerge: yaml.v3's encoder; kmerge-splice: the
// byte-preserving writer kmerge apply uses, on the corpus's YAML, which is
// yaml.v3's; kmerge-splice-hand: the same on the hand-written style of
// corpus.HandWritten, which it must splice; kmerge-splice-commented: the
// same with a comment on every value's line, the edited ones included),
// kyaml's merge2 as kustomize
// calls it, upstream through YAML-JSON conversion, and the floor: yaml.v3
// parsing and emitting the document alone.
func BenchmarkApplyYAML(b *testing.B) {
	for _, kind := range corpus.Kinds {
		b.Run("kind="+kind, func(b *testing.B) {
			in := inputs(b, kind)
			b.Run("impl=kmerge", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := KmergeYAML(in.DocYAML[i], in.PatchYAML[i], in.Types[i]); return err })
			})
			b.Run("impl=kmerge-splice", func(b *testing.B) {
				run(b, in, func(i int) error {
					_, err := KmergeYAMLPreserving(in.DocYAML[i], in.PatchYAML[i], in.Types[i])
					return err
				})
			})
			b.Run("impl=kmerge-splice-hand", func(b *testing.B) {
				run(b, in, func(i int) error {
					_, err := KmergeYAMLPreserving(in.DocHandYAML[i], in.PatchYAML[i], in.Types[i])
					return err
				})
			})
			b.Run("impl=kmerge-splice-commented", func(b *testing.B) {
				run(b, in, func(i int) error {
					_, err := KmergeYAMLPreserving(in.DocCommentedYAML[i], in.PatchYAML[i], in.Types[i])
					return err
				})
			})
			b.Run("impl=kyaml", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := KyamlYAML(in.DocYAML[i], in.PatchYAML[i], in.Infer[i]); return err })
			})
			b.Run("impl=upstream", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := UpstreamYAML(in.DocYAML[i], in.PatchYAML[i], in.Structs[i]); return err })
			})
			b.Run("impl=yamlv3", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := YAMLv3Floor(in.DocYAML[i]); return err })
			})
		})
	}
}

// BenchmarkRead: YAML text to yaml.Node trees, the parse every YAML apply
// starts with: kmerge's reader against yaml.v3's Decoder, on the corpus's
// YAML (style=program, as yaml.v3 writes it) and its hand-written style
// (corpus.HandWritten). Both give the same trees (TestReadAgrees). And
// kmerge-skim: the reading of a document no patch targets (fastyaml.Skim,
// only the object's identity built).
func BenchmarkRead(b *testing.B) {
	// CRDs in controller-gen's style (corpus.CRDs): long folded
	// descriptions, continuation lines starting with quotes and backticks
	b.Run("kind=CustomResourceDefinition/style=controller-gen", func(b *testing.B) {
		var docs [][]byte
		for _, c := range corpus.CRDs(3) {
			docs = append(docs, c.Text)
		}
		b.Run("impl=kmerge", func(b *testing.B) {
			runDocs(b, docs, func(d []byte) error { _, err := KmergeRead(d); return err })
		})
		b.Run("impl=yamlv3", func(b *testing.B) {
			runDocs(b, docs, func(d []byte) error { _, err := YAMLv3Read(d); return err })
		})
		b.Run("impl=kmerge-skim", func(b *testing.B) {
			runDocs(b, docs, func(d []byte) error { _, err := KmergeSkim(d); return err })
		})
	})
	for _, kind := range corpus.Kinds {
		b.Run("kind="+kind, func(b *testing.B) {
			in := inputs(b, kind)
			for _, style := range []struct {
				name string
				docs [][]byte
			}{{"program", in.DocYAML}, {"hand", in.DocHandYAML}} {
				b.Run("style="+style.name, func(b *testing.B) {
					b.Run("impl=kmerge", func(b *testing.B) {
						runDocs(b, style.docs, func(d []byte) error { _, err := KmergeRead(d); return err })
					})
					b.Run("impl=yamlv3", func(b *testing.B) {
						runDocs(b, style.docs, func(d []byte) error { _, err := YAMLv3Read(d); return err })
					})
					b.Run("impl=kmerge-skim", func(b *testing.B) {
						runDocs(b, style.docs, func(d []byte) error { _, err := KmergeSkim(d); return err })
					})
				})
			}
		})
	}
}

// runDocs times f over every document, one operation for all of them.
func runDocs(b *testing.B, docs [][]byte, f func([]byte) error) {
	b.ReportAllocs()
	n := 0
	for _, d := range docs {
		n += len(d)
	}
	b.SetBytes(int64(n))
	// CPU time, of the process (every thread: the collector's work
	// included) and of the reading thread: on a shared machine, both
	// steadier than the wall clock.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu, thread := cpuTime(), threadTime()
	for b.Loop() {
		for _, d := range docs {
			if err := f(d); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu, thread = cpuTime()-cpu, threadTime()-thread
	perDoc := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N*len(docs)) }
	b.ReportMetric(perDoc(b.Elapsed()), "ns/doc")
	if cpu > 0 && thread > 0 {
		b.ReportMetric(perDoc(cpu), "cpu-ns/doc")
		b.ReportMetric(perDoc(thread), "thread-ns/doc")
	}
}

// EnvSizes are the lengths of the list-scaling benchmark.
var EnvSizes = []int{10, 100, 1000, 10000}

// BenchmarkEnvList: list scaling, JSON to JSON. One container whose env
// has n entries; the patch changes every hundredth and adds one.
func BenchmarkEnvList(b *testing.B) {
	for _, n := range EnvSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			in := inputs(b, fmt.Sprintf("env=%d", n))
			b.Run("impl=kmerge", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := KmergeJSON(in.DocJSON[i], in.PatchJSON[i], in.Types[i]); return err })
			})
			b.Run("impl=upstream", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := UpstreamJSON(in.DocJSON[i], in.PatchJSON[i], in.Structs[i]); return err })
			})
		})
	}
}

// BenchmarkDiff: two-way patch creation (what kubectl diff and kubectl
// apply compute), JSON in and out, from each document and the document
// after its patch: kmerge against upstream's CreateTwoWayMergePatch.
func BenchmarkDiff(b *testing.B) {
	for _, kind := range corpus.Kinds {
		b.Run("kind="+kind, func(b *testing.B) {
			in := inputs(b, kind)
			b.Run("impl=kmerge", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := KmergeDiff(in.DocJSON[i], in.Modified[i], in.Types[i]); return err })
			})
			b.Run("impl=upstream", func(b *testing.B) {
				run(b, in, func(i int) error { _, err := UpstreamDiff(in.DocJSON[i], in.Modified[i], in.Structs[i]); return err })
			})
		})
	}
}

// BenchmarkValidate: what checking results against their schema
// (--validate, strict by default) costs kmerge apply: the apply of
// BenchmarkApplyYAML's kmerge-splice (read, patch, write keeping the text)
// with and without validation, and validation alone on the patched
// documents, parsed beforehand.
func BenchmarkValidate(b *testing.B) {
	for _, kind := range corpus.Kinds {
		b.Run("kind="+kind, func(b *testing.B) {
			in := inputs(b, kind)
			b.Run("impl=kmerge-splice", func(b *testing.B) {
				run(b, in, func(i int) error {
					_, err := KmergeYAMLPreserving(in.DocYAML[i], in.PatchYAML[i], in.Types[i])
					return err
				})
			})
			b.Run("impl=kmerge-splice-validate", func(b *testing.B) {
				run(b, in, func(i int) error {
					_, err := KmergeYAMLValidated(in.DocYAML[i], in.PatchYAML[i], in.Types[i])
					return err
				})
			})
			patched := make([]*yaml.Node, len(in.Modified))
			for i, m := range in.Modified {
				st, err := tree.Read(m, tree.Options{})
				if err != nil {
					b.Fatal(err)
				}
				patched[i] = st.Docs[0]
			}
			b.Run("impl=validate", func(b *testing.B) {
				run(b, in, func(i int) error { return KmergeValidate(patched[i]) })
			})
		})
	}
}
