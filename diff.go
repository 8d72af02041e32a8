package kmerge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// DiffOptions control Diff. The zero value computes two-way strategic merge
// patches with the built-in schema, printed as YAML.
type DiffOptions struct {
	Type PatchType // Strategic or Merge
	// Current, when set, is the live object(s): Diff computes the
	// three-way patch kubectl apply sends, strategic or (Type Merge, or
	// Fallback for kinds without a schema) JSON merge.
	Current []byte
	// Overwrite lets a three-way patch undo changes made to the live object
	// since it was last applied; without it such a patch is a
	// *DiffConflictError.
	Overwrite bool
	// Extended gives items of lists with recommended merge keys a
	// $patchMergeKey directive (a kmerge extension).
	Extended   bool
	Schema     *schema.Schema // nil: schema.Builtin()
	Definition *schema.Type   // the type of documents that are not Kubernetes objects
	// Fallback diffs kinds without a schema as JSON merge patches.
	Fallback bool
	// JSON prints the patches as JSON, one after the other; else YAML
	// documents.
	JSON bool
	// Names of the original, modified and current inputs, for messages.
	Names [3]string
	// Limits bound what is read; nil: tree.DefaultLimits().
	Limits *tree.Limits
	// ShowSecrets shows the values of v1 Secrets (data, stringData) in
	// clear in a *DiffConflictError's message. By default they are masked
	// ("***"). The patches themselves always hold the values: they are
	// made to be applied.
	ShowSecrets bool
}

// Diff returns the patch that turns original into modified (two-way), or,
// with opts.Current, the patch that makes the live object what modified
// says (three-way). Streams of several documents are paired by object
// identity (apiVersion, kind, namespace, name) when every document is a
// distinct Kubernetes object, else by position; each patch is a document
// of the result, after a comment naming its object when there are several.
//
// ctx is checked before each pair of documents: once it is done, Diff
// returns ctx.Err() wrapped with the object it stopped before, and no
// patch.
func Diff(ctx context.Context, original, modified []byte, opts DiffOptions) ([]byte, error) {
	strategic := opts.Type == Strategic
	names := opts.Names
	for i, def := range []string{"original", "modified", "current"} {
		if names[i] == "" {
			names[i] = def
		}
	}
	inputs := [][]byte{original, modified}
	if opts.Current != nil {
		inputs = append(inputs, opts.Current)
	}
	var streams []*tree.Stream
	for i, data := range inputs {
		st, err := tree.Read(data, tree.Options{File: names[i], Limits: opts.Limits})
		if err != nil {
			return nil, err
		}
		streams = append(streams, st)
	}
	pairs, err := pairDocuments(streams, names[:len(inputs)])
	if err != nil {
		return nil, err
	}
	var patches []*yaml.Node
	var labels []string
	for _, p := range pairs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: stopped before diffing it: %w", p.label, err)
		}
		var patch *yaml.Node
		typ, terr := TypeOf(opts.Schema, opts.Definition, p.docs[1])
		switch {
		case (!strategic || errors.Is(terr, ErrNoSchema) && opts.Fallback) && len(p.docs) == 3:
			patch, err = mergepatch.ThreeWayDiff(p.docs[0], p.docs[1], p.docs[2], opts.Overwrite)
		case !strategic || errors.Is(terr, ErrNoSchema) && opts.Fallback:
			patch = mergepatch.Diff(p.docs[0], p.docs[1])
		case terr != nil:
			return nil, fmt.Errorf("%s: %w", p.label, terr)
		case len(p.docs) == 3:
			patch, err = smp.CreateThreeWayPatch(p.docs[0], p.docs[1], p.docs[2], typ, opts.Overwrite, smp.DiffOptions{Extended: opts.Extended})
		default:
			patch, err = smp.CreateTwoWayPatch(p.docs[0], p.docs[1], typ, smp.DiffOptions{Extended: opts.Extended})
		}
		if err != nil {
			// an error about a Secret masks its values, by place and by
			// value (whatever the engine's message shows of them)
			var vals *secret.Values
			mask := !opts.ShowSecrets && slices.ContainsFunc(p.docs, secret.Object)
			if mask {
				vals = &secret.Values{}
				vals.Mark()
				for _, d := range p.docs {
					vals.Observe(d)
				}
			}
			var ce *change.LiveConflictError
			if errors.As(err, &ce) {
				return nil, vals.Error(&DiffConflictError{Object: p.label, Err: err, Mask: mask})
			}
			var ne *mergepatch.NotObjectError
			if errors.As(err, &ne) && ne.Pos.Line > 0 {
				ne.Pos.File = names[map[string]int{"original": 0, "modified": 1, "current": 2}[ne.Document]]
			}
			return nil, vals.Error(fmt.Errorf("%s: %w", p.label, err))
		}
		patches = append(patches, patch)
		labels = append(labels, p.label)
	}
	var out bytes.Buffer
	if opts.JSON {
		for _, p := range patches {
			b, err := tree.AppendJSON(nil, p, "    ")
			if err != nil {
				return nil, err
			}
			out.Write(b)
			out.WriteByte('\n')
		}
		return out.Bytes(), nil
	}
	docs := make([]*yaml.Node, len(patches))
	for i, p := range patches {
		docs[i] = &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{p}}
		if len(patches) > 1 {
			p.HeadComment = "patch for " + labels[i]
		}
	}
	if err := tree.WriteYAML(&out, streams[1].Style, docs...); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// DiffConflictError is a three-way patch that would undo changes made to
