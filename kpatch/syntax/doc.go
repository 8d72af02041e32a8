// Package syntax is the text of patch files, as package kpatch applies
// them: reading .kpatch files and YAML patch lists into Patches, the path
// and target grammars, positions, and printing (Format, `kmerge fmt`),
// for tools that read and write patches without applying them (the
// language server, the formatter, the playground), as text/template/parse
// is to text/template.
//
// A .kpatch file is sections of assignments under headers that name an
// object and, optionally, a path inside it:
//
//	[deployment.web]                         # kind.name, namespace/kind.name
//	replicas: 3
//	containers[name=web].image: nginx:1.27   # list items by selector
//	metadata.labels.tier: ${values.tier}     # variables
//
//	[deployment.web.containers[-]]           # a new item, filled by the section
//	name: sidecar
//	image: envoy:1.30
//
// Parsing (ParseKpatch, ParseYAML, Parse by a file's name) gives Patches:
// a Target (the syntax's own node of what a patch picks, with where it is
// written: ParseTarget, ParseYAMLTarget, printed by Target.String;
// resource.TargetSelector turns it into the selector that picks objects),
// and either a path with assignments (a field patch) or a patch document.
// Paths are kpatch's own grammar (Path, ParsePath): fields, list item
// selectors (ItemSelector) by condition, index, value and insertion, and
// bare fields a schema may place deeper (replicas for spec.replicas),
// which package kpatch resolves; every path kmerge prints (package
// fieldpath's text) reads as one, with the same meaning. A value's
// variables (${values.NAME}, ${features.NAME}) are parsed here (Variables)
// and substituted by package kpatch. Every error is an *Error at a
// position of the patch file. Text being written, cut at a cursor, reads
// by the same grammar (HeaderCursor, TargetCursor, PathCursor): what an
// editor completes by.
//
// The package is a leaf of the module: it imports no package that
// applies patches or holds objects (resource, schema, the engines: its
// TestImports checks what it imports through other packages too).
//
// The files: parse.go (.kpatch text, headers, assignments), target.go
// (targets, their grammar and their printer), cursor.go (text cut at a
// cursor), path.go (the path grammar and its printer), value.go (values
// and variables), yamlfile.go (YAML patch lists), mistake.go (files that
// are not what their names say), file.go (Parse by name), format.go
// (Format).
package syntax
