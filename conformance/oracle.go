// Package conformance compares kmerge with k8s.io/apimachinery's strategic
// merge patch, the implementation every Kubernetes API server runs. It is a
// separate module so that k8s.io/apimachinery never becomes a dependency of
// kmerge itself.
package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
	"github.com/kmerge/kmerge/conformance/upstreamsrc"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// Subject is one schema both implementations patch with: upstream's lookup
// and kmerge's type for it.
type Subject struct {
	Name     string
	Upstream strategicpatch.LookupPatchMeta
	Kmerge   *schema.Type
	// Shape is the type the generator follows (the struct flavour, which
	// names every field).
	Shape *schema.Type
	// Root fields every generated document carries (apiVersion, kind).
	Root map[string]any
}

// Subjects returns the schemas the differential tests use: upstream's test
// type mergeItem in its three flavours (the OpenAPI ones from upstream's
// test fixtures, in k8s.io/apimachinery's folder of the module cache), and
// the built-in Deployment, Service and Pod against upstream's struct-tag
// lookup of k8s.io/api.
func Subjects() ([]Subject, error) {
	mod, err := upstreamsrc.FindModule()
	if err != nil {
		return nil, err
	}
	flavors, err := mod.Flavors("mergeItem")
	if err != nil {
		return nil, err
	}
	shape := schema.FromGoType(reflect.TypeFor[upstreamcases.MergeItem]())
	var subjects []Subject
	for _, fl := range flavors {
		kt := shape
		if fl.File != "" {
			if kt, err = definition(fl.File, "mergeItem"); err != nil {
				return nil, err
			}
		}
		subjects = append(subjects, Subject{Name: "mergeItem/" + fl.Name, Upstream: fl.Meta, Kmerge: kt, Shape: shape})
	}
	builtin := schema.Builtin()
	for _, k := range []struct {
		apiVersion, kind string
		obj              any
	}{
		{"apps/v1", "Deployment", appsv1.Deployment{}},
		{"v1", "Service", corev1.Service{}},
		{"v1", "Pod", corev1.Pod{}},
	} {
		meta, err := strategicpatch.NewPatchMetaFromStruct(k.obj)
		if err != nil {
			return nil, err
		}
		t := builtin.Kind(k.apiVersion, k.kind)
		if t == nil {
			return nil, fmt.Errorf("built-in schema lacks %s %s", k.apiVersion, k.kind)
		}
		subjects = append(subjects, Subject{Name: k.kind, Upstream: meta, Kmerge: t, Shape: t,
			Root: map[string]any{"apiVersion": k.apiVersion, "kind": k.kind}})
	}
	return subjects, nil
}

func definition(file, name string) (*schema.Type, error) {
	s, err := schema.LoadFile(file)
	if err != nil {
		return nil, err
	}
	return s.Definition(name)
}

// Outcome is what one implementation did with a case.
type Outcome struct {
	JSON  string // canonical result when accepted
	Err   string // error message when rejected
	Panic string // upstream only: the panic value
	Kerr  *smp.Error
}

// Rejected reports whether the patch was refused (an error or a panic).
func (o Outcome) Rejected() bool { return o.Err != "" || o.Panic != "" }

// Upstream applies the patch with k8s.io/apimachinery.
func Upstream(s Subject, doc, patch []byte) (out Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = Outcome{Panic: fmt.Sprint(r)}
		}
	}()
	res, err := strategicpatch.StrategicMergePatchUsingLookupPatchMeta(doc, patch, s.Upstream)
	if err != nil {
		return Outcome{Err: err.Error()}
	}
	c, err := upstreamcases.Canonical(res, true)
	if err != nil {
		return Outcome{Err: "canonical: " + err.Error()}
	}
	return Outcome{JSON: c}
}

// Kmerge applies the patch with kmerge.
func Kmerge(s Subject, doc, patch []byte, order smp.ListOrder) Outcome {
	d, err := tree.Read(doc, tree.Options{File: "doc.json"})
	if err != nil {
		return Outcome{Err: err.Error()}
	}
	p, err := tree.Read(patch, tree.Options{File: "patch.json"})
	if err != nil {
		return Outcome{Err: err.Error()}
	}
	res, err := smp.Apply(d.Docs[0], p.Docs[0], s.Kmerge, smp.Options{ListOrder: order})
	if err != nil {
		o := Outcome{Err: err.Error()}
		o.Kerr, _ = err.(*smp.Error)
		return o
	}
	b, err := tree.MarshalJSON(res)
	if err != nil {
		return Outcome{Err: "marshal: " + err.Error()}
	}
	c, err := upstreamcases.Canonical(b, false)
	if err != nil {
		return Outcome{Err: "canonical: " + err.Error()}
	}
	return Outcome{JSON: c}
}

// SortedLists returns canonical JSON with every list sorted, to compare
// results "up to list order".
func SortedLists(canonical string) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(canonical))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return canonical
	}
	b, _ := json.Marshal(sortLists(v))
	return string(b)
}

func sortLists(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = sortLists(e)
		}
	case []any:
		keys := make([]string, len(x))
		for i, e := range x {
			x[i] = sortLists(e)
			b, _ := json.Marshal(x[i])
			keys[i] = string(b)
		}
		idx := make([]int, len(x))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
		out := make([]any, len(x))
		for i, j := range idx {
			out[i] = x[j]
		}
		return out
	}
	return v
}

// RandomOutcome reports whether upstream's result for the patch depends on
// Go map order: an object with both <f> and $deleteFromPrimitiveList/<f>
// and no $setElementOrder/<f>.
func RandomOutcome(patch any) bool {
	switch x := patch.(type) {
	case map[string]any:
		for k := range x {
			f, ok := strings.CutPrefix(k, "$deleteFromPrimitiveList/")
			if !ok {
				continue
			}
			if _, has := x[f]; has {
				if _, ordered := x["$setElementOrder/"+f]; !ordered {
					return true
				}
			}
		}
		for _, e := range x {
			if RandomOutcome(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if RandomOutcome(e) {
				return true
			}
		}
	}
	return false
}
