package tree

import (
	"encoding/base64"
	"unicode/utf8"
	"unsafe"

	yaml "go.yaml.in/yaml/v3"
)

// nodeCost is what one value counts toward Limits.MaxExpanded besides its
// text: the size of the node that holds it.
const nodeCost = int(unsafe.Sizeof(yaml.Node{}))

// ExpandedCost returns what the value n counts toward Limits.MaxExpanded
// when it is copied (by a YAML alias, or by a JSON patch's copy
// operation): for each of its values (a key and its value are two), the
// bytes of its text and the size of a node. It stops counting once the
// cost exceeds max (and at a depth of 10,000), so that measuring a huge
// value costs no more than the limit it is checked against.
func ExpandedCost(n *yaml.Node, max int) int {
	cost := 0
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		n = Deref(n)
		if n == nil || cost > max || depth > 10000 {
			return
		}
		cost += len(n.Value) + nodeCost
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return cost
}

// normalizeDoc makes a parsed YAML document a plain tree: aliases are
// replaced by copies of what they point to, merge keys (<<) by the entries
// they bring in, and it checks that mapping keys are unique scalars. The size
// of the expanded tree is computed before anything is copied, so an alias
// bomb fails without allocating. *al is what the aliases of the stream's
// earlier documents did; the document's are added to it. changed reports
// whether it changed the tree (aliases expanded, merge keys brought in, a
// !!binary value decoded): a tree it did not change is its text's parse,
// node for node, and the byte ranges of that parse are its nodes'
// (rangedRead).
func normalizeDoc(doc *yaml.Node, file string, limits Limits, al *aliases) (changed bool, err error) {
	nz := &normalizer{file: file, limits: limits}
	err = nz.normalize(doc, al)
	return nz.changed, err
}

// normalize checks and normalizes doc (normalizeDoc), recording in nz
// whether it changed it.
func (nz *normalizer) normalize(doc *yaml.Node, al *aliases) error {
	file, limits := nz.file, nz.limits
	// Most documents have no aliases: then the tree is a tree, its size is
	// its node count, and no memo is needed.
	size := nz.plainSize(doc, 0)
	if nz.err != nil {
		return nz.err
	}
	if nz.hasAlias {
		nz.hasAlias = false
		nz.sizes = map[*yaml.Node]extent{}
		nz.added = al.added
		size = nz.size(doc, 0).nodes
		if nz.err != nil {
			return nz.err
		}
		al.added = nz.added
		al.across = al.across || nz.across
	}
	if limits.MaxNodes > 0 && size > limits.MaxNodes {
		if nz.hasAlias {
			return limitError("nodes", file, doc.Line, doc.Column, "document expands to more than %d values (YAML aliases)", limits.MaxNodes)
		}
		return limitError("nodes", file, doc.Line, doc.Column, "document has more than %d values", limits.MaxNodes)
	}
	if !nz.hasAlias {
		return nz.check(doc)
	}
	expandedDoc := nz.expand(doc)
	*doc = *expandedDoc
	nz.changed = true
	return nz.check(doc)
}

type normalizer struct {
	file     string
	limits   Limits
	sizes    map[*yaml.Node]extent
	hasAlias bool
	changed  bool // the tree is not its text's parse any more (normalizeDoc)
	added    int  // what the aliases size met add to the stream (Limits.MaxExpanded)
	across   bool // an alias size met names a node of an earlier document
	err      error
}

// aliases is what the aliases of a stream's documents did.
type aliases struct {
	added  int  // what they add to the stream (Limits.MaxExpanded)
	across bool // one names an anchor of an earlier document (yaml.v3 allows it)
}

// extent is the size of a node once its aliases are expanded: its values,
// and their cost toward Limits.MaxExpanded.
type extent struct {
	nodes, cost int
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

// size counts the values n expands to and their cost, remembering the
// extent of every node so that shared subtrees are counted once per
// reference without being walked again.
func (nz *normalizer) size(n *yaml.Node, depth int) extent {
	if n == nil || nz.err != nil {
		return extent{}
	}
	if e, ok := nz.sizes[n]; ok {
		if e.nodes < 0 {
			nz.err = errorf(nz.file, n.Line, n.Column, "alias refers to a node that contains it")
			return extent{}
		}
		return e
	}
	if nz.limits.MaxDepth > 0 && depth > nz.limits.MaxDepth {
		nz.err = limitError("depth", nz.file, n.Line, n.Column, "nesting deeper than %d levels", nz.limits.MaxDepth)
		return extent{}
	}
	nz.sizes[n] = extent{nodes: -1}
	var e extent
	if n.Kind == yaml.AliasNode {
		nz.hasAlias = true
		if _, ok := nz.sizes[n.Alias]; !ok {
			// the nodes of the document are met in the order of its text,
			// and an anchor comes before its aliases: this one is in an
			// earlier document
			nz.across = true
		}
		e = nz.size(n.Alias, depth)
		// Each alias node is met once (its parent is, the memo answers
		// for the copies of its parent), and the expanded document is
		// the nodes written in it with each alias replaced by what it
		// names: so the aliases add the sum of these costs.
		nz.added = min(nz.added+e.cost, 1<<50)
		if lim := nz.limits.MaxExpanded; lim > 0 && nz.added > lim && nz.err == nil {
			nz.err = limitError("expanded", nz.file, n.Line, n.Column,
				"YAML aliases expand to more than %d bytes in one stream (each value an alias copies counts its text and %d bytes)", lim, nodeCost)
		}
	} else {
		e = extent{nodes: 1, cost: len(n.Value) + nodeCost}
		for _, c := range n.Content {
			ce := nz.size(c, depth+1)
			// capped, which keeps sums of huge expansions from overflowing
			e.nodes = min(e.nodes+ce.nodes, 1<<40)
			e.cost = min(e.cost+ce.cost, 1<<50)
		}
	}
	nz.sizes[n] = e
	return e
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
	nz.changed = true
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
	nz.changed = true
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
