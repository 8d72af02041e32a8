package validate_test

import (
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

func TestAttribute(t *testing.T) {
	at := func(line int) tree.Position { return tree.Position{File: "p.yaml", Line: line, Column: 1} }
	change := func(path string, line int, whole bool) validate.Change {
		return validate.Change{Path: fieldpath.MustParse(path), Pos: at(line), Whole: whole}
	}
	violation := func(path string, r validate.Reason) validate.Violation {
		return validate.Violation{Path: fieldpath.MustParse(path), Reason: r}
	}
	inputNode := &yaml.Node{Line: 7, Column: 3}
	for _, c := range []struct {
		name      string
		v         validate.Violation
		changes   []validate.Change
		before    []validate.Violation
		wantPatch tree.Position
		wantInput bool
	}{
		{name: "a change at the path wrote the value",
			v: violation("spec.replicas", validate.ReasonType), changes: []validate.Change{change("spec.replicas", 3, true)}, wantPatch: at(3)},
		{name: "a change at the path wins over the input's having it too: the patch wrote it again",
			v: violation("spec.replicas", validate.ReasonType), changes: []validate.Change{change("spec.replicas", 3, true)},
			before: []validate.Violation{violation("spec.replicas", validate.ReasonType)}, wantPatch: at(3)},
		{name: "a delete above a missing name",
			v: violation("metadata.name", validate.ReasonRequired), changes: []validate.Change{change("metadata", 2, true)}, wantPatch: at(2)},
		{name: "the input had it and a patch merged next to it: the input's",
			v: violation("spec.foo", validate.ReasonUnknownField), changes: []validate.Change{change("spec", 2, false), change("spec.replicas", 3, true)},
			before: []validate.Violation{{Path: fieldpath.MustParse("spec.foo"), Reason: validate.ReasonUnknownField, Node: inputNode}}, wantInput: true},
		{name: "the same path for another reason is not the input's",
			v: violation("spec.foo", validate.ReasonType), changes: []validate.Change{change("spec", 2, false)},
			before: []validate.Violation{violation("spec.foo", validate.ReasonUnknownField)}, wantPatch: at(2)},
		{name: "merging into what holds it",
			v: violation("spec.template.spec.containers[name=a].image", validate.ReasonType), changes: []validate.Change{change("spec.template.spec.containers", 4, false)}, wantPatch: at(4)},
		{name: "a field added below turned an object into something else",
			v: violation("spec.template.spec.containers", validate.ReasonType), changes: []validate.Change{change("spec.replicas", 2, true), change("spec.template.spec.containers.name", 5, true), change("spec.template.spec.containers.image", 6, true)}, wantPatch: at(5)},
		{name: "the nearest change above, and the last of equally near ones",
			v: violation("a.b.c", validate.ReasonType), changes: []validate.Change{change("a", 1, true), change("a.b", 2, true), change("a.b", 3, true), change("x", 4, true)}, wantPatch: at(3)},
		{name: "nothing says: neither patch nor input",
			v: violation("a.b", validate.ReasonType), changes: []validate.Change{change("x", 1, true)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			vs := []validate.Violation{c.v}
			validate.Attribute(vs, c.changes, c.before)
			if vs[0].Patch != c.wantPatch || vs[0].Input != c.wantInput {
				t.Errorf("patch %v input %v, want %v %v", vs[0].Patch, vs[0].Input, c.wantPatch, c.wantInput)
			}
			if c.wantInput && (vs[0].Line != 7 || vs[0].Column != 3) {
				t.Errorf("input position %d:%d, want 7:3", vs[0].Line, vs[0].Column)
			}
		})
	}
}

func TestErrorMessages(t *testing.T) {
	v := validate.Violation{Path: fieldpath.MustParse("spec.replicas"), Reason: validate.ReasonType, Want: "integer/int32", Found: "an object"}
	patched := &validate.Error{File: "d.yaml", Object: "apps/v1 Deployment web", Violation: v}
	patched.Patch = tree.Position{File: "p.yaml", Line: 2, Column: 3}
	if got, want := patched.Error(), "p.yaml:2:3: spec.replicas: expected integer/int32, found an object\n  while patching d.yaml, apps/v1 Deployment web"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	input := &validate.Error{File: "d.yaml", Object: "apps/v1 Deployment web", Violation: v}
	input.Input, input.Line, input.Column = true, 7, 13
	if got, want := input.Error(), "d.yaml:7:13: spec.replicas: expected integer/int32, found an object\n  in d.yaml, apps/v1 Deployment web: the input has it already (no patch wrote it)"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	unknown := &validate.Error{File: "d.yaml", Violation: v}
	if got, want := unknown.Error(), "d.yaml: spec.replicas: expected integer/int32, found an object\n  while patching d.yaml (a patch wrote it; kmerge cannot tell which)"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
