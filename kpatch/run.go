package kpatch

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// Run is Apply taken apart, for callers that patch objects as their files
// are read and write each file out as soon as its objects are done, rather
// than holding every file until the end: NewRun, then Patch for every
// object (in any order, from several goroutines at once), then Finish with
// the set of all the objects. The result is Apply's.
type Run struct {
	opts     Options
	order    []*syntax.Patch // strategic and merge patches, then field patches
	matchers []*resource.Matcher
	badSel   []error          // the target does not parse: the patch applies to nothing
	byName   map[string][]int // patches (index in order) whose target names one object
	anyName  []int            // the others, in order
	cache    *shortcutCache
	// reidentifies is set when a patch of the run may change the
	// identity of an object (its name, kind, apiVersion or namespace), so
	// that patches that did not target it may then do so
	reidentifies bool
	// selectsLabels: a target of the run picks objects by label or
	// annotation (SelectsLabels)
	selectsLabels bool

	mu    sync.Mutex
	slots map[*resource.Resource][]*slot // the patches each object got, in order
	// the secret values of the objects that are or were v1 Secrets
	// (unless Options.ShowSecrets), until Done
	secrets map[*resource.Resource]*secret.Values
	none    *report // the report of the slots that have none (Done)
	stopped error   // the first patch Patch did not apply, its context being done

	err error // the patches cannot run at all (Options.MaxExpanded)
}

// NewRun prepares a run of patches.
func NewRun(patches []*syntax.Patch, opts Options) *Run {
	if opts.Schema == nil {
		opts.Schema = schema.Builtin()
	}
	if opts.Vars == nil {
		opts.Vars = NewVars()
	}
	run := &Run{opts: opts, byName: map[string][]int{}, cache: &shortcutCache{m: map[shortcutKey]shortcutResult{}},
		slots: map[*resource.Resource][]*slot{}, secrets: map[*resource.Resource]*secret.Values{}, none: &report{}}
	maxExpanded := opts.MaxExpanded
	if maxExpanded == 0 {
		maxExpanded = tree.DefaultLimits().MaxExpanded
	}
	// checked before a value is built: substituting them is what takes
	// the memory
	run.err = opts.Vars.checkExpansion(patches, maxExpanded)
	for _, p := range patches {
		if p.Type != change.FieldPatch {
			run.order = append(run.order, p)
		}
	}
	for _, p := range patches {
		if p.Type == change.FieldPatch {
			run.order = append(run.order, p)
		}
	}
	run.matchers = make([]*resource.Matcher, len(run.order))
	run.badSel = make([]error, len(run.order))
	for i, p := range run.order {
		run.matchers[i], run.badSel[i] = resource.TargetSelector(p.Target).Matcher(opts.Schema)
		if run.badSel[i] != nil {
			continue
		}
		if name, ok := resource.TargetSelector(p.Target).ExactName(); ok {
			run.byName[name] = append(run.byName[name], i)
		} else {
			run.anyName = append(run.anyName, i)
		}
		run.reidentifies = run.reidentifies || p.MayReidentify()
	}
	run.selectsLabels = run.SelectsLabels()
	return run
}

// next returns the first patch after the one at index last whose target
// picks r as it is now, -1 when there is none: the patches that name r's
// name (or the name it had before a patch renamed it), or no name.
func (run *Run) next(r *resource.Resource, last int) int {
	best := -1
	consider := func(list []int) {
		j := sort.SearchInts(list, last+1)
		for ; j < len(list) && (best < 0 || list[j] < best); j++ {
			if run.matchers[list[j]].Matches(r) {
				best = list[j]
				return
			}
		}
	}
	consider(run.byName[r.Name])
	if r.Original != nil && r.Original.Name != r.Name {
		consider(run.byName[r.Original.Name])
	}
	consider(run.anyName)
	return best
}

// Targets reports whether some patch applies to r: whether Patch will edit
// it (a caller snapshots its file first). It looks at r's identity
// (apiVersion, kind, namespace, name) and, when SelectsLabels, its labels:
// nothing else of r needs to be read to answer.
func (run *Run) Targets(r *resource.Resource) bool { return run.next(r, -1) >= 0 }

// SelectsLabels reports whether a patch's target selects objects by label
// or annotation: then Targets looks at objects' labels and annotations.
func (run *Run) SelectsLabels() bool {
	for _, p := range run.order {
		if resource.TargetSelector(p.Target).ReadsMetadata() {
			return true
		}
	}
	return false
}

