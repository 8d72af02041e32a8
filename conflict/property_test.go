package conflict_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

var (
	pairs = flag.Int("pairs", 0, "random pairs of patches for TestCommute (0: 12,000, or 1,500 under the race detector)")
	seed  = flag.Uint64("seed", 12, "seed of TestCommute's random pairs")
)

// TestCommute is the property conflict detection promises: for two patches
// applied to an object in one run, as kmerge apply applies them, when the
// run succeeds and reports no conflict, applying them in the other order
// succeeds too and gives the same object.
//
// "The same object" compares what an API server would store: objects as
// maps (key order does not matter), and lists that are merged by a key or
// by value (the schema's merge strategy, or a $patchMergeKey directive) as
// sets of items, as server-side apply compares them: two patches that each
// add an item put them in different orders in the two runs, and neither
// order means anything (upstream's strategic merge patch itself orders the
// items it merges by the patch). A list that a patch orders with
// $setElementOrder is compared in order: there the order is an effect of
// the patch, which the Order change carries. Other lists (replaced as a
// whole) are compared in order.
//
// The documents and patches are random, from small pools of names and
// values so that patches often touch the same places: a Deployment
// (labels, finalizers merged by value, a strategy with $retainKeys,
// containers merged by name with env lists inside, args replaced), a
// Service whose ports patches name by port and protocol with
// $patchMergeKey, and a custom resource whose parts are keyed by two
// fields (x-kubernetes-list-map-keys). Patches are field patches (.kpatch),
// strategic merge patches (with and without $patchMergeKey, with
// $setElementOrder, $retainKeys, $deleteFromPrimitiveList, $patch),
// JSON merge patches and JSON patches.
//
// Field patches' selectors pick items by key: a selector by index, or a
// path through every item of a list, resolves against the object the
// strategic patches leave (field patches always run after them), so its
// order with them is fixed and not compared here; index selectors are only
// compared with other field patches.
func TestCommute(t *testing.T) {
	n := *pairs
	if n == 0 {
		n = 12000
		if raceEnabled {
			n = 1500
		}
	}
	s := commuteSchema(t)
	r := rand.New(rand.NewPCG(*seed, 2026))
	stats := map[string]int{}
	for i := range n {
		g := &gen{r: r}
		kind := g.pick("deployment", "deployment", "deployment", "service", "widget")
		doc := g.document(kind)
		pa, pb := g.patch(kind), g.patch(kind)
		outcome := checkPair(t, s, doc, pa, pb)
		stats[outcome]++
		if t.Failed() {
			t.Fatalf("pair %d (%s):\ndocument:\n%s\npatch A:\n%s\npatch B:\n%s", i, outcome, doc, pa.text, pb.text)
		}
	}
	t.Logf("%d pairs: %v", n, stats)
	if stats["no conflict"] < n/4 || stats["conflict"] < n/10 {
		t.Errorf("the generator should give many pairs with and without conflicts: %v", stats)
	}
}

// a randomPatch is a patch's text (a .kpatch file or a YAML patch list)
// and the lists it orders with $setElementOrder.
type randomPatch struct {
	text    string
	kpatch  bool
	ordered []string // list paths, as "spec.template.spec.containers"
}

