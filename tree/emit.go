package tree

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/resolve"
)

// A writer of block YAML for the common shapes of Kubernetes manifests,
// giving the bytes yaml.v3's encoder gives for them (the tests compare the
// two on generated trees, the benchmark corpus and this package's
// testdata), several times faster. It covers block mappings and sequences,
// empty collections, strings that need no quotes or are quoted as they say,
// integers, booleans and null, head comments of mapping keys and line
// comments of scalars; for anything else (flow collections that are not
// empty, block scalars, anchors, tags, long text with spaces that yaml.v3
// would fold, foot comments, comments elsewhere, keys that are not simple
// strings) it declines, and the caller writes the document with yaml.v3's
// encoder. What it accepts it writes only the way it knows yaml.v3 writes
// it: a string it is not sure needs no quotes is declined, not quoted.

// emitWidth is the column beyond which yaml.v3 breaks a line of text at a
// space: a line with a string holding a space is declined when it would
// reach it.
const emitWidth = 80

// emitYAML appends the document doc (a document node) written as
// encodeYAML writes it in style st, without "---"; ok is false when doc
// holds something the writer leaves to yaml.v3.
func emitYAML(b []byte, doc *yaml.Node, st Style) (_ []byte, ok bool) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.HeadComment != "" || doc.LineComment != "" ||
		doc.FootComment != "" || doc.Anchor != "" {
		return b, false
	}
	indent := st.Indent
	if indent < 1 {
		indent = 2
	}
	if indent < 2 {
		return b, false
	}
	e := emitter{b: b, indent: indent, compact: st.CompactSequences, ok: true}
	root := doc.Content[0]
	switch {
	case !e.plainNode(root):
	case root.Kind == yaml.MappingNode && len(root.Content) > 0 && root.Style&yaml.FlowStyle == 0:
		e.mapping(root, 0, 0, false)
	case root.Kind == yaml.SequenceNode && len(root.Content) > 0 && root.Style&yaml.FlowStyle == 0:
		e.sequence(root, 0)
	default:
		e.ok = false // a scalar or an empty collection as the document
	}
	return e.b, e.ok
}

type emitter struct {
	b       []byte
	indent  int
	compact bool // sequence items at the column of their key
	ok      bool
}

// plainNode reports whether n has nothing the writer leaves to yaml.v3 in
// itself (its children aside): an anchor, an alias, a tag written out, a
// foot comment; or is nil (in a tree built by hand).
func (e *emitter) plainNode(n *yaml.Node) bool {
	if n == nil || n.Kind == yaml.AliasNode || n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 || n.FootComment != "" {
		e.ok = false
	}
	return e.ok
}

func (e *emitter) spaces(n int) {
	for ; n > 0; n-- {
		e.b = append(e.b, ' ')
	}
}

// comment writes a head comment at column col, each of its lines a line of
// its own; a comment with a line that is not one ("#..."), a blank line,
// is declined.
func (e *emitter) comment(c string, col int) {
	for c != "" {
		line, rest, _ := strings.Cut(c, "\n")
		if line == "" || line[0] != '#' || strings.IndexByte(line, '\r') >= 0 {
			e.ok = false
			return
		}
		e.spaces(col)
		e.b = append(e.b, line...)
		e.b = append(e.b, '\n')
		c = rest
	}
}

// lineComment writes a comment after what is on the line.
func (e *emitter) lineComment(c string) {
	if c == "" {
		return
	}
	if c[0] != '#' || strings.ContainsAny(c, "\n\r") {
		e.ok = false
		return
	}
	e.b = append(e.b, ' ')
	e.b = append(e.b, c...)
}

// Where yaml.v3 puts things: every block collection has a level, a
// column; a mapping's keys are at its level, but for a mapping that is a
// sequence item, whose keys follow the item's "- " (two columns right of
// the dash); the value of an entry, a mapping or a sequence, is one indent
// right of the level of the mapping holding it: a mapping's keys there, a
// sequence's dashes there too, or two columns left of there with compact
// sequences. A mapping that is an item of a sequence whose dashes are at
// column d has level d + 2 (at its keys) with compact sequences or an
// indent of two, d otherwise.

