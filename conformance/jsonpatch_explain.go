package conformance

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Explaining the differences: the classes of operations on which
// evanphx/json-patch departs from RFC 6902 (docs/upstream-differences.md).

// The classes of operations on which evanphx/json-patch deliberately or by
// accident departs from RFC 6902; docs/upstream-differences.md describes
// each, and TestJSONPatchUpstreamDifferences shows both behaviours.
const (
	ClassScalarDocument      = "scalar-document"
	ClassMissingValue        = "missing-value"
	ClassPointerWithoutSlash = "pointer-without-slash"
	ClassBadEscape           = "bad-escape"
	ClassWholeDocument       = "whole-document"
	ClassNegativeIndex       = "negative-index"
	ClassLenientIndex        = "lenient-index"
	ClassReplaceMissing      = "replace-missing-member"
	ClassCopyMissing         = "copy-from-missing-member"
	ClassTestMissing         = "test-missing-member-null"
	ClassTestNumbers         = "test-numbers-by-text"
	ClassTestNullInArray     = "test-null-in-array"
	ClassNullFromPatch       = "null-from-patch"
	ClassMoveIntoChild       = "move-into-own-child"
)

// ExplainJSONPatch returns the class of difference the operation op,
// applied to doc (a decoded document) after the operations before, belongs
// to, or "" if it belongs to none.
func ExplainJSONPatch(doc any, before []json.RawMessage, op json.RawMessage) string {
	var o map[string]json.RawMessage
	if json.Unmarshal(op, &o) != nil {
		return ""
	}
	kind := jsonString(o["op"])
	path, hasPath := jsonStringOK(o["path"])
	from, hasFrom := jsonStringOK(o["from"])
	rawValue, hasValue := o["value"]
	var value any
	if hasValue {
		value = decodeJSON(rawValue)
	}
	usesFrom := kind == "move" || kind == "copy"

	switch {
	case !isContainer(doc):
		return ClassScalarDocument
	case (kind == "add" || kind == "replace" || kind == "test") && !hasValue:
		return ClassMissingValue
	}
	for _, p := range []struct {
		ptr string
		ok  bool
	}{{path, hasPath}, {from, hasFrom && usesFrom}} {
		if !p.ok {
			continue
		}
		if p.ptr != "" && p.ptr[0] != '/' {
			return ClassPointerWithoutSlash
		}
		if badEscape(p.ptr) {
			return ClassBadEscape
		}
	}
	if kind == "move" && hasPath && hasFrom && path != "" && isPrefix(decodeTokens(from), decodeTokens(path)) {
		return ClassMoveIntoChild
	}
	switch {
	case hasPath && path == "" && (kind == "add" || usesFrom),
		hasFrom && from == "" && usesFrom,
		kind == "replace" && hasPath && path == "" && !isContainer(value):
		return ClassWholeDocument
	}
	// a move evaluates its path once from is removed
	afterFrom := doc
	if kind == "move" && hasFrom {
		afterFrom = removeAt(doc, decodeTokens(from))
	}
	for _, p := range []struct {
		doc any
		ptr string
		ok  bool
	}{{doc, path, hasPath}, {afterFrom, path, hasPath && kind == "move"}, {doc, from, hasFrom && usesFrom}} {
		if !p.ok {
			continue
		}
		if throughNull(p.doc, p.ptr) && slices.ContainsFunc(before, writesNull) {
			return ClassNullFromPatch
		}
		switch indexQuirk(p.doc, p.ptr) {
		case "negative":
			return ClassNegativeIndex
		case "lenient":
			return ClassLenientIndex
		}
	}
	switch kind {
	case "replace":
		if memberMissing(doc, path) {
			return ClassReplaceMissing
		}
	case "copy":
		if memberMissing(doc, from) {
			return ClassCopyMissing
		}
	case "test":
		if memberMissing(doc, path) && value == nil {
			return ClassTestMissing
		}
		target, ok := lookup(doc, path)
		if !ok {
			return ""
		}
		if hasNullItem(target) || hasNullItem(value) {
			return ClassTestNullInArray
		}
		if jsonEqual(target, value) && string(jpJSON(target)) != string(jpJSON(value)) {
			return ClassTestNumbers
		}
		if (hasNull(target) || hasNull(value)) && slices.ContainsFunc(before, writesNull) {
			return ClassNullFromPatch
		}
	}
	return ""
}

