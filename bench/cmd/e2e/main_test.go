package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/util/strategicpatch"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kmerge/kmerge/bench"
	"github.com/kmerge/kmerge/bench/corpus"
)

// TestGenerateApplyCompare generates a small end-to-end input, applies it
// with the kmerge command, and checks the output against upstream's
// strategic merge patch of each case (kustomize is not run here; run.sh
// does that).
func TestGenerateApplyCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kmerge command")
	}
	dir := t.TempDir()
	if err := gen([]string{"-n", "30", "-corpus", "mixed", dir}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"kustomization.yaml", "manifests/app-00000.yaml", "patches/svc-00004.yaml", "smp/config-00009.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	if err := floor([]string{dir}); err != nil {
		t.Fatalf("the yaml.v3 floor on the generated manifests: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "kmerge")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/kmerge/kmerge/cmd/kmerge").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	cmd := exec.Command(bin, "apply", "-f", "manifests", "-p", "patches")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	// what upstream makes of each case, as a YAML stream
	var want bytes.Buffer
	for _, c := range corpus.Mixed(30) {
		res, err := strategicpatch.StrategicMergePatch(c.DocJSON(), c.PatchJSON(), bench.UpstreamStruct(c.Kind))
		if err != nil {
			t.Fatal(err)
		}
		y, err := sigsyaml.JSONToYAML(res)
		if err != nil {
			t.Fatal(err)
		}
		want.WriteString("---\n")
		want.Write(y)
	}
	files := t.TempDir()
	kmOut, upOut := filepath.Join(files, "kmerge.yaml"), filepath.Join(files, "upstream.yaml")
	os.WriteFile(kmOut, got, 0o644)
	os.WriteFile(upOut, want.Bytes(), 0o644)
	a, err := objects(kmOut)
	if err != nil {
		t.Fatal(err)
	}
	b, err := objects(upOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 30 || len(b) != 30 {
		t.Fatalf("%d and %d objects, want 30", len(a), len(b))
	}
	for id, x := range a {
		xj, _ := json.Marshal(x)
		yj, _ := json.Marshal(b[id])
		if string(xj) != string(yj) {
			t.Fatalf("%s: kmerge apply gives\n%s\nupstream\n%s", id, xj, yj)
		}
	}
	// compare accepts identical outputs
	if err := compare([]string{kmOut, upOut}); err != nil {
		t.Fatal(err)
	}
}
