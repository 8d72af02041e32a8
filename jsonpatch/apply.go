package jsonpatch

import (
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/nodeedit"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/tree"
)

// Apply applies the JSON patch (RFC 6902) patch to doc and returns the result.
//
// doc and patch are document nodes or their root values; an empty document
// or nil is JSON null. The patch must be an array of operations. doc is
// edited in place: the nodes an operation does not replace stay, with their
// comments, key order and quoting. When doc is a document node, the result
// is put into it and doc is returned; otherwise the root value is returned,
// which is doc itself unless an operation replaced the whole document (path
// "").
//
// Copy operations may add at most 1,048,576 values to the document in one
// patch: copying the document into itself doubles it, and a few dozen such
// operations would otherwise exhaust memory.
//
// The patch is atomic. Apply first checks every operation (op, members,
// pointer syntax) and rejects a malformed patch before touching doc; it then
// applies the operations in order, recording the first change to every node
// it edits, and when an operation fails it puts those nodes back as they
// were: on error doc is exactly as it was and the result is nil. (Recording
// the changes rather than working on a copy keeps the nodes of doc in
// place, as callers that hold nodes of the document expect, and costs only
// what the patch touches.)
//
// patch is never modified: the values it brings are deep copies. If doc and
// patch share nodes (which trees read separately never do), the shared
// nodes are edited as part of doc.
//
// Errors are *Error.
func Apply(doc, patch *yaml.Node, opts Options) (*yaml.Node, error) {
	ops, err := parse(patch, opts.File)
	if err != nil {
		return nil, err
	}
	orig := tree.Root(doc)
	a := &applier{root: orig, maxCopied: opts.MaxExpanded, mask: !opts.ShowSecrets && secret.Object(orig), show: opts.ShowSecrets, ix: opts.Index}
	if a.ix == nil {
		a.ix = &Index{}
	}
	if a.maxCopied == 0 {
		a.maxCopied = tree.DefaultLimits().MaxExpanded
	}
	var changes []change.Change // recorded once every operation applied
	for _, o := range ops {
		if opts.Record != nil {
			changes = a.changesOf(o, changes)
		}
		if err := a.apply(o); err != nil {
			a.rollback()
			return nil, err
		}
	}
	if opts.Record != nil {
		opts.Record.Changes = append(opts.Record.Changes, changes...)
	}
	if doc != nil && doc.Kind == yaml.DocumentNode {
		if a.root != orig {
			doc.Content = []*yaml.Node{a.root}
		}
		return doc, nil
	}
	if a.root == nil {
		return tree.NewNull(), nil
	}
	return a.root, nil
}

// Options control Apply.
type Options struct {
	// File names the patch in the positions of errors (Error.Pos) and
	// changes.
	File string
	// Record, when set, receives the changes of a patch that applies
	// (see changesOf); nil records nothing.
	Record *change.Log
	// Index, when set, keeps indexes of the document's large objects for
	// the next calls of Apply on the same document (see Index); nil
	// indexes them for this call alone.
	Index *Index
	// MaxExpanded bounds what the copy operations of the patch may add
	// to the document, in bytes (tree.ExpandedCost: each value copied
	// counts its text and the size of a node), checked before each copy
	// is made: copying a document into itself doubles it, so without a
	// bound a patch of a few dozen operations would exhaust memory. 0:
	// tree.DefaultLimits().MaxExpanded (the limit on what YAML aliases
	// add); a negative value: no limit.
	MaxExpanded int
	// ShowSecrets shows the values of a v1 Secret's data and stringData
	// in clear in the message of a failed test (of a document that is a
	// Secret, or that an earlier operation made one). By default they are
	// masked ("***"), and the error says so (Error.Masked).
	ShowSecrets bool
}

// operation is one checked operation of the patch.
type operation struct {
	file             string // the patch's name
	index            int
	node             *yaml.Node // the operation object, for its position
	op               string
	path, from       string
	hasPath, hasFrom bool
	pathTok, fromTok []string
	value            *yaml.Node // a copy of the patch's value
	given            *yaml.Node // the patch's value itself, for changes
}

