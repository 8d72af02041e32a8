// Package gotypes describes Go types the way encoding/json and upstream's
// struct-tag patch lookup see them: JSON field names, embedded structs
// promoted, patch tags, and the shape (pointer, slice, map, struct, scalar)
// that decides how a list field is looked up.
//
// The reflection loader of package schema and the generator of the built-in
// table (hack/schemagen) both produce these descriptions; the built-in table
// is their text form (WriteText, ReadText).
package gotypes

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
)

// Kind is the shape of a Go type.
type Kind uint8

// The shapes.
const (
	Scalar    Kind = iota // string, number, bool, or a type that marshals itself to one
	Struct                // fields
	Slice                 // []T or [N]T
	Ptr                   // *T
	Map                   // map[string]T
	Interface             // interface{}: anything
	Opaque                // marshals itself and has no JSON-visible fields (runtime.RawExtension)
)

// Type describes a Go type.
type Type struct {
	Kind   Kind
	Name   string // definition name of named struct types, "" otherwise
	Scalar string // Scalar: "string", "integer", "number", "boolean" or "int-or-string"
	Format string // Scalar: detail such as int32, date-time, quantity, byte; Opaque: fieldsV1
	Elem   *Type  // Slice, Ptr, Map
	Fields []Field
	// Atomic: a Struct that server-side apply treats as one value
	// (+structType=atomic), owned and replaced whole.
	Atomic bool
}

// Field is a JSON-visible field of a struct.
type Field struct {
	Name        string
	Type        *Type
	Strategy    string // patchStrategy tag as written
	MergeKey    string // patchMergeKey tag as written
	Recommended string // recommendedPatchMergeKey tag as written
	ListType    string // server-side apply list type: atomic, set or map
	MapKeys     string // server-side apply list map keys, comma separated
	// MapType is "atomic" for a map field server-side apply treats as one
	// value (+mapType=atomic), "" otherwise.
	MapType string
	// Default is the field's default value as JSON (no spaces), where
	// server-side apply uses it: for the key fields of list items, an
	// item that leaves a key field out is keyed by its default.
	Default string
}

// OpenAPIName returns the definition name Kubernetes' OpenAPI documents use
// for a Go type: the package path with its domain reversed, then the type
// name (k8s.io/api/apps/v1, Deployment → io.k8s.api.apps.v1.Deployment).
func OpenAPIName(pkgPath, name string) string {
	parts := strings.Split(pkgPath, "/")
	if len(parts) > 0 && strings.Contains(parts[0], ".") {
		host := strings.Split(parts[0], ".")
		for i, j := 0, len(host)-1; i < j; i, j = i+1, j-1 {
			host[i], host[j] = host[j], host[i]
		}
		parts[0] = strings.Join(host, ".")
	}
	return strings.ReplaceAll(strings.Join(parts, "."), "-", "_") + "." + name
}

// wellKnown describes the Go types whose JSON form reflection cannot see.
func wellKnown(path string) (Type, bool) {
	switch path {
	case "k8s.io/apimachinery/pkg/util/intstr.IntOrString":
		// its integer is an int32
		return Type{Kind: Scalar, Scalar: "int-or-string", Format: "int32"}, true
	case "k8s.io/apimachinery/pkg/api/resource.Quantity":
		return Type{Kind: Scalar, Scalar: "int-or-string", Format: "quantity"}, true
	case "k8s.io/apimachinery/pkg/apis/meta/v1.Time", "time.Time":
		return Type{Kind: Scalar, Scalar: "string", Format: "date-time"}, true
	case "k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":
		// RFC 3339 with exactly six digits of fractional seconds
		return Type{Kind: Scalar, Scalar: "string", Format: "date-time-micro"}, true
	case "k8s.io/apimachinery/pkg/apis/meta/v1.Duration":
		return Type{Kind: Scalar, Scalar: "string", Format: "duration"}, true
	case "time.Duration":
		return Type{Kind: Scalar, Scalar: "integer", Format: "int64"}, true
	case "k8s.io/apimachinery/pkg/runtime.RawExtension", "k8s.io/apimachinery/pkg/runtime.Unknown":
		return Type{Kind: Opaque}, true
	case "k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":
		// server-side apply types it apart from RawExtension
		return Type{Kind: Opaque, Format: "fieldsV1"}, true
	case "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON":
		return Type{Kind: Interface}, true
	}
	return Type{}, false
}

// Reflector describes Go types. It remembers what it described, so
// recursive types give recursive descriptions and one Go type one *Type.
type Reflector struct {
	seen   map[reflect.Type]*Type
	nameOf func(reflect.Type) string
}

