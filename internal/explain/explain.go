// Package explain tells how a strategic merge patch treats a kind or one of
// its fields, as kmerge explain prints it: the strategy, the merge key, the
// recommended keys, server-side apply's list type, what a patch does with
// it, and which schema said so.
package explain

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/suggest"
	"github.com/kmerge/kmerge/schema"
)

// Kind explains a kind of s or a field below it. words are the kind, in any
// letter case and optionally followed by its group's words, then the path
// (deployment apps spec template spec tolerations: see Split); apiVersion,
// when not "", picks the kind's group and version. The path walks through
// lists to their items.
func Kind(s *schema.Schema, words []string, apiVersion string) (string, error) {
	if len(words) == 0 || words[0] == "" {
		return "", fmt.Errorf("no kind to explain: name one, as in deployment.spec.replicas")
	}
	gvk, t, path, err := findKind(s, words, apiVersion)
	if err != nil {
		return "", err
	}
	return explain(t, path, "KIND:\t"+gvk.Kind, "VERSION:\t"+gvk.APIVersion())
}

// Definition explains a definition of a schema (from Schema.Definition), or
// the field that path leads to below it.
func Definition(def *schema.Type, path []string) (string, error) {
	return explain(def, path, "DEFINITION:\t"+def.Name)
}

// explain describes root, or the field path names below it, under the
// header lines head.
func explain(root *schema.Type, path []string, head ...string) (string, error) {
	head = append(head, "SOURCE:\t"+source(root))

	var field *schema.Field
	t := root
	for i, name := range path {
		t = itemsOf(t)
		if t != nil && t.Kind == schema.Map && t.Fields() == nil {
			t = t.Elem // a key of a map
			field = nil
			continue
		}
		f := t.Field(name)
		if f == nil {
			return "", fmt.Errorf("%s has no field %q%s", pathName(path[:i]), name, suggestField(t, name))
		}
		field, t = f, f.Type
	}
	var b bytes.Buffer
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, h := range head {
		fmt.Fprintln(w, h)
	}
	if len(path) > 0 {
		fmt.Fprintf(w, "PATH:\t%s\n", pathName(path))
	}
	if field != nil {
		fmt.Fprintf(w, "\nFIELD:\t%s <%s>\n", field.Name, TypeName(field.Type))
		for _, line := range Details(field) {
			fmt.Fprintln(w, line)
		}
	}
	if fs := itemsOf(t).Fields(); len(fs) > 0 {
		fmt.Fprintf(w, "\nFIELDS:\n")
		for _, f := range fs {
			fmt.Fprintf(w, "  %s\t<%s>\t%s\n", f.Name, TypeName(f.Type), Summary(f))
		}
	}
	w.Flush()
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n"), nil
}

// Split reads KIND[.path] or a path as paths are written (fieldpath):
// fields joined by dots, quoted when they hold dots
// (configmap.data."app.kubernetes.io/name"), into its words. A path of
// fields explains the items of a list without selecting one: an item
// ([name=x], [0]) is an error.
func Split(s string) ([]string, error) {
	p, err := fieldpath.Parse(s)
	if err != nil {
		return nil, err
	}
	words := make([]string, len(p))
	for i, e := range p {
		if e.Kind != fieldpath.FieldElement {
			return nil, fmt.Errorf("explain %s: a path of fields explains the items of a list without selecting one: leave %s out", s, e)
		}
		words[i] = e.Name
	}
	return words, nil
}

// pathName writes a path of fields as paths are written.
func pathName(p []string) string {
	if len(p) == 0 {
		return "the kind"
	}
	fp := make(fieldpath.Path, len(p))
	for i, name := range p {
		fp[i] = fieldpath.Field(name)
	}
	return fp.String()
}

// itemsOf looks through lists to their items.
func itemsOf(t *schema.Type) *schema.Type {
	for t != nil && t.Kind == schema.List {
		t = t.Elem
	}
	return t
}

func source(t *schema.Type) string {
	if t == nil || t.Source == "" {
		return "unknown"
	}
	return t.Source
}

// TypeName names a type as explain shows it: []object io.k8s.api.core.v1.Container.
func TypeName(t *schema.Type) string {
	switch {
	case t == nil:
		return "any"
	case t.Kind == schema.List:
		return "[]" + TypeName(t.Elem)
	case t.Kind == schema.Map:
		return "map[string]" + TypeName(t.Elem)
	case t.Kind == schema.Object && t.Name != "":
		return "object " + t.Name
	case t.Format != "" && t.Kind.Scalar():
		return t.Kind.String() + ", " + t.Format
	}
	return t.Kind.String()
}