// validOp reports whether op is one of the six operations of RFC 6902.
func validOp(op string) bool {
	switch op {
	case "add", "remove", "replace", "move", "copy", "test":
		return true
	}
	return false
}

// parse checks the patch (named file) and returns its operations.
func parse(patch *yaml.Node, file string) ([]*operation, error) {
	p := tree.Deref(patch)
	if p == nil || p.Kind != yaml.SequenceNode {
		at := p
		if at == nil {
			at = patch
		}
		return nil, patchError(file, at, "a JSON patch is an array of operations, not %s", describe(p))
	}
	ops := make([]*operation, 0, len(p.Content))
	for i, item := range p.Content {
		o, err := parseOp(file, i, item)
		if err != nil {
			return nil, err
		}
		ops = append(ops, o)
	}
	return ops, nil
}

// parseOp checks one operation object.
func parseOp(file string, i int, item *yaml.Node) (*operation, error) {
	n := tree.Deref(item)
	o := &operation{file: file, index: i, node: item}
	if item == nil || item.Line == 0 {
		o.node = n
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, o.errorf(ReasonInvalid, "an operation is an object with \"op\", \"path\" and, depending on op, \"value\" or \"from\"; this one is %s", describe(n))
	}
	var opN, pathN, fromN, valueN *yaml.Node
	for j := 0; j+1 < len(n.Content); j += 2 {
		k := tree.Deref(n.Content[j])
		if k == nil || k.Kind != yaml.ScalarNode {
			return nil, o.errorf(ReasonInvalid, "a member name is %s; JSON objects have string member names", describe(k))
		}
		var slot **yaml.Node
		switch k.Value {
		case "op":
			slot = &opN
		case "path":
			slot = &pathN
		case "from":
			slot = &fromN
		case "value":
			slot = &valueN
		default:
			continue // RFC 6902, section 4: other members are ignored
		}
		if *slot != nil {
			return nil, o.errorf(ReasonInvalid, "member %q is given twice; an operation has each member once (RFC 6902, A.13)", k.Value)
		}
		*slot = n.Content[j+1]
		if *slot == nil {
			*slot = tree.NewNull()
		}
	}

	if opN == nil {
		return nil, o.errorf(ReasonInvalid, "no \"op\" member; add one: add, remove, replace, move, copy or test")
	}
	op, ok := stringValue(opN)
	switch {
	case !ok:
		return nil, o.errorf(ReasonInvalid, "\"op\" is %s; it must be a string: add, remove, replace, move, copy or test", describe(tree.Deref(opN)))
	case !validOp(op) && validOp(strings.ToLower(op)):
		return nil, o.errorf(ReasonInvalid, "unknown op %q: ops are lower case (%s)", op, strings.ToLower(op))
	case !validOp(op):
		return nil, o.errorf(ReasonInvalid, "unknown op %q: use add, remove, replace, move, copy or test", op)
	}
	o.op = op

	var err error
	if o.path, o.pathTok, err = o.pointer("path", pathN); err != nil {
		return nil, err
	}
	o.hasPath = true
	switch op {
	case "move", "copy":
		if o.from, o.fromTok, err = o.pointer("from", fromN); err != nil {
			return nil, err
		}
		o.hasFrom = true
		if op == "move" && isPrefix(o.fromTok, o.pathTok) {
			return nil, o.errorf(ReasonInvalid, "cannot move %s into its own child %s", showLocation(o.from), showPointer(o.path))
		}
	case "add", "replace", "test":
		if valueN == nil {
			return nil, o.errorf(ReasonInvalid, "no \"value\" member; %s needs one (value: null for null)", op)
		}
		o.value, o.given = cloneValue(valueN), valueN
	}
	return o, nil
}

