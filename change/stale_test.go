package change

import (
	"fmt"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// TestStales: the patches that look stale on an object as read (issue 27
// item 9), worked out by hand from Stales' documentation. Each change is
// "patch@line op path [value]"; the object as read has two containers,
// web (image, ports) and metrics (image), and replicas 2.
func TestStales(t *testing.T) {
	var before yaml.Node
	if err := yaml.Unmarshal([]byte("spec:\n  replicas: 2\n  containers:\n  - {name: web, image: web:1, ports: [{containerPort: 80}]}\n  - {name: metrics, image: m:1}\n"), &before); err != nil {
		t.Fatal(err)
	}
	parse := func(s string) Change {
		f := strings.Fields(s)
		file, line, _ := strings.Cut(f[0], "@")
		var n int
		fmt.Sscan(line, &n)
		ops := map[string]Op{"set": Set, "create": Create, "delete": Delete, "insert": Insert, "merge": Merge}
		c := Change{Op: ops[f[1]], Path: fieldpath.MustParse(f[2]), Pos: tree.Position{File: file, Line: n}}
		if len(f) > 3 {
			v := yaml.Node{}
			if err := yaml.Unmarshal([]byte(f[3]), &v); err != nil {
				t.Fatal(err)
			}
			c.Value = tree.Root(&v)
		}
		return c
	}
	for _, c := range []struct {
		name    string
		changes []string
		want    []string // "patch@line kind writes missing items"
	}{
		{"a set of the value the object has: no change",
			[]string{"a@1 set spec.replicas 2"}, []string{"a@1 nochange spec.replicas"}},
		{"a set of another value: none",
			[]string{"a@1 set spec.replicas 3"}, nil},
		{"a patch with one change and one no-op changes something: none",
			[]string{"a@1 set spec.replicas 2", "a@1 set spec.paused true"}, nil},
		{"a no-op over another patch's change writes what that one replaced: none",
			[]string{"a@1 set spec.replicas 3", "b@2 set spec.replicas 2"}, nil},
		{"a no-op after another no-op: both change nothing",
			[]string{"a@1 set spec.replicas 2", "b@2 set spec.replicas 2"}, []string{"a@1 nochange spec.replicas", "b@2 nochange spec.replicas"}},
		{"a strategic patch merging into what exists, setting what it has: no change",
			[]string{"s@1 create spec {}", "s@1 create spec.containers[name=web] {}", "s@1 set spec.containers[name=web].name web", "s@1 set spec.containers[name=web].image web:1"},
			[]string{"s@1 nochange spec.containers[name=web].name,spec.containers[name=web].image"}},
		{"a new item without image, which every item has: new item (the renamed container)",
			[]string{"s@1 create spec.containers[name=frontend] {}", "s@1 set spec.containers[name=frontend].name frontend", "s@1 set spec.containers[name=frontend].resources {}"},
			[]string{"s@1 newitem spec.containers[name=frontend] image web,metrics"}},
		{"a new item with every common field (a sidecar added): none",
			[]string{"s@1 create spec.containers[name=proxy] {}", "s@1 set spec.containers[name=proxy].name proxy", "s@1 set spec.containers[name=proxy].image p:1"},
			nil},
		{"a new item whose image another patch writes: it is the other patch's to complete, still a new item of this one",
			[]string{"s@1 create spec.containers[name=proxy] {}", "t@2 set spec.containers[name=proxy].image p:1"},
			[]string{"s@1 newitem spec.containers[name=proxy] image web,metrics"}},
		{"a delete: a change",
			[]string{"a@1 delete spec.replicas"}, nil},
	} {
		var changes []Change
		for _, s := range c.changes {
			changes = append(changes, parse(s))
		}
		var got []string
		for _, st := range Stales(changes, tree.Root(&before)) {
			var w []string
			for _, p := range st.Writes {
				w = append(w, p.String())
			}
			kind := map[StaleKind]string{NoChange: "nochange", NewItem: "newitem"}[st.Kind]
			line := fmt.Sprintf("%s@%d %s %s", st.Pos.File, st.Pos.Line, kind, strings.Join(w, ","))
			if st.Kind == NewItem {
				line += " " + strings.Join(st.Missing, ",") + " " + strings.Join(st.Items, ",")
			}
			got = append(got, line)
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\ngot  %q\nwant %q", c.name, got, c.want)
		}
	}
	if Stales([]Change{parse("a@1 set spec.replicas 2")}, nil) != nil {
		t.Error("stales found with the object as read unknown")
	}
}