// mapping writes the entries of a block mapping of level level, whose keys
// are at column col; inItem says the first key follows the "- " of a
// sequence item, written already.
func (e *emitter) mapping(m *yaml.Node, level, col int, inItem bool) {
	if !e.plainNode(m) || m.HeadComment != "" && !inItem || m.LineComment != "" || len(m.Content)%2 != 0 {
		e.ok = false
		return
	}
	for i := 0; i+1 < len(m.Content) && e.ok; i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if !e.plainNode(k) || !e.plainNode(v) || k.Kind != yaml.ScalarNode || v.HeadComment != "" {
			e.ok = false
			return
		}
		if k.HeadComment != "" {
			if i == 0 && inItem {
				e.ok = false // "- # comment" and the key on the next line
				return
			}
			e.comment(k.HeadComment, col)
		}
		if i > 0 || !inItem {
			e.spaces(col)
		}
		start := len(e.b)
		if !e.key(k) {
			e.ok = false
			return
		}
		e.b = append(e.b, ':')
		lineStart := col + len(e.b) - start // the column after the colon
		e.value(k, v, level, lineStart)
	}
}

// value writes the value of an entry after its key's colon (at column
// after), the mapping holding it of level level.
func (e *emitter) value(k, v *yaml.Node, level, after int) {
	switch {
	case v.Kind == yaml.ScalarNode:
		if k.LineComment != "" {
			e.ok = false
			return
		}
		e.b = append(e.b, ' ')
		if !e.scalar(v, after+1) {
			e.ok = false
			return
		}
		e.lineComment(v.LineComment)
		e.b = append(e.b, '\n')
	case len(v.Content) == 0:
		// an empty collection is written in flow style
		if k.LineComment != "" {
			e.ok = false
			return
		}
		if v.Kind == yaml.MappingNode {
			e.b = append(e.b, " {}"...)
		} else {
			e.b = append(e.b, " []"...)
		}
		e.lineComment(v.LineComment)
		e.b = append(e.b, '\n')
	case v.Style&yaml.FlowStyle != 0 || v.LineComment != "":
		e.ok = false
	case v.Kind == yaml.MappingNode:
		e.lineComment(k.LineComment)
		e.b = append(e.b, '\n')
		e.mapping(v, level+e.indent, level+e.indent, false)
	case v.Kind == yaml.SequenceNode:
		e.lineComment(k.LineComment)
		e.b = append(e.b, '\n')
		dash := level + e.indent
		if e.compact {
			dash -= 2
		}
		e.sequence(v, dash)
	default:
		e.ok = false
	}
}

// sequence writes the items of a block sequence, each "- " at column dash.
func (e *emitter) sequence(s *yaml.Node, dash int) {
	if !e.plainNode(s) || s.HeadComment != "" || s.LineComment != "" {
		e.ok = false
		return
	}
	for _, it := range s.Content {
		if !e.ok || !e.plainNode(it) {
			e.ok = false
			return
		}
		if it.HeadComment != "" {
			e.comment(it.HeadComment, dash)
		}
		e.spaces(dash)
		e.b = append(e.b, "- "...)
		switch {
		case it.Kind == yaml.ScalarNode:
			if !e.scalar(it, dash+2) {
				e.ok = false
				return
			}
			e.lineComment(it.LineComment)
			e.b = append(e.b, '\n')
		case len(it.Content) == 0:
			if it.Kind == yaml.MappingNode {
				e.b = append(e.b, "{}"...)
			} else {
				e.b = append(e.b, "[]"...)
			}
			e.lineComment(it.LineComment)
			e.b = append(e.b, '\n')
		case it.Kind == yaml.MappingNode && it.Style&yaml.FlowStyle == 0 && it.LineComment == "":
			// (a head comment of the item is written above its dash, as
			// that of a scalar item)
			level := dash
			if e.compact || e.indent == 2 {
				level += 2
			}
			e.mapping(it, level, dash+2, true)
		default:
			e.ok = false // a sequence in a sequence, flow style, comments of the item
			return
		}
	}
}