// pointer reads the member name (path or from) of o: a string holding a
// JSON pointer.
func (o *operation) pointer(name string, n *yaml.Node) (string, []string, error) {
	if n == nil {
		return "", nil, o.errorf(ReasonInvalid, "no %q member; add one: a JSON pointer such as \"/metadata/name\", or \"\" for the whole document", name)
	}
	p, ok := stringValue(n)
	if !ok {
		return "", nil, o.errorf(ReasonInvalid, "%q is %s; it must be a string: a JSON pointer such as \"/metadata/name\", or \"\" for the whole document", name, describe(tree.Deref(n)))
	}
	toks, err := fieldpath.ParsePointer(p)
	if err != nil {
		return "", nil, o.errorf(ReasonInvalid, "%q: %v", name, err)
	}
	return p, toks, nil
}

// stringValue returns the value of a string scalar.
func stringValue(n *yaml.Node) (string, bool) {
	n = tree.Deref(n)
	if n == nil || n.Kind != yaml.ScalarNode || tree.KindOf(n) != tree.String {
		return "", false
	}
	return n.Value, true
}

// applier applies operations to a document, recording the first change to
// every node so that rollback can undo them all.
type applier struct {
	root      *yaml.Node // the document's value; nil: null
	saved     []savedNode
	seen      map[*yaml.Node]int // the index of each node in saved
	copied    int                // what the copy operations added so far (tree.ExpandedCost)
	maxCopied int                // Options.MaxExpanded, resolved; 0: no limit
	mask      bool               // the document was a Secret, whose values messages mask
	show      bool               // Options.ShowSecrets

	ix *Index // Options.Index, or one for this call
}

// Index keeps indexes of the large objects of a document from one call of
// Apply to the next (Options.Index), and from one operation to the next:
// each operation scanned the objects on its path (a patch of 20,000 adds
// to one object took 20 s), and so would each of n patches on one object
// of n members. The document must change only through Apply with this
// Index while the Index is in use: Apply keeps the indexes up to date with
// its own edits, and notices an object whose members were replaced, but
// not one edited in place to as many members. An Index is for one
// goroutine at a time; the zero value is ready.
type Index struct {
	objects map[*yaml.Node]*members
}

// members indexes the members of a large object by name.
type members struct {
	at      map[string]*member // nil: the object has a name twice (tree.MapIndex's scan says which one counts: the last)
	checked bool               // its keys are scalars (checkKeys); the edits add strings
	// the object's Content as last seen: its length, its first element's
	// address
	len   int
	first **yaml.Node
}

// mark notes the content of the object n as last seen.
func (m *members) mark(n *yaml.Node) {
	m.len, m.first = len(n.Content), nil
	if m.len > 0 {
		m.first = &n.Content[0]
	}
}

// member is one: its key node, and where that was in the object's Content
// when last seen (removals before it move it down, never up).
type member struct {
	key *yaml.Node
	i   int
}

// indexedMembers is the number of members above which an object is
// indexed: below it a scan is faster.
const indexedMembers = 16

// members returns the index of the object n, kept if n is as it was last
// seen, else made anew; nil when n is small.
func (a *applier) members(n *yaml.Node) *members {
	if m := a.ix.objects[n]; m != nil && len(n.Content) == m.len && (m.len == 0 || &n.Content[0] == m.first) {
		return m
	}
	if len(n.Content) <= 2*indexedMembers {
		delete(a.ix.objects, n)
		return nil
	}
	m := &members{at: make(map[string]*member, len(n.Content)/2)}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := tree.Resolve(n.Content[i])
		if k == nil {
			m.at = nil
			break
		}
		if _, twice := m.at[k.Value]; twice {
			m.at = nil
			break
		}
		m.at[k.Value] = &member{key: n.Content[i], i: i}
	}
	m.mark(n)
	if a.ix.objects == nil {
		a.ix.objects = map[*yaml.Node]*members{}
	}
	a.ix.objects[n] = m
	return m
}

// find returns the index in the object n's Content of the key named name,
// or -1: tree.MapIndex, through the index of a large object.
func (a *applier) find(n *yaml.Node, name string) int {
	m := a.members(n)
	if m == nil || m.at == nil {
		return tree.MapIndex(n, name)
	}
	e := m.at[name]
	if e == nil {
		return -1
	}
	for e.i >= 0 && (e.i >= len(n.Content) || n.Content[e.i] != e.key) {
		e.i -= 2
	}
	if e.i < 0 { // cannot happen: the edits keep the index; scan instead
		delete(a.ix.objects, n)
		return tree.MapIndex(n, name)
	}
	return e.i
}

