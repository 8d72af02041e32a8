package ssa

import (
	"context"

	yaml "go.yaml.in/yaml/v3"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/kmerge/kmerge/tree"
)

// ManagedFields reads an object's metadata.managedFields as the API
// server does (an error names the entry's position in file).
func ManagedFields(obj *yaml.Node, file string) ([]*Entry, error) {
	return decodeManaged(tree.Deref(obj), file)
}

// Owners says which of the managers of entries own each field and item
// of obj, a manifest or an object of the same kind: for the node of each
// field's key and each list item, the managers whose fields hold it (or
// the list or map it is part of, when that is owned whole: atomic), in
// the order of entries. Nodes nobody owns are not in the map. obj's
// places are named as the engine names them (items by their keys, their
// defaults where they leave a key field out), so obj need not be the
// object the entries were written for: a manifest shows who owns what it
// sets in the live object.
func (e *Engine) Owners(ctx context.Context, obj *yaml.Node, entries []*Entry) (map[*yaml.Node][]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root := tree.Deref(obj)
	kt, err := e.kindType(scalar(root, "apiVersion"), scalar(root, "kind"))
	if err != nil {
		return nil, err
	}
	w := &ownersWalk{r: &request{kt: kt}, entries: entries, out: map[*yaml.Node][]string{}}
	w.walk(root, kt.ref, nil, false, nil, 0)
	return w.out, nil
}

func scalar(n *yaml.Node, key string) string {
	if v := tree.Deref(tree.MapGet(n, key)); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

type ownersWalk struct {
	r       *request
	entries []*Entry
	out     map[*yaml.Node][]string
}

// owners are the managers that own p.
func (w *ownersWalk) owners(p smdfieldpath.Path) []string {
	var out []string
	for _, en := range w.entries {
		if en.Owns(p) {
			out = append(out, en.Manager)
		}
	}
	return out
}

// walk visits n, the value at p of type tr. inherit says that a value
// above it is owned whole (an atomic list or map): its owners, whole, own
// every place below it.
func (w *ownersWalk) walk(n *yaml.Node, tr smdschema.TypeRef, p smdfieldpath.Path, inherit bool, whole []string, depth int) {
	n = tree.Deref(n)
	if n == nil || depth > maxNesting {
		return
	}
	atom, _ := w.r.kt.schema.Resolve(tr)
	switch {
	case n.Kind == yaml.MappingNode && atom.Map != nil:
		if !inherit && atom.Map.ElementRelationship == smdschema.Atomic {
			inherit, whole = true, w.owners(p)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := tree.Deref(n.Content[i]).Value
			cp := append(p.Copy(), smdfieldpath.PathElement{FieldName: &key})
			owners := whole
			if !inherit {
				owners = w.owners(cp)
			}
			w.note(n.Content[i], owners)
			w.walk(n.Content[i+1], fieldType(atom.Map, key), cp, inherit, whole, depth+1)
		}
	case n.Kind == yaml.SequenceNode && atom.List != nil:
		if !inherit && atom.List.ElementRelationship != smdschema.Associative {
			inherit, whole = true, w.owners(p)
		}
		for i, c := range n.Content {
			c = tree.Deref(c)
			var cp smdfieldpath.Path
			owners := whole
			if inherit {
				cp = append(p.Copy(), smdfieldpath.PathElement{Index: &i})
			} else {
				pe, ok := w.itemElement(c, atom.List)
				if !ok {
					continue
				}
				cp = append(p.Copy(), pe)
				owners = w.owners(cp)
			}
			w.note(c, owners)
			w.walk(c, elemType(atom.List), cp, inherit, whole, depth+1)
		}
	}
}

// itemElement names a list item as the engine does: a set's by its value,
// a keyed list's by its key fields (defaults standing in for those it
// leaves out).
func (w *ownersWalk) itemElement(c *yaml.Node, l *smdschema.List) (smdfieldpath.PathElement, bool) {
	v, err := toValue(c, 0)
	if err != nil {
		return smdfieldpath.PathElement{}, false
	}
	if len(l.Keys) == 0 {
		if c.Kind != yaml.ScalarNode {
			return smdfieldpath.PathElement{}, false
		}
		val := value.NewValueInterface(v)
		return smdfieldpath.PathElement{Value: &val}, true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return smdfieldpath.PathElement{}, false
	}
	var keys value.FieldList
	for _, k := range l.Keys {
		x, ok := m[k]
		if !ok {
			x, ok = w.r.keyDefault(l, k)
		}
		if ok {
			keys = append(keys, value.Field{Name: k, Value: value.NewValueInterface(x)})
		}
	}
	if len(keys) == 0 {
		return smdfieldpath.PathElement{}, false
	}
	keys.Sort()
	return smdfieldpath.PathElement{Key: &keys}, true
}

func (w *ownersWalk) note(n *yaml.Node, owners []string) {
	if len(owners) > 0 {
		w.out[n] = owners
	}
}
