package kpatch

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/suggest"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// What a patch that names nothing was probably meant to name: the hints
// that follow "no object matches ...", "has no field ..." and "has no item
// matching ...", by edit distance (internal/suggest) from the names the
// schema and the manifests hold.

// targetHint says why a target picks no object of set, and what it was
// probably meant to be: a kind no object has (and, if no schema knows it
// either, a likely typo) with the nearest kind, or a name no object of the
// kind has with the nearest names. It returns "" when it has nothing to
// add, else " (...)".
func targetHint(sel resource.Selector, set *resource.Set, s *schema.Schema) string {
	if kind, name, ok := strings.Cut(strings.TrimSpace(sel.Name), " "); sel.Bare && ok && len(s.FindKinds(kind)) > 0 {
		// [deployment shop]: a space where the dot goes
		return fmt.Sprintf(" (a target is kind.name: did you mean %s.%s?)", kind, strings.Join(strings.Fields(name), "."))
	}
	if sel.Bare {
		if len(s.FindKinds(sel.Name)) > 0 {
			var of []*resource.Resource
			for _, r := range set.Resources {
				if s.NameMatches(sel.Name, r.GVK()) {
					of = append(of, r)
				}
			}
			here := ""
			if ids := kindNames(of, 3); ids != "" {
				here = " (here " + ids + ")"
			}
			return fmt.Sprintf(" (no object is named %s, and %s is a kind: write %s.NAME%s, or %s.* for every one)", sel.Name, sel.Name, sel.Name, here, sel.Name)
		}
		var names []string
		for _, r := range set.Resources {
			names = append(names, r.Name)
		}
		if near := suggest.Closest(sel.Name, names); len(near) > 0 {
			return " (" + suggest.Phrase(near, func(n string) string { return n }) + ")"
		}
		return ""
	}
	if sel.ID {
		return identityHint(sel, set)
	}
	if sel.Kind == "" || sel.Regexp && regexp.QuoteMeta(sel.Kind) != sel.Kind {
		return ""
	}
	var ofKind []*resource.Resource
	for _, r := range set.Resources {
		if s.NameMatches(sel.Kind, r.GVK()) {
			ofKind = append(ofKind, r)
		}
	}
	with := func(kind, name string) string {
		t := sel
		t.Kind, t.Name = kind, name
		return t.String()
	}
	if len(ofKind) == 0 {
		// a name written where the kind goes ([loadgenerator.spec], for
		// [deployment.loadgenerator.spec] or [loadgenerator]): the
		// objects of that name
		var named []*resource.Resource
		for _, r := range set.Resources {
			if r.Name == sel.Kind {
				named = append(named, r)
			}
		}
		if ids := kindNames(named, 0); ids != "" {
			return fmt.Sprintf(" (no object is a %s, but %s is the name of %s: a target is kind.name, or a name alone with no path after it)", sel.Kind, sel.Kind, ids)
		}
		// the kinds of the objects first, then those of the schema
		var present []string
		seen := map[schema.GroupVersionKind]bool{}
		for _, r := range set.Resources {
			if gvk := r.GVK(); !seen[gvk] {
				seen[gvk] = true
				present = append(present, s.Spellings(gvk)...)
			}
		}
		head := strings.ToLower(sel.Kind)
		if near := suggest.Closest(head, present); len(near) > 0 {
			return fmt.Sprintf(" (no object is a %s: %s)", sel.Kind, suggest.Phrase(near, func(k string) string { return with(k, sel.Name) }))
		}
		if len(s.FindKinds(sel.Kind)) > 0 {
			return fmt.Sprintf(" (no object is a %s)", sel.Kind)
		}
		var known []string
		for _, gvk := range s.Kinds() {
			if !strings.HasSuffix(gvk.Kind, "List") {
				known = append(known, s.Spellings(gvk)...)
			}
		}
		hint := fmt.Sprintf(" (no object is a %s, and no schema knows the kind", sel.Kind)
		if near := suggest.Closest(head, known); len(near) > 0 {
			return hint + ": " + suggest.Phrase(near, func(k string) string { return with(k, sel.Name) }) + ")"
		}
		return hint + ")"
	}
	if _, exact := sel.ExactName(); !exact {
		return ""
	}
	var names, elsewhere []string
	for _, r := range ofKind {
		names = append(names, r.Name)
		if r.Name == sel.Name {
			ns := r.Namespace
			if ns == "" {
				ns = "default"
			}
			elsewhere = append(elsewhere, ns)
		}
	}
	if len(elsewhere) > 0 {
		return fmt.Sprintf(" (%s.%s is in namespace %s)", sel.Kind, sel.Name, strings.Join(elsewhere, ", "))
	}
	if near := suggest.Closest(sel.Name, names); len(near) > 0 {
		return " (" + suggest.Phrase(near, func(n string) string { return with(sel.Kind, n) }) + ")"
	}
	return ""
}

