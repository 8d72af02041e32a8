package conformance

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/kmerge/kmerge/schema"
)

// Gen makes random documents and strategic merge patches for a type. The
// values come from small domains (names a..d, small integers) so that merge
// keys collide, lists hold duplicates and patches hit existing items; a
// share of the patches is malformed on purpose (wrong types, missing merge
// keys, bad directives) so that the rejection paths are compared too.
type Gen struct {
	r *rand.Rand
	// MaxDepth bounds nesting of generated documents.
	MaxDepth int
	// Unique makes documents in which a patch can express everything: the
	// items of merged lists have distinct keys, and lists of scalars
	// distinct values of one type (round-trip tests need it).
	Unique bool
	// Formats makes most scalars of formatted types valid values of their
	// format (RFC 3339 times, base64, quantities) and some integers
	// overflow int32, so that validation tests see valid objects and
	// range errors too. Without it the values are those the differential
	// tests were written with.
	Formats bool
	fresh   int
}

// freshName returns a name no other call returned.
func (g *Gen) freshName() string {
	g.fresh++
	return "u" + strconv.Itoa(g.fresh)
}

// NewGen returns a generator seeded with seed: the same seed gives the same cases.
func NewGen(seed uint64) *Gen {
	return &Gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), MaxDepth: 7}
}

func (g *Gen) chance(p float64) bool { return g.r.Float64() < p }
func (g *Gen) intn(n int) int        { return g.r.IntN(n) }

// interesting fields are preferred when a big object type is sampled, so
// that documents reach the lists that matter (containers, env, ports, ...).
var interesting = map[string]bool{
	"spec": true, "template": true, "containers": true, "initContainers": true, "env": true,
	"ports": true, "volumeMounts": true, "volumes": true, "metadata": true, "labels": true,
	"annotations": true, "finalizers": true, "tolerations": true, "imagePullSecrets": true,
	"strategy": true, "rollingUpdate": true, "selector": true, "matchLabels": true, "args": true,
	"command": true, "resources": true, "limits": true, "requests": true, "name": true,
	"image": true, "value": true, "replicas": true, "ownerReferences": true, "hostAliases": true,
	"topologySpreadConstraints": true, "envFrom": true, "emptyDir": true, "configMap": true,
	"secret": true, "type": true, "protocol": true, "containerPort": true, "port": true,
	"targetPort": true, "mountPath": true, "key": true, "operator": true, "effect": true,
	"hostnames": true, "ip": true, "maxSurge": true, "maxUnavailable": true, "sizeLimit": true,
}

// fieldsOf picks the fields of an object type to fill or patch.
func (g *Gen) fieldsOf(t *schema.Type, max int) []*schema.Field {
	all := t.Fields()
	if len(all) <= max {
		out := slices.Clone(all)
		g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out[:g.intn(len(out)+1)]
	}
	var pref, rest []*schema.Field
	for _, f := range all {
		if interesting[f.Name] {
			pref = append(pref, f)
		} else {
			rest = append(rest, f)
		}
	}
	g.r.Shuffle(len(pref), func(i, j int) { pref[i], pref[j] = pref[j], pref[i] })
	g.r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	n := 1 + g.intn(max)
	var out []*schema.Field
	for _, f := range pref {
		if len(out) < n && g.chance(0.7) {
			out = append(out, f)
		}
	}
	for _, f := range rest {
		if len(out) < n && g.chance(0.1) {
			out = append(out, f)
		}
	}
	return out
}

var names = []string{"a", "b", "c", "d"}

// scalar makes a value of a scalar kind; sometimes of another kind.
func (g *Gen) scalar(k schema.Kind) any {
	if g.chance(0.03) {
		return g.anyScalar()
	}
	switch k {
	case schema.Integer:
		if g.Unique {
			g.fresh++
			return int64(1000 + g.fresh)
		}
		return int64(1 + g.intn(4))
	case schema.Number:
		if g.chance(0.5) {
			return float64(g.intn(3)) + 0.5
		}
		return int64(g.intn(3))
	case schema.Boolean:
		return g.chance(0.5)
	case schema.IntOrString:
		if g.chance(0.5) {
			return int64(80 + g.intn(3))
		}
		return names[g.intn(len(names))]
	}
	return names[g.intn(len(names))]
}

