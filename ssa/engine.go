package ssa

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	yaml "go.yaml.in/yaml/v3"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// Engine applies and updates objects as an API server does, with the
// kinds of one schema. It is safe for concurrent use; the server-side
// apply schema of each kind is made once, when first needed.
type Engine struct {
	schema *schema.Schema

	mu    sync.Mutex
	kinds map[*schema.Type]*kindType
}

// New returns an engine for the kinds of s (nil: schema.Builtin()).
// Custom resources need their CRD in s (schema.Load).
func New(s *schema.Schema) *Engine {
	if s == nil {
		s = schema.Builtin()
	}
	return &Engine{schema: s, kinds: map[*schema.Type]*kindType{}}
}

// Options are the request: who writes, and when.
type Options struct {
	// Manager is the field manager (kubectl's --field-manager). Apply
	// needs one; an update without one is "unknown"'s, as the API
	// server names it.
	Manager string
	// Force takes the fields another manager owns over instead of
	// failing with a *ConflictError (kubectl's --force-conflicts).
	Force bool
	// Time is stamped on the entry the operation writes, to the second;
	// zero: the current time.
	Time time.Time
	// LiveFile names the live object's file in errors (its
	// managedFields' positions).
	LiveFile string
}

// Result is an object as the API server stores it after an operation.
type Result struct {
	// Object is the stored object, its metadata.managedFields included,
	// every mapping's keys sorted (as kubectl get -o yaml prints it).
	Object *yaml.Node
	// Managed are its managedFields entries, in their order.
	Managed []*Entry
	// Changed: the stored object differs from the live one (an object
	// created is changed).
	Changed bool
}

