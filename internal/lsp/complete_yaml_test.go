package lsp

import (
	"strings"
	"testing"
)

// TestYAMLPlace: the entry and keys above a cursor in a YAML patch list,
// read off each case by hand (the cursor is where "|" is; its key is what
// follows it on the line).
func TestYAMLPlace(t *testing.T) {
	for _, c := range []struct {
		name, text   string
		target, typ  string
		keys         string // joined with /
		outsidePatch bool
	}{
		{name: "directly below patch", text: "- target: deployment.web\n  patch:\n    |spec.replicas: 2\n",
			target: "deployment.web"},
		{name: "type after patch", text: "- target: deployment.web\n  patch:\n    spec:\n      |\n  type: strategic\n",
			target: "deployment.web", typ: "strategic", keys: "spec"},
		{name: "nested, block sequence indented", text: "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      template:\n        spec:\n          containers:\n            - name: web\n              |image: x\n",
			target: "deployment.web", typ: "strategic", keys: "spec/template/spec/containers"},
		{name: "compact sequence, a later key of the item", text: "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      containers:\n      - name: web\n        resources:\n          limits: {}\n        |\n",
			target: "deployment.web", typ: "strategic", keys: "spec/containers"},
		{name: "the key that starts an item", text: "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      containers:\n      - |name: web\n",
			target: "deployment.web", typ: "strategic", keys: "spec/containers"},
		{name: "below a key of an item", text: "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      containers:\n      - name: web\n        resources:\n          |\n",
			target: "deployment.web", typ: "strategic", keys: "spec/containers/resources"},
		{name: "the second entry, comments and blank lines", text: "- target: service.web\n  patch:\n    spec.type: NodePort\n\n# next\n- target: deployment.web   # the app\n  type: merge\n  patch:\n    # a comment\n\n    metadata:\n      |\n",
			target: "deployment.web", typ: "merge", keys: "metadata"},
		{name: "target and type on lines of the entry", text: "- type: strategic\n  target: 'deployment.web'\n  patch:\n    |\n",
			target: "deployment.web", typ: "strategic"},
		{name: "not in a patch", text: "- target: deployment.web\n  |\n", outsidePatch: true},
		{name: "a flow mapping above", text: "- target: deployment.web\n  patch: {spec: {}}\n  |\n", outsidePatch: true},
	} {
		var lines []string
		line, col := -1, 0
		for i, l := range strings.Split(c.text, "\n") {
			if j := strings.Index(l, "|"); j >= 0 {
				line, col, l = i, j, l[:j]+l[j+1:]
			}
			lines = append(lines, l)
		}
		y := readYAMLLine(lines[line][:col] + "x")
		pl, ok := yamlPlaceAt(lines, line, y.col, y.dash)
		if ok == c.outsidePatch {
			t.Errorf("%s: in a patch: %v, want %v", c.name, ok, !c.outsidePatch)
			continue
		}
		if got := strings.Join(pl.keys, "/"); ok && (pl.target != c.target || pl.typ != c.typ || got != c.keys) {
			t.Errorf("%s: target %q type %q keys %q, want %q %q %q", c.name, pl.target, pl.typ, got, c.target, c.typ, c.keys)
		}
	}
}
