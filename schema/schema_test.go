package schema

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

func TestBuiltin(t *testing.T) {
	s := Builtin()
	if n := len(s.Kinds()); n < 300 {
		t.Fatalf("the built-in table has %d kinds; k8s.io/api has over 300", n)
	}
	dep := s.Kind("apps/v1", "Deployment")
	if dep == nil {
		t.Fatal("no apps/v1 Deployment")
	}
	// walk to containers and check the metadata the struct tags give
	spec, _, err := dep.PatchField("spec", false)
	must(t, err)
	tmpl, _, err := spec.PatchField("template", false)
	must(t, err)
	podSpec, _, err := tmpl.PatchField("spec", false)
	must(t, err)
	container, meta, err := podSpec.PatchField("containers", true)
	must(t, err)
	if meta.Strategy != StrategyMerge || !reflect.DeepEqual(meta.MergeKey, []string{"name"}) {
		t.Fatalf("containers: %+v", meta)
	}
	_, ports, err := container.PatchField("ports", true)
	must(t, err)
	if !reflect.DeepEqual(ports.MergeKey, []string{"containerPort"}) || !reflect.DeepEqual(ports.RecommendedKeys, []string{"containerPort", "protocol"}) {
		t.Fatalf("ports: %+v", ports)
	}
	f := podSpec.Field("volumes")
	if f.ListType != "map" || !f.Meta.RetainKeys || f.Meta.Strategy != StrategyMerge {
		t.Fatalf("volumes: %+v", f)
	}
	_, strategy, err := spec.PatchField("strategy", false)
	must(t, err)
	if !strategy.RetainKeys {
		t.Fatalf("strategy: %+v", strategy)
	}
	// below a map of strings, and unknown fields, the lookup fails as upstream's does
	labels, _, err := tmpl.PatchField("metadata", false)
	must(t, err)
	lm, _, err := labels.PatchField("labels", false)
	must(t, err)
	if _, _, err := lm.PatchField("app", false); err == nil {
		t.Fatal("a lookup below a map succeeded")
	}
	if _, _, err := spec.PatchField("nosuch", false); err == nil || !strings.Contains(err.Error(), "unable to find api field") {
		t.Fatalf("unknown field: %v", err)
	}
	// field names match case-insensitively, as in encoding/json
	if _, _, err := spec.PatchField("Template", false); err != nil {
		t.Fatalf("case-insensitive match: %v", err)
	}
	if BuiltinVersion() == "" || !strings.HasPrefix(BuiltinVersion(), "v0.") {
		t.Fatalf("BuiltinVersion %q", BuiltinVersion())
	}
}

func TestBuiltinIsSafeForConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if Builtin().Kind("v1", "Pod") == nil {
				t.Error("no v1 Pod")
			}
		}()
	}
	wg.Wait()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

type inner struct {
	Shared string `json:"shared"`
	Deep   string
}

type tagged struct {
	Shared string `json:"shared"`
}

type outer struct {
	inner
	*tagged
	Own      []item            `json:"own" patchStrategy:"merge" patchMergeKey:"id" recommendedPatchMergeKey:"id,kind"`
	Ptr      *item             `json:"ptr" patchStrategy:"merge" patchMergeKey:"id"`
	Nested   [][]string        `json:"nested"`
	Map      map[string]string `json:"map"`
	Skip     string            `json:"-"`
	unexport string            // unexported fields are not JSON fields
}

var _ = outer{unexport: ""}

type item struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

func TestFromGoType(t *testing.T) {
	typ := FromGoType(reflect.TypeFor[*outer]())
	var names []string
	for _, f := range typ.Fields() {
		names = append(names, f.Name)
	}
	// "shared" appears twice at depth 1, both tagged: encoding/json drops both
	if want := []string{"Deep", "own", "ptr", "nested", "map"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("fields %v, want %v", names, want)
	}
	elem, meta, err := typ.PatchField("own", true)
	must(t, err)
	if elem.Field("id") == nil || !reflect.DeepEqual(meta.RecommendedKeys, []string{"id", "kind"}) {
		t.Fatalf("own: %+v", meta)
	}
	// a pointer to a struct is looked up as a list of that struct (upstream's mergeItemPtr)
	if elem, _, err := typ.PatchField("ptr", true); err != nil || elem.Field("kind") == nil {
		t.Fatalf("ptr as a list: %v", err)
	}
	if _, _, err := typ.PatchField("nested", true); err == nil || !strings.Contains(err.Error(), "slice of slice") {
		t.Fatalf("slice of slices: %v", err)
	}
	if _, _, err := typ.PatchField("map", true); err == nil {
		t.Fatal("a map looked up as a list")
	}
	if FromGoType(nil) != nil {
		t.Fatal("FromGoType(nil)")
	}
}

