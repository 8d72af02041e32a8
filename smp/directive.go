package smp

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// directivePatchMergeKey names, in an item of a patch list, the fields that
// identify the item (spec/smp-patch-merge-key-directive.md). Upstream does
// not know it; a list whose patch items use it is merged by kmerge's rules
// below, whatever its strategy.
const directivePatchMergeKey = "$patchMergeKey"

// usesPatchMergeKey reports whether an item of the patch list carries the
// $patchMergeKey directive.
func usesPatchMergeKey(patch []*yaml.Node) bool {
	for _, p := range patch {
		if p.Kind == yaml.MappingNode && tree.MapGet(p, directivePatchMergeKey) != nil {
			return true
		}
	}
	return false
}

// keyedEntry is an item of a patch list with the fields that identify it.
type keyedEntry struct {
	p      *yaml.Node
	key    []string
	del    bool
	label  fieldpath.Element // how the item names itself: by the key fields it gives
	target int               // index in the live list it resolved to, -1 for a new item
}

// entryKey returns the fields that identify a patch item: its
// $patchMergeKey list, or else the list's merge key.
func (a *applier) entryKey(p *yaml.Node, def []string, i int) ([]string, error) {
	d := tree.MapGet(p, directivePatchMergeKey)
	if d == nil {
		if len(def) == 0 {
			return nil, a.errorf(ReasonMergeKey, p, "item %d has no $patchMergeKey and the list has no merge key; every item of a list without a merge key needs $patchMergeKey", i)
		}
		return def, nil
	}
	if d.Kind != yaml.SequenceNode || len(d.Content) == 0 {
		return nil, a.errorf(ReasonDirective, d, "$patchMergeKey must be a non-empty list of field names")
	}
	key := make([]string, 0, len(d.Content))
	for _, f := range d.Content {
		if tree.KindOf(f) != tree.String || f.Value == "" {
			return nil, a.errorf(ReasonDirective, f, "$patchMergeKey must list field names, not %s", describe(f))
		}
		key = append(key, f.Value)
	}
	return key, nil
}

// entryLabel names an item by the fields of key it has as scalars (a key
// field it lacks is part of its identity, a null one is not, and neither
// shows), or by its index when it has none.
func entryLabel(p *yaml.Node, key []string, i int) fieldpath.Element {
	var fields []fieldpath.KeyField
	for _, f := range key {
		v, ok := fieldpath.ValueOf(tree.MapGet(p, f))
		if ok && tree.MapGet(p, f) != nil && v.Kind != tree.Null {
			fields = append(fields, fieldpath.KeyField{Name: f, Value: v})
		}
	}
	if len(fields) == 0 {
		return fieldpath.Index(i)
	}
	return fieldpath.Key(fields...)
}

// matches reports whether the live item e is the one the patch item p
// names by the fields key: a field p sets must have the same value in e, a
// field p lacks must be absent from e, and a field p sets to null (a key
// field being deleted) does not take part.
func matches(e, p *yaml.Node, key []string) bool {
	if e.Kind != yaml.MappingNode {
		return false
	}
	for _, f := range key {
		pv, ev := tree.MapGet(p, f), tree.MapGet(e, f)
		switch {
		case pv == nil:
			if ev != nil {
				return false
			}
		case tree.KindOf(pv) == tree.Null:
		case ev == nil || !tree.Equal(pv, ev):
			return false
		}
	}
	return true
}

