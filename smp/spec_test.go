package smp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// fixtureFile is a file of testdata/: cases of one theme, most of them the
// examples of a specification. Each case patches "live" and states the
// result in the default (spec) order, the result in upstream order when it
// differs, or a substring of the error.
type fixtureFile struct {
	Schema     string        `yaml:"schema"`     // a schema document for schema.Load
	Definition string        `yaml:"definition"` // its definition the cases use by default
	Cases      []fixtureCase `yaml:"cases"`
}

type fixtureCase struct {
	Name     string `yaml:"name"`
	Kind     string `yaml:"kind"` // "apps/v1 Deployment": a built-in kind instead of the definition
	Live     string `yaml:"live"`
	Patch    string `yaml:"patch"`
	Result   string `yaml:"result"`
	Upstream string `yaml:"upstream"` // result in OrderUpstream when it differs from Result
	Error    string `yaml:"error"`
}

func TestFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			runFixtureFile(t, file)
		})
	}
}

func runFixtureFile(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var ff fixtureFile
	if err := yaml.Unmarshal(data, &ff); err != nil {
		t.Fatal(err)
	}
	var def *schema.Type
	if ff.Schema != "" {
		s, err := schema.Load([]byte(ff.Schema), file+"#schema")
		if err != nil {
			t.Fatal(err)
		}
		if def, err = s.Definition(ff.Definition); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range ff.Cases {
		t.Run(c.Name, func(t *testing.T) {
			typ := def
			if c.Kind != "" {
				apiVersion, kind, _ := strings.Cut(c.Kind, " ")
				if typ = schema.Builtin().Kind(apiVersion, kind); typ == nil {
					t.Fatalf("no built-in kind %s", c.Kind)
				}
			}
			for _, order := range []smp.ListOrder{smp.OrderSpec, smp.OrderUpstream} {
				want := c.Result
				if order == smp.OrderUpstream && c.Upstream != "" {
					want = c.Upstream
				}
				got, err := applyYAML(c.Live, c.Patch, typ, order)
				if c.Error != "" {
					if err == nil || !strings.Contains(err.Error(), c.Error) {
						t.Fatalf("%s order: want an error containing %q, got %v (result %s)", order, c.Error, err, got)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%s order: %v", order, err)
				}
				wantDoc := readOne(t, want)
				gotDoc := readOne(t, got)
				if !tree.Equal(wantDoc, gotDoc) { // lists compare in order
					t.Fatalf("%s order:\n got:\n%s\n want:\n%s", order, got, want)
				}
			}
		})
	}
}

func applyYAML(live, patch string, typ *schema.Type, order smp.ListOrder) (string, error) {
	l, err := tree.Read([]byte(live), tree.Options{File: "live"})
	if err != nil {
		return "", err
	}
	p, err := tree.Read([]byte(patch), tree.Options{File: "patch"})
	if err != nil {
		return "", err
	}
	var doc *yaml.Node = &yaml.Node{Kind: yaml.DocumentNode}
	if len(l.Docs) > 0 {
		doc = l.Docs[0]
	}
	res, err := smp.Apply(doc, p.Docs[0], typ, smp.Options{ListOrder: order})
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := tree.WriteYAML(&b, l.Style, res); err != nil {
		return "", err
	}
	return b.String(), nil
}

func readOne(t *testing.T, s string) *yaml.Node {
	t.Helper()
	st, err := tree.Read([]byte(s), tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Docs) == 0 {
		return nil
	}
	return st.Docs[0]
}
