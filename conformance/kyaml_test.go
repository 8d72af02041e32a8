package conformance

import (
	"testing"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kmerge/kmerge"
)

// TestKyamlRNode: kmerge works on kyaml's RNode through the *yaml.Node it
// wraps, as docs/integrations.md shows, with no conversion: the patched
// container keeps its line comment, and the containers the patch names come
// in the patch's order (web, then the new log), as upstream orders them.
func TestKyamlRNode(t *testing.T) {
	rn, err := kyaml.Parse(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web # the server
        image: nginx:1.25
`)
	if err != nil {
		t.Fatal(err)
	}
	patch, err := kyaml.Parse(`spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.27
      - name: log
        image: fluentbit:3
`)
	if err != nil {
		t.Fatal(err)
	}
	res, err := kmerge.PatchObject(rn.YNode(), patch.YNode(), kmerge.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rn.SetYNode(res)
	got, err := rn.String()
	if err != nil {
		t.Fatal(err)
	}
	want := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web # the server
        image: nginx:1.27
      - name: log
        image: fluentbit:3
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
