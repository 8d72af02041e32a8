package conformance_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
	"github.com/kmerge/kmerge/conformance/upstreamsrc"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// Upstream's own strategic merge patch test cases (k8s.io/apimachinery's
// patch_test.go, read from the module cache by upstreamsrc), with what
// upstream returns for each of them in each schema flavour, computed here
// by upstream itself. Every apply step and every patch creation upstream's
// tests run is replayed with kmerge and must give upstream's result, or be
// rejected where upstream rejects it.

type upstreamData struct {
	mod    upstreamsrc.Module
	tables []upstreamsrc.Table
}

var upstreamCases = sync.OnceValues(func() (upstreamData, error) {
	m, tables, err := upstreamsrc.Load()
	return upstreamData{m, tables}, err
})

// upstreamTables returns the tables named by ids, in that order.
func upstreamTables(t *testing.T, ids ...string) (upstreamsrc.Module, []upstreamsrc.Table) {
	t.Helper()
	d, err := upstreamCases()
	if err != nil {
		t.Fatal(err)
	}
	var out []upstreamsrc.Table
	for _, id := range ids {
		i := slices.IndexFunc(d.tables, func(tb upstreamsrc.Table) bool { return tb.ID == id })
		if i < 0 {
			t.Fatalf("upstream has no table %s", id)
		}
		out = append(out, d.tables[i])
	}
	return d.mod, out
}

// flavorTypes returns kmerge's type of mergeItem or precisionItem per
// flavour: from the Go type, and from upstream's OpenAPI fixtures.
func flavorTypes(t *testing.T, m upstreamsrc.Module, name string) map[string]*schema.Type {
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
		s, err := schema.LoadFile(m.Testdata(file + suffix))
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

// observed returns what upstream returns for each step of the case, per
// flavour.
func observed(t *testing.T, m upstreamsrc.Module, tb upstreamsrc.Table, c upstreamsrc.Case) map[string]map[string]string {
	t.Helper()
	fls, err := m.Flavors(tb.Schema)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	for _, fl := range fls {
		out[fl.Name] = upstreamsrc.Observe(tb, c, fl)
	}
	return out
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

// TestUpstreamConformance replays every apply step upstream's tests run on
// their own cases (tables 02-08), per schema flavour: the hand-written
// patches of 02 and 03, and the two-way and three-way patches upstream
// creates for the others.
func TestUpstreamConformance(t *testing.T) {
	tables := []struct {
		id        string
		handPatch bool // the patch to apply is the case's own twoWay document
	}{
		{"02-custom-apply", true},
		{"03-custom-apply-raw", true},
		{"04-create-patch", false},
		{"05-create-patch-raw", false},
		{"06-replace-raw-extension", false},
		{"07-number-conversion", false},
		{"08-unknown-field", false},
	}
	total := 0
	for _, tb := range tables {
		m, one := upstreamTables(t, tb.id)
		cf := one[0]
		types := flavorTypes(t, m, cf.Schema)
		for _, c := range cf.Cases {
			obs := observed(t, m, cf, c)
			for _, fl := range upstreamsrc.FlavorNames {
				steps := obs[fl]
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
					name := fmt.Sprintf("%s/%d:%s/%s/%s", tb.id, c.Line, c.Description, fl, st.step)
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
		t.Fatalf("only %d apply checks ran; upstream's tables look incomplete", total)
	}
	t.Logf("%d upstream apply checks replayed", total)
}

// TestUpstreamDiffConformance replays every patch creation upstream ran on
// its own cases: two-way patches, three-way patches, and three-way conflicts
// (then the three-way patch with overwrite), per schema flavour.
func TestUpstreamDiffConformance(t *testing.T) {
	total := 0
	m, tables := upstreamTables(t, "04-create-patch", "05-create-patch-raw", "06-replace-raw-extension", "07-number-conversion", "08-unknown-field")
	for _, cf := range tables {
		types := flavorTypes(t, m, cf.Schema)
		for _, c := range cf.Cases {
			obs := observed(t, m, cf, c)
			for _, fl := range upstreamsrc.FlavorNames {
				steps := obs[fl]
				typ := types[fl]
				name := fmt.Sprintf("%s/%d:%s/%s", cf.ID, c.Line, c.Description, fl)
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
						var ce *change.LiveConflictError
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
		t.Fatalf("only %d patch creations ran; upstream's tables look incomplete", total)
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
	var ce *change.LiveConflictError
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
