package tree

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/resolve"
)

// The writer's rule for strings, applied to every document it writes
// (encodable, before yaml.v3's encoder gets it), whatever made the node: a
// reader of YAML 1.2, a JSON reader, a patch engine or kpatch. yaml.v3's
// encoder already quotes a plain string that YAML 1.2 would read as
// something else (true, null, 12, 1e3, 0o17, .5, ~, 2001-12-14...). Two
// more kinds of string are written double-quoted:
//
//   - text a YAML 1.1 reader takes for something other than a string
//     (resolve.String decides, the function kmerge's reader resolves
//     plain scalars with): kubectl reads YAML through sigs.k8s.io/yaml,
//     whose reader is a YAML 1.1 one, and an unquoted "yes" is a boolean
//     there;
//   - text that starts, after any line breaks, with a tab and would be
//     written as a block scalar (tabBlock): yaml.v3's emitter writes it
//     without an indentation indicator, and neither kmerge's reader nor
//     sigs.k8s.io/yaml's then reads the tab as content.
//
// Quoted, block and tagged scalars (a style the input or a patch chose)
// keep their style, except for tabBlock, which changes the style of a
// block scalar too.

// plainString reports whether n is a string scalar the writer chooses the
// style of: no quotes, no block style, no explicit tag.
func plainString(n *yaml.Node) bool {
	const chosen = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle | yaml.TaggedStyle
	return n.Kind == yaml.ScalarNode && n.Style&chosen == 0 && n.ShortTag() == "!!str"
}

// tabBlock reports whether n is a string that yaml.v3's emitter writes as
// a block scalar (its style says so, or it holds a line break and no
// style was chosen) whose first line that is not empty starts with a tab.
func tabBlock(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		return false
	}
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 && !strings.Contains(n.Value, "\n") {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(n.Value, "\n"), "\t")
}

// misquoted reports whether the writer's rule changes the style of n: a
// string yaml.v3's encoder would write plain (its resolver reads it as a
// string: resolve.Tag) that some reader would not read back as that
// string (resolve.String), or a tabBlock.
func misquoted(n *yaml.Node) bool {
	if tabBlock(n) {
		return true
	}
	return plainString(n) && strings.IndexByte(n.Value, '\n') < 0 && !resolve.String(n.Value) && resolve.Tag(n.Value) == resolve.StrTag
}

// requote gives n the style the writer's rule asks for.
func requote(n *yaml.Node) {
	if misquoted(n) {
		n.Style = n.Style&^(yaml.LiteralStyle|yaml.FoldedStyle) | yaml.DoubleQuotedStyle
	}
}
