package kmerge

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
)

// stopAfter is a context that is done once its Err has said nil n times:
// it stops a call at a known step (the n+1th check), where a real
// cancellation comes at any time. Only Err is consulted by the calls
// tested here.
type stopAfter struct {
	context.Context
	mu sync.Mutex
	n  int
}

func after(n int) *stopAfter { return &stopAfter{Context: context.Background(), n: n} }

func (c *stopAfter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// TestCancelledCalls: a call whose context is done before it starts
// returns context.Canceled, wrapped with where it stopped, and nothing
// else; its inputs are as they were.
func TestCancelledCalls(t *testing.T) {
	deploy := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1}\n")
	patch := []byte("spec: {replicas: 2}\n")
	keep := func(b []byte) []byte { return append([]byte(nil), b...) }
	deploy0, patch0 := keep(deploy), keep(patch)

	out, err := Patch(cancelled(), deploy, patch, PatchOptions{DocName: "d.yaml"})
	if want := "d.yaml: stopped before document 1 of 1: context canceled"; out != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("Patch: %q, %v; want nothing and %q", out, err, want)
	}
	out, err = Diff(cancelled(), deploy, []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 3}\n"), DiffOptions{})
	if want := "apps/v1 Deployment web: stopped before diffing it: context canceled"; out != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("Diff: %q, %v; want nothing and %q", out, err, want)
	}
	if !bytes.Equal(deploy, deploy0) || !bytes.Equal(patch, patch0) {
		t.Errorf("the inputs changed")
	}

	set, err := resource.Parse(deploy, "d.yaml", resource.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	patches, err := kpatch.Parse([]byte("[deployment.web]\nreplicas: 5\n"), "p.kpatch", kpatch.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ApplyPatches(cancelled(), set, patches, ApplyPatchesOptions{})
	if want := "stopped before patching d.yaml: context canceled"; res != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("ApplyPatches: %v, %v; want nothing and %q", res, err, want)
	}
	var b bytes.Buffer
	if err := set.Sources[0].Stream.WriteYAML(&b); err != nil || b.String() != string(deploy) {
		t.Errorf("ApplyPatches cut short before it started changed the set: %q, %v", b.String(), err)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "d.yaml"), deploy, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.kpatch"), []byte("[deployment.web]\nreplicas: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ares, err := Apply(cancelled(), ApplyOptions{Manifests: []string{filepath.Join(dir, "d.yaml")}, Patches: []string{filepath.Join(dir, "p.kpatch")}})
	if want := "stopped before reading " + filepath.Join(dir, "p.kpatch") + ": context canceled"; ares != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("Apply: %v, %v; want nothing and %q", ares, err, want)
	}
}

// TestCancelledPartway: a context done after some steps stops the call at
// the next step: Patch before the next document (the second of three
// here: the check before the first said nil), Diff before the next pair
// of documents.
func TestCancelledPartway(t *testing.T) {
	stream := []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")
	out, err := Patch(after(1), stream, []byte("data: {k: v}\n"), PatchOptions{DocName: "s.yaml"})
	if want := "s.yaml: stopped before document 2 of 3: context canceled"; out != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("Patch: %q, %v; want nothing and %q", out, err, want)
	}
	modified := bytes.ReplaceAll(stream, []byte("{name: b}"), []byte("{name: b, labels: {x: y}}"))
	out, err = Diff(after(1), stream, modified, DiffOptions{})
	if want := "v1 ConfigMap b: stopped before diffing it: context canceled"; out != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("Diff: %q, %v; want nothing and %q", out, err, want)
	}
}

// TestApplyCancelledAnywhere stops Apply at each of its checks in turn,
// on the corpus of TestApplyDeterministic, with one worker and with
// several: every run either stops with context.Canceled, a message that
// says where ("stopped before ..." or "stopped after reading ...") and no
// result, or completes (once the context has said nil to every check) with
// the result of a run that was never cancelled. The manifests and patch
// files are never written.
func TestApplyCancelledAnywhere(t *testing.T) {
	base, patches := writeCorpus(t, 30)
	before := readTree(t, filepath.Dir(base))
	opts := func(workers int) ApplyOptions {
		return ApplyOptions{Manifests: []string{base}, Patches: []string{patches}, ApplyPatchesOptions: ApplyPatchesOptions{Vars: kpatch.NewVars(), Workers: workers}}
	}
	ref, err := Apply(context.Background(), opts(1))
	if err != nil {
		t.Fatal(err)
	}
	want := string(ref.Stream())
	for _, workers := range []int{1, 3} {
		stops := 0
		for n := 0; ; n++ {
			res, err := Apply(after(n), opts(workers))
			if err == nil {
				if got := string(res.Stream()); got != want {
					t.Fatalf("workers %d, %d checks: the output differs from an uncancelled run's", workers, n)
				}
				break
			}
			stops++
			if res != nil || !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped ") {
				t.Fatalf("workers %d, stopped after %d checks: %v, %v", workers, n, res, err)
			}
			if n > 10000 {
				t.Fatal("Apply never completes")
			}
		}
		if stops < 30 {
			t.Errorf("workers %d: Apply checked its context %d times on 3 files, 2 patch files and 30 objects", workers, stops)
		}
	}
	if after := readTree(t, filepath.Dir(base)); !equalTrees(before, after) {
		t.Errorf("the inputs changed")
	}
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