// kindType returns the server-side apply schema of a kind.
func (e *Engine) kindType(apiVersion, kind string) (*kindType, error) {
	t := e.schema.Kind(apiVersion, kind)
	if t == nil {
		return nil, &UnknownKindError{APIVersion: apiVersion, Kind: kind}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	kt := e.kinds[t]
	if kt == nil {
		kt = newConverter().kind(t)
		e.kinds[t] = kt
	}
	return kt, nil
}

// The fields of an object's metadata that the field manager never
// records as a manager's (they identify the object or the API server
// sets them).
var stripped = smdfieldpath.NewSet(
	smdfieldpath.MakePathOrDie("apiVersion"),
	smdfieldpath.MakePathOrDie("kind"),
	smdfieldpath.MakePathOrDie("metadata"),
	smdfieldpath.MakePathOrDie("metadata", "name"),
	smdfieldpath.MakePathOrDie("metadata", "namespace"),
	smdfieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	smdfieldpath.MakePathOrDie("metadata", "selfLink"),
	smdfieldpath.MakePathOrDie("metadata", "uid"),
	smdfieldpath.MakePathOrDie("metadata", "clusterName"),
	smdfieldpath.MakePathOrDie("metadata", "generation"),
	smdfieldpath.MakePathOrDie("metadata", "managedFields"),
	smdfieldpath.MakePathOrDie("metadata", "resourceVersion"),
)

// systemMeta are the fields of metadata the API server sets and keeps as
// they were whatever a write says (its FillObjectMetaSystemFields and
// BeforeUpdate): generation is then bumped when the object outside its
// metadata and status changed.
var systemMeta = []string{"creationTimestamp", "deletionGracePeriodSeconds", "deletionTimestamp", "generation", "resourceVersion", "selfLink", "uid"}

// beforeFirstApply is the manager the API server gives the fields of an
// object that has no managedFields when it is first applied to.
const beforeFirstApply = "before-first-apply"

// kubectl is the field manager whose applies take over the fields of the
// last client-side apply without conflict, and keep its annotation.
const kubectl = "kubectl"

// lastApplied is client-side apply's annotation.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// maxAnnotations is the most bytes an object's annotations may hold, keys
// and values together; the API server drops last-applied rather than go
// over it.
const maxAnnotations = 256 * 1024

// maxUpdateManagers is how many Update entries an object keeps; older
// ones are merged into one "ancient-changes" entry per version.
const maxUpdateManagers = 10

// request is one operation on one object.
type request struct {
	e       *Engine
	kt      *kindType
	version string // the object's apiVersion
	kind    string
	opts    Options
	status  bool // the kind has a status subresource: status is reset

	// the managers, by identity, as the engine takes them
	managers smdfieldpath.ManagedFields
	entries  map[string]*Entry // their names, operations and times

	liveEntries []*Entry // the live object's managedFields, as read
}

// Apply applies config, a manifest, to live, the object as the API
// server stores it (nil: there is none, and the apply creates it), as the
// API server's server-side apply does. The result is the object as stored:
// live merged with config (structured-merge-diff's merge, by the kind's
// list types and keys), the fields opts.Manager applied before and
// applies no more removed when no other manager owns them, its
// managedFields rewritten. A field config sets to another value than
// another manager's fails the apply with a *ConflictError, unless
// opts.Force: then it is taken over.
//
// Around the engine it follows the API server's rules: the applier's
// fields never include the object's identity and system metadata; an
// object without managedFields has its fields given to
// "before-first-apply" first; the applier's entry is stamped with
// opts.Time when the object changed; "kubectl" takes over the fields of
// the last client-side apply (the last-applied-configuration annotation)
// without conflict, and keeps that annotation up to date. As the API
// server's strategies do, status is not written through the object
// itself when the kind has a status subresource, and the system metadata
// (uid, resourceVersion, creationTimestamp, ...) stays as it was,
// generation bumped when anything but metadata and status changed.
//
// live and config are not modified.
func (e *Engine) Apply(ctx context.Context, live, config *yaml.Node, opts Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Manager == "" {
		return nil, &RequestError{Msg: "a field manager is required for apply requests"}
	}
	if err := CheckTime(opts.Time); err != nil {
		return nil, err
	}
	r, cfg, liveVal, err := e.start(live, config, opts)
	if err != nil {
		return nil, err
	}
	if tree.Deref(tree.MapGet(tree.MapGet(tree.Deref(config), "metadata"), "managedFields")) != nil {
		return nil, &RequestError{Msg: "metadata.managedFields must be nil"}
	}
	liveTV, err := r.typed(liveVal, true)
	if err != nil {
		return nil, err
	}
	cfgTV, err := r.typed(cfg, false)
	if err != nil {
		return nil, err
	}
	if live != nil && len(r.managers) == 0 {
		// the API server gives an object's fields to before-first-apply
		// when it is first applied to
		empty, _ := r.typed(map[string]any{"apiVersion": r.version, "kind": r.kind}, true)
		if err := r.update(empty, liveTV, beforeFirstApply); err != nil {
			return nil, err
		}
	}
	id := identity(opts.Manager, OpApply, "", "")
	newTV, managers, err := r.updater().Apply(liveTV, cfgTV, smdfieldpath.APIVersion(r.version), r.managers.Copy(), id, opts.Force)
	if err != nil {
		var conflicts merge.Conflicts
		if !errors.As(err, &conflicts) {
			return nil, err
		}
		if opts.Manager == kubectl {
			// conflicts with what the last client-side apply set are
			// taken over
			allowed := r.lastAppliedSet(liveVal)
			left := merge.Conflicts{}
			for _, c := range conflicts {
				if allowed == nil || !allowed.Has(c.Path) {
					left = append(left, c)
				}
			}
			conflicts = left
		}
		if len(conflicts) > 0 {
			return nil, r.conflictError(conflicts, config)
		}
		newTV, managers, err = r.updater().Apply(liveTV, cfgTV, smdfieldpath.APIVersion(r.version), r.managers.Copy(), id, true)
		if err != nil {
			return nil, err
		}
	}
	r.managers = managers
	r.strip(id)
	out := liveVal
	if newTV != nil {
		out = newTV.AsValue().Unstructured().(map[string]any)
		if vs, ok := r.managers[id]; ok {
			r.entry(id, vs).Time = timeRef(opts.now())
		}
	}
	if opts.Manager == kubectl {
		out = r.keepLastApplied(out, config)
	}
	return r.finish(live, liveVal, out)
}

// Update writes obj over live (nil: creates it) as the API server's
// update, create and patch do, and records which fields opts.Manager
// changed: an Update entry per manager and apiVersion, stamped with
// opts.Time when it changed something, whose fields are those it changed
// or set, taken from whoever owned them (updates never conflict). The
// managedFields of obj, when it has some, replace the live object's (an
// empty list resets them), as a client may send them. An object that
// has no managedFields and is not being created is not tracked. Older
// Update entries past ten are merged into "ancient-changes". The rules
// on status and system metadata are Apply's.
func (e *Engine) Update(ctx context.Context, live, obj *yaml.Node, opts Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opts.Manager == "" {
		opts.Manager = "unknown"
	}
	if err := CheckTime(opts.Time); err != nil {
		return nil, err
	}
	r, newVal, liveVal, err := e.start(live, obj, opts)
	if err != nil {
		return nil, err
	}
	// managedFields sent with the object replace the live object's
	if mf := tree.Deref(tree.MapGet(tree.MapGet(tree.Deref(obj), "metadata"), "managedFields")); mf != nil && tree.KindOf(mf) != tree.Null {
		if reset(mf) {
			r.managers, r.entries = smdfieldpath.ManagedFields{}, map[string]*Entry{}
		} else if sent, err := decodeManaged(obj, ""); err == nil && len(sent) > 0 {
			r.setEntries(sent)
		}
	}
	newVal = without(newVal, "")
	tracked := live == nil || len(r.managers) > 0 || tree.MapGet(tree.MapGet(tree.Deref(live), "metadata"), "uid") == nil
	if tracked {
		liveTV, err := r.typed(liveVal, true)
		if err != nil {
			return nil, err
		}
		newTV, err := r.typed(newVal, true)
		if err != nil {
			return nil, err
		}
		if err := r.update(liveTV, newTV, opts.Manager); err != nil {
			return nil, err
		}
	}
	return r.finish(live, liveVal, newVal)
}

// start reads what every operation needs: the kind's schema, the live
// object's value without its managedFields and its managers, and the
// value written.
func (e *Engine) start(live, obj *yaml.Node, opts Options) (*request, map[string]any, map[string]any, error) {
	root := tree.Deref(obj)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, nil, nil, &RequestError{Msg: "the object is not a mapping"}
	}
	str := func(n *yaml.Node, k string) string {
		if v := tree.Deref(tree.MapGet(n, k)); v != nil && v.Kind == yaml.ScalarNode {
			return v.Value
		}
		return ""
	}
	r := &request{e: e, version: str(root, "apiVersion"), kind: str(root, "kind"), opts: opts,
		managers: smdfieldpath.ManagedFields{}, entries: map[string]*Entry{}}
	if r.version == "" || r.kind == "" {
		return nil, nil, nil, &RequestError{Msg: "the object has no apiVersion or kind"}
	}
	var err error
	if r.kt, err = e.kindType(r.version, r.kind); err != nil {
		return nil, nil, nil, err
	}
	r.status = e.schema.StatusSubresource(r.version, r.kind)
	v, err := toValue(root, 0)
	if err != nil {
		return nil, nil, nil, &RequestError{Msg: err.Error()}
	}
	val := v.(map[string]any)
	liveVal := map[string]any{"apiVersion": r.version, "kind": r.kind}
	if live != nil {
		lr := tree.Deref(live)
		if lr == nil || lr.Kind != yaml.MappingNode {
			return nil, nil, nil, &RequestError{Msg: "the live object is not a mapping"}
		}
		if lv, lk := str(lr, "apiVersion"), str(lr, "kind"); lv != r.version || lk != r.kind {
			return nil, nil, nil, &RequestError{Msg: fmt.Sprintf("invalid object type: the live object is %s %s, the applied one %s %s", lv, lk, r.version, r.kind)}
		}
		entries, err := decodeManaged(lr, opts.LiveFile)
		if err != nil {
			return nil, nil, nil, err
		}
		r.setEntries(entries)
		r.liveEntries = entries
		if liveVal, err = objectValue(lr); err != nil {
			return nil, nil, nil, &RequestError{Msg: "the live object is " + err.Error()}
		}
	}
	return r, val, liveVal, nil
}