// NewReflector returns a Reflector that names struct types with nameOf,
// or with OpenAPIName when nameOf is nil.
func NewReflector(nameOf func(reflect.Type) string) *Reflector {
	return &Reflector{seen: map[reflect.Type]*Type{}, nameOf: nameOf}
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

func (r *Reflector) name(t reflect.Type) string {
	if t.Name() == "" || t.PkgPath() == "" {
		return ""
	}
	if r.nameOf != nil {
		return r.nameOf(t)
	}
	return OpenAPIName(t.PkgPath(), t.Name())
}

// Describe returns the description of t.
func (r *Reflector) Describe(t reflect.Type) *Type {
	if g, ok := r.seen[t]; ok {
		return g
	}
	g := &Type{}
	r.seen[t] = g
	if t.Name() != "" {
		if wk, ok := wellKnown(t.PkgPath() + "." + t.Name()); ok {
			*g = wk
			g.Name = r.name(t)
			return g
		}
	}
	if t.Kind() == reflect.Pointer {
		g.Kind, g.Elem = Ptr, r.Describe(t.Elem())
		return g
	}
	marshals := t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) ||
		t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)
	switch k := t.Kind(); {
	case marshals && k == reflect.Struct:
		// It chooses its own JSON form; a string is the common case.
		g.Kind, g.Scalar = Scalar, "string"
	case k == reflect.Struct:
		g.Kind, g.Name = Struct, r.name(t)
		g.Fields = r.structFields(t)
	case k == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		g.Kind, g.Scalar, g.Format = Scalar, "string", "byte"
	case k == reflect.Slice || k == reflect.Array:
		g.Kind, g.Elem = Slice, r.Describe(t.Elem())
	case k == reflect.Map:
		g.Kind, g.Elem = Map, r.Describe(t.Elem())
	case k == reflect.String:
		g.Kind, g.Scalar = Scalar, "string"
	case k == reflect.Bool:
		g.Kind, g.Scalar = Scalar, "boolean"
	case k >= reflect.Int && k <= reflect.Uint64:
		g.Kind, g.Scalar, g.Format = Scalar, "integer", "int64"
		switch k {
		case reflect.Int32, reflect.Int16, reflect.Int8, reflect.Uint16, reflect.Uint8:
			g.Format = "int32"
		}
	case k == reflect.Float32:
		g.Kind, g.Scalar, g.Format = Scalar, "number", "float"
	case k == reflect.Float64:
		g.Kind, g.Scalar, g.Format = Scalar, "number", "double"
	default:
		g.Kind = Interface
	}
	return g
}

// structFields lists the fields encoding/json encodes for t: exported
// fields named by their json tag, "-" skipped, the fields of untagged
// embedded structs promoted. Among fields with one name the shallowest
// wins, then a tagged one; two equally good ones cancel each other out.
func (r *Reflector) structFields(t reflect.Type) []Field {
	type cand struct {
		f      Field
		depth  int
		tagged bool
		index  []int
	}
	var cands []cand
	var walk func(t reflect.Type, depth int, index []int, visiting map[reflect.Type]bool)
	walk = func(t reflect.Type, depth int, index []int, visiting map[reflect.Type]bool) {
		if visiting[t] {
			return
		}
		visiting[t] = true
		defer delete(visiting, t)
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			idx := append(append([]int(nil), index...), i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if sf.Anonymous {
				et := sf.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if !sf.IsExported() && et.Kind() != reflect.Struct {
					continue
				}
				if name == "" && et.Kind() == reflect.Struct {
					walk(et, depth+1, idx, visiting)
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tagged := name != ""
			if name == "" {
				name = sf.Name
			}
			cands = append(cands, cand{
				f: Field{
					Name:        name,
					Type:        r.Describe(sf.Type),
					Strategy:    sf.Tag.Get("patchStrategy"),
					MergeKey:    sf.Tag.Get("patchMergeKey"),
					Recommended: sf.Tag.Get("recommendedPatchMergeKey"),
				},
				depth: depth, tagged: tagged, index: idx,
			})
		}
	}
	walk(t, 0, nil, map[reflect.Type]bool{})

	groups := map[string][]cand{}
	var names []string
	for _, c := range cands {
		if _, ok := groups[c.f.Name]; !ok {
			names = append(names, c.f.Name)
		}
		groups[c.f.Name] = append(groups[c.f.Name], c)
	}
	var keep []cand
	for _, name := range names {
		g := groups[name]
		sort.SliceStable(g, func(i, j int) bool {
			if g[i].depth != g[j].depth {
				return g[i].depth < g[j].depth
			}
			return g[i].tagged && !g[j].tagged
		})
		if len(g) > 1 && g[0].depth == g[1].depth && g[0].tagged == g[1].tagged {
			continue
		}
		keep = append(keep, g[0])
	}
	// encoding/json orders fields by their index sequence
	sort.SliceStable(keep, func(i, j int) bool { return lessIndex(keep[i].index, keep[j].index) })
	out := make([]Field, len(keep))
	for i, c := range keep {
		out[i] = c.f
	}
	return out
}

func lessIndex(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}
