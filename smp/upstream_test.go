package smp_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/upstreamcases"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// The upstream conformance data: k8s.io/apimachinery's own strategic merge
// patch test cases, with what upstream returned for each of them in each
// schema flavour (observed/). Every apply step upstream ran is replayed here
// and must give upstream's result, or be rejected where upstream rejected it.

var flavors = []string{"struct", "openapi-v2", "openapi-v3"}

// flavorTypes returns the type of mergeItem or precisionItem per flavour.
func flavorTypes(t *testing.T, dir, name string) map[string]*schema.Type {
	t.Helper()
	out := map[string]*schema.Type{}
	file := map[string]string{"mergeItem": "swagger-merge-item", "precisionItem": "swagger-precision-item"}[name]
	switch name {
	case "mergeItem":
		out["struct"] = schema.FromGoType(reflect.TypeFor[upstreamcases.MergeItem]())
	case "precisionItem":
		out["struct"] = schema.FromGoType(reflect.TypeFor[upstreamcases.PrecisionItem]())
	}
	for fl, suffix := range map[string]string{"openapi-v2": ".json", "openapi-v3": "-v3.json"} {
		s, err := schema.LoadFile(filepath.Join(dir, "openapi", file+suffix))
		if err != nil {
			t.Fatalf("%s: %v", fl, err)
		}
		typ, err := s.Definition(name)
		if err != nil {
			t.Fatalf("%s: %v", fl, err)
		}
		out[fl] = typ
	}
	return out
}

type caseFile struct {
	Schema string     `yaml:"schema"`
	Cases  []caseData `yaml:"cases"`
}

type caseData struct {
	Description string            `yaml:"description"`
	Line        int               `yaml:"line"`
	JSON        map[string]string `yaml:"json"`
}

type observedFile struct {
	Cases []struct {
		Description string                       `yaml:"description"`
		Line        int                          `yaml:"line"`
		AllFlavors  map[string]string            `yaml:"allFlavors"`
		ByFlavor    map[string]map[string]string `yaml:"byFlavor"`
	} `yaml:"cases"`
}

func readYAMLFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// applyJSON applies patch to doc with kmerge and returns canonical JSON.
func applyJSON(doc, patch string, typ *schema.Type, order smp.ListOrder) (string, error) {
	if doc == "" || doc == "null" {
		doc = "{}"
	}
	if patch == "" || patch == "null" {
		patch = "{}"
	}
	d, err := tree.Read([]byte(doc), tree.Options{File: "original"})
	if err != nil {
		return "", err
	}
	p, err := tree.Read([]byte(patch), tree.Options{File: "patch"})
	if err != nil {
		return "", err
	}
	res, err := smp.Apply(d.Docs[0], p.Docs[0], typ, smp.Options{ListOrder: order})
	if err != nil {
		return "", err
	}
	out, err := tree.MarshalJSON(res)
	if err != nil {
		return "", err
	}
	return upstreamcases.Canonical(out, false)
}

