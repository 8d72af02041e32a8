package schema

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/tree"
)

// LoadFile reads a schema document from a file, a regular file or a pipe,
// under tree.DefaultLimits' byte limit (a device, such as a link to
// /dev/zero, is refused: resource.NotRegularError); see Load.
func LoadFile(path string) (*Schema, error) {
	data, err := readfile.Given(path, nil)
	if err != nil {
		return nil, err
	}
	return Load(data, path)
}

// Load reads schema documents, YAML or JSON:
//
//   - an OpenAPI v2 document ("swagger": "2.0", with "definitions"), as
//     kubectl reads /openapi/v2, or its definitions alone, as a
//     kustomization's openapi: file holds them;
//   - an OpenAPI v3 document ("openapi": "3...", with "components.schemas"),
//     as kubectl reads /openapi/v3/...;
//   - CustomResourceDefinitions (apiextensions.k8s.io/v1 or v1beta1), one or
//     several in a stream, or a List of them.
//
// Definitions that carry x-kubernetes-group-version-kind (OpenAPI) and every
// served version of a CRD become kinds. Patch metadata comes from
// x-kubernetes-patch-strategy and x-kubernetes-patch-merge-key; OpenAPI
// documents are looked up exactly as upstream's PatchMetaFromOpenAPI (v2) and
// PatchMetaFromOpenAPIV3 (v3) do. CRDs have no patch metadata upstream; kmerge
// merges their lists by x-kubernetes-list-type and x-kubernetes-list-map-keys
// (see docs/schema.md).
func Load(data []byte, file string) (*Schema, error) {
	st, err := tree.Read(data, tree.Options{File: file})
	if err != nil {
		return nil, err
	}
	s := newSchema(file)
	found := false
	for _, doc := range st.Docs {
		root := tree.Root(doc)
		if root == nil {
			continue
		}
		if err := loadDoc(s, root, file); err != nil {
			return nil, err
		}
		found = true
	}
	if !found {
		return nil, &tree.SyntaxError{Pos: tree.Position{File: file}, Msg: "empty schema document"}
	}
	return s, nil
}

// LoadNode reads one schema document, as Load reads each document of a
// stream, from its root n (a node read by package tree): a caller that has
// the document as a node already (an object among others: package krm's
// CustomResourceDefinitions among a ResourceList's items) gets the errors
// at n's lines and columns, in file, rather than at those of a rendering.
// The schema holds no node of n.
func LoadNode(n *yaml.Node, file string) (*Schema, error) {
	s := newSchema(file)
	if err := loadDoc(s, n, file); err != nil {
		return nil, err
	}
	return s, nil
}

// loadDoc adds the types of the schema document whose root is root to s.
func loadDoc(s *Schema, root *yaml.Node, file string) error {
	if root.Kind != yaml.MappingNode {
		return schemaErr(file, root, "a schema document must be a mapping")
	}
	switch {
	case tree.MapGet(root, "swagger") != nil || tree.MapGet(root, "openapi") == nil && tree.MapGet(root, "kind") == nil && tree.MapGet(root, "definitions") != nil:
		// (kustomize's openapi: files are v2 documents of
		// definitions alone, without "swagger")
		return loadOpenAPIv2(s, root, file)
	case tree.MapGet(root, "openapi") != nil:
		return loadOpenAPIv3(s, root, file)
	case scalar(tree.MapGet(root, "kind")) == "CustomResourceDefinition":
		return loadCRD(s, root, file)
	case scalar(tree.MapGet(root, "kind")) == "List" || scalar(tree.MapGet(root, "kind")) == "CustomResourceDefinitionList":
		for _, item := range seqItems(tree.MapGet(root, "items")) {
			if scalar(tree.MapGet(item, "kind")) != "CustomResourceDefinition" {
				return schemaErr(file, item, "a List given as a schema may hold only CustomResourceDefinitions")
			}
			if err := loadCRD(s, item, file); err != nil {
				return err
			}
		}
		return nil
	}
	return schemaErr(file, root, "not a schema document: expected an OpenAPI v2 or v3 document or a CustomResourceDefinition")
}

func schemaErr(file string, n *yaml.Node, format string, args ...any) error {
	return &tree.SyntaxError{Pos: tree.Position{File: file, Line: n.Line, Column: n.Column}, Msg: fmt.Sprintf(format, args...)}
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

func seqItems(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// mapEntries calls fn for each entry of a mapping, in order.
func mapEntries(n *yaml.Node, fn func(key string, v *yaml.Node)) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		fn(n.Content[i].Value, n.Content[i+1])
	}
}