// Patch applies to r, in order, every patch whose target picks it, and
// reports whether one did. Whether a patch's target picks r is decided
// just before the patch applies, on r as the patches before it left it:
// after a patch renamed r, the later patches that name its new name apply
// to it, as do those that name its old one (resource.Resource.Original);
// after a patch deleted r, the later patches that target it do nothing
// (each is a conflict with the delete). It stops at the first failure,
// which Finish returns. Patch is safe to call for different objects at
// once.
//
// ctx is checked before each patch: once it is done, Patch applies no
// more patches (to r or to any object after it), and Finish returns
// ctx.Err() wrapped with the object and the patch it stopped before.
func (run *Run) Patch(ctx context.Context, r *resource.Resource) bool {
	if run.err != nil {
		return false
	}
	var slots []*slot
	touched := false
	first := run.next(r, -1)
	if first < 0 {
		return false
	}
	// what each patch changes is recorded for conflicts between patches
	// (an object only one patch changes has none), for the trace, and for
	// callers that ask (Options.Changes)
	// (a patch may make a later one pick r: by renaming it, or by giving
	// it the labels a later selector asks for)
	record := run.opts.Records != nil && (run.reidentifies || run.selectsLabels || run.next(r, first) >= 0) || run.opts.Trace != nil || run.opts.Changes
	// the object's secret values: what the patches report about it is
	// masked with them once they are done (seal), whichever patch made it
	// a Secret. They are gathered from the object before the patches,
	// once it is a Secret (a patch may make it one), and after them, and
	// from what each patch gives its data and stringData on the way
	// (which a later patch may move out): walking the whole object after
	// every patch would cost its size each time
	var vals *secret.Values
	observe := func() {
		if run.opts.ShowSecrets {
			return
		}
		if vals == nil {
			if !secret.Holds(r.APIVersion, r.Kind) && !secret.Object(r.Root) {
				return
			}
			vals = &secret.Values{}
		}
		if secret.Holds(r.APIVersion, r.Kind) {
			vals.Mark()
		}
		vals.Observe(r.Root)
	}
	observe()
	var ix *objectIndex // for the object's field patches, which come last
	// for the object's strategic, merge and JSON patches, each as long as
	// only patches of its engine write it
	var eng engines
	for i := first; i >= 0; i = run.next(r, i) {
		if err := ctx.Err(); err != nil {
			run.stop(fmt.Errorf("%sstopped before patching %s: %w", run.order[i].Pos, r.ID(), err))
			break
		}
		sl := &slot{patch: run.order[i], index: i, r: r, report: &report{}}
		slots = append(slots, sl)
		if r.Deleted {
			sl.afterDelete(record)
			continue
		}
		if sl.patch.Type != change.FieldPatch {
			ix = nil // its writes do not go through the index
		} else if ix == nil && !run.opts.scanOnly {
			ix = newObjectIndex()
		}
		eng.keep(sl.patch.Type, run.opts.Schema.Kind(r.APIVersion, r.Kind) != nil, run.opts.scanOnly)
		sl.run(run.opts, run.cache, record, ix, eng)
		if !vals.On() {
			observe() // the patch may have made it a Secret
		}
		sl.gather(vals)
		sl.body, sl.written = nil, nil // gathered
		touched = touched || sl.touched
		if sl.err != nil && !run.opts.KeepGoing {
			break // the object's later patches do not matter: the run fails
		}
		if sl.err == nil && !r.Deleted && r.Reidentify() {
			sl.renamed = true
		}
	}
	if vals.On() {
		vals.Observe(r.Root) // as the patches left it
		for _, sl := range slots {
			sl.seal(vals)
		}
	}
	for _, sl := range slots {
		sl.writeTrace(vals)
	}
	if run.opts.Records != nil && len(slots) > 1 {
		// the records of the object's patches are handed over now, so
		// that what they changed need not be kept until Finish
		var recs []change.Record
		for _, sl := range slots {
			if len(sl.changes) > 0 && !(r.Deleted && !names(resource.TargetSelector(sl.patch.Target))) {
				recs = append(recs, change.Record{Object: r.OriginalID(), Patch: sl.kind, Pos: sl.patch.Pos, Changes: sl.changes})
			}
		}
		if len(recs) > 1 { // a patch never conflicts with itself
			for _, sl := range slots {
				sl.recorded = len(sl.changes) > 0
			}
			run.opts.Records(recs)
		}
		if !run.opts.Changes {
			for _, sl := range slots {
				sl.changes = nil
			}
		}
	}
	if len(slots) > 0 {
		run.mu.Lock()
		run.slots[r] = slots
		if vals.On() {
			run.secrets[r] = vals
		}
		run.mu.Unlock()
	}
	return touched
}

