package tree

import (
	"encoding/base64"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// normalizeYAML makes a parsed YAML document a plain tree: aliases are
// replaced by copies of what they point to, merge keys (<<) by the entries
// they bring in, and it checks that mapping keys are unique scalars. The size
// of the expanded tree is computed before anything is copied, so an alias
// bomb fails without allocating.
func normalizeYAML(doc *yaml.Node, file string, limits Limits) error {
	nz := &normalizer{file: file, limits: limits}
	// Most documents have no aliases: then the tree is a tree, its size is
	// its node count, and no memo is needed.
	size := nz.plainSize(doc, 0)
	if nz.err != nil {
		return nz.err
	}
	if nz.hasAlias {
		nz.hasAlias = false
		nz.sizes = map[*yaml.Node]int{}
		size = nz.size(doc, 0)
		if nz.err != nil {
			return nz.err
		}
	}
	if limits.MaxNodes > 0 && size > limits.MaxNodes {
		return limitError("nodes", file, doc.Line, doc.Column, "document expands to more than %d values (YAML aliases?)", limits.MaxNodes)
	}
	if !nz.hasAlias {
		return nz.check(doc)
	}
	expanded := nz.expand(doc)
	*doc = *expanded
	return nz.check(doc)
}

type normalizer struct {
	file     string
	limits   Limits
	sizes    map[*yaml.Node]int
	hasAlias bool
	err      error
}

// plainSize counts the nodes of n and checks their depth as size does,
// stopping at the first alias (hasAlias), after which size must be used.
func (nz *normalizer) plainSize(n *yaml.Node, depth int) int {
	if n == nil || nz.err != nil || nz.hasAlias {
		return 0
	}
	if nz.limits.MaxDepth > 0 && depth > nz.limits.MaxDepth {
		nz.err = limitError("depth", nz.file, n.Line, n.Column, "nesting deeper than %d levels", nz.limits.MaxDepth)
		return 0
	}
	if n.Kind == yaml.AliasNode {
		nz.hasAlias = true
		return 0
	}
	s := 1
	for _, c := range n.Content {
		s += nz.plainSize(c, depth+1)
	}
	return s
}

// size counts the values n expands to, remembering the size of every node
// so that shared subtrees are counted once per reference without being
// walked again.
func (nz *normalizer) size(n *yaml.Node, depth int) int {
	if n == nil || nz.err != nil {
		return 0
	}
	if s, ok := nz.sizes[n]; ok {
		if s < 0 {
			nz.err = errorf(nz.file, n.Line, n.Column, "alias refers to a node that contains it")
			return 0
		}
		return s
	}
	if nz.limits.MaxDepth > 0 && depth > nz.limits.MaxDepth {
		nz.err = limitError("depth", nz.file, n.Line, n.Column, "nesting deeper than %d levels", nz.limits.MaxDepth)
		return 0
	}
	nz.sizes[n] = -1
	s := 1
	if n.Kind == yaml.AliasNode {
		nz.hasAlias = true
		s = nz.size(n.Alias, depth)
	} else {
		for _, c := range n.Content {
			s += nz.size(c, depth+1)
			if s > 1<<40 {
				s = 1 << 40 // keeps sums of huge expansions from overflowing
			}
		}
	}
	nz.sizes[n] = s
	return s
}

// expand returns n with aliases replaced by copies.
func (nz *normalizer) expand(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		c := nz.expand(n.Alias)
		cp := *c
		cp.Anchor = ""
		cp.Line, cp.Column = n.Line, n.Column
		cp.HeadComment, cp.LineComment, cp.FootComment = n.HeadComment, n.LineComment, n.FootComment
		return &cp
	}
	c := *n
	c.Anchor = ""
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, child := range n.Content {
			c.Content[i] = nz.expand(child)
		}
	}
	return &c
}

