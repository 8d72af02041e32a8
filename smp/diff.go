package smp

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/nodeedit"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// DiffOptions control patch creation.
type DiffOptions struct {
	// Extended makes every item of a list that has recommended merge keys
	// carry $patchMergeKey with all of them, as the specification says a
	// new client does, and identifies items by those keys. API servers do
	// not understand the directive: use it for kmerge, not for kubectl.
	Extended bool
}

// CreateTwoWayPatch returns the strategic merge patch that turns original
// into modified, exactly as upstream's CreateTwoWayMergePatch computes it
// for the same schema (with Extended, as described there). Both are
// document nodes or their root values; empty means {}. They are not
// modified, and the patch shares no nodes with them.
func CreateTwoWayPatch(original, modified *yaml.Node, t *schema.Type, opts DiffOptions) (*yaml.Node, error) {
	d := &differ{a: &applier{}, extended: opts.Extended}
	docs, err := d.roots(original, modified)
	if err != nil {
		return nil, err
	}
	return d.diffMaps(docs[0], docs[1], t, diffFlags{setOrder: true})
}

// diffFlags are upstream's DiffOptions.
type diffFlags struct {
	setOrder        bool // emit $setElementOrder lists
	ignoreChanges   bool // leave out changes and additions
	ignoreDeletions bool // leave out deletions
	buildRetainKeys bool // emit $retainKeys (the object's field has the retainKeys strategy)
}

// differ computes patches. Its applier carries the path for errors.
type differ struct {
	a        *applier
	extended bool
}

func (d *differ) roots(docs ...*yaml.Node) (out []*yaml.Node, err error) {
	for i, doc := range docs {
		r, err := d.a.objectRoot(doc, []string{"original", "modified", "current"}[i])
		if err != nil {
			return nil, err
		}
		if r == nil {
			r = tree.NewMap()
		}
		// Upstream sorts lists of the documents in place while diffing;
		// kmerge sorts copies of the lists (sortedByV, sortedByKeyV,
		// sortByOrder) and only reads the documents, so they need no copy.
		// Everything a patch takes from them is cloned.
		out = append(out, r)
	}
	return out, nil
}

// diffMaps is upstream's diffMaps: the patch that turns original into
// modified, or with flags only its deletions or only its changes.
func (d *differ) diffMaps(original, modified *yaml.Node, t *schema.Type, f diffFlags) (*yaml.Node, error) {
	a := d.a
	patch := tree.NewMap()
	pm := nodeedit.NewMap(patch) // the patch's keys, indexed once it has many
	var retain []*yaml.Node
	inOriginal, inModified := nodeedit.NewMap(original).Get, nodeedit.NewMap(modified).Get
	for i := 0; i+1 < len(modified.Content); i += 2 {
		kn, mv := modified.Content[i], modified.Content[i+1]
		key := kn.Value
		if f.buildRetainKeys && tree.KindOf(mv) != tree.Null {
			retain = append(retain, tree.NewString(key))
		}
		ov := inOriginal(key)
		if ov == nil {
			if !f.ignoreChanges {
				put(pm, key, tree.Clone(mv))
			}
			continue
		}
		if key == directivePatch {
			if tree.KindOf(ov) != tree.String || tree.KindOf(mv) != tree.String {
				return nil, a.errorf(ReasonDirective, mv, "invalid value for special key: $patch")
			}
			if ov.Value != mv.Value {
				put(pm, key, tree.Clone(mv))
			}
			continue
		}
		ok, mk := tree.KindOf(ov), tree.KindOf(mv)
		if ok != mk {
			if !f.ignoreChanges {
				put(pm, key, tree.Clone(mv))
			}
			continue
		}
		a.push(key)
		var err error
		switch ok {
		case tree.Object:
			err = d.mapField(pm, key, ov, mv, t, f)
		case tree.Array:
			err = d.listField(pm, key, ov, mv, t, f)
		default:
			if !f.ignoreChanges && tree.Key(ov) != tree.Key(mv) {
				put(pm, key, tree.Clone(mv))
			}
		}
		a.pop()
		if err != nil {
			return nil, err
		}
	}
	if !f.ignoreDeletions {
		for i := 0; i+1 < len(original.Content); i += 2 {
			if key := original.Content[i].Value; inModified(key) == nil {
				put(pm, key, tree.NewNull())
			}
		}
	}
	if len(retain) > 0 && (len(patch.Content) > 0 || hasAdditionalField(original, inModified)) {
		sortByV(retain)
		setFirst(patch, directiveRetainKeys, tree.NewSeq(retain...))
	}
	return patch, nil
}

