package krm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// The short way for a ResourceList: its items read one by one.
//
// A ResourceList is one document, and reading it whole makes nodes of
// every item: several times the list's bytes, for a list of thousands of
// manifests of which a few are patched. The short way reads the list as
// an outline (tree.Options.Outline): the identity of each item (and its
// labels and annotations, which selectors and results read), the
// functionConfig whole, and where each item's text is. The items a patch
// targets, and the CustomResourceDefinitions (schemas), are read on their
// own, each from its text taken out of the list and dedented (a stream of
// its own, whose nodes have the lines and columns they have in the list:
// tree.Options.Line and Column), patched as kmerge.ApplyPatches patches
// them, and written by their streams; the list written is its text with
// the text of each changed item replaced by its item's, indented back, and
// the results at its end, as the whole list's writing places them. The
// output is the same as reading the list whole gives (TestThoroughSame,
// the fn cases of the command's tests): the short way is taken only where
// the list is laid out so that the items' texts read alone as they do in
// it (block style, indented by two, each item's lines below its dash, no
// comment or blank line at an item's end, no alias) and writes only what
// it has read back
// where it changed; otherwise the list is read whole.

// listOutline is what the short way reads of a ResourceList.
var listOutline = &tree.Outline{Fields: map[string]*tree.Outline{
	"apiVersion": nil, "kind": nil,
	"items": {Items: &tree.Outline{Fields: map[string]*tree.Outline{
		"apiVersion": nil, "kind": nil, "items": nil, // items: of a List item
		"metadata": {Fields: map[string]*tree.Outline{"name": nil, "namespace": nil,
			"labels": {All: true}, "annotations": {All: true}}},
	}}},
	"functionConfig": {All: true},
	"results":        nil,
}}

// itemsList is a ResourceList read as an outline.
type itemsList struct {
	input []byte
	st    *tree.Stream
	root  *yaml.Node   // the list's root mapping (an outline)
	items []*yaml.Node // its items (outlines)
	lines []int        // the offset of each line of input
	ind   int          // the columns before each item's dash
	spans [][2]int     // the lines of each item: from its dash up to the next (0-based, end excluded)
	style tree.Style
}

// readItemsList reads a ResourceList as an outline, or reports that the
// short way does not apply to it.
func readItemsList(input []byte) (*itemsList, bool) {
	if bytes.IndexByte(input, '\r') >= 0 || len(input) == 0 || input[len(input)-1] != '\n' {
		return nil, false
	}
	st, err := tree.Read(input, tree.Options{File: stdinName, Outline: listOutline})
	if err != nil || st.Format != tree.YAML || !st.Outlines() || len(st.Docs) != 1 || st.Expanded() > 0 {
		// a list with aliases: an item's alias can name another item's
		// anchor, and its text then means another value once that item
		// is patched (read whole, every alias is a copy of the value read)
		return nil, false
	}
	l := &itemsList{input: input, st: st, root: tree.Root(st.Docs[0]), style: tree.DetectStyle(input)}
	seq := tree.MapGet(l.root, "items")
	if kindOf(l.root) != "ResourceList" || seq == nil || seq.Kind != yaml.SequenceNode || seq.Style&yaml.FlowStyle != 0 ||
		len(seq.Content) == 0 || l.style.Indent != 2 {
		return nil, false
	}
	l.items = seq.Content
	l.lines = append(l.lines, 0)
	for i, c := range input[:len(input)-1] {
		if c == '\n' {
			l.lines = append(l.lines, i+1)
		}
	}
	// where the items end: the line of the next key of the list
	itemsKey := l.root.Content[tree.MapIndex(l.root, "items")]
	end := len(l.lines)
	for i := 0; i+1 < len(l.root.Content); i += 2 {
		if k := l.root.Content[i]; k.Line > itemsKey.Line && k.Line-1 < end {
			end = k.Line - 1
		}
	}
	l.ind = l.items[0].Column - 3
	if l.ind < 0 {
		return nil, false
	}
	dash := append(bytes.Repeat([]byte{' '}, l.ind), "- "...)
	for k, it := range l.items {
		if it.Kind != yaml.MappingNode || it.Style&yaml.FlowStyle != 0 || it.Column-3 != l.ind {
			return nil, false
		}
		// the item's dash: on its first key's line, or on a line of a
		// comment above it ("- # comment")
		from := it.Line - 1
		for from >= 0 && !bytes.HasPrefix(l.line(from), dash) {
			from--
		}
		if from < 0 || k > 0 && from < l.spans[k-1][0]+1 {
			return nil, false
		}
		if k > 0 {
			l.spans[k-1][1] = from
		}
		l.spans = append(l.spans, [2]int{from, end})
	}
	// every line of an item is below its dash, or blank; its last line is
	// neither blank nor a comment (a comment there is, in the list, the
	// foot comment of the item's last entry, and in the item read alone,
	// the document's: an entry added at the end goes below the one and
	// above the other)
	below := bytes.Repeat([]byte{' '}, l.ind+2)
	for _, sp := range l.spans {
		for i := sp[0] + 1; i < sp[1]; i++ {
			line := l.line(i)
			if len(bytes.TrimRight(line, " \n")) > 0 && !bytes.HasPrefix(line, below) {
				return nil, false
			}
			if t := bytes.TrimSpace(line); i == sp[1]-1 && (len(t) == 0 || t[0] == '#') {
				return nil, false
			}
		}
	}
	return l, true
}