// setEntries makes entries the request's managers; of two with one
// identity, the later wins, as the API server reads them.
func (r *request) setEntries(entries []*Entry) {
	r.managers, r.entries = smdfieldpath.ManagedFields{}, map[string]*Entry{}
	for _, en := range entries {
		id := en.identity()
		r.managers[id] = smdfieldpath.NewVersionedSet(en.fields, smdfieldpath.APIVersion(en.APIVersion), en.Operation == OpApply)
		c := *en // the request stamps its own
		r.entries[id] = &c
	}
}

// reset reports whether managedFields sent with an object reset them: an
// empty list, or one empty entry.
func reset(mf *yaml.Node) bool {
	if mf.Kind != yaml.SequenceNode {
		return false
	}
	return len(mf.Content) == 0 || len(mf.Content) == 1 && tree.Deref(mf.Content[0]).Kind == yaml.MappingNode && len(tree.Deref(mf.Content[0]).Content) == 0
}

// without returns a copy of an object's value without a top-level field
// (none: "") and without metadata.managedFields.
func without(v map[string]any, field string) map[string]any {
	out := make(map[string]any, len(v))
	for k, x := range v {
		if k != field {
			out[k] = x
		}
	}
	if md, ok := out["metadata"].(map[string]any); ok {
		if _, has := md["managedFields"]; has {
			m := make(map[string]any, len(md))
			for k, x := range md {
				if k != "managedFields" {
					m[k] = x
				}
			}
			out["metadata"] = m
		}
	}
	return out
}

