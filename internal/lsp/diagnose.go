package lsp

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// analysis is what kmerge found in a document: its patches (as far as
// they parse), the diagnostics, and what its patches changed in the
// objects they target.
type analysis struct {
	ws          *workspace
	owner       string // the kustomization that reads the document, when it is a patch file of one
	manifest    bool   // the document is a manifest of its project, not a patch file
	patches     []*syntax.Patch
	diagnostics []Diagnostic
	changes     []objectChange
}

// objectChange is a change a patch of the document made to an object.
type objectChange struct {
	object string // the object's identity
	change.Change
}

// maxParseErrors bounds the parse errors reported for one file.
const maxParseErrors = 50

// parseDocument parses a document's text. The parsers stop at the first
// error; to report more than one, a .kpatch file is parsed again with the
// bad line blanked out (a bad header with its section), which keeps every
// other line where it is.
func parseDocument(d *document) ([]*syntax.Patch, []error) {
	patches, _, errs := parseDocumentWarnings(d)
	return patches, errs
}

// parseDocumentWarnings is parseDocument, with the warnings of reading a
// kustomization (the fields kmerge does not read).
func parseDocumentWarnings(d *document) ([]*syntax.Patch, []kpatch.Warning, []error) {
	if !d.kpatch {
		return parsePatchList(d)
	}
	lines := append([]string(nil), d.lines...)
	var errs []error
	for len(errs) < maxParseErrors {
		patches, err := kpatch.Parse([]byte(strings.Join(lines, "\n")), d.path, kpatch.LoadOptions{})
		if err == nil {
			return patches, nil, errs
		}
		errs = append(errs, err)
		var ke *syntax.Error
		if !errors.As(err, &ke) || ke.Pos.Line < 1 || ke.Pos.Line > len(lines) || strings.TrimSpace(lines[ke.Pos.Line-1]) == "" {
			return nil, nil, errs
		}
		i := ke.Pos.Line - 1
		header := strings.HasPrefix(strings.TrimSpace(lines[i]), "[")
		lines[i] = ""
		for j := i + 1; header && j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "["); j++ {
			lines[j] = ""
		}
	}
	return nil, nil, errs
}

// parsePatchList parses a YAML patch list. Its parser stops at the first
// error; to report more, and to check the patches that are right, the
// list is parsed again with the item that holds the error blanked out,
// which keeps every other line where it is. A text that is not YAML, or
// not a list, is one error.
func parsePatchList(d *document) ([]*syntax.Patch, []kpatch.Warning, []error) {
	lines := append([]string(nil), d.lines...)
	var errs []error
	for len(errs) < maxParseErrors {
		text := strings.Join(lines, "\n")
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
		for i := from; i <= to; i++ {
			lines[i-1] = ""
		}
	}
	return nil, nil, errs
}

// analyze parses a document and runs the project's patches, with the
// document's text in place of its file, on the objects its patches
// target: copies of them, so that the loaded project never changes.
func (s *Server) analyze(d *document) *analysis {
	ws := s.workspaceFor(d.path)
	a := &analysis{ws: ws}
	if ws.isManifest(d.path) {
		// a manifest: no patch file to check (hover says which patches
		// write its fields); a project that does not load is said
		a.manifest = true
		if ws.err != nil {
			a.diagnostics = append(a.diagnostics, projectDiagnostic(ws))
		}
		return a
	}
	if a.owner = ws.kustomizationOf(d.path); a.owner != "" {
		// a patch file of a kustomization: its patches are those the
		// kustomization reads from it, as saved
		p := ws.patchesOnDisk(a.owner)
		for _, pt := range p.patches {
			if pt.Pos.File == d.path {
				a.patches = append(a.patches, pt)
			}
		}
		if p.err != nil {
			a.addError(d, p.err, severityError)
		}
	} else {
		patches, warnings, errs := parseDocumentWarnings(d)
		a.patches = patches
		for _, err := range errs {
			a.addError(d, err, severityError)
		}
		for _, w := range warnings {
			a.add(d, w.Pos, w.Msg, severityWarning, nil)
		}
	}
	switch {
	case ws.err != nil:
		a.diagnostics = append(a.diagnostics, projectDiagnostic(ws))
	case len(ws.set.Resources) == 0:
		a.diagnostics = append(a.diagnostics, Diagnostic{Severity: severityInformation, Source: "kmerge",
			Message: "kmerge found no manifests for this file: write a kmerge.yaml (kmerge init) naming them, so that targets, fields and values can be checked"})
	default:
		s.run(d, a)
	}
	sort.SliceStable(a.diagnostics, func(i, j int) bool {
		pi, pj := a.diagnostics[i].Range.Start, a.diagnostics[j].Range.Start
		return pi.Line < pj.Line || pi.Line == pj.Line && pi.Character < pj.Character
	})
	return a
}

