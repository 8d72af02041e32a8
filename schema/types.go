package schema

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Kind is the shape of a type.
type Kind uint8

// The kinds of types.
const (
	Any         Kind = iota // any value: free-form, no patch metadata below it
	Object                  // named fields
	Map                     // string keys, values of one type (Elem)
	List                    // items of one type (Elem)
	String                  // JSON string
	Integer                 // JSON integer
	Number                  // JSON number
	Boolean                 // JSON boolean
	IntOrString             // an integer or a string (intstr.IntOrString, resource.Quantity)
)

var kindNames = [...]string{"any", "object", "map", "list", "string", "integer", "number", "boolean", "int-or-string"}

// String names the kind: "object", "list", "integer", ...
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Scalar reports whether values of the kind are scalars.
func (k Kind) Scalar() bool { return k >= String }

// Type describes the values at one place of a document. Types are built
// once by a loader and never change; they are safe for concurrent use.
//
// A nil *Type means "nothing is known": every lookup below it succeeds and
// carries no patch metadata (upstream calls this schemaless).
type Type struct {
	Name   string // definition name, "" for an anonymous type
	Kind   Kind
	Format string // finer detail of a scalar: int32, date-time, quantity, byte, ...
	Elem   *Type  // the item type of a List, the value type of a Map; nil if unknown
	Source string // where the type was defined: "built-in", a file name, ...

	fields   []*Field
	index    map[string]*Field
	foldCase bool // field names also match case-insensitively, as encoding/json does

	// lookupErr, when set, is the reason any patch lookup of a field of this
	// type fails. Upstream's schema flavours differ in where they fail
	// (struct tags: below maps and non-structs; OpenAPI v3: below schemas
	// without properties; ...); the loader of each flavour sets it.
	lookupErr string
	// openMap: a Map whose values can be patched like fields (CRD schemas).
	openMap bool
	// open: an Object that also allows fields it does not name, with no
	// metadata (x-kubernetes-preserve-unknown-fields).
	open bool
	// unknownFields: values may hold fields the type does not name
	// (x-kubernetes-preserve-unknown-fields). For CRDs it goes with open;
	// OpenAPI documents set it alone, since upstream's patch lookups in
	// them fail on unknown fields all the same.
	unknownFields bool
	// goJSON: built from a Go type, whose values encoding/json decodes.
	goJSON bool
	// atomic: server-side apply treats a value of this object or map
	// type as one value (+structType=atomic, x-kubernetes-map-type:
	// atomic).
	atomic bool
}

// Atomic reports whether server-side apply treats a value of the type, an
// object or a map, as one value, owned and replaced whole: a built-in
// struct marked +structType=atomic, a CRD schema with
// x-kubernetes-map-type: atomic. A map field can be atomic on its own
// (Field.MapType).
func (t *Type) Atomic() bool { return t != nil && t.atomic }

// String names the type as messages show it: the kind, and the format of
// a scalar after a slash ("integer/int32", "int-or-string/quantity",
// "object", "list"). A nil type, which allows anything, is "any".
func (t *Type) String() string {
	switch {
	case t == nil:
		return "any"
	case t.Format != "" && t.Kind.Scalar():
		return t.Kind.String() + "/" + t.Format
	}
	return t.Kind.String()
}

// ExactField returns the field named exactly name, or nil: the field an
// API server's case-sensitive decoder fills (Field also matches other
// letter cases for Go types, as upstream's patch lookup does).
func (t *Type) ExactField(name string) *Field {
	if t == nil {
		return nil
	}
	return t.index[name]
}

// AllowsUnknownFields reports whether values of an object type may hold
// fields it does not name: x-kubernetes-preserve-unknown-fields (or an
// embedded resource) in a CRD or an OpenAPI document. Built-in kinds and
// Go types never do: an API server's strict field validation refuses
// unknown fields.
func (t *Type) AllowsUnknownFields() bool { return t != nil && (t.open || t.unknownFields) }

// FromGo reports whether the type was built from a Go type (the built-in
// table, FromGoType). Values of such types are decoded by encoding/json and
// the types' own UnmarshalJSON methods, which is stricter than an OpenAPI
// schema: a float is no integer even when whole, and formats (date-time,
// byte, quantity) are parsed.
func (t *Type) FromGo() bool { return t != nil && t.goJSON }