func TestParseStrategy(t *testing.T) {
	for _, c := range []struct {
		raw    string
		want   Strategy
		retain bool
		bad    bool
	}{
		{"", StrategyNone, false, false},
		{"merge", StrategyMerge, false, false},
		{"replace", StrategyReplace, false, false},
		{"retainKeys", StrategyNone, true, false},
		{"merge,retainKeys", StrategyMerge, true, false},
		{"retainKeys,replace", StrategyReplace, true, false},
		{"merge|retainKeys", StrategyNone, false, false}, // an unknown name acts as none, as upstream
		{"merge,replace", StrategyNone, false, true},
		{"a,b,c", StrategyNone, false, true},
	} {
		m := parseStrategy(c.raw)
		if m.Strategy != c.want || m.RetainKeys != c.retain || (m.err != "") != c.bad {
			t.Errorf("%q: %+v", c.raw, m)
		}
	}
}

const crdDoc = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              parts:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name, side]
                items: {type: object, properties: {name: {type: string}, side: {type: string}}}
              labels: {type: object, additionalProperties: {type: object, properties: {v: {type: string}}}}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
              atomic: {type: object, x-kubernetes-map-type: atomic, properties: {a: {type: string}}}
  - name: v0
    served: false
    schema: {openAPIV3Schema: {type: object}}
