package tree

import (
	"bytes"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// The test oracle of the writer: yaml.v3's encoder, given the trees as the
// library gave them to it before it had a writer of its own: an empty
// document as a document holding null, and the nodes its emitter writes
// as text that does not read back respelled first (respell). The writer
// (write.go) must write what the oracle writes, but where the oracle's
// text does not read back as the tree (write_test.go).

// encodeV3 appends a document (encodable) to buf as yaml.v3's encoder
// writes it in style st. A panic of the emitter (trees built by hand can
// upset it) is returned as an error.
func encodeV3(buf *bytes.Buffer, st Style, d *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot write the document as YAML: %v", r)
		}
	}()
	indent := st.Indent
	if indent < 1 {
		indent = 2
	}
	// An encoder per document: yaml.v3's emitter keeps every event it has
	// emitted until the encoder is done, so one encoder for a long stream
	// would hold the events of all of it.
	enc := yaml.NewEncoder(buf)
	enc.SetIndent(indent)
	if st.CompactSequences {
		enc.CompactSeqIndent()
	}
	if err := enc.Encode(d); err != nil {
		return err
	}
	return enc.Close()
}

// encodable returns a document as yaml.v3's encoder must get it: an empty
// document as a document holding null, and one the emitter would get wrong
// respelled (on a copy: the document is the caller's).
func encodable(d *yaml.Node) *yaml.Node {
	if d.Kind == yaml.DocumentNode && len(d.Content) == 0 {
		d = &yaml.Node{Kind: yaml.DocumentNode, HeadComment: d.HeadComment, FootComment: d.FootComment,
			Content: []*yaml.Node{NewNull()}}
	}
	if misrendered(d, false) {
		d = copyTree(d)
		respell(d, false)
	}
	return d
}

// copyTree copies a tree node by node, aliases as aliases (Clone
// expands them).
func copyTree(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	if n.Kind != yaml.AliasNode {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, k := range n.Content {
			c.Content[i] = copyTree(k)
		}
	}
	return &c
}

// misrendered reports whether n holds a node yaml.v3's emitter writes as
// something that reads back differently (see respell).
func misrendered(n *yaml.Node, inFlow bool) bool {
	inFlow = inFlow || n.Style&yaml.FlowStyle != 0
	for i, c := range n.Content {
		if isKey(n, i) && i+1 < len(n.Content) && (commentBeforeTaggedBlock(c, n.Content[i+1]) || commentBeforeFlow(c, n.Content[i+1])) {
			return true
		}
		if c.Kind == yaml.ScalarNode {
			if inFlow && !isKey(n, i) && isEmptyNull(c) || isMoreIndentedFolded(c) || isKeptBlock(c) || misquotedText(c.Value, c.Style, c.Tag) {
				return true
			}
		} else if misrendered(c, inFlow) {
			return true
		}
	}
	return false
}

// respell changes how the nodes yaml.v3's emitter gets wrong are written,
// not their values:
//   - an empty null value in a flow collection ({a: }, [a, ]) is written as
//     a quoted empty string, a string: it is spelled null (an empty null
//     key is left alone: as an object key it is the text "", and that is
//     what the emitter writes);
//   - a folded scalar with a more-indented line (a line after the first
//     starting with a space or tab) gets extra line breaks: it is written
//     as a literal scalar, which keeps every line as it is;
//   - a block scalar that needs keep chomping (it ends with a blank line,
//     or is one line break) takes in the blank line the emitter writes
//     before a comment after it: it is written double-quoted;
//   - a line comment after a key whose value is a tagged or anchored
//     block collection (k: # c, then !tag or &anchor and the items) puts
//     the tag or anchor at the start of the next line, which does not
//     read: the comment goes on the line above the key;
//   - a line comment after a key whose value is written in flow style (a
//     flow collection, or an empty one, which is always written "{}" or
//     "[]") is written after the colon with the value on the next line at
//     the key's column ("k: # c" then "{}"), which does not read, or is
//     dropped (k: {a: b}): it goes after the value, on the same line
//     ("k: {} # c");
//   - a string the writer's rule quotes (quote.go: text a YAML 1.1 reader
//     misreads, a block scalar starting with a tab) is double-quoted.
func respell(n *yaml.Node, inFlow bool) {
	inFlow = inFlow || n.Style&yaml.FlowStyle != 0
	for i, c := range n.Content {
		if isKey(n, i) && i+1 < len(n.Content) && commentBeforeFlow(c, n.Content[i+1]) {
			v := n.Content[i+1]
			if v.LineComment != "" {
				v.LineComment = c.LineComment + " " + v.LineComment
			} else {
				v.LineComment = c.LineComment
			}
			c.LineComment = ""
		}
		if isKey(n, i) && i+1 < len(n.Content) && commentBeforeTaggedBlock(c, n.Content[i+1]) {
			c.HeadComment = joinComments(c.HeadComment, c.LineComment)
			c.LineComment = ""
		}
		if c.Kind != yaml.ScalarNode {
			respell(c, inFlow)
			continue
		}
		if inFlow && !isKey(n, i) && isEmptyNull(c) {
			c.Value = "null"
		}
		if isMoreIndentedFolded(c) {
			c.Style = c.Style&^yaml.FoldedStyle | yaml.LiteralStyle
		}
		if isKeptBlock(c) {
			c.Style = c.Style&^(yaml.FoldedStyle|yaml.LiteralStyle) | yaml.DoubleQuotedStyle
		}
		if misquotedText(c.Value, c.Style, c.Tag) {
			c.Style = c.Style&^(yaml.LiteralStyle|yaml.FoldedStyle) | yaml.DoubleQuotedStyle
		}
	}
}

// isKey reports whether the i-th child of n is a mapping key.
func isKey(n *yaml.Node, i int) bool { return n.Kind == yaml.MappingNode && i%2 == 0 }

// commentBeforeFlow reports a line comment after a key whose value is a
// collection yaml.v3's emitter writes in flow style: an empty one, or one
// of flow style (see respell).
func commentBeforeFlow(key, value *yaml.Node) bool {
	return key.LineComment != "" && (value.Kind == yaml.MappingNode || value.Kind == yaml.SequenceNode) &&
		(len(value.Content) == 0 || value.Style&yaml.FlowStyle != 0)
}

// commentBeforeTaggedBlock reports a line comment after a key whose value
// is a tagged or anchored block collection (see respell).
func commentBeforeTaggedBlock(key, value *yaml.Node) bool {
	if key.LineComment == "" || value.Style&yaml.FlowStyle != 0 {
		return false
	}
	if value.Anchor != "" && (value.Kind == yaml.MappingNode || value.Kind == yaml.SequenceNode) {
		return true // an anchor goes where the tag would
	}
	switch value.Kind {
	case yaml.MappingNode:
		return value.Style&yaml.TaggedStyle != 0 || value.Tag != "" && value.Tag != "!!map"
	case yaml.SequenceNode:
		return value.Style&yaml.TaggedStyle != 0 || value.Tag != "" && value.Tag != "!!seq"
	}
	return false
}

func isKeptBlock(n *yaml.Node) bool {
	return n.Style&(yaml.FoldedStyle|yaml.LiteralStyle) != 0 && (n.Value == "\n" || strings.HasSuffix(n.Value, "\n\n"))
}

func isEmptyNull(n *yaml.Node) bool { return n.Tag == "!!null" && n.Value == "" }

func isMoreIndentedFolded(n *yaml.Node) bool {
	return n.Style&yaml.FoldedStyle != 0 && (strings.Contains(n.Value, "\n ") || strings.Contains(n.Value, "\n\t"))
}
