package smp

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// TestIndex: a list merged from the items the patch names, through an
// Index kept from one Apply to the next, gives the same document, the same
// errors and the same change records as mergeList's passes over the whole
// list (Options.scanOnly), on random sequences of patches applied to one
// Pod: items merged, added, deleted, named twice, deleted and added again
// by one patch, in and out of list order, nested lists merged the same
// way; and lists or patches out of the usual shape (duplicate keys, items
// without a key, a key of another type, $patch: replace,
// $setElementOrder naming another item than the patch's, a list replaced
// by null) that the merge must leave to mergeList, after which the index
// must notice the list changed.
func TestIndex(t *testing.T) {
	typ := schema.Builtin().Kind("v1", "Pod")
	r := rand.New(rand.NewPCG(7, 11))
	name := func() string { return fmt.Sprintf("c%d", r.IntN(12)) }
	item := func() string {
		switch r.IntN(24) {
		case 0:
			return "{image: x}" // no key
		case 1:
			return "{name: 7, image: y}" // a key of another type
		case 2:
			return "{$patch: replace}"
		case 3:
			return fmt.Sprintf("{name: %s, $patch: merge}", name())
		case 4, 5, 6, 7:
			return fmt.Sprintf("{name: %s, $patch: delete}", name())
		case 8, 9:
			return fmt.Sprintf("{name: %s, ports: [{containerPort: %d, name: p%d}]}", name(), 80+r.IntN(3), r.IntN(3))
		case 10:
			return fmt.Sprintf("{name: %s, ports: [{containerPort: %d, $patch: delete}]}", name(), 80+r.IntN(3))
		case 11:
			return fmt.Sprintf("{name: %s, image: null}", name())
		}
		return fmt.Sprintf("{name: %s, image: i%d}", name(), r.IntN(3))
	}
	for round := range 300 {
		var doc strings.Builder
		doc.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n")
		for range 1 + r.IntN(8) {
			switch r.IntN(20) {
			case 0:
				doc.WriteString("  - {image: noname}\n")
			case 1:
				doc.WriteString("  - {name: c1, $patch: delete}\n")
			default:
				fmt.Fprintf(&doc, "  - {name: %s, image: i, ports: [{containerPort: 80}, {containerPort: 81}]}\n", name())
			}
		}
		var patches []string
		for range 1 + r.IntN(12) {
			var items []string
			for range 1 + r.IntN(4) {
				items = append(items, item())
			}
			p := "spec: {containers: [" + strings.Join(items, ", ") + "]}"
			switch r.IntN(20) {
			case 0:
				p = "spec: {containers: null}"
			case 1:
				p = fmt.Sprintf("spec: {$setElementOrder/containers: [{name: %s}], containers: [{name: %s, image: o}]}", name(), name())
			}
			patches = append(patches, p)
		}
		run := func(scanOnly bool) string {
			d, err := tree.Read([]byte(doc.String()), tree.Options{})
			if err != nil {
				t.Fatal(err)
			}
			root := d.Docs[0]
			ix := NewIndex()
			var b strings.Builder
			for i, text := range patches {
				p, err := tree.Read([]byte(text), tree.Options{})
				if err != nil {
					t.Fatal(err)
				}
				log := &change.Log{}
				res, err := Apply(root, p.Docs[0], typ, Options{File: fmt.Sprintf("p%d", i), Record: log, Index: ix, scanOnly: scanOnly})
				if err != nil {
					fmt.Fprintf(&b, "patch %d: %v\n", i, err)
					continue // the document as the failed patch left it, as kpatch's KeepGoing
				}
				root = res
				fmt.Fprintf(&b, "patch %d:\n%s%s", i, show(root), log.String())
			}
			return b.String()
		}
		if got, want := run(false), run(true); got != want {
			t.Fatalf("round %d, document:\n%s\npatches:\n%s\nthrough the index:\n%s\nscanning:\n%s", round, doc.String(), strings.Join(patches, "\n"), got, want)
		}
	}
}

// TestIndexLongList: the usual patches on a list long enough that the
// index matters give the same results through the index as scanning.
func TestIndexLongList(t *testing.T) {
	typ := schema.Builtin().Kind("v1", "Pod")
	const n = 200
	var doc strings.Builder
	doc.WriteString("spec:\n  containers:\n")
	for i := range n {
		fmt.Fprintf(&doc, "  - name: c%d\n    image: i\n", i)
	}
	r := rand.New(rand.NewPCG(3, 9))
	// the first deletes in place (and must not in the array as read)
	patches := []string{"spec: {containers: [{name: c5, $patch: delete}]}"}
	for i := range 3 * n {
		var items []string
		for range 1 + r.IntN(3) {
			switch r.IntN(4) {
			case 0:
				items = append(items, fmt.Sprintf("{name: n%d, image: j}", i))
			case 1:
				items = append(items, fmt.Sprintf("{name: c%d, $patch: delete}", r.IntN(n)))
			default:
				items = append(items, fmt.Sprintf("{name: c%d, image: j%d}", r.IntN(n), i))
			}
		}
		patches = append(patches, "spec: {containers: ["+strings.Join(items, ", ")+"]}")
	}
	run := func(scanOnly bool) string {
		d, err := tree.Read([]byte(doc.String()), tree.Options{})
		if err != nil {
			t.Fatal(err)
		}
		root := d.Docs[0]
		// the list's items as read: a shallow copy of the list node shares
		// them, and must not see the edits
		list := tree.MapGet(tree.MapGet(tree.Root(root), "spec"), "containers")
		shared, read := list.Content, slices.Clone(list.Content)
		ix := NewIndex()
		log := &change.Log{}
		defer func() {
			if !slices.Equal(shared, read) {
				t.Error("the merges edited the array of the list as read")
			}
		}()
		for i, text := range patches {
			p, err := tree.Read([]byte(text), tree.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if root, err = Apply(root, p.Docs[0], typ, Options{File: fmt.Sprintf("p%d", i), Record: log, Index: ix, scanOnly: scanOnly}); err != nil {
				t.Fatalf("patch %d: %v", i, err)
			}
		}
		return show(root) + log.String()
	}
	got, want := run(false), run(true)
	if got != want {
		t.Fatalf("through the index:\n%s\nscanning:\n%s", got, want)
	}
	if !strings.Contains(want, "name: n") || !strings.Contains(want, "deletes") {
		t.Fatalf("the patches neither added nor deleted:\n%s", want)
	}
}

// TestIndexSetElementOrder: lists ordered by $setElementOrder through the
// index (orderUsual) give the same documents, errors and change records
// as the passes over the whole list (Options.scanOnly), in both orders
// (OrderSpec, OrderUpstream), on random sequences of patches applied to
// one Pod: directives naming some items (live ones, new ones, deleted
// ones, absent ones, one twice, none), with a patch list that merges,
// adds and deletes items the directive names in its order, or none; and
// patches out of the usual shape (a directive item without the key, a
// patch item out of the directive's order, $patch: replace, a patch list
// alone) that must take the passes, after which the index must notice the
// list changed.
func TestIndexSetElementOrder(t *testing.T) {
	typ := schema.Builtin().Kind("v1", "Pod")
	for _, order := range []ListOrder{OrderSpec, OrderUpstream} {
		r := rand.New(rand.NewPCG(25, 13))
		name := func() string { return fmt.Sprintf("c%d", r.IntN(10)) }
		patch := func() string {
			// the directive: some names, in some order
			var names []string
			for range r.IntN(6) {
				names = append(names, name())
			}
			var seo, items []string
			for _, n := range names {
				seo = append(seo, fmt.Sprintf("{name: %s}", n))
				switch r.IntN(5) {
				case 0:
					items = append(items, fmt.Sprintf("{name: %s, image: j%d}", n, r.IntN(3)))
				case 1:
					items = append(items, fmt.Sprintf("{name: %s, $patch: delete}", n))
				}
			}
			switch r.IntN(16) {
			case 0:
				seo = append(seo, "{image: nokey}")
			case 1:
				items = append(items, fmt.Sprintf("{name: %s, image: late}", name())) // maybe out of order
			case 2:
				items = append(items, "{$patch: replace}")
			case 3:
				return fmt.Sprintf("spec: {containers: [{name: %s, image: k}]}", name())
			}
			p := "spec: {$setElementOrder/containers: [" + strings.Join(seo, ", ") + "]"
			if len(items) > 0 || r.IntN(3) == 0 {
				p += ", containers: [" + strings.Join(items, ", ") + "]"
			}
			return p + "}"
		}
		for round := range 300 {
			var doc strings.Builder
			doc.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n")
			for _, i := range r.Perm(10)[:1+r.IntN(8)] {
				fmt.Fprintf(&doc, "  - {name: c%d, image: i}\n", i)
			}
			var patches []string
			for range 1 + r.IntN(10) {
				patches = append(patches, patch())
			}
			run := func(scanOnly bool) string {
				d, err := tree.Read([]byte(doc.String()), tree.Options{})
				if err != nil {
					t.Fatal(err)
				}
				root := d.Docs[0]
				ix := NewIndex()
				var b strings.Builder
				for i, text := range patches {
					p, err := tree.Read([]byte(text), tree.Options{})
					if err != nil {
						t.Fatal(err)
					}
					log := &change.Log{}
					res, err := Apply(root, p.Docs[0], typ, Options{ListOrder: order, File: fmt.Sprintf("p%d", i), Record: log, Index: ix, scanOnly: scanOnly})
					if err != nil {
						fmt.Fprintf(&b, "patch %d: %v\n", i, err)
						continue
					}
					root = res
					fmt.Fprintf(&b, "patch %d:\n%s%s", i, show(root), log.String())
				}
				return b.String()
			}
			if got, want := run(false), run(true); got != want {
				t.Fatalf("%s order, round %d, document:\n%s\npatches:\n%s\nthrough the index:\n%s\nscanning:\n%s", order, round, doc.String(), strings.Join(patches, "\n"), got, want)
			}
		}
	}
}

// TestIndexSetElementOrderLongList: patches ordering one item or a few of
// a long list with $setElementOrder, merging, adding and deleting them,
// give the same results through the index as scanning, in both orders,
// and leave the list's array as read alone.
func TestIndexSetElementOrderLongList(t *testing.T) {
	typ := schema.Builtin().Kind("v1", "Pod")
	const n = 200
	var doc strings.Builder
	doc.WriteString("spec:\n  containers:\n")
	for i := range n {
		fmt.Fprintf(&doc, "  - name: c%d\n    image: i\n", i)
	}
	r := rand.New(rand.NewPCG(5, 25))
	var patches []string
	for i := range 3 * n {
		var seo, items []string
		for range 1 + r.IntN(3) {
			c := fmt.Sprintf("c%d", r.IntN(n))
			seo = append(seo, "{name: "+c+"}")
			switch r.IntN(4) {
			case 0:
				items = append(items, fmt.Sprintf("{name: %s, image: j%d}", c, i))
			case 1:
				items = append(items, "{name: "+c+", $patch: delete}")
			}
		}
		if r.IntN(4) == 0 {
			seo = append(seo, fmt.Sprintf("{name: n%d}", i))
			items = append(items, fmt.Sprintf("{name: n%d, image: new}", i))
		}
		p := "spec: {$setElementOrder/containers: [" + strings.Join(seo, ", ") + "]"
		if len(items) > 0 {
			p += ", containers: [" + strings.Join(items, ", ") + "]"
		}
		patches = append(patches, p+"}")
	}
	for _, order := range []ListOrder{OrderSpec, OrderUpstream} {
		run := func(scanOnly bool) string {
			d, err := tree.Read([]byte(doc.String()), tree.Options{})
			if err != nil {
				t.Fatal(err)
			}
			root := d.Docs[0]
			list := tree.MapGet(tree.MapGet(tree.Root(root), "spec"), "containers")
			shared, read := list.Content, slices.Clone(list.Content)
			ix := NewIndex()
			log := &change.Log{}
			var b strings.Builder
			for i, text := range patches {
				p, err := tree.Read([]byte(text), tree.Options{})
				if err != nil {
					t.Fatal(err)
				}
				res, err := Apply(root, p.Docs[0], typ, Options{ListOrder: order, File: fmt.Sprintf("p%d", i), Record: log, Index: ix, scanOnly: scanOnly})
				if err != nil {
					fmt.Fprintf(&b, "patch %d: %v\n", i, err) // a patch item out of the directive's order
					continue
				}
				root = res
			}
			if !slices.Equal(shared, read) {
				t.Error("the merges edited the array of the list as read")
			}
			return b.String() + show(root) + log.String()
		}
		got, want := run(false), run(true)
		if got != want {
			t.Fatalf("%s order, through the index:\n%s\nscanning:\n%s", order, got, want)
		}
		if !strings.Contains(want, "name: n") || !strings.Contains(want, "deletes") || !strings.Contains(want, "orders") {
			t.Fatalf("the patches neither added, deleted nor ordered:\n%.2000s", want)
		}
	}
}