// Secrets returns the secret values of r (an object given to Patch), for
// what a caller says about it after the patches (a validation message, a
// blamed line): nil when r is not and was not a v1 Secret, or the run
// shows secrets (Options.ShowSecrets). Its masking is what the run's own
// messages about r went through. Done lets go of it.
func (run *Run) Secrets(r *resource.Resource) *secret.Values {
	run.mu.Lock()
	defer run.mu.Unlock()
	return run.secrets[r]
}

// gather adds to vals, once the object is secret, what the slot's patch
// gave the places of the object's secret values (secret.Values.Add): a
// patch that fails may show them without having written them, and a
// later patch may move them out of data or stringData.
func (sl *slot) gather(vals *secret.Values) {
	if !vals.On() {
		return
	}
	p := sl.patch
	if p.Type != change.FieldPatch {
		body := sl.body // its variables substituted
		if body == nil {
			body = p.Body
		}
		vals.AddPatch(body, p.Type == change.JSONPatch)
		return
	}
	for _, a := range p.Sets {
		steps := append(append(syntax.Path(nil), p.Path...), a.Key...)
		if len(steps) == 0 || steps[0].Sel != nil {
			continue
		}
		at := fieldpath.Path{fieldpath.Field(steps[0].Field)}
		vals.AddText(a.Value.Raw, at)
		var literal strings.Builder
		for _, part := range a.Value.Parts {
			literal.WriteString(part.Text)
		}
		vals.AddText(literal.String(), at)
	}
	for _, w := range sl.written {
		vals.AddText(w.value, w.at)
	}
}

// stop records why Patch stopped, the first time.
func (run *Run) stop(err error) {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.stopped == nil {
		run.stopped = err
	}
}

// Changes returns what the patches did to r, in the order they did it,
// once Patch has returned for r: recorded with Options.Changes (or with a
// trace, when they did not go to Options.Records); nil otherwise.
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
// Changes, or will not): the run lets go of them (Options.Records had
// them when r was patched), so that the memory they take goes with the
// object; of a patch that reported nothing else either (no warning, error
// or trace), it keeps only that it applied (a run over many objects keeps
// little of each).
func (run *Run) Done(r *resource.Resource) {
	run.mu.Lock()
	defer run.mu.Unlock()
	if r.Original == nil {
		delete(run.secrets, r) // a renamed object's, for Finish's check of identities
	}
	for _, sl := range run.slots[r] {
		if sl.report == run.none {
			continue
		}
		sl.changes = nil
		if len(sl.warnings) == 0 && sl.err == nil && sl.trace.Len() == 0 {
			sl.report = run.none
		}
	}
}

