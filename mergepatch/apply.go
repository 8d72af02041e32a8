package mergepatch

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/nodeedit"
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
// by tree.Read never have; the error is an *Error. If doc and patch share
// nodes (which trees read separately never do), the shared nodes are edited
// as part of doc.
func Apply(doc, patch *yaml.Node, opts Options) (*yaml.Node, error) {
	p := tree.Deref(tree.Root(patch))
	if p == nil {
		p = tree.NewNull()
	}
	a := &applier{opts: opts}
	res, err := a.merge(tree.Root(doc), p, p)
	if err != nil {
		return nil, err
	}
	if doc != nil && doc.Kind == yaml.DocumentNode {
		doc.Content = []*yaml.Node{res}
		return doc, nil
	}
	return res, nil
}

// Options control Apply.
type Options struct {
	// File names the patch in the positions of errors (Error.Pos) and
	// changes.
	File string
	// Record, when set, receives every change Apply makes: a field deleted
	// (null), a value set (anything but an object), an object created
	// where there was none (an object of the patch merges field by field,
	// so its fields are recorded below it). nil records nothing.
	Record *change.Log
	// Index, when set, keeps indexes of the document's large objects for
	// the next calls of Apply on the same document (see Index); nil
	// indexes them for this call alone.
	Index *Index
}

// Index keeps indexes of the large objects of a document from one call of
// Apply to the next (Options.Index), so that many patches on one object of
// many keys take time proportional to the patches, not to the object each
// time (each indexed it anew: n patches each setting a key of an object of
// n keys took n^2). The document must change only through Apply with this
// Index while the Index is in use: Apply keeps the indexes up to date with
// its own writes, and notices an object whose keys were replaced, but not
// one edited in place to as many keys. An Index is for one goroutine at a
// time; the zero value is ready.
type Index struct {
	maps nodeedit.Maps
}

// Error reports a patch (or a document) with a mapping key that is not a
// scalar.
type Error struct {
	Path fieldpath.Path // the object whose key it is
	Pos  tree.Position  // the key: the patch's name (Options.File), line and column
	Msg  string
}

// Error formats the error as "file:line:col: path: message".
func (e *Error) Error() string { return fieldpath.Message(e.Pos, e.Path, e.Msg) }

// Position returns the place the error is about.
func (e *Error) Position() tree.Position { return e.Pos }

var _ tree.PositionedError = (*Error)(nil)

// applier applies one patch, knowing where it is in the document.
type applier struct {
	opts Options
	path fieldpath.Path
}

// merge returns MergePatch(target, patch): target (nil: absent) edited in
// place when it is an object and patch is one, or updated in place when both
// are scalars; otherwise a new value built from a copy of patch. patch is
// not nil and not an alias; at is its key in the patch (the patch itself at
// the root), for the positions of changes.
func (a *applier) merge(target, patch, at *yaml.Node) (*yaml.Node, error) {
	for target != nil && target.Kind == yaml.DocumentNode {
		target = tree.Root(target) // a document inside a value: take its root
	}
	if target != nil && target.Kind == yaml.AliasNode {
		// Editing the node an alias points to would change every other
		// reference to it: work on a copy instead.
		target = tree.Clone(target)
	}
	if target == patch {
		// doc and patch share this node (only hand-made trees do): read
		// the patch from a copy, so that the edits of target cannot
		// disturb the walk over the patch's keys.
		patch = tree.Clone(patch)
	}
	tk, pk := tree.KindOf(target), tree.KindOf(patch)
	if pk != tree.Object {
		a.opts.Record.Record(change.Set, a.path, patch, a.opts.File, at)
		if target != nil && target.Kind == yaml.ScalarNode && patch.Kind == yaml.ScalarNode {
			nodeedit.SetScalar(target, patch)
			return target, nil
		}
		return nodeedit.InheritComments(target, tree.Clone(patch)), nil
	}
	if a.opts.Record != nil {
		op := change.Merge
		if tk != tree.Object {
			op = change.Create
		}
		a.opts.Record.Record(op, a.path, tree.NewMap(), a.opts.File, at)
	}
	if tk != tree.Object {
		// RFC 7396: a target that is not an object is replaced by {}, into
		// which the patch is merged; the new object takes the patch's style.
		n := *patch
		n.Anchor, n.Alias, n.Content = "", nil, nil
		target = nodeedit.InheritComments(target, &n)
	}
	var obj *nodeedit.Map
	kept := false
	if a.opts.Index != nil {
		obj, kept = a.opts.Index.maps.Map(target)
	}
	if !kept { // a kept object's keys were checked, and the merges add strings
		if err := a.checkKeys(target); err != nil {
			if a.opts.Index != nil {
				a.opts.Index.maps.Forget(target)
			}
			return nil, err
		}
	}
	if obj == nil {
		obj = nodeedit.NewMap(target)
	}
	for i := 0; i+1 < len(patch.Content); i += 2 {
		kn := tree.Deref(patch.Content[i])
		if kn == nil || kn.Kind != yaml.ScalarNode {
			return nil, a.keyError(patch, patch.Content[i])
		}
		pv := tree.Deref(patch.Content[i+1])
		a.path = append(a.path, fieldpath.Field(kn.Value))
		if tree.KindOf(pv) == tree.Null {
			obj.Delete(kn.Value)
			a.opts.Record.Record(change.Delete, a.path, nil, a.opts.File, kn)
			a.path = a.path[:len(a.path)-1]
			continue
		}
		v, err := a.merge(obj.Get(kn.Value), pv, kn)
		a.path = a.path[:len(a.path)-1]
		if err != nil {
			return nil, err
		}
		obj.Set(kn, v)
	}
	obj.Finish()
	return target, nil
}

func (a *applier) keyError(m, k *yaml.Node) error {
	at := m
	if k != nil {
		at = k
	}
	what := "missing"
	switch k := tree.Deref(k); {
	case k == nil:
	case k.Kind == yaml.MappingNode:
		what = "a mapping"
	case k.Kind == yaml.SequenceNode:
		what = "a sequence"
	default:
		what = "not a scalar"
	}
	return &Error{Path: a.path.Append(), Pos: tree.Position{File: a.opts.File, Line: at.Line, Column: at.Column},
		Msg: fmt.Sprintf("mapping key is %s; JSON objects need string keys", what)}
}

// checkKeys checks that every key of the mapping n is a scalar.
func (a *applier) checkKeys(n *yaml.Node) error {
	c := n.Content
	for i := 0; i+1 < len(c); i += 2 {
		if k := tree.Deref(c[i]); k == nil || k.Kind != yaml.ScalarNode {
			return a.keyError(n, c[i])
		}
	}
	return nil
}
