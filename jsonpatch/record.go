package jsonpatch

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// changesOf appends to out the changes operation o makes, read from the
// document as it is before o (Options.Record). A pointer's tokens become
// the fields and indexes they name there: a JSON patch names list items by
// index, so its changes do too (the conflict package treats them as
// depending on every change to the list's items). An operation also needs
// the object or list it works in to exist (Exists), and move, copy and test
// read a value (Test).
//
//	add      Set of a member, Insert of an item (at an index, or at the end for "-")
//	remove   Delete
//	replace  Set
//	move     Test and Delete of from, Set or Insert of path
//	copy     Test of from, Set or Insert of path
//	test     Test
func (a *applier) changesOf(o *operation, out []change.Change) []change.Change {
	// add records op at toks, after what it needs: the value there (for
	// everything but add), or the object or array it goes into
	add := func(op change.Op, toks []string, v *yaml.Node) {
		p, inList, _ := a.pathOf(toks)
		adds := op == change.Set && (o.op == "add" || o.op == "copy" || o.op == "move")
		if adds && inList {
			op = change.Insert
		}
		switch {
		case !adds && len(toks) > 0:
			out = append(out, a.change(o, change.Exists, p, nil))
		case len(toks) > 0 && len(p) > 1:
			out = append(out, a.change(o, change.Exists, p.Parent(), nil))
		}
		if op != change.Exists {
			out = append(out, a.change(o, op, p, v))
		}
	}
	switch o.op {
	case "add", "replace":
		add(change.Set, o.pathTok, o.given)
	case "remove":
		add(change.Delete, o.pathTok, nil)
	case "move", "copy":
		v := tree.Clone(a.value(o.fromTok))
		add(change.Test, o.fromTok, v)
		if o.op == "move" {
			add(change.Delete, o.fromTok, nil)
		}
		add(change.Set, o.pathTok, v)
	case "test":
		add(change.Test, o.pathTok, o.given)
	}
	return out
}

// change returns a change of o at p.
func (a *applier) change(o *operation, op change.Op, p fieldpath.Path, v *yaml.Node) change.Change {
	c := change.Change{Path: p, Op: op, Value: v, Pos: tree.Position{File: o.file}}
	if o.node != nil {
		c.Pos.Line, c.Pos.Column = o.node.Line, o.node.Column
	}
	return c
}

// pathOf returns the path the tokens name in the document: members of
// objects are fields, items of arrays indexes ("-" the index after the
// last item); a token below a value that is not there is a field. inList
// reports whether the last token names an item; n is the value there (nil:
// none), as fieldpath.Get finds it at p.
func (a *applier) pathOf(toks []string) (p fieldpath.Path, inList bool, n *yaml.Node) {
	p = make(fieldpath.Path, 0, len(toks))
	n = tree.Deref(a.root)
	for _, t := range toks {
		inList = n != nil && n.Kind == yaml.SequenceNode
		if !inList {
			p = append(p, fieldpath.Field(t))
			if n != nil && n.Kind == yaml.MappingNode {
				var v *yaml.Node
				if i := a.find(n, t); i >= 0 { // tree.MapGet, through the index
					v = n.Content[i+1]
				}
				n = tree.Deref(v)
			} else {
				n = nil
			}
			continue
		}
		i, ok, _ := fieldpath.PointerIndex(t)
		switch {
		case t == "-":
			i = len(n.Content)
		case !ok:
			i = len(n.Content) // the operation fails; the change is never recorded
		}
		p = append(p, fieldpath.Index(i))
		if i < len(n.Content) {
			n = tree.Deref(n.Content[i])
		} else {
			n = nil
		}
	}
	return p, inList, n
}

// value returns the value at toks, nil when there is none.
func (a *applier) value(toks []string) *yaml.Node {
	_, _, n := a.pathOf(toks)
	return n
}
