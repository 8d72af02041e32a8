package smp_test

import (
	"os"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// TestRecord: what Apply records (Options.Record) for patches of
// testdata/record/changes.yaml: each case's changes, one a line, as
// change.Log.String writes them. Without a Log, Apply gives the same
// result.
func TestRecord(t *testing.T) {
	data, err := os.ReadFile("testdata/record/changes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name  string `yaml:"name"`
		About string `yaml:"about"`
		Kind  string `yaml:"kind"`
		Live  string `yaml:"live"`
		Patch string `yaml:"patch"`
		Want  string `yaml:"want"`
	}
	if err := yaml.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if c.About == "" {
				t.Fatal("say in about why the changes are right")
			}
			apiVersion, kind, _ := strings.Cut(c.Kind, " ")
			typ := schema.Builtin().Kind(apiVersion, kind)
			read := func(s string) *yaml.Node {
				st, err := tree.Read([]byte(s), tree.Options{})
				if err != nil {
					t.Fatal(err)
				}
				return st.Docs[0]
			}
			log := &change.Log{}
			got, err := smp.Apply(read(c.Live), read(c.Patch), typ, smp.Options{File: "p", Record: log})
			if err != nil {
				t.Fatal(err)
			}
			if g, w := strings.TrimSpace(log.String()), strings.TrimSpace(c.Want); g != w {
				t.Errorf("changes:\n%s\nwant:\n%s", g, w)
			}
			plain, err := smp.Apply(read(c.Live), read(c.Patch), typ, smp.Options{File: "p"})
			if err != nil || !tree.Equal(plain, got) {
				t.Errorf("recording changed the result: %v", err)
			}
		})
	}
}