// run applies the project's patches, the document's in place of its file,
// to copies of the objects the document's patches target, and turns what
// happened there into diagnostics of the document.
func (s *Server) run(d *document, a *analysis) {
	ws := a.ws
	all := s.projectPatches(ws, d, a.patches, a.owner)
	seen := map[*resource.Resource]bool{}
	targeting := a.patches
	for _, p := range all {
		if p.MayReidentify() {
			// a patch may rename an object into what this file's
			// patches name: the objects of every patch are run
			targeting = all
			break
		}
	}
	for _, p := range targeting {
		for _, r := range ws.targets(p.Target) {
			seen[r] = true
		}
	}
	objs := &resource.Set{}
	var originals []*resource.Resource // of objs.Resources, by index
	for _, r := range ws.set.Resources {
		if seen[r] {
			c := *r
			c.Root = tree.Clone(r.Root)
			objs.Resources = append(objs.Resources, &c)
			originals = append(originals, r)
		}
	}
	rec := &conflict.Recorder{}
	opts := ws.options()
	opts.Records, opts.KeepGoing, opts.Strict, opts.Workers, opts.Changes = rec.Add, true, ws.proj.Strict, 1, true
	run := kpatch.NewRun(all, opts)
	for _, r := range objs.Resources {
		run.Patch(r)
	}
	res, err := run.Finish(objs)
	if err != nil {
		a.addError(d, err, severityError)
		return
	}
	for _, err := range res.Errors {
		a.addError(d, err, severityError)
	}
	for _, w := range res.Warnings {
		if w.Pos.File == d.path {
			a.add(d, w.Pos, w.Msg, severityWarning, nil)
		}
	}
	for i, r := range objs.Resources {
		for _, c := range run.Changes(r) {
			if c.Pos.File == d.path {
				a.changes = append(a.changes, objectChange{object: r.ID(), Change: c})
			}
		}
		if !r.Deleted {
			s.validate(d, a, r, originals[i], run.Changes(r))
		}
	}
	a.quotesHints(d)
	for _, c := range rec.Conflicts(res.Recorded) {
		for i, here := range c.Sides {
			if here.Change.Pos.File != d.path {
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
				rel = append(rel, RelatedInformation{Location: s.location(other.Change.Pos), Message: what + describeSide(c.Object, other)})
			}
			msg := "conflict: " + c.String()
			if len(c.Sides) > maxRelated+1 {
				// the whole list would make every side's message as long
				// as the list
				msg = fmt.Sprintf("conflict: %s, and %d other changes (the first %d in the related information)",
					describeSide(c.Object, here), len(c.Sides)-1, maxRelated)
			}
			a.add(d, here.Change.Pos, msg, severityWarning, rel)
		}
	}
}

// maxRelated is how many other sides of a conflict a diagnostic lists.
const maxRelated = 10

// quotesHints points out quotes that change nothing: a quoted value of a
// field patch whose field is an integer, a number or a boolean is typed by
// the schema all the same (docs/kpatch.md, values and types), so
// replicas: "3" is replicas: 3. It looks the field up in the first object
// the patch targets.
func (a *analysis) quotesHints(d *document) {
	for _, p := range a.patches {
		objs := a.ws.targets(p.Target)
		if p.Type != change.FieldPatch || len(objs) == 0 {
			continue
		}
		for _, set := range p.Sets {
			if !set.Value.Quoted {
				continue
			}
			places, err := kpatch.Lookup(objs[0], append(append(syntax.Path(nil), p.Path...), set.Key...), a.ws.options())
			if err != nil || len(places) == 0 || places[0].Type == nil {
				continue
			}
			switch k := places[0].Type.Kind; k {
			case schema.Integer, schema.Number, schema.Boolean:
				a.add(d, set.Value.Pos, fmt.Sprintf("the quotes change nothing: %s is %s field, and the value is typed as one", places[0].Path, map[schema.Kind]string{schema.Integer: "an integer", schema.Number: "a number", schema.Boolean: "a boolean"}[k]), severityHint, nil)
			}
		}
	}
}

// projectPatches returns the patches of the project, in order: its files,
// open documents in place of their saved text; own are the patches of the
// document d, in its place among the files (at the end when it is not one
// of them, nor read by owner, the kustomization that names it, whose
// patches are taken as saved).
func (s *Server) projectPatches(ws *workspace, d *document, own []*syntax.Patch, owner string) []*syntax.Patch {
	var all []*syntax.Patch
	mine := false
	for _, f := range ws.files {
		switch od := s.docByPath(f); {
		case f == d.path:
			all = append(all, own...)
			mine = true
		case f == owner: // the kustomization that reads the document
			all = append(all, ws.patchesOnDisk(f).patches...) // the document's among them
			mine = true
		case od != nil:
			p, _ := parseDocument(od)
			all = append(all, p...)
		default:
			all = append(all, ws.patchesOnDisk(f).patches...)
		}
	}
	if !mine {
		all = append(all, own...)
	}
	return all
}

// validate checks a patched object against its schema, as kmerge apply
// does after the patches (docs/validation.md), and reports the violations
// the document's patches wrote where they wrote them: errors when the
// project validates strictly (the default), warnings with validate: warn.
// Violations the object had before the patches are not the document's
// doing, and are left out.
func (s *Server) validate(d *document, a *analysis, patched, original *resource.Resource, changes []change.Change) {
	mode := validate.Strict
	if a.ws.proj.Validate != "" {
		mode, _ = validate.ParseMode(a.ws.proj.Validate) // the project file's reader has checked it
	}
	if mode == validate.None {
		return
	}
	vs := validate.Object(patched.Root, a.ws.schema)
	if len(vs) == 0 {
		return
	}
	validate.Attribute(vs, validate.Changes(changes), validate.Object(original.Root, a.ws.schema))
	if !a.ws.showSecrets {
		validate.MaskSecrets(patched.Root, vs)
	}
	for _, v := range vs {
		if v.Input || v.Patch.File != d.path {
			continue
		}
		severity := severityWarning
		if mode.Fails(v) {
			severity = severityError
		}
		a.add(d, v.Patch, v.String()+" ("+patched.ID()+")", severity, nil)
	}
}

// describeSide says what one side of a conflict does, for the other's
// diagnostic.
func describeSide(object string, side conflict.Side) string {
	return fmt.Sprintf("%s (%s patch) %s", object, side.Patch, side.Change)
}

// addError adds a diagnostic for an error of the document's file; errors
// of other files are left to those files.
func (a *analysis) addError(d *document, err error, severity int) {
	var ke *syntax.Error
	var se *tree.SyntaxError
	switch {
	case errors.As(err, &ke):
		if ke.Pos.File == d.path {
			a.add(d, ke.Pos, ke.Msg, severity, nil)
		}
	case errors.As(err, &se):
		if se.Pos.File == d.path {
			a.add(d, tree.Position{File: se.Pos.File, Line: max(se.Pos.Line, 1), Column: max(se.Pos.Column, 1)}, se.Msg, severity, nil)
		}
	default:
		a.add(d, tree.Position{File: d.path, Line: 1, Column: 1}, err.Error(), severity, nil)
	}
}

// add adds a diagnostic at a position of the document, once: a patch
// that fails the same way on several objects is one diagnostic.
func (a *analysis) add(d *document, p tree.Position, msg string, severity int, rel []RelatedInformation) {
	r := tokenRange(d, p, a.patches)
	for i, old := range a.diagnostics {
		if old.Range == r && old.Severity == severity && sameProblem(old.Message, msg) {
			if !strings.HasSuffix(old.Message, " (and on other objects)") && old.Message != msg {
				a.diagnostics[i].Message += " (and on other objects)"
			}
			return
		}
	}
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

// location is a position of any file, as a protocol location.
func (s *Server) location(p tree.Position) Location {
	if od := s.docByPath(p.File); od != nil {
		return Location{URI: od.uri, Range: tokenRange(od, p, nil)}
	}
	return location(p, nil)
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
