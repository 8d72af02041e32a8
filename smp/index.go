package smp

import (
	"slices"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/nodeedit"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// Merging a list the way upstream does (mergeList) takes passes over the
// whole list: its items are indexed by merge key, checked, partitioned and
// ordered. Many patches on one long list then cost the square of its
// length. For the usual shape of a list and of a patch the result follows
// from the items the patch names alone, and the merge below computes it
// from them, through an index of the list by merge key that lasts from one
// call of Apply to the next (Index).
//
// The usual shape: the list's items are all objects, each with a scalar,
// non-null value for the merge key (one field), no two with the same, and
// none carrying $patch; the patch list's items are objects with such a key
// value, plain or marked $patch: delete. Then (upstream's mergeSlice and
// normalizeElementOrder, as list.go reproduces them):
//
//   - the deletions remove the live items with their keys, in place;
//   - each plain item merges into the live item with its key, or into the
//     new item an earlier one of the patch added, or is added;
//   - the items the patch names come in the patch's order, the others in
//     live order; they are interleaved by walking the patch's items: a live
//     one comes after every other live item that was before it in the list,
//     or before any earlier named one; a new one comes right after the
//     item before it.
//
// A list ordered by $setElementOrder whose items are in the usual shape
// (orderUsual) is merged so, and then the items the directive names are
// placed in its order: after the others (OrderSpec), or interleaved with
// them by the same walk (OrderUpstream, unless the patch deletes a live
// item: upstream then orders by a slice into which the merge has shifted
// and appended items, which the passes reproduce).
//
// Anything else (a key missing, a directive other than delete, duplicate
// keys in the list, several key fields, $patchMergeKey) takes mergeList,
// which reports the errors and reproduces upstream in every case. The
// differential tests and FuzzDifferential compare both with upstream.

// Index keeps indexes of the merged lists and of the large objects of a
// document from one call of Apply to the next (Options.Index), so that many
// patches on one long list, or one object of many keys, take time
// proportional to the patches, not to the list or the object each time.
// The document must change only through Apply with this Index while the
// Index is in use: Apply keeps the indexes up to date with its own writes,
// and notices a list whose items, or an object whose keys, were replaced,
// but not an item whose merge key was changed by someone else, nor an
// object edited in place to as many keys. An Index is for one goroutine at
// a time.
type Index struct {
	lists map[*yaml.Node]*listIndex
	maps  nodeedit.Maps
}

// NewIndex returns an empty Index.
func NewIndex() *Index { return &Index{lists: map[*yaml.Node]*listIndex{}} }

// listIndex is the index of a list in the usual shape: its items by merge
// key value, and the content it was built for (a list whose content is
// another slice, or has another length, is indexed again).
type listIndex struct {
	content []*yaml.Node
	buf     []*yaml.Node // content's backing array, which may hold room before it
	off     int          // where content starts in buf
	owned   bool         // buf was made here, not by whoever made the list: it may be edited
	key     string
	items   map[string]*yaml.Node
}

// index returns the index of the list node l by the merge key field key,
// or nil when the list is not in the usual shape.
func (a *applier) index(l *yaml.Node, key string) *listIndex {
	if a.ix == nil {
		a.ix = NewIndex()
	}
	if li := a.ix.lists[l]; li != nil && li.key == key && len(li.content) == len(l.Content) && &li.content[0] == &l.Content[0] {
		return li
	}
	delete(a.ix.lists, l)
	li := &listIndex{content: l.Content, buf: l.Content, key: key, items: make(map[string]*yaml.Node, len(l.Content))}
	for _, e := range l.Content {
		id, ok := usualItem(e, key)
		if !ok || tree.MapGet(e, directivePatch) != nil {
			return nil
		}
		if _, twice := li.items[id]; twice {
			return nil
		}
		li.items[id] = e
	}
	a.ix.lists[l] = li
	return li
}

// usualItem returns the identity of an item in the usual shape: an object
// whose merge key value is a non-null scalar.
func usualItem(e *yaml.Node, key string) (string, bool) {
	if e.Kind != yaml.MappingNode || tree.KindOf(e) != tree.Object {
		return "", false
	}
	v := tree.MapGet(e, key)
	if v == nil || v.Kind != yaml.ScalarNode || tree.KindOf(v) == tree.Null {
		return "", false
	}
	return scalarID(v), true
}

// patchItem is an item of the patch list, checked for the usual shape.
type patchItem struct {
	p   *yaml.Node
	id  string
	del bool
}

// named is an item the patch names, in the result: the live item it
// merged into (live) or the new one it added.
type named struct {
	n    *yaml.Node
	live bool
}

// mergeUsual merges the patch list pv into the list node ov when both are
// in the usual shape (see above), and reports whether it did; when it did
// not, nothing was changed or recorded. kn is the patch's key of the list.
func (a *applier) mergeUsual(ov, kn, pv *yaml.Node, elem *schema.Type, meta schema.Meta) (bool, error) {
	key, ok := a.usualList(ov, meta)
	if !ok || len(pv.Content) == 0 {
		return false, nil
	}
	items, ok := usualPatch(pv, key)
	if !ok {
		return false, nil
	}
	li := a.index(ov, key)
	if li == nil {
		return false, nil
	}
	if a.recording() {
		a.record(change.Merge, kn, tree.NewSeq())
	}
	m, err := a.mergeNamed(li, items, elem)
	if err != nil {
		return true, err
	}
	result, reordered := li.arrange(m.order, m.gone)
	if a.recording() && reordered {
		a.record(change.Order, pv.Content[0], nil)
	}
	a.settle(ov, li, m, result)
	return true, nil
}

// usualList reports whether the list ov, merged by meta, may be merged
// through the index: not composing patches, merged by a one-field key, not
// empty. It returns the key.
func (a *applier) usualList(ov *yaml.Node, meta schema.Meta) (string, bool) {
	if a.compose || a.opts.scanOnly || meta.Strategy != schema.StrategyMerge || len(meta.MergeKey) != 1 || len(ov.Content) == 0 {
		return "", false
	}
	key := meta.MergeKey[0]
	return key, key != "" && key[0] != '$'
}

// usualPatch checks the items of the patch list pv for the usual shape.
func usualPatch(pv *yaml.Node, key string) ([]patchItem, bool) {
	items := make([]patchItem, len(pv.Content))
	for i, p := range pv.Content {
		id, ok := usualItem(p, key)
		if !ok || tree.MapGet(p, directivePatchMergeKey) != nil {
			return nil, false
		}
		items[i] = patchItem{p: p, id: id}
		if d := tree.MapGet(p, directivePatch); d != nil {
			if directiveValue(d) != "delete" {
				return nil, false
			}
			items[i].del = true
		}
	}
	return items, true
}

// namedMerge is what merging a patch list's items did: the items it names,
// in its order; the live items it deleted; the new items, by key, at
// their places in order.
type namedMerge struct {
	order   []named
	gone    map[*yaml.Node]bool
	goneIDs map[string]bool
	added   map[string]int
}

// mergeNamed merges the items of a patch list in the usual shape into the
// live items of the list li indexes, recording the changes: the deletions
// first, as upstream, then the plain items in order. It leaves the list
// itself as it was, for arrange to place the items.
func (a *applier) mergeNamed(li *listIndex, items []patchItem, elem *schema.Type) (*namedMerge, error) {
	keys := []string{li.key}
	m := &namedMerge{}
	for i, it := range items {
		if !it.del {
			continue
		}
		if a.recording() {
			a.record(change.Delete, it.p, nil, entryLabel(it.p, keys, i))
		}
		if e := li.items[it.id]; e != nil && !m.gone[e] {
			if m.gone == nil {
				m.gone, m.goneIDs = map[*yaml.Node]bool{}, map[string]bool{}
			}
			m.gone[e], m.goneIDs[it.id] = true, true
		}
	}
	var namedLive map[string]bool
	plain := 0
	for _, it := range items {
		if it.del {
			continue
		}
		i := plain
		plain++
		if j, ok := m.added[it.id]; ok {
			a.pushItem(entryLabel(it.p, keys, i))
			res, err := a.mergeMap(m.order[j].n, it.p, elem)
			a.pop()
			if err != nil {
				return nil, err
			}
			m.order[j].n = res
			continue
		}
		if e := li.items[it.id]; e != nil && !m.goneIDs[it.id] {
			a.pushItem(entryLabel(it.p, keys, i))
			res, err := a.mergeMap(e, it.p, elem)
			a.pop()
			if err != nil {
				return nil, err
			}
			if !namedLive[it.id] {
				if namedLive == nil {
					namedLive = map[string]bool{}
				}
				namedLive[it.id] = true
				m.order = append(m.order, named{n: res, live: true})
			}
			continue
		}
		c, _ := a.verbatim(it.p)
		if m.added == nil {
			m.added = map[string]int{}
		}
		m.added[it.id] = len(m.order)
		m.order = append(m.order, named{n: c})
		if a.recording() {
			a.recordNewItem(it.p, entryLabel(it.p, keys, i), elem)
		}
	}
	return m, nil
}

// settle makes result, the list after the merge m, the content of the list
// node ov and of its index li.
func (a *applier) settle(ov *yaml.Node, li *listIndex, m *namedMerge, result []*yaml.Node) {
	for id := range m.goneIDs {
		delete(li.items, id)
	}
	for id, j := range m.added {
		li.items[id] = m.order[j].n
	}
	if len(result) == 0 {
		result = []*yaml.Node{} // as toNodes leaves it
		delete(a.ix.lists, ov)
	} else {
		li.content = result
	}
	ov.Content = result
}

// orderUsual applies $setElementOrder/<field> (its key kn, its list seo)
// to the list node ov, merging the patch list pv (nil: none) first, when
// the list, the patch list and the directive are in the usual shape (the
// directive's items objects with the merge key, as the patch's), and
// reports whether it did. fk is the patch's key of the list. As the passes
// of setElementOrder do (mergeList, then partition and normalizeOrder),
// the patch's items are merged and recorded as without the directive, and
// then the items the directive names (the live ones left and the new ones,
// each once, in its order) are placed: after the others (OrderSpec), or
// interleaved with them as upstream does (arrange). validateOrder has
// checked the patch list against the directive.
func (a *applier) orderUsual(ov, fk, kn, pv, seo *yaml.Node, elem *schema.Type, meta schema.Meta) (bool, error) {
	if ov == nil {
		return false, nil
	}
	key, ok := a.usualList(ov, meta)
	if !ok || pv != nil && len(pv.Content) == 0 {
		return false, nil
	}
	ids := make([]string, len(seo.Content))
	for i, s := range seo.Content {
		if ids[i], ok = usualItem(s, key); !ok {
			return false, nil
		}
	}
	var items []patchItem
	if pv != nil {
		if items, ok = usualPatch(pv, key); !ok {
			return false, nil
		}
		// the directive names every item the patch merges or adds (an
		// empty directive checks nothing: the others are ordered too)
		for _, it := range items {
			if !it.del && !slices.Contains(ids, it.id) {
				return false, nil
			}
		}
	}
	li := a.index(ov, key)
	if li == nil {
		return false, nil
	}
	if a.opts.ListOrder == OrderUpstream {
		// Upstream orders the list by the live list's slice, into whose
		// array the merge has shifted the items left after a deletion
		// and appended new ones (list.go): new items then take live
		// places. The passes reproduce that.
		for _, it := range items {
			if it.del && li.items[it.id] != nil {
				return false, nil
			}
		}
	}
	m := &namedMerge{}
	if pv != nil {
		if a.recording() {
			a.record(change.Merge, fk, tree.NewSeq())
		}
		var err error
		if m, err = a.mergeNamed(li, items, elem); err != nil {
			return true, err
		}
		if a.recording() && li.reorders(m.order) {
			a.record(change.Order, pv.Content[0], nil) // the merge's order, as without the directive
		}
	}
	var order []named
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		if j, ok := m.added[id]; ok {
			order = append(order, m.order[j])
		} else if e := li.items[id]; e != nil && !m.goneIDs[id] {
			order = append(order, named{n: e, live: true})
		}
	}
	var result []*yaml.Node
	if a.opts.ListOrder == OrderSpec {
		result = li.putLast(order, m.gone)
	} else {
		result, _ = li.arrange(order, m.gone)
	}
	a.settle(ov, li, m, result)
	a.record(change.Order, kn, seo)
	return true, nil
}

