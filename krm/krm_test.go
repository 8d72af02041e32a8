package krm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/tree"
)

// TestProcess runs each testdata folder: in.yaml through Process must give
// want.yaml, and the error of want.err when there is one. about.txt says
// why the expected output is right.
func TestProcess(t *testing.T) {
	dirs, err := filepath.Glob("testdata/*/in.yaml")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, in := range dirs {
		dir := filepath.Dir(in)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			read := func(name string) string {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				return string(b)
			}
			if read("about.txt") == "" {
				t.Fatal("say in about.txt why the expected output is right")
			}
			out, err := Process(context.Background(), []byte(read("in.yaml")))
			wantErr := strings.TrimSuffix(read("want.err"), "\n")
			switch {
			case wantErr == "" && err != nil:
				t.Fatalf("error: %v", err)
			case wantErr != "":
				var fe *Error
				if !errors.As(err, &fe) || err.Error() != wantErr {
					t.Errorf("error %v (%T), want %s", err, err, wantErr)
				}
			}
			if want := read("want.yaml"); string(out) != want {
				t.Errorf("output:\n%s\nwant:\n%s", out, want)
			}
		})
	}
}

// TestProcessRejects: what is not a function's input is an error, with no
// output.
func TestProcessRejects(t *testing.T) {
	for in, msg := range map[string]string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n":                                                                             "the input is not a ResourceList",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n":                                                               "no functionConfig",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Foo}\n":                                  "<stdin>:4:17: functionConfig: it is a Foo",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {kpatch: x, extra: 1}}\n": "<stdin>:4:48: an assignment needs a section",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {extra: 1}}\n":            "<stdin>:4:40: functionConfig.spec.extra: unknown field",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {strict: maybe}}\n":       `<stdin>:4:48: functionConfig.spec.strict: the string "maybe", where true or false belongs`,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {spec: {}}\n":                                   "<stdin>:4:17: functionConfig: it has no kind",
		// a value of the wrong kind is an error, never read as nothing
		// (a kpatch given as a list or a mapping once gave no patches)
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {kpatch: [a]}}\n":      "<stdin>:4:48: functionConfig.spec.kpatch: an array, where the text of a .kpatch file (kpatch: |, then its lines, indented) belongs",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {kpatch: {a: b}}}\n":   "<stdin>:4:48: functionConfig.spec.kpatch: an object, where the text of a .kpatch file",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {kpatch: }}\n":         "<stdin>:4:48: functionConfig.spec.kpatch: null, where the text",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {kpatch: 3}}\n":        "functionConfig.spec.kpatch: the integer 3, where the text",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {patches: {a: 1}}}\n":  "<stdin>:4:49: functionConfig.spec.patches: an object, where a YAML patch list",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {patches: }}\n":        "functionConfig.spec.patches: null, where a YAML patch list",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {values: [1]}}\n":      "functionConfig.spec.values: an array, where a mapping of values",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {features: x}}\n":      `functionConfig.spec.features: the string "x", where a mapping of feature names`,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {validate: [warn]}}\n": "functionConfig.spec.validate: an array, where strict, warn or none belongs",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {schemas: {}}}\n":      "functionConfig.spec.schemas: an object, where a list of CustomResourceDefinitions",
		// a schema given in the functionConfig is read where the list has
		// it: the error is at its line and column (column 89: the CRD's
		// spec), not at one of a JSON rendering of it
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: {schemas: [{kind: CustomResourceDefinition, spec: {group: g, names: {kind: K}}}]}}\n": "<stdin>:4:89: CustomResourceDefinition without versions",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: Patches, spec: [kpatch]}\n":                                                                          "<stdin>:4:39: functionConfig.spec: an array, where the fields kpatch, patches",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: [kind]\n":                                                                                                   "<stdin>:4:17: functionConfig: an array, where a kmerge.dev/v1alpha1 Patches object or a ConfigMap belongs",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: ConfigMap, data: [kpatch]}\n":                                                                        "functionConfig.data: an array, where a mapping of the keys kpatch",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: ConfigMap, data: {kpatch: [a]}}\n":                                                                   "<stdin>:4:50: functionConfig.data.kpatch: an array, where text belongs: a ConfigMap's data values are strings (write YAML as a block: kpatch: |, then its lines, indented)",
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {kind: ConfigMap, data: {patches: {a: 1}}}\n":                                                               "functionConfig.data.patches: an object, where text belongs",
	} {
		_, err := Process(context.Background(), []byte(in))
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", in, err, msg)
		}
		// an error about a place in the input says where it is, the same
		// way every positioned error of kmerge does
		if pos, ok := tree.ErrorPosition(err); ok && !strings.HasPrefix(err.Error(), pos.String()) && !strings.Contains(err.Error(), "\n"+pos.String()) {
			t.Errorf("%q: %v does not start with its position %v", in, err, pos)
		}
	}
}

