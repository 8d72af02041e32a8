package fastyaml

import (
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// props are a node's properties: its anchor and its tag.
type props struct {
	has       bool
	start     int    // the offset of the first
	end       int    // the end of the last
	line, col int    // where the first is (from 0): the node's position
	anchor    string // the anchor's name, "" for none
	tag       string // the tag, as yaml.Node.Tag holds it
	tagged    bool   // a tag was given (other than the non-specific "!")
	hasTag    bool   // a tag was given
}

// The prefix of the tags of YAML's core schema, which yaml.v3 writes
// shortened to "!!".
const yamlTagPrefix = "tag:yaml.org,2002:"

// props reads the properties at pos (an anchor, a tag, or both, in either
// order) and the blanks after them; flow: inside a flow collection, where
// a ',', ']' or '}' may end them.
func (r *reader) props(flow bool) props {
	if r.sk != nil {
		// what a tag or an anchor means is the caller's to decide
		panic(skimStop{r.line + 1, "a tag or an anchor"})
	}
	p := props{has: true, start: r.pos, line: r.line, col: r.col(r.pos)}
	anchor, tag := false, false
	for {
		switch r.src[r.pos] {
		case '&':
			if anchor {
				r.fail(r.pos, "two anchors for one node")
			}
			anchor = true
			at := r.pos
			p.anchor = r.name("an anchor", '&')
			p.end = r.pos
			r.propEnd(at, flow)
		case '!':
			if tag {
				r.fail(r.pos, "two tags for one node")
			}
			tag = true
			at := r.pos
			p.tag, p.tagged = r.tag()
			p.hasTag = true
			p.end = r.pos
			r.propEnd(at, flow)
		default:
			return p
		}
	}
}

// propEnd checks what follows a property: a blank, or the end of the
// line; in a flow collection also the end of an entry.
func (r *reader) propEnd(at int, flow bool) {
	r.tokEnd = r.pos
	if !r.isBlankAt(r.pos) {
		switch r.src[r.pos] {
		case ',', ']', '}':
			if flow {
				// an empty node with properties
				return
			}
		}
		r.failf(r.pos, "%q right after a property (an anchor's or alias's name is of letters, digits, - and _; a space must follow)", r.src[r.pos])
	}
	r.skipSpace()
	_ = at
}

// tag reads a tag at pos (its '!') and returns it as yaml.Node.Tag holds
// it: a verbatim tag as written (!<...>), a shorthand with its handle's
// prefix (!!, !, !name!), the tags of the core schema shortened to
// "!!name"; tagged is false for the non-specific tag "!", which leaves the
// node's tag to be resolved as if it had none.
func (r *reader) tag() (tag string, tagged bool) {
	at := r.pos
	r.pos++
	if r.src[r.pos] == '<' {
		r.pos++
		s := r.pos
		for r.src[r.pos] != '>' {
			if r.isBlankAt(r.pos) {
				r.fail(at, "a verbatim tag without its closing >")
			}
			r.pos++
		}
		t := r.uri(s, r.pos, false)
		r.pos++
		if t == "" {
			r.fail(at, "an empty verbatim tag")
		}
		if t == "!" {
			// !<!> (or !<%21>): the tag "!", which no writer can write
			// but as the non-specific "!"; yaml.v3 reads it as that one
			return "", false
		}
		return shortTag(t), true
	}
	// the handle: "!", "!!" or "!name!"
	s := r.pos
	for isWordChar(r.src[r.pos]) {
		r.pos++
	}
	handle := "!"
	suffix := s
	if r.src[r.pos] == '!' {
		r.pos++
		handle = r.src[at:r.pos]
		suffix = r.pos
	} else {
		r.pos = s
	}
	for !r.isBlankAt(r.pos) && !isFlowIndicator(r.src[r.pos]) {
		r.pos++
	}
	if isFlowIndicator(r.src[r.pos]) {
		r.failf(r.pos, "%q right after a tag: yaml.v3 reads it as part of the tag, YAML 1.2 as the end of the tag (put a space after the tag)", r.src[r.pos])
	}
	if r.pos == suffix {
		if handle == "!" {
			return "", false // the non-specific tag
		}
		r.fail(at, "a tag without a name after its handle")
	}
	name := r.uri(suffix, r.pos, false)
	prefix, ok := r.handles[handle]
	if !ok {
		switch handle {
		case "!":
			prefix = "!"
		case "!!":
			prefix = yamlTagPrefix
		default:
			r.failf(at, "the tag handle %s, which no %%TAG directive of the document defines", handle)
		}
	}
	return shortTag(prefix + name), true
}

// shortTag returns a tag as yaml.Node.Tag holds it: the core schema's
// shortened to "!!name".
func shortTag(t string) string {
	if rest, ok := strings.CutPrefix(t, yamlTagPrefix); ok {
		return "!!" + rest
	}
	return t
}

// uri returns the characters of a tag or a %TAG prefix, src[s:e], with
// their %-escapes decoded. prefix: a %TAG directive's prefix, which may
// start with '!'.
func (r *reader) uri(s, e int, prefix bool) string {
	text := r.src[s:e]
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '%' {
			if i+2 >= len(text) || unhex(text[i+1]) < 0 || unhex(text[i+2]) < 0 {
				r.fail(s+i, "a % in a tag that is not an escape (%XX)")
			}
			i += 2
			continue
		}
		if c == '#' {
			// YAML 1.2 allows it (ns-uri-char); yaml.v3 does not
			r.fail(s+i, "'#' in a tag: yaml.v3 refuses it (write it as the escape %23)")
		}
		if c >= 0x80 {
			r.fail(s+i, "a character that is not ASCII in a tag (a tag is a URI: write its UTF-8 bytes as %XX escapes)")
		}
		if !uriChar(c) {
			r.failf(s+i, "%q in a tag", c)
		}
	}
	if !strings.Contains(text, "%") {
		return text
	}
	var b []byte
	for i := 0; i < len(text); i++ {
		if text[i] == '%' {
			b = append(b, byte(unhex(text[i+1])<<4|unhex(text[i+2])))
			i += 2
			continue
		}
		b = append(b, text[i])
	}
	if !utf8.Valid(b) {
		// yaml.v3 refuses such escapes too; a tag that is not text could not
		// be written back
		r.fail(s, "a tag whose %-escapes are not UTF-8 text")
	}
	return string(b)
}

