package change

import (
	"cmp"
	"slices"
	"strconv"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// Origin is a place of an object and the change that wrote it last: what
// `kmerge blame` shows for it. Overrode are the earlier changes it
// replaced there.
type Origin struct {
	Change
	// Overrode are the earlier changes whose value at Change.Path this
	// change replaced (or removed), in the order they were made, one per
	// patch position: changes at the place, changes above it that wrote a
	// whole value holding it (a Set or an Insert), changes below it when
	// this change writes or deletes a whole value, and what those had
	// overridden in turn at this place. A change at this change's own position is not
	// listed: a patch does not override itself.
	Overrode []Change
}

// writes reports whether a change writes the place it names: Set, Insert,
// Create and Delete do, and Retain (it removes fields). Merge, Order, Test
// and Exists do not (Order arranges items other changes wrote).
func writes(op Op) bool {
	switch op {
	case Set, Insert, Create, Delete, Retain:
		return true
	}
	return false
}

// whole reports whether a change writes everything at and below its path.
func whole(op Op) bool { return op == Set || op == Insert || op == Delete }

// Origins says which change wrote each place of an object last. changes
// are what the patches did to the object, in the order they did it (the
// order kpatch.Run.Changes gives); before is the object as it was before
// them (nil: unknown). Every change that writes a place (Set,
// Insert, Create, Delete, Retain) is an Origin until a later change
// overrides it, and is then listed in that change's Overrode instead. A
// later change overrides an earlier one at the same place, one below it
// when the later change writes a whole value there (a Set, an Insert or a
// Delete), and one below a Retain's object in a field the Retain does not
// keep. Two paths name the same place when their elements do: fields by
// name, items by index, set members by value, and items by key when the
// key fields they share have the same values (a strategic patch's
// [name=main] and a field patch's [name=main,image=x] name one item). An
// index names only that index: a JSON patch's index is its item's place
// when the patch ran, which later patches may have moved.
//
// A Set of the value before has at its path, over no earlier change,
// changed nothing and is no origin (a strategic patch naming a list item
// by its merge key sets the key to the value it has). Over an earlier
// change it is one all the same, as server-side apply's managed fields
// count a value a manager sets, changed or not: the place no longer holds
// that change's value, and removing this one would not show it again.
//
// The result is in the order of the changes; its length is at most that
// of changes. The cost grows with the number of changes times the depth of
// their paths, plus the items of lists that several changes name.
func Origins(changes []Change, before *yaml.Node) []Origin {
	t := &originTrie{root: &trieNode{}}
	var out []Origin
	var overs []*overrides // what out[i] overrode, until it is returned
	alive := []bool{}
	for _, c := range changes {
		if !writes(c.Op) {
			continue
		}
		var over []int // indexes in out, overridden: they stop being origins
		var above []int
		var cleared []*trieNode // nodes whose origins, and all below, are overridden
		reached := t.reach(c.Path)
		for _, r := range reached {
			switch {
			case r.depth < len(c.Path):
				for _, i := range r.node.origins {
					if whole(out[i].Op) {
						above = append(above, i)
					}
				}
			case whole(c.Op):
				r.node.each(func(n *trieNode) { over = append(over, n.origins...) })
				cleared = append(cleared, r.node)
			case c.Op == Retain:
				over = append(over, r.node.origins...)
				kept := map[string]bool{}
				if c.Value != nil {
					for _, f := range c.Value.Content {
						kept[f.Value] = true
					}
				}
				for _, ch := range r.node.children {
					if ch.elem.Kind == fieldpath.FieldElement && !kept[ch.elem.Name] {
						ch.each(func(n *trieNode) { over = append(over, n.origins...) })
					}
				}
			default:
				over = append(over, r.node.origins...)
			}
		}
		// in the order the changes were made: origins are kept in that
		// order, and what each overrode came before it
		acc := &overrides{self: c.Pos}
		first := true
		for _, i := range sortedUnique(append(append([]int(nil), over...), above...)) {
			if !alive[i] {
				continue
			}
			if !isIn(i, above) {
				if first {
					// c takes over what the first overrode, but what is
					// not related to c's path, rather than copying it: n
					// changes of one place cost linear time, not n²/2
					// copies
					acc.take(overs[i], c.Path)
					overs[i] = nil
				} else {
					acc.addRelated(overs[i], c.Path)
				}
			}
			first = false
			acc.add(out[i].Change)
		}
		for _, n := range cleared {
			n.origins, n.children, n.index = nil, nil, nil
		}
		for _, i := range over {
			if alive[i] {
				alive[i] = false
				t.remove(i, out[i].Path)
				// c holds what it needs of it: an origin no longer alive
				// is not read again, nor returned
				overs[i] = nil
			}
		}
		out = append(out, Origin{Change: c})
		overs = append(overs, acc)
		alive = append(alive, true)
		t.insert(c.Path, len(out)-1)
	}
	kept := out[:0]
	items := &fieldpath.ItemIndex{} // before's lists, looked up once per origin
	var rank map[tree.Position]int  // made when first needed
	for i, o := range out {
		if !alive[i] || o.Op == Set && overs[i].n == 0 && unchanged(before, items, o.Path, o.Value) {
			continue
		}
		if overs[i].n > 1 && rank == nil {
			rank = firstPositions(changes)
		}
		o.Overrode = overs[i].list(rank)
		kept = append(kept, o)
	}
	return kept
}

// overrides gathers the changes one change overrode: one per position,
// never its own (self), by path: what is not related to a later change's
// path is dropped a path at a time, not looked for change by change.
type overrides struct {
	self   tree.Position
	groups []*overGroup           // by path, in order of their first change
	byPath map[string]*overGroup  // the groups by their path's text, once there are many
	seen   map[tree.Position]bool // the positions, once there are many
	n      int
}

// overGroup is the overridden changes at one path.
type overGroup struct {
	path    fieldpath.Path
	changes []Change
}

// seenAfter is the number of overridden changes from which their
// positions are kept in a map rather than looked for among them.
const seenAfter = 8

func (a *overrides) has(p tree.Position) bool {
	if a.seen != nil {
		return a.seen[p]
	}
	for _, g := range a.groups {
		for _, x := range g.changes {
			if x.Pos == p {
				return true
			}
		}
	}
	return false
}

func (a *overrides) add(x Change) {
	if x.Pos == a.self || a.has(x.Pos) {
		return
	}
	g := a.group(x.Path)
	g.changes = append(g.changes, x)
	a.n++
	switch {
	case a.seen != nil:
		a.seen[x.Pos] = true
	case a.n > seenAfter:
		a.seen = make(map[tree.Position]bool, 2*a.n)
		for _, g := range a.groups {
			for _, y := range g.changes {
				a.seen[y.Pos] = true
			}
		}
	}
}

// group returns the group of path p, making it.
func (a *overrides) group(p fieldpath.Path) *overGroup {
	if a.byPath != nil {
		k := p.String()
		g := a.byPath[k]
		if g == nil {
			g = &overGroup{path: p}
			a.groups = append(a.groups, g)
			a.byPath[k] = g
		}
		return g
	}
	for _, g := range a.groups {
		if g.path.Equal(p) {
			return g
		}
	}
	g := &overGroup{path: p}
	a.groups = append(a.groups, g)
	if len(a.groups) > seenAfter {
		a.byPath = make(map[string]*overGroup, 2*len(a.groups))
		for _, h := range a.groups {
			a.byPath[h.path.String()] = h
		}
	}
	return g
}

// take makes what b holds a's (a holds nothing yet), but the paths not
// related to p.
func (a *overrides) take(b *overrides, p fieldpath.Path) {
	if b == nil {
		return
	}
	a.groups, a.byPath, a.seen, a.n = b.groups[:0], b.byPath, b.seen, b.n
	for _, g := range b.groups {
		if related(g.path, p) {
			a.groups = append(a.groups, g)
			continue
		}
		if a.byPath != nil {
			delete(a.byPath, g.path.String())
		}
		a.n -= len(g.changes)
		for _, x := range g.changes {
			delete(a.seen, x.Pos)
		}
	}
	if !a.has(a.self) {
		return
	}
	// a change's own position is not listed
	for _, g := range a.groups {
		g.changes = slices.DeleteFunc(g.changes, func(x Change) bool { return x.Pos == a.self })
	}
	a.groups = slices.DeleteFunc(a.groups, func(g *overGroup) bool {
		if len(g.changes) == 0 && a.byPath != nil {
			delete(a.byPath, g.path.String())
		}
		return len(g.changes) == 0
	})
	delete(a.seen, a.self)
	a.n--
}

// addRelated adds the changes of b whose paths are related to p.
func (a *overrides) addRelated(b *overrides, p fieldpath.Path) {
	if b == nil {
		return
	}
	for _, g := range b.groups {
		if related(g.path, p) {
			for _, x := range g.changes {
				a.add(x)
			}
		}
	}
}

// list returns the changes in the order they were made: the order of
// their positions' first changes (rank, firstPositions), which keeps a
// patch's changes in the order of the patches.
func (a *overrides) list(rank map[tree.Position]int) []Change {
	if a.n == 0 {
		return nil
	}
	out := make([]Change, 0, a.n)
	for _, g := range a.groups {
		out = append(out, g.changes...)
	}
	// one change per position: no two have one rank
	slices.SortFunc(out, func(x, y Change) int { return cmp.Compare(rank[x.Pos], rank[y.Pos]) })
	return out
}

// firstPositions returns, for each position of changes, the index of its
// first change.
func firstPositions(changes []Change) map[tree.Position]int {
	rank := make(map[tree.Position]int, len(changes))
	for i, c := range changes {
		if _, ok := rank[c.Pos]; !ok {
			rank[c.Pos] = i
		}
	}
	return rank
}

// unchanged reports whether the object before has the value v at p.
func unchanged(before *yaml.Node, items *fieldpath.ItemIndex, p fieldpath.Path, v *yaml.Node) bool {
	if before == nil {
		return false
	}
	had := items.Get(before, p)
	return had != nil && tree.Equal(had, v)
}

// sortedUnique sorts indexes and drops repeats.
func sortedUnique(xs []int) []int {
	if len(xs) < 2 {
		return xs
	}
	// insertion sort: the lists are short, and mostly in order already
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	out := xs[:1]
	for _, x := range xs[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

func isIn(i int, xs []int) bool {
	for _, x := range xs {
		if x == i {
			return true
		}
	}
	return false
}

// originTrie indexes the origins by path: a node per element, the origins
// at the path that leads to it.
type originTrie struct{ root *trieNode }

type trieNode struct {
	elem     fieldpath.Element
	children []*trieNode            // in the order they were added
	index    map[string][]*trieNode // children by indexKeys
	origins  []int
}

// indexKeys are the words a child is found by: a field's name, an
// index, a member's value, and each key field with its value (an item
// named by key meets the items that share one of its fields' values).
func indexKeys(e fieldpath.Element) []string {
	switch e.Kind {
	case fieldpath.FieldElement:
		return []string{"f" + e.Name}
	case fieldpath.IndexElement:
		return []string{"i" + strconv.Itoa(e.Index)}
	case fieldpath.MemberElement:
		return []string{"m" + valueWord(e.Value)}
	}
	out := make([]string, len(e.Key))
	for i, f := range e.Key {
		out[i] = "k" + f.Name + "\x00" + valueWord(f.Value)
	}
	return out
}

// valueWord is a value's kind and text: equal values (CompareValues) have
// one word.
func valueWord(v fieldpath.Value) string { return v.Kind.String() + "\x00" + v.String() }

// matching returns the children of n that name the same place as e
// (samePlace), or only the one equal to it (with exact).
func (n *trieNode) matching(e fieldpath.Element, exact bool) []*trieNode {
	var out []*trieNode
	for _, k := range indexKeys(e) {
		for _, ch := range n.index[k] {
			if exact && !ch.elem.Equal(e) || !exact && !samePlace(ch.elem, e) || slices.Contains(out, ch) {
				continue
			}
			out = append(out, ch)
		}
	}
	return out
}

// child returns the child of n equal to e, nil when there is none.
func (n *trieNode) child(e fieldpath.Element) *trieNode {
	if m := n.matching(e, true); len(m) > 0 {
		return m[0]
	}
	return nil
}

// reached is a node whose path names the same place as the first depth
// elements of a path.
type reached struct {
	node  *trieNode
	depth int
}

// reach returns the nodes along p: for each depth, the nodes whose path
// names the same place as p's first elements (several where items are
// named by keys of different fields).
func (t *originTrie) reach(p fieldpath.Path) []reached {
	out := []reached{{t.root, 0}}
	front := []*trieNode{t.root}
	for d, e := range p {
		var next []*trieNode
		for _, n := range front {
			for _, ch := range n.matching(e, false) {
				next = append(next, ch)
				out = append(out, reached{ch, d + 1})
			}
		}
		if len(next) == 0 {
			break
		}
		front = next
	}
	return out
}

// insert adds origin i at p, following equal elements.
func (t *originTrie) insert(p fieldpath.Path, i int) {
	n := t.root
	for _, e := range p {
		next := n.child(e)
		if next == nil {
			next = &trieNode{elem: e}
			n.children = append(n.children, next)
			if n.index == nil {
				n.index = map[string][]*trieNode{}
			}
			for _, k := range indexKeys(e) {
				n.index[k] = append(n.index[k], next)
			}
		}
		n = next
	}
	n.origins = append(n.origins, i)
}

// remove takes origin i off the node of p.
func (t *originTrie) remove(i int, p fieldpath.Path) {
	n := t.root
	for _, e := range p {
		if n = n.child(e); n == nil {
			return
		}
	}
	for j, x := range n.origins {
		if x == i {
			n.origins = append(n.origins[:j], n.origins[j+1:]...)
			return
		}
	}
}

// each calls fn for n and every node below it.
func (n *trieNode) each(fn func(*trieNode)) {
	fn(n)
	for _, ch := range n.children {
		ch.each(fn)
	}
}

// related reports whether one path leads to the other: their elements
// name the same places as far as the shorter one goes.
func related(p, q fieldpath.Path) bool {
	for i := range min(len(p), len(q)) {
		if !samePlace(p[i], q[i]) {
			return false
		}
	}
	return true
}

// samePlace reports whether two elements name the same place: equal
// fields, indexes and members; keys whose shared fields (at least one)
// have the same values.
func samePlace(a, b fieldpath.Element) bool {
	if a.Kind != b.Kind {
		return false
	}
	if a.Kind != fieldpath.KeyElement {
		return a.Equal(b)
	}
	shared := false
	for _, f := range a.Key {
		if v, ok := b.KeyValue(f.Name); ok {
			if fieldpath.CompareValues(v, f.Value) != 0 {
				return false
			}
			shared = true
		}
	}
	return shared
}