// ignorable reports whether a failed lookup does not matter when the
// values are equal: any failure but an invalid patch strategy.
func ignorable(err error) bool {
	le, ok := err.(*schema.LookupError)
	return !ok || !le.BadStrategy
}

// hasAdditionalField reports whether original has a non-null field
// that modified (its lookup) lacks.
func hasAdditionalField(original *yaml.Node, modified func(string) *yaml.Node) bool {
	for i := 0; i+1 < len(original.Content); i += 2 {
		if tree.KindOf(original.Content[i+1]) != tree.Null && modified(original.Content[i].Value) == nil {
			return true
		}
	}
	return false
}

// mapField diffs two objects under key.
func (d *differ) mapField(patch *nodeedit.Map, key string, ov, mv *yaml.Node, t *schema.Type, f diffFlags) error {
	sub, meta, err := t.PatchField(key, false)
	if err != nil {
		if ignorable(err) && tree.Equal(ov, mv) {
			return nil // no metadata, but no change either
		}
		return d.a.errorf(ReasonSchema, mv, "%v", err)
	}
	f.buildRetainKeys = meta.RetainKeys
	if meta.Strategy == schema.StrategyReplace {
		if !f.ignoreChanges {
			put(patch, key, tree.Clone(mv)) // upstream sends it even when unchanged
		}
		return nil
	}
	p, err := d.diffMaps(ov, mv, sub, f)
	if err != nil {
		return err
	}
	if len(p.Content) > 0 {
		put(patch, key, p)
	}
	return nil
}

// listField diffs two lists under key.
func (d *differ) listField(patch *nodeedit.Map, key string, ov, mv *yaml.Node, t *schema.Type, f diffFlags) error {
	elem, meta, err := t.PatchField(key, true)
	if err != nil {
		if ignorable(err) && tree.Equal(ov, mv) {
			return nil
		}
		return d.a.errorf(ReasonSchema, mv, "%v", err)
	}
	if d.extended && len(meta.RecommendedKeys) > 0 {
		if done, err := d.extendedList(patch, key, ov, mv, elem, meta, f); done || err != nil {
			return err
		}
	}
	if meta.Strategy != schema.StrategyMerge {
		if !f.ignoreChanges && !tree.Equal(ov, mv) {
			put(patch, key, tree.Clone(mv))
		}
		return nil
	}
	f.buildRetainKeys = meta.RetainKeys
	add, del, order, err := d.diffLists(ov.Content, mv.Content, elem, meta.MergeKey, f)
	if err != nil {
		return err
	}
	if len(order) > 0 {
		put(patch, prefixSetOrder+"/"+key, tree.NewSeq(order...))
	}
	if len(del) > 0 {
		put(patch, prefixDeleteFromList+"/"+key, tree.NewSeq(del...))
	}
	if len(add) > 0 {
		put(patch, key, tree.NewSeq(add...))
	}
	return nil
}

// diffLists is upstream's diffLists: the patch list, the deletion list (of
// scalars) and the $setElementOrder list.
func (d *differ) diffLists(original, modified []*yaml.Node, elem *schema.Type, key []string, f diffFlags) (add, del, order []*yaml.Node, err error) {
	a := d.a
	if len(original) == 0 {
		if len(modified) == 0 || f.ignoreChanges {
			return nil, nil, nil, nil
		}
		return cloneAll(modified), nil, nil, nil
	}
	kind, err := a.elementKind(toSlice(original), toSlice(modified))
	if err != nil {
		return nil, nil, nil, err
	}
	if kind == tree.Object {
		if err := a.checkKeyValues(toSlice(original), key); err != nil {
			return nil, nil, nil, err
		}
		if err := a.checkKeyValues(toSlice(modified), key); err != nil {
			return nil, nil, nil, err
		}
		patchList, deletes, err := d.diffListsOfMaps(original, modified, elem, key, f)
		if err != nil {
			return nil, nil, nil, err
		}
		sorted, err := a.sortByOrder(toSlice(patchList), toSlice(modified), nil, orderKeys(kind, key), kind)
		if err != nil {
			return nil, nil, nil, err
		}
		same, err := a.orderSame(original, modified, key)
		if err != nil {
			return nil, nil, nil, err
		}
		add = append(toNodes(sorted), deletes...)
		if f.setOrder && (!f.ignoreChanges && (len(add) > 0 || !same) || !f.ignoreDeletions && len(add) > 0) {
			order = make([]*yaml.Node, len(modified))
			for i, m := range modified {
				order[i] = keyEntry(m, key)
			}
		}
		return add, nil, order, nil
	}
	add, del = diffScalars(original, modified, f)
	sorted, _ := a.sortByOrder(toSlice(add), toSlice(modified), nil, nil, kind)
	add = toNodes(sorted)
	// upstream compares the original it has just sorted in place
	if f.setOrder && (!f.ignoreDeletions && len(del) > 0 || !f.ignoreChanges && !sameScalars(sortedByV(original), modified)) {
		order = cloneAll(modified)
	}
	return add, del, order, nil
}

