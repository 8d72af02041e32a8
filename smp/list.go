package smp

import (
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// Lists are handled as []any holding *yaml.Node, grown one append at a time
// like a JSON decoder grows them. Upstream's order of a merged list depends
// on slice aliasing: deleting items shifts them inside the live list's
// backing array, and appending new items can write into its spare capacity,
// so the "live order" upstream consults later is not always the live order.
// Doing the same operations on slices with the same capacities reproduces
// that exactly; lookups go through hash indexes, so everything stays
// linear (n log n for the sorts).

func node(v any) *yaml.Node { return v.(*yaml.Node) }

// keyOf returns the identity of an item: the values of the merge key fields
// of an object, the value itself for a scalar. ok is false when an object
// lacks a key field (or is not an object while key fields are asked for).
func keyOf(e *yaml.Node, key []string) (id string, ok bool) {
	if len(key) == 0 {
		return scalarID(e), true
	}
	if e.Kind != yaml.MappingNode {
		return "", false
	}
	if len(key) == 1 {
		v := tree.MapGet(e, key[0])
		if v == nil {
			return "", false
		}
		return scalarID(v), true
	}
	// A key of several fields (kmerge's extension) identifies an item by
	// all of them; a field the item lacks is part of its identity ("no
	// protocol" is not "any protocol"). An item with none of them has no key.
	var b strings.Builder
	present := false
	for i, f := range key {
		if i > 0 {
			b.WriteByte(0)
		}
		if v := tree.MapGet(e, f); v != nil {
			b.WriteString(tree.Key(v))
			present = true
		} else {
			b.WriteString(absentField)
		}
	}
	return b.String(), present
}

// scalarID identifies a value as tree.Key does, without allocating for
// strings, the usual merge key values: a string is its own identity, and
// every other value is tree.Key's with a 0xFF byte before it, which no
// string read from a stream (valid UTF-8) starts with. A string that does
// (a tree built by hand) gets the 0xFF too, before tree.Key's "s".
func scalarID(n *yaml.Node) string {
	if n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!str" && (n.Value == "" || n.Value[0] != 0xFF) {
		return n.Value // what tree.Key would give, without its "s"
	}
	k := tree.Key(n)
	if v, ok := strings.CutPrefix(k, "s"); ok && (v == "" || v[0] != 0xFF) {
		return v
	}
	return "\xff" + k
}

func keyString(key []string) string { return strings.Join(key, ",") }

// checkKeyValues rejects merge key values that are objects or arrays:
// upstream compares them with Go's ==, which panics for two of them.
func (a *applier) checkKeyValues(items []any, key []string) error {
	for _, v := range items {
		e := node(v)
		if e.Kind != yaml.MappingNode {
			continue
		}
		for _, f := range key {
			if kv := tree.MapGet(e, f); kv != nil && !tree.KindOf(kv).Scalar() {
				return a.errorf(ReasonMergeKey, kv, "merge key %s has %s value; merge key values must be scalars", f, article(tree.KindOf(kv)))
			}
		}
	}
	return nil
}

// elementKind returns the one kind of all items of the lists, as upstream
// requires: no lists of lists, no null items, no mixed kinds.
func (a *applier) elementKind(lists ...[]any) (tree.Kind, error) {
	first := true
	var kind tree.Kind
	for _, l := range lists {
		for _, v := range l {
			k := tree.KindOf(node(v))
			if first {
				first, kind = false, k
				switch k {
				case tree.Array:
					return 0, a.errorf(ReasonListItems, node(v), "lists of lists are not supported")
				case tree.Null:
					return 0, a.errorf(ReasonListItems, node(v), "a list to merge holds null items")
				}
				continue
			}
			if k != kind {
				return 0, a.errorf(ReasonListItems, node(v), "list element types are not identical: %s and %s", kind, k)
			}
		}
	}
	if first {
		return 0, a.errorf(ReasonListItems, nil, "no elements in any of the given slices")
	}
	return kind, nil
}

