package kpatch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// Options control Apply.
type Options struct {
	Schema    *schema.Schema // nil: schema.Builtin()
	Vars      *Vars          // nil: no variables defined
	Strict    bool           // a patch that matches nothing is an error, not a warning
	ListOrder smp.ListOrder  // for strategic merge patches
	Trace     io.Writer      // when set, every change is written to it
	// Records, when set, is given the change records of each object
	// that more than one patch changed (a patch never conflicts with
	// itself): one change.Record per patch, in the order the patches
	// applied, as soon as the object is patched (Run.Patch), so that a
	// caller can compare them (conflict.Recorder's Add finds their
	// conflicts) and they need not be kept until Finish. It is called
	// for several objects at once. Result.Recorded names the objects it
	// was given, in the order of a sequential run.
	Records func([]change.Record)
	// Workers is how many objects are patched at once; 0 means
	// runtime.GOMAXPROCS(0). The result does not depend on it.
	Workers int
	// KeepGoing reports every error in Result.Errors instead of stopping
	// at the first: a patch that fails on an object is left there and the
	// object's next patches run, and an assignment of a field patch that
	// fails is skipped and the patch's next assignments run (for an
	// editor, which shows them all).
	KeepGoing bool
	// Changes records what each patch changes in every object, for
	// Run.Changes: callers that attribute what an object became to the
	// patches (validation, an editor's hover).
	Changes bool
	// MaxExpanded bounds what variables add to the values of one patch
	// file, in bytes (each use of a variable counts the bytes of its
	// value): patches over it apply to nothing, and Finish returns the
	// error (Limit "expanded"). It bounds what the copy operations of a
	// JSON patch add too (jsonpatch.Options.MaxExpanded). 0:
	// tree.DefaultLimits().MaxExpanded; a negative value: no limit.
	MaxExpanded int
	// ShowSecrets shows the values of v1 Secrets' data and stringData in
	// clear in the trace and in messages. By default they are masked
	// ("***"; "*** (before)" and "*** (after)" for a value that changed),
	// and the changes recorded on them are marked change.Change.Mask, so
	// that conflicts show them masked too. The patched objects keep their
	// values either way.
	ShowSecrets bool

	scanOnly bool // tests: field patches look everything up by scanning, without an index; strategic patches index lists for one patch at a time
}

// Warning is a patch, or part of one, that changed nothing, or less than
// it says.
type Warning struct {
	// Object is the object the warning is about; nil when there is none
	// (a target that picked no object).
	Object *resource.Resource

	Pos tree.Position
	Msg string
	// NoSchema is set for a strategic patch applied as a JSON merge patch
	// because its object's kind has no schema: giving the kind's schema
	// (its CustomResourceDefinition) makes its lists merge.
	NoSchema bool
	// Ignored names, for a kustomization read among the patch files, the
	// fields it holds that kmerge does not read (all but its patches):
	// what kustomize would do with them is not done.
	Ignored []string
	// Unread is set for a file of a kustomization's folder that nothing
	// reads (Pos names it): the kustomization does not name it, and kmerge
	// reads the folder through the kustomization.
	Unread bool
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
	// Recorded names the objects (change.Record.Object) whose records
	// went to Options.Records, each once, in the order of a sequential
	// run: by the first patch that recorded changes in them, then in set
	// order. It orders what was found in them
	// (conflict.Recorder.Conflicts).
	Recorded []string
}

// Apply applies patches to the objects of set: first the strategic and
// merge patches, then the field patches, each group in the order given
// (docs/kpatch.md, "Order": the strategic patches set the shape of
// a document, field patches make precise changes on top). Objects are
// edited in place, several at once (Options.Workers); the objects a patch
// deleted are taken out of the set and of their sources
// (resource.Set.RemoveDeleted). A patch whose target or selector matches
// nothing is a warning (an error with Strict).
//
// Once ctx is done, no further patch is applied, and Apply returns
// ctx.Err() wrapped with the object and the patch it stopped before; the
// objects patched by then stay patched (as after any error, the set is
// then best thrown away).
func Apply(ctx context.Context, set *resource.Set, patches []*syntax.Patch, opts Options) (*Result, error) {
	run := NewRun(patches, opts)
	parallel.For(len(set.Resources), opts.Workers, func(i int) { run.Patch(ctx, set.Resources[i]) })
	res, err := run.Finish(ctx, set)
	set.RemoveDeleted()
	return res, err
}