// check resolves merge keys and rejects duplicate or non-scalar keys, and
// tags that name no type.
func (nz *normalizer) check(n *yaml.Node) error {
	if err := nz.checkTag(n); err != nil {
		return err
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			if err := nz.check(c); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		if err := nz.mergeKeys(n); err != nil {
			return err
		}
		var seen map[string]*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if err := nz.checkTag(k); err != nil {
				return err
			}
			if k.Kind != yaml.ScalarNode {
				return errorf(nz.file, k.Line, k.Column, "mapping key is a %s; Kubernetes documents need string keys", kindWord(k))
			}
			if len(n.Content) <= 16 {
				for j := 0; j < i; j += 2 {
					if n.Content[j].Value == k.Value {
						return dupKey(nz.file, n.Content[j], k)
					}
				}
			} else {
				if seen == nil {
					seen = make(map[string]*yaml.Node, len(n.Content)/2)
				}
				if prev := seen[k.Value]; prev != nil {
					return dupKey(nz.file, prev, k)
				}
				seen[k.Value] = k
			}
			if err := nz.check(n.Content[i+1]); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkTag rejects a tag whose type name is empty: the verbatim tags
// !<tag:yaml.org,2002:> and !<!!> read as the bare handle "!!", which no
// YAML writer can write back as text that reads again.
func (nz *normalizer) checkTag(n *yaml.Node) error {
	if n.Tag == "!!" {
		return errorf(nz.file, n.Line, n.Column, "tag %s names no type", "!<tag:yaml.org,2002:>")
	}
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!binary" || n.Tag == "tag:yaml.org,2002:binary") {
		return nz.binary(n)
	}
	return nil
}

// binary makes a !!binary scalar the string it stands for: its base64
// text decoded (line breaks in it ignored), as sigs.k8s.io/yaml (kubectl's
// reader) decodes it. A value is a JSON string, so bytes that are not
// UTF-8 text are an error (that reader would replace them); so is text
// that is not base64 (as for that reader).
func (nz *normalizer) binary(n *yaml.Node) error {
	b, err := base64.StdEncoding.DecodeString(n.Value)
	if err != nil {
		return errorf(nz.file, n.Line, n.Column, "the !!binary value is not base64 text")
	}
	if !utf8.Valid(b) {
		return errorf(nz.file, n.Line, n.Column, "the !!binary value decodes to bytes that are not UTF-8 text, which a Kubernetes object (JSON) cannot hold: write the base64 text as a plain string where a field takes bytes (a Secret's data, a ConfigMap's binaryData)")
	}
	n.Tag, n.Value = "!!str", string(b)
	n.Style &^= yaml.TaggedStyle | yaml.LiteralStyle | yaml.FoldedStyle
	return nil
}

func dupKey(file string, first, again *yaml.Node) error {
	return errorf(file, again.Line, again.Column, "key %q is already defined at line %d", again.Value, first.Line)
}

func kindWord(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	}
	return "scalar"
}

// mergeKeys replaces each "<<" entry of m by the entries of the mapping (or
// mappings) it names that m does not define itself. Among several merged
// mappings the first one that defines a key wins, as YAML 1.1 says.
func (nz *normalizer) mergeKeys(m *yaml.Node) error {
	has := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		if isMergeKey(m.Content[i]) {
			has = true
			break
		}
	}
	if !has {
		return nil
	}
	explicit := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !isMergeKey(m.Content[i]) {
			explicit[m.Content[i].Value] = true
		}
	}
	out := make([]*yaml.Node, 0, len(m.Content))
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !isMergeKey(k) {
			out = append(out, k, v)
			continue
		}
		var sources []*yaml.Node
		switch v.Kind {
		case yaml.MappingNode:
			sources = []*yaml.Node{v}
		case yaml.SequenceNode:
			sources = v.Content
		}
		if len(sources) == 0 && v.Kind != yaml.SequenceNode {
			return errorf(nz.file, v.Line, v.Column, "merge key << needs a mapping or a sequence of mappings")
		}
		for _, src := range sources {
			if src.Kind != yaml.MappingNode {
				return errorf(nz.file, src.Line, src.Column, "merge key << needs a mapping or a sequence of mappings")
			}
			if err := nz.mergeKeys(src); err != nil {
				return err
			}
			for j := 0; j+1 < len(src.Content); j += 2 {
				name := src.Content[j].Value
				if explicit[name] {
					continue
				}
				explicit[name] = true
				out = append(out, Clone(src.Content[j]), Clone(src.Content[j+1]))
			}
		}
	}
	m.Content = out
	return nil
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "!!merge" || k.Style == 0 && k.Tag == "")
}
