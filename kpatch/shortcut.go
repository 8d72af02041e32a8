package kpatch

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/schema"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// Shortcuts: a path whose field is not a field of the type where it
// stands is completed by the shallowest path to a field of that name
// below it, through objects only (not through lists or maps, where it would
// not be clear which item is meant): replicas is spec.replicas in a
// Deployment, containers is spec.template.spec.containers in any workload
// (spec.jobTemplate.spec.template.spec.containers in a CronJob), labels is
// metadata.labels, not the pod template's. Two paths of the same depth are
// an error that lists them. A full path is never rewritten. The status of
// an object is not searched: patches set desired state, and status.replicas
// would otherwise make every replicas ambiguous.

type shortcutKey struct {
	t    *schema.Type
	name string
}

// shortcutCache remembers shortcuts per type and name; it is shared by the
// goroutines of one Apply.
type shortcutCache struct {
	mu sync.Mutex
	m  map[shortcutKey]shortcutResult
}

type shortcutResult struct {
	path      []string
	ambiguous []string // the paths of the same depth, when there are several
}

// maxShortcutDepth bounds the search.
const maxShortcutDepth = 8

// shortcut returns the full path the field of st stands for below t, nil
// when there is none. where names the place, for messages.
func (ap *applier) shortcut(t *schema.Type, st syntax.Step, where string) (syntax.Path, error) {
	k := shortcutKey{t, st.Field}
	ap.shortcuts.mu.Lock()
	res, ok := ap.shortcuts.m[k]
	ap.shortcuts.mu.Unlock()
	if !ok {
		res = findShortcut(t, st.Field)
		ap.shortcuts.mu.Lock()
		ap.shortcuts.m[k] = res
		ap.shortcuts.mu.Unlock()
	}
	if res.ambiguous != nil {
		return nil, &syntax.Error{Pos: st.Pos, Msg: fmt.Sprintf("%q is not a field of %s and could be %s: write the full path",
			st.Field, where, strings.Join(res.ambiguous, " or "))}
	}
	if res.path == nil {
		return nil, nil
	}
	full := make(syntax.Path, len(res.path))
	for i, f := range res.path {
		full[i] = syntax.Step{Pos: st.Pos, Field: f, Quoted: true}
	}
	return full, nil
}

func findShortcut(t *schema.Type, name string) shortcutResult {
	type entry struct {
		t    *schema.Type
		path []string
	}
	level := []entry{{t: t}}
	// the depth each type was first reached at: a type is explored again
	// only from another path of the same depth, so that two equally deep
	// paths are found (and reported as ambiguous) and recursion ends
	firstDepth := map[*schema.Type]int{t: 0}
	for depth := 1; depth <= maxShortcutDepth && len(level) > 0; depth++ {
		var found [][]string
		var next []entry
		for _, e := range level {
			for _, f := range e.t.Fields() {
				if f.Type == nil || f.Type.Kind != schema.Object || depth == 1 && f.Name == "status" {
					continue
				}
				p := append(append([]string(nil), e.path...), f.Name)
				if f.Type.Field(name) != nil {
					found = append(found, append(append([]string(nil), p...), name))
				}
				if d, seen := firstDepth[f.Type]; !seen || d == depth {
					firstDepth[f.Type] = depth
					next = append(next, entry{t: f.Type, path: p})
				}
			}
		}
		switch len(found) {
		case 0:
			level = next
			continue
		case 1:
			return shortcutResult{path: found[0]}
		}
		var names []string
		for _, p := range found {
			names = append(names, fieldsText(p))
		}
		sort.Strings(names)
		return shortcutResult{ambiguous: names}
	}
	return shortcutResult{}
}

// itemHint explains a field that is no shortcut because it belongs to the
// items of lists below t (ports in a Deployment is a field of each
// container): it names the shallowest such lists and shows how to select an
// item. It returns "" when name is nowhere below t.
func itemHint(t *schema.Type, name string) string {
	type entry struct {
		t    *schema.Type
		path []string
		key  []string // merge key of the last list on the path
	}
	level := []entry{{t: t}}
	seen := map[*schema.Type]bool{t: true}
	for depth := 1; depth <= maxShortcutDepth && len(level) > 0; depth++ {
		var found []entry
		var next []entry
		for _, e := range level {
			for _, f := range e.t.Fields() {
				if f.Type == nil || depth == 1 && f.Name == "status" {
					continue
				}
				p := append(append([]string(nil), e.path...), f.Name)
				switch {
				case f.Type.Kind == schema.Object:
					if !seen[f.Type] {
						seen[f.Type] = true
						next = append(next, entry{t: f.Type, path: p, key: e.key})
					}
				case f.Type.Kind == schema.List && f.Type.Elem != nil && f.Type.Elem.Kind == schema.Object:
					if f.Type.Elem.Field(name) != nil {
						found = append(found, entry{path: p, key: f.Meta.MergeKey})
					} else if !seen[f.Type.Elem] {
						seen[f.Type.Elem] = true
						next = append(next, entry{t: f.Type.Elem, path: p})
					}
				}
			}
		}
		if len(found) == 0 {
			level = next
			continue
		}
		sort.Slice(found, func(i, j int) bool {
			return fieldsText(found[i].path) < fieldsText(found[j].path)
		})
		names := make([]string, len(found))
		for i, e := range found {
			names[i] = fieldsText(e.path)
		}
		first := found[0]
		sel := &syntax.ItemSelector{Op: syntax.SelIndex}
		if len(first.key) > 0 {
			sel.Op = syntax.SelMatch
			for _, k := range first.key {
				sel.Conds = append(sel.Conds, syntax.Cond{Key: []string{k}, Value: strings.ToUpper(k)})
			}
		}
		example := syntax.Path{{Field: first.path[len(first.path)-1]}, {Sel: sel}, {Field: name}}
		return fmt.Sprintf("; it is a field of the items of %s: select an item first, e.g. %s",
			strings.Join(names, ", "), example)
	}
	return ""
}

// fieldsText writes a path of fields (a shortcut's, a selector's key) as
// every path is written (fieldpath's text).
func fieldsText(names []string) string {
	p := make(fieldpath.Path, len(names))
	for i, n := range names {
		p[i] = fieldpath.Field(n)
	}
	return p.String()
}
