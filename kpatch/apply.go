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

	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
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
	// KeepGoing reports every error in Result.Errors instead of stopping
	// at the first: a patch that fails on an object is left there and the
	// object's next patches run (for an editor, which shows them all).
	KeepGoing bool
}

// Warning is a patch, or part of one, that changed nothing.
type Warning struct {
	// Object is the object the warning is about; nil when there is none
	// (a target that picked no object).
	Object *resource.Resource

	Pos tree.Position
	Msg string
}

// String formats the warning as "file:line:col: warning: message".
func (w Warning) String() string { return w.Pos.String() + "warning: " + w.Msg }

// Result tells what Apply did.
type Result struct {
	Warnings []Warning
	// Touched lists the objects some patch applied to, in set order.
	Touched []*resource.Resource
	// Errors holds, with Options.KeepGoing, every error, in the order of
	// a sequential run.
	Errors []error
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
		if sl.err != nil && !run.opts.KeepGoing {
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

// Effects returns what the patches did to r (its conflict effects: a path
// and a patch position each), in the order they did it, once Patch has
// returned for r.
func (run *Run) Effects(r *resource.Resource) []conflict.Effect {
	run.mu.Lock()
	slots := run.slots[r]
	run.mu.Unlock()
	var out []conflict.Effect
	for _, sl := range slots {
		out = append(out, sl.effects...)
	}
	return out
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
			err = &Error{Pos: p.Pos, Msg: err.Error()}
		case len(slots) == 0 && opts.Strict:
			err = &Error{Pos: p.Pos, Msg: fmt.Sprintf("no object matches %s%s (an error in strict mode)", p.Target, targetHint(p.Target, set, opts.Schema))}
		case len(slots) == 0:
			res.Warnings = append(res.Warnings, Warning{Pos: p.Pos, Msg: fmt.Sprintf("no object matches %s%s; skipped", p.Target, targetHint(p.Target, set, opts.Schema))})
		}
		if err != nil && !opts.KeepGoing {
			return nil, err
		} else if err != nil {
			res.Errors = append(res.Errors, err)
			continue
		}
		for _, sl := range slots {
			if sl.err != nil && !opts.KeepGoing {
				return nil, sl.err
			} else if sl.err != nil {
				res.Errors = append(res.Errors, sl.err)
			}
			res.Warnings = append(res.Warnings, sl.warnings...)
			for _, e := range sl.effects {
				opts.Record.Add(e)
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
	effects  []conflict.Effect
	trace    bytes.Buffer
	touched  bool
	err      error
}

// run applies the slot's patch to its object.
func (sl *slot) run(opts Options, cache *shortcutCache) {
	rec := &conflict.Recorder{}
	opts.Record = rec
	if opts.Trace != nil {
		opts.Trace = &sl.trace
	}
	ap := &applier{opts: opts, res: &Result{}, touched: map[*resource.Resource]bool{}, shortcuts: cache}
	sl.err = ap.patchObject(sl.r, sl.patch)
	sl.warnings, sl.effects, sl.touched = ap.res.Warnings, rec.Effects(), ap.touched[sl.r]
	for i := range sl.warnings {
		sl.warnings[i].Object = sl.r
	}
}

type applier struct {
	opts      Options
	res       *Result
	touched   map[*resource.Resource]bool
	shortcuts *shortcutCache
}

func (ap *applier) warn(pos tree.Position, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if ap.opts.Strict {
		return &Error{Pos: pos, Msg: msg + " (an error in strict mode)"}
	}
	ap.res.Warnings = append(ap.res.Warnings, Warning{Pos: pos, Msg: msg + "; skipped"})
	return nil
}

func (ap *applier) trace(pos tree.Position, r *resource.Resource, path string, old, new string) {
	if ap.opts.Trace != nil {
		fmt.Fprintf(ap.opts.Trace, "%s%s: %s: %s -> %s\n", pos, r.ID(), path, old, new)
	}
}

// lookup finds the value at a canonical path (as conflict effects name
// them) in an object; nil when there is none.
func lookup(root *yaml.Node, path string) *yaml.Node {
	if path == "" {
		return root
	}
	p, err := ParsePath(path, tree.Position{})
	if err != nil {
		return nil
	}
	n := root
	for _, st := range p {
		switch {
		case n == nil:
			return nil
		case st.Sel == nil:
			if n.Kind != yaml.MappingNode {
				return nil
			}
			n = tree.MapGet(n, st.Field)
		case n.Kind != yaml.SequenceNode:
			return nil
		case st.Sel.Op == SelIndex:
			if st.Sel.Index >= len(n.Content) {
				return nil
			}
			n = n.Content[st.Sel.Index]
		default:
			var found *yaml.Node
			for _, it := range n.Content {
				if matchItem(it, st.Sel.Conds) {
					found = it
					break
				}
			}
			n = found
		}
	}
	return n
}

// shown formats a value for the trace: scalars as they are, objects and
// lists as JSON cut at 80 bytes.
func shown(n *yaml.Node) string {
	switch {
	case n == nil:
		return "(absent)"
	case tree.KindOf(n).Scalar():
		return n.Value
	}
	b, err := tree.MarshalJSON(n)
	if err != nil {
		return "(" + tree.KindOf(n).String() + ")"
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
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
			ap.res.Warnings = append(ap.res.Warnings, Warning{Pos: p.Pos, Msg: fmt.Sprintf("no schema for %s %s: the strategic patch is applied as a JSON merge patch (lists are replaced); pass its CRD with --schema", r.APIVersion, r.Kind)})
			strategic = false
		}
		var effects []conflict.Effect
		if p.Type == JSON {
			effects = conflict.JSONPatchEffects(r.Root, body, typ, r.ID(), p.Pos)
		} else {
			effects = conflict.PatchEffects(body, typ, strategic, r.ID(), p.Pos)
		}
		for _, e := range effects {
			ap.opts.Record.Add(e)
		}
		var before *yaml.Node
		if ap.opts.Trace != nil {
			before = tree.Clone(r.Root)
		}
		var res *yaml.Node
		switch {
		case p.Type == JSON:
			res, err = jsonpatch.Apply(r.Root, body)
		case strategic:
			res, err = smp.Apply(r.Root, body, typ, smp.Options{ListOrder: ap.opts.ListOrder})
		default:
			res, err = mergepatch.Apply(r.Root, body)
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
			for _, e := range effects {
				ap.trace(e.Pos, r, e.Path, shown(lookup(before, e.Path)), shown(lookup(r.Root, e.Path)))
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
			pl = ap.materialize(pl)
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
	p := pos
	var se *smp.Error
	var je *jsonpatch.Error
	switch {
	case errors.As(err, &se) && se.Line > 0:
		p.Line, p.Column = se.Line, se.Column
	case errors.As(err, &je) && je.Line > 0:
		p.Line, p.Column = je.Line, je.Column
	}
	return &Error{Pos: p, Msg: fmt.Sprintf("%s: %v", r.ID(), err)}
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
	node   *yaml.Node    // the value; nil when absent
	typ    *schema.Type  // its type; nil when unknown
	field  *schema.Field // the schema field it is the value of, if known
	parent *yaml.Node    // the mapping or sequence that holds (or will hold) it
	key    string        // in a parent mapping
	index  int           // in a parent sequence
	path   string        // canonical path, for messages and conflicts
	// insert is set for the place of a new list item: the index it goes to.
	insert *int
}

// below names what a path leads to from pl, for messages about places
// that do not exist.
func (pl place) below(p Path) string {
	rest := p.String()
	if pl.path != "" && len(p) > 0 && p[0].Sel == nil {
		rest = "." + rest
	}
	if pl.path == "" {
		return pl.r.ID() + ": " + rest
	}
	return pl.r.ID() + ": " + pl.path + rest
}

func (pl place) where() string {
	if pl.path == "" {
		return pl.r.ID()
	}
	return pl.r.ID() + ": " + pl.path
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
		pl = ap.materialize(pl)
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
			ip := ap.itemPlace(pl, item, i)
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
	child := place{r: pl.r, typ: childType, field: field, key: st.Field, path: conflict.JoinField(pl.path, st.Field)}
	if node == nil {
		if !create {
			return nil, nil, nil
		}
		// create the object that holds the field
		node = ap.createHere(&pl, yaml.MappingNode)
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
func (ap *applier) createHere(pl *place, kind yaml.Kind) *yaml.Node {
	n := &yaml.Node{Kind: kind, Tag: map[yaml.Kind]string{yaml.MappingNode: "!!map", yaml.SequenceNode: "!!seq"}[kind]}
	if pl.parent.Kind == yaml.MappingNode {
		tree.MapSet(pl.parent, pl.key, n)
	} else {
		pl.parent.Content[pl.index] = n
	}
	pl.node = n
	return n
}

// itemPlace is the place of an existing item of the list at pl.
func (ap *applier) itemPlace(pl place, item *yaml.Node, i int) place {
	var elem *schema.Type
	var key []string
	if pl.typ != nil && pl.typ.Kind == schema.List {
		elem = pl.typ.Elem
	}
	if pl.field != nil {
		key = pl.field.Meta.MergeKey
	}
	return place{r: pl.r, node: item, typ: elem, parent: pl.node, index: i, path: pl.path + conflict.ItemName(item, key, i)}
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
	switch sel.Op {
	case SelIndex:
		if sel.Index >= len(items) {
			return nil, nil, ap.warn(st.Pos, "%s has no item %d (it has %d)", pl.where(), sel.Index, len(items))
		}
		return []place{ap.itemPlace(pl, items[sel.Index], sel.Index)}, nil, nil
	case SelMatch:
		var out []place
		for i, it := range items {
			if matchItem(it, sel.Conds) {
				out = append(out, ap.itemPlace(pl, it, i))
			}
		}
		if len(out) == 0 {
			return nil, nil, ap.warn(st.Pos, "%s has no item matching %s%s", pl.where(), sel, selectorHint(items, elemOf(pl.typ), sel.Conds))
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
			return nil, nil, ap.warn(st.Pos, "%s has no item matching %s to insert next to%s", pl.where(), (&Selector{Op: SelMatch, Conds: sel.Conds}).String(), selectorHint(items, elemOf(pl.typ), sel.Conds))
		}
		if sel.Op == SelInsertAfter {
			at++
		}
	}
	if node == nil {
		node = ap.createHere(&pl, yaml.SequenceNode)
	}
	var elem *schema.Type
	if pl.typ != nil && pl.typ.Kind == schema.List {
		elem = pl.typ.Elem
	}
	return []place{{r: pl.r, typ: elem, parent: node, index: at, insert: &at, path: pl.path + "[" + strconv.Itoa(at) + "]"}}, nil, nil
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

// materialize creates the object of a new item at an insertion place.
func (ap *applier) materialize(pl place) place {
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
		ap.opts.Record.Add(conflict.Effect{Resource: pl.r.ID(), Path: parentPath(pl.path), Op: conflict.Insert, Patch: "field", Pos: a.Pos})
	case pl.node != nil:
		old = pl.node.Value
		setScalarKeepingStyle(pl.node, v)
		ap.record(pl, v, a.Pos)
	case pl.parent.Kind == yaml.MappingNode:
		tree.MapSet(pl.parent, pl.key, v)
		ap.record(pl, v, a.Pos)
	default:
		pl.parent.Content[pl.index] = v
		ap.record(pl, v, a.Pos)
	}
	ap.touched[pl.r] = true
	ap.trace(a.Pos, pl.r, pl.path, old, v.Value)
	return nil
}

func (ap *applier) record(pl place, v *yaml.Node, pos tree.Position) {
	ap.opts.Record.Add(conflict.Effect{Resource: pl.r.ID(), Path: pl.path, Op: conflict.Set,
		Value: tree.KindOf(v).String() + ":" + tree.Key(v), Shown: v.Value, Patch: "field", Pos: pos})
}

func parentPath(p string) string {
	if i := strings.LastIndexByte(p, '['); i > 0 {
		return p[:i]
	}
	return p
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
	ap.opts.Record.Add(conflict.Effect{Resource: pl.r.ID(), Path: pl.path, Op: conflict.Delete, Patch: "field", Pos: pos})
	ap.touched[pl.r] = true
	ap.trace(pos, pl.r, pl.path, shown(pl.node), "(absent)")
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
		default:
			if !validate.KindFits(varNode, t) {
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
	return t.String()
}

func describeType(t *schema.Type, pl place) string {
	if pl.path != "" && t.Name != "" {
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
