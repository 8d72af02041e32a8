package next

import yaml "go.yaml.in/yaml/v3"

// commenter: comments are refused for now.
type commenter struct {
	r *reader
}

func (c *commenter) lineComment(s, e int)                  { c.r.refuse("a comment") }
func (c *commenter) commentLine(s, e, col int)             { c.r.refuse("a comment") }
func (c *commenter) blank()                                {}
func (c *commenter) streamEnd(docs []*yaml.Node)           {}
func (c *commenter) docStart(doc *yaml.Node)               {}
func (c *commenter) marker()                               {}
func (c *commenter) emptyDoc(n *yaml.Node)                 {}
func (c *commenter) docEndMarker()                         {}
func (c *commenter) docEnd(doc *yaml.Node)                 {}
func (c *commenter) noComment()                            {}
func (c *commenter) collectionStart(n *yaml.Node, col int) {}
func (c *commenter) nextEntry(col int)                     {}
func (c *commenter) collectionEnd(n *yaml.Node, col int)   {}
func (c *commenter) lineTarget(n *yaml.Node)               {}
func (c *commenter) emptyValue(n *yaml.Node)               {}
func (c *commenter) keyNode(n *yaml.Node)                  {}
func (c *commenter) scalarEnd(n *yaml.Node)                {}
func (c *commenter) blockScalarEnd(n *yaml.Node)           {}
