package tree

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// The writer's rule for strings, applied to every document it writes
// (encodable, before yaml.v3's encoder gets it), whatever made the node: a
// reader of YAML 1.2, a JSON reader, a patch engine or kpatch. yaml.v3's
// encoder already quotes a plain string that YAML 1.2 would read as
// something else (true, null, 12, 1e3, 0o17, .5, ~, 2001-12-14...). Two
// more kinds of string are written double-quoted:
//
//   - text a YAML 1.1 reader takes for something other than a string
//     (quotes11): kubectl reads YAML through sigs.k8s.io/yaml, whose
//     reader is a YAML 1.1 one, and an unquoted "yes" is a boolean there;
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

// quotes11 reports whether s, written plain, would be read by a YAML 1.1
// reader as a value other than the string s, while YAML 1.2 reads it as
// a string. Tried against sigs.k8s.io/yaml (the conformance module's
// TestWriterReadsSameIn11 and FuzzWriterReadsSameIn11): of every plain
// string yaml.v3's encoder leaves unquoted, that reader resolves the
// boolean words y, yes, n, no, on and off (as YAML 1.1 spells them: y,
// Y, yes, Yes, YES...) to booleans. The rule is wider, for YAML 1.1
// readers other than sigs.k8s.io/yaml's (PyYAML's, Ansible's...):
//   - those words and true, false and null in any letter case ("oN",
//     "tRuE"): a reader that folds case reads them as booleans or null;
//   - base-60 numbers (1:30, -1:20:30, 190:20:30.15), integers and floats
//     in YAML 1.1;
//   - "=", YAML 1.1's value key.
func quotes11(s string) bool {
	switch len(s) {
	case 1:
		switch s[0] {
		case 'y', 'Y', 'n', 'N', '=':
			return true
		}
		return false
	case 2, 3, 4, 5:
		switch strings.ToLower(s) {
		case "yes", "no", "on", "off", "true", "false", "null":
			return true
		}
	}
	return sexagesimal(s)
}

// sexagesimal reports whether s is a base-60 number of YAML 1.1:
// [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?
func sexagesimal(s string) bool {
	t := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if len(t) < len(s)-1 {
		return false // two signs
	}
	head, rest, ok := strings.Cut(t, ":")
	if !ok || head == "" || head[0] < '0' || head[0] > '9' || strings.Trim(head, "0123456789_") != "" {
		return false
	}
	if dot := strings.IndexByte(rest, '.'); dot >= 0 {
		if strings.Trim(rest[dot+1:], "0123456789_") != "" {
			return false
		}
		rest = rest[:dot]
	}
	for _, part := range strings.Split(rest, ":") {
		if len(part) == 0 || len(part) > 2 || strings.Trim(part, "0123456789") != "" || len(part) == 2 && part[0] > '5' {
			return false
		}
	}
	return true
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

// misquoted reports whether the writer's rule changes the style of n.
func misquoted(n *yaml.Node) bool {
	if tabBlock(n) {
		return true
	}
	// the length test first: most strings are neither short nor base-60
	return (len(n.Value) <= 5 || strings.IndexByte(n.Value, ':') > 0) && quotes11(n.Value) && plainString(n)
}

// requote gives n the style the writer's rule asks for.
func requote(n *yaml.Node) {
	if misquoted(n) {
		n.Style = n.Style&^(yaml.LiteralStyle|yaml.FoldedStyle) | yaml.DoubleQuotedStyle
	}
}
