// Package tree reads and writes the one tree type every part of kmerge works on:
// go.yaml.in/yaml/v3 nodes, which keep comments, key order, quoting and the
// position of every value.
//
// It reads YAML and JSON streams (one or more documents) into nodes, writes
// nodes back as YAML in the style of the input or as JSON, and gives the
// JSON meaning of a node: whether it is an object, an array, a string, an
// integer, a float, a boolean or null, and when two scalars are equal.
//
// Equality follows what a Kubernetes API server sees after decoding JSON:
// an integer that fits in 64 bits is an int64, every other number a float64,
// and values of different types are never equal (1 is not "1", 1 is not 1.0).
// Numbers keep their exact text; nothing is rounded on the way through.
//
// # Reading
//
// YAML is read by kmerge's own reader (internal/fastyaml), JSON by
// json.go; both give the same nodes. With Options.Outline, a document no
// patch targets is read only as far as its identity (outline.go): its
// text is kept, and Stream.Load reads it whole when it is needed. Every
// document is checked against the limits and normalized (normalize.go)
// as it is read.
//
// # Writing a tree
//
// Writing YAML goes through kmerge's own writer (write*.go); yaml.v3's
// encoder is not called, it is the tests' oracle. The writer writes every
// tree (every node kind and style, anchors, aliases, tags, comments in
// every place yaml.v3's reader puts them) in the indentation width and
// sequence style of the stream: what the YAML 1.2.2 specification allows
// decides whether a text can be plain, quoted or a block and how each is
// escaped, indented and chomped; yaml.v3's encoder decides the choices
// the specification leaves open (which style, where comments go, how deep
// each block goes), so that output is byte for byte what yaml.v3 wrote
// before, except where yaml.v3's text would not read back as the tree:
// there the writer writes text that does (its own rules, listed in
// write_scalar.go and docs/ARCHITECTURE.md). It keeps comments, key
// order, quoting and flow style but not blank lines or unusual spacing
// and indentation.
//
// # Writing an edit: the source's bytes, changed where the edit is
//
// After Stream.Snapshot, Stream.WriteYAML keeps the source text instead.
// The text is cut into one part per document at its markers
// (documentStarts); comment lines right after a bare "---" that YAML
// readers give to the document before stay in the part they are in
// (lent.go: which document's comments a text holds, read with its
// neighbours). Then, document by document:
//
//  1. A document whose tree is its snapshot's is its part, copied.
//  2. An edited document is compared with its snapshot node by node, and
//     its part read again with the byte range of every node
//     (fastyaml.ParseRanges; followed by a "---" line when a document
//     follows, as in the stream), which must read as the snapshot: the same
//     kinds, values, tags and comments on every node (so a Snapshot taken
//     after an edit is caught, not written over). A document loaded from an
//     outline (Load) was read so already: Load keeps that parse, with its
//     ranges, as the snapshot (rangedRead), and its part is not read
//     again; the stream's document is a copy of it. The differences become
//     one list of byte-range edits, applied in the order of the text
//     (inplace.go): a changed scalar's range replaced by the writer's text
//     for the new value in its place; a removed entry or item cut with its
//     lines (and its head comment's, and its value's comment lines; a
//     list item's first key up to the next key, which takes the dash's
//     line); an added one inserted as the
//     writer's lines at its siblings' column, after the entry before it or
//     where the first removed one was; an entry whose value changed
//     otherwise (a block scalar, a kind changed, a flow collection) written
//     anew in its lines, its key's text kept; a kept key's head comment
//     changed in its lines above it (headText); a list's items aligned first
//     by a shortest edit (alignItems), a changed flow collection item
//     cut and written anew in its place; a scalar value's line comment
//     changed in the rest of its line. Every other byte is the source's:
//     blank lines, comments, indentation, spacing, quoting, CRLF.
//     A flow collection on one line without comments inside whose entries
//     changed is its text replaced by the writer's; an item moved in a list
//     (identical to one removed) is its lines cut and copied where it goes;
//     in a document with anchors, aliases or merge keys whose text,
//     expanded as Read expands it, is the snapshot (expandsTo), what holds
//     them is kept where unchanged, no edit is written under an anchor,
//     and an alias (an entry's value or an item) whose copy changed, or a
//     mapping with a merge key whose entries changed, is written anew
//     expanded in its entry's or item's place. An empty document (comment
//     lines, a "---") given a root gets the root's lines after its text,
//     or right after its "---" line when its comment lines are its own
//     foot comment (rootText).
//  3. A text written so is proven when it changed scalars alone (what
//     follows each range ends any scalar, and the new text is one scalar
//     on one line that reads as the new value there; with Options.Whole it
//     is read back too); a text whose lines
//     were cut or inserted, or a line comment changed, is read back and must be the edited document,
//     every comment on its node (but the foot comment of a collection's last entry, entries
//     added after it: the new last entry's, or a node's inside it where the text read again
//     puts it, footsMoved), or the stream is written again without such texts
//     (retry); one with a line comment changed is read again at once too,
//     every comment in its node.
//  4. What the byte-range edits refuse (a foot comment of a kept node
//     changed, an edit under an anchor, a comment that would go to
//     another node, layouts they cannot prove) is the writer's rendering
//     of the document, in its text's frame: its directives and "---"
//     line, the comment lines it lends the document before, its "..."
//     line, its line ends (render.go, editDoc). It keeps every
//     value and comment and loses that document's blank lines and
//     spacing; a source that was the writer's rendering loses nothing.
//  5. When the output as a whole does not read back as the edited
//     documents, the whole stream is written by the writer
//     (Stream.Rewritten reports it).
//
// Documents read as outlines are checked one by one (checkEdited), so
// that a long stream is never read whole to write it.
package tree
