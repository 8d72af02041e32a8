// Package conflict finds patches whose changes to an object do not
// commute: patches that give one field two values, delete what another
// sets, or change the identity or the order of list items another relies
// on. Applied in the other order, such patches would give another object.
//
// Each patch applied to an object is reduced to what the engine that
// applied it recorded (package change): the paths it set, deleted, created,
// inserted, ordered or read, with list items named by the identity that
// engine used. Conflict detection is set algebra over these changes, as
// server-side apply's managed fields are: two changes of different patches
// conflict where their paths meet (one is the other, or lies below it) and
// their outcomes differ, with these rules:
//
//   - same path: two values that differ, a delete against anything but a
//     delete, an insertion at an index, two different orders;
//   - below a path another patch sets as a whole: unless the change agrees
//     with the value set there; below a deleted path: always; below a
//     created object or list: never (the patch merges into it);
//   - $retainKeys: a change to a field the list does not name (but a
//     delete);
//   - paths that need a value to be an object for one patch and a list for
//     the other;
//   - list items: items named by key meet when the key fields they share
//     have the same values (so [port=53,protocol=TCP] and
//     [port=53,protocol=UDP] are two items, and [port=53] may be either);
//     an item named by index (a JSON patch's) may be any item, and depends
//     on every change to the list's items (an insertion, a deletion, an
//     order); a change to a field that another patch uses to name items of
//     the list changes which item that patch names, unless the item changed
//     is named by another value of a field both name but that one (the
//     image of [name=a,image=i] is no part of [name=b,image=i]'s name:
//     another item, whatever its image);
//   - a test (a JSON patch's test, the value a move or a copy takes): any
//     change at, above or below it, whatever the value, since the test
//     reads the value before the change in one order and after it in the
//     other; the existence a JSON patch or a field patch's selector needs:
//     a change that makes it exist or not.
//
// Also, as a policy, a field patch and a strategic, merge or JSON patch
// that set or delete one path conflict even when they agree: one of them is
// redundant, and the field patch would silently win over a later edit of
// the other.
package conflict

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// Side is one patch's part in a conflict.
type Side struct {
	Patch  change.PatchType // the patch's kind
	Change change.Change
}

// Conflict is changes of different patches to one object that do not
// commute, gathered where they meet (see Find): two changes, or more when
// several patches change one path.
type Conflict struct {
	Object string
	// Sides are the changes, in the order their patches were applied
	// (then the order of the changes of a patch): at least two, of at
	// least two patches.
	Sides []Side
}

// String describes the conflict: the object, then every side with its
// position ("o: p:1:1 (field patch) sets a to 1, and p:2:1 (field patch)
// sets a to 2"). A conflict of more than maxListed sides (many patches
// setting one field, or inserting into one list) shows the first
// shownSides, how many others there are, and the last (the one applied
// last): "o: p:1:1 ..., p:10:1 ..., 3989 more sides, and p:4000:1 ...".
// The line stays readable, and its length does not grow with the patches.
func (c Conflict) String() string {
	var b strings.Builder
	b.WriteString(c.Object)
	b.WriteString(": ")
	side := func(s Side) {
		fmt.Fprintf(&b, "%s (%s patch) %s", strings.TrimSuffix(s.Change.Pos.String(), ": "), s.Patch, s.Change)
	}
	if n := len(c.Sides); n > maxListed {
		for _, s := range c.Sides[:shownSides] {
			side(s)
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d more sides, and ", n-shownSides-1)
		side(c.Sides[n-1])
		return c.mask(b.String())
	}
	for i, s := range c.Sides {
		switch {
		case i > 0 && i == len(c.Sides)-1:
			b.WriteString(", and ")
		case i > 0:
			b.WriteString(", ")
		}
		side(s)
	}
	return c.mask(b.String())
}

// mask masks the secret values of the conflict's object in a text about
// it (change.Change.MaskText: its sides are changes to one object).
func (c Conflict) mask(s string) string {
	for _, side := range c.Sides {
		s = side.Change.MaskText(s)
	}
	return s
}

// maxListed is the most sides Conflict.String lists; of a conflict of
// more, it lists shownSides and the last.
const (
	maxListed  = 12
	shownSides = 10
)

// Recorder finds the conflicts of objects patched one at a time, each as
// soon as its patches have applied (kpatch.Options.Records is its Add),
// so that the change records need not be kept until every object is
// patched: it keeps only the conflicts. It is safe for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	found map[string][]Conflict // by object
}

