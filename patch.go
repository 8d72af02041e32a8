package kmerge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// PatchType is the type of a patch: change.PatchType, the one type of
// the concept (a change record's, a YAML patch list's). Patch and Diff
// take Strategic (its zero value), Merge and JSON; a field patch
// (change.FieldPatch) is package kpatch's.
type PatchType = change.PatchType

// The patch types Patch applies.
const (
	Strategic = change.StrategicPatch // a strategic merge patch
	Merge     = change.MergePatch     // a JSON merge patch (RFC 7396)
	JSON      = change.JSONPatch      // a JSON patch (RFC 6902): a list of operations
)

// PatchOptions control Patch and PatchObject. The zero value applies a
// strategic merge patch with the built-in schema.
type PatchOptions struct {
	Type PatchType
	// Schema gives the types of kinds; nil means schema.Builtin().
	Schema *schema.Schema
	// Definition is the type of documents that are not Kubernetes objects
	// (for example from Schema.Definition); nil: each document's type comes
	// from its apiVersion and kind.
	Definition *schema.Type
	// Fallback applies a strategic patch to a kind without a schema as a
	// JSON merge patch, instead of failing.
	Fallback bool
	// ListOrder orders lists that a patch orders with $setElementOrder.
	ListOrder smp.ListOrder
	// Output is the format of Patch's result; nil keeps the input's.
	Output *tree.Format
	// DocName and PatchName name the inputs in messages ("<stdin>",
	// "deploy.yaml"); empty: "document" and "patch".
	DocName, PatchName string
	// Limits bound what is read (and, with MaxExpanded, what a JSON
	// patch's copy operations add); nil: tree.DefaultLimits().
	Limits *tree.Limits
	// Validate checks every result against its schema (package validate):
	// validate.Strict makes a violation the patch wrote an error (the
	// joined *validate.Error of every such violation), validate.Warn
	// reports every violation to Warn. Violations a document had before
	// the patch are warnings in both. The zero value, validate.None,
	// checks nothing (the kmerge command's default is strict).
	Validate validate.Mode
	// Warn receives the violations that are not errors, in document
	// order; nil drops them.
	Warn func(*validate.Error)
	// Notify receives the warnings that are not schema violations: what
	// reading the patch and the document noticed (a %YAML directive of a
	// later 1.x version, read as 1.2: tree.Stream.Warnings); nil drops
	// them.
	Notify func(tree.Warning)
	// Deleted, when set, is told of each object a strategic patch whose
	// top level is $patch: delete removed (see Patch): where it was, and
	// what it was (apiVersion, kind, name).
	Deleted func(pos tree.Position, object string)
	// Thorough writes edited documents the long way, which gives the same
	// output: their text read back whatever their edits prove
	// (tree.Options.Whole; see ApplyOptions.Thorough). Every document is parsed either way: the
	// patch applies to each.
	Thorough bool
	// ShowSecrets shows the values of v1 Secrets (data and stringData) in
	// clear in messages: validation errors and warnings, and a JSON
	// patch's failed test. By default they are masked, as
	// ApplyPatchesOptions.ShowSecrets says. The result keeps its values either
	// way.
	ShowSecrets bool
}

// ErrNoSchema is wrapped by the error of a strategic patch on a document
// whose kind has no schema (a *NoSchemaError).
var ErrNoSchema = errors.New("no schema")

// NoSchemaError is the error of a strategic patch (or diff) on a document
// whose kind no schema knows, or that has no kind. It wraps ErrNoSchema.
type NoSchemaError struct {
	// APIVersion and Kind are the document's; Kind is "" for a document
	// without one (not a Kubernetes object).
	APIVersion, Kind string
}

// Error formats the error as "no schema for APIVERSION KIND", or "no
// schema: the document has no kind".
func (e *NoSchemaError) Error() string {
	if e.Kind == "" {
		return "no schema: the document has no kind"
	}
	return "no schema for " + strings.TrimSpace(e.APIVersion+" "+e.Kind)
}

// Unwrap returns ErrNoSchema.
func (e *NoSchemaError) Unwrap() error { return ErrNoSchema }

