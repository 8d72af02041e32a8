package lsp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
	textlines "github.com/kmerge/kmerge/internal/lines"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// analysis is what a check found in a version of a document: its units
// and their patches (as far as they parse), the diagnostics, and what its
// patches changed in the objects they target.
type analysis struct {
	ws          *workspace
	d           *document
	owner       string            // the kustomization that reads the document, when it is a patch file of one
	manifest    bool              // the document is a manifest of its project, not a patch file
	sections    []placed          // the document's units, in order
	own         []*syntax.Patch   // the document's patches as its owner reads them
	order       []ref             // the project's patches, in kmerge apply's order
	names       map[string]placed // the units of this check by name (place)
	diagnostics []Diagnostic
	changes     []objectChange // positioned in the document
	others      map[string]*document
	used        *liveKeys

	seen  map[diagKey][]int        // diagnostics by range and severity (add)
	lines map[fileLineKey]fileText // other files' lines, read once (location)
}

// diagKey is what two diagnostics that may be one share.
type diagKey struct {
	r        Range
	severity int
}

// objectChange is a change a patch of the document made to an object.
type objectChange struct {
	object string // the object's identity
	change.Change
}

// parsePatchList parses a YAML patch list. Its parser stops at the first
// error; to report more, and to check the patches that are right, the
// list is parsed again with the item that holds the error blanked out,
// which keeps every other line where it is. A text that is not YAML, or
// not a list, is one error.
func parsePatchList(d *document) ([]*syntax.Patch, []kpatch.Warning, []error) {
	// the lines as the YAML reader counts them, each with its line break
	// (a NEL, LS or PS too: the protocol's lines, d.lines, are fewer, and
	// an item's lines blanked by the reader's count were past them, a
	// panic; attack, 2026-11-29)
	lines := textlines.SplitYAMLAfter(d.norm)
	var errs []error
	for len(errs) < maxParseErrors {
		text := strings.Join(lines, "")
		var warnings []kpatch.Warning // a kustomization's fields kmerge does not read
		patches, err := kpatch.Parse([]byte(text), d.path, kpatch.LoadOptions{Warn: func(w kpatch.Warning) { warnings = append(warnings, w) }})
		if err == nil {
			return patches, warnings, errs
		}
		errs = append(errs, err)
		at, ok := tree.ErrorPosition(err)
		st, rerr := tree.Read([]byte(text), tree.Options{File: d.path})
		if !ok || rerr != nil || len(st.Docs) != 1 || tree.Root(st.Docs[0]) == nil || tree.Root(st.Docs[0]).Kind != yaml.SequenceNode {
			return nil, nil, errs
		}
		items := tree.Root(st.Docs[0]).Content
		from, to := 0, 0 // the lines (from 1) of the item holding the error
		for i, it := range items {
			end := len(lines)
			if i+1 < len(items) {
				end = items[i+1].Line - 1
			}
			if it.Line <= at.Line && at.Line <= end {
				from, to = it.Line, end
			}
		}
		if from == 0 {
			return nil, nil, errs
		}
		for i := from; i <= to && i <= len(lines); i++ {
			l := lines[i-1]
			lines[i-1] = l[len(strings.TrimRight(l, "\n\u0085\u2028\u2029")):] // its line break kept
		}
	}
	return nil, nil, errs
}

