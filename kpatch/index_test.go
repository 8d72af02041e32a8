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

// TestEngineIndexes: strategic, merge and JSON patches give the same
// objects, warnings, errors and conflicts whether the objects they edit
// are indexed once for all the object's patches of one engine in a row
// (engines) or for each patch (Options.scanOnly), on random patch lists
// that mix them, and field patches, on objects of many keys (a ConfigMap's
// data, the spec and the top level of custom resources without a schema,
// whose strategic patches are merge patches): keys set, added, deleted,
// the whole map replaced or deleted, the whole object replaced by a JSON
// patch (whose new content kpatch copies into the object's node: the index
// of that node must notice), patches that fail (a JSON patch removing a key
// that is not there) and leave the index as it was.
func TestEngineIndexes(t *testing.T) {
	const n = 40
	var doc strings.Builder
	doc.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n")
	for i := range n {
		fmt.Fprintf(&doc, "  k%d: v\n", i)
	}
	doc.WriteString("---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n")
	for i := range n {
		fmt.Fprintf(&doc, "  k%d: v\n", i)
	}
	doc.WriteString("---\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n")
	for i := range n {
		fmt.Fprintf(&doc, "k%d: v\n", i)
	}
	r := rand.New(rand.NewPCG(25, 21))
	key := func() string { return fmt.Sprintf("k%d", r.IntN(n+20)) }
	two := func() (string, string) { // two keys, not the same
		a, b := r.IntN(n+20), r.IntN(n+19)
		if b >= a {
			b++
		}
		return fmt.Sprintf("k%d", a), fmt.Sprintf("k%d", b)
	}
	for round := range 80 {
		var p strings.Builder
		for range 1 + r.IntN(50) {
			// the object's map: a ConfigMap's data, a Widget's spec, or a
			// Gadget's top level
			target, field := "configmap.cm", "data"
			switch r.IntN(4) {
			case 0:
				target, field = "widget.w", "spec"
			case 1:
				target, field = "gadget.g", ""
			}
			ptr := func(k string) string { return strings.TrimSuffix("/"+field, "/") + "/" + k }
			dot := func(k string) string { return strings.TrimPrefix(field+"."+k, ".") }
			wrap := func(body string) string {
				if field == "" {
					return "{" + body + "}"
				}
				return "{" + field + ": {" + body + "}}"
			}
			switch r.IntN(14) {
			case 0:
				fmt.Fprintf(&p, "- target: %s\n  patch: {%s: f}\n", target, dot(key()))
			case 1:
				fmt.Fprintf(&p, "- target: %s\n  type: json\n  patch: [{op: add, path: %s, value: j}]\n", target, ptr(key()))
			case 2:
				fmt.Fprintf(&p, "- target: %s\n  type: json\n  patch: [{op: remove, path: %s}]\n", target, ptr(key()))
			case 3:
				fmt.Fprintf(&p, "- target: %s\n  type: json\n  patch: [{op: replace, path: %s, value: r}, {op: add, path: %s, value: a}]\n", target, ptr(key()), ptr(key()))
			case 4:
				fmt.Fprintf(&p, "- target: %s\n  type: json\n  patch: [{op: move, from: %s, path: %s}]\n", target, ptr(key()), ptr(key()))
			case 5:
				switch r.IntN(8) {
				case 0:
					if field != "" {
						fmt.Fprintf(&p, "- target: %s\n  type: json\n  patch: [{op: replace, path: /%s, value: {k1: x, k2: y}}]\n", target, field)
					}
				case 1: // the whole object, with as many keys
					var keys strings.Builder
					for i := range n {
						fmt.Fprintf(&keys, "k%d: w, ", i)
					}
					keys.WriteString("z: z")
					obj := map[string]string{"configmap.cm": "apiVersion: v1, kind: ConfigMap, metadata: {name: cm}, ",
						"widget.w": "apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, ",
						"gadget.g": "apiVersion: example.com/v1, kind: Gadget, metadata: {name: g}, "}[target]
					body := obj + field + ": {" + keys.String() + "}"
					if field == "" {
						body = obj + keys.String()
					}
					fmt.Fprintf(&p, "- target: %s\n  type: json\n  patch: [{op: replace, path: \"\", value: {%s}}]\n", target, body)
				}
			case 6, 7:
				a, b := two()
				fmt.Fprintf(&p, "- target: %s\n  type: merge\n  patch: %s\n", target, wrap(a+": m, "+b+": null"))
			case 8:
				if r.IntN(4) == 0 && field != "" {
					fmt.Fprintf(&p, "- target: %s\n  type: merge\n  patch: {%s: null}\n", target, field)
				}
			case 9:
				if r.IntN(4) == 0 && field != "" {
					fmt.Fprintf(&p, "- target: %s\n  type: strategic\n  patch: {%s: {$patch: replace, k3: s}}\n", target, field)
				}
			default:
				a, b := two()
				fmt.Fprintf(&p, "- target: %s\n  type: strategic\n  patch: %s\n", target, wrap(fmt.Sprintf("%s: s%d, %s: null", a, r.IntN(3), b)))
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
			t.Fatalf("round %d, patches:\n%s\nwith the indexes:\n%s\nper patch:\n%s", round, p.String(), got, want)
		}
	}
}
