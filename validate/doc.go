// Package validate checks objects against their schema as a Kubernetes
// API server decodes them: the checks of its JSON decoding (a value of the
// wrong JSON kind, a string a type's own decoder refuses, an integer out
// of range) and of its strict field validation (fields the schema does not
// have), plus the identity every object needs (apiVersion, kind and
// metadata.name or metadata.generateName).
//
// Strategic merge patches follow upstream exactly, and upstream writes
// whatever a patch says: an object where an integer belongs, a top-level
// field that should have been indented. Checking the result is a separate
// step after the merge, so that merge semantics stay upstream's.
//
// # What is checked
//
//   - JSON kinds: an object, a list or a scalar where the schema wants
//     another; a string where it wants an integer; ... null is accepted
//     everywhere, as a decoder takes it for "not set".
//   - Integers: an integer field takes an integer. For types built from Go
//     (the built-in kinds) a number with a fraction or an exponent (1.5,
//     1.0, 1e3) is refused, as encoding/json refuses it; OpenAPI and CRD
//     schemas take whole numbers written as floats, as the API server's
//     schema validation does. Formats int32 (and the int32 of an
//     IntOrString) bound the value.
//   - Formats of Go types, parsed as their UnmarshalJSON methods parse
//     them: resource quantities ("1Gi", "500m", or a number), RFC 3339
//     times (metav1.Time), base64 ([]byte, Secret data), durations
//     (metav1.Duration). Schemas from CRDs and OpenAPI documents are not
//     checked for formats: their format rules are the API server's schema
//     validation, which is more lenient and out of scope.
//   - Unknown fields: an object type closes its fields (Go structs always;
//     CRD and OpenAPI objects unless x-kubernetes-preserve-unknown-fields
//     or additionalProperties beside properties). Field names are
//     case-sensitive, as the API server's decoder is.
//   - At the root of a Kubernetes object: apiVersion and kind are strings
//     even where a CRD schema does not name them, metadata is checked
//     against the built-in ObjectMeta (a CRD's own metadata schema only
//     restricts the name), and apiVersion, kind and metadata.name (or
//     metadata.generateName) must be there and not empty. Lists (a kind
//     whose metadata has no name field, or without a schema a kind ending
//     in List, whose metadata is then a ListMeta) need no name.
//
// Parts of an object without a schema (a nil type, an interface{} or
// RawExtension field, a CRD field with x-kubernetes-preserve-unknown-fields
// and no properties) stop the walk: anything goes below them. An object
// whose kind has no schema gets its identity and its metadata checked,
// nothing else.
//
// Not checked: value validation (required fields other than the identity,
// enums, patterns, minimum and maximum, name formats), CEL rules, and the
// uniqueness of list-map keys and set members.
//
// # Where a violation came from
//
// Attribute says which patch wrote each violation, from the changes the
// patches made (a path and a position in a patch each) and the violations
// the object had before: a value a patch wrote is that patch's fault; a
// violation the object had already is the input's. Mode says which
// violations fail a run.
package validate
