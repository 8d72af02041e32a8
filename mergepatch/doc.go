// Package mergepatch applies JSON merge patches (RFC 7396) to YAML node trees.
//
// A merge patch is a partial document shaped like its target: an object in
// the patch is merged into the target key by key, a key whose patch value is
// null is removed, and every other value (a string, a number, a boolean, an
// array) replaces the target's value as a whole. Arrays are never merged,
// and a patch that is not an object replaces the whole document.
//
// Apply edits the document in place, so that what the patch leaves alone
// keeps its look: comments, key order and quoting stay. A key the patch sets
// keeps its position and its key node; a scalar replaced by a scalar keeps
// its comments, and its quoting when both values are strings; new keys are
// appended in patch order, with the comments the patch gives them. The
// patch itself is never modified: the values it brings are copied.
package mergepatch
