package explain

import (
	"strings"
	"testing"

	"github.com/kmerge/kmerge/schema"
)

// spaced collapses the runs of spaces that align the columns.
func spaced(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// TestKind: the lines the Kubernetes API types' patch tags and list types
// call for (Service ports merge by port, are keyed by port and protocol for
// server-side apply; tolerations have no strategy: replaced), the kind
// qualified by its group, and the errors. The CLI's golden files
// (cmd/kmerge/testdata/explain-*.txt) hold whole outputs.
func TestKind(t *testing.T) {
	s := schema.Builtin()
	for _, c := range []struct {
		query, apiVersion string
		want              []string // lines of the output, or the error
	}{
		{"service.spec.ports", "", []string{
			"KIND:     Service",
			"PATH:     spec.ports",
			"STRATEGY:          merge  (patchStrategy \"merge\")",
			"MERGE KEY:         port",
			"RECOMMENDED KEYS:  port, protocol",
			"LIST TYPE:         map, keyed by port, protocol (server-side apply)",
			"A PATCH:           items merge by port; $patchMergeKey: [port, protocol] identifies items fully",
		}},
		{"deployment.apps.spec.template.spec.tolerations", "", []string{
			"VERSION:  apps/v1",
			"STRATEGY:          none",
			"A PATCH:           replaces the whole list; items with $patchMergeKey: [key] merge by it instead",
		}},
		{"deployment.spec.template.spec.containers.resources", "apps/v1", []string{
			"FIELD: resources <object io.k8s.api.core.v1.ResourceRequirements>",
			"A PATCH: merges field by field",
			"limits <map[string]int-or-string, quantity> merges field by field",
			"claims <[]object io.k8s.api.core.v1.ResourceClaim> replaces the whole list",
		}},
		{"configmap.data.anykey", "", []string{"PATH:     data.anykey"}}, // a key of a map
		{"deployment.spec.replicas", "", []string{"FIELD: replicas <integer, int32>", "A PATCH: replaces the value; null deletes the field"}},
		{"", "", []string{"error: no kind to explain: name one, as in deployment.spec.replicas"}},
		{"nosuchkind", "", []string{"error: no kind named \"nosuchkind\""}},
		{"deployment", "v2", []string{"error: no kind named \"deployment\" in v2"}},
		{"pod.spec.contaners", "", []string{"error: spec has no field \"contaners\""}},
		{"pod.spec.container", "", []string{"error: spec has no field \"container\"; did you mean containers?"}},   // the nearest: one letter away
		{"pod.spec.contianers", "", []string{"error: spec has no field \"contianers\"; did you mean containers?"}}, // a swap
		{"deploymnet", "", []string{"error: no kind named \"deploymnet\"; did you mean deployment?"}},              // where a CRD goes is the caller's to say (cmd/kmerge: --schema)
		{"deploymnet", "v1", []string{"error: no kind named \"deploymnet\" in v1"}},                                // a version given: no guessing
	} {
		words, err := Split(c.query)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		out, err := Kind(s, words, c.apiVersion)
		if err != nil {
			out = "error: " + err.Error()
		}
		for _, w := range c.want {
			if !strings.Contains(spaced(out), spaced(w)) {
				t.Errorf("%s: no %q in\n%s", c.query, w, out)
			}
		}
	}
}

// TestDefinition: a definition of an OpenAPI document, and a field of it.
func TestDefinition(t *testing.T) {
	s, err := schema.Load([]byte(`swagger: "2.0"
definitions:
  thing:
    properties:
      items:
        type: array
        items: {$ref: "#/definitions/item"}
        x-kubernetes-patch-strategy: merge
        x-kubernetes-patch-merge-key: name
  item:
    properties:
      name: {type: string}
`), "thing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	def, err := s.Definition("thing")
	if err != nil {
		t.Fatal(err)
	}
	words, err := Split("items")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Definition(def, words)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"DEFINITION: thing", "SOURCE: thing.yaml", "FIELD: items <[]object item>", "MERGE KEY: name", "A PATCH: items merge by name", "name <string>"} {
		if !strings.Contains(spaced(out), w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
}
