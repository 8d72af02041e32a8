// Package fieldpath names places in a Kubernetes object: the path of a
// field, of a list item, of a member of a set. It is kmerge's one path type,
// modelled on sigs.k8s.io/structured-merge-diff's fieldpath.Path: strategic
// merge patch errors, conflict reports, change records, kpatch traces,
// kmerge explain and KRM results all print paths with it.
//
// A Path is a list of elements, each one step down from the object's root:
//
//	a field             spec                          Field("spec")
//	a list item by key  [port=53,protocol=UDP]        Key(KeyField{"port", Int(53)}, ...)
//	a list item by index [3]                          Index(3)
//	a member of a set   [=example.com/finalizer]      Member(String("example.com/finalizer"))
//
// A list item named by key carries the values of the fields that identify
// it, in the order of the merge key that named it (the schema's, or the
// patch's $patchMergeKey); a list of scalars merged by value (a set) names
// its members by their value; any other list item is named by its index,
// which is only meaningful against one version of the list.
//
// # Text
//
// A path has one text form, which String prints and Parse reads:
//
//	spec.template.spec.containers[name=main].env[name=LOG].value
//	metadata.labels."app.kubernetes.io/name"
//	spec.ports[port=53,protocol=UDP].targetPort
//	metadata.finalizers[=kubernetes]
//	spec.args[0]
//
// Fields are joined by dots; list items follow their list in brackets. A
// field name, a key field's name and a string value are written as they are
// when that is unambiguous, and in double quotes with Go's escapes
// (strconv.Quote) otherwise — the one quoting rule (Quote): when the text is
// empty; holds a space, a control or other non-printing character, or one of
// . [ ] " ' = , \ : #; starts with + or -; or would read as something other
// than a string (53, true, null, 1e3: what YAML 1.2's core schema reads as a
// number, a boolean or null). So [name="53"] names the item whose name is
// the string "53", [port=53] the one whose port is the integer 53: values
// keep their JSON kind, as a Kubernetes API server compares them. Numbers,
// booleans and null are written as JSON writes them.
//
// The text of a path that kpatch can express (fields, items by key, items
// by index) is a valid kpatch path naming the same place, so a path from an
// error or a conflict report can be pasted into a .kpatch key.
//
// # JSON pointers
//
// Pointer converts a path to a JSON pointer (RFC 6901) against an object
// (items named by key or value become indexes); schema.PathOfPointer goes
// the other way round (indexes become keys where the schema gives the list
// a merge key), which needs a schema: fieldpath itself stands on package
// tree alone.
// ParsePointer and FormatPointer are kmerge's one implementation of the
// pointer syntax, which jsonpatch uses too.
package fieldpath