// Details says how a patch treats the field, as explain shows it: lines of
// "LABEL:\tvalue".
func Details(f *schema.Field) []string {
	m := f.Meta
	var out []string
	strategy := m.Strategy.String()
	if m.Raw != "" {
		strategy += "\t(patchStrategy " + strconv.Quote(m.Raw) + ")"
	}
	out = append(out, "STRATEGY:\t"+strategy)
	if len(m.MergeKey) > 0 {
		out = append(out, "MERGE KEY:\t"+strings.Join(m.MergeKey, ", "))
	}
	if len(m.RecommendedKeys) > 0 {
		out = append(out, "RECOMMENDED KEYS:\t"+strings.Join(m.RecommendedKeys, ", "))
	}
	if f.ListType != "" {
		lt := f.ListType
		if len(f.ListMapKeys) > 0 {
			lt += ", keyed by " + strings.Join(f.ListMapKeys, ", ")
		}
		out = append(out, "LIST TYPE:\t"+lt+" (server-side apply)")
	}
	if m.RetainKeys {
		out = append(out, "RETAIN KEYS:\tyes: a patch with $retainKeys clears the fields it does not list")
	}
	does := Summary(f)
	if does == "" {
		does = "replaces the value; null deletes the field"
	}
	out = append(out, "A PATCH:\t"+does)
	return out
}

// Summary says in a few words what a patch does with the field; "" for a
// scalar field.
func Summary(f *schema.Field) string {
	t := f.Type
	m := f.Meta
	var s string
	switch {
	case t != nil && t.Kind == schema.List:
		switch {
		case m.Strategy == schema.StrategyMerge && len(m.MergeKey) > 0:
			s = "items merge by " + strings.Join(m.MergeKey, ", ")
		case m.Strategy == schema.StrategyMerge:
			s = "items merge as a set"
		default:
			s = "replaces the whole list"
		}
		switch rec := strings.Join(m.RecommendedKeys, ", "); {
		case rec == "" || equalKeys(m.RecommendedKeys, m.MergeKey):
		case len(m.MergeKey) == 0:
			s += "; items with $patchMergeKey: [" + rec + "] merge by it instead"
		default:
			s += "; $patchMergeKey: [" + rec + "] identifies items fully"
		}
	case t != nil && (t.Kind == schema.Object || t.Kind == schema.Map):
		if m.Strategy == schema.StrategyReplace {
			s = "replaces the whole object"
		} else {
			s = "merges field by field"
		}
	default:
		return ""
	}
	if m.RetainKeys {
		s += "; honours $retainKeys"
	}
	return s
}

func equalKeys(a, b []string) bool {
	return strings.Join(a, ",") == strings.Join(b, ",")
}

// suggestField returns "; did you mean X?" for a field t does not have,
// "" when none of its fields is near.
func suggestField(t *schema.Type, name string) string {
	var names []string
	for _, f := range t.Fields() {
		names = append(names, f.Name)
	}
	if s := suggest.DidYouMean(name, names, nil); s != "" {
		return "; " + s
	}
	return ""
}

// suggestKind returns "did you mean X?" for a name no kind of s has, ""
// when none is near.
func suggestKind(s *schema.Schema, name string) string {
	var names []string
	for _, gvk := range s.Kinds() {
		if !strings.HasSuffix(gvk.Kind, "List") {
			names = append(names, s.Spellings(gvk)...)
		}
	}
	return suggest.DidYouMean(strings.ToLower(name), names, nil)
}

// findKind finds the kind the first words name: "deployment" or
// "deployment.apps" (kind.group, the group's words following), preferring
// like kubectl (schema.SortPreferred). It returns the remaining words as
// the path.
func findKind(s *schema.Schema, words []string, apiVersion string) (schema.GroupVersionKind, *schema.Type, []string, error) {
	var matches []schema.GroupVersionKind
	used := 1
	for _, gvk := range s.FindKinds(words[0]) {
		if apiVersion == "" || gvk.APIVersion() == apiVersion {
			matches = append(matches, gvk)
		}
	}
	if len(matches) == 0 {
		err := &UnknownKindError{Name: words[0], APIVersion: apiVersion}
		if apiVersion == "" {
			err.Suggestion = suggestKind(s, words[0])
		}
		return schema.GroupVersionKind{}, nil, nil, err
	}
	// kind.group: the longest run of following words that qualifies it
	for n := len(words); n >= 2; n-- {
		qualified := strings.Join(words[:n], ".")
		var in []schema.GroupVersionKind
		for _, gvk := range matches {
			if s.NameMatches(qualified, gvk) {
				in = append(in, gvk)
			}
		}
		if len(in) > 0 {
			matches, used = in, n
			break
		}
	}
	gvk := matches[0]
	for _, other := range matches[1:] {
		if other.Group != gvk.Group && other.Version == gvk.Version && (gvk.Group == "") == (other.Group == "") {
			return schema.GroupVersionKind{}, nil, nil, fmt.Errorf("kind %q is in groups %s and %s: name one (%s.%s)", words[0], gvk.Group, other.Group, words[0], gvk.Group)
		}
	}
	return gvk, s.Kind(gvk.APIVersion(), gvk.Kind), words[used:], nil
}

// UnknownKindError is the error of Kind when the schema has no kind of
// the name asked for. Where a custom resource's schema comes from (a flag,
// a project file, a box of the playground) is for the caller to say.
type UnknownKindError struct {
	Name       string // as asked for
	APIVersion string // the version asked for; "": any
	Suggestion string // "did you mean ...?", or ""
}

func (e *UnknownKindError) Error() string {
	msg := fmt.Sprintf("no kind named %q", e.Name)
	if e.APIVersion != "" {
		msg += " in " + e.APIVersion
	}
	if e.Suggestion != "" {
		msg += "; " + e.Suggestion
	}
	return msg
}