// line returns line i (0-based) of the input, with its line break.
func (l *itemsList) line(i int) []byte {
	end := len(l.input)
	if i+1 < len(l.lines) {
		end = l.lines[i+1]
	}
	return l.input[l.lines[i]:end]
}

// text returns the text of lines from..to (0-based, to excluded; from may
// be the number of lines: nothing).
func (l *itemsList) text(from, to int) []byte {
	if from >= len(l.lines) {
		return nil
	}
	end := len(l.input)
	if to < len(l.lines) {
		end = l.lines[to]
	}
	return l.input[l.lines[from]:end]
}

// itemText returns the text of item k dedented: a document of its own.
func (l *itemsList) itemText(k int) []byte {
	sp := l.spans[k]
	var b []byte
	for i := sp[0]; i < sp[1]; i++ {
		line := l.line(i)
		if len(line) > l.ind+2 {
			b = append(b, line[l.ind+2:]...)
		} else {
			b = append(b, '\n') // a blank line
		}
	}
	return b
}

// indent turns the text of an item written as a document of its own back
// into the text of the list's item; ok is false for a text that does not
// start with a line of content.
func (l *itemsList) indent(text []byte) ([]byte, bool) {
	if len(text) == 0 || text[0] == ' ' || text[0] == '\n' || text[len(text)-1] != '\n' {
		return nil, false
	}
	out := make([]byte, 0, len(text)+(l.ind+2)*bytes.Count(text, []byte{'\n'}))
	for i, line := range bytes.SplitAfter(text[:len(text)-1], []byte{'\n'}) {
		switch {
		case i == 0:
			out = append(out, bytes.Repeat([]byte{' '}, l.ind)...)
			out = append(out, "- "...)
		case len(line) > 1:
			out = append(out, bytes.Repeat([]byte{' '}, l.ind+2)...)
		}
		out = append(out, line...)
	}
	return append(out, '\n'), true
}

// runItems is RunWith's short way (see above); ok is false when it does not
// apply, and the caller reads the list whole.
func runItems(ctx context.Context, input []byte) (out []byte, results []Result, ok bool, err error) {
	l, ok := readItemsList(input)
	if !ok {
		return nil, nil, false, nil
	}
	if err := ctx.Err(); err != nil {
		// where the whole way checks it, as resource.Load does
		return nil, nil, true, fmt.Errorf("stopped before reading %s: %w", stdinName, err)
	}
	listSrc := &resource.Source{Path: stdinName, Rel: "stdin.yaml", Input: input, Stream: l.st, Warnings: l.st.Warnings}
	itemsSeq, lists, err := listItems(l.root, stdinName)
	if err != nil {
		return nil, nil, false, nil // the whole list gives the error
	}
	if lists != nil {
		// the items that are Lists are read on their own, below (set.go)
		m, _ := view(l.root, itemsSeq, lists)
		listSrc.Stream = streamOf(l.st, m)
	}
	objs, err := resource.Objects(listSrc)
	if err != nil {
		return nil, nil, false, nil // the whole list gives the error
	}
	set := &resource.Set{Sources: []*resource.Source{listSrc}}
	// the objects of each item (a List's: its items), and the streams of
	// the items read on their own (nil: not read)
	byItem := make([][]*resource.Resource, len(l.items))
	streams := make([]*tree.Stream, len(l.items))
	read := func(k int) ([]*resource.Resource, bool) {
		text := l.itemText(k)
		src := &resource.Source{Path: stdinName, Rel: listSrc.Rel, Input: text, Line: l.spans[k][0] + 1, Column: l.ind + 2}
		var err error
		if src.Stream, err = tree.Read(text, tree.Options{File: stdinName, Line: src.Line, Column: src.Column, Style: &l.style}); err != nil || len(src.Stream.Docs) != 1 {
			return nil, false
		}
		objs, err := resource.Objects(src)
		if err != nil {
			return nil, false
		}
		src.Stream.Snapshot() // written here, with the list (see RunWith)
		streams[k] = src.Stream
		set.Sources = append(set.Sources, src)
		return objs, true
	}
	for k := range l.items {
		if lists == nil || !lists[k] {
			if len(objs) == 0 {
				return nil, nil, false, nil
			}
			byItem[k], objs = objs[:1], objs[1:]
			continue
		}
		var ok bool
		if byItem[k], ok = read(k); !ok {
			return nil, nil, false, nil
		}
	}
	if len(objs) != 0 {
		return nil, nil, false, nil
	}
	set.Resources = slices.Concat(byItem...)
	err = set.Check()
	var cfg *Config
	if err == nil {
		cfg, err = parseConfig(tree.MapGet(l.root, "functionConfig"), l.st, stdinName)
	}
	if err == nil {
		// the items a patch targets, and the schemas, read on their own
		run := kpatch.NewRun(cfg.Patches, kpatch.Options{Schema: cfg.Schema, Vars: cfg.Vars})
		for k, its := range byItem {
			if streams[k] != nil {
				continue // a List, read already
			}
			r := its[0]
			if !run.Targets(r) && !isCRD(r) {
				continue
			}
			read, ok := read(k)
			if !ok || len(read) != 1 || read[0].ID() != r.ID() {
				return nil, nil, false, nil
			}
			byItem[k] = read
		}
		set.Resources = slices.Concat(byItem...)
		cfg.Schema, results = withCRDs(cfg.Schema, set)
	}
	if err == nil {
		var more []Result
		more, err = run(ctx, set, cfg)
		results = append(results, more...)
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, nil, true, err // cut short: no output, no results
	}
	if err == nil {
		out, ok = l.write(streams, results)
		if !ok {
			return nil, nil, false, nil
		}
		return out, results, true, nil
	}
	// nothing is applied when something fails: the input goes out as it
	// came, with the error as a result (one per schema violation)
	runErr := err
	// (after the warnings about the CustomResourceDefinitions, as the
	// whole way gives them)
	if invalid := validate.Errors(err); invalid != nil {
		results = append(results, invalidResults(set, invalid, "error")...)
	} else {
		results = append(results, Result{Message: withAdvice(err), Severity: "error"})
	}
	if out, ok = l.write(nil, results); !ok {
		return nil, nil, false, nil
	}
	return out, results, true, &Error{Results: errorsOf(results), Err: runErr}
}

