package syntax

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports: the syntax is a leaf tools can use without the engines that
// apply patches or the objects they apply to: nothing it imports, directly
// or through another package (go list -deps: the transitive set), is
// package kpatch, an engine, schemas, resources, validation or conflicts.
// What picks objects is package resource's (resource.TargetSelector turns a
// Target into a resource.Selector); what both read, label selectors and
// kustomize's regular expressions, is internal/match, a leaf.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 2 {
		t.Fatalf("go list -deps lists %q, not the package and its imports", deps)
	}
	for _, path := range deps {
		switch strings.TrimPrefix(path, "github.com/kmerge/kmerge/") {
		case "kpatch", "smp", "mergepatch", "jsonpatch", "schema", "resource", "validate", "conflict":
			t.Errorf("the syntax imports %s", path)
		}
	}
}
