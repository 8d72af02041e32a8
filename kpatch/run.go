package kpatch

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

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
	found map[*resource.Resource][]conflict.Conflict

	err error // the patches cannot run at all (Options.MaxExpanded)
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
		slots: map[*resource.Resource][]*slot{}, found: map[*resource.Resource][]conflict.Conflict{}}
	maxExpanded := opts.MaxExpanded
	if maxExpanded == 0 {
		maxExpanded = tree.DefaultLimits().MaxExpanded
	}
	// checked before a value is built: substituting them is what takes
	// the memory
	run.err = opts.Vars.checkExpansion(patches, maxExpanded)
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
// it (a caller snapshots its file first). It looks at r's identity
// (apiVersion, kind, namespace, name) and, when SelectsLabels, its labels:
// nothing else of r needs to be read to answer.
func (run *Run) Targets(r *resource.Resource) bool { return len(run.targets(r)) > 0 }

// SelectsLabels reports whether a patch's target selects objects by label:
// then Targets looks at objects' labels.
func (run *Run) SelectsLabels() bool {
	for _, p := range run.order {
		if p.Target.Labels != "" {
			return true
		}
	}
	return false
}

// Patch applies to r, in order, every patch whose target picks it, and
// reports whether one did. It stops at the first failure, which Finish
// returns. Patch is safe to call for different objects at once.
func (run *Run) Patch(r *resource.Resource) bool {
	if run.err != nil {
		return false
	}
	var slots []*slot
	touched := false
	targets := run.targets(r)
	// what each patch changes is recorded for conflicts between patches
	// (an object only one patch changes has none), for the trace, and for
	// callers that ask (Options.Changes)
	record := run.opts.Record != nil && len(targets) > 1 || run.opts.Trace != nil || run.opts.Changes
	var ix *objectIndex // for the object's field patches, which come last
	for _, i := range targets {
		sl := &slot{patch: run.order[i], index: i, r: r}
		slots = append(slots, sl)
		if sl.patch.Type != Field {
			ix = nil // its writes do not go through the index
		} else if ix == nil && !run.opts.scanOnly {
			ix = newObjectIndex()
		}
		sl.run(run.opts, run.cache, record, ix)
		touched = touched || sl.touched
		if sl.err != nil && !run.opts.KeepGoing {
			break // the object's later patches do not matter: the run fails
		}
	}
	var found []conflict.Conflict
	if run.opts.Record != nil && len(slots) > 1 {
		// the conflicts between the object's patches are found now, so
		// that what they changed need not be kept until Finish
		var recs []conflict.Record
		for _, sl := range slots {
			if len(sl.changes) > 0 {
				sl.recorded = true
				recs = append(recs, conflict.Record{Object: r.ID(), Patch: sl.kind, Pos: sl.patch.Pos, Changes: sl.changes})
			}
		}
		found = conflict.Find(recs)
		if !run.opts.Changes {
			for _, sl := range slots {
				sl.changes = nil
			}
		}
	}
	if len(slots) > 0 {
		run.mu.Lock()
		run.slots[r] = slots
		if len(found) > 0 {
			run.found[r] = found
		}
		run.mu.Unlock()
	}
	return touched
}

// Changes returns what the patches did to r, in the order they did it,
// once Patch has returned for r: recorded with Options.Changes (or a trace,
// or a Recorder and more than one patch for r); nil otherwise.
func (run *Run) Changes(r *resource.Resource) []change.Change {
	run.mu.Lock()
	slots := run.slots[r]
	run.mu.Unlock()
	var out []change.Change
	for _, sl := range slots {
		out = append(out, sl.changes...)
	}
	return out
}

// Done tells the run that the caller is done with r's changes (it read
// Changes, or will not): the run lets go of them (the conflicts between
// them were found when r was patched), so that the memory they take goes
// with the object.
func (run *Run) Done(r *resource.Resource) {
	run.mu.Lock()
	defer run.mu.Unlock()
	for _, sl := range run.slots[r] {
		sl.changes = nil
	}
}

