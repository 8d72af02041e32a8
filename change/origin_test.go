package change

import (
	"fmt"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// TestOrigins: which change wrote each place last, and what it overrode.
// Each case lists changes as "patch op path", in the order they were
// made (a patch is a file name; its position's line is the change's
// number, so that two changes of one file are two positions unless they
// say "@N"); want lists the origins as "patch path <- overridden...",
// worked out by hand from the rules of Origins' documentation.
func TestOrigins(t *testing.T) {
	for _, c := range []struct {
		name    string
		changes []string
		want    []string
	}{
		{
			name:    "a later set of one place overrides the earlier ones, all of them",
			changes: []string{"a set spec.replicas", "b set spec.replicas", "c set spec.replicas"},
			want:    []string{"c:3 spec.replicas <- a:1 b:2"},
		},
		{
			name:    "sets of different places override nothing",
			changes: []string{"a set spec.replicas", "b set spec.paused"},
			want:    []string{"a:1 spec.replicas", "b:2 spec.paused"},
		},
		{
			name: "a set below a whole value overrides it there, and the whole value stays the origin of the rest",
			changes: []string{"a set spec.template.spec.containers",
				"b set spec.template.spec.containers[name=main].image"},
			want: []string{"a:1 spec.template.spec.containers",
				"b:2 spec.template.spec.containers[name=main].image <- a:1"},
		},
		{
			name: "a whole value overrides what was set below it, and what that overrode",
			changes: []string{"a set spec.x.y", "b set spec.x.y", "c set spec.x.z",
				"d set spec.x"},
			want: []string{"d:4 spec.x <- a:1 b:2 c:3"},
		},
		{
			name:    "a delete overrides a set, and a later set the delete",
			changes: []string{"a set metadata.labels.tier", "b delete metadata.labels.tier", "c set metadata.labels.tier"},
			want:    []string{"c:3 metadata.labels.tier <- a:1 b:2"},
		},
		{
			name:    "a delete stays an origin: the place is gone",
			changes: []string{"a set metadata.labels.tier", "b delete metadata.labels"},
			want:    []string{"b:2 metadata.labels <- a:1"},
		},
		{
			name: "a merge into an object overrides nothing in it: a create stays the origin of the key",
			changes: []string{"a create spec.template.spec.containers[name=side]",
				"a set spec.template.spec.containers[name=side].name@1",
				"b merge spec.template.spec.containers[name=side]",
				"b set spec.template.spec.containers[name=side].image"},
			want: []string{"a:1 spec.template.spec.containers[name=side]",
				"a:1 spec.template.spec.containers[name=side].name",
				"b:4 spec.template.spec.containers[name=side].image"},
		},
		{
			name: "items by key meet when their shared key fields agree",
			changes: []string{"a set spec.ports[port=53,protocol=UDP].name",
				"b set spec.ports[port=53].name",
				"c set spec.ports[port=53,protocol=TCP].name"},
			// b's [port=53] may be a's item, so b overrides a; c's may be
			// b's, so c overrides b, but not a: UDP is not TCP
			want: []string{"c:3 spec.ports[port=53,protocol=TCP].name <- b:2"},
		},
		{
			name:    "an index meets only that index",
			changes: []string{"a set spec.containers[0].image", "b set spec.containers[name=main].image", "c set spec.containers[0].image"},
			want:    []string{"b:2 spec.containers[name=main].image", "c:3 spec.containers[0].image <- a:1"},
		},
		{
			name:    "a patch does not override itself",
			changes: []string{"a set spec.x", "a set spec.x@1"},
			want:    []string{"a:1 spec.x"},
		},
		{
			name:    "two lines of one file are two positions",
			changes: []string{"a set spec.x", "a set spec.x"},
			want:    []string{"a:2 spec.x <- a:1"},
		},
		{
			name: "a retain overrides the fields it drops, not those it keeps",
			changes: []string{"a set spec.strategy.rollingUpdate.maxSurge", "a set spec.strategy.type",
				"b retain spec.strategy type"},
			want: []string{"a:2 spec.strategy.type", "b:3 spec.strategy <- a:1"},
		},
		{
			name:    "what a patch reads, merges into or orders writes nothing",
			changes: []string{"a test spec.x", "b exists spec.y", "c merge spec", "d order spec.l"},
			want:    nil,
		},
		{
			name:    "a patch overridden in between, writing the place again, does not override itself",
			changes: []string{"a set spec.x", "b set spec.x", "c set spec.x", "a set spec.x@1"},
			want:    []string{"a:1 spec.x <- b:2 c:3"},
		},
		{
			name: "what several origins overrode, in the order it was made",
			changes: []string{"a set spec.y", "b set spec.x", "c set spec.x", "d set spec.y",
				"e set spec"},
			// c overrode b, d overrode a (made first): e overrides them all
			want: []string{"e:5 spec <- a:1 b:2 c:3 d:4"},
		},
		{
			name:    "an insert is a whole value",
			changes: []string{"a set spec.args[1]", "b insert spec.args[1]"},
			want:    []string{"b:2 spec.args[1] <- a:1"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			var changes []Change
			for i, s := range c.changes {
				changes = append(changes, parseChange(t, s, i+1))
			}
			var got []string
			for _, o := range Origins(changes, nil) {
				s := fmt.Sprintf("%s:%d %s", o.Pos.File, o.Pos.Line, o.Path)
				for j, x := range o.Overrode {
					if j == 0 {
						s += " <-"
					}
					s += fmt.Sprintf(" %s:%d", x.Pos.File, x.Pos.Line)
				}
				got = append(got, s)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// parseChange reads "patch op path[@line] [retained fields...]".
func parseChange(t *testing.T, s string, n int) Change {
	t.Helper()
	f := strings.Fields(s)
	ops := map[string]Op{"set": Set, "delete": Delete, "create": Create, "insert": Insert, "retain": Retain,
		"order": Order, "test": Test, "exists": Exists, "merge": Merge}
	op, ok := ops[f[1]]
	if !ok {
		t.Fatalf("op %q", f[1])
	}
	path := f[2]
	if at := strings.LastIndex(path, "@"); at >= 0 {
		fmt.Sscan(path[at+1:], &n)
		path = path[:at]
	}
	c := Change{Path: fieldpath.MustParse(path), Op: op, Pos: tree.Position{File: f[0], Line: n, Column: 1}}
	if op == Retain {
		c.Value = &yaml.Node{Kind: yaml.SequenceNode}
		for _, k := range f[3:] {
			c.Value.Content = append(c.Value.Content, tree.NewString(k))
		}
	}
	return c
}

// TestOriginsMany: many changes under one list cost about linear time,
// not quadratic: 20,000 items created and then a whole set of the list.
func TestOriginsMany(t *testing.T) {
	var changes []Change
	for i := range 20000 {
		p := fieldpath.MustParse(fmt.Sprintf("spec.l[name=n%d].v", i))
		changes = append(changes, Change{Path: p, Op: Set, Pos: tree.Position{File: "a", Line: i + 1}})
	}
	changes = append(changes, Change{Path: fieldpath.MustParse("spec.l"), Op: Set, Pos: tree.Position{File: "b", Line: 1}})
	os := Origins(changes, nil)
	if len(os) != 1 || len(os[0].Overrode) != 20000 {
		t.Fatalf("got %d origins, the last overriding %d", len(os), len(os[len(os)-1].Overrode))
	}
}

// TestOriginsOnePlace: n changes of one place, each overriding all the
// earlier ones, cost about linear time: each took over the list of what
// the last overrode rather than copying it (and looked for the order of
// each position among all the changes): 10,000 took 28 s.
func TestOriginsOnePlace(t *testing.T) {
	const n = 20000
	for _, spelling := range []string{"data.a", "spec.containers[name=main].image", "spec.containers[0].image"} {
		var changes []Change
		for i := range n {
			op := Set
			if i%3 == 2 {
				op = Delete
			}
			changes = append(changes, Change{Path: fieldpath.MustParse(spelling), Op: op, Pos: tree.Position{File: "p", Line: 3*i + 1}})
		}
		start := time.Now()
		os := Origins(changes, nil)
		if len(os) != 1 || len(os[0].Overrode) != n-1 {
			t.Fatalf("%s: got %d origins, the last overriding %d", spelling, len(os), len(os[len(os)-1].Overrode))
		}
		for i, x := range os[0].Overrode {
			if x.Pos.Line != 3*i+1 {
				t.Fatalf("%s: overridden %d is line %d, want %d", spelling, i, x.Pos.Line, 3*i+1)
			}
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", spelling, d)
		}
	}
}

// TestOriginsBefore: a Set of the value the object had, over no other
// change, changed nothing; over another change it overrides that one.
func TestOriginsBefore(t *testing.T) {
	var before yaml.Node
	if err := yaml.Unmarshal([]byte("spec:\n  containers:\n  - {name: web, image: web:1}\n  replicas: 1\n"), &before); err != nil {
		t.Fatal(err)
	}
	str := func(s string) *yaml.Node { return tree.NewString(s) }
	changes := []Change{
		{Path: fieldpath.MustParse("spec.containers[name=web].name"), Op: Set, Value: str("web"), Pos: tree.Position{File: "a", Line: 1}},
		{Path: fieldpath.MustParse("spec.containers[name=web].image"), Op: Set, Value: str("web:2"), Pos: tree.Position{File: "a", Line: 2}},
		{Path: fieldpath.MustParse("spec.containers[name=web].image"), Op: Set, Value: str("web:1"), Pos: tree.Position{File: "b", Line: 1}},
	}
	var got []string
	for _, o := range Origins(changes, &before) {
		got = append(got, fmt.Sprintf("%s:%d %s %d", o.Pos.File, o.Pos.Line, o.Path, len(o.Overrode)))
	}
	// the name, as it was, is no origin; b's image, as it was too, is one:
	// it overrides a's
	want := "b:1 spec.containers[name=web].image 1"
	if strings.Join(got, "\n") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