func (g *Gen) anyScalar() any {
	switch g.intn(5) {
	case 0:
		return int64(g.intn(4))
	case 1:
		return float64(g.intn(3)) + 0.25
	case 2:
		return g.chance(0.5)
	case 3:
		return "x" + names[g.intn(len(names))]
	}
	return names[g.intn(len(names))]
}

// anyValue makes a free-form value (for fields with no type).
func (g *Gen) anyValue(depth int) any {
	if depth >= g.MaxDepth || g.chance(0.5) {
		return g.anyScalar()
	}
	if g.chance(0.5) {
		m := map[string]any{}
		for i := g.intn(3); i > 0; i-- {
			m[names[g.intn(len(names))]] = g.anyValue(depth + 1)
		}
		return m
	}
	var l []any
	for i := g.intn(3); i > 0; i-- {
		l = append(l, g.anyScalar())
	}
	return l
}

// Value makes a document value of type t.
func (g *Gen) Value(t *schema.Type, depth int) any {
	if t == nil {
		return g.anyValue(depth)
	}
	if depth >= g.MaxDepth {
		if t.Kind.Scalar() {
			return g.scalarOf(t)
		}
		return nil
	}
	switch t.Kind {
	case schema.Object:
		m := map[string]any{}
		for _, f := range g.fieldsOf(t, 4) {
			if v := g.fieldValue(f, depth+1); v != nil {
				m[f.Name] = v
			}
		}
		return m
	case schema.Map:
		m := map[string]any{}
		for i := g.intn(4); i > 0; i-- {
			m["k"+names[g.intn(len(names))]] = g.Value(t.Elem, depth+1)
		}
		return m
	case schema.List:
		return g.plainList(t.Elem, depth)
	case schema.Any:
		return g.anyValue(depth)
	}
	return g.scalarOf(t)
}

// scalarOf makes a value of a scalar type: as scalar does, or with
// Formats a value of the type's format most of the time.
func (g *Gen) scalarOf(t *schema.Type) any {
	if !g.Formats || g.chance(0.1) {
		return g.scalar(t.Kind)
	}
	switch t.Format {
	case "date-time":
		return []string{"2024-01-02T03:04:05Z", "2024-01-02T03:04:05.5+01:00", "2024-01-02"}[g.intn(3)]
	case "date-time-micro":
		return []string{"2024-01-02T03:04:05.000000Z", "2024-01-02T03:04:05Z"}[g.intn(2)]
	case "byte":
		return []string{"YQ==", "aGVsbG8=", "", "a"}[g.intn(4)]
	case "quantity":
		return []any{"1", "500m", "1.5Gi", "2e3", int64(2), 0.5, "lots", "Ki"}[g.intn(8)]
	case "int32":
		if g.chance(0.05) {
			return int64(1) << 31
		}
	}
	return g.scalar(t.Kind)
}

func (g *Gen) plainList(elem *schema.Type, depth int) []any {
	l := []any{}
	for i := g.intn(4); i > 0; i-- {
		v := g.Value(elem, depth+1)
		if g.Unique {
			if _, scalar := v.(string); scalar {
				v = g.freshName()
			}
			if isScalar(v) && slices.ContainsFunc(l, func(x any) bool { return isScalar(x) && x == v }) {
				continue
			}
			// items of one Go type: a merged list of mixed types is
			// refused by upstream's apply and kmerge's alike ("list
			// element types are not identical"), so no patch makes one
			if len(l) > 0 && reflect.TypeOf(l[0]) != reflect.TypeOf(v) {
				continue
			}
		}
		l = append(l, v)
	}
	return l
}

// fieldValue makes the value of a field, honouring its merge key.
func (g *Gen) fieldValue(f *schema.Field, depth int) any {
	t := f.Type
	if t != nil && t.Kind == schema.List && len(f.Meta.MergeKey) > 0 && t.Elem != nil && t.Elem.Kind == schema.Object {
		return g.keyedList(t.Elem, f.Meta.MergeKey, depth)
	}
	if t != nil && t.Kind == schema.Object && len(f.Meta.MergeKey) > 0 && f.Meta.Strategy == schema.StrategyMerge {
		// a struct used as a list of itself (upstream's mergeItemPtr)
		if g.chance(0.8) {
			return g.keyedList(t, f.Meta.MergeKey, depth)
		}
	}
	if t != nil && t.Kind == schema.List && !g.Unique && g.chance(0.15) {
		// duplicates in lists of scalars
		l := g.plainList(t.Elem, depth)
		if len(l) > 0 {
			l = append(l, l[0])
		}
		return l
	}
	return g.Value(t, depth)
}

