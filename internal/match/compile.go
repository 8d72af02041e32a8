// Package match reads what picks objects in the grammars of their own:
// Kubernetes label selectors, as kubectl -l takes them (ParseLabels), and
// kustomize's regular expressions, anchored to match whole names
// (Compile). It is the one implementation of both, and a leaf: package
// resource matches objects by it, and package kpatch/syntax, which imports
// nothing that holds objects, checks the targets it reads with it.
package match

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
)

// Fields are the parts of a target that are written in grammars of their
// own: label and annotation selectors, and, in kustomize's target mapping
// (Regexp), regular expressions. Package resource matches objects by what
// Compile makes of them; package kpatch/syntax calls Compile to refuse a
// target that would not match anything.
type Fields struct {
	Kind, Name, Namespace, Group, Version string
	Labels, Annotations                   string
	Regexp                                bool // Kind, Name and Namespace are regular expressions
}

// Compiled is what Compile makes of Fields. A regular expression is nil
// where its field is empty or, for Kind, Name and Namespace, holds no
// character special in regular expressions (it is matched as itself).
type Compiled struct {
	Labels, Annotations                   Labels
	Kind, Name, Namespace, Group, Version *regexp.Regexp
}

// Compile parses the label and annotation selectors and compiles the
// regular expressions of f, anchored to match whole names as kustomize
// anchors them. Its errors name the field and the expression.
func Compile(f Fields) (Compiled, error) {
	var c Compiled
	var err error
	if c.Labels, err = ParseLabels(f.Labels); err != nil {
		return c, err
	}
	if c.Annotations, err = ParseLabels(f.Annotations); err != nil {
		return c, fmt.Errorf("annotation selector: %w", err)
	}
	for _, e := range []struct {
		what, expr string
		always     bool // a regular expression even without Regexp, even without special characters
		re         **regexp.Regexp
	}{
		{"group", f.Group, true, &c.Group},
		{"version", f.Version, true, &c.Version},
		{"kind", f.Kind, false, &c.Kind},
		{"name", f.Name, false, &c.Name},
		{"namespace", f.Namespace, false, &c.Namespace},
	} {
		if e.expr == "" || !e.always && (!f.Regexp || regexp.QuoteMeta(e.expr) == e.expr) {
			continue
		}
		if *e.re, err = anchored(e.what, e.expr); err != nil {
			return c, err
		}
	}
	return c, nil
}

// anchored compiles expr to match whole strings.
func anchored(what, expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile("^(?:" + expr + ")$")
	if err != nil {
		why := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			why = string(se.Code) // without the expression as compiled, anchored
		}
		return nil, fmt.Errorf("the %s %q is not a regular expression: %s", what, expr, why)
	}
	return re, nil
}