// Add finds the conflicts between records (Find) and keeps them.
func (r *Recorder) Add(records []change.Record) {
	found := Find(records)
	if len(found) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.found == nil {
		r.found = map[string][]Conflict{}
	}
	for _, c := range found {
		r.found[c.Object] = append(r.found[c.Object], c)
	}
}

// Conflicts returns the conflicts found, in Find's order, as if Find had
// been given every record at once in the order of objects (what it does
// not tell apart: conflicts of several objects at one place of one
// patch): objects names them (kpatch.Result.Recorded); those it does not
// name come after, by name.
func (r *Recorder) Conflicts(objects []string) []Conflict {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Conflict
	taken := map[string]bool{}
	for _, o := range objects {
		if !taken[o] {
			taken[o] = true
			out = append(out, r.found[o]...)
		}
	}
	var rest []string
	for o := range r.found {
		if !taken[o] {
			rest = append(rest, o)
		}
	}
	slices.Sort(rest)
	for _, o := range rest {
		out = append(out, r.found[o]...)
	}
	Sort(out)
	return out
}

// relation is how two paths relate.
type relation uint8

const (
	disjoint relation = iota // neither is the other or below it
	same                     // the same place (or, through items that may be one, possibly)
	above                    // the first is above the second
	below                    // the first is below the second
	shape                    // one needs a value to be an object, the other a list (or a set)
)

// relate compares two paths element by element: fields by name, items by
// whether they may be the same item (meet).
func relate(p, q fieldpath.Path) relation {
	for i := range min(len(p), len(q)) {
		e, f := p[i], q[i]
		switch {
		case e.Kind == fieldpath.FieldElement && f.Kind == fieldpath.FieldElement:
			if e.Name != f.Name {
				return disjoint
			}
		case e.Kind == fieldpath.FieldElement || f.Kind == fieldpath.FieldElement:
			return shape
		default:
			switch meet(e, f) {
			case never:
				return disjoint
			case clash:
				return shape
			}
		}
	}
	switch {
	case len(p) == len(q):
		return same
	case len(p) < len(q):
		return above
	}
	return below
}

// meeting is whether two item elements of one list may name one item.
type meeting uint8

const (
	never meeting = iota
	maybe
	clash // an object named by key and a scalar named by value: the list cannot hold both
)

func meet(e, f fieldpath.Element) meeting {
	switch {
	case e.Kind == fieldpath.IndexElement && f.Kind == fieldpath.IndexElement:
		if e.Index == f.Index {
			return maybe
		}
		return never
	case e.Kind == fieldpath.IndexElement || f.Kind == fieldpath.IndexElement:
		return maybe // an index may be any item
	case e.Kind != f.Kind:
		return clash
	case e.Kind == fieldpath.MemberElement:
		if e.Value == f.Value {
			return maybe
		}
		return never
	}
	// by key: the fields both name must have the same values
	for _, kf := range e.Key {
		if v, ok := f.KeyValue(kf.Name); ok && v != kf.Value {
			return never
		}
	}
	return maybe
}

// meetBut reports whether the item elements e and f of one list may name
// one item when the values they give the field name are left out: when
// they may not, an item named by e has, whatever its field name holds,
// another value than f's of a field they both name, and a change of name
// alone does not make it the item f names, nor one f named.
func meetBut(e, f fieldpath.Element, name string) bool {
	if e.Kind != fieldpath.KeyElement || f.Kind != fieldpath.KeyElement {
		return true // an index may be any item
	}
	for _, kf := range e.Key {
		if v, ok := f.KeyValue(kf.Name); ok && kf.Name != name && v != kf.Value {
			return false
		}
	}
	return true
}

// where says where two changes that conflict meet: at the path of the one
// that conflicts with a whole part of the other (of: 1 for x, 2 for y; 0
// for neither, two changes at one path or neither above the other), cut to
// depth elements: its own path, or, for a change to the items of a list
// that the other names an item of by index, the list's.
type where struct {
	of    uint8
	depth int
}

