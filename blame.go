package kmerge

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/lines"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// BlameResult is what Blame found: the run's result, and the documents
// the patches changed, each line with the patch that wrote it.
type BlameResult struct {
	*ApplyResult
	// Documents are the documents holding an object the patches changed
	// (and that the selectors pick), in the order of the output.
	Documents []*BlamedDocument
	// Unchanged name the objects the selectors picked that no patch
	// changed ("apps/v1 Deployment web"), in the order of the set.
	Unchanged []string
	// Deleted are the objects a patch deleted (and the selectors pick),
	// in the order of the input: they have no line in the output.
	Deleted []*DeletedObject
}

// DeletedObject is an object a patch deleted: where it was read, and the
// patch that deleted it.
type DeletedObject struct {
	File                              string // the input file it was read from (File.Path)
	Index                             int    // of its document in the file
	Item                              int    // of the List the document is, from 0; -1 for the document itself
	APIVersion, Kind, Namespace, Name string
	// Pos is the patch that deleted it, and Overrode the patches whose
	// changes to it the deletion undid, in the order they ran.
	Pos      tree.Position
	Overrode []tree.Position
}

// ID names the object as messages do: "apps/v1 Deployment prod/web".
func (o *DeletedObject) ID() string {
	return (&resource.Resource{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}).ID()
}

// BlamedDocument is a document of the output and what wrote it.
type BlamedDocument struct {
	File  string // the input file it comes from (File.Path)
	Index int    // of the document in the file
	// Lines are the document's lines as the file's output holds them
	// (numbered from 1 in that output: what kmerge apply prints for the
	// file), but for the values of Secrets, which are masked unless
	// ApplyPatchesOptions.ShowSecrets: the first line of a secret value ends in
	// "***" after its key, and its other lines (of a block scalar) are
	// left out. The document markers (---) are left out too.
	Lines   []Line
	Objects []*BlamedObject // the changed objects of the document: one, or items of a List
}

// Line is a line of a document, shown.
type Line struct {
	N    int // its number in the file's output
	Text string
	// Live are the field managers that own, in the live object, the
	// field or item the line starts; After are those that own it once the
	// output is applied server-side. Blame leaves them nil; package
	// serverside's Blame fills them in.
	Live, After []string
}

// BlamedObject is an object the patches changed, and the places they
// wrote last.
type BlamedObject struct {
	APIVersion, Kind, Namespace, Name string
	Origins                           []Origin

	secrets *secret.Values // its secret values (kpatch.Run.Secrets), nil: none
}

// ID names the object as messages do: "apps/v1 Deployment prod/web".
func (o *BlamedObject) ID() string {
	return (&resource.Resource{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}).ID()
}

// Origin is a place of an object, the change that wrote it last and the
// earlier changes it overrode (change.Origin), and the lines of the file's
// output that hold what it wrote.
type Origin struct {
	change.Origin
	// Start and End are the first and last lines (numbered as Line.N) of
	// the value the change wrote: from its key (or its item's dash) to the
	// end of the value for a Set or an Insert, the key's line alone for a
	// Create (what went into the new value has origins of its own). Both
	// are 0 when no line shows it: a Delete or a Retain (what they took
	// away is gone), or a place the output does not have where the change
	// named it (a JSON patch names items by their index when it ran).
	Start, End int
}

// LineOrigin returns the origin of line n of the document (Line.N): of
// the origins whose lines hold it, the innermost (the latest start, then
// the nearest end, then the deepest path); nil when no patch wrote it.
func (d *BlamedDocument) LineOrigin(n int) (*BlamedObject, *Origin) {
	var bo *BlamedObject
	var best *Origin
	for _, o := range d.Objects {
		for i := range o.Origins {
			c := &o.Origins[i]
			if c.Start == 0 || n < c.Start || n > c.End {
				continue
			}
			if best == nil || c.Start > best.Start || c.Start == best.Start && (c.End < best.End ||
				c.End == best.End && len(c.Path) >= len(best.Path)) {
				bo, best = o, c
			}
		}
	}
	return bo, best
}

// NoObjectError is Blame's error for a selector that picks no object.
type NoObjectError struct {
	Selector resource.Selector
	// Hint says what it was probably meant to pick (kpatch.TargetHint): ""
	// or " (...)".
	Hint string
}

// Error says "no object matches deploy.wbe (did you mean deploy.web?)".
func (e *NoObjectError) Error() string { return "no object matches " + e.Selector.String() + e.Hint }