// edited notes the edit of the object n, which added the member named
// name (key: its key node, at the end) or removed it (key nil).
func (a *applier) edited(n *yaml.Node, name string, key *yaml.Node) {
	m := a.ix.objects[n]
	if m == nil {
		return
	}
	if m.at != nil {
		if key != nil {
			m.at[name] = &member{key: key, i: len(n.Content) - 2}
		} else {
			delete(m.at, name)
		}
	}
	m.mark(n)
}

// checkKeys checks that the keys of the object n (at the pointer at) are
// scalars, once for a large object: the edits give it string keys only.
func (a *applier) checkKeys(o *operation, n *yaml.Node, at []string) error {
	m := a.members(n)
	if m != nil && m.checked {
		return nil
	}
	if err := o.checkKeys(n, at); err != nil {
		return err
	}
	if m != nil {
		m.checked = true
	}
	return nil
}

type savedNode struct {
	n   *yaml.Node
	old yaml.Node // with its Content, copied before the first edit in place
	// copied: old.Content is a copy. Until then it is n's own, which
	// appends (the edits before) leave as it was: what n held up to its
	// length then.
	copied bool
}

// touch records n as it is, before its first change: its fields, and
// its content as it is (appending to it, which leaves what it held, needs
// no copy of it: a patch adding a member to an object of n members is not
// n work).
func (a *applier) touch(n *yaml.Node) {
	if _, ok := a.seen[n]; ok {
		return
	}
	if a.seen == nil {
		a.seen = map[*yaml.Node]int{}
	}
	a.seen[n] = len(a.saved)
	a.saved = append(a.saved, savedNode{n: n, old: *n})
}

// touchInPlace records n before an edit of its content in place: a
// replaced or removed element, an inserted one.
func (a *applier) touchInPlace(n *yaml.Node) {
	a.touch(n)
	if s := &a.saved[a.seen[n]]; !s.copied {
		s.old.Content, s.copied = slices.Clone(s.old.Content), true
	}
}

// rollback puts every changed node back as it was.
func (a *applier) rollback() {
	for i := len(a.saved) - 1; i >= 0; i-- {
		*a.saved[i].n = a.saved[i].old
	}
	a.saved, a.seen = nil, nil
	clear(a.ix.objects)
}

func (a *applier) apply(o *operation) error {
	switch o.op {
	case "add":
		return a.add(o, o.pathTok, o.value, nil)
	case "remove":
		_, _, err := a.remove(o, o.pathTok)
		return err
	case "replace":
		return a.replace(o, o.pathTok, o.value)
	case "move":
		if slices.Equal(o.fromTok, o.pathTok) {
			_, err := a.get(o, o.fromTok) // RFC 6902, 4.4: from must exist
			return err
		}
		v, key, err := a.remove(o, o.fromTok)
		if err != nil {
			return err
		}
		return a.add(o, o.pathTok, v, key)
	case "copy":
		v, err := a.get(o, o.fromTok)
		if err != nil {
			return err
		}
		if a.maxCopied > 0 {
			// counted before the copy is made
			a.copied += tree.ExpandedCost(v, a.maxCopied-a.copied)
			if a.copied > a.maxCopied {
				return o.errorf(ReasonLimit, "the copy operations of the patch would add more than %d bytes to the document (each value copied counts its text and the size of a node; does the patch copy the document into itself again and again?)", a.maxCopied)
			}
		}
		return a.add(o, o.pathTok, cloneValue(v), nil)
	case "test":
		v, err := a.get(o, o.pathTok)
		if err != nil {
			return err
		}
		if !equal(v, o.value) {
			want, masked := o.value, false
			// masked if the document was a Secret, or is one now (an
			// earlier operation replaced its kind): its values are secret
			isSecret := a.mask || !a.show && secret.Object(a.root)
			if p := secret.AtPointer(o.path); isSecret && secret.Touches(p) {
				v, want, masked = secret.Value(v, p), secret.Value(want, p), true
			}
			e := o.errorf(ReasonTest, "test failed: %s is %s, not %s", showValueAt(o.pathTok), render(v), render(want))
			e.masked = masked
			return e
		}
	}
	return nil
}

