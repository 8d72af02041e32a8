package kpatch

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// TestParseValue: quoting, variables and the $${ escape.
func TestParseValue(t *testing.T) {
	vars := NewVars()
	if err := vars.LoadValues([]byte("a: x\nn: 3\nnested: {b: y}\n"), "v.yaml"); err != nil {
		t.Fatal(err)
	}
	vars.SetFeature("on", true)
	for _, c := range []struct {
		raw, text string
		single    bool
	}{
		{"plain", "plain", false},
		{`"quoted ${values.a}"`, "quoted x", false},
		{`'single $${values.a}'`, "single ${values.a}", false},
		{"${values.n}", "3", true},
		{`"${values.n}"`, "3", false}, // quoted: a string, not the number
		{"${values.nested.b}-${features.on}", "y-true", false},
		{"$${HOME}", "${HOME}", false},
		{"$$", "$$", false},
	} {
		ps, err := syntax.ParseKpatch([]byte("[cm.a]\nx: "+c.raw+"\n"), "f.kpatch")
		if err != nil {
			t.Errorf("%s: %v", c.raw, err)
			continue
		}
		v := ps[0].Sets[0].Value
		text, _, err := vars.resolve(v)
		if err != nil {
			t.Errorf("%s: %v", c.raw, err)
			continue
		}
		if text != c.text || v.SingleVariable() != c.single {
			t.Errorf("%s: %q single=%v, want %q single=%v", c.raw, text, v.SingleVariable(), c.text, c.single)
		}
	}
}