// Patch applies one patch (YAML or JSON, one document) to every document of
// doc (YAML or JSON, one or more documents) and returns the result. YAML
// output keeps the text of everything the patch did not change: comments,
// blank lines, quoting, indentation. An error applying the patch to one
// document is a *DocumentError.
//
// ctx is checked before each document (and each item of a List): once it
// is done, Patch returns ctx.Err() wrapped with the document it stopped
// before, and no output.
func Patch(ctx context.Context, doc, patch []byte, opts PatchOptions) ([]byte, error) {
	if opts.DocName == "" {
		opts.DocName = "document"
	}
	if opts.PatchName == "" {
		opts.PatchName = "patch" // the engines name the patch in errors and changes
	}
	ps, err := tree.Read(patch, tree.Options{File: opts.PatchName, Limits: opts.Limits})
	if err != nil {
		return nil, err
	}
	if len(ps.Docs) != 1 {
		return nil, fmt.Errorf("%s: a patch is one document, this has %d", opts.PatchName, len(ps.Docs))
	}
	if err := nullMergePatch(ps.Docs[0], opts); err != nil {
		return nil, err
	}
	if opts.Notify != nil {
		for _, w := range ps.Warnings {
			opts.Notify(w)
		}
	}
	if !opts.Thorough {
		if out, ok := patchParts(ctx, doc, ps.Docs[0], opts); ok {
			return out, nil
		}
	}
	out, _, err := patchStream(ctx, doc, ps.Docs[0], opts, streamPart{})
	return out, err
}

// patchPartBytes is the size of the parts Patch cuts a long stream in, as
// kmerge apply reads one (partBytes): each part is read, patched and
// written on its own, several at once, and let go of, so that a long
// stream costs about what its text and its output do, not the trees of
// all its documents.
const patchPartBytes = partBytes

// A streamPart is the place of the text patchStream patches in its
// stream: the line it starts at (0: it is the stream) and the style of
// the stream, the documents before it and in the whole stream.
type streamPart struct {
	line        int
	style       *tree.Style
	docs        int // in the part (tree.Part.Docs)
	base, total int
}

// patchParts patches a long YAML stream part by part (tree.SplitStream),
// and reports false when it does not: a stream not cut in parts, or one
// with an error, a violation or a limit crossed in some part, which is then
// patched whole, for the errors as that gives them. What the parts tell
// (warnings, violations, deletions) is told once they have all succeeded,
// in the order of the stream.
func patchParts(ctx context.Context, doc []byte, patch *yaml.Node, opts PatchOptions) ([]byte, bool) {
	parts, style := tree.SplitStream(doc, patchPartBytes)
	if parts == nil {
		return nil, false
	}
	limits := tree.DefaultLimits()
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	total := 0
	for _, p := range parts {
		total += p.Docs
	}
	if limits.MaxDocuments > 0 && total > limits.MaxDocuments {
		return nil, false
	}
	type told struct {
		notes   []tree.Warning
		warns   []*validate.Error
		deleted []func()
	}
	outs := make([][]byte, len(parts))
	tells := make([]told, len(parts))
	expanded := make([]int, len(parts))
	var failed atomic.Bool
	partLimits := limits
	partLimits.MaxDocuments = 0 // counted above, for the stream
	base := 0
	bases := make([]int, len(parts))
	for i, p := range parts {
		bases[i], base = base, base+p.Docs
	}
	parallel.For(len(parts), 0, func(i int) {
		if failed.Load() {
			return
		}
		t := &tells[i]
		po := opts
		po.Limits = &partLimits
		po.Notify = func(w tree.Warning) { t.notes = append(t.notes, w) }
		po.Warn = func(e *validate.Error) { t.warns = append(t.warns, e) }
		if opts.Deleted != nil {
			po.Deleted = func(pos tree.Position, object string) {
				t.deleted = append(t.deleted, func() { opts.Deleted(pos, object) })
			}
		}
		out, n, err := patchStream(ctx, parts[i].Text, patch, po, streamPart{line: parts[i].Line, style: &style, docs: parts[i].Docs, base: bases[i], total: total})
		if err != nil {
			failed.Store(true)
			return
		}
		outs[i], expanded[i] = out, n
	})
	if failed.Load() {
		return nil, false
	}
	sum := 0
	for _, n := range expanded {
		sum += n
	}
	if limits.MaxExpanded > 0 && sum > limits.MaxExpanded {
		return nil, false // what aliases add is limited for the stream
	}
	size := 0
	for i := range parts {
		size += len(outs[i])
	}
	out := make([]byte, 0, size)
	for i := range parts {
		out = append(out, outs[i]...)
		outs[i] = nil
		if opts.Notify != nil {
			for _, w := range tells[i].notes {
				opts.Notify(w)
			}
		}
		opts.warn(tells[i].warns)
		for _, d := range tells[i].deleted {
			d()
		}
	}
	return out, true
}