// add puts v at toks: the whole document, a member of an object (new, or
// replacing the one there) or an item inserted into an array. key is the
// key node v had in its object when a move took it from one: a new member
// takes its comments.
func (a *applier) add(o *operation, toks []string, v, key *yaml.Node) error {
	if len(toks) == 0 {
		a.root = a.replaceNode(a.editableRoot(), v)
		return nil
	}
	p, err := a.parent(o, toks)
	if err != nil {
		return err
	}
	last, at := toks[len(toks)-1], toks[:len(toks)-1]
	switch p.Kind {
	case yaml.MappingNode:
		if i := a.find(p, last); i >= 0 {
			a.touchInPlace(p)
			p.Content[i+1] = a.replaceNode(p.Content[i+1], v)
			return nil
		}
		kn := tree.NewString(last)
		if key != nil {
			kn.HeadComment, kn.LineComment, kn.FootComment = key.HeadComment, key.LineComment, key.FootComment
		}
		a.touch(p)
		if len(p.Content)%2 != 0 {
			a.touchInPlace(p)
			p.Content = p.Content[:len(p.Content)-1] // a key without a value
		}
		p.Content = append(p.Content, kn, v)
		a.edited(p, last, kn)
	case yaml.SequenceNode:
		i, err := o.arrayIndex(p, at, last, true)
		if err != nil {
			return err
		}
		if i < len(p.Content) {
			a.touchInPlace(p)
		} else {
			a.touch(p) // appended
		}
		p.Content = slices.Insert(p.Content, i, v)
	}
	return nil
}

// remove takes the value at toks out of its object or array and returns it,
// with its key node when it was an object member.
func (a *applier) remove(o *operation, toks []string) (v, key *yaml.Node, err error) {
	if len(toks) == 0 {
		return nil, nil, o.errorf(ReasonTarget, "%s cannot take away the whole document (pointer \"\"); replace it instead", o.op)
	}
	p, err := a.parent(o, toks)
	if err != nil {
		return nil, nil, err
	}
	last, at := toks[len(toks)-1], toks[:len(toks)-1]
	switch p.Kind {
	case yaml.MappingNode:
		i := a.find(p, last)
		if i < 0 {
			return nil, nil, o.errorf(ReasonTarget, "no member %s in %s", strconv.Quote(last), place("object", at))
		}
		a.touchInPlace(p)
		key, v = p.Content[i], p.Content[i+1]
		p.Content = slices.Delete(p.Content, i, i+2)
		a.edited(p, last, nil)
		return v, key, nil
	default: // SequenceNode: parent checked that p is a container
		i, err := o.arrayIndex(p, at, last, false)
		if err != nil {
			return nil, nil, err
		}
		a.touchInPlace(p)
		v = p.Content[i]
		p.Content = slices.Delete(p.Content, i, i+1)
		return v, nil, nil
	}
}

// replace puts v in place of the existing value at toks.
func (a *applier) replace(o *operation, toks []string, v *yaml.Node) error {
	if len(toks) == 0 {
		a.root = a.replaceNode(a.editableRoot(), v)
		return nil
	}
	p, err := a.parent(o, toks)
	if err != nil {
		return err
	}
	last, at := toks[len(toks)-1], toks[:len(toks)-1]
	var i int
	switch p.Kind {
	case yaml.MappingNode:
		if i = a.find(p, last); i < 0 {
			return o.errorf(ReasonTarget, "no member %s in %s (add creates members, replace only changes them)", strconv.Quote(last), place("object", at))
		}
		i++
	default:
		if i, err = o.arrayIndex(p, at, last, false); err != nil {
			return err
		}
	}
	a.touchInPlace(p)
	p.Content[i] = a.replaceNode(p.Content[i], v)
	return nil
}