// commuteSchema is the built-in schema with the custom resource Gadget,
// whose parts are keyed by name and version (the golden cases' CRD).
func commuteSchema(t *testing.T) *schema.Schema {
	data, err := os.ReadFile("testdata/crd-list-map-keys.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var gf goldenFile
	if err := yaml.Unmarshal(data, &gf); err != nil {
		t.Fatal(err)
	}
	more, err := schema.Load([]byte(gf.Schema), "crd-list-map-keys.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return schema.Builtin().Extend(more)
}

// checkPair applies the patches in one run, as kmerge apply does (a then
// b, but field patches run after the others), and if that succeeds
// without conflicts, in the other order, each patch in a run of its own (so
// that a field patch can come first), and compares. It returns what
// happened.
func checkPair(t *testing.T, s *schema.Schema, doc string, a, b randomPatch) string {
	t.Helper()
	first, second := a, b
	if a.kpatch && !b.kpatch {
		first, second = b, a
	}
	obj, conflicts, err := applyPatches(s, doc, true, first, second)
	if err != nil {
		return "error"
	}
	if len(conflicts) > 0 {
		return "conflict"
	}
	other, _, err := applyPatches(s, doc, false, second, first)
	if err != nil {
		t.Errorf("no conflict reported, but the other order fails: %v\nresult of the run:\n%s", err, show(obj))
		return "no conflict"
	}
	ordered := append(append([]string(nil), a.ordered...), b.ordered...)
	if !tree.Equal(normalize(obj, s, ordered), normalize(other, s, ordered)) {
		t.Errorf("no conflict reported, but the orders give different objects:\nthe run (A then B, field patches last):\n%s\nthe other order:\n%s", show(obj), show(other))
	}
	return "no conflict"
}

func show(n *yaml.Node) string {
	b, _ := yaml.Marshal(n)
	return string(b)
}

// applyPatches applies the patches to the document, in one run (together)
// or each in a run of its own, in order, and returns the object and the
// conflicts between the patches of the one run.
func applyPatches(s *schema.Schema, doc string, together bool, ps ...randomPatch) (*yaml.Node, []conflict.Conflict, error) {
	st, err := tree.Read([]byte(doc), tree.Options{File: "doc.yaml"})
	if err != nil {
		return nil, nil, err
	}
	root := tree.Root(st.Docs[0])
	src := &resource.Source{Path: "doc.yaml", Stream: st}
	r := &resource.Resource{Root: root, Source: src, Item: -1,
		APIVersion: tree.MapGet(root, "apiVersion").Value, Kind: tree.MapGet(root, "kind").Value, Name: "web"}
	set := &resource.Set{Sources: []*resource.Source{src}, Resources: []*resource.Resource{r}}
	rec := &conflict.Recorder{}
	var runs [][]*syntax.Patch
	for i, p := range ps {
		name := fmt.Sprintf("p%d", i)
		var patches []*syntax.Patch
		if p.kpatch {
			patches, err = syntax.ParseKpatch([]byte(p.text), name+".kpatch")
		} else {
			patches, err = syntax.ParseYAML([]byte(p.text), name+".yaml")
		}
		if err != nil {
			return nil, nil, fmt.Errorf("the generator wrote a patch that does not parse: %v\n%s", err, p.text)
		}
		if together && len(runs) > 0 {
			runs[0] = append(runs[0], patches...)
		} else {
			runs = append(runs, patches)
		}
	}
	var recorded []string
	for _, patches := range runs {
		res, err := kpatch.Apply(context.Background(), set, patches, kpatch.Options{Schema: s, Records: rec.Add, Workers: 1})
		if err != nil {
			return nil, nil, err
		}
		recorded = append(recorded, res.Recorded...)
	}
	return r.Root, rec.Conflicts(recorded), nil
}

// normalize returns a copy of the object in which the lists that are sets
// of items (merged by key or by value) are sorted, but those whose path is
// in ordered.
func normalize(n *yaml.Node, s *schema.Schema, ordered []string) *yaml.Node {
	c := tree.Clone(n)
	typ := s.Kind(tree.MapGet(c, "apiVersion").Value, tree.MapGet(c, "kind").Value)
	var walk func(n *yaml.Node, t *schema.Type, path string)
	walk = func(n *yaml.Node, t *schema.Type, path string) {
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			p := strings.TrimPrefix(path+"."+k, ".")
			var f *schema.Field
			if t != nil {
				f = t.Field(k)
			}
			var ft *schema.Type
			if f != nil {
				ft = f.Type
			}
			switch v.Kind {
			case yaml.MappingNode:
				walk(v, ft, p)
			case yaml.SequenceNode:
				var elem *schema.Type
				if ft != nil {
					elem = ft.Elem
				}
				for _, item := range v.Content {
					walk(item, elem, p)
				}
				merged := f != nil && f.Meta.Strategy == schema.StrategyMerge || p == "spec.ports"
				if merged && !slices.Contains(ordered, p) {
					slices.SortStableFunc(v.Content, func(a, b *yaml.Node) int {
						ja, _ := tree.MarshalJSON(a)
						jb, _ := tree.MarshalJSON(b)
						return strings.Compare(string(ja), string(jb))
					})
				}
			}
		}
	}
	walk(c, typ, "")
	return c
}

// gen makes random documents and patches.
type gen struct {
	r *rand.Rand
}

func (g *gen) pick(s ...string) string { return s[g.r.IntN(len(s))] }
func (g *gen) chance(n int) bool       { return g.r.IntN(n) == 0 }

// some returns a random subset of s, in a random order.
func (g *gen) some(s ...string) []string {
	out := slices.Clone(s)
	g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:g.r.IntN(len(out)+1)]
}