// keyValue makes a value for a merge key field.
func (g *Gen) keyValue(elem *schema.Type, key string) any {
	f := elem.Field(key)
	if f != nil && f.Type != nil && (f.Type.Kind == schema.Integer || f.Type.Kind == schema.IntOrString) {
		if g.chance(0.9) {
			return int64(80 + g.intn(4))
		}
	}
	if g.chance(0.02) {
		return g.anyScalar()
	}
	return names[g.intn(len(names))]
}

func (g *Gen) keyedList(elem *schema.Type, key []string, depth int) []any {
	l := []any{}
	for i := g.intn(5); i > 0; i-- {
		item, _ := g.Value(elem, depth+1).(map[string]any)
		if item == nil {
			item = map[string]any{}
		}
		for _, k := range key {
			item[k] = g.keyValue(elem, k)
			if g.Unique {
				item[k] = g.freshName()
			}
		}
		if !g.Unique && g.chance(0.03) {
			delete(item, key[0]) // an item without its merge key
		}
		l = append(l, item)
	}
	return l
}

// Patch makes a strategic merge patch for the document orig of type t.
func (g *Gen) Patch(orig map[string]any, t *schema.Type) map[string]any {
	p := g.patchObject(orig, t, 0, true)
	if g.chance(0.01) {
		p["$patch"] = []string{"replace", "delete", "merge"}[g.intn(3)]
	}
	return p
}