// TestAdvice: the advice a function's user gets is worded for a function
// (its functionConfig), not for kmerge's command line.
func TestAdvice(t *testing.T) {
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n" +
		"functionConfig: {kind: Patches, spec: {kpatch: \"[cm.a]\\ndata.x: ${values.x}\\n\"}}\n"
	_, err := Process(context.Background(), []byte(in))
	var fe *Error
	if !errors.As(err, &fe) || len(fe.Results) != 1 {
		t.Fatalf("%v", err)
	}
	if got, want := fe.Results[0].Message, "functionConfig.spec.kpatch:2:9: undefined variable ${values.x} (give it in the functionConfig's values)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if pos, ok := tree.ErrorPosition(err); !ok || pos.File != "functionConfig.spec.kpatch" || pos.Line != 2 {
		t.Errorf("position %v", pos)
	}
	if strings.Contains(err.Error(), "--") {
		t.Errorf("a command-line flag in a function's message: %v", err)
	}
	// a directive on a kind without a schema: give the schema in the
	// functionConfig or the items
	in = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {parts: [{name: a}]}}\n" +
		"functionConfig: {kind: Patches, spec: {patches: [{target: widget.w, type: strategic, patch: {spec: {parts: [{name: a, $patch: delete}]}}}]}}\n"
	_, err = Process(context.Background(), []byte(in))
	if !errors.As(err, &fe) || len(fe.Results) != 1 {
		t.Fatalf("%v", err)
	}
	if msg := fe.Results[0].Message; !strings.Contains(msg, "spec.parts[0]: $patch: delete cannot be applied without the kind's schema") ||
		!strings.HasSuffix(msg, "(add the kind's CustomResourceDefinition to the items or to the functionConfig's schemas)") {
		t.Errorf("got %s", msg)
	}
}

