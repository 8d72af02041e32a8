package project

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Find looks in the folder, then its parents, and keeps a relative path
// relative.
func TestFind(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "kmerge.yaml", "apiVersion: kmerge/v1\nkind: Project\n")
	write(t, dir, "a/b/x.kpatch", "")
	t.Chdir(filepath.Join(dir, "a", "b"))
	got, err := Find(".")
	if err != nil || got != filepath.Join("..", "..", "kmerge.yaml") {
		t.Fatalf("Find: %q %v", got, err)
	}
	t.Chdir(t.TempDir())
	if got, err := Find("."); err != nil || got != "" {
		t.Fatalf("Find without a project file: %q %v", got, err)
	}
}

// Vars: values files in order, then set, then features; paths joined to
// the project's folder.
func TestVars(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "v1.yaml", "a: 1\nb: {c: 1, d: 1}\n")
	write(t, dir, "v2.yaml", "a: 2\nb: {c: 2}\n")
	write(t, dir, "kmerge.yaml", "apiVersion: kmerge/v1\nkind: Project\nvalues: [v1.yaml, v2.yaml]\nset: {b: {d: 3}}\nfeatures: {x: true}\n")
	p, err := Load(filepath.Join(dir, "kmerge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Values[0] != filepath.Join(dir, "v1.yaml") {
		t.Errorf("values path %q", p.Values[0])
	}
	vars, err := p.Vars(nil)
	if err != nil {
		t.Fatal(err)
	}
	patches, err := syntax.ParseKpatch([]byte("[cm.x]\ndata.s: ${values.a}-${values.b.c}-${values.b.d}-${features.x}\n"), "p.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"), resource.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kpatch.Apply(context.Background(), set, patches, kpatch.Options{Vars: vars}); err != nil {
		t.Fatal(err)
	}
	// a from v2 (later files win), b.c from v2, b.d from set (over v1)
	if got := tree.MapGet(tree.MapGet(set.Resources[0].Root, "data"), "s"); got == nil || got.Value != "2-2-3-true" {
		t.Errorf("data.s = %v, want 2-2-3-true", got)
	}
	if got := strings.Join(vars.Names(), " "); got != "features.x values.a values.b.c values.b.d" {
		t.Errorf("names: %s", got)
	}
	if !p.Owns(filepath.Join(dir, "v2.yaml")) || !p.Owns(filepath.Join(dir, "kmerge.yaml")) || p.Owns(filepath.Join(dir, "other.yaml")) {
		t.Errorf("Owns")
	}
}

// TestEmpty: a project file with nothing in it is an *EmptyError at its
// first line, worded without a command (the CLI adds that kmerge init
// writes one).
func TestEmpty(t *testing.T) {
	for _, text := range []string{"", "# to do\n", "---\n---\n", "null\n"} {
		_, err := Parse([]byte(text), "kmerge.yaml")
		e, ok := err.(*EmptyError)
		if !ok {
			t.Errorf("%q: %v (%T), want *EmptyError", text, err, err)
			continue
		}
		if want := "kmerge.yaml:1:1: empty project file: start with apiVersion: kmerge/v1 and kind: Project"; e.Error() != want || e.Position().Line != 1 {
			t.Errorf("%q: %q, want %q", text, e.Error(), want)
		}
	}
}
