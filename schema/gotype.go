package schema

import (
	"fmt"
	"reflect"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/gotypes"
	"github.com/kmerge/kmerge/tree"
)

// goBuilder turns Go type descriptions into Types with the semantics of
// upstream's PatchMetaFromStruct. Both the reflection loader (FromGoType)
// and the built-in table (generated text) go through it, so the two cannot
// disagree. Types are shared by identity, so recursive Go types give
// recursive Types.
type goBuilder struct {
	source string
	done   map[*gotypes.Type]*Type
}

func newGoBuilder(source string) *goBuilder {
	return &goBuilder{source: source, done: map[*gotypes.Type]*Type{}}
}

func (b *goBuilder) build(g *gotypes.Type) *Type {
	for g.Kind == gotypes.Ptr {
		g = g.Elem
	}
	if t, ok := b.done[g]; ok {
		return t
	}
	t := &Type{Name: g.Name, Source: b.source, goJSON: true}
	b.done[g] = t
	switch g.Kind {
	case gotypes.Scalar:
		t.Kind, t.Format = scalarKind(g.Scalar), g.Format
		t.lookupErr = "merging an object in json but data type is not struct, instead is: " + g.Scalar
	case gotypes.Interface:
		t.Kind = Any
		t.lookupErr = "merging an object in json but data type is not struct, instead is: interface"
	case gotypes.Opaque:
		t.Kind, t.Format = Any, g.Format
		t.lookupErr = fmt.Sprintf("unable to find api field in struct %s for the json field %%KEY%%", shortName(g.Name))
	case gotypes.Slice:
		t.Kind = List
		t.Elem = b.build(g.Elem)
		t.lookupErr = "merging an object in json but data type is not struct, instead is: slice"
	case gotypes.Map:
		t.Kind = Map
		t.Elem = b.build(g.Elem)
		t.lookupErr = "merging an object in json but data type is not struct, instead is: map"
	case gotypes.Struct:
		t.Kind = Object
		t.foldCase = true
		t.atomic = g.Atomic
		fields := make([]*Field, 0, len(g.Fields))
		for _, gf := range g.Fields {
			fields = append(fields, b.field(gf))
		}
		t.setFields(fields)
	}
	return t
}

func scalarKind(word string) Kind {
	for k := String; k <= IntOrString; k++ {
		if k.String() == word {
			return k
		}
	}
	return Any
}

// field computes a field's types. For the list lookup it follows upstream:
// a slice gives its items (a slice of slices is an error), a pointer gives
// what it points to (or that slice's items), anything else is an error.
func (b *goBuilder) field(gf gotypes.Field) *Field {
	f := &Field{
		Name:        gf.Name,
		Type:        b.build(gf.Type),
		Meta:        parseStrategy(gf.Strategy),
		ListType:    gf.ListType,
		ListMapKeys: splitKeys(gf.MapKeys),
		MapType:     gf.MapType,
		Default:     jsonDefault(gf.Default),
	}
	f.Meta.MergeKey = splitKeys(gf.MergeKey)
	f.Meta.RecommendedKeys = recommended(f.Meta.MergeKey, splitKeys(gf.Recommended))
	g := gf.Type
	switch g.Kind {
	case gotypes.Slice:
		if e := g.Elem; e.Kind == gotypes.Slice {
			f.elemErr = "unexpected slice of slice"
		} else {
			f.elem = b.build(e)
		}
	case gotypes.Ptr:
		p := g.Elem
		for p.Kind == gotypes.Ptr {
			p = p.Elem
		}
		if p.Kind == gotypes.Slice {
			p = p.Elem
		}
		f.elem = b.build(p)
	default:
		f.elemErr = "expected slice or array type, but got: struct"
	}
	return f
}

func shortName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// FromGoType returns the type of values of the Go type t as a Kubernetes API
// server sees them: JSON field names from `json` tags (embedded structs
// promoted as encoding/json does), patch metadata from the `patchStrategy`,
// `patchMergeKey` and `recommendedPatchMergeKey` tags. Field names also match
// case-insensitively, as in encoding/json.
//
// Types that marshal themselves are scalars: strings, except the well-known
// Kubernetes ones (IntOrString and Quantity are int-or-string, RawExtension
// is any value). t may be a pointer; a nil t gives nil.
func FromGoType(t reflect.Type) *Type {
	if t == nil {
		return nil
	}
	g := gotypes.NewReflector(nil).Describe(t)
	return newGoBuilder("Go type " + t.String()).build(g)
}

// jsonDefault reads a default written as JSON in the built-in table; nil
// for none (or text that does not read as one value).
func jsonDefault(text string) *yaml.Node {
	if text == "" {
		return nil
	}
	st, err := tree.Read([]byte(text), tree.Options{})
	if err != nil || len(st.Docs) != 1 {
		return nil
	}
	return tree.Root(st.Docs[0])
}