// typed types a value by the kind's schema: a live object may hold items
// with one key twice (the API server stored them), an applied one not.
func (r *request) typed(v map[string]any, live bool) (*typed.TypedValue, error) {
	var opts []typed.ValidationOptions
	if live {
		opts = append(opts, typed.AllowDuplicates)
	}
	tv, err := typed.AsTyped(value.NewValueInterface(v), r.kt.schema, r.kt.ref, opts...)
	if err != nil {
		return nil, invalid(err, live)
	}
	return tv, nil
}

func invalid(err error, live bool) error {
	out := &InvalidError{Live: live}
	var verrs typed.ValidationErrors
	if errors.As(err, &verrs) {
		for _, ve := range verrs {
			out.Errors = append(out.Errors, FieldError{Path: ve.Path, Msg: withoutValue(ve.ErrorMessage)})
		}
	} else {
		out.Errors = []FieldError{{Msg: withoutValue(err.Error())}}
	}
	return out
}

// updater is the engine with the request's rules: other versions'
// entries compared as the kind is at their version, and status neither
// owned nor compared when the kind has a status subresource.
func (r *request) updater() *merge.Updater {
	var ignore map[smdfieldpath.APIVersion]smdfieldpath.Filter
	if r.status {
		ignore = map[smdfieldpath.APIVersion]smdfieldpath.Filter{}
		filter := smdfieldpath.NewExcludeSetFilter(smdfieldpath.NewSet(smdfieldpath.MakePathOrDie("status")))
		ignore[smdfieldpath.APIVersion(r.version)] = filter
		for _, vs := range r.managers {
			ignore[vs.APIVersion()] = filter
		}
	}
	return (&merge.UpdaterBuilder{Converter: versions{r}, IgnoreFilter: ignore}).BuildUpdater()
}

