package schema

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/kmerge/kmerge/internal/gotypes"
)

// GroupVersionKind names a Kubernetes kind.
type GroupVersionKind struct {
	Group, Version, Kind string
}

// ParseGVK splits an apiVersion ("apps/v1", "v1") and pairs it with kind.
func ParseGVK(apiVersion, kind string) GroupVersionKind {
	g, v, ok := strings.Cut(apiVersion, "/")
	if !ok {
		g, v = "", apiVersion
	}
	return GroupVersionKind{Group: g, Version: v, Kind: kind}
}

// APIVersion returns "group/version", or "version" for the core group.
func (g GroupVersionKind) APIVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// String formats g as "group/version, Kind=kind", as Kubernetes does.
func (g GroupVersionKind) String() string { return g.APIVersion() + ", Kind=" + g.Kind }

func sortGVKs(s []GroupVersionKind) {
	sort.Slice(s, func(i, j int) bool {
		a, b := s[i], s[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
}

// Schema is a set of types: named definitions and the types of Kubernetes
// kinds. A Schema never changes after it is built and is safe for concurrent
// use; Extend makes a new one.
type Schema struct {
	source string
	defs   map[string]*Type
	kinds  map[GroupVersionKind]*Type
	names  map[GroupVersionKind]KindNames
	// the custom resources whose version declares a status subresource
	status map[GroupVersionKind]bool
	// order of the sources that were combined, for Sources
	sources []string
}

// StatusSubresource reports whether objects of the kind have a status
// subresource: the API server then leaves their status as it was on a
// write to the object itself (its strategy resets it), and server-side
// apply neither writes nor owns it there. Built-in kinds with a status
// field have one; a custom resource has one when its CRD's version
// declares subresources.status.
func (s *Schema) StatusSubresource(apiVersion, kind string) bool {
	if s == nil {
		return false
	}
	gvk := ParseGVK(apiVersion, kind)
	t := s.kinds[gvk]
	if t.FromGo() {
		return t.ExactField("status") != nil
	}
	return s.status[gvk]
}

func newSchema(source string) *Schema {
	return &Schema{source: source, defs: map[string]*Type{}, kinds: map[GroupVersionKind]*Type{}, names: map[GroupVersionKind]KindNames{}, sources: []string{source}}
}

// Kind returns the type of objects of the given apiVersion and kind, or nil.
func (s *Schema) Kind(apiVersion, kind string) *Type {
	if s == nil {
		return nil
	}
	return s.kinds[ParseGVK(apiVersion, kind)]
}

// Kinds lists the kinds the schema knows, sorted by group, version and kind.
func (s *Schema) Kinds() []GroupVersionKind {
	if s == nil {
		return nil
	}
	out := make([]GroupVersionKind, 0, len(s.kinds))
	for gvk := range s.kinds {
		out = append(out, gvk)
	}
	sortGVKs(out)
	return out
}

// Definition returns the type with the given definition name
// ("io.k8s.api.core.v1.Container", or "mergeItem" in an OpenAPI document).
// When no definition has exactly that name, a name whose last dot-separated
// part matches is accepted if exactly one does.
func (s *Schema) Definition(name string) (*Type, error) {
	if s == nil {
		return nil, fmt.Errorf("no schema")
	}
	if t, ok := s.defs[name]; ok {
		return t, nil
	}
	var matches []string
	for n := range s.defs {
		if strings.HasSuffix(n, "."+name) {
			matches = append(matches, n)
		}
	}
	sort.Strings(matches)
	switch len(matches) {
	case 0:
		return nil, fmt.Errorf("no definition named %q", name)
	case 1:
		return s.defs[matches[0]], nil
	}
	return nil, fmt.Errorf("definition name %q is ambiguous: %s", name, strings.Join(matches, ", "))
}

// Definitions lists the definition names, sorted.
func (s *Schema) Definitions() []string {
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.defs))
	for n := range s.defs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Sources names where the schema's types came from, in precedence order.
func (s *Schema) Sources() []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s.sources...)
}

// Extend returns a schema that knows the kinds and definitions of s and of
// each of more. s takes precedence, then more in order: a kind or definition
// already known is never replaced. So documents given after the built-in
// table add the kinds it lacks (custom resources) without changing how the
// built-in kinds are patched.
func (s *Schema) Extend(more ...*Schema) *Schema {
	out := &Schema{source: s.source, defs: map[string]*Type{}, kinds: map[GroupVersionKind]*Type{}, names: map[GroupVersionKind]KindNames{}}
	for _, src := range append([]*Schema{s}, more...) {
		if src == nil {
			continue
		}
		out.sources = append(out.sources, src.sources...)
		for n, t := range src.defs {
			if _, ok := out.defs[n]; !ok {
				out.defs[n] = t
			}
		}
		for k, t := range src.kinds {
			if _, ok := out.kinds[k]; !ok {
				out.kinds[k] = t
				if n, ok := src.names[k]; ok {
					out.names[k] = n
				}
				if src.status[k] {
					if out.status == nil {
						out.status = map[GroupVersionKind]bool{}
					}
					out.status[k] = true
				}
			}
		}
	}
	return out
}

//go:generate sh -c "cd ../hack/schemagen && go run . -o ../../schema/zz_generated_builtin.go"

// builtin parses the generated table once, on first use.
var builtin = sync.OnceValues(func() (*Schema, error) {
	return parseBuiltin(builtinText, "built-in (k8s.io/api "+builtinVersion+")")
})

// Builtin returns the schema of every kind in k8s.io/api, generated from its
// Go struct tags (patchStrategy, patchMergeKey) and from server-side apply's
// list types and list map keys. It patches exactly as an API server does.
func Builtin() *Schema {
	s, err := builtin()
	if err != nil {
		panic("kmerge: the generated built-in schema does not parse: " + err.Error())
	}
	return s
}

// BuiltinVersion is the k8s.io/api version the built-in table was generated from.
func BuiltinVersion() string { return builtinVersion }

func parseBuiltin(text, source string) (*Schema, error) {
	kinds, names, err := gotypes.ReadText(text)
	if err != nil {
		return nil, err
	}
	s := newSchema(source)
	b := newGoBuilder(source)
	for k, g := range kinds {
		gvk := ParseGVK(k.APIVersion, k.Kind)
		s.kinds[gvk] = b.build(g)
		if n, ok := names[k]; ok {
			s.names[gvk] = KindNames{Plural: n.Plural, Singular: strings.ToLower(k.Kind), ShortNames: n.ShortNames}
		}
	}
	for g, t := range b.done {
		if g.Name != "" && g.Kind == gotypes.Struct {
			s.defs[g.Name] = t
		}
	}
	return s, nil
}
