package jsonpatch_test

import (
	"fmt"
	"os"

	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/tree"
)

func ExampleApply() {
	doc, _ := tree.Read([]byte(`# the web tier
spec:
  replicas: 1 # scaled by the HPA
  ports: [80]
`), tree.Options{File: "deploy.yaml"})
	patch, _ := tree.Read([]byte(`
- {op: test, path: /spec/replicas, value: 1}
- {op: replace, path: /spec/replicas, value: 3}
- {op: add, path: /spec/ports/-, value: 443}
`), tree.Options{File: "patch.yaml"})

	if _, err := jsonpatch.Apply(doc.Docs[0], patch.Docs[0], jsonpatch.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	_ = doc.WriteYAML(os.Stdout)

	// A failed operation leaves the document as it was.
	bad, _ := tree.Read([]byte(`[{"op": "remove", "path": "/spec/x"}]`), tree.Options{File: "bad.json"})
	if _, err := jsonpatch.Apply(doc.Docs[0], bad.Docs[0], jsonpatch.Options{File: "bad.json"}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// # the web tier
	// spec:
	//   replicas: 3 # scaled by the HPA
	//   ports: [80, 443]
	// bad.json:1:2: operation 0 (remove /spec/x): no member "x" in the object at /spec
}