// keyEntry is an item of a $setElementOrder list: an object holding only
// the merge key (a missing key field is null, as upstream writes it).
func keyEntry(item *yaml.Node, key []string) *yaml.Node {
	e := tree.NewMap()
	for _, k := range key {
		v := tree.MapGet(item, k)
		if v == nil {
			v = tree.NewNull()
		}
		setKey(e, k, bare(v))
	}
	return e
}

// bare copies a scalar without its comments: a patch quotes a key value,
// not the remarks next to it in the document.
func bare(v *yaml.Node) *yaml.Node {
	c := tree.Clone(v)
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	return c
}

func (a *applier) orderSame(original, modified []*yaml.Node, key []string) (bool, error) {
	if len(original) != len(modified) {
		return false, nil
	}
	for i := range modified {
		eq, err := a.sameItem(original[i], modified[i], key)
		if err != nil || !eq {
			return eq, err
		}
	}
	return true, nil
}

func sameScalars(a, b []*yaml.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if tree.KindOf(a[i]) != tree.KindOf(b[i]) || tree.Key(a[i]) != tree.Key(b[i]) {
			return false
		}
	}
	return true
}

// diffScalars is upstream's diffListsOfScalars: both lists sorted by the
// text of their values, then walked together.
func diffScalars(original, modified []*yaml.Node, f diffFlags) (add, del []*yaml.Node) {
	o, m := sortedByV(original), sortedByV(modified)
	i, j := 0, 0
	for i < len(o) || j < len(m) {
		var os, ms string
		if i < len(o) {
			os = fmtV(o[i])
		}
		if j < len(m) {
			ms = fmtV(m[j])
		}
		switch {
		case i < len(o) && j < len(m) && os == ms:
			i++
			j++
		case i >= len(o) || j < len(m) && os > ms:
			if !f.ignoreChanges {
				add = append(add, tree.Clone(m[j]))
			}
			j++
		default:
			if !f.ignoreDeletions {
				del = append(del, tree.Clone(o[i]))
			}
			i++
		}
	}
	if hasDuplicates(del) {
		del = dedupeExact(del, tree.Key) // upstream's in-place algorithm: it reorders
	}
	return add, del
}

