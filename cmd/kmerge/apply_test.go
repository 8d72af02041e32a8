package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/linediff"
)

// applyCase is the case.yaml of a folder under testdata/apply. The folder
// holds the inputs:
//
//	base/          the manifests (-f base)
//	patches/       the patch files (-p patches)
//	values.yaml    variables (--values values.yaml), when present
//
// and the expected outcome:
//
//	want.yaml      standard output (absent: nothing)
//	want.stderr    standard error, exactly (absent: nothing)
//
// The command runs inside the folder, so messages name files as
// patches/x.kpatch:3:1.
type applyCase struct {
	// About says what the case shows and why the expected output is right:
	// every expected file was written by hand from this reasoning.
	About   string   `yaml:"about"`
	Command string   `yaml:"command"` // apply (default) or check
	Args    []string `yaml:"args"`    // more flags
	Exit    int      `yaml:"exit"`
}

func TestApplyCases(t *testing.T) {
	dirs, err := filepath.Glob("testdata/apply/*/case.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no cases under testdata/apply")
	}
	for _, file := range dirs {
		dir := filepath.Dir(file)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var c applyCase
			dec := yaml.NewDecoder(bytes.NewReader(data))
			dec.KnownFields(true)
			if err := dec.Decode(&c); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if strings.TrimSpace(c.About) == "" {
				t.Fatalf("%s: say in about: why the expected output is right", file)
			}
			want := readOptional(t, filepath.Join(dir, "want.yaml"))
			wantErr := readOptional(t, filepath.Join(dir, "want.stderr"))

			t.Chdir(dir)
			if c.Command == "" {
				c.Command = "apply"
			}
			args := []string{c.Command, "-f", "base", "-p", "patches"}
			if _, err := os.Stat("values.yaml"); err == nil {
				args = append(args, "--values", "values.yaml")
			}
			args = append(args, c.Args...)
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			if *update {
				writeOptional(t, "want.yaml", stdout.String())
				writeOptional(t, "want.stderr", stderr.String())
				want, wantErr = stdout.String(), stderr.String()
			}
			if code != c.Exit {
				t.Errorf("exit code %d, want %d", code, c.Exit)
			}
			if got := stderr.String(); got != wantErr {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, wantErr)
			}
			if got := stdout.String(); got != want {
				t.Errorf("stdout:\n%s\nwant:\n%s\ndiff:\n%s", got, want, lineDiff(want, got))
			}
		})
	}
}

