package kpatch

import (
	"sort"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// Place is what a path leads to in an object, for tools that show what a
// patch would touch (an editor's hover, completion and go-to-definition).
type Place struct {
	// Node is the value there, nil when it is absent. It belongs to a
	// copy of the object, with the positions of the original.
	Node *yaml.Node
	// Key is the key of Node in its mapping, when it is a field there.
	Key   *yaml.Node
	Type  *schema.Type   // its schema type, nil when unknown
	Field *schema.Field  // the schema field it is the value of, when known
	Path  fieldpath.Path // spec.template.spec.containers[name=web].image
}

// Lookup follows path from the object r as a patch would (shortcuts,
// selectors, every item of a list without a selector) and returns the
// places it reaches, without changing r. Fields that do not exist are
// places too (with their schema type, Node nil); a selector that matches
// nothing gives no place. The error is the one applying a patch with that
// path would report, at the positions of the path's steps, a Secret's
// values masked unless opts.ShowSecrets.
func Lookup(r *resource.Resource, path syntax.Path, opts Options) ([]Place, error) {
	if opts.Schema == nil {
		opts.Schema = schema.Builtin()
	}
	if opts.Vars == nil {
		opts.Vars = NewVars()
	}
	opts.Strict, opts.Trace, opts.Records = false, nil, nil
	copied := *r
	copied.Root = tree.Clone(r.Root)
	ap := &applier{opts: opts, res: &Result{}, touched: map[*resource.Resource]bool{},
		shortcuts: &shortcutCache{m: map[shortcutKey]shortcutResult{}}}
	root := place{node: copied.Root, typ: opts.Schema.Kind(r.APIVersion, r.Kind), r: &copied}
	var pos tree.Position
	if len(path) > 0 {
		pos = path[0].Pos
	}
	places, err := ap.walk([]place{root}, path, pos, true)
	if err != nil {
		if !opts.ShowSecrets && secret.Holds(r.APIVersion, r.Kind) {
			err = secret.ValuesOf(r.Root).Error(err) // as Run.Patch masks a patch's
		}
		return nil, err
	}
	out := make([]Place, len(places))
	for i, pl := range places {
		out[i] = Place{Node: pl.node, Type: pl.typ, Field: pl.field, Path: pl.path}
		if pl.node != nil && pl.parent != nil && pl.parent.Kind == yaml.MappingNode {
			if k := tree.MapIndex(pl.parent, pl.key); k >= 0 {
				out[i].Key = pl.parent.Content[k]
			}
		}
	}
	return out, nil
}

// Shortcut is a field name that a path may use at some type for a field
// below it: replicas for spec.replicas in a Deployment.
type Shortcut struct {
	Name string
	Path []string // the full path it stands for
}

// Shortcuts lists the shortcuts that work at t (see the rules above
// findShortcut), by name.
func Shortcuts(t *schema.Type) []Shortcut {
	if t == nil || t.Kind != schema.Object {
		return nil
	}
	names := map[string]bool{}
	seen := map[*schema.Type]bool{t: true}
	level := []*schema.Type{t}
	for depth := 1; depth <= maxShortcutDepth && len(level) > 0; depth++ {
		var next []*schema.Type
		for _, lt := range level {
			for _, f := range lt.Fields() {
				if f.Type == nil || f.Type.Kind != schema.Object || depth == 1 && f.Name == "status" || seen[f.Type] {
					continue
				}
				seen[f.Type] = true
				next = append(next, f.Type)
				for _, g := range f.Type.Fields() {
					if t.Field(g.Name) == nil {
						names[g.Name] = true
					}
				}
			}
		}
		level = next
	}
	var out []Shortcut
	for name := range names {
		if res := findShortcut(t, name); res.path != nil {
			out = append(out, Shortcut{Name: name, Path: res.path})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
