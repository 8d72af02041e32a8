// Package kpatch applies patch files to sets of Kubernetes objects:
// .kpatch files (docs/kpatch.md), YAML patch lists of field, strategic,
// merge and JSON patches, and kustomize overlays as they are. Their text
// is package syntax's (kpatch/syntax: parsing, paths, targets,
// formatting); this package reads patch files by name and folder (Load,
// Parse, Files: a kustomization among them names files of its own, read
// relative to its folder, kustomization.go), defines variables (Vars),
// and applies the patches.
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
// *syntax.Error, with the position in the patch file (an engine's error
// wrapped: its Err).
package kpatch