func readOptional(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeOptional(t *testing.T, name, content string) {
	t.Helper()
	if content == "" {
		os.Remove(name)
		return
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineDiff shows how got differs from want, for failures.
func lineDiff(want, got string) string {
	return linediff.Unified("want", "got", linediff.SplitLines(want), linediff.SplitLines(got), 2)
}

// TestApplyDiff: --diff prints a unified diff of each changed file and
// nothing for the others. The expected diff was written by hand: the
// spec-9-example-kubernetes case changes replicas, the main image, adds
// requests, the service port and the ingress host; its hunks have three
// lines of context, as diff -u.
func TestApplyDiff(t *testing.T) {
	t.Chdir("testdata/apply/spec-9-example-kubernetes")
	var stdout, stderr bytes.Buffer
	code := run([]string{"apply", "-f", "base", "-p", "patches", "--values", "values.yaml", "--diff"}, strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := `--- a/base/deployment.yaml
+++ b/base/deployment.yaml
@@ -5,7 +5,7 @@
   labels:
     app: app
 spec:
-  replicas: 1
+  replicas: 3
   selector:
     matchLabels:
       app: app
@@ -16,9 +16,12 @@
     spec:
       containers:
       - name: main
-        image: example/app:1.0
+        image: ghcr.io/example/app:2.1
         ports:
         - name: http
           containerPort: 8080
+        resources:
+          requests:
+            cpu: 250m
       - name: sidecar
         image: example/sidecar:1.0
--- a/base/ingress.yaml
+++ b/base/ingress.yaml
@@ -5,7 +5,7 @@
 spec:
   tls:
   - hosts:
-    - web.example.com
+    - app.example.org
     secretName: web-tls
   rules:
   - host: web.example.com
--- a/base/service.yaml
+++ b/base/service.yaml
@@ -7,5 +7,5 @@
     app: app
   ports:
   - name: http
-    port: 8080
+    port: 80
     targetPort: http
`
	if got := stdout.String(); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
}

// TestApplyOutputDir: --output-dir mirrors the input names under the folder, writes
// untouched files byte for byte, replaces existing files, and leaves no
// temporary files; a failing run writes nothing.
func TestApplyOutputDir(t *testing.T) {
	src, err := filepath.Abs("testdata/apply/spec-9-example-kubernetes")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	// a stale file to be replaced, and a file of the user's that stays
	if err := os.WriteFile(filepath.Join(out, "service.yaml"), []byte("stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"apply", "-f", filepath.Join(src, "base"), "-p", filepath.Join(src, "patches"), "--values", filepath.Join(src, "values.yaml"), "--output-dir", out}
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if stdout.Len() > 0 {
		t.Errorf("--output-dir wrote to stdout: %s", stdout.String())
	}
	want, err := os.ReadFile(filepath.Join(src, "want.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, name := range []string{"deployment.yaml", "ingress.yaml", "service.yaml"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	if strings.Join(got, "---\n") != string(want) {
		t.Errorf("files under --output-dir:\n%s\nwant (as one stream):\n%s", strings.Join(got, "---\n"), want)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "deployment.yaml ingress.yaml notes.txt service.yaml" {
		t.Errorf("files under --output-dir: %v", names)
	}

	// a run that fails (an undefined variable) writes nothing
	out2 := t.TempDir()
	stderr.Reset()
	args = []string{"apply", "-f", filepath.Join(src, "base"), "-p", filepath.Join(src, "patches"), "--output-dir", out2}
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code != exitRejected {
		t.Fatalf("exit %d, want %d", code, exitRejected)
	}
	if !strings.Contains(stderr.String(), "undefined variable ${values.version}") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if entries, _ := os.ReadDir(out2); len(entries) != 0 {
		t.Errorf("a failed run wrote %d files", len(entries))
	}
}

// TestApplyStdin: manifests on standard input (a Helm post-renderer), the
// result on standard output; the untouched document keeps its comment.
func TestApplyStdin(t *testing.T) {
	dir := t.TempDir()
	patch := filepath.Join(dir, "p.kpatch")
	if err := os.WriteFile(patch, []byte("[cm.a]\ndata.x: changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := "# Source: chart/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: one\n---\n# Source: chart/templates/b.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b   # untouched\ndata:\n  y: 'two'\n"
	want := strings.Replace(in, "x: one", "x: changed", 1)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"apply", "-f", "-", "-p", patch}, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if stdout.String() != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), want)
	}
}

// TestApplyOutputDirClash: two inputs with one name cannot both be written
// under --output-dir; nothing is written.
func TestApplyOutputDirClash(t *testing.T) {
	base, err := filepath.Abs("testdata/apply/spec-9-example-kubernetes/base")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	other := filepath.Join(dir, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "service.yaml"), []byte("apiVersion: v1\nkind: Service\nmetadata: {name: other}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	patch := filepath.Join(dir, "p.kpatch")
	if err := os.WriteFile(patch, []byte("[svc.other]\nspec.type: NodePort\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := run([]string{"apply", "-f", base, "-f", filepath.Join(other, "service.yaml"), "-p", patch, "--output-dir", out}, strings.NewReader(""), &stdout, &stderr)
	if code != exitRejected || !strings.Contains(stderr.String(), "would both be written to "+filepath.Join(out, "service.yaml")) {
		t.Errorf("exit %d, stderr %s", code, stderr.String())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("something was written: %v", err)
	}
}

// TestTerminal: completion scripts, kind completion, coloured diffs, and the
// --color flag's values.
func TestTerminal(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"completion", shell}, strings.NewReader(""), &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "kmerge") {
			t.Errorf("completion %s: exit %d, %d bytes, %s", shell, code, stdout.Len(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	run([]string{"__complete", "explain", "cronj"}, strings.NewReader(""), &stdout, &stderr)
	if !strings.HasPrefix(stdout.String(), "cronjob\n") {
		t.Errorf("kind completion: %q", stdout.String())
	}

	t.Chdir("testdata/apply/spec-9-example-kubernetes")
	args := []string{"apply", "-f", "base", "-p", "patches", "--values", "values.yaml", "--diff"}
	stdout.Reset()
	if code := run(append(args, "--color", "always"), strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{
		"\x1b[1m--- a/base/deployment.yaml\x1b[0m\n",
		"\x1b[36m@@ -5,7 +5,7 @@\x1b[0m\n",
		"\x1b[31m-  replicas: 1\x1b[0m\n",
		"\x1b[32m+  replicas: 3\x1b[0m\n",
		"\n   selector:\n", // context lines as they are
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("coloured diff lacks %q", want)
		}
	}
	stdout.Reset()
	run(args, strings.NewReader(""), &stdout, &stderr) // auto: a buffer is no terminal
	if strings.Contains(stdout.String(), "\x1b[") {
		t.Error("--color auto coloured output that is not a terminal")
	}
	stderr.Reset()
	if code := run(append(args, "--color", "sometimes"), strings.NewReader(""), &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), `--color "sometimes"`) {
		t.Errorf("--color sometimes: exit %d, %s", code, stderr.String())
	}
}