// extMeta reads x-kubernetes-patch-strategy and x-kubernetes-patch-merge-key
// from a property, and the server-side apply list extensions.
func extMeta(p *yaml.Node) (Meta, string, []string) {
	var m Meta
	if v := tree.MapGet(p, "x-kubernetes-patch-strategy"); v != nil {
		if v.Kind != yaml.ScalarNode || tree.KindOf(v) != tree.String {
			m.err = "x-kubernetes-patch-strategy is not a string"
		} else {
			m = parseStrategy(v.Value)
		}
	}
	if v := tree.MapGet(p, "x-kubernetes-patch-merge-key"); v != nil {
		if v.Kind != yaml.ScalarNode || tree.KindOf(v) != tree.String {
			m.err = "x-kubernetes-patch-merge-key is not a string"
		} else {
			m.MergeKey = splitKeys(v.Value)
		}
	}
	if v := tree.MapGet(p, "x-kubernetes-recommended-patch-merge-key"); v != nil {
		m.RecommendedKeys = splitKeys(scalar(v))
	}
	var mapKeys []string
	for _, k := range seqItems(tree.MapGet(p, "x-kubernetes-list-map-keys")) {
		mapKeys = append(mapKeys, k.Value)
	}
	listType := scalar(tree.MapGet(p, "x-kubernetes-list-type"))
	// Without patch extensions, a list server-side apply merges (a list-map
	// or a set) merges here too: this is how custom resources described by
	// a cluster's OpenAPI document, which carry no patch extensions, get
	// their lists merged by key. Upstream has no strategic merge patch for
	// them; built-in kinds come from the built-in table, which wins.
	if tree.MapGet(p, "x-kubernetes-patch-strategy") == nil && tree.MapGet(p, "x-kubernetes-patch-merge-key") == nil {
		switch listType {
		case "map":
			m.Strategy, m.MergeKey = StrategyMerge, mapKeys
		case "set":
			m.Strategy = StrategyMerge
		}
	}
	m.RecommendedKeys = recommended(m.MergeKey, m.RecommendedKeys)
	return m, listType, mapKeys
}

