package syntax

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/match"
	"github.com/kmerge/kmerge/tree"
)

// Target is the target of a patch as it is written: the objects it names.
// It is the syntax's own node; package resource turns it into the
// resource.Selector that picks objects (resource.TargetSelector), which
// is printed as a Target (String).
//
// A target written as text (a .kpatch header's kind.name, a patch list's
// string: ParseTarget) has a Namespace, a Kind (a kind name; "" for *, any
// kind), a Name (a name, "*", or a pattern with *), Labels (a label
// selector in braces), or is a name alone (Bare). A target written as
// kustomize's mapping (ParseYAMLTarget) is Regexp: Kind, Name and
// Namespace are regular expressions, and it may also have Group, Version
// (regular expressions), APIVersion and Annotations. A kustomization's
// strategic patch without a target names its object by its identity (ID:
// APIVersion, Kind, Namespace and Name exactly).
type Target struct {
	// Pos is where the target is written (its first character; a
	// mapping's node), End just after its last character for a target
	// written as text (zero otherwise). A column counts bytes, as every
	// column of a .kpatch file does; in a patch list, End is Pos moved
	// by the string's length, which is where it ends for a plain ASCII
	// scalar.
	Pos, End tree.Position

	Kind        string // a kind name (or, with Regexp, a regular expression)
	Name        string // a name, "*", a pattern with *, or with Regexp a regular expression
	Namespace   string // "default" also matches objects without a namespace
	APIVersion  string // group/version, exactly
	Group       string // a regular expression of the group ("" for the core group)
	Version     string // a regular expression of the version
	Labels      string // a label selector: "app=web,tier!=db,env in (a,b),!legacy"
	Annotations string // an annotation selector, in the syntax of label selectors

	// Regexp makes Kind, Name and Namespace regular expressions, as a
	// kustomize target's are (Group and Version always are).
	Regexp bool
	// Bare is set for a target that is a name alone ("demo"): it must
	// pick one object.
	Bare bool
	// ID makes the target name one object by its identity.
	ID bool
}

// String formats the target as it would be written, the one printer of
// targets: kind.name (a kind or a name quoted where it would not read
// back as itself: TargetWord), with a label selector in braces; a bare
// name as itself; a kustomize target as a YAML flow mapping; an identity
// as "apiVersion kind namespace/name". Its text read back (ParseTarget,
// or ParseYAMLTarget for a mapping) is the same target.
func (t Target) String() string {
	if t.ID {
		name := t.Name
		if t.Namespace != "" {
			name = t.Namespace + "/" + name
		}
		return t.APIVersion + " " + t.Kind + " " + name
	}
	if t.Regexp || t.Group != "" || t.Version != "" || t.Annotations != "" || t.APIVersion != "" {
		return t.mapping()
	}
	var b strings.Builder
	if t.Namespace != "" {
		b.WriteString(t.Namespace + "/")
	}
	if t.Bare {
		b.WriteString(TargetWord(t.Name))
		return b.String()
	}
	kind := t.Kind
	switch kind {
	case "":
		kind = "*"
	case "*":
		kind = strconv.Quote(kind)
	default:
		kind = TargetWord(kind)
	}
	b.WriteString(kind)
	if t.Name != "" {
		b.WriteString("." + TargetWord(t.Name))
	} else if t.Labels != "" {
		b.WriteString(".*")
	}
	if t.Labels != "" {
		b.WriteString("{" + t.Labels + "}")
	}
	return b.String()
}

// TargetWord writes a kind or a name as a target writes it: quoted (as a
// path quotes, fieldpath.Quote) where it would not read back as itself,
// where it holds what ends a word of a target (. [ { for a path, labels,
// a namespace's /, a comment's #, quotes) or a blank: a ConfigMap named
// app.v2 is configmap."app.v2". (A kind that is * is quoted by String:
// unquoted, * is any kind.) What completes a target (the language
// server) writes names with it, as String does.
func TargetWord(s string) string {
	if !fieldpath.Word(s, `.[]{}"'/#`) {
		return strconv.Quote(s)
	}
	return s
}

// mapping writes the target as a YAML flow mapping.
func (t Target) mapping() string {
	var parts []string
	add := func(key, v string) {
		if v == "" {
			return
		}
		if strings.ContainsAny(v, ",{}[]:#&*!|>'\"%@` ") || v != strings.TrimSpace(v) {
			v = strconv.Quote(v)
		}
		parts = append(parts, key+": "+v)
	}
	add("group", t.Group)
	add("version", t.Version)
	add("apiVersion", t.APIVersion)
	add("kind", t.Kind)
	add("namespace", t.Namespace)
	add("name", t.Name)
	add("labelSelector", t.Labels)
	add("annotationSelector", t.Annotations)
	return "{" + strings.Join(parts, ", ") + "}"
}

// check refuses a target whose label or annotation selector, or whose
// regular expressions, do not parse (as they are matched: match.Compile).
func (t Target) check() error {
	_, err := match.Compile(t.fields())
	return err
}

