package kmerge

import (
	"errors"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/tree"
)

// TestPatchErrors: the errors of Patch carry data, not advice about flags:
// a kind without a schema is a *NoSchemaError naming it; an error of the
// patch is a *DocumentError whose position is the patch's.
func TestPatchErrors(t *testing.T) {
	widget := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n")
	_, err := Patch(widget, []byte("spec: {a: 1}\n"), PatchOptions{DocName: "w.yaml", PatchName: "p.yaml"})
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
	_, err = Patch([]byte("a: 1\n"), []byte("a: 1\n"), PatchOptions{})
	if !errors.As(err, &ns) || ns.Kind != "" || !strings.HasPrefix(err.Error(), "no schema: the document has no kind") {
		t.Errorf("no kind: %v", err)
	}

	deploy := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n")
	_, err = Patch(deploy, []byte("metadata:\n  $patch: merge\n"), PatchOptions{DocName: "d.yaml", PatchName: "p.yaml"})
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
