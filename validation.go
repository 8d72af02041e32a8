package kmerge

import (
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// checker validates patched objects: one per run, for every object the
// run patched.
type checker struct {
	mode   validate.Mode
	schema *schema.Schema
	def    *schema.Type // the type of documents that are not Kubernetes objects, when given
	// showSecrets describes the values of Secrets in clear; by default a
	// violation of one shows it masked (internal/secret)
	showSecrets bool
}

// violations returns what is wrong with a document: against the
// definition when there is one, else as a Kubernetes object when it is
// one (see isObject); other documents have no schema to check.
func (c checker) violations(doc *yaml.Node, object bool) []validate.Violation {
	switch {
	case c.def != nil:
		return validate.Value(doc, c.def)
	case object:
		return validate.Object(doc, c.schema)
	}
	return nil
}

// isObject reports whether a document, as it was read, is a Kubernetes
// object: a mapping with an apiVersion or a kind. It is asked before the
// patch, so that a patch deleting both is reported rather than taken for
// turning the object into something else.
func isObject(doc *yaml.Node) bool {
	root := tree.Root(doc)
	return root != nil && (tree.MapGet(root, "apiVersion") != nil || tree.MapGet(root, "kind") != nil)
}

// check validates a patched object and splits its violations into errors
// (they fail the run) and warnings, as the mode says (validate.Mode.Fails).
// Unless showSecrets, their texts mask the object's secret values: vals,
// what the run gathered of them (kpatch.Run.Secrets), or, when nil, those
// of obj as it is.
// before returns the violations of the object as it was read, changes what
// the patches did to it; they are called only when the result has
// violations, to attribute them (validate.Attribute). file and object name
// it in messages.
func (c checker) check(obj *yaml.Node, object bool, file, name string, vals *secret.Values, before func() []validate.Violation, changes func() []validate.Change) (errs, warns []*validate.Error) {
	if c.mode == validate.None {
		return nil, nil
	}
	vs := c.violations(obj, object)
	if len(vs) == 0 {
		return nil, nil
	}
	validate.Attribute(vs, changes(), before())
	if !c.showSecrets {
		if vals == nil {
			vals = secret.ValuesOf(obj)
		}
		validate.MaskValues(vs, vals)
		name = vals.Text(name)
	}
	for _, v := range vs {
		e := &validate.Error{File: file, Object: name, Violation: v}
		if c.mode.Fails(v) {
			errs = append(errs, e)
		} else {
			warns = append(warns, e)
		}
	}
	return errs, warns
}

// rereader reads a file's input again, once, to check objects as they were
// before the patches: only a run that finds violations pays for it.
type rereader struct {
	once   sync.Once
	data   []byte
	file   string
	line   int // the line data starts at in the file (a part of it)
	column int // the columns before each line of data in the file
	limits *tree.Limits
	docs   []*yaml.Node
}

func newRereader(data []byte, file string, line, column int, limits *tree.Limits) *rereader {
	return &rereader{data: data, file: file, line: line, column: column, limits: limits}
}

// doc returns document i of the input, nil when it cannot be read.
func (r *rereader) doc(i int) *yaml.Node {
	r.once.Do(func() {
		if st, err := tree.Read(r.data, tree.Options{File: r.file, Limits: r.limits, Line: r.line, Column: r.column}); err == nil {
			r.docs = st.Docs
		}
	})
	if i < 0 || i >= len(r.docs) {
		return nil
	}
	return r.docs[i]
}

// object returns the object r as it was read: its document, or the item
// of its List document.
func (rr *rereader) object(r *resource.Resource) *yaml.Node {
	if r.Item < 0 {
		return rr.doc(r.Doc)
	}
	return rr.item(r.Doc, r.Item)
}

// item returns item j of the List document i as it was read.
func (rr *rereader) item(i, j int) *yaml.Node {
	items := tree.MapGet(tree.Root(rr.doc(i)), "items")
	if items == nil || items.Kind != yaml.SequenceNode || j >= len(items.Content) {
		return nil
	}
	return items.Content[j]
}
