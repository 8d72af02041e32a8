// Package change records what a patch did to an object: each change is a
// path (fieldpath.Path), what happened there, and where the patch says so.
//
// The patch engines (smp, mergepatch, jsonpatch) and kpatch's field
// patches record changes as they apply, when their options carry a *Log;
// the conflict package compares the changes of different patches. A
// change names list items by the identity the engine used: strategic merge
// patches by merge key (the schema's, or the item's $patchMergeKey), lists
// of scalars merged by value as set members, JSON patches by index.
//
// Changes record what a patch makes true, the way server-side apply's
// managed fields do: a patch that merges an object or a list into the
// document records the fields and items it sets, not the object it merges
// into, so that two patches adding different fields to one object (or
// different items to one list) have no change in common. A value a patch
// replaces as a whole (a scalar, a list that is not merged, an object with
// the replace strategy) is one Set.
package change

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/tree"
)

// Op is what a change did at its path.
type Op uint8

// The operations.
const (
	// Set: the value at Path is now Value, as a whole (a scalar, or an
	// object or a list that replaced what was there).
	Set Op = iota
	// Delete: there is no value at Path any more (a field deleted, a list
	// item removed, a member taken out of a set).
	Delete
	// Create: a value that may not have existed is at Path now, and the
	// patch merges into it: an object, a list, a list item named by key, a
	// member of a set. Value has the value's kind (an empty object or list,
	// or the member); what goes into it is recorded by changes below Path.
	Create
	// Insert: a new list item at Path, an index: the items from there on
	// moved one place. Value is the item.
	Insert
	// Retain: $retainKeys: the fields of the object at Path that Value (a
	// list of field names) does not list were removed.
	Retain
	// Order: the list at Path was ordered by Value ($setElementOrder's
	// list), or, when Value is nil, put in an order that depends on the
	// patch (a strategic merge patch puts the items it names in its own
	// order): it matters only against an order given by Value.
	Order
	// Test: a JSON patch's test, or the value a move or a copy takes: the
	// patch applies only when the value at Path is Value. Nothing changed,
	// but the outcome depends on it.
	Test
	// Exists: a value at Path must exist for the patch to apply (a JSON
	// patch operation works in it, or removes, replaces or reads it; a
	// field patch's selector picks it). Nothing changed.
	Exists
	// Merge: the patch merges into the object or list at Path, which was
	// there (Value has its kind): it is there afterwards, whatever else
	// changes inside it.
	Merge
)

var opVerbs = [...]string{"sets", "deletes", "creates", "inserts", "keeps only the fields $retainKeys lists of", "orders", "tests", "needs", "merges into"}

// String returns the verb messages use for the operation: "sets",
// "deletes", ...
func (o Op) String() string {
	if int(o) < len(opVerbs) {
		return opVerbs[o]
	}
	return fmt.Sprintf("op(%d)", o)
}

// Change is one thing a patch did to an object.
type Change struct {
	Path fieldpath.Path
	Op   Op
	// Value is the value a Set, an Insert or a Test gives, the kind of what
	// a Create creates, Retain's field names, Order's order (see Op). It
	// is a node of the patch, or a copy, and is never changed afterwards.
	Value *yaml.Node
	// Pos is where the patch says it: the patch's name, the line and the
	// column of the key, the item or the directive.
	Pos tree.Position
	// Patch is where the patch the change is part of starts (a .kpatch
	// section's header, an item of a YAML patch list), as kpatch records
	// it; the zero Position when unknown, and Pos then stands for it.
	Patch tree.Position
	// Mask says that the change is to a v1 Secret whose values messages
	// mask: String shows the values of its data and stringData as "***".
	// It changes nothing else (conflicts are found on the values).
	Mask bool
	// secrets are the secret values of the object, by which messages
	// mask the change's text (MaskWith); nil: none
	secrets *secret.Values
	// Note is what a message about the value should add, when how the
	// patch came to write it explains a surprise: kpatch notes a string a
	// strategic, merge or JSON patch got from a quoted variable. Empty
	// for most changes.
	Note string
}