// key writes a mapping key; it reports false for a key the writer does
// not write: one that is not a string written plain, or a long one
// (yaml.v3 writes a key of more than 128 characters as a complex key).
func (e *emitter) key(k *yaml.Node) bool {
	if k.Style != 0 || k.ShortTag() != "!!str" || len(k.Value) > 100 || !plainText(k.Value) {
		return false
	}
	e.b = append(e.b, k.Value...)
	return true
}

// scalar writes a scalar value that starts at column col, as yaml.v3
// writes it, or reports false.
func (e *emitter) scalar(n *yaml.Node, col int) bool {
	v := n.Value
	switch n.ShortTag() {
	case "!!str":
	case "!!int":
		if n.Style != 0 || !decimal(v) {
			return false
		}
		e.b = append(e.b, v...)
		return true
	case "!!bool":
		if n.Style != 0 || v != "true" && v != "false" {
			return false
		}
		e.b = append(e.b, v...)
		return true
	case "!!null":
		if n.Style != 0 || v != "null" && v != "~" {
			return false
		}
		e.b = append(e.b, v...)
		return true
	default:
		return false
	}
	// a string: plain, or quoted as its style says
	if strings.IndexByte(v, ' ') >= 0 && col+len(v)+2 >= emitWidth {
		return false // yaml.v3 may break it over lines
	}
	switch n.Style {
	case 0:
		if !plainText(v) || misquoted(n) {
			return false
		}
		e.b = append(e.b, v...)
	case yaml.DoubleQuotedStyle:
		if !printable(v) || strings.ContainsAny(v, "\"\\") {
			return false
		}
		e.b = append(e.b, '"')
		e.b = append(e.b, v...)
		e.b = append(e.b, '"')
	case yaml.SingleQuotedStyle:
		if !printable(v) || strings.IndexByte(v, '\'') >= 0 || v == "" || v[0] == ' ' || v[len(v)-1] == ' ' {
			return false
		}
		e.b = append(e.b, '\'')
		e.b = append(e.b, v...)
		e.b = append(e.b, '\'')
	default:
		return false
	}
	return true
}

// decimal reports whether s is an integer in decimal without a sign but a
// minus, and without leading zeros.
func decimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// printable reports whether s is printable ASCII: no control character,
// no line break, nothing yaml.v3 might escape.
func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// plainText reports whether yaml.v3 writes the string s without quotes,
// as the writer knows it: words of letters, digits and - _ . / : @ = + ,
// and single spaces, that start with a letter, a digit, a slash or an
// underscore, perhaps after a dash or two (command-line flags:
// --port=80), with no ": " or " #" in them, no ":" at the end, no space
// at either end; and that every reader reads back as the string s
// (resolve.String: not a number, a boolean, null, a timestamp in any
// YAML). Any other string is one it is not sure of.
func plainText(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || s[len(s)-1] == ':' || strings.HasPrefix(s, "---") {
		return false
	}
	body := s
	if s[0] == '-' {
		// a dash not followed by a space, as in --port=80 (but "-" alone is
		// quoted)
		body = s[1:]
		if body == "" || body[0] == ' ' || body[0] == '.' {
			return false
		}
	}
	switch c := body[0]; {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '/', c == '_':
	case c == '-' && body != s:
	default:
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9', c == '-', c == '_', c == '.', c == '/', c == '@', c == '=', c == '+', c == ',':
		case c == ':':
			if s[i+1] == ' ' {
				return false
			}
		case c == ' ':
			if s[i+1] == ' ' || s[i+1] == '#' {
				return false
			}
		default:
			return false
		}
	}
	return resolve.String(s)
}
