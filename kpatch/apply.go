package kpatch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// Options control Apply.
type Options struct {
	Schema    *schema.Schema // nil: schema.Builtin()
	Vars      *Vars          // nil: no variables defined
	Strict    bool           // a patch that matches nothing is an error, not a warning
	ListOrder smp.ListOrder  // for strategic merge patches
	Trace     io.Writer      // when set, every change is written to it
	Record    *conflict.Recorder
	// Workers is how many objects are patched at once; 0 means
	// runtime.GOMAXPROCS(0). The result does not depend on it.
	Workers int
}

// Warning is a patch, or part of one, that changed nothing, or less than
// it says.
type Warning struct {
	Pos tree.Position
	Msg string
	// NoSchema is set for a strategic patch applied as a JSON merge patch
	// because its object's kind has no schema: giving the kind's schema
	// (its CustomResourceDefinition) makes its lists merge.
	NoSchema bool
}

// String formats the warning as "file:line:col: warning: message".
func (w Warning) String() string { return w.Pos.String() + "warning: " + w.Msg }

// Result tells what Apply did.
type Result struct {
	Warnings []Warning
	// Touched lists the objects some patch applied to, in set order.
	Touched []*resource.Resource
}

// Apply applies patches to the objects of set: first the strategic and
// merge patches, then the field patches, each group in the order given
// (spec/kpatch-file-format.md 7.2: the strategic patches set the shape of
// a document, field patches make precise changes on top). Objects are
// edited in place, several at once (Options.Workers). A patch whose target
// or selector matches nothing is a warning (an error with Strict).
func Apply(set *resource.Set, patches []*Patch, opts Options) (*Result, error) {
	run := NewRun(patches, opts)
	parallel.For(len(set.Resources), opts.Workers, func(i int) { run.Patch(set.Resources[i]) })
	return run.Finish(set)
}

// Run is Apply taken apart, for callers that patch objects as their files
// are read and write each file out as soon as its objects are done, rather
// than holding every file until the end: NewRun, then Patch for every
// object (in any order, from several goroutines at once), then Finish with
// the set of all the objects. The result is Apply's.
type Run struct {
	opts     Options
	order    []*Patch // strategic and merge patches, then field patches
	matchers []*resource.Matcher
	badSel   []error          // the target does not parse: the patch applies to nothing
	byName   map[string][]int // patches (index in order) whose target names one object
	anyName  []int            // the others, in order
	cache    *shortcutCache

	mu    sync.Mutex
	slots map[*resource.Resource][]*slot // the patches each object got, in order
}

// NewRun prepares a run of patches.
func NewRun(patches []*Patch, opts Options) *Run {
	if opts.Schema == nil {
		opts.Schema = schema.Builtin()
	}
	if opts.Vars == nil {
		opts.Vars = NewVars()
	}
	run := &Run{opts: opts, byName: map[string][]int{}, cache: &shortcutCache{m: map[shortcutKey]shortcutResult{}},
		slots: map[*resource.Resource][]*slot{}}
	for _, p := range patches {
		if p.Type != Field {
			run.order = append(run.order, p)
		}
	}
	for _, p := range patches {
		if p.Type == Field {
			run.order = append(run.order, p)
		}
	}
	run.matchers = make([]*resource.Matcher, len(run.order))
	run.badSel = make([]error, len(run.order))
	for i, p := range run.order {
		run.matchers[i], run.badSel[i] = p.Target.Matcher(opts.Schema)
		if run.badSel[i] != nil {
			continue
		}
		if name := p.Target.Name; name != "" && name != "*" {
			run.byName[name] = append(run.byName[name], i)
		} else {
			run.anyName = append(run.anyName, i)
		}
	}
	return run
}

