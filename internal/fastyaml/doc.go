// Package fastyaml reads YAML streams into the same yaml.Node trees
// go.yaml.in/yaml/v3 builds, several times faster. kmerge's library reads
// all YAML with it; yaml.v3 is the oracle its tests compare it with.
//
// Same trees means everything a yaml.Node holds: kinds, styles, tags
// (resolved as yaml.v3 resolves them: !!str, !!int, !!float, !!bool,
// !!null, !!timestamp, !!merge, and the tags the text gives), anchors and
// aliases (Alias pointing at the anchored node), values, head, line and
// foot comments, line and column, the document nodes of a multi-document
// stream, as yaml.v3's Decoder returns them one Decode at a time.
//
// # How
//
// The reader is this package's own: a recursive descent over the lines of
// the text (read.go), each function reading one kind of node (a block
// mapping at a column, a block sequence, a flow collection, a plain,
// quoted or block scalar) and leaving the reader at the next line with
// content; input.go finds the lines (\n, \r\n or a lone \r ends one, and
// NEL, LS and PS, which yaml.v3 reads as line breaks, as YAML 1.1 does) and
// the characters YAML does not allow, props.go reads tags, anchors and
// aliases. What is valid YAML and what a scalar's value is come from the
// YAML 1.2.2 specification. Plain scalars are resolved by
// internal/resolve, the one place kmerge decides what a plain text means.
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
// token of a node, at the start and the end of a document. In the few
// arrangements where yaml.v3 drops a comment (a second foot comment for one
// node, a comment after "--- scalar") the reader keeps it: its trees hold
// every comment yaml.v3's hold, in the same nodes but for those
// (TestGenerated counts them as "placed").
//
// NEL, LS and PS are read as yaml.v3 reads them, observed (TestLineSeparators):
// the copy of the input the reader reads has them as "\n", and the lines
// they end are remembered; where a value keeps a line break (quoted and
// multi-line plain scalars, literal and folded ones) it keeps NEL as "\n"
// and LS and PS as themselves, and where it folds one into a space it folds
// NEL but not LS or PS, which it keeps. yaml.v3's comment rules see no
// blank line after a comment line one of them ends, up to the next line
// with text; the reader follows that. Its other comment rules around them
// it follows in part only: at the end of a document, after a comment line
// ended by one of them, yaml.v3 gives the comments to the document's foot
// and drops one in some arrangements, where the reader places them as
// after "\n" (TestSeparatorCommentsAtDocumentEnd); on generated streams
// with some line breaks made NEL, LS or PS, 87% of the valid ones have a
// comment placed elsewhere than yaml.v3 places it (never dropped), and
// every value, line, column and refusal matches (TestGenerated).
//
// The input is copied once; scalar values and comments are parts of that
// copy wherever the text is the value; nodes come from slabs sized by the
// number of lines, and the Content slices from slabs of pointers. What a
// tree shares is held as long as any part of it is: a caller that keeps one
// value or one subtree of a parse for long keeps the copy of the input and
// the slabs it came from (kmerge copies the identities it keeps,
// resource.str).
//
// # What it refuses
//
// Parse returns an *Error, with the line and column (from 1, the column
// in characters) and what is wrong there, for text that is not YAML, and
// for the few things yaml.v3 reads otherwise than YAML 1.2 does, so that
// reading them either way would surprise someone: text that is not UTF-8,
// a tag or an anchor followed by a comma or a colon without a space
// ([!!str,] &a:b), '?' or ':' starting a plain value in a flow collection
// (yaml.v3 reads "[? ::]", refuses "[::]"), the
// escape \' in a double-quoted scalar, a flow collection as a block
// mapping's key whose every entry is an explicit key ({? a}: b, which
// yaml.v3 refuses, reads without its value or reads into a tree no rule
// gives by where it is), a directive inside a document, a comment without
// a blank before it, and tabs where yaml.v3 refuses them
// (after a dash, in indentation). NEL, LS and PS, line breaks to YAML 1.1
// and text to 1.2, it reads as yaml.v3 does (kmerge's writer writes LS and
// PS in quoted scalars, as yaml.v3's does). It reads the YAML 1.2 yaml.v3 refuses: %YAML 1.2 and later
// 1.x directives, the escape \/. A panic of this package (a bug) is an
// *Error with a message starting "internal error", which the tests fail
// on. A document nested deeper than the limit given is a *TooDeep error,
// with the documents before it.
//
// On the YAML test suite (testdata/yaml-test-suite, 402 inputs), Parse
// reads 254 of the 308 valid ones, 253 into yaml.v3's trees (and 3UYS,
// whose \/ yaml.v3 refuses); it refuses 51 that yaml.v3 refuses too and 3
// (Y2GN, 652Z, HM87-01) that yaml.v3 reads otherwise than YAML 1.2. Of the
// 94 inputs the suite marks as errors it refuses 83 (yaml.v3: 79) and reads
// 11 as yaml.v3 does (suiteErrorsRead says which and why).
//
// # Skim
//
// Skim reads a stream with the same reader, but builds only the nodes an
// Outline names (package tree's outlines: an object's identity), leaves
// comments out, and counts each document's nodes and depth: a reader of the
// documents no patch targets that fails where Parse fails, with the same
// error, for a fraction of its time and memory. It declines (an
// *Unsupported error) what only a full read decides (tags, anchors and
// aliases, complex keys, a key given twice, a merge key), which the caller
// learns about by parsing.
//
// # Proof
//
// FuzzDifferential (in this package) reads every input with Parse and with
// yaml.v3's Decoder and requires the same trees, every field of every
// node (the comments yaml.v3 drops aside), or both to refuse it, or Parse
// to refuse or read it on purpose (differ_test.go lists which and why),
// and that Skim gives the outlined part of yaml.v3's trees whenever it
// does not decline; its seeds are the repository's YAML files and fuzz
// corpora, yaml.v3's own test inputs, every input of the YAML test suite
// (testdata/yaml-test-suite), odd YAML and generated streams.
// TestRepositoryYAML does the same for every .yaml and .yml file of the
// repository; TestYAMLTestSuite for the test suite, and it requires every
// input the suite marks as an error to be refused but those yaml.v3 reads
// too (suiteErrorsRead); TestDeclineClasses holds one input of each kind
// real manifests have that an earlier version of this package left to
// yaml.v3; TestGaps, TestGenerated and TestSkimOutlines cover comments and
// Skim.
package fastyaml