// identityHint is targetHint for a selector that names one object by its
// identity (a strategic merge patch without a target, in a kustomization
// or a kustomize patch file): the object of that name in another
// namespace, or the nearest names of the objects of its apiVersion and
// kind.
func identityHint(sel resource.Selector, set *resource.Set) string {
	var names, elsewhere []string
	for _, r := range set.Resources {
		if r.APIVersion != sel.APIVersion || r.Kind != sel.Kind {
			continue
		}
		names = append(names, r.Name)
		if r.Name == sel.Name && r.Namespace != sel.Namespace {
			ns := r.Namespace
			if ns == "" {
				ns = "default"
			}
			elsewhere = append(elsewhere, ns)
		}
	}
	if len(elsewhere) > 0 {
		return fmt.Sprintf(" (%s is in namespace %s: the patch's metadata.namespace picks the namespace)", sel.Name, strings.Join(elsewhere, ", "))
	}
	near := suggest.Closest(sel.Name, names)
	if len(near) == 0 {
		return ""
	}
	return " (" + suggest.Phrase(near, func(n string) string {
		id := sel
		id.Name = n
		return id.String()
	}) + ")"
}

// kindNames lists objects as a target names them (Resource.Target),
// sorted: all of them,
// or the first most of them and how many more ("a, b, c and 4 more");
// most 0: all.
func kindNames(rs []*resource.Resource, most int) string {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.Target())
	}
	sort.Strings(ids)
	ids = slices.Compact(ids)
	if most > 0 && len(ids) > most {
		return strings.Join(ids[:most], ", ") + fmt.Sprintf(" and %d more", len(ids)-most)
	}
	return strings.Join(ids, ", ")
}

// suggestField returns "; did you mean X?" for a field name that t does
// not have: the nearest of t's fields, and, unless the name was quoted,
// of the shortcuts below t. A field of the object's status is named
// instead (shortcuts do not search the status). It returns "" when none
// is near.
func suggestField(t *schema.Type, name string, quoted bool) string {
	if st := t.Field("status"); st != nil && st.Type != nil && st.Type.Kind == schema.Object && st.Type.Field(name) != nil {
		return fmt.Sprintf("; status.%s is the object's status, which shortcuts do not reach: write the full path to set it", name)
	}
	var names []string
	for _, f := range t.Fields() {
		names = append(names, f.Name)
	}
	if !quoted {
		for _, sc := range Shortcuts(t) {
			names = append(names, sc.Name)
		}
	}
	if s := suggest.DidYouMean(name, names, nil); s != "" {
		return "; " + s
	}
	return ""
}

// selectorHint says why no item of a list matches the conditions of a
// selector, with the selector it was probably meant to be: a key no item
// has (nor the items' schema, elem) with the nearest keys, or a value no
// item has with the nearest values. It returns "" when it has nothing to
// add, else " (...)".
func selectorHint(items []*yaml.Node, elem *schema.Type, conds []syntax.Cond) string {
	for i, c := range conds {
		if len(c.Key) == 0 {
			continue
		}
		// the keys of the items at the level of the condition's last key
		parents := make([]*yaml.Node, 0, len(items))
		for _, it := range items {
			v := it
			for _, k := range c.Key[:len(c.Key)-1] {
				v = tree.MapGet(v, k)
			}
			if v != nil && v.Kind == yaml.MappingNode {
				parents = append(parents, v)
			}
		}
		last := c.Key[len(c.Key)-1]
		var keys, values []string
		has := false
		for _, p := range parents {
			for j := 0; j+1 < len(p.Content); j += 2 {
				k, v := p.Content[j].Value, p.Content[j+1]
				keys = append(keys, k)
				if k == last {
					has = true
					if v.Kind == yaml.ScalarNode {
						values = append(values, v.Value)
					}
				}
			}
		}
		t := elem
		for _, k := range c.Key[:len(c.Key)-1] {
			if t == nil || t.Kind != schema.Object {
				t = nil
				break
			}
			if f := t.Field(k); f != nil {
				t = f.Type
			} else {
				t = nil
			}
		}
		inSchema := false
		if t != nil && t.Kind == schema.Object {
			inSchema = t.Field(last) != nil
			for _, f := range t.Fields() {
				keys = append(keys, f.Name)
			}
		}
		sel := func(key []string, value string) string {
			cs := append([]syntax.Cond(nil), conds...)
			cs[i] = syntax.Cond{Key: key, Value: value, Quoted: c.Quoted}
			return (&syntax.ItemSelector{Op: syntax.SelMatch, Conds: cs}).String()
		}
		field := fieldsText(c.Key)
		switch {
		case !has && !inSchema:
			near := suggest.Closest(last, keys)
			if len(near) == 0 {
				return fmt.Sprintf(" (no item has a field %s)", field)
			}
			return fmt.Sprintf(" (no item has a field %s: %s)", field, suggest.Phrase(near, func(k string) string {
				return sel(append(append([]string(nil), c.Key[:len(c.Key)-1]...), k), c.Value)
			}))
		case !has:
			continue
		}
		matched := false
		for _, v := range values {
			if v == c.Value {
				matched = true
			}
		}
		if matched {
			continue // this condition holds for some item: another one does not
		}
		if near := suggest.Closest(c.Value, values); len(near) > 0 {
			return " (" + suggest.Phrase(near, func(v string) string { return sel(c.Key, v) }) + ")"
		}
	}
	return ""
}

// elemOf returns the item type of a list type, nil for anything else.
func elemOf(t *schema.Type) *schema.Type {
	if t == nil || t.Kind != schema.List {
		return nil
	}
	return t.Elem
}
