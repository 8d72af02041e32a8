package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	evanphx "gopkg.in/evanphx/json-patch.v4"

	"github.com/kmerge/kmerge/internal/upstreamcases"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/tree"
)

// JSONPatchCase is one generated document and JSON patch (RFC 6902).
type JSONPatchCase struct {
	Seed  uint64
	Doc   []byte
	Patch []byte
}

// jpGen makes random documents and JSON patches. Member names and values
// come from small sets, including names that need escaping in a pointer
// ("a/b", "m~n", "~1", "") and names that look like indexes ("0", "01",
// "-"), so that operations hit existing locations; each operation is made
// against the document as the operations before it left it (applied with
// kmerge). A share of the operations is malformed or points nowhere on
// purpose, so that rejections are compared too.
type jpGen struct{ r *rand.Rand }

func (g *jpGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *jpGen) intn(n int) int        { return g.r.IntN(n) }

var (
	jpKeys    = []string{"a", "b", "c", "a/b", "m~n", "~1", "", "0", "01", "-"}
	jpNumbers = []string{"0", "1", "2", "-1", "1.5", "0.5", "2.0", "1e2"}
	jpStrings = []string{"x", "y", "a", "", "1"}
)

// NewJSONPatchCase generates the case for a seed.
func NewJSONPatchCase(seed uint64) JSONPatchCase {
	g := &jpGen{r: rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc908))}
	var doc any
	switch {
	case g.chance(0.03):
		doc = g.scalar() // evanphx takes only objects and arrays
	case g.chance(0.15):
		doc = g.array(0)
	default:
		doc = g.object(0)
	}
	docJSON := jpJSON(doc)
	state := docJSON
	var ops []json.RawMessage
	var copies bool
	for n := 1 + g.intn(5); n > 0; n-- {
		op := g.op(decodeJSON(state), copies)
		if op["op"] == "copy" {
			copies = true
		}
		raw := json.RawMessage(jpJSON(op))
		ops = append(ops, raw)
		if next, ok := kmergeApply(state, jpJSON([]json.RawMessage{raw})); ok {
			state = next
		}
	}
	return JSONPatchCase{Seed: seed, Doc: docJSON, Patch: jpJSON(ops)}
}

func (g *jpGen) scalar() any {
	switch g.intn(6) {
	case 0, 1:
		return json.Number(jpNumbers[g.intn(len(jpNumbers))])
	case 2, 3:
		return jpStrings[g.intn(len(jpStrings))]
	case 4:
		return g.chance(0.5)
	}
	return nil
}

func (g *jpGen) value(depth int) any {
	if depth >= 3 || g.chance(0.5) {
		return g.scalar()
	}
	if g.chance(0.5) {
		return g.object(depth + 1)
	}
	return g.array(depth + 1)
}

func (g *jpGen) object(depth int) map[string]any {
	m := map[string]any{}
	for i := g.intn(4); i > 0; i-- {
		m[jpKeys[g.intn(len(jpKeys))]] = g.value(depth)
	}
	return m
}

func (g *jpGen) array(depth int) []any {
	l := []any{}
	for i := g.intn(4); i > 0; i-- {
		l = append(l, g.value(depth))
	}
	return l
}

// location is a place in a decoded document: its tokens and its value.
type location struct {
	toks []string
	v    any
}

func locations(v any, toks []string, out []location) []location {
	out = append(out, location{slices.Clone(toks), v})
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = locations(x[k], append(toks, k), out)
		}
	case []any:
		for i, e := range x {
			out = locations(e, append(toks, strconv.Itoa(i)), out)
		}
	}
	return out
}

