// Package conflict finds patches that overlap: two patches that set one
// path to different values, a patch that deletes what another sets, a
// strategic or merge patch and a field patch touching the same path.
//
// Every patch is reduced to effects: a path of an object (list items named
// by their merge key values, as server-side apply names them, or by index)
// and what happens there. Two effects conflict where their paths meet (one
// is the other or lies below it) and their outcomes differ. One mechanism
// serves field, strategic and merge patches alike.
package conflict

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// Op is what an effect does at its path.
type Op uint8

// The operations.
const (
	Set    Op = iota // sets a value (Value holds it)
	Delete           // deletes the field or item
	Insert           // adds an item to a list
	Merge            // changes what is there without replacing it (list merges, $retainKeys, ...)
)

// String returns the verb messages use for the operation.
func (o Op) String() string {
	return [...]string{"sets", "deletes", "inserts into", "merges into"}[o]
}

// Effect is what one patch does at one path of one object.
type Effect struct {
	Resource string // the object's identity
	Path     string // e.g. spec.template.spec.containers[name=main].image
	Op       Op
	Value    string        // Set: the value (tree.Key form); compared for equality
	Shown    string        // Set: the value as written, for messages
	Patch    string        // "field", "strategic" or "merge"
	Pos      tree.Position // where the patch says it (the line of the field, for a strategic patch)
	// From identifies the patch (its header or list item): effects of one
	// patch never conflict with each other.
	From tree.Position
}

// Conflict is a pair of effects that do not agree.
type Conflict struct {
	A, B Effect
}

// String describes the conflict: the object, then both sides with their
// positions.
func (c Conflict) String() string {
	what := func(e Effect) string {
		s := fmt.Sprintf("%s (%s patch) %s %s", strings.TrimSuffix(e.Pos.String(), ": "), e.Patch, e.Op, e.Path)
		if e.Op == Set {
			s += " to " + e.Shown
		}
		return s
	}
	return fmt.Sprintf("%s: %s, and %s", c.A.Resource, what(c.A), what(c.B))
}

// Recorder collects effects while patches are applied. It is not safe for
// concurrent use.
type Recorder struct {
	effects []Effect
}

// Add records an effect.
func (r *Recorder) Add(e Effect) {
	if r != nil {
		r.effects = append(r.effects, e)
	}
}

// Effects returns what was recorded.
func (r *Recorder) Effects() []Effect {
	if r == nil {
		return nil
	}
	return r.effects
}

// Find returns the conflicts among effects, each pair once, ordered by
// the position of the later patch. Effects of one patch (same position)
// never conflict with each other.
func Find(effects []Effect) []Conflict {
	type key struct{ res, path string }
	byPath := map[key][]int{}
	for i, e := range effects {
		k := key{e.Resource, e.Path}
		byPath[k] = append(byPath[k], i)
	}
	seen := map[[2]int]bool{}
	var out []Conflict
	report := func(i, j int) {
		if i > j {
			i, j = j, i
		}
		if seen[[2]int{i, j}] || sameSource(effects[i], effects[j]) {
			return
		}
		seen[[2]int{i, j}] = true
		out = append(out, Conflict{A: effects[i], B: effects[j]})
	}
	for i, e := range effects {
		// the same path
		for _, j := range byPath[key{e.Resource, e.Path}] {
			if j != i && disagree(e, effects[j], true) {
				report(i, j)
			}
		}
		// an ancestor path that replaces or deletes the whole value
		for _, anc := range ancestors(e.Path) {
			for _, j := range byPath[key{e.Resource, anc}] {
				if disagree(effects[j], e, false) {
					report(j, i)
				}
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		pa, pb := out[a].B.Pos, out[b].B.Pos
		if pa.File != pb.File {
			return pa.File < pb.File
		}
		if pa.Line != pb.Line {
			return pa.Line < pb.Line
		}
		return out[a].A.Path < out[b].A.Path
	})
	return out
}

func sameSource(a, b Effect) bool {
	if a.From != (tree.Position{}) || b.From != (tree.Position{}) {
		return a.From == b.From && a.Patch == b.Patch
	}
	return a.Pos == b.Pos && a.Patch == b.Patch
}

// disagree reports whether two effects conflict: a at a path, b at the
// same path (same) or below it.
func disagree(a, b Effect, same bool) bool {
	if (a.Patch == "field") != (b.Patch == "field") {
		// a strategic or merge patch and a field patch touching one path
		return same || a.Op == Set || a.Op == Delete
	}
	if !same {
		// below a value a patch replaces or deletes
		return a.Op == Set || a.Op == Delete
	}
	switch {
	case a.Op == Set && b.Op == Set:
		return a.Value != b.Value
	case a.Op == Delete && b.Op == Delete:
		return false
	case a.Op == Insert && b.Op == Insert, a.Op == Merge && b.Op == Merge:
		return false
	}
	return true
}

// ancestors lists the paths above p, nearest first: a.b[x].c has a.b[x],
// a.b and a. Dots and brackets inside quotes do not count.
func ancestors(p string) []string {
	var cuts []int
	depth := 0
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"':
			for i++; i < len(p) && p[i] != '"'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
		case c == '[':
			if depth == 0 && i > 0 {
				cuts = append(cuts, i)
			}
			depth++
		case c == ']':
			depth--
		case c == '.' && depth == 0:
			cuts = append(cuts, i)
		}
	}
	out := make([]string, len(cuts))
	for i, c := range cuts {
		out[len(cuts)-1-i] = p[:c]
	}
	return out
}

