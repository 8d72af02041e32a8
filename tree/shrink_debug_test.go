package tree

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// shrink returns a smaller tree for which pred still holds.
func shrink(doc *yaml.Node, pred func(*yaml.Node) bool) *yaml.Node {
	for changed := true; changed; {
		changed = false
		var nodes []*yaml.Node
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			nodes = append(nodes, n)
			if n.Kind != yaml.AliasNode {
				for _, c := range n.Content {
					walk(c)
				}
			}
		}
		walk(doc)
		for i := range nodes {
			for _, edit := range []func(n *yaml.Node) bool{
				func(n *yaml.Node) bool {
					if n.Kind == yaml.SequenceNode && len(n.Content) > 0 {
						n.Content = n.Content[1:]
						return true
					}
					if n.Kind == yaml.MappingNode && len(n.Content) > 1 {
						n.Content = n.Content[2:]
						return true
					}
					return false
				},
				func(n *yaml.Node) bool {
					if n.Kind == yaml.SequenceNode && len(n.Content) > 0 {
						n.Content = n.Content[:len(n.Content)-1]
						return true
					}
					if n.Kind == yaml.MappingNode && len(n.Content) > 1 {
						n.Content = n.Content[:len(n.Content)-2]
						return true
					}
					return false
				},
				func(n *yaml.Node) bool { c := n.HeadComment != ""; n.HeadComment = ""; return c },
				func(n *yaml.Node) bool { c := n.LineComment != ""; n.LineComment = ""; return c },
				func(n *yaml.Node) bool { c := n.FootComment != ""; n.FootComment = ""; return c },
				func(n *yaml.Node) bool { c := n.Anchor != ""; n.Anchor = ""; return c },
				func(n *yaml.Node) bool { c := n.Style != 0; n.Style = 0; return c },
				func(n *yaml.Node) bool {
					if n.Kind == yaml.ScalarNode && n.Value != "a" && n.Tag == "!!str" {
						n.Value = "a"
						return true
					}
					return false
				},
				func(n *yaml.Node) bool {
					if n.Kind == yaml.ScalarNode && n.Tag != "!!str" {
						n.Tag = "!!str"
						return true
					}
					return false
				},
			} {
				c := copyTree(doc)
				var cn []*yaml.Node
				var walk2 func(n *yaml.Node)
				walk2 = func(n *yaml.Node) {
					cn = append(cn, n)
					if n.Kind != yaml.AliasNode {
						for _, k := range n.Content {
							walk2(k)
						}
					}
				}
				walk2(c)
				if i < len(cn) && edit(cn[i]) && pred(c) {
					doc = c
					changed = true
					break
				}
			}
			if changed {
				break
			}
		}
	}
	return doc
}

func TestShrinkDebug(t *testing.T) {
	mode := os.Getenv("SHRINK")
	if mode == "" {
		t.Skip()
	}
	for _, odd := range []bool{false, true} {
		g := &writeGen{r: rand.New(rand.NewPCG(26, 1)), odd: odd}
		shown := 0
		seen := map[string]bool{}
		for i := range 20000 {
			doc := g.document()
			st := writeStyles[i%len(writeStyles)]
			pred := func(d *yaml.Node) bool {
				if !aliasesDefined(d) || dupKeys(d) {
					return false
				}
				fail, differs := writeVerdict(d, st)
				if mode == "fail" {
					return fail != ""
				}
				return differs
			}
			if !pred(doc) {
				continue
			}
			small := shrink(doc, pred)
			got, _ := appendDocument(nil, small, st)
			want, _ := oracle(small, st)
			stripped := string(got)
			for _, tg := range []string{"!!int ", "!!null ", "!!float ", "!!bool ", "!!timestamp ", "!!merge "} {
				stripped = strings.ReplaceAll(stripped, tg, "")
			}
			if mode == "differs" && stripped == string(want) {
				continue
			}
			key := string(got) + "|" + string(want)
			if seen[key] {
				continue
			}
			seen[key] = true
			shown++
			if shown > 40 {
				break
			}
			fail, _ := writeVerdict(small, st)
			fmt.Printf("=== odd %v tree %d style %+v\n%s\n--- mine:\n%s--- yaml.v3:\n%s%s\n", odd, i, st, dumpNode(small), got, want, fail)
		}
	}
}

// aliasesDefined reports whether every alias of d follows an anchor of
// its name, in document order.
func aliasesDefined(d *yaml.Node) bool {
	seen := map[string]bool{}
	ok := true
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if n.Kind == yaml.AliasNode {
			ok = ok && seen[n.Value]
			return
		}
		if n.Anchor != "" {
			seen[n.Anchor] = true
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(d)
	return ok
}

func dupKeys(d *yaml.Node) bool {
	dup := false
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || n.Kind == yaml.AliasNode {
			return
		}
		if n.Kind == yaml.MappingNode {
			seen := map[string]bool{}
			for i := 0; i < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind == yaml.ScalarNode {
					dup = dup || seen[k.Value]
					seen[k.Value] = true
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(d)
	return dup
}
