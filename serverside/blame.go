package serverside

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/ssa"
	"github.com/kmerge/kmerge/tree"
)

// Blame is kmerge.Blame, each line of its documents with the field
// managers that own the field or item it starts in the live object
// (Line.Live), and, with ss.Manager, once the output is applied
// server-side as that manager (Line.After; a conflict is then a
// *ConflictError, as with Apply). Only the documents kmerge.Blame shows
// (those the patches changed) are looked at.
func Blame(ctx context.Context, opts kmerge.ApplyOptions, ss Options, only ...resource.Selector) (*kmerge.BlameResult, error) {
	live, err := loadLive(ctx, ss.Live, opts)
	if err != nil {
		return nil, err
	}
	bl, err := kmerge.Blame(ctx, opts, only...)
	if err != nil {
		return nil, err
	}
	engine := engineOf(opts)
	when := ss.Time
	if when.IsZero() {
		when = time.Now()
	}
	files := map[string]*kmerge.File{}
	for _, f := range bl.Files {
		files[f.Path] = f
	}
	var conflicts []ObjectConflicts
	read := map[string]*tree.Stream{}
	for _, d := range bl.Documents {
		f := files[d.File]
		if f == nil {
			continue
		}
		st := read[d.File]
		if st == nil {
			if st, err = tree.Read(f.Output, tree.Options{File: f.Path, Limits: opts.Limits}); err != nil {
				return nil, fmt.Errorf("%s: reading the output again: %w", f.Path, err)
			}
			read[d.File] = st
		}
		if d.Index >= len(st.Docs) {
			continue
		}
		owners := map[int][2][]string{} // line: live, after
		note := func(by map[*yaml.Node][]string, after int) {
			for n, names := range by {
				v := owners[n.Line]
				v[after] = appendNew(v[after], names...)
				owners[n.Line] = v
			}
		}
		for _, obj := range objectsOf(st.Docs[d.Index]) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			id := identityOf(obj)
			pos := tree.Position{File: f.Path, Line: obj.Line, Column: obj.Column}
			lr, err := live.find(id)
			if err != nil {
				return nil, &Error{Pos: pos, ID: id.String(), Err: err}
			}
			fail := func(err error) error { return errorOf(pos, id.String(), lr, err) }
			var liveRoot *yaml.Node
			liveFile := ""
			if lr != nil {
				liveRoot, liveFile = lr.Root, lr.Source.Path
				entries, err := ssa.ManagedFields(liveRoot, liveFile)
				if err != nil {
					return nil, fail(err)
				}
				by, err := engine.Owners(ctx, obj, entries)
				if err != nil {
					return nil, fail(err)
				}
				note(by, 0)
			}
			if ss.Manager == "" {
				continue
			}
			r, err := engine.Apply(ctx, liveRoot, obj, ssa.Options{Manager: ss.Manager, Force: ss.Force, Time: when, LiveFile: liveFile})
			var ce *ssa.ConflictError
			switch {
			case errors.As(err, &ce):
				conflicts = append(conflicts, ObjectConflicts{ID: id.String(), File: f.Path, Err: ce})
				continue
			case err != nil:
				return nil, fail(err)
			}
			by, err := engine.Owners(ctx, obj, r.Managed)
			if err != nil {
				return nil, fail(err)
			}
			note(by, 1)
		}
		for i := range d.Lines {
			v := owners[d.Lines[i].N]
			// a line of several fields (a flow mapping) gets the owners of
			// each, sorted
			slices.Sort(v[0])
			slices.Sort(v[1])
			d.Lines[i].Live, d.Lines[i].After = v[0], v[1]
		}
	}
	if len(conflicts) > 0 {
		place(conflicts, bl)
		return nil, &ConflictError{Objects: conflicts}
	}
	return bl, nil
}

// appendNew appends the names of more that list does not hold yet.
func appendNew(list []string, more ...string) []string {
	for _, m := range more {
		if !slices.Contains(list, m) {
			list = append(list, m)
		}
	}
	return list
}
