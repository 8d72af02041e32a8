package lsp

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// A check is what the server does with a version of a document: parse it,
// run the project's patches on copies of the objects its patches target,
// and turn what happened into diagnostics (diagnose.go). Each version gets
// its own check, begun in the background as the version arrives; an edit
// cancels the check of the version it replaces, whose diagnostics would be
// stale, and requests about a version wait for its check.
//
// A check re-does only what the edit touched. A document is cut into
// units, each parsed on its own: a section of a .kpatch file (from a
// header to the next), or the whole of a YAML patch list. A unit's
// patches carry a file name of the unit's own, and lines counted from the
// unit's first, so that everything the run reports about them (errors,
// warnings, changes, conflicts, violations) is about the unit, wherever it
// now sits in the file: the check moves it to the unit's line (place).
// Units are kept by their text, so that an edit makes a new unit of the
// sections it changed only. What the patches did to an object is kept by
// the object and the units of the patches that target it, in order
// (objectKey): an object none of whose patches changed is not patched
// again. Both caches belong to the project (workspace), and keep what the
// last check of each open document used.

// check is the check of one version of a document.
type check struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when it ends
	a      *analysis     // what it found; nil when it was cancelled
}

// wait returns what the check found, once it has ended: nil when it was
// cancelled (a newer version replaced the document), or when ctx was done
// first (err says so).
func (c *check) wait(ctx context.Context) (*analysis, error) {
	select {
	case <-c.done:
		return c.a, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// unit is a part of a patch file as checks keep it: a section of an open
// .kpatch file, an open YAML patch list, or a patch file as saved.
type unit struct {
	id   uint64 // unique in the process: what keys of checked objects are made of
	name string // the file name its patches' positions carry
	file string // the file it is part of
	// patches as parsed, as far as they parse; a section's positions count
	// its lines from 1
	patches []*syntax.Patch
	errs    []error          // parse errors, positioned as the patches are
	warns   []kpatch.Warning // what parsing warned of (a kustomization's fields kmerge does not read)
	schemas []*schema.Schema // a kustomization's openapi file, read (saved files only)
	clean   string           // a section's text with the lines of its errors blanked (it parses)

	targeted sync.Once
	targets  []target // of each patch, in the unit's workspace (units are a workspace's)
	hinted   sync.Once
	hints    []hint // quoteHints's
}

var unitIDs atomic.Uint64

func newUnitID() uint64 { return unitIDs.Add(1) }

// placed is a unit where a check found it: at line (0-based) of its file.
type placed struct {
	u    *unit
	line int
}

// target is what a patch's target picks, and whether it is ambiguous.
type target struct {
	objs []*resource.Resource // in set order
	// the target names kinds of several groups among the objects it
	// picks: the patch is left out of the run, as kmerge apply fails on
	// it
	ambiguous error

	once  sync.Once
	errs  []error          // it does not parse, or (strict) picks nothing
	warns []kpatch.Warning // it picks nothing
}

// targetsIn returns what each patch of the unit picks in the workspace it
// belongs to, computed once.
func (u *unit) targetsIn(ws *workspace) []target {
	u.targeted.Do(func() {
		u.targets = make([]target, len(u.patches))
		for i, p := range u.patches {
			t := &u.targets[i]
			if t.objs = ws.targets(p.Target); len(t.objs) > 0 {
				if err := resource.TargetSelector(p.Target).Ambiguity(t.objs); err != nil {
					t.ambiguous = &syntax.Error{Pos: p.Pos, Msg: err.Error()}
				}
			}
		}
	})
	return u.targets
}

// unmatched returns what is said of a patch whose target picks nothing
// (or does not parse), computed once: kpatch's own words, from a run of
// the patch alone that patched no object.
func (u *unit) unmatched(ws *workspace, i int) ([]error, []kpatch.Warning) {
	t := &u.targetsIn(ws)[i]
	t.once.Do(func() {
		opts := ws.options()
		opts.KeepGoing, opts.Strict = true, ws.proj != nil && ws.proj.Strict
		res, err := kpatch.NewRun([]*syntax.Patch{u.patches[i]}, opts).Finish(context.Background(), ws.set)
		if err != nil {
			t.errs = []error{err}
			return
		}
		t.errs, t.warns = res.Errors, res.Warnings
	})
	return t.errs, t.warns
}

// sectionsIn returns the units of a document, where they are in it: the
// sections of a .kpatch file, or the whole YAML patch list; made once per
// document and workspace.
func (d *document) sectionsIn(ws *workspace) []placed {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.placedWS != ws {
		d.placed, d.placedWS = ws.units(d), ws
	}
	return d.placed
}

// units cuts a document into units, taking those of the same text from
// the cache.
func (ws *workspace) units(d *document) []placed {
	ws.mu.Lock()
	byText := ws.sections[d.path]
	if byText == nil {
		byText = map[string][]*unit{}
		ws.sections[d.path] = byText
	}
	ws.mu.Unlock()
	if !d.kpatch || tooBig(d) {
		ws.mu.Lock()
		defer ws.mu.Unlock()
		if us := byText[d.text]; len(us) > 0 {
			return []placed{{us[0], 0}}
		}
		u := &unit{id: newUnitID(), name: d.path, file: d.path}
		if d.kpatch {
			_, err := kpatch.Parse([]byte(d.text), d.path, kpatch.LoadOptions{})
			u.errs = []error{err} // too big
		} else {
			u.patches, u.warns, u.errs = parsePatchList(d)
		}
		ws.parsed.Add(1)
		byText[strings.Clone(d.text)] = []*unit{u}
		return []placed{{u, 0}}
	}
	// a section starts at a line whose first character but blanks is
	// [, as the parser reads a header; lines before the first header
	// are a unit too (they may hold assignments without a section). A
	// section's text is a part of the document's (its lines are): looked
	// up without a copy, copied when kept.
	var out []placed
	seen := map[string]int{}   // occurrences of a text so far: the nth is the nth unit of that text
	start, from, at := 0, 0, 0 // the section's first line and its offset; the offset of line i
	add := func(end, to int) {
		text := d.norm[from:max(from, to-1)]
		n := seen[text]
		seen[text] = n + 1
		ws.mu.Lock()
		us := byText[text]
		if n >= len(us) {
			ws.mu.Unlock()
			u := parseSection(d.path, text) // outside the lock: parsing takes time
			ws.parsed.Add(1)
			ws.mu.Lock()
			if us = byText[text]; n >= len(us) {
				us = append(us, u)
				byText[strings.Clone(text)] = us
			}
		}
		ws.mu.Unlock()
		out = append(out, placed{us[n], start})
		start, from = end, to
	}
	for i, line := range d.lines {
		if i > start && syntax.IsHeader(line) {
			add(i, at)
		}
		at += len(line) + 1
	}
	add(len(d.lines), at)
	return out
}

// tooBig reports whether a document is larger than the parsers read:
// it is then one unit, whose error says so.
func tooBig(d *document) bool {
	limit := tree.DefaultLimits().MaxBytes
	return limit > 0 && len(d.text) > limit
}

// maxParseErrors bounds the parse errors reported for one file.
const maxParseErrors = 50

// parseSection parses a section of a .kpatch file on its own, under a
// name of its own. The parser stops at the first error; to report more
// than one, the section is parsed again with the bad line blanked out (a
// bad header with the whole section), which keeps every other line where
// it is.
func parseSection(file, text string) *unit {
	u := &unit{id: newUnitID(), file: file}
	// the name ends in .kpatch, which the parser goes by; the NUL keeps
	// it from being any file's
	u.name = file + "\x00" + strconv.FormatUint(u.id, 10) + ".kpatch"
	lines := strings.Split(text, "\n")
	for len(u.errs) < maxParseErrors {
		patches, err := kpatch.Parse([]byte(strings.Join(lines, "\n")), u.name, kpatch.LoadOptions{})
		if err == nil {
			u.patches, u.clean = patches, strings.Join(lines, "\n")
			return u
		}
		u.errs = append(u.errs, err)
		var ke *syntax.Error
		if !errors.As(err, &ke) || ke.Pos.Line < 1 || ke.Pos.Line > len(lines) || strings.TrimSpace(lines[ke.Pos.Line-1]) == "" {
			return u
		}
		i := ke.Pos.Line - 1
		if syntax.IsHeader(lines[i]) {
			return u // the header: the section is left out
		}
		lines[i] = ""
	}
	return u
}

// ref is a patch of a unit: its index in the unit's patches.
type ref struct {
	u *unit
	i int
}

func (r ref) patch() *syntax.Patch { return r.u.patches[r.i] }

// checked is what patches did to copies of a group of objects, run
// together: one object and the patches that pick it as it was read (a
// check's usual group), or every object some patch picks and all the
// project's patches (when a patch renamed an object, or changed labels a
// target selects by: which patches pick an object is then decided as the
// run goes, by kpatch.Run).
type checked struct {
	objects   []checkedObject // in set order
	errs      []error         // in the order of a run
	warns     []kpatch.Warning
	conflicts []conflict.Conflict
	// a patch changed an object's identity (renamed: the patches that
	// pick it are then not those its identity as read says), or changed
	// (or may have changed) its labels or annotations (which matters when
	// a target of the project selects by them)
	renamed, relabelled bool
}

// moved reports whether a patch may have made other patches pick an object
// than those that picked it as it was read: it renamed one, or changed
// labels or annotations when a target selects by them.
func (c *checked) moved(selectsLabels bool) bool {
	return c.renamed || selectsLabels && c.relabelled
}

// checkedObject is what the patches did to a copy of one object.
type checkedObject struct {
	id         string // the patched object's identity
	changes    []change.Change
	violations []validate.Violation // attributed to the changes, masked as the workspace shows secrets
}

// groupKey is what checking a group depends on, besides the workspace (its
// objects, schema, variables and options): the objects, and the patches
// run on them, in order.
func groupKey(ws *workspace, objs []*resource.Resource, refs []ref) string {
	var b []byte
	for _, r := range objs {
		b = binary.AppendUvarint(b, uint64(ws.index[r])+1)
	}
	b = append(b, 0)
	for _, x := range refs {
		b = binary.AppendUvarint(b, x.u.id)
		b = binary.AppendUvarint(b, uint64(x.i))
	}
	return string(b)
}

// checkGroup runs patches, in order, on copies of objs (kmerge apply's
// run, which reports every error rather than the first), and validates the
// results, or returns what a check did with the same patches before. It
// returns nil when ctx is done first.
func (ws *workspace) checkGroup(ctx context.Context, key string, objs []*resource.Resource, refs []ref) *checked {
	ws.mu.Lock()
	c, ok := ws.objects[key]
	ws.mu.Unlock()
	if ok {
		return c
	}
	ws.patched.Add(int64(len(objs)))
	patches := make([]*syntax.Patch, len(refs))
	for i, x := range refs {
		patches[i] = x.patch()
	}
	rec := &conflict.Recorder{}
	opts := ws.options()
	opts.Records, opts.KeepGoing, opts.Workers, opts.Changes = rec.Add, true, 1, true
	opts.Strict = ws.proj != nil && ws.proj.Strict
	run := kpatch.NewRun(patches, opts)
	copies := make([]*resource.Resource, len(objs))
	for i, r := range objs {
		cp := *r
		cp.Root = tree.Clone(r.Root)
		copies[i] = &cp
		run.Patch(ctx, &cp)
	}
	res, err := run.Finish(ctx, &resource.Set{Resources: copies})
	if ctx.Err() != nil {
		return nil
	}
	c = &checked{}
	if err != nil {
		c.errs = []error{err}
	} else {
		c.errs, c.warns, c.conflicts = res.Errors, res.Warnings, rec.Conflicts(res.Recorded)
	}
	for i, cp := range copies {
		o := checkedObject{id: cp.ID(), changes: run.Changes(cp)}
		if !cp.Deleted {
			o.violations = ws.violations(cp, objs[i], o.changes, run.Secrets(cp))
		}
		c.renamed = c.renamed || cp.Original != nil
		for _, ch := range o.changes {
			c.relabelled = c.relabelled || labelsOrAnnotations(ch.Path)
		}
		c.objects = append(c.objects, o)
	}
	ws.mu.Lock()
	ws.objects[key] = c
	ws.mu.Unlock()
	return c
}

// labelsOrAnnotations reports whether a change at path may change an
// object's labels or annotations: it is at them, below them, or above.
func labelsOrAnnotations(path fieldpath.Path) bool {
	switch {
	case len(path) == 0:
		return true
	case path[0].Kind != fieldpath.FieldElement || path[0].Name != "metadata":
		return false
	case len(path) == 1:
		return true
	}
	return path[1].Kind == fieldpath.FieldElement && (path[1].Name == "labels" || path[1].Name == "annotations")
}

// hint is a hint about a place of a unit.
type hint struct {
	pos tree.Position
	msg string
}

// quoteHints points out the quotes of a unit's values that change
// nothing: a quoted value of a field patch whose field is an integer, a
// number or a boolean is typed by the schema all the same (docs/kpatch.md,
// values and types), so replicas: "3" is replicas: 3. It looks the field
// up in the first object the patch targets. Computed once.
func (u *unit) quoteHints(ws *workspace) []hint {
	u.hinted.Do(func() {
		for i, p := range u.patches {
			objs := u.targetsIn(ws)[i].objs
			if p.Type != change.FieldPatch || len(objs) == 0 {
				continue
			}
			for _, set := range p.Sets {
				if !set.Value.Quoted {
					continue
				}
				places, err := kpatch.Lookup(objs[0], append(append(syntax.Path(nil), p.Path...), set.Key...), ws.options())
				if err != nil || len(places) == 0 || places[0].Type == nil {
					continue
				}
				switch k := places[0].Type.Kind; k {
				case schema.Integer, schema.Number, schema.Boolean:
					u.hints = append(u.hints, hint{set.Value.Pos, fmt.Sprintf("the quotes change nothing: %s is %s field, and the value is typed as one",
						places[0].Path, map[schema.Kind]string{schema.Integer: "an integer", schema.Number: "a number", schema.Boolean: "a boolean"}[k])})
				}
			}
		}
	})
	return u.hints
}

// violations checks a patched object against its schema, as kmerge apply
// does after the patches (docs/validation.md): its violations, each
// attributed to the change that wrote it (Violation.Patch) or to the
// object as it was (Input). Nothing when the project does not validate.
func (ws *workspace) violations(patched, original *resource.Resource, changes []change.Change, vals *secret.Values) []validate.Violation {
	if ws.validation() == validate.None {
		return nil
	}
	vs := validate.Object(patched.Root, ws.schema)
	if len(vs) == 0 {
		return nil
	}
	validate.Attribute(vs, validate.Changes(changes), validate.Object(original.Root, ws.schema))
	if !ws.showSecrets {
		validate.MaskSecrets(patched.Root, vs)
		validate.MaskValues(vs, vals) // what the run saw of them (kpatch.Run.Secrets)
	}
	return vs
}

// validation is the project's validation mode: strict unless it says
// otherwise.
func (ws *workspace) validation() validate.Mode {
	mode := validate.Strict
	if ws.proj != nil && ws.proj.Validate != "" {
		mode, _ = validate.ParseMode(ws.proj.Validate) // the project file's reader has checked it
	}
	return mode
}

// liveKeys is what a document's last check used of the caches.
type liveKeys struct {
	units   map[*unit]bool
	objects map[string]bool
}

// retain records what the last check of a document used (nil: the
// document is closed), and drops from the caches what no open
// document's last check used.
func (ws *workspace) retain(uri string, used *liveKeys) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if used == nil {
		delete(ws.live, uri)
	} else {
		ws.live[uri] = used
	}
	keep := func(u *unit) bool {
		for _, l := range ws.live {
			if l.units[u] {
				return true
			}
		}
		return false
	}
	for file, byText := range ws.sections {
		for text, us := range byText {
			kept := us[:0]
			for _, u := range us {
				if keep(u) {
					kept = append(kept, u)
				}
			}
			if len(kept) == 0 {
				delete(byText, text)
			} else {
				byText[text] = kept
			}
		}
		if len(byText) == 0 {
			delete(ws.sections, file)
		}
	}
	for key := range ws.objects {
		live := false
		for _, l := range ws.live {
			live = live || l.objects[key]
		}
		if !live {
			delete(ws.objects, key)
		}
	}
}

// place moves a position the run gave to where it is now: a position in
// a unit to its line in the file (a unit's first line is line 1 of its
// positions). Positions of other files are as they are. The unit is the
// one whose patches are positioned as p is (nil for a position in no
// unit the check knows).
func (a *analysis) place(p tree.Position) (tree.Position, *unit) {
	pl, ok := a.names[p.File]
	if !ok {
		return p, nil
	}
	if pl.u.name != pl.u.file {
		p.Line += pl.line
	}
	p.File = pl.u.file
	return p, pl.u
}

// at is place's position alone.
func (a *analysis) at(p tree.Position) tree.Position {
	p, _ = a.place(p)
	return p
}

// absolute returns the patches of the unit a line of the document is in,
// positioned in the document (for hover, completion and definition);
// every patch for a YAML patch list.
func (a *analysis) absolute(line int) []*syntax.Patch {
	if a.owner != "" {
		return a.own // as the owner read them: positioned in the document
	}
	if len(a.sections) == 0 {
		return nil
	}
	i := 0
	for i+1 < len(a.sections) && a.sections[i+1].line <= line {
		i++
	}
	pl := a.sections[i]
	if pl.u.name == pl.u.file {
		return pl.u.patches // a whole file: positioned in it already
	}
	if pl.u.clean == "" {
		return nil
	}
	// the section's text after as many blank lines as precede it parses
	// into its patches at their place (it parsed alone)
	patches, err := kpatch.Parse([]byte(strings.Repeat("\n", pl.line)+pl.u.clean), pl.u.file, kpatch.LoadOptions{})
	if err != nil {
		return nil
	}
	return patches
}