// Finish puts together what the patches did to the objects of set (every
// object given to Patch, in the order of the set): the warnings, the
// conflict effects and the trace come in the order of a sequential run,
// by patch, then by object; the error returned is the first one in that
// order. A target whose kind names kinds of several groups among the
// objects it picked is an error too.
func (run *Run) Finish(set *resource.Set) (*Result, error) {
	opts := run.opts
	if run.err != nil && opts.KeepGoing {
		return &Result{Errors: []error{run.err}}, nil
	} else if run.err != nil {
		return nil, run.err
	}
	byPatch := make([][]*slot, len(run.order))
	for _, r := range set.Resources {
		for _, sl := range run.slots[r] {
			byPatch[sl.index] = append(byPatch[sl.index], sl)
		}
	}
	res := &Result{}
	touched := map[*resource.Resource]bool{}
	// the objects with conflicts, in the order of their first patch that
	// recorded changes, and by object for one patch: the order of a
	// sequential run, in which they are given to the recorder
	var conflicted []*resource.Resource
	seen := map[*resource.Resource]bool{}
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
		var warnings []Warning // the patch's, on every object it picked
		for _, sl := range slots {
			if sl.err != nil && !opts.KeepGoing {
				return nil, sl.err
			} else if joined, ok := sl.err.(interface{ Unwrap() []error }); ok {
				res.Errors = append(res.Errors, joined.Unwrap()...) // the assignments of a field patch
			} else if sl.err != nil {
				res.Errors = append(res.Errors, sl.err)
			}
			warnings = append(warnings, sl.warnings...)
			if sl.recorded && !seen[sl.r] {
				seen[sl.r] = true
				conflicted = append(conflicted, sl.r)
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
		res.Warnings = append(res.Warnings, gather(warnings)...)
	}
	for _, r := range set.Resources {
		if touched[r] {
			res.Touched = append(res.Touched, r)
		}
	}
	for _, r := range conflicted {
		opts.Record.AddConflicts(run.found[r])
	}
	return res, nil
}

// maxNamed bounds the other objects a gathered warning names.
const maxNamed = 3

// gather makes one warning of a patch's warnings at one place of the
// patch (a selector that matches nothing in any of 25,000 objects is one
// line, not 25,000): the first, saying how many other objects had it and
// naming a few. Warnings keep the order of their first occurrence.
func gather(ws []Warning) []Warning {
	if len(ws) < 2 {
		return ws
	}
	type group struct {
		first  int
		others []*resource.Resource // distinct, in order
		seen   map[*resource.Resource]bool
	}
	groups := map[tree.Position]*group{}
	var order []tree.Position
	for i, w := range ws {
		g := groups[w.Pos]
		if g == nil {
			g = &group{first: i, seen: map[*resource.Resource]bool{w.Object: true}}
			groups[w.Pos] = g
			order = append(order, w.Pos)
			continue
		}
		if !g.seen[w.Object] {
			g.seen[w.Object] = true
			g.others = append(g.others, w.Object)
		}
	}
	if len(order) == len(ws) {
		return ws
	}
	out := make([]Warning, 0, len(order))
	for _, pos := range order {
		g := groups[pos]
		w := ws[g.first]
		if n := len(g.others); n > 0 {
			var names []string
			for _, r := range g.others[:min(n, maxNamed)] {
				if r != nil {
					names = append(names, r.ID())
				}
			}
			if n > maxNamed {
				names = append(names, fmt.Sprintf("%d more", n-maxNamed))
			}
			w.Msg += fmt.Sprintf(" (the same in %d other %s: %s)", n, map[bool]string{true: "object", false: "objects"}[n == 1], strings.Join(names, ", "))
		}
		out = append(out, w)
	}
	return out
}

// slot is one patch applied to one object, with what it reported.
type slot struct {
	patch    *Patch
	index    int // of the patch in the run's order
	r        *resource.Resource
	warnings []Warning
	changes  []change.Change // what the patch changed, when recorded
	recorded bool            // changes went into the search for conflicts
	kind     string          // the patch's kind as conflicts name it
	trace    bytes.Buffer
	touched  bool
	err      error
}

// run applies the slot's patch to its object; record says whether to
// record what it changes.
func (sl *slot) run(opts Options, cache *shortcutCache, record bool, ix *objectIndex) {
	if opts.Trace != nil {
		opts.Trace = &sl.trace
	}
	ap := &applier{ix: ix, opts: opts, res: &Result{}, touched: map[*resource.Resource]bool{}, shortcuts: cache, kind: sl.patch.Type.String()}
	if record {
		ap.log = &change.Log{}
	}
	sl.err = ap.patchObject(sl.r, sl.patch)
	ap.settleInsertions()
	sl.warnings, sl.touched, sl.kind = ap.res.Warnings, ap.touched[sl.r], ap.kind
	if ap.log != nil {
		sl.changes = ap.log.Changes
		if ap.masks(sl.r) {
			for i := range sl.changes {
				sl.changes[i].Mask = secret.Touches(sl.changes[i].Path)
			}
		}
	}
	for i := range sl.warnings {
		sl.warnings[i].Object = sl.r
	}
}
