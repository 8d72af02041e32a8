package kpatch

import (
	"fmt"
	"strconv"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// place is where a path leads in an object: a value that exists, a field
// that does not exist yet, or a place in a list for a new item.
type place struct {
	r      *resource.Resource
	node   *yaml.Node     // the value; nil when absent
	typ    *schema.Type   // its type; nil when unknown
	field  *schema.Field  // the schema field it is the value of, if known
	parent *yaml.Node     // the mapping or sequence that holds (or will hold) it
	key    string         // in a parent mapping
	index  int            // in a parent sequence
	path   fieldpath.Path // for messages and changes
	// insert is set for the place of a new list item: the index it goes to.
	insert *int
	// listKey is the merge key of the list a new item goes into;
	// listIsSet says it merges scalars by value.
	listKey   []string
	listIsSet bool
}

// below names what a path leads to from pl, for messages about places
// that do not exist: pl's path and p as one path, printed by one printer
// (pl's part as fieldpath writes it).
func (pl place) below(p syntax.Path) string {
	return pl.r.ID() + ": " + append(syntax.FromFieldpath(pl.path), p...).String()
}

func (pl place) where() string {
	if len(pl.path) == 0 {
		return pl.r.ID()
	}
	return pl.r.ID() + ": " + pl.path.String()
}

// walk follows a path from some places. create: fields that do not exist
// are places to create (needed by assignments); selectors that match
// nothing give no place.
func (ap *applier) walk(from []place, path syntax.Path, pos tree.Position, create bool) ([]place, error) {
	if len(path) == 0 {
		return from, nil
	}
	st, rest := path[0], path[1:]
	var out []place
	for _, pl := range from {
		res, full, err := ap.step(pl, st, rest, create)
		if err != nil {
			return nil, err
		}
		if full != nil {
			// a shortcut: continue with the full path
			res, err = ap.walk([]place{pl}, append(append(syntax.Path(nil), full...), rest...), pos, create)
			if err != nil {
				return nil, err
			}
			out = append(out, res...)
			continue
		}
		more, err := ap.walk(res, rest, pos, create)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// step takes one step. It returns the places reached, or, when a field is
// not a field of the type where it stands, the full path it stands for.
func (ap *applier) step(pl place, st syntax.Step, rest syntax.Path, create bool) ([]place, syntax.Path, error) {
	if pl.insert != nil {
		pl = ap.materialize(pl, st.Pos)
	}
	if st.Sel != nil {
		return ap.selectItems(pl, st)
	}
	node := pl.node
	// a list without a selector: the step applies to every item (a number
	// is an index); an absent list has none
	absentList := node == nil && pl.typ != nil && pl.typ.Kind == schema.List
	if tree.KindOf(node) == tree.Array || absentList {
		if n, err := strconv.Atoi(st.Field); err == nil && !st.Quoted {
			return ap.selectItems(pl, syntax.Step{Pos: st.Pos, Sel: &syntax.ItemSelector{Op: syntax.SelIndex, Index: n}})
		}
		var out []place
		var items []*yaml.Node
		if node != nil {
			items = node.Content
		}
		for i, item := range items {
			ip := ap.itemPlace(pl, item, i, nil)
			res, full, err := ap.step(ip, st, rest, create)
			if err != nil {
				return nil, nil, err
			}
			if full != nil {
				more, err := ap.walk([]place{ip}, full, st.Pos, create)
				if err != nil {
					return nil, nil, err
				}
				out = append(out, more...)
				continue
			}
			out = append(out, res...)
		}
		return out, nil, nil
	}
	t := pl.typ
	var field *schema.Field
	switch {
	case t != nil && t.Kind == schema.Object:
		field = t.Field(st.Field)
		if field == nil && !st.Quoted {
			full, err := ap.shortcut(t, st, describeType(t, pl))
			if err != nil {
				return nil, nil, err
			}
			if full != nil {
				return nil, full, nil
			}
		}
		if field == nil {
			hint := suggestField(t, st.Field, st.Quoted)
			if hint == "" && !st.Quoted {
				hint = itemHint(t, st.Field)
			}
			return nil, nil, &syntax.Error{Pos: st.Pos, Msg: fmt.Sprintf("%s has no field %q%s", describeType(t, pl), st.Field, hint)}
		}
	case t != nil && t.Kind.Scalar():
		return nil, nil, &syntax.Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is %s (schema type %s), it has no field %q%s", pl.where(), article(t.Kind), typeWord(t), st.Field, dottedKeyHint(pl, st, rest))}
	case t != nil && t.Kind == schema.List:
		return nil, nil, &syntax.Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is a list: select items with [key=value] or [index] before %q", pl.where(), st.Field)}
	}
	if node != nil && node.Kind != yaml.MappingNode {
		return nil, nil, &syntax.Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is %s, it has no field %q", pl.where(), tree.Describe(node), st.Field)}
	}
	var childType *schema.Type
	if field != nil {
		childType = field.Type
	} else if t != nil && t.Kind == schema.Map {
		childType = t.Elem
	}
	child := place{r: pl.r, typ: childType, field: field, key: st.Field, path: pl.path.Append(fieldpath.Field(st.Field))}
	if node == nil {
		if !create {
			return nil, nil, nil
		}
		// create the object that holds the field
		node = ap.createHere(&pl, yaml.MappingNode, st.Pos)
	}
	child.parent = node
	child.node = ap.ix.mapGet(node, st.Field)
	if child.node == nil && len(rest) > 0 && !create {
		return nil, nil, nil
	}
	return []place{child}, nil, nil
}

// createHere creates an empty value of the given kind at an absent place
// and returns it.
func (ap *applier) createHere(pl *place, kind yaml.Kind, pos tree.Position) *yaml.Node {
	n := &yaml.Node{Kind: kind, Tag: map[yaml.Kind]string{yaml.MappingNode: "!!map", yaml.SequenceNode: "!!seq"}[kind]}
	if pl.parent.Kind == yaml.MappingNode {
		ap.ix.set(pl.parent, pl.key, n)
	} else {
		pl.parent.Content[pl.index] = n
		ap.ix.written("")
	}
	pl.node = n
	ap.record(change.Create, pl.path, &yaml.Node{Kind: kind, Tag: n.Tag}, pos)
	return n
}

// itemPlace is the place of an existing item of the list at pl, picked
// by the conditions conds (none: by index, or as one of every item).
func (ap *applier) itemPlace(pl place, item *yaml.Node, i int, conds []syntax.Cond) place {
	var elem *schema.Type
	var key []string
	if pl.typ != nil && pl.typ.Kind == schema.List {
		elem = pl.typ.Elem
	}
	if pl.field != nil {
		key = pl.field.Meta.MergeKey
	}
	return place{r: pl.r, node: item, typ: elem, parent: pl.node, index: i, path: pl.path.Append(itemName(item, key, conds, i))}
}

// itemName names an item of a list in paths: by the values it has for the
// list's merge key and for the fields the selector that picked it names
// (as the patch identifies it: a Service port picked by port and protocol
// is not the one with the same port and the other protocol, whatever
// upstream's merge key says), by its index when it has none of them.
func itemName(item *yaml.Node, key []string, conds []syntax.Cond, i int) fieldpath.Element {
	if item.Kind != yaml.MappingNode {
		if v, ok := fieldpath.ValueOf(item); ok && len(conds) == 1 && len(conds[0].Key) == 0 {
			return fieldpath.Member(v) // picked by value: [=value]
		}
		return fieldpath.Index(i)
	}
	var fields []fieldpath.KeyField
	add := func(f string) {
		for _, have := range fields {
			if have.Name == f {
				return
			}
		}
		if v, ok := fieldpath.ValueOf(tree.MapGet(item, f)); ok && tree.MapGet(item, f) != nil {
			fields = append(fields, fieldpath.KeyField{Name: f, Value: v})
		}
	}
	for _, f := range key {
		add(f)
	}
	for _, c := range conds {
		if len(c.Key) == 1 {
			add(c.Key[0])
		}
	}
	if len(fields) == 0 {
		return fieldpath.Index(i)
	}
	return fieldpath.Key(fields...)
}

// selectItems applies a list selector at pl.
func (ap *applier) selectItems(pl place, st syntax.Step) ([]place, syntax.Path, error) {
	sel := st.Sel
	node := pl.node
	if node != nil && node.Kind != yaml.SequenceNode {
		return nil, nil, &syntax.Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is %s, not a list: it has no items to select with %s", pl.where(), tree.Describe(node), sel)}
	}
	if pl.typ != nil && pl.typ.Kind != schema.List && pl.typ.Kind != schema.Any {
		return nil, nil, &syntax.Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is a %s (schema type %s), not a list", pl.where(), pl.typ.Kind, typeWord(pl.typ))}
	}
	var items []*yaml.Node
	if node != nil {
		items = node.Content
	}
	// what the selector picks must be there: the patch depends on it
	// (an item picked by index, on the items before it too)
	if e, ok := selectorElement(sel); ok && ap.log != nil {
		ap.record(change.Exists, pl.path.Append(e), nil, st.Pos)
	}
	switch sel.Op {
	case syntax.SelIndex:
		if sel.Index >= len(items) {
			return nil, nil, ap.warn(st.Pos, "%s has no item %d (it has %d)", pl.where(), sel.Index, len(items))
		}
		return []place{ap.itemPlace(pl, items[sel.Index], sel.Index, nil)}, nil, nil
	case syntax.SelMatch:
		var out []place
		for _, i := range ap.matching(node, sel.Conds) {
			out = append(out, ap.itemPlace(pl, items[i], i, sel.Conds))
		}
		if len(out) == 0 {
			return nil, nil, ap.warn(st.Pos, "%s has no item matching %s%s", pl.where(), sel, selectorHint(items, elemOf(pl.typ), sel.Conds))
		}
		return out, nil, nil
	}
	// a place for a new item
	at := len(items)
	switch {
	case sel.Op == syntax.SelAppend:
	case sel.Conds == nil:
		if sel.Index >= len(items) {
			return nil, nil, ap.warn(st.Pos, "%s has no item %d (it has %d) to insert next to", pl.where(), sel.Index, len(items))
		}
		at = sel.Index
		if sel.Op == syntax.SelInsertAfter {
			at++
		}
	default:
		at = -1
		if m := ap.matching(node, sel.Conds); len(m) > 0 {
			at = m[0]
		}
		if at < 0 {
			return nil, nil, ap.warn(st.Pos, "%s has no item matching %s to insert next to%s", pl.where(), (&syntax.ItemSelector{Op: syntax.SelMatch, Conds: sel.Conds}).String(), selectorHint(items, elemOf(pl.typ), sel.Conds))
		}
		if sel.Op == syntax.SelInsertAfter {
			at++
		}
	}
	if node == nil {
		node = ap.createHere(&pl, yaml.SequenceNode, st.Pos)
	}
	var elem *schema.Type
	if pl.typ != nil && pl.typ.Kind == schema.List {
		elem = pl.typ.Elem
	}
	var key []string
	isSet := false
	if pl.field != nil {
		key = pl.field.Meta.MergeKey
		isSet = pl.field.Meta.Strategy == schema.StrategyMerge && len(key) == 0
	}
	return []place{{r: pl.r, typ: elem, parent: node, index: at, insert: &at, path: pl.path.Append(fieldpath.Index(at)), listKey: key, listIsSet: isSet}}, nil, nil
}

// selectorElement names what a selector picks, or inserts next to: an
// index, or the items whose key fields have the conditions' values. A
// quoted value is a string; an unquoted one matches the text of any
// scalar, so one that does not read as a string (8080) could be either and
// names nothing (the element is then looser: it names more items). ok is
// false for an append, for conditions on fields below an item's own, and
// when no condition is left.
func selectorElement(sel *syntax.ItemSelector) (fieldpath.Element, bool) {
	if sel.Conds == nil {
		return fieldpath.Index(sel.Index), sel.Op != syntax.SelAppend
	}
	if len(sel.Conds) == 1 && len(sel.Conds[0].Key) == 0 {
		// [=value]: a member
		c := sel.Conds[0]
		v := fieldpath.String(c.Value)
		if !c.Quoted && fieldpath.Plain(c.Value) != v {
			return fieldpath.Element{}, false
		}
		return fieldpath.Member(v), true
	}
	var fields []fieldpath.KeyField
	for _, c := range sel.Conds {
		if len(c.Key) != 1 {
			return fieldpath.Element{}, false
		}
		v := fieldpath.String(c.Value)
		if !c.Quoted && fieldpath.Plain(c.Value) != v {
			continue
		}
		fields = append(fields, fieldpath.KeyField{Name: c.Key[0], Value: v})
	}
	return fieldpath.Key(fields...), len(fields) > 0
}

// matching returns the places of the items of list (nil: none) that have
// all the conditions' values, in order: through the object's index for a
// large list, by the first condition's value.
func (ap *applier) matching(list *yaml.Node, conds []syntax.Cond) []int {
	if list == nil {
		return nil
	}
	var out []int
	if len(conds) > 0 {
		if cands, ok := ap.ix.candidates(list, conds[0].Key, conds[0].Value); ok {
			for _, i := range cands {
				if matchItem(list.Content[i], conds) {
					out = append(out, i)
				}
			}
			return out
		}
	}
	for i, it := range list.Content {
		if matchItem(it, conds) {
			out = append(out, i)
		}
	}
	return out
}

// matchItem reports whether an item has all the conditions' values.
func matchItem(item *yaml.Node, conds []syntax.Cond) bool {
	for _, c := range conds {
		v := item
		for _, k := range c.Key {
			v = tree.MapGet(v, k)
		}
		if v == nil || v.Kind != yaml.ScalarNode || v.Value != c.Value {
			return false
		}
		if c.Quoted && tree.KindOf(v) != tree.String {
			return false
		}
	}
	return true
}

// materialize creates the object of a new item at an insertion place,
// for a patch at pos.
func (ap *applier) materialize(pl place, pos tree.Position) place {
	n := tree.NewMap()
	if pl.typ != nil && pl.typ.Kind.Scalar() {
		n = nil // a scalar item is created by its assignment
	}
	if n == nil {
		return pl
	}
	pl.parent.Content = append(pl.parent.Content, nil)
	copy(pl.parent.Content[*pl.insert+1:], pl.parent.Content[*pl.insert:])
	pl.parent.Content[*pl.insert] = n
	ap.ix.reshaped(pl.parent)
	pl.node, pl.index, pl.insert = n, *pl.insert, nil
	ap.touched[pl.r] = true
	ap.recordInsertion(pl, n, pos)
	return pl
}

// dottedKeyHint says how to write a key with dots in it, for a path that
// went on below a value of a map (metadata.annotations.example.com/team:
// the key example.com/team, read as the key example and a field com/team
// of it): "; a key with dots is quoted: metadata.annotations."example.com/team"".
// It returns "" when the value is not an entry of a map (a field of an
// object has its schema field), or st is not a plain field.
func dottedKeyHint(pl place, st syntax.Step, rest syntax.Path) string {
	if pl.field != nil || pl.key == "" || st.Sel != nil || st.Quoted || len(pl.path) == 0 {
		return ""
	}
	key := pl.key + "." + st.Field
	for _, r := range rest {
		if r.Sel != nil || r.Quoted {
			break
		}
		key += "." + r.Field
	}
	return fmt.Sprintf("; a key with dots is quoted: %s.%s", pl.path.Parent(), strconv.Quote(key))
}
