package schema

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// crd builds types from the structural schema of a CustomResourceDefinition.
// Upstream has no strategic merge patch for custom resources (the API server
// refuses it), so these semantics are kmerge's own, chosen to match what
// server-side apply does with the same schema:
//
//   - x-kubernetes-list-type: map with x-kubernetes-list-map-keys merges a
//     list by those keys; set merges a list of scalars; atomic (the default)
//     replaces it;
//   - x-kubernetes-map-type: atomic replaces an object as a whole;
//   - x-kubernetes-preserve-unknown-fields allows fields the schema does not
//     name, patched without metadata;
//   - maps (additionalProperties) merge value by value;
//   - x-kubernetes-patch-strategy and x-kubernetes-patch-merge-key, when a
//     schema has them anyway, win over the list extensions.
type crd struct {
	file string
}

func loadCRD(s *Schema, root *yaml.Node, file string) error {
	spec := tree.MapGet(root, "spec")
	group := scalar(tree.MapGet(spec, "group"))
	namesNode := tree.MapGet(spec, "names")
	kind := scalar(tree.MapGet(namesNode, "kind"))
	if group == "" || kind == "" {
		return schemaErr(file, root, "CustomResourceDefinition without spec.group or spec.names.kind")
	}
	names := KindNames{
		Plural:   strings.ToLower(scalar(tree.MapGet(namesNode, "plural"))),
		Singular: strings.ToLower(scalar(tree.MapGet(namesNode, "singular"))),
	}
	if names.Plural == "" {
		names.Plural = GuessPlural(strings.ToLower(kind))
	}
	if names.Singular == "" {
		names.Singular = strings.ToLower(kind)
	}
	for _, sn := range seqItems(tree.MapGet(namesNode, "shortNames")) {
		names.ShortNames = append(names.ShortNames, strings.ToLower(sn.Value))
	}
	l := &crd{file: file}
	shared := tree.MapGet(tree.MapGet(spec, "validation"), "openAPIV3Schema") // v1beta1
	// apiextensions.k8s.io/v1beta1 makes the schema optional: a version
	// without one holds any fields (the API server keeps unknown fields
	// of such a resource), a free-form kind (Any: maps merge, lists are
	// replaced, nothing is refused); apiextensions.k8s.io/v1 requires it
	optional := scalar(tree.MapGet(root, "apiVersion")) == "apiextensions.k8s.io/v1beta1"
	versions := seqItems(tree.MapGet(spec, "versions"))
	if len(versions) == 0 {
		if v := scalar(tree.MapGet(spec, "version")); v != "" && (shared != nil || optional) {
			name := reverseGroup(group) + "." + v + "." + kind
			t := l.root(shared)
			t.Name = name
			s.defs[name] = t
			s.kinds[GroupVersionKind{group, v, kind}] = t
			s.names[GroupVersionKind{group, v, kind}] = names
			if tree.MapGet(tree.MapGet(spec, "subresources"), "status") != nil {
				s.markStatus(GroupVersionKind{group, v, kind})
			}
			return nil
		}
		return schemaErr(file, spec, "CustomResourceDefinition without versions")
	}
	for _, v := range versions {
		if served := tree.MapGet(v, "served"); served != nil && !tree.BoolValue(served) {
			continue
		}
		ver := scalar(tree.MapGet(v, "name"))
		sch := tree.MapGet(tree.MapGet(v, "schema"), "openAPIV3Schema")
		if sch == nil {
			sch = shared
		}
		if ver == "" || sch == nil && !optional {
			return schemaErr(file, v, "version %q of %s has no openAPIV3Schema", ver, kind)
		}
		name := reverseGroup(group) + "." + ver + "." + kind
		t := l.root(sch)
		t.Name = name
		s.defs[name] = t
		gvk := GroupVersionKind{Group: group, Version: ver, Kind: kind}
		if _, ok := s.kinds[gvk]; !ok {
			s.kinds[gvk] = t
			s.names[gvk] = names
			sub := tree.MapGet(v, "subresources")
			if sub == nil {
				sub = tree.MapGet(spec, "subresources") // v1beta1: for every version
			}
			if tree.MapGet(sub, "status") != nil {
				s.markStatus(gvk)
			}
		}
	}
	return nil
}

func reverseGroup(group string) string {
	return strings.Join(reverse(strings.Split(group, ".")), ".")
}

func reverse(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// root returns the type of a CRD's top-level schema, never nil.
func (l *crd) root(n *yaml.Node) *Type {
	if t := l.typeOf(n); t != nil {
		return t
	}
	return &Type{Kind: Any, Source: l.file}
}

func (l *crd) typeOf(n *yaml.Node) *Type {
	kind, format := schemaKind(n)
	preserve := tree.BoolValue(tree.MapGet(n, "x-kubernetes-preserve-unknown-fields")) ||
		tree.BoolValue(tree.MapGet(n, "x-kubernetes-embedded-resource"))
	t := &Type{Kind: kind, Format: format, Source: l.file}
	t.atomic = scalar(tree.MapGet(n, "x-kubernetes-map-type")) == "atomic"
	switch kind {
	case Object:
		var fields []*Field
		mapEntries(tree.MapGet(n, "properties"), func(name string, p *yaml.Node) {
			fields = append(fields, l.field(name, p))
		})
		t.setFields(fields)
		t.open, t.unknownFields = preserve, preserve
	case Map:
		ap := tree.MapGet(n, "additionalProperties")
		if ap == nil || ap.Kind != yaml.MappingNode {
			if preserve || tree.BoolValue(ap) {
				return nil
			}
			t.Kind, t.open = Object, false // no fields allowed
			t.setFields(nil)
			return t
		}
		t.Elem = l.typeOf(ap)
		t.openMap = true
	case List:
		if it := tree.MapGet(n, "items"); it != nil && it.Kind == yaml.MappingNode {
			t.Elem = l.typeOf(it)
		}
		t.lookupErr = "unable to find api field \"%KEY%\": the schema says a list is here"
	case Any:
		return nil
	default:
		t.lookupErr = "unable to find api field \"%KEY%\": the schema says a " + kind.String() + " is here"
	}
	return t
}

func (l *crd) field(name string, p *yaml.Node) *Field {
	meta, listType, mapKeys := extMeta(p)
	f := &Field{Name: name, Type: l.typeOf(p), Meta: meta, ListType: listType, ListMapKeys: mapKeys,
		MapType: scalar(tree.MapGet(p, "x-kubernetes-map-type")), Default: tree.MapGet(p, "default")}
	hasPatchExt := tree.MapGet(p, "x-kubernetes-patch-strategy") != nil || tree.MapGet(p, "x-kubernetes-patch-merge-key") != nil
	if !hasPatchExt && scalar(tree.MapGet(p, "x-kubernetes-map-type")) == "atomic" {
		f.Meta.Strategy = StrategyReplace
	}
	switch {
	case f.Type == nil:
	case f.Type.Kind == List:
		f.elem = f.Type.Elem
	default:
		f.elemErr = "the schema says " + name + " is a " + f.Type.Kind.String() + ", not a list"
	}
	return f
}

// markStatus notes that the kind has a status subresource.
func (s *Schema) markStatus(gvk GroupVersionKind) {
	if s.status == nil {
		s.status = map[GroupVersionKind]bool{}
	}
	s.status[gvk] = true
}
