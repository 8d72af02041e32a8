package kmerge_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
)

// Patch one YAML document with a strategic merge patch: containers merge by
// name, and everything the patch does not change keeps its text.
func ExamplePatch() {
	doc := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web

spec:
  template:
    spec:
      containers:
      - name: web         # the server
        image: nginx:1.25
      - name: log
        image: fluentbit:3
`
	patch := `{"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]}}}}`
	out, err := kmerge.Patch(context.Background(), []byte(doc), []byte(patch), kmerge.PatchOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   name: web
	//
	// spec:
	//   template:
	//     spec:
	//       containers:
	//       - name: web         # the server
	//         image: nginx:1.27
	//       - name: log
	//         image: fluentbit:3
}

// Patch one object node, as a program holding parsed YAML (or a kyaml
// RNode's YNode()) would.
func ExamplePatchObject() {
	var obj, patch yaml.Node
	if err := yaml.Unmarshal([]byte("apiVersion: v1\nkind: Service\nmetadata: {name: dns}\nspec:\n  ports:\n  - {port: 53, protocol: TCP}\n"), &obj); err != nil {
		panic(err)
	}
	if err := yaml.Unmarshal([]byte("spec:\n  ports:\n  - {port: 53, protocol: UDP, $patchMergeKey: [port, protocol]}\n"), &patch); err != nil {
		panic(err)
	}
	res, err := kmerge.PatchObject(&obj, &patch, kmerge.PatchOptions{})
	if err != nil {
		panic(err)
	}
	out, _ := yaml.Marshal(res)
	fmt.Print(string(out))
	// Output:
	// apiVersion: v1
	// kind: Service
	// metadata: {name: dns}
	// spec:
	//     ports:
	//         - {port: 53, protocol: UDP}
	//         - {port: 53, protocol: TCP}
}

// Diff two versions of a Deployment: the patch Kubernetes would compute
// (with the keys in the document's order; Kubernetes sorts them).
func ExampleDiff() {
	before := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - {name: web, image: nginx:1.25}\n"
	after := strings.Replace(strings.Replace(before, "replicas: 1", "replicas: 3", 1), "1.25", "1.27", 1)
	patch, err := kmerge.Diff(context.Background(), []byte(before), []byte(after), kmerge.DiffOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(patch))
	// Output:
	// spec:
	//   replicas: 3
	//   template:
	//     spec:
	//       $setElementOrder/containers:
	//       - name: web
	//       containers:
	//       - name: web
	//         image: nginx:1.27
}

// The patch kubectl apply sends for a custom resource (a JSON merge patch,
// three-way): last applied, new and live configurations in. The live
// object was scaled to 5 by hand, which the patch would undo: without
// Overwrite, Diff refuses and says where.
func ExampleDiff_threeWayMerge() {
	applied := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3, color: red}\n"
	modified := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3, shape: round}\n"
	live := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, uid: u1}\nspec: {size: 5, color: red}\nstatus: {ready: true}\n"
	opts := kmerge.DiffOptions{Type: kmerge.Merge, Current: []byte(live)}
	_, err := kmerge.Diff(context.Background(), []byte(applied), []byte(modified), opts)
	var conflicts *change.LiveConflictError
	if errors.As(err, &conflicts) {
		for _, c := range conflicts.Conflicts {
			fmt.Printf("conflict at %s\n", c.Path)
		}
	}
	opts.Overwrite = true
	patch, err := kmerge.Diff(context.Background(), []byte(applied), []byte(modified), opts)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(patch))
	// Output:
	// conflict at spec.size
	// spec:
	//   size: 3
	//   shape: round
	//   color: null
}

// Apply the example overrides to the example manifests, as kmerge apply
// does, and list what changed.
func ExampleApply() {
	vars := kpatch.NewVars()
	values, err := os.ReadFile("examples/values.yaml")
	if err != nil {
		panic(err)
	}
	if err := vars.LoadValues(values, "examples/values.yaml"); err != nil {
		panic(err)
	}
	schemaOpts, err := kmerge.LoadSchemas([]string{"examples/crds/widget-crd.yaml"})
	if err != nil {
		panic(err)
	}
	res, err := kmerge.Apply(context.Background(), kmerge.ApplyOptions{
		Manifests: []string{"examples/base"},
		Patches:   []string{"examples/overrides"},
		ApplyPatchesOptions: kmerge.ApplyPatchesOptions{
			Vars:   vars,
			Schema: schemaOpts,
		},
	})
	if err != nil {
		panic(err)
	}
	for _, f := range res.Files {
		fmt.Println(f.Rel, f.Changed())
	}
	fmt.Println(len(res.Warnings), "warnings,", len(res.Conflicts), "conflicts")
	// Output:
	// config.yaml true
	// deployment.yaml true
	// ingress.yaml true
	// service.yaml true
	// 0 warnings, 0 conflicts
}

// Apply a .kpatch file to manifests held in memory, with no file system:
// resource.Parse and kpatch.Parse read texts as Load reads files, under
// the names given, which messages and the diff use.
func ExampleApplyPatches() {
	manifests := []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1 # scaled by the overrides
`)
	set, err := resource.Parse(manifests, "web.yaml", resource.LoadOptions{})
	if err != nil {
		panic(err)
	}
	patches, err := kpatch.Parse([]byte("[deployment.web]\nreplicas: 3\n"), "prod.kpatch", kpatch.LoadOptions{})
	if err != nil {
		panic(err)
	}
	res, err := kmerge.ApplyPatches(context.Background(), set, patches, kmerge.ApplyPatchesOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Print(res.Diff())
	// Output:
	// --- a/web.yaml
	// +++ b/web.yaml
	// @@ -3,4 +3,4 @@
	//  metadata:
	//    name: web
	//  spec:
	// -  replicas: 1 # scaled by the overrides
	// +  replicas: 3 # scaled by the overrides
}

// ExampleBlame says which patch wrote each line of an object: here the
// replicas of the conflicts example, which a strategic patch sets to 5
// and two field patches to 2 and then 3 (field patches come after
// strategic ones), and the label that b.kpatch deletes.
func ExampleBlame() {
	dir := "cmd/kmerge/testdata/apply/conflicts-apply/"
	res, err := kmerge.Blame(context.Background(), kmerge.ApplyOptions{Manifests: []string{dir + "base"}, Patches: []string{dir + "patches"}},
		resource.Selector{Kind: "deployment", Name: "app"})
	if err != nil {
		panic(err)
	}
	for _, d := range res.Documents {
		for _, o := range d.Objects {
			for _, og := range o.Origins {
				if og.Path.String() != "spec.replicas" && og.Path.String() != "metadata.labels.tier" {
					continue
				}
				fmt.Printf("%s %s by %s:%d, lines %d-%d, over", og.Op, og.Path, filepath.Base(og.Pos.File), og.Pos.Line, og.Start, og.End)
				for _, x := range og.Overrode {
					fmt.Printf(" %s:%d", filepath.Base(x.Pos.File), x.Pos.Line)
				}
				fmt.Println()
			}
		}
	}
	// Output:
	// sets spec.replicas by b.kpatch:2, lines 8-8, over c.yaml:5 a.kpatch:2
	// deletes metadata.labels.tier by b.kpatch:3, lines 0-0, over a.kpatch:3
}