// checkAgainst compares kmerge's outcome with what upstream observed.
func checkAgainst(t *testing.T, got string, err error, observed string) {
	t.Helper()
	if msg, ok := strings.CutPrefix(observed, "ERROR: "); ok {
		if err == nil {
			t.Fatalf("upstream rejects this patch (%s); kmerge accepted it: %s", msg, got)
		}
		want, known := upstreamcases.ReasonFor(msg)
		var se *smp.Error
		if known && (!errors.As(err, &se) || se.Reason != want) {
			t.Fatalf("upstream rejects with %q (reason %s); kmerge's error is %v", msg, want, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("upstream accepts this patch, giving %s; kmerge rejected it: %v", observed, err)
	}
	want, cerr := upstreamcases.Canonical([]byte(observed), false)
	if cerr != nil {
		t.Fatalf("observed output is not JSON: %v", cerr)
	}
	if got != want {
		t.Fatalf("result differs from upstream's\n kmerge:   %s\n upstream: %s", got, want)
	}
}

// applySteps lists, per table, which observed steps are applies and which
// documents they use: the document patched and the observed step that holds
// the patch (or "" for the case's hand-written json.twoWay).
var applySteps = []struct {
	step, doc, patchStep string
}{
	{"apply(original,twoWay)", "original", "twoWay"},
	{"apply(current,threeWay)", "current", "threeWay"},
}

func TestUpstreamConformance(t *testing.T) {
	dir, err := upstreamcases.Dir()
	if err != nil {
		upstreamcases.Skip(t, err)
	}
	tables := []struct {
		file      string
		handPatch bool // the patch to apply is the case's own twoWay document
	}{
		{"02-custom-apply.yaml", true},
		{"03-custom-apply-raw.yaml", true},
		{"04-create-patch.yaml", false},
		{"05-create-patch-raw.yaml", false},
		{"06-replace-raw-extension.yaml", false},
		{"07-number-conversion.yaml", false},
		{"08-unknown-field.yaml", false},
	}
	total := 0
	for _, tb := range tables {
		var cf caseFile
		readYAMLFile(t, filepath.Join(dir, tb.file), &cf)
		var of observedFile
		readYAMLFile(t, filepath.Join(dir, "observed", tb.file), &of)
		if len(of.Cases) != len(cf.Cases) {
			t.Fatalf("%s: %d cases but %d observed", tb.file, len(cf.Cases), len(of.Cases))
		}
		types := flavorTypes(t, dir, cf.Schema)
		for i, c := range cf.Cases {
			obs := of.Cases[i]
			if obs.Line != c.Line {
				t.Fatalf("%s: case %d: observed line %d, case line %d", tb.file, i, obs.Line, c.Line)
			}
			for _, fl := range flavors {
				steps := obs.AllFlavors
				if steps == nil {
					steps = obs.ByFlavor[fl]
				}
				for _, st := range applySteps {
					want, ok := steps[st.step]
					if !ok || strings.HasPrefix(want, "(not run") {
						continue
					}
					var patch string
					switch {
					case tb.handPatch:
						patch = c.JSON["twoWay"]
					case st.patchStep == "threeWay" && steps["threeWay(overwrite)"] != "":
						patch = steps["threeWay(overwrite)"]
					default:
						patch = steps[st.patchStep]
					}
					if strings.HasPrefix(patch, "ERROR") || strings.HasPrefix(patch, "CONFLICT") {
						continue
					}
					name := fmt.Sprintf("%s/%d:%s/%s/%s", strings.TrimSuffix(tb.file, ".yaml"), c.Line, c.Description, fl, st.step)
					total++
					t.Run(name, func(t *testing.T) {
						got, err := applyJSON(c.JSON[st.doc], patch, types[fl], smp.OrderUpstream)
						checkAgainst(t, got, err, want)
					})
				}
			}
		}
	}
	if total < 400 {
		t.Fatalf("only %d apply checks ran; the case files look incomplete", total)
	}
	t.Logf("%d upstream apply checks replayed", total)
}

// TestUpstreamDiffConformance replays every patch creation upstream ran on
// its own cases: two-way patches, three-way patches, and three-way conflicts
// (then the three-way patch with overwrite), per schema flavour.
func TestUpstreamDiffConformance(t *testing.T) {
	dir, err := upstreamcases.Dir()
	if err != nil {
		upstreamcases.Skip(t, err)
	}
	total := 0
	for _, file := range []string{"04-create-patch.yaml", "05-create-patch-raw.yaml", "06-replace-raw-extension.yaml", "07-number-conversion.yaml", "08-unknown-field.yaml"} {
		var cf caseFile
		readYAMLFile(t, filepath.Join(dir, file), &cf)
		var of observedFile
		readYAMLFile(t, filepath.Join(dir, "observed", file), &of)
		types := flavorTypes(t, dir, cf.Schema)
		for i, c := range cf.Cases {
			obs := of.Cases[i]
			for _, fl := range flavors {
				steps := obs.AllFlavors
				if steps == nil {
					steps = obs.ByFlavor[fl]
				}
				typ := types[fl]
				name := fmt.Sprintf("%s/%d:%s/%s", strings.TrimSuffix(file, ".yaml"), c.Line, c.Description, fl)
				if want, ok := steps["twoWay"]; ok && !strings.HasPrefix(want, "(not run") {
					total++
					t.Run(name+"/twoWay", func(t *testing.T) {
						got, err := diffJSON(typ, false, c.JSON["original"], c.JSON["modified"])
						checkAgainst(t, got, err, want)
					})
				}
				want, ok := steps["threeWay"]
				if !ok || strings.HasPrefix(want, "(not run") {
					continue
				}
				total++
				t.Run(name+"/threeWay", func(t *testing.T) {
					got, err := diffJSON(typ, false, c.JSON["original"], c.JSON["modified"], c.JSON["current"])
					if strings.HasPrefix(want, "CONFLICT:") {
						var ce *smp.ConflictError
						if !errors.As(err, &ce) {
							t.Fatalf("upstream reports a conflict; kmerge gives %s %v", got, err)
						}
						overwritten := steps["threeWay(overwrite)"]
						got, err = diffJSON(typ, true, c.JSON["original"], c.JSON["modified"], c.JSON["current"])
						checkAgainst(t, got, err, overwritten)
						return
					}
					checkAgainst(t, got, err, want)
				})
			}
		}
	}
	if total < 600 {
		t.Fatalf("only %d patch creations ran; the case files look incomplete", total)
	}
	t.Logf("%d upstream patch creations replayed", total)
}

// diffJSON creates a two-way (two documents) or three-way patch and returns
// it as canonical JSON.
func diffJSON(typ *schema.Type, overwrite bool, docs ...string) (string, error) {
	var nodes []*yaml.Node
	for _, d := range docs {
		if d == "" {
			d = "null"
		}
		st, err := tree.Read([]byte(d), tree.Options{})
		if err != nil {
			return "", err
		}
		nodes = append(nodes, st.Docs[0])
	}
	var before []*yaml.Node
	for _, n := range nodes {
		before = append(before, tree.Clone(n))
	}
	var p *yaml.Node
	var err error
	if len(nodes) == 2 {
		p, err = smp.CreateTwoWayPatch(nodes[0], nodes[1], typ, smp.DiffOptions{})
	} else {
		p, err = smp.CreateThreeWayPatch(nodes[0], nodes[1], nodes[2], typ, overwrite, smp.DiffOptions{})
	}
	// the documents are not modified, and the patch shares no node with them
	inputs := map[*yaml.Node]bool{}
	for i, n := range nodes {
		if msg := sameTree(before[i], n); msg != "" {
			return "", fmt.Errorf("creating the patch modified document %d: %s", i, msg)
		}
		collect(n, inputs)
	}
	if shared := sharedNode(p, inputs); shared != nil {
		return "", fmt.Errorf("the patch shares the node %q (line %d) with a document", shared.Value, shared.Line)
	}
	var ce *smp.ConflictError
	if errors.As(err, &ce) {
		if shared := sharedNode(ce.Patch, inputs); shared != nil {
			return "", fmt.Errorf("the refused patch shares the node %q with a document", shared.Value)
		}
		if shared := sharedNode(ce.Changed, inputs); shared != nil {
			return "", fmt.Errorf("the changes share the node %q with a document", shared.Value)
		}
	}
	if err != nil {
		return "", err
	}
	out, err := tree.MarshalJSON(p)
	if err != nil {
		return "", err
	}
	return upstreamcases.Canonical(out, false)
}

// sameTree reports how b differs from a, field by field ("" when it does not).
func sameTree(a, b *yaml.Node) string {
	if a == nil || b == nil {
		if a != b {
			return "a node is missing"
		}
		return ""
	}
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Value != b.Value || a.Style != b.Style || a.Anchor != b.Anchor ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("node %q at line %d", a.Value, a.Line)
	}
	for i := range a.Content {
		if msg := sameTree(a.Content[i], b.Content[i]); msg != "" {
			return msg
		}
	}
	return ""
}

func collect(n *yaml.Node, set map[*yaml.Node]bool) {
	if n == nil {
		return
	}
	set[n] = true
	for _, c := range n.Content {
		collect(c, set)
	}
}

// sharedNode returns a node of n that is in set.
func sharedNode(n *yaml.Node, set map[*yaml.Node]bool) *yaml.Node {
	if n == nil {
		return nil
	}
	if set[n] {
		return n
	}
	for _, c := range n.Content {
		if s := sharedNode(c, set); s != nil {
			return s
		}
	}
	return nil
}
