package kpatch

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
)

// TestObjectIndex: field patches give the same objects, warnings, trace and
// conflicts whether they look keys and items up through the object's index
// or by scanning (Options.scanOnly), on random field patches that set,
// delete, rename and insert in a mapping and a list large enough to be
// indexed: keys set and deleted again, items renamed (their key field set,
// which the index of the list is by), items inserted and deleted, selectors
// on two fields.
func TestObjectIndex(t *testing.T) {
	const n = 3 * indexThreshold
	var doc strings.Builder
	doc.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  labels:\n")
	for i := range n {
		fmt.Fprintf(&doc, "    k%d: v\n", i)
	}
	doc.WriteString("spec:\n  template:\n    spec:\n      containers:\n")
	for i := range n {
		fmt.Fprintf(&doc, "      - name: c%d\n        image: i%d\n", i, i%3)
	}
	r := rand.New(rand.NewPCG(4, 5))
	key := func() string { return fmt.Sprintf("k%d", r.IntN(n+10)) }
	item := func() string { return fmt.Sprintf("c%d", r.IntN(n+10)) }
	for round := range 100 {
		var p strings.Builder
		for range 1 + r.IntN(30) {
			fmt.Fprintf(&p, "[deployment.d]\n")
			for range 1 + r.IntN(3) {
				switch r.IntN(13) {
				case 0:
					fmt.Fprintf(&p, "metadata.labels.%s: !delete\n", key())
				case 1, 2:
					fmt.Fprintf(&p, "metadata.labels.%s: w%d\n", key(), r.IntN(3))
				case 3:
					fmt.Fprintf(&p, "containers[name=%s].name: %s\n", item(), item())
				case 4:
					fmt.Fprintf(&p, "containers[name=%s]: !delete\n", item())
				case 5:
					fmt.Fprintf(&p, "containers[-].name: %s\n", item())
				case 10: // items without a name, items deleted not by name: the
					// index by name must see that they moved the others
					fmt.Fprintf(&p, "containers[+name=%s].image: i%d\n", item(), r.IntN(3))
				case 11:
					fmt.Fprintf(&p, "containers[-].image: i%d\n", r.IntN(3))
				case 12:
					fmt.Fprintf(&p, "containers[%d]: !delete\n", r.IntN(n))
				case 6:
					fmt.Fprintf(&p, "containers[name=%s,image=i%d].image: i%d\n", item(), r.IntN(3), r.IntN(3))
				case 7:
					fmt.Fprintf(&p, "containers[image=i%d].workingDir: /w%d\n", r.IntN(3), r.IntN(3))
				default:
					fmt.Fprintf(&p, "containers[name=%s].image: j%d\n", item(), r.IntN(3))
				}
			}
			p.WriteString("\n")
		}
		patches, err := syntax.ParseKpatch([]byte(p.String()), "p.kpatch")
		if err != nil {
			t.Fatal(err)
		}
		run := func(scanOnly bool) string {
			set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(doc.String()), resource.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var trace bytes.Buffer
			rec := &conflict.Recorder{}
			res, err := Apply(context.Background(), set, patches, Options{Trace: &trace, Records: rec.Add, KeepGoing: true, scanOnly: scanOnly})
			if err != nil {
				return "error: " + err.Error()
			}
			var b strings.Builder
			if err := set.Sources[0].Stream.WriteYAML(&b); err != nil {
				t.Fatal(err)
			}
			for _, w := range res.Warnings {
				b.WriteString(w.String() + "\n")
			}
			for _, e := range res.Errors {
				b.WriteString(e.Error() + "\n")
			}
			for _, c := range rec.Conflicts(res.Recorded) {
				b.WriteString(c.String() + "\n")
			}
			b.Write(trace.Bytes())
			return b.String()
		}
		if got, want := run(false), run(true); got != want {
			t.Fatalf("round %d, patches:\n%s\nwith the index:\n%s\nscanning:\n%s", round, p.String(), got, want)
		}
	}
}

// TestStrategicIndex: strategic patches give the same objects, warnings,
// errors and conflicts whether the lists they merge are indexed once for
// all the object's strategic patches in a row or for each patch
// (Options.scanOnly), on random patch lists that mix them with field,
// merge and JSON patches on the same list (which the index kept from one
// strategic patch to the next must not outlive): items renamed, inserted,
// deleted and replaced between strategic patches that merge, add and delete
// items by merge key.
func TestStrategicIndex(t *testing.T) {
	const n = 40
	var doc strings.Builder
	doc.WriteString("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n")
	for i := range n {
		fmt.Fprintf(&doc, "  - name: c%d\n    image: i\n", i)
	}
	r := rand.New(rand.NewPCG(8, 13))
	item := func() string { return fmt.Sprintf("c%d", r.IntN(n+10)) }
	for round := range 60 {
		var p strings.Builder
		for range 1 + r.IntN(40) {
			switch r.IntN(10) {
			case 0:
				fmt.Fprintf(&p, "- target: pod.p\n  patch: {\"spec.containers[name=%s].name\": %s}\n", item(), item())
			case 1:
				fmt.Fprintf(&p, "- target: pod.p\n  patch: {\"spec.containers[+name=%s].image\": k}\n", item())
			case 2:
				fmt.Fprintf(&p, "- target: pod.p\n  type: json\n  patch: [{op: replace, path: /spec/containers/%d/name, value: %s}]\n", r.IntN(4), item())
			case 3:
				fmt.Fprintf(&p, "- target: pod.p\n  type: merge\n  patch: {metadata: {labels: {a: b%d}}}\n", r.IntN(3))
			case 4, 5:
				fmt.Fprintf(&p, "- target: pod.p\n  type: strategic\n  patch: {spec: {containers: [{name: %s, $patch: delete}]}}\n", item())
			default:
				fmt.Fprintf(&p, "- target: pod.p\n  type: strategic\n  patch: {spec: {containers: [{name: %s, image: j%d}, {name: %s, image: j}]}}\n", item(), r.IntN(3), item())
			}
		}
		patches, err := syntax.ParseYAML([]byte(p.String()), "p.yaml")
		if err != nil {
			t.Fatal(err)
		}
		run := func(scanOnly bool) string {
			set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(doc.String()), resource.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rec := &conflict.Recorder{}
			res, err := Apply(context.Background(), set, patches, Options{Records: rec.Add, KeepGoing: true, scanOnly: scanOnly})
			if err != nil {
				return "error: " + err.Error()
			}
			var b strings.Builder
			if err := set.Sources[0].Stream.WriteYAML(&b); err != nil {
				t.Fatal(err)
			}
			for _, w := range res.Warnings {
				b.WriteString(w.String() + "\n")
			}
			for _, e := range res.Errors {
				b.WriteString(e.Error() + "\n")
			}
			for _, c := range rec.Conflicts(res.Recorded) {
				b.WriteString(c.String() + "\n")
			}
			return b.String()
		}
		if got, want := run(false), run(true); got != want {
			t.Fatalf("round %d, patches:\n%s\nwith the index:\n%s\nper patch:\n%s", round, p.String(), got, want)
		}
	}
}