// writesNull reports whether op is a copy, or an add or replace whose
// value is null: evanphx keeps the nulls these write in other nodes than
// the nulls of the document (for a copy: a copy of a null, or anything).
func writesNull(op json.RawMessage) bool {
	var o map[string]json.RawMessage
	if json.Unmarshal(op, &o) != nil {
		return false
	}
	switch jsonString(o["op"]) {
	case "copy":
		return true
	case "add", "replace":
		v, ok := o["value"]
		return ok && decodeJSON(v) == nil
	}
	return false
}

// hasNull reports whether v is or holds null.
func hasNull(v any) bool {
	return v == nil || holdsNull(v, false)
}

// isPrefix reports whether a is a proper prefix of b.
func isPrefix(a, b []string) bool {
	return len(a) < len(b) && slices.Equal(a, b[:len(a)])
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// badEscape reports a "~" not followed by 0 or 1.
func badEscape(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] == '~' && (i+1 == len(p) || (p[i+1] != '0' && p[i+1] != '1')) {
			return true
		}
	}
	return false
}

// decodeTokens splits a pointer that starts with "/" into its tokens.
func decodeTokens(p string) []string {
	if p == "" || p[0] != '/' {
		return nil
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks
}

// indexQuirk walks the pointer p through doc and reports a token used as
// an index of an array that strconv.Atoi (evanphx) accepts and RFC 6901
// does not: "negative" (-1) or "lenient" (01, +1).
func indexQuirk(doc any, p string) string {
	v := doc
	for _, t := range decodeTokens(p) {
		switch x := v.(type) {
		case map[string]any:
			v = x[t]
		case []any:
			n, err := strconv.Atoi(t)
			if err != nil {
				return ""
			}
			if n < 0 {
				return "negative"
			}
			if t != strconv.Itoa(n) {
				return "lenient"
			}
			if n >= len(x) {
				return ""
			}
			v = x[n]
		default:
			return ""
		}
	}
	return ""
}

// throughNull reports whether the pointer p steps into a null of doc.
func throughNull(doc any, p string) bool {
	v := doc
	for _, t := range decodeTokens(p) {
		switch x := v.(type) {
		case nil:
			return true
		case map[string]any:
			v = x[t]
		case []any:
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n >= len(x) {
				return false
			}
			v = x[n]
		default:
			return false
		}
	}
	return false
}

// removeAt returns a copy of doc without the value at toks (doc itself if
// there is none).
func removeAt(doc any, toks []string) any {
	if len(toks) == 0 {
		return doc
	}
	switch x := doc.(type) {
	case map[string]any:
		e, ok := x[toks[0]]
		if !ok {
			return doc
		}
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[k] = v
		}
		if len(toks) == 1 {
			delete(m, toks[0])
		} else {
			m[toks[0]] = removeAt(e, toks[1:])
		}
		return m
	case []any:
		n, err := strconv.Atoi(toks[0])
		if err != nil || n < 0 || n >= len(x) {
			return doc
		}
		if len(toks) == 1 {
			return slices.Delete(slices.Clone(x), n, n+1)
		}
		l := slices.Clone(x)
		l[n] = removeAt(x[n], toks[1:])
		return l
	}
	return doc
}

// memberMissing reports whether p names a member that its object, which
// exists, does not have.
func memberMissing(doc any, p string) bool {
	toks := decodeTokens(p)
	if len(toks) == 0 {
		return false
	}
	parent, ok := lookup(doc, pointerOf(toks[:len(toks)-1]))
	if !ok {
		return false
	}
	m, isObj := parent.(map[string]any)
	if !isObj {
		return false
	}
	_, has := m[toks[len(toks)-1]]
	return !has
}

// lookup returns the value at the pointer p, as RFC 6901 evaluates it.
func lookup(doc any, p string) (any, bool) {
	if p != "" && p[0] != '/' {
		return nil, false
	}
	v := doc
	for _, t := range decodeTokens(p) {
		switch x := v.(type) {
		case map[string]any:
			e, ok := x[t]
			if !ok {
				return nil, false
			}
			v = e
		case []any:
			n, err := strconv.Atoi(t)
			if err != nil || n < 0 || n >= len(x) || t != strconv.Itoa(n) {
				return nil, false
			}
			v = x[n]
		default:
			return nil, false
		}
	}
	return v, true
}

// hasNullItem reports whether v holds null (with items only: an array
// with a null item).
func hasNullItem(v any) bool {
	return holdsNull(v, true)
}

func holdsNull(v any, itemsOnly bool) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if (!itemsOnly && e == nil) || holdsNull(e, itemsOnly) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if e == nil || holdsNull(e, itemsOnly) {
				return true
			}
		}
	}
	return false
}