func (g *gen) document(kind string) string {
	var b strings.Builder
	switch kind {
	case "deployment":
		b.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n")
		if labels := g.some("a", "b"); len(labels) > 0 {
			b.WriteString("  labels:\n")
			for _, l := range labels {
				fmt.Fprintf(&b, "    %s: %s\n", l, g.pick("x", "y"))
			}
		}
		if fs := g.some("f1", "f2", "f3"); len(fs) > 0 {
			fmt.Fprintf(&b, "  finalizers: [%s]\n", strings.Join(fs, ", "))
		}
		fmt.Fprintf(&b, "spec:\n  replicas: %d\n", 1+g.r.IntN(3))
		if g.chance(2) {
			b.WriteString("  strategy:\n    type: RollingUpdate\n")
			if g.chance(2) {
				fmt.Fprintf(&b, "    rollingUpdate: {maxSurge: %d}\n", 1+g.r.IntN(2))
			}
		}
		b.WriteString("  template:\n    spec:\n      containers:\n")
		names := g.some("a", "b", "c")
		if len(names) == 0 {
			names = []string{"a"}
		}
		for _, n := range names {
			fmt.Fprintf(&b, "      - name: %s\n        image: %s\n", n, g.pick("i1", "i2"))
			if env := g.some("X", "Y"); len(env) > 0 {
				b.WriteString("        env:\n")
				for _, e := range env {
					fmt.Fprintf(&b, "        - {name: %s, value: %q}\n", e, g.pick("1", "2"))
				}
			}
			if g.chance(3) {
				fmt.Fprintf(&b, "        args: [%s]\n", strings.Join(g.some("p", "q"), ", "))
			}
		}
	case "service":
		b.WriteString("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n")
		g.keyedItems(&b, []string{"53/TCP", "53/UDP", "80/TCP"}, "443/TCP", 2, "  - {port: %s, protocol: %s, targetPort: %d}\n", "")
	case "widget":
		b.WriteString("apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: web\nspec:\n  parts:\n")
		g.keyedItems(&b, []string{"a/1", "a/2", "b/1"}, "c/1", 2, "  - {name: %s, version: %s, size: %d}\n", "")
	}
	return b.String()
}

// keyedItems writes list items keyed by two fields: some of the "x/y"
// keys of pool (or, when it picks none, the key empty, so that the list is
// not empty), with item taking x, y and a value from 1 to values, or, one
// time in four when deleted is given, with deleted taking x and y.
func (g *gen) keyedItems(b *strings.Builder, pool []string, empty string, values int, item, deleted string) {
	keys := g.some(pool...)
	if len(keys) == 0 {
		keys = []string{empty}
	}
	for _, k := range keys {
		x, y, _ := strings.Cut(k, "/")
		if deleted != "" && g.chance(4) {
			fmt.Fprintf(b, deleted, x, y)
		} else {
			fmt.Fprintf(b, item, x, y, 1+g.r.IntN(values))
		}
	}
}

func (g *gen) patch(kind string) randomPatch {
	switch g.pick("field", "strategic", "strategic", "merge", "json") {
	case "field":
		return g.fieldPatch(kind)
	case "strategic":
		return g.strategicPatch(kind)
	case "merge":
		return g.listPatch(kind, "merge", g.mergeBody(kind), nil)
	}
	return g.listPatch(kind, "json", g.jsonBody(kind), nil)
}

func (g *gen) listPatch(kind, typ, body string, ordered []string) randomPatch {
	target := map[string]string{"deployment": "deployment.web", "service": "service.web", "widget": "gadget.web"}[kind]
	var b strings.Builder
	fmt.Fprintf(&b, "- target: %s\n  type: %s\n  patch:\n", target, typ)
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return randomPatch{text: b.String(), ordered: ordered}
}

