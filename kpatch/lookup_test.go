package kpatch

import (
	"context"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

func lookupSet(t *testing.T) *resource.Set {
	t.Helper()
	set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(fuzzManifests), resource.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// Lookup follows a path as apply does (a shortcut, a selector, every
// item of a list) and changes nothing.
func TestLookup(t *testing.T) {
	set := lookupSet(t)
	web := set.Resources[0]
	before, _ := tree.MarshalJSON(web.Root)
	for _, c := range []struct {
		path  string
		want  []string // canonical path = value ("" absent)
		field string
	}{
		{"replicas", []string{"spec.replicas=1"}, "replicas"},
		{"containers[name=main].image", []string{"spec.template.spec.containers[name=main].image=a:1"}, "image"},
		{"containers.image", []string{"spec.template.spec.containers[name=main].image=a:1", "spec.template.spec.containers[name=side].image=b:1"}, "image"},
		{"metadata.annotations.x", []string{"metadata.annotations.x="}, ""},
		{"containers[name=nosuch].image", nil, ""},
		{"containers[+name=main].image", []string{"spec.template.spec.containers[1].image="}, "image"},
	} {
		path, err := syntax.ParsePath(c.path, tree.Position{File: "f", Line: 1, Column: 1})
		if err != nil {
			t.Fatal(err)
		}
		places, err := Lookup(web, path, Options{})
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		var got []string
		for _, pl := range places {
			v := ""
			if pl.Node != nil {
				v = pl.Node.Value
			}
			got = append(got, pl.Path.String()+"="+v)
			if c.field != "" && (pl.Field == nil || pl.Field.Name != c.field) {
				t.Errorf("%s: field %v, want %s", c.path, pl.Field, c.field)
			}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: %v, want %v", c.path, got, c.want)
		}
	}
	after, _ := tree.MarshalJSON(web.Root)
	if string(before) != string(after) {
		t.Errorf("Lookup changed the object:\n%s\n%s", before, after)
	}
	path, _ := syntax.ParsePath("spec.replica", tree.Position{File: "f", Line: 3, Column: 1})
	if _, err := Lookup(web, path, Options{}); err == nil || !strings.HasPrefix(err.Error(), "f:3:6: ") || !strings.Contains(err.Error(), `has no field "replica"`) {
		t.Errorf("an unknown field: %v", err)
	}
	places, _ := Lookup(web, syntax.Path{{Field: "replicas"}}, Options{})
	if len(places) != 1 || places[0].Key == nil || places[0].Key.Value != "replicas" || places[0].Key.Line != 7 {
		t.Errorf("the key of replicas: %+v", places)
	}
}

func TestShortcuts(t *testing.T) {
	sc := map[string]string{}
	for _, s := range Shortcuts(schema.Builtin().Kind("apps/v1", "Deployment")) {
		sc[s.Name] = strings.Join(s.Path, ".")
	}
	for name, want := range map[string]string{"replicas": "spec.replicas", "containers": "spec.template.spec.containers", "labels": "metadata.labels"} {
		if sc[name] != want {
			t.Errorf("%s: %q, want %s", name, sc[name], want)
		}
	}
	for _, name := range []string{"spec", "localhostProfile", "status", "conditions"} {
		if _, ok := sc[name]; ok {
			t.Errorf("%s is no shortcut (a field, ambiguous, or status's): %s", name, sc[name])
		}
	}
	if Shortcuts(nil) != nil {
		t.Error("shortcuts without a type")
	}
}

// KeepGoing reports every error, in the order of a sequential run, and
// applies what does not fail.
func TestKeepGoing(t *testing.T) {
	patches, err := syntax.ParseKpatch([]byte("[deployment.web]\nreplicas: many\n[svc.web]\nspec.nosuch: 1\n[cm.cfg]\ndata.b: x\n"), "f")
	if err != nil {
		t.Fatal(err)
	}
	set := lookupSet(t)
	if _, err := Apply(context.Background(), set, patches, Options{}); err == nil || !strings.HasPrefix(err.Error(), "f:2:11: ") {
		t.Fatalf("without KeepGoing: %v, want the first error", err)
	}
	set = lookupSet(t)
	res, err := Apply(context.Background(), set, patches, Options{KeepGoing: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) != 2 || !strings.HasPrefix(res.Errors[0].Error(), "f:2:11: ") || !strings.HasPrefix(res.Errors[1].Error(), "f:4:6: ") {
		t.Fatalf("errors: %v", res.Errors)
	}
	if v := tree.MapGet(tree.MapGet(set.Resources[2].Root, "data"), "b"); v == nil || v.Value != "x" {
		t.Errorf("the patch that does not fail was not applied")
	}
}
