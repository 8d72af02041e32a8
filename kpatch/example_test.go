package kpatch_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
)

const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web   # the storefront
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: web
        image: shop/web:1.0
`

const patchText = `[deployment.web]
replicas: ${values.replicas}

[deployment.web.containers.name=web]
image: shop/web:${values.version}
`

// Apply a .kpatch file to manifests read from a reader, and write them
// back: only the changed lines differ.
func ExampleApply() {
	set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(manifest), resource.LoadOptions{})
	if err != nil {
		panic(err)
	}
	patches, err := syntax.ParseKpatch([]byte(patchText), "overrides.kpatch")
	if err != nil {
		panic(err)
	}
	vars := kpatch.NewVars()
	if err := vars.LoadValues([]byte("replicas: 3\nversion: \"1.1\"\n"), "values.yaml"); err != nil {
		panic(err)
	}
	for _, src := range set.Sources {
		src.Stream.Snapshot() // keep the text of what the patches do not change
	}
	if _, err := kpatch.Apply(context.Background(), set, patches, kpatch.Options{Vars: vars}); err != nil {
		panic(err)
	}
	set.Sources[0].Stream.WriteYAML(os.Stdout)
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   name: web   # the storefront
	// spec:
	//   replicas: 3
	//   template:
	//     spec:
	//       containers:
	//       - name: web
	//         image: shop/web:1.1
}

// Patch each file as soon as it is read and write it out at once, holding
// only the files in flight (what kmerge.Apply does); Finish, once all are
// read, reports what depends on the whole set.
func ExampleRun() {
	patches, err := syntax.ParseKpatch([]byte("[deployment.web]\nreplicas: 3\n[deployment.api]\nreplicas: 2\n"), "p.kpatch")
	if err != nil {
		panic(err)
	}
	ctx := context.Background() // a caller that may stop the run gives its own
	run := kpatch.NewRun(patches, kpatch.Options{})
	var mu sync.Mutex
	out := map[*resource.Source]string{}
	set, err := resource.Stream(ctx, []string{"-"}, strings.NewReader(manifest), resource.LoadOptions{},
		func(src *resource.Source, objs []*resource.Resource) {
			src.Stream.Snapshot()
			for _, r := range objs {
				run.Patch(ctx, r)
			}
			var b strings.Builder
			src.Stream.WriteYAML(&b)
			src.Release(objs)
			mu.Lock()
			out[src] = b.String()
			mu.Unlock()
		})

	if err != nil {
		panic(err)
	}
	res, err := run.Finish(ctx, set)
	if err != nil {
		panic(err)
	}
	fmt.Print(out[set.Sources[0]])
	for _, w := range res.Warnings {
		fmt.Println(w)
	}
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   name: web   # the storefront
	// spec:
	//   replicas: 3
	//   template:
	//     spec:
	//       containers:
	//       - name: web
	//         image: shop/web:1.0
	// p.kpatch:3:1: warning: no object matches deployment.api; skipped
}

// TestConcurrentApply: one parsed patch list and one Vars serve many
// applies at once, each to its own set (run with -race).
func TestConcurrentApply(t *testing.T) {
	patches, err := syntax.ParseKpatch([]byte(patchText), "overrides.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	vars := kpatch.NewVars()
	if err := vars.LoadValues([]byte("replicas: 3\nversion: \"1.1\"\n"), "values.yaml"); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(manifest), resource.LoadOptions{})
			if err != nil {
				errs[i] = err
				return
			}
			if _, err := kpatch.Apply(context.Background(), set, patches, kpatch.Options{Vars: vars}); err != nil {
				errs[i] = err
				return
			}
			var b strings.Builder
			if err := set.Sources[0].Stream.WriteYAML(&b); err != nil {
				errs[i] = err
				return
			}
			if !strings.Contains(b.String(), "replicas: 3") || !strings.Contains(b.String(), "shop/web:1.1") {
				errs[i] = fmt.Errorf("apply %d: %s", i, b.String())
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
