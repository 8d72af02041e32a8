package schema

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// KindNames are the names kubectl accepts for a kind besides its Kind.
type KindNames struct {
	Plural     string   // the resource name: deployments
	Singular   string   // the lowercase kind, unless a CRD says otherwise
	ShortNames []string // deploy
}

// Names returns the names of a kind. Kinds no source names (OpenAPI
// documents carry none) get the resource name the API machinery derives:
// the lowercase kind, +es after s, y→ies, else +s.
func (s *Schema) Names(gvk GroupVersionKind) KindNames {
	if s != nil {
		if n, ok := s.names[gvk]; ok {
			return n
		}
	}
	lower := strings.ToLower(gvk.Kind)
	return KindNames{Plural: GuessPlural(lower), Singular: lower}
}

// GuessPlural derives a resource name from a lowercase kind as the API
// machinery does.
func GuessPlural(lower string) string {
	switch {
	case lower == "":
		return ""
	case strings.HasSuffix(lower, "s"):
		return lower + "es"
	case strings.HasSuffix(lower, "y"):
		return strings.TrimSuffix(lower, "y") + "ies"
	}
	return lower + "s"
}

var versionRE = regexp.MustCompile(`^v(\d+)(?:(alpha|beta)(\d+))?$`)

// NameMatches reports whether name names the kind gvk: its Kind, resource
// name, singular or a short name, in any letter case, optionally qualified
// the way kubectl qualifies resources: "deployments.apps" (group) or
// "deployments.v1.apps" (version and group; "core" is the core group).
func (s *Schema) NameMatches(name string, gvk GroupVersionKind) bool {
	head, qual, qualified := strings.Cut(strings.ToLower(name), ".")
	if qualified {
		group := qual
		if v, g, ok := strings.Cut(qual, "."); ok && versionRE.MatchString(v) {
			if v != strings.ToLower(gvk.Version) {
				return false
			}
			group = g
		}
		if group == "core" {
			group = ""
		}
		if group != strings.ToLower(gvk.Group) {
			return false
		}
	}
	n := s.Names(gvk)
	if head == strings.ToLower(gvk.Kind) || head == n.Plural || head == n.Singular {
		return true
	}
	for _, sn := range n.ShortNames {
		if head == sn {
			return true
		}
	}
	return false
}

// Spellings returns the unqualified names NameMatches accepts for the kind
// gvk, in lower case: its kind, resource name, singular and short names,
// each once. Messages suggest from them when a name matches no kind.
func (s *Schema) Spellings(gvk GroupVersionKind) []string {
	n := s.Names(gvk)
	out := []string{strings.ToLower(gvk.Kind)}
	for _, w := range append([]string{n.Plural, n.Singular}, n.ShortNames...) {
		if w != "" && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// FindKinds returns the kinds of the schema that name names (see
// NameMatches), most preferred first (see SortPreferred).
func (s *Schema) FindKinds(name string) []GroupVersionKind {
	var out []GroupVersionKind
	for _, gvk := range s.Kinds() {
		if s.NameMatches(name, gvk) {
			out = append(out, gvk)
		}
	}
	SortPreferred(out)
	return out
}

// SortPreferred orders kinds as kubectl prefers them: GA versions before
// beta before alpha, higher versions first, then the core group, then by
// group name.
func SortPreferred(gvks []GroupVersionKind) {
	sort.SliceStable(gvks, func(i, j int) bool {
		a, b := versionRank(gvks[i].Version), versionRank(gvks[j].Version)
		if a != b {
			for k := range a {
				if a[k] != b[k] {
					return a[k] < b[k]
				}
			}
		}
		if (gvks[i].Group == "") != (gvks[j].Group == "") {
			return gvks[i].Group == ""
		}
		return gvks[i].Group < gvks[j].Group
	})
}

// versionRank orders versions: smaller is preferred.
func versionRank(v string) [3]int {
	m := versionRE.FindStringSubmatch(v)
	if m == nil {
		return [3]int{3, 0, 0}
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[3])
	stage := map[string]int{"": 0, "beta": 1, "alpha": 2}[m[2]]
	return [3]int{stage, -major, -minor}
}