// blameRun collects, as Apply patches each file, what the patches
// changed in the objects that Blame's selectors pick.
type blameRun struct {
	only []*resource.Matcher // nil: every object

	mu      sync.Mutex
	matched []bool   // by selector: it picked an object
	picked  []string // the objects picked, by ID, in no order
}

// blamedObject is an object a patch changed and what the patches did.
type blamedObject struct {
	apiVersion, kind, namespace, name string
	doc, item                         int
	changes                           []change.Change
	secrets                           *secret.Values // kpatch.Run.Secrets
	deleted                           bool           // a patch deleted it: its last change
}

// picks reports whether the run's selectors pick r, and notes it.
func (b *blameRun) picks(r *resource.Resource) bool {
	if b.only == nil {
		return true
	}
	picked := false
	for i, m := range b.only {
		if m.Matches(r) {
			if !picked {
				b.mu.Lock()
				b.picked = append(b.picked, r.ID())
				b.mu.Unlock()
			}
			picked = true
			b.mu.Lock()
			b.matched[i] = true
			b.mu.Unlock()
		}
	}
	return picked
}

// Blame applies patches as Apply does and says which patch wrote each
// line of the documents they changed: for every place of an object the
// changes of the patches wrote (their change records, package change), the
// change that wrote it last and the earlier ones it overrode
// (change.Origins), and the lines of the output that hold it. only, when
// not empty, selects the objects to blame (targets, as a patch names
// them: one that picks no object is a *NoObjectError); the others are
// patched all the same, since a patch's effect on
// an object depends on nothing else, but not reported, and the result's
// Conflicts are those of the objects selected. Errors and the rest of the
// result are Apply's.
// A patch that sets a place to the value the manifest has there, with no
// earlier patch writing it, changed nothing and is no origin
// (change.Origins, given the object as read). ctx stops it as it stops
// Apply.
func Blame(ctx context.Context, opts ApplyOptions, only ...resource.Selector) (*BlameResult, error) {
	b := &blameRun{}
	if len(only) > 0 {
		s := opts.Schema
		if s == nil {
			s = schema.Builtin()
		}
		b.matched = make([]bool, len(only))
		for _, sel := range only {
			m, err := sel.Matcher(s)
			if err != nil {
				return nil, err
			}
			b.only = append(b.only, m)
		}
	}
	opts.blame = b
	res, set, err := apply(ctx, opts)
	if err != nil {
		return nil, err
	}
	for i, m := range b.matched {
		if !m {
			return nil, &NoObjectError{Selector: only[i], Hint: kpatch.TargetHint(only[i], set, opts.Schema)}
		}
	}
	out := &BlameResult{ApplyResult: res}
	changed := map[string]bool{}
	for _, f := range res.Files {
		var objs []*blamedObject
		for _, o := range res.blamed[f] {
			if o.deleted {
				d := o.deletion(f.Path)
				out.Deleted = append(out.Deleted, d)
				changed[d.ID()] = true
				continue
			}
			objs = append(objs, o)
		}
		if len(objs) == 0 {
			continue
		}
		docs, err := blameFile(f, objs, opts)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			for _, o := range d.Objects {
				changed[o.ID()] = true
			}
		}
		out.Documents = append(out.Documents, docs...)
	}
	sort.Strings(b.picked)
	b.picked = slices.Compact(b.picked)
	for _, id := range b.picked {
		if !changed[id] {
			out.Unchanged = append(out.Unchanged, id)
		}
	}
	for _, d := range out.Documents {
		for _, o := range d.Objects {
			// a secret value a patch moved into the name shows in none
			// of blame's texts
			o.Namespace, o.Name = o.secrets.Text(o.Namespace), o.secrets.Text(o.Name)
		}
	}
	if b.only != nil {
		res.Conflicts = slices.DeleteFunc(res.Conflicts, func(c conflict.Conflict) bool {
			_, found := slices.BinarySearch(b.picked, c.Object)
			return !found
		})
	}
	return out, nil
}

// collect keeps what the patches changed in r, once Patch has returned for
// it, when the run's selectors pick it, and its secret values (nil: none).
func (b *blameRun) collect(changes []change.Change, r *resource.Resource, secrets *secret.Values) *blamedObject {
	if !b.picks(r) || len(changes) == 0 {
		return nil
	}
	return &blamedObject{apiVersion: r.APIVersion, kind: r.Kind, namespace: r.Namespace, name: r.Name,
		doc: r.Doc, item: r.Item, changes: changes, secrets: secrets, deleted: r.Deleted}
}