func hasDuplicates(l []*yaml.Node) bool {
	seen := make(map[string]bool, len(l))
	for _, n := range l {
		k := tree.Key(n)
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// diffListsOfMaps is upstream's: both lists sorted by the text of their
// merge key values and walked together; a changed item becomes its
// sub-patch with the merge key, a new item itself, a removed one a delete
// directive.
func (d *differ) diffListsOfMaps(original, modified []*yaml.Node, elem *schema.Type, key []string, f diffFlags) (patch, deletes []*yaml.Node, err error) {
	a := d.a
	for _, l := range [][]*yaml.Node{original, modified} {
		for _, item := range l {
			if _, ok := keyOf(item, key); !ok {
				return nil, nil, a.errorf(ReasonMergeKey, item, "an item does not contain declared merge key: %s", keyString(key))
			}
		}
	}
	o, m := sortedByKeyV(original, key), sortedByKeyV(modified, key)
	i, j := 0, 0
	for i < len(o) || j < len(m) {
		var os, ms string
		if i < len(o) {
			os = keyV(o[i], key)
		}
		if j < len(m) {
			ms = keyV(m[j], key)
		}
		switch {
		case i < len(o) && j < len(m) && os == ms:
			a.pushItem(entryLabel(m[j], key, j))
			p, err := d.diffMaps(o[i], m[j], elem, f)
			a.pop()
			if err != nil {
				return nil, nil, err
			}
			if len(p.Content) > 0 {
				for i := len(key) - 1; i >= 0; i-- { // the key first, for readers
					setFirst(p, key[i], bare(tree.MapGet(m[j], key[i])))
				}
				patch = append(patch, p)
			}
			i++
			j++
		case i >= len(o) || j < len(m) && os > ms:
			if !f.ignoreChanges {
				patch = append(patch, tree.Clone(m[j]))
			}
			j++
		default:
			if !f.ignoreDeletions {
				del := keyEntry(o[i], key)
				setKey(del, directivePatch, tree.NewString("delete"))
				deletes = append(deletes, del)
			}
			i++
		}
	}
	return patch, deletes, nil
}

// sortedByV returns l sorted as upstream's sortScalars sorts: by the %v
// text of each value, with a comparison that treats equal texts as less
// (sort.Sort with the same Less gives the same order).
func sortedByV(l []*yaml.Node) []*yaml.Node {
	s := byV{nodes: append([]*yaml.Node(nil), l...)}
	s.keys = make([]string, len(l))
	for i, n := range s.nodes {
		s.keys[i] = fmtV(n)
	}
	sort.Sort(s)
	return s.nodes
}

// sortByV sorts l in place like sortedByV.
func sortByV(l []*yaml.Node) { copy(l, sortedByV(l)) }

func sortedByKeyV(l []*yaml.Node, key []string) []*yaml.Node {
	s := byV{nodes: append([]*yaml.Node(nil), l...)}
	s.keys = make([]string, len(l))
	for i, n := range s.nodes {
		s.keys[i] = keyV(n, key)
	}
	sort.Sort(s)
	return s.nodes
}

type byV struct {
	nodes []*yaml.Node
	keys  []string
}

func (s byV) Len() int           { return len(s.nodes) }
func (s byV) Less(i, j int) bool { return s.keys[i] <= s.keys[j] }
func (s byV) Swap(i, j int) {
	s.nodes[i], s.nodes[j] = s.nodes[j], s.nodes[i]
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
}

// keyV is the %v text of an item's merge key value(s).
func keyV(item *yaml.Node, key []string) string {
	if len(key) == 1 {
		return fmtV(tree.MapGet(item, key[0]))
	}
	parts := make([]string, len(key))
	for i, k := range key {
		parts[i] = fmtV(tree.MapGet(item, k))
	}
	return strings.Join(parts, "\x00")
}

// fmtV formats a value as Go's fmt %v formats the value an API server
// decodes: upstream sorts and matches by that text.
func fmtV(n *yaml.Node) string {
	switch tree.KindOf(n) {
	case tree.Null:
		return "<nil>"
	case tree.Bool:
		return strconv.FormatBool(tree.BoolValue(n))
	case tree.Int:
		i, _ := tree.IntValue(n)
		return strconv.FormatInt(i, 10)
	case tree.Float:
		f, _ := tree.FloatValue(n)
		return strconv.FormatFloat(f, 'g', -1, 64)
	case tree.String:
		return n.Value
	case tree.Array:
		parts := make([]string, len(n.Content))
		for i, e := range n.Content {
			parts[i] = fmtV(e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case tree.Object:
		type kv struct{ k, v string }
		var kvs []kv
		for i := 0; i+1 < len(n.Content); i += 2 {
			kvs = append(kvs, kv{n.Content[i].Value, fmtV(n.Content[i+1])})
		}
		sort.Slice(kvs, func(i, j int) bool { return kvs[i].k < kvs[j].k })
		parts := make([]string, len(kvs))
		for i, x := range kvs {
			parts[i] = x.k + ":" + x.v
		}
		return "map[" + strings.Join(parts, " ") + "]"
	}
	return fmt.Sprint(n.Value)
}

func cloneAll(l []*yaml.Node) []*yaml.Node {
	out := make([]*yaml.Node, len(l))
	for i, n := range l {
		out[i] = tree.Clone(n)
	}
	return out
}

// setKey sets key to v in the small patch object m (an item's key
// fields, a directive), replacing an earlier value.
func setKey(m *yaml.Node, key string, v *yaml.Node) {
	tree.MapSet(m, key, v)
}

// put sets key to v in a patch object being built, replacing an earlier
// value: through the index nodeedit keeps of a mapping that grows large,
// so that a patch of many keys is built in time linear in them (each
// key looked up in those before it took the square: issue 25).
func put(m *nodeedit.Map, key string, v *yaml.Node) {
	m.Put(tree.NewString(key), v)
}

// setFirst puts key first in m.
func setFirst(m *yaml.Node, key string, v *yaml.Node) {
	tree.MapDelete(m, key)
	m.Content = append([]*yaml.Node{tree.NewString(key), v}, m.Content...)
}
