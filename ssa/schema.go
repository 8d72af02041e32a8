package ssa

import (
	"fmt"
	"strconv"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/kmerge/kmerge/schema"
)

// The names of the two types every converted schema holds: any value,
// owned whole (atomic), and any value whose maps are owned field by field
// (deduced), as Kubernetes names them.
const (
	untypedAtomic  = "__untyped_atomic_"
	untypedDeduced = "__untyped_deduced_"
)

// objectMetaName is the definition of an object's metadata, which a custom
// resource's schema does not describe: the API server types it as for
// every other kind.
const objectMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

// kindType is the server-side apply schema of one kind.
type kindType struct {
	schema *smdschema.Schema
	ref    smdschema.TypeRef
}

// converter turns kmerge's types into structured-merge-diff's: one
// definition per object or map type (named as the type is, when the name
// is free; cycles go through them), lists and scalars inline. What
// server-side apply needs is read from the types and their fields, as
// Kubernetes converts its OpenAPI schemas (kube-openapi's schemaconv,
// which client-go's schema of the built-in kinds comes from too):
//
//   - a list's relationship from its field's list type: map (associative,
//     keyed by the list map keys), set (associative, no keys), atomic;
//     without one, a field whose patch strategy is merge is associative,
//     keyed by its patch merge key if it has one, and any other list is
//     atomic;
//   - an object or map is owned field by field unless it or its field is
//     atomic (Type.Atomic, Field.MapType);
//   - an object that allows unknown fields holds any values besides its
//     fields (x-kubernetes-preserve-unknown-fields), and so does every
//     object below it in a custom resource's schema, and any object that
//     declares no fields; a type nothing is known of holds any value, its maps field
//     by field, and so does a custom resource's int-or-string;
//   - scalars: strings (of no format or format byte; others are any
//     scalar), numbers (integers too), booleans; int-or-string is any
//     scalar; a built-in value that marshals itself (RawExtension) is any
//     value, owned whole, but a FieldsV1, a map of any values;
//   - fields keep their defaults, which key a list item that leaves out
//     a key field.
type converter struct {
	meta  *schema.Type // the built-in ObjectMeta, for custom resources
	defs  []smdschema.TypeDef
	names map[*schema.Type]string
	taken map[string]bool
}

func newConverter() *converter {
	c := &converter{names: map[*schema.Type]string{}, taken: map[string]bool{untypedAtomic: true, untypedDeduced: true}}
	if t, err := schema.Builtin().Definition(objectMetaName); err == nil {
		c.meta = t
	}
	atomic, deduced := untypedAtomic, untypedDeduced
	anyOf := func(m smdschema.ElementRelationship, elem string) smdschema.Atom {
		scalar := smdschema.Untyped
		return smdschema.Atom{
			Scalar: &scalar,
			List:   &smdschema.List{ElementType: smdschema.TypeRef{NamedType: &atomic}, ElementRelationship: smdschema.Atomic},
			Map:    &smdschema.Map{ElementType: smdschema.TypeRef{NamedType: &elem}, ElementRelationship: m},
		}
	}
	c.defs = append(c.defs,
		smdschema.TypeDef{Name: untypedAtomic, Atom: anyOf(smdschema.Atomic, atomic)},
		smdschema.TypeDef{Name: untypedDeduced, Atom: anyOf(smdschema.Separable, deduced)})
	return c
}

// kind converts the type of a kind.
func (c *converter) kind(t *schema.Type) *kindType {
	ref := c.root(t)
	return &kindType{schema: &smdschema.Schema{Types: c.defs}, ref: ref}
}

// root converts the type of a kind: one not made from a Go type (a custom
// resource) gets the metadata, apiVersion and kind every object has, as
// the API server gives them to it.
func (c *converter) root(t *schema.Type) smdschema.TypeRef {
	if t == nil || t.FromGo() || t.Kind != schema.Object {
		return c.ref(t, nil, 0, false)
	}
	name := c.name(t)
	str := smdschema.String
	preserve := t.AllowsUnknownFields()
	fields := []smdschema.StructField{
		{Name: "apiVersion", Type: smdschema.TypeRef{Inlined: smdschema.Atom{Scalar: &str}}},
		{Name: "kind", Type: smdschema.TypeRef{Inlined: smdschema.Atom{Scalar: &str}}},
		{Name: "metadata", Type: c.ref(c.meta, nil, 1, false)},
	}
	for _, f := range t.Fields() {
		switch f.Name {
		case "apiVersion", "kind", "metadata":
			continue
		}
		fields = append(fields, c.field(f, 1, preserve))
	}
	c.define(name, c.object(t, fields, preserve))
	return smdschema.TypeRef{NamedType: &name}
}

// maxDepth bounds the nesting of inline types (lists of lists): deeper,
// a value is any value.
const maxDepth = 64