// Field is a named field of an object type with its patch metadata.
type Field struct {
	Name string
	Type *Type // nil: anything
	Meta Meta

	// The server-side apply view of a list field, for information
	// (x-kubernetes-list-type and x-kubernetes-list-map-keys).
	ListType    string   // "atomic", "set", "map", or "" when unknown
	ListMapKeys []string // for ListType "map"
	// MapType is server-side apply's view of an object or map field:
	// "atomic" (x-kubernetes-map-type, +mapType=atomic), "granular", or
	// "" when the schema does not say (granular).
	MapType string
	// Default is the field's default value, nil when it has none; the
	// built-in table holds only the defaults of list items' key fields,
	// which server-side apply keys an item by when it leaves them out.
	// It is shared: do not modify it.
	Default *yaml.Node

	// What a patch lookup of this field as a list yields. Upstream's flavours
	// disagree for fields that are not plain arrays (a pointer to a struct,
	// a $ref, an inline object); the loader fills these in.
	elem     *Type
	elemMeta *Meta // when set, the metadata a list lookup reports instead of Meta
	elemErr  string
	typeErr  string // set when the object lookup of this field fails
}

// Fields returns the fields of an object type in definition order.
func (t *Type) Fields() []*Field {
	if t == nil {
		return nil
	}
	return t.fields
}

// Field returns the field named name, or nil. For types read from Go struct
// tags a case-insensitive match is accepted when there is no exact one, as
// encoding/json does.
func (t *Type) Field(name string) *Field {
	if t == nil {
		return nil
	}
	if f := t.index[name]; f != nil {
		return f
	}
	if t.foldCase {
		for _, f := range t.fields {
			if strings.EqualFold(f.Name, name) {
				return f
			}
		}
	}
	return nil
}

// Strategy is how a patch combines with the value of a field.
type Strategy uint8

// Patch strategies. The zero value is no strategy: objects are merged key by
// key and lists are replaced.
const (
	StrategyNone    Strategy = iota
	StrategyMerge            // lists: merge items (by merge key for objects)
	StrategyReplace          // objects and lists: the patch value replaces the old one
)

// String names the strategy as patchStrategy spells it ("none" for none).
func (s Strategy) String() string {
	switch s {
	case StrategyMerge:
		return "merge"
	case StrategyReplace:
		return "replace"
	}
	return "none"
}

// Meta is the patch metadata of a field.
type Meta struct {
	Strategy   Strategy
	RetainKeys bool     // patchStrategy includes retainKeys
	MergeKey   []string // fields that identify an item of a list of objects; most lists have one
	// RecommendedKeys, when set, starts with MergeKey and adds the fields
	// that identify an item completely (spec/smp-patch-merge-key-directive.md).
	RecommendedKeys []string
	// Raw is the patchStrategy text as written, e.g. "merge,retainKeys".
	Raw string
	// err is set when Raw is not a strategy upstream accepts
	// ("unexpected patch strategy").
	err string
}

// parseStrategy reads a patchStrategy value the way upstream does: a comma
// separated list of at most two strategies, one of which may be retainKeys.
// Names other than merge and replace act as no strategy.
func parseStrategy(raw string) Meta {
	m := Meta{Raw: raw}
	if raw == "" {
		return m
	}
	parts := strings.Split(raw, ",")
	other := ""
	switch len(parts) {
	case 1:
		if parts[0] == "retainKeys" {
			m.RetainKeys = true
		} else {
			other = parts[0]
		}
	case 2:
		switch {
		case parts[0] == "retainKeys":
			m.RetainKeys, other = true, parts[1]
		case parts[1] == "retainKeys":
			m.RetainKeys, other = true, parts[0]
		default:
			m.err = fmt.Sprintf("unexpected patch strategy: %v", parts)
		}
	default:
		m.err = fmt.Sprintf("unexpected patch strategy: %v", parts)
	}
	switch other {
	case "merge":
		m.Strategy = StrategyMerge
	case "replace":
		m.Strategy = StrategyReplace
	}
	return m
}