// targets returns the patches (indexes in order) whose targets pick r, in
// order.
func (run *Run) targets(r *resource.Resource) []int {
	named, any := run.byName[r.Name], run.anyName
	var out []int
	for len(named) > 0 || len(any) > 0 {
		var i int
		if len(any) == 0 || len(named) > 0 && named[0] < any[0] {
			i, named = named[0], named[1:]
		} else {
			i, any = any[0], any[1:]
		}
		if run.matchers[i].Matches(r) {
			out = append(out, i)
		}
	}
	return out
}

// Targets reports whether some patch applies to r: whether Patch will edit
// it (a caller snapshots its file first).
func (run *Run) Targets(r *resource.Resource) bool { return len(run.targets(r)) > 0 }

// Patch applies to r, in order, every patch whose target picks it, and
// reports whether one did. It stops at the first failure, which Finish
// returns. Patch is safe to call for different objects at once.
func (run *Run) Patch(r *resource.Resource) bool {
	var slots []*slot
	touched := false
	for _, i := range run.targets(r) {
		sl := &slot{patch: run.order[i], index: i, r: r}
		slots = append(slots, sl)
		sl.run(run.opts, run.cache)
		touched = touched || sl.touched
		if sl.err != nil {
			break // the object's later patches do not matter: the run fails
		}
	}
	if len(slots) > 0 {
		run.mu.Lock()
		run.slots[r] = slots
		run.mu.Unlock()
	}
	return touched
}

// Finish puts together what the patches did to the objects of set (every
// object given to Patch, in the order of the set): the warnings, the
// conflict effects and the trace come in the order of a sequential run,
// by patch, then by object; the error returned is the first one in that
// order. A target whose kind names kinds of several groups among the
// objects it picked is an error too.
func (run *Run) Finish(set *resource.Set) (*Result, error) {
	opts := run.opts
	byPatch := make([][]*slot, len(run.order))
	for _, r := range set.Resources {
		for _, sl := range run.slots[r] {
			byPatch[sl.index] = append(byPatch[sl.index], sl)
		}
	}
	res := &Result{}
	touched := map[*resource.Resource]bool{}
	for i, p := range run.order {
		slots := byPatch[i]
		matched := make([]*resource.Resource, len(slots))
		for j, sl := range slots {
			matched[j] = sl.r
		}
		err := run.badSel[i]
		if err == nil {
			err = p.Target.Ambiguity(matched)
		}
		switch {
		case err != nil:
			return nil, &Error{Pos: p.Pos, Msg: err.Error()}
		case len(slots) == 0 && opts.Strict:
			return nil, &Error{Pos: p.Pos, Msg: fmt.Sprintf("no object matches %s (an error in strict mode)", p.Target)}
		case len(slots) == 0:
			res.Warnings = append(res.Warnings, Warning{Pos: p.Pos, Msg: fmt.Sprintf("no object matches %s; skipped", p.Target)})
		}
		for _, sl := range slots {
			if sl.err != nil {
				return nil, sl.err
			}
			res.Warnings = append(res.Warnings, sl.warnings...)
			if len(sl.record.Changes) > 0 {
				opts.Record.Add(sl.record)
			}
			if opts.Trace != nil && sl.trace.Len() > 0 {
				if _, err := opts.Trace.Write(sl.trace.Bytes()); err != nil {
					return nil, err
				}
			}
			if sl.touched {
				touched[sl.r] = true
			}
		}
	}
	for _, r := range set.Resources {
		if touched[r] {
			res.Touched = append(res.Touched, r)
		}
	}
	return res, nil
}

// slot is one patch applied to one object, with what it reported.
type slot struct {
	patch    *Patch
	index    int // of the patch in the run's order
	r        *resource.Resource
	warnings []Warning
	record   conflict.Record // what the patch changed
	trace    bytes.Buffer
	touched  bool
	err      error
}

