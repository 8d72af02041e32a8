package lsp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// analysis is what a check found in a version of a document: its units
// and their patches (as far as they parse), the diagnostics, and what its
// patches changed in the objects they target.
type analysis struct {
	ws          *workspace
	d           *document
	sections    []placed          // the document's units, in order
	names       map[string]placed // the units of this check by name (place)
	diagnostics []Diagnostic
	changes     []objectChange // positioned in the document
	others      map[string]*document
	used        *liveKeys

	seen  map[diagKey][]int   // diagnostics by range and severity (add)
	lines map[string][]string // other files' lines, read once (location)
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

// analyze checks a version of a document (check.go): it parses it and runs
// the project's patches, with the document's text in place of its file,
// on the objects its patches target: copies of them, so that the loaded
// project never changes. others are the other open documents, by path. It
// returns nil when ctx is done first.
func (s *Server) analyze(ctx context.Context, d *document, others map[string]*document) *analysis {
	ws := s.workspaceFor(d.path)
	a := &analysis{ws: ws, d: d, others: others, names: map[string]placed{}, seen: map[diagKey][]int{},
		used: &liveKeys{units: map[*unit]bool{}, objects: map[string]bool{}}}
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
	a.seen, a.lines = nil, nil
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

// run applies the project's patches, the document's in place of its file,
// to copies of the objects the document's patches target, and turns what
// happened there into diagnostics of the document, in the order kmerge
// apply reports them (errors, then warnings, then violations, then
// conflicts; diagnostics are sorted by place at the end). Each object is
// patched by every patch that targets it, in kmerge apply's order:
// strategic, merge and JSON patches first, then field patches, each in
// the order of the files and of their place in them. It reports false
// when ctx is done first.
func (a *analysis) run(ctx context.Context) bool {
	ws, d := a.ws, a.d
	var order []ref
	add := func(units []placed) {
		for _, pl := range units {
			for i := range pl.u.patches {
				order = append(order, ref{pl.u, i})
			}
		}
	}
	mine := false
	for _, f := range ws.files {
		switch od := a.others[f]; {
		case f == d.path:
			add(a.sections)
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
	slices.SortStableFunc(order, func(x, y ref) int {
		return cmp.Compare(btoi(x.patch().Type == kpatch.Field), btoi(y.patch().Type == kpatch.Field))
	})

	// what the document's patches pick, and what is wrong with their
	// targets
	var errs []error
	var warns []kpatch.Warning
	picked := map[*resource.Resource]bool{}
	for _, x := range order {
		if x.u.file != d.path {
			continue // another file's: its target is that file's to report
		}
		t := &x.u.targetsIn(ws)[x.i]
		switch {
		case t.ambiguous != nil:
			errs = append(errs, t.ambiguous)
		case len(t.objs) == 0:
			e, w := x.u.unmatched(ws, x.i)
			errs, warns = append(errs, e...), append(warns, w...)
		}
		for _, r := range t.objs {
			picked[r] = true
		}
	}
	// the patches of each picked object
	refs := map[*resource.Resource][]ref{}
	for _, x := range order {
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
	var results []*checked
	for _, r := range ws.set.Resources {
		if !picked[r] {
			continue
		}
		if ctx.Err() != nil {
			return false
		}
		key := objectKey(ws, r, refs[r])
		c := ws.checkObject(ctx, key, r, refs[r])
		if c == nil {
			return false
		}
		a.used.objects[key] = true
		results = append(results, c)
		errs = append(errs, c.errs...)
		warns = append(warns, c.warns...)
	}

	for _, err := range errs {
		a.addError(err, severityError)
	}
	for _, w := range warns {
		if p, u := a.place(w.Pos); p.File == d.path {
			a.add(p, u, w.Pos, w.Msg, severityWarning, nil)
		}
	}
	var conflicts []conflict.Conflict
	for _, c := range results {
		for _, ch := range c.changes {
			if ch.Pos, _ = a.place(ch.Pos); ch.Pos.File == d.path {
				a.changes = append(a.changes, objectChange{object: c.id, Change: ch})
			}
		}
		a.validate(c)
		for _, cf := range c.conflicts {
			cf.A.Change.Pos, _ = a.place(cf.A.Change.Pos)
			cf.B.Change.Pos, _ = a.place(cf.B.Change.Pos)
			conflicts = append(conflicts, cf)
		}
	}
	// in conflict.Find's order: by the later change's position, then
	// the path of the earlier one
	slices.SortStableFunc(conflicts, func(x, y conflict.Conflict) int {
		px, py := x.B.Change.Pos, y.B.Change.Pos
		if c := cmp.Or(strings.Compare(px.File, py.File), cmp.Compare(px.Line, py.Line), cmp.Compare(px.Column, py.Column)); c != 0 {
			return c
		}
		return fieldpath.Compare(x.A.Change.Path, y.A.Change.Path)
	})
	for _, c := range conflicts {
		for _, side := range [][2]conflict.Side{{c.A, c.B}, {c.B, c.A}} {
			here, other := side[0], side[1]
			if here.Change.Pos.File != d.path {
				continue
			}
			rel := []RelatedInformation{{Location: a.location(other.Change.Pos), Message: "the other patch: " + describeSide(c.Object, other)}}
			a.add(here.Change.Pos, nil, tree.Position{}, "conflict: "+c.String(), severityWarning, rel)
		}
	}
	return true
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// validate reports the violations of a patched object (workspace.
// violations) that the document's patches wrote, where they wrote them:
// errors when the project validates strictly (the default), warnings with
// validate: warn. Violations the object had before the patches are not
// the document's doing, and are left out.
func (a *analysis) validate(c *checked) {
	mode := a.ws.validation()
	for _, v := range c.violations {
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
		a.add(p, u, v.Patch, v.String()+" ("+c.id+")", severity, nil)
	}
}

// describeSide says what one side of a conflict does, for the other's
// diagnostic.
func describeSide(object string, side conflict.Side) string {
	return fmt.Sprintf("%s (%s patch) %s", object, side.Patch, side.Change)
}

// addError adds a diagnostic for an error of the document's file; errors
// of other files are left to those files.
func (a *analysis) addError(err error, severity int) {
	var ke *kpatch.Error
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
	var value *kpatch.Value
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
		d.RelatedInformation = []RelatedInformation{{Location: location(p, nil), Message: msg}}
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
	lines, ok := a.lines[p.File]
	if !ok {
		if data, err := os.ReadFile(p.File); err == nil {
			lines = strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
		}
		if a.lines == nil {
			a.lines = map[string][]string{}
		}
		a.lines[p.File] = lines
	}
	return location(p, lines)
}

// location is a position of a file on disk; lines, when given, are its
// text.
func location(p tree.Position, lines []string) Location {
	if lines == nil {
		if data, err := os.ReadFile(p.File); err == nil {
			lines = strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
		}
	}
	return Location{URI: pathURI(p.File), Range: fileRange(p, lines, !strings.HasSuffix(p.File, ".kpatch"))}
}
