package fieldpath

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kmerge/kmerge/tree"
)

// special are the characters that make a name or a string value need
// quotes: they separate or delimit the parts of a path (. [ ] = ,), quote
// (" ' \), or separate a .kpatch key from its value and start a comment
// (: #).
const special = `.[]"'=,\:#`

// Quote writes a field name, a key field's name or a string value as a
// path writes it: as it is when that is unambiguous, else double-quoted
// with Go's escapes (strconv.Quote). It quotes s when s is empty; holds a
// space, a character that does not print, or one of . [ ] " ' = , \ : #;
// starts with + or -; or would read as something other than a string (what
// YAML 1.2's core schema reads as a number, a boolean or null: 53, 1e3,
// true, null, ~). This is the one quoting rule of paths.
func Quote(s string) string {
	if bare(s) {
		return s
	}
	return strconv.Quote(s)
}

// bare reports whether s can be written without quotes.
func bare(s string) bool {
	return Word(s, special) && s[0] != '+' && s[0] != '-' && Plain(s).Kind == tree.String
}

// Word reports whether s can be written as it is, unquoted, in a text
// whose words end at the characters of delims: it is not empty, is valid
// UTF-8, and holds no space, no character that does not print and none of
// delims. It is the ground of the one quoting rule: Quote is it with the
// delimiters of paths (and more: no leading sign, no word YAML reads as
// another kind), and a target's text (syntax.Target.String) is it
// with a target's.
func Word(s, delims string) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < utf8.RuneSelf && strings.IndexByte(delims, byte(r)) >= 0 || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// String writes the path in its text form (see the package documentation):
// "spec.ports[port=53,protocol=UDP].targetPort". The root is "".
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		writeElement(&b, e, i == 0)
	}
	return b.String()
}

// writeElement writes one element; first says whether it starts the path
// (a field after another element is preceded by a dot).
func writeElement(b *strings.Builder, e Element, first bool) {
	switch e.Kind {
	case FieldElement:
		if !first {
			b.WriteByte('.')
		}
		b.WriteString(Quote(e.Name))
	case KeyElement:
		b.WriteByte('[')
		for i, f := range e.Key {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(Quote(f.Name))
			b.WriteByte('=')
			b.WriteString(f.Value.String())
		}
		b.WriteByte(']')
	case IndexElement:
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(e.Index))
		b.WriteByte(']')
	case MemberElement:
		b.WriteString("[=")
		b.WriteString(e.Value.String())
		b.WriteByte(']')
	}
}

// Message writes a message about a place in a document the way kmerge's
// errors write one: "file:line:col: path: message", the parts of the
// position that are unknown left out, and no path for the root.
func Message(pos tree.Position, p Path, msg string) string {
	if len(p) == 0 {
		return pos.String() + msg
	}
	return pos.String() + p.String() + ": " + msg
}

// SyntaxError reports text that is not a path.
type SyntaxError struct {
	Text   string // the text
	Offset int    // the byte offset in Text of the problem
	Msg    string
}

// Error formats the error as "path TEXT: at byte N: message".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("path %s: at byte %d: %s", strconv.Quote(e.Text), e.Offset, e.Msg)
}

// Parse reads a path in its text form (see the package documentation). It
// accepts exactly what String writes, and also names and string values
// quoted where they need not be. "" is the root.
func Parse(s string) (Path, error) {
	p := &parser{src: s}
	return p.path()
}

