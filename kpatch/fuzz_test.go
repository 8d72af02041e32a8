package kpatch

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

const fuzzManifests = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: main
        image: a:1 # the app
        args: [--x]
        env:
        - {name: A, value: "1"}
      - name: side
        image: b:1
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - {name: http, port: 80, protocol: TCP}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  a: "1"
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  parts: [{name: p, n: 1}]
`

// FuzzApply applies any .kpatch text to a fixed set of manifests: no
// panic; an error is an *Error inside the patch text; the result writes as
// YAML that reads back as the patched objects.
func FuzzApply(f *testing.F) {
	for _, s := range []string{
		"[deployment.web]\nreplicas: 3\n[deployment.web.containers.name=main]\nimage: a:2\nenv[name=B].value: x\nargs[-]: --y\n",
		"[svc.web.ports[port=80,protocol=TCP]]\nname: web\n[cm.cfg]\ndata.b: ${values.b}\n",
		"[deployment.web.containers[+name=main]]\nname: new\nimage: n\n[deployment.web.containers.name=side]\n!delete\n",
		"[widget.w]\nspec.parts[name=p].n: 2\nspec.parts[-].name: q\nmetadata.labels.\"a.b/c\": !delete\n",
		"[deployment.*]\nlabels.tier: \"true\"\ncontainers.imagePullPolicy: Always\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		patches, err := syntax.ParseKpatch([]byte(src), "f")
		if err != nil {
			return // FuzzParse checks parse errors
		}
		set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(fuzzManifests), resource.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		vars := NewVars()
		if err := vars.Set("b=2"); err != nil {
			t.Fatal(err)
		}
		lines := strings.Count(src, "\n") + 1
		_, err = Apply(context.Background(), set, patches, Options{Vars: vars, Workers: 1})
		if err != nil {
			var pe *syntax.Error
			if !errors.As(err, &pe) || pe.Pos.File != "f" || pe.Pos.Line < 1 || pe.Pos.Line > lines {
				t.Fatalf("error without a place in the patch: %T %v", err, err)
			}
			return
		}
		var out bytes.Buffer
		if err := set.Sources[0].Stream.WriteYAML(&out); err != nil {
			t.Fatal(err)
		}
		back, err := tree.Read(out.Bytes(), tree.Options{})
		if err != nil {
			t.Fatalf("the result does not read: %v\n%s", err, out.String())
		}
		st := set.Sources[0].Stream
		var kept []*yaml.Node // the documents of the objects no patch deleted
		for i, d := range st.Docs {
			if !st.Removed(i) {
				kept = append(kept, d)
			}
		}
		if len(back.Docs) != len(kept) {
			t.Fatalf("%d documents written, %d read back", len(kept), len(back.Docs))
		}
		for i, d := range back.Docs {
			if !tree.Equal(d, kept[i]) {
				t.Fatalf("document %d reads back differently:\n%s", i, out.String())
			}
		}
	})
}
