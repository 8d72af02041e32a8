package conformance

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/ssa"
)

// schemaDiff compares two server-side apply schemas type by type from a
// root: what the engine's merge, field sets and validation depend on
// (scalar types, map and list relationships, fields, list keys, the
// defaults of key fields, unknown fields allowed or not). Unions are
// not compared: structured-merge-diff v6 applies no union rules, and the
// defaults of fields that key no list are never read.
type schemaDiff struct {
	a, b  *smdschema.Schema
	seen  map[[2]string]bool
	diffs []string
}

func (d *schemaDiff) typeName(r smdschema.TypeRef) string {
	if r.NamedType != nil {
		return *r.NamedType
	}
	return ""
}

func (d *schemaDiff) compare(path string, ra, rb smdschema.TypeRef) {
	na, nb := d.typeName(ra), d.typeName(rb)
	if na != "" && nb != "" && ra.ElementRelationship == nil && rb.ElementRelationship == nil {
		key := [2]string{na, nb}
		if d.seen[key] {
			return
		}
		d.seen[key] = true
	}
	aa, oka := d.a.Resolve(ra)
	ab, okb := d.b.Resolve(rb)
	if !oka || !okb {
		d.diffs = append(d.diffs, fmt.Sprintf("%s: resolves %v/%v", path, oka, okb))
		return
	}
	if (aa.Scalar == nil) != (ab.Scalar == nil) || aa.Scalar != nil && *aa.Scalar != *ab.Scalar {
		d.diffs = append(d.diffs, fmt.Sprintf("%s: scalar %v, want %v", path, str(aa.Scalar), str(ab.Scalar)))
	}
	if (aa.List == nil) != (ab.List == nil) {
		d.diffs = append(d.diffs, fmt.Sprintf("%s: list %v, want %v", path, aa.List != nil, ab.List != nil))
	} else if aa.List != nil {
		la, lb := aa.List, ab.List
		if la.ElementRelationship != lb.ElementRelationship || !reflect.DeepEqual(la.Keys, lb.Keys) {
			d.diffs = append(d.diffs, fmt.Sprintf("%s: list %s %v, want %s %v", path, la.ElementRelationship, la.Keys, lb.ElementRelationship, lb.Keys))
		} else if len(la.Keys) > 0 {
			ea, _ := d.a.Resolve(la.ElementType)
			eb, _ := d.b.Resolve(lb.ElementType)
			if ea.Map != nil && eb.Map != nil {
				for _, k := range la.Keys {
					fa, _ := ea.Map.FindField(k)
					fb, _ := eb.Map.FindField(k)
					if (fa.Default == nil) != (fb.Default == nil) || fa.Default != nil &&
						!value.Equals(value.NewValueInterface(fa.Default), value.NewValueInterface(fb.Default)) {
						d.diffs = append(d.diffs, fmt.Sprintf("%s[]: default of key %s %#v, want %#v", path, k, fa.Default, fb.Default))
					}
				}
			}
		}
		d.compare(path+"[]", la.ElementType, lb.ElementType)
	}
	if (aa.Map == nil) != (ab.Map == nil) {
		d.diffs = append(d.diffs, fmt.Sprintf("%s: map %v, want %v", path, aa.Map != nil, ab.Map != nil))
		return
	}
	if aa.Map == nil {
		return
	}
	ma, mb := aa.Map, ab.Map
	rel := func(r smdschema.ElementRelationship) smdschema.ElementRelationship {
		if r == "" {
			return smdschema.Separable
		}
		return r
	}
	if rel(ma.ElementRelationship) != rel(mb.ElementRelationship) {
		d.diffs = append(d.diffs, fmt.Sprintf("%s: map %s, want %s", path, rel(ma.ElementRelationship), rel(mb.ElementRelationship)))
	}
	names := map[string]bool{}
	for _, f := range ma.Fields {
		names[f.Name] = true
	}
	for _, f := range mb.Fields {
		names[f.Name] = true
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		fa, oka := ma.FindField(n)
		fb, okb := mb.FindField(n)
		if !oka || !okb {
			d.diffs = append(d.diffs, fmt.Sprintf("%s.%s: field %v, want %v", path, n, oka, okb))
			continue
		}
		d.compare(path+"."+n, fa.Type, fb.Type)
	}
	emptyA, emptyB := ma.ElementType == (smdschema.TypeRef{}), mb.ElementType == (smdschema.TypeRef{})
	if emptyA != emptyB {
		d.diffs = append(d.diffs, fmt.Sprintf("%s: other fields allowed %v, want %v", path, !emptyA, !emptyB))
	} else if !emptyA {
		d.compare(path+".*", ma.ElementType, mb.ElementType)
	}
}

func str(s *smdschema.Scalar) string {
	if s == nil {
		return "none"
	}
	return string(*s)
}

// TestSSABuiltinSchema compares the server-side apply schema kmerge makes
// of every built-in kind (ssa.Engine.KindSchema, from its generated
// table) with client-go's, which API servers type the same kinds with.
func TestSSABuiltinSchema(t *testing.T) {
	want, err := BuiltinSMDSchema()
	if err != nil {
		t.Fatal(err)
	}
	e := ssa.New(nil)
	kinds, skipped := 0, 0
	for _, gvk := range schema.Builtin().Kinds() {
		kt := schema.Builtin().Kind(gvk.APIVersion(), gvk.Kind)
		if _, ok := want.FindNamedType(kt.Name); !ok {
			// lists of objects, and kinds an API server does not store
			// (reviews, options, Scale), which are never applied
			if !strings.HasSuffix(gvk.Kind, "List") {
				skipped++
			}
			continue
		}
		got, ref, err := e.KindSchema(gvk.APIVersion(), gvk.Kind)
		if err != nil {
			t.Fatal(err)
		}
		d := &schemaDiff{a: got, b: want, seen: map[[2]string]bool{}}
		name := kt.Name
		d.compare(gvk.APIVersion()+" "+gvk.Kind, ref, smdschema.TypeRef{NamedType: &name})
		for _, s := range d.diffs {
			t.Error(s)
		}
		if len(d.diffs) > 0 && os.Getenv("KMERGE_SSA_ALL") == "" {
			t.Fatalf("%s: %d differences (KMERGE_SSA_ALL=1 shows every kind's)", gvk, len(d.diffs))
		}
		kinds++
	}
	if kinds < 140 || skipped > 40 {
		t.Fatalf("only %d kinds compared (%d not in client-go's schema)", kinds, skipped)
	}
	t.Logf("%d kinds compared (%d that are not stored are not in client-go's schema)", kinds, skipped)
}
