package fieldpath

import (
	"cmp"
	"slices"
	"strings"
)

// Path is a place in an object: the elements that lead to it from the
// object's root. The empty path is the root itself. Paths are values: the
// functions of this package never modify a path they are given, and
// Append returns a new one.
type Path []Element

// ElementKind is what an element of a path names.
type ElementKind uint8

// The kinds of elements.
const (
	FieldElement  ElementKind = iota // a field of an object (or a key of a map)
	KeyElement                       // an item of a list, by the values of its key fields
	IndexElement                     // an item of a list, by its index
	MemberElement                    // a scalar item of a set, by its value
)

// Element is one step of a path.
type Element struct {
	Kind  ElementKind
	Name  string     // FieldElement: the field's name
	Key   []KeyField // KeyElement: the key fields, in the order of the merge key
	Index int        // IndexElement: the index, from 0
	Value Value      // MemberElement: the member
}

// KeyField is one field of an item's key and its value.
type KeyField struct {
	Name  string
	Value Value
}

// Field returns the element naming a field.
func Field(name string) Element { return Element{Kind: FieldElement, Name: name} }

// Key returns the element naming the list item whose key fields have these
// values. It keeps fields (the caller must not change them afterwards).
func Key(fields ...KeyField) Element { return Element{Kind: KeyElement, Key: fields} }

// Index returns the element naming the list item at index i.
func Index(i int) Element { return Element{Kind: IndexElement, Index: i} }

// Member returns the element naming the member v of a set.
func Member(v Value) Element { return Element{Kind: MemberElement, Value: v} }

// Item reports whether the element names a list item (by key, index or
// value) rather than a field.
func (e Element) Item() bool { return e.Kind != FieldElement }

// KeyValue returns the value the element gives the key field name, and
// whether it gives one.
func (e Element) KeyValue(name string) (Value, bool) {
	for _, f := range e.Key {
		if f.Name == name {
			return f.Value, true
		}
	}
	return Value{}, false
}

// Equal reports whether two elements are the same step: same kind, and the
// same name, key fields (in the same order), index or member.
func (e Element) Equal(o Element) bool { return compareElements(e, o) == 0 }

// String writes the element as a path writes it: a field name (quoted when
// it needs to be), or a bracketed item.
func (e Element) String() string {
	var b strings.Builder
	writeElement(&b, e, true)
	return b.String()
}

// Append returns a new path: p followed by elems. p is not modified, and
// the result shares no memory with it.
func (p Path) Append(elems ...Element) Path {
	out := make(Path, len(p), len(p)+len(elems))
	copy(out, p)
	return append(out, elems...)
}

// Parent returns the path of what holds the last element: p without its
// last element (the root for the root).
func (p Path) Parent() Path {
	if len(p) == 0 {
		return p
	}
	return p[: len(p)-1 : len(p)-1]
}

// Last returns the last element of p; ok is false for the root.
func (p Path) Last() (e Element, ok bool) {
	if len(p) == 0 {
		return Element{}, false
	}
	return p[len(p)-1], true
}

// Equal reports whether two paths have the same elements.
func (p Path) Equal(q Path) bool { return Compare(p, q) == 0 }

// HasPrefix reports whether q leads to p or to a place above it: whether p
// is q or lies below q.
func (p Path) HasPrefix(q Path) bool {
	return len(q) <= len(p) && Compare(p[:len(q)], q) == 0
}

// Below reports whether p lies strictly below q.
func (p Path) Below(q Path) bool { return len(p) > len(q) && p.HasPrefix(q) }

// Compare orders paths: element by element, a path before the paths below
// it. Elements compare by kind (fields, then items by key, by index, by
// value), then by name, key fields, index or value. The order is total and
// deterministic, for sorted output.
func Compare(p, q Path) int {
	for i := range min(len(p), len(q)) {
		if c := compareElements(p[i], q[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(p), len(q))
}

func compareElements(a, b Element) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	switch a.Kind {
	case FieldElement:
		return strings.Compare(a.Name, b.Name)
	case KeyElement:
		return slices.CompareFunc(a.Key, b.Key, func(x, y KeyField) int {
			if c := strings.Compare(x.Name, y.Name); c != 0 {
				return c
			}
			return CompareValues(x.Value, y.Value)
		})
	case IndexElement:
		return cmp.Compare(a.Index, b.Index)
	}
	return CompareValues(a.Value, b.Value)
}
