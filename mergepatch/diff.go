package mergepatch

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/nodeedit"
	"github.com/kmerge/kmerge/tree"
)

// Diff returns the JSON merge patch (RFC 7396) that turns original into
// modified: for objects, the fields modified changes or adds, null for the
// fields it removes, recursively; anything else is replaced as a whole
// (arrays included). Applying it with Apply gives modified, except for null
// values of modified, which a merge patch cannot express (null in a patch
// deletes). original and modified are document nodes or root values (empty:
// null); they are not modified and the patch shares no nodes with them.
func Diff(original, modified *yaml.Node) *yaml.Node {
	o, m := tree.Deref(tree.Root(original)), tree.Deref(tree.Root(modified))
	if m == nil {
		m = tree.NewNull()
	}
	if tree.KindOf(o) != tree.Object || tree.KindOf(m) != tree.Object {
		return tree.Clone(m)
	}
	return diffObjects(o, m)
}

func diffObjects(o, m *yaml.Node) *yaml.Node {
	patch := tree.NewMap()
	// each object's keys looked up in the other's through an index once
	// they are many (a scan for each took the square of their number)
	inO, inM := nodeedit.NewMap(o).Get, nodeedit.NewMap(m).Get
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, mv := m.Content[i], tree.Deref(m.Content[i+1])
		ov := tree.Deref(inO(k.Value))
		switch {
		case ov == nil:
			patch.Content = append(patch.Content, tree.Clone(k), tree.Clone(mv))
		case tree.KindOf(ov) == tree.Object && tree.KindOf(mv) == tree.Object:
			if sub := diffObjects(ov, mv); len(sub.Content) > 0 {
				patch.Content = append(patch.Content, tree.Clone(k), sub)
			}
		case !tree.Equal(ov, mv):
			patch.Content = append(patch.Content, tree.Clone(k), tree.Clone(mv))
		}
	}
	for i := 0; i+1 < len(o.Content); i += 2 {
		if k := o.Content[i]; inM(k.Value) == nil {
			patch.Content = append(patch.Content, tree.Clone(k), tree.NewNull())
		}
	}
	return patch
}
