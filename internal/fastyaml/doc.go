// Package fastyaml reads the YAML that Kubernetes manifests are written in
// into the same yaml.Node trees go.yaml.in/yaml/v3 builds, several times
// faster, and declines every input it is not sure of.
//
// Same trees means everything a yaml.Node holds: kinds, styles, tags
// (resolved as yaml.v3 resolves them: !!str, !!int, !!float, !!bool,
// !!null, !!timestamp, !!merge), values, head, line and foot comments, line
// and column, the document nodes of a multi-document stream, as yaml.v3's
// Decoder returns them one Decode at a time.
//
// # How
//
// The reader is this package's own: a recursive descent over the lines of
// the text (read.go), each function reading one kind of node (a block
// mapping at a column, a block sequence, a flow collection, a plain,
// quoted or block scalar) and leaving the reader at the next line with
// content. What is valid YAML and what a scalar's value is come from the
// YAML 1.2.2 specification; where yaml.v3 departs from it (it reads YAML
// 1.1's directive, refuses tabs where the specification allows them, reads
// "-" alone in a flow collection as text...) the reader declines rather than
// guess. Plain scalars are resolved by resolve.go: the common shapes here,
// the others by asking yaml.v3 (yaml.Node.ShortTag), whose rules for
// numbers and timestamps have corners of their own.
//
// Comments (comment.go) are where yaml.v3's behaviour is intricate, and
// where this package follows what yaml.v3 does, not how: its rules were
// found by comparing the trees of the two readers on every arrangement of
// up to four comment and blank lines between two tokens, in some eighty
// kinds of places (TestGaps), and on generated streams. The comment lines
// and blank lines between two tokens (a gap) are cut into comments (the
// first blank line ends the comment before it, as does a comment line less
// indented than the collection being read), each given to a node by where
// the gap is: before the next entry of a collection (head comment of that
// entry, foot comment of the one before), after the end of nested
// collections (foot comment of the innermost's last entry), before the first
// token of a node, at the start and the end of a document. Arrangements the
// rules do not cover are declined.
//
// The input is copied once; scalar values and comments are parts of that
// copy wherever the text is the value; nodes come from slabs sized by the
// number of lines, and the Content slices from slabs of pointers. What a
// tree shares is held as long as any part of it is: a caller that keeps one
// value or one subtree of a parse for long keeps the copy of the input and
// the slabs it came from (kmerge copies the identities it keeps,
// resource.str).
//
// # What it handles
//
// Block mappings and sequences (indented or not), flow sequences and
// mappings (over lines too) without comments inside, plain, single- and
// double-quoted scalars (one line or folded over several, every escape
// yaml.v3 knows), literal and folded block scalars with their chomping and
// indentation indicators, comments, document markers (--- and ...),
// multi-document streams, %YAML 1.1 and 1.2 directives (yaml.v3 refuses
// 1.2; the trees do not depend on the version), and UTF-8 text in scalars
// and comments.
//
// # What it declines
//
// Parse returns an *Unsupported error, and the caller parses the input with
// yaml.v3 (which also gives the error for input that is not YAML), for:
// other directives (%TAG), tags (!), anchors and aliases (& and *), complex
// keys (?), implicit mappings inside flow sequences ([a: b]), comments
// inside flow collections, a byte order mark, line breaks other than \n
// (\r, NEL, LS, PS), control characters, tabs in indentation, keys longer
// than yaml.v3 reads, comments arranged otherwise than its rules cover, and
// any input that is not valid YAML: this package reports no errors of its
// own. A declined input is declined as a whole: Parse never returns some
// documents of a stream. A panic of this package (a bug) also declines the
// input, with a reason starting "internal error", which the tests fail on.
//
// # Skim
//
// Skim reads a stream with the same reader, but builds only the nodes an
// Outline names (package tree's outlines: an object's identity), leaves
// comments out, and counts each document's nodes and depth: a reader of the
// documents no patch targets that fails where Parse fails, for a fraction
// of its time and memory. Besides what Parse declines (but for where
// comments go), it declines a key given twice and a merge key, which the
// caller learns about by parsing.
//
// # Proof
//
// FuzzDifferential (in this package) reads every input with Parse and with
// yaml.v3's Decoder and requires deep equality of the trees, every field of
// every node, whenever Parse does not decline, and that Skim gives the
// outlined part of yaml.v3's trees whenever it does not decline; its seeds
// are the repository's YAML files and fuzz corpora, yaml.v3's own test
// inputs, every input of the YAML test suite (testdata/yaml-test-suite),
// odd YAML and generated streams. TestRepositoryYAML does the same for
// every .yaml and .yml file of the repository and counts how many take the
// fast path; TestYAMLTestSuite requires every input the suite marks as an
// error to be declined; TestGaps, TestGenerated and TestSkimOutlines cover
// comments and Skim.
package fastyaml
