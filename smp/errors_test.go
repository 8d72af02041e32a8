package smp_test

import (
	"errors"
	"testing"

	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// TestErrorShape: a rejected patch is an *smp.Error whose message starts
// with its position (the patch's name from Options.File, the line and
// column of the value at fault), then the path in the document, with list
// items named by their merge key, and the reason.
func TestErrorShape(t *testing.T) {
	live := nodetest.ReadDoc(t, "spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources: {}\n")
	patch := nodetest.ReadDoc(t, "spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        resources: {$patch: merge}\n")
	typ := schema.Builtin().Kind("apps/v1", "Deployment")
	_, err := smp.Apply(live, patch, typ, smp.Options{File: "p.yaml"})
	var e *smp.Error
	if !errors.As(err, &e) {
		t.Fatalf("%v (%T)", err, err)
	}
	if got, want := e.Path.String(), "spec.template.spec.containers[name=web].resources"; got != want {
		t.Errorf("path %s, want %s", got, want)
	}
	if pos, ok := tree.ErrorPosition(err); !ok || pos != (tree.Position{File: "p.yaml", Line: 6, Column: 29}) {
		t.Errorf("position %v", pos)
	}
	if got, want := err.Error(), `p.yaml:6:29: spec.template.spec.containers[name=web].resources: `+e.Msg; got != want {
		t.Errorf("message\n got %s\nwant %s", got, want)
	}
	if e.Reason != smp.ReasonDirective {
		t.Errorf("reason %s", e.Reason)
	}
}
