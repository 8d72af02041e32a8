// Package smp applies Kubernetes strategic merge patches to YAML node trees.
//
// A strategic merge patch is a partial object: fields it names replace or
// merge into the document's, guided by patch metadata from a schema (a
// list is merged by a merge key, or replaced; an object is merged, or
// replaced as a whole) and by directives written in the patch:
//
//	$patch: replace | delete          on an object or a list item
//	$retainKeys: [field, ...]         clear the fields not listed
//	$setElementOrder/<list>: [...]    order a merged list
//	$deleteFromPrimitiveList/<list>   remove scalars from a list
//	<field>: null                     delete a field
//
// Apply behaves as k8s.io/apimachinery's StrategicMergePatch does for the
// same schema: it accepts and rejects the same patches and gives the same
// result, with the exceptions listed in docs/upstream-differences.md
// (list order with $setElementOrder, which follows the specification unless
// OrderUpstream is asked for; directives upstream leaves in the result;
// upstream's random outcome for a patch that adds to and removes from one
// list). Lists are merged through hash indexes, so a patch costs time linear
// in the size of the lists it touches.
package smp
