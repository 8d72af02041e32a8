package smp

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/nodeedit"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// $setElementOrder/<list>: [...] orders a merged list. The list is merged
// as the patch says, then ordered: by upstream's rules (normalizeOrder,
// with the directive's order) or by the specification's
// (spec/smp-set-element-order.md: items the directive does not name first,
// then the named ones in its order); for a list whose patch items carry
// $patchMergeKey, by the fields they use.

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
	if done, err := a.orderUsual(ov, fk, kn, pv, seo, elem, meta); done || err != nil {
		return pv != nil, err
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

// directiveKeys returns the fields the items of a patch list use as their
// key: all their $patchMergeKey lists (the list's merge key for items
// without one), in order of appearance.
func directiveKeys(items []*yaml.Node, def []string) []string {
	var keys []string
	add := func(k string) {
		for _, x := range keys {
			if x == k {
				return
			}
		}
		keys = append(keys, k)
	}
	for _, p := range items {
		d := tree.MapGet(p, directivePatchMergeKey)
		if d == nil || d.Kind != yaml.SequenceNode {
			for _, k := range def {
				add(k)
			}
			continue
		}
		for _, k := range d.Content {
			add(k.Value)
		}
	}
	return keys
}

// orderByDirective applies a $setElementOrder directive to a list merged by
// $patchMergeKey: each entry of the directive names the item whose key
// fields (those the patch items use) equal the entry's, a field the entry
// lacks being absent from the item. Items it does not name come first, in
// the order the merge left them, then the named ones in its order (there is
// no upstream order for such lists; both orders give this one).
func (a *applier) orderByDirective(merged []any, seo *yaml.Node, key []string) ([]any, error) {
	nodes := toNodes(merged)
	ix := newLiveIndex(nodes)
	rank := make(map[*yaml.Node]int, len(merged))
	for si, s := range seo.Content {
		if s.Kind != yaml.MappingNode {
			return nil, a.errorf(ReasonType, s, "$setElementOrder of a list of objects lists objects, not %s", describe(s))
		}
		hits := ix.candidates(s, key)
		if len(hits) > 1 {
			return nil, a.errorf(ReasonSetElementOrder, s, "$setElementOrder entry %d (%s) names more than one item", si, describeItem(s))
		}
		if len(hits) == 1 {
			if _, dup := rank[nodes[hits[0]]]; !dup {
				rank[nodes[hits[0]]] = si
			}
		}
	}
	var others, named []*yaml.Node
	for _, n := range nodes {
		if _, ok := rank[n]; ok {
			named = append(named, n)
		} else {
			others = append(others, n)
		}
	}
	sortByRank(named, rank)
	out := make([]any, 0, len(merged))
	for _, n := range others {
		out = append(out, n)
	}
	for _, n := range named {
		out = append(out, n)
	}
	return out, nil
}

// validateOrderByDirective checks, for a list merged by $patchMergeKey,
// that every item the patch adds or changes is named by the directive, in
// the patch's order.
func (a *applier) validateOrderByDirective(pv, seo *yaml.Node, key []string) error {
	if pv == nil || len(seo.Content) == 0 {
		return nil
	}
	var items []*yaml.Node
	for _, p := range pv.Content {
		if p.Kind == yaml.MappingNode && tree.MapGet(p, directivePatch) == nil {
			items = append(items, p)
		}
	}
	ix := newLiveIndex(items)
	pos := make([]int, len(items))
	for i := range pos {
		pos[i] = -1
	}
	for si, s := range seo.Content {
		if s.Kind != yaml.MappingNode {
			continue
		}
		for _, j := range ix.candidates(s, key) {
			if pos[j] < 0 {
				pos[j] = si
			}
		}
	}
	last := -1
	for i, p := range items {
		if pos[i] < 0 {
			return a.errorf(ReasonSetElementOrder, p, "the patch item %d is missing from $setElementOrder", i)
		}
		if pos[i] < last {
			return a.errorf(ReasonSetElementOrder, p, "the order in the patch list doesn't match $setElementOrder list: the patch item %d comes before an item the directive puts after it", i)
		}
		last = pos[i]
	}
	return nil
}

func sortByRank(ns []*yaml.Node, rank map[*yaml.Node]int) {
	sort.SliceStable(ns, func(i, j int) bool { return rank[ns[i]] < rank[ns[j]] })
}
