package smp

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/nodeedit"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// ListOrder selects how a merged list is ordered when the patch carries
// $setElementOrder for it.
type ListOrder uint8

const (
	// OrderSpec follows spec/smp-set-element-order.md: live items the
	// directive does not name come first, in their live order, then the
	// directive's items in its order. Without the directive the order is
	// upstream's, which is what the spec states for that case.
	OrderSpec ListOrder = iota
	// OrderUpstream reproduces k8s.io/apimachinery's order exactly, which
	// interleaves unnamed live items with named ones.
	OrderUpstream
)

// ParseListOrder reads "spec" or "upstream".
func ParseListOrder(s string) (ListOrder, error) {
	switch s {
	case "spec", "":
		return OrderSpec, nil
	case "upstream":
		return OrderUpstream, nil
	}
	return 0, fmt.Errorf("unknown list order %q: use spec or upstream", s)
}

// String returns "spec" or "upstream".
func (o ListOrder) String() string {
	if o == OrderUpstream {
		return "upstream"
	}
	return "spec"
}

// Options control Apply.
type Options struct {
	ListOrder ListOrder
	// File names the patch in the positions of errors (Error.Pos) and
	// changes.
	File string
	// Record, when set, receives every change Apply makes (see
	// record.go); nil records nothing, at no cost.
	Record *change.Log
	// Index, when set, keeps indexes of the document's merged lists for
	// the next calls of Apply on the same document (see Index); nil
	// indexes them for this call alone.
	Index *Index

	scanOnly bool // tests: every list merges through mergeList, without an index
}

// The directives of a strategic merge patch.
const (
	directivePatch       = "$patch"
	directiveRetainKeys  = "$retainKeys"
	prefixSetOrder       = "$setElementOrder"
	prefixDeleteFromList = "$deleteFromPrimitiveList"
)

type applier struct {
	opts Options
	path fieldpath.Path // where the applier is in the document, for errors
	// compose is upstream's merge of one patch into another (its mergeMap
	// with MergeParallelList and IgnoreUnmatchedNulls off), which
	// CreateThreeWayMergePatch uses: directives and nulls are carried into
	// the result instead of being applied.
	compose bool
	ix      *Index // opts.Index, or one for this call, made when first needed
}

// Apply applies the strategic merge patch to the document doc, whose type
// is t (nil: no schema; objects merge key by key and lists are replaced).
// doc and patch are document nodes or their root values; an empty document
// or null is an empty object. Anything else that is not an object is
// rejected.
//
// doc is edited in place, so its comments, key order and styles stay where
// the patch does not change them; the returned node is the result (doc
// itself, unless doc was not a document node and the patch replaced its
// root). patch is never modified: values it brings are copied.
//
// Apply accepts and rejects exactly the patches k8s.io/apimachinery's
// StrategicMergePatch accepts and rejects for the same schema, and gives the
// same result, except where docs/upstream-differences.md says otherwise.
func Apply(doc, patch *yaml.Node, t *schema.Type, opts Options) (*yaml.Node, error) {
	a := &applier{opts: opts, ix: opts.Index}
	root, err := a.objectRoot(doc, "document")
	if err != nil {
		return nil, err
	}
	proot, err := a.objectRoot(patch, "patch")
	if err != nil {
		return nil, err
	}
	res, err := a.mergeMap(root, proot, t)
	if err != nil {
		return nil, err
	}
	if doc != nil && doc.Kind == yaml.DocumentNode {
		doc.Content = []*yaml.Node{res}
		return doc, nil
	}
	return res, nil
}

func (a *applier) objectRoot(n *yaml.Node, what string) (*yaml.Node, error) {
	r := tree.Root(n)
	switch tree.KindOf(r) {
	case tree.Null:
		return nil, nil
	case tree.Object:
		return r, nil
	}
	return nil, a.errorf(ReasonDocument, r, "the %s is %s, not an object", what, article(tree.KindOf(r)))
}