// patchStream patches every document of text, the stream doc or a part of
// it (part), and returns the result and what the stream's aliases added
// (tree.Stream.Expanded).
func patchStream(ctx context.Context, text []byte, patch *yaml.Node, opts PatchOptions, part streamPart) ([]byte, int, error) {
	docName, patchName := opts.DocName, opts.PatchName
	topts := tree.Options{File: docName, Limits: opts.Limits, Whole: opts.Thorough}
	if part.line > 0 {
		topts.Line, topts.Style = part.line, part.style
	}
	st, err := tree.Read(text, topts)
	if err != nil {
		return nil, 0, err
	}
	if part.line > 0 && len(st.Docs) != part.docs {
		// not the documents counted for it: the stream is patched whole
		return nil, 0, fmt.Errorf("%s: a part at line %d holds %d documents, not %d", docName, part.line, len(st.Docs), part.docs)
	}
	total := part.total
	if part.line == 0 {
		total = len(st.Docs)
	}
	if opts.Notify != nil {
		for _, w := range st.Warnings {
			opts.Notify(w)
		}
	}
	// taken before any change, so that what no patch touched is written
	// as its text (the preserving writer), deletions included
	st.Snapshot()
	if opts.Type == Strategic && deletesObjects(patch) {
		out, err := deleteObjects(ctx, st, patch, opts, part.base, total)
		return out, st.Expanded(), err
	}
	c := opts.checker()
	input := newRereader(text, docName, topts.Line, 0, opts.Limits)
	var invalid []error
	// one object: patched, checked, put back where it was
	patchOne := func(d *yaml.Node, i, item int, before func() *yaml.Node) (*yaml.Node, error) {
		if err := ctx.Err(); err != nil {
			where := fmt.Sprintf("document %d of %d", part.base+i+1, total)
			if item >= 0 {
				where += fmt.Sprintf(", items[%d]", item)
			}
			return nil, fmt.Errorf("%s: stopped before %s: %w", docName, where, err)
		}
		object := isObject(d)
		log := opts.changeLog()
		vals := opts.secretsBefore(d)
		res, err := patchDoc(d, patch, opts, log)
		if err != nil {
			de := newDocumentError(err, patchName, docName, part.base+i, total, d)
			de.Item = item
			de.masked = !opts.ShowSecrets && secret.Object(d) // the patch's line may set its values
			return nil, opts.secretsAfter(vals, d, patch).Error(de)
		}
		vals = opts.secretsAfter(vals, res, patch)
		errs, warns := c.check(res, object, docName, objectName(res), vals,
			func() []validate.Violation { return c.violations(before(), object) },
			func() []validate.Change { return validate.Changes(log.Changes) })
		for _, e := range errs {
			invalid = append(invalid, e)
		}
		opts.warn(warns)
		return res, nil
	}
	for i, d := range st.Docs {
		if !holdsObject(d, docName, part.base+i, total, opts.Notify) {
			continue // written as it was read
		}
		// The items of a List are the objects, as kubectl reads them
		// (and as kmerge apply patches them): each gets the patch.
		items, err := resource.ListItems(tree.Root(d), docName)
		if err != nil {
			return nil, 0, err
		}
		if items == nil {
			if st.Docs[i], err = patchOne(d, i, -1, func() *yaml.Node { return input.doc(i) }); err != nil {
				return nil, 0, err
			}
			continue
		}
		for j, it := range items.Content {
			res, err := patchOne(it, i, j, func() *yaml.Node { return input.item(i, j) })
			if err != nil {
				return nil, 0, err
			}
			items.Content[j] = tree.Root(res)
		}
	}
	if len(invalid) > 0 {
		return nil, 0, errors.Join(invalid...)
	}
	out, err := writeStream(st, opts)
	return out, st.Expanded(), err
}

// writeStream writes a patched stream in the format opts ask (nil: its
// own).
func writeStream(st *tree.Stream, opts PatchOptions) ([]byte, error) {
	format := st.Format
	if opts.Output != nil {
		format = *opts.Output
	}
	var out bytes.Buffer
	var err error
	if format == tree.JSON {
		err = st.WriteJSON(&out)
	} else {
		err = st.WriteYAML(&out)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opts.DocName, err)
	}
	return out.Bytes(), nil
}