// MustParse is Parse for paths known to be valid (in tests and tables); it
// panics on an error.
func MustParse(s string) Path {
	p, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

// parser reads the text of a path, left to right.
type parser struct {
	src string
	pos int
}

func (p *parser) errorf(at int, format string, args ...any) error {
	return &SyntaxError{Text: p.src, Offset: at, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) more() bool { return p.pos < len(p.src) }

// path reads elements until the end: a field or an item first, then fields
// after dots and items in brackets.
func (p *parser) path() (Path, error) {
	var out Path
	for p.more() {
		switch {
		case p.src[p.pos] == '[':
			e, err := p.item()
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		case len(out) == 0 || p.src[p.pos] == '.':
			if len(out) > 0 {
				p.pos++ // the dot
			}
			name, err := p.name("field name")
			if err != nil {
				return nil, err
			}
			out = append(out, Field(name))
		default:
			return nil, p.errorf(p.pos, "expected . or [ after %s, found %q", out[len(out)-1], p.src[p.pos])
		}
	}
	return out, nil
}

// name reads a field name or a key field's name: quoted, or bare up to the
// next special character.
func (p *parser) name(what string) (string, error) {
	if p.more() && p.src[p.pos] == '"' {
		return p.quoted()
	}
	start := p.pos
	word := p.bareWord(false)
	switch {
	case word == "":
		return "", p.errorf(start, "expected a %s", what)
	case !bare(word):
		return "", p.errorf(start, "%s %s must be quoted: %s", what, word, strconv.Quote(word))
	}
	return word, nil
}

// bareWord reads up to the next special character or space; with dots,
// dots are part of the word (a value in brackets: 1.5, .inf).
func (p *parser) bareWord(dots bool) string {
	start := p.pos
	for p.more() {
		r, size := utf8.DecodeRuneInString(p.src[p.pos:])
		if r < utf8.RuneSelf && strings.IndexByte(special, byte(r)) >= 0 && !(dots && r == '.') || unicode.IsSpace(r) {
			break
		}
		p.pos += size
	}
	return p.src[start:p.pos]
}

// quoted reads a double-quoted string with Go's escapes.
func (p *parser) quoted() (string, error) {
	start := p.pos
	for i := start + 1; i < len(p.src); i++ {
		switch p.src[i] {
		case '\\':
			i++
		case '"':
			s, err := strconv.Unquote(p.src[start : i+1])
			if err != nil {
				return "", p.errorf(start, "bad quoted string %s", p.src[start:i+1])
			}
			p.pos = i + 1
			return s, nil
		}
	}
	return "", p.errorf(start, "unterminated quoted string")
}

// value reads a value: quoted (a string), or bare (what YAML reads it as).
func (p *parser) value() (Value, error) {
	if p.more() && p.src[p.pos] == '"' {
		s, err := p.quoted()
		return String(s), err
	}
	start := p.pos
	word := p.bareWord(true)
	if word == "" {
		return Value{}, p.errorf(start, "expected a value (write \"\" for the empty string)")
	}
	v := Plain(word)
	if v.Kind == tree.String && !bare(word) {
		return Value{}, p.errorf(start, "value %s must be quoted: %s", word, strconv.Quote(word))
	}
	return v, nil
}

// item reads a bracketed item: [3], [=value], [name=value,...].
func (p *parser) item() (Element, error) {
	open := p.pos
	p.pos++ // [
	if !p.more() {
		return Element{}, p.errorf(open, "unclosed [")
	}
	end := p.pos
	for end < len(p.src) && p.src[end] >= '0' && p.src[end] <= '9' {
		end++
	}
	var e Element
	switch {
	case end > p.pos && (end == len(p.src) || p.src[end] == ']'):
		digits := p.src[p.pos:end]
		start := p.pos
		p.pos = end
		i, err := strconv.Atoi(digits)
		if err != nil || len(digits) > 1 && digits[0] == '0' {
			return Element{}, p.errorf(start, "bad index %s", digits)
		}
		e = Index(i)
	case p.more() && p.src[p.pos] == '=':
		p.pos++
		v, err := p.value()
		if err != nil {
			return Element{}, err
		}
		e = Member(v)
	default:
		e.Kind = KeyElement
		for {
			name, err := p.name("key field name")
			if err != nil {
				return Element{}, err
			}
			if !p.more() || p.src[p.pos] != '=' {
				return Element{}, p.errorf(p.pos, "expected = after key field %s", Quote(name))
			}
			p.pos++
			v, err := p.value()
			if err != nil {
				return Element{}, err
			}
			e.Key = append(e.Key, KeyField{Name: name, Value: v})
			if !p.more() || p.src[p.pos] != ',' {
				break
			}
			p.pos++
		}
	}
	if !p.more() || p.src[p.pos] != ']' {
		if !p.more() {
			return Element{}, p.errorf(open, "unclosed [")
		}
		return Element{}, p.errorf(p.pos, "expected ] to close the item, found %q", p.src[p.pos])
	}
	p.pos++
	return e, nil
}
