package ssa

import (
	"fmt"
	"sort"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// Conflict is a field the applied configuration sets to a value other
// than the one another manager set it to.
type Conflict struct {
	// The manager that owns the field, as its managedFields entry names it.
	Manager     string
	Operation   Operation
	APIVersion  string // of an Update entry; "" for Apply
	Subresource string
	// Path is the field or item as the API server prints it:
	// .spec.replicas, .spec.ports[port=53,protocol="UDP"].
	Path string
	// Node is the applied configuration's node at Path: a field's key,
	// a list item; nil when the configuration has none there (a field
	// removed from under another manager's item).
	Node *yaml.Node

	path     smdfieldpath.Path
	identity string // of the manager's entry, which conflicts are sorted by
}

// manager names the manager as the API server's message does:
// "hpa" using apps/v1 for an Update entry, "argocd" for an Apply one.
func (c *Conflict) manager() string {
	s := fmt.Sprintf("%q", c.Manager)
	if c.Subresource != "" {
		s += fmt.Sprintf(" with subresource %q", c.Subresource)
	}
	if c.Operation == OpUpdate {
		s += " using " + c.APIVersion
	}
	return s
}

// ConflictError is an apply that conflicts with other managers' fields,
// as the API server refuses it (409 Conflict).
type ConflictError struct {
	APIVersion, Kind, Namespace, Name string
	// Conflicts are sorted as the API server lists them: by manager (the
	// JSON of its entry's identity), then path.
	Conflicts []Conflict
}

// Error is the API server's text: "Apply failed with 1 conflict:
// conflict with "hpa" using apps/v1: .spec.replicas", and for several,
// each manager on a line followed by its fields, one a line.
func (e *ConflictError) Error() string {
	if len(e.Conflicts) == 1 {
		c := &e.Conflicts[0]
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %s: %s", c.manager(), c.Path)
	}
	var lines []string
	last := ""
	for i := range e.Conflicts {
		c := &e.Conflicts[i]
		if i == 0 || c.identity != last {
			lines = append(lines, fmt.Sprintf("conflicts with %s:", c.manager()))
			last = c.identity
		}
		lines = append(lines, "- "+c.Path)
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(e.Conflicts), strings.Join(lines, "\n"))
}

// sortConflicts orders conflicts by manager identity, keeping each
// manager's fields in the order of its field set (the engine gives them
// so), which is how the API server's message lists them.
func sortConflicts(cs []Conflict) {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].identity < cs[j].identity })
}

// UnknownKindError is an object whose kind the schema does not know: the
// API server would not serve it (a custom resource needs its CRD).
type UnknownKindError struct {
	APIVersion, Kind string
}

// Error names the kind.
func (e *UnknownKindError) Error() string {
	return fmt.Sprintf("no schema for %s %s", e.APIVersion, e.Kind)
}

// InvalidError is an object that does not fit its kind's schema, as the
// API server's typing of it reports (a field the schema does not declare,
// a string where a number goes, two items with one key in the applied
// configuration).
type InvalidError struct {
	// Live: the error is in the live object, not the applied configuration.
	Live   bool
	Errors []FieldError
}

// FieldError is one place of an InvalidError.
type FieldError struct {
	Path string // as the API server prints it; "" for the object itself
	Msg  string
}

// Error lists the places, as the API server's message does.
func (e *InvalidError) Error() string {
	what := "the applied configuration"
	if e.Live {
		what = "the live object"
	}
	var parts []string
	for _, f := range e.Errors {
		if f.Path == "" {
			parts = append(parts, f.Msg)
		} else {
			parts = append(parts, f.Path+": "+f.Msg)
		}
	}
	return fmt.Sprintf("%s does not fit its schema: %s", what, strings.Join(parts, "; "))
}

// RequestError is an apply the API server refuses before merging: no
// field manager, a managedFields in the applied configuration, an
// applied configuration of another kind or version than the live object.
type RequestError struct {
	Msg string
}

// Error is the reason.
func (e *RequestError) Error() string { return e.Msg }

// CheckTime returns a *RequestError when t cannot be stamped on a
// managedFields entry: entries hold RFC 3339 times, whose years are 0000
// to 9999 (Go writes a later year, which no reader takes back). The zero
// time (Options' "now") passes.
func CheckTime(t time.Time) error {
	if t.IsZero() {
		return nil
	}
	if y := t.UTC().Year(); y < 0 || y > 9999 {
		return &RequestError{Msg: fmt.Sprintf("a managedFields time is RFC 3339, of years 0000 to 9999: year %d cannot be written", y)}
	}
	return nil
}

// now is the time an operation stamps on the entry it writes.
func (o *Options) now() time.Time {
	if o.Time.IsZero() {
		return time.Now().UTC().Truncate(time.Second)
	}
	return o.Time.UTC().Truncate(time.Second)
}

// withoutValue returns a typing message of the engine ("expected string,
// got &value.valueUnstructured{Value:[]interface {}{\"...\"}}") with the
// value it found replaced by the kind of value it is ("expected string, got
// a list"): the value may be a Secret's, and Go's syntax says nothing to a
// user. Where the engine wrote the value without its Go type (&{...}, as
// fmt's %v writes it), its kind cannot be told from the text (a string
// "[x]" reads as a list would), and the message ends at what was
// expected.
func withoutValue(msg string) string {
	i := strings.Index(msg, ", got ")
	if i < 0 || !strings.Contains(msg[:i], "expected ") {
		return msg
	}
	if k := goKind(msg[i+len(", got "):]); k != "" {
		return msg[:i] + ", got " + k
	}
	return msg[:i]
}

// goKind is the kind of the value a message of the engine writes in Go's
// syntax with its type (%#v of a value, or %T): "a list", "an object", "a
// string", "a number", "a boolean", "null"; "" when the text does not say.
func goKind(s string) string {
	if v, ok := strings.CutPrefix(s, "&value.valueUnstructured{Value:"); ok {
		s = strings.TrimSuffix(v, "}")
	}
	switch {
	case strings.HasPrefix(s, "[]"):
		return "a list"
	case strings.HasPrefix(s, "map["):
		return "an object"
	case strings.HasPrefix(s, `"`), s == "string":
		return "a string"
	case s == "true", s == "false", s == "bool":
		return "a boolean"
	case s == "nil", s == "<nil>", s == "interface {}(nil)":
		return "null"
	case strings.HasPrefix(s, "int"), strings.HasPrefix(s, "float"), strings.HasPrefix(s, "uint"):
		return "a number"
	case s != "" && strings.Trim(s, "-+.0123456789e") == "":
		return "a number"
	}
	return ""
}