// TestItemsSame: the short way (the items of a ResourceList read one by one,
// runItems) writes what reading the list whole writes (Options.Thorough),
// with the same results and error, on every case of testdata and on
// variants of them (items indented under items:, more items, a list with
// results, an error in the patches, a duplicate item) and on lists made
// here; and it is taken where the list is laid out for it.
func TestItemsSame(t *testing.T) {
	ins, err := filepath.Glob("testdata/*/in.yaml")
	if err != nil || len(ins) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	inputs := map[string]string{}
	for _, in := range ins {
		b, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(in))
		inputs[name] = string(b)
		// the items indented under items: (as yaml.v3 writes them)
		if strings.Contains(inputs[name], "\nitems:\n- ") {
			var b strings.Builder
			inside := false
			for _, line := range strings.SplitAfter(inputs[name], "\n") {
				switch {
				case strings.HasPrefix(line, "items:"):
					inside = true
				case inside && line != "" && line[0] != ' ' && line[0] != '-' && line[0] != '\n':
					inside = false
				case inside && len(line) > 1:
					line = "  " + line
				}
				b.WriteString(line)
			}
			inputs[name+" indented"] = b.String()
		}
		// more items, one of them patched by nothing
		inputs[name+" more"] = strings.Replace(inputs[name], "\nitems:\n", "\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: extra-one\n  data:\n    a: \"1\"\n", 1)
		// a duplicate item
		inputs[name+" duplicate"] = strings.Replace(inputs[name], "\nitems:\n", "\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: twice\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: twice\n", 1)
	}
	// lists of two items patched by a kpatch: the results an earlier
	// function left, at the end of the list (taken out, and the new ones
	// written there); a comment at the items' column after an item's last
	// entry (read whole, it is the foot comment of that entry, below which
	// a new entry goes; read alone, the item document's, above which it
	// goes); an anchor in an item whose alias is in another (read whole,
	// the alias copies the value as it was read, and both items are
	// written with the values they have: the patched one's anchor and the
	// other's alias are gone)
	two := func(first, second, tail string) string {
		return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
			"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: " + first + "\n" +
			"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n  data:\n    k: " + second + "\n" +
			"functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: overrides\n  data:\n    kpatch: |\n" +
			"      [cm.a]\n      data.k: patched\n      data.new: added\n" + tail
	}
	inputs["results last"] = two("v", "w", "results:\n- message: from an earlier function\n  severity: info\n")
	inputs["comment after an item"] = strings.Replace(two("v", "w", ""), "k: v\n", "k: v\n  # after a\n", 1)
	inputs["alias across items"] = two("&x v", "*x", "")
	taken := 0
	for name, in := range inputs {
		wantOut, wantRes, wantErr := RunWith(context.Background(), []byte(in), Options{Thorough: true})
		out, res, ok, err := runItems(context.Background(), []byte(in))
		if !ok {
			continue
		}
		taken++
		if string(out) != string(wantOut) || fmt.Sprint(res) != fmt.Sprint(wantRes) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%s: the short way writes\n%s\nresults %v\nerror %v\nreading the list whole\n%s\nresults %v\nerror %v", name, out, res, err, wantOut, wantRes, wantErr)
		}
		if got, _, gotErr := RunWith(context.Background(), []byte(in), Options{}); string(got) != string(out) || fmt.Sprint(gotErr) != fmt.Sprint(err) {
			t.Errorf("%s: RunWith does not take the short way", name)
		}
	}
	if taken < len(inputs)/2 {
		t.Errorf("the short way was taken for %d of %d lists", taken, len(inputs))
	}
	for _, name := range []string{"example", "results", "crd", "example indented", "results more", "example duplicate", "results last",
		"list-item", "list-item indented", "crd-without-schema", "pipeline-annotations"} {
		if _, _, ok, _ := runItems(context.Background(), []byte(inputs[name])); !ok {
			t.Errorf("%s: the short way was not taken", name)
		}
	}
}

// stopAfter is a context that is done once its Err has said nil n times.
type stopAfter struct {
	context.Context
	n int
}

func (c *stopAfter) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