// run applies the slot's patch to its object.
func (sl *slot) run(opts Options, cache *shortcutCache) {
	if opts.Trace != nil {
		opts.Trace = &sl.trace
	}
	ap := &applier{opts: opts, res: &Result{}, touched: map[*resource.Resource]bool{}, shortcuts: cache,
		log: &change.Log{}, kind: sl.patch.Type.String()}
	sl.err = ap.patchObject(sl.r, sl.patch)
	ap.settleInsertions()
	sl.warnings, sl.touched = ap.res.Warnings, ap.touched[sl.r]
	sl.record = conflict.Record{Object: sl.r.ID(), Patch: ap.kind, Pos: sl.patch.Pos, Changes: ap.log.Changes}
}

type applier struct {
	opts      Options
	res       *Result
	touched   map[*resource.Resource]bool
	shortcuts *shortcutCache
	log       *change.Log // what the patch changes
	kind      string      // the patch's kind, as conflicts name it
	inserted  []insertion // the items the patch inserted, for settleInsertions
}

func (ap *applier) warn(pos tree.Position, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if ap.opts.Strict {
		return &Error{Pos: pos, Msg: msg + " (an error in strict mode)"}
	}
	ap.res.Warnings = append(ap.res.Warnings, Warning{Pos: pos, Msg: msg + "; skipped"})
	return nil
}

func (ap *applier) trace(pos tree.Position, r *resource.Resource, path fieldpath.Path, old, new string) {
	if ap.opts.Trace != nil {
		fmt.Fprintf(ap.opts.Trace, "%s%s: %s: %s -> %s\n", pos, r.ID(), path, old, new)
	}
}

func (ap *applier) patchObject(r *resource.Resource, p *Patch) error {
	typ := ap.opts.Schema.Kind(r.APIVersion, r.Kind)
	switch p.Type {
	case Strategic, Merge, JSON:
		body, err := ap.substitute(p.Body, p.Pos.File)
		if err != nil {
			return err
		}
		strategic := p.Type == Strategic
		if strategic && typ == nil {
			ap.res.Warnings = append(ap.res.Warnings, Warning{Pos: p.Pos, NoSchema: true,
				Msg: fmt.Sprintf("no schema for %s %s: the strategic patch is applied as a JSON merge patch (lists are replaced)", r.APIVersion, r.Kind)})
			strategic = false
			ap.kind = Merge.String()
		}
		var before *yaml.Node
		if ap.opts.Trace != nil {
			before = tree.Clone(r.Root)
		}
		var res *yaml.Node
		switch {
		case p.Type == JSON:
			res, err = jsonpatch.Apply(r.Root, body, jsonpatch.Options{File: p.Pos.File, Record: ap.log})
		case strategic:
			res, err = smp.Apply(r.Root, body, typ, smp.Options{ListOrder: ap.opts.ListOrder, File: p.Pos.File, Record: ap.log})
		default:
			res, err = mergepatch.Apply(r.Root, body, mergepatch.Options{File: p.Pos.File, Record: ap.log})
		}
		if err != nil {
			return patchError(p.Pos, r, err)
		}
		if res.Kind != yaml.MappingNode {
			return &Error{Pos: p.Pos, Msg: fmt.Sprintf("%s: the %s patch would make the object %s; a patch cannot turn an object into something else", r.ID(), p.Type, describeNode(res))}
		}
		if res != r.Root {
			*r.Root = *res // the patch replaced the whole object
		}
		ap.touched[r] = true
		if ap.opts.Trace != nil {
			for _, c := range ap.log.Changes {
				switch c.Op {
				case change.Set, change.Delete, change.Insert, change.Retain, change.Order:
					ap.trace(c.Pos, r, c.Path, change.Show(fieldpath.Get(before, c.Path)), change.Show(fieldpath.Get(r.Root, c.Path)))
				}
			}
		}
		return nil
	}
	root := place{node: r.Root, typ: typ, r: r}
	warned := len(ap.res.Warnings)
	places, err := ap.walk([]place{root}, p.Path, p.Pos, !p.DeleteTarget)
	if err != nil {
		return err
	}
	if len(places) == 0 {
		if len(ap.res.Warnings) == warned && p.DeleteTarget {
			ap.deleteAbsent(root, p.Path, p.Pos)
			return ap.warn(p.Pos, "%s does not exist, nothing to delete", root.below(p.Path))
		}
		if len(ap.res.Warnings) == warned { // not a selector that matched nothing: an empty list
			return ap.warn(p.Pos, "%s: %s reaches no item (its lists are empty or absent)", r.ID(), p.Path)
		}
		return nil
	}
	if p.DeleteTarget {
		for i := len(places) - 1; i >= 0; i-- {
			if err := ap.delete(places[i], p.Pos); err != nil {
				return err
			}
		}
		return nil
	}
	for _, pl := range places {
		if pl.insert != nil {
			pl = ap.materialize(pl, p.Pos)
		}
		for _, a := range p.Sets {
			if err := ap.assign(pl, a); err != nil {
				return err
			}
		}
	}
	return nil
}

