package conflict

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// Find returns the conflicts between the records, which are in the order
// the patches were applied.
//
// Two changes of different records of one object conflict by the rules of
// the package documentation. Such pairs are gathered by where they meet:
// the path of the change that conflicts with a whole part of the other
// patch (the one above the other, or the one that changes the names of the
// items of a list that the other names an item of), the list whose items
// one changes (creates, inserts, deletes, orders) where the other names an
// item of it by index, or, for two changes at one path or neither above
// the other, the first of their paths (fieldpath.Compare). One Conflict
// lists, for one object and one such path, every change at that path that
// takes part in a pair met there, and for each other patch the first of
// its changes elsewhere that does (the first that changes something, if
// one does, rather than one that reads: a test, an existence): N patches
// that set one field to N values are one conflict of N sides, and so are
// N patches that each insert an item next to index 0 of one list; a change
// that conflicts with many changes of another patch below it is listed
// with the first of them. The sides are in the order the patches
// were applied (then the order of their changes); the conflicts are ordered
// by the position of their second side (where the conflict appears,
// reading the patches in order), then by the path of their first.
//
// The changes are indexed by path, as server-side apply's field sets are,
// so that only changes whose paths meet are compared (the items an
// insertion may rename are looked up by the key its value holds), and
// changes at one path that are alike (one operation, one value) are
// compared once: the time is about linear in the number of changes where
// few of them meet.
func Find(records []change.Record) []Conflict {
	byObject := map[string][]int{}
	var objects []string
	for i, r := range records {
		if _, seen := byObject[r.Object]; !seen {
			objects = append(objects, r.Object)
		}
		byObject[r.Object] = append(byObject[r.Object], i)
	}
	var out []Conflict
	for _, obj := range objects {
		idx := byObject[obj]
		if len(idx) < 2 {
			continue // a patch never conflicts with itself
		}
		f := newFinder(records, idx)
		out = append(out, f.find(obj)...)
	}
	Sort(out)
	return out
}

// Sort puts conflicts in Find's order (by the position of their second
// side, then by the path of their first), stably: conflicts found apart
// (object by object, or with positions mapped elsewhere afterwards) in
// the order Find would give them.
func Sort(out []Conflict) {
	slices.SortStableFunc(out, func(a, b Conflict) int {
		if c := comparePos(a.Sides[1].Change.Pos, b.Sides[1].Change.Pos); c != 0 {
			return c
		}
		return fieldpath.Compare(a.Sides[0].Change.Path, b.Sides[0].Change.Path)
	})
}

func comparePos(a, b tree.Position) int {
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return cmp.Compare(a.Column, b.Column)
}

// ref is one change: its record (an index into the finder's records) and
// its index among the record's changes.
type ref struct{ rec, ch int }

// class is the changes at one path that no rule can tell apart: one
// operation, one value (tree.Equal), patches of one kind as far as the
// rules go (field patches or not). What conflicts with one of them
// conflicts with all of them, but those of its own patch.
type class struct {
	node    *node
	rep     change.Change    // the first of them
	kind    change.PatchType // its patch's kind
	members []ref            // in record order
	recs    []int            // the distinct records of members, in order
}

// partners is whom the changes of one class are paired with in one
// conflict: the records of the changes they conflict with (two distinct
// ones are enough to know that every change of the class has one of another
// patch).
type partners struct {
	recs [2]int
	n    int
}

func (p *partners) add(rec int) {
	for i := range p.n {
		if p.recs[i] == rec {
			return
		}
	}
	if p.n < 2 {
		p.recs[p.n] = rec
		p.n++
	}
}

// pairs reports whether a change of record rec has a partner of another
// record.
func (p *partners) pairs(rec int) bool {
	return p.n == 2 || p.n == 1 && p.recs[0] != rec
}

// node is a path of the index: the trie of the paths of the changes, by
// element (key fields in any order are one element).
type node struct {
	id      int
	path    fieldpath.Path // of the first change that reached it
	depth   int
	parent  *node
	classes []*class
	byValue map[string]*class

	// children, by kind of element
	fields  map[string]*node
	keys    map[string]*keySig // by the sorted names of the key fields
	sigs    []string           // keys' signatures, in order of appearance
	indexes map[int]*node
	members map[string]*node
	items   []*node // every item child (key, index, member), in order
	all     []*node // every child, in order

	grouped [][]*class // groups, made when first asked for
}

