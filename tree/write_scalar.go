package tree

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/resolve"
)

// The style a scalar is written in, and its tag.
//
// A scalar is written in the style its node asks for (Style: double or
// single quotes, literal or folded block, in that order of precedence);
// without one, a text holding a line feed as a literal block, a string
// whose text would read as something else (true, 12, null, 2001-12-14...)
// double-quoted, anything else plain. Then the style must suit the text
// and the place (scalarClass, chooseStyle): plain text that would not
// read back as itself is single-quoted, single quotes that cannot hold
// the text (a line break next to a space, a character that must be
// escaped) give double quotes, and a block scalar that cannot be one (in
// a flow collection or a key, trailing spaces, characters that must be
// escaped, empty) is double-quoted. Double quotes hold any text.
//
// The writer's own rules come first (form), whatever made the node: a
// reader of YAML 1.2, a JSON reader, a patch engine or kpatch. Each
// writes text that reads back as the node where yaml.v3's encoder does
// not:
//
//   - a string the writer chooses the style of (no quotes, no block style,
//     no explicit tag) that a YAML 1.1 reader takes for something other
//     than a string ("yes", "on", "1:30": resolve.String, quote.go) is
//     double-quoted;
//   - a string written as a block scalar (its style asks, or it holds a
//     line feed) whose first line that is not empty starts with a tab is
//     double-quoted: yaml.v3 writes that block without an indentation
//     indicator, and it does not read back (quote.go);
//   - an empty null value in a flow collection ({a: }, [a, ]; a null by
//     its tag, or an empty scalar without one) is written null: yaml.v3
//     writes a quoted empty string, a string (an empty null key is left
//     alone: as an object key it is the text "");
//   - a folded scalar with a more-indented line (a line after the first
//     starting with a space or a tab) is written as a literal block,
//     which keeps every line as it is;
//   - a block scalar that needs keep chomping (it ends with a blank line,
//     or is one line break) is written double-quoted: yaml.v3 writes it
//     with a blank line before a comment after it, which the block takes
//     in;
//   - a text where a carriage return, NEL, U+2028 or U+2029 starts a line
//     or ends the text is not written as a block (classifyAny): a YAML
//     1.1 reader reads an empty line there, and the chomping another
//     line break.
//
// The tag: a tag the node's style asks to show (TaggedStyle) is written;
// otherwise a string's tag is not written (a string whose text would
// read as something else is quoted instead), nor the tag the text reads
// as anyway, unless the text has to be quoted where it goes (a timestamp,
// which holds a ":", in a flow collection: yaml.v3 drops the tag there,
// and its text reads back as a string), nor the tag of a mapping or a
// sequence; a plain scalar without a tag or with the non-specific one
// ("!") is what its text reads as (yaml.Node.ShortTag), and when its
// text has to be quoted, that tag is written; any other is
// written, in its short form (!!int, !local) when it has one, else
// verbatim (!<tag:example.com,2000:x>). A text that is not UTF-8 is
// written as its bytes in base64, tagged !!binary, unless the node has
// a tag (an error).

// scalarForm is a scalar as the writer writes it: its text, its tag
// (handle and suffix, both empty for none), the style asked for, and
// what its text allows.
type scalarForm struct {
	value          string
	handle, suffix string
	style          textStyle
	class          scalarClass
	implied        string // a tag left out as the plain text reads as it
}

// textStyle is the style a scalar's text is written in.
type textStyle uint8

const (
	plainText textStyle = iota
	singleQuoted
	doubleQuoted
	literalBlock
	foldedBlock
)

