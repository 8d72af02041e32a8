package kpatch

import (
	"fmt"
	"math"
	"strconv"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// assign performs one assignment relative to a place.
func (ap *applier) assign(base place, a syntax.Assignment) error {
	warned := len(ap.res.Warnings)
	places, err := ap.walk([]place{base}, a.Key, a.Pos, !a.Value.Delete)
	if err != nil {
		return err
	}
	if len(places) == 0 {
		if len(ap.res.Warnings) == warned && a.Value.Delete {
			ap.deleteAbsent(base, a.Key, a.Pos)
			return ap.warn(a.Pos, "%s does not exist, nothing to delete", base.below(a.Key))
		}
		if len(ap.res.Warnings) == warned { // not a selector that matched nothing: an empty list
			return ap.warn(a.Pos, "%s: %s reaches no item (its lists are empty or absent)", base.where(), a.Key)
		}
		return nil
	}
	for _, pl := range places {
		if a.Value.Delete {
			if err := ap.delete(pl, a.Pos); err != nil {
				return err
			}
			continue
		}
		if err := ap.set(pl, a); err != nil {
			return err
		}
	}
	return nil
}

// set puts a scalar at a place.
func (ap *applier) set(pl place, a syntax.Assignment) error {
	if pl.node != nil && !tree.KindOf(pl.node).Scalar() {
		return &syntax.Error{Pos: a.Value.Pos, Msg: fmt.Sprintf("%s is %s: a field patch sets scalars (use a strategic or merge patch to change a whole %s)", pl.where(), tree.Describe(pl.node), tree.KindOf(pl.node))}
	}
	v, err := ap.typed(a.Value, pl)
	if err != nil {
		return err
	}
	if len(pl.path) > 0 && secret.Touches(pl.path) {
		ap.written = append(ap.written, written{pl.path[:1], v.Value}) // variables substituted
	}
	var old *yaml.Node // absent
	switch {
	case pl.insert != nil:
		pl.parent.Content = append(pl.parent.Content, nil)
		copy(pl.parent.Content[*pl.insert+1:], pl.parent.Content[*pl.insert:])
		pl.parent.Content[*pl.insert] = v
		ap.ix.reshaped(pl.parent)
		ap.recordInsertion(pl, v, a.Pos)
	case pl.node != nil:
		was := *pl.node
		old = &was
		setScalarKeepingStyle(pl.node, v)
		if pl.parent.Kind == yaml.MappingNode {
			ap.ix.written(pl.key)
		} else {
			ap.ix.written("")
		}
		ap.record(change.Set, pl.path, v, a.Pos)
	case pl.parent.Kind == yaml.MappingNode:
		ap.ix.set(pl.parent, pl.key, v)
		ap.record(change.Set, pl.path, v, a.Pos)
	default:
		pl.parent.Content[pl.index] = v
		ap.ix.written("")
		ap.record(change.Set, pl.path, v, a.Pos)
	}
	ap.touched[pl.r] = true
	ap.trace(a.Pos, pl.r, pl.path, old, v)
	return nil
}

// record adds a change of the patch to its log, when there is one: at
// path, the value v (copied for a Set: the node goes on into the
// document, which later patches edit), from the patch at pos.
func (ap *applier) record(op change.Op, path fieldpath.Path, v *yaml.Node, pos tree.Position) {
	if ap.log == nil {
		return
	}
	if op == change.Set {
		v = tree.Clone(v)
	}
	ap.log.Add(change.Change{Path: path, Op: op, Value: v, Pos: pos})
}

// recordInsertion records the new item v at the insertion place pl, until
// settleInsertions records it as it is once the patch is done.
func (ap *applier) recordInsertion(pl place, v *yaml.Node, pos tree.Position) {
	if ap.log == nil {
		return
	}
	ap.inserted = append(ap.inserted, insertion{change: len(ap.log.Changes), node: v, key: pl.listKey, set: pl.listIsSet})
	ap.log.Add(change.Change{Path: pl.path, Op: change.Insert, Value: v, Pos: pos})
}

// deleteAbsent records the deletion of what p leads to from base, which
// does not exist: it is absent afterwards all the same (another patch that
// puts it there conflicts). Only a path of fields can be named.
func (ap *applier) deleteAbsent(base place, p syntax.Path, pos tree.Position) {
	path := base.path
	for _, st := range p {
		if st.Sel != nil {
			return
		}
		path = path.Append(fieldpath.Field(st.Field))
	}
	ap.record(change.Delete, path, nil, pos)
}

// insertion is an item a field patch inserted into a list.
type insertion struct {
	change int        // its Insert in the log
	node   *yaml.Node // the item
	key    []string   // the merge key of the list
	set    bool       // the list merges scalars by value
}

// settleInsertions records the items the patch inserted as they are once
// the patch is done: an insertion carrying a copy of the item (what the
// patch set in it, recorded below it, goes). A list with a merge key, or
// one that merges scalars by value, is a set of items (package conflict
// compares it so), in which the place of an item only matters to the
// patch that puts it there: an item that has the key is inserted by key, a
// scalar as a member. Any other item is inserted at its index. A field
// patch inserts the item whether the list has one like it or not: unlike
// the item of a strategic patch, which merges into one with the same key,
// it conflicts with every other patch that puts an item with that key
// there.
func (ap *applier) settleInsertions() {
	if ap.log == nil {
		return
	}
	drop := map[int]bool{}
	for _, in := range ap.inserted {
		c := &ap.log.Changes[in.change]
		at := c.Path
		c.Value = tree.Clone(in.node)
		if e, ok := fieldpath.ItemKey(in.node, in.key); ok {
			c.Path = at.Parent().Append(e)
		} else if v, ok := fieldpath.ValueOf(in.node); ok && in.set {
			c.Path = at.Parent().Append(fieldpath.Member(v))
		}
		for i := in.change + 1; i < len(ap.log.Changes); i++ {
			if ap.log.Changes[i].Path.Below(at) {
				drop[i] = true
			}
		}
	}
	if len(drop) > 0 {
		// a new slice, not the old one's array: the changes dropped would
		// stay reachable past its length (with their paths and values)
		// for as long as the record is kept
		kept := make([]change.Change, 0, len(ap.log.Changes)-len(drop))
		for i, c := range ap.log.Changes {
			if !drop[i] {
				kept = append(kept, c)
			}
		}
		ap.log.Changes = kept
	}
}

// setScalarKeepingStyle gives an existing scalar a new value, keeping its
// comments and, for strings, its quotes.
func setScalarKeepingStyle(dst, src *yaml.Node) {
	keep := tree.KindOf(dst) == tree.String && tree.KindOf(src) == tree.String
	dst.Tag, dst.Value = src.Tag, src.Value
	if !keep {
		dst.Style = src.Style
	}
}

// delete removes the value at a place.
func (ap *applier) delete(pl place, pos tree.Position) error {
	if pl.node == nil || pl.insert != nil {
		if pl.insert == nil {
			// it is absent afterwards all the same
			ap.record(change.Delete, pl.path, nil, pos)
		}
		return ap.warn(pos, "%s does not exist, nothing to delete", pl.where())
	}
	if pl.parent.Kind == yaml.MappingNode {
		ap.ix.del(pl.parent, pl.key)
	} else {
		for i, it := range pl.parent.Content {
			if it == pl.node {
				pl.parent.Content = append(pl.parent.Content[:i], pl.parent.Content[i+1:]...)
				ap.ix.reshaped(pl.parent)
				break
			}
		}
	}
	ap.record(change.Delete, pl.path, nil, pos)
	ap.touched[pl.r] = true
	ap.trace(pos, pl.r, pl.path, pl.node, nil)
	return nil
}

// typed makes the node for a value, typed by the schema type of its place.
// A field that admits one scalar type (a string, an integer, a number, a
// boolean) takes the value's text as that type, quoted or not, written or
// from variables: replicas: "3" and replicas: "${values.n}" are the
// integer 3, a label's value is a string whatever it looks like. Where the
// schema admits several (int-or-string, or any value: no schema, or a
// field that preserves unknown fields), the value chooses: quoted, or
// text built from variables, is a string; exactly one unquoted variable
// takes the variable's type; other text is an integer for int-or-string
// when it reads as one, and is typed by YAML 1.2's core rules for any
// value.
func (ap *applier) typed(v syntax.Value, pl place) (*yaml.Node, error) {
	text, varNode, err := ap.opts.Vars.resolve(v)
	if err != nil {
		return nil, err
	}
	t := pl.typ
	kind := schema.Any
	if t != nil {
		kind = t.Kind
	}
	if !kind.Scalar() && kind != schema.Any {
		return nil, &syntax.Error{Pos: v.Pos, Msg: fmt.Sprintf("%s is a %s (schema type %s): a field patch sets scalars (use a strategic or merge patch)", pl.where(), kind, typeWord(t))}
	}
	fail := func(what string) error {
		return &syntax.Error{Pos: v.Pos, Msg: fmt.Sprintf("%s is %s (schema type %s); %s", pl.where(), article(kind), typeWord(t), what)}
	}
	// what the value is, for messages: its text, or the variable it comes
	// from
	shown := fmt.Sprintf("%q", text)
	if len(v.Parts) == 1 && v.Parts[0].Var != "" {
		shown = fmt.Sprintf("${%s} is %q, which", v.Parts[0].Var, text)
	}
	switch kind {
	case schema.String:
		if v.Raw == "" && !v.Quoted {
			// "key:" with nothing after it: the empty string, which is
			// seldom what was meant (a value left out, one on the next
			// line); "" says it on purpose
			if err := ap.notice(v.Pos, "%s is set to the empty string, as the value is empty: write \"\" to mean it, or !delete to remove the field", pl.where()); err != nil {
				return nil, err
			}
		}
		return tree.NewString(text), nil // any scalar fits a string
	case schema.Integer:
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			return nil, fail(shown + " is not an integer")
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: text}, nil
	case schema.Number:
		if _, err := strconv.ParseInt(text, 10, 64); err == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: text}, nil
		}
		if f, err := strconv.ParseFloat(text, 64); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fail(shown + " is not a number")
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: text}, nil
	case schema.Boolean:
		if text != "true" && text != "false" {
			return nil, fail(shown + " is not true or false")
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: text}, nil
	}
	// several types: the value chooses
	if varNode != nil {
		if kind == schema.IntOrString && !validate.KindFits(varNode, t) {
			return nil, fail(fmt.Sprintf("${%s} is %s", v.Parts[0].Var, varNode.Value))
		}
		if tree.KindOf(varNode) == tree.String {
			return tree.NewString(varNode.Value), nil
		}
		c := tree.Clone(varNode)
		c.Style = 0
		return c, nil
	}
	if v.Quoted || len(v.Parts) > 1 {
		return tree.NewString(text), nil
	}
	if kind == schema.IntOrString {
		if _, err := strconv.ParseInt(text, 10, 64); err == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: text}, nil
		}
		return tree.NewString(text), nil
	}
	n, _ := typedScalar(text)
	if tree.KindOf(n) == tree.String {
		return tree.NewString(n.Value), nil
	}
	n.Style = 0
	return n, nil
}