// deletion is what Blame says of an object a patch deleted.
func (o *blamedObject) deletion(file string) *DeletedObject {
	d := &DeletedObject{File: file, Index: o.doc, Item: o.item, APIVersion: o.apiVersion, Kind: o.kind, Namespace: o.namespace, Name: o.name}
	for i, c := range o.changes {
		if i == len(o.changes)-1 {
			d.Pos = c.Pos
		} else if len(d.Overrode) == 0 || d.Overrode[len(d.Overrode)-1] != c.Pos {
			d.Overrode = append(d.Overrode, c.Pos)
		}
	}
	return d
}

// blameFile reads a file's output again and places the origins of its
// changed objects on its lines.
func blameFile(f *File, objs []*blamedObject, opts ApplyOptions) ([]*BlamedDocument, error) {
	// The documents of the changed objects are parsed, the others only
	// outlined: a long stream with few changes costs what they do.
	st, err := tree.Read(f.Output, tree.Options{File: f.Path, Limits: opts.Limits, Outline: blameOutline})
	if err != nil {
		return nil, fmt.Errorf("%s: reading the output again: %w", f.Path, err)
	}
	var input *tree.Stream // the file as read, for values a patch left as they were
	if in, err := tree.Read(f.Input, tree.Options{File: f.Path, Limits: opts.Limits, Outline: blameOutline}); err == nil && len(in.Docs) == len(st.Docs) {
		input = in
	}
	text := splitLines(f.Output)
	starts := documentStarts(text)
	slices.SortStableFunc(objs, func(a, b *blamedObject) int {
		if a.doc != b.doc {
			return a.doc - b.doc
		}
		return a.item - b.item
	})
	var docs []*BlamedDocument
	secrets := map[int]secretObjects{} // by document
	indexes := map[int]*lineIndex{}    // by document, made once
	loaded := -1                       // the document parsed, one at a time
	// finish gives document i its lines, while it is parsed: the values
	// of its Secrets are masked by their place in it
	finish := func(i int) {
		if len(docs) > 0 && docs[len(docs)-1].Index == i {
			docs[len(docs)-1].Lines = documentLines(text, starts, st.Docs[i], opts.ShowSecrets, secrets[i])
		}
	}
	for _, o := range objs {
		if o.doc >= len(st.Docs) {
			continue
		}
		if o.doc != loaded {
			if loaded >= 0 {
				finish(loaded)
				st.Unload(loaded)
				if input != nil {
					input.Unload(loaded)
				}
				delete(indexes, loaded)
				delete(secrets, loaded)
			}
			if err := st.Load(o.doc); err != nil {
				return nil, fmt.Errorf("%s: reading the output again: %w", f.Path, err)
			}
			if input != nil && input.Load(o.doc) != nil {
				input = nil
			}
			loaded = o.doc
		}
		doc := st.Docs[o.doc]
		bo := &BlamedObject{APIVersion: o.apiVersion, Kind: o.kind, Namespace: o.namespace, Name: o.name, secrets: o.secrets}
		root := objectRoot(doc, o)
		var lines *lineIndex
		if root != nil {
			if indexes[o.doc] == nil {
				indexes[o.doc] = newLineIndex(doc, text)
			}
			lines = indexes[o.doc]
		}
		if o.secrets != nil && root != nil {
			if secrets[o.doc] == nil {
				secrets[o.doc] = secretObjects{}
			}
			secrets[o.doc][root] = o.secrets
		}
		var was *yaml.Node // the object as read
		if input != nil {
			was = objectRoot(input.Docs[o.doc], o)
		}
		for _, c := range change.Origins(o.changes, was) {
			og := Origin{Origin: c}
			if lines != nil && c.Op != change.Delete && c.Op != change.Retain {
				og.Start, og.End = lines.span(root, c.Path, c.Op == change.Create)
			}
			bo.Origins = append(bo.Origins, og)
		}
		if len(bo.Origins) == 0 {
			continue // the patches set what it had: nothing changed
		}
		if len(docs) == 0 || docs[len(docs)-1].Index != o.doc {
			docs = append(docs, &BlamedDocument{File: f.Path, Index: o.doc})
		}
		d := docs[len(docs)-1]
		d.Objects = append(d.Objects, bo)
	}
	if loaded >= 0 {
		finish(loaded)
	}
	return docs, nil
}

// blameOutline outlines the documents blame does not show: nothing of
// them is built.
var blameOutline = &tree.Outline{}

// secretObjects are the objects of a document whose values a run found
// secret (kpatch.Run.Secrets: they are or were v1 Secrets), by their root
// in the output, with those values.
type secretObjects map[*yaml.Node]*secret.Values

