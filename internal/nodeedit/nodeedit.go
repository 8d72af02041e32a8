// Package nodeedit edits YAML nodes in place for the patch engines (smp,
// mergepatch): a mapping editor that stays linear on large mappings, and
// value replacement that keeps the comments and quoting of what it replaces.
package nodeedit

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// indexThreshold is the number of entries above which a mapping is indexed
// by a Go map; below it a scan is faster.
const indexThreshold = 16

// Map edits a mapping node in place. Lookups go through an index when the
// mapping is large, so that a patch costs time linear in the sizes of the
// mappings; deleted entries are marked nil and removed once, by Finish.
type Map struct {
	n     *yaml.Node
	index map[string]int // key → index of the key node in n.Content; nil for small mappings
	dead  int
	// n.Content as the Map last left it: its length and first element's
	// address (Maps keeps a Map while the mapping is so)
	len   int
	first **yaml.Node
}

// NewMap prepares the mapping n for editing. Its keys must be scalars
// (tree.Read guarantees it).
func NewMap(n *yaml.Node) *Map {
	m := &Map{n: n}
	if len(n.Content) > 2*indexThreshold {
		m.reindex()
	}
	m.mark()
	return m
}

// mark notes n.Content as the Map leaves it.
func (m *Map) mark() {
	m.len, m.first = len(m.n.Content), nil
	if m.len > 0 {
		m.first = &m.n.Content[0]
	}
}

// unchanged reports whether n.Content is as the Map last left it.
func (m *Map) unchanged() bool {
	c := m.n.Content
	return len(c) == m.len && (m.len == 0 || &c[0] == m.first)
}

// Maps keeps the Maps of the large mappings a series of edits goes
// through (the patches of a run on one object), so that each edit does not
// index a mapping anew: n patches each setting a key of one object of n
// keys took n^2. A Map is kept while its mapping's content is as the Map
// left it (the same array, the same length); edits made otherwise while
// the Maps are in use must keep that from being so, or the Maps must be
// dropped: an edit in place that keeps the array and the length (deleting
// a key and adding another) is not noticed. A nil *Maps keeps nothing. A
// Maps is for one goroutine at a time.
type Maps struct {
	kept map[*yaml.Node]*Map
}

// Map returns the Map of the mapping n: the one kept, if n is as its
// last Finish left it (kept is then true: what the caller checked of n's
// keys before still holds, but for keys it added), else a new one
// (NewMap), kept when n is large.
func (ms *Maps) Map(n *yaml.Node) (m *Map, kept bool) {
	if ms == nil {
		return NewMap(n), false
	}
	if m := ms.kept[n]; m != nil && m.dead == 0 && m.unchanged() {
		return m, true // (an edit that failed before Finish leaves it to be indexed anew, as without Maps)
	}
	m = NewMap(n)
	if m.index == nil {
		delete(ms.kept, n)
		return m, false
	}
	if ms.kept == nil {
		ms.kept = map[*yaml.Node]*Map{}
	}
	ms.kept[n] = m
	return m, false
}

// Forget forgets the Map of the mapping n, if one is kept.
func (ms *Maps) Forget(n *yaml.Node) {
	if ms != nil {
		delete(ms.kept, n)
	}
}

// reindex indexes the mapping: once it is large, whether it was when the
// Map was made or grew to it (a patch adding many keys to a new object).
func (m *Map) reindex() {
	c := m.n.Content
	m.index = make(map[string]int, len(c)/2)
	for i := 0; i+1 < len(c); i += 2 {
		if k := tree.Resolve(c[i]); k != nil { // nil: deleted
			m.index[k.Value] = i // the last of duplicate keys wins, as in tree.MapGet
		}
	}
}

func (m *Map) find(k string) int {
	if m.index != nil {
		if i, ok := m.index[k]; ok {
			return i
		}
		return -1
	}
	c := m.n.Content
	for i := len(c)&^1 - 2; i >= 0; i -= 2 {
		if kn := tree.Resolve(c[i]); kn != nil && kn.Value == k {
			return i
		}
	}
	return -1
}

