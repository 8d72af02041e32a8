// Package kmerge patches Kubernetes manifests: strategic merge patches that
// behave exactly as a Kubernetes API server applies them, JSON merge patches,
// .kpatch files and YAML patch lists applied to whole sets of manifests, with
// output that keeps every byte the patches did not change.
//
// This package is the short way in, one function per job:
//
//   - [Patch] applies one patch to every document of a YAML or JSON stream
//     (what kmerge patch does); [PatchObject] applies one to a single object
//     node, such as a kyaml RNode's YNode();
//   - [Diff] computes the patch between two versions of manifests, two-way or
//     three-way (kmerge diff);
//   - [Apply] applies patch files to files and folders of manifests, and
//     [ApplyPatches] applies parsed patches to a loaded set (kmerge apply),
//     also one read from memory with resource.Parse and kpatch.Parse.
//
// The packages below it do one thing each and can be used directly: tree
// (reading and writing YAML and JSON as go.yaml.in/yaml/v3 nodes), schema
// (patch metadata of every kind), smp (strategic merge patch), mergepatch
// (RFC 7396), resource (sets of objects), kpatch (patch files) and conflict
// (overlapping patches).
//
// Everything works on *yaml.Node from go.yaml.in/yaml/v3, the node type of
// sigs.k8s.io/kustomize/kyaml, so kyaml users pass rn.YNode() and set the
// result back with rn.SetYNode, without kmerge depending on kyaml. Nothing
// here holds global state; a schema, a parsed patch and a kpatch.Vars can be
// shared by concurrent calls.
package kmerge
