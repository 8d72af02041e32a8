package validate

import (
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/tree"
)

// Reason classifies a violation.
type Reason string

// The reasons.
const (
	// ReasonType: the value has a JSON kind the schema does not allow there
	// (an object for an integer, a list for an object, a string for a
	// boolean, ...). An API server's decoder refuses the object.
	ReasonType Reason = "type"
	// ReasonFormat: the value has the right JSON kind, but the type's own
	// decoder refuses it (a quantity, a time, base64 data, a duration).
	ReasonFormat Reason = "format"
	// ReasonRange: an integer out of the range of its format (int32).
	ReasonRange Reason = "range"
	// ReasonUnknownField: a field the object's schema does not have. An
	// API server's strict field validation refuses it (kubectl's default);
	// without it, the field is dropped.
	ReasonUnknownField Reason = "unknownField"
	// ReasonRequired: apiVersion, kind or metadata.name (or generateName)
	// is missing or empty.
	ReasonRequired Reason = "required"
)

// Violation is one place where an object does not fit its schema.
type Violation struct {
	Path   fieldpath.Path
	Reason Reason
	// Want is what the schema wants, as messages show types
	// ("integer/int32", "list", "object"); for an unknown field, the
	// object type that lacks it (its definition name, when it has one).
	Want string
	// Found describes what the object holds: "an object", "the string
	// \"lots\"", "the integer 3000000000"; "nothing" for a missing field.
	Found string
	// Detail says why a decoder refuses the value (ReasonFormat,
	// ReasonRange), or gives a hint (ReasonUnknownField; ReasonType, from
	// the note of the change that wrote the value: validate.Attribute).
	Detail string
	// Node is the value at Path, nil when it is missing.
	Node *yaml.Node
	// Secret says that the value is secret (a v1 Secret's data or
	// stringData) and Found shows it masked (MaskSecrets): the line the
	// violation points at holds it too, and is best quoted masked.
	Secret bool

	// Set by Attribute:

	// Patch is where the patch that wrote the value says so; zero when no
	// patch did, or kmerge cannot tell which.
	Patch tree.Position
	// Input reports that the object had this violation before it was
	// patched; Line and Column are then its place in the input.
	Input        bool
	Line, Column int
}

// String describes the violation: "spec.replicas: expected
// integer/int32, found an object".
func (v Violation) String() string {
	path := v.Path.String()
	if path == "" {
		path = "(the object)"
	}
	var msg string
	switch v.Reason {
	case ReasonType:
		msg = "expected " + v.Want + ", found " + v.Found
		if v.Detail != "" {
			msg += " (" + v.Detail + ")"
		}
	case ReasonFormat:
		msg = v.Found + " is not " + formatWord(v.Want) + " (" + v.Want + "): " + v.Detail
	case ReasonRange:
		msg = v.Found + " is out of range for " + v.Want + " (" + v.Detail + ")"
	case ReasonUnknownField:
		msg = "unknown field of " + v.Want
		if v.Detail != "" {
			msg += " (" + v.Detail + ")"
		}
	case ReasonRequired:
		msg = v.Detail
	default:
		msg = string(v.Reason)
	}
	return path + ": " + msg
}

// MaskSecrets masks the secret values of obj (a v1 Secret's data and
// stringData; internal/secret) in its violations vs, as kmerge shows
// them unless asked not to: MaskValues with obj's values as it is. The
// violations of other objects are left alone.
func MaskSecrets(obj *yaml.Node, vs []Violation) {
	MaskValues(vs, secret.ValuesOf(obj))
}

