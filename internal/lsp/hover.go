package lsp

import (
	"fmt"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/explain"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// maxShown bounds the objects a hover or a definition lists.
const maxShown = 5

// spot is what the cursor is on: a patch's target, or a step of a path
// (of a header, or of an assignment's key).
type spot struct {
	patch *syntax.Patch
	set   *syntax.Assignment // the assignment of the line, nil on a header
	path  syntax.Path        // from the object to the step under the cursor; nil on the target
	rng   Range
}

// spotAt finds what is under the cursor, by the positions the parser gave
// every step: it works for .kpatch files and YAML patch lists alike.
func spotAt(d *document, a *analysis, p Position) *spot {
	col := d.byteCol(p)
	onLine := func(pos tree.Position) bool { return d.lineOf(pos) == p.Line }
	pick := func(pt *syntax.Patch, set *syntax.Assignment, base, steps syntax.Path) *spot {
		var best = -1
		for i, st := range steps {
			if onLine(st.Pos) && d.column(st.Pos) <= col {
				best = i
			}
		}
		if best < 0 {
			return nil
		}
		sp := &spot{patch: pt, set: set, path: append(append(syntax.Path(nil), base...), steps[:best+1]...)}
		sp.rng = tokenRange(d, steps[best].Pos, nil)
		return sp
	}
	patches := a.absolute(p.Line)
	for _, pt := range patches {
		for i := range pt.Sets {
			set := &pt.Sets[i]
			if sp := pick(pt, set, pt.Path, set.Key); sp != nil {
				return sp
			}
			if onLine(set.Pos) {
				return &spot{patch: pt, set: set, path: append(append(syntax.Path(nil), pt.Path...), set.Key...), rng: tokenRange(d, set.Pos, valueAt(patches, set.Pos))}
			}
		}
		if sp := pick(pt, nil, nil, pt.Path); sp != nil {
			return sp
		}
		if t := pt.Target; d.kpatch && t.End.Line > 0 && onLine(t.Pos) && t.End.Line == t.Pos.Line && d.column(t.Pos) <= col && col < d.column(t.End) {
			// on the target: its range, as the parser read it (a quoted
			// name with dots, a label selector, up to the header's path)
			return &spot{patch: pt, rng: Range{Start: d.pos(p.Line, d.column(t.Pos)), End: d.pos(p.Line, d.column(t.End))}}
		}
		if onLine(pt.Pos) {
			return &spot{patch: pt, rng: tokenRange(d, pt.Pos, nil)}
		}
	}
	return nil
}

// hover explains what is under the cursor: the objects a target picks;
// for a path, the field (how a patch treats it, in the words of kmerge
// explain), its value in each target object, and what the line changes.
func (s *Server) hover(d *document, a *analysis, p Position) *Hover {
	if a.manifest {
		return s.manifestHover(d, a, p)
	}
	sp := spotAt(d, a, p)
	if sp == nil {
		return nil
	}
	objs := a.ws.targets(sp.patch.Target)
	var b strings.Builder
	if sp.path == nil {
		fmt.Fprintf(&b, "**%s** picks %s\n\n", sp.patch.Target, plural(len(objs), "object"))
		for i, r := range objs {
			if i == maxShown {
				fmt.Fprintf(&b, "- and %d more\n", len(objs)-maxShown)
				break
			}
			fmt.Fprintf(&b, "- %s (%s)\n", r.ID(), shortPos(r.Position()))
		}
		return &Hover{Contents: MarkupContent{Kind: "markdown", Value: b.String()}, Range: &sp.rng}
	}
	var field kpatch.Place
	found := false
	var lines []string
	for i, r := range objs {
		if i == maxShown {
			lines = append(lines, fmt.Sprintf("- and %d more objects", len(objs)-maxShown))
			break
		}
		places, err := kpatch.Lookup(r, sp.path, a.ws.options())
		if err != nil {
			lines = append(lines, fmt.Sprintf("- %s: %s", r.ID(), errorText(err)))
			continue
		}
		for _, pl := range places {
			if !found && (pl.Field != nil || pl.Type != nil) {
				field, found = pl, true
			}
			if a.ws.masks(r) {
				pl.Node = secret.Value(pl.Node, pl.Path)
			}
			lines = append(lines, fmt.Sprintf("- %s: `%s` is %s", r.ID(), pl.Path, shownValue(pl)))
		}
	}
	path := sp.path.String()
	if found {
		path = field.Path.String()
	}
	fmt.Fprintf(&b, "**%s**", path)
	if found {
		fmt.Fprintf(&b, " `%s`", explain.TypeName(field.Type))
	}
	b.WriteString("\n\n")
	if len(lines) > 0 {
		b.WriteString("now:\n" + strings.Join(lines, "\n") + "\n\n")
	}
	if sp.set != nil {
		if change := changeText(a, a.ws, objs, sp.set); change != "" {
			b.WriteString("this line: " + change + "\n\n")
		}
	}
	if found && field.Field != nil {
		b.WriteString("```\n" + strings.Join(explain.Details(field.Field), "\n") + "\n```\n")
	}
	return &Hover{Contents: MarkupContent{Kind: "markdown", Value: b.String()}, Range: &sp.rng}
}

// changeText says what an assignment did in the last analysis, by the
// changes recorded at its position: the value in the manifest → the
// value the line sets (secret values masked as a pair, unless the
// workspace shows them).
func changeText(a *analysis, ws *workspace, objs []*resource.Resource, set *syntax.Assignment) string {
	byID := map[string]*resource.Resource{}
	for _, r := range objs {
		byID[r.ID()] = r
	}
	// values returns the value in the manifest and the value set, as shown
	values := func(c objectChange) (old string, new *yaml.Node) {
		r := byID[c.object]
		if r == nil {
			return "?", c.Value
		}
		was := fieldpath.Get(r.Root, c.Path)
		new = c.Value
		if ws.masks(r) || c.Mask {
			was, new = secret.Pair(was, new, c.Path)
		}
		return shownValue(kpatch.Place{Node: was}), new
	}
	var parts []string
	for _, c := range a.changes {
		if c.Pos != set.Pos || len(parts) == maxShown {
			continue
		}
		switch c.Op {
		case change.Set:
			old, new := values(c)
			parts = append(parts, c.MaskText(fmt.Sprintf("%s: `%s` %s → `%s`", c.object, c.Path, old, change.Show(new))))
		case change.Delete:
			old, _ := values(c)
			parts = append(parts, c.MaskText(fmt.Sprintf("%s: `%s` %s → deleted", c.object, c.Path, old)))
		case change.Insert:
			parts = append(parts, c.MaskText(fmt.Sprintf("%s: a new item `%s`", c.object, c.Path)))
		}
	}
	return strings.Join(parts, "\n")
}

// shownValue words a place's current value.
func shownValue(pl kpatch.Place) string {
	switch {
	case pl.Node == nil:
		return "absent"
	case tree.KindOf(pl.Node).Scalar():
		return "`" + pl.Node.Value + "`"
	}
	return "`" + shortJSON(pl) + "`"
}

func shortJSON(pl kpatch.Place) string {
	b, err := tree.MarshalJSON(pl.Node)
	if err != nil {
		return "(" + tree.KindOf(pl.Node).String() + ")"
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

// definition finds what the cursor names in the manifests: the objects a
// target picks, or the field a path reaches in each.
func (s *Server) definition(d *document, a *analysis, p Position) []Location {
	sp := spotAt(d, a, p)
	if sp == nil {
		return []Location{}
	}
	out := []Location{}
	for _, r := range a.ws.targets(sp.patch.Target) {
		if len(out) >= maxShown*4 {
			break
		}
		if sp.path == nil {
			out = append(out, objectLocation(r, r.Position()))
			continue
		}
		places, err := kpatch.Lookup(r, sp.path, a.ws.options())
		if err != nil {
			continue
		}
		for _, pl := range places {
			if len(out) >= maxShown*4 {
				break // each is a search of the object's text
			}
			n := pl.Key
			if n == nil {
				n = pl.Node
			}
			if n == nil || n.Line == 0 {
				continue
			}
			out = append(out, objectLocation(r, tree.Position{File: r.Source.Path, Line: n.Line, Column: n.Column}))
		}
	}
	return out
}

// objectLocation is a position in an object's file, its line read from
// the text loaded with it.
func objectLocation(r *resource.Resource, p tree.Position) Location {
	return lineLocation(p, textLine(r.Source.Input, p.Line, true)) // (a manifest: YAML, or JSON, which has no such line breaks but LF, CR)
}

func shortPos(p tree.Position) string {
	return filepath.Base(p.File) + ":" + fmt.Sprint(p.Line)
}

func errorText(err error) string {
	if ke, ok := err.(*syntax.Error); ok {
		return ke.Msg
	}
	return err.Error()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
