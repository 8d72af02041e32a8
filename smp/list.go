package smp

import (
	"cmp"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/nodeedit"
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
// is it reproduced step by step (quadratic, like upstream). Otherwise the
// first of each value is kept, which gives the same result.
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
		return dedupeExact(s)
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

// dedupeExact is upstream's in-place duplicate removal.
func dedupeExact(s []any) []any {
	keys := make([]string, len(s))
	for i, v := range s {
		keys[i] = tree.Key(node(v))
	}
	length := len(s) - 1
	for i := 0; i < length; i++ {
		for j := i + 1; j <= length; j++ {
			if keys[i] == keys[j] {
				s[j], keys[j] = s[length], keys[length]
				s = s[:length]
				length--
				j--
			}
		}
	}
	return s
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
	return interleave(others, named, livePos, k), nil
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

// interleave is upstream's mergeSortedSlice: it walks both lists and takes
// the server-only item first only when both it and the patch item are in
// the live order and it comes earlier there.
// pos is firstPositions(liveOrder, key).
func interleave(left, right []any, pos map[string]int, key []string) []any {
	index := func(v any) int {
		id, ok := keyOf(node(v), key)
		if !ok {
			return -1
		}
		if p, found := pos[id]; found {
			return p
		}
		return -1
	}
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
			li, ri := index(left[i]), index(right[j])
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

// setElementOrders applies every $setElementOrder/<field> of the patch:
// the list <field> is merged, then ordered by the directive. It returns the
// fields whose patch list it consumed.
func (a *applier) setElementOrders(m *nodeedit.Map, patch *yaml.Node, t *schema.Type) (map[string]bool, error) {
	var consumed map[string]bool
	for i := 0; i+1 < len(patch.Content); i += 2 {
		kn, seo := patch.Content[i], patch.Content[i+1]
		if !strings.HasPrefix(kn.Value, prefixSetOrder) {
			continue
		}
		if a.compose {
			// both patches must agree; the directive is carried, and also applied
			if cur := m.Get(kn.Value); cur == nil {
				m.Set(kn, tree.Clone(seo))
			} else if !tree.Equal(cur, seo) {
				return nil, a.errorf(ReasonDirective, seo, "invalid patch format of setElementOrder list: the two patches give different %s lists", kn.Value)
			}
		}
		if tree.KindOf(seo) != tree.Array {
			return nil, a.errorf(ReasonType, seo, "%s must be a list, not %s", kn.Value, describe(seo))
		}
		f, ok := directiveField(kn.Value, prefixSetOrder)
		if !ok {
			return nil, a.errorf(ReasonDirective, kn, "invalid patch format of setElementOrder list: %q is not $setElementOrder/<field>", kn.Value)
		}
		used, err := a.setElementOrder(m, patch, f, kn, seo, t)
		if err != nil {
			return nil, err
		}
		if used {
			if consumed == nil {
				consumed = map[string]bool{}
			}
			consumed[f] = true
		}
	}
	return consumed, nil
}

// setElementOrder applies the directive $setElementOrder/f (the key kn,
// the list seo) of the patch.
func (a *applier) setElementOrder(m *nodeedit.Map, patch *yaml.Node, f string, kn, seo *yaml.Node, t *schema.Type) (bool, error) {
	a.push(f)
	defer a.pop()
	ov := m.Get(f)
	pv := tree.MapGet(patch, f)
	fk := kn // the patch's key of the list, for positions
	if i := tree.MapIndex(patch, f); i >= 0 {
		fk = patch.Content[i]
	}
	if ov != nil && tree.KindOf(ov) != tree.Array {
		return false, a.errorf(ReasonType, ov, "$setElementOrder/%s orders a list, but the document holds %s", f, describe(ov))
	}
	if pv != nil && tree.KindOf(pv) != tree.Array {
		return false, a.errorf(ReasonType, pv, "$setElementOrder/%s orders a list, but the patch gives %s", f, describe(pv))
	}
	elem, meta, err := t.PatchField(f, true)
	if err != nil {
		return false, a.errorf(ReasonSchema, seo, "%v", err)
	}
	if pv != nil && usesPatchMergeKey(pv.Content) {
		used, err := a.setElementOrderByDirective(m, f, ov, fk, pv, seo, elem, meta)
		if err == nil {
			a.record(change.Order, kn, seo)
		}
		return used, err
	}
	key := meta.MergeKey
	if err := a.validateOrder(pv, seo, key); err != nil {
		return false, err
	}
	var live, patchItems, merged []any
	var created *yaml.Node // the list, when only the patch has it
	if ov != nil {
		live = toSlice(ov.Content)
	}
	if pv != nil {
		patchItems = toSlice(pv.Content)
	}
	switch {
	case ov != nil && pv == nil:
		merged = live
	case ov == nil && pv != nil:
		created = a.addedList(pv)
		merged = toSlice(created.Content)
		if a.recording() {
			a.record(change.Create, fk, tree.NewSeq())
			a.mergeListField(nil, fk, pv, elem, meta, false) //nolint:errcheck // for its records
		}
	case ov != nil && pv != nil:
		if merged, err = a.mergeListField(live, fk, pv, elem, meta, false); err != nil {
			return false, err
		}
	default:
		return false, nil
	}
	order := toSlice(seo.Content)
	named, others, err := a.partition(merged, order, key)
	if err != nil {
		return false, err
	}
	kind, err := a.elementKind(live, patchItems)
	if err != nil {
		return false, err
	}
	result, err := a.normalizeOrder(named, others, order, live, key, kind)
	if err != nil {
		return false, err
	}
	if a.opts.ListOrder == OrderSpec && !a.compose {
		result = specOrder(named, others, order, orderKeys(kind, key))
	}
	if ov == nil {
		ov = created
		m.Set(&yaml.Node{Kind: yaml.ScalarNode, Value: f}, ov)
	}
	ov.Content = toNodes(result)
	a.record(change.Order, kn, seo)
	return pv != nil, nil
}

// specOrder is the order spec/smp-set-element-order.md states: items the
// directive does not name first, in the order the merge left them (live
// order for live items), then the named items in the directive's order.
func specOrder(named, others, order []any, key []string) []any {
	r := rank(named, firstPositions(order, key), key)
	slices.SortStableFunc(r, func(x, y ranked) int { return cmp.Compare(x.idx, y.idx) })
	out := append(make([]any, 0, len(named)+len(others)), others...)
	for _, x := range r {
		out = append(out, x.v)
	}
	return out
}

// validateOrder checks that the patch list follows the order of the
// directive (items marked $patch: delete aside), as upstream does.
func (a *applier) validateOrder(pv, seo *yaml.Node, key []string) error {
	if pv == nil || len(pv.Content) == 0 || len(seo.Content) == 0 {
		return nil
	}
	items := pv.Content
	if len(key) > 0 {
		kept := make([]*yaml.Node, 0, len(items))
		for _, p := range items {
			if p.Kind != yaml.MappingNode {
				return a.errorf(ReasonType, p, "expected an object in a list of objects, got %s", describe(p))
			}
			if directiveValue(tree.MapGet(p, directivePatch)) != "delete" {
				kept = append(kept, p)
			}
		}
		items = kept
	}
	pi, si := 0, 0
	for pi < len(items) && si < len(seo.Content) {
		p := items[pi]
		if p.Kind == yaml.MappingNode && tree.MapGet(p, directivePatch) != nil {
			pi++
			continue
		}
		eq, err := a.sameItem(p, seo.Content[si], key)
		if err != nil {
			return err
		}
		if eq {
			pi++
		}
		si++
	}
	if pi < len(items) && si >= len(seo.Content) {
		return a.errorf(ReasonSetElementOrder, items[pi], "the order in the patch list doesn't match $setElementOrder list: the patch item %d is missing from it or out of its order", pi)
	}
	return nil
}

// sameItem compares two items by merge key (or by value), as upstream's
// mergeKeyValueEqual does, including its failures.
func (a *applier) sameItem(l, r *yaml.Node, key []string) (bool, error) {
	if len(key) == 0 {
		lk, rk := tree.KindOf(l), tree.KindOf(r)
		if lk == rk && !lk.Scalar() {
			return false, a.errorf(ReasonSetElementOrder, r, "cannot compare %s items of $setElementOrder", lk)
		}
		return lk == rk && tree.Key(l) == tree.Key(r), nil
	}
	for _, e := range []*yaml.Node{l, r} {
		if e.Kind != yaml.MappingNode {
			return false, a.errorf(ReasonType, e, "expected an object in a list of objects, got %s", describe(e))
		}
	}
	for _, e := range []*yaml.Node{l, r} {
		if _, ok := keyOf(e, key); !ok {
			return false, a.errorf(ReasonMergeKey, e, "an item does not contain declared merge key: %s", keyString(key))
		}
	}
	for _, f := range key {
		lv, rv := tree.MapGet(l, f), tree.MapGet(r, f)
		lk, rk := tree.KindOf(lv), tree.KindOf(rv)
		if lk == rk && !lk.Scalar() {
			return false, a.errorf(ReasonMergeKey, rv, "merge key %s has %s value; merge key values must be scalars", f, article(lk))
		}
	}
	lid, _ := keyOf(l, key)
	rid, _ := keyOf(r, key)
	return lid == rid, nil
}

// setElementOrderByDirective is setElementOrder for a list whose patch items
// carry $patchMergeKey.
func (a *applier) setElementOrderByDirective(m *nodeedit.Map, f string, ov, fk, pv, seo *yaml.Node, elem *schema.Type, meta schema.Meta) (bool, error) {
	key := directiveKeys(pv.Content, meta.MergeKey)
	if err := a.validateOrderByDirective(pv, seo, key); err != nil {
		return false, err
	}
	var live []any
	if ov != nil {
		live = toSlice(ov.Content)
	}
	merged, err := a.mergeByPatchMergeKey(live, pv.Content, elem, meta.MergeKey)
	if err != nil {
		return false, err
	}
	result, err := a.orderByDirective(merged, seo, key)
	if err != nil {
		return false, err
	}
	if ov == nil {
		ov = tree.NewSeq()
		m.Set(&yaml.Node{Kind: yaml.ScalarNode, Value: f}, ov)
		if a.recording() {
			a.record(change.Create, fk, tree.NewSeq())
		}
	}
	ov.Content = toNodes(result)
	return true, nil
}
