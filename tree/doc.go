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
// write_scalar.go and docs/ARCHITECTURE.md). It keeps comments,
// key order, quoting and flow style but not blank lines or unusual
// spacing and indentation. After Stream.Snapshot, Stream.WriteYAML
// keeps the source text instead: documents no edit touched are copied byte
// for byte, and edited ones differ from the input only in the lines the
// edit changed (see Snapshot); an edit of values alone, only in the bytes
// of those values: each is replaced where the reader found it; an entry
// removed from a block collection is cut with its lines, an added one
// inserted as lines at its siblings' column, an entry whose value changed
// otherwise written anew in its lines, a list's items aligned first
// (inplace.go: byte-range edits, tried first for every edited document);
// what they cannot write (a key renamed, a comment of a kept node
// changed) is rendered whole and its changed lines spliced into the
// source (splice.go), read back.
package tree