// MaskWith marks the change as one to an object whose values are
// secret (package kpatch calls it for the changes to an object that is or
// was a v1 Secret): Mask is set when the change is at or below data or
// stringData, and what messages show of it (String, Shown, MaskText) is
// masked by the object's values v wherever they show. Nothing happens
// when v is not secret.
func (c *Change) MaskWith(v *secret.Values) {
	if !v.On() {
		return
	}
	c.Mask = secret.Touches(c.Path)
	c.secrets = v
}

// Shown returns what a message shows of Value: the values of a Secret's
// data and stringData masked (Mask), and any secret value of the object
// elsewhere (MaskWith). Value itself when nothing is masked.
func (c Change) Shown() *yaml.Node {
	v := c.Value
	if c.Mask {
		v = secret.Value(v, c.Path)
	}
	if c.secrets != nil {
		v = c.secrets.Node(v, c.Path)
	}
	return v
}

// MaskText returns s, a text about the change (or its object) a caller
// built, with the secret values of the object masked as String masks
// them (MaskWith); s itself when there are none.
func (c Change) MaskText(s string) string { return c.secrets.Text(s) }

// String describes the change: "sets spec.replicas to 3".
func (c Change) String() string {
	s := c.Op.String() + " " + where(c.Path)
	v := c.Shown()
	switch c.Op {
	case Set, Insert:
		s += " to " + Show(v)
	case Test:
		s += " is " + Show(v)
	case Retain:
		s += " (" + Show(c.Value) + ")" // field names
	case Order:
		if c.Value != nil {
			s += " by " + Show(v)
		}
	case Exists:
		s += " to exist"
	}
	return c.MaskText(s)
}

// where names a path in a message: the root is "the object".
func where(p fieldpath.Path) string {
	if len(p) == 0 {
		return "the object"
	}
	return p.String()
}

// maxShown bounds the length of a value shown in a message.
const maxShown = 80

// Show writes a value for a message: a scalar as it is written, an object
// or a list as JSON, cut at 80 bytes.
func Show(n *yaml.Node) string {
	switch k := tree.KindOf(n); {
	case n == nil:
		return "(absent)"
	case k.Scalar():
		return tree.Deref(n).Value
	}
	b, err := tree.MarshalJSON(n)
	if err != nil {
		return "(" + tree.KindOf(n).String() + ")"
	}
	if len(b) > maxShown {
		cut := maxShown - 3
		for cut > 0 && b[cut]&0xC0 == 0x80 {
			cut-- // not in the middle of a UTF-8 sequence
		}
		return string(b[:cut]) + "..."
	}
	return string(b)
}

// Log collects changes as a patch is applied. A nil *Log records nothing:
// engines check for nil before building a change, so that not recording
// costs nothing. A Log is not safe for concurrent use.
type Log struct {
	Changes []Change
}

// Add records a change.
func (l *Log) Add(c Change) {
	if l != nil {
		l.Changes = append(l.Changes, c)
	}
}

// Record adds a change at a copy of path (a stack the caller goes on
// editing): its value v, and its position: the line and column of the node
// at of the patch named file. It does nothing on a nil Log.
func (l *Log) Record(op Op, path fieldpath.Path, v *yaml.Node, file string, at *yaml.Node) {
	if l == nil {
		return
	}
	c := Change{Path: path.Append(), Op: op, Value: v, Pos: tree.Position{File: file}}
	if at != nil {
		c.Pos.Line, c.Pos.Column = at.Line, at.Column
	}
	l.Changes = append(l.Changes, c)
}

// String lists the changes, one a line, with their positions: for tests
// and debugging.
func (l *Log) String() string {
	var b strings.Builder
	for _, c := range l.Changes {
		b.WriteString(c.Pos.String())
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}
