package fieldpath

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// Get returns the value at p in the value root (a document node or a
// value), or nil when there is none.
func Get(root *yaml.Node, p Path) *yaml.Node {
	n := tree.Deref(root)
	for _, e := range p {
		if n == nil {
			return nil
		}
		if e.Kind == FieldElement {
			if n.Kind != yaml.MappingNode {
				return nil
			}
			n = tree.Deref(tree.MapGet(n, e.Name))
			continue
		}
		i := FindItem(n, e)
		if i < 0 {
			return nil
		}
		n = tree.Deref(n.Content[i])
	}
	return n
}

// FindItem returns the index in the list l of the first item the element
// e names, or -1: the item at e's index, the first object whose key fields
// have e's values, the first scalar equal to e's member. A field element,
// or an l that is not a list, names none.
func FindItem(l *yaml.Node, e Element) int {
	l = tree.Deref(l)
	if l == nil || l.Kind != yaml.SequenceNode {
		return -1
	}
	switch e.Kind {
	case IndexElement:
		if e.Index < len(l.Content) {
			return e.Index
		}
	case KeyElement:
		for i, item := range l.Content {
			if HasKey(item, e) {
				return i
			}
		}
	case MemberElement:
		for i, item := range l.Content {
			if e.Value.Matches(item) {
				return i
			}
		}
	}
	return -1
}

// HasKey reports whether the object item has every key field of the key
// element e, with e's value.
func HasKey(item *yaml.Node, e Element) bool {
	item = tree.Deref(item)
	if item == nil || item.Kind != yaml.MappingNode || e.Kind != KeyElement {
		return false
	}
	for _, f := range e.Key {
		if !f.Value.Matches(tree.MapGet(item, f.Name)) {
			return false
		}
	}
	return true
}

// ItemKey returns the element naming the object item by the fields key:
// ok is false when key is empty, item is not an object, or it lacks one of
// the fields or holds an object or an array in one.
func ItemKey(item *yaml.Node, key []string) (e Element, ok bool) {
	item = tree.Deref(item)
	if len(key) == 0 || item == nil || item.Kind != yaml.MappingNode {
		return Element{}, false
	}
	fields := make([]KeyField, len(key))
	for i, k := range key {
		vn := tree.MapGet(item, k)
		if vn == nil {
			return Element{}, false
		}
		v, ok := ValueOf(vn)
		if !ok {
			return Element{}, false
		}
		fields[i] = KeyField{Name: k, Value: v}
	}
	return Key(fields...), true
}

// ItemElement names the item at index i of a list: by its key fields when
// key is given and the item has them (ItemKey), by its value when set is
// true and the item is a scalar, else by its index.
func ItemElement(item *yaml.Node, key []string, set bool, i int) Element {
	if e, ok := ItemKey(item, key); ok {
		return e
	}
	if set && len(key) == 0 {
		if v, ok := ValueOf(item); ok {
			return Member(v)
		}
	}
	return Index(i)
}