`

func TestLoadCRD(t *testing.T) {
	s, err := Load([]byte(crdDoc), "crd.yaml")
	must(t, err)
	w := s.Kind("example.com/v1", "Widget")
	if w == nil || s.Kind("example.com/v0", "Widget") != nil {
		t.Fatalf("kinds: %v", s.Kinds())
	}
	spec, _, err := w.PatchField("spec", false)
	must(t, err)
	_, parts, err := spec.PatchField("parts", true)
	must(t, err)
	if parts.Strategy != StrategyMerge || !reflect.DeepEqual(parts.MergeKey, []string{"name", "side"}) {
		t.Fatalf("parts: %+v", parts)
	}
	labels, _, err := spec.PatchField("labels", false)
	must(t, err)
	if v, _, err := labels.PatchField("anykey", false); err != nil || v.Field("v") == nil {
		t.Fatalf("a CRD map merges value by value: %v", err)
	}
	free, _, err := spec.PatchField("free", false)
	must(t, err)
	if free != nil {
		t.Fatal("preserve-unknown-fields without properties is free-form (nil)")
	}
	if _, m, err := spec.PatchField("atomic", false); err != nil || m.Strategy != StrategyReplace {
		t.Fatalf("map-type atomic: %+v %v", m, err)
	}
	if w.Source != "crd.yaml" || w.Name != "com.example.v1.Widget" {
		t.Fatalf("source %q name %q", w.Source, w.Name)
	}
}

func TestExtendNeverReplaces(t *testing.T) {
	// a CRD claiming a built-in kind does not change how it is patched
	doc := strings.ReplaceAll(strings.ReplaceAll(crdDoc, "group: example.com", "group: apps"), "kind: Widget", "kind: Deployment")
	doc = strings.ReplaceAll(doc, "- name: v1\n", "- name: v1\n")
	ext, err := Load([]byte(doc), "fake.yaml")
	must(t, err)
	s := Builtin().Extend(ext)
	if got := s.Kind("apps/v1", "Deployment"); got != Builtin().Kind("apps/v1", "Deployment") {
		t.Fatalf("the built-in Deployment was replaced by %s", got.Source)
	}
	mine, err := Load([]byte(crdDoc), "crd.yaml")
	must(t, err)
	if Builtin().Extend(mine).Kind("example.com/v1", "Widget") == nil {
		t.Fatal("Extend did not add the custom kind")
	}
	if got := Builtin().Extend(mine).Sources(); len(got) != 2 || got[1] != "crd.yaml" {
		t.Fatalf("Sources %v", got)
	}
}

func TestLoadRejectsOtherDocuments(t *testing.T) {
	for _, in := range []string{"apiVersion: v1\nkind: ConfigMap\n", "[1, 2]", ""} {
		if _, err := Load([]byte(in), "x.yaml"); err == nil {
			t.Errorf("%q loaded as a schema", in)
		}
	}
}

func TestDefinitionBySuffix(t *testing.T) {
	s := Builtin()
	if d, err := s.Definition("io.k8s.api.core.v1.Container"); err != nil || d.Field("image") == nil {
		t.Fatalf("exact name: %v", err)
	}
	if _, err := s.Definition("PodSpec"); err != nil {
		t.Fatalf("unique suffix: %v", err)
	}
	if _, err := s.Definition("Deployment"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Fatalf("ambiguous suffix: %v", err)
	}
}

type multi struct {
	Ports []port `json:"ports" patchStrategy:"merge" patchMergeKey:"port,protocol" recommendedPatchMergeKey:"protocol,name"`
}

type port struct {
	Port     int    `json:"port"`
	Protocol string `json:"protocol"`
	Name     string `json:"name"`
}

const v3Doc = `{"openapi": "3.0.0", "components": {"schemas": {
  "listener": {"type": "object", "properties": {
    "ports": {"type": "array", "items": {"type": "object", "properties": {"port": {"type": "integer"}}},
              "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"]},
    "tags": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
    "patched": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set",
                "x-kubernetes-patch-strategy": "replace"},
    "rec": {"type": "array", "items": {"type": "object"}, "x-kubernetes-patch-strategy": "merge",
            "x-kubernetes-patch-merge-key": "name", "x-kubernetes-recommended-patch-merge-key": "kind,name"}}}}}}`

func TestMultiFieldKeysFromEverySource(t *testing.T) {
	// struct tag; the recommended key is given without the default key
	// first, and is put right: the merge key, then the others
	_, m, err := FromGoType(reflect.TypeFor[multi]()).PatchField("ports", true)
	must(t, err)
	if !reflect.DeepEqual(m.MergeKey, []string{"port", "protocol"}) || !reflect.DeepEqual(m.RecommendedKeys, []string{"port", "protocol", "name"}) {
		t.Fatalf("struct tag: %+v", m)
	}
	s, err := Load([]byte(v3Doc), "v3.json")
	must(t, err)
	l, err := s.Definition("listener")
	must(t, err)
	_, m, err = l.PatchField("ports", true)
	must(t, err)
	if m.Strategy != StrategyMerge || !reflect.DeepEqual(m.MergeKey, []string{"port", "protocol"}) {
		t.Fatalf("list-map-keys: %+v", m)
	}
	if _, m, _ = l.PatchField("tags", true); m.Strategy != StrategyMerge {
		t.Fatalf("list-type set: %+v", m)
	}
	if _, m, _ = l.PatchField("patched", true); m.Strategy != StrategyReplace {
		t.Fatalf("a patch extension wins over the list type: %+v", m)
	}
	if _, m, _ = l.PatchField("rec", true); !reflect.DeepEqual(m.RecommendedKeys, []string{"name", "kind"}) {
		t.Fatalf("OpenAPI recommended key: %+v", m)
	}
}

func TestKindNames(t *testing.T) {
	s := Builtin()
	dep := GroupVersionKind{"apps", "v1", "Deployment"}
	for _, name := range []string{"Deployment", "deployment", "deployments", "deploy", "DEPLOY", "deployments.apps", "deploy.v1.apps"} {
		if !s.NameMatches(name, dep) {
			t.Errorf("%q does not name apps/v1 Deployment", name)
		}
	}
	for _, name := range []string{"deployments.extensions", "deploy.v1beta1.apps", "dep", "deployment.core"} {
		if s.NameMatches(name, dep) {
			t.Errorf("%q names apps/v1 Deployment", name)
		}
	}
	if got := s.Names(GroupVersionKind{"", "v1", "Endpoints"}).Plural; got != "endpoints" {
		t.Errorf("Endpoints plural %q", got)
	}
	if !s.NameMatches("ep", GroupVersionKind{"", "v1", "Endpoints"}) || !s.NameMatches("svc.core", GroupVersionKind{"", "v1", "Service"}) {
		t.Error("short names")
	}
	// an unknown kind still matches its kind and guessed plural
	widget := GroupVersionKind{"example.com", "v1", "Gizmo"}
	if !s.NameMatches("gizmos", widget) || !s.NameMatches("Gizmo.example.com", widget) {
		t.Error("unknown kinds")
	}
	got := s.FindKinds("deployment")
	if len(got) < 2 || got[0] != dep {
		t.Fatalf("FindKinds(deployment) = %v, want apps/v1 first", got)
	}
	if ev := s.FindKinds("ev"); len(ev) < 2 || ev[0].Group != "" || ev[0].Version != "v1" {
		t.Fatalf("FindKinds(ev) = %v, want the core v1 Event first", ev)
	}
	crd, err := Load([]byte(crdDoc), "crd.yaml")
	must(t, err)
	crd = Builtin().Extend(crd)
	if w := crd.FindKinds("widgets"); len(w) != 1 || w[0].Kind != "Widget" {
		t.Fatalf("CRD plural: %v", w)
	}
}

// TestLoadKustomizeOpenAPI: a kustomization's openapi: file is an OpenAPI
// v2 document of definitions alone, without "swagger": it is read as one
// (issue 27 item 12: --schema refused it; with "swagger": "2.0" added, five
// krusty cases agreed). The same document with "swagger" reads the same.
func TestLoadKustomizeOpenAPI(t *testing.T) {
	defs := `definitions:
  v1alpha1.MyCRD:
    x-kubernetes-group-version-kind: [{group: example.com, kind: MyCRD, version: v1alpha1}]
    properties:
      spec:
        properties:
          template:
            properties:
              spec:
                properties:
                  containers:
                    type: array
                    items: {$ref: "#/definitions/io.k8s.api.core.v1.Container"}
                    x-kubernetes-patch-strategy: merge
                    x-kubernetes-patch-merge-key: name
  io.k8s.api.core.v1.Container:
    properties: {name: {type: string}, image: {type: string}}