// reorders reports whether merging a patch list whose items are order (in
// its order) puts live items out of their live order: arrange's report,
// without arranging.
func (li *listIndex) reorders(order []named) bool {
	var live []*yaml.Node
	for _, x := range order {
		if x.live {
			live = append(live, x.n)
		}
	}
	if len(live) < 2 {
		return false
	}
	pos := positions(li.content, live)
	for i := 1; i < len(pos); i++ {
		if pos[i] < pos[i-1] {
			return true
		}
	}
	return false
}

// putLast returns the list with the items gone removed and the items of
// order after all the others, in its order (the specification's order of
// $setElementOrder): the live items of order leave their places, the list
// closes up from the first place left, and order is written after it. The
// list's backing array (li.buf) is edited in place, grown with room after
// the list when order needs more than the places left.
func (li *listIndex) putLast(order []named, gone map[*yaml.Node]bool) []*yaml.Node {
	holes := make([]*yaml.Node, 0, len(gone)+len(order))
	for n := range gone {
		holes = append(holes, n)
	}
	for _, x := range order {
		if x.live {
			holes = append(holes, x.n)
		}
	}
	if len(holes) == 0 && len(order) == 0 {
		return li.content
	}
	li.own()
	live := li.content
	n, kept := len(live), len(live)-len(holes)
	to := kept // where the list closes up to: from the first hole
	if len(holes) > 0 {
		at := positions(live, holes)
		slices.Sort(at)
		to = at[0]
		for j := range at {
			end := n
			if j+1 < len(at) {
				end = at[j+1]
			}
			to += copy(live[to:], live[at[j]+1:end])
		}
	}
	size := kept + len(order)
	if li.off+size > len(li.buf) {
		// room before the list as large as it, and after it
		buf := make([]*yaml.Node, 3*size)
		copy(buf[size:], live[:kept])
		clear(li.buf)
		li.buf, li.off = buf, size
	}
	out := li.buf[li.off : li.off+size : li.off+size]
	for i, x := range order {
		out[kept+i] = x.n
	}
	clear(li.buf[li.off+size : li.off+max(size, n)])
	return out
}