// TestRunCancelled: a run whose context is done returns context.Canceled
// and no output nor results: a run cut short is not the function failing
// (which returns the input with an error result), and there is nothing to
// write. The context here is done before the list is read, then (after
// one check: the list is read) before its items are patched.
func TestRunCancelled(t *testing.T) {
	in := []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata: {name: overrides}
  data:
    kpatch: |
      [cm.a]
      data.k: v
`)
	if out, _, err := Run(context.Background(), in); err != nil || !strings.Contains(string(out), "k: v") {
		t.Fatalf("the run, not cancelled: %v\n%s", err, out)
	}
	// the same list in block style, which is read an item at a time
	// (runItems): the same checks, the same errors
	block := []byte(strings.Replace(string(in), "- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n", "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n", 1))
	if _, _, ok, _ := runItems(context.Background(), block); !ok {
		t.Fatal("the block-style list is not read an item at a time")
	}
	for _, list := range [][]byte{in, block} {
		for n, want := range []string{"stopped before reading <stdin>: context canceled", "stopped before patching <stdin>: context canceled"} {
			out, results, err := Run(&stopAfter{Context: context.Background(), n: n}, list)
			if out != nil || results != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
				t.Errorf("after %d checks: %q, %v, %v; want %q", n, out, results, err, want)
			}
		}
	}
}

// TestPositionsInFunctionConfig: a patch given inline in the functionConfig
// is found where the ResourceList has it. An error in .kpatch text kept
// line for line (kpatch: |, or a one-line value) names the ResourceList's
// line and column of the offending text (line 1 of the text is the line
// after kpatch: |, its column 1 the block's indentation); an error in a
// patch list names its node. Before, the positions were lines of the
// extracted text (functionConfig.spec.kpatch:2:1) or of the patch list
// re-serialized (functionConfig.spec.patches:3:5), which the list does not
// have. Text that is not kept line for line (a quoted string with \n
// escapes) keeps positions in the text, named by its field. Each expected
// position was counted by hand on the input below it (columns count from
// 1; the items are on lines 3-6, the functionConfig from line 7).
func TestPositionsInFunctionConfig(t *testing.T) {
	const head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
		"- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web}\n" +
		"functionConfig:\n  apiVersion: kmerge.dev/v1alpha1\n  kind: Patches\n  metadata: {name: p}\n  spec:\n"
	// line 12 is the first line of the spec
	for _, c := range []struct{ name, spec, want string }{
		{"kpatch syntax", "    kpatch: |\n      [deployment.web]\n      replicas 3\n",
			"<stdin>:14:7: expected key: value or key = value"},
		{"kpatch bad target", "    kpatch: |\n      # the header\n      [deployment..web]\n      replicas: 3\n",
			"<stdin>:14:19: a target is kind.name: the name is missing"},
		{"kpatch indented more", "    kpatch: |\n          [deployment.web]\n          spec..replicas: 3\n",
			"<stdin>:14:16: empty path segment"},
		{"kpatch one line", "    kpatch: '[deployment..web]'\n",
			"<stdin>:12:26: a target is kind.name: the name is missing"},
		{"patch list syntax", "    patches:\n    - target: deployment.web\n      patch:\n        spec..replicas: 3\n",
			"<stdin>:15:14: empty path segment"},
		{"patch list bad target", "    patches:\n    - target: deployment..web\n      patch: {spec.replicas: 3}\n",
			"<stdin>:13:26: a target is kind.name: the name is missing"},
		{"patch list flow", "    patches: [{target: deployment.web, patch: {spec.replicas: {a: 1}}}]\n",
			"<stdin>:12:64: apps/v1 Deployment web: spec.replicas is an integer (schema type integer/int32), it has no field \"a\""},
		// a ConfigMap's data: the same, and YAML in its text too
		{"configmap kpatch", "  data:\n    kpatch: |\n      [deployment.web]\n      spec..replicas: 3\n",
			"<stdin>:14:12: empty path segment"},
		{"configmap patches", "  data:\n    patches: |\n      - target: deployment.web\n        patch:\n          spec..replicas: 3\n",
			"<stdin>:15:16: empty path segment"},
		{"configmap patches yaml", "  data:\n    patches: |\n      - target: deployment.web\n        patch: [a\n",
			"<stdin>:14:16: a [ list without its closing ]"},
		// values that are not a mapping: where they are in the ResourceList
		// (before, the values were re-serialized and read again, and the
		// position was line 1 of that text)
		{"configmap values not a mapping", "  data:\n    values: |\n      - a\n",
			"<stdin>:13:7: values must be a mapping"},
		{"kpatch quoted over lines", "    kpatch: \"[deployment.web]\\nspec..replicas: 3\"\n",
			"functionConfig.spec.kpatch:2:6: empty path segment"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := head + c.spec
			if strings.HasPrefix(c.spec, "  data:") {
				in = strings.Replace(head, "kmerge.dev/v1alpha1\n  kind: Patches\n  metadata: {name: p}\n  spec:\n", "v1\n  kind: ConfigMap\n  metadata: {name: p}\n", 1) + c.spec
			}
			_, err := Process(context.Background(), []byte(in))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("%v\nwant it to start with %s", err, c.want)

			}
			pos, ok := tree.ErrorPosition(err)
			if !ok || !strings.HasPrefix(err.Error(), pos.String()) {
				t.Errorf("position %v, ok %v", pos, ok)
			}
		})
	}
}

// TestPositionsInFunctionConfigLineBreaks: the lines of the ResourceList
// before the functionConfig ended by a CR, a NEL or an LS, which the YAML
// reader counts as line breaks: the text's origin was found by a cut at
// "\n" alone, the kpatch block's line taken for a later one, and its
// errors named the extracted text's lines (functionConfig.spec.kpatch:2:1;
// attack, 2026-11-29).
func TestPositionsInFunctionConfigLineBreaks(t *testing.T) {
	for _, sep := range []string{"\n", "\r\n", "\r", "\u0085", "\u2028", "\u2029"} {
		in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
			"- apiVersion: apps/v1" + sep + "  kind: Deployment" + sep + "  metadata: {name: web}\n" +
			"functionConfig:\n  apiVersion: kmerge.dev/v1alpha1\n  kind: Patches\n  metadata: {name: p}\n  spec:\n" +
			"    kpatch: |\n      [deployment.web]\n      replicas 3\n"
		if _, err := Process(context.Background(), []byte(in)); err == nil || !strings.HasPrefix(err.Error(), "<stdin>:14:7: expected key") {
			t.Errorf("%q: %v, want <stdin>:14:7", sep, err)
		}
	}
}

// TestItemsOfLists: what is wrong in a List item is found where the list
// has it, read an item at a time (block style) or whole (flow style): an
// item of the RoleList without a name is an error at its line and column
// (line 7, column 5 in block style: the Role's first key, below the
// RoleList's items; line 5 in flow style), and
// the output is the input with the error as a result, as for a patch that
// cannot apply. A ResourceList without items holds no objects (it is no
// object itself, and needs no name): the patch matches nothing.
func TestItemsOfLists(t *testing.T) {
	const fc = "functionConfig:\n  kind: Patches\n  spec:\n    kpatch: |\n      [role.reader]\n      metadata.labels.a: b\n"
	block := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
		"- apiVersion: rbac.authorization.k8s.io/v1\n  kind: RoleList\n  items:\n" +
		"  - apiVersion: rbac.authorization.k8s.io/v1\n    kind: Role\n    metadata:\n      namespace: shop\n" + fc
	flow := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: [\n" +
		"  {apiVersion: rbac.authorization.k8s.io/v1, kind: RoleList, items: [\n" +
		"    {apiVersion: rbac.authorization.k8s.io/v1, kind: Role, metadata: {namespace: shop}}]}]\n" + fc
	for name, c := range map[string]struct{ in, want string }{
		"block": {block, "<stdin>:7:5: rbac.authorization.k8s.io/v1 Role has no metadata.name"},
		"flow":  {flow, "<stdin>:5:5: rbac.authorization.k8s.io/v1 Role has no metadata.name"},
	} {
		out, results, err := Run(context.Background(), []byte(c.in))
		var fe *Error
		if !errors.As(err, &fe) || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", name, err, c.want)
		}
		if len(results) != 1 || !strings.HasPrefix(string(out), c.in) || !strings.Contains(string(out), "results:\n") {
			t.Errorf("%s: results %v, output\n%s", name, results, out)
		}
	}
	out, results, err := Run(context.Background(), []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"+fc))
	if err != nil || len(results) != 1 || !strings.Contains(results[0].Message, "warning: no object matches role.reader") || !strings.Contains(string(out), "severity: warning") {
		t.Errorf("no items: %v, %v\n%s", err, results, out)
	}
}
