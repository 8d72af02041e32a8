// Package fastyaml parses the YAML that Kubernetes manifests are written in
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
// The scanner, the parser and the tree builder are yaml.v3's own (its
// scannerc.go, parserc.go and decode.go, themselves a port of libyaml),
// restricted to a subset of YAML and rewritten for speed: the input is
// read in place rather than through a decoding buffer, scalar values and
// comments are substrings of one copy of the input wherever the text is
// the value (a comment of one line, or of lines at column 0 one after the
// other), nodes come from slabs sized by the number of lines, and plain
// scalars resolve their tag without yaml.v3's resolver for the common
// shapes. What a tree shares is held as long as any part of it is: a
// caller that keeps one value or one subtree of a parse for long keeps the
// copy of the input and the slabs it came from (kmerge copies the
// identities it keeps, resource.str). Where yaml.v3 attaches comments (the most intricate
// part of it: comments are queued by the scanner with the marks of the
// tokens they belong to, unfolded into the parser as tokens are peeked, and
// moved between events and nodes), this package runs the same steps in the
// same order on the same marks, so that comments land where yaml.v3 puts
// them without a second set of rules to keep in step. Function comments
// name the yaml.v3 function each one follows.
//
// # What it handles
//
// Block mappings and sequences (indented or not), flow sequences and
// mappings without comments inside, plain, single- and double-quoted
// scalars (one line or folded over several, every escape yaml.v3 knows),
// literal and folded block scalars with their chomping and indentation
// indicators, comments, document markers (--- and ...), multi-document
// streams, and UTF-8 text in scalars and comments.
//
// # What it declines
//
// Parse returns an *Unsupported error, and the caller parses the input with
// yaml.v3 (which also gives the error for input that is not YAML), for:
// directives (%YAML, %TAG), tags (!), anchors and aliases (& and *),
// complex keys (?), implicit mappings inside flow sequences ([a: b]),
// comments inside flow collections, a byte order mark, line breaks other
// than \n (\r, NEL, LS, PS), control characters, keys longer than yaml.v3
// looks ahead for, and any input yaml.v3 would reject. A declined input is
// declined as a whole: Parse never returns some documents of a stream. A
// panic of this package (a bug) also declines the input, with a reason
// starting "internal error", which the tests fail on.
//
// # Skim
//
// Skim reads a stream as Parse does, through the same scanner and parser,
// but builds only the nodes an Outline names (package tree's outlines: an
// object's identity), and counts each document's nodes and depth: a reader
// of the documents no patch targets that fails where Parse fails, for a
// fraction of its time and memory. Besides what Parse declines, it
// declines a key given twice, a merge key and a key that is not a scalar,
// which the caller learns about by parsing.
//
// # Proof
//
// FuzzDifferential (in this package) parses every input with Parse and with
// yaml.v3's Decoder and requires deep equality of the trees, every field of
// every node, whenever Parse does not decline; its corpus holds the
// repository's manifests and fuzz corpora. TestRepositoryYAML does the same
// for every .yaml and .yml file of the repository and counts how many take
// the fast path.
//
// # License
//
// scanner.go, comments.go and parser.go follow yaml.v3's scannerc.go and
// parserc.go, which are ported from libyaml: Copyright (c) 2006-2010 Kirill
// Simonov, Copyright (c) 2011-2019 Canonical Ltd, under the MIT license
// (reproduced in scanner.go). tree.go and resolve.go follow yaml.v3's
// decode.go and resolve.go: Copyright (c) 2011-2019 Canonical Ltd, under
// the Apache License, Version 2.0.
package fastyaml
