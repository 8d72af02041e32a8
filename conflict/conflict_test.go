package conflict

import (
	"strings"
	"testing"

	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

func at(line int) tree.Position { return tree.Position{File: "p", Line: line, Column: 1} }

func set(line int, path, v string) Effect {
	return Effect{Resource: "o", Path: path, Op: Set, Value: "string:" + v, Shown: v, Patch: "field", Pos: at(line)}
}

// TestFind: which pairs of effects conflict, and why.
func TestFind(t *testing.T) {
	del := func(line int, path string) Effect {
		return Effect{Resource: "o", Path: path, Op: Delete, Patch: "field", Pos: at(line)}
	}
	smp := func(line int, path string, op Op, v string) Effect {
		return Effect{Resource: "o", Path: path, Op: op, Value: "string:" + v, Shown: v, Patch: "strategic", Pos: at(line), From: at(100)}
	}
	for _, c := range []struct {
		name    string
		effects []Effect
		want    int
	}{
		{"one path, two values", []Effect{set(1, "a.b", "x"), set(2, "a.b", "y")}, 1},
		{"one path, one value twice", []Effect{set(1, "a.b", "x"), set(2, "a.b", "x")}, 0},
		{"different paths", []Effect{set(1, "a.b", "x"), set(2, "a.c", "y")}, 0},
		{"a delete against a set", []Effect{set(1, "a.b", "x"), del(2, "a.b")}, 1},
		{"two deletes agree", []Effect{del(1, "a.b"), del(2, "a.b")}, 0},
		{"a delete above a set", []Effect{del(1, "a"), set(2, "a.b", "x")}, 1},
		{"a set below a list item that is deleted", []Effect{del(1, "l[name=x]"), set(2, "l[name=x].v", "1")}, 1},
		{"a set of a sibling item", []Effect{del(1, "l[name=x]"), set(2, "l[name=y].v", "1")}, 0},
		{"a quoted key with dots is one field", []Effect{del(1, `m."a.b"`), set(2, `m."a.b".c`, "1"), set(3, `m."a"`, "1")}, 1},
		{"a strategic and a field patch on one path, same value", []Effect{smp(1, "a.b", Set, "x"), set(2, "a.b", "x")}, 1},
		{"a strategic patch's own effects", []Effect{smp(1, "a", Merge, ""), smp(2, "a", Set, "y"), smp(3, "a.b", Set, "x")}, 0},
		{"one fanned-out field patch", []Effect{set(1, "a.b", "x"), set(1, "a.b", "y")}, 0},
		{"two inserts into one list", []Effect{{Resource: "o", Path: "l", Op: Insert, Patch: "field", Pos: at(1)}, {Resource: "o", Path: "l", Op: Insert, Patch: "field", Pos: at(2)}}, 0},
		{"other objects", []Effect{set(1, "a", "x"), {Resource: "other", Path: "a", Op: Set, Value: "y", Patch: "field", Pos: at(2)}}, 0},
	} {
		if got := Find(c.effects); len(got) != c.want {
			t.Errorf("%s: %d conflicts, want %d: %v", c.name, len(got), c.want, got)
		}
	}
}

func TestConflictString(t *testing.T) {
	c := Find([]Effect{set(1, "spec.replicas", "2"), set(4, "spec.replicas", "3")})
	if len(c) != 1 {
		t.Fatal(c)
	}
	if got, want := c[0].String(), "o: p:1:1 (field patch) sets spec.replicas to 2, and p:4:1 (field patch) sets spec.replicas to 3"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestAncestors(t *testing.T) {
	for p, want := range map[string]string{
		"a.b[x].c":           "a.b[x] a.b a",
		`m."a.b".c`:          `m."a.b" m`,
		`l[name="x.y"].v`:    `l[name="x.y"] l`,
		"a":                  "",
		`l[name="a]b"][0].x`: `l[name="a]b"][0] l[name="a]b"] l`,
		`"q\"uote.d".x`:      `"q\"uote.d"`,
	} {
		if got := strings.Join(ancestors(p), " "); got != want {
			t.Errorf("ancestors(%s) = %s, want %s", p, got, want)
		}
	}
}

// TestPatchEffects: a strategic patch of a Deployment reduced to effects:
// containers merge by name (one effect per field of the named item), a
// $patch: delete item, a null, a list that is replaced (args), a list of
// scalars that merges (finalizers), $retainKeys.
func TestPatchEffects(t *testing.T) {
	patch := `
metadata:
  finalizers: [a]
  labels:
    gone: null
spec:
  strategy:
    $retainKeys: [type]
    type: Recreate
  template:
    spec:
      containers:
      - name: main
        image: x
        args: [--v]
      - name: old
        $patch: delete
`
	doc := nodetest.ReadDoc(t, patch)
	typ := schema.Builtin().Kind("apps/v1", "Deployment")
	var got []string
	for _, e := range PatchEffects(doc.Content[0], typ, true, "o", at(1)) {
		s := e.Op.String() + " " + e.Path
		if e.Op == Set {
			s += " = " + e.Shown
		}
		got = append(got, s+" @"+strings.TrimSuffix(e.Pos.String(), ": "))
	}
	want := []string{
		"merges into metadata.finalizers @p:3:3",
		"deletes metadata.labels.gone @p:5:5",
		"merges into spec.strategy @p:8:5",
		"sets spec.strategy.type = Recreate @p:9:5",
		"sets spec.template.spec.containers[name=main].name = main @p:13:9",
		"sets spec.template.spec.containers[name=main].image = x @p:14:9",
		`sets spec.template.spec.containers[name=main].args = ["--v"] @p:15:9`,
		"deletes spec.template.spec.containers[name=old] @p:17:17",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestJSONPatchEffects: JSON pointers become canonical paths, with list
// items named by their merge key as read from the object before the patch.
func TestJSONPatchEffects(t *testing.T) {
	doc := `
spec:
  template:
    spec:
      containers:
      - name: web
        image: a
        args: [x]
      - name: log
        image: b
`
	ops := `
- {op: replace, path: /spec/template/spec/containers/1/image, value: c}
- {op: add, path: /spec/template/spec/containers/0/args/-, value: y}
- {op: add, path: /spec/template/spec/containers/0, value: {name: new}}
- {op: remove, path: /spec/template/spec/containers/1}
- {op: move, from: /spec/template/spec/containers/0/image, path: /metadata/annotations/old-image}
- {op: copy, from: /spec/replicas, path: /metadata/annotations/n}
- {op: test, path: /kind, value: Deployment}
- {op: add, path: /metadata/annotations/a~1b, value: "1"}
`
	d, o := nodetest.ReadDoc(t, doc), nodetest.ReadDoc(t, ops)
	typ := schema.Builtin().Kind("apps/v1", "Deployment")
	var got []string
	for _, e := range JSONPatchEffects(d, o.Content[0], typ, "o", at(1)) {
		s := e.Op.String() + " " + e.Path
		if e.Op == Set {
			s += " = " + e.Shown
		}
		got = append(got, s+" @"+strings.TrimSuffix(e.Pos.String(), ": "))
	}
	want := []string{
		"sets spec.template.spec.containers[name=log].image = c @p:2:3",
		"inserts into spec.template.spec.containers[name=web].args @p:3:3",
		"inserts into spec.template.spec.containers @p:4:3",
		"deletes spec.template.spec.containers[name=log] @p:5:3",
		"deletes spec.template.spec.containers[name=web].image @p:6:3",
		"sets metadata.annotations.old-image = what was at spec.template.spec.containers[name=web].image @p:6:3",
		"sets metadata.annotations.n = a copy of spec.replicas @p:7:3",
		"sets metadata.annotations.a/b = 1 @p:9:3", // a slash needs no quotes in a path
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
