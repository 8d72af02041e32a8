package kpatch

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
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
	patches, err := ParseKpatch([]byte(src), "p.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	yl, err := ParseYAML([]byte("- target: {kind: Deployment}\n  type: strategic\n  patch: {spec: {replicas: 5}}\n"), "s.yaml")
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
		for _, r := range rec.Records() {
			fmt.Fprintf(&b, "%s %s %s:\n%s", r.Object, r.Patch, r.Pos, (&change.Log{Changes: r.Changes}).String())
		}
		for _, r := range res.Touched {
			b.WriteString("touched " + r.ID() + "\n")
		}
		b.Write(trace.Bytes())
		return b.String()
	}
	load := func() *resource.Set {
		set, err := resource.Load([]string{"-"}, strings.NewReader(fuzzManifests), resource.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}

	set := load()
	var trace bytes.Buffer
	rec := &conflict.Recorder{}
	res, err := Apply(set, patches, Options{Trace: &trace, Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	want := result(set, res, rec, &trace)
	if !strings.Contains(want, "no object matches deployment.nosuch") || !strings.Contains(want, "-> a:2") || !strings.Contains(want, "replicas: 5") {
		t.Fatalf("the patches did not apply:\n%s", want)
	}

	set = load()
	trace.Reset()
	rec = &conflict.Recorder{}
	run := NewRun(patches, Options{Trace: &trace, Record: rec})
	var done sync.WaitGroup
	for i := len(set.Resources) - 1; i >= 0; i-- {
		done.Add(1)
		go func() {
			defer done.Done()
			run.Patch(set.Resources[i])
		}()
	}
	done.Wait()
	res, err = run.Finish(set)
	if err != nil {
		t.Fatal(err)
	}
	if got := result(set, res, rec, &trace); got != want {
		t.Errorf("a Run, objects in reverse order:\n%s\nApply:\n%s", got, want)
	}
}