// arrange returns the list after the merge: the live items but those gone,
// and the items the patch names (order), placed as upstream places them;
// and whether live items changed their order. The usual edits are made in
// place, in the list's backing array (li.buf), which keeps room before the
// list for items added at its front: items added (they come first), items
// deleted (the shorter side of the list moves), one item merged (nothing
// moves). It looks for the positions of the live items it needs from the
// list's start, and stops when it has them all.
func (li *listIndex) arrange(order []named, gone map[*yaml.Node]bool) ([]*yaml.Node, bool) {
	live := li.content
	nLive := 0
	for _, x := range order {
		if x.live {
			nLive++
		}
	}
	switch {
	case len(gone) == 0 && nLive == 0:
		return li.prepend(order), false // new items only: they come first
	case len(gone) == 0 && nLive == 1 && len(order) == 1:
		return live, false // one item merged in place
	}
	holes := make([]*yaml.Node, 0, len(gone)+nLive)
	for _, n := range live { // in list order, so that the holes are
		if gone[n] {
			holes = append(holes, n)
			if len(holes) == len(gone) {
				break
			}
		}
	}
	for _, x := range order {
		if x.live {
			holes = append(holes, x.n)
		}
	}
	pos := positions(live, holes)
	if nLive == 0 && len(order) == 0 {
		li.own()
		return li.remove(pos[:len(gone)]), false
	}
	at := slices.Clone(pos)
	slices.Sort(at)
	named := pos[len(gone):]
	reordered := false
	out := make([]*yaml.Node, 0, len(live)-len(gone)+len(order)-nLive)
	c, h := 0, 0 // the next live position to copy, the next hole
	flush := func(to int) {
		for c < to {
			end := to
			if h < len(at) && at[h] < end {
				end = at[h]
			}
			out = append(out, live[c:end]...)
			c = end
			if h < len(at) && at[h] == c && c < to {
				c++
				h++
			}
		}
	}
	most, k := -1, 0 // the furthest live position a named item took
	for _, x := range order {
		if x.live {
			p := named[k]
			k++
			if p < most {
				reordered = true
			} else {
				most = p
			}
			flush(most)
		}
		out = append(out, x.n)
	}
	flush(len(live))
	li.buf, li.off, li.owned = out, 0, true
	return out, reordered
}

