package bench

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kmerge/kmerge/ssa"
)

// SSASizes are the numbers of Deployments BenchmarkServerSideApply
// applies in one operation: the cost per object should not grow with
// them (each object is applied on its own; what grows is the schema's
// conversion, made once).
var SSASizes = []int{100, 1000, 3000}

// BenchmarkServerSideApply: server-side apply of n Deployments to their
// live objects, each with the managedFields of three managers, by
// kmerge's engine and by apimachinery's field manager, one after the
// other in the same run. Reported per object: the wall time (ns/object)
// and the CPU time of the process (cpu-ns/object: the collector's work
// included, steadier on a shared machine).
func BenchmarkServerSideApply(b *testing.B) {
	for _, n := range SSASizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			in, err := PrepareSSA(n)
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			b.Run("impl=kmerge", func(b *testing.B) {
				e := ssa.New(nil)
				runObjects(b, n, func(i int) error { _, err := KmergeSSA(e, in.Live[i], in.Config[i]); return err })
			})
			b.Run("impl=apimachinery", func(b *testing.B) {
				fm, err := NewUpstreamFieldManager()
				if err != nil {
					b.Fatal(err)
				}
				runObjects(b, n, func(i int) error { _, err := UpstreamSSA(fm, in.LiveObj[i], in.ConfigObj[i]); return err })
			})
		})
	}
}

// runObjects times f over n objects, one operation for all of them.
func runObjects(b *testing.B, n int, f func(i int) error) {
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		for i := 0; i < n; i++ {
			if err := f(i); err != nil {
				b.Fatal(err)
			}
		}
	}
	cpu = cpuTime() - cpu
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N*n) }
	b.ReportMetric(per(b.Elapsed()), "ns/object")
	if cpu > 0 {
		b.ReportMetric(per(cpu), "cpu-ns/object")
	}
}

// TestServerSideApplyAgrees: the two sides of the benchmark store the same
// objects, managedFields included (times aside), so that the benchmark
// compares equal work.
func TestServerSideApplyAgrees(t *testing.T) {
	in, err := PrepareSSA(40)
	if err != nil {
		t.Fatal(err)
	}
	e := ssa.New(nil)
	fm, err := NewUpstreamFieldManager()
	if err != nil {
		t.Fatal(err)
	}
	for i := range in.Live {
		ours, err := KmergeSSA(e, in.Live[i], in.Config[i])
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := UpstreamSSA(fm, in.LiveObj[i], in.ConfigObj[i])
		if err != nil {
			t.Fatal(err)
		}
		o, err := unstructuredOf(ours)
		if err != nil {
			t.Fatal(err)
		}
		if same, x, y := sameButTimes(o.Object, theirs.(*unstructured.Unstructured).Object); !same {
			t.Fatalf("object %d:\nkmerge:       %s\napimachinery: %s", i, x, y)
		}
		if mf := o.GetManagedFields(); len(mf) != 3 {
			t.Fatalf("object %d: %d managedFields entries, want 3 (argocd, hpa, kubectl-rollout)", i, len(mf))
		}
	}
}