// write returns the list with the items whose streams are given written
// by them, and the results at its end (the entry of results the input had
// taken out), or reports that it cannot: an item written by yaml.v3 as a
// whole (tree.Stream.Rewritten: the whole list would be too), results that
// do not read back, an output that does not read as the list.
func (l *itemsList) write(streams []*tree.Stream, results []Result) ([]byte, bool) {
	out := make([]byte, 0, len(l.input)+len(l.input)/64)
	at := 0 // the line of the input copied up to
	for k, st := range streams {
		if st == nil {
			continue
		}
		var b bytes.Buffer
		if err := st.WriteYAML(&b); err != nil || st.Rewritten() {
			return nil, false
		}
		sp := l.spans[k]
		if bytes.Equal(b.Bytes(), l.itemText(k)) {
			continue // unchanged: copied as it is
		}
		text, ok := l.indent(b.Bytes())
		if !ok {
			return nil, false
		}
		out = append(out, l.text(at, sp[0])...)
		out = append(out, text...)
		at = sp[1]
	}
	// the results go last (setResults takes the entry the input had out
	// and adds the new one at the end of the list)
	end := len(l.lines)
	if i := tree.MapIndex(l.root, "results"); i >= 0 {
		key := l.root.Content[i]
		from, to := key.Line-1, len(l.lines)
		for j := 0; j+1 < len(l.root.Content); j += 2 {
			if k := l.root.Content[j]; k.Line > key.Line && k.Line-1 < to {
				to = k.Line - 1
			}
		}
		if from < at || key.Column != 1 {
			return nil, false
		}
		out = append(out, l.text(at, from)...)
		at = to
	}
	out = append(out, l.text(at, end)...)
	if len(results) > 0 {
		doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{tree.NewMap()}}
		setResults(doc.Content[0], results)
		var b bytes.Buffer
		if err := tree.WriteYAML(&b, l.style, doc); err != nil {
			return nil, false
		}
		back, err := tree.Read(b.Bytes(), tree.Options{})
		if err != nil || len(back.Docs) != 1 || !tree.Equal(back.Docs[0], doc) {
			return nil, false
		}
		out = append(out, b.Bytes()...)
	}
	// the output reads as a list of as many items, the same ones
	st, err := tree.Read(out, tree.Options{File: stdinName, Outline: listOutline})
	if err != nil || len(st.Docs) != 1 {
		return nil, false
	}
	items := tree.MapGet(tree.Root(st.Docs[0]), "items")
	if items == nil || len(items.Content) != len(l.items) {
		return nil, false
	}
	return out, true
}

// stdinName names standard input in positions, as resource.Load names it.
const stdinName = "<stdin>"
