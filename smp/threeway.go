package smp

import (
	"fmt"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/nodeedit"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// CreateThreeWayPatch returns the patch kubectl apply sends: it makes
// current (the live object) what modified (the new configuration) says,
// deletes what original (the last-applied configuration) had and modified
// does not, and keeps what others added to current. It is upstream's
// CreateThreeWayMergePatch.
//
// Unless overwrite, a patch that changes what someone else changed since
// original is refused with a *change.LiveConflictError naming every such path.
func CreateThreeWayPatch(original, modified, current *yaml.Node, t *schema.Type, overwrite bool, opts DiffOptions) (*yaml.Node, error) {
	d := &differ{a: &applier{}, extended: opts.Extended}
	docs, err := d.roots(original, modified, current)
	if err != nil {
		return nil, err
	}
	o, m, c := docs[0], docs[1], docs[2]
	// the changes from current to modified, without deletions, applied as
	// a patch onto the deletions from original to modified
	delta, err := d.diffMaps(c, m, t, diffFlags{ignoreDeletions: true, setOrder: true})
	if err != nil {
		return nil, err
	}
	deletions, err := d.diffMaps(o, m, t, diffFlags{setOrder: true, ignoreChanges: true})
	if err != nil {
		return nil, err
	}
	composer := &applier{compose: true, opts: Options{ListOrder: OrderUpstream}}
	patch, err := composer.mergeMap(deletions, delta, t)
	if err != nil {
		return nil, err
	}
	if overwrite {
		return patch, nil
	}
	changed, err := d.diffMaps(o, c, t, diffFlags{})
	if err != nil {
		return nil, err
	}
	ck := &conflicts{}
	ck.maps(patch, changed, t, nil)
	if len(ck.found) > 0 {
		return nil, &change.LiveConflictError{Conflicts: ck.found, Patch: patch, Changed: changed, Err: ck.err}
	}
	if ck.err != nil {
		return nil, ck.err
	}
	return patch, nil
}

// Conflict is a path the patch and the live object's changes both touch.
//
// Deprecated: use change.LiveConflict (one type for both engines).
type Conflict = change.LiveConflict

// ConflictError is returned by CreateThreeWayPatch without overwrite.
//
// Deprecated: use change.LiveConflictError (one type for both engines).
type ConflictError = change.LiveConflictError

// conflicts is upstream's MergingMapsHaveConflicts, walking everything
// instead of stopping at the first conflict, so that every path is named.
// The first failure to compare is kept in err; the walk goes on.
type conflicts struct {
	found []change.LiveConflict
	err   error
}

func (ck *conflicts) fail(err error) {
	if ck.err == nil {
		ck.err = err
	}
}

func (ck *conflicts) add(path fieldpath.Path, p, c *yaml.Node) {
	ck.found = append(ck.found, change.LiveConflict{Path: path, Patch: p, Changed: c})
}

// fields compares two values of a field with the given strategy and key.
func (ck *conflicts) fields(l, r *yaml.Node, t *schema.Type, strategy schema.Strategy, key []string, path fieldpath.Path) {
	switch tree.KindOf(l) {
	case tree.Object:
		if tree.KindOf(r) != tree.Object {
			ck.add(path, l, r)
			return
		}
		lm, rm := tree.MapGet(l, directivePatch), tree.MapGet(r, directivePatch)
		if lm != nil || rm != nil {
			if lm == nil || rm == nil || !tree.Equal(lm, rm) {
				ck.add(path, l, r)
				return
			}
		}
		if strategy != schema.StrategyReplace {
			ck.maps(l, r, t, path)
		}
	case tree.Array:
		if tree.KindOf(r) != tree.Array {
			ck.add(path, l, r)
			return
		}
		ck.lists(l.Content, r.Content, t, strategy, key, path)
	default:
		if !tree.Equal(l, r) {
			ck.add(path, l, r)
		}
	}
}

func (ck *conflicts) maps(l, r *yaml.Node, t *schema.Type, path fieldpath.Path) {
	inR := nodeedit.NewMap(r).Get // r's keys, indexed when it has many
	for i := 0; i+1 < len(l.Content); i += 2 {
		key, lv := l.Content[i].Value, l.Content[i+1]
		if key == directivePatch || key == directiveRetainKeys {
			continue
		}
		rv := inR(key)
		if rv == nil {
			continue
		}
		var sub *schema.Type
		var meta schema.Meta
		var err error
		switch tree.KindOf(lv) {
		case tree.Array:
			sub, meta, err = t.PatchField(key, true)
		case tree.Object:
			sub, meta, err = t.PatchField(key, false)
		}
		if err != nil {
			ck.fail(&Error{Reason: ReasonSchema, Path: path.Append(fieldpath.Field(key)), Msg: err.Error()})
			continue
		}
		ck.fields(lv, rv, sub, meta.Strategy, meta.MergeKey, path.Append(fieldpath.Field(key)))
	}
}

func (ck *conflicts) lists(l, r []*yaml.Node, elem *schema.Type, strategy schema.Strategy, key []string, path fieldpath.Path) {
	a := &applier{}
	kind, err := a.elementKind(toSlice(l), toSlice(r))
	if err != nil {
		e := err.(*Error)
		e.Path = path
		ck.fail(e)
		return
	}
	if strategy == schema.StrategyMerge {
		if kind != tree.Object {
			return // merged lists of scalars never conflict
		}
		lm, err := itemsBySKey(l, key, path)
		if err != nil {
			ck.fail(err)
			return
		}
		rm, err := itemsBySKey(r, key, path)
		if err != nil {
			ck.fail(err)
			return
		}
		for _, k := range lm.order {
			if ri, ok := rm.items[k]; ok {
				ck.fields(lm.items[k], ri, elem, schema.StrategyNone, nil, path.Append(entryLabel(lm.items[k], key, lm.index[k])))
			}
		}
		return
	}
	if len(l) != len(r) {
		ck.add(path, tree.NewSeq(l...), tree.NewSeq(r...))
		return
	}
	if kind != tree.Object {
		// Upstream removes duplicates and sorts both lists in place, and
		// the left one is the patch's own: the patch it returns shows it.
		l, r = dedupeSortInPlace(l), dedupeSortInPlace(r)
	}
	// upstream compares the items of the left list with those of the same
	// index; after removing duplicates the right one may be shorter, where
	// upstream's index goes out of range (a panic)
	for i := range l {
		if i >= len(r) {
			ck.fail(&Error{Reason: ReasonListItems, Path: path, Msg: "cannot compare the lists: one has duplicates the other lacks"})
			return
		}
		ck.fields(l[i], r[i], elem, schema.StrategyNone, nil, path.Append(fieldpath.Index(i)))
	}
}

// dedupeSortInPlace is upstream's deduplicateAndSortScalars on the
// backing array of l: duplicates removed by its swapping algorithm, then
// the rest sorted by their %v text. It returns the shortened list; l's
// backing array keeps what the algorithm left beyond it.
func dedupeSortInPlace(l []*yaml.Node) []*yaml.Node {
	if hasDuplicates(l) {
		l = dedupeExact(l, tree.Key)
	}
	s := byV{nodes: l, keys: make([]string, len(l))}
	for i, n := range l {
		s.keys[i] = fmtV(n)
	}
	sort.Sort(s)
	return l
}

type keyedItems struct {
	items map[string]*yaml.Node
	index map[string]int // of the item in its list
	order []string
}

// itemsBySKey indexes items by the %s text of their merge key value, as
// upstream's sliceOfMapsToMapOfMaps does (a later item with the same text
// wins).
func itemsBySKey(items []*yaml.Node, key []string, path fieldpath.Path) (keyedItems, error) {
	out := keyedItems{items: map[string]*yaml.Node{}, index: map[string]int{}}
	for i, it := range items {
		if it.Kind != yaml.MappingNode {
			return out, &Error{Reason: ReasonType, Path: path, Msg: "invalid element type in merging list"}
		}
		if _, ok := keyOf(it, key); !ok || len(key) == 0 {
			return out, &Error{Reason: ReasonMergeKey, Path: path, Msg: fmt.Sprintf("cannot find merge key %s in merging list element", keyString(key))}
		}
		k := keySText(it, key)
		if _, seen := out.items[k]; !seen {
			out.order = append(out.order, k)
		}
		out.items[k], out.index[k] = it, i
	}
	return out, nil
}

// keySText is fmt's %s of a merge key value: strings as they are, other
// values as %!s(type=value).
func keySText(item *yaml.Node, key []string) string {
	parts := make([]string, len(key))
	for i, k := range key {
		v := tree.MapGet(item, k)
		switch tree.KindOf(v) {
		case tree.String:
			parts[i] = v.Value
		case tree.Int:
			parts[i] = "%!s(int64=" + fmtV(v) + ")"
		case tree.Float:
			parts[i] = "%!s(float64=" + fmtV(v) + ")"
		case tree.Bool:
			parts[i] = "%!s(bool=" + fmtV(v) + ")"
		case tree.Null:
			parts[i] = "%!s(<nil>)"
		default:
			parts[i] = fmtV(v)
		}
	}
	return strings.Join(parts, ",")
}

// extendedList diffs a list that has recommended merge keys in extended
// mode: items are identified by all the recommended keys, and every item
// of the patch list carries $patchMergeKey with them. It reports false
// (and the caller diffs as upstream does) when the items are not all
// objects or the recommended keys do not identify them uniquely.
func (d *differ) extendedList(patch *nodeedit.Map, key string, ov, mv *yaml.Node, elem *schema.Type, meta schema.Meta, f diffFlags) (bool, error) {
	rec := meta.RecommendedKeys
	index := func(items []*yaml.Node) (map[string]int, bool) {
		ix := make(map[string]int, len(items))
		for i, it := range items {
			if it.Kind != yaml.MappingNode {
				return nil, false
			}
			id := tupleOf(it, rec)
			if _, dup := ix[id]; dup {
				return nil, false
			}
			ix[id] = i
		}
		return ix, true
	}
	oix, ok1 := index(ov.Content)
	mix, ok2 := index(mv.Content)
	if !ok1 || !ok2 {
		return false, nil
	}
	pmk := func() *yaml.Node {
		l := tree.NewSeq()
		l.Style = yaml.FlowStyle
		for _, k := range rec {
			l.Content = append(l.Content, tree.NewString(k))
		}
		return l
	}
	keyFields := func(from, to *yaml.Node) {
		for _, k := range rec {
			if v := tree.MapGet(from, k); v != nil {
				setKey(to, k, tree.Clone(v))
			}
		}
	}
	sub := f
	sub.buildRetainKeys = meta.RetainKeys
	var items []*yaml.Node
	changed := len(ov.Content) != len(mv.Content)
	for i, m := range mv.Content {
		id := tupleOf(m, rec)
		j, found := oix[id]
		if found && j != i {
			changed = true
		}
		var entry *yaml.Node
		switch {
		case !found:
			if f.ignoreChanges {
				continue
			}
			entry = tree.NewMap()
			setKey(entry, directivePatchMergeKey, pmk())
			c := tree.Clone(m)
			entry.Content = append(entry.Content, c.Content...)
		default:
			d.a.pushItem(entryLabel(m, rec, i))
			p, err := d.diffMaps(ov.Content[j], m, elem, sub)
			d.a.pop()
			if err != nil {
				return true, err
			}
			if len(p.Content) == 0 {
				continue
			}
			entry = tree.NewMap()
			setKey(entry, directivePatchMergeKey, pmk())
			keyFields(m, entry)
			em := nodeedit.NewMap(entry) // p may have many keys
			for k := 0; k+1 < len(p.Content); k += 2 {
				put(em, p.Content[k].Value, p.Content[k+1])
			}
		}
		items = append(items, entry)
	}
	if !f.ignoreDeletions {
		for _, o := range ov.Content {
			if _, kept := mix[tupleOf(o, rec)]; kept {
				continue
			}
			entry := tree.NewMap()
			setKey(entry, directivePatchMergeKey, pmk())
			keyFields(o, entry)
			setKey(entry, directivePatch, tree.NewString("delete"))
			items = append(items, entry)
		}
	}
	if f.setOrder && len(items) == 0 && changed && !f.ignoreChanges {
		// Only the order changed: key-only items (they change nothing)
		// tell the server the list is identified by $patchMergeKey.
		for _, m := range mv.Content {
			entry := tree.NewMap()
			setKey(entry, directivePatchMergeKey, pmk())
			keyFields(m, entry)
			items = append(items, entry)
		}
	}
	if f.setOrder && len(items) > 0 {
		order := tree.NewSeq()
		for _, m := range mv.Content {
			e := tree.NewMap()
			keyFields(m, e)
			order.Content = append(order.Content, e)
		}
		put(patch, prefixSetOrder+"/"+key, order)
	}
	if len(items) > 0 {
		put(patch, key, tree.NewSeq(items...))
	}
	return true, nil
}