// mergeList merges the items of a patch list into orig (upstream's
// mergeSlice). isDelete: the patch list is a $deleteFromPrimitiveList.
func (a *applier) mergeList(orig []any, patch []*yaml.Node, elem *schema.Type, key []string, isDelete bool) ([]any, error) {
	if len(orig) == 0 && len(patch) == 0 {
		return orig, nil
	}
	kind, err := a.elementKind(orig, toSlice(patch))
	if err != nil {
		return nil, err
	}
	var live []*yaml.Node // the list as it was, to see whether the merge reorders it
	if a.recording() {
		live = toNodes(orig)
	}
	var merged, order []any
	if kind != tree.Object {
		if isDelete {
			return deleteScalars(orig, patch), nil
		}
		order = make([]any, len(patch))
		for i, p := range patch {
			order[i] = tree.Clone(p)
			if a.recording() {
				if v, ok := fieldpath.ValueOf(p); ok {
					a.record(change.Create, p, p, fieldpath.Member(v))
				}
			}
		}
		aliased := len(orig)+len(order) <= cap(orig) // append writes into the live list's backing array
		merged = dedupe(append(orig, order...), len(orig), aliased)
	} else {
		if len(key) == 0 {
			return nil, a.errorf(ReasonMergeKey, nil, "cannot merge lists without merge key for %s", a.pathOrType(elem))
		}
		if err := a.checkKeyValues(orig, key); err != nil {
			return nil, err
		}
		if err := a.checkKeyValues(toSlice(patch), key); err != nil {
			return nil, err
		}
		if orig, order, err = a.specialItems(orig, patch, key); err != nil {
			return nil, err
		}
		if merged, err = a.mergeItems(orig, order, key, elem); err != nil {
			return nil, err
		}
	}
	patchItems, serverOnly, err := a.partition(merged, order, key)
	if err != nil {
		return nil, err
	}
	result, err := a.normalizeOrder(patchItems, serverOnly, order, orig, key, kind)
	// A merged list of scalars loses its repeated values, whoever put
	// them there; a list of objects is reordered when the patch names
	// items in another order than the list's.
	if err == nil && a.recording() && len(patch) > 0 && (kind != tree.Object && !isDelete || reordered(live, result)) {
		a.record(change.Order, patch[0], nil)
	}
	return result, err
}

// reordered reports whether the items of the live list live that are
// still in result are not in their live order there: a strategic merge
// patch puts the items it names in its own order.
func reordered(live []*yaml.Node, result []any) bool {
	pos := make(map[*yaml.Node]int, len(live))
	for i, n := range live {
		pos[n] = i
	}
	last := -1
	for _, v := range result {
		if i, ok := pos[node(v)]; ok {
			if i < last {
				return true
			}
			last = i
		}
	}
	return false
}

func (a *applier) pathOrType(t *schema.Type) string {
	if t != nil && t.Name != "" {
		return t.Name
	}
	if len(a.path) > 0 {
		return a.path.String()
	}
	return "the list"
}

// deleteScalars removes every item equal to one of del.
func deleteScalars(orig []any, del []*yaml.Node) []any {
	gone := make(map[string]bool, len(del))
	for _, d := range del {
		gone[tree.Key(d)] = true
	}
	out := make([]any, 0, len(orig))
	for _, v := range orig {
		if !gone[tree.Key(node(v))] {
			out = append(out, v)
		}
	}
	return out
}