// recommended returns the recommended keys with the merge key first, as
// spec/smp-patch-merge-key-directive.md requires ("the default merge key must
// be the first one"): a list that lacks it or has it elsewhere is fixed
// rather than refused, so that third-party schemas still load.
func recommended(mergeKey, rec []string) []string {
	if len(rec) == 0 || len(mergeKey) == 0 {
		return rec
	}
	out := append([]string(nil), mergeKey...)
	for _, k := range rec {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func addGVKs(s *Schema, def *yaml.Node, t *Type) {
	for _, g := range seqItems(tree.MapGet(def, "x-kubernetes-group-version-kind")) {
		gvk := GroupVersionKind{
			Group:   scalar(tree.MapGet(g, "group")),
			Version: scalar(tree.MapGet(g, "version")),
			Kind:    scalar(tree.MapGet(g, "kind")),
		}
		if gvk.Kind != "" {
			if _, ok := s.kinds[gvk]; !ok {
				s.kinds[gvk] = t
			}
		}
	}
}

// schemaKind reads the JSON kind a schema declares.
func schemaKind(n *yaml.Node) (Kind, string) {
	format := scalar(tree.MapGet(n, "format"))
	if b := tree.MapGet(n, "x-kubernetes-int-or-string"); b != nil && tree.BoolValue(b) {
		return IntOrString, format
	}
	typ := tree.MapGet(n, "type")
	if typ != nil && typ.Kind == yaml.SequenceNode && len(typ.Content) > 0 {
		typ = typ.Content[0]
	}
	switch scalar(typ) {
	case "object":
		if hasProperties(n) {
			return Object, format
		}
		return Map, format
	case "array":
		return List, format
	case "string":
		if format == "int-or-string" { // how Kubernetes' OpenAPI v2 documents describe IntOrString
			return IntOrString, format
		}
		return String, format
	case "integer":
		return Integer, format
	case "number":
		return Number, format
	case "boolean":
		return Boolean, format
	}
	if hasProperties(n) {
		return Object, format
	}
	return Any, format
}

// allowsUnknown reports whether an object schema lets values hold fields
// its properties do not name: x-kubernetes-preserve-unknown-fields, or
// additionalProperties (true or a schema) beside the properties. Without
// them an object is closed, as Kubernetes' strict field validation treats
// every schema (JSON Schema's default would be open).
func allowsUnknown(n *yaml.Node) bool {
	if tree.BoolValue(tree.MapGet(n, "x-kubernetes-preserve-unknown-fields")) {
		return true
	}
	ap := tree.MapGet(n, "additionalProperties")
	return ap != nil && (ap.Kind == yaml.MappingNode || tree.BoolValue(ap))
}

func hasProperties(n *yaml.Node) bool {
	p := tree.MapGet(n, "properties")
	return p != nil && p.Kind == yaml.MappingNode
}

// ---- OpenAPI v2 ----

// v2 builds types with the semantics of kube-openapi's proto model as
// upstream's PatchMetaFromOpenAPI visits it: $refs are followed, a schema
// with properties is a kind, an object without properties a map, a schema
// with neither type nor properties is arbitrary (nil: no metadata below).
type v2 struct {
	s      *Schema
	file   string
	defs   map[string]*yaml.Node
	byNode map[*yaml.Node]*Type
	isNil  map[*yaml.Node]bool
}

func loadOpenAPIv2(s *Schema, root *yaml.Node, file string) error {
	l := &v2{s: s, file: file, defs: map[string]*yaml.Node{}, byNode: map[*yaml.Node]*Type{}, isNil: map[*yaml.Node]bool{}}
	defs := tree.MapGet(root, "definitions")
	mapEntries(defs, func(name string, d *yaml.Node) { l.defs[name] = d })
	var err error
	mapEntries(defs, func(name string, d *yaml.Node) {
		if err != nil {
			return
		}
		var t *Type
		t, err = l.typeOf(d)
		if t != nil {
			if t.Name == "" {
				t.Name = name
			}
			s.defs[name] = t
			addGVKs(s, d, t)
		}
	})
	return err
}

func (l *v2) ref(n *yaml.Node) (*yaml.Node, bool, error) {
	r := tree.MapGet(n, "$ref")
	if r == nil {
		return n, false, nil
	}
	name, ok := strings.CutPrefix(r.Value, "#/definitions/")
	if !ok {
		return nil, true, schemaErr(l.file, r, "unsupported $ref %q: only #/definitions/ references are read", r.Value)
	}
	d, ok := l.defs[name]
	if !ok {
		return nil, true, schemaErr(l.file, r, "$ref to unknown definition %q", name)
	}
	return d, true, nil
}

// typeOf returns the type of a schema node, following $refs.
func (l *v2) typeOf(n *yaml.Node) (*Type, error) {
	for hops := 0; ; hops++ {
		d, isRef, err := l.ref(n)
		if err != nil {
			return nil, err
		}
		if !isRef {
			break
		}
		if hops > 100 {
			return nil, schemaErr(l.file, n, "$ref loop")
		}
		n = d
	}
	if l.isNil[n] {
		return nil, nil
	}
	if t, ok := l.byNode[n]; ok {
		return t, nil
	}
	kind, format := schemaKind(n)
	if tree.MapGet(n, "type") == nil && !hasProperties(n) {
		l.isNil[n] = true // arbitrary
		return nil, nil
	}
	t := &Type{Kind: kind, Format: format, Source: l.file}
	l.byNode[n] = t
	switch kind {
	case Object:
		var fields []*Field
		var err error
		mapEntries(tree.MapGet(n, "properties"), func(name string, p *yaml.Node) {
			if err != nil {
				return
			}
			var f *Field
			f, err = l.field(name, p)
			fields = append(fields, f)
		})
		if err != nil {
			return nil, err
		}
		t.setFields(fields)
		t.unknownFields = allowsUnknown(n)
	case Map:
		t.lookupErr = "expected kind, but got map"
		if ap := tree.MapGet(n, "additionalProperties"); ap != nil && ap.Kind == yaml.MappingNode {
			e, err := l.typeOf(ap)
			if err != nil {
				return nil, err
			}
			t.Elem = e
		}
	case List:
		t.lookupErr = "expected kind, but got slice"
		if it := tree.MapGet(n, "items"); it != nil && it.Kind == yaml.MappingNode {
			e, err := l.typeOf(it)
			if err != nil {
				return nil, err
			}
			t.Elem = e
		}
	default:
		t.lookupErr = "expected kind, but got primitive"
	}
	return t, nil
}

func (l *v2) field(name string, p *yaml.Node) (*Field, error) {
	meta, listType, mapKeys := extMeta(p)
	f := &Field{Name: name, Meta: meta, ListType: listType, ListMapKeys: mapKeys}
	var err error
	if f.Type, err = l.typeOf(p); err != nil {
		return nil, err
	}
	f.elem, f.elemMeta, f.elemErr, err = l.listLookup(name, p, 0)
	return f, err
}

// listLookup is what upstream's slice lookup finds for a property: the
// items of an inline array, the definition a $ref names (whatever it is),
// and for an inline object the same lookup again on its field of that name.
func (l *v2) listLookup(name string, p *yaml.Node, depth int) (*Type, *Meta, string, error) {
	if _, isRef, err := l.ref(p); isRef || err != nil {
		t, err := l.typeOf(p)
		return t, nil, "", err
	}
	if tree.MapGet(p, "type") == nil && !hasProperties(p) {
		return nil, nil, "", nil // arbitrary: no metadata, no error
	}
	switch kind, _ := schemaKind(p); kind {
	case List:
		it := tree.MapGet(p, "items")
		if it == nil || it.Kind != yaml.MappingNode {
			return nil, nil, "", nil
		}
		t, err := l.typeOf(it)
		return t, nil, "", err
	case Map:
		return nil, nil, "expected slice, but got map", nil
	case Object:
		inner := tree.MapGet(tree.MapGet(p, "properties"), name)
		if inner == nil {
			return nil, nil, fmt.Sprintf("unable to find api field %q in an inline object", name), nil
		}
		if depth > 100 {
			return nil, nil, "inline objects nested too deep", nil
		}
		m, _, _ := extMeta(inner)
		t, _, msg, err := l.listLookup(name, inner, depth+1)
		return t, &m, msg, err
	default:
		return nil, nil, "expected slice, but got primitive", nil
	}
}

// ---- OpenAPI v3 ----

// v3 builds types with the semantics of upstream's PatchMetaFromOpenAPIV3:
// a property is resolved by taking the first allOf entry, then one $ref; a
// list lookup takes the items (resolved) or else the property itself; any
// lookup below a schema without properties fails.
type v3 struct {
	s      *Schema
	file   string
	defs   map[string]*yaml.Node
	byNode map[*yaml.Node]*Type
}

func loadOpenAPIv3(s *Schema, root *yaml.Node, file string) error {
	l := &v3{s: s, file: file, defs: map[string]*yaml.Node{}, byNode: map[*yaml.Node]*Type{}}
	defs := tree.MapGet(tree.MapGet(root, "components"), "schemas")
	mapEntries(defs, func(name string, d *yaml.Node) { l.defs[name] = d })
	mapEntries(defs, func(name string, d *yaml.Node) {
		t := l.typeOf(d)
		if t.Name == "" {
			t.Name = name
		}
		s.defs[name] = t
		addGVKs(s, d, t)
	})
	return nil
}

// resolve takes the first allOf entry, then follows one $ref.
func (l *v3) resolve(n *yaml.Node) (*yaml.Node, string) {
	if all := seqItems(tree.MapGet(n, "allOf")); len(all) > 0 {
		n = all[0]
	}
	if r := tree.MapGet(n, "$ref"); r != nil {
		d, ok := l.defs[strings.TrimPrefix(r.Value, "#/components/schemas/")]
		if !ok {
			return nil, fmt.Sprintf("unable to resolve %s in OpenAPI V3", r.Value)
		}
		return d, ""
	}
	return n, ""
}

func (l *v3) typeOf(n *yaml.Node) *Type {
	if t, ok := l.byNode[n]; ok {
		return t
	}
	kind, format := schemaKind(n)
	t := &Type{Kind: kind, Format: format, Source: l.file}
	l.byNode[n] = t
	if !hasProperties(n) || kind != Object {
		t.lookupErr = "unable to find api field \"%KEY%\""
		if kind == Object {
			t.Kind = Map
		}
	}
	switch t.Kind {
	case Object:
		var fields []*Field
		mapEntries(tree.MapGet(n, "properties"), func(name string, p *yaml.Node) {
			fields = append(fields, l.field(name, p))
		})
		t.setFields(fields)
		t.unknownFields = allowsUnknown(n)
	case Map:
		if ap := tree.MapGet(n, "additionalProperties"); ap != nil && ap.Kind == yaml.MappingNode {
			if r, msg := l.resolve(ap); msg == "" {
				t.Elem = l.typeOf(r)
			}
		}
	case List:
		if it := tree.MapGet(n, "items"); it != nil && it.Kind == yaml.MappingNode {
			if r, msg := l.resolve(it); msg == "" {
				t.Elem = l.typeOf(r)
			}
		}
	}
	return t
}

func (l *v3) field(name string, p *yaml.Node) *Field {
	meta, listType, mapKeys := extMeta(p)
	f := &Field{Name: name, Meta: meta, ListType: listType, ListMapKeys: mapKeys}
	if r, msg := l.resolve(p); msg != "" {
		f.typeErr = msg
	} else {
		f.Type = l.typeOf(r)
	}
	target := p
	if it := tree.MapGet(p, "items"); it != nil {
		if it.Kind != yaml.MappingNode {
			f.elemErr = "items must be one schema"
			return f
		}
		target = it
	}
	er, msg := l.resolve(target)
	if msg != "" {
		f.elemErr = msg
		return f
	}
	f.elem = l.typeOf(er)
	return f
}