// Get returns the value of k, or nil.
func (m *Map) Get(k string) *yaml.Node {
	if i := m.find(k); i >= 0 {
		return m.n.Content[i+1]
	}
	return nil
}

// Set sets the value of the key named by kn, a key node of the patch: an
// existing key keeps its key node and position; a new one is appended with
// a copy of kn, so that the patch's comments on it come along.
func (m *Map) Set(kn, v *yaml.Node) {
	if i := m.find(kn.Value); i >= 0 {
		m.n.Content[i+1] = v
		return
	}
	k := tree.Clone(kn)
	k.Tag, k.Anchor = "!!str", ""
	if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
		k.Style = 0 // a key is a string: no tag, no block scalar
	}
	m.add(k, v)
}

// Put sets the value of the key node k as Set does, but a new key is
// appended as k itself, not a copy: for a mapping being built (a patch)
// from key nodes made for it or copied already.
func (m *Map) Put(k, v *yaml.Node) {
	if i := m.find(k.Value); i >= 0 {
		m.n.Content[i+1] = v
		return
	}
	m.add(k, v)
}

// add appends the entry k: v, a key not in the mapping.
func (m *Map) add(k, v *yaml.Node) {
	if len(m.n.Content)%2 != 0 {
		m.n.Content = m.n.Content[:len(m.n.Content)-1] // a key without a value
	}
	m.n.Content = append(m.n.Content, k, v)
	switch {
	case m.index != nil:
		m.index[tree.Resolve(k).Value] = len(m.n.Content) - 2 // as reindex and tree.MapGet read it
	case len(m.n.Content) > 2*indexThreshold:
		m.reindex()
	}
	m.mark()
}

// Delete removes k, if it is there.
func (m *Map) Delete(k string) {
	i := m.find(k)
	if i < 0 {
		return
	}
	m.n.Content[i], m.n.Content[i+1] = nil, nil
	m.dead++
	if m.index != nil {
		delete(m.index, k)
	}
}

// Retain deletes every key not in keep.
func (m *Map) Retain(keep map[string]bool) {
	c := m.n.Content
	for i := 0; i+1 < len(c); i += 2 {
		if k := tree.Resolve(c[i]); k != nil && !keep[k.Value] {
			m.Delete(k.Value)
		}
	}
}

// Finish removes the entries Delete marked. The Map can be used again.
func (m *Map) Finish() {
	if m.dead == 0 {
		return
	}
	c := m.n.Content
	out := c[:0]
	for i := 0; i+1 < len(c); i += 2 {
		if c[i] != nil {
			out = append(out, c[i], c[i+1])
		}
	}
	clear(c[len(out):])
	m.n.Content = out
	m.dead = 0
	if m.index != nil {
		for i := 0; i+1 < len(out); i += 2 {
			m.index[tree.Resolve(out[i]).Value] = i
		}
	}
	m.mark()
}

// SetScalar gives the scalar dst the value of src, keeping dst's comments
// (taking src's line comment when dst has none) and, when both are strings,
// dst's quoting style.
func SetScalar(dst, src *yaml.Node) {
	keepStyle := tree.KindOf(dst) == tree.String && tree.KindOf(src) == tree.String
	dst.Tag, dst.Value = src.Tag, src.Value
	if !keepStyle {
		dst.Style = src.Style
	}
	if dst.LineComment == "" {
		dst.LineComment = src.LineComment
	}
}

// InheritComments gives n the comments of old, the value it replaces (nil:
// none), where n has none of its own, and returns n.
func InheritComments(old, n *yaml.Node) *yaml.Node {
	if old == nil {
		return n
	}
	if n.HeadComment == "" {
		n.HeadComment = old.HeadComment
	}
	if n.LineComment == "" {
		n.LineComment = old.LineComment
	}
	if n.FootComment == "" {
		n.FootComment = old.FootComment
	}
	return n
}