// holdsObject reports whether document i of n, of the file docName, is
// one Patch patches: a mapping. The others pass through untouched, for
// every type of patch: an empty document (nothing after "---", or
// comments only: helm writes one for every template that renders nothing,
// and kubectl skips them) silently, a scalar or an array with a warning
// to notify (nil: none), since no patch of an object applies to it.
func holdsObject(d *yaml.Node, docName string, i, n int, notify func(tree.Warning)) bool {
	root := tree.Root(d)
	if root != nil && root.Kind == yaml.MappingNode {
		return true
	}
	if root == nil || root.Kind == yaml.ScalarNode && root.Tag == "!!null" && root.Value == "" {
		return false
	}
	if notify != nil {
		notify(tree.Warning{Pos: tree.Position{File: docName, Line: root.Line, Column: root.Column},
			Msg: fmt.Sprintf("document %d of %d is %s, not an object: no patch applies to it, it is written as it is", i+1, n, kindPhrase(tree.KindOf(root)))})
	}
	return false
}

// kindPhrase names a kind with its article: "an array", "a string".
func kindPhrase(k tree.Kind) string {
	switch k {
	case tree.Null:
		return "null"
	case tree.Array, tree.Object, tree.Int:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// deletesObjects reports whether a strategic patch's top level is
// $patch: delete: kustomize's patch that deletes the object it targets.
func deletesObjects(patch *yaml.Node) bool {
	d := tree.MapGet(tree.Root(patch), "$patch")
	return d != nil && d.Kind == yaml.ScalarNode && d.Value == "delete"
}

// nullMergePatch refuses a merge patch that is null: RFC 7396 makes the
// result null, which is no object (and no way to delete one here).
func nullMergePatch(patch *yaml.Node, opts PatchOptions) error {
	root := tree.Root(patch)
	if opts.Type != Merge || root == nil || tree.KindOf(root) != tree.Null {
		return nil
	}
	return &tree.SyntaxError{Pos: tree.Position{File: opts.PatchName, Line: root.Line, Column: root.Column},
		Msg: "a merge patch that is null makes each object null (RFC 7396), which is no object: to delete objects, give a strategic patch whose top level is $patch: delete"}
}

// deleteObjects applies a strategic patch whose top level is $patch:
// delete to the documents of st: the objects it picks are taken out (a
// document, or an item of a List), as kmerge apply and kustomize delete
// the object such a patch targets. The patch picks by the identity it
// names (apiVersion, kind, metadata.name, metadata.namespace: what it gives
// must match, as kustomize reads a patch's identity); one that names none
// picks every object. Documents that are not objects, and empty ones,
// stay. The result is what remains (nothing, when every document was
// deleted); opts.Deleted hears of each object deleted.
func deleteObjects(ctx context.Context, st *tree.Stream, patch *yaml.Node, opts PatchOptions, base, total int) ([]byte, error) {
	root := tree.Root(patch)
	meta := tree.MapGet(root, "metadata")
	want := [4]string{scalarField(root, "apiVersion"), scalarField(root, "kind"), scalarField(meta, "name"), scalarField(meta, "namespace")}
	picks := func(obj *yaml.Node) bool {
		if obj == nil || obj.Kind != yaml.MappingNode || !isObject(obj) {
			return false
		}
		m := tree.MapGet(obj, "metadata")
		got := [4]string{scalarField(obj, "apiVersion"), scalarField(obj, "kind"), scalarField(m, "name"), scalarField(m, "namespace")}
		for i := range want {
			if want[i] != "" && want[i] != got[i] {
				return false
			}
		}
		return true
	}
	tell := func(obj *yaml.Node) {
		if opts.Deleted != nil {
			opts.Deleted(tree.Position{File: opts.DocName, Line: obj.Line, Column: obj.Column}, objectName(obj))
		}
	}
	for i, d := range st.Docs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: stopped before document %d of %d: %w", opts.DocName, base+i+1, total, err)
		}
		obj := tree.Root(d)
		items, err := resource.ListItems(obj, opts.DocName)
		if err != nil {
			return nil, err
		}
		if items == nil {
			if picks(obj) {
				tell(obj)
				st.Remove(i)
			}
			continue
		}
		kept := items.Content[:0:0]
		for _, it := range items.Content {
			if picks(it) {
				tell(it)
				continue
			}
			kept = append(kept, it)
		}
		items.Content = kept
	}
	return writeStream(st, opts)
}

// PatchObject applies a patch to one object, a mapping node or a document
// node holding one (a kyaml RNode's YNode()). The object is edited in place
// where possible; use the node returned, which differs when the patch
// replaces the whole object. The patch is not modified.
//
// With opts.Validate, the object is checked before and after the patch; on
// a validation error the patched object is returned with the error.
func PatchObject(obj, patch *yaml.Node, opts PatchOptions) (*yaml.Node, error) {
	if opts.Validate == validate.None {
		vals := opts.secretsBefore(obj)
		res, err := patchDoc(obj, patch, opts, nil)
		if err != nil {
			return nil, opts.secretsAfter(vals, obj, patch).Error(err)
		}
		return res, nil
	}
	c := opts.checker()
	object := isObject(obj)
	before := c.violations(obj, object)
	log := opts.changeLog()
	vals := opts.secretsBefore(obj)
	res, err := patchDoc(obj, patch, opts, log)
	if err != nil {
		return nil, opts.secretsAfter(vals, obj, patch).Error(err)
	}
	vals = opts.secretsAfter(vals, res, patch)
	errs, warns := c.check(res, object, opts.DocName, objectName(res), vals,
		func() []validate.Violation { return before },
		func() []validate.Change { return validate.Changes(log.Changes) })
	opts.warn(warns)
	if len(errs) > 0 {
		invalid := make([]error, len(errs))
		for i, e := range errs {
			invalid[i] = e
		}
		return res, errors.Join(invalid...)
	}
	return res, nil
}

// secretsBefore returns the secret values of a document about to be
// patched (a v1 Secret), which messages about it mask: nil when it is no
// Secret, or opts.ShowSecrets.
func (opts PatchOptions) secretsBefore(doc *yaml.Node) *secret.Values {
	if opts.ShowSecrets {
		return nil
	}
	return secret.ValuesOf(doc)
}

// secretsAfter adds to vals (secretsBefore's) the secret values of the
// document once patched (doc), when it is or was a Secret, and those the
// patch gives it (it may have failed before writing them). Every message
// about the document masks them: its error, its violations.
func (opts PatchOptions) secretsAfter(vals *secret.Values, doc, patch *yaml.Node) *secret.Values {
	if opts.ShowSecrets {
		return nil
	}
	if vals == nil {
		if vals = secret.ValuesOf(doc); vals == nil {
			return nil
		}
	}
	vals.Observe(doc)
	vals.AddPatch(patch, opts.Type == JSON)
	return vals
}

func (opts PatchOptions) checker() checker {
	return checker{mode: opts.Validate, schema: opts.Schema, def: opts.Definition, showSecrets: opts.ShowSecrets}
}

func (opts PatchOptions) warn(warns []*validate.Error) {
	if opts.Warn != nil {
		for _, w := range warns {
			opts.Warn(w)
		}
	}
}

// changeLog returns a log for what a patch changes when the result is
// validated (violations are attributed to the changes that made them), nil
// otherwise: the engines then record nothing.
func (opts PatchOptions) changeLog() *change.Log {
	if opts.Validate == validate.None {
		return nil
	}
	return &change.Log{}
}

// patchDoc applies the patch to one document, recording what it changes in
// log (nil: nothing).
func patchDoc(doc, patch *yaml.Node, opts PatchOptions, log *change.Log) (*yaml.Node, error) {
	switch opts.Type {
	case Merge:
		return mergepatch.Apply(doc, patch, mergepatch.Options{File: opts.PatchName, Record: log})
	case JSON:
		jo := jsonpatch.Options{File: opts.PatchName, Record: log, ShowSecrets: opts.ShowSecrets}
		if opts.Limits != nil {
			jo.MaxExpanded = opts.Limits.MaxExpanded
			if jo.MaxExpanded <= 0 {
				jo.MaxExpanded = -1 // no limit
			}
		}
		return jsonpatch.Apply(doc, patch, jo)
	case Strategic:
	default:
		// a field patch is assignments, read by package kpatch; a
		// PatchType of no type is refused rather than read as strategic
		return nil, fmt.Errorf("%s: Patch applies strategic, merge and JSON patches, not a %s patch (kpatch applies field patches)", opts.PatchName, opts.Type)
	}
	if tree.Root(doc) == nil {
		return doc, nil // an empty document stays empty
	}
	typ, err := TypeOf(opts.Schema, opts.Definition, doc)
	if errors.Is(err, ErrNoSchema) && opts.Fallback {
		mp, err := smp.MergePatch(patch, opts.PatchName)
		if err != nil {
			return nil, err
		}
		return mergepatch.Apply(doc, mp, mergepatch.Options{File: opts.PatchName, Record: log})
	}
	if err != nil {
		return nil, err
	}
	return smp.Apply(doc, patch, typ, smp.Options{ListOrder: opts.ListOrder, File: opts.PatchName, Record: log})
}

