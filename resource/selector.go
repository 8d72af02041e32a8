package resource

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/kmerge/kmerge/internal/match"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/schema"
)

// Selector picks objects. Empty fields match anything.
//
// It has two forms. A target written as text (kind.name in a .kpatch
// header or a patch list, or a bare name) names a kind the way kmerge
// names kinds (schema.NameMatches: Kind, resource name or short name, in
// any letter case, or qualified by group) and a name exactly, or as a
// pattern where * stands for any run of characters ("*", "shop-*"). A
// target written as a mapping is kustomize's (Regexp): kind, name,
// namespace, group and version are regular expressions that match whole
// names, as kustomize anchors them, and a kind name that holds no
// character special in regular expressions also matches the kmerge way.
type Selector struct {
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
	// pick one object (Ambiguity).
	Bare bool
	// ID makes the selector name one object by its identity: APIVersion,
	// Kind and Name exactly, Namespace ("" for "default"). It picks the
	// object that has that identity, or had it before patches changed it
	// (as a whole: not the old name with the new kind), as kustomize
	// finds the target of a strategic merge patch that has none.
	ID bool
}

// String formats the selector as a target would be written, through the
// one printer of targets (syntax.Target.String): kind.name (a kind
// qualified by its group, or a name, with a dot in it quoted, as a header
// must write it), with a label selector in braces; a bare name as itself;
// a kustomize target as a YAML flow mapping.
func (sel Selector) String() string {
	return syntax.Target{Kind: sel.Kind, Name: sel.Name, Namespace: sel.Namespace, APIVersion: sel.APIVersion, Group: sel.Group, Version: sel.Version,
		Labels: sel.Labels, Annotations: sel.Annotations, Regexp: sel.Regexp, Bare: sel.Bare, ID: sel.ID}.String()
}

// TargetSelector returns the selector that picks the objects a target, as
// package kpatch/syntax reads it, names: its fields without its position.
func TargetSelector(t syntax.Target) Selector {
	return Selector{Kind: t.Kind, Name: t.Name, Namespace: t.Namespace, APIVersion: t.APIVersion, Group: t.Group, Version: t.Version,
		Labels: t.Labels, Annotations: t.Annotations, Regexp: t.Regexp, Bare: t.Bare, ID: t.ID}
}

// ReadsMetadata reports whether the selector reads an object's labels or
// annotations to pick it, beside its identity (apiVersion, kind,
// namespace, name): what of an object must be read to know whether the
// selector picks it, and what a patch that changes them may change of
// what it picks.
func (sel Selector) ReadsMetadata() bool { return sel.Labels != "" || sel.Annotations != "" }

// ExactName returns the one name the selector picks objects by, when it
// picks them by one name: then an object named otherwise is not picked
// (unless it had that name before a patch changed it: see
// Resource.Original).
func (sel Selector) ExactName() (string, bool) {
	switch {
	case sel.Name == "" || strings.Contains(sel.Name, "*"):
		return "", false
	case sel.Regexp && regexp.QuoteMeta(sel.Name) != sel.Name:
		return "", false
	}
	return sel.Name, true
}

