// Package serverside is kmerge apply's server-side mode (docs/ssa.md):
// the manifests, patched as kmerge.Apply patches them, are applied to the
// live objects (files, as kubectl get -o yaml --show-managed-fields writes
// them) as an API server's server-side apply would (package ssa), and the
// outputs are the objects as it would store them, managedFields included;
// a conflict with another field manager names the line of the manifest,
// or of the patch, that sets the field. Blame adds to kmerge.Blame's lines
// the field managers that own them.
//
// It sits above package kmerge, which does not import the engine: what
// does not apply server-side (the playground) does not carry it.
package serverside

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/internal/linediff"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/ssa"
	"github.com/kmerge/kmerge/tree"
)

// Options are the server-side apply's.
type Options struct {
	// Manager is the field manager (kubectl's --field-manager). Apply
	// needs one; Blame without one shows the live owners only.
	Manager string
	// Force takes over the fields other managers own with other values
	// (kubectl's --force-conflicts) instead of failing.
	Force bool
	// Live are files and folders of the live objects, as kubectl get -o
	// yaml --show-managed-fields writes them: one object, several
	// documents, or a List. An object of the output with no live
	// counterpart is created; live objects no output object names are not
	// part of the apply.
	Live []string
	// Time is stamped on the managedFields entry the apply writes; zero:
	// the current time. (The kmerge command takes it from
	// SOURCE_DATE_EPOCH when that is set.)
	Time time.Time
}

// Result is a server-side apply's: kmerge.Apply's result, each file's
// Output the objects as the API server would store them (written as
// kubectl get -o yaml writes them, keys sorted; as JSON for a JSON file
// with KeepFormat), and what each object is.
type Result struct {
	*kmerge.ApplyResult
	// Objects are the objects applied, in the order of the output.
	Objects []*StoredObject
	// NoManagedFields name the live objects that have no managedFields
	// (exported without kubectl get's --show-managed-fields?): the API
	// server gives all their fields to before-first-apply, with which the
	// apply then conflicts.
	NoManagedFields []string

	limits *tree.Limits
}

// StoredObject is an object as the API server would store it after the
// apply.
type StoredObject struct {
	File string // the manifest file it comes from
	// ID names it as stored: "apps/v1 Deployment prod/web" (the
	// namespace is the live object's when the manifest names none).
	ID string
	// Live is where its live object was read ("" and 0: it is created).
	Live     string
	LiveLine int
	// LiveText and Text are the live object and the stored one, written
	// as kubectl get -o yaml writes them (keys sorted); LiveText is empty
	// for an object created.
	LiveText, Text []byte
	// Changed: the apply changes the live object (an object created is
	// changed).
	Changed bool
	// Managed are the stored object's managedFields entries.
	Managed []*ssa.Entry

	apiVersion, kind string
}

// ConflictError is a server-side apply some objects of which conflict
// with other field managers: the API server refuses each such object (409
// Conflict), and nothing is written.
type ConflictError struct {
	Objects []ObjectConflicts
}

// ObjectConflicts are an object's conflicts.
type ObjectConflicts struct {
	ID   string // "apps/v1 Deployment prod/web"
	File string // the manifest file
	// Err is the API server's refusal: its Error is the API server's
	// text ("Apply failed with 1 conflict: conflict with "hpa" using
	// apps/v1: .spec.replicas").
	Err *ssa.ConflictError
	// Fields are the conflicting fields, in Err's order, each with where
	// the manifests set it.
	Fields []FieldConflict
}

// FieldConflict is a conflicting field and where it comes from: the line
// of the manifest that sets it, or of the patch that wrote it.
type FieldConflict struct {
	ssa.Conflict
	// Pos is the manifest's line that sets the field, or, when a patch
	// wrote it, the patch's (Patch set); no line when the applied
	// configuration does not hold the field (an item another manager
	// owns a field of).
	Pos   tree.Position
	Patch bool
}

// Error is each object's refusal, on a line of its own after the object.
func (e *ConflictError) Error() string {
	var lines []string
	for _, o := range e.Objects {
		lines = append(lines, o.ID+": "+o.Err.Error())
	}
	return strings.Join(lines, "\n")
}

// Error is an error applying one object server-side: its kind unknown to
// the schema, a live object that cannot be read or matched, a manifest the
// API server would refuse (package ssa's errors).
type Error struct {
	Pos tree.Position // the object in the output (a manifest's line)
	ID  string
	Err error
}