func patchError(pos tree.Position, r *resource.Resource, err error) error {
	msg := err.Error()
	if at, ok := tree.ErrorPosition(err); ok {
		pos = at
	}
	var pe tree.PositionedError
	if errors.As(err, &pe) {
		msg = strings.TrimPrefix(msg, pe.Position().String()) // the position goes in front, once
	}
	return &Error{Pos: pos, Msg: r.ID() + ": " + msg, Err: err}
}

// substitute copies a patch document with its variables substituted in
// every scalar: a scalar that is exactly one unquoted variable takes the
// variable's type, anything else becomes a string.
func (ap *applier) substitute(n *yaml.Node, file string) (*yaml.Node, error) {
	c := tree.Clone(n)
	var walk func(n *yaml.Node) error
	walk = func(n *yaml.Node) error {
		if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "${") {
			pos := tree.Position{File: file, Line: n.Line, Column: n.Column}
			parts, err := splitVariables(n.Value, pos)
			if err != nil {
				return err
			}
			quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
			v := Value{Pos: pos, Raw: n.Value, Quoted: quoted, parts: parts}
			text, node, err := v.resolve(ap.opts.Vars)
			if err != nil {
				return err
			}
			if node != nil {
				n.Tag, n.Value, n.Style = node.Tag, node.Value, 0
			} else {
				n.Tag, n.Value = "!!str", text
			}
			return nil
		}
		for _, ch := range n.Content {
			if err := walk(ch); err != nil {
				return err
			}
		}
		return nil
	}
	return c, walk(c)
}

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
// that do not exist.
func (pl place) below(p Path) string {
	rest := p.String()
	if len(pl.path) > 0 && len(p) > 0 && p[0].Sel == nil {
		rest = "." + rest
	}
	if len(pl.path) == 0 {
		return pl.r.ID() + ": " + rest
	}
	return pl.r.ID() + ": " + pl.path.String() + rest
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
func (ap *applier) walk(from []place, path Path, pos tree.Position, create bool) ([]place, error) {
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
			res, err = ap.walk([]place{pl}, append(append(Path(nil), full...), rest...), pos, create)
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
func (ap *applier) step(pl place, st Step, rest Path, create bool) ([]place, Path, error) {
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
			return ap.selectItems(pl, Step{Pos: st.Pos, Sel: &Selector{Op: SelIndex, Index: n}})
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
			hint := suggestField(t, st.Field)
			if hint == "" && !st.Quoted {
				hint = itemHint(t, st.Field)
			}
			return nil, nil, &Error{Pos: st.Pos, Msg: fmt.Sprintf("%s has no field %q%s", describeType(t, pl), st.Field, hint)}
		}
	case t != nil && t.Kind.Scalar():
		return nil, nil, &Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is %s (schema type %s), it has no field %q", pl.where(), article(t.Kind), typeWord(t), st.Field)}
	case t != nil && t.Kind == schema.List:
		return nil, nil, &Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is a list: select items with [key=value] or [index] before %q", pl.where(), st.Field)}
	}
	if node != nil && node.Kind != yaml.MappingNode {
		return nil, nil, &Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is %s, it has no field %q", pl.where(), describeNode(node), st.Field)}
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
	child.node = tree.MapGet(node, st.Field)
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
		tree.MapSet(pl.parent, pl.key, n)
	} else {
		pl.parent.Content[pl.index] = n
	}
	pl.node = n
	ap.log.Add(change.Change{Path: pl.path, Op: change.Create, Value: &yaml.Node{Kind: kind, Tag: n.Tag}, Pos: pos})
	return n
}

