package syntax

import (
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/tree"
)

// Error is a problem in a patch file or in applying it, at a position of
// the patch file: parsing gives it, and so does package kpatch.
type Error struct {
	Pos tree.Position
	Msg string
	// ValuesFile is set when a file read as a YAML patch list is a
	// mapping, as a values file is (a values file among the patch files),
	// so that a caller can say how to give values.
	ValuesFile bool
	// Limit names the limit a file went over ("line"), "" for other
	// errors.
	Limit string
	// Undefined names the variable ("values.replicas", "features.beta")
	// of an error about an undefined variable, "" for other errors.
	Undefined string
	// Err is the error a strategic, merge or JSON patch failed with (an
	// *smp.Error, *mergepatch.Error or *jsonpatch.Error), nil for other
	// errors.
	Err error
	// Secret is set by package kpatch when the patch failed on a v1
	// Secret, whose values its lines set (unless its Options.ShowSecrets):
	// see Masked.
	Secret bool
}

// Masked reports whether the line of the patch the error points at may
// hold a secret value, and is best quoted masked (package secret): the
// patch failed on a v1 Secret (Secret), or the error it wraps says so (a
// JSON patch's failed test of a Secret's value).
func (e *Error) Masked() bool { return e.Secret || secret.InError(e.Err) }

// Error formats the error as "file:line:col: message".
func (e *Error) Error() string { return e.Pos.String() + e.Msg }

// Position returns the place in the patch file the error is about.
func (e *Error) Position() tree.Position { return e.Pos }

var _ tree.PositionedError = (*Error)(nil)

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }
