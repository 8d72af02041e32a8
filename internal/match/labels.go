package match

import (
	"fmt"
	"strings"
)

// Labels is a parsed Kubernetes label selector.
type Labels struct {
	reqs []requirement
	// the requirements by key, merged: what Matches checks, in time
	// linear in the labels whatever the number of requirements
	keys map[string]*keyRule
	must int // keys that must be there
}

// keyRule is what the requirements on one key ask of its label.
type keyRule struct {
	exists, absent bool            // it must be there; it must not be
	allowed        map[string]bool // the values it may have (nil: any)
	excluded       map[string]bool // the values it may not have
}

type requirement struct {
	key    string
	op     string // "=", "!=", "in", "notin", "exists", "!"
	values []string
}

// Parse parses a label selector as kubectl -l takes it:
// requirements separated by commas, each one of key=value, key==value,
// key!=value, key in (a,b), key notin (a,b), key (exists), !key (absent).
func ParseLabels(s string) (Labels, error) {
	var sel Labels
	for _, part := range splitRequirements(s) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		r, err := parseRequirement(part)
		if err != nil {
			return sel, fmt.Errorf("label selector %q: %w", s, err)
		}
		sel.reqs = append(sel.reqs, r)
	}
	sel.keys = map[string]*keyRule{}
	for _, r := range sel.reqs {
		k := sel.keys[r.key]
		if k == nil {
			k = &keyRule{}
			sel.keys[r.key] = k
		}
		switch r.op {
		case "=", "in":
			if !k.exists {
				k.exists = true
				sel.must++
			}
			set := map[string]bool{}
			for _, v := range r.values {
				if k.allowed == nil || k.allowed[v] {
					set[v] = true
				}
			}
			k.allowed = set
		case "exists":
			if !k.exists {
				k.exists = true
				sel.must++
			}
		case "!":
			k.absent = true
		case "!=", "notin":
			if k.excluded == nil {
				k.excluded = map[string]bool{}
			}
			for _, v := range r.values {
				k.excluded[v] = true
			}
		}
	}
	return sel, nil
}

// splitRequirements splits at commas outside parentheses.
func splitRequirements(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

func parseRequirement(p string) (requirement, error) {
	if strings.HasPrefix(p, "!") {
		if strings.TrimSpace(p[1:]) == "" {
			return requirement{}, fmt.Errorf("%q has no key", p)
		}
		return requirement{key: strings.TrimSpace(p[1:]), op: "!"}, nil
	}
	for _, op := range []string{"!=", "==", "="} {
		if k, v, ok := strings.Cut(p, op); ok {
			if op == "==" {
				op = "="
			}
			if strings.TrimSpace(k) == "" {
				return requirement{}, fmt.Errorf("%q has no key", p)
			}
			return requirement{key: strings.TrimSpace(k), op: op, values: []string{strings.TrimSpace(v)}}, nil
		}
	}
	fields := strings.Fields(p)
	if len(fields) == 1 {
		return requirement{key: fields[0], op: "exists"}, nil
	}
	if len(fields) >= 2 && (fields[1] == "in" || fields[1] == "notin") {
		rest := strings.TrimSpace(strings.Join(fields[2:], " "))
		if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
			return requirement{}, fmt.Errorf("%q: expected %s (a, b)", p, fields[1])
		}
		var values []string
		for _, v := range strings.Split(rest[1:len(rest)-1], ",") {
			values = append(values, strings.TrimSpace(v))
		}
		return requirement{key: fields[0], op: fields[1], values: values}, nil
	}
	return requirement{}, fmt.Errorf("%q is not a requirement", p)
}

// Matches reports whether labels satisfy every requirement. It looks at
// each label once, with the requirements on its key merged (so a selector
// of many requirements costs no more per object than one of few).
func (sel Labels) Matches(labels map[string]string) bool {
	if sel.keys == nil {
		return sel.matchEach(labels) // a zero Labels: no requirement
	}
	if sel.must > len(labels) {
		return false // a key that must be there is not
	}
	met := 0
	for key, v := range labels {
		k := sel.keys[key]
		if k == nil {
			continue
		}
		if k.absent || k.allowed != nil && !k.allowed[v] || k.excluded[v] {
			return false
		}
		if k.exists {
			met++
		}
	}
	return met == sel.must
}

// matchEach is Matches, one requirement after the other: what the merged
// rules must agree with (TestLabelSelectorRules).
func (sel Labels) matchEach(labels map[string]string) bool {
	for _, r := range sel.reqs {
		v, has := labels[r.key]
		ok := false
		switch r.op {
		case "=":
			ok = has && v == r.values[0]
		case "!=":
			ok = !has || v != r.values[0]
		case "exists":
			ok = has
		case "!":
			ok = !has
		case "in", "notin":
			in := false
			for _, x := range r.values {
				in = in || has && v == x
			}
			ok = in == (r.op == "in")
		}
		if !ok {
			return false
		}
	}
	return true
}

// Empty reports whether the selector has no requirement (it matches
// everything, and reading an object's labels to match it is not needed).
func (sel Labels) Empty() bool { return len(sel.reqs) == 0 }
