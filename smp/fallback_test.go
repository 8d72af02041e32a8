package smp_test

import (
	"errors"
	"os"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// TestMergePatch runs testdata/fallback/cases.yaml (why each expectation
// is right is said there).
func TestMergePatch(t *testing.T) {
	data, err := os.ReadFile("testdata/fallback/cases.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name  string
		Patch string
		Merge string
		Error *struct {
			Directive, Path string
			Line, Column    int
		}
	}
	if err := yaml.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("%d cases read", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			patch := readOne(t, c.Patch)
			before := tree.Clone(patch)
			got, err := smp.MergePatch(patch, "p.yaml")
			if !tree.Equal(patch, before) {
				t.Errorf("the patch was modified")
			}
			if c.Error != nil {
				var e *smp.Error
				if !errors.As(err, &e) {
					t.Fatalf("got %v, want an *Error", err)
				}
				if e.Reason != smp.ReasonNoSchema || e.Directive != c.Error.Directive || e.Path.String() != c.Error.Path ||
					e.Pos.File != "p.yaml" || e.Pos.Line != c.Error.Line || e.Pos.Column != c.Error.Column {
					t.Errorf("got %s %q at %q %s, want %q at %q line %d column %d (%v)", e.Reason, e.Directive, e.Path, e.Pos,
						c.Error.Directive, c.Error.Path, c.Error.Line, c.Error.Column, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := readOne(t, c.Merge); !tree.Equal(got, want) {
				t.Errorf("got %s, want %s", mustJSON(t, got), mustJSON(t, want))
			}
			if c.Merge == c.Patch && got != patch {
				t.Errorf("a patch without directives is copied, not returned")
			}
		})
	}
}

func mustJSON(t *testing.T, n *yaml.Node) string {
	b, err := tree.MarshalJSON(n)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