// TestVars: --set and --feature text, and their errors.
func TestVars(t *testing.T) {
	v := NewVars()
	for _, s := range []string{"values.a.b=1", "a.c=text", "d=\"2\"", "e=true"} {
		if err := v.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{"x=true", "y=false", "features.z"} {
		if err := v.SetFeatureText(s); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(v.Names(), " "); got != "features.x features.y features.z values.a.b values.a.c values.d values.e" {
		t.Errorf("names: %s", got)
	}
	for ref, want := range map[string]string{"values.a.b": "!!int 1", "values.a.c": "!!str text", "values.d": "!!str 2", "values.e": "!!bool true", "features.y": "!!bool false"} {
		n, err := v.lookup(ref)
		if err != nil {
			t.Errorf("%s: %v", ref, err)
			continue
		}
		if got := n.Tag + " " + n.Value; got != want {
			t.Errorf("%s: %s, want %s", ref, got, want)
		}
	}
	for _, bad := range []string{"=x", "novalue"} {
		if err := v.Set(bad); err == nil {
			t.Errorf("--set %q: no error", bad)
		}
	}
	for _, bad := range []string{"x=maybe", "=true"} {
		if err := v.SetFeatureText(bad); err == nil {
			t.Errorf("--feature %q: no error", bad)
		}
	}
	if err := v.LoadValues([]byte("- a\n"), "v.yaml"); err == nil || !strings.Contains(err.Error(), "v.yaml:1:1: values must be a mapping") {
		t.Errorf("a list of values: %v", err)
	}
}

// TestPatchDocumentVariablesTyped: a variable in a strategic or merge patch
// is typed by the schema as a .kpatch value is (issue 27 item 13: replicas:
// "${values.replicas}" was the string "5", which validation refused, while
// the same line of a .kpatch is the integer 5). Each case sets the same
// fields of the same Deployment by a .kpatch and by a strategic and a merge
// patch; the three outputs must be the same, and the one expected: where
// the schema admits one scalar type (replicas, paused, minReadySeconds, a
// label's value, a port's nodePort, in a list), the value is of it, quoted or not,
// one variable or text built from several; where it admits several
// (targetPort, int-or-string) or the kind has no schema (Widget), quotes
// and text built from variables make a string and one unquoted variable
// keeps its type. A value that is not of the one type is an error naming
// the variable, as in a .kpatch.
func TestPatchDocumentVariablesTyped(t *testing.T) {
	const manifests = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n---\n" +
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n---\n" +
		"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 1\n"
	vars := NewVars()
	if err := vars.LoadValues([]byte("replicas: 5\npaused: \"true\"\nport: 8080\nname: web\nmany: many\n"), "values.yaml"); err != nil {
		t.Fatal(err)
	}
	run := func(patches []*syntax.Patch) (string, error) {
		set, err := resource.Parse([]byte(manifests), "m.yaml", resource.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		set.Sources[0].Stream.Snapshot()
		if _, err := Apply(context.Background(), set, patches, Options{Vars: vars}); err != nil {
			return "", err
		}
		var b bytes.Buffer
		if err := set.Sources[0].Stream.WriteYAML(&b); err != nil {
			t.Fatal(err)
		}
		return b.String(), nil
	}
	kpatchText := "[deployment.web]\nspec.replicas: \"${values.replicas}\"\nspec.paused: \"${values.paused}\"\n" +
		"spec.minReadySeconds: 1${values.replicas}\nmetadata.labels.n: ${values.replicas}\n" +
		"[service.web]\nspec.ports[0].targetPort: \"${values.port}\"\nspec.ports[0].nodePort: \"3${values.port}\"\n" +
		"[widget.w]\nspec.size: ${values.port}\nspec.name: \"${values.replicas}\"\nspec.label: v${values.replicas}\n"
	document := func(typ string) string {
		return "- target: deployment.web\n  type: " + typ + "\n  patch:\n    spec:\n      replicas: \"${values.replicas}\"\n" +
			"      paused: \"${values.paused}\"\n      minReadySeconds: 1${values.replicas}\n" +
			"    metadata:\n      labels:\n        n: ${values.replicas}\n" +
			"- target: service.web\n  type: " + typ + "\n  patch:\n    spec:\n      ports:\n      - port: 80\n        targetPort: \"${values.port}\"\n        nodePort: \"3${values.port}\"\n" +
			"- target: widget.w\n  type: merge\n  patch:\n    spec:\n      size: ${values.port}\n      name: \"${values.replicas}\"\n      label: v${values.replicas}\n"
	}
	want := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    \"n\": \"5\"\nspec:\n  replicas: 5\n  paused: true\n  minReadySeconds: 15\n---\n" +
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n    targetPort: \"8080\"\n    nodePort: 38080\n---\n" +
		"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 8080\n  name: \"5\"\n  label: v5\n"
	kps, err := syntax.ParseKpatch([]byte(kpatchText), "p.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	got, err := run(kps)
	if err != nil || got != want {
		t.Fatalf(".kpatch: %v\n%s\nwant\n%s", err, got, want)
	}
	for _, typ := range []string{"strategic", "merge"} {
		ps, err := syntax.ParseYAML([]byte(document(typ)), "p.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if got, err := run(ps); err != nil || got != want {
			t.Errorf("%s patch: %v\n%s\nwant, as the .kpatch gives it:\n%s", typ, err, got, want)
		}
	}
	ps, err := syntax.ParseYAML([]byte("- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      replicas: \"${values.many}\"\n"), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	wantErr := `p.yaml:5:17: apps/v1 Deployment web: spec.replicas is an integer (schema type integer/int32); ${values.many} is "many", which is not an integer`
	if _, err := run(ps); err == nil || err.Error() != wantErr {
		t.Errorf("a variable that is no integer: %v\nwant %s", err, wantErr)
	}
}

// TestSetMany: many --set values, nested, overriding one another and the
// values of a file (a mapping replaced by a value and the value by a
// mapping again), read as setting each one with tree.MapGet and
// tree.MapSet would: Set keeps an index of the mappings it writes into
// from one call to the next (each scanned them: n flags took n^2), which
// must follow the values a file merges in between.
func TestSetMany(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 7))
	v := NewVars()
	want := tree.NewMap()
	set := func(path string, val *yaml.Node) {
		m := want
		keys := strings.Split(path, ".")
		for _, k := range keys[:len(keys)-1] {
			next := tree.MapGet(m, k)
			if next == nil || next.Kind != yaml.MappingNode {
				next = tree.NewMap()
				tree.MapSet(m, k, next)
			}
			m = next
		}
		tree.MapSet(m, keys[len(keys)-1], val)
	}
	var loaded []string // keys the files added
	for i := range 3000 {
		if i%500 == 250 {
			loaded = append(loaded, fmt.Sprintf("n%d", i), fmt.Sprintf("m%d", i))
			file := fmt.Sprintf("k%d: {x: 1}\nn%d: 2\nm%d: {y: 3}\n", r.IntN(50), i, i)
			if err := v.LoadValues([]byte(file), "v.yaml"); err != nil {
				t.Fatal(err)
			}
			st, err := tree.Read([]byte(file), tree.Options{})
			if err != nil {
				t.Fatal(err)
			}
			mergeValues(want, tree.Root(st.Docs[0]))
			continue
		}
		path := fmt.Sprintf("k%d", r.IntN(50))
		if len(loaded) > 0 && r.IntN(4) == 0 {
			path = loaded[r.IntN(len(loaded))]
		}
		for r.IntN(3) == 0 {
			path += fmt.Sprintf(".k%d", r.IntN(50))
		}
		if err := v.Set(fmt.Sprintf("%s=%d", path, i)); err != nil {
			t.Fatal(err)
		}
		set(path, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(i)})
	}
	var got, exp strings.Builder
	if err := tree.WriteYAML(&got, tree.Style{}, v.values); err != nil {
		t.Fatal(err)
	}
	if err := tree.WriteYAML(&exp, tree.Style{}, want); err != nil {
		t.Fatal(err)
	}
	if got.String() != exp.String() {
		t.Fatalf("the values:\n%s\nwant:\n%s", got.String(), exp.String())
	}
}