// mergeByPatchMergeKey merges a patch list whose items identify themselves
// with $patchMergeKey. Each item must name at most one live item (else the
// patch is rejected, naming the candidates); two items of the patch must
// not name the same one. Items that name none are added. The list is then
// ordered as upstream orders merged lists: patch items in patch order, live
// items the patch does not name in live order, each of those before the
// next patch item that comes after it in the live list.
func (a *applier) mergeByPatchMergeKey(orig []any, patch []*yaml.Node, elem *schema.Type, def []string) ([]any, error) {
	live := make([]*yaml.Node, len(orig))
	for i, v := range orig {
		live[i] = node(v)
		if live[i].Kind != yaml.MappingNode {
			return nil, a.errorf(ReasonType, live[i], "expected an object in a list of objects, got %s", describe(live[i]))
		}
	}
	var entries []keyedEntry
	replace := false
	var replaceAt *yaml.Node
	for i, p := range patch {
		if p.Kind != yaml.MappingNode {
			return nil, a.errorf(ReasonType, p, "expected an object in a list of objects, got %s", describe(p))
		}
		e := keyedEntry{p: p, target: -1}
		switch d := tree.MapGet(p, directivePatch); {
		case d == nil:
		case directiveValue(d) == "delete":
			e.del = true
		case directiveValue(d) == "replace":
			replace, replaceAt = true, d
			continue
		default:
			return nil, a.errorf(ReasonDirective, d, "unknown patch type: %s in a list item; $patch of a list item is delete or replace", describe(d))
		}
		key, err := a.entryKey(p, def, i)
		if err != nil {
			return nil, err
		}
		e.key, e.label = key, entryLabel(p, key, i)
		entries = append(entries, e)
	}
	if replace {
		live = nil
	}
	// resolve every entry against the live list
	ix := newLiveIndex(live)
	claimed := map[int]int{} // live index → entry that names it
	for i := range entries {
		e := &entries[i]
		candidates := ix.candidates(e.p, e.key)
		if len(candidates) > 1 {
			return nil, a.ambiguous(e, live, candidates)
		}
		if len(candidates) == 1 {
			e.target = candidates[0]
			if prev, dup := claimed[e.target]; dup {
				return nil, a.errorf(ReasonMergeKey, e.p, "items %s and %s of the patch both name the live item %s", entries[prev].label, e.label, entryLabel(live[e.target], e.key, e.target))
			}
			claimed[e.target] = i
		}
	}
	// two new items with the same key would be one item twice
	added := map[string]int{}
	for i, e := range entries {
		if e.target >= 0 || e.del {
			continue
		}
		id := keyString(e.key) + "\x02" + tupleOf(e.p, e.key)
		if prev, dup := added[id]; dup {
			return nil, a.errorf(ReasonMergeKey, e.p, "items %s and %s of the patch have the same merge key", entries[prev].label, e.label)
		}
		added[id] = i
	}
	// apply: deletions, merges, additions
	gone := make([]bool, len(live))
	var named []*yaml.Node
	livePos := map[*yaml.Node]int{}
	for j, item := range live {
		livePos[item] = j
	}
	for _, e := range entries {
		switch {
		case e.del:
			if e.target >= 0 {
				gone[e.target] = true
			}
			a.record(change.Delete, e.p, nil, e.label)
		case e.target >= 0:
			a.pushItem(e.label)
			res, err := a.mergeMap(live[e.target], withoutKey(e.p, directivePatchMergeKey), elem)
			a.pop()
			if err != nil {
				return nil, err
			}
			live[e.target] = res
			livePos[res] = e.target
			named = append(named, res)
		default:
			c, _ := a.verbatim(e.p)
			named = append(named, c)
			a.recordNewItem(e.p, e.label, elem)
		}
	}
	isNamed := make(map[*yaml.Node]bool, len(named))
	for _, n := range named {
		isNamed[n] = true
	}
	var others []*yaml.Node
	for j, item := range live {
		if !gone[j] && !isNamed[item] {
			others = append(others, item)
		}
	}
	pos := func(n *yaml.Node) int {
		if p, ok := livePos[n]; ok && !gone[p] {
			return p
		}
		return -1
	}
	result := interleave(others, named, pos)
	if a.recording() && len(patch) > 0 && reordered(toNodes(orig), result) {
		a.record(change.Order, patch[0], nil)
	}
	if replace && a.recording() {
		a.record(change.Set, replaceAt, tree.Clone(tree.NewSeq(toNodes(result)...)))
	}
	return result, nil
}

// liveIndex finds the live items a patch item names. It keeps one hash
// index per set of fields used for matching, built on first use, so that
// resolving a patch list is linear in the lengths of both lists.
type liveIndex struct {
	live    []*yaml.Node
	indexes map[string]map[string][]int
}

func newLiveIndex(live []*yaml.Node) *liveIndex {
	return &liveIndex{live: live, indexes: map[string]map[string][]int{}}
}

// absentField stands for a key field an item does not have.
const absentField = "\x01"

// tupleOf returns the values of fields in n, absent ones marked.
func tupleOf(n *yaml.Node, fields []string) string {
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(0)
		}
		if v := tree.MapGet(n, f); v != nil {
			b.WriteString(tree.Key(v))
		} else {
			b.WriteString(absentField)
		}
	}
	return b.String()
}

// candidates returns the live items that match p by key (see matches).
func (ix *liveIndex) candidates(p *yaml.Node, key []string) []int {
	fields := make([]string, 0, len(key))
	for _, f := range key {
		if v := tree.MapGet(p, f); v == nil || tree.KindOf(v) != tree.Null {
			fields = append(fields, f) // a null key field does not take part
		}
	}
	sig := strings.Join(fields, "\x00")
	idx, ok := ix.indexes[sig]
	if !ok {
		idx = make(map[string][]int, len(ix.live))
		for j, item := range ix.live {
			t := tupleOf(item, fields)
			idx[t] = append(idx[t], j)
		}
		ix.indexes[sig] = idx
	}
	var out []int
	for _, j := range idx[tupleOf(p, fields)] {
		if matches(ix.live[j], p, key) { // Key of objects is "": check for real
			out = append(out, j)
		}
	}
	return out
}

func (a *applier) ambiguous(e *keyedEntry, live []*yaml.Node, candidates []int) error {
	var names []string
	for _, j := range candidates {
		names = append(names, fmt.Sprintf("%d (%s)", j, describeItem(live[j])))
	}
	return a.errorf(ReasonMergeKey, e.p, "the patch item %s names %d live items by %s: %s; add fields to $patchMergeKey so that it names one",
		e.label, len(candidates), keyString(e.key), strings.Join(names, ", "))
}

// describeItem shows the scalar fields of an item, for error messages.
func describeItem(n *yaml.Node) string {
	var parts []string
	for i := 0; i+1 < len(n.Content) && len(parts) < 4; i += 2 {
		if v := n.Content[i+1]; tree.KindOf(v).Scalar() {
			parts = append(parts, n.Content[i].Value+"="+v.Value)
		}
	}
	return strings.Join(parts, ", ")
}

// withoutKey returns a view of the mapping m without key k (m itself when
// it has no such key). m is not modified.
func withoutKey(m *yaml.Node, k string) *yaml.Node {
	if tree.MapIndex(m, k) < 0 {
		return m
	}
	c := *m
	c.Content = make([]*yaml.Node, 0, len(m.Content))
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != k {
			c.Content = append(c.Content, m.Content[i], m.Content[i+1])
		}
	}
	return &c
}
