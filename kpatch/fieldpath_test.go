package kpatch

import (
	"context"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
)

// TestFieldpathKeys: the paths kmerge prints (fieldpath's text) are keys
// of field patches that name the same place: each path below, pasted into
// a .kpatch key, sets the value fieldpath.Get finds at it. (That the
// grammars read each other's text alike is syntax's FuzzPathGrammars;
// this is the same on a document, through the walk apply makes.)
func TestFieldpathKeys(t *testing.T) {
	const doc = `apiVersion: example.com/v1
kind: Thing
metadata: {name: x}
spec:
  ports: [{port: 53, protocol: TCP, t: 1}, {port: 53, protocol: UDP, t: 1}]
  names: [{name: 53, v: 1}, {name: "53", v: 1}, {name: my app, v: 1}, {name: "a,b", v: 1}]
  labels: {app.kubernetes.io/name: x, "1": y, "true": z, "": e, "a:b": c, "-x": d}
  finalizers: [a, b]
  args: [p, q]
`
	for _, text := range []string{
		"spec.ports[port=53,protocol=UDP].t",
		"spec.names[name=53].v",
		`spec.names[name="53"].v`,
		`spec.names[name="my app"].v`,
		`spec.names[name="a,b"].v`,
		`spec.labels."app.kubernetes.io/name"`,
		`spec.labels."1"`,
		`spec.labels."true"`,
		`spec.labels.""`,
		`spec.labels."a:b"`,
		`spec.labels."-x"`,
		"spec.args[1]",
		"spec.finalizers[=b]",
	} {
		p, err := fieldpath.Parse(text)
		if err != nil || p.String() != text {
			t.Fatalf("%s is not a path as fieldpath writes it: %v", text, err)
		}
		set, err := resource.Load(context.Background(), []string{"-"}, strings.NewReader(doc), resource.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := fieldpath.Get(set.Resources[0].Root, p)
		if want == nil {
			t.Fatalf("%s: no value in the document", text)
		}
		patches, err := syntax.ParseKpatch([]byte("[thing.x]\n"+text+": changed\n"), "p.kpatch")
		if err != nil {
			t.Errorf("%s: not a .kpatch key: %v", text, err)
			continue
		}
		if _, err := Apply(context.Background(), set, patches, Options{Strict: true}); err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if want.Value != "changed" {
			t.Errorf("%s: the field patch changed another place", text)
		}
	}
}