type applier struct {
	ix        *objectIndex // the object's, for field patches; nil: none
	engines                // the object's, for strategic, merge and JSON patches; nil: none
	opts      Options
	res       *Result
	touched   map[*resource.Resource]bool
	shortcuts *shortcutCache
	log       *change.Log      // what the patch changes
	kind      change.PatchType // the patch's kind, as its change records name it
	inserted  []insertion      // the items the patch inserted, for settleInsertions
	traced    []traced         // what the patch changed, for the trace (Options.Trace)
	// what the patch gives the object, for its secret values (Run.Patch):
	// a strategic, merge or JSON patch's body, its variables substituted,
	// and the values a field patch set in data and stringData
	body    *yaml.Node
	written []written
}

// written is a value a field patch set in data or stringData (at the
// field at).
type written struct {
	at    fieldpath.Path
	value string
}

// traced is a change for the trace, written once the object's patches are
// done (slot.writeTrace): the values before and after it (nil: absent),
// copied; or, with deleted, the object deleted.
type traced struct {
	pos      tree.Position
	id       string
	path     fieldpath.Path
	old, new *yaml.Node
	deleted  bool
}

func (ap *applier) warn(pos tree.Position, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if ap.opts.Strict {
		return &syntax.Error{Pos: pos, Msg: msg + " (an error in strict mode)"}
	}
	ap.res.Warnings = append(ap.res.Warnings, Warning{Pos: pos, Msg: msg + "; skipped"})
	return nil
}

// notice is warn for what is done anyway: a warning, an error in strict
// mode, and nothing skipped.
func (ap *applier) notice(pos tree.Position, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if ap.opts.Strict {
		return &syntax.Error{Pos: pos, Msg: msg + " (an error in strict mode)"}
	}
	ap.res.Warnings = append(ap.res.Warnings, Warning{Pos: pos, Msg: msg})
	return nil
}

// trace keeps a change for the trace: the value at path before and after
// (nil: absent), copied, as later changes may edit them. The trace is
// written once the object's patches are done, masked by the object's
// secret values (slot.writeTrace).
func (ap *applier) trace(pos tree.Position, r *resource.Resource, path fieldpath.Path, old, new *yaml.Node) {
	if ap.opts.Trace == nil {
		return
	}
	ap.traced = append(ap.traced, traced{pos: pos, id: r.ID(), path: path.Append(), old: tree.Clone(old), new: tree.Clone(new)})
}

