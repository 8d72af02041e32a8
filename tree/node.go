package tree

import (
	yaml "go.yaml.in/yaml/v3"
)

// MapGet returns the value of key in the mapping m, or nil. When a mapping
// has the key more than once (which Parse rejects) the last one counts.
func MapGet(m *yaml.Node, key string) *yaml.Node {
	if i := MapIndex(m, key); i >= 0 {
		return m.Content[i+1]
	}
	return nil
}

// MapIndex returns the index in m.Content of the key node named key, or -1.
func MapIndex(m *yaml.Node, key string) int {
	if m == nil || m.Kind != yaml.MappingNode {
		return -1
	}
	for i := len(m.Content)&^1 - 2; i >= 0; i -= 2 {
		if k := Resolve(m.Content[i]); k != nil && k.Value == key {
			return i
		}
	}
	return -1
}

// MapSet sets key to value in the mapping m: in place when the key exists
// (the key node and its comments stay), appended at the end otherwise.
func MapSet(m *yaml.Node, key string, value *yaml.Node) {
	if i := MapIndex(m, key); i >= 0 {
		m.Content[i+1] = value
		return
	}
	m.Content = append(m.Content, NewString(key), value)
}

// MapDelete removes key from the mapping m and reports whether it was there.
func MapDelete(m *yaml.Node, key string) bool {
	i := MapIndex(m, key)
	if i < 0 {
		return false
	}
	m.Content = append(m.Content[:i], m.Content[i+2:]...)
	return true
}

// NewMap returns an empty block mapping.
func NewMap() *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
}

// NewSeq returns a block sequence holding items.
func NewSeq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

// NewString returns a string scalar; the writer quotes it when needed.
func NewString(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// NewNull returns a null scalar.
func NewNull() *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// Clone returns a deep copy of n. Aliases are copied as the values they
// point to, so the copy shares nothing with n.
//
// The copy's nodes are allocated together (and so are its Content
// slices, each with capacity equal to its length): a subtree of the copy
// keeps the whole copy's memory alive.
func Clone(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	var c cloner
	c.count(n)
	c.nodes = make([]yaml.Node, c.nNodes)
	c.ptrs = make([]*yaml.Node, c.nPtrs)
	return c.clone(n)
}

// cloner copies a tree into preallocated nodes and pointers; count and
// clone walk the tree the same way.
type cloner struct {
	nNodes, nPtrs int
	nodes         []yaml.Node
	ptrs          []*yaml.Node
}

// cloneSource is the node whose copy stands for n: what an alias points
// to, or n itself (also for an alias chain too long to follow).
func cloneSource(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		if r := Resolve(n); r != n && r != nil && r.Kind != yaml.AliasNode {
			return r
		}
	}
	return n
}

func (c *cloner) count(n *yaml.Node) {
	n = cloneSource(n)
	c.nNodes++
	if n.Kind == yaml.AliasNode || n.Content == nil {
		return
	}
	c.nPtrs += len(n.Content)
	for _, child := range n.Content {
		if child != nil {
			c.count(child)
		}
	}
}

func (c *cloner) clone(n *yaml.Node) *yaml.Node {
	n = cloneSource(n)
	cp := &c.nodes[0]
	c.nodes = c.nodes[1:]
	*cp = *n
	if n.Kind == yaml.AliasNode || n.Content == nil {
		return cp // an alias chain too long to follow is copied as it is
	}
	k := len(n.Content)
	cp.Content = c.ptrs[:k:k]
	c.ptrs = c.ptrs[k:]
	for i, child := range n.Content {
		if child != nil {
			cp.Content[i] = c.clone(child)
		}
	}
	return cp
}

// Root returns the value of a document node, or n itself if it is not a
// document. It is nil for an empty document.
func Root(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil
		}
		return n.Content[0]
	}
	return n
}
