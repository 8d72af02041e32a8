package schema

import (
	"fmt"
	"strconv"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"

	yaml "go.yaml.in/yaml/v3"
)

// PathOfPointer returns the path of the JSON pointer ptr in root (a
// document node or a value) whose type is t (nil: unknown). A token of a list is an
// index; the item it names is named by its merge key when the schema gives
// the list one and the item has it, by its value when the list is a set of
// scalars (merged by value), else by its index. Members that do not exist
// are named all the same (a pointer can name a member to add); an index of
// a list root does not have, or "-", is an error.
func PathOfPointer(root *yaml.Node, t *Type, ptr string) (fieldpath.Path, error) {
	toks, err := fieldpath.ParsePointer(ptr)
	if err != nil {
		return nil, err
	}
	n := tree.Deref(root)
	var meta Meta // of the field whose value n is
	out := make(fieldpath.Path, 0, len(toks))
	for _, tok := range toks {
		isList := n != nil && n.Kind == yaml.SequenceNode || n == nil && t != nil && t.Kind == List
		if !isList {
			out = append(out, fieldpath.Field(tok))
			meta = Meta{}
			if f := t.Field(tok); f != nil {
				t, meta = f.Type, f.Meta
			} else if t != nil && t.Kind == Map {
				t = t.Elem
			} else {
				t = nil
			}
			if n != nil && n.Kind == yaml.MappingNode {
				n = tree.Deref(tree.MapGet(n, tok))
			} else {
				n = nil
			}
			continue
		}
		i, ok, why := fieldpath.PointerIndex(tok)
		if !ok {
			return nil, fmt.Errorf("%s: token %s of %s %s", strconv.Quote(ptr), strconv.Quote(tok), placeOf(out), why)
		}
		if n == nil || i >= len(n.Content) {
			return nil, fmt.Errorf("%s: %s has no item %d", strconv.Quote(ptr), placeOf(out), i)
		}
		item := tree.Deref(n.Content[i])
		out = append(out, fieldpath.ItemElement(item, meta.MergeKey, meta.Strategy == StrategyMerge, i))
		n, meta = item, Meta{}
		if t != nil {
			t = t.Elem
		}
	}
	return out, nil
}

// placeOf names the place p for a message.
func placeOf(p fieldpath.Path) string {
	if len(p) == 0 {
		return "the root"
	}
	return p.String()
}
