package smp

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// Reason classifies why a patch was rejected.
type Reason string

// The reasons a patch is rejected. Every rejection upstream makes has one
// of them; the conformance tests map upstream's messages onto these.
const (
	// ReasonDocument: the document or the patch is not an object.
	ReasonDocument Reason = "document"
	// ReasonDirective: a $patch value other than replace or delete (or merge
	// in a list), or a directive key that is not well formed.
	ReasonDirective Reason = "directive"
	// ReasonRetainKeys: $retainKeys is not a list, or the patch sets a field
	// the list does not name.
	ReasonRetainKeys Reason = "retainKeys"
	// ReasonSetElementOrder: $setElementOrder is not a list, or the patch
	// list does not follow its order.
	ReasonSetElementOrder Reason = "setElementOrder"
	// ReasonMergeKey: a list of objects has no merge key, an item lacks the
	// merge key, or a merge key value is an object or an array.
	ReasonMergeKey Reason = "mergeKey"
	// ReasonListItems: lists of lists, items of different types, null items.
	ReasonListItems Reason = "listItems"
	// ReasonSchema: the schema cannot say how to patch a field (unknown
	// field, field below a map or a scalar, invalid patch strategy).
	ReasonSchema Reason = "schema"
	// ReasonType: a value has the wrong type for where it is (a directive
	// list that is an object, a list the document holds as a scalar, ...).
	ReasonType Reason = "type"
	// ReasonNoSchema: a directive on an object whose kind has no schema,
	// which the merge patch a strategic patch falls back to cannot honour
	// (MergePatch); Error.Directive names it. Upstream has no such
	// fallback: it is kmerge's.
	ReasonNoSchema Reason = "noSchema"
)

// Error reports a rejected patch.
type Error struct {
	Reason Reason
	// Path is where in the document, e.g.
	// spec.template.spec.containers[name=app].env.
	Path fieldpath.Path
	// Pos is the patch value at fault: the patch's name (Options.File),
	// line and column; Line is 0 when unknown.
	Pos tree.Position
	Msg string
	// Directive is, for ReasonNoSchema, the directive at fault: a key
	// ("$retainKeys", "$setElementOrder/containers") or $patch with its
	// value ("$patch: delete"); "" for other reasons.
	Directive string
}

// Error formats the error as "file:line:col: path: message" (the parts
// that are unknown left out).
func (e *Error) Error() string { return fieldpath.Message(e.Pos, e.Path, e.Msg) }

// Position returns the place in the patch the error is about.
func (e *Error) Position() tree.Position { return e.Pos }

var _ tree.PositionedError = (*Error)(nil)

func (a *applier) errorf(reason Reason, at *yaml.Node, format string, args ...any) error {
	e := &Error{Reason: reason, Path: a.path.Append(), Pos: tree.Position{File: a.opts.File}, Msg: fmt.Sprintf(format, args...)}
	if at != nil {
		e.Pos.Line, e.Pos.Column = at.Line, at.Column
	}
	return e
}

func (a *applier) push(field string)            { a.path = append(a.path, fieldpath.Field(field)) }
func (a *applier) pushItem(e fieldpath.Element) { a.path = append(a.path, e) }
func (a *applier) pop()                         { a.path = a.path[:len(a.path)-1] }
