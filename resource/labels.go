package resource

import (
	"fmt"
	"strings"
)

// LabelSelector is a parsed Kubernetes label selector.
type LabelSelector struct {
	reqs []requirement
}

type requirement struct {
	key    string
	op     string // "=", "!=", "in", "notin", "exists", "!"
	values []string
}

// ParseLabelSelector parses a label selector as kubectl -l takes it:
// requirements separated by commas, each one of key=value, key==value,
// key!=value, key in (a,b), key notin (a,b), key (exists), !key (absent).
func ParseLabelSelector(s string) (LabelSelector, error) {
	var sel LabelSelector
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

// Matches reports whether labels satisfy every requirement.
func (sel LabelSelector) Matches(labels map[string]string) bool {
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
