package kpatch

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
)

const identityManifests = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels: {app: api}
spec:
  replicas: 1
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: loadgenerator
spec:
  replicas: 1
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  size: 1
`

// applyText applies patches (a .kpatch text, then a YAML patch list) to
// identityManifests and returns what is written, and the conflicts.
func applyText(t *testing.T, kp, yl string) (string, []conflict.Conflict, error) {
	t.Helper()
	var patches []*syntax.Patch
	if yl != "" {
		ps, err := syntax.ParseYAML([]byte(yl), "p.yaml")
		if err != nil {
			t.Fatal(err)
		}
		patches = append(patches, ps...)
	}
	if kp != "" {
		ps, err := syntax.ParseKpatch([]byte(kp), "p.kpatch")
		if err != nil {
			t.Fatal(err)
		}
		patches = append(patches, ps...)
	}
	set, err := resource.Parse([]byte(identityManifests), "m.yaml", resource.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	set.Sources[0].Stream.Snapshot()
	rec := &conflict.Recorder{}
	res, err := Apply(context.Background(), set, patches, Options{Records: rec.Add})
	if err != nil {
		return "", nil, err
	}
	var b bytes.Buffer
	if err := set.Sources[0].Stream.WriteYAML(&b); err != nil {
		t.Fatal(err)
	}
	return b.String(), rec.Conflicts(res.Recorded), nil
}

// TestRename: a strategic patch with allowNameChange gives its target the
// name it holds; later patches pick the object by its new name and by its
// old one (krusty's TestPatchNewName and TestPatchOriginalName); without
// the option the patch's name, kind, apiVersion and namespace are not
// applied (what kustomize build v5.8.2 does: they name the target).
func TestRename(t *testing.T) {
	out, conflicts, err := applyText(t, "[deployment.backend]\nspec.minReadySeconds: 5\n\n[deployment.api]\nspec.paused: true\n",
		`- target: deployment.api
  type: strategic
  options: {allowNameChange: true}
  patch: {metadata: {name: backend}, spec: {replicas: 2}}
- target: {kind: Deployment, name: backend}
  type: json
  patch: [{op: add, path: /metadata/labels/renamed, value: "yes"}]
- target: deployment.loadgenerator
  type: strategic
  patch: {apiVersion: apps/v2, kind: StatefulSet, metadata: {name: other, namespace: elsewhere}, spec: {replicas: 3}}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: backend
  labels: {app: api, renamed: "yes"}
spec:
  replicas: 2
  minReadySeconds: 5
  paused: true
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: loadgenerator
spec:
  replicas: 3
---
`
	if !strings.HasPrefix(out, want) {
		t.Errorf("got:\n%s\nwant it to start with:\n%s", out, want)
	}
	if len(conflicts) != 0 {
		t.Errorf("conflicts: %v", conflicts)
	}
}

// TestRekind: after allowKindChange, the object is of its new kind: a later
// patch names that kind, and its shortcuts come from that kind's schema
// (serviceName is a field of a StatefulSet's spec, not a Deployment's).
// A field patch renames as it says, without an option.
func TestRekind(t *testing.T) {
	out, _, err := applyText(t, "[statefulset.api]\nserviceName: api\n\n[statefulset.api]\nmetadata.name: api-db\n\n[statefulset.api-db]\nreplicas: 4\n",
		`- target: deployment.api
  type: merge
  options: {allowKindChange: true}
  patch: {kind: StatefulSet}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: api-db\n  labels: {app: api}\nspec:\n  replicas: 4\n  serviceName: api\n---\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("got:\n%s\nwant it to start with:\n%s", out, want)
	}
}

// TestDeleteObject: a section of !delete under an object's header, and a
// strategic patch whose top level is $patch: delete (on a kind without a
// schema too: the object goes before any engine looks at the patch), take
// their objects out of the output. A patch to a deleted object conflicts
// with the delete, before it or after it.
func TestDeleteObject(t *testing.T) {
	out, conflicts, err := applyText(t, "[deployment.loadgenerator]\n!delete\n\n[deployment.loadgenerator]\nreplicas: 2\n",
		`- target: deployment.loadgenerator
  type: strategic
  patch: {spec: {minReadySeconds: 1}}
- target: widget.w
  type: strategic
  patch: {$patch: delete}
`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  labels: {app: api}\nspec:\n  replicas: 1\n"; out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	var got []string
	for _, c := range conflicts {
		got = append(got, c.String())
	}
	// the three meet at the object itself: one conflict of three sides
	// (package conflict gathers the changes that do not commute at one
	// place into one conflict), the strategic patch's by what it sets,
	// not by spec, which it merges into
	want := []string{
		"apps/v1 Deployment loadgenerator: p.yaml:3:18 (strategic patch) sets spec.minReadySeconds to 1, p.kpatch:1:1 (field patch) deletes the object, and p.kpatch:4:1 (field patch) needs the object to exist",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("conflicts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTwoRenames: two patches that give one object two names conflict; a
// rename to the identity of another object is an error at the patch.
func TestTwoRenames(t *testing.T) {
	_, conflicts, err := applyText(t, "[deployment.api]\nmetadata.name: one\n\n[deployment.api]\nmetadata.name: two\n", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(conflicts) != 1 || conflicts[0].String() != "apps/v1 Deployment api: p.kpatch:2:1 (field patch) sets metadata.name to one, and p.kpatch:5:1 (field patch) sets metadata.name to two" {
		t.Errorf("conflicts: %v", conflicts)
	}
	_, _, err = applyText(t, "[deployment.api]\nmetadata.name: loadgenerator\n", "")
	if want := "p.kpatch:1:1: apps/v1 Deployment api is renamed to apps/v1 Deployment loadgenerator, which apps/v1 Deployment loadgenerator (m.yaml:9:1) is too: two objects cannot have one identity"; err == nil || err.Error() != want {
		t.Errorf("a rename onto another object: %v\nwant %s", err, want)
	}
}

// TestLaterPatchesSeeLabels: whether a patch's label selector picks an
// object is decided on the object as the patches before it left it, as
// kustomize applies one patch after the other (kustomize build v5.8.2: a
// label added by a JSON patch makes a later labelSelector target pick the
// object).
func TestLaterPatchesSeeLabels(t *testing.T) {
	out, _, err := applyText(t, "[deployment.*{tier=x}]\nreplicas: 9\n",
		"- target: deployment.loadgenerator\n  type: strategic\n  patch: {metadata: {labels: {tier: x}}}\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "  name: loadgenerator\n  labels: {tier: x}\nspec:\n  replicas: 9\n") || !strings.Contains(out, "name: api\n  labels: {app: api}\nspec:\n  replicas: 1\n") {
		t.Errorf("got:\n%s", out)
	}
	// what the first patch did is recorded, though no other patch picked
	// the object before it applied: the two disagree on the replicas
	_, conflicts, err := applyText(t, "[deployment.*{tier=x}]\nreplicas: 9\n",
		"- target: deployment.loadgenerator\n  type: strategic\n  patch: {metadata: {labels: {tier: x}}, spec: {replicas: 5}}\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(conflicts) != 1 || conflicts[0].String() != "apps/v1 Deployment loadgenerator: p.yaml:3:49 (strategic patch) sets spec.replicas to 5, and p.kpatch:2:1 (field patch) sets spec.replicas to 9" {
		t.Errorf("conflicts: %v", conflicts)
	}
}