// Error says where, which object, and what (where once: an error of the
// live object's managedFields that names the same place is not preceded
// by it twice).
func (e *Error) Error() string {
	var mfe *ssa.ManagedFieldsError
	if errors.As(e.Err, &mfe) && mfe.Pos == e.Pos {
		return fmt.Sprintf("%s%s: %v", e.Pos, e.ID, &ssa.ManagedFieldsError{Msg: mfe.Msg})
	}
	return fmt.Sprintf("%s%s: %v", e.Pos, e.ID, e.Err)
}

// errorOf is the error of applying the object of the output at pos, id:
// placed at the object, or, when the live object lr is at fault (its
// managedFields, a field that does not fit the schema), in the live file,
// where it is to be fixed: at the entry of managedFields when known, else
// at the live object.
func errorOf(pos tree.Position, id string, lr *resource.Resource, err error) *Error {
	var mfe *ssa.ManagedFieldsError
	var ie *ssa.InvalidError
	switch {
	case lr == nil:
	case errors.As(err, &mfe):
		pos, id = lr.Position(), lr.ID()
		if mfe.Pos.Line > 0 {
			pos = mfe.Pos
		}
	case errors.As(err, &ie) && ie.Live:
		pos, id = lr.Position(), lr.ID()
	}
	return &Error{Pos: pos, ID: id, Err: err}
}

// Unwrap returns the ssa error.
func (e *Error) Unwrap() error { return e.Err }

// Position is the object's.
func (e *Error) Position() tree.Position { return e.Pos }

// liveObjects are the live objects by group, kind and name.
type liveObjects map[string][]*resource.Resource

func liveKey(apiVersion, kind, name string) string {
	g := schema.ParseGVK(apiVersion, kind)
	return g.Group + "\x00" + g.Kind + "\x00" + name
}

// loadLive reads the live objects.
func loadLive(ctx context.Context, paths []string, opts kmerge.ApplyOptions) (liveObjects, error) {
	live, err := resource.Load(ctx, paths, nil, resource.LoadOptions{Limits: opts.Limits, Workers: opts.Workers})
	if err != nil {
		return nil, err
	}
	byName := liveObjects{}
	for _, r := range live.Resources {
		k := liveKey(r.APIVersion, r.Kind, r.Name)
		byName[k] = append(byName[k], r)
	}
	return byName, nil
}

// find returns the live object of an object of the output: same group,
// kind, name and namespace; an object without a namespace matches the one
// live object of its group, kind and name in whatever namespace (a live
// export of one namespace, manifests applied to it without naming it).
func (l liveObjects) find(id resource.Identity) (*resource.Resource, error) {
	var match []*resource.Resource
	for _, r := range l[liveKey(id.APIVersion, id.Kind, id.Name)] {
		if r.Namespace == id.Namespace || id.Namespace == "" {
			match = append(match, r)
		}
	}
	switch {
	case len(match) == 0:
		return nil, nil
	case len(match) > 1:
		var ns []string
		for _, r := range match {
			ns = append(ns, strings.TrimSuffix(r.Position().String(), ": ")+" ("+r.Namespace+")")
		}
		return nil, fmt.Errorf("the manifest names no namespace, and live objects of that name are in several: %s", strings.Join(ns, ", "))
	}
	r := match[0]
	if r.APIVersion != id.APIVersion {
		return nil, fmt.Errorf("the live object (%s) is %s, the manifest %s: an API server converts between versions, kmerge cannot (export the live object at the manifest's version: kubectl get %s.%s)",
			strings.TrimSuffix(r.Position().String(), ": "), r.APIVersion, id.APIVersion, strings.ToLower(id.Kind), versionGroup(id.APIVersion))
	}
	return r, nil
}

// versionGroup spells an apiVersion as kubectl's resource.version.group
// takes it ("v1.apps"; "v1" for the core group).
func versionGroup(apiVersion string) string {
	g := schema.ParseGVK(apiVersion, "")
	if g.Group == "" {
		return g.Version
	}
	return g.Version + "." + g.Group
}

func engineOf(opts kmerge.ApplyOptions) *ssa.Engine {
	s := opts.Schema
	if s == nil {
		s = schema.Builtin()
	}
	return ssa.New(s)
}

// style is how stored objects are written: as kubectl writes YAML.
var style = tree.Style{Indent: 2, CompactSequences: true}