// positions returns the positions of nodes in list, each there once,
// scanning from the start until it has them all.
func positions(list, nodes []*yaml.Node) []int {
	pos := make([]int, len(nodes))
	left := len(nodes)
	if len(nodes) <= 8 {
		for i, e := range list {
			for j, n := range nodes {
				if e == n {
					pos[j] = i
					left--
				}
			}
			if left == 0 {
				break
			}
		}
		return pos
	}
	which := make(map[*yaml.Node]int, len(nodes))
	for j, n := range nodes {
		which[n] = j
	}
	for i, e := range list {
		if j, ok := which[e]; ok {
			pos[j] = i
			if left--; left == 0 {
				break
			}
		}
	}
	return pos
}

// prepend puts the new items of order before the list, in the room the
// backing array keeps there, made as large as the list when it is short.
func (li *listIndex) prepend(order []named) []*yaml.Node {
	n, k := len(li.content), len(order)
	if li.off < k {
		room := n + k
		buf := make([]*yaml.Node, room+k+n)
		copy(buf[room+k:], li.content)
		if li.owned {
			clear(li.buf) // what it held is in buf now
		}
		li.buf, li.off, li.owned = buf, room+k, true
	}
	li.off -= k
	for i, x := range order {
		li.buf[li.off+i] = x.n
	}
	return li.buf[li.off : li.off+k+n : li.off+k+n]
}