// form returns how n is written in place p.
func (w *writer) form(n *yaml.Node, p place) scalarForm {
	value, style, tag := n.Value, n.Style, n.Tag
	// the writer's own rules
	if tag == "!" && style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && resolve.Tag(value) != resolve.StrTag {
		// the non-specific tag on a plain text that reads as another
		// type than a string (null, a number): the node is that type
		// (yaml.Node.ShortTag), and "!" written before a text makes it
		// a string ("! 12", "[! '']"; yaml.v3 writes them so): the tag
		// is not shown (FuzzWrite, 2026-11-29)
		style &^= yaml.TaggedStyle
	}
	if w.flow > 0 && !p.key && value == "" && (tag == "!!null" || tag == "" && style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0) {
		value = "null"
	}
	// most texts are ordinary: ASCII, one line, no indicator (ordinaryText)
	ordinary := value != "" && ordinaryText(value)
	if style&yaml.FoldedStyle != 0 && (strings.Contains(value, "\n ") || strings.Contains(value, "\n\t")) {
		style = style&^yaml.FoldedStyle | yaml.LiteralStyle
	}
	if style&(yaml.FoldedStyle|yaml.LiteralStyle) != 0 && (value == "\n" || strings.HasSuffix(value, "\n\n")) {
		style = style&^(yaml.FoldedStyle|yaml.LiteralStyle) | yaml.DoubleQuotedStyle
	}
	if misquotedText(value, style, tag) {
		style = style&^(yaml.LiteralStyle|yaml.FoldedStyle) | yaml.DoubleQuotedStyle
	}

	// the tag
	short := shortTag(tag)
	written, implied := "", ""
	force := false
	if tag != "" {
		written = longTag(tag)
		if style&yaml.TaggedStyle == 0 {
			switch {
			case short == resolve.StrTag && style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0:
				written = ""
			case resolve.Tag(value) == short && (style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 ||
				p.key && short == resolve.NullTag && value == ""):
				// (quoted or as a block, the text reads as a string:
				// yaml.v3 drops the tag there too, the writer keeps it;
				// but an empty null key is the text "", as a key of JSON)
				if short != resolve.StrTag && !(p.key && short == resolve.NullTag && value == "") {
					implied = written
				}
				written = ""
			case short == resolve.StrTag:
				written, force = "", true
			}
		}
	}
	if (tag == "" || tag == "!") && style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle|yaml.TaggedStyle) == 0 &&
		!(p.key && value == "") {
		// no tag, or the non-specific one: the node is what its plain
		// text reads as (yaml.Node.ShortTag), which a quoted text is not
		if t := resolve.Tag(value); t != resolve.StrTag {
			implied = longTag(t)
		}
	}
	if !ordinary && !utf8.ValidString(value) {
		switch {
		case short == "!!binary":
			w.fail("explicitly tagged !!binary data must be base64-encoded")
		case short != "":
			w.fail("cannot marshal invalid UTF-8 data as %s", short)
		}
		written, value, implied = longTag("!!binary"), base64Lines(value), ""
	}
	f := scalarForm{value: value, implied: implied}
	if written != "" {
		f.handle, f.suffix = tagParts(written)
	}
	switch {
	case style&yaml.DoubleQuotedStyle != 0:
		f.style = doubleQuoted
	case style&yaml.SingleQuotedStyle != 0:
		f.style = singleQuoted
	case style&yaml.LiteralStyle != 0:
		f.style = literalBlock
	case style&yaml.FoldedStyle != 0:
		f.style = foldedBlock
	case !ordinary && strings.Contains(value, "\n"):
		f.style = literalBlock
	case force:
		f.style = doubleQuoted
	}
	if ordinary {
		f.class = scalarClass{flowPlain: true, plain: true, single: true, block: true}
	} else {
		f.class = classify(value)
	}
	return f
}

// chooseStyle returns the style the text of f is written in, in place p.
func (w *writer) chooseStyle(f *scalarForm, p place) textStyle {
	s := f.style
	if p.simple && f.class.multiline {
		s = doubleQuoted
	}
	if s == plainText {
		if w.flow > 0 && !f.class.flowPlain || w.flow == 0 && !f.class.plain || f.value == "" && (w.flow > 0 || p.simple) {
			s = singleQuoted
		}
	}
	if s == singleQuoted && !f.class.single {
		s = doubleQuoted
	}
	if (s == literalBlock || s == foldedBlock) && (!f.class.block || w.flow > 0 || p.simple) {
		s = doubleQuoted
	}
	return s
}

// scalar writes a scalar in place p: its anchor, its tag, its text.
func (w *writer) scalar(n *yaml.Node, p place) {
	f := w.form(n, p)
	if w.err != nil {
		return
	}
	s := w.chooseStyle(&f, p)
	if s != plainText && f.implied != "" {
		// the text must be quoted where it is (a timestamp in a flow
		// collection): quoted, it would read as a string
		f.handle, f.suffix = tagParts(f.implied)
	}
	w.anchor('&', n.Anchor)
	w.tag(f.handle, f.suffix)
	parent := w.indent
	w.enter(true, p.item, false)
	switch s {
	case plainText:
		w.plain(f.value)
	case singleQuoted:
		w.singleQuoted(f.value)
	case doubleQuoted:
		w.doubleQuoted(f.value)
	case literalBlock, foldedBlock:
		w.kept = keptBlock{start: len(w.out), room: w.room, lead: w.lead, lineStart: w.lineStart, value: f.value, comment: w.line}
		c := byte('|')
		if s == foldedBlock {
			c = '>'
		}
		if w.block(c, f.value, w.indent-max(parent, 0)) {
			w.kept.end = len(w.out)
		}
	}
	w.leave()
}

// keptBlock is a block scalar with keep chomping (it ends with an empty
// line): where it starts in the output and where it ends, the line
// before it, its text, its line comment.
type keptBlock struct {
	start, end int
	room, lead bool
	lineStart  int
	value      string
	comment    string
}

// beforeBlank is called before a blank line is written: a block scalar
// with keep chomping just before it would take it in (the blank line
// yaml.v3 writes before a comment: after a foot comment of the document,
// or a comment that starts with a line break) and is written again,
// double-quoted.
func (w *writer) beforeBlank() {
	k := w.kept
	if k.end == 0 || k.end > len(w.out) || strings.Trim(string(w.out[k.end:]), " ") != "" {
		return
	}
	w.kept = keptBlock{}
	w.out = w.out[:k.start]
	w.room, w.lead, w.lineStart = k.room, k.lead, k.lineStart
	w.doubleQuoted(k.value)
	if k.comment != "" {
		w.out = append(w.out, ' ')
		w.comment(k.comment)
	}
}

