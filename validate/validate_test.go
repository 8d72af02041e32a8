package validate_test

import (
	"os"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// testCase is an entry of testdata/cases.yaml.
type testCase struct {
	Name       string   `yaml:"name"`
	Why        string   `yaml:"why"`
	Definition string   `yaml:"definition"`
	Object     string   `yaml:"object"`
	Want       []string `yaml:"want"`
}

func loadSchemas(t *testing.T) (*schema.Schema, *schema.Schema) {
	t.Helper()
	crds, err := schema.LoadFile("testdata/crds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	openapi, err := schema.LoadFile("testdata/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return schema.Builtin().Extend(crds), openapi
}

func readDoc(t *testing.T, text string) *yaml.Node {
	t.Helper()
	st, err := tree.Read([]byte(text), tree.Options{File: "object"})
	if err != nil {
		t.Fatal(err)
	}
	return st.Docs[0]
}

func TestCases(t *testing.T) {
	data, err := os.ReadFile("testdata/cases.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []testCase
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&cases); err != nil {
		t.Fatal(err)
	}
	s, openapi := loadSchemas(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if strings.TrimSpace(c.Why) == "" {
				t.Fatal("say in why: why the expected violations are right")
			}
			doc := readDoc(t, c.Object)
			var vs []validate.Violation
			if c.Definition != "" {
				def, err := openapi.Definition(c.Definition)
				if err != nil {
					t.Fatal(err)
				}
				vs = validate.Value(doc, def)
			} else {
				vs = validate.Object(doc, s)
			}
			got := make([]string, len(vs))
			for i, v := range vs {
				got[i] = v.String()
				if p, err := fieldpath.Parse(v.Path.String()); err != nil || !p.Equal(v.Path) {
					t.Errorf("the path %s does not read back (%v)", v.Path, err)
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.Want, "\n") {
				t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.Want, "\n"))
			}
		})
	}
}

// TestNodesAndValues checks the data of a violation besides its text:
// the node at fault, what was wanted and found.
func TestNodesAndValues(t *testing.T) {
	doc := readDoc(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: 1\n")
	vs := validate.Object(doc, nil)
	if len(vs) != 1 {
		t.Fatalf("got %v", vs)
	}
	v := vs[0]
	if v.Reason != validate.ReasonType || v.Want != "string" || v.Found != "the integer 1" || v.Node == nil || v.Node.Line != 6 || v.Node.Column != 6 {
		t.Errorf("got %+v", v)
	}
	if !v.Path.Equal(fieldpath.MustParse("data.a")) {
		t.Errorf("path %s", v.Path)
	}
}

// TestMissingNodes: a missing required field has no node.
func TestMissingNodes(t *testing.T) {
	vs := validate.Object(readDoc(t, "apiVersion: v1\nkind: ConfigMap\n"), nil)
	if len(vs) != 1 || vs[0].Reason != validate.ReasonRequired || vs[0].Node != nil || vs[0].Found != "nothing" {
		t.Fatalf("got %+v", vs)
	}
}

// TestNotAnObject: an empty document has nothing to check; one that is
// not a mapping is no object.
func TestNotAnObject(t *testing.T) {
	for text, want := range map[string]string{
		"- a\n":       "(the object): expected object, found a list",
		"a\n":         "(the object): expected object, found the string \"a\"",
		"# nothing\n": "",
	} {
		st, err := tree.Read([]byte(text), tree.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var doc *yaml.Node
		if len(st.Docs) > 0 {
			doc = st.Docs[0]
		}
		got := ""
		for _, v := range validate.Object(doc, nil) {
			got += v.String()
		}
		if got != want {
			t.Errorf("%q: %s, want %s", text, got, want)
		}
	}
	if vs := validate.Value(readDoc(t, "a: 1\n"), nil); len(vs) != 0 {
		t.Errorf("a nil type takes anything: %v", vs)
	}
}

func TestKindFits(t *testing.T) {
	b := schema.Builtin()
	deploy := b.Kind("apps/v1", "Deployment")
	replicas := deploy.Field("spec").Type.Field("replicas").Type
	crds, _ := loadSchemas(t)
	size := crds.Kind("example.com/v1", "Gadget").Field("spec").Type.Field("size").Type
	for _, c := range []struct {
		value string
		t     *schema.Type
		want  bool
	}{
		{"3", replicas, true},
		{"3.0", replicas, false}, // Go: a float is no integer
		{"3.0", size, true},      // a CRD: a whole float is
		{"3.5", size, false},
		{".inf", size, false},
		{"null", replicas, true},
		{"x", nil, true},
		{"{}", deploy, true},
		{"[]", deploy, false},
	} {
		if got := validate.KindFits(readDoc(t, c.value), c.t); got != c.want {
			t.Errorf("KindFits(%s, %s) = %v", c.value, c.t, got)
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, s := range []string{"strict", "warn", "none"} {
		m, err := validate.ParseMode(s)
		if err != nil || m.String() != s {
			t.Errorf("%s: %v %v", s, m, err)
		}
	}
	if _, err := validate.ParseMode("loose"); err == nil || !strings.Contains(err.Error(), "strict, warn or none") {
		t.Errorf("loose: %v", err)
	}
	if !validate.Strict.Fails(validate.Violation{}) || validate.Strict.Fails(validate.Violation{Input: true}) || validate.Warn.Fails(validate.Violation{}) {
		t.Error("Fails: strict fails what a patch wrote, nothing else")
	}
}