// own makes the list's backing array one made here, with room before the
// list as large as the list: the array the document came with may be
// shared (a shallow copy of the list node) and is not edited.
func (li *listIndex) own() {
	if li.owned {
		return
	}
	n := len(li.content)
	buf := make([]*yaml.Node, 2*n)
	copy(buf[n:], li.content)
	li.buf, li.off, li.content, li.owned = buf, n, buf[n:], true
}

// remove removes the items at the positions at (in list order) from the
// list, moving the shorter side: the items before the last one toward the
// end (the list then starts later in its backing array), or those after
// the first toward the start.
func (li *listIndex) remove(at []int) []*yaml.Node {
	live := li.content
	n := len(live)
	if at[len(at)-1] < n-at[0] {
		to := at[len(at)-1] // the slot the last item before it moves to
		for j := len(at) - 1; j >= 0; j-- {
			from := -1
			if j > 0 {
				from = at[j-1]
			}
			seg := live[from+1 : at[j]]
			copy(live[to-len(seg)+1:to+1], seg)
			to -= len(seg)
		}
		clear(live[:len(at)])
		li.off += len(at)
		return li.buf[li.off : li.off+n-len(at) : li.off+n-len(at)]
	}
	to := at[0]
	for j := range at {
		end := n
		if j+1 < len(at) {
			end = at[j+1]
		}
		to += copy(live[to:], live[at[j]+1:end])
	}
	clear(live[to:])
	return live[:to:to]
}
