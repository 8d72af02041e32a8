package smp

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// MergePatch returns the JSON merge patch (RFC 7396) that a strategic
// patch becomes for an object whose kind has no schema: the fallback that
// patches such an object as a merge patch, objects merged key by key and
// lists replaced, instead of failing.
//
// A merge patch has no directives: it would write them into the object
// as data. The one directive that means what a merge patch does anyway,
// a list item {$patch: replace} (the list replaces the document's list),
// is dropped. Every other directive ($patch in an object or with another
// value in a list item, $retainKeys, $setElementOrder/,
// $deleteFromPrimitiveList/, $patchMergeKey) needs the kind's schema, and
// is an *Error with ReasonNoSchema naming it (Error.Directive), its path
// in the document and its position in the patch (named file).
//
// The patch is not modified: a patch with items to drop is copied first.
func MergePatch(patch *yaml.Node, file string) (*yaml.Node, error) {
	f := fallback{file: file}
	if err := f.check(tree.Deref(tree.Root(patch))); err != nil {
		return nil, err
	}
	if !f.drops {
		return patch, nil
	}
	c := tree.Clone(patch)
	dropReplaceItems(tree.Root(c))
	return c, nil
}

type fallback struct {
	file  string
	path  fieldpath.Path
	drops bool // the patch has {$patch: replace} items to drop
}

// check walks a patch value and fails on its first directive that a merge
// patch cannot honour.
func (f *fallback) check(n *yaml.Node) error {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := tree.Deref(n.Content[i])
			if k == nil {
				continue
			}
			if k.Value == directivePatch || isDirectiveKey(k.Value) {
				return f.error(k, tree.Deref(n.Content[i+1]), false)
			}
			f.path = append(f.path, fieldpath.Field(k.Value))
			err := f.check(tree.Deref(n.Content[i+1]))
			f.path = f.path[:len(f.path)-1]
			if err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			item = tree.Deref(item)
			f.path = append(f.path, fieldpath.Index(i))
			if isReplaceItem(item) {
				f.drops = true
			} else if item != nil && item.Kind == yaml.MappingNode {
				if d := tree.MapIndex(item, directivePatch); d >= 0 {
					return f.error(item.Content[d], tree.Deref(item.Content[d+1]), true)
				}
				if err := f.check(item); err != nil {
					return err
				}
			} else if err := f.check(item); err != nil {
				return err
			}
			f.path = f.path[:len(f.path)-1]
		}
	}
	return nil
}

// error is the error for the directive key k (value v) at f.path; inItem
// tells a $patch in a list item from one in an object.
func (f *fallback) error(k, v *yaml.Node, inItem bool) error {
	directive, what := k.Value, ""
	switch {
	case k.Value == directivePatch:
		directive = directivePatch + ": " + scalarText(v)
		switch {
		case inItem && directiveValue(v) == "delete":
			what = "it deletes the item with the same merge key, which the schema names"
		case inItem && directiveValue(v) == "merge":
			what = "it merges the list's items by their merge key, which the schema names"
		case !inItem && directiveValue(v) == "delete":
			what = "it deletes what the object holds"
		case !inItem && directiveValue(v) == "replace":
			what = "it replaces the object, which a merge patch merges into"
		default:
			what = "it is not a $patch value of a merge patch"
		}
	case k.Value == directiveRetainKeys:
		what = "it clears the fields it does not list, as the schema's retainKeys strategy does"
	case k.Value == directivePatchMergeKey:
		what = "it names the fields that identify a list item, for merging lists"
	case strings.HasPrefix(k.Value, prefixSetOrder):
		what = "it orders the items of a merged list"
	case strings.HasPrefix(k.Value, prefixDeleteFromList):
		what = "it deletes values from a merged list"
	}
	return &Error{Reason: ReasonNoSchema, Directive: directive, Path: f.path.Append(),
		Pos: tree.Position{File: f.file, Line: k.Line, Column: k.Column},
		Msg: fmt.Sprintf("%s cannot be applied without the kind's schema (%s): a strategic patch on a kind without one is applied as a JSON merge patch, which has no directives", directive, what)}
}

// scalarText is the text of a scalar directive value, or its kind.
func scalarText(v *yaml.Node) string {
	if v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return describe(v)
}

// isReplaceItem reports whether a list item is {$patch: replace} and
// nothing else.
func isReplaceItem(item *yaml.Node) bool {
	if item == nil || item.Kind != yaml.MappingNode || len(item.Content) != 2 {
		return false
	}
	k := tree.Deref(item.Content[0])
	return k != nil && k.Value == directivePatch && directiveValue(tree.Deref(item.Content[1])) == "replace"
}

// dropReplaceItems removes the {$patch: replace} items of every list in n.
func dropReplaceItems(n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind == yaml.SequenceNode {
		kept := n.Content[:0]
		for _, item := range n.Content {
			if !isReplaceItem(item) {
				kept = append(kept, item)
			}
		}
		clear(n.Content[len(kept):])
		n.Content = kept
	}
	for _, c := range n.Content {
		dropReplaceItems(c)
	}
}
