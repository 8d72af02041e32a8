package conflict_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
)

// goldenFile is a file of testdata/: cases of one theme. Each case applies
// its patches to its object, as kmerge apply does (patches.yaml, a YAML
// patch list, and patch.kpatch), and lists the conflicts kmerge reports;
// about says why they are right.
type goldenFile struct {
	Schema string       `yaml:"schema"` // a CustomResourceDefinition, for all cases
	Cases  []goldenCase `yaml:"cases"`
}

type goldenCase struct {
	Name    string `yaml:"name"`
	About   string `yaml:"about"`
	Object  string `yaml:"object"`
	Patches string `yaml:"patches"` // patches.yaml
	Kpatch  string `yaml:"kpatch"`  // patch.kpatch
	Want    string `yaml:"want"`    // the conflicts, one a line; "" for none
}

// TestGolden runs the cases of testdata/*.yaml.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	n := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var gf goldenFile
		if err := yaml.Unmarshal(data, &gf); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		s := schema.Builtin()
		if gf.Schema != "" {
			more, err := schema.Load([]byte(gf.Schema), file+"#schema")
			if err != nil {
				t.Fatal(err)
			}
			s = s.Extend(more)
		}
		for _, c := range gf.Cases {
			n++
			t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml")+"/"+c.Name, func(t *testing.T) {
				if strings.TrimSpace(c.About) == "" {
					t.Fatal("say in about why the conflicts are right")
				}
				got := goldenConflicts(t, s, c)
				if want := strings.TrimSpace(c.Want); got != want {
					t.Errorf("conflicts:\n%s\nwant:\n%s", got, want)
				}
			})
		}
	}
	t.Logf("%d cases", n)
}

func goldenConflicts(t *testing.T, s *schema.Schema, c goldenCase) string {
	t.Helper()
	set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(c.Object), resource.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var patches []*syntax.Patch
	if c.Patches != "" {
		ps, err := syntax.ParseYAML([]byte(c.Patches), "patches.yaml")
		if err != nil {
			t.Fatal(err)
		}
		patches = append(patches, ps...)
	}
	if c.Kpatch != "" {
		ps, err := syntax.ParseKpatch([]byte(c.Kpatch), "patch.kpatch")
		if err != nil {
			t.Fatal(err)
		}
		patches = append(patches, ps...)
	}
	rec := &conflict.Recorder{}
	res, err := kpatch.Apply(context.Background(), set, patches, kpatch.Options{Schema: s, Records: rec.Add})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		t.Logf("warning: %s", w)
	}
	var lines []string
	for _, c := range rec.Conflicts(res.Recorded) {
		lines = append(lines, c.String())
	}
	return strings.Join(lines, "\n")
}
