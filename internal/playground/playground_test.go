package playground

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/validate"
)

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the shop's front end
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.27
`

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
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
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  properties:
                    name: {type: string}
                    color: {type: string}
`

const widget = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  parts:
  - {name: wheel, color: black}
`

// TestRun: what the page shows for typical inputs. Each expectation is
// reasoned in its comment from docs/kpatch.md and the CLI's behaviour.
func TestRun(t *testing.T) {
	for _, c := range []struct {
		name string
		in   Input
		want Output // Result "" is not checked when Diff is set: see below
		// strings the result must hold
		holds []string
	}{{
		// a field patch with a variable: replicas becomes the integer 3,
		// the comment stays; the diff names the manifests by their pane,
		// a/ and b/ as kmerge apply --diff does; the trace names the
		// patch's line
		name: "kpatch with a variable",
		in:   Input{Manifests: deployment, Patches: "[deployment.web]\nreplicas: ${values.n}\n", Values: "n: 3\n"},
		want: Output{Objects: 1, Patches: 1,
			Diff:  "--- a/manifests.yaml\n+++ b/manifests.yaml\n@@ -3,7 +3,7 @@\n metadata:\n   name: web # the shop's front end\n spec:\n-  replicas: 1\n+  replicas: 3\n   template:\n     spec:\n       containers:\n",
			Trace: "patches.kpatch:2:1: apps/v1 Deployment web: spec.replicas: 1 -> 3\n"},
		holds: []string{"  name: web # the shop's front end\n", "  replicas: 3\n"},
	}, {
		// a YAML patch list with a strategic patch: containers merge by
		// name, so web keeps its image and sidecar is added (first, as an
		// API server puts new items: SEMANTICS.md's [A] + [B] = [B, A])
		name: "YAML patch list, strategic",
		in: Input{Manifests: deployment, PatchFormat: FormatPatchList,
			Patches: "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: sidecar\n            image: envoy\n"},
		want:  Output{Objects: 1, Patches: 1},
		holds: []string{"      - name: sidecar\n        image: envoy\n      - name: web\n        image: nginx:1.27\n"},
	}, {
		// "many" is no integer: the error points at the value in the
		// patch, and quotes it with a caret under column 11
		name: "type error",
		in:   Input{Manifests: deployment, Patches: "[deployment.web]\nreplicas: many\n"},
		want: Output{Error: &Message{
			Text:  `patches.kpatch:2:11: apps/v1 Deployment web: spec.replicas is an integer (schema type integer/int32); "many" is not an integer`,
			Quote: "  replicas: many\n            ^\n", File: KpatchFile, Line: 2, Column: 11}},
	}, {
		// an object where a list belongs: the result is checked against
		// its schema, as kmerge apply checks it, and the error points at
		// the patch (the field below containers, until the engines record
		// their changes)
		name: "schema violation",
		in: Input{Manifests: deployment, PatchFormat: FormatPatchList,
			Patches: "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      template:\n        spec:\n          containers:\n            name: sidecar\n"},
		want: Output{Error: &Message{
			Text:  "patches.yaml:7:11: spec.template.spec.containers: expected list, found an object\n  while patching manifests.yaml, apps/v1 Deployment web",
			Quote: "            containers:\n            ^\n", File: PatchListFile, Line: 7, Column: 11}},
	}, {
		// what the manifests had wrong already is a warning pointing into
		// them; the result is written
		name: "input violation",
		in:   Input{Manifests: strings.Replace(deployment, "  replicas: 1\n", "  replicas: 1\n  paused: \"no\"\n", 1), Patches: "[deployment.web]\nreplicas: 2\n"},
		want: Output{Objects: 1, Patches: 1, Warnings: []Message{{
			Text:  "manifests.yaml:7:11: warning: spec.paused: expected boolean, found the string \"no\"\n  in manifests.yaml, apps/v1 Deployment web: the input has it already (no patch wrote it)",
			Quote: "    paused: \"no\"\n            ^\n", File: ManifestsFile, Line: 7, Column: 11}}},
		holds: []string{"  replicas: 2\n"},
	}, {
		// a header not closed: a syntax error of the .kpatch file
		name: "kpatch syntax error",
		in:   Input{Manifests: deployment, Patches: "[deployment.web\nreplicas: 2\n"},
		want: Output{Error: &Message{Text: "patches.kpatch:1:1: a header ends with ]", Quote: "  [deployment.web\n  ^\n", File: KpatchFile, Line: 1, Column: 1}},
	}, {
		// the same text read as a YAML patch list is a list of nothing
		// YAML accepts: its name says which format it is
		name: "format decides the parser",
		in:   Input{Manifests: deployment, PatchFormat: FormatPatchList, Patches: "[deployment.web\n"},
		want: Output{Error: &Message{File: PatchListFile, Line: 1}},
	}, {
		// a target that matches nothing: a warning pointing at its header,
		// the manifests unchanged
		name: "warning",
		in:   Input{Manifests: deployment, Patches: "[deployment.api]\nreplicas: 2\n"},
		want: Output{Objects: 1, Patches: 1, Result: deployment, Warnings: []Message{{
			Text:  "patches.kpatch:1:1: warning: no object matches deployment.api; skipped",
			Quote: "  [deployment.api]\n  ^\n", File: KpatchFile, Line: 1, Column: 1}}},
	}, {
		// --strict: the warning is an error
		name: "strict",
		in:   Input{Manifests: deployment, Patches: "[deployment.api]\nreplicas: 2\n", Strict: true},
		want: Output{Error: &Message{File: KpatchFile, Line: 1, Column: 1}},
	}, {
		// two patches set replicas to 2 and to 3: a conflict pointing at the
		// first; the later patch wins, as in kmerge apply
		name: "conflict",
		in:   Input{Manifests: deployment, Patches: "[deployment.web]\nreplicas: 2\n\n[deployment.web]\nreplicas: 3\n"},
		want: Output{Objects: 1, Patches: 2, Conflicts: []Message{{
			Text:  "apps/v1 Deployment web: patches.kpatch:2:1 (field patch) sets spec.replicas to 2, and patches.kpatch:5:1 (field patch) sets spec.replicas to 3",
			Quote: "  replicas: 2\n  ^\n", File: KpatchFile, Line: 2, Column: 1}}},
		holds: []string{"  replicas: 3\n"},
	}, {
		// features, as --feature takes them: NAME=true|false, or NAME
		name: "features",
		in: Input{Manifests: deployment, Features: "canary=true, beta=false debug",
			Patches: "[deployment.web]\nmetadata.labels.canary: ${features.canary}\nmetadata.labels.beta: ${features.beta}\nmetadata.labels.debug: ${features.debug}\n"},
		want:  Output{Objects: 1, Patches: 1},
		holds: []string{"    canary: \"true\"\n    beta: \"false\"\n    debug: \"true\"\n"},
	}, {
		name: "feature error",
		in:   Input{Manifests: deployment, Features: "canary=maybe"},
		want: Output{Error: &Message{Text: `features "canary=maybe": a feature is true or false`}},
	}, {
		name: "values syntax error",
		in:   Input{Manifests: deployment, Values: "n: [\n"},
		want: Output{Error: &Message{File: ValuesFile, Line: 1, Column: 4, Quote: "  n: [\n     ^\n"}},
	}, {
		name: "manifest error",
		in:   Input{Manifests: "apiVersion: v1\nkind: Pod\n"},
		want: Output{Error: &Message{Text: "manifests.yaml:1:1: v1 Pod has no metadata.name", Quote: "  apiVersion: v1\n  ^\n", File: ManifestsFile, Line: 1, Column: 1}},
	}, {
		// with the Widget's CRD its parts merge by name: wheel stays
		// (kmerge patch's --schema behaviour, README)
		name: "schema",
		in: Input{Manifests: widget, Schema: widgetCRD, PatchFormat: FormatPatchList,
			Patches: "- target: widget.w\n  type: strategic\n  patch:\n    spec:\n      parts:\n      - {name: bell, color: gold}\n"},
		want:  Output{Objects: 1, Patches: 1},
		holds: []string{"- {name: bell, color: gold}\n", "- {name: wheel, color: black}\n"},
	}, {
		// without it, kmerge apply applies a strategic patch on a Widget as
		// a merge patch, with a warning: the parts list is replaced
		name: "no schema",
		in: Input{Manifests: widget, PatchFormat: FormatPatchList,
			Patches: "- target: widget.w\n  type: strategic\n  patch:\n    spec:\n      parts:\n      - {name: bell, color: gold}\n"},
		want: Output{Objects: 1, Patches: 1,
			Result: "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  parts:\n  - {name: bell, color: gold}\n",
			Warnings: []Message{{
				Text:  "patches.yaml:1:3: warning: no schema for example.com/v1 Widget: the strategic patch is applied as a JSON merge patch (lists are replaced); give its CustomResourceDefinition in the Schema pane",
				Quote: "  - target: widget.w\n    ^\n", File: PatchListFile, Line: 1, Column: 3}}},
	}, {
		// a broken schema stops both the run and explain
		name: "schema error",
		in:   Input{Manifests: deployment, Schema: "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {}\n", Explain: "deployment"},
		want: Output{Error: &Message{Text: "schema.yaml:1:1: CustomResourceDefinition without spec.group or spec.names.kind", Quote: "  apiVersion: apiextensions.k8s.io/v1\n  ^\n", File: SchemaFile, Line: 1, Column: 1},
			ExplainError: &Message{File: SchemaFile, Line: 1, Column: 1}},
	}, {
		// nothing typed: nothing to do, and no error
		name: "empty",
		in:   Input{},
		want: Output{},
	}} {
		t.Run(c.name, func(t *testing.T) {
			got := Run(context.Background(), c.in)
			check(t, "error", got.Error, c.want.Error)
			check(t, "explain error", got.ExplainError, c.want.ExplainError)
			if c.want.Error != nil {
				if got.Result != "" || got.Diff != "" || got.Warnings != nil || got.Conflicts != nil {
					t.Errorf("an error and an output: %+v", got)
				}
				return
			}
			if c.want.Result != "" && got.Result != c.want.Result {
				t.Errorf("result:\n%s\nwant:\n%s", got.Result, c.want.Result)
			}
			for _, s := range c.holds {
				if !strings.Contains(got.Result, s) {
					t.Errorf("no %q in the result:\n%s", s, got.Result)
				}
			}
			if c.want.Diff != "" && got.Diff != c.want.Diff {
				t.Errorf("diff:\n%s\nwant:\n%s", got.Diff, c.want.Diff)
			}
			if (got.Diff == "") != (got.Result == c.in.Manifests) {
				t.Errorf("a diff %q for a result that is the input: %v", got.Diff, got.Result == c.in.Manifests)
			}
			if c.want.Trace != "" && got.Trace != c.want.Trace {
				t.Errorf("trace:\n%s\nwant:\n%s", got.Trace, c.want.Trace)
			}
			if got.Objects != c.want.Objects || got.Patches != c.want.Patches {
				t.Errorf("%d objects, %d patches; want %d, %d", got.Objects, got.Patches, c.want.Objects, c.want.Patches)
			}
			if !slices.Equal(got.Warnings, c.want.Warnings) {
				t.Errorf("warnings %+v\nwant %+v", got.Warnings, c.want.Warnings)
			}
			if !slices.Equal(got.Conflicts, c.want.Conflicts) {
				t.Errorf("conflicts %+v\nwant %+v", got.Conflicts, c.want.Conflicts)
			}
		})
	}
}

// check compares a message with the one expected; fields left empty in
// want are not compared (but a message must be there).
func check(t *testing.T, what string, got, want *Message) {
	t.Helper()
	switch {
	case got == nil && want == nil:
		return
	case got == nil || want == nil:
		t.Errorf("%s: %+v, want %+v", what, got, want)
		return
	}
	if (want.Text != "" && got.Text != want.Text) || (want.Quote != "" && got.Quote != want.Quote) ||
		got.File != want.File || (want.Line != 0 && got.Line != want.Line) || (want.Column != 0 && got.Column != want.Column) {
		t.Errorf("%s: %+v\nwant %+v", what, *got, *want)
	}
	if got.Text == "" {
		t.Errorf("%s: no text", what)
	}
}

// TestExplain: kmerge explain's output for the field asked for (its own
// tests are internal/explain's and the CLI's goldens); its errors; a kind
// of the schema pane; explain works while the patches are broken.
func TestExplain(t *testing.T) {
	for _, c := range []struct {
		in        Input
		want, err string
	}{
		{Input{Explain: "deployment.spec.template.spec.containers"}, "PATH:     spec.template.spec.containers\n", ""},
		{Input{Explain: " service.spec.ports ", Patches: "[broken"}, "PATH:     spec.ports\n", ""},
		{Input{Explain: "widget.spec.parts", Schema: widgetCRD}, "SOURCE:   schema.yaml\n", ""},
		{Input{Explain: "widget.spec.parts"}, "", `no kind named "widget" (a custom resource's kind comes from its CRD or OpenAPI document: put it in the Schema pane)`},
		{Input{Explain: "pod.spec.nosuch"}, "", `spec has no field "nosuch"`},
		{Input{}, "", ""},
	} {
		got := Run(context.Background(), c.in)
		if !strings.Contains(got.Explain, c.want) || (c.want == "") != (got.Explain == "") {
			t.Errorf("%q: explain:\n%s\nwant %q", c.in.Explain, got.Explain, c.want)
		}
		gotErr := ""
		if got.ExplainError != nil {
			gotErr = got.ExplainError.Text
		}
		if !strings.Contains(gotErr, c.err) || (c.err == "") != (gotErr == "") {
			t.Errorf("%q: explain error %q, want %q", c.in.Explain, gotErr, c.err)
		}
	}
}