// objectRoot returns the object o in its document of the output: the
// document's root, or an item of its List; nil when the output does not
// hold the object there (a patch renamed it, say).
func objectRoot(doc *yaml.Node, o *blamedObject) *yaml.Node {
	root := tree.Root(doc)
	if o.item >= 0 {
		items := tree.MapGet(root, "items")
		if items == nil || items.Kind != yaml.SequenceNode || o.item >= len(items.Content) {
			return nil
		}
		root = items.Content[o.item]
	}
	str := func(key string) string {
		if v := tree.MapGet(root, key); v != nil {
			return v.Value
		}
		return ""
	}
	if root == nil || root.Kind != yaml.MappingNode || str("apiVersion") != o.apiVersion || str("kind") != o.kind ||
		tree.MapGet(tree.MapGet(root, "metadata"), "name") == nil || tree.MapGet(tree.MapGet(root, "metadata"), "name").Value != o.name {
		return nil
	}
	return root
}

// splitLines returns the lines of a text, without their line breaks: an
// LF, a CRLF, a lone CR, a NEL, an LS or a PS, as kmerge's YAML reader
// counts lines (the lines of the nodes blamed; a file of an old Mac's CRs
// was one line, its every node's line past it, its Secrets' values shown
// in clear, as in one of NELs).
func splitLines(b []byte) []string {
	s := strings.TrimSuffix(lines.NormalizeYAML(string(b)), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// marker reports whether a line is a document marker: --- or ... at the
// start of the line, alone or before a space.
func marker(line string) bool {
	for _, m := range []string{"---", "..."} {
		if rest, ok := strings.CutPrefix(line, m); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return true
		}
	}
	return false
}

// bareMarker reports whether a line is a document marker and nothing else
// (but a comment).
func bareMarker(line string) bool {
	if !marker(line) {
		return false
	}
	rest := strings.TrimSpace(line[3:])
	return rest == "" || strings.HasPrefix(rest, "#")
}

// documentStarts returns the numbers (from 1) of the lines that start a
// part of the text between document markers: 1, and each marker line.
func documentStarts(text []string) []int {
	starts := []int{1}
	for i, l := range text {
		if i > 0 && marker(l) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// documentLines returns the lines of the part of the text that holds doc
// (the one its first node is in), markers left out and secret values
// masked unless show: those of its Secrets and of the objects of secrets
// by their place, and on every line those of secrets by value.
func documentLines(text []string, starts []int, doc *yaml.Node, show bool, secrets secretObjects) []Line {
	first := firstLine(doc)
	from, to := 1, len(text)
	// the last start at or before first (starts ascend): a search, not a
	// scan, since every changed document of a long stream asks
	if i := sort.SearchInts(starts, first+1) - 1; i >= 0 {
		from = starts[i]
		if i+1 < len(starts) {
			to = starts[i+1] - 1
		}
	}
	hidden := map[int]bool{}
	masked := map[int]int{} // line: the column the masked value's key starts at
	if !show {
		secretLines(doc, text, masked, hidden, secrets)
	}
	var out []Line
	for n := from; n <= to && n <= len(text); n++ {
		l := text[n-1]
		if bareMarker(l) || hidden[n] {
			continue
		}
		if col, ok := masked[n]; ok {
			l = secret.Line(l, col)
		}
		if !show {
			for _, vals := range secrets {
				l = vals.Text(l)
			}
		}
		out = append(out, Line{N: n, Text: l})
	}
	return out
}

// firstLine is the line of a document's first node.
func firstLine(doc *yaml.Node) int {
	n := doc
	for n != nil && n.Line == 0 && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n == nil || n.Line == 0 {
		return 1
	}
	if doc.Line > 0 && doc.Line < n.Line {
		return doc.Line
	}
	return n.Line
}

// secretLines finds the lines of the secret values of the Secrets of a
// document (internal/secret's rule: every scalar but null at or below a
// v1 Secret's data and stringData), and of the objects of secrets (they
// were Secrets): the line a value starts on is masked from its key's
// column, the other lines of the value are hidden.
func secretLines(doc *yaml.Node, text []string, masked map[int]int, hidden map[int]bool, secrets secretObjects) {
	root := tree.Root(doc)
	objs := []*yaml.Node{root}
	if items := tree.MapGet(root, "items"); items != nil && items.Kind == yaml.SequenceNode {
		objs = append(objs, items.Content...)
	}
	idx := newLineIndex(doc, text)
	for _, o := range objs {
		if vals := secrets[o]; vals != nil {
			valueLines(o, vals, idx, masked, hidden)
		}
		if !secret.Object(o) && secrets[o] == nil {
			continue
		}
		for _, field := range []string{"data", "stringData"} {
			v := tree.MapGet(o, field)
			if v == nil || v.Kind != yaml.MappingNode {
				continue
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, val := v.Content[i], v.Content[i+1]
				if tree.KindOf(val) == tree.Null {
					continue
				}
				if _, ok := masked[k.Line]; !ok {
					masked[k.Line] = k.Column
				}
				for n := k.Line + 1; n <= idx.end(k.Line, val); n++ {
					hidden[n] = true
				}
			}
		}
	}
}

// valueLines finds the lines of the scalars of an object that show one of
// its secret values outside data and stringData (a value a patch copied or
// moved out of them: secret.Values.Masks), as secretLines finds those of
// data and stringData.
func valueLines(o *yaml.Node, vals *secret.Values, idx *lineIndex, masked map[int]int, hidden map[int]bool) {
	mark := func(at, v *yaml.Node) {
		if col, ok := masked[at.Line]; !ok || at.Column < col {
			masked[at.Line] = at.Column
		}
		for n := at.Line + 1; n <= idx.end(at.Line, v); n++ {
			hidden[n] = true
		}
	}
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || depth > 1000 {
			return
		}
		for i := 0; i < len(n.Content); i++ {
			c := n.Content[i]
			at := c
			if n.Kind == yaml.MappingNode {
				if i+1 >= len(n.Content) {
					break
				}
				i++
				if depth == 0 && (c.Value == "data" || c.Value == "stringData") {
					continue // secretLines masks them whole
				}
				at, c = c, n.Content[i]
			}
			if c.Kind == yaml.ScalarNode {
				if vals.Masks(c) {
					mark(at, c)
				}
				continue
			}
			walk(c, depth+1)
		}
	}
	walk(o, 0)
}

// lineIndex finds the lines of the values of one document.
type lineIndex struct {
	text   []string
	starts []int // the lines some node of the document starts on, sorted
	last   int   // the document's last line
	items  fieldpath.ItemIndex
}

func newLineIndex(doc *yaml.Node, text []string) *lineIndex {
	idx := &lineIndex{text: text}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Line > 0 {
			idx.starts = append(idx.starts, n.Line)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc)
	sort.Ints(idx.starts)
	idx.starts = slices.Compact(idx.starts)
	idx.last = len(text)
	if len(idx.starts) > 0 {
		lastStart := idx.starts[len(idx.starts)-1]
		for n := lastStart + 1; n <= len(text); n++ {
			if marker(text[n-1]) {
				idx.last = n - 1
				break
			}
		}
	}
	return idx
}

// span returns the lines of the value at p in the object root: from the
// line of its key (or its item) to its last line, or that first line
// alone with keyOnly; 0, 0 when root has no value at p.
func (idx *lineIndex) span(root *yaml.Node, p fieldpath.Path, keyOnly bool) (start, end int) {
	n := tree.Deref(root)
	start = n.Line
	for _, e := range p {
		if e.Kind == fieldpath.FieldElement {
			if n.Kind != yaml.MappingNode {
				return 0, 0
			}
			i := tree.MapIndex(n, e.Name)
			if i < 0 {
				return 0, 0
			}
			start, n = n.Content[i].Line, tree.Deref(n.Content[i+1])
			continue
		}
		i := idx.items.FindItem(n, e)
		if i < 0 {
			return 0, 0
		}
		n = tree.Deref(n.Content[i])
		start = n.Line
	}
	if keyOnly {
		return start, start
	}
	return start, idx.end(start, n)
}

// end returns the last line of the value v, which starts on line start:
// the line before the next line a node starts on after the last of v's
// nodes (a block scalar's lines, a flow collection's closing bracket),
// not counting blank lines, comments and markers before it.
func (idx *lineIndex) end(start int, v *yaml.Node) int {
	last := start
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		last = max(last, n.Line)
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(v)
	next := idx.last + 1
	if i, _ := slices.BinarySearch(idx.starts, last+1); i < len(idx.starts) {
		next = min(next, idx.starts[i]) // the first line after v's nodes that a node starts on
	}
	end := next - 1
	for end > last {
		l := strings.TrimSpace(idx.text[end-1])
		if l != "" && !strings.HasPrefix(l, "#") && !marker(idx.text[end-1]) {
			break
		}
		end--
	}
	return end
}

// blamedOf gives each output file the objects Blame collected for it.
func blamedOf(files []fileResult) map[*File][]*blamedObject {
	out := map[*File][]*blamedObject{}
	for _, f := range files {
		if f.file != nil && len(f.blamed) > 0 {
			out[f.file] = f.blamed
		}
	}
	return out
}
