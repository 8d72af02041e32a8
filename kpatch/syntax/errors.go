package syntax

import (
	"errors"
	"strings"

	"github.com/kmerge/kmerge/internal/match"
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
	// *smp.Error, *mergepatch.Error or *jsonpatch.Error), or the error
	// reading a file a kustomization names (a *kpatch.OutsideRootError,
	// a file that is not a regular file, ...), nil for other errors.
	Err error
	// Secret is set by package kpatch when the patch failed on a v1
	// Secret, whose values its lines set (unless its Options.ShowSecrets),
	// and by parsing, for an error in a section or a patch list's item
	// whose target may pick Secrets (any kind name that names them, a *
	// kind, a bare name): see Masked. The message of such an error does not
	// hold the line's value.
	Secret bool
}

// Masked reports whether the line of the patch the error points at may
// hold a secret value, and is best quoted masked (package secret): the
// patch failed on a v1 Secret (Secret), or the error it wraps says so (a
// JSON patch's failed test of a Secret's value).
func (e *Error) Masked() bool { return e.Secret || secret.InError(e.Err) }

// mayPickSecrets reports whether a target may pick v1 Secrets, whose
// values the lines of its patch set. A kind name picks Secrets when it is
// one of the built-in names of Secret (its kind, resource name and
// singular, in any letter case; it has no short names), qualified or not
// (a qualified name is not checked further: masking a line more than
// needed is safe), so that no schema is needed; apiVersion, group, version
// and kind's regular expressions are matched as package resource matches
// them (match.Compile). A target that does not compile may pick anything.
func mayPickSecrets(t Target) bool {
	if t.ID {
		return t.APIVersion == secret.APIVersion && t.Kind == secret.Kind
	}
	c, err := match.Compile(t.fields())
	switch {
	case err != nil:
		return true
	case t.APIVersion != "" && t.APIVersion != secret.APIVersion,
		c.Group != nil && !c.Group.MatchString(""),
		c.Version != nil && !c.Version.MatchString(secret.APIVersion):
		return false
	case c.Kind != nil:
		return c.Kind.MatchString(secret.Kind)
	case t.Kind == "" || t.Kind == "*":
		return true
	}
	head, _, _ := strings.Cut(strings.ToLower(t.Kind), ".")
	return head == "secret" || head == "secrets"
}

// inSecretPatch marks err, an error in the lines of a patch whose target
// may pick Secrets, as one whose line is quoted masked.
func inSecretPatch(err error, sel Target) error {
	var e *Error
	if errors.As(err, &e) && mayPickSecrets(sel) {
		e.Secret = true
	}
	return err
}

// maskedError is an error of the YAML reader in a patch list that may set
// Secrets' values (its text names them): where in which item it is, is not
// known, and its line is quoted masked.
type maskedError struct{ error }

func (e maskedError) Unwrap() error { return e.error }

// Masked reports that the line the error points at is quoted masked.
func (e maskedError) Masked() bool { return true }

// Error formats the error as "file:line:col: message".
func (e *Error) Error() string { return e.Pos.String() + e.Msg }

// Position returns the place in the patch file the error is about.
func (e *Error) Position() tree.Position { return e.Pos }

var _ tree.PositionedError = (*Error)(nil)

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// MaskSecrets returns a copy of the error as messages show it about an
// object whose values are secret (secret.Values.Error): Msg masked, Err
// wrapped to show its message masked, and Secret set, so that the line it
// points at is quoted masked.
func (e *Error) MaskSecrets(v *secret.Values) error {
	c := *e
	c.Msg = v.Text(e.Msg)
	c.Err = v.Error(e.Err)
	c.Secret = true
	return &c
}