// update records what an Update by manager changed from live to obj,
// as the API server's field manager does: the changed fields are a
// temporary manager's first (taken from whoever owned them), then joined
// to the manager's entry for this apiVersion, stamped when it got any.
func (r *request) update(live, obj *typed.TypedValue, manager string) error {
	const current = "current-operation"
	_, managers, err := r.updater().Update(live, obj, smdfieldpath.APIVersion(r.version), r.managers.Copy(), current)
	if err != nil {
		return fmt.Errorf("recording the update's fields: %w", err)
	}
	r.managers = managers
	r.strip(current)
	id := identity(manager, OpUpdate, r.version, "")
	if vs, ok := r.managers[current]; ok {
		delete(r.managers, current)
		set := vs.Set()
		if prev, ok := r.managers[id]; ok {
			set = set.Union(prev.Set())
		}
		r.managers[id] = smdfieldpath.NewVersionedSet(set, vs.APIVersion(), false)
		r.entry(id, r.managers[id]).Time = timeRef(r.opts.now())
	}
	return r.capUpdates()
}

// strip takes the object's identity and system metadata out of a
// manager's fields, and the manager out when nothing is left.
func (r *request) strip(id string) {
	vs, ok := r.managers[id]
	if !ok {
		return
	}
	set := vs.Set().Difference(stripped)
	if set.Empty() {
		delete(r.managers, id)
		return
	}
	r.managers[id] = smdfieldpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
}

// entry returns the entry of a manager's identity, made from the identity
// when it is new.
func (r *request) entry(id string, vs smdfieldpath.VersionedSet) *Entry {
	en := r.entries[id]
	if en == nil {
		en = &Entry{}
		var who struct {
			Manager     string `json:"manager"`
			Operation   string `json:"operation"`
			Subresource string `json:"subresource"`
		}
		json.Unmarshal([]byte(id), &who) //nolint:errcheck // identities are made by identity()
		en.Manager, en.Operation, en.Subresource = who.Manager, Operation(who.Operation), who.Subresource
		r.entries[id] = en
	}
	en.APIVersion = string(vs.APIVersion())
	return en
}

// capUpdates merges the oldest Update entries (by time, then identity)
// into one "ancient-changes" entry per apiVersion until at most ten are
// left.
func (r *request) capUpdates() error {
	var updates []string
	for id, vs := range r.managers {
		if !vs.Applied() {
			updates = append(updates, id)
		}
	}
	if len(updates) <= maxUpdateManagers {
		return nil
	}
	secs := func(id string) int64 {
		if en := r.entries[id]; en != nil && en.Time != nil {
			return en.Time.Unix()
		}
		return 0
	}
	sort.Slice(updates, func(i, j int) bool {
		if a, b := secs(updates[i]), secs(updates[j]); a != b {
			return a < b
		}
		return updates[i] < updates[j]
	})
	first := map[string]string{} // version: the first entry of it merged
	left := len(updates)
	for _, id := range updates {
		if left <= maxUpdateManagers {
			break
		}
		vs := r.managers[id]
		version := string(vs.APIVersion())
		bucket := identity("ancient-changes", OpUpdate, version, "")
		f, ok := first[version]
		if !ok {
			first[version] = id
			continue
		}
		if _, made := r.managers[bucket]; !made {
			fv := r.managers[f]
			delete(r.managers, f)
			r.managers[bucket] = fv
			r.entry(bucket, fv).Time = r.entries[f].Time
		}
		b := r.managers[bucket]
		r.managers[bucket] = smdfieldpath.NewVersionedSet(b.Set().Union(vs.Set()), b.APIVersion(), false)
		delete(r.managers, id)
		r.entries[bucket].Time = r.entries[id].Time
		left--
	}
	return nil
}

// finish makes the stored object: out with the live object's status when
// the kind has a status subresource, the system metadata kept, and the
// managers written as its managedFields. When that changes nothing but
// the times of the managedFields entries, it is the live object, as the
// API server leaves an object a write does not change.
func (r *request) finish(live *yaml.Node, liveVal, out map[string]any) (*Result, error) {
	out = without(out, "")
	if r.status {
		if st, ok := liveVal["status"]; ok {
			out["status"] = st
		} else {
			delete(out, "status")
		}
	}
	md, _ := out["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
	} else {
		md = copyMap(md)
	}
	liveMD, _ := liveVal["metadata"].(map[string]any)
	for _, k := range systemMeta {
		if v, ok := liveMD[k]; ok {
			md[k] = v
		} else {
			delete(md, k)
		}
	}
	if g, ok := liveMD["generation"].(int64); ok && !sameButMeta(liveVal, out, r.status) {
		md["generation"] = g + 1
	}
	var entries []*Entry
	for id, vs := range r.managers {
		en := r.entry(id, vs)
		en.Operation = OpUpdate
		if vs.Applied() {
			en.Operation = OpApply
		}
		en.fields = vs.Set()
		entries = append(entries, en)
	}
	sortEntries(entries)
	mf, err := encodeManaged(entries)
	if err != nil {
		return nil, err
	}
	if mf != nil {
		md["managedFields"] = mf
	}
	if len(md) > 0 {
		out["metadata"] = md
	}
	if live != nil && sameButTimes(r.liveEntries, entries) && equalValues(without(out, ""), liveVal) {
		// nothing but times changed: the API server keeps the old times
		// (and so writes nothing)
		for i, en := range entries {
			en.Time = r.liveEntries[i].Time
		}
		if mf, err = encodeManaged(entries); err != nil {
			return nil, err
		}
		if mf != nil {
			md["managedFields"] = mf
		}
	}
	res := &Result{Object: toNode(out), Managed: entries}
	res.Changed = live == nil || !tree.Equal(tree.Deref(live), res.Object)
	return res, nil
}

func equalValues(a, b any) bool {
	return value.Equals(value.NewValueInterface(a), value.NewValueInterface(b))
}

