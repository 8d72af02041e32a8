package krm

import (
	"slices"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// The objects of a ResourceList's items.
//
// An item is a document of the pipeline: an object, or a List of them (a
// RoleList, a List, a CustomResourceDefinitionList, as kpt carries a file
// holding one). kmerge apply reads a List document's items as the objects,
// and patches them, not the List (resource.ListItems); the function does
// the same with a List item. The set of objects is then made of sources of
// two kinds: the list's other items, read as the items of a ResourceList
// that holds only them (a view: its items are the list's own nodes), and
// each List item read as a document of its own. An object's position is
// its place in the input either way. A patch edits the nodes the list
// shares with the sources; what a source cannot do to the list, taking out
// an item a patch deleted, prune does once the patches are applied.

// listItems returns the items of the ResourceList root (nil: none), and
// which of them are Lists (nil: none; resource.ListItems says what is).
// An item whose items are not a list is an error at its items.
func listItems(root *yaml.Node, file string) (items *yaml.Node, lists []bool, err error) {
	items = tree.MapGet(root, "items")
	if items == nil || items.Kind != yaml.SequenceNode {
		return items, nil, nil // resource.Objects says what is wrong
	}
	for k, it := range items.Content {
		l, err := resource.ListItems(it, file)
		if err != nil {
			return nil, nil, err
		}
		if l != nil {
			if lists == nil {
				lists = make([]bool, len(items.Content))
			}
			lists[k] = true
		}
	}
	return items, lists, nil
}

// view returns a copy of the ResourceList's root mapping whose items are
// the items that are not Lists (the same nodes), and that sequence.
func view(root, items *yaml.Node, lists []bool) (*yaml.Node, *yaml.Node) {
	seq := *items
	seq.Content = nil
	for k, it := range items.Content {
		if !lists[k] {
			seq.Content = append(seq.Content, it)
		}
	}
	m := *root
	m.Content = slices.Clone(root.Content)
	m.Content[tree.MapIndex(root, "items")+1] = &seq
	return &m, &seq
}

// streamOf returns a stream of one document whose root is n: a source of
// its own for nodes of another stream, which that stream writes.
func streamOf(like *tree.Stream, n *yaml.Node) *tree.Stream {
	return &tree.Stream{File: like.File, Format: like.Format, Style: like.Style,
		Docs: []*yaml.Node{{Kind: yaml.DocumentNode, Content: []*yaml.Node{n}}}}
}

// wholeSet returns the set of the objects of the ResourceList src holds,
// read whole (root: its root mapping), with the set's own checks (two
// objects of one identity); prune, called once the patches are applied,
// takes the items a patch deleted out of the list.
func wholeSet(src *resource.Source, root *yaml.Node) (set *resource.Set, prune func(), err error) {
	items, lists, err := listItems(root, src.Path)
	if err != nil {
		return nil, nil, err
	}
	if items == nil || tree.KindOf(items) == tree.Null {
		// no items: no objects (the ResourceList is no object of its own,
		// and needs no name)
		return &resource.Set{Sources: []*resource.Source{src}}, func() {}, nil
	}
	if lists == nil {
		objs, err := resource.Objects(src)
		if err != nil {
			return nil, nil, err
		}
		set = &resource.Set{Sources: []*resource.Source{src}, Resources: objs}
		return set, func() {}, set.Check()
	}
	// the other items, in a view of the list; its input is that view as it
	// was read (what the objects are checked against, as they were before
	// the patches: resource.Resource.Doc and Item are places in it)
	m, seq := view(root, items, lists)
	rest := &resource.Source{Path: src.Path, Rel: src.Rel, Stream: streamOf(src.Stream, m), Warnings: src.Warnings}
	if rest.Input, err = tree.MarshalJSON(m); err != nil {
		return nil, nil, err
	}
	restObjs, err := resource.Objects(rest)
	if err != nil {
		return nil, nil, err
	}
	set = &resource.Set{Sources: []*resource.Source{rest}}
	next := 0 // the next object of rest
	for k, it := range items.Content {
		if !lists[k] {
			set.Resources = append(set.Resources, restObjs[next])
			next++
			continue
		}
		sub := &resource.Source{Path: src.Path, Rel: src.Rel, Stream: streamOf(src.Stream, it)}
		if sub.Input, err = tree.MarshalJSON(it); err != nil {
			return nil, nil, err
		}
		objs, err := resource.Objects(sub)
		if err != nil {
			return nil, nil, err
		}
		set.Sources = append(set.Sources, sub)
		set.Resources = append(set.Resources, objs...)
	}
	prune = func() {
		kept := make(map[*yaml.Node]bool, len(items.Content))
		for _, it := range seq.Content {
			kept[it] = true
		}
		for k, it := range items.Content {
			kept[it] = kept[it] || lists[k]
		}
		items.Content = slices.DeleteFunc(items.Content, func(it *yaml.Node) bool { return !kept[it] })
	}
	return set, prune, set.Check()
}
