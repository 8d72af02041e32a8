package kpatch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
)

// TestRunAnyOrder: patching the objects one by one with a Run, last object
// first and from several goroutines, gives what Apply gives: the same
// documents, and warnings, effects, trace and touched objects in the order
// of a sequential run (by patch, then by object).
func TestRunAnyOrder(t *testing.T) {
	src := `[deployment.web]
replicas: 3
[deployment.*.containers.name=main]
image: a:2
[deployment.nosuch]
replicas: 1
[svc.web.ports[port=80,protocol=TCP]]
name: web
[widget.w]
spec.parts[name=p].n: 2
[deployment.web.containers.name=side]
image: b:2
`
	patches, err := syntax.ParseKpatch([]byte(src), "p.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	yl, err := syntax.ParseYAML([]byte("- target: {kind: Deployment}\n  type: strategic\n  patch: {spec: {replicas: 5}}\n"), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	patches = append(patches, yl...)
	result := func(set *resource.Set, res *Result, rec *conflict.Recorder, trace *bytes.Buffer) string {
		var b strings.Builder
		if err := set.Sources[0].Stream.WriteYAML(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range res.Warnings {
			b.WriteString(w.String() + "\n")
		}
		for _, c := range rec.Conflicts(res.Recorded) {
			b.WriteString("conflict: " + c.String() + "\n")
		}
		for _, r := range res.Touched {
			b.WriteString("touched " + r.ID() + "\n")
		}
		b.Write(trace.Bytes())
		return b.String()
	}
	load := func() *resource.Set {
		set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(fuzzManifests), resource.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}

	set := load()
	var trace bytes.Buffer
	rec := &conflict.Recorder{}
	res, err := Apply(context.Background(), set, patches, Options{Trace: &trace, Records: rec.Add})
	if err != nil {
		t.Fatal(err)
	}
	want := result(set, res, rec, &trace)
	if !strings.Contains(want, "no object matches deployment.nosuch") || !strings.Contains(want, "-> a:2") || !strings.Contains(want, "replicas: 5") || !strings.Contains(want, "conflict: ") {
		t.Fatalf("the patches did not apply:\n%s", want)
	}

	set = load()
	trace.Reset()
	rec = &conflict.Recorder{}
	run := NewRun(patches, Options{Trace: &trace, Records: rec.Add})
	var done sync.WaitGroup
	for i := len(set.Resources) - 1; i >= 0; i-- {
		done.Add(1)
		go func() {
			defer done.Done()
			run.Patch(context.Background(), set.Resources[i])
		}()
	}
	done.Wait()
	res, err = run.Finish(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	if got := result(set, res, rec, &trace); got != want {
		t.Errorf("a Run, objects in reverse order:\n%s\nApply:\n%s", got, want)
	}
}

// TestRunChanges: with Options.Changes a run records what each patch
// changed in each object (Run.Changes); the records of an object's patches
// go to Options.Records when it is patched, so Done lets go of its
// changes, and Finish names the objects recorded (Result.Recorded).
func TestRunChanges(t *testing.T) {
	set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n"), resource.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	patches, err := syntax.ParseKpatch([]byte("[configmap.a]\ndata.x: \"1\"\n\n[configmap.b]\ndata.x: \"2\"\n\n[configmap.b]\ndata.x: \"3\"\n"), "p.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	rec := &conflict.Recorder{}
	run := NewRun(patches, Options{Changes: true, Records: rec.Add})
	a, b := set.Resources[0], set.Resources[1]
	run.Patch(context.Background(), a)
	run.Patch(context.Background(), b)
	if got := (&change.Log{Changes: run.Changes(a)}).String(); !strings.Contains(got, "p.kpatch:2:1: sets data.x to 1") {
		t.Errorf("changes of a:\n%s", got)
	}
	if len(run.Changes(b)) != 3 {
		t.Errorf("%d changes of b, want the first patch's creation of data and the two patches' sets", len(run.Changes(b)))
	}
	run.Done(a)
	run.Done(b)
	if len(run.Changes(a)) != 0 || len(run.Changes(b)) != 0 {
		t.Errorf("after Done: %d changes of a, %d of b", len(run.Changes(a)), len(run.Changes(b)))
	}
	res, err := run.Finish(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	cs := rec.Conflicts(res.Recorded)
	if len(cs) != 1 || cs[0].String() != "v1 ConfigMap b: p.kpatch:5:1 (field patch) sets data.x to 2, and p.kpatch:8:1 (field patch) sets data.x to 3" {
		t.Errorf("conflicts: %v", cs)
	}
}

// TestVariableExpansionLimit: Options.MaxExpanded bounds what variables add
// to the values of one patch file, each use counting the bytes of its value
// once (not once per object it applies to): a limit of exactly that
// applies, one byte less applies nothing and fails at the use that crosses
// it, with Limit "expanded"; each patch file has its own count.
func TestVariableExpansionLimit(t *testing.T) {
	vars := NewVars()
	if err := vars.Set("v=abcd"); err != nil { // 4 bytes
		t.Fatal(err)
	}
	field, err := syntax.ParseKpatch([]byte("[deployment.*]\nmetadata.labels.a: ${values.v}\nmetadata.labels.b: x-${values.v}-${values.v}\n"), "p.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := syntax.ParseYAML([]byte("- target: {kind: Deployment}\n  type: merge\n  patch: {metadata: {annotations: {c: '${values.v}'}}}\n"), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		patches []*syntax.Patch
		max     int
		at      string // the error's position, "" for none
	}{
		{patches: field, max: 12},
		{patches: field, max: 11, at: "p.kpatch:3:34: "},
		{patches: field, max: 7, at: "p.kpatch:3:22: "},
		{patches: field, max: 3, at: "p.kpatch:2:20: "},
		{patches: doc, max: 4},
		{patches: doc, max: 3, at: "s.yaml:3:39: "}, // the scalar's position, as an undefined variable's
		// two files, 12 and 4 bytes: each within 12
		{patches: append(append([]*syntax.Patch{}, field...), doc...), max: 12},
		{patches: nil, max: 1},
	} {
		set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(fuzzManifests), resource.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Apply(context.Background(), set, c.patches, Options{Vars: vars, MaxExpanded: c.max})
		var ke *syntax.Error
		switch {
		case c.at == "" && err != nil:
			t.Errorf("limit %d: %v", c.max, err)
		case c.at == "":
			if len(c.patches) > 0 && len(res.Touched) == 0 {
				t.Errorf("limit %d: nothing patched", c.max)
			}
		case !errors.As(err, &ke) || ke.Limit != "expanded" || ke.Pos.String() != c.at:
			t.Errorf("limit %d: %v, want an \"expanded\" limit error at %s", c.max, err, c.at)
		}
		var out bytes.Buffer
		if err := set.Sources[0].Stream.WriteYAML(&out); err != nil {
			t.Fatal(err)
		}
		if c.at != "" && strings.Contains(out.String(), "abcd") {
			t.Errorf("limit %d: an object was patched before the error", c.max)
		}
	}
}

// stopAfter is a context that is done once its Err has said nil n times:
// it stops a run at a known check.
type stopAfter struct {
	context.Context
	mu sync.Mutex
	n  int
}

func (c *stopAfter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// TestRunCancelled: Patch checks its context before each patch; once the
// context is done it applies no more, and Finish returns the context's
// error naming the patch and the object it stopped before. Here the
// check before the first patch of web says nil and the one before its
// second says done: web has its replicas, not its image, and Finish says
// where. Load stops before the first file not read.
func TestRunCancelled(t *testing.T) {
	patches, err := syntax.ParseKpatch([]byte("[deployment.web]\nreplicas: 3\n[deployment.web.containers.name=main]\nimage: a:2\n"), "p.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	set, err := resource.Parse([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - {name: main, image: a:1}\n"), "d.yaml", resource.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	run := NewRun(patches, Options{})
	ctx := &stopAfter{Context: context.Background(), n: 1}
	if !run.Patch(ctx, set.Resources[0]) {
		t.Errorf("the first patch did not touch web")
	}
	var b strings.Builder
	if err := set.Sources[0].Stream.WriteYAML(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "replicas: 3") || strings.Contains(b.String(), "a:2") {
		t.Errorf("web, after the first patch only:\n%s", b.String())
	}
	res, err := run.Finish(context.Background(), set)
	if want := "p.kpatch:3:1: stopped before patching apps/v1 Deployment web: context canceled"; res != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("Finish: %v, %v; want %q", res, err, want)
	}

	ctx2, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Apply(ctx2, set, patches, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Apply with a cancelled context: %v", err)
	}
	dir := t.TempDir() // a folder of patch files
	if err := os.WriteFile(filepath.Join(dir, "p.kpatch"), []byte("[deployment.web]\nreplicas: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(ctx2, []string{dir}, LoadOptions{}); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "stopped before reading "+dir) {
		t.Errorf("Load with a cancelled context: %v", err)
	}
}
