// Package kpatch reads patch files and applies them to sets of Kubernetes
// objects: .kpatch files (docs/kpatch.md) and YAML patch lists
// of field, strategic, merge and JSON patches.
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
// Parsing (ParseKpatch, ParseYAML, Load) gives Patches: a target selector
// (resource.Selector), and either a path with assignments (a field patch)
// or a patch document. Load and Parse also read kustomize overlays as they
// are (kustomization.go): a kustomization's patches, in kustomize's order. Paths are kpatch's own syntax (Path): fields, list
// selectors by condition, index, value and insertion, shortcuts for
// fields the schema places deeper (replicas for spec.replicas);
// every path kmerge prints (fieldpath) reads as one.
//
// Apply (or Run, for callers that stream objects) applies the patches to a
// resource.Set: the strategic, merge and JSON patches first, through the
// smp, mergepatch and jsonpatch packages, then the field patches, each
// group in the order given. Its files:
//
//   - run.go: which patches apply to which objects, in what order (on
//     each object as the patches before left it: renamed, relabelled,
//     deleted), and putting together what they reported (warnings,
//     changes, traces);
//   - apply.go: one patch on one object, and the engines;
//   - walk.go: following a path through an object and its schema type;
//   - assign.go: setting, typing and deleting values at the places a path
//     reaches.
//
// Every patch records what it changes (package change), and the records
// of each object more than one patch changed go to Options.Records as
// soon as the object is patched: for conflict detection (package
// conflict's Recorder), which this package knows nothing of.
// Options.Trace writes each change with its old and new value. Errors are
// *Error, with the position in the patch file.
package kpatch