// Apply applies the patches of opts to the manifests of opts, as
// kmerge.Apply does, then applies every object of the output server-side
// to its live object, as ss.Manager. Objects that conflict with other
// field managers make the error a *ConflictError (every such object, each
// field with where it comes from); any other error stops at the object
// (an *Error). ctx stops it as it stops kmerge.Apply, and between objects.
func Apply(ctx context.Context, opts kmerge.ApplyOptions, ss Options) (*Result, error) {
	if ss.Manager == "" {
		return nil, errors.New("a server-side apply needs a field manager")
	}
	live, err := loadLive(ctx, ss.Live, opts)
	if err != nil {
		return nil, err
	}
	res, err := kmerge.Apply(ctx, opts)
	if err != nil {
		return nil, err
	}
	engine := engineOf(opts)
	when := ss.Time
	if when.IsZero() {
		when = time.Now()
	}
	out := &Result{ApplyResult: res, limits: opts.Limits}
	var conflicts []ObjectConflicts
	for _, f := range res.Files {
		st, err := tree.Read(f.Output, tree.Options{File: f.Path, Limits: opts.Limits})
		if err != nil {
			return nil, fmt.Errorf("%s: reading the output again: %w", f.Path, err)
		}
		var stored []*yaml.Node
		var fileConflicts []ObjectConflicts
		for _, d := range st.Docs {
			for _, obj := range objectsOf(d) {
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("stopped before applying %s server-side: %w", f.Path, err)
				}
				id := identityOf(obj)
				pos := tree.Position{File: f.Path, Line: obj.Line, Column: obj.Column}
				lr, err := live.find(id)
				if err != nil {
					return nil, &Error{Pos: pos, ID: id.String(), Err: err}
				}
				o := &StoredObject{File: f.Path, ID: id.String(), apiVersion: id.APIVersion, kind: id.Kind}
				var liveRoot *yaml.Node
				liveFile := ""
				if lr != nil {
					liveRoot, liveFile = lr.Root, lr.Source.Path
					o.Live, o.LiveLine = liveFile, lr.Position().Line
					if tree.MapGet(tree.MapGet(liveRoot, "metadata"), "managedFields") == nil {
						out.NoManagedFields = append(out.NoManagedFields, strings.TrimSuffix(lr.Position().String(), ": ")+" "+lr.ID())
					}
				}
				r, err := engine.Apply(ctx, liveRoot, obj, ssa.Options{Manager: ss.Manager, Force: ss.Force, Time: when, LiveFile: liveFile})
				var ce *ssa.ConflictError
				switch {
				case errors.As(err, &ce):
					fileConflicts = append(fileConflicts, ObjectConflicts{ID: id.String(), File: f.Path, Err: ce})
					continue
				case err != nil:
					return nil, errorOf(pos, id.String(), lr, err)
				}
				o.Changed, o.Managed = r.Changed, r.Managed
				o.ID = identityOf(r.Object).String() // with the live object's namespace
				if o.Text, err = render(r.Object); err != nil {
					return nil, err
				}
				if liveRoot != nil {
					// as the API server gives it back: the diff shows
					// what the apply changes, not how the export is laid
					// out
					canon, err := ssa.Canonical(liveRoot)
					if err != nil {
						return nil, &Error{Pos: lr.Position(), ID: lr.ID(), Err: err}
					}
					if o.LiveText, err = render(canon); err != nil {
						return nil, err
					}
				}
				stored = append(stored, r.Object)
				out.Objects = append(out.Objects, o)
			}
		}
		if len(fileConflicts) > 0 {
			conflicts = append(conflicts, fileConflicts...)
			continue
		}
		var b bytes.Buffer
		if st.Format == tree.JSON && opts.KeepFormat {
			if err := writeJSONObjects(&b, stored); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Path, err)
			}
		} else if len(stored) > 0 {
			if err := tree.WriteYAML(&b, style, stored...); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Path, err)
			}
		}
		f.Output = b.Bytes()
	}
	if len(conflicts) > 0 {
		// where each field comes from: blame's origins, of a run that
		// gives the same outputs
		bl, err := kmerge.Blame(ctx, opts)
		if err != nil {
			return nil, err
		}
		place(conflicts, bl)
		return nil, &ConflictError{Objects: conflicts}
	}
	return out, nil
}

