package fastyaml

import (
	"math/rand/v2"
	"os"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// identityOutline is an outline as package resource asks for (an
// object's identity and labels) and a little more.
var identityOutline = &Outline{Fields: map[string]*Outline{
	"apiVersion": nil, "kind": nil,
	"metadata": {Fields: map[string]*Outline{"name": nil, "namespace": nil, "labels": {All: true}}},
	"spec":     {Fields: map[string]*Outline{"containers": {Items: &Outline{Fields: map[string]*Outline{"name": nil}}}}},
}}

// outlineOf is what Skim must give of a document Parse gives.
func outlineOf(n *yaml.Node, o *Outline) *yaml.Node {
	c := *n
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	c.Content = nil
	switch n.Kind {
	case yaml.DocumentNode:
		c.Content = []*yaml.Node{outlineOf(n.Content[0], o)}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			var sub *Outline
			in := false
			if o != nil {
				if o.All {
					sub, in = o, true
				} else {
					sub, in = o.Fields[n.Content[i].Value]
				}
			}
			if in {
				c.Content = append(c.Content, outlineOf(n.Content[i], nil), outlineOf(n.Content[i+1], sub))
			}
		}
	case yaml.SequenceNode:
		if o != nil && (o.All || o.Items != nil) {
			sub := o.Items
			if o.All {
				sub = o
			}
			for _, it := range n.Content {
				c.Content = append(c.Content, outlineOf(it, sub))
			}
		}
	}
	return &c
}

// count counts the nodes of a tree and the depth of the deepest.
func count(n *yaml.Node, depth int) (int, int) {
	nodes, deepest := 1, depth
	for _, c := range n.Content {
		k, d := count(c, depth+1)
		nodes, deepest = nodes+k, max(deepest, d)
	}
	return nodes, deepest
}

// TestSkimOutlines: of every input Parse reads (yaml.v3's test inputs,
// the YAML test suite's, the repository's YAML files, generated streams),
// Skim gives the nodes an outline names as Parse gives them (without
// comments), and counts the nodes and the depth of each document.
func TestSkimOutlines(t *testing.T) {
	ins := yamlv3Inputs(t)
	for _, in := range suiteInputs(t) {
		ins = append(ins, in)
	}
	for _, path := range yamlFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, string(b))
	}
	g := &gen{r: rand.New(rand.NewPCG(9, 10)), tidy: true}
	for range 2000 {
		ins = append(ins, g.stream())
	}
	skimmed := 0
	for i, in := range ins {
		docs, err := Parse([]byte(in), 0)
		if err != nil {
			continue
		}
		for _, o := range []*Outline{identityOutline, nil, {All: true}} {
			sk, err := Skim([]byte(in), o)
			if err != nil {
				continue
			}
			skimmed++
			if len(sk) != len(docs) {
				t.Fatalf("%d: %d documents skimmed, %d parsed", i, len(sk), len(docs))
			}
			for j, d := range docs {
				if dd := diffDocs([]*yaml.Node{sk[j].Doc}, []*yaml.Node{outlineOf(d, o)}); dd != "" {
					t.Errorf("%d: doc %d: %s\n%q", i, j, dd, in)
				}
				if nodes, depth := count(d, 0); sk[j].Nodes != nodes || sk[j].Depth != depth {
					t.Errorf("%d: %d nodes %d deep, want %d %d", i, sk[j].Nodes, sk[j].Depth, nodes, depth)
				}
			}
		}
	}
	t.Logf("%d skimmed", skimmed)
	if skimmed < 2000 {
		t.Errorf("only %d skimmed", skimmed)
	}
}
