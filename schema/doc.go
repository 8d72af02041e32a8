// Package schema holds the patch metadata of Kubernetes kinds: for each
// place in an object, whether it is an object, a map, a list or a scalar,
// how a strategic merge patch combines with it (merge or replace, the
// merge key of a list of objects, $retainKeys), the recommended merge keys
// of the kmerge extensions, and server-side apply's list types.
//
// A Schema maps kinds (Kind: apiVersion and kind) and definitions
// (Definition: a name) to Types. Types are plain, immutable data, safe
// for concurrent use; a nil *Type means "nothing is known", below which
// every lookup succeeds without metadata. Type.PatchField answers what a
// strategic merge patch needs to know about a field, and fails where
// k8s.io/apimachinery's lookup for the same schema fails.
//
// Schemas come from:
//
//   - Builtin: every kind of k8s.io/api, from a generated table
//     (zz_generated_builtin.go, written by hack/schemagen);
//   - Load and LoadFile: OpenAPI v2 and v3 documents and
//     CustomResourceDefinitions (lists keyed by x-kubernetes-list-map-keys
//     merge by those keys, several fields included);
//   - FromGoType: Go struct types and their patchStrategy and
//     patchMergeKey tags, as upstream reads them.
//
// Extend layers schemas: documents given later add kinds and definitions
// to the built-in table, never replace it. Names answers which short names,
// plurals and kinds a selector such as deployment or deploy.apps names.
// docs/schema.md describes each source and how upstream's lookups differ.
package schema
