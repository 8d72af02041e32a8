package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedTableIsCurrent fails when schema/zz_generated_builtin.go is
// not what the generator writes from the k8s.io/api version in go.mod: run
// go generate ./schema after changing the generator or the version.
func TestGeneratedTableIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../schema/zz_generated_builtin.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("schema/zz_generated_builtin.go is stale (%d bytes, generator gives %d): run go generate ./schema", len(got), len(want))
	}
}