// anchor writes an anchor (&name) or an alias (*name), if name is not
// empty. The name must be letters, digits, "-" and "_".
func (w *writer) anchor(c byte, name string) {
	if name == "" {
		if c == '*' {
			w.fail("alias value must not be empty")
		}
		return
	}
	for i := 0; i < len(name); i++ {
		if !anchorChar(name[i]) {
			w.fail("anchor value must contain alphanumerical characters only")
			return
		}
	}
	w.indicator(string(c), true, false, false)
	w.text(name)
	w.room, w.lead = false, false
}

func anchorChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-'
}

// yamlTagPrefix is the prefix "!!" stands for.
const yamlTagPrefix = "tag:yaml.org,2002:"

// shortTag returns a tag in its short form: !!str for
// tag:yaml.org,2002:str.
func shortTag(tag string) string {
	if rest, ok := strings.CutPrefix(tag, yamlTagPrefix); ok {
		return "!!" + rest
	}
	return tag
}

// longTag returns a tag in its long form: tag:yaml.org,2002:str for
// !!str.
func longTag(tag string) string {
	switch tag { // the tags of most nodes, without building the text
	case resolve.StrTag:
		return yamlTagPrefix + "str"
	case resolve.IntTag:
		return yamlTagPrefix + "int"
	case resolve.BoolTag:
		return yamlTagPrefix + "bool"
	case resolve.NullTag:
		return yamlTagPrefix + "null"
	case resolve.FloatTag:
		return yamlTagPrefix + "float"
	case "!!map":
		return yamlTagPrefix + "map"
	case "!!seq":
		return yamlTagPrefix + "seq"
	}
	if rest, ok := strings.CutPrefix(tag, "!!"); ok {
		return yamlTagPrefix + rest
	}
	return tag
}

// tagParts splits a tag (long form) into the handle and suffix it is
// written with: "!" and "local" for !local ("!" alone for the tag !),
// "!!" and "str" for tag:yaml.org,2002:str, or no handle for a tag
// written verbatim.
func tagParts(tag string) (handle, suffix string) {
	switch {
	case tag != "" && tag[0] == '!':
		return "!", tag[1:]
	case len(tag) > len(yamlTagPrefix) && strings.HasPrefix(tag, yamlTagPrefix):
		// (the prefix alone is written verbatim: "!!" without a suffix
		// is no tag, yaml.v3 writes it and then cannot read it)
		return "!!", tag[len(yamlTagPrefix):]
	}
	return "", tag
}

// collectionTag returns the tag written for a mapping or a sequence.
func collectionTag(n *yaml.Node) (handle, suffix string) {
	if n.Tag == "" {
		return "", ""
	}
	if n.Style&yaml.TaggedStyle == 0 {
		switch s := shortTag(n.Tag); {
		case n.Kind == yaml.MappingNode && s == "!!map", n.Kind == yaml.SequenceNode && s == "!!seq":
			return "", ""
		}
	}
	return tagParts(longTag(n.Tag))
}

// tag writes a tag: its handle and suffix, or !<tag> verbatim. Characters
// a tag cannot hold are written %XX, each byte.
func (w *writer) tag(handle, suffix string) {
	if handle == "" && suffix == "" {
		return
	}
	if handle != "" {
		if !w.room {
			w.out = append(w.out, ' ')
		}
		w.text(handle)
		w.tagText(suffix, true)
	} else {
		w.indicator("!<", true, false, false)
		w.tagText(suffix, false)
		w.indicator(">", false, false, false)
	}
	w.room, w.lead = false, false
}

// tagText writes the text of a tag, a character a tag cannot hold as %XX,
// each byte: in a shorthand (!suffix, !!suffix) the flow indicators ",",
// "[" and "]" too, which YAML 1.2 does not allow there (kmerge's reader
// refuses a "," right after a tag's text, which yaml.v3 reads as part of
// it: "!<!a,b>" read was written "!a,b"; FuzzRead, 2026-11-30); in a
// verbatim tag (!<...>) they are the tag's.
func (w *writer) tagText(s string, shorthand bool) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if anchorChar(c) || strings.IndexByte(";/?:@&=+$_.~*'()", c) >= 0 || !shorthand && strings.IndexByte(",[]", c) >= 0 {
			w.out = append(w.out, c)
			continue
		}
		w.out = append(w.out, '%', hex[c>>4], hex[c&15])
	}
}

// base64Lines returns s in base64, in lines of 70 characters each ended
// by a line feed when there are 70 characters or more.
func base64Lines(s string) string {
	enc := base64.StdEncoding.EncodeToString([]byte(s))
	if len(enc) < 70 {
		return enc
	}
	var b strings.Builder
	for len(enc) > 0 {
		n := min(70, len(enc))
		b.WriteString(enc[:n])
		b.WriteByte('\n')
		enc = enc[n:]
	}
	return b.String()
}
