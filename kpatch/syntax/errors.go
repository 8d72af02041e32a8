package syntax

import (
	"errors"

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

	masked bool // the patch was applied to a v1 Secret: see Masked
}

// Masked reports whether the line of the patch the error points at may
// hold a secret value, and is best quoted masked (package secret): the
// patch failed on a v1 Secret (unless Options.ShowSecrets), where its
// lines set the Secret's values, or the error it wraps says so (a JSON
// patch's failed test of a Secret's value).
func (e *Error) Masked() bool { return e.masked || secret.InError(e.Err) }

// maskedError returns err (an *Error, or several joined, as KeepGoing
// gathers them) with its *Errors marked Masked; copies, as a patch's
// errors may be shared.
func maskedError(err error) error {
	switch e := err.(type) {
	case *Error:
		c := *e
		c.masked = true
		return &c
	case interface{ Unwrap() []error }:
		errs := e.Unwrap()
		out := make([]error, len(errs))
		for i, x := range errs {
			out[i] = maskedError(x)
		}
		return errors.Join(out...)
	}
	return err
}

// Error formats the error as "file:line:col: message".
func (e *Error) Error() string { return e.Pos.String() + e.Msg }

// Position returns the place in the patch file the error is about.
func (e *Error) Position() tree.Position { return e.Pos }

var _ tree.PositionedError = (*Error)(nil)

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }
