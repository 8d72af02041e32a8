package conflict

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/tree"
)

func ch(t *testing.T, op change.Op, path, value string) change.Change {
	var v *yaml.Node
	if value != "" {
		v = tree.Root(nodetest.ReadDoc(t, value))
	}
	return change.Change{Path: fieldpath.MustParse(path), Op: op, Value: v, Pos: tree.Position{File: "p", Line: 1, Column: 1}}
}

// TestRules: which pairs of changes of two patches conflict, one rule of
// the package documentation per line (or a pair that must not conflict).
func TestRules(t *testing.T) {
	S, D, C, I := change.Set, change.Delete, change.Create, change.Insert
	R, O, T, E, M := change.Retain, change.Order, change.Test, change.Exists, change.Merge
	for _, c := range []struct {
		name   string
		x, y   [3]any // op, path, value
		kx, ky string
		want   bool
	}{
		{"same path, two values", [3]any{S, "a.b", "1"}, [3]any{S, "a.b", "2"}, "", "", true},
		{"same path, one value", [3]any{S, "a.b", "1"}, [3]any{S, "a.b", "1"}, "", "", false},
		{"1 and 1.0 differ", [3]any{S, "a.b", "1"}, [3]any{S, "a.b", "1.0"}, "", "", true},
		{"different paths", [3]any{S, "a.b", "1"}, [3]any{S, "a.c", "2"}, "", "", false},
		{"a delete against a set", [3]any{D, "a.b", ""}, [3]any{S, "a.b", "1"}, "", "", true},
		{"two deletes", [3]any{D, "a.b", ""}, [3]any{D, "a.b", ""}, "", "", false},
		{"a delete above a set", [3]any{D, "a", ""}, [3]any{S, "a.b", "1"}, "", "", true},
		{"a delete above a delete", [3]any{D, "a", ""}, [3]any{D, "a.b", ""}, "", "", false},
		{"a set below a value set as a whole, agreeing", [3]any{S, "a", "{b: 1, c: 2}"}, [3]any{S, "a.b", "1"}, "", "", false},
		{"a set below a value set as a whole, not agreeing", [3]any{S, "a", "{b: 1}"}, [3]any{S, "a.b", "2"}, "", "", true},
		{"a set below a value set as a whole, outside it", [3]any{S, "a", "{b: 1}"}, [3]any{S, "a.c", "2"}, "", "", true},
		{"a delete below a value that lacks it", [3]any{S, "a", "{b: 1}"}, [3]any{D, "a.c", ""}, "", "", false},
		{"a set below a list set as a whole, by key", [3]any{S, "l", "[{name: x, v: 1}]"}, [3]any{S, "l[name=x].v", "1"}, "", "", false},
		{"creations merge", [3]any{C, "a", "{}"}, [3]any{S, "a.b", "1"}, "", "", false},
		{"two creations", [3]any{C, "a", "{}"}, [3]any{C, "a", "{}"}, "", "", false},
		{"an object and a list", [3]any{C, "a", "{}"}, [3]any{C, "a", "[]"}, "", "", true},
		{"a field of a list", [3]any{S, "a.b", "1"}, [3]any{S, "a[0]", "1"}, "", "", true},
		{"a creation against a delete", [3]any{C, "a", "{}"}, [3]any{D, "a", ""}, "", "", true},
		{"a merge into what is deleted", [3]any{M, "a", "{}"}, [3]any{D, "a", ""}, "", "", true},
		{"a merge and what exists", [3]any{M, "a", "{}"}, [3]any{E, "a", ""}, "", "", false},
		{"a creation and what must exist", [3]any{C, "a", "{}"}, [3]any{E, "a", ""}, "", "", true},
		{"a set and what must exist", [3]any{S, "a", "1"}, [3]any{E, "a", ""}, "", "", false},
		{"a test against a set of the same value", [3]any{S, "a", "1"}, [3]any{T, "a", "1"}, "", "", true},
		{"a test below a set", [3]any{S, "a", "{b: 1}"}, [3]any{T, "a.b", "1"}, "", "", true},
		{"two tests", [3]any{T, "a", "1"}, [3]any{T, "a", "2"}, "", "", false},
		// list items
		{"items by key, two items", [3]any{S, "l[port=53,protocol=TCP].t", "1"}, [3]any{S, "l[port=53,protocol=UDP].t", "2"}, "", "", false},
		{"items by key, maybe one", [3]any{S, "l[port=53].t", "1"}, [3]any{S, "l[port=53,protocol=UDP].t", "2"}, "", "", true},
		{"items by key, no field in common", [3]any{S, "l[name=a].t", "1"}, [3]any{S, "l[port=53].t", "2"}, "", "", true},
		{"keys keep their types", [3]any{S, `l[name="53"].t`, "1"}, [3]any{S, "l[name=53].t", "2"}, "", "", false},
		{"an index may be any item", [3]any{S, "l[0].t", "1"}, [3]any{S, "l[name=a].t", "2"}, "", "", true},
		{"two indexes", [3]any{S, "l[0].t", "1"}, [3]any{S, "l[1].t", "2"}, "", "", false},
		{"an index and a new item", [3]any{S, "l[1].t", "1"}, [3]any{C, "l[name=a]", "{}"}, "", "", true},
		{"an index and a deleted item", [3]any{E, "l[1]", ""}, [3]any{D, "l[name=a]", ""}, "", "", true},
		{"an index and an order", [3]any{S, "l[1].t", "1"}, [3]any{O, "l", ""}, "", "", true},
		{"an insertion at an index is not the keyed item", [3]any{I, "l[2]", "{name: d}"}, [3]any{S, "l[name=a].t", "1"}, "", "", false},
		{"an insertion at an index is the keyed item", [3]any{I, "l[2]", "{name: a}"}, [3]any{S, "l[name=a].t", "1"}, "", "", true},
		{"two insertions at indexes", [3]any{I, "l[0]", "{name: x}"}, [3]any{I, "l[0]", "{name: y}"}, "", "", true},
		{"two new items by key", [3]any{C, "l[name=x]", "{}"}, [3]any{C, "l[name=y]", "{}"}, "", "", false},
		{"an item inserted whether it is there or not", [3]any{I, "l[name=x]", "{name: x}"}, [3]any{C, "l[name=x]", "{}"}, "", "", true},
		{"members", [3]any{D, "f[=a]", ""}, [3]any{C, "f[=a]", "a"}, "", "", true},
		{"other members", [3]any{D, "f[=a]", ""}, [3]any{C, "f[=b]", "b"}, "", "", false},
		{"a member against an item by key", [3]any{C, "f[=a]", "a"}, [3]any{C, "f[name=a]", "{}"}, "", "", true},
		// renaming
		{"a key field changed", [3]any{S, "l[name=a].port", "54"}, [3]any{S, "l[port=53,protocol=TCP].t", "1"}, "", "", true},
		{"a key field kept", [3]any{S, "l[port=53,protocol=TCP].port", "53"}, [3]any{S, "l[port=53,protocol=UDP].t", "1"}, "", "", false},
		{"a field that is no key", [3]any{S, "l[name=a].image", "x"}, [3]any{S, "l[name=b].image", "y"}, "", "", false},
		// issue 25: the item whose key field changes is named by another
		// value of a field it keeps: another item, before and after
		{"a key field of another item", [3]any{S, "l[name=a,image=i].image", "j"}, [3]any{S, "l[name=b,image=i].image", "k"}, "", "", false},
		{"a key field of another item, and its existence", [3]any{S, "l[name=a,image=i].image", "j"}, [3]any{E, "l[name=b,image=i]", ""}, "field", "field", false},
		{"a key field of another item, deleted", [3]any{D, "l[name=a,image=i].image", ""}, [3]any{S, "l[image=i,name=b].x", "1"}, "", "", false},
		{"a key field of the same item", [3]any{S, "l[name=a,image=i].image", "j"}, [3]any{S, "l[name=a,image=i].x", "1"}, "", "", true},
		{"a key field of an item that may be the other", [3]any{S, "l[name=a,image=i].image", "j"}, [3]any{S, "l[image=i].x", "1"}, "", "", true},
		{"a key field of an item named by fewer fields", [3]any{S, "l[name=a].image", "j"}, [3]any{S, "l[name=a,image=i].x", "1"}, "", "", true},
		{"the key field that tells them apart", [3]any{S, "l[name=a,image=i].name", "b"}, [3]any{S, "l[name=b,image=i].x", "1"}, "", "", true},
		{"a key field of an item by index", [3]any{S, "l[0].image", "j"}, [3]any{S, "l[name=b,image=i].x", "1"}, "", "", true},
		// directives
		{"retained fields", [3]any{R, "s", "[type]"}, [3]any{S, "s.type", "x"}, "", "", false},
		{"a field not retained", [3]any{R, "s", "[type]"}, [3]any{S, "s.rollingUpdate.maxSurge", "1"}, "", "", true},
		{"a delete of a field not retained", [3]any{R, "s", "[type]"}, [3]any{D, "s.rollingUpdate", ""}, "", "", false},
		{"two retains", [3]any{R, "s", "[type]"}, [3]any{R, "s", "[type, x]"}, "", "", false},
		{"an order and a new item", [3]any{O, "l", "[{name: b}, {name: a}]"}, [3]any{C, "l[name=c]", "{}"}, "", "", true},
		{"an order and a change inside an item", [3]any{O, "l", "[{name: b}, {name: a}]"}, [3]any{S, "l[name=a].image", "x"}, "", "", false},
		{"two orders", [3]any{O, "l", "[{name: b}, {name: a}]"}, [3]any{O, "l", "[{name: a}, {name: b}]"}, "", "", true},
		{"an order and a merge's order", [3]any{O, "l", "[{name: b}, {name: a}]"}, [3]any{O, "l", ""}, "", "", true},
		{"two merges' orders", [3]any{O, "l", ""}, [3]any{O, "l", ""}, "", "", false},
		{"a merge's order and a new item", [3]any{O, "l", ""}, [3]any{C, "l[name=c]", "{}"}, "", "", false},
		{"a merge's order and a member inserted again", [3]any{O, "f", ""}, [3]any{I, "f[=a]", "a"}, "", "", true},
		// the policy for field patches
		{"a field patch and a strategic patch, one value", [3]any{S, "a", "1"}, [3]any{S, "a", "1"}, "field", "strategic", true},
		{"a field patch below a strategic set", [3]any{S, "a", "{b: 1}"}, [3]any{S, "a.b", "1"}, "strategic", "field", true},
		{"two field patches, one value", [3]any{S, "a", "1"}, [3]any{S, "a", "1"}, "field", "field", false},
	} {
		x := ch(t, c.x[0].(change.Op), c.x[1].(string), c.x[2].(string))
		y := ch(t, c.y[0].(change.Op), c.y[1].(string), c.y[2].(string))
		kind := map[string]change.PatchType{"": change.StrategicPatch, "field": change.FieldPatch, "strategic": change.StrategicPatch}
		kx, ky := kind[c.kx], kind[c.ky]
		if _, got := conflicts(x, y, kx, ky); got != c.want {
			t.Errorf("%s: %s / %s: %v, want %v", c.name, x, y, got, c.want)
		}
		if _, got := conflicts(y, x, ky, kx); got != c.want {
			t.Errorf("%s (the other way round): %s / %s: %v, want %v", c.name, y, x, got, c.want)
		}
	}
}

// TestConflictString: a conflict lists its sides, up to 12 of them; of
// more, the first 10, how many others there are, and the last: 4,000
// patches setting one field are one line of a dozen sides, not of 4,000.
func TestConflictString(t *testing.T) {
	conflictOf := func(n int) Conflict {
		c := Conflict{Object: "o"}
		for i := range n {
			x := ch(t, change.Set, "data.a", fmt.Sprint(i))
			x.Pos = tree.Position{File: "p", Line: i + 1, Column: 1}
			c.Sides = append(c.Sides, Side{Patch: change.FieldPatch, Change: x})
		}
		return c
	}
	side := func(i int) string { return fmt.Sprintf("p:%d:1 (field patch) sets data.a to %d", i+1, i) }
	sides := func(from, to int) string {
		var out []string
		for i := from; i < to; i++ {
			out = append(out, side(i))
		}
		return strings.Join(out, ", ")
	}
	for _, c := range []struct {
		n    int
		want string
	}{
		{2, "o: " + side(0) + ", and " + side(1)},
		{12, "o: " + sides(0, 11) + ", and " + side(11)},
		{13, "o: " + sides(0, 10) + ", 2 more sides, and " + side(12)},
		{4000, "o: " + sides(0, 10) + ", 3989 more sides, and " + side(3999)},
	} {
		if got := conflictOf(c.n).String(); got != c.want {
			t.Errorf("%d sides:\n%s\nwant\n%s", c.n, got, c.want)
		}
	}
}

// TestFind: records of one patch never conflict with each other; records
// of other objects neither; a change that conflicts with many changes of
// another patch below it is reported once; the order is by the later
// change's position.
func TestFind(t *testing.T) {
	at := func(c change.Change, line int) change.Change {
		c.Pos = tree.Position{File: "p", Line: line, Column: 1}
		return c
	}
	records := []change.Record{
		{Object: "o", Patch: change.StrategicPatch, Changes: []change.Change{
			at(ch(t, change.Delete, "spec.x", ""), 1),
			at(ch(t, change.Set, "spec.y", "1"), 2),
		}},
		{Object: "o", Patch: change.StrategicPatch, Changes: []change.Change{
			at(ch(t, change.Set, "spec.x.a", "1"), 3),
			at(ch(t, change.Set, "spec.x.b", "1"), 4),
			at(ch(t, change.Set, "spec.y", "2"), 5),
		}},
		{Object: "other", Patch: change.StrategicPatch, Changes: []change.Change{at(ch(t, change.Set, "spec.y", "3"), 6)}},
	}
	var got []string
	for _, c := range Find(records) {
		got = append(got, c.String())
	}
	want := []string{
		"o: p:1:1 (strategic patch) deletes spec.x, and p:3:1 (strategic patch) sets spec.x.a to 1",
		"o: p:2:1 (strategic patch) sets spec.y to 1, and p:5:1 (strategic patch) sets spec.y to 2",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("got  %s\nwant %s", got[i], want[i])
		}
	}
}

// TestRecorder: a Recorder given each object's records on its own (from
// several goroutines) gives what Find gives on all of them at once, in the
// order of the objects it is told; conflicts Find's order does not tell
// apart (one place of one patch in two objects) follow that order, and
// objects it is not told come after, by name.
func TestRecorder(t *testing.T) {
	at := func(c change.Change, line int) change.Change {
		c.Pos = tree.Position{File: "p", Line: line, Column: 1}
		return c
	}
	object := func(name string, firstLine int) []change.Record {
		return []change.Record{
			{Object: name, Patch: change.FieldPatch, Changes: []change.Change{at(ch(t, change.Set, "data.a", "1"), firstLine)}},
			{Object: name, Patch: change.FieldPatch, Changes: []change.Change{at(ch(t, change.Set, "data.a", "2"), 9)}},
		}
	}
	// the second sides of all three are at p:9:1, their first at data.a
	b, a, c := object("b", 1), object("a", 2), object("c", 3)
	rec := &Recorder{}
	var wg sync.WaitGroup
	for _, recs := range [][]change.Record{c, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec.Add(recs)
		}()
	}
	wg.Wait()
	var got []string
	for _, cf := range rec.Conflicts([]string{"b", "a"}) {
		got = append(got, cf.Object)
	}
	if strings.Join(got, " ") != "b a c" {
		t.Errorf("objects %q, want b a c", got)
	}
	all := append(append(append([]change.Record(nil), b...), a...), c...)
	var want []string
	for _, cf := range Find(all) {
		want = append(want, cf.String())
	}
	got = got[:0]
	for _, cf := range rec.Conflicts([]string{"b", "a", "c"}) {
		got = append(got, cf.String())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nFind gives\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
