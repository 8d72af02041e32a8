package kpatch

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// FuzzParse: no input makes the parsers panic; every error is an *Error
// (or, for YAML, a *tree.SyntaxError) whose position is inside the input; a
// path that parses prints as text that parses back to the same path; a
// .kpatch file that parses formats (Format) as text that parses to the
// same patches and that formatting again leaves as it is.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[deployment.app]\nreplicas: 3\n",
		"[staging/deployment.app.containers.name=main.ports[port=53,protocol=UDP]]\ncontainerPort = 9090 # c\n",
		"[cm.\"a.b\"]\ndata.'x.y': \"${values.a}-$${b}\"\ndata.z: !delete\n",
		"[pod.p.containers[-name=a]]\nname: x\n[pod.p.containers[+2]]\n!delete\n",
		"[a.b.c[-]]\nargs[-3]: x\n",
		"  [deployment.app.containers[name=main][0]]  # c\n\n\n\tx = 'a''b' # d\n[\"a/b\".x.name=y]\n!delete\n",
		"- target: deployment.app\n  type: strategic\n  patch: {spec: {replicas: 2}}\n",
		"- target: {kind: Deployment, labelSelector: 'a in (b,c)'}\n  patch:\n    spec.replicas: !delete\n",
		"[deployment.shop-*{app=web, tier notin (a,b)}.containers.name=web]\nimage: x\n[*.*{!legacy}]\n!delete\n[cm.web]\n!delete\n",
		"- target: {group: apps, name: 'shop-(a|b)', annotationSelector: x=y}\n  type: strategic\n  options: {allowNameChange: true}\n  patch: {$patch: delete}\n- target: demo\n  patch: !delete\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// lines as YAML counts them (\r, NEL, LS and PS end lines too),
		// plus one for an error at the very end
		lines := strings.Count(yamlBreaks.Replace(src), "\n") + 1
		check := func(err error) {
			var pe *Error
			var se *tree.SyntaxError
			switch {
			case err == nil:
			case errors.As(err, &pe):
				if pe.Pos.File != "f" || pe.Pos.Line < 1 || pe.Pos.Line > lines || pe.Pos.Column < 1 {
					t.Fatalf("error outside the input (%d lines): %v", lines, err)
				}
			case errors.As(err, &se):
				if se.Pos.File != "f" || se.Pos.Line > lines {
					t.Fatalf("syntax error outside the input (%d lines): %v", lines, err)
				}
			default:
				t.Fatalf("error without a position: %T %v", err, err)
			}
		}
		patches, err := ParseKpatch([]byte(src), "f")
		check(err)
		checkFormat(t, src)
		for _, p := range patches {
			roundTrip(t, p.Path)
			for _, a := range p.Sets {
				roundTrip(t, a.Key)
			}
		}
		_, err = ParseYAML([]byte(src), "f")
		check(err)
		if !strings.Contains(src, "\n") {
			p, err := ParsePath(src, tree.Position{File: "f", Line: 1, Column: 1})
			check(err)
			roundTrip(t, p)
		}
	})
}

func roundTrip(t *testing.T, p Path) {
	if len(p) == 0 {
		return
	}
	text := p.String()
	q, err := ParsePath(text, tree.Position{File: "f", Line: 1, Column: 1})
	if err != nil {
		t.Fatalf("%s does not parse back: %v", text, err)
	}
	if q.String() != text {
		t.Fatalf("%s parses back as %s", text, q.String())
	}
}

// yamlBreaks turns every line break YAML knows into \n.
var yamlBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n")

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
		patches, err := ParseKpatch([]byte(src), "f")
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
			var pe *Error
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