func (g *gen) fieldPatch(kind string) randomPatch {
	var b strings.Builder
	switch kind {
	case "deployment":
		b.WriteString("[deployment.web]\n")
		for range 1 + g.r.IntN(3) {
			switch g.r.IntN(10) {
			case 0:
				fmt.Fprintf(&b, "replicas: %d\n", 1+g.r.IntN(3))
			case 1:
				fmt.Fprintf(&b, "metadata.labels.%s: %s\n", g.pick("a", "b"), g.pick("x", "y"))
			case 2:
				fmt.Fprintf(&b, "metadata.labels.%s: !delete\n", g.pick("a", "b"))
			case 3:
				fmt.Fprintf(&b, "containers[name=%s].image: %s\n", g.pick("a", "b", "d"), g.pick("i1", "i2", "i3"))
			case 4:
				fmt.Fprintf(&b, "containers[name=%s].env[name=%s].value: %q\n", g.pick("a", "b"), g.pick("X", "Y"), g.pick("1", "3"))
			case 5:
				fmt.Fprintf(&b, "containers[name=%s]: !delete\n", g.pick("b", "c"))
			case 6:
				fmt.Fprintf(&b, "spec.strategy.type: %s\n", g.pick("RollingUpdate", "Recreate"))
			case 8:
				// a key field of an item named by two (issue 25)
				fmt.Fprintf(&b, "containers[name=%s,image=%s].image: %s\n", g.pick("a", "b"), g.pick("i1", "i2"), g.pick("i1", "i2", "i3"))
			case 9:
				fmt.Fprintf(&b, "containers[name=%s,image=%s].name: %s\n", g.pick("a", "b"), g.pick("i1", "i2"), g.pick("a", "b", "d"))
			default:
				fmt.Fprintf(&b, "metadata.finalizers[-]: %s\n", g.pick("f1", "f4"))
			}
		}
		if g.chance(4) {
			fmt.Fprintf(&b, "[deployment.web.containers[-]]\nname: %s\nimage: %s\n", g.pick("d", "e", "a"), g.pick("i1", "i2"))
		}
	case "service":
		field := g.pick("targetPort", "targetPort", "protocol")
		value := map[string]string{"targetPort": fmt.Sprint(1 + g.r.IntN(3)), "protocol": g.pick("TCP", "UDP")}[field]
		fmt.Fprintf(&b, "[service.web]\nports[port=%s,protocol=%s].%s: %s\n", g.pick("53", "80"), g.pick("TCP", "UDP"), field, value)
	case "widget":
		fmt.Fprintf(&b, "[gadget.web]\nparts[name=%s,version=%d].size: %d\n", g.pick("a", "b"), 1+g.r.IntN(2), 1+g.r.IntN(3))
	}
	return randomPatch{text: b.String(), kpatch: true}
}

func (g *gen) strategicPatch(kind string) randomPatch {
	var b strings.Builder
	var ordered []string
	switch kind {
	case "deployment":
		meta := ""
		if g.chance(2) {
			meta += fmt.Sprintf("  labels: {%s: %s}\n", g.pick("a", "b"), g.pick("x", "y", "null"))
		}
		if g.chance(3) {
			meta += fmt.Sprintf("  finalizers: [%s]\n", g.pick("f1", "f4"))
		}
		if g.chance(3) {
			meta += fmt.Sprintf("  $deleteFromPrimitiveList/finalizers: [%s]\n", g.pick("f1", "f2"))
		}
		if meta != "" {
			b.WriteString("metadata:\n" + meta)
		}
		b.WriteString("spec:\n")
		if g.chance(2) || meta == "" {
			fmt.Fprintf(&b, "  replicas: %d\n", 1+g.r.IntN(3))
		}
		if g.chance(3) {
			if g.chance(2) {
				b.WriteString("  strategy: {$retainKeys: [type], type: Recreate}\n")
			} else {
				fmt.Fprintf(&b, "  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: %d}}\n", 1+g.r.IntN(2))
			}
		}
		if g.chance(2) || b.Len() == len("spec:\n") {
			items := g.some("a", "b", "d")
			b.WriteString("  template:\n    spec:\n")
			if len(items) > 0 && g.chance(4) {
				// $setElementOrder names the patch's items in its order,
				// with others around them
				order := slices.Clone(items)
				if g.chance(2) {
					order = append([]string{g.pick("c", "e")}, order...)
				}
				var names []string
				for _, n := range order {
					names = append(names, "{name: "+n+"}")
				}
				fmt.Fprintf(&b, "      $setElementOrder/containers: [%s]\n", strings.Join(names, ", "))
				ordered = append(ordered, "spec.template.spec.containers")
			}
			b.WriteString("      containers:\n")
			if len(items) == 0 || g.chance(8) && len(ordered) == 0 {
				b.WriteString("      - {$patch: replace}\n")
			}
			for _, n := range items {
				switch g.r.IntN(5) {
				case 0:
					fmt.Fprintf(&b, "      - {name: %s, $patch: delete}\n", n)
				case 1:
					fmt.Fprintf(&b, "      - name: %s\n        env: [{name: %s, value: %q}]\n", n, g.pick("X", "Y"), g.pick("1", "3"))
				case 2:
					fmt.Fprintf(&b, "      - name: %s\n        env: [{name: %s, $patch: delete}]\n", n, g.pick("X", "Y"))
				case 3:
					fmt.Fprintf(&b, "      - {name: %s, args: [%s]}\n", n, strings.Join(g.some("p", "q"), ", "))
				default:
					fmt.Fprintf(&b, "      - {name: %s, image: %s}\n", n, g.pick("i1", "i2", "i3"))
				}
			}
		}
	case "service":
		b.WriteString("spec:\n  ports:\n")
		g.keyedItems(&b, []string{"53/TCP", "53/UDP", "80/TCP"}, "53/TCP", 3,
			"  - {$patchMergeKey: [port, protocol], port: %s, protocol: %s, targetPort: %d}\n",
			"  - {$patchMergeKey: [port, protocol], port: %s, protocol: %s, $patch: delete}\n")
	case "widget":
		b.WriteString("spec:\n  parts:\n")
		g.keyedItems(&b, []string{"a/1", "a/2", "b/1", "b/2"}, "a/1", 3,
			"  - {name: %s, version: %s, size: %d}\n",
			"  - {name: %s, version: %s, $patch: delete}\n")
	}
	return g.listPatch(kind, "strategic", b.String(), ordered)
}