// sameButMeta reports whether two objects are the same but for their
// metadata (and status, which has its own subresource).
func sameButMeta(a, b map[string]any, status bool) bool {
	skip := func(k string) bool { return k == "metadata" || status && k == "status" }
	for k, v := range a {
		if skip(k) {
			continue
		}
		w, ok := b[k]
		if !ok || !value.Equals(value.NewValueInterface(v), value.NewValueInterface(w)) {
			return false
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok && !skip(k) {
			return false
		}
	}
	return true
}

func copyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func timeRef(t time.Time) *time.Time { return &t }

// versions converts typed values between the versions of a kind for the
// engine, which compares another version's entries with the object at
// that version: offline there is no conversion, so the object is typed
// with the kind's schema at that version when the schema has it, and
// taken as it is otherwise (most kinds have the same fields in every
// version that is still served).
type versions struct{ r *request }

// Convert types tv with the schema of the kind at version.
func (v versions) Convert(tv *typed.TypedValue, version smdfieldpath.APIVersion) (*typed.TypedValue, error) {
	if string(version) == v.r.version {
		return tv, nil
	}
	kt, err := v.r.e.kindType(string(version), v.r.kind)
	if err != nil || kt == v.r.kt {
		return tv, nil
	}
	return typed.AsTyped(tv.AsValue(), kt.schema, kt.ref)
}

// IsMissingVersionError reports whether err is a version the kind lacks:
// never, since Convert takes such an object as it is.
func (v versions) IsMissingVersionError(error) bool { return false }

// lastAppliedSet returns the fields of the last client-side apply that
// still have the value it gave them: a "kubectl" apply takes them over
// without conflict. nil when there is no such annotation, it is not JSON
// (a YAML annotation gives no takeover) of an object of the live object's
// kind and version (a key given twice in it takes its last value, as JSON
// decoders do), or the live object holds a keyed list with two entries of
// one key (which updates may store; the API server then gives no such
// takeover either: FuzzSSA's find 5e49ac67cfbf7b2a, 2026-11-30).
func (r *request) lastAppliedSet(liveVal map[string]any) *smdfieldpath.Set {
	liveTV, err := r.typed(liveVal, false)
	if err != nil {
		return nil
	}
	md, _ := liveVal["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	text, _ := ann[lastApplied].(string)
	if text == "" {
		return nil
	}
	// the annotation is read as JSON only (a YAML one gives no takeover),
	// a key given twice taking its last value
	if !json.Valid([]byte(text)) {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return nil
	}
	canon, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	// nested as deep as JSON decoders take (json.Valid has bounded it),
	// not tree.Read's default of 512 levels: the API server takes over
	// the fields of an annotation nested a thousand levels deep
	limits := tree.DefaultLimits()
	limits.MaxDepth = 0
	st, err := tree.Read(canon, tree.Options{Limits: &limits})
	if err != nil || len(st.Docs) != 1 {
		return nil
	}
	v, err := toValue(tree.Root(st.Docs[0]), 0)
	obj, ok := v.(map[string]any)
	if err != nil || !ok || obj["apiVersion"] != r.version || obj["kind"] != r.kind {
		return nil
	}
	lastTV, err := r.typed(obj, false)
	if err != nil {
		return nil
	}
	set, err := lastTV.ToFieldSet()
	if err != nil {
		return nil
	}
	cmp, err := lastTV.Compare(liveTV)
	if err != nil {
		return nil
	}
	return set.Difference(cmp.Modified).Difference(cmp.Added).Difference(cmp.Removed)
}

// keepLastApplied rewrites the stored object's last-applied annotation,
// when it has one, to the applied configuration (without that
// annotation), as JSON as kubectl writes it; the annotation is dropped
// when the annotations would outgrow what an object may hold.
func (r *request) keepLastApplied(out map[string]any, config *yaml.Node) map[string]any {
	md, _ := out["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	if s, _ := ann[lastApplied].(string); s == "" {
		return out
	}
	v, err := toValue(tree.Deref(config), 0)
	if err != nil {
		return out
	}
	cfg := without(v.(map[string]any), "")
	if cmd, ok := cfg["metadata"].(map[string]any); ok {
		if cann, ok := cmd["annotations"].(map[string]any); ok {
			cann = copyMap(cann)
			delete(cann, lastApplied)
			cmd = copyMap(cmd)
			cmd["annotations"] = cann
			cfg["metadata"] = cmd
		}
	}
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(cfg); err != nil {
		return out
	}
	ann = copyMap(ann)
	ann[lastApplied] = b.String()
	size := 0
	for k, v := range ann {
		s, _ := v.(string)
		size += len(k) + len(s)
	}
	if size > maxAnnotations {
		delete(ann, lastApplied)
	}
	md = copyMap(md)
	md["annotations"] = ann
	out = copyMap(out)
	out["metadata"] = md
	return out
}

// conflictError turns the engine's conflicts into the error, each with
// the applied configuration's node at its place.
func (r *request) conflictError(cs merge.Conflicts, config *yaml.Node) *ConflictError {
	root := tree.Deref(config)
	str := func(n *yaml.Node, k string) string {
		if v := tree.Deref(tree.MapGet(n, k)); v != nil && v.Kind == yaml.ScalarNode {
			return v.Value
		}
		return ""
	}
	md := tree.MapGet(root, "metadata")
	out := &ConflictError{APIVersion: r.version, Kind: r.kind, Namespace: str(md, "namespace"), Name: str(md, "name")}
	for _, c := range cs {
		var who struct {
			Manager     string `json:"manager"`
			Operation   string `json:"operation"`
			APIVersion  string `json:"apiVersion"`
			Subresource string `json:"subresource"`
		}
		if err := json.Unmarshal([]byte(c.Manager), &who); err != nil {
			who.Manager = c.Manager
		}
		out.Conflicts = append(out.Conflicts, Conflict{Manager: who.Manager, Operation: Operation(who.Operation),
			APIVersion: who.APIVersion, Subresource: who.Subresource, Path: c.Path.String(),
			Node: r.find(root, c.Path), path: c.Path, identity: c.Manager})
	}
	sortConflicts(out.Conflicts)
	return out
}

// KindSchema returns the server-side apply schema of a kind, as the
// engine types its objects: structured-merge-diff's schema and the
// reference to the kind's type in it. (The conformance module compares
// it with the schemas the API server uses.)
func (e *Engine) KindSchema(apiVersion, kind string) (*smdschema.Schema, smdschema.TypeRef, error) {
	kt, err := e.kindType(apiVersion, kind)
	if err != nil {
		return nil, smdschema.TypeRef{}, err
	}
	return kt.schema, kt.ref, nil
}