// conflicts reports whether x (of a patch of kind kx) and y (of kind ky,
// another patch) conflict, and where they meet.
func conflicts(x, y change.Change, kx, ky change.PatchType) (where, bool) {
	// the change to a list's items, or to their names, goes with every
	// change that names an item of the list: reported once
	if j, ok := structural(x, y); ok {
		return where{1, j}, true
	}
	if renames(x, y) {
		return where{1, len(x.Path)}, true
	}
	if j, ok := structural(y, x); ok {
		return where{2, j}, true
	}
	if renames(y, x) {
		return where{2, len(y.Path)}, true
	}
	if otherItem(x, y) || otherItem(y, x) {
		return where{}, false
	}
	crossKind := (kx == change.FieldPatch) != (ky == change.FieldPatch)
	atX, atY := where{1, len(x.Path)}, where{2, len(y.Path)}
	switch relate(x.Path, y.Path) {
	case shape:
		return where{}, !passive(x) || !passive(y)
	case same:
		if crossKind && setsOrDeletes(x) && setsOrDeletes(y) {
			return where{}, true
		}
		return where{}, sameClash(x, y) || sameClash(y, x)
	case above:
		if crossKind && setsOrDeletes(x) {
			return atX, true
		}
		return atX, belowClash(x, y)
	case below:
		if crossKind && setsOrDeletes(y) {
			return atY, true
		}
		return atY, belowClash(y, x)
	}
	return where{}, false
}

func setsOrDeletes(c change.Change) bool { return c.Op == change.Set || c.Op == change.Delete }

// passive reports whether a change changes nothing by itself: it reads,
// or it merges into a value that is there (what it changes there is
// recorded below it).
func passive(c change.Change) bool {
	return c.Op == change.Test || c.Op == change.Exists || c.Op == change.Merge
}

// sameClash reports whether x and y, at one path, conflict. It is called
// both ways round; each pair of operations is decided where x's is the
// first in the order of change.Op.
func sameClash(x, y change.Change) bool {
	if x.Op > y.Op {
		return false // decided the other way round
	}
	switch x.Op {
	case change.Set:
		switch y.Op {
		case change.Set:
			return !tree.Equal(x.Value, y.Value)
		case change.Create, change.Merge:
			return tree.KindOf(x.Value) != tree.KindOf(y.Value)
		case change.Retain:
			return !fieldsListed(x.Value, y.Value)
		case change.Exists:
			return false // it exists either way
		case change.Order:
			return y.Value != nil // a list set as a whole has its own order
		}
		return true // delete, insert
	case change.Delete:
		return y.Op != change.Delete
	case change.Create:
		switch y.Op {
		case change.Create, change.Merge:
			return tree.KindOf(x.Value) != tree.KindOf(y.Value)
		case change.Retain, change.Order:
			return false
		}
		return true // insert, test, exists
	case change.Insert:
		return true
	case change.Retain:
		return y.Op == change.Order || y.Op == change.Test
	case change.Order:
		switch {
		case y.Op == change.Test:
			return true
		case y.Op != change.Order:
			return false
		case x.Value == nil || y.Value == nil:
			return x.Value != y.Value // an order given against one that depends on a patch
		}
		return !tree.Equal(x.Value, y.Value)
	case change.Merge:
		return tree.KindOf(x.Value) != tree.KindOf(y.Value) // y is a Merge too
	}
	return false // tests and existence read, and agree (what changes below decides)
}

// fieldsListed reports whether every field of the object v is one that the
// $retainKeys list keep names.
func fieldsListed(v, keep *yaml.Node) bool {
	if tree.KindOf(v) != tree.Object {
		return false
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		listed := false
		for _, k := range keep.Content {
			if k.Value == v.Content[i].Value {
				listed = true
				break
			}
		}
		if !listed {
			return false
		}
	}
	return true
}

// belowClash reports whether y, below x, conflicts with it.
func belowClash(x, y change.Change) bool {
	rest := y.Path[len(x.Path):]
	switch x.Op {
	case change.Set:
		return !agrees(x.Value, rest, y)
	case change.Delete:
		return y.Op != change.Delete
	case change.Create, change.Merge:
		// a patch merges into what it creates, but a created object has
		// fields, a created list items, a created member nothing
		switch tree.KindOf(x.Value) {
		case tree.Object:
			return rest[0].Kind != fieldpath.FieldElement
		case tree.Array:
			return rest[0].Kind == fieldpath.FieldElement
		}
		return true
	case change.Insert:
		return !passive(y) || y.Op == change.Test
	case change.Retain:
		if rest[0].Kind != fieldpath.FieldElement {
			return true
		}
		for _, k := range x.Value.Content {
			if k.Value == rest[0].Name {
				return false
			}
		}
		return y.Op != change.Delete
	case change.Order:
		// an order given by the patch is of items: creating, inserting or
		// deleting one changes it; what is inside the items does not. A
		// merged list of scalars also loses its repeated values, which a
		// member inserted whether it is there or not may be.
		if len(rest) != 1 || passive(y) {
			return false
		}
		return x.Value != nil || y.Op == change.Insert && rest[0].Kind == fieldpath.MemberElement
	case change.Test:
		return !passive(y)
	}
	return false // Exists: changes inside what exists do not matter
}

