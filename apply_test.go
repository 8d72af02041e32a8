package kmerge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
)

// writeCorpus writes n Deployments (with comments, some in Lists) over
// files, and patches that touch many of them, warn, and conflict.
func writeCorpus(t *testing.T, n int) (string, string) {
	return writeCorpusAs(t, n, false)
}

// writeCorpusAs is writeCorpus; with stream, the files are one stream,
// all.yaml, of the same documents.
func writeCorpusAs(t *testing.T, n int, stream bool) (string, string) {
	t.Helper()
	dir := t.TempDir()
	base, patches := filepath.Join(dir, "base"), filepath.Join(dir, "patches")
	for _, d := range []string{base, patches} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	deploy := func(i int, indent string) string {
		s := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: app%d   # app number %d
  labels: {tier: "t%d"}
spec:
  replicas: 1

  template:
    spec:
      containers:
      - name: main
        image: img:%d
        env:
        - {name: A, value: "1"}
      - name: side
        image: side:1
`, i, i, i%3, i)
		if indent == "" {
			return s
		}
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			b.WriteString(indent + l + "\n")
		}
		return b.String()
	}
	var all strings.Builder
	for f := 0; f < n/10; f++ {
		var b strings.Builder
		if f%4 == 3 {
			b.WriteString("apiVersion: v1\nkind: List\nitems:\n")
			for i := f * 10; i < f*10+10; i++ {
				item := deploy(i, "  ")
				b.WriteString("- " + item[2:])
			}
		} else {
			for i := f * 10; i < f*10+10; i++ {
				b.WriteString("---\n" + deploy(i, ""))
			}
		}
		if stream {
			if all.Len() > 0 && f%4 == 3 {
				all.WriteString("---\n")
			}
			all.WriteString(b.String())
			continue
		}
		if err := os.WriteFile(filepath.Join(base, fmt.Sprintf("f%03d.yaml", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if stream {
		if err := os.WriteFile(filepath.Join(base, "all.yaml"), []byte(all.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var kp, yl strings.Builder
	for i := 0; i < n; i += 3 {
		fmt.Fprintf(&kp, "[deployment.app%d]\nreplicas: %d\n[deployment.app%d.containers.name=main]\nenv[name=B].value: x\nenv[-].name: C\n\n", i, i%7, i)
		fmt.Fprintf(&yl, "- target: deployment.app%d\n  type: strategic\n  patch: {spec: {replicas: 9, template: {spec: {containers: [{name: side, image: side:%d}]}}}}\n", i+1, i)
	}
	kp.WriteString("[deployment.nosuch]\nreplicas: 1\n[deployment.*.containers.name=main]\nimagePullPolicy: Always\n")
	yl.WriteString("- target: {kind: Deployment, labelSelector: tier=t1}\n  patch:\n    spec.replicas: 4\n")
	if err := os.WriteFile(filepath.Join(patches, "a.kpatch"), []byte(kp.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(patches, "b.yaml"), []byte(yl.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return base, patches
}

// TestApplyDeterministic: the same inputs give the same bytes whatever the
// number of workers and GOMAXPROCS: outputs, warnings, conflicts and the
// trace, run after run.
func TestApplyDeterministic(t *testing.T) {
	base, patches := writeCorpus(t, 200)
	runOnce := func(workers int) string {
		var trace bytes.Buffer
		res, err := Apply(context.Background(), ApplyOptions{Manifests: []string{base}, Patches: []string{patches}, ApplyPatchesOptions: ApplyPatchesOptions{Vars: kpatch.NewVars(), Trace: &trace, Workers: workers}})
		if err != nil {
			t.Fatal(err)
		}
		return shown(res, &trace, nil)
	}
	want := runOnce(1)
	if !strings.Contains(want, "no object matches deployment.nosuch") || !strings.Contains(want, "(strategic patch) sets spec.replicas to 9") {
		t.Fatalf("the corpus does not warn or conflict:\n%.2000s", want)
	}
	for _, workers := range []int{2, 3, 8, 0, 0} {
		if got := runOnce(workers); got != want {
			t.Fatalf("workers %d: output differs from one worker's", workers)
		}
	}
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	if got := runOnce(0); got != want {
		t.Fatal("GOMAXPROCS=1: output differs")
	}
}

// TestApplyParts: one long stream read in parts (resource.LoadOptions.Parts,
// here of 2 KB: some 50 parts), patched and written several at once, gives
// what it gives read whole, and what reading every document gives
// (Thorough), whatever the number of workers: outputs, warnings, conflicts
// and the trace.
func TestApplyParts(t *testing.T) {
	base, patches := writeCorpusAs(t, 400, true)
	runOnce := func(workers, parts int, thorough, rewrite bool) string {
		var trace bytes.Buffer
		res, err := Apply(context.Background(), ApplyOptions{Manifests: []string{base}, Patches: []string{patches},
			ApplyPatchesOptions: ApplyPatchesOptions{Vars: kpatch.NewVars(), Trace: &trace, Workers: workers},
			partBytes:           parts, Thorough: thorough, rewriteParts: rewrite})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 1 || res.Files[0].Rel != "all.yaml" {
			t.Fatalf("%d files", len(res.Files))
		}
		return shown(res, &trace, nil)
	}
	want := runOnce(1, -1, false, false)
	if !strings.Contains(want, "no object matches deployment.nosuch") || !strings.Contains(want, "(strategic patch) sets spec.replicas to 9") {
		t.Fatalf("the corpus does not warn or conflict:\n%.2000s", want)
	}
	if got := runOnce(0, 0, true, false); got != want {
		t.Errorf("read whole and every document parsed (Thorough): output differs")
	}
	set, err := resource.Stream(context.Background(), []string{base}, nil, resource.LoadOptions{Parts: 2048, Select: func(*resource.Resource) bool { return true }}, nil)
	if err != nil || len(set.Sources) < 30 {
		t.Fatalf("the stream is read in %d parts (%v)", len(set.Sources), err)
	}
	for _, workers := range []int{1, 2, 3, 8, 0} {
		if got := runOnce(workers, 2048, false, false); got != want {
			t.Errorf("in parts, %d workers: output differs from the stream read whole:\n%s", workers, firstDiff(want, got))
		}
	}
	// a part written by yaml.v3 as a whole: the run is done again without
	// parts, which gives the same (here, every part is taken as one; the
	// trace would show a run that counted twice)
	if got := runOnce(2, 2048, false, true); got != want {
		t.Errorf("in parts, rewritten: output differs from the stream read whole:\n%s", firstDiff(want, got))
	}
	// standard input, read once, is read again from what was read
	data, err := os.ReadFile(filepath.Join(base, "all.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rewrite := range []bool{false, true} {
		res, err := Apply(context.Background(), ApplyOptions{Manifests: []string{"-"}, Stdin: bytes.NewReader(data), Patches: []string{patches},
			ApplyPatchesOptions: ApplyPatchesOptions{Vars: kpatch.NewVars()}, partBytes: 2048, rewriteParts: rewrite})
		if err != nil {
			t.Fatal(err)
		}
		whole, err := Apply(context.Background(), ApplyOptions{Manifests: []string{base}, Patches: []string{patches},
			ApplyPatchesOptions: ApplyPatchesOptions{Vars: kpatch.NewVars()}, partBytes: -1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 1 || !bytes.Equal(res.Files[0].Output, whole.Files[0].Output) || res.Files[0].Path != "<stdin>" {
			t.Errorf("standard input in parts (rewritten %v): %d files, output differs", rewrite, len(res.Files))
		}
	}
}

// TestBlameParts: Blame on one long stream read in parts (here of 2 KB)
// names the documents, their lines and what wrote each, as it does on the
// stream read whole and with every document parsed (Thorough): a part's
// documents are numbered in the file, not in the part.
func TestBlameParts(t *testing.T) {
	base, patches := writeCorpusAs(t, 400, true)
	blame := func(parts int, thorough bool) string {
		res, err := Blame(context.Background(), ApplyOptions{Manifests: []string{base}, Patches: []string{patches},
			ApplyPatchesOptions: ApplyPatchesOptions{Vars: kpatch.NewVars()}, partBytes: parts, Thorough: thorough})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Documents) != 310 || res.Documents[309].Index != 309 {
			// the corpus: 300 Deployment documents and 10 Lists (of 10
			// each), all patched (the wildcard section)
			t.Fatalf("parts %d: %d documents blamed, want 310, the last the 310th", parts, len(res.Documents))
		}
		b, err := json.MarshalIndent(res.Documents, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := blame(-1, false)
	if got := blame(0, true); got != want {
		t.Errorf("every document parsed (Thorough): differs from the stream read whole:\n%s", firstDiff(want, got))
	}
	if got := blame(2048, false); got != want {
		t.Errorf("in parts: differs from the stream read whole:\n%s", firstDiff(want, got))
	}
}

// firstDiff shows where two texts part.
func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("%s\n----\n%s", a[from:min(len(a), i+200)], b[from:min(len(b), i+200)])
}

// TestWriteDirFailure: a failure while writing (here: a folder the output
// needs is a file) leaves the output folder as it was: the file written
// before the failure is not replaced, and no temporary file remains.
func TestWriteDirFailure(t *testing.T) {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "a.yaml"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "sub"), []byte("a file where a folder should be\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := &ApplyResult{Files: []*File{
		{Path: "in/a.yaml", Rel: "a.yaml", Output: []byte("new\n")},
		{Path: "in/sub/b.yaml", Rel: "sub/b.yaml", Output: []byte("new\n")},
	}}
	if err := res.WriteDir(out); err == nil {
		t.Fatal("WriteDir succeeded")
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "a.yaml sub" {
		t.Errorf("after the failure the folder holds %v", names)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "a.yaml")); string(b) != "old\n" {
		t.Errorf("a.yaml was replaced: %q", b)
	}
}

// TestWriteDirInPlace writes the output over the folder the manifests came
// from: the changed file is replaced and keeps its permissions, the
// unchanged one is not rewritten (its modification time stays), and no
// temporary file is left behind.
func TestWriteDirInPlace(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("app.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app # the app\ndata:\n  level: debug\n", 0o600)
	write("other.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n", 0o644)
	patches := filepath.Join(t.TempDir(), "p.kpatch")
	if err := os.WriteFile(patches, []byte("[configmap.app]\ndata.level: info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	past := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "other.yaml"), past, past); err != nil {
		t.Fatal(err)
	}
	res, err := Apply(context.Background(), ApplyOptions{Manifests: []string{dir}, Patches: []string{patches}})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "app.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// by hand: one value changed, the comment kept
	if want := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app # the app\ndata:\n  level: info\n"; string(b) != want {
		t.Errorf("app.yaml:\n%s\nwant:\n%s", b, want)
	}
	if st, err := os.Stat(filepath.Join(dir, "app.yaml")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("app.yaml's permissions: %v (%v), want 0600", st.Mode().Perm(), err)
	}
	if st, err := os.Stat(filepath.Join(dir, "other.yaml")); err != nil || !st.ModTime().Equal(past) {
		t.Errorf("other.yaml was rewritten: modified %v (%v)", st.ModTime(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the folder holds %d entries, want 2 (no temporary files)", len(entries))
	}
}

// shown is what an apply printed: the output stream, warnings, conflicts
// and trace, or the error.
func shown(res *ApplyResult, trace *bytes.Buffer, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	b.Write(res.Stream())
	for _, w := range res.Warnings {
		b.WriteString(w.String() + "\n")
	}
	for _, c := range res.Conflicts {
		b.WriteString(c.String() + "\n")
	}
	b.Write(trace.Bytes())
	return b.String()
}

// applyBoth runs opts through Apply (files patched as they are read, then
// let go) and through resource.Load + ApplyPatches (the whole set first),
// and returns what each printed (shown).
func applyBoth(t *testing.T, opts ApplyOptions) (streamed, loaded string) {
	t.Helper()
	var t1, t2 bytes.Buffer
	opts.Trace = &t1
	res, err := Apply(context.Background(), opts)
	streamed = shown(res, &t1, err)
	opts.Trace = &t2
	patches, err := kpatch.Load(context.Background(), opts.Patches, kpatch.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := resource.Load(context.Background(), opts.Manifests, nil, resource.LoadOptions{})
	if err == nil {
		res, err = ApplyPatches(context.Background(), set, patches, opts.ApplyPatchesOptions)
	}
	return streamed, shown(res, &t2, err)
}

// TestApplyStreaming: Apply, which patches and writes each file as it is
// read, gives what ApplyPatches gives on the set loaded first: the same
// bytes, warnings (in patch order, then object order), conflicts and
// trace, and the same error when several patches fail (the first in patch
// order, whichever object was read first).
func TestApplyStreaming(t *testing.T) {
	base, patches := writeCorpus(t, 200)
	streamed, loaded := applyBoth(t, ApplyOptions{Manifests: []string{base}, Patches: []string{patches}, ApplyPatchesOptions: ApplyPatchesOptions{Workers: 3}})
	if streamed != loaded {
		t.Fatalf("Apply and ApplyPatches differ:\n%.3000s\n---- ApplyPatches:\n%.3000s", streamed, loaded)
	}
	if !strings.Contains(streamed, "no object matches deployment.nosuch") || !strings.Contains(streamed, "app3") {
		t.Fatalf("the corpus applied nothing:\n%.2000s", streamed)
	}

	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	manifests := filepath.Join(dir, "m")
	if err := os.MkdirAll(manifests, 0o755); err != nil {
		t.Fatal(err)
	}
	write("m/a.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {replicas: 1}\n")
	write("m/b.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: b}\nspec: {replicas: 1}\n")
	write("m/c.yaml", "apiVersion: example.com/v1\nkind: Deployment\nmetadata: {name: c}\nspec: {replicas: 1}\n")
	for _, c := range []struct {
		name, patch string
		strict      bool
		want        string // in the error
	}{
		// the patch listed first fails on b, the second on a (read first)
		{"first failure in patch order", "[\"deployment.apps\".b]\nreplicas.x: 1\n[\"deployment.apps\".a]\nreplicas.y: 1\n", false, "p.kpatch:2:"},
		// "deployment" picks objects of two groups, which is known only
		// once all are read; a failure of an earlier patch comes first
		{"failure before an ambiguous kind", "[\"deployment.apps\".a]\nreplicas.y: 1\n[deployment.*]\nreplicas: 2\n", false, "p.kpatch:2:"},
		{"ambiguous kind first", "[deployment.*]\nreplicas: 2\n[\"deployment.apps\".a]\nreplicas.y: 1\n", false, "several groups"},
		{"strict", "[\"deployment.apps\".nosuch]\nreplicas: 2\n[\"deployment.apps\".a]\nreplicas.y: 1\n", true, "strict mode"},
	} {
		p := write("p.kpatch", c.patch)
		streamed, loaded := applyBoth(t, ApplyOptions{Manifests: []string{manifests}, Patches: []string{p}, ApplyPatchesOptions: ApplyPatchesOptions{Strict: c.strict}})
		if streamed != loaded {
			t.Errorf("%s: Apply gives\n%s\nApplyPatches gives\n%s", c.name, streamed, loaded)
		}
		if !strings.HasPrefix(streamed, "error: ") || !strings.Contains(streamed, c.want) {
			t.Errorf("%s: %s, want an error with %q", c.name, streamed, c.want)
		}
	}
}

// TestApplyPartsKustomizations: in a long stream read in parts, a part of
// kustomizations only is written as its text when the file holds objects
// too (as the file read whole is), and a file of kustomizations is left out
// of the output, in parts as whole.
func TestApplyPartsKustomizations(t *testing.T) {
	kust := strings.Repeat("---\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n", 200)
	var cms strings.Builder
	for i := range 200 {
		fmt.Fprintf(&cms, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\ndata:\n  k: v%d\n", i, i)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"k.yaml": kust + cms.String(), "only.yaml": kust, "p.kpatch": "[configmap.*]\ndata.x: z\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(parts int) *ApplyResult {
		res, err := Apply(context.Background(), ApplyOptions{Manifests: []string{filepath.Join(dir, "only.yaml"), filepath.Join(dir, "k.yaml")},
			Patches: []string{filepath.Join(dir, "p.kpatch")}, partBytes: parts})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	whole, parts := run(-1), run(1000)
	if len(whole.Files) != 1 || len(parts.Files) != 1 || whole.Files[0].Rel != "k.yaml" || parts.Files[0].Rel != "k.yaml" {
		t.Fatalf("%d files read whole, %d in parts", len(whole.Files), len(parts.Files))
	}
	if !bytes.Equal(whole.Files[0].Output, parts.Files[0].Output) || !bytes.Equal(parts.Files[0].Input, []byte(kust+cms.String())) {
		t.Errorf("in parts, the output differs:\n%s", firstDiff(string(whole.Files[0].Output), string(parts.Files[0].Output)))
	}
	if !strings.HasPrefix(string(parts.Files[0].Output), kust) || !strings.Contains(string(parts.Files[0].Output), "  x: z\n") {
		t.Errorf("output:\n%.500s", parts.Files[0].Output)
	}
}