// replaceNode returns the node that takes the place of old (nil: none) to
// hold the value v: old itself, updated, when both are scalars, so that it
// keeps its comments (and its quoting when both are strings); otherwise v
// with the comments of old where it has none.
func (a *applier) replaceNode(old, v *yaml.Node) *yaml.Node {
	if old != nil && old.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode {
		a.touch(old)
		nodeedit.SetScalar(old, v)
		return old
	}
	if old != nil {
		a.touch(v) // v may be a node of the document (move)
	}
	return nodeedit.InheritComments(old, v)
}

// get returns the value at toks, which must exist.
func (a *applier) get(o *operation, toks []string) (*yaml.Node, error) {
	n := tree.Deref(a.root)
	for i, t := range toks {
		j, err := a.step(o, n, toks[:i], t)
		if err != nil {
			return nil, err
		}
		n = tree.Deref(n.Content[j])
	}
	return n, nil
}

// parent returns the object or array that holds (or is to hold) the value
// at toks, which are not empty, ready to be edited: nodes on the way that
// are aliases (in trees built by hand) are replaced by copies.
func (a *applier) parent(o *operation, toks []string) (*yaml.Node, error) {
	n := a.editableRoot()
	for i, t := range toks[:len(toks)-1] {
		j, err := a.step(o, n, toks[:i], t)
		if err != nil {
			return nil, err
		}
		c := n.Content[j]
		if c != nil && (c.Kind == yaml.AliasNode || c.Kind == yaml.DocumentNode) {
			a.touchInPlace(n)
			c = cloneValue(c)
			n.Content[j] = c
		}
		n = c
	}
	at, last := toks[:len(toks)-1], toks[len(toks)-1]
	if n == nil || (n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode) {
		return nil, o.notContainer(n, at, last)
	}
	if n.Kind == yaml.MappingNode {
		if err := a.checkKeys(o, n, at); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// editableRoot returns the document's value, replacing it by a copy when it
// is an alias or a document node (only in trees built by hand).
func (a *applier) editableRoot() *yaml.Node {
	if a.root != nil && (a.root.Kind == yaml.AliasNode || a.root.Kind == yaml.DocumentNode) {
		a.root = cloneValue(a.root)
	}
	return a.root
}

// step returns the index in n.Content of the value that token t names in n,
// the value at the pointer at; that value must exist.
func (a *applier) step(o *operation, n *yaml.Node, at []string, t string) (int, error) {
	switch {
	case n != nil && n.Kind == yaml.MappingNode:
		if err := a.checkKeys(o, n, at); err != nil {
			return 0, err
		}
		i := a.find(n, t)
		if i < 0 {
			return 0, o.errorf(ReasonTarget, "no member %s in %s", strconv.Quote(t), place("object", at))
		}
		return i + 1, nil
	case n != nil && n.Kind == yaml.SequenceNode:
		return o.arrayIndex(n, at, t, false)
	}
	return 0, o.notContainer(n, at, t)
}

// arrayIndex reads the token t as an index of the array n (at the pointer at):
// one of its items, or with forAdd also the position after the last one,
// which "-" names.
func (o *operation) arrayIndex(n *yaml.Node, at []string, t string, forAdd bool) (int, error) {
	size := len(n.Content)
	if t == "-" {
		if forAdd {
			return size, nil
		}
		return 0, o.errorf(ReasonTarget, "\"-\" names the position after the last item of %s, where there is no value yet: only add (and the path of move and copy) can use it", place("array", at))
	}
	i, ok, why := fieldpath.PointerIndex(t)
	if !ok {
		return 0, o.errorf(ReasonTarget, "index %s of %s %s", strconv.Quote(t), place("array", at), why)
	}
	limit := size
	if forAdd {
		limit++
	}
	if i < limit {
		return i, nil
	}
	var has string
	switch size {
	case 0:
		has = "no items"
	case 1:
		has = "1 item (index 0)"
	default:
		has = strconv.Itoa(size) + " items (0 to " + strconv.Itoa(size-1) + ")"
	}
	if forAdd {
		return 0, o.errorf(ReasonTarget, "index %s is out of range: %s has %s; add inserts at 0 to %d, or appends with \"-\"", t, place("array", at), has, size)
	}
	return 0, o.errorf(ReasonTarget, "index %s is out of range: %s has %s", t, place("array", at), has)
}

// notContainer is the error for a token t applied to n, a value that has
// no members (the value at the pointer at).
func (o *operation) notContainer(n *yaml.Node, at []string, t string) error {
	what := "the document"
	if len(at) > 0 {
		what = showPointer(fieldpath.FormatPointer(at))
	}
	return o.errorf(ReasonTarget, "%s is %s, not an object or an array: it has no member %s", what, describe(n), strconv.Quote(t))
}

// checkKeys checks that every key of the mapping n (at the pointer at) is
// a scalar, as JSON wants (tree.Read guarantees it; trees built by hand may
// differ).
func (o *operation) checkKeys(n *yaml.Node, at []string) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := tree.Deref(n.Content[i]); k == nil || k.Kind != yaml.ScalarNode {
			return o.errorf(ReasonTarget, "%s has a key that is %s; JSON objects have string member names", place("object", at), describe(k))
		}
	}
	return nil
}

