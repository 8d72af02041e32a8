package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputDirFlags: -o DIR, apply's old spelling of --output-dir, still
// writes the folder when the value is plainly one (it holds a slash, or the
// folder exists), with a warning that says what to write instead; the
// files written are --output-dir's. A kustomization in the manifest folder
// is neither printed nor written (docs/kpatch.md#manifests--f).
func TestOutputDirFlags(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string]string{
		"base/d.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: one\n",
		"base/kustomization.yaml": "resources:\n- d.yaml\n",
		"p.kpatch":                "[cm.a]\ndata.x: two\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := strings.Replace(files["base/d.yaml"], "one", "two", 1)
	for _, c := range []struct {
		args    []string
		out     string // the folder written
		warning string
	}{
		{[]string{"--output-dir", "new"}, "new", ""},
		{[]string{"-o", "out/"}, "out", "kmerge: warning: -o out/: -o is now the output format (yaml or json, as in kubectl); writing to the folder out/ as --output-dir out/ does. -o DIR stops working in the next release: use --output-dir\n"},
		{[]string{"-o", "new"}, "new", "kmerge: warning: -o new: -o is now the output format (yaml or json, as in kubectl); writing to the folder new as --output-dir new does. -o DIR stops working in the next release: use --output-dir\n"}, // exists now
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"apply", "-f", "base", "-p", "p.kpatch"}, c.args...)
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
		}
		if stdout.Len() > 0 || stderr.String() != c.warning {
			t.Errorf("%q: stdout %q, stderr %q, want %q", args, stdout.String(), stderr.String(), c.warning)
		}
		got, err := os.ReadFile(filepath.Join(c.out, "d.yaml"))
		if err != nil || string(got) != want {
			t.Errorf("%q: %s/d.yaml: %q (%v), want %q", args, c.out, got, err, want)
		}
		if _, err := os.Stat(filepath.Join(c.out, "kustomization.yaml")); err == nil {
			t.Errorf("%q: the kustomization was written", args)
		}
	}
}

// TestFlagMistakes: what people coming from kubectl type. -o yml is taken
// for a misspelt format (not a folder to write), kmerge diff without
// arguments points at apply --diff, and kmerge patch --dry-run (any of
// kubectl's values) is the no-op it is here, while a value kubectl refuses
// is refused.
func TestFlagMistakes(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: one\n"
	if err := os.WriteFile("cm.yaml", []byte(cm), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("p.kpatch", []byte("[cm.a]\ndata.x: two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	patched := strings.Replace(cm, "one", "two", 1)
	for _, c := range []struct {
		args   []string
		code   int
		stdout string
		stderr string // a part of it
	}{
		{[]string{"apply", "-f", "cm.yaml", "-p", "p.kpatch", "-o", "yml"}, 2, "", `-o "yml": the output format is yaml or json (as in kubectl); did you mean -o yaml?`},
		{[]string{"apply", "-f", "cm.yaml", "-p", "p.kpatch", "-o", "jsn"}, 2, "", "did you mean -o json?"},
		{[]string{"diff"}, 2, "", "to see what patch files change in manifests, use kmerge apply --diff"},
		{[]string{"patch", "-f", "cm.yaml", "-p", `{"data":{"x":"two"}}`, "--dry-run=client"}, 0, patched, ""},
		{[]string{"patch", "-f", "cm.yaml", "-p", `{"data":{"x":"two"}}`, "--dry-run=server"}, 0, patched, ""},
		{[]string{"patch", "-f", "cm.yaml", "-p", `{"data":{"x":"two"}}`, "--dry-run"}, 0, patched, ""},
		{[]string{"patch", "-f", "cm.yaml", "-p", `{"data":{"x":"two"}}`, "--dry-run=yes"}, 2, "", "--dry-run=yes: kubectl takes none, client or server"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, strings.NewReader(""), &stdout, &stderr)
		if code != c.code || stdout.String() != c.stdout || !strings.Contains(stderr.String(), c.stderr) || (c.stderr == "") != (stderr.Len() == 0) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q", c.args, code, stdout.String(), stderr.String(), c.code, c.stdout, c.stderr)
		}
	}
	if _, err := os.Stat("yml"); err == nil {
		t.Error("-o yml wrote a folder")
	}
}