// dedupe removes repeated scalars from s, whose first n items are the live
// list. Upstream's algorithm swaps the last item into each duplicate's
// place, in a backing array it may share with the live list (aliased); that
// is only visible when the live list itself holds duplicates, and only then
// is it reproduced (dedupeExact). Otherwise the first of each value is
// kept, which gives the same result.
func dedupe(s []any, n int, aliased bool) []any {
	liveDup := false
	seen := make(map[string]bool, len(s))
	for _, v := range s[:n] {
		k := tree.Key(node(v))
		if seen[k] {
			liveDup = true
			break
		}
		seen[k] = true
	}
	if liveDup && aliased {
		return dedupeExact(s, func(v any) string { return tree.Key(node(v)) })
	}
	clear(seen)
	out := s[:0:0]
	for _, v := range s {
		k := tree.Key(node(v))
		if !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

// dedupeExact is upstream's in-place duplicate removal, which leaves s's
// backing array as this does (key gives an item's identity):
//
//	for i := 0; i < length; i++ {
//		for j := i + 1; j <= length; j++ {
//			if keys[i] == keys[j] {
//				s[j], keys[j] = s[length], keys[length]
//				length--
//				j--
//			}
//		}
//	}
//
// with length the index of the last item. That compares every two items,
// duplicates or not: n^2 for a list of n with one duplicate (issue 25).
// The same writes are made here, in the same order, without the
// comparisons that find nothing: for item i, the later places holding its
// value are known (where), in order, and so is whether the last item, which
// fills a place, holds it too. Only values held more than once are followed.
func dedupeExact[T any](s []T, key func(T) string) []T {
	keys := make([]string, len(s))
	count := make(map[string]int, len(s))
	for i, v := range s {
		keys[i] = key(v)
		count[keys[i]]++
	}
	where := map[string]map[int]bool{} // the places of each value held twice or more
	for i, k := range keys {
		if count[k] > 1 {
			if where[k] == nil {
				where[k] = map[int]bool{}
			}
			where[k][i] = true
		}
	}
	length := len(s) - 1
	for i := 0; i < length; i++ {
		k := keys[i]
		if len(where[k]) < 2 {
			continue
		}
		var later []int // the places after i holding k, in order
		for p := range where[k] {
			if p > i {
				later = append(later, p)
			}
		}
		slices.Sort(later)
		lo, hi := 0, len(later)-1
		for lo <= hi && length > i {
			h := later[lo]
			lo++
			// j is at h: the last item fills the place, and is looked at
			// again when it holds k too
			for {
				last := length
				s[h], keys[h] = s[last], keys[last]
				length--
				if h == last {
					break // j passed the end
				}
				if keys[h] != k {
					if m := where[keys[h]]; m != nil {
						delete(m, last)
						m[h] = true
					}
					break
				}
				hi-- // the last item was the last of the later places
			}
		}
		where[k] = map[int]bool{i: true}
	}
	return s[:length+1]
}

// specialItems applies the items of a patch list that carry $patch:
// delete removes every live item with that key, replace discards the live
// list. It returns the live list after that and the patch's plain items.
func (a *applier) specialItems(orig []any, patch []*yaml.Node, key []string) ([]any, []any, error) {
	plain := []any{}
	replace := false
	var replaceAt *yaml.Node
	var deletes []string
	for i, p := range patch {
		d := tree.MapGet(p, directivePatch)
		if d == nil {
			plain = append(plain, p)
			continue
		}
		switch directiveValue(d) {
		case "delete":
			id, ok := keyOf(p, key)
			if !ok {
				a.pushItem(fieldpath.Index(i))
				err := a.errorf(ReasonMergeKey, p, "the item to delete does not contain declared merge key: %s", keyString(key))
				a.pop()
				return nil, nil, err
			}
			deletes = append(deletes, id)
			if a.recording() {
				a.record(change.Delete, p, nil, entryLabel(p, key, i))
			}
		case "replace":
			replace, replaceAt = true, d
		case "merge":
			return nil, nil, a.errorf(ReasonDirective, d, "merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, a.errorf(ReasonDirective, d, "unknown patch type: %s in a list item; $patch of a list item is delete or replace", describe(d))
		}
	}
	if len(deletes) > 0 {
		orig = deleteByKey(orig, deletes, key)
	}
	if replace {
		out := make([]any, 0, len(plain))
		for _, p := range plain {
			c, _ := a.verbatim(node(p))
			out = append(out, c)
		}
		if a.recording() {
			a.record(change.Set, replaceAt, tree.Clone(tree.NewSeq(toNodes(out)...)))
		}
		return out, nil, nil
	}
	return orig, plain, nil
}

// deleteByKey removes the live items whose key is one of ids, leaving the
// backing array as upstream's repeated in-place shifts leave it: the
// survivors first, then, in each freed slot from the end, the item that was
// last when that slot was freed.
func deleteByKey(orig []any, ids []string, key []string) []any {
	n := len(orig)
	positions := map[string][]int{}
	for i, v := range orig {
		if id, ok := keyOf(node(v), key); ok {
			positions[id] = append(positions[id], i)
		}
	}
	alive := make([]bool, n)
	for i := range alive {
		alive[i] = true
	}
	initial := append([]any(nil), orig...)
	tail := make([]any, n)
	last, length := n-1, n
	for _, id := range ids {
		for _, i := range positions[id] {
			if !alive[i] {
				continue
			}
			tail[length-1] = initial[last]
			alive[i] = false
			length--
			for last >= 0 && !alive[last] {
				last--
			}
		}
		positions[id] = nil
	}
	if length == n {
		return orig
	}
	j := 0
	for i := 0; i < n; i++ {
		if alive[i] {
			orig[j] = initial[i]
			j++
		}
	}
	copy(orig[length:n], tail[length:n])
	return orig[:length]
}

// mergeItems merges each plain patch item into the first live item with
// the same key, or appends a copy of it.
func (a *applier) mergeItems(orig []any, plain []any, key []string, elem *schema.Type) ([]any, error) {
	first := make(map[string]int, len(orig))
	for i, v := range orig {
		if id, ok := keyOf(node(v), key); ok {
			if _, seen := first[id]; !seen {
				first[id] = i
			}
		}
	}
	for i, v := range plain {
		p := node(v)
		id, ok := keyOf(p, key)
		if !ok {
			a.pushItem(fieldpath.Index(i))
			err := a.errorf(ReasonMergeKey, p, "the item does not contain declared merge key: %s", keyString(key))
			a.pop()
			return nil, err
		}
		if at, found := first[id]; found {
			a.pushItem(entryLabel(p, key, i))
			res, err := a.mergeMap(node(orig[at]), p, elem)
			a.pop()
			if err != nil {
				return nil, err
			}
			orig[at] = res
			continue
		}
		c, _ := a.verbatim(p)
		orig = append(orig, c)
		first[id] = len(orig) - 1
		if a.recording() {
			a.recordNewItem(p, entryLabel(p, key, i), elem)
		}
	}
	return orig, nil
}

// partition splits merged into the items the list by names and the others.
func (a *applier) partition(merged, by []any, key []string) (named, others []any, err error) {
	named = make([]any, 0, len(merged))
	others = make([]any, 0, len(merged))
	if len(key) == 0 {
		in := make(map[string]bool, len(by))
		for _, v := range by {
			if !tree.KindOf(node(v)).Scalar() {
				return nil, nil, a.errorf(ReasonType, node(v), "%s in a list ordered by value; upstream cannot hash it", describe(node(v)))
			}
			in[tree.Key(node(v))] = true
		}
		for _, v := range merged {
			if !tree.KindOf(node(v)).Scalar() {
				return nil, nil, a.errorf(ReasonMergeKey, node(v), "a list of objects needs a merge key to be ordered")
			}
			if in[tree.Key(node(v))] {
				named = append(named, v)
			} else {
				others = append(others, v)
			}
		}
		return named, others, nil
	}
	// Items of by are scanned in order; a non-object met before the match is an error.
	firstBad := -1
	pos := make(map[string]int, len(by))
	for i, v := range by {
		b := node(v)
		if b.Kind != yaml.MappingNode {
			if firstBad < 0 {
				firstBad = i
			}
			continue
		}
		if id, ok := keyOf(b, key); ok {
			if _, seen := pos[id]; !seen {
				pos[id] = i
			}
		}
	}
	for _, v := range merged {
		e := node(v)
		if e.Kind != yaml.MappingNode {
			return nil, nil, a.errorf(ReasonType, e, "expected an object in a list of objects, got %s", describe(e))
		}
		id, ok := keyOf(e, key)
		if !ok {
			return nil, nil, a.errorf(ReasonMergeKey, e, "an item does not contain declared merge key: %s", keyString(key))
		}
		at, found := pos[id]
		if firstBad >= 0 && (!found || firstBad < at) {
			return nil, nil, a.errorf(ReasonType, node(by[firstBad]), "value for key %d is not a map", firstBad)
		}
		if found {
			named = append(named, v)
		} else {
			others = append(others, v)
		}
	}
	return named, others, nil
}

// orderKeys returns how items are compared when ordering: by merge key for
// objects, by value for scalars (the kind of the list decides, as upstream).
func orderKeys(kind tree.Kind, key []string) []string {
	if kind != tree.Object {
		return nil
	}
	if len(key) == 0 {
		return []string{""}
	}
	return key
}

// normalizeOrder orders the merged list (upstream's normalizeElementOrder):
// the patch's items in the patch's order, the server-only items in live
// order, interleaved the way upstream interleaves them.
func (a *applier) normalizeOrder(named, others, patchOrder, liveOrder []any, key []string, kind tree.Kind) ([]any, error) {
	k := orderKeys(kind, key)
	named, err := a.sortByOrder(named, patchOrder, nil, k, kind)
	if err != nil {
		return nil, err
	}
	livePos := firstPositions(liveOrder, k) // for both the sort and the interleave
	others, err = a.sortByOrder(others, liveOrder, livePos, k, kind)
	if err != nil {
		return nil, err
	}
	return interleave(others, named, func(v any) int {
		if id, ok := keyOf(node(v), k); ok {
			if p, found := livePos[id]; found {
				return p
			}
		}
		return -1
	}), nil
}

// firstPositions maps each identity to its first position in l.
func firstPositions(l []any, key []string) map[string]int {
	pos := make(map[string]int, len(l))
	for i, v := range l {
		id, ok := keyOf(node(v), key)
		if !ok {
			continue
		}
		if _, seen := pos[id]; !seen {
			pos[id] = i
		}
	}
	return pos
}

// ranked is an item with its first position in an order (-1: absent).
type ranked struct {
	v   any
	idx int
}

func rank(items []any, pos map[string]int, key []string) []ranked {
	r := make([]ranked, len(items))
	for i, v := range items {
		r[i].v, r[i].idx = v, -1
		if id, ok := keyOf(node(v), key); ok {
			if p, found := pos[id]; found {
				r[i].idx = p
			}
		}
	}
	return r
}

// sortByOrder is upstream's normalizeSliceOrder: a stable sort by the
// position in order, where any pair not both found counts as "less" (so
// the result for such pairs is whatever sort.SliceStable makes of it, as
// upstream). Objects must carry the key; items marked $patch: delete go last.
//
// pos is firstPositions(order, key), or nil to compute it.
func (a *applier) sortByOrder(items, order []any, pos map[string]int, key []string, kind tree.Kind) ([]any, error) {
	var toDelete []any
	if kind == tree.Object {
		for _, l := range [][]any{items, order} {
			for _, v := range l {
				e := node(v)
				if e.Kind != yaml.MappingNode {
					return nil, a.errorf(ReasonType, e, "expected an object in a list of objects, got %s", describe(e))
				}
				if _, ok := keyOf(e, key); !ok {
					return nil, a.errorf(ReasonMergeKey, e, "an item does not contain declared merge key: %s", keyString(key))
				}
			}
		}
		kept := items[:0:0]
		for _, v := range items {
			if directiveValue(tree.MapGet(node(v), directivePatch)) == "delete" {
				toDelete = append(toDelete, v)
			} else {
				kept = append(kept, v)
			}
		}
		items = kept
	}
	if pos == nil {
		pos = firstPositions(order, key)
	}
	r := rank(items, pos, key)
	// slices.SortStableFunc is sort.SliceStable's algorithm (both are
	// generated from one template) asking cmp(a, b) < 0 where it asks
	// Less(a, b), without sort.SliceStable's reflection and closures.
	slices.SortStableFunc(r, func(x, y ranked) int {
		if x.idx >= 0 && y.idx >= 0 && x.idx >= y.idx {
			return 0 // not less
		}
		return -1
	})
	out := make([]any, 0, len(items)+len(toDelete))
	for _, x := range r {
		out = append(out, x.v)
	}
	return append(out, toDelete...), nil
}

// interleave is upstream's mergeSortedSlice, which orders a merged list:
// left (the live items the patch does not name, in live order) and right
// (the patch's items, in patch order) are walked together, and a left item
// comes first only when both it and the right item are in the live order
// (pos: its position there, -1 when it is not) and it comes earlier there.
// Lists merged by key and lists merged by $patchMergeKey are ordered so.
func interleave[T any](left, right []T, pos func(T) int) []any {
	out := make([]any, 0, len(left)+len(right))
	i, j := 0, 0
	for i < len(left) || j < len(right) {
		switch {
		case i >= len(left):
			out = append(out, right[j])
			j++
		case j >= len(right):
			out = append(out, left[i])
			i++
		default:
			li, ri := pos(left[i]), pos(right[j])
			if li >= 0 && ri >= 0 && li < ri {
				out = append(out, left[i])
				i++
			} else {
				out = append(out, right[j])
				j++
			}
		}
	}
	return out
}
