package corpus

import yaml "go.yaml.in/yaml/v3"

// DocCommentedYAML is DocHandYAML with a trailing comment on every line
// that ends with a scalar value, as teams annotate why a value is what it
// is (`value: "1.2.0"  # pinned: see the incident`). A patch's edited
// lines then carry comments, which kmerge must keep on the lines it
// rewrites.
func (c Case) DocCommentedYAML() []byte {
	return HandWritten(yamlText(Commented(c.Doc)))
}

// Commented returns a copy of the tree n in which every scalar value of a
// mapping and every scalar item of a sequence has a line comment (those
// that have one keep it).
func Commented(n *yaml.Node) *yaml.Node {
	return commented(n, true)
}

func commented(n *yaml.Node, value bool) *yaml.Node {
	c := *n
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, ch := range n.Content {
			// a mapping's keys take no comment: their values do
			c.Content[i] = commented(ch, n.Kind != yaml.MappingNode || i%2 == 1)
		}
	}
	if value && c.Kind == yaml.ScalarNode && c.LineComment == "" {
		c.LineComment = "# reviewed by the owning team"
	}
	return &c
}