// ItemName names a list item in a path: by its merge key values when the
// list has a merge key and the item has them, else by index.
func ItemName(item *yaml.Node, key []string, index int) string {
	if len(key) > 0 && item.Kind == yaml.MappingNode {
		parts := make([]string, 0, len(key))
		for _, k := range key {
			v := tree.MapGet(item, k)
			if v == nil || !tree.KindOf(v).Scalar() {
				return "[" + strconv.Itoa(index) + "]"
			}
			val := v.Value
			if val == "" || strings.ContainsAny(val, ".,[]=\"' ") {
				val = strconv.Quote(val)
			}
			parts = append(parts, k+"="+val)
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return "[" + strconv.Itoa(index) + "]"
}

// JoinField appends a field to a path.
func JoinField(path, field string) string {
	if field == "" || strings.ContainsAny(field, ".[]=\"' ") {
		field = strconv.Quote(field)
	}
	if path == "" {
		return field
	}
	return path + "." + field
}

// PatchEffects reduces a strategic (strategic true) or JSON merge patch for
// one object to effects.
func PatchEffects(body *yaml.Node, t *schema.Type, strategic bool, resource string, pos tree.Position) []Effect {
	w := &walker{resource: resource, pos: pos, patch: "merge"}
	if strategic {
		w.patch = "strategic"
	}
	w.object(body, t, "", strategic)
	return w.out
}

type walker struct {
	resource string
	pos      tree.Position
	patch    string
	out      []Effect
}

// add records an effect; at is the patch node it comes from, whose line
// and column are the effect's position.
func (w *walker) add(path string, op Op, v, at *yaml.Node) {
	e := Effect{Resource: w.resource, Path: path, Op: op, Patch: w.patch, Pos: w.pos, From: w.pos}
	if at != nil && at.Line > 0 {
		e.Pos.Line, e.Pos.Column = at.Line, at.Column
	}
	if op == Set && v != nil {
		e.Value = fmt.Sprint(tree.KindOf(v)) + ":" + tree.Key(v)
		if !tree.KindOf(v).Scalar() {
			b, _ := tree.MarshalJSON(v)
			e.Value, e.Shown = string(b), string(b)
		} else {
			e.Shown = v.Value
		}
	}
	w.out = append(w.out, e)
}

func (w *walker) object(n *yaml.Node, t *schema.Type, path string, strategic bool) {
	if tree.KindOf(n) != tree.Object {
		w.add(path, Set, n, n)
		return
	}
	if strategic {
		if d := tree.MapGet(n, "$patch"); d != nil {
			if d.Value == "delete" {
				w.add(path, Delete, nil, d)
			} else {
				w.add(path, Set, n, n)
			}
			return
		}
		if tree.MapGet(n, "$retainKeys") != nil && path != "" {
			w.add(path, Merge, nil, n)
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, v := n.Content[i], n.Content[i+1]
		k := kn.Value
		if strategic && strings.HasPrefix(k, "$") {
			if f, ok := strings.CutPrefix(k, "$deleteFromPrimitiveList/"); ok {
				w.add(JoinField(path, f), Merge, nil, kn)
			}
			continue // other directives order or restrict what the fields below do
		}
		p := JoinField(path, k)
		switch tree.KindOf(v) {
		case tree.Null:
			w.add(p, Delete, nil, kn)
		case tree.Object:
			var sub *schema.Type
			var meta schema.Meta
			if t != nil {
				sub, meta, _ = t.PatchField(k, false)
			}
			if strategic && meta.Strategy == schema.StrategyReplace {
				w.add(p, Set, v, kn)
				continue
			}
			w.object(v, sub, p, strategic)
		case tree.Array:
			var elem *schema.Type
			var meta schema.Meta
			if t != nil {
				elem, meta, _ = t.PatchField(k, true)
			}
			w.list(kn, v, elem, meta, p, strategic)
		default:
			w.add(p, Set, v, kn)
		}
	}
}

// list records the effects of a list value; key is its key in the patch.
func (w *walker) list(key, n *yaml.Node, elem *schema.Type, meta schema.Meta, path string, strategic bool) {
	if !strategic || meta.Strategy != schema.StrategyMerge {
		w.add(path, Set, n, key)
		return
	}
	if len(meta.MergeKey) == 0 {
		w.add(path, Merge, nil, key) // a merged list of scalars
		return
	}
	for i, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			continue
		}
		if d := tree.MapGet(item, "$patch"); d != nil {
			if d.Value == "delete" {
				w.add(path+ItemName(item, meta.MergeKey, i), Delete, nil, d)
			} else {
				w.add(path, Set, n, key)
			}
			continue
		}
		w.object(item, elem, path+ItemName(item, meta.MergeKey, i), true)
	}
}

// JSONPatchEffects reduces a JSON patch (RFC 6902) for one object to
// effects, reading the object (before the patch) to name list items by
// their merge key: an add to a list is an insert, add and replace set,
// remove deletes, move deletes its source and sets its target, copy sets
// its target; test changes nothing. Operations that do not read as
// operations give no effect (applying the patch reports them).
func JSONPatchEffects(doc, ops *yaml.Node, t *schema.Type, resource string, pos tree.Position) []Effect {
	var out []Effect
	add := func(e Effect, at *yaml.Node) {
		e.Resource, e.Patch, e.Pos, e.From = resource, "json", pos, pos
		if at != nil && at.Line > 0 {
			e.Pos.Line, e.Pos.Column = at.Line, at.Column
		}
		out = append(out, e)
	}
	root := tree.Root(doc)
	for _, op := range ops.Content {
		if op.Kind != yaml.MappingNode {
			continue
		}
		str := func(k string) (string, bool) {
			v := tree.MapGet(op, k)
			if v == nil || v.Kind != yaml.ScalarNode {
				return "", false
			}
			return v.Value, true
		}
		name, _ := str("op")
		ptr, ok := str("path")
		if !ok {
			continue
		}
		path, insert := pointerPath(root, t, ptr, name == "add" || name == "move" || name == "copy")
		switch name {
		case "add", "replace", "copy":
			if insert {
				add(Effect{Path: path, Op: Insert}, op)
				continue
			}
			v := tree.MapGet(op, "value")
			if name == "copy" {
				from, _ := str("from")
				fromPath, _ := pointerPath(root, t, from, false)
				add(Effect{Path: path, Op: Set, Value: "copy:" + fromPath, Shown: "a copy of " + fromPath}, op)
				continue
			}
			add(valueEffect(path, v), op)
		case "remove":
			add(Effect{Path: path, Op: Delete}, op)
		case "move":
			from, _ := str("from")
			fromPath, _ := pointerPath(root, t, from, false)
			add(Effect{Path: fromPath, Op: Delete}, op)
			if insert {
				add(Effect{Path: path, Op: Insert}, op)
			} else {
				add(Effect{Path: path, Op: Set, Value: "move:" + fromPath, Shown: "what was at " + fromPath}, op)
			}
		}
	}
	return out
}

// valueEffect is the effect of setting path to v.
func valueEffect(path string, v *yaml.Node) Effect {
	e := Effect{Path: path, Op: Set}
	if v == nil {
		return e
	}
	e.Value = fmt.Sprint(tree.KindOf(v)) + ":" + tree.Key(v)
	e.Shown = v.Value
	if !tree.KindOf(v).Scalar() {
		b, _ := tree.MarshalJSON(v)
		e.Value, e.Shown = string(b), string(b)
	}
	return e
}

// pointerPath turns a JSON pointer into a canonical path, reading the
// object to name list items by their merge key. insert reports a pointer to
// a new list item (an index of an add, or "-"); the path is then the list's.
func pointerPath(root *yaml.Node, t *schema.Type, ptr string, adding bool) (path string, insert bool) {
	if ptr == "" {
		return "", false
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	n := root
	var key []string // merge key of the list n is, when it is one
	for i, tok := range toks {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		last := i == len(toks)-1
		if n != nil && n.Kind == yaml.SequenceNode {
			idx, err := strconv.Atoi(tok)
			if tok == "-" || err != nil || idx < 0 || idx >= len(n.Content) || last && adding {
				return path, last
			}
			item := n.Content[idx]
			path += ItemName(item, key, idx)
			n, key = item, nil
			if t != nil {
				t = t.Elem
			}
			continue
		}
		path = JoinField(path, tok)
		key = nil
		if t != nil {
			if f := t.Field(tok); f != nil {
				key, t = f.Meta.MergeKey, f.Type
			} else if t.Kind == schema.Map {
				t = t.Elem
			} else {
				t = nil
			}
		}
		if n != nil && n.Kind == yaml.MappingNode {
			n = tree.MapGet(n, tok)
		} else {
			n = nil
		}
	}
	return path, false
}