// Finish puts together what the patches did to the objects of set (every
// object given to Patch, in the order of the set): the warnings, the
// conflict effects and the trace come in the order of a sequential run,
// by patch, then by object; the error returned is the first one in that
// order. A target whose kind names kinds of several groups among the
// objects it picked is an error too.
//
// When Patch stopped because its context was done, or ctx is done before
// Finish has gone through the patches, Finish returns that context's error,
// wrapped with where it stopped, and no result.
func (run *Run) Finish(ctx context.Context, set *resource.Set) (*Result, error) {
	if run.stopped != nil {
		return nil, run.stopped
	}
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
	// the objects whose records went to Options.Records, in the order of
	// their first patch that recorded changes, and by object for one
	// patch: the order of a sequential run
	seen := map[*resource.Resource]bool{}
	for i, p := range run.order {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%sstopped before the patch's results were gathered: %w", p.Pos, err)
		}
		slots := byPatch[i]
		matched := make([]*resource.Resource, len(slots))
		for j, sl := range slots {
			matched[j] = sl.r
		}
		err := run.badSel[i]
		if err == nil {
			err = resource.TargetSelector(p.Target).Ambiguity(matched)
		}
		switch {
		case err != nil:
			err = &syntax.Error{Pos: p.Pos, Msg: err.Error()}
		case len(slots) == 0 && p.Kustomization != "" && p.Target.ID:
			// kustomize build fails on it: so does kmerge, for a team that
			// runs kmerge where it ran kustomize
			err = &syntax.Error{Pos: p.Pos, Msg: fmt.Sprintf("no object matches %s%s: a kustomization's patch that names its object must match one (kustomize build fails too)", p.Target, targetHint(resource.TargetSelector(p.Target), set, opts.Schema))}
		case len(slots) == 0 && opts.Strict:
			err = &syntax.Error{Pos: p.Pos, Msg: fmt.Sprintf("no object matches %s%s (an error in strict mode)", p.Target, targetHint(resource.TargetSelector(p.Target), set, opts.Schema))}
		case len(slots) == 0:
			res.Warnings = append(res.Warnings, Warning{Pos: p.Pos, Msg: fmt.Sprintf("no object matches %s%s; skipped", p.Target, targetHint(resource.TargetSelector(p.Target), set, opts.Schema))})
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
				res.Recorded = append(res.Recorded, sl.r.OriginalID())
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
	if err := run.checkRenames(set); err != nil {
		if !opts.KeepGoing {
			return nil, err
		}
		res.Errors = append(res.Errors, err)
	}
	return res, nil
}

// checkRenames returns an error when a patch gave an object the identity
// another object has (both are then one object to an API server): at the
// patch that renamed it last.
func (run *Run) checkRenames(set *resource.Set) error {
	var renamed []*resource.Resource
	for _, r := range set.Resources {
		if r.Original != nil && !r.Deleted {
			renamed = append(renamed, r)
		}
	}
	if len(renamed) == 0 {
		return nil
	}
	key := func(r *resource.Resource) string {
		gvk := r.GVK()
		ns := r.Namespace
		if ns == "" {
			ns = "default"
		}
		return gvk.Group + "/" + gvk.Kind + "/" + ns + "/" + r.Name
	}
	byKey := map[string][]*resource.Resource{}
	for _, r := range set.Resources {
		if !r.Deleted {
			byKey[key(r)] = append(byKey[key(r)], r)
		}
	}
	for _, r := range renamed {
		var other *resource.Resource
		for _, o := range byKey[key(r)] {
			if o != r {
				other = o
				break
			}
		}
		if other == nil {
			continue
		}
		at := r.Position()
		for _, sl := range run.slots[r] {
			if sl.renamed {
				at = sl.patch.Pos
			}
		}
		what := "is"
		if other.Original != nil {
			what = "was renamed to"
		}
		msg := fmt.Sprintf("%s is renamed to %s, which %s (%s) %s too: two objects cannot have one identity",
			r.Original, r.Identity(), other.OriginalID(), strings.TrimSuffix(other.Position().String(), ": "), what)
		run.mu.Lock()
		vr, vo := run.secrets[r], run.secrets[other]
		run.mu.Unlock()
		return vo.Error(vr.Error(&syntax.Error{Pos: at, Msg: msg}))
	}
	return nil
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

// slot is one patch applied to one object, with what it reported (its
// report's fields). Done gives a slot that has nothing to report the run's
// shared empty report (Run.none, never written once shared).
type slot struct {
	patch    *syntax.Patch
	index    int // of the patch in the run's order
	r        *resource.Resource
	recorded bool // changes went to Options.Records
	touched  bool
	renamed  bool // the patch changed the object's identity
	*report
}

// report is what a patch reported about an object.
type report struct {
	warnings []Warning
	changes  []change.Change  // what the patch changed, when recorded
	kind     change.PatchType // the patch's kind as its change records name it
	traced   []traced         // what the patch changed, for the trace (writeTrace)
	body     *yaml.Node       // what the patch gave the object (gather)
	written  []written
	trace    bytes.Buffer
	err      error
}

// names reports whether a target names its objects (by one exact name),
// rather than picking them by a pattern or a selector. Of an object a
// patch deletes, what a patch whose target does not name it changes
// commutes with the deletion: such a target picks the objects that exist
// when it applies, so in the other order it would not pick this one, and
// the object is gone either way (a [deployment.*] setting a label, and a
// [deployment.loadgen] deleting that one: issue 27 item 7). A patch that
// names the object needs it, and conflicts with its deletion.
func names(target resource.Selector) bool {
	_, ok := target.ExactName()
	return ok
}

// afterDelete is the slot of a patch whose target picked an object an
// earlier patch deleted: it does nothing, and needs the object to exist,
// which conflicts with the delete; unless it deletes the object too, which
// agrees with the delete.
func (sl *slot) afterDelete(record bool) {
	sl.kind = sl.patch.Type
	if record {
		op := change.Exists
		if sl.patch.DeletesObject() {
			op = change.Delete
		}
		sl.changes = []change.Change{{Op: op, Pos: sl.patch.Pos}}
	}
}

// engines are the indexes of an object that the patch engines keep from
// one patch to the next (each patch indexing the object anew made n patches
// on one long list, or one object of many keys, cost n^2): each is kept
// while patches of its engine follow one another on the object, and
// dropped when a patch of another writes it, its writes not going through
// the index.
type engines struct {
	lists  *smp.Index        // strategic patches
	merges *mergepatch.Index // merge patches, and strategic ones on a kind without a schema
	jsons  *jsonpatch.Index  // JSON patches
}

// keep keeps the index of the engine that applies a patch of type typ
// (schema: the object's kind has one), making it when it has none, and
// drops the others'. scanOnly (tests) keeps none.
func (e *engines) keep(typ change.PatchType, schema bool, scanOnly bool) {
	strategic := typ == change.StrategicPatch && schema
	merge := typ == change.MergePatch || typ == change.StrategicPatch && !schema
	if !strategic || scanOnly {
		e.lists = nil
	} else if e.lists == nil {
		e.lists = smp.NewIndex()
	}
	if !merge || scanOnly {
		e.merges = nil
	} else if e.merges == nil {
		e.merges = &mergepatch.Index{}
	}
	if typ != change.JSONPatch || scanOnly {
		e.jsons = nil
	} else if e.jsons == nil {
		e.jsons = &jsonpatch.Index{}
	}
}

// run applies the slot's patch to its object; record says whether to
// record what it changes.
func (sl *slot) run(opts Options, cache *shortcutCache, record bool, ix *objectIndex, eng engines) {
	ap := &applier{ix: ix, engines: eng, opts: opts, res: &Result{}, touched: map[*resource.Resource]bool{}, shortcuts: cache, kind: sl.patch.Type}
	if record {
		ap.log = &change.Log{}
	}
	sl.err = ap.patchObject(sl.r, sl.patch)
	ap.settleInsertions()
	sl.warnings, sl.touched, sl.kind, sl.traced = ap.res.Warnings, ap.touched[sl.r], ap.kind, ap.traced
	sl.body, sl.written = ap.body, ap.written
	if ap.log != nil {
		sl.changes = ap.log.Changes
	}
	for i := range sl.warnings {
		sl.warnings[i].Object = sl.r
	}
}

// seal masks what the slot reports about its object with the object's
// secret values, once every patch of the object has run: every message
// and record that leaves the run about an object that is or was a v1
// Secret goes through here, whatever built it (kpatch, the engines, the
// selectors), so that none can show a secret value (docs/reliability.md,
// "Secrets"). The error's line is then quoted masked: the patch's lines
// set the Secret's values. Errors are copied, as a patch's may be shared.
func (sl *slot) seal(vals *secret.Values) {
	sl.err = vals.Error(sl.err)
	for i := range sl.warnings {
		sl.warnings[i].Msg = vals.Text(sl.warnings[i].Msg)
	}
	for i := range sl.changes {
		sl.changes[i].MaskWith(vals)
	}
}

// writeTrace writes the slot's changes to its trace: "pos: object: path:
// before -> after", the values masked as a pair, and the line as a text,
// by the object's secret values (nil: none to mask), as seal masks the
// rest.
func (sl *slot) writeTrace(vals *secret.Values) {
	for _, t := range sl.traced {
		var line string
		if t.deleted {
			line = fmt.Sprintf("%s%s: deleted\n", t.pos, t.id)
		} else {
			old, new := vals.Pair(t.old, t.new, t.path)
			line = fmt.Sprintf("%s%s: %s: %s -> %s\n", t.pos, t.id, t.path, change.Show(old), change.Show(new))
		}
		sl.trace.WriteString(vals.Text(line))
	}
	sl.traced = nil
}
