package change

import (
	"slices"
	"sort"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// A Stale is a patch that looks left behind by a change to what it
// patches: it writes nothing the object did not have already, or it adds
// an item to a list where it probably meant to change one (the item it
// named was renamed or removed upstream, and the patch now makes a new,
// incomplete one: kustomize issue 5801's incident, a container without an
// image). Such a patch is not wrong, and kmerge applies it; `kmerge check`
// reports it.
type Stale struct {
	Pos  tree.Position // NoChange: the patch (Change.Patch, or Pos when unknown); NewItem: the item in it
	Kind StaleKind
	// Writes is, for NoChange, the places the patch writes (each with the
	// value the object had already); for NewItem, the new item's path.
	Writes []fieldpath.Path
	// Missing are, for NewItem, the fields every item the list had has
	// and the new one lacks (image), and Items the keys of those items
	// (the names the patch may have meant), in the list's order.
	Missing []string
	Items   []string
}

// StaleKind says why a patch looks stale.
type StaleKind uint8

// The kinds of Stale.
const (
	// NoChange: every place the patch writes, the object had with that
	// value, and no earlier patch wrote there.
	NoChange StaleKind = iota
	// NewItem: the patch makes a new item of a list merged by key, which
	// lacks fields every item the list had has.
	NewItem
)

// Stales finds the stale patches among the changes the patches made to an
// object (in the order they made them, as Origins takes them), before
// being the object as it was read (nil: unknown, and nothing is found). A
// patch is NoChange when each of its changes that writes (Set, Insert,
// Create, Delete, Retain) is a Set of the value the object had there, or a
// Create of an object or list it had, with no earlier change of another
// patch at, above or below that place; a patch with no writing change is
// none. A patch is NewItem for each item it creates by key in a list of
// objects that had items, when the item lacks a field every one of them
// has (the key fields aside). The result is in the order of the patches'
// first changes.
func Stales(changes []Change, before *yaml.Node) []Stale {
	if before == nil {
		return nil
	}
	items := &fieldpath.ItemIndex{}
	type patch struct {
		first   int
		writes  int
		noops   []fieldpath.Path
		changed bool
	}
	lists := map[*yaml.Node]*listShape{}
	created := map[string]*newItemOf{} // the items patches created by key, by their paths' text
	var createdOrder []*newItemOf
	patches := map[tree.Position]*patch{}
	var order []tree.Position
	var out []Stale
	var w writers // the places earlier changes wrote, not as no-ops
	for i, c := range changes {
		p := patches[c.patch()]
		if p == nil {
			p = &patch{first: i}
			patches[c.patch()] = p
			order = append(order, c.patch())
		}
		if !writes(c.Op) {
			continue
		}
		p.writes++
		had := items.Get(before, c.Path)
		switch {
		case w.other(c):
			p.changed = true // over another patch's change: that one is what it replaces
			w.add(c)
		case c.Op == Set && had != nil && tree.Equal(had, c.Value):
			p.noops = append(p.noops, c.Path)
		case c.Op == Create && had != nil && sameKind(had, c.Value):
			// an object or a list the object had: what goes into it is
			// changes of their own
		default:
			p.changed = true
			w.add(c)
		}
		// what a patch writes below an item it created: its fields
		for n := len(c.Path) - 1; n >= 1 && len(created) > 0; n-- {
			if it := created[c.Path[:n].String()]; it != nil && it.c.patch() == c.patch() && c.Path[n].Kind == fieldpath.FieldElement {
				it.has[c.Path[n].Name] = true
				break
			}
		}
		if last, ok := c.Path.Last(); c.Op == Create && had == nil && ok && last.Kind == fieldpath.KeyElement {
			it := &newItemOf{c: c, has: map[string]bool{}}
			for _, f := range last.Key {
				it.has[f.Name] = true
			}
			created[c.Path.String()] = it
			createdOrder = append(createdOrder, it)
		}
	}
	var firsts []int // of each of out, its patch's first change: the order of out
	for _, it := range createdOrder {
		if s, ok := it.check(before, items, lists); ok {
			out = append(out, s)
			firsts = append(firsts, patches[it.c.patch()].first)
		}
	}
	for _, pos := range order {
		p := patches[pos]
		if p.writes > 0 && !p.changed && len(p.noops) > 0 {
			out = append(out, Stale{Pos: pos, Kind: NoChange, Writes: p.noops})
			firsts = append(firsts, p.first)
		}
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return firsts[idx[i]] < firsts[idx[j]] })
	sorted := make([]Stale, len(out))
	for i, k := range idx {
		sorted[i] = out[k]
	}
	return sorted
}