func splitKeys(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// LookupError reports that the schema cannot say how to patch a field.
type LookupError struct {
	Type  string // the type that was looked into ("" if anonymous)
	Field string
	Msg   string
	// BadStrategy: the field was found but its patch strategy is not one
	// upstream accepts. Creating a patch, upstream ignores other lookup
	// failures where nothing changed, but not this one.
	BadStrategy bool
}

// Error returns the reason the lookup failed.
func (e *LookupError) Error() string { return e.Msg }

// PatchField is the lookup Strategic Merge Patch makes when a key holds an
// object (list false) or an array (list true) in both the document and the
// patch. It returns the type of the value (of its items, for a list) and the
// field's metadata. It fails exactly where upstream's lookup fails for the
// schema flavour the type was loaded from: unknown fields, fields below maps
// and scalars, invalid patch strategies, ...
//
// On a nil type it succeeds with a nil type and no metadata.
func (t *Type) PatchField(key string, list bool) (*Type, Meta, error) {
	if t == nil {
		return nil, Meta{}, nil
	}
	if t.lookupErr != "" {
		return nil, Meta{}, &LookupError{Type: t.Name, Field: key, Msg: strings.ReplaceAll(t.lookupErr, "%KEY%", key)}
	}
	var f *Field
	switch {
	case t.Kind == Map && t.openMap:
		f = &Field{Name: key, Type: t.Elem, elem: elemOf(t.Elem)}
	case t.Kind == Object:
		f = t.Field(key)
		if f == nil && t.open {
			return nil, Meta{}, nil
		}
		if f == nil {
			return nil, Meta{}, &LookupError{Type: t.Name, Field: key, Msg: fmt.Sprintf("unable to find api field %q in %s", key, t.describe())}
		}
	case t.Kind == Any:
		return nil, Meta{}, nil
	default:
		return nil, Meta{}, &LookupError{Type: t.Name, Field: key, Msg: fmt.Sprintf("unable to find api field %q: %s is a %s", key, t.describe(), t.Kind)}
	}
	meta := f.Meta
	if !list {
		if f.typeErr != "" {
			return nil, Meta{}, &LookupError{Type: t.Name, Field: key, Msg: f.typeErr}
		}
		if meta.err != "" {
			return nil, Meta{}, &LookupError{Type: t.Name, Field: key, Msg: meta.err, BadStrategy: true}
		}
		return f.Type, meta, nil
	}
	if f.elemErr != "" {
		return nil, Meta{}, &LookupError{Type: t.Name, Field: key, Msg: f.elemErr}
	}
	if f.elemMeta != nil {
		meta = *f.elemMeta
	}
	if meta.err != "" {
		return nil, Meta{}, &LookupError{Type: t.Name, Field: key, Msg: meta.err, BadStrategy: true}
	}
	return f.elem, meta, nil
}

func elemOf(t *Type) *Type {
	if t != nil && t.Kind == List {
		return t.Elem
	}
	return t
}

func (t *Type) describe() string {
	if t.Name != "" {
		return t.Name
	}
	return "an anonymous " + t.Kind.String()
}

func (t *Type) setFields(fields []*Field) {
	t.index = make(map[string]*Field, len(fields))
	t.fields = t.fields[:0]
	for _, f := range fields {
		if _, dup := t.index[f.Name]; dup {
			continue
		}
		t.index[f.Name] = f
		t.fields = append(t.fields, f)
	}
}

// objectMeta is the definition name of an object's metadata.
const objectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

// serverSetMeta are the fields of an object's metadata that the API server
// populates (the API's documentation calls them read-only, or
// housekeeping): a manifest does not set them.
var serverSetMeta = map[string]bool{"selfLink": true, "uid": true, "resourceVersion": true, "generation": true,
	"creationTimestamp": true, "deletionTimestamp": true, "deletionGracePeriodSeconds": true, "managedFields": true}

// ServerSet reports whether the field name of t is one an API server sets
// rather than a manifest: an object's status (root says that t is the type
// of a kind, not of a value inside one), and the fields of metadata the
// system populates (selfLink, uid, resourceVersion, generation,
// creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds,
// managedFields). Completion leaves them out; a patch may still set them.
func ServerSet(t *Type, name string, root bool) bool {
	if t == nil {
		return false
	}
	return root && name == "status" || t.Name == objectMeta && serverSetMeta[name]
}
