package next

import (
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

var identityOutline = &Outline{Fields: map[string]*Outline{
	"apiVersion": nil, "kind": nil,
	"metadata": {Fields: map[string]*Outline{"name": nil, "namespace": nil, "labels": {All: true}}},
	"spec":     {Fields: map[string]*Outline{"containers": {Items: &Outline{Fields: map[string]*Outline{"name": nil}}}}},
}}

// outlineOf is what Skim must give of a document Parse gives.
func outlineOf(n *yaml.Node, o *Outline, keepAll bool) *yaml.Node {
	c := *n
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	c.Content = nil
	switch n.Kind {
	case yaml.DocumentNode:
		c.Content = []*yaml.Node{outlineOf(n.Content[0], o, false)}
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
				c.Content = append(c.Content, outlineOf(n.Content[i], nil, false), outlineOf(n.Content[i+1], sub, false))
			}
		}
	case yaml.SequenceNode:
		if o != nil && (o.All || o.Items != nil) {
			sub := o.Items
			if o.All {
				sub = o
			}
			for _, it := range n.Content {
				c.Content = append(c.Content, outlineOf(it, sub, false))
			}
		}
	}
	return &c
}

func count(n *yaml.Node, depth int) (int, int) {
	nodes, deepest := 1, depth
	for _, c := range n.Content {
		k, d := count(c, depth+1)
		nodes, deepest = nodes+k, max(deepest, d)
	}
	return nodes, deepest
}

func TestSkimOutlines(t *testing.T) {
	skimmed := 0
	for i, in := range inputs(t) {
		docs, err := Parse([]byte(in))
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
				if dd := diffDocs([]*yaml.Node{sk[j].Doc}, []*yaml.Node{outlineOf(d, o, false)}); dd != "" {
					t.Errorf("%d: doc %d: %s\n%q", i, j, dd, in)
				}
				if nodes, depth := count(d, 0); sk[j].Nodes != nodes || sk[j].Depth != depth {
					t.Errorf("%d: %d nodes %d deep, want %d %d", i, sk[j].Nodes, sk[j].Depth, nodes, depth)
				}
			}
		}
	}
	t.Logf("%d skimmed", skimmed)
}
