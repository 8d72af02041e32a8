package smp

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
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
)

// Error reports a rejected patch.
type Error struct {
	Reason Reason
	Path   string // where in the document, e.g. spec.template.spec.containers[name=app].env
	Line   int    // line of the patch value at fault, 0 if unknown
	Column int
	Msg    string
}

// Error formats the error as "path: message".
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// pathSeg is one step of a document path.
type pathSeg struct {
	field string // a field name, or
	item  string // a list item: "name=app" or an index
}

func formatPath(segs []pathSeg) string {
	var b strings.Builder
	for _, s := range segs {
		if s.item != "" {
			b.WriteString("[" + s.item + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if strings.ContainsAny(s.field, ".[]") || s.field == "" {
			fmt.Fprintf(&b, "%q", s.field)
		} else {
			b.WriteString(s.field)
		}
	}
	return b.String()
}

func (a *applier) errorf(reason Reason, at *yaml.Node, format string, args ...any) error {
	e := &Error{Reason: reason, Path: formatPath(a.path), Msg: fmt.Sprintf(format, args...)}
	if at != nil {
		e.Line, e.Column = at.Line, at.Column
	}
	return e
}

func (a *applier) push(field string) { a.path = append(a.path, pathSeg{field: field}) }
func (a *applier) pushItem(item string) {
	a.path = append(a.path, pathSeg{item: item})
}
func (a *applier) pop() { a.path = a.path[:len(a.path)-1] }