// analyze checks a version of a document (check.go): it parses it and runs
// the project's patches, with the document's text in place of its file,
// on the objects its patches target: copies of them, so that the loaded
// project never changes. others are the other open documents, by path. It
// returns nil when ctx is done first.
func (s *Server) analyze(ctx context.Context, d *document, others map[string]*document) *analysis {
	ws := s.workspaceFor(d.path)
	a := &analysis{ws: ws, d: d, others: others, names: map[string]placed{}, seen: map[diagKey][]int{},
		used: &liveKeys{units: map[*unit]bool{}, objects: map[string]bool{}}}
	defer func() { a.seen, a.lines = nil, nil }()
	if ws.isManifest(d.path) {
		// a manifest: no patch file to check (hover says which patches
		// write its fields); a project that does not load is said
		a.manifest = true
		if ws.err != nil {
			a.diagnostics = append(a.diagnostics, projectDiagnostic(ws))
		} else {
			a.projectOrder()
		}
		return a
	}
	if w, ok := ws.unread(d.path); ok && ws.err == nil {
		// a file of an overlay that nothing reads: kmerge apply does not
		// apply it, so neither does the check (nor hover)
		a.add(w.Pos, nil, w.Pos, w.Msg, severityWarning, nil)
		ws.retain(d.uri, a.used)
		return a
	}
	if a.owner = ws.kustomizationOf(d.path); a.owner != "" {
		// a patch file of a kustomization: its patches are those the
		// kustomization reads from it, as saved
		u := ws.diskUnit(a.owner)
		for _, pt := range u.patches {
			if pt.Pos.File == d.path {
				a.own = append(a.own, pt)
			}
		}
		for _, err := range u.errs {
			a.addError(err, severityError)
		}
	} else {
		a.sections = d.sectionsIn(ws)
		a.register(a.sections)
		n := 0
		for _, pl := range a.sections {
			for _, err := range pl.u.errs {
				if n < maxParseErrors {
					a.addError(err, severityError)
				}
				n++
			}
			for _, w := range pl.u.warns {
				if w.Unread {
					continue // said in that file (unread, above)
				}
				p, u := a.place(w.Pos)
				a.add(p, u, w.Pos, w.Msg, severityWarning, nil)
			}
		}
	}
	switch {
	case ws.err != nil:
		a.diagnostics = append(a.diagnostics, projectDiagnostic(ws))
	case len(ws.set.Resources) == 0:
		a.diagnostics = append(a.diagnostics, Diagnostic{Severity: severityInformation, Source: "kmerge",
			Message: "kmerge found no manifests for this file: write a kmerge.yaml (kmerge init) naming them, so that targets, fields and values can be checked"})
	default:
		if !a.run(ctx) {
			return nil
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	sort.SliceStable(a.diagnostics, func(i, j int) bool {
		pi, pj := a.diagnostics[i].Range.Start, a.diagnostics[j].Range.Start
		return pi.Line < pj.Line || pi.Line == pj.Line && pi.Character < pj.Character
	})
	ws.retain(d.uri, a.used)
	return a
}

// register makes units known to place, and to the caches' sweep.
func (a *analysis) register(units []placed) {
	for _, pl := range units {
		a.names[pl.u.name] = pl
		a.used.units[pl.u] = true
	}
}

// projectOrder sets a.order: the project's patches in kmerge apply's
// order (strategic, merge and JSON patches first, then field patches, each
// in the order of the files and of their place in them), with the
// document's in place of its file (after the others when it is not one of
// them, nor read by its owner), open documents from their texts, the
// other files as saved.
func (a *analysis) projectOrder() {
	ws, d := a.ws, a.d
	add := func(units []placed) {
		for _, pl := range units {
			for i := range pl.u.patches {
				a.order = append(a.order, ref{pl.u, i})
			}
		}
	}
	mine := a.manifest
	for _, f := range ws.files {
		switch od := a.others[f]; {
		case f == d.path:
			add(a.sections)
			mine = true
		case f == a.owner: // the kustomization that reads the document, as saved
			add([]placed{{ws.diskUnit(f), 0}})
			mine = true
		case od != nil:
			units := od.sectionsIn(ws)
			a.register(units)
			add(units)
		default:
			add([]placed{{ws.diskUnit(f), 0}})
		}
	}
	if !mine {
		add(a.sections)
	}
	slices.SortStableFunc(a.order, func(x, y ref) int {
		return cmp.Compare(btoi(x.patch().Type == change.FieldPatch), btoi(y.patch().Type == change.FieldPatch))
	})
}

// patches returns the patches of the order.
func (a *analysis) patches() []*syntax.Patch {
	out := make([]*syntax.Patch, len(a.order))
	for i, x := range a.order {
		out[i] = x.patch()
	}
	return out
}

// mine reports whether a patch of the order is the document's.
func (a *analysis) mine(x ref) bool {
	p, _ := a.place(x.patch().Pos)
	return p.File == a.d.path
}

// run applies the project's patches (projectOrder) to copies of the
// objects the document's patches target, and turns what happened there
// into diagnostics of the document, in the order kmerge apply reports
// them (errors, then warnings, then violations, then conflicts;
// diagnostics are sorted by place at the end).
//
// Each object is patched on its own by the patches that pick it as it was
// read (a group of one: what an edit that does not touch its patches need
// not run again). That is kpatch.Run's choice too while no patch renames
// an object or changes the labels a target selects by; when one did
// (checked.moved), which patches pick an object is decided as the run
// goes, and the check runs every object some patch picks, with every
// patch, at once. The objects that a patch which may rename objects (or,
// when a target selects by labels, change labels) picks are run too: such
// a patch may make one of the document's patches pick another object. It
// reports false when ctx is done first.
func (a *analysis) run(ctx context.Context) bool {
	ws := a.ws
	a.projectOrder()
	selectsLabels := false // a target selects by labels or annotations
	for _, x := range a.order {
		t := x.patch().Target
		selectsLabels = selectsLabels || resource.TargetSelector(t).ReadsMetadata()
	}
	// what the document's patches pick, and what is wrong with their
	// targets; and what the patches that may make another pick an object
	// pick (those that may rename it, or change its labels when a target
	// selects by labels)
	var errs []error
	var warns []kpatch.Warning
	picked := map[*resource.Resource]bool{}
	for _, x := range a.order {
		if ctx.Err() != nil {
			return false // a patch's targets and hints may take a while (each did-you-mean)
		}
		t := &x.u.targetsIn(ws)[x.i]
		mine := a.mine(x)
		if mine || x.patch().MayReidentify() || selectsLabels && x.patch().Type != change.FieldPatch {
			for _, r := range t.objs {
				picked[r] = true
			}
		}
		switch {
		case !mine:
		case t.ambiguous != nil:
			errs = append(errs, t.ambiguous)
		case len(t.objs) == 0:
			e, w := x.u.unmatched(ws, x.i)
			errs, warns = append(errs, e...), append(warns, w...)
		}
	}
	// the patches of each picked object
	refs := map[*resource.Resource][]ref{}
	for _, x := range a.order {
		t := &x.u.targetsIn(ws)[x.i]
		if t.ambiguous != nil {
			continue
		}
		for _, r := range t.objs {
			if picked[r] {
				refs[r] = append(refs[r], x)
			}
		}
	}
	var groups []*checked
	for _, r := range ws.set.Resources {
		if !picked[r] {
			continue
		}
		if ctx.Err() != nil {
			return false
		}
		objs := []*resource.Resource{r}
		key := groupKey(ws, objs, refs[r])
		c := ws.checkGroup(ctx, key, objs, refs[r])
		if c == nil {
			return false
		}
		a.used.objects[key] = true
		if c.moved(selectsLabels) {
			groups = nil
			break
		}
		groups = append(groups, c)
		errs = append(errs, c.errs...)
		warns = append(warns, c.warns...)
	}
	if groups == nil && len(picked) > 0 {
		// a patch moved an object: every object some patch picks, run
		// with every patch (kpatch.Run decides which pick what, and
		// what the targets that pick nothing are)
		var objs []*resource.Resource
		all := map[*resource.Resource]bool{}
		for _, x := range a.order {
			for _, r := range x.u.targetsIn(ws)[x.i].objs {
				all[r] = true
			}
		}
		for _, r := range ws.set.Resources {
			if all[r] {
				objs = append(objs, r)
			}
		}
		key := groupKey(ws, objs, a.order)
		c := ws.checkGroup(ctx, key, objs, a.order)
		if c == nil {
			return false
		}
		a.used.objects[key] = true
		groups = []*checked{c}
		errs, warns = c.errs, c.warns
	}

	for _, err := range errs {
		a.addError(err, severityError)
	}
	for _, w := range warns {
		if p, u := a.place(w.Pos); p.File == a.d.path {
			a.add(p, u, w.Pos, w.Msg, severityWarning, nil)
		}
	}
	var conflicts []conflict.Conflict
	for _, c := range groups {
		for _, o := range c.objects {
			for _, ch := range o.changes {
				if ch.Pos, _ = a.place(ch.Pos); ch.Pos.File == a.d.path {
					a.changes = append(a.changes, objectChange{object: o.id, Change: ch})
				}
			}
			a.validate(o)
		}
		for _, cf := range c.conflicts {
			cf.Sides = slices.Clone(cf.Sides)
			for i := range cf.Sides {
				cf.Sides[i].Change.Pos, _ = a.place(cf.Sides[i].Change.Pos)
			}
			conflicts = append(conflicts, cf)
		}
	}
	hinted := map[*unit]bool{}
	for _, x := range a.order {
		if hinted[x.u] || !a.mine(x) {
			continue
		}
		hinted[x.u] = true
		for _, h := range x.u.quoteHints(ws) {
			if p, u := a.place(h.pos); p.File == a.d.path {
				a.add(p, u, h.pos, h.msg, severityHint, nil)
			}
		}
	}
	conflict.Sort(conflicts) // as a run sorts them
	for _, c := range conflicts {
		a.conflict(c)
	}
	return true
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// maxRelated is how many other sides of a conflict a diagnostic lists.
const maxRelated = 10

// conflict reports a conflict on each of its sides in the document.
func (a *analysis) conflict(c conflict.Conflict) {
	for i, here := range c.Sides {
		if here.Change.Pos.File != a.d.path {
			continue
		}
		var rel []RelatedInformation
		for j, other := range c.Sides {
			if j == i {
				continue
			}
			if len(rel) == maxRelated {
				break
			}
			what := "the other patch: "
			if len(c.Sides) > 2 {
				what = "another patch: "
			}
			rel = append(rel, RelatedInformation{Location: a.location(other.Change.Pos), Message: what + describeSide(c.Object, other)})
		}
		msg := "conflict: " + c.String()
		if len(c.Sides) > maxRelated+1 {
			// the whole list would make every side's message as long
			// as the list
			msg = fmt.Sprintf("conflict: %s, and %d other changes (the first %d in the related information)",
				describeSide(c.Object, here), len(c.Sides)-1, maxRelated)
		}
		a.add(here.Change.Pos, nil, tree.Position{}, msg, severityWarning, rel)
	}
}

// validate reports the violations of a patched object (workspace.
// violations) that the document's patches wrote, where they wrote them:
// errors when the project validates strictly (the default), warnings with
// validate: warn. Violations the object had before the patches are not
// the document's doing, and are left out.
func (a *analysis) validate(o checkedObject) {
	mode := a.ws.validation()
	for _, v := range o.violations {
		if v.Input {
			continue
		}
		p, u := a.place(v.Patch)
		if p.File != a.d.path {
			continue
		}
		severity := severityWarning
		if mode.Fails(v) {
			severity = severityError
		}
		a.add(p, u, v.Patch, v.String()+" ("+o.id+")", severity, nil)
	}
}

// describeSide says what one side of a conflict does, for the other's
// diagnostic.
func describeSide(object string, side conflict.Side) string {
	return side.Change.MaskText(fmt.Sprintf("%s (%s patch) %s", object, side.Patch, side.Change))
}

// addError adds a diagnostic for an error of the document's file; errors
// of other files are left to those files.
func (a *analysis) addError(err error, severity int) {
	var ke *syntax.Error
	var se *tree.SyntaxError
	switch {
	case errors.As(err, &ke):
		if p, u := a.place(ke.Pos); p.File == a.d.path {
			a.add(p, u, ke.Pos, ke.Msg, severity, nil)
		}
	case errors.As(err, &se):
		if p, u := a.place(se.Pos); p.File == a.d.path {
			p.Line, p.Column = max(p.Line, 1), max(p.Column, 1)
			a.add(p, u, se.Pos, se.Msg, severity, nil)
		}
	default:
		a.add(tree.Position{File: a.d.path, Line: 1, Column: 1}, nil, tree.Position{}, err.Error(), severity, nil)
	}
}

// add adds a diagnostic at a position p of the document, once: a patch
// that fails the same way on several objects is one diagnostic. u, when
// known, is the unit p is in, and at the position there (the value at it
// gives the range its end).
func (a *analysis) add(p tree.Position, u *unit, at tree.Position, msg string, severity int, rel []RelatedInformation) {
	var value *syntax.Value
	if u != nil {
		value = valueAt(u.patches, at)
	}
	r := tokenRange(a.d, p, value)
	key := diagKey{r, severity}
	for _, i := range a.seen[key] {
		if old := a.diagnostics[i]; sameProblem(old.Message, msg) {
			if !strings.HasSuffix(old.Message, " (and on other objects)") && old.Message != msg {
				a.diagnostics[i].Message += " (and on other objects)"
			}
			return
		}
	}
	a.seen[key] = append(a.seen[key], len(a.diagnostics))
	a.diagnostics = append(a.diagnostics, Diagnostic{Range: r, Severity: severity, Source: "kmerge", Message: msg, RelatedInformation: rel})
}

// sameProblem reports whether two messages at one place say the same but
// for the object they name: "apps/v1 Deployment a: ..." and "... b: ...".
func sameProblem(a, b string) bool {
	if a == b {
		return true
	}
	_, ra, oka := strings.Cut(a, ": ")
	_, rb, okb := strings.Cut(b, ": ")
	return oka && okb && strings.TrimSuffix(ra, " (and on other objects)") == rb
}

// projectDiagnostic reports a project that does not load, on the first
// line, pointing at the place of the error.
func projectDiagnostic(ws *workspace) Diagnostic {
	msg := "the project does not load: " + ws.err.Error()
	d := Diagnostic{Severity: severityError, Source: "kmerge", Message: msg}
	var pe tree.PositionedError
	var p tree.Position
	if errors.As(ws.err, &pe) {
		p = pe.Position()
	}
	if p.File != "" {
		d.RelatedInformation = []RelatedInformation{{Location: location(p), Message: msg}}
	}
	return d
}

// location is a position of any file, as a protocol location: in an open
// document, or in a file on disk (read once a check).
func (a *analysis) location(p tree.Position) Location {
	if od := a.others[p.File]; od != nil {
		return Location{URI: od.uri, Range: tokenRange(od, p, nil)}
	}
	if p.File == a.d.path {
		return Location{URI: a.d.uri, Range: tokenRange(a.d, p, nil)}
	}
	key := fileLineKey{p.File, p.Line}
	l, ok := a.lines[key]
	if !ok {
		l = fileLine(p.File, p.Line, !strings.HasSuffix(p.File, ".kpatch"))
		if a.lines == nil {
			a.lines = map[fileLineKey]fileText{}
		}
		a.lines[key] = l
	}
	return lineLocation(p, l)
}

// fileLineKey names a line of a file (its text: fileText).
type fileLineKey struct {
	file string
	line int
}

// location is a position of a file on disk, its line read from the file.
func location(p tree.Position) Location {
	return lineLocation(p, fileLine(p.File, p.Line, !strings.HasSuffix(p.File, ".kpatch")))
}

// lineLocation is a position of a file whose line is l (l.ok: known).
func lineLocation(p tree.Position, l fileText) Location {
	return Location{URI: pathURI(p.File), Range: fileRange(p, l, !strings.HasSuffix(p.File, ".kpatch"))}
}