// writers are the places changes wrote (not writing what the place had),
// by the text of their paths, with the positions of the patches that
// wrote there, and the places above them: a change is over another
// patch's when such a change wrote at its place, above it, or below it.
// Paths are compared as their texts: items by the key fields the patches
// wrote them with.
type writers struct {
	at, below map[string]positions
}

// positions are the patches that wrote a place: the first, and whether
// another did too.
type positions struct {
	first tree.Position
	more  bool
}

func (p positions) other(pos tree.Position) bool { return p.more || p.first != pos }

func (ps *positions) add(pos tree.Position) {
	if ps.first == (tree.Position{}) {
		ps.first = pos
	} else if ps.first != pos {
		ps.more = true
	}
}

// other reports whether a patch other than c's wrote at c's place, above
// it or below it.
func (w *writers) other(c Change) bool {
	if w.at == nil {
		return false
	}
	if p, ok := w.below[c.Path.String()]; ok && p.other(c.patch()) {
		return true
	}
	for n := len(c.Path); n >= 0; n-- {
		if p, ok := w.at[c.Path[:n].String()]; ok && p.other(c.patch()) {
			return true
		}
	}
	return false
}

// add notes the place c wrote, and the places above it.
func (w *writers) add(c Change) {
	if w.at == nil {
		w.at, w.below = map[string]positions{}, map[string]positions{}
	}
	k := c.Path.String()
	p := w.at[k]
	p.add(c.patch())
	w.at[k] = p
	for n := len(c.Path) - 1; n >= 0; n-- {
		k := c.Path[:n].String()
		p := w.below[k]
		p.add(c.patch())
		w.below[k] = p
	}
}

// sameKind reports whether two values are both objects or both lists.
func sameKind(a, b *yaml.Node) bool {
	ka, kb := tree.KindOf(a), tree.KindOf(b)
	return ka == kb && (ka == tree.Object || ka == tree.Array)
}

// listShape is what newItem needs of a list as it was: the fields every
// item has (nil: the list has items that are not objects, or none), and
// the items' keys by the fields of a key.
type listShape struct {
	common []string
	names  map[string][]string // by the key's field names, joined
}

// newItemOf is an item a patch created by key (a Create of an item the
// object did not have), and the fields the patch wrote in it.
type newItemOf struct {
	c   Change
	has map[string]bool
}

// check returns the Stale of a created item: when the list before has
// items, all of them objects, and every one has a field the new item
// lacks.
func (it *newItemOf) check(before *yaml.Node, items *fieldpath.ItemIndex, lists map[*yaml.Node]*listShape) (Stale, bool) {
	c := it.c
	last, _ := c.Path.Last()
	list := items.Get(before, c.Path.Parent())
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		return Stale{}, false
	}
	shape := lists[list]
	if shape == nil {
		shape = &listShape{names: map[string][]string{}}
		lists[list] = shape
		shape.common = commonFields(list)
	}
	var missing []string
	for _, f := range shape.common {
		if !it.has[f] {
			missing = append(missing, f)
		}
	}
	if len(missing) == 0 {
		return Stale{}, false
	}
	var fields []string
	for _, f := range last.Key {
		fields = append(fields, f.Name)
	}
	key := joinKey(fields)
	names, ok := shape.names[key]
	if !ok {
		for _, item := range list.Content {
			var parts []string
			for _, f := range last.Key {
				if v := tree.MapGet(tree.Deref(item), f.Name); v != nil && v.Kind == yaml.ScalarNode {
					parts = append(parts, v.Value)
				}
			}
			if len(parts) > 0 {
				names = append(names, joinKey(parts))
			}
		}
		shape.names[key] = names
	}
	return Stale{Pos: c.Pos, Kind: NewItem, Writes: []fieldpath.Path{c.Path}, Missing: missing, Items: names}, true
}

// commonFields returns the fields every item of list has, in the first
// item's order; nil when an item is not an object.
func commonFields(list *yaml.Node) []string {
	var common []string
	count := map[string]int{}
	for k, it := range list.Content {
		it = tree.Deref(it)
		if it == nil || it.Kind != yaml.MappingNode {
			return nil
		}
		for j := 0; j+1 < len(it.Content); j += 2 {
			f := it.Content[j].Value
			if count[f] == k { // once an item, in every item so far
				count[f]++
				if k == 0 {
					common = append(common, f)
				}
			}
		}
	}
	n := len(list.Content)
	return slices.DeleteFunc(common, func(f string) bool { return count[f] != n })
}

// patch is the position of the patch a change is part of: Patch, or Pos
// when that is unknown.
func (c Change) patch() tree.Position {
	if c.Patch != (tree.Position{}) {
		return c.Patch
	}
	return c.Pos
}

// joinKey writes the values of a key of several fields: "80,TCP".
func joinKey(parts []string) string {
	s := parts[0]
	for _, p := range parts[1:] {
		s += "," + p
	}
	return s
}