func render(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	if err := tree.WriteYAML(&b, style, n); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeJSONObjects writes objects as JSON: one object as it is, several
// as a List, as kmerge apply -o json does.
func writeJSONObjects(b *bytes.Buffer, objs []*yaml.Node) error {
	out := tree.NewMap()
	if len(objs) == 1 {
		out = objs[0]
	} else {
		tree.MapSet(out, "apiVersion", tree.NewString("v1"))
		tree.MapSet(out, "kind", tree.NewString("List"))
		items := tree.NewSeq()
		items.Content = objs
		tree.MapSet(out, "items", items)
	}
	js, err := tree.AppendJSON(nil, out, "    ")
	if err != nil {
		return err
	}
	b.Write(js)
	b.WriteByte('\n')
	return nil
}

// objectsOf returns the objects of a document: its root, or the items of
// a List; none for a document without one.
func objectsOf(doc *yaml.Node) []*yaml.Node {
	root := tree.Root(doc)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	if items := tree.MapGet(root, "items"); items != nil && items.Kind == yaml.SequenceNode && strings.HasSuffix(scalarOf(root, "kind"), "List") {
		var out []*yaml.Node
		for _, it := range items.Content {
			if it = tree.Deref(it); it != nil && it.Kind == yaml.MappingNode {
				out = append(out, it)
			}
		}
		return out
	}
	if scalarOf(root, "kind") == "" {
		return nil
	}
	return []*yaml.Node{root}
}

func scalarOf(n *yaml.Node, key string) string {
	if v := tree.Deref(tree.MapGet(n, key)); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

func identityOf(obj *yaml.Node) resource.Identity {
	md := tree.MapGet(obj, "metadata")
	return resource.Identity{APIVersion: scalarOf(obj, "apiVersion"), Kind: scalarOf(obj, "kind"),
		Namespace: scalarOf(md, "namespace"), Name: scalarOf(md, "name")}
}

// place says where each conflicting field comes from: the patch that
// wrote its line of the output, if one did (blame's origins), else the
// manifest's line the output line was copied from.
func place(objs []ObjectConflicts, bl *kmerge.BlameResult) {
	files := map[string]*kmerge.File{}
	for _, f := range bl.Files {
		files[f.Path] = f
	}
	maps := map[string]map[int]int{} // output line: input line, by file, made once
	for i := range objs {
		o := &objs[i]
		o.Fields = o.Fields[:0]
		for _, c := range o.Err.Conflicts {
			fc := FieldConflict{Conflict: c}
			if c.Node != nil {
				line := c.Node.Line
				for _, d := range bl.Documents {
					if d.File != o.File {
						continue
					}
					if _, og := d.LineOrigin(line); og != nil {
						fc.Pos, fc.Patch = og.Pos, true
						break
					}
				}
				if f := files[o.File]; !fc.Patch && f != nil {
					if maps[o.File] == nil {
						maps[o.File] = lineMap(f.Input, f.Output)
					}
					if in, ok := maps[o.File][line]; ok {
						fc.Pos = tree.Position{File: o.File, Line: in, Column: c.Node.Column}
					} else {
						fc.Pos = tree.Position{File: o.File}
					}
				}
			}
			o.Fields = append(o.Fields, fc)
		}
	}
}

// lineMap maps the lines of out (from 1) that are lines of in, unchanged,
// to their numbers in in.
func lineMap(in, out []byte) map[int]int {
	a, b := linediff.SplitLines(string(in)), linediff.SplitLines(string(out))
	m := map[int]int{}
	i, j := 0, 0
	for _, h := range linediff.Diff(a, b) {
		for i < h.A0 && j < h.B0 {
			m[j+1] = i + 1
			i, j = i+1, j+1
		}
		i, j = h.A1, h.B1
	}
	for i < len(a) && j < len(b) {
		m[j+1] = i + 1
		i, j = i+1, j+1
	}
	return m
}

// Diff returns each object's change against its live object, as a
// unified diff (diff -u, three lines of context): a/ and b/ name the
// object as kubectl diff does (apps.v1.Deployment.prod.web), an object
// created is new (/dev/null), objects the apply leaves as they were are
// left out. Unless ShowSecrets, Secrets' values are masked as kmerge's
// other diffs mask them (kmerge.MaskSecrets).
func (r *Result) Diff() string {
	var b strings.Builder
	for _, o := range r.Objects {
		if !o.Changed {
			continue
		}
		name := diffName(o)
		in, out := string(o.LiveText), string(o.Text)
		if !r.ShowSecrets {
			in, out = kmerge.MaskSecrets(o.LiveText, o.Text, r.limits)
			if o.LiveText == nil {
				in = ""
			}
		}
		a := "a/" + name
		if o.LiveText == nil {
			a = "/dev/null"
		}
		b.WriteString(linediff.UnifiedText(a, "b/"+name, in, out, 3))
	}
	return b.String()
}

// diffName names an object as kubectl diff names its files:
// group.version.Kind.namespace.name.
func diffName(o *StoredObject) string {
	g := schema.ParseGVK(o.apiVersion, o.kind)
	parts := []string{}
	if g.Group != "" {
		parts = append(parts, g.Group)
	}
	parts = append(parts, g.Version, g.Kind)
	_, nsName, _ := strings.Cut(o.ID, " "+o.kind+" ")
	parts = append(parts, strings.ReplaceAll(nsName, "/", "."))
	return strings.Join(parts, ".")
}