func pointerOf(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// existing picks a location of the document, the root rarely.
func (g *jpGen) existing(locs []location) location {
	if len(locs) > 1 && !g.chance(0.05) {
		return locs[1+g.intn(len(locs)-1)]
	}
	return locs[0]
}

// missing makes the tokens of a location that does not exist (mostly): a
// new member of an object, an index past the end of an array, "-".
func (g *jpGen) missing(locs []location) []string {
	l := g.existing(locs)
	switch x := l.v.(type) {
	case map[string]any:
		return append(l.toks, jpKeys[g.intn(len(jpKeys))])
	case []any:
		if g.chance(0.5) {
			return append(l.toks, "-")
		}
		return append(l.toks, strconv.Itoa(len(x)+g.intn(2)))
	}
	return append(l.toks, "a")
}

// target makes the tokens of a location to add to: a member of an object
// (new or existing), an index of an array up to its length, or "-".
func (g *jpGen) target(locs []location) []string {
	var containers []location
	for _, l := range locs {
		switch l.v.(type) {
		case map[string]any, []any:
			containers = append(containers, l)
		}
	}
	if len(containers) == 0 || g.chance(0.04) {
		return g.existing(locs).toks
	}
	c := containers[g.intn(len(containers))]
	switch x := c.v.(type) {
	case map[string]any:
		return append(c.toks, jpKeys[g.intn(len(jpKeys))])
	case []any:
		if g.chance(0.3) {
			return append(c.toks, "-")
		}
		return append(c.toks, strconv.Itoa(g.intn(len(x)+1)))
	}
	return nil
}

// renumber writes the numbers of v differently (1 as 1.0 or 1e0, 1.5 as
// 1.50 or 15e-1): the same values for RFC 6902.
func (g *jpGen) renumber(v any) any {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		switch {
		case strings.ContainsAny(s, "eE"):
			return json.Number(strings.NewReplacer("e", "E", "E", "e").Replace(s))
		case g.chance(0.5):
			return json.Number(s + "e0")
		case strings.Contains(s, "."):
			return json.Number(s + "0")
		}
		return json.Number(s + ".0")
	case map[string]any:
		m := map[string]any{}
		for k, e := range x {
			m[k] = g.renumber(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = g.renumber(e)
		}
		return l
	}
	return v
}

// op makes one operation for the document doc.
func (g *jpGen) op(doc any, copies bool) map[string]any {
	locs := locations(doc, nil, nil)
	kinds := []string{"add", "add", "add", "remove", "remove", "replace", "replace", "move", "move", "copy", "copy", "test", "test", "test"}
	kind := kinds[g.intn(len(kinds))]
	op := map[string]any{"op": kind}
	var path, from []string
	switch kind {
	case "add":
		path = g.target(locs)
		op["value"] = g.value(1)
	case "remove", "replace", "test":
		if g.chance(0.85) {
			l := g.existing(locs)
			path = l.toks
			if kind == "test" {
				switch {
				case g.chance(0.5):
					op["value"] = l.v
				case g.chance(0.6):
					op["value"] = g.renumber(l.v)
				default:
					op["value"] = g.value(1)
				}
			}
		} else {
			path = g.missing(locs)
			if kind == "test" && g.chance(0.5) {
				op["value"] = nil
			}
		}
		if _, ok := op["value"]; !ok && kind != "remove" {
			op["value"] = g.value(1)
		}
		if kind == "test" && copies && g.chance(0.2) {
			op["value"] = []any{nil, map[string]any{}}[g.intn(2)]
		}
	case "move", "copy":
		if g.chance(0.88) {
			from = g.existing(locs).toks
		} else {
			from = g.missing(locs)
		}
		path = g.target(locs)
		if kind == "move" && g.chance(0.05) {
			path = append(slices.Clone(from), "a") // into its own child
		}
	}
	g.mutate(op, path, from)
	return op
}

// mutate writes the pointers of op, sometimes wrongly or in ways evanphx
// reads differently, and sometimes breaks the operation.
func (g *jpGen) mutate(op map[string]any, path, from []string) {
	ptr := func(toks []string) any {
		p := pointerOf(toks)
		if len(toks) == 0 || !g.chance(0.1) {
			return p
		}
		last := toks[len(toks)-1]
		head := pointerOf(toks[:len(toks)-1])
		switch g.intn(7) {
		case 0:
			return head + "/-" + strconv.Itoa(1+g.intn(3)) // negative index
		case 1:
			return head + "/0" + last // leading zero
		case 2:
			return head + "/+" + last // a sign
		case 3:
			return p[1:] // no leading slash
		case 4:
			return head + "/~2" + last // a bad escape
		case 5:
			return "" // the whole document
		}
		return p + "~"
	}
	op["path"] = ptr(path)
	if op["op"] == "move" || op["op"] == "copy" {
		op["from"] = ptr(from)
	}
	switch {
	case g.chance(0.02):
		delete(op, "value")
	case g.chance(0.01):
		delete(op, "path")
	case g.chance(0.01):
		delete(op, "from")
	case g.chance(0.01):
		op["op"] = []string{"Add", "delete", ""}[g.intn(3)]
	case g.chance(0.01):
		op["path"] = 1
	case g.chance(0.03):
		op["xyz"] = map[string]any{"op": "remove"} // ignored
	case g.chance(0.02):
		op["value"] = g.value(0) // ignored by remove, move, copy
	}
}

// JSONPatchOutcome is what one implementation made of a case.
type JSONPatchOutcome struct {
	JSON     string // the result, canonical (sorted keys, numbers as values)
	Err      string
	Panic    string
	Rejected bool
}

func (o JSONPatchOutcome) String() string {
	switch {
	case o.Panic != "":
		return "panic: " + o.Panic
	case o.Rejected:
		return "rejected: " + o.Err
	}
	return o.JSON
}

// KmergeJSONPatch applies the patch with kmerge: tree.Read, jsonpatch.Apply,
// tree.MarshalJSON.
func KmergeJSONPatch(doc, patch []byte) JSONPatchOutcome {
	return outcome(kmergeRun(doc, patch))
}

// outcome is the outcome of an implementation that returned out and err:
// rejected, or its output in canonical form.
func outcome(out []byte, err error) JSONPatchOutcome {
	if err != nil {
		return JSONPatchOutcome{Err: err.Error(), Rejected: true}
	}
	c, err := upstreamcases.Canonical(out, false)
	if err != nil {
		return JSONPatchOutcome{Err: "canonical: " + err.Error(), Rejected: true}
	}
	return JSONPatchOutcome{JSON: c}
}

func kmergeRun(doc, patch []byte) ([]byte, error) {
	d, err := tree.Read(doc, tree.Options{File: "doc"})
	if err != nil {
		return nil, err
	}
	p, err := tree.Read(patch, tree.Options{File: "patch"})
	if err != nil {
		return nil, err
	}
	if len(d.Docs) != 1 || len(p.Docs) != 1 {
		return nil, fmt.Errorf("%d documents and %d patches", len(d.Docs), len(p.Docs))
	}
	res, err := jsonpatch.Apply(d.Docs[0], p.Docs[0], jsonpatch.Options{})
	if err != nil {
		return nil, err
	}
	return tree.MarshalJSON(res)
}

// kmergeApply applies a patch to a document, both JSON, with kmerge.
func kmergeApply(doc, patch []byte) ([]byte, bool) {
	out, err := kmergeRun(doc, patch)
	return out, err == nil
}

// EvanphxJSONPatch applies the patch as kubectl does:
// jsonpatch.DecodePatch(patch).Apply(doc) of gopkg.in/evanphx/json-patch.v4.
func EvanphxJSONPatch(doc, patch []byte) (o JSONPatchOutcome) {
	defer func() {
		if r := recover(); r != nil {
			o = JSONPatchOutcome{Panic: fmt.Sprint(r), Rejected: true}
		}
	}()
	p, err := evanphx.DecodePatch(patch)
	if err != nil {
		return JSONPatchOutcome{Err: err.Error(), Rejected: true}
	}
	return outcome(p.Apply(doc))
}

func agree(a, b JSONPatchOutcome) bool {
	return a.Rejected == b.Rejected && (a.Rejected || a.JSON == b.JSON)
}

// JSONPatchVerdict classifies how kmerge's outcome relates to evanphx's.
type JSONPatchVerdict struct {
	// Category is "both-accepted", "both-rejected" (":evanphx-panics" when
	// it panicked), "explained:CLASS" for a difference one of the
	// documented classes accounts for, or "UNEXPLAINED".
	Category string
	Detail   string
}

// Unexplained reports a difference no documented class accounts for.
func (v JSONPatchVerdict) Unexplained() bool { return v.Category == "UNEXPLAINED" }

// CompareJSONPatch runs a case through both implementations. When they
// disagree it finds the first operation after which they do (both agree on
// the operations before it, so they start it from the same document) and
// asks ExplainJSONPatch whether that operation is one of the documented
// differences.
func CompareJSONPatch(c JSONPatchCase) JSONPatchVerdict {
	k := KmergeJSONPatch(c.Doc, c.Patch)
	e := EvanphxJSONPatch(c.Doc, c.Patch)
	if agree(k, e) {
		switch {
		case !k.Rejected:
			return JSONPatchVerdict{Category: "both-accepted"}
		case e.Panic != "":
			return JSONPatchVerdict{Category: "both-rejected:evanphx-panics"}
		}
		return JSONPatchVerdict{Category: "both-rejected"}
	}
	detail := fmt.Sprintf("seed %d\n doc:     %s\n patch:   %s\n kmerge:  %s\n evanphx: %s", c.Seed, c.Doc, c.Patch, k, e)
	var ops []json.RawMessage
	if err := json.Unmarshal(c.Patch, &ops); err != nil {
		return JSONPatchVerdict{Category: "UNEXPLAINED", Detail: detail}
	}
	state := c.Doc
	for i := range ops {
		prefix := jpJSON(ops[:i+1])
		kp, ep := KmergeJSONPatch(c.Doc, prefix), EvanphxJSONPatch(c.Doc, prefix)
		if agree(kp, ep) {
			if next, ok := kmergeApply(c.Doc, prefix); ok {
				state = next
			}
			continue
		}
		class := ExplainJSONPatch(decodeJSON(state), ops[:i], ops[i])
		detail += fmt.Sprintf("\n operation %d: %s\n kmerge:  %s\n evanphx: %s", i, ops[i], kp, ep)
		if class == "" {
			return JSONPatchVerdict{Category: "UNEXPLAINED", Detail: detail}
		}
		return JSONPatchVerdict{Category: "explained:" + class, Detail: detail}
	}
	return JSONPatchVerdict{Category: "UNEXPLAINED", Detail: detail + "\n (every prefix agrees)"}
}

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

// jsonEqual is RFC 6902's equality on decoded values: numbers by value.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		ra, oka := new(big.Rat).SetString(string(x))
		rb, okb := new(big.Rat).SetString(string(y))
		return oka && okb && ra.Cmp(rb) == 0
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !jsonEqual(e, f) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func jsonString(raw json.RawMessage) string {
	s, _ := jsonStringOK(raw)
	return s
}

func jsonStringOK(raw json.RawMessage) (string, bool) {
	var s string
	if raw == nil || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// decodeJSON decodes JSON with numbers as json.Number.
func decodeJSON(data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return v
}

func jpJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