// ref returns the reference to the type of a value, f being the field
// holding it (nil for a list's items or a map's values); preserve says
// that an object above it, in the same custom resource schema, preserves
// unknown fields.
func (c *converter) ref(t *schema.Type, f *schema.Field, depth int, preserve bool) smdschema.TypeRef {
	if t == nil || depth > maxDepth {
		return named(untypedDeduced)
	}
	if t.FromGo() || t.Name != "" {
		preserve = false // it does not cross a named definition
	}
	fieldAtomic := f != nil && f.MapType == "atomic"
	switch t.Kind {
	case schema.Object, schema.Map:
		name, done := c.names[t]
		if !done {
			name = c.name(t)
			if t.Kind == schema.Object {
				preserve = preserve || t.AllowsUnknownFields()
				fields := make([]smdschema.StructField, 0, len(t.Fields()))
				for _, sf := range t.Fields() {
					fields = append(fields, c.field(sf, depth+1, preserve))
				}
				c.define(name, c.object(t, fields, preserve))
			} else {
				m := &smdschema.Map{}
				if t.Atomic() {
					m.ElementRelationship = smdschema.Atomic
				}
				c.define(name, smdschema.Atom{Map: m})
				m.ElementType = c.ref(t.Elem, nil, depth+1, preserve)
			}
		}
		r := named(name)
		switch {
		case fieldAtomic && !t.Atomic():
			atomic := smdschema.Atomic
			r.ElementRelationship = &atomic
		case f != nil && f.MapType == "granular" && t.Atomic():
			separable := smdschema.Separable
			r.ElementRelationship = &separable
		}
		return r
	case schema.List:
		l := &smdschema.List{ElementType: c.ref(t.Elem, nil, depth+1, preserve), ElementRelationship: smdschema.Atomic}
		if f != nil {
			switch {
			case f.ListType == "map":
				l.ElementRelationship, l.Keys = smdschema.Associative, append([]string(nil), f.ListMapKeys...)
			case f.ListType == "set":
				l.ElementRelationship = smdschema.Associative
			case f.ListType == "" && f.Meta.Strategy == schema.StrategyMerge:
				l.ElementRelationship = smdschema.Associative
				if len(f.Meta.MergeKey) > 0 {
					l.Keys = []string{f.Meta.MergeKey[0]}
				}
			}
		}
		return smdschema.TypeRef{Inlined: smdschema.Atom{List: l}}
	case schema.Any:
		switch {
		case t.FromGo() && t.Format == "fieldsV1":
			// client-go's schema makes FieldsV1 a map of any values
			return smdschema.TypeRef{Inlined: smdschema.Atom{Map: &smdschema.Map{ElementType: named(untypedDeduced)}}}
		case t.FromGo():
			// a value that marshals itself (RawExtension) is any value,
			// owned whole
			return named(untypedAtomic)
		}
		return named(untypedDeduced)
	case schema.IntOrString:
		if !t.FromGo() {
			// x-kubernetes-int-or-string has no type: any value
			return named(untypedDeduced)
		}
	}
	return smdschema.TypeRef{Inlined: smdschema.Atom{Scalar: scalarOf(t)}}
}

// object is the atom of an object type with the given fields.
func (c *converter) object(t *schema.Type, fields []smdschema.StructField, preserve bool) smdschema.Atom {
	m := &smdschema.Map{Fields: fields}
	if t.Atomic() {
		m.ElementRelationship = smdschema.Atomic
	}
	if preserve || t.AllowsUnknownFields() || len(fields) == 0 {
		m.ElementType = named(untypedDeduced)
	}
	return smdschema.Atom{Map: m}
}

func (c *converter) field(f *schema.Field, depth int, preserve bool) smdschema.StructField {
	sf := smdschema.StructField{Name: f.Name, Type: c.ref(f.Type, f, depth, preserve)}
	if f.Default != nil {
		if v, err := toValue(f.Default, 0); err == nil {
			sf.Default = v
		}
	}
	return sf
}

// scalarOf is the scalar type of values of t.
func scalarOf(t *schema.Type) *smdschema.Scalar {
	s := smdschema.Untyped
	switch t.Kind {
	case schema.String:
		// strings of other formats (date-time...) are any scalar
		if t.Format == "" || t.Format == "byte" {
			s = smdschema.String
		}
	case schema.Integer, schema.Number:
		s = smdschema.Numeric
	case schema.Boolean:
		s = smdschema.Boolean
	}
	return &s
}

// name reserves the definition name of an object or map type: its own
// when it has one that no other type took, else a made-up one.
func (c *converter) name(t *schema.Type) string {
	name := t.Name
	if name == "" || c.taken[name] {
		name = "__kmerge_" + strconv.Itoa(len(c.names)) + "_" + t.Name
		for c.taken[name] {
			name += "_"
		}
	}
	c.taken[name] = true
	c.names[t] = name
	return name
}

// define adds the definition of a reserved name. A definition is added
// before the types it refers to are converted, so a type that refers to
// itself finds its name taken and refers to it.
func (c *converter) define(name string, a smdschema.Atom) {
	c.defs = append(c.defs, smdschema.TypeDef{Name: name, Atom: a})
}

func named(name string) smdschema.TypeRef { return smdschema.TypeRef{NamedType: &name} }

// String names the kind's type for messages.
func (k *kindType) String() string {
	if k.ref.NamedType != nil {
		return *k.ref.NamedType
	}
	return fmt.Sprintf("%v", k.ref.Inlined)
}