// TestSameAsApply: the page gives what kmerge apply gives for the same
// files. The inputs are the CLI's reviewed cases (cmd/kmerge/testdata/apply:
// each folder's base/ files joined into one stream, its patch files joined,
// values.yaml, a --schema file); the same texts are written to files named
// as the page names its panes, and kmerge.Apply reads them from disk. Result,
// diff, trace, warnings, conflicts and error must be equal, byte for byte.
func TestSameAsApply(t *testing.T) {
	dirs, err := filepath.Glob("../../cmd/kmerge/testdata/apply/*/case.yaml")
	if err != nil || len(dirs) < 50 {
		t.Fatalf("the CLI's cases: %d, %v", len(dirs), err)
	}
	compared := 0
	for _, file := range dirs {
		dir := filepath.Dir(file)
		in, strict, ok := caseInput(t, dir)
		if !ok {
			continue // --set (the page has values only), or patches in both formats
		}
		compared++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			got := Run(context.Background(), in)
			want := applyFiles(t, in, strict)
			g, _ := json.MarshalIndent(got, "", "  ")
			w, _ := json.MarshalIndent(want, "", "  ")
			if !bytes.Equal(g, w) {
				t.Errorf("the page:\n%s\nkmerge apply:\n%s", g, w)
			}
		})
	}
	if compared < 50 {
		t.Errorf("only %d cases compared", compared)
	}
}

