package tree

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/resolve"
)

// The writer's rule for strings, applied to every scalar it writes
// (write_scalar.go, form), whatever made the node: a
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

// misquotedText reports whether the writer's rule for strings (quote.go)
// double-quotes a scalar of this text, style and tag.
func misquotedText(value string, style yaml.Style, tag string) bool {
	if style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 && value != "" && (value[0] == '\t' || value[0] == '\n') && tabStart(value) &&
		(style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || strings.Contains(value, "\n")) {
		return true // a tabBlock
	}
	const chosen = yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle | yaml.LiteralStyle | yaml.FoldedStyle | yaml.TaggedStyle
	if style&chosen != 0 || strings.IndexByte(value, '\n') >= 0 {
		return false
	}
	if s := shortTag(tag); s != resolve.StrTag && !((tag == "" || tag == "!") && resolve.Tag(value) == resolve.StrTag) {
		return false
	}
	return !resolve.String(value) && resolve.Tag(value) == resolve.StrTag
}

// tabStart reports whether the first line of s that is not empty starts
// with a tab.
func tabStart(s string) bool {
	return strings.HasPrefix(strings.TrimLeft(s, "\n"), "\t")
}
