package smp

import (
	"bytes"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// fuzzSchema has a list merged by foo with the recommended key foo,bar,baz,
// a list without a merge key but with a recommended one, a $retainKeys
// field and a list of scalars merged as a set: the directives of
// spec/smp-*.md all have something to act on. Upstream knows neither
// $patchMergeKey nor recommended keys, so these lists have no oracle: the
// properties below are what must hold.
const fuzzSchema = `
swagger: "2.0"
definitions:
  doc:
    properties:
      list:
        type: array
        items: {type: object, additionalProperties: {}}
        x-kubernetes-patch-strategy: merge
        x-kubernetes-patch-merge-key: foo
        x-kubernetes-recommended-patch-merge-key: foo,bar,baz
      taints:
        type: array
        items: {type: object, additionalProperties: {}}
        x-kubernetes-recommended-patch-merge-key: key
      tags:
        type: array
        items: {type: string}
        x-kubernetes-patch-strategy: merge
      volume:
        type: object
        additionalProperties: {}
        x-kubernetes-patch-strategy: retainKeys
`

// FuzzApply applies random patches, directives included, to random
// documents, with the schema above and with the built-in Deployment, in
// both list orders. Properties: no panic; the same inputs give the same
// result or the same error; a result holds no directive (unless the
// document had one); Apply leaves the patch unchanged.
func FuzzApply(f *testing.F) {
	seeds := [][2]string{
		{"list: [{foo: a, bar: x}, {foo: a, bar: y}]", "list: [{$patchMergeKey: [foo, bar], foo: a, bar: x, other: v}]"},
		{"list: [{foo: a}, {foo: b}]", "$setElementOrder/list: [{foo: b}, {foo: a}]\nlist: [{foo: c}]"},
		{"list: [{foo: a}, {foo: b}]", "list: [{foo: a, $patch: delete}]"},
		{"taints: [{key: a, effect: x}]", "taints: [{$patchMergeKey: key, key: a, effect: y}]"},
		{"tags: [a, b]", "$deleteFromPrimitiveList/tags: [a]\ntags: [c]"},
		{"volume: {a: 1, b: 2}", "volume: {$retainKeys: [a], a: 3}"},
		{"list: [{foo: a, bar: x, baz: 1}]", "list: [{$patchMergeKey: [foo, bar, baz], foo: a, bar: x, baz: 1, $patch: replace}]"},
		{"spec: {template: {spec: {containers: [{name: a, ports: [{containerPort: 53, protocol: TCP}]}]}}}",
			"spec: {template: {spec: {containers: [{name: a, ports: [{$patchMergeKey: [containerPort, protocol], containerPort: 53, protocol: UDP}]}]}}}"},
	}
	for i, s := range seeds {
		f.Add(s[0], s[1], uint8(i))
	}
	s, err := schema.Load([]byte(fuzzSchema), "fuzz#schema")
	if err != nil {
		f.Fatal(err)
	}
	doc, err := s.Definition("doc")
	if err != nil {
		f.Fatal(err)
	}
	types := []*schema.Type{doc, schema.Builtin().Kind("apps/v1", "Deployment")}
	f.Fuzz(func(t *testing.T, live, patch string, which uint8) {
		l, err := tree.Read([]byte(live), tree.Options{Limits: &tree.Limits{MaxBytes: 1 << 14, MaxNodes: 2000}})
		if err != nil || len(l.Docs) != 1 {
			return
		}
		p, err := tree.Read([]byte(patch), tree.Options{Limits: &tree.Limits{MaxBytes: 1 << 14, MaxNodes: 2000}})
		if err != nil || len(p.Docs) != 1 {
			return
		}
		typ := types[int(which)%len(types)]
		order := []ListOrder{OrderSpec, OrderUpstream}[int(which/2)%2]
		patchBefore := tree.Clone(p.Docs[0])
		liveHasDirective := findDirective(l.Docs[0]) != ""
		run := func(patch *yaml.Node) ([]byte, error) {
			res, err := Apply(tree.Clone(l.Docs[0]), patch, typ, Options{ListOrder: order})
			if err != nil {
				return nil, err
			}
			if d := findDirective(res); d != "" && !liveHasDirective {
				t.Fatalf("the result holds the directive %s:\n%s", d, show(res))
			}
			return tree.MarshalJSON(res)
		}
		a, errA := run(p.Docs[0])
		b, errB := run(tree.Clone(patchBefore))
		if (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error() || !bytes.Equal(a, b) {
			t.Fatalf("two runs differ:\n%s (%v)\n%s (%v)", a, errA, b, errB)
		}
		if !tree.Equal(p.Docs[0], patchBefore) {
			t.Fatal("Apply changed the patch")
		}
	})
}

// findDirective returns the first map key of n that is a directive.
func findDirective(n *yaml.Node) string {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if k == "$patch" || k == "$retainKeys" || k == "$patchMergeKey" || bytes.HasPrefix([]byte(k), []byte("$setElementOrder/")) || bytes.HasPrefix([]byte(k), []byte("$deleteFromPrimitiveList/")) {
				return k
			}
		}
	}
	for _, c := range n.Content {
		if d := findDirective(c); d != "" {
			return d
		}
	}
	return ""
}

func show(n *yaml.Node) string {
	var b bytes.Buffer
	_ = tree.WriteYAML(&b, tree.Style{}, n)
	return b.String()
}