// Select returns the objects sel picks, in set order. A kind name that
// names kinds of several groups among the objects of the set, or a bare
// name that names several objects, is an error (Ambiguity).
func (set *Set) Select(sel Selector, s *schema.Schema) ([]*Resource, error) {
	m, err := sel.Matcher(s)
	if err != nil {
		return nil, err
	}
	var out []*Resource
	for _, r := range set.Resources {
		if m.Matches(r) {
			out = append(out, r)
		}
	}
	if err := sel.Ambiguity(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Matcher tells, one object at a time, which objects a selector picks.
type Matcher struct {
	sel                       Selector
	labels, annotations       match.Labels
	kind, name, ns, grp, vers *regexp.Regexp // the regular expressions, nil for a field that is none
	glob                      []string       // Name cut at its *s, for a pattern
	schema                    *schema.Schema
}

// Matcher returns a matcher for sel, with kind names resolved by s. It
// fails when a label selector or a regular expression does not parse.
func (sel Selector) Matcher(s *schema.Schema) (*Matcher, error) {
	m := &Matcher{sel: sel, schema: s}
	c, err := match.Compile(match.Fields{Kind: sel.Kind, Name: sel.Name, Namespace: sel.Namespace, Group: sel.Group, Version: sel.Version,
		Labels: sel.Labels, Annotations: sel.Annotations, Regexp: sel.Regexp})
	if err != nil {
		return nil, err
	}
	m.labels, m.annotations = c.Labels, c.Annotations
	m.kind, m.name, m.ns, m.grp, m.vers = c.Kind, c.Name, c.Namespace, c.Group, c.Version
	if !sel.Regexp && sel.Name != "*" && strings.Contains(sel.Name, "*") {
		m.glob = strings.Split(sel.Name, "*")
	}
	return m, nil
}

// Matches reports whether the selector picks r: by the name and the
// namespace r has or had before a patch changed them (Resource.Original),
// and by everything else it has. Whether a kind name is ambiguous depends
// on all the objects it picks: see Selector.Ambiguity.
func (m *Matcher) Matches(r *Resource) bool {
	sel := m.sel
	if sel.ID {
		return m.isID(r.Identity()) || r.Original != nil && m.isID(*r.Original)
	}
	name := m.matchesName(r.Name)
	ns := m.matchesNamespace(r.Namespace)
	if o := r.Original; o != nil {
		name = name || m.matchesName(o.Name)
		ns = ns || m.matchesNamespace(o.Namespace)
	}
	if !name || !ns || !m.matchesKind(r.APIVersion, r.Kind) {
		return false
	}
	if !m.labels.Empty() && !m.labels.Matches(r.Labels()) {
		return false
	}
	return m.annotations.Empty() || m.annotations.Matches(r.Annotations())
}

// matchesKind reports whether the selector (not an ID) picks objects of
// this apiVersion and kind, whatever else they are: by its apiVersion,
// group, version and kind.
func (m *Matcher) matchesKind(apiVersion, kind string) bool {
	sel := m.sel
	if sel.APIVersion != "" && sel.APIVersion != apiVersion {
		return false
	}
	gvk := schema.ParseGVK(apiVersion, kind)
	if m.grp != nil && !m.grp.MatchString(gvk.Group) || m.vers != nil && !m.vers.MatchString(gvk.Version) {
		return false
	}
	switch {
	case m.kind != nil:
		return m.kind.MatchString(kind)
	case sel.Kind != "" && sel.Kind != "*":
		return m.schema.NameMatches(sel.Kind, gvk)
	}
	return true
}

// MayPickKind reports whether the selector may pick objects of this
// apiVersion and kind, whatever their names, namespaces, labels and
// annotations: whether its kind name names the kind (through s, as
// Matcher resolves it; "" and "*" name every kind, a bare name's target
// among them), and its apiVersion, group and version allow it. A selector
// whose expressions do not compile may pick anything.
func (sel Selector) MayPickKind(apiVersion, kind string, s *schema.Schema) bool {
	if sel.ID {
		return sel.APIVersion == apiVersion && sel.Kind == kind
	}
	m, err := sel.Matcher(s)
	if err != nil {
		return true
	}
	return m.matchesKind(apiVersion, kind)
}

// isID reports whether id is the identity an ID selector names.
func (m *Matcher) isID(id Identity) bool {
	sel := m.sel
	orDefault := func(ns string) string {
		if ns == "" {
			return "default"
		}
		return ns
	}
	return id.Name == sel.Name && id.Kind == sel.Kind && id.APIVersion == sel.APIVersion && orDefault(id.Namespace) == orDefault(sel.Namespace)
}

func (m *Matcher) matchesName(name string) bool {
	switch {
	case m.name != nil:
		return m.name.MatchString(name)
	case m.glob != nil:
		return globMatch(m.glob, name)
	}
	return m.sel.Name == "" || m.sel.Name == "*" || m.sel.Name == name
}

func (m *Matcher) matchesNamespace(ns string) bool {
	if ns == "" {
		ns = "default" // where kubectl puts an object without one
	}
	if m.ns != nil {
		return m.ns.MatchString(ns)
	}
	return m.sel.Namespace == "" || m.sel.Namespace == ns
}

// globMatch reports whether s is the parts of a pattern joined by any
// runs of characters (the pattern's *s).
func globMatch(parts []string, s string) bool {
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

// Ambiguity returns an error when sel picks what it may not: objects of
// several kinds of one name in different groups, for a kind name written
// as text (the kind must then be qualified with its group; a kustomize
// target picks them all, as kustomize does); several objects, for a bare
// name (the error names each as kind.name).
func (sel Selector) Ambiguity(matched []*Resource) error {
	if sel.Bare {
		if len(matched) < 2 {
			return nil
		}
		var ids []string
		for _, r := range matched {
			ids = append(ids, r.Target())
		}
		sort.Strings(ids)
		return fmt.Errorf("the target %q names %d objects: write kind.name, one of %s", sel.Name, len(matched), strings.Join(ids, ", "))
	}
	if sel.Kind == "" || sel.Regexp || sel.ID {
		return nil
	}
	groups := map[string]bool{}
	for _, r := range matched {
		gvk := r.GVK()
		groups[gvk.Group+"/"+gvk.Kind] = true
	}
	if len(groups) < 2 {
		return nil
	}
	var gs []string
	for g := range groups {
		grp, kind, _ := strings.Cut(g, "/")
		if grp == "" {
			grp = "core"
		}
		gs = append(gs, fmt.Sprintf("%s.%s", strings.ToLower(kind), grp))
	}
	sort.Strings(gs)
	return fmt.Errorf("kind %q names objects of several groups here: qualify it as one of %s", sel.Kind, strings.Join(gs, ", "))
}