`
	for _, in := range []string{defs, "swagger: \"2.0\"\n" + defs} {
		s, err := Load([]byte(in), "openapi.json")
		if err != nil {
			t.Fatalf("%.30s...: %v", in, err)
		}
		k := s.Kind("example.com/v1alpha1", "MyCRD")
		if k == nil {
			t.Fatalf("%.30s...: no kind MyCRD", in)
		}
		c := k.Field("spec").Type.Field("template").Type.Field("spec").Type.Field("containers")
		if c == nil || len(c.Meta.MergeKey) != 1 || c.Meta.MergeKey[0] != "name" {
			t.Errorf("%.30s...: containers %+v", in, c)
		}
	}
	// a mapping with definitions that is something else is not one
	if _, err := Load([]byte("apiVersion: v1\nkind: ConfigMap\ndefinitions: {}\n"), "x.yaml"); err == nil {
		t.Error("a ConfigMap with a definitions key loaded as a schema")
	}
}

// TestLoadCRDWithoutSchema: apiextensions.k8s.io/v1beta1 makes a CRD's
// schema optional (spec.validation, and each version's schema), and the API
// server then keeps any field of its resources: the kind is free-form (Any:
// nothing refused, no list merge keys), not an error. apiextensions.k8s.io/v1
// requires the schema, so a v1 version without one stays an error, and so
// does a CRD with neither version nor versions.
func TestLoadCRDWithoutSchema(t *testing.T) {
	const v1beta1 = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
`
	for name, tc := range map[string]struct {
		doc, apiVersion string
	}{
		"version":  {v1beta1 + "  version: v1\n", "example.com/v1"},
		"versions": {v1beta1 + "  versions:\n  - {name: v1, served: true, storage: true}\n  - {name: v2, served: true, storage: false}\n", "example.com/v2"},
	} {
		s, err := Load([]byte(tc.doc), "crd.yaml")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w := s.Kind(tc.apiVersion, "Widget"); w == nil || w.Kind != Any {
			t.Fatalf("%s: %s Widget: %+v, want a free-form kind", name, tc.apiVersion, w)
		}
	}
	for name, tc := range map[string]struct{ doc, want string }{
		"v1 version without schema": {strings.Replace(v1beta1, "v1beta1", "v1", 1) + "  versions:\n  - {name: v1, served: true, storage: true}\n",
			`crd.yaml:10:5: version "v1" of Widget has no openAPIV3Schema`},
		"no version": {v1beta1, "crd.yaml:6:3: CustomResourceDefinition without versions"},
	} {
		if _, err := Load([]byte(tc.doc), "crd.yaml"); err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %s", name, err, tc.want)
		}
	}
}

// TestLoadNode: a document loaded as a node gives its errors at the node's
// lines and columns, in the file named.
func TestLoadNode(t *testing.T) {
	st, err := tree.Read([]byte("items:\n- apiVersion: apiextensions.k8s.io/v1\n  kind: CustomResourceDefinition\n  spec:\n    group: example.com\n    names: {kind: Widget}\n"), tree.Options{File: "list.yaml"})
	must(t, err)
	item := tree.MapGet(tree.Root(st.Docs[0]), "items").Content[0]
	if _, err := LoadNode(item, "list.yaml"); err == nil || err.Error() != "list.yaml:5:5: CustomResourceDefinition without versions" {
		t.Fatalf("error %v", err)
	}
	s, err := LoadNode(tree.Root(mustRead(t, crdDoc)), "crd.yaml")
	must(t, err)
	if s.Kind("example.com/v1", "Widget") == nil {
		t.Fatalf("kinds: %v", s.Kinds())
	}
}

func mustRead(t *testing.T, doc string) *yaml.Node {
	t.Helper()
	st, err := tree.Read([]byte(doc), tree.Options{})
	must(t, err)
	return st.Docs[0]
}
