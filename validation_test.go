package kmerge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  paused: "no"
`

// shownErrors lists the violations of an error, one per line:
// position, violation, attributed to the input or not.
func shownErrors(errs []*validate.Error) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "%s%s input=%v\n", e.Position(), e.Violation, e.Input)
	}
	return b.String()
}

func TestPatchValidate(t *testing.T) {
	patch := []byte("spec:\n  replicas: {a: 1}\n")
	opts := PatchOptions{DocName: "d.yaml", PatchName: "p.yaml"}

	// none, the zero value: upstream's result, nothing said
	out, err := Patch(context.Background(), []byte(deployment), patch, opts)
	if err != nil || !strings.Contains(string(out), "replicas: {a: 1}") {
		t.Fatalf("none: %v\n%s", err, out)
	}

	// strict: the violation the patch wrote is an error; the input's
	// (paused is a boolean) a warning
	var warns []*validate.Error
	opts.Warn = func(e *validate.Error) { warns = append(warns, e) }
	opts.Validate = validate.Strict
	out, err = Patch(context.Background(), []byte(deployment), patch, opts)
	errs := validate.Errors(err)
	if out != nil || len(errs) != 1 {
		t.Fatalf("strict: %v\n%s", err, out)
	}
	if got, want := shownErrors(errs), "p.yaml:2:3: spec.replicas: expected integer/int32, found an object input=false\n"; got != want {
		t.Errorf("strict errors:\n%s\nwant:\n%s", got, want)
	}
	if got, want := shownErrors(warns), "d.yaml:7:11: spec.paused: expected boolean, found the string \"no\" input=true\n"; got != want {
		t.Errorf("strict warnings:\n%s\nwant:\n%s", got, want)
	}
	if errs[0].Object != "apps/v1 Deployment web" || errs[0].File != "d.yaml" {
		t.Errorf("object %q file %q", errs[0].Object, errs[0].File)
	}

	// warn: the result, and both as warnings
	warns = nil
	opts.Validate = validate.Warn
	out, err = Patch(context.Background(), []byte(deployment), patch, opts)
	if err != nil || out == nil || len(warns) != 2 {
		t.Fatalf("warn: %v %d warnings\n%s", err, len(warns), out)
	}
}

// TestPatchValidateIdentity: a patch that deletes apiVersion and kind is
// reported (the document was an object before the patch), and a
// document that never was one is not checked.
func TestPatchValidateIdentity(t *testing.T) {
	opts := PatchOptions{Validate: validate.Strict, Type: Merge}
	_, err := Patch(context.Background(), []byte(deployment), []byte("{apiVersion: null, kind: null}"), opts)
	if got, want := shownErrors(validate.Errors(err)), "patch:1:2: apiVersion: missing: every object needs an apiVersion input=false\npatch:1:20: kind: missing: every object needs a kind input=false\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := Patch(context.Background(), []byte("name: x\n"), []byte("{items: 3}"), opts); err != nil {
		t.Errorf("a document that is no object: %v", err)
	}
}

func TestPatchObjectValidate(t *testing.T) {
	doc, err := tree.Read([]byte(deployment), tree.Options{File: "d.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	patch, err := tree.Read([]byte(`{"spec": {"paused": true, "minReadySeconds": "10"}}`), tree.Options{File: "p.json"})
	if err != nil {
		t.Fatal(err)
	}
	var warns []*validate.Error
	res, err := PatchObject(doc.Docs[0], patch.Docs[0], PatchOptions{Validate: validate.Strict, PatchName: "p.json", DocName: "d.yaml",
		Warn: func(e *validate.Error) { warns = append(warns, e) }})
	if got, want := shownErrors(validate.Errors(err)), "p.json:1:27: spec.minReadySeconds: expected integer/int32, found the string \"10\" input=false\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if res == nil {
		t.Error("the patched object is returned with the error")
	}
	if len(warns) != 0 {
		t.Errorf("the patch fixed paused, no warning: %v", warns)
	}
}

// TestApplyValidate: violations over several files, patched several at a
// time, come in file order; a List item the input had wrong is a warning
// that points into the input.
func TestApplyValidate(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 8; i++ {
		write(fmt.Sprintf("base/%d.yaml", i), strings.Replace(deployment, "name: web", fmt.Sprintf("name: web%d", i), 1))
	}
	write("base/list.yaml", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n  data: {n: 1}\n")
	write("p.kpatch", "[deployment.*]\nreplicas: 3000000000\n\n[configmap.c]\ndata.m: x\n")
	opts := ApplyOptions{Manifests: []string{filepath.Join(dir, "base")}, Patches: []string{filepath.Join(dir, "p.kpatch")},
		ApplyPatchesOptions: ApplyPatchesOptions{Validate: validate.Strict, Workers: 4}}
	res, err := Apply(context.Background(), opts)
	errs := validate.Errors(err)
	if res != nil || len(errs) != 8 {
		t.Fatalf("%d errors: %v", len(errs), err)
	}
	for i, e := range errs {
		if want := fmt.Sprintf("apps/v1 Deployment web%d", i); e.Object != want || e.Reason != validate.ReasonRange || e.Patch.Line != 2 {
			t.Errorf("error %d: %s %+v", i, e.Object, e.Violation)
		}
	}

	opts.Validate = validate.Warn
	res, err = Apply(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Invalid) != 17 { // per Deployment paused and replicas, and the ConfigMap's n
		t.Fatalf("%d warnings: %s", len(res.Invalid), shownErrors(res.Invalid))
	}
	if got, want := shownErrors(res.Invalid[16:]), filepath.Join(dir, "base/list.yaml")+":7:13: data.n: expected string, found the integer 1 input=true\n"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}

	// ApplyPatches, on the set loaded first, reports the same
	set, err := resource.Load(context.Background(), opts.Manifests, nil, resource.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	patches, err := kpatch.Load(context.Background(), opts.Patches, kpatch.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := ApplyPatches(context.Background(), set, patches, opts.ApplyPatchesOptions)
	if err != nil || shownErrors(loaded.Invalid) != shownErrors(res.Invalid) {
		t.Errorf("ApplyPatches: %v\n%s", err, shownErrors(loaded.Invalid))
	}
	var ve *validate.Error
	if !errors.As(errors.Join(errs[0]), &ve) {
		t.Error("a validation error is a *validate.Error")
	}
}
