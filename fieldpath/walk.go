package fieldpath

import (
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// Get returns the value at p in the value root (a document node or a
// value), or nil when there is none.
func Get(root *yaml.Node, p Path) *yaml.Node {
	return (*ItemIndex)(nil).Get(root, p)
}

// ItemIndex finds list items as FindItem does, looking each large list up
// through an index of its items made the first time it is asked about
// that list (by the key fields of the element, or by value): many lookups
// in one list, one for each of its items, take time linear in its length
// instead of quadratic. The lists it is asked about must not change while
// it is used (it is made for one object that no longer changes: the
// output, the object before the patches). The zero value is ready; a nil
// *ItemIndex scans, as FindItem. It is not safe for concurrent use.
type ItemIndex struct {
	lists map[*yaml.Node]*listItems
}

// listItems is the index of one list: the first item with each key, by the
// names of the key fields (sorted, joined), and the first with each value.
type listItems struct {
	byKey   map[string]map[string]int
	byValue map[string]int
}

// itemIndexMin is the length from which a list is indexed: a shorter one
// is scanned as fast.
const itemIndexMin = 32

// Get returns the value at p in the value root, as Get does.
func (ix *ItemIndex) Get(root *yaml.Node, p Path) *yaml.Node {
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
		i := ix.FindItem(n, e)
		if i < 0 {
			return nil
		}
		n = tree.Deref(n.Content[i])
	}
	return n
}

// FindItem returns the index in the list l of the first item e names, as
// FindItem does.
func (ix *ItemIndex) FindItem(l *yaml.Node, e Element) int {
	l = tree.Deref(l)
	if ix == nil || l == nil || l.Kind != yaml.SequenceNode || len(l.Content) < itemIndexMin || e.Kind == IndexElement {
		return FindItem(l, e)
	}
	names, ok := keyNames(e)
	if e.Kind == KeyElement && !ok {
		return FindItem(l, e) // a field named twice
	}
	if ix.lists == nil {
		ix.lists = map[*yaml.Node]*listItems{}
	}
	li := ix.lists[l]
	if li == nil {
		li = &listItems{}
		ix.lists[l] = li
	}
	var b strings.Builder
	switch e.Kind {
	case MemberElement:
		if li.byValue == nil {
			li.byValue = map[string]int{}
			for i, item := range l.Content {
				if v, ok := ValueOf(item); ok {
					b.Reset()
					writeIndexKey(&b, v.Kind, v.Text)
					if _, dup := li.byValue[b.String()]; !dup {
						li.byValue[b.String()] = i
					}
				}
			}
		}
		b.Reset()
		writeIndexKey(&b, e.Value.Kind, e.Value.normalText())
		if i, ok := li.byValue[b.String()]; ok {
			return i
		}
		return -1
	case KeyElement:
		sig := strings.Join(names, "\x00")
		m := li.byKey[sig]
		if m == nil {
			if li.byKey == nil {
				li.byKey = map[string]map[string]int{}
			}
			m = map[string]int{}
			li.byKey[sig] = m
		items:
			for i, item := range l.Content {
				item = tree.Deref(item)
				if item == nil || item.Kind != yaml.MappingNode {
					continue
				}
				b.Reset()
				for _, name := range names {
					v, ok := ValueOf(tree.MapGet(item, name))
					if !ok {
						continue items
					}
					writeIndexKey(&b, v.Kind, v.Text)
				}
				if _, dup := m[b.String()]; !dup {
					m[b.String()] = i
				}
			}
		}
		b.Reset()
		for _, name := range names {
			v, _ := e.KeyValue(name)
			writeIndexKey(&b, v.Kind, v.normalText())
		}
		if i, ok := m[b.String()]; ok {
			return i
		}
	}
	return -1
}

// keyNames returns the names of the key fields of e, sorted; ok is false
// when one is named twice.
func keyNames(e Element) (names []string, ok bool) {
	names = make([]string, len(e.Key))
	for i, kf := range e.Key {
		names[i] = kf.Name
	}
	slices.Sort(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return nil, false
		}
	}
	return names, true
}

// writeIndexKey writes a scalar's kind and text as an ItemIndex keys them:
// two scalars have one key exactly when Value.Matches says they are equal.
func writeIndexKey(b *strings.Builder, k tree.Kind, text string) {
	b.WriteString(strconv.Itoa(int(k)))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(len(text)))
	b.WriteByte(':')
	b.WriteString(text)
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