func (ap *applier) patchObject(r *resource.Resource, p *syntax.Patch) error {
	if ap.log != nil {
		// the changes the patch makes are its own (change.Change.Patch)
		from := len(ap.log.Changes)
		defer func() {
			for i := from; i < len(ap.log.Changes); i++ {
				ap.log.Changes[i].Patch = p.Pos
			}
		}()
	}
	if p.DeletesObject() {
		// before any engine: a kind without a schema deletes as one with
		r.Deleted = true
		ap.touched[r] = true
		ap.log.Add(change.Change{Op: change.Delete, Pos: p.Pos})
		if ap.opts.Trace != nil {
			ap.traced = append(ap.traced, traced{pos: p.Pos, id: r.ID(), deleted: true})
		}
		return nil
	}
	typ := ap.opts.Schema.Kind(r.APIVersion, r.Kind)
	switch p.Type {
	case change.StrategicPatch, change.MergePatch, change.JSONPatch:
		bodyType := typ // what the body's values are typed by (substitute)
		if p.Type == change.JSONPatch {
			bodyType = nil // a list of operations, not the object's shape
		}
		body, notes, err := ap.substitute(p.Body, p.Pos.File, r, bodyType)
		if err != nil {
			return err
		}
		ap.body = body
		if p.Type != change.JSONPatch {
			keepIdentity(body, r, p)
		}
		strategic := p.Type == change.StrategicPatch
		if strategic && typ == nil {
			ap.res.Warnings = append(ap.res.Warnings, Warning{Pos: p.Pos, NoSchema: true,
				Msg: fmt.Sprintf("no schema for %s %s: the strategic patch is applied as a JSON merge patch (lists are replaced)", r.APIVersion, r.Kind)})
			strategic = false
			ap.kind = change.MergePatch
		}
		var before *yaml.Node
		if ap.opts.Trace != nil {
			before = tree.Clone(r.Root)
		}
		var res *yaml.Node
		switch {
		case p.Type == change.JSONPatch:
			res, err = jsonpatch.Apply(r.Root, body, jsonpatch.Options{File: p.Pos.File, Record: ap.log, MaxExpanded: ap.opts.MaxExpanded, ShowSecrets: ap.opts.ShowSecrets, Index: ap.jsons})
		case strategic:
			res, err = smp.Apply(r.Root, body, typ, smp.Options{ListOrder: ap.opts.ListOrder, File: p.Pos.File, Record: ap.log, Index: ap.lists})
		case p.Type == change.StrategicPatch: // a kind without a schema: the merge patch fallback
			var mp *yaml.Node
			if mp, err = smp.MergePatch(body, p.Pos.File); err == nil {
				res, err = mergepatch.Apply(r.Root, mp, mergepatch.Options{File: p.Pos.File, Record: ap.log, Index: ap.merges})
			}
		default:
			res, err = mergepatch.Apply(r.Root, body, mergepatch.Options{File: p.Pos.File, Record: ap.log, Index: ap.merges})
		}
		if err != nil {
			return patchError(p.Pos, r, err)
		}
		ap.note(notes)
		if res.Kind != yaml.MappingNode {
			return &syntax.Error{Pos: p.Pos, Msg: fmt.Sprintf("%s: the %s patch would make the object %s; a patch cannot turn an object into something else", r.ID(), p.Type, tree.Describe(res))}
		}
		if res != r.Root {
			*r.Root = *res // the patch replaced the whole object
		}
		ap.touched[r] = true
		if ap.opts.Trace != nil && ap.log != nil {
			for _, c := range ap.log.Changes {
				switch c.Op {
				case change.Set, change.Delete, change.Insert, change.Retain, change.Order:
					ap.trace(c.Pos, r, c.Path, fieldpath.Get(before, c.Path), fieldpath.Get(r.Root, c.Path))
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
	var errs []error // with KeepGoing, every failed assignment's
	for _, pl := range places {
		if pl.insert != nil {
			pl = ap.materialize(pl, p.Pos)
		}
		for _, a := range p.Sets {
			if err := ap.assign(pl, a); err != nil {
				if !ap.opts.KeepGoing {
					return err
				}
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// keepIdentity takes out of a strategic or merge patch body (a copy) what
// would change the identity of the object r, as kustomize reads such a
// patch: its apiVersion and metadata.namespace always, its metadata.name
// and kind unless the patch allows a new name (a new kind). Those name
// the target. A body whose top level is $patch: replace (the object
// replaced whole) gets r's instead.
func keepIdentity(body *yaml.Node, r *resource.Resource, p *syntax.Patch) {
	if body.Kind != yaml.MappingNode {
		return
	}
	replace := false
	if d := tree.MapGet(body, "$patch"); d != nil && d.Kind == yaml.ScalarNode && d.Value == "replace" {
		replace = true
	}
	fix := func(m *yaml.Node, key, value string, allowed bool) {
		switch {
		case allowed && tree.MapGet(m, key) != nil:
		case replace && value != "":
			tree.MapSet(m, key, tree.NewString(value))
		default:
			tree.MapDelete(m, key)
		}
	}
	fix(body, "apiVersion", r.APIVersion, false)
	fix(body, "kind", r.Kind, p.AllowKindChange)
	meta := tree.MapGet(body, "metadata")
	if meta == nil || meta.Kind != yaml.MappingNode {
		return
	}
	wasEmpty := len(meta.Content) == 0
	fix(meta, "namespace", r.Namespace, false)
	fix(meta, "name", r.Name, p.AllowNameChange)
	if len(meta.Content) == 0 && !wasEmpty {
		tree.MapDelete(body, "metadata")
	}
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
	return &syntax.Error{Pos: pos, Msg: r.ID() + ": " + msg, Err: err}
}

// substitute copies a patch document with its variables substituted in
// every scalar. The document has the shape of the object r, whose type is
// typ (nil: unknown), and a scalar built from variables is typed as a
// .kpatch value is (applier.typed): where the schema admits one scalar
// type (replicas: an integer), the value's text is of that type, quoted or
// not ("${values.replicas}" is the integer 5); where it admits several
// (int-or-string, any value, no schema), a scalar that is exactly one
// unquoted variable takes the variable's type, and anything else is a
// string (a patch document is YAML, whose quotes make strings). notes
// holds, by the line and column of each scalar that became a string from
// variables where a string is not the one type the schema admits, what a
// message about a string there should say (change.Change.Note). Scalars
// without variables are the patch's YAML, typed as YAML types them (as
// kubectl and kustomize read a patch).
func (ap *applier) substitute(n *yaml.Node, file string, r *resource.Resource, typ *schema.Type) (*yaml.Node, map[[2]int]string, error) {
	c := tree.Clone(n)
	var notes map[[2]int]string
	var walk func(n *yaml.Node, t *schema.Type, path fieldpath.Path) error
	walk = func(n *yaml.Node, t *schema.Type, path fieldpath.Path) error {
		switch {
		case n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "${"):
			pos := tree.Position{File: file, Line: n.Line, Column: n.Column}
			parts, err := syntax.Variables(n.Value, pos)
			if err != nil {
				return err
			}
			quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
			v := syntax.Value{Pos: pos, Raw: n.Value, Quoted: quoted, Parts: parts}
			if t != nil && t.Kind.Scalar() && t.Kind != schema.IntOrString {
				// one scalar type: the value is of it, as in a .kpatch
				typed, err := ap.typed(v, place{r: r, typ: t, path: path.Append()})
				if err != nil {
					return err
				}
				n.Tag, n.Value = typed.Tag, typed.Value
				if typed.Tag != "!!str" {
					n.Style = 0
				}
				return nil
			}
			text, node, err := ap.opts.Vars.resolve(v)
			if err != nil {
				return err
			}
			if node != nil {
				n.Tag, n.Value, n.Style = node.Tag, node.Value, 0
				return nil
			}
			note := "quoted or built from variables: a string, as YAML reads it"
			if len(parts) == 1 && parts[0].Var != "" {
				note += "; unquoted, ${" + parts[0].Var + "} keeps the variable's type"
			}
			if notes == nil {
				notes = map[[2]int]string{}
			}
			notes[[2]int{n.Line, n.Column}] = note
			n.Tag, n.Value = "!!str", text
			return nil
		case n.Kind == yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				key := n.Content[i].Value
				// (path grows in place: walk keeps no path but the one
				// it copies for typed)
				if err := walk(n.Content[i+1], bodyFieldType(t, key), append(path, fieldpath.Field(key))); err != nil {
					return err
				}
			}
		case n.Kind == yaml.SequenceNode:
			var elem *schema.Type
			if t != nil && t.Kind == schema.List {
				elem = t.Elem
			}
			for i, ch := range n.Content {
				if err := walk(ch, elem, append(path, fieldpath.Index(i))); err != nil {
					return err
				}
			}
		default:
			for _, ch := range n.Content {
				if err := walk(ch, nil, path); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := walk(c, typ, nil)
	return c, notes, err
}

// bodyFieldType is the type of the value of key in a patch document's
// mapping of type t (nil: unknown): a field's, a map's values', or, for
// the strategic directives that name a list field ($setElementOrder/F,
// $deleteFromPrimitiveList/F), that field's list; other directives are of
// no type.
func bodyFieldType(t *schema.Type, key string) *schema.Type {
	if t == nil {
		return nil
	}
	if strings.HasPrefix(key, "$") {
		_, field, ok := strings.Cut(key, "/")
		if !ok || t.Kind != schema.Object {
			return nil
		}
		key = field
	}
	switch t.Kind {
	case schema.Object:
		if f := t.Field(key); f != nil {
			return f.Type
		}
	case schema.Map:
		return t.Elem
	}
	return nil
}

// note gives the changes the patch recorded that set a scalar of the
// patch substitute noted their notes.
func (ap *applier) note(notes map[[2]int]string) {
	if ap.log == nil || len(notes) == 0 {
		return
	}
	for i := range ap.log.Changes {
		c := &ap.log.Changes[i]
		if c.Op == change.Set && c.Value != nil && c.Value.Kind == yaml.ScalarNode {
			c.Note = notes[[2]int{c.Value.Line, c.Value.Column}]
		}
	}
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
	if len(pl.path) > 0 && t.Name != "" {
		return pl.where() + " (" + t.Name + ")"
	}
	return pl.where()
}