// itemPlace is the place of an existing item of the list at pl, picked
// by the conditions conds (none: by index, or as one of every item).
func (ap *applier) itemPlace(pl place, item *yaml.Node, i int, conds []Cond) place {
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
func itemName(item *yaml.Node, key []string, conds []Cond, i int) fieldpath.Element {
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
func (ap *applier) selectItems(pl place, st Step) ([]place, Path, error) {
	sel := st.Sel
	node := pl.node
	if node != nil && node.Kind != yaml.SequenceNode {
		return nil, nil, &Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is %s, not a list: it has no items to select with %s", pl.where(), describeNode(node), sel)}
	}
	if pl.typ != nil && pl.typ.Kind != schema.List && pl.typ.Kind != schema.Any {
		return nil, nil, &Error{Pos: st.Pos, Msg: fmt.Sprintf("%s is a %s (schema type %s), not a list", pl.where(), pl.typ.Kind, typeWord(pl.typ))}
	}
	var items []*yaml.Node
	if node != nil {
		items = node.Content
	}
	// what the selector picks must be there: the patch depends on it
	// (an item picked by index, on the items before it too)
	if e, ok := selectorElement(sel); ok {
		ap.log.Add(change.Change{Path: pl.path.Append(e), Op: change.Exists, Pos: st.Pos})
	}
	switch sel.Op {
	case SelIndex:
		if sel.Index >= len(items) {
			return nil, nil, ap.warn(st.Pos, "%s has no item %d (it has %d)", pl.where(), sel.Index, len(items))
		}
		return []place{ap.itemPlace(pl, items[sel.Index], sel.Index, nil)}, nil, nil
	case SelMatch:
		var out []place
		for i, it := range items {
			if matchItem(it, sel.Conds) {
				out = append(out, ap.itemPlace(pl, it, i, sel.Conds))
			}
		}
		if len(out) == 0 {
			return nil, nil, ap.warn(st.Pos, "%s has no item matching %s", pl.where(), sel)
		}
		return out, nil, nil
	}
	// a place for a new item
	at := len(items)
	switch {
	case sel.Op == SelAppend:
	case sel.Conds == nil:
		if sel.Index >= len(items) {
			return nil, nil, ap.warn(st.Pos, "%s has no item %d (it has %d) to insert next to", pl.where(), sel.Index, len(items))
		}
		at = sel.Index
		if sel.Op == SelInsertAfter {
			at++
		}
	default:
		at = -1
		for i, it := range items {
			if matchItem(it, sel.Conds) {
				at = i
				break
			}
		}
		if at < 0 {
			return nil, nil, ap.warn(st.Pos, "%s has no item matching %s to insert next to", pl.where(), (&Selector{Op: SelMatch, Conds: sel.Conds}).String())
		}
		if sel.Op == SelInsertAfter {
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
func selectorElement(sel *Selector) (fieldpath.Element, bool) {
	if sel.Conds == nil {
		return fieldpath.Index(sel.Index), sel.Op != SelAppend
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

// matchItem reports whether an item has all the conditions' values.
func matchItem(item *yaml.Node, conds []Cond) bool {
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
	pl.node, pl.index, pl.insert = n, *pl.insert, nil
	ap.touched[pl.r] = true
	ap.inserted = append(ap.inserted, insertion{change: len(ap.log.Changes), node: n, key: pl.listKey})
	ap.log.Add(change.Change{Path: pl.path, Op: change.Insert, Value: n, Pos: pos})
	return pl
}

// assign performs one assignment relative to a place.
func (ap *applier) assign(base place, a Assignment) error {
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
func (ap *applier) set(pl place, a Assignment) error {
	if pl.node != nil && !tree.KindOf(pl.node).Scalar() {
		return &Error{Pos: a.Value.Pos, Msg: fmt.Sprintf("%s is %s: a field patch sets scalars (use a strategic or merge patch to change a whole %s)", pl.where(), describeNode(pl.node), tree.KindOf(pl.node))}
	}
	v, err := ap.typed(a.Value, pl)
	if err != nil {
		return err
	}
	old := "(absent)"
	switch {
	case pl.insert != nil:
		pl.parent.Content = append(pl.parent.Content, nil)
		copy(pl.parent.Content[*pl.insert+1:], pl.parent.Content[*pl.insert:])
		pl.parent.Content[*pl.insert] = v
		ap.inserted = append(ap.inserted, insertion{change: len(ap.log.Changes), node: v, set: pl.listIsSet})
		ap.log.Add(change.Change{Path: pl.path, Op: change.Insert, Value: v, Pos: a.Pos})
	case pl.node != nil:
		old = pl.node.Value
		setScalarKeepingStyle(pl.node, v)
		ap.log.Add(change.Change{Path: pl.path, Op: change.Set, Value: tree.Clone(v), Pos: a.Pos})
	case pl.parent.Kind == yaml.MappingNode:
		tree.MapSet(pl.parent, pl.key, v)
		ap.log.Add(change.Change{Path: pl.path, Op: change.Set, Value: tree.Clone(v), Pos: a.Pos})
	default:
		pl.parent.Content[pl.index] = v
		ap.log.Add(change.Change{Path: pl.path, Op: change.Set, Value: tree.Clone(v), Pos: a.Pos})
	}
	ap.touched[pl.r] = true
	ap.trace(a.Pos, pl.r, pl.path, old, v.Value)
	return nil
}

// deleteAbsent records the deletion of what p leads to from base, which
// does not exist: it is absent afterwards all the same (another patch that
// puts it there conflicts). Only a path of fields can be named.
func (ap *applier) deleteAbsent(base place, p Path, pos tree.Position) {
	path := base.path
	for _, st := range p {
		if st.Sel != nil {
			return
		}
		path = path.Append(fieldpath.Field(st.Field))
	}
	ap.log.Add(change.Change{Path: path, Op: change.Delete, Pos: pos})
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
		kept := ap.log.Changes[:0]
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
			ap.log.Add(change.Change{Path: pl.path, Op: change.Delete, Pos: pos})
		}
		return ap.warn(pos, "%s does not exist, nothing to delete", pl.where())
	}
	if pl.parent.Kind == yaml.MappingNode {
		tree.MapDelete(pl.parent, pl.key)
	} else {
		for i, it := range pl.parent.Content {
			if it == pl.node {
				pl.parent.Content = append(pl.parent.Content[:i], pl.parent.Content[i+1:]...)
				break
			}
		}
	}
	ap.log.Add(change.Change{Path: pl.path, Op: change.Delete, Pos: pos})
	ap.touched[pl.r] = true
	ap.trace(pos, pl.r, pl.path, change.Show(pl.node), "(absent)")
	return nil
}

// typed makes the node for a value, typed by the schema type of its place:
// quoted values are strings; unquoted ones take the field's type
// (replicas an integer, label values strings, targetPort an integer or a
// string); a value that is exactly one variable takes the variable's type;
// without a schema, YAML 1.2's core rules decide.
func (ap *applier) typed(v Value, pl place) (*yaml.Node, error) {
	text, varNode, err := v.resolve(ap.opts.Vars)
	if err != nil {
		return nil, err
	}
	t := pl.typ
	kind := schema.Any
	if t != nil {
		kind = t.Kind
	}
	if !kind.Scalar() && kind != schema.Any {
		return nil, &Error{Pos: v.Pos, Msg: fmt.Sprintf("%s is a %s (schema type %s): a field patch sets scalars (use a strategic or merge patch)", pl.where(), kind, typeWord(t))}
	}
	fail := func(what string) error {
		return &Error{Pos: v.Pos, Msg: fmt.Sprintf("%s is %s (schema type %s); %s", pl.where(), article(kind), typeWord(t), what)}
	}
	str := newString
	if varNode != nil {
		vk := tree.KindOf(varNode)
		switch kind {
		case schema.String:
			return str(varNode.Value), nil // any scalar fits a string
		case schema.Any:
			if vk == tree.String {
				return newString(varNode.Value), nil
			}
			return tree.Clone(varNode), nil
		case schema.Integer:
			if vk != tree.Int {
				return nil, fail(fmt.Sprintf("${%s} is %s", v.parts[0].ref, varNode.Value))
			}
		case schema.Number:
			if vk != tree.Int && vk != tree.Float {
				return nil, fail(fmt.Sprintf("${%s} is %s", v.parts[0].ref, varNode.Value))
			}
		case schema.Boolean:
			if vk != tree.Bool {
				return nil, fail(fmt.Sprintf("${%s} is %s", v.parts[0].ref, varNode.Value))
			}
		case schema.IntOrString:
			if vk != tree.Int && vk != tree.String {
				return nil, fail(fmt.Sprintf("${%s} is %s", v.parts[0].ref, varNode.Value))
			}
		}
		c := tree.Clone(varNode)
		c.Style = 0
		return c, nil
	}
	if v.Quoted || len(v.parts) > 1 {
		switch kind {
		case schema.Integer, schema.Number, schema.Boolean:
			return nil, fail(fmt.Sprintf("the value %q is a string (quoted or built from variables)", text))
		}
		return str(text), nil
	}
	switch kind {
	case schema.String:
		return str(text), nil
	case schema.Integer:
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			return nil, fail(fmt.Sprintf("%q is not an integer", text))
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: text}, nil
	case schema.Number:
		if _, err := strconv.ParseInt(text, 10, 64); err == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: text}, nil
		}
		if f, err := strconv.ParseFloat(text, 64); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fail(fmt.Sprintf("%q is not a number", text))
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: text}, nil
	case schema.Boolean:
		if text != "true" && text != "false" {
			return nil, fail(fmt.Sprintf("%q is not true or false", text))
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: text}, nil
	case schema.IntOrString:
		if _, err := strconv.ParseInt(text, 10, 64); err == nil {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: text}, nil
		}
		return str(text), nil
	}
	n, _ := typedScalar(text)
	if tree.KindOf(n) == tree.String {
		return newString(n.Value), nil
	}
	n.Style = 0
	return n, nil
}

func article(k schema.Kind) string {
	switch k {
	case schema.Integer, schema.IntOrString, schema.Object, schema.Any:
		return "an " + k.String()
	}
	return "a " + k.String()
}

func typeWord(t *schema.Type) string {
	if t == nil {
		return "unknown"
	}
	if t.Format != "" {
		return t.Kind.String() + "/" + t.Format
	}
	return t.Kind.String()
}

func describeType(t *schema.Type, pl place) string {
	if len(pl.path) > 0 && t.Name != "" {
		return pl.where() + " (" + t.Name + ")"
	}
	return pl.where()
}

func describeNode(n *yaml.Node) string {
	switch k := tree.KindOf(n); k {
	case tree.Object, tree.Array:
		return "an " + k.String()
	case tree.String:
		return fmt.Sprintf("the string %q", n.Value)
	default:
		return "the " + k.String() + " " + n.Value
	}
}

func suggestField(t *schema.Type, name string) string {
	var close []string
	for _, f := range t.Fields() {
		if strings.EqualFold(f.Name, name) || strings.Contains(strings.ToLower(f.Name), strings.ToLower(name)) {
			close = append(close, f.Name)
		}
	}
	if len(close) == 0 || len(close) > 5 {
		return ""
	}
	return "; did you mean " + strings.Join(close, ", ") + "?"
}
