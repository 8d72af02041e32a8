// Package explain words how a patch treats a field of a schema: the text
// of kmerge explain, which the language server's hover shows too.
package explain

import (
	"strconv"
	"strings"

	"github.com/kmerge/kmerge/schema"
)

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

// Details says how a patch treats the field.
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
	out = append(out, "A PATCH:\t"+Summary(f))
	return out
}

// Summary says in a few words what a patch does with the field.
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