func (g *gen) mergeBody(kind string) string {
	var b strings.Builder
	switch kind {
	case "deployment":
		fmt.Fprintf(&b, "metadata:\n  labels: {%s: %s}\n", g.pick("a", "b"), g.pick("x", "y", "null"))
		if g.chance(2) {
			fmt.Fprintf(&b, "spec:\n  replicas: %d\n", 1+g.r.IntN(3))
			if g.chance(3) {
				b.WriteString("  strategy: null\n")
			}
			if g.chance(3) {
				fmt.Fprintf(&b, "  template: {spec: {containers: [{name: %s, image: %s}]}}\n", g.pick("a", "d"), g.pick("i1", "i2"))
			}
		}
	case "service":
		fmt.Fprintf(&b, "spec:\n  ports: [{port: 53, protocol: %s, targetPort: %d}]\n", g.pick("TCP", "UDP"), 1+g.r.IntN(2))
	case "widget":
		fmt.Fprintf(&b, "spec:\n  parts: [{name: a, version: 1, size: %d}]\n", 1+g.r.IntN(3))
	}
	return b.String()
}

func (g *gen) jsonBody(kind string) string {
	var ops []string
	for range 1 + g.r.IntN(2) {
		switch kind {
		case "deployment":
			switch g.r.IntN(9) {
			case 0:
				ops = append(ops, fmt.Sprintf("{op: replace, path: /spec/replicas, value: %d}", 1+g.r.IntN(3)))
			case 1:
				ops = append(ops, fmt.Sprintf("{op: add, path: /metadata/labels/%s, value: %s}", g.pick("a", "b"), g.pick("x", "y")))
			case 2:
				ops = append(ops, fmt.Sprintf("{op: remove, path: /metadata/labels/%s}", g.pick("a", "b")))
			case 3:
				ops = append(ops, fmt.Sprintf("{op: add, path: /spec/template/spec/containers/%s, value: {name: %s, image: i1}}", g.pick("-", "0"), g.pick("d", "e")))
			case 4:
				ops = append(ops, fmt.Sprintf("{op: replace, path: /spec/template/spec/containers/0/image, value: %s}", g.pick("i1", "i3")))
			case 5:
				ops = append(ops, "{op: remove, path: /spec/template/spec/containers/1}")
			case 6:
				ops = append(ops, fmt.Sprintf("{op: test, path: /spec/replicas, value: %d}", 1+g.r.IntN(3)))
			case 7:
				ops = append(ops, "{op: copy, from: /metadata/name, path: /metadata/labels/b}")
			default:
				ops = append(ops, fmt.Sprintf("{op: add, path: /metadata/finalizers/-, value: %s}", g.pick("f1", "f4")))
			}
		case "service":
			ops = append(ops, fmt.Sprintf("{op: replace, path: /spec/ports/%d/targetPort, value: %d}", g.r.IntN(2), 1+g.r.IntN(3)))
		case "widget":
			ops = append(ops, fmt.Sprintf("{op: add, path: /spec/parts/-, value: {name: b, version: 2, size: %d}}", 1+g.r.IntN(3)))
		}
	}
	return "- " + strings.Join(ops, "\n- ") + "\n"
}
