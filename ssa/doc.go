// Package ssa computes server-side apply without a cluster: given an
// object as the API server stores it (with its metadata.managedFields)
// and a manifest, the object the API server would store after applying
// the manifest, who owns each field, and the conflicts it would report.
//
// The merge is structured-merge-diff's (sigs.k8s.io/structured-merge-diff,
// the engine API servers run), with kmerge's schema (package schema)
// converted to its: list types and keys, atomic structs and maps, any
// values where a schema preserves unknown fields, int-or-string. Around
// it, Engine follows the field manager's rules as the Kubernetes
// server-side apply documentation describes them (managedFields read and
// written, Apply and Update entries, an applier's fields replaced on each
// apply, client-side apply's annotation); the conformance module checks
// them against k8s.io/apimachinery's field manager. docs/ssa.md says what
// an offline apply cannot know (admission and conversion webhooks, the
// API server's defaults).
package ssa
