package jsonpatch

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// Reason classifies why a patch was rejected.
type Reason string

// The reasons a patch is rejected.
const (
	// ReasonInvalid: the patch is not a well-formed JSON patch, whatever the
	// document: it is not an array, an operation is not an object, a member
	// is missing, given twice or of the wrong type, the op is unknown, a
	// pointer is not a JSON pointer, or a move goes into its own child.
	ReasonInvalid Reason = "invalid"
	// ReasonTarget: a pointer does not lead to a location the operation can
	// use in this document: a member or an array item that does not exist, an
	// index out of range or not written as RFC 6901 wants it, "-" where an
	// existing item is needed, a step into a string, number, boolean or null,
	// or the removal of the whole document.
	ReasonTarget Reason = "target"
	// ReasonTest: a test operation found a value other than the one it gives.
	ReasonTest Reason = "test"
	// ReasonLimit: the copy operations would make the document too large
	// (see Apply).
	ReasonLimit Reason = "limit"
)

// Error reports a rejected patch. Error() gives the position, the operation
// and the problem, e.g.
//
//	patch.yaml:3:3: operation 2 (remove /spec/x): no member "x" in the object at /spec
type Error struct {
	// Reason classifies the error.
	Reason Reason
	// Index is the operation's place in the patch array, from 0 (the
	// operation is at the patch's JSON pointer "/Index"); -1 when the patch
	// as a whole is at fault (it is not an array).
	Index int
	// Op is the operation's op ("add", "remove", ...); "" when it has none
	// or an unknown one.
	Op string
	// Path and From are the operation's pointers as written, "" when the
	// operation does not have them (From is only set for move and copy).
	// "" is also the pointer to the whole document: HasPath and HasFrom tell.
	Path, From       string
	HasPath, HasFrom bool
	// Pos locates the operation (or the patch, when Index is -1): the
	// patch's name (Options.File), line and column, from 1; the line is 0
	// when unknown (a tree built by hand).
	Pos tree.Position
	// Msg says what is wrong and what to fix.
	Msg string

	masked bool // Msg masks a secret value (Options.ShowSecrets)
}

// Masked reports whether the message masks a secret value (a failed test
// of a Secret's data, Options.ShowSecrets): the patch's line the error
// points at may hold it too, and is best quoted masked.
func (e *Error) Masked() bool { return e.masked }

// Error formats the error as "operation N (op path): message", or as
// "operation N (move from to path): message"; an error about the patch as
// a whole (Index -1) is the message alone.
func (e *Error) Error() string {
	if e.Index < 0 {
		return e.Pos.String() + e.Msg
	}
	var b strings.Builder
	b.WriteString(e.Pos.String())
	b.WriteString("operation ")
	b.WriteString(strconv.Itoa(e.Index))
	if e.Op != "" {
		b.WriteString(" (")
		b.WriteString(e.Op)
		if e.HasFrom {
			b.WriteString(" ")
			b.WriteString(showPointer(e.From))
			b.WriteString(" to")
		}
		if e.HasPath {
			b.WriteString(" ")
			b.WriteString(showPointer(e.Path))
		}
		b.WriteString(")")
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// Position returns the place in the patch the error is about.
func (e *Error) Position() tree.Position { return e.Pos }

var _ tree.PositionedError = (*Error)(nil)

// showPointer writes a pointer for a message: as it is, or quoted when it
// is empty (the whole document) or holds spaces, quotes or invisible
// characters that would make the message ambiguous.
func showPointer(p string) string {
	if p == "" || strings.ContainsFunc(p, func(r rune) bool {
		return r == '"' || r == '\\' || unicode.IsSpace(r) || !unicode.IsPrint(r)
	}) {
		return strconv.Quote(p)
	}
	return p
}

// errorf returns an error about operation o.
func (o *operation) errorf(reason Reason, format string, args ...any) *Error {
	e := &Error{
		Reason:  reason,
		Index:   o.index,
		Op:      o.op,
		Path:    o.path,
		HasPath: o.hasPath,
		Msg:     fmt.Sprintf(format, args...),
	}
	if o.op == "move" || o.op == "copy" {
		e.From, e.HasFrom = o.from, o.hasFrom
	}
	e.Pos.File = o.file
	if o.node != nil {
		e.Pos.Line, e.Pos.Column = o.node.Line, o.node.Column
	}
	return e
}

// patchError returns an error about the patch (named file) as a whole.
func patchError(file string, at *yaml.Node, format string, args ...any) *Error {
	e := &Error{Reason: ReasonInvalid, Index: -1, Pos: tree.Position{File: file}, Msg: fmt.Sprintf(format, args...)}
	if at != nil {
		e.Pos.Line, e.Pos.Column = at.Line, at.Column
	}
	return e
}