func article(k tree.Kind) string {
	switch k {
	case tree.Object, tree.Array, tree.Int:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// mergeMap merges the patch object into orig (nil: absent) and returns the
// result, which is orig edited in place when orig exists.
func (a *applier) mergeMap(orig, patch *yaml.Node, t *schema.Type) (*yaml.Node, error) {
	if d := tree.MapGet(patch, directivePatch); d != nil {
		return a.mapDirective(orig, patch, d)
	}
	if orig == nil {
		orig = tree.NewMap()
	}
	if patch == nil {
		return orig, nil
	}
	m := a.mapOf(orig)
	if err := a.retainKeys(m, patch); err != nil {
		return nil, err
	}
	consumed, err := a.setElementOrders(m, patch, t)
	if err != nil {
		return nil, err
	}
	// Upstream visits the keys in Go map order, which only shows when a
	// patch both adds to a list and removes from it with
	// $deleteFromPrimitiveList: the result is random. kmerge removes first,
	// then merges the rest in patch order.
	for pass := 0; pass < 2; pass++ {
		for i := 0; i+1 < len(patch.Content); i += 2 {
			kn, pv := patch.Content[i], patch.Content[i+1]
			k := kn.Value
			isDelete := strings.HasPrefix(k, prefixDeleteFromList)
			if (pass == 0) != isDelete || k == directiveRetainKeys || strings.HasPrefix(k, prefixSetOrder) || consumed[k] {
				continue
			}
			if err := a.mergeField(m, kn, pv, t, isDelete); err != nil {
				return nil, err
			}
		}
	}
	m.Finish()
	return orig, nil
}

// mapOf returns the editor of the object orig: kept by the Index from one
// call of Apply to the next when there is one (a new one each time indexed
// every large object anew: n patches each setting a key of one object of
// n keys took n^2).
func (a *applier) mapOf(orig *yaml.Node) *nodeedit.Map {
	if a.opts.Index == nil {
		return nodeedit.NewMap(orig)
	}
	m, _ := a.opts.Index.maps.Map(orig)
	return m
}

// mapDirective handles an object that carries $patch.
func (a *applier) mapDirective(orig, patch, d *yaml.Node) (*yaml.Node, error) {
	target := orig
	if target == nil {
		target = tree.NewMap()
	}
	switch directiveValue(d) {
	case "replace":
		// The patch object without $patch replaces the original. Upstream
		// takes it verbatim; kmerge also drops directives nested in it,
		// which upstream would leave in the result.
		c := tree.NewMap()
		for i := 0; i+1 < len(patch.Content); i += 2 {
			if patch.Content[i].Value == directivePatch {
				continue
			}
			c.Content = append(c.Content, patch.Content[i], patch.Content[i+1])
		}
		cleaned, _ := a.verbatim(c)
		target.Content = cleaned.Content
		if a.recording() {
			a.record(change.Set, d, tree.Clone(cleaned))
		}
		return target, nil
	case "delete":
		target.Content = nil
		if a.recording() {
			a.record(change.Set, d, tree.NewMap())
		}
		return target, nil
	}
	return nil, a.errorf(ReasonDirective, d, "unknown patch type: %s in map; $patch of an object is replace or delete", describe(d))
}

// directiveValue returns the string value of a directive, or "" when it is
// not a string.
func directiveValue(d *yaml.Node) string {
	if tree.KindOf(d) != tree.String {
		return ""
	}
	return d.Value
}

func describe(n *yaml.Node) string {
	switch k := tree.KindOf(n); k {
	case tree.Object, tree.Array:
		return "an " + k.String()
	case tree.String:
		return fmt.Sprintf("%q", n.Value)
	case tree.Null:
		return "null"
	}
	return n.Value
}

// retainKeys applies $retainKeys: every field the patch sets must be
// listed, and fields of the original that are not listed are cleared.
func (a *applier) retainKeys(m *nodeedit.Map, patch *yaml.Node) error {
	rk := tree.MapGet(patch, directiveRetainKeys)
	if rk == nil {
		return nil
	}
	if a.compose {
		// both patches must agree; the directive is carried, not applied
		if cur := m.Get(directiveRetainKeys); cur == nil {
			m.Set(tree.NewString(directiveRetainKeys), tree.Clone(rk))
		} else if !tree.Equal(cur, rk) {
			return a.errorf(ReasonRetainKeys, rk, "the two patches give different $retainKeys lists")
		}
		return nil
	}
	if tree.KindOf(rk) != tree.Array {
		return a.errorf(ReasonRetainKeys, rk, "invalid patch format of retainKeys: $retainKeys must be a list of field names, not %s", describe(rk))
	}
	keep := make(map[string]bool, len(rk.Content))
	for _, e := range rk.Content {
		switch tree.KindOf(e) {
		case tree.String:
			keep[e.Value] = true
		case tree.Object, tree.Array:
			return a.errorf(ReasonRetainKeys, e, "invalid patch format of retainKeys: $retainKeys lists %s; it must list field names", describe(e))
		}
	}
	for i := 0; i+1 < len(patch.Content); i += 2 {
		k, v := patch.Content[i].Value, patch.Content[i+1]
		if k == directiveRetainKeys || tree.KindOf(v) == tree.Null ||
			strings.HasPrefix(k, prefixDeleteFromList) || strings.HasPrefix(k, prefixSetOrder) {
			continue
		}
		if !keep[k] {
			return a.errorf(ReasonRetainKeys, patch.Content[i], "invalid patch format of retainKeys: the patch sets %q, which $retainKeys does not list", k)
		}
	}
	m.Retain(keep)
	a.record(change.Retain, rk, rk)
	return nil
}

// directiveField returns the field a "$prefix/field" directive key names.
func directiveField(key, prefix string) (string, bool) {
	p, f, ok := strings.Cut(key, "/")
	if !ok || p != prefix {
		return "", false
	}
	return f, true
}

// mergeField merges one key of the patch into the object being edited.
func (a *applier) mergeField(m *nodeedit.Map, kn, pv *yaml.Node, t *schema.Type, isDelete bool) error {
	k := kn.Value
	if k == directivePatchMergeKey {
		return a.errorf(ReasonDirective, kn, "$patchMergeKey belongs in an item of a list, to name the fields that identify it")
	}
	if isDelete {
		f, ok := directiveField(k, prefixDeleteFromList)
		if !ok {
			return a.errorf(ReasonDirective, kn, "invalid patch format of primitive list: %q is not $deleteFromPrimitiveList/<field>", k)
		}
		k = f
	}
	if a.compose && isDelete {
		m.Set(kn, tree.Clone(pv)) // carried as it is
		return nil
	}
	a.push(k)
	defer a.pop()
	pk := tree.KindOf(pv)
	if pk == tree.Null {
		if a.compose {
			m.Set(kn, tree.Clone(pv)) // a deletion the patch carries
		} else {
			m.Delete(k)
			a.record(change.Delete, kn, nil)
		}
		return nil
	}
	if isDelete && a.recording() && pk == tree.Array {
		// the values are not in the list afterwards, whether it had them
		// or not
		for _, d := range pv.Content {
			if v, ok := fieldpath.ValueOf(d); ok {
				a.record(change.Delete, d, nil, fieldpath.Member(v))
			}
		}
	}
	ov := m.Get(k)
	if ov == nil || tree.KindOf(ov) != pk {
		if isDelete {
			return nil // a deletion list for a field that is absent or not a list
		}
		if v, keep := a.newValue(pv); keep {
			if ov != nil {
				v = nodeedit.InheritComments(ov, v)
			}
			m.Set(kn, v)
			a.recordNew(kn, pv, t, k)
		} else {
			m.Delete(k)
			a.record(change.Delete, kn, nil)
		}
		return nil
	}
	switch pk {
	case tree.Object:
		sub, meta, err := t.PatchField(k, false)
		if err != nil {
			return a.errorf(ReasonSchema, kn, "%v", err)
		}
		if meta.Strategy == schema.StrategyReplace {
			// The patch object replaces the old one as it is; one that
			// carries $patch is a directive upstream leaves in the result
			// and kmerge drops, with the field.
			if res, keep := a.verbatim(pv); keep {
				m.Set(kn, nodeedit.InheritComments(ov, res))
				if a.recording() {
					a.record(change.Set, kn, tree.Clone(res))
				}
			} else {
				m.Delete(k)
				a.record(change.Delete, kn, nil)
			}
			return nil
		}
		if a.recording() && tree.MapGet(pv, directivePatch) == nil {
			a.record(change.Merge, kn, tree.NewMap())
		}
		res, err := a.mergeMap(ov, pv, sub)
		if err != nil {
			return err
		}
		m.Set(kn, res)
	case tree.Array:
		elem, meta, err := t.PatchField(k, true)
		if err != nil {
			return a.errorf(ReasonSchema, kn, "%v", err)
		}
		if !isDelete {
			if done, err := a.mergeUsual(ov, kn, pv, elem, meta); done || err != nil {
				return err
			}
		}
		items, err := a.mergeListField(toSlice(ov.Content), kn, pv, elem, meta, isDelete)
		if err != nil {
			return err
		}
		ov.Content = toNodes(items)
	default:
		nodeedit.SetScalar(ov, pv)
		a.record(change.Set, kn, pv)
	}
	return nil
}

// mergeListField merges a patch list (the value of the key kn) into a
// list, by its strategy: merge (or a deletion list, whatever the strategy)
// merges, anything else replaces.
func (a *applier) mergeListField(orig []any, kn, pv *yaml.Node, elem *schema.Type, meta schema.Meta, isDelete bool) ([]any, error) {
	if !isDelete && usesPatchMergeKey(pv.Content) {
		// the directive makes any list a merged one (kmerge extension)
		if a.recording() && orig != nil {
			a.record(change.Merge, kn, tree.NewSeq())
		}
		return a.mergeByPatchMergeKey(orig, pv.Content, elem, meta.MergeKey)
	}
	if meta.Strategy == schema.StrategyMerge || isDelete {
		if a.recording() && orig != nil && !isDelete {
			a.record(change.Merge, kn, tree.NewSeq())
		}
		return a.mergeList(orig, pv.Content, elem, meta.MergeKey, isDelete)
	}
	c, _ := a.verbatim(pv)
	if a.recording() {
		a.record(change.Set, kn, tree.Clone(c))
	}
	return toSlice(c.Content), nil
}

// toSlice copies nodes into a []any the way a JSON decoder builds a list,
// one append at a time, so that its capacity is what upstream's is:
// upstream's list order depends on whether appends write into a list's
// spare capacity.
func toSlice(nodes []*yaml.Node) []any {
	s := make([]any, 0)
	for _, n := range nodes {
		s = append(s, n)
	}
	return s
}

func toNodes(s []any) []*yaml.Node {
	out := make([]*yaml.Node, len(s))
	for i, v := range s {
		out[i] = v.(*yaml.Node)
	}
	return out
}

// verbatim copies a value upstream puts into the result as it is (the
// patch object of a replace strategy, the patch list of a list that is not
// merged, a new list item). Applying, kmerge drops the directives in it
// (docs/upstream-differences.md); composing patches, it keeps them.
func (a *applier) verbatim(n *yaml.Node) (*yaml.Node, bool) {
	if a.compose {
		return tree.Clone(n), true
	}
	return clean(n, true, true)
}

// newValue copies the value of a field the original lacks (or holds with
// another type): upstream drops null fields of objects in it when applying,
// and objects carrying $patch in both modes.
func (a *applier) newValue(n *yaml.Node) (*yaml.Node, bool) {
	if a.compose {
		return clean(n, true, false)
	}
	return clean(n, false, true)
}

// addedList copies a list that only the patch has, ordered by a
// $setElementOrder directive.
func (a *applier) addedList(n *yaml.Node) *yaml.Node {
	c, _ := clean(n, true, !a.compose)
	return c
}

// clean copies a value of the patch for the result: objects that carry
// $patch are dropped (keep is false for such a value itself), as upstream
// does for new values; with stripKeys the directive keys $retainKeys,
// $setElementOrder/..., $deleteFromPrimitiveList/... and $patchMergeKey,
// which upstream would leave in the result, are removed; null values of
// object fields are dropped unless keepNulls (upstream keeps them in some
// places, drops them in others).
func clean(n *yaml.Node, keepNulls, stripKeys bool) (*yaml.Node, bool) {
	switch tree.KindOf(n) {
	case tree.Object:
		if tree.MapGet(n, directivePatch) != nil {
			return nil, false
		}
		c := *n
		c.Anchor = ""
		c.Content = make([]*yaml.Node, 0, len(n.Content))
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if !keepNulls && tree.KindOf(v) == tree.Null {
				continue
			}
			if stripKeys && isDirectiveKey(k.Value) {
				continue
			}
			if cv, keep := clean(v, keepNulls, stripKeys); keep {
				c.Content = append(c.Content, tree.Clone(k), cv)
			}
		}
		return &c, true
	case tree.Array:
		c := *n
		c.Anchor = ""
		c.Content = make([]*yaml.Node, 0, len(n.Content))
		for _, e := range n.Content {
			if ce, keep := clean(e, keepNulls, stripKeys); keep {
				c.Content = append(c.Content, ce)
			}
		}
		return &c, true
	}
	c := tree.Clone(n)
	c.Anchor = ""
	return c, true
}

func isDirectiveKey(k string) bool {
	return k == directiveRetainKeys || k == directivePatchMergeKey ||
		strings.HasPrefix(k, prefixSetOrder) || strings.HasPrefix(k, prefixDeleteFromList)
}
