package conformance

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Generating JSON patch cases: random documents, and operations that
// mostly apply to them (pointers to what exists, indexes in range) with
// malformed ones mixed in.

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