// MaskValues masks the secret values of an object (vals, gathered from
// every state of it a run saw: internal/secret) in its violations vs:
// Found shows a value at or below data or stringData, or one equal to a
// secret value, as "***", keeping what kind it is ("the string \"***\"",
// "the integer ***"); Found and Detail have any secret value they hold
// masked; and Secret is set on the violations masked. Nothing happens
// when vals is nil or not secret.
func MaskValues(vs []Violation, vals *secret.Values) {
	if !vals.On() {
		return
	}
	for i := range vs {
		v := &vs[i]
		if shown := vals.Node(v.Node, v.Path); shown != v.Node {
			v.Secret = true
			if n := tree.Deref(v.Node); n != nil && n.Kind == yaml.ScalarNode {
				v.Found = describe(&yaml.Node{Kind: yaml.ScalarNode, Value: secret.Mask}, tree.KindOf(n))
			}
		}
		for _, text := range []*string{&v.Found, &v.Detail} {
			if masked := vals.Text(*text); masked != *text {
				*text, v.Secret = masked, true
			}
		}
	}
}

// formatWord names what a formatted scalar holds, for messages.
func formatWord(want string) string {
	_, format, _ := strings.Cut(want, "/")
	switch format {
	case "quantity":
		return "a quantity"
	case "date-time":
		return "an RFC 3339 time"
	case "byte":
		return "base64 data"
	case "duration":
		return "a duration"
	}
	return "a valid " + want
}

// describe says what a value is, for Found.
func describe(n *yaml.Node, k tree.Kind) string {
	switch k {
	case tree.Object:
		return "an object"
	case tree.Array:
		return "a list"
	case tree.Null:
		return "null"
	case tree.String:
		s := n.Value
		if len(s) > 60 {
			s = s[:57] + "..."
		}
		return "the string " + strconv.Quote(s)
	case tree.Bool:
		return "the boolean " + n.Value
	case tree.Int:
		return "the integer " + n.Value
	}
	return "the number " + n.Value
}

// Error is a violation in one object: what kmerge.Patch and kmerge.Apply
// report, as an error or as a warning.
type Error struct {
	File   string // the object's file ("<stdin>" for standard input)
	Object string // the object, "apps/v1 Deployment web"; "" when it is not a Kubernetes object
	Violation
}

// Position returns where the error points: the patch position when a
// patch wrote the value, the place in the input when the input had it
// already, else the object's file.
func (e *Error) Position() tree.Position {
	switch {
	case e.Patch != (tree.Position{}):
		return e.Patch
	case e.Input:
		return tree.Position{File: e.File, Line: e.Line, Column: e.Column}
	}
	return tree.Position{File: e.File}
}

var _ tree.PositionedError = (*Error)(nil)

// Where says which object the violation is in and how it got there, for
// the second line of a message.
func (e *Error) Where() string {
	what := e.File
	if e.Object != "" {
		what += ", " + e.Object
	}
	switch {
	case e.Input:
		return "in " + what + ": the input has it already (no patch wrote it)"
	case e.Patch == (tree.Position{}):
		return "while patching " + what + " (a patch wrote it; kmerge cannot tell which)"
	}
	return "while patching " + what
}

// Error formats the error as "file:line:col: path: message", then Where
// on a line of its own.
func (e *Error) Error() string {
	return fmt.Sprintf("%s%s\n  %s", e.Position(), e.Violation, e.Where())
}

// Masked reports whether the message masks the value (Violation.Secret):
// the line the error points at may hold it too, and is best quoted
// masked.
func (e *Error) Masked() bool { return e.Secret }

// Warning formats the error as a warning: "file:line:col: warning: path:
// message", then Where on a line of its own.
func (e *Error) Warning() string {
	return fmt.Sprintf("%swarning: %s\n  %s", e.Position(), e.Violation, e.Where())
}

// Errors returns the violations err is made of: err itself when it is an
// *Error, the errors it joins (errors.Join, as kmerge.Patch and
// kmerge.Apply return them) when they all are; nil otherwise.
func Errors(err error) []*Error {
	var errs []error
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		errs = joined.Unwrap()
	} else {
		errs = []error{err}
	}
	out := make([]*Error, 0, len(errs))
	for _, e := range errs {
		ve, ok := e.(*Error)
		if !ok {
			return nil
		}
		out = append(out, ve)
	}
	return out
}