// the live object since it was last applied.
type DiffConflictError struct {
	Object string // the object's name, or "document N"
	// Err lists the conflicts: a *change.LiveConflictError (of a
	// strategic or a JSON merge patch).
	Err error
	// Mask says that the object is a v1 Secret whose values Error shows
	// masked (DiffOptions.ShowSecrets).
	Mask bool
}

// Error lists the conflicting paths, each with the patch's value and the
// live object's.
func (e *DiffConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the patch would undo changes made to the live object since it was last applied:", e.Object)
	conflict := func(where string, path fieldpath.Path, patch, changed *yaml.Node) {
		if e.Mask {
			patch, changed = secret.Value(patch, path), secret.Value(changed, path)
		}
		fmt.Fprintf(&b, "\n  %s\n    patch:   %s\n    changed: %s", where, short(patch), short(changed))
	}
	if ce, ok := e.Err.(*change.LiveConflictError); ok {
		for _, c := range ce.Conflicts {
			conflict(c.Where(), c.Path, c.Patch, c.Changed)
		}
		if ce.Err != nil {
			fmt.Fprintf(&b, "\n  (another path could not be compared: %v)", ce.Err)
		}
	}
	return b.String()
}

// Unwrap returns the *change.LiveConflictError.
func (e *DiffConflictError) Unwrap() error { return e.Err }

// short renders a value on one line, cut when long.
func short(n *yaml.Node) string {
	if n == nil {
		return "(nothing)"
	}
	b, err := tree.MarshalJSON(n)
	if err != nil {
		return "?"
	}
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}

// docPair holds the matching documents of the inputs (original, modified
// and, for a three-way diff, current).
type docPair struct {
	docs  []*yaml.Node
	label string
}

// identity names a Kubernetes object, or is "" for other documents.
func identity(doc *yaml.Node) string {
	root := tree.Root(doc)
	kind := scalarField(root, "kind")
	if kind == "" {
		return ""
	}
	meta := tree.MapGet(root, "metadata")
	name := scalarField(meta, "name")
	if ns := scalarField(meta, "namespace"); ns != "" {
		name = ns + "/" + name
	}
	return strings.TrimSpace(scalarField(root, "apiVersion") + " " + kind + " " + name)
}

// pairDocuments pairs the documents of the streams: by identity when every
// document is a named Kubernetes object, else by position.
func pairDocuments(streams []*tree.Stream, names []string) ([]docPair, error) {
	byIdentity := true
	for _, st := range streams {
		seen := map[string]bool{}
		for _, d := range st.Docs {
			id := identity(d)
			if id == "" || seen[id] {
				byIdentity = false
			}
			seen[id] = true
		}
	}
	if !byIdentity {
		n := len(streams[0].Docs)
		for i, st := range streams {
			if len(st.Docs) != n {
				return nil, fmt.Errorf("%s has %d documents and %s %d; documents that are not distinct Kubernetes objects are paired by position", names[0], n, names[i], len(st.Docs))
			}
		}
		pairs := make([]docPair, n)
		for i := range pairs {
			for _, st := range streams {
				pairs[i].docs = append(pairs[i].docs, st.Docs[i])
			}
			pairs[i].label = fmt.Sprintf("document %d", i+1)
			if id := identity(streams[1].Docs[i]); id != "" {
				pairs[i].label = id
			}
		}
		return pairs, nil
	}
	index := make([]map[string]*yaml.Node, len(streams))
	for i, st := range streams {
		index[i] = map[string]*yaml.Node{}
		for _, d := range st.Docs {
			index[i][identity(d)] = d
		}
	}
	var pairs []docPair
	for _, d := range streams[1].Docs {
		id := identity(d)
		p := docPair{label: id}
		for i := range streams {
			doc, ok := index[i][id]
			if !ok {
				doc = &yaml.Node{Kind: yaml.DocumentNode} // absent: an empty object
			}
			p.docs = append(p.docs, doc)
		}
		pairs = append(pairs, p)
	}
	for i, st := range streams {
		if i == 1 {
			continue
		}
		for _, d := range st.Docs {
			if _, ok := index[1][identity(d)]; !ok {
				return nil, fmt.Errorf("%s has %s, which %s lacks: a patch cannot delete an object", names[i], identity(d), names[1])
			}
		}
	}
	return pairs, nil
}