// uriChar reports whether c may be in a tag: the characters of URIs
// (letters, digits, and -#;/?:@&=+$,_.!~*'()[]; YAML 1.2.2, ns-uri-char:
// other characters are %-escaped).
func uriChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("-#;/?:@&=+$,_.!~*'()[]", c) >= 0
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// scalarProps sets a scalar's tag and anchor from its properties; tag is
// the tag it has without them (resolved from its text, or !!str).
func (r *reader) scalarProps(n *yaml.Node, p props, tag string) {
	n.Tag = tag
	if !p.has {
		return
	}
	if p.tagged {
		n.Tag = p.tag
		n.Style |= yaml.TaggedStyle
	}
	if n.Tag == "" {
		n.Tag = resolveTag(n)
	}
	r.anchor(n, p)
}

// resolveTag is the tag of an untagged scalar: !!null when empty and
// plain, as its text resolves when plain, !!str when quoted or a block
// scalar.
func resolveTag(n *yaml.Node) string {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return strTag
	}
	return tagOf(n.Value)
}

// collectionProps sets a collection's tag and anchor from its properties.
func (r *reader) collectionProps(n *yaml.Node, p props) {
	if !p.has {
		return
	}
	if p.tagged {
		n.Tag = p.tag
		n.Style |= yaml.TaggedStyle
	}
	r.anchor(n, p)
}

// anchor records a node's anchor.
func (r *reader) anchor(n *yaml.Node, p props) {
	if p.anchor == "" {
		return
	}
	n.Anchor = p.anchor
	if r.anchors == nil {
		r.anchors = map[string]*yaml.Node{}
	}
	r.anchors[p.anchor] = n
}

// name reads the name of an anchor or an alias after its indicator (& or
// *) at pos: letters, digits, - and _; what names the node for the error
// of an empty name.
func (r *reader) name(what string, indicator byte) string {
	at := r.pos
	r.pos++
	s := r.pos
	for isWordChar(r.src[r.pos]) {
		r.pos++
	}
	if r.pos == s {
		r.failf(at, "%s without a name (after %c come letters, digits, - and _)", what, indicator)
	}
	return r.src[s:r.pos]
}