// TypeOf returns the schema type of a document: def when given, else the
// type s (nil: the built-in schema) has for its apiVersion and kind. A
// document without one is a *NoSchemaError.
func TypeOf(s *schema.Schema, def *schema.Type, doc *yaml.Node) (*schema.Type, error) {
	if def != nil {
		return def, nil
	}
	if s == nil {
		s = schema.Builtin()
	}
	root := tree.Root(doc)
	apiVersion, kind := scalarField(root, "apiVersion"), scalarField(root, "kind")
	if kind == "" {
		return nil, &NoSchemaError{}
	}
	if t := s.Kind(apiVersion, kind); t != nil {
		return t, nil
	}
	return nil, &NoSchemaError{APIVersion: apiVersion, Kind: kind}
}

func scalarField(m *yaml.Node, key string) string {
	v := tree.MapGet(m, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}

// DocumentError is an error applying a patch to one document of a stream.
// Its message is the patch's error, which starts with the place in the
// patch when it knows it, then "while patching FILE (document i of n),
// OBJECT" on a line of its own.
type DocumentError struct {
	Err   error
	Patch string // the patch's name
	File  string // the stream's name
	Index int    // the document, from 0
	Count int    // the documents in the stream
	// Item is the item of a List document the error is about, from 0
	// (the document's items are the objects patched); -1 for the
	// document itself.
	Item int
	// Object names the Kubernetes object ("apps/v1 Deployment web"), or "".
	Object string

	masked bool // the object is a v1 Secret: see Masked
}

// Masked reports whether the line of the patch the error points at may
// hold a secret value, and is best quoted masked (package secret): the
// document patched is a v1 Secret (unless PatchOptions.ShowSecrets), whose
// values the patch's lines set, or the patch's error says so.
func (e *DocumentError) Masked() bool { return e.masked || secret.InError(e.Err) }

func newDocumentError(err error, patchName, file string, i, n int, doc *yaml.Node) *DocumentError {
	return &DocumentError{Err: err, Patch: patchName, File: file, Index: i, Count: n, Item: -1, Object: objectName(doc)}
}

// objectName names the object of a document: "apps/v1 Deployment web", or
// "" when it has no kind.
func objectName(doc *yaml.Node) string {
	root := tree.Root(doc)
	k := scalarField(root, "kind")
	if k == "" {
		return ""
	}
	what := scalarField(root, "apiVersion") + " " + k
	if name := scalarField(tree.MapGet(root, "metadata"), "name"); name != "" {
		what += " " + name
	}
	return strings.TrimSpace(what)
}

// Error formats the error, then "while patching FILE (document i of n),
// items[j] (an item of a List), OBJECT" on a line of its own.
func (e *DocumentError) Error() string {
	where := e.File
	if e.Count > 1 {
		where = fmt.Sprintf("%s (document %d of %d)", e.File, e.Index+1, e.Count)
	}
	if e.Item >= 0 {
		where += fmt.Sprintf(", items[%d]", e.Item)
	}
	if e.Object != "" {
		where += ", " + e.Object
	}
	return fmt.Sprintf("%s\n  while patching %s", e.Err, where)
}

// Unwrap returns the error of the patch.
func (e *DocumentError) Unwrap() error { return e.Err }

// MaskSecrets returns a copy of the error as messages show it about a
// document whose values are secret (secret.Values.Error): the patch's
// error and the object's name masked, and Masked.
func (e *DocumentError) MaskSecrets(v *secret.Values) error {
	c := *e
	c.Err = v.Error(e.Err)
	c.Object = v.Text(e.Object)
	c.masked = true
	return &c
}

// Position returns the place in the patch the error is about, when the
// patch's error knows it (the zero Position otherwise).
func (e *DocumentError) Position() tree.Position {
	var pe tree.PositionedError
	if errors.As(e.Err, &pe) {
		return pe.Position()
	}
	return tree.Position{}
}

var _ tree.PositionedError = (*DocumentError)(nil)

// LoadSchemas returns the built-in schema extended by the
// CustomResourceDefinitions and OpenAPI v2/v3 documents in files (earlier
// files win, as schema.Extend says).
func LoadSchemas(files []string) (*schema.Schema, error) {
	s := schema.Builtin()
	for _, file := range files {
		more, err := schema.LoadFile(file)
		if err != nil {
			return nil, err
		}
		s = s.Extend(more)
	}
	return s, nil
}