// fields are the parts of the target in grammars of their own.
func (t Target) fields() match.Fields {
	return match.Fields{Kind: t.Kind, Name: t.Name, Namespace: t.Namespace, Group: t.Group, Version: t.Version,
		Labels: t.Labels, Annotations: t.Annotations, Regexp: t.Regexp}
}

// targetNamespace reads the namespace a target starts with, a bare prefix
// up to a slash, before any dot, quote or brace, and returns it and the
// offset after its slash (0 without one).
func targetNamespace(s string) (string, int) {
	if slash := strings.IndexByte(s, '/'); slash > 0 && !strings.ContainsAny(s[:slash], ".\"'{") {
		return s[:slash], slash + 1
	}
	return "", 0
}

// targetWord reads a kind or a name of a target at s[i:]: quoted, or up to
// the first . [ or {. It returns the word, whether it is quoted, the
// offset after it, and the error of a quote that does not end (or does
// not read).
func targetWord(s string, i int) (w string, quoted bool, next int, err error) {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		v, n, err := unquote(s[i:])
		if err != nil {
			return "", true, i, err
		}
		return v, true, i + n, nil
	}
	j := i
	for j < len(s) && s[j] != '.' && s[j] != '[' && s[j] != '{' {
		j++
	}
	return s[i:j], false, j, nil
}

// parseTarget reads "[ns/]kind.name[{labels}]" and returns what follows
// it (after a dot). kind and name may be quoted; kind may be * (any kind);
// name may be * or a pattern with * in it ("shop-*"); a label selector in
// braces, in kubectl's syntax, may follow the name. With bare, a name
// alone ("demo", or "ns/demo") is a target too: a bare name (see
// Target.Bare). Headers and patch lists both read bare names. The
// target's Pos is pos, its End the position after its last byte.
func parseTarget(s string, pos tree.Position, bare bool) (Target, string, tree.Position, error) {
	sel := Target{Pos: pos}
	end := func(i int) {
		sel.End = pos
		sel.End.Column += i
	}
	i := 0
	seg := func() (string, bool, error) {
		v, quoted, next, err := targetWord(s, i)
		if err == nil {
			i = next
		}
		return v, quoted, err
	}
	errAt := func(col int, format string, args ...any) error {
		p := pos
		p.Column += col
		return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
	}
	sel.Namespace, i = targetNamespace(s)
	kind, quoted, err := seg()
	if err != nil {
		return sel, "", pos, errAt(i, "%v", err)
	}
	if kind == "" {
		return sel, "", pos, errAt(i, "a target starts with a kind: [deployment.app]")
	}
	if kind != "*" || quoted {
		sel.Kind = kind
	}
	if i >= len(s) && bare {
		sel.Kind, sel.Name, sel.Bare = "", kind, true
		end(i)
		return sel, "", pos, nil
	}
	if i < len(s) && s[i] == '{' {
		return sel, "", pos, errAt(i, "a label selector follows the name: %s.*{...} for every object of the kind with those labels", kind)
	}
	if i >= len(s) || s[i] != '.' {
		return sel, "", pos, errAt(i, "a target is kind.name: add the object's name (or * for all objects of the kind)")
	}
	i++
	name, _, err := seg()
	if err != nil {
		return sel, "", pos, errAt(i, "%v", err)
	}
	if name == "" {
		return sel, "", pos, errAt(i, "a target is kind.name: the name is missing")
	}
	sel.Name = name
	if i < len(s) && s[i] == '{' {
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return sel, "", pos, errAt(i, "unclosed { of a label selector")
		}
		text := strings.TrimSpace(s[i+1 : i+end])
		if text == "" {
			return sel, "", pos, errAt(i, "an empty label selector: write one, such as {app=web}, or leave the braces out")
		}
		if _, err := match.ParseLabels(text); err != nil {
			return sel, "", pos, errAt(i+1, "%v", err)
		}
		sel.Labels = text
		i += end + 1
	}
	restPos := pos
	end(i)
	if i < len(s) {
		if s[i] != '.' {
			return sel, "", pos, errAt(i, "expected . after the object's name, got %q", s[i])
		}
		if i+1 == len(s) {
			return sel, "", pos, errAt(i, "a target ends with a dot: drop it, or write a path after it")
		}
		i++
		restPos.Column += i
		return sel, s[i:], restPos, nil
	}
	return sel, "", restPos, nil
}

// ParseTarget parses a target as the YAML patch list writes it:
// "kind.name" or "namespace/kind.name", kind and name quoted when they hold
// dots, name a pattern with * in it, a label selector in braces after it;
// or a name alone ("demo"), which must name one object. pos is where it is
// written.
func ParseTarget(s string, pos tree.Position) (Target, error) {
	sel, rest, _, err := parseTarget(s, pos, true)
	if err == nil && rest != "" {
		err = &Error{Pos: pos, Msg: fmt.Sprintf("target %q: a target is kind.name; quote a name that holds dots", s)}
	}
	return sel, err
}