func (g *Gen) patchObject(orig map[string]any, t *schema.Type, depth int, retain bool) map[string]any {
	p := map[string]any{}
	// fields of the document, and fields it lacks
	var candidates []string
	for k := range orig {
		candidates = append(candidates, k)
	}
	slices.Sort(candidates)
	if t != nil && t.Kind == schema.Object {
		for _, f := range g.fieldsOf(t, 3) {
			if !slices.Contains(candidates, f.Name) {
				candidates = append(candidates, f.Name)
			}
		}
	}
	if g.chance(0.03) {
		candidates = append(candidates, "unknown"+names[g.intn(len(names))])
	}
	g.r.Shuffle(len(candidates), func(i, j int) { candidates[i], candidates[j] = candidates[j], candidates[i] })
	n := 1 + g.intn(3)
	for _, k := range candidates {
		if len(p) >= n {
			break
		}
		var f *schema.Field
		if t != nil {
			f = t.Field(k)
		}
		g.patchField(p, k, orig[k], f, depth)
	}
	// $retainKeys: on objects of retainKeys fields mostly, anywhere rarely
	if retain && g.chance(0.02) || !retain && g.chance(0.3) {
		var keys []any
		for k := range p {
			if !strings.HasPrefix(k, "$") && (g.chance(0.95)) {
				keys = append(keys, k)
			}
		}
		for k := range orig {
			if g.chance(0.3) && !slices.Contains(keys, any(k)) {
				keys = append(keys, k)
			}
		}
		slices.SortFunc(keys, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
		if g.chance(0.03) {
			p["$retainKeys"] = "notalist"
		} else {
			p["$retainKeys"] = keys
		}
	}
	return p
}

// patchField adds to the patch p a change of field k whose value in the
// document is ov (nil: absent).
func (g *Gen) patchField(p map[string]any, k string, ov any, f *schema.Field, depth int) {
	var t *schema.Type
	var meta schema.Meta
	if f != nil {
		t, meta = f.Type, f.Meta
	}
	switch {
	case g.chance(0.12):
		p[k] = nil
		return
	case g.chance(0.05):
		p[k] = g.anyValue(depth) // likely a type change
		return
	}
	switch v := ov.(type) {
	case map[string]any:
		switch {
		case g.chance(0.05):
			p[k] = map[string]any{"$patch": "delete"}
		case g.chance(0.05):
			sub := g.patchObject(v, t, depth+1, meta.RetainKeys)
			sub["$patch"] = "replace"
			p[k] = sub
		default:
			var sub *schema.Type
			if t != nil && t.Kind == schema.Object {
				sub = t
			}
			if t != nil && t.Kind == schema.Map {
				sub = nil
			}
			p[k] = g.patchObject(v, sub, depth+1, meta.RetainKeys)
		}
	case []any:
		g.patchList(p, k, v, t, meta, depth)
	default:
		if f != nil {
			v := g.fieldValue(f, depth+1)
			if m, ok := v.(map[string]any); ok && g.chance(0.5) {
				// new objects sometimes carry nulls and directives
				m["nullfield"] = nil
				if g.chance(0.3) {
					m["$retainKeys"] = []any{"x"}
				}
			}
			p[k] = v
		} else {
			p[k] = g.anyValue(depth)
		}
	}
}

func elemOf(t *schema.Type) *schema.Type {
	if t == nil {
		return nil
	}
	if t.Kind == schema.List {
		return t.Elem
	}
	return t // upstream's mergeItemPtr: a struct used as a list of itself
}

func (g *Gen) patchList(p map[string]any, k string, ov []any, t *schema.Type, meta schema.Meta, depth int) {
	elem := elemOf(t)
	keyed := meta.Strategy == schema.StrategyMerge && len(meta.MergeKey) > 0
	if !keyed || elem == nil || elem.Kind != schema.Object {
		g.patchScalarList(p, k, ov, elem, meta, depth)
		return
	}
	key := meta.MergeKey[0]
	var items []any
	var order []any
	for _, o := range ov {
		om, ok := o.(map[string]any)
		if !ok {
			continue
		}
		kv, has := om[key]
		if !has {
			continue
		}
		switch {
		case g.chance(0.4):
			sub := g.patchObject(om, elem, depth+1, meta.RetainKeys)
			sub[key] = kv
			items = append(items, sub)
			order = append(order, map[string]any{key: kv})
		case g.chance(0.2):
			items = append(items, map[string]any{key: kv, "$patch": "delete"})
		case g.chance(0.5):
			order = append(order, map[string]any{key: kv})
		}
	}
	for i := g.intn(3); i > 0; i-- {
		item, _ := g.Value(elem, depth+1).(map[string]any)
		if item == nil {
			item = map[string]any{}
		}
		kv := g.keyValue(elem, key)
		item[key] = kv
		items = append(items, item)
		order = append(order, map[string]any{key: kv})
	}
	switch {
	case g.chance(0.05):
		items = append(items, map[string]any{key: g.keyValue(elem, key), "$patch": "delete"})
	case g.chance(0.03):
		items = append(items, map[string]any{"$patch": "replace"})
	case g.chance(0.01):
		items = append(items, map[string]any{"$patch": "merge"})
	case g.chance(0.02):
		items = append(items, map[string]any{"other": "no key"})
	}
	g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	if len(items) > 0 || g.chance(0.3) {
		p[k] = items
	}
	if g.chance(0.45) {
		// mostly consistent with the patch's order, sometimes not
		if g.chance(0.2) {
			g.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		} else {
			order = consistentOrder(items, order, key)
		}
		if g.chance(0.03) {
			order = append(order, "notamap")
		}
		p["$setElementOrder/"+k] = order
	}
}

// consistentOrder puts the patch's own items in the patch's order, keeping
// the other entries where they are.
func consistentOrder(items, order []any, key string) []any {
	var patchKeys []any
	for _, it := range items {
		m := it.(map[string]any)
		if m["$patch"] != nil {
			continue
		}
		if kv, ok := m[key]; ok {
			patchKeys = append(patchKeys, kv)
		}
	}
	out := slices.Clone(order)
	j := 0
	for i, o := range out {
		om := o.(map[string]any)
		if j < len(patchKeys) && slices.ContainsFunc(patchKeys, func(v any) bool { return v == om[key] }) {
			out[i] = map[string]any{key: patchKeys[j]}
			j++
		}
	}
	return out
}

func (g *Gen) patchScalarList(p map[string]any, k string, ov []any, elem *schema.Type, meta schema.Meta, depth int) {
	merge := meta.Strategy == schema.StrategyMerge
	var add []any
	for i := g.intn(3); i > 0; i-- {
		if len(ov) > 0 && g.chance(0.4) {
			add = append(add, ov[g.intn(len(ov))])
		} else {
			add = append(add, g.Value(elem, depth+1))
		}
	}
	if len(add) > 0 || g.chance(0.3) {
		if add == nil {
			add = []any{}
		}
		if !merge && g.chance(0.05) {
			add = append(add, map[string]any{"$patch": "replace"})
		}
		p[k] = add
	}
	if merge && g.chance(0.35) {
		var del []any
		for _, o := range ov {
			if g.chance(0.4) {
				del = append(del, o)
			}
		}
		if g.chance(0.2) {
			del = append(del, g.Value(elem, depth+1))
		}
		if del == nil {
			del = []any{}
		}
		p["$deleteFromPrimitiveList/"+k] = del
	}
	if g.chance(0.35) {
		var order []any
		for _, v := range ov {
			if g.chance(0.6) {
				order = append(order, v)
			}
		}
		order = append(order, add...)
		if g.chance(0.25) {
			g.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		if order == nil {
			order = []any{}
		}
		p["$setElementOrder/"+k] = order
	}
	if g.chance(0.01) {
		p["$deleteFromPrimitiveList"+k] = []any{} // malformed directive key
	}
	if g.chance(0.01) {
		p["$setElementOrderX/"+k] = []any{}
	}
}

// Mutate returns a changed deep copy of doc, a value of type t: fields
// changed, added and removed, list items changed, added, removed and
// reordered. It makes the "modified" and "current" documents of diff cases.
func (g *Gen) Mutate(doc any, t *schema.Type, depth int) any {
	switch v := doc.(type) {
	case map[string]any:
		out := map[string]any{}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			var f *schema.Field
			if t != nil && t.Kind == schema.Object {
				f = t.Field(k)
			}
			switch {
			case g.chance(0.1):
				continue // removed
			case g.chance(0.3):
				var ft *schema.Type
				if f != nil {
					ft = f.Type
				} else if t != nil && t.Kind == schema.Map {
					ft = t.Elem
				}
				out[k] = g.Mutate(v[k], ft, depth+1)
			default:
				out[k] = deepCopy(v[k])
			}
		}
		if t != nil && t.Kind == schema.Object && g.chance(0.2) {
			for _, f := range g.fieldsOf(t, 2) {
				if _, has := out[f.Name]; !has {
					if nv := g.fieldValue(f, depth+1); nv != nil {
						out[f.Name] = nv
					}
				}
			}
		}
		return out
	case []any:
		var elem *schema.Type
		if t != nil {
			elem = elemOf(t)
		}
		out := make([]any, 0, len(v)+2)
		for _, e := range v {
			switch {
			case g.chance(0.15):
			case g.chance(0.3):
				out = append(out, g.Mutate(e, elem, depth+1))
			default:
				out = append(out, deepCopy(e))
			}
		}
		if g.chance(0.3) && len(v) > 0 {
			// a new item like the others (same merge key field, new value)
			if m, ok := v[0].(map[string]any); ok {
				n := deepCopy(m).(map[string]any)
				for k, x := range n {
					if _, isStr := x.(string); isStr {
						n[k] = names[g.intn(len(names))]
						if g.Unique {
							n[k] = g.freshName()
						}
					}
				}
				out = append(out, n)
			} else if g.Unique {
				if _, isStr := v[0].(string); isStr {
					out = append(out, g.freshName())
				}
			} else {
				out = append(out, g.scalarLike(v[0]))
			}
		}
		if g.chance(0.2) {
			g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		}
		return out
	case nil:
		return nil
	}
	if g.chance(0.5) {
		if _, isStr := doc.(string); isStr && g.Unique {
			return g.freshName()
		}
		return g.scalarLike(doc)
	}
	if _, isInt := doc.(int64); isInt && g.Unique {
		return doc
	}
	return doc
}

func (g *Gen) scalarLike(v any) any {
	switch v.(type) {
	case int64:
		if g.Unique {
			g.fresh++
			return int64(1000 + g.fresh)
		}
		return int64(g.intn(5))
	case float64:
		return float64(g.intn(3)) + 0.5
	case bool:
		return g.chance(0.5)
	case string:
		return names[g.intn(len(names))]
	}
	return g.anyScalar()
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}
