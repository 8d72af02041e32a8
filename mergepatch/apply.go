package mergepatch

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// Apply applies the JSON merge patch (RFC 7396) patch to doc and returns the result.
//
// doc and patch are document nodes or their root values; an empty document
// or nil is JSON null. When doc's root and the patch are both objects, the
// root is edited in place and returned, so that comments, key order and
// quoting survive where the patch changes nothing. When doc is a document
// node, the result is put into it and doc is returned.
//
// patch is never modified: the values it brings are deep copies, from which
// the nulls of newly inserted objects are removed, as RFC 7396 says.
//
// Apply fails only on a mapping whose key is not a scalar, which trees read
// by tree.Read never have.
func Apply(doc, patch *yaml.Node) (*yaml.Node, error) {
	p := deref(tree.Root(patch))
	if p == nil {
		p = tree.NewNull()
	}
	res, err := merge(tree.Root(doc), p)
	if err != nil {
		return nil, err
	}
	if doc != nil && doc.Kind == yaml.DocumentNode {
		doc.Content = []*yaml.Node{res}
		return doc, nil
	}
	return res, nil
}

// merge returns MergePatch(target, patch): target (nil: absent) edited in
// place when it is an object and patch is one, or updated in place when both
// are scalars; otherwise a new value built from a copy of patch. patch is
// not nil and not an alias.
func merge(target, patch *yaml.Node) (*yaml.Node, error) {
	for target != nil && target.Kind == yaml.DocumentNode {
		target = tree.Root(target) // a document inside a value: take its root
	}
	if target != nil && target.Kind == yaml.AliasNode {
		// Editing the node an alias points to would change every other
		// reference to it: work on a copy instead.
		target = tree.Clone(target)
	}
	if target == patch {
		// doc and patch share nodes: read the patch from a copy so that
		// editing target cannot change it.
		patch = tree.Clone(patch)
	}
	tk, pk := tree.KindOf(target), tree.KindOf(patch)
	if pk != tree.Object {
		if target != nil && target.Kind == yaml.ScalarNode && patch.Kind == yaml.ScalarNode {
			setScalar(target, patch)
			return target, nil
		}
		return adopt(target, tree.Clone(patch)), nil
	}
	if tk != tree.Object {
		// RFC 7396: a target that is not an object is replaced by {}, into
		// which the patch is merged; the new object takes the patch's style.
		n := *patch
		n.Anchor, n.Alias, n.Content = "", nil, nil
		target = adopt(target, &n)
	}
	obj, err := newObject(target)
	if err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(patch.Content); i += 2 {
		kn := deref(patch.Content[i])
		if kn == nil || kn.Kind != yaml.ScalarNode {
			return nil, keyError(patch, patch.Content[i])
		}
		pv := deref(patch.Content[i+1])
		if tree.KindOf(pv) == tree.Null {
			obj.del(kn.Value)
			continue
		}
		v, err := merge(obj.get(kn.Value), pv)
		if err != nil {
			return nil, err
		}
		obj.set(kn, v)
	}
	obj.finish()
	return target, nil
}

// deref follows aliases, and documents nested in a value to their roots.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && (n.Kind == yaml.AliasNode || n.Kind == yaml.DocumentNode) {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		} else {
			n = tree.Root(n)
		}
	}
	return n
}

// setScalar gives the scalar dst the value of src, keeping dst's comments
// and, when both are strings, its quoting style.
func setScalar(dst, src *yaml.Node) {
	keepStyle := tree.KindOf(dst) == tree.String && tree.KindOf(src) == tree.String
	dst.Tag, dst.Value = src.Tag, src.Value
	if !keepStyle {
		dst.Style = src.Style
	}
	if dst.LineComment == "" {
		dst.LineComment = src.LineComment
	}
}

// adopt gives the new value n the comments of the value it replaces (nil:
// none), where n has none of its own.
func adopt(old, n *yaml.Node) *yaml.Node {
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

func keyError(m, k *yaml.Node) error {
	at := m
	if k != nil {
		at = k
	}
	what := "missing"
	switch k := deref(k); {
	case k == nil:
	case k.Kind == yaml.MappingNode:
		what = "a mapping"
	case k.Kind == yaml.SequenceNode:
		what = "a sequence"
	default:
		what = "not a scalar"
	}
	return fmt.Errorf("mergepatch: line %d, column %d: mapping key is %s; JSON objects need string keys", at.Line, at.Column, what)
}

// indexThreshold is the number of entries above which a mapping is indexed
// by a Go map; below it a scan is faster.
const indexThreshold = 16

// object edits a mapping node in place. Lookups go through an index when
// the mapping is large, so that a patch costs time linear in the sizes of
// the mappings; deleted entries are marked nil and removed once, by finish.
type object struct {
	n     *yaml.Node
	index map[string]int // key → index of the key node in n.Content; nil for small mappings
	dead  int
}

// newObject checks that every key of the mapping n is a scalar and
// prepares n for editing.
func newObject(n *yaml.Node) (*object, error) {
	c := n.Content
	for i := 0; i+1 < len(c); i += 2 {
		if k := deref(c[i]); k == nil || k.Kind != yaml.ScalarNode {
			return nil, keyError(n, c[i])
		}
	}
	o := &object{n: n}
	if len(c) > 2*indexThreshold {
		o.index = make(map[string]int, len(c)/2)
		for i := 0; i+1 < len(c); i += 2 {
			o.index[deref(c[i]).Value] = i // the last of duplicate keys wins, as in tree.MapGet
		}
	}
	return o, nil
}

// find returns the index in n.Content of the key node named k, or -1.
func (o *object) find(k string) int {
	if o.index != nil {
		if i, ok := o.index[k]; ok {
			return i
		}
		return -1
	}
	c := o.n.Content
	for i := len(c)&^1 - 2; i >= 0; i -= 2 {
		if kn := deref(c[i]); kn != nil && kn.Value == k {
			return i
		}
	}
	return -1
}

// get returns the value of k, or nil.
func (o *object) get(k string) *yaml.Node {
	if i := o.find(k); i >= 0 {
		return o.n.Content[i+1]
	}
	return nil
}

// set sets the value of the key named by kn, a key node of the patch: an
// existing key keeps its key node and position, a new one is appended with
// a copy of kn, so that the patch's comments on it come along.
func (o *object) set(kn, v *yaml.Node) {
	if i := o.find(kn.Value); i >= 0 {
		o.n.Content[i+1] = v
		return
	}
	k := tree.Clone(kn)
	k.Tag, k.Anchor = "!!str", ""
	if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 {
		k.Style = 0 // a key is a string: no tag, no block scalar
	}
	if len(o.n.Content)%2 != 0 {
		o.n.Content = o.n.Content[:len(o.n.Content)-1] // a key without a value
	}
	o.n.Content = append(o.n.Content, k, v)
	if o.index != nil {
		o.index[k.Value] = len(o.n.Content) - 2
	}
}

// del removes k, if it is there.
func (o *object) del(k string) {
	i := o.find(k)
	if i < 0 {
		return
	}
	o.n.Content[i], o.n.Content[i+1] = nil, nil
	o.dead++
	if o.index != nil {
		delete(o.index, k)
	}
}

// finish removes the entries del marked.
func (o *object) finish() {
	if o.dead == 0 {
		return
	}
	c := o.n.Content
	out := c[:0]
	for i := 0; i+1 < len(c); i += 2 {
		if c[i] != nil {
			out = append(out, c[i], c[i+1])
		}
	}
	clear(c[len(out):])
	o.n.Content = out
	o.dead = 0
	o.index = nil
}