// keySig is the children of a list named by keys of one set of fields.
type keySig struct {
	fields []string         // sorted
	exact  map[string]*node // by the values of the fields, in that order
	// by the values of some of the fields: for keys of other fields
	// that share those (built when first needed)
	proj map[string]map[string][]*node
	list []*node
}

type finder struct {
	records []*change.Record
	root    *node
	nodes   []*node // with classes, in order of creation
	count   int

	groups map[*node]*group // by anchor
	gorder []*node
}

func newFinder(all []change.Record, idx []int) *finder {
	f := &finder{root: &node{}}
	for _, i := range idx {
		f.records = append(f.records, &all[i])
	}
	for ri, r := range f.records {
		for ci, c := range r.Changes {
			f.add(ri, ci, c, r.Patch)
		}
	}
	return f
}

// valueKey identifies a change's value as the rules see it: two values
// with one key are equal (tree.Equal). A change without a value (a
// delete, an order that depends on the patch) has its own key.
func valueKey(n *yaml.Node) string {
	if n == nil {
		return "-"
	}
	var b strings.Builder
	writeValueKey(&b, n)
	return b.String()
}

func writeValueKey(b *strings.Builder, n *yaml.Node) {
	n = tree.Deref(n)
	switch tree.KindOf(n) {
	case tree.Object:
		type entry struct{ k, v string }
		var entries []entry
		for i := 0; i+1 < len(n.Content); i += 2 {
			var vb strings.Builder
			writeValueKey(&vb, n.Content[i+1])
			entries = append(entries, entry{n.Content[i].Value, vb.String()})
		}
		sort.Slice(entries, func(i, j int) bool { return entries[i].k < entries[j].k })
		b.WriteByte('{')
		for _, e := range entries {
			b.WriteString(strconv.Quote(e.k))
			b.WriteByte(':')
			b.WriteString(e.v)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	case tree.Array:
		b.WriteByte('[')
		for _, c := range n.Content {
			writeValueKey(b, c)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	default:
		b.WriteString(strconv.Quote(tree.Key(n)))
	}
}

func scalarKey(v fieldpath.Value) string {
	return strconv.Itoa(int(v.Kind)) + ":" + v.Text
}

// sortedKey returns the element's key fields sorted by name: their names
// (the signature) and their values in that order.
func sortedKey(e fieldpath.Element) (sig string, fields []fieldpath.KeyField) {
	fields = slices.Clone(e.Key)
	slices.SortStableFunc(fields, func(a, b fieldpath.KeyField) int { return strings.Compare(a.Name, b.Name) })
	names := make([]string, len(fields))
	for i, kf := range fields {
		names[i] = kf.Name
	}
	return strings.Join(names, "\x00"), fields
}

func valuesKey(fields []fieldpath.KeyField, names []string) string {
	var b strings.Builder
	for _, name := range names {
		for _, kf := range fields {
			if kf.Name == name {
				b.WriteString(scalarKey(kf.Value))
				break
			}
		}
		b.WriteByte(0)
	}
	return b.String()
}

// child returns the child of n for e, creating it.
func (f *finder) child(n *node, e fieldpath.Element, path fieldpath.Path) *node {
	newChild := func() *node {
		f.count++
		c := &node{id: f.count, path: path, depth: n.depth + 1, parent: n}
		n.all = append(n.all, c)
		if e.Item() {
			n.items = append(n.items, c)
		}
		return c
	}
	switch e.Kind {
	case fieldpath.FieldElement:
		if c := n.fields[e.Name]; c != nil {
			return c
		}
		if n.fields == nil {
			n.fields = map[string]*node{}
		}
		c := newChild()
		n.fields[e.Name] = c
		return c
	case fieldpath.IndexElement:
		if c := n.indexes[e.Index]; c != nil {
			return c
		}
		if n.indexes == nil {
			n.indexes = map[int]*node{}
		}
		c := newChild()
		n.indexes[e.Index] = c
		return c
	case fieldpath.MemberElement:
		k := scalarKey(e.Value)
		if c := n.members[k]; c != nil {
			return c
		}
		if n.members == nil {
			n.members = map[string]*node{}
		}
		c := newChild()
		n.members[k] = c
		return c
	}
	sig, fields := sortedKey(e)
	ks := n.keys[sig]
	if ks == nil {
		if n.keys == nil {
			n.keys = map[string]*keySig{}
		}
		names := make([]string, len(fields))
		for i, kf := range fields {
			names[i] = kf.Name
		}
		ks = &keySig{fields: names, exact: map[string]*node{}}
		n.keys[sig] = ks
		n.sigs = append(n.sigs, sig)
	}
	vk := valuesKey(fields, ks.fields)
	if c := ks.exact[vk]; c != nil {
		return c
	}
	c := newChild()
	ks.exact[vk] = c
	ks.list = append(ks.list, c)
	ks.proj = nil // rebuilt when needed
	return c
}

func (f *finder) add(ri, ci int, c change.Change, patch change.PatchType) {
	n := f.root
	for i, e := range c.Path {
		n = f.child(n, e, c.Path[:i+1])
	}
	if n.byValue == nil {
		n.byValue = map[string]*class{}
		f.nodes = append(f.nodes, n)
	}
	field := "p"
	if patch == change.FieldPatch {
		field = "f"
	}
	key := field + strconv.Itoa(int(c.Op)) + valueKey(c.Value)
	cl := n.byValue[key]
	if cl == nil {
		cl = &class{node: n, rep: c, kind: patch}
		n.byValue[key] = cl
		n.classes = append(n.classes, cl)
	}
	cl.members = append(cl.members, ref{ri, ci})
	if len(cl.recs) == 0 || cl.recs[len(cl.recs)-1] != ri {
		cl.recs = append(cl.recs, ri)
	}
}

// meeting returns the children of n whose element may name what e names
// (relate's "same" so far), and those that clash with it (a field against
// an item, a member against an item by key: relate's "shape").
func (n *node) meeting(e fieldpath.Element) (meet, clash []*node) {
	itemsBut := func(keep func(*node) bool) []*node {
		var out []*node
		for _, c := range n.items {
			if keep(c) {
				out = append(out, c)
			}
		}
		return out
	}
	fieldChildren := func() []*node {
		var out []*node
		for _, c := range n.all {
			if !slices.Contains(n.items, c) {
				out = append(out, c)
			}
		}
		return out
	}
	switch e.Kind {
	case fieldpath.FieldElement:
		if c := n.fields[e.Name]; c != nil {
			meet = []*node{c}
		}
		return meet, n.items
	case fieldpath.IndexElement:
		// an index may be any item, but another index
		isIndex := map[*node]bool{}
		for _, c := range n.indexes {
			isIndex[c] = true
		}
		meet = itemsBut(func(c *node) bool { return !isIndex[c] || c == n.indexes[e.Index] })
		if len(n.fields) > 0 {
			clash = fieldChildren()
		}
		return meet, clash
	case fieldpath.MemberElement:
		if c := n.members[scalarKey(e.Value)]; c != nil {
			meet = append(meet, c)
		}
		for _, c := range n.indexes {
			meet = append(meet, c)
		}
		for _, sig := range n.sigs {
			clash = append(clash, n.keys[sig].list...)
		}
		if len(n.fields) > 0 {
			clash = append(clash, fieldChildren()...)
		}
		sortNodes(meet)
		return meet, clash
	}
	// by key: items by index, and items by key whose shared fields agree
	for _, c := range n.indexes {
		meet = append(meet, c)
	}
	_, fields := sortedKey(e)
	for _, sig := range n.sigs {
		ks := n.keys[sig]
		var shared []string
		for _, name := range ks.fields {
			if _, ok := e.KeyValue(name); ok {
				shared = append(shared, name)
			}
		}
		switch {
		case len(shared) == 0:
			meet = append(meet, ks.list...)
		case len(shared) == len(ks.fields):
			if c := ks.exact[valuesKey(fields, ks.fields)]; c != nil {
				meet = append(meet, c)
			}
		default:
			meet = append(meet, ks.project(shared)[valuesKey(fields, shared)]...)
		}
	}
	for _, c := range n.members {
		clash = append(clash, c)
	}
	if len(n.fields) > 0 {
		clash = append(clash, fieldChildren()...)
	}
	sortNodes(meet)
	sortNodes(clash)
	return meet, clash
}

// renamable returns the children that a change of the field name of the
// item e may rename, or make the item they name (meetBut): those whose
// key fields shared with e's, but name, have e's values. An index may be
// any item: all of them.
func (ks *keySig) renamable(e fieldpath.Element, name string) []*node {
	if e.Kind != fieldpath.KeyElement {
		return ks.list
	}
	var shared []string
	for _, f := range ks.fields {
		if _, ok := e.KeyValue(f); ok && f != name {
			shared = append(shared, f)
		}
	}
	if len(shared) == 0 {
		return ks.list
	}
	_, fields := sortedKey(e)
	return ks.project(shared)[valuesKey(fields, shared)]
}

// project returns the children by the values of some of their key fields.
func (ks *keySig) project(shared []string) map[string][]*node {
	pk := strings.Join(shared, "\x00")
	if m := ks.proj[pk]; m != nil {
		return m
	}
	if ks.proj == nil {
		ks.proj = map[string]map[string][]*node{}
	}
	m := map[string][]*node{}
	for _, c := range ks.list {
		e, _ := c.path.Last()
		_, fields := sortedKey(e)
		k := valuesKey(fields, shared)
		m[k] = append(m[k], c)
	}
	ks.proj[pk] = m
	return m
}

func sortNodes(ns []*node) {
	slices.SortFunc(ns, func(a, b *node) int { return cmp.Compare(a.id, b.id) })
}

// withClasses appends to out the nodes of the subtree of n that hold
// changes.
func withClasses(n *node, out []*node) []*node {
	if len(n.classes) > 0 {
		out = append(out, n)
	}
	for _, c := range n.all {
		out = append(out, withClasses(c, nil)...)
	}
	return out
}

// related returns the nodes holding changes whose paths relate to u's
// (relate is not disjoint): below it, at it, or clashing with it in shape,
// and those a change of u may rename an item of (renames) or change the
// items of by index (structural). The nodes above u are not returned: u is
// among theirs. Each of them is found through the index, not by going
// through every item of a list, so that many changes to the items of one
// list are compared only where they meet.
func (f *finder) related(u *node) []*node {
	var out []*node
	frontier := []*node{f.root}
	last := len(u.path) - 1
	// what u's changes may do to the list its path is an item of (or a
	// field of an item of): restructure it (structural), give an item
	// the name another change names an item by (renames), as a whole
	// item or by changing a key field
	var restructuring, renamesField bool
	var wholeItems []*class
	for _, cl := range u.classes {
		switch cl.rep.Op {
		case change.Set, change.Insert:
			wholeItems = append(wholeItems, cl)
		}
		switch cl.rep.Op {
		case change.Delete, change.Create, change.Insert:
			restructuring = true
		}
		switch cl.rep.Op {
		case change.Set, change.Delete, change.Create, change.Insert:
			renamesField = renamesField || !keepsName(cl.rep)
		}
	}
	for i, e := range u.path {
		if e.Item() && i == last {
			for _, t := range frontier {
				// structural: u adds or removes an item of a list: the
				// items of the list named by index are candidates,
				// whatever their index (u's order of a list is above
				// them: found below)
				if restructuring {
					for _, c := range t.indexNodes() {
						out = withClasses(c, out)
					}
				}
				// renames: u sets or inserts a whole item, which takes
				// the name of the items named by the key its value holds
				for _, sig := range t.sigs {
					ks := t.keys[sig]
					for _, cl := range wholeItems {
						for _, c := range ks.named(cl.rep.Value) {
							out = withClasses(c, out)
						}
					}
				}
			}
		}
		// renames: u changes a field of a list's item: the items of the
		// list named by keys of that field are candidates, but those whose
		// other key fields name another item than u's (meetBut)
		if renamesField && e.Item() && i == last-1 && u.path[i+1].Kind == fieldpath.FieldElement {
			for _, t := range frontier {
				for _, sig := range t.sigs {
					ks := t.keys[sig]
					if !slices.Contains(ks.fields, u.path[i+1].Name) {
						continue
					}
					for _, c := range ks.renamable(e, u.path[i+1].Name) {
						out = withClasses(c, out)
					}
				}
			}
		}
		var next []*node
		for _, t := range frontier {
			meet, clash := t.meeting(e)
			for _, c := range clash {
				out = withClasses(c, out)
			}
			next = append(next, meet...)
		}
		frontier = next
	}
	for _, t := range frontier {
		out = withClasses(t, out)
	}
	return out
}

// keepsName reports whether c, a change to a field of a list's item named
// by key, sets that field to the value the item's name gives it (if the
// field is a key field): it renames nothing.
func keepsName(c change.Change) bool {
	n := len(c.Path)
	if c.Op != change.Set || n < 2 || c.Path[n-1].Kind != fieldpath.FieldElement || c.Path[n-2].Kind != fieldpath.KeyElement {
		return false
	}
	own, ok := c.Path[n-2].KeyValue(c.Path[n-1].Name)
	if !ok {
		return false
	}
	v, ok := fieldpath.ValueOf(c.Value)
	return ok && v == own
}

// indexNodes returns the children of n named by index, in order.
func (n *node) indexNodes() []*node {
	out := make([]*node, 0, len(n.indexes))
	for _, c := range n.indexes {
		out = append(out, c)
	}
	sortNodes(out)
	return out
}

// named returns the children whose key an item of value v has
// (fieldpath.HasKey): the items v takes the name of.
func (ks *keySig) named(v *yaml.Node) []*node {
	v = tree.Deref(v)
	if tree.KindOf(v) != tree.Object {
		return nil
	}
	var b strings.Builder
	for _, name := range ks.fields {
		val, ok := fieldpath.ValueOf(tree.MapGet(v, name))
		switch {
		case !ok:
			return nil
		case val.Kind == tree.Null:
			return ks.list // null has two spellings in a path: let renames decide
		}
		b.WriteString(scalarKey(val))
		b.WriteByte(0)
	}
	if c := ks.exact[b.String()]; c != nil {
		return []*node{c}
	}
	return nil
}

// group is one conflict in the making: the classes of the changes that
// meet at one node, the anchor, and whom each is paired with there.
type group struct {
	anchor  *node
	classes map[*class]*partners
	order   []*class
}

// partnersOf returns the partners of cl in the group at anchor, making
// both.
func (f *finder) partnersOf(anchor *node, cl *class) *partners {
	g := f.groups[anchor]
	if g == nil {
		g = &group{anchor: anchor, classes: map[*class]*partners{}}
		f.groups[anchor] = g
		f.gorder = append(f.gorder, anchor)
	}
	p := g.classes[cl]
	if p == nil {
		p = &partners{}
		g.classes[cl] = p
		g.order = append(g.order, cl)
	}
	return p
}

// pair records that the changes of a and b conflict, meeting at anchor.
func (f *finder) pair(a, b *class, anchor *node) {
	pa, pb := f.partnersOf(anchor, a), f.partnersOf(anchor, b)
	for _, r := range b.recs[:min(len(b.recs), 2)] {
		pa.add(r)
	}
	for _, r := range a.recs[:min(len(a.recs), 2)] {
		pb.add(r)
	}
}

func (f *finder) find(object string) []Conflict {
	f.groups = map[*node]*group{}
	seen := map[[2]int]bool{}
	for _, u := range f.nodes {
		f.within(u)
		for _, v := range f.related(u) {
			if v == u {
				continue
			}
			k := [2]int{min(u.id, v.id), max(u.id, v.id)}
			if seen[k] {
				continue
			}
			seen[k] = true
			a, b := u, v
			if b.id < a.id {
				a, b = b, a
			}
			if relate(a.path, b.path) == same {
				// items that may be one: an order's value is compared
				for _, x := range a.classes {
					for _, y := range b.classes {
						if anchor, ok := meetAt(x, y); ok {
							f.pair(x, y, anchor)
						}
					}
				}
				continue
			}
			for _, g := range a.groups() {
				for _, h := range b.groups() {
					if anchor, ok := meetAt(g[0], h[0]); ok {
						f.pairAll(anchor, g, h)
					}
				}
			}
		}
	}
	slices.SortFunc(f.gorder, func(a, b *node) int { return cmp.Compare(a.id, b.id) })
	var out []Conflict
	for _, n := range f.gorder {
		if c, ok := f.conflict(object, f.groups[n]); ok {
			out = append(out, c)
		}
	}
	return out
}

// meetAt decides whether the changes of two classes conflict, and where
// they meet: at their path if it is one, else where both ways round agree
// (the path of the one that conflicts with a whole part of the other, or
// the list whose items it changes), else the first of their paths.
func meetAt(x, y *class) (*node, bool) {
	wx, ok := conflicts(x.rep, y.rep, x.kind, y.kind)
	if !ok {
		return nil, false
	}
	if x.node == y.node {
		return x.node, true
	}
	wy, _ := conflicts(y.rep, x.rep, y.kind, x.kind)
	if a, b := wx.node(x.node, y.node), wy.node(y.node, x.node); a != nil && a == b {
		return a, true
	}
	if fieldpath.Compare(x.node.path, y.node.path) <= 0 {
		return x.node, true
	}
	return y.node, true
}

// node returns the node w names, for changes at the nodes x and y (as
// conflicts was given them); nil for neither.
func (w where) node(x, y *node) *node {
	n := x
	switch w.of {
	case 0:
		return nil
	case 2:
		n = y
	}
	for n.depth > w.depth {
		n = n.parent
	}
	return n
}

// within pairs the classes of one node that conflict. Sets and insertions
// of different values (or by patches of different kinds) always do, and so
// do orders of different values: they are paired without comparing every
// two of them. The orders and the tests of one group (groups) meet every
// other class alike: the group is compared once with each.
func (f *finder) within(u *node) {
	var sets, orders []*class
	var rest [][]*class // the other groups
	for _, g := range u.groups() {
		switch op := g[0].rep.Op; {
		case pairsAlways(op):
			sets = append(sets, g[0]) // alone in its group
		case op == change.Order:
			orders = append(orders, g...)
		}
		if !pairsAlways(g[0].rep.Op) {
			rest = append(rest, g)
		}
	}
	for i, g := range rest {
		for _, h := range rest[i+1:] {
			if x, y := g[0].rep.Op, h[0].rep.Op; x == y && (x == change.Order || x == change.Test) {
				continue // orders: by value, below; tests read and agree
			}
			if _, ok := conflicts(g[0].rep, h[0].rep, g[0].kind, h[0].kind); ok {
				f.pairAll(u, g, h)
			}
		}
		var with []*class
		for _, y := range sets {
			if _, ok := conflicts(g[0].rep, y.rep, g[0].kind, y.kind); ok {
				with = append(with, y)
			}
		}
		if len(with) > 0 {
			f.pairAll(u, g, with)
		}
	}
	// a class against itself: alike changes of different patches
	for _, x := range u.classes {
		if len(x.recs) > 1 {
			if _, ok := conflicts(x.rep, x.rep, x.kind, x.kind); ok {
				f.pair(x, x, u)
			}
		}
	}
	// every set against every other; every order against every order of
	// another value (nil, an order that depends on the patch, is one)
	across := make([][]*class, len(sets))
	for i, x := range sets {
		across[i] = []*class{x}
	}
	f.pairAcross(u, across)
	var byValue [][]*class
	at := map[string]int{}
	for _, x := range orders {
		k := valueKey(x.rep.Value)
		if i, ok := at[k]; ok {
			byValue[i] = append(byValue[i], x)
			continue
		}
		at[k] = len(byValue)
		byValue = append(byValue, []*class{x})
	}
	f.pairAcross(u, byValue)
}

// groups returns the classes of the node in groups whose classes every
// rule treats alike against a class of another group, or of another node
// whose path cannot be the node's (relate is not same): an order's or a
// test's value decides nothing there but against another order or test at
// the same path (an order's being none, nil, does), so the orders and the
// tests of one kind of patch (field patches or not) with and without a
// value are four groups; every other class is a group of its own. In the
// order of the classes' first.
func (n *node) groups() [][]*class {
	if n.grouped != nil {
		return n.grouped
	}
	at := map[string]int{}
	for _, cl := range n.classes {
		if op := cl.rep.Op; op == change.Order || op == change.Test {
			k := fmt.Sprint(op, cl.rep.Value == nil, cl.kind == change.FieldPatch)
			if i, ok := at[k]; ok {
				n.grouped[i] = append(n.grouped[i], cl)
				continue
			}
			at[k] = len(n.grouped)
		}
		n.grouped = append(n.grouped, []*class{cl})
	}
	return n.grouped
}

// pairAll records that every class of as conflicts with every class of bs
// (no class in both), meeting at anchor: what pair records for each two,
// in time linear in them (the first two records of the other side are
// all a class's partners need).
func (f *finder) pairAll(anchor *node, as, bs []*class) {
	if len(as) == 1 && len(bs) == 1 {
		f.pair(as[0], bs[0], anchor)
		return
	}
	ra, rb := firstRecs(as), firstRecs(bs)
	for _, a := range as {
		p := f.partnersOf(anchor, a)
		for _, r := range rb {
			p.add(r)
		}
	}
	for _, b := range bs {
		p := f.partnersOf(anchor, b)
		for _, r := range ra {
			p.add(r)
		}
	}
}

// firstRecs returns the first two distinct records of the classes'
// changes (one if they are all of one).
func firstRecs(cs []*class) []int {
	var out []int
	for _, c := range cs {
		for _, r := range c.recs {
			if !slices.Contains(out, r) {
				if out = append(out, r); len(out) == 2 {
					return out
				}
			}
		}
	}
	return out
}

// pairAcross records, at the node u, that every class of each group
// conflicts with every class of every other group: the partners of a
// group's classes are the records of the other groups. in counts the
// groups each record has changes in; the records of the others are those
// in a group but g, or in g and another.
func (f *finder) pairAcross(u *node, groups [][]*class) {
	if len(groups) < 2 {
		return
	}
	in := map[int]int{}
	var recs []int // in order of first appearance
	of := make([][]int, len(groups))
	for i, g := range groups {
		for _, x := range g {
			of[i] = append(of[i], x.recs...)
		}
		slices.Sort(of[i])
		of[i] = slices.Compact(of[i])
		for _, r := range of[i] {
			if in[r] == 0 {
				recs = append(recs, r)
			}
			in[r]++
		}
	}
	for i, g := range groups {
		var partners []int
		for _, r := range recs {
			if _, inG := slices.BinarySearch(of[i], r); in[r] == 1 && inG {
				continue // g's alone: at most len(of[i]) of them
			}
			if partners = append(partners, r); len(partners) == 2 {
				break
			}
		}
		for _, x := range g {
			p := f.partnersOf(u, x)
			for _, r := range partners {
				p.add(r)
			}
		}
	}
}

// before reports whether a, a change of one record, is shown in a
// conflict rather than b, another of that record: a change that changes
// something before one that reads, then the first.
func (f *finder) before(a, b ref) bool {
	changes := f.records[a.rec].Changes
	if pa, pb := passive(changes[a.ch]), passive(changes[b.ch]); pa != pb {
		return pb
	}
	return a.ch < b.ch
}

// pairsAlways reports whether two changes of op at one path conflict
// whenever they are not alike (two classes: sets of different values,
// insertions of any).
func pairsAlways(op change.Op) bool { return op == change.Set || op == change.Insert }

// conflict makes the conflict of a group: every change at the anchor that
// has a partner of another patch, and for each other patch the first of
// its changes elsewhere that has one (the first that changes something, if
// one does: a change that only reads, a test or an existence, says less
// about what the patches do).
func (f *finder) conflict(object string, g *group) (Conflict, bool) {
	var at []ref
	first := map[int]int{} // record -> change index, elsewhere
	for _, cl := range g.order {
		p := g.classes[cl]
		for _, m := range cl.members {
			if !p.pairs(m.rec) {
				continue
			}
			if cl.node == g.anchor {
				at = append(at, m)
			} else if ch, ok := first[m.rec]; !ok || f.before(m, ref{m.rec, ch}) {
				first[m.rec] = m.ch
			}
		}
	}
	atRec := map[int]bool{}
	for _, m := range at {
		atRec[m.rec] = true
	}
	sides := at
	for rec, ch := range first {
		if !atRec[rec] {
			sides = append(sides, ref{rec, ch})
		}
	}
	slices.SortFunc(sides, func(a, b ref) int {
		if c := cmp.Compare(a.rec, b.rec); c != 0 {
			return c
		}
		return cmp.Compare(a.ch, b.ch)
	})
	if len(sides) < 2 || sides[0].rec == sides[len(sides)-1].rec {
		return Conflict{}, false // cannot happen: a partner is of another patch
	}
	c := Conflict{Object: object, Sides: make([]Side, len(sides))}
	for i, m := range sides {
		r := f.records[m.rec]
		c.Sides[i] = Side{Patch: r.Patch, Change: r.Changes[m.ch]}
	}
	return c, true
}