// place names the object or array at a pointer: "the object at /spec", or
// "the root object".
func place(what string, at []string) string {
	if len(at) == 0 {
		return "the root " + what
	}
	return "the " + what + " at " + showPointer(fieldpath.FormatPointer(at))
}

// showValueAt names the value at toks for a message.
func showValueAt(toks []string) string {
	if len(toks) == 0 {
		return "the document"
	}
	return showPointer(fieldpath.FormatPointer(toks))
}

// showLocation is showPointer, calling "" the whole document.
func showLocation(p string) string {
	if p == "" {
		return "the whole document"
	}
	return showPointer(p)
}

// describe names the JSON kind of n with an article: "a string", "an
// object", "null".
func describe(n *yaml.Node) string {
	switch tree.KindOf(n) {
	case tree.Null:
		return "null"
	case tree.Bool:
		return "a boolean"
	case tree.Int, tree.Float:
		return "a number"
	case tree.String:
		return "a string"
	case tree.Object:
		return "an object"
	}
	return "an array"
}

// maxRender bounds the length of a value shown in a message.
const maxRender = 80

// render shows a value for a message, as compact JSON, shortened when long.
func render(n *yaml.Node) string {
	b, err := tree.MarshalJSON(n)
	if err != nil {
		if n = tree.Deref(n); n != nil && n.Kind == yaml.ScalarNode {
			return n.Value
		}
		return describe(n)
	}
	if len(b) > maxRender {
		cut := maxRender
		for cut > 0 && b[cut]&0xC0 == 0x80 {
			cut-- // not in the middle of a UTF-8 sequence
		}
		return string(b[:cut]) + "…"
	}
	return string(b)
}

// cloneValue returns a deep copy of the value n (nil: null) that shares no
// node with it, holds no alias, document node or anchor (a copied anchor
// would define a name twice), and is not nil. A null written as nothing
// (YAML's "key:") is written "null" in the copy: yaml.v3 writes an empty
// null inside a flow collection as an empty quoted string.
func cloneValue(n *yaml.Node) *yaml.Node {
	c := tree.Clone(tree.Deref(n))
	if c == nil {
		return tree.NewNull()
	}
	plain(c)
	return c
}

func plain(n *yaml.Node) {
	n.Anchor = ""
	if n.Kind == yaml.ScalarNode && n.Value == "" && n.Style == 0 && tree.KindOf(n) == tree.Null {
		n.Value = "null"
	}
	for i, c := range n.Content {
		if c == nil {
			continue
		}
		if c.Kind == yaml.DocumentNode {
			if c = tree.Deref(c); c == nil {
				c = tree.NewNull()
			}
			n.Content[i] = c
		}
		plain(c)
	}
}
