package ssa

import (
	yaml "go.yaml.in/yaml/v3"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/kmerge/kmerge/tree"
)

// find returns the node of root at p: a field's key node (where a
// message points), an item; nil when root has nothing there. Items are
// found as the engine keys them: by their key fields, a key field an item
// leaves out standing for its default.
func (r *request) find(root *yaml.Node, p smdfieldpath.Path) *yaml.Node {
	n := tree.Deref(root)
	var at *yaml.Node
	tr := r.kt.ref
	for _, pe := range p {
		if n == nil {
			return nil
		}
		atom, _ := r.kt.schema.Resolve(tr)
		switch {
		case pe.FieldName != nil:
			if n.Kind != yaml.MappingNode {
				return nil
			}
			i := tree.MapIndex(n, *pe.FieldName)
			if i < 0 {
				return nil
			}
			at, n = n.Content[i], tree.Deref(n.Content[i+1])
			tr = fieldType(atom.Map, *pe.FieldName)
		case pe.Index != nil:
			if n.Kind != yaml.SequenceNode || *pe.Index >= len(n.Content) {
				return nil
			}
			n = tree.Deref(n.Content[*pe.Index])
			at = n
			tr = elemType(atom.List)
		default:
			if n.Kind != yaml.SequenceNode {
				return nil
			}
			item := r.findItem(n, pe, atom.List)
			if item == nil {
				return nil
			}
			n, at = item, item
			tr = elemType(atom.List)
		}
	}
	return at
}

// findItem finds the item of a list that a key or a set member names.
func (r *request) findItem(seq *yaml.Node, pe smdfieldpath.PathElement, l *smdschema.List) *yaml.Node {
	for _, c := range seq.Content {
		c = tree.Deref(c)
		v, err := toValue(c, 0)
		if err != nil {
			continue
		}
		if pe.Value != nil {
			if value.Equals(*pe.Value, value.NewValueInterface(v)) {
				return c
			}
			continue
		}
		if pe.Key == nil || c.Kind != yaml.MappingNode {
			continue
		}
		m, _ := v.(map[string]any)
		match := true
		for _, f := range *pe.Key {
			got, ok := m[f.Name]
			if !ok && l != nil {
				got, ok = r.keyDefault(l, f.Name)
			}
			if !ok || !value.Equals(f.Value, value.NewValueInterface(got)) {
				match = false
				break
			}
		}
		if match {
			return c
		}
	}
	return nil
}

// keyDefault is the default of a list item's key field.
func (r *request) keyDefault(l *smdschema.List, field string) (any, bool) {
	atom, ok := r.kt.schema.Resolve(l.ElementType)
	if !ok || atom.Map == nil {
		return nil, false
	}
	sf, ok := atom.Map.FindField(field)
	if !ok || sf.Default == nil {
		return nil, false
	}
	return sf.Default, true
}

func fieldType(m *smdschema.Map, name string) smdschema.TypeRef {
	if m == nil {
		return named(untypedDeduced)
	}
	if sf, ok := m.FindField(name); ok {
		return sf.Type
	}
	return m.ElementType
}

func elemType(l *smdschema.List) smdschema.TypeRef {
	if l == nil {
		return named(untypedAtomic)
	}
	return l.ElementType
}
