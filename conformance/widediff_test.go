package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/tree"
)

// TestDiffWideMaps compares patch creation with upstream's on objects
// wide enough that kmerge looks their keys up through an index
// (internal/nodeedit indexes a mapping of more than 16 keys; the random
// documents of TestDifferentialDiff have a few): Deployments whose labels,
// annotations and selector have 10 to 80 keys, the modified and current
// documents each changing, deleting and adding some of them. Strategic
// two-way and three-way patches (CompareDiff), JSON merge patches two-way
// (jsonpatch.CreateMergePatch) and three-way (CompareThreeWayMerge): the
// same patches, the same conflicts.
func TestDiffWideMaps(t *testing.T) {
	subjects, err := Subjects()
	if err != nil {
		t.Fatal(err)
	}
	var deployment Subject
	for _, s := range subjects {
		if s.Name == "Deployment" {
			deployment = s
		}
	}
	if deployment.Kmerge == nil {
		t.Fatal("no Deployment subject")
	}
	r := rand.New(rand.NewPCG(25, 9))
	wide := func() map[string]any {
		m := map[string]any{}
		for i := range 10 + r.IntN(70) {
			m[fmt.Sprintf("k%d", i)] = fmt.Sprintf("v%d", r.IntN(3))
		}
		return m
	}
	mutate := func(m map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			switch r.IntN(6) {
			case 0:
				continue // deleted
			case 1:
				v = fmt.Sprintf("v%d", r.IntN(3))
			}
			out[k] = v
		}
		for i := range r.IntN(20) {
			out[fmt.Sprintf("n%d", i)] = "w"
		}
		return out
	}
	type maps struct{ labels, annotations, selector map[string]any }
	doc := func(m maps) []byte {
		b, _ := json.Marshal(map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "web", "labels": m.labels, "annotations": m.annotations},
			"spec":     map[string]any{"selector": map[string]any{"matchLabels": m.selector}},
		})
		return b
	}
	counts := map[string]int{}
	for i := range 300 {
		o := maps{wide(), wide(), wide()}
		m := maps{mutate(o.labels), mutate(o.annotations), mutate(o.selector)}
		cur := o
		if r.IntN(2) == 0 {
			cur = maps{mutate(o.labels), mutate(o.annotations), mutate(o.selector)}
		}
		c := DiffCase{Subject: deployment.Name, Seed: uint64(i), Original: doc(o), Modified: doc(m), Current: doc(cur)}
		v := CompareDiff(deployment, c)
		counts["strategic "+v.Category]++
		if v.Unexplained() {
			t.Fatalf("%s\n%s", v.Category, v.Detail)
		}
		v = CompareThreeWayMerge(c)
		counts["merge "+v.Category]++
		if v.Unexplained() {
			t.Fatalf("%s\n%s", v.Category, v.Detail)
		}
		want, err := jsonpatch.CreateMergePatch(c.Original, c.Modified)
		if err != nil {
			t.Fatal(err)
		}
		docs, err := readDocs([][]byte{c.Original, c.Modified})
		if err != nil {
			t.Fatal(err)
		}
		got, err := tree.MarshalJSON(mergepatch.Diff(docs[0], docs[1]))
		if err != nil {
			t.Fatal(err)
		}
		g, _ := upstreamcases.Canonical(got, false)
		w, _ := upstreamcases.Canonical(want, false)
		if g != w {
			t.Fatalf("case %d, merge patch\n original: %s\n modified: %s\n kmerge:  %s\n kubectl: %s", i, c.Original, c.Modified, g, w)
		}
	}
	t.Logf("300 triples: %v", counts)
	if counts["merge conflict"] == 0 || counts["merge equal"] == 0 {
		t.Errorf("the triples should give three-way patches with and without conflicts: %v", counts)
	}
}