// agrees reports whether y, at rest below a value v set as a whole,
// changes nothing that setting v does not also do: applied before or
// after the set, it leaves the same value.
func agrees(v *yaml.Node, rest fieldpath.Path, y change.Change) bool {
	at := fieldpath.Get(v, rest)
	switch y.Op {
	case change.Set:
		return at != nil && tree.Equal(at, y.Value)
	case change.Delete:
		return at == nil
	case change.Create, change.Merge:
		return at != nil && tree.KindOf(at) == tree.KindOf(y.Value)
	case change.Exists:
		return at != nil
	}
	return false // an insertion, an order, a retain below a value set as a whole; a
	// test, which reads the value before or after it
}

// structural reports whether y names an item of a list by index and x
// changes which items the list has, or their order: the index may then
// name another item. j is the length of the list's path.
func structural(x, y change.Change) (j int, ok bool) {
	for j, e := range y.Path {
		if e.Kind != fieldpath.IndexElement {
			continue
		}
		list := y.Path[:j]
		switch {
		case x.Op == change.Order && len(x.Path) == j:
		case (x.Op == change.Create || x.Op == change.Insert || x.Op == change.Delete) &&
			len(x.Path) == j+1 && x.Path[j].Item():
		default:
			continue
		}
		if r := relate(x.Path[:j], list); r == same {
			return j, true
		}
	}
	return 0, false
}

// otherItem reports whether x inserts, at an index, an item that is not
// the one y names by key or value: an index may name any item, but x's
// value says which one it is.
func otherItem(x, y change.Change) bool {
	n := len(x.Path)
	if x.Op != change.Insert || n == 0 || x.Path[n-1].Kind != fieldpath.IndexElement || len(y.Path) < n {
		return false
	}
	if relate(x.Path[:n-1], y.Path[:n-1]) != same {
		return false
	}
	switch e := y.Path[n-1]; e.Kind {
	case fieldpath.KeyElement:
		return !fieldpath.HasKey(x.Value, e)
	case fieldpath.MemberElement:
		return !e.Value.Matches(x.Value)
	}
	return false
}

// renames reports whether x changes a field that y uses to name an item of
// a list (one of its key fields): x may then rename the item y names, or
// make another item the one y names. Setting a key field to the value x's
// own name of the item gives it changes nothing.
func renames(x, y change.Change) bool {
	if x.Op != change.Set && x.Op != change.Delete && x.Op != change.Create && x.Op != change.Insert {
		return false
	}
	for j, e := range y.Path {
		if e.Kind != fieldpath.KeyElement || len(x.Path) < j+1 || !x.Path[j].Item() {
			continue
		}
		if relate(x.Path[:j], y.Path[:j]) != same {
			continue
		}
		item := x.Path[j]
		switch {
		case len(x.Path) == j+2 && x.Path[j+1].Kind == fieldpath.FieldElement:
			// a field of an item
			f := x.Path[j+1].Name
			if _, isKey := e.KeyValue(f); !isKey {
				continue
			}
			if !meetBut(item, e, f) {
				continue // another item, before and after: x changes f alone
			}
			if own, ok := item.KeyValue(f); ok && x.Op == change.Set {
				if v, ok := fieldpath.ValueOf(x.Value); ok && v == own {
					continue // the item keeps the name it has
				}
			}
			return true
		case len(x.Path) == j+1 && (x.Op == change.Set || x.Op == change.Insert):
			// a whole item: does it get y's name without having had it?
			if !fieldpath.HasKey(x.Value, e) {
				continue
			}
			if meet(item, e) == maybe && item.Kind == fieldpath.KeyElement {
				continue // it had it: a set of the item, not a renaming
			}
			return true
		}
	}
	return false
}
