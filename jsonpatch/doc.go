// Package jsonpatch applies JSON patches (RFC 6902) to YAML node trees.
//
// A JSON patch is an array of operations, each an object with an "op" and
// a "path", a JSON pointer (RFC 6901) to a location in the document:
//
//	{"op": "add", "path": "/metadata/labels/tier", "value": "web"}    add or set a member, insert an item
//	{"op": "remove", "path": "/spec/template/spec/containers/1"}     remove a member or an item
//	{"op": "replace", "path": "/spec/replicas", "value": 3}          change an existing value
//	{"op": "move", "from": "/spec/a", "path": "/spec/b"}             remove from one place, add at another
//	{"op": "copy", "from": "/spec/a", "path": "/spec/c"}             add a copy
//	{"op": "test", "path": "/spec/replicas", "value": 3}             stop unless the value is this
//
// Pointers follow RFC 6901: "" is the whole document, each "/" starts a
// member name or an array index, "~1" stands for "/" and "~0" for "~".
// Indexes are written 0, 1, 2, ... (no sign, no leading zero); "-" is the
// position after the last item, which only add (and the path of move and
// copy) can use, to append.
//
// Apply edits the document in place, so that what the patch leaves alone
// keeps its look: comments, key order and quoting stay. A scalar replaced
// by a scalar keeps its node and its comments (and its quoting when both
// values are strings); other replaced values pass their comments on to the
// new one; a moved value keeps its comments, and the comments of its key
// when it moves to a new member. New members are appended to their object.
// The patch is never modified: the values it brings are copied.
//
// The patch is atomic: if any operation fails, Apply returns an *Error
// that names the operation, and the document is left exactly as it was.
package jsonpatch