// caseInput reads a case folder of the CLI's tests as the page's input.
func caseInput(t *testing.T, dir string) (Input, bool, bool) {
	t.Helper()
	var c struct {
		Args []string `yaml:"args"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "case.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	var in Input
	strict := false
	for i := 0; i < len(c.Args); i++ {
		switch c.Args[i] {
		case "--strict":
			strict = true
		case "--schema":
			i++
			in.Schema = read(t, filepath.Join(dir, c.Args[i]))
		case "--feature":
			i++
			in.Features += c.Args[i] + " "
		case "--fail-on-conflict", "--debug":
		default:
			return in, false, false
		}
	}
	in.Strict = strict
	bases, _ := filepath.Glob(filepath.Join(dir, "base", "*"))
	var docs []string
	for _, b := range bases {
		docs = append(docs, strings.TrimSuffix(read(t, b), "\n")+"\n")
	}
	in.Manifests = strings.Join(docs, "---\n")
	// the patch files joined, when they are of one format (a kustomize
	// overlay names files of its own, which one pane cannot hold)
	if _, err := os.Stat(filepath.Join(dir, "patches", "kustomization.yaml")); err == nil {
		return in, false, false
	}
	patches, _ := filepath.Glob(filepath.Join(dir, "patches", "*"))
	var texts []string
	for _, p := range patches {
		if (filepath.Ext(p) == ".kpatch") != (filepath.Ext(patches[0]) == ".kpatch") {
			return in, false, false
		}
		texts = append(texts, strings.TrimSuffix(read(t, p), "\n")+"\n")
	}
	in.Patches = strings.Join(texts, "")
	if filepath.Ext(patches[0]) != ".kpatch" {
		in.PatchFormat = FormatPatchList
	}
	if _, err := os.Stat(filepath.Join(dir, "values.yaml")); err == nil {
		in.Values = read(t, filepath.Join(dir, "values.yaml"))
	}
	return in, strict, true
}

func read(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// applyFiles writes the input to files named as the page names them and
// runs kmerge.Apply on them, as kmerge apply --values --schema [--strict]
// does, and puts its answer in an Output.
func applyFiles(t *testing.T, in Input, strict bool) Output {
	t.Helper()
	t.Chdir(t.TempDir())
	patchFile := KpatchFile
	if in.PatchFormat == FormatPatchList {
		patchFile = PatchListFile
	}
	for name, text := range map[string]string{ManifestsFile: in.Manifests, patchFile: in.Patches, ValuesFile: in.Values, SchemaFile: in.Schema} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out Output
	fail := func(err error) Output {
		out.Error = in.message(err)
		out.ExplainError = nil
		return out
	}
	s := schema.Builtin()
	if in.Schema != "" {
		more, err := schema.LoadFile(SchemaFile)
		if err != nil {
			return fail(err)
		}
		s = s.Extend(more)
	}
	vars := kpatch.NewVars()
	if in.Values != "" {
		if err := vars.LoadValues([]byte(in.Values), ValuesFile); err != nil {
			return fail(err)
		}
	}
	for _, f := range strings.Fields(in.Features) {
		if err := vars.SetFeatureText(f); err != nil {
			return fail(err)
		}
	}
	var trace bytes.Buffer
	res, err := kmerge.Apply(context.Background(), kmerge.ApplyOptions{Manifests: []string{ManifestsFile}, Patches: []string{patchFile},
		ApplyPatchesOptions: kmerge.ApplyPatchesOptions{Vars: vars, Schema: s, Strict: strict, Trace: &trace, Validate: validate.Strict, ShowSecrets: in.ShowSecrets}})

	out.Trace = trace.String()
	if err != nil {
		return fail(err)
	}
	out.Result, out.Diff, out.Objects, out.Patches = string(res.Stream()), res.Diff(), res.Objects, res.Patches
	for _, w := range res.Warnings {
		out.Warnings = append(out.Warnings, in.at(warningText(w), w.Pos, false))
	}
	for _, e := range res.Invalid {
		out.Warnings = append(out.Warnings, in.at(e.Warning(), e.Position(), e.Secret))
	}
	for _, c := range res.Conflicts {
		out.Conflicts = append(out.Conflicts, in.at(c.String(), c.Sides[0].Change.Pos, c.Sides[0].Change.Mask))
	}
	return out
}

// FuzzRun: whatever is typed, Run answers (no panic), with an error or a
// result, never both.
func FuzzRun(f *testing.F) {
	f.Add(deployment, "[deployment.web]\nreplicas: ${values.n}\n", "n: 3\n", "", false, "deployment.spec")
	f.Add(deployment, "- target: deployment.web\n  type: strategic\n  patch: {spec: {replicas: 2}}\n", "", "", true, "")
	f.Add(widget, "[widget.w.spec.parts[name=wheel]]\ncolor: red\n", "", widgetCRD, false, "widget.spec.parts")
	f.Fuzz(func(t *testing.T, manifests, patches, values, schema string, list bool, query string) {
		in := Input{Manifests: manifests, Patches: patches, Values: values, Schema: schema, Explain: query}
		if list {
			in.PatchFormat = FormatPatchList
		}
		out := Run(context.Background(), in)
		if out.Error != nil && (out.Result != "" || out.Diff != "") {
			t.Errorf("an error and a result: %+v", out)
		}
		if out.Error == nil && out.Result == "" && strings.TrimSpace(manifests) != "" && out.Objects > 0 {
			t.Errorf("objects and no result: %+v", out)
		}
	})
}

// TestSecrets: the page masks the values of Secrets in the Diff, the
// Trace, the conflicts and the warnings (and the lines they quote), as
// kmerge apply does, unless Input.ShowSecrets; the Result holds them
// either way. The patches conflict on stringData.token (two field
// patches, two values) and write data.password as text that is not
// base64 (an error: so that the run gets to the diff, the error is
// checked in a run of its own, with only that patch).
func TestSecrets(t *testing.T) {
	manifests := "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\ndata: {password: aHVudGVyMg==}\nstringData: {token: hunter2}\n"
	patches := "[secret.db]\nstringData.token: from-a\n\n[secret.db]\nstringData.token: from-b\n"
	for _, show := range []bool{false, true} {
		out := Run(context.Background(), Input{Manifests: manifests, Patches: patches, ShowSecrets: show})
		if out.Error != nil {
			t.Fatalf("show %v: %s", show, out.Error.Text)
		}
		if !strings.Contains(out.Result, "token: from-b") {
			t.Errorf("show %v: the result lost its value:\n%s", show, out.Result)
		}
		var conflict, quote string
		if len(out.Conflicts) == 1 {
			conflict, quote = out.Conflicts[0].Text, out.Conflicts[0].Quote
		}
		want := map[bool][]string{
			false: {"-stringData: {token: '*** (before)'}\n+stringData: {token: '*** (after)'}\n", // the flow mapping kept
				"stringData.token: *** (before) -> *** (after)\n", "stringData.token: *** (before) -> *** (after)\n",
				"sets stringData.token to ***, and ", "  stringData.token: ***\n"},
			true: {"from-b", "stringData.token: hunter2 -> from-a\n", "stringData.token: from-a -> from-b\n",
				"sets stringData.token to from-a, and ", "  stringData.token: from-a\n"},
		}[show]
		got := []string{out.Diff, out.Trace, out.Trace, conflict, quote}
		for i, w := range want {
			if !strings.Contains(got[i], w) {
				t.Errorf("show %v: %q lacks %q", show, got[i], w)
			}
		}
		if !show {
			for _, s := range append(got, out.Diff) {
				if strings.Contains(s, "hunter2") || strings.Contains(s, "from-") {
					t.Errorf("a secret value shows in %q", s)
				}
			}
		}
		out = Run(context.Background(), Input{Manifests: manifests, Patches: "[secret.db]\ndata.password: not base64!\n", ShowSecrets: show})
		want = map[bool][]string{
			false: {`data.password: the string "***" is not base64 data`, "  data.password: ***\n"},
			true:  {`data.password: the string "not base64!" is not base64 data`, "  data.password: not base64!\n"},
		}[show]
		if out.Error == nil || !strings.Contains(out.Error.Text, want[0]) || out.Error.Quote != want[1]+"  ^\n" {
			t.Errorf("show %v: the error is %+v, want %q quoting %q", show, out.Error, want[0], want[1])
		}
		// a patch that fails on a value (issue 25, item 4: the message
		// showed it, its quoted line did not), and one that copies a value
		// out of stringData (the trace and the diff showed it)
		out = Run(context.Background(), Input{Manifests: manifests, Patches: "[secret.db]\nstringData.token[0]: x\n", ShowSecrets: show})
		want = map[bool][]string{
			false: {`stringData.token is the string "***", not a list`},
			true:  {`stringData.token is the string "hunter2", not a list`},
		}[show]
		if out.Error == nil || !strings.Contains(out.Error.Text, want[0]) {
			t.Errorf("show %v: the error is %+v, want %q", show, out.Error, want[0])
		}
		out = Run(context.Background(), Input{Manifests: manifests, Patches: "- target: secret.db\n  type: json\n  patch: [{op: add, path: /metadata/labels, value: {}}, {op: copy, from: /stringData/token, path: /metadata/labels/t}]\n", PatchFormat: FormatPatchList, ShowSecrets: show})
		if out.Error != nil {
			t.Fatalf("show %v: %s", show, out.Error.Text)
		}
		want = map[bool][]string{
			false: {"metadata.labels.t: (absent) -> ***\n", "+metadata: {name: db, labels: {t: '***'}}\n"},
			true:  {"metadata.labels.t: (absent) -> hunter2\n", "+metadata: {name: db, labels: {t: hunter2}}\n"},
		}[show]
		for i, got := range []string{out.Trace, out.Diff} {
			if !strings.Contains(got, want[i]) {
				t.Errorf("show %v: %q lacks %q", show, got, want[i])
			}
		}
	}
}
