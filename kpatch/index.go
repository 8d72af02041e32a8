package kpatch

import (
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// indexThreshold is the size (entries of a mapping, items of a list) from
// which the field patches of an object look things up through an index;
// below it a scan is as fast.
const indexThreshold = 32

// objectIndex speeds up the field patches of one object. Each patch walks
// its paths from the object's root, looking up keys of mappings and items of
// lists by the values of their fields: with many patches on one large
// mapping or list (20,000 sections, each on its own key or item), scanning
// for each would take time quadratic in the patches. The index is built
// when first needed and kept up to date by the field patches' own writes,
// which all go through it (set, del, written): they are the only writes
// while it is in use (an object's strategic, merge and JSON patches run
// before its field patches, and the index is dropped when one runs). It
// also checks that a mapping or list still has the length and backing
// array it had, and rebuilds what it finds changed.
type objectIndex struct {
	maps  map[*yaml.Node]*keyIndex
	lists map[listRef]*itemIndex
	gen   uint64
	// lastWrite is when a key was last written in any mapping (by name;
	// "" for the items of a list): what lists were indexed by may have
	// changed since. reshapedAt is when an item was inserted into or
	// deleted from a list: its items moved.
	lastWrite  map[string]uint64
	reshapedAt map[*yaml.Node]uint64
}

func newObjectIndex() *objectIndex {
	return &objectIndex{maps: map[*yaml.Node]*keyIndex{}, lists: map[listRef]*itemIndex{}, lastWrite: map[string]uint64{}, reshapedAt: map[*yaml.Node]uint64{}}
}

// keyIndex is the index of a mapping: the slot of each key (its place in
// the mapping when the index was built, or after, for a key added since),
// and the slots deleted since, from which a slot's place now follows.
type keyIndex struct {
	slot    map[string]int
	deleted []int // sorted
	next    int   // the slot of the next key added
	n       int   // len(Content) as the index knows it
	first   *yaml.Node
}

// same reports whether the content is what the index knows.
func sameContent(c []*yaml.Node, n int, first *yaml.Node) bool {
	if len(c) != n {
		return false
	}
	return n == 0 || c[0] == first
}

func firstOf(c []*yaml.Node) *yaml.Node {
	if len(c) == 0 {
		return nil
	}
	return c[0]
}

// mapIndexOf returns the index of the mapping m, building it (nil: m is
// small, or has a key twice, and is scanned).
func (ix *objectIndex) mapIndexOf(m *yaml.Node) *keyIndex {
	if ix == nil || len(m.Content) < 2*indexThreshold {
		return nil
	}
	if ki := ix.maps[m]; ki != nil && sameContent(m.Content, ki.n, ki.first) {
		return ki
	}
	ki := &keyIndex{slot: make(map[string]int, len(m.Content)/2), n: len(m.Content), first: firstOf(m.Content)}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := tree.Resolve(m.Content[i])
		if k == nil {
			delete(ix.maps, m)
			return nil
		}
		if _, twice := ki.slot[k.Value]; twice {
			delete(ix.maps, m)
			return nil
		}
		ki.slot[k.Value] = i / 2
	}
	ki.next = len(m.Content) / 2
	ix.maps[m] = ki
	return ki
}

// at returns where the key node of key is in the mapping's content, or -1.
func (ki *keyIndex) at(key string) int {
	s, ok := ki.slot[key]
	if !ok {
		return -1
	}
	gone, _ := slices.BinarySearch(ki.deleted, s)
	return 2 * (s - gone)
}

// mapIndex is tree.MapIndex, through the index.
func (ix *objectIndex) mapIndex(m *yaml.Node, key string) int {
	ki := ix.mapIndexOf(m)
	if ki == nil {
		return tree.MapIndex(m, key)
	}
	return ki.at(key)
}

// mapGet is tree.MapGet, through the index.
func (ix *objectIndex) mapGet(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	if i := ix.mapIndex(m, key); i >= 0 {
		return m.Content[i+1]
	}
	return nil
}

// set is tree.MapSet, through the index.
func (ix *objectIndex) set(m *yaml.Node, key string, v *yaml.Node) {
	ix.written(key)
	ki := ix.mapIndexOf(m)
	if ki == nil {
		tree.MapSet(m, key, v)
		return
	}
	if i := ki.at(key); i >= 0 {
		m.Content[i+1] = v
		return
	}
	m.Content = append(m.Content, tree.NewString(key), v)
	ki.slot[key] = ki.next
	ki.next++
	ki.n, ki.first = len(m.Content), m.Content[0]
}

// del is tree.MapDelete, through the index.
func (ix *objectIndex) del(m *yaml.Node, key string) {
	ix.written(key)
	ki := ix.mapIndexOf(m)
	if ki == nil {
		tree.MapDelete(m, key)
		return
	}
	i := ki.at(key)
	if i < 0 {
		return
	}
	s := ki.slot[key]
	m.Content = append(m.Content[:i], m.Content[i+2:]...)
	delete(ki.slot, key)
	at, _ := slices.BinarySearch(ki.deleted, s)
	ki.deleted = slices.Insert(ki.deleted, at, s)
	ki.n, ki.first = len(m.Content), firstOf(m.Content)
}

// written notes that a key was written (set, deleted, or its value
// changed in place) in some mapping ("": an item of some list): lists
// indexed by the values of fields of that name are indexed again.
func (ix *objectIndex) written(key string) {
	if ix == nil {
		return
	}
	ix.gen++
	ix.lastWrite[key] = ix.gen
}

// reshaped notes that an item was inserted into or deleted from a list:
// its indexes are built again (its length alone does not tell: a deletion
// and an insertion leave it as it was).
func (ix *objectIndex) reshaped(list *yaml.Node) {
	if ix == nil {
		return
	}
	ix.gen++
	ix.reshapedAt[list] = ix.gen
}

// listRef names an index of a list: the list, and the path in its items
// of the field its items are indexed by ("" for scalar items).
type listRef struct {
	list *yaml.Node
	path string
}

// itemIndex is the index of a list by the values of a field of its
// items: the places of the items with each (scalar) value, in order.
type itemIndex struct {
	at    map[string][]int
	n     int
	first *yaml.Node
	built uint64
}

// candidates returns the places of the items of list whose field at path
// (the condition's key) holds the text value, in order, or ok false when
// the list is small and is scanned.
func (ix *objectIndex) candidates(list *yaml.Node, path []string, value string) (places []int, ok bool) {
	if ix == nil || len(list.Content) < indexThreshold {
		return nil, false
	}
	ref := listRef{list, strings.Join(path, "\x00")}
	ii := ix.lists[ref]
	if ii != nil && sameContent(list.Content, ii.n, ii.first) && ix.reshapedAt[list] <= ii.built && ix.fresh(ii.built, path) {
		return ii.at[value], true
	}
	ii = &itemIndex{at: map[string][]int{}, n: len(list.Content), first: firstOf(list.Content), built: ix.gen}
	for i, it := range list.Content {
		v := it
		for _, k := range path {
			v = ix.mapGet(v, k)
		}
		if v != nil && v.Kind == yaml.ScalarNode {
			ii.at[v.Value] = append(ii.at[v.Value], i)
		}
	}
	ix.lists[ref] = ii
	return ii.at[value], true
}

// fresh reports whether no field of the names on path, and no item of a
// list, was written since gen.
func (ix *objectIndex) fresh(gen uint64, path []string) bool {
	if ix.lastWrite[""] > gen {
		return false
	}
	for _, k := range path {
		if ix.lastWrite[k] > gen {
			return false
		}
	}
	return true
}
