package nodeedit

import (
	"fmt"
	"slices"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

func TestMapLargeAndSmall(t *testing.T) {
	for _, size := range []int{3, 40} {
		m := tree.NewMap()
		for i := 0; i < size; i++ {
			tree.MapSet(m, fmt.Sprintf("k%d", i), tree.NewString("v"))
		}
		e := NewMap(m)
		e.Delete("k1")
		e.Set(tree.NewString("new"), tree.NewString("n"))
		e.Retain(map[string]bool{"k0": true, "k2": true, "new": true})
		if e.Get("k1") != nil || e.Get("new") == nil {
			t.Fatalf("size %d: Get after Delete/Set", size)
		}
		e.Finish()
		e.Set(tree.NewString("k2"), tree.NewString("again"))
		e.Finish()
		var keys []string
		for i := 0; i < len(m.Content); i += 2 {
			keys = append(keys, m.Content[i].Value)
		}
		if fmt.Sprint(keys) != "[k0 k2 new]" || tree.MapGet(m, "k2").Value != "again" {
			t.Fatalf("size %d: keys %v", size, keys)
		}
	}
}

func TestSetScalarKeepsStyleAndComments(t *testing.T) {
	dst := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "a", Style: yaml.SingleQuotedStyle, LineComment: "# keep"}
	SetScalar(dst, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "b"})
	if dst.Value != "b" || dst.Style != yaml.SingleQuotedStyle || dst.LineComment != "# keep" {
		t.Fatalf("%+v", dst)
	}
	SetScalar(dst, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "3"})
	if dst.Style != 0 || dst.Tag != "!!int" {
		t.Fatalf("a string replaced by a number must drop the quotes: %+v", dst)
	}
	n := InheritComments(&yaml.Node{HeadComment: "# head"}, &yaml.Node{LineComment: "# own"})
	if n.HeadComment != "# head" || n.LineComment != "# own" || InheritComments(nil, n) != n {
		t.Fatalf("%+v", n)
	}
}

// TestMapGrows: a mapping that grows large through Set (a patch adding
// many keys to a new object) is indexed from then on, so that adding N
// keys takes time linear in N, and lookups agree with tree.MapGet, deleted
// entries included.
func TestMapGrows(t *testing.T) {
	m := tree.NewMap()
	e := NewMap(m)
	e.Set(tree.NewString("gone"), tree.NewString("x"))
	e.Delete("gone") // marked, not removed: the index must skip it
	for i := range 100 {
		e.Set(tree.NewString(fmt.Sprintf("k%d", i)), tree.NewString(fmt.Sprint(i)))
	}
	if e.index == nil {
		t.Fatal("a mapping of 100 keys is not indexed")
	}
	e.Set(tree.NewString("k7"), tree.NewString("seven"))
	if e.Get("gone") != nil || e.Get("k7").Value != "seven" || e.Get("k99").Value != "99" {
		t.Fatal("lookups after growing")
	}
	e.Finish()
	if len(m.Content) != 200 || tree.MapGet(m, "k7").Value != "seven" || tree.MapGet(m, "gone") != nil {
		t.Fatalf("after Finish: %d entries", len(m.Content)/2)
	}
}

// TestPut: Put, which builds a mapping (a patch) from key nodes made for
// it, appends a new key as the node itself and replaces the value of a key
// already there in place; once the mapping is large it is indexed, and
// lookups agree with tree.MapGet.
func TestPut(t *testing.T) {
	m := tree.NewMap()
	e := NewMap(m)
	keys := make([]*yaml.Node, 100)
	for i := range keys {
		keys[i] = tree.NewString(fmt.Sprintf("k%d", i))
		e.Put(keys[i], tree.NewString(fmt.Sprint(i)))
	}
	if e.index == nil {
		t.Fatal("a mapping of 100 keys is not indexed")
	}
	e.Put(tree.NewString("k7"), tree.NewString("seven"))
	if len(m.Content) != 200 || m.Content[14] != keys[7] || m.Content[198] != keys[99] {
		t.Fatal("Put did not append the key nodes themselves, or appended a key twice")
	}
	for _, k := range []string{"k0", "k7", "k50", "k99", "k100"} {
		if got, want := e.Get(k), tree.MapGet(m, k); got != want {
			t.Errorf("%s: %v, tree.MapGet %v", k, got, want)
		}
	}
	if tree.MapGet(m, "k7").Value != "seven" {
		t.Error("k7 was not replaced")
	}
}

// TestMaps: Maps gives back the Map of a large mapping as long as the
// mapping is as the Map's last edit left it (kept is then true), and a new
// Map when someone else replaced its content or an edit failed before
// Finish; small mappings are not kept.
func TestMaps(t *testing.T) {
	var ms Maps
	m := tree.NewMap()
	for i := range 40 {
		m.Content = append(m.Content, tree.NewString(fmt.Sprintf("k%d", i)), tree.NewString("v"))
	}
	e, kept := ms.Map(m)
	if kept {
		t.Fatal("kept before it was made")
	}
	e.Put(tree.NewString("k40"), tree.NewString("w"))
	e.Delete("k3")
	e.Finish()
	if e2, kept := ms.Map(m); !kept || e2 != e {
		t.Fatal("not kept after its own edits")
	}
	if e.Get("k40").Value != "w" || e.Get("k3") != nil {
		t.Fatal("lookups after the edits")
	}
	m.Content = slices.Clone(m.Content) // someone else's copy
	m.Content[0] = tree.NewString("other")
	if e3, kept := ms.Map(m); kept || e3 == e || e3.Get("other") == nil || e3.Get("k0") != nil {
		t.Fatal("a mapping whose content was replaced was not indexed anew")
	}
	e4, _ := ms.Map(m)
	e4.Delete("k5") // and no Finish: the edit failed
	if _, kept := ms.Map(m); kept {
		t.Fatal("kept after an edit that did not finish")
	}
	small := tree.NewMap()
	ms.Map(small)
	if _, kept := ms.Map(small); kept {
		t.Fatal("a small mapping was kept")
	}
}
