package kmerge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// TestPatchErrors: the errors of Patch carry data, not advice about flags:
// a kind without a schema is a *NoSchemaError naming it; an error of the
// patch is a *DocumentError whose position is the patch's.
func TestPatchErrors(t *testing.T) {
	widget := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n")
	_, err := Patch(context.Background(), widget, []byte("spec: {a: 1}\n"), PatchOptions{DocName: "w.yaml", PatchName: "p.yaml"})
	var ns *NoSchemaError
	if !errors.As(err, &ns) || ns.APIVersion != "example.com/v1" || ns.Kind != "Widget" || !errors.Is(err, ErrNoSchema) {
		t.Fatalf("%v (%T)", err, err)
	}
	if got, want := err.Error(), "no schema for example.com/v1 Widget\n  while patching w.yaml, example.com/v1 Widget w"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if _, ok := tree.ErrorPosition(err); ok {
		t.Errorf("a position for an error about the document's kind")
	}
	_, err = Patch(context.Background(), []byte("a: 1\n"), []byte("a: 1\n"), PatchOptions{})
	if !errors.As(err, &ns) || ns.Kind != "" || !strings.HasPrefix(err.Error(), "no schema: the document has no kind") {
		t.Errorf("no kind: %v", err)
	}

	deploy := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n")
	_, err = Patch(context.Background(), deploy, []byte("metadata:\n  $patch: merge\n"), PatchOptions{DocName: "d.yaml", PatchName: "p.yaml"})
	var de *DocumentError
	if !errors.As(err, &de) {
		t.Fatalf("%v (%T)", err, err)
	}
	if pos, ok := tree.ErrorPosition(err); !ok || pos != (tree.Position{File: "p.yaml", Line: 2, Column: 11}) {
		t.Errorf("position %v", pos)
	}
	if got, want := err.Error(), "p.yaml:2:11: metadata: unknown patch type: \"merge\" in map; $patch of an object is replace or delete\n  while patching d.yaml, apps/v1 Deployment web"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestPatchFallbackDirectives: with Fallback, a strategic patch on a kind
// without a schema is applied as a JSON merge patch, and its directives
// never reach the result: a {$patch: replace} list item (the list is
// replaced anyway) is dropped; a directive a merge patch cannot honour is
// an *smp.Error naming it, with the path and the patch position, and
// nothing is written (smp/testdata/fallback/cases.yaml has every
// directive).
func TestPatchFallbackDirectives(t *testing.T) {
	widget := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  items:\n  - name: a\n  - name: b\n")
	opts := PatchOptions{Fallback: true, DocName: "w.yaml", PatchName: "p.yaml"}
	out, err := Patch(context.Background(), widget, []byte("spec:\n  items:\n  - $patch: replace\n  - name: c\n"), opts)
	if want := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  items:\n  - name: c\n"; err != nil || string(out) != want {
		t.Errorf("replace item: %v\n%s\nwant\n%s", err, out, want)
	}
	for _, c := range []struct{ patch, directive, path string }{
		{"spec:\n  items:\n  - name: a\n    $patch: delete\n", "$patch: delete", "spec.items[0]"},
		{"$patch: delete\n", "$patch: delete", ""},
		{"spec:\n  $retainKeys: [items]\n", "$retainKeys", "spec"},
	} {
		out, err := Patch(context.Background(), widget, []byte(c.patch), opts)
		var se *smp.Error
		if !errors.As(err, &se) || se.Reason != smp.ReasonNoSchema || se.Directive != c.directive || se.Path.String() != c.path || out != nil {
			t.Errorf("%q: %v (%T), output %q", c.patch, err, err, out)
			continue
		}
		if pos, ok := tree.ErrorPosition(err); !ok || pos.File != "p.yaml" || pos.Line == 0 {
			t.Errorf("%q: position %v", c.patch, pos)
		}
	}
}

// TestPatchListItems: the items of a List document are the objects, as
// kubectl reads them: each gets the patch (the List does not), and an
// error in one names the item (DocumentError.Item).
func TestPatchListItems(t *testing.T) {
	list := []byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}, data: {x: \"1\"}}\n")
	out, err := Patch(context.Background(), list, []byte(`{"data":{"z":"2"}}`), PatchOptions{})
	want := "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {z: \"2\"}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}, data: {x: \"1\", z: \"2\"}}\n"
	if err != nil || string(out) != want {
		t.Errorf("%v\n%s\nwant\n%s", err, out, want)
	}
	_, err = Patch(context.Background(), list, []byte(`[{"op": "remove", "path": "/data/x"}]`), PatchOptions{Type: JSON, DocName: "l.yaml"})
	var de *DocumentError
	if !errors.As(err, &de) || de.Item != 0 || de.Object != "v1 ConfigMap a" ||
		!strings.Contains(err.Error(), "while patching l.yaml, items[0], v1 ConfigMap a") {
		t.Errorf("%v", err)
	}
	_, err = Patch(context.Background(), []byte("kind: RoleList\nitems: {a: 1}\n"), []byte(`{"a":1}`), PatchOptions{DocName: "l.yaml"})
	if err == nil || !strings.HasPrefix(err.Error(), "l.yaml:2:8: the items of a RoleList must be a list") {
		t.Errorf("items not a list: %v", err)
	}
}
