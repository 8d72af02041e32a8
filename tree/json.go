package tree

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// jsonReader reads a stream of JSON values into nodes. It is hand-written
// rather than built on encoding/json so that every node keeps its line and
// column and every number its exact text.
type jsonReader struct {
	file      string
	data      []byte
	text      string // data as one string: values without escapes are substrings of it
	pos       int
	line      int // line of pos, 1-based
	lineStart int // offset of the first byte of that line
	limits    Limits
	depth     int
	nodes     int
	expect    int          // nodes still expected (from counting : , { [ in the input)
	slab      []yaml.Node  // nodes are carved from chunks: one allocation per chunk
	ptrs      []*yaml.Node // so are the Content slices of objects and arrays
	stack     []*yaml.Node // children of the objects and arrays being read
}

// readJSON reads all JSON values of data, each as a document node.
func readJSON(data []byte, file string, limits Limits) ([]*yaml.Node, error) {
	// One copy of the input holds every string and number that has no
	// escapes: one allocation instead of one per value.
	r := &jsonReader{file: file, data: data, text: string(data), line: 1, limits: limits}
	// About one node per key, value and item: chunks sized from this
	// estimate make a document's nodes in one or two allocations.
	r.expect = bytes.Count(data, []byte{':'}) + bytes.Count(data, []byte{','}) +
		bytes.Count(data, []byte{'{'}) + bytes.Count(data, []byte{'['}) + 1
	if bytes.HasPrefix(data, utf8BOM) {
		r.pos = len(utf8BOM)
		r.lineStart = r.pos
	}
	var docs []*yaml.Node
	for {
		r.skipSpace()
		if r.pos >= len(r.data) {
			return docs, nil
		}
		if limits.MaxDocuments > 0 && len(docs) >= limits.MaxDocuments {
			return nil, limitError("documents", r.file, r.line, r.pos-r.lineStart+1, "more than %d documents in one stream", limits.MaxDocuments)
		}
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		docs = append(docs, &yaml.Node{Kind: yaml.DocumentNode, Line: v.Line, Column: v.Column, Content: []*yaml.Node{v}})
	}
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

func (r *jsonReader) errorf(format string, args ...any) error {
	return errorf(r.file, r.line, r.pos-r.lineStart+1, format, args...)
}

func (r *jsonReader) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '\n':
			r.pos++
			r.line++
			r.lineStart = r.pos
		case '\r':
			r.pos++
			if r.pos == len(r.data) || r.data[r.pos] != '\n' {
				// a lone CR is a line break, as YAML reads it (a CRLF is
				// one at its LF)
				r.line++
				r.lineStart = r.pos
			}
		case ' ', '\t':
			r.pos++
		default:
			return
		}
	}
}

func (r *jsonReader) node(kind yaml.Kind, tag string) *yaml.Node {
	if len(r.slab) == 0 {
		// the estimate first, then chunks that grow with the document
		size := min(256, max(16, r.nodes))
		if r.expect > 0 {
			size = min(1<<14, max(16, r.expect))
		}
		r.slab = make([]yaml.Node, size)
	}
	n := &r.slab[0]
	r.slab = r.slab[1:]
	r.expect--
	n.Kind, n.Tag, n.Line, n.Column = kind, tag, r.line, r.pos-r.lineStart+1
	return n
}

// children moves the nodes pushed since mark into an exactly sized slice,
// carved from a chunk like the nodes. Its capacity is its length, so an
// append by an editor reallocates instead of writing into the chunk.
func (r *jsonReader) children(mark int) []*yaml.Node {
	n := len(r.stack) - mark
	var c []*yaml.Node
	if n > 64 {
		c = make([]*yaml.Node, n)
	} else {
		if len(r.ptrs) < n {
			size := min(1024, max(64, 2*r.nodes))
			if r.expect > 0 {
				size = min(1<<14, max(64, r.expect+n))
			}
			r.ptrs = make([]*yaml.Node, size)
		}
		c = r.ptrs[:n:n]
		r.ptrs = r.ptrs[n:]
	}
	copy(c, r.stack[mark:])
	clear(r.stack[mark:])
	r.stack = r.stack[:mark]
	return c
}

func (r *jsonReader) value() (*yaml.Node, error) {
	r.nodes++
	if r.limits.MaxNodes > 0 && r.nodes > r.limits.MaxNodes {
		return nil, limitError("nodes", r.file, r.line, r.pos-r.lineStart+1, "document has more than %d values", r.limits.MaxNodes)
	}
	if r.pos >= len(r.data) {
		return nil, r.errorf("unexpected end of JSON input")
	}
	switch c := r.data[r.pos]; {
	case c == '{':
		return r.object()
	case c == '[':
		return r.array()
	case c == '"':
		n := r.node(yaml.ScalarNode, "!!str")
		s, err := r.str()
		if err != nil {
			return nil, err
		}
		n.Value = s
		return n, nil
	case c == '-' || ('0' <= c && c <= '9'):
		return r.number()
	case c == 't':
		return r.literal("true", "!!bool")
	case c == 'f':
		return r.literal("false", "!!bool")
	case c == 'n':
		return r.literal("null", "!!null")
	default:
		return nil, r.errorf("expected a value (an object, array, string, number, true, false or null), found %s", foundAt(r.data, r.pos))
	}
}

func (r *jsonReader) literal(word, tag string) (*yaml.Node, error) {
	n := r.node(yaml.ScalarNode, tag)
	if !bytes.HasPrefix(r.data[r.pos:], []byte(word)) {
		return nil, r.errorf("invalid literal, expected %q", word)
	}
	r.pos += len(word)
	n.Value = word
	return n, nil
}

func (r *jsonReader) enter() error {
	r.depth++
	if r.limits.MaxDepth > 0 && r.depth > r.limits.MaxDepth {
		return limitError("depth", r.file, r.line, r.pos-r.lineStart+1, "nesting deeper than %d levels", r.limits.MaxDepth)
	}
	return nil
}

func (r *jsonReader) object() (*yaml.Node, error) {
	n := r.node(yaml.MappingNode, "!!map")
	if err := r.enter(); err != nil {
		return nil, err
	}
	r.pos++ // {
	var seen map[string]bool
	mark := len(r.stack)
	for first := true; ; first = false {
		r.skipSpace()
		if r.pos >= len(r.data) {
			return nil, r.errorf("unexpected end of JSON input in object")
		}
		if r.data[r.pos] == '}' && first {
			r.pos++
			break
		}
		if r.data[r.pos] != '"' {
			return nil, r.errorf("expected a key (a string in double quotes), found %s", foundAt(r.data, r.pos))
		}
		k := r.node(yaml.ScalarNode, "!!str")
		key, err := r.str()
		if err != nil {
			return nil, err
		}
		k.Value = key
		if r.duplicate(mark, key, &seen) {
			return nil, errorf(r.file, k.Line, k.Column, "duplicate key %q", key)
		}
		r.skipSpace()
		if r.pos >= len(r.data) || r.data[r.pos] != ':' {
			return nil, r.errorf("expected ':' after object key %q", key)
		}
		r.pos++
		r.skipSpace()
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		r.stack = append(r.stack, k, v)
		r.skipSpace()
		if r.pos >= len(r.data) {
			return nil, r.errorf("unexpected end of JSON input in object")
		}
		if c := r.data[r.pos]; c == '}' {
			r.pos++
			break
		} else if c != ',' {
			return nil, r.errorf("expected ',' or '}' after a member of an object, found %s", foundAt(r.data, r.pos))
		}
		r.pos++
	}
	n.Content = r.children(mark)
	r.depth--
	return n, nil
}

// duplicate reports whether key is already a key of the object whose
// entries start at mark on the stack. Small objects are scanned; large ones
// get a set.
func (r *jsonReader) duplicate(mark int, key string, seen *map[string]bool) bool {
	entries := r.stack[mark:]
	if *seen == nil && len(entries) < 32 {
		for i := 0; i < len(entries); i += 2 {
			if entries[i].Value == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, len(entries))
		for i := 0; i < len(entries); i += 2 {
			(*seen)[entries[i].Value] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

func (r *jsonReader) array() (*yaml.Node, error) {
	n := r.node(yaml.SequenceNode, "!!seq")
	if err := r.enter(); err != nil {
		return nil, err
	}
	r.pos++ // [
	mark := len(r.stack)
	for first := true; ; first = false {
		r.skipSpace()
		if r.pos >= len(r.data) {
			return nil, r.errorf("unexpected end of JSON input in array")
		}
		if r.data[r.pos] == ']' && first {
			r.pos++
			break
		}
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		r.stack = append(r.stack, v)
		r.skipSpace()
		if r.pos >= len(r.data) {
			return nil, r.errorf("unexpected end of JSON input in array")
		}
		if c := r.data[r.pos]; c == ']' {
			r.pos++
			break
		} else if c != ',' {
			return nil, r.errorf("expected ',' or ']' after an item of an array, found %s", foundAt(r.data, r.pos))
		}
		r.pos++
	}
	n.Content = r.children(mark)
	r.depth--
	return n, nil
}

// number reads a number as RFC 8259 spells it. Integers that fit in int64 are
// tagged !!int, every other number !!float, as an API server decodes them.
func (r *jsonReader) number() (*yaml.Node, error) {
	n := r.node(yaml.ScalarNode, "!!int")
	start := r.pos
	d := r.data
	p := r.pos
	digits := func() int {
		s := p
		for p < len(d) && '0' <= d[p] && d[p] <= '9' {
			p++
		}
		return p - s
	}
	if p < len(d) && d[p] == '-' {
		p++
	}
	switch {
	case p < len(d) && d[p] == '0':
		p++
	case digits() == 0:
		r.pos = p
		return nil, r.errorf("invalid number: expected a digit")
	}
	isInt := true
	if p < len(d) && d[p] == '.' {
		p++
		isInt = false
		if digits() == 0 {
			r.pos = p
			return nil, r.errorf("invalid number: expected a digit after the decimal point")
		}
	}
	if p < len(d) && (d[p] == 'e' || d[p] == 'E') {
		p++
		isInt = false
		if p < len(d) && (d[p] == '+' || d[p] == '-') {
			p++
		}
		if digits() == 0 {
			r.pos = p
			return nil, r.errorf("invalid number: expected a digit in the exponent")
		}
	}
	text := r.text[start:p]
	r.pos = p
	if isInt && p-start > 18 { // 18 digits always fit in an int64
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			isInt = false
		}
	}
	if !isInt {
		n.Tag = "!!float"
		if f, err := strconv.ParseFloat(text, 64); err != nil || math.IsInf(f, 0) {
			return nil, errorf(r.file, n.Line, n.Column, "number %s is out of range", text)
		}
	}
	n.Value = text
	return n, nil
}

// str reads a quoted string, decoding escapes. Invalid UTF-8 and lone
// surrogates become U+FFFD, as encoding/json does.
func (r *jsonReader) str() (string, error) {
	d := r.data
	p := r.pos + 1
	// Fast path: no escapes, valid UTF-8, no control characters.
	for q := p; q < len(d); q++ {
		c := d[q]
		if c == '"' {
			if utf8.Valid(d[p:q]) {
				r.pos = q + 1
				return r.text[p:q], nil
			}
			break
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	var b []byte
	for {
		if p >= len(d) {
			r.pos = p
			return "", r.errorf("unexpected end of JSON input in string")
		}
		c := d[p]
		switch {
		case c == '"':
			r.pos = p + 1
			return string(b), nil
		case c < 0x20:
			r.pos = p
			return "", r.errorf("control character %s in a string (write it as an escape such as \\n or \\u001f)", foundAt(d, p))
		case c == '\\':
			if p+1 >= len(d) {
				r.pos = p
				return "", r.errorf("unexpected end of JSON input in string escape")
			}
			switch e := d[p+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				ru, ok := hex4(d, p+2)
				if !ok {
					r.pos = p
					return "", r.errorf("invalid \\u escape in string literal")
				}
				p += 6
				if utf16.IsSurrogate(ru) {
					if r2, ok := hex4(d, p+2); ok && p+1 < len(d) && d[p] == '\\' && d[p+1] == 'u' {
						if dec := utf16.DecodeRune(ru, r2); dec != utf8.RuneError {
							b = utf8.AppendRune(b, dec)
							p += 6
							continue
						}
					}
					ru = utf8.RuneError
				}
				b = utf8.AppendRune(b, ru)
				continue
			default:
				r.pos = p
				return "", r.errorf("unknown escape: %s after a backslash in a string (JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX)", foundAt(d, p+1))
			}
			p += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			p++
		default:
			ru, size := utf8.DecodeRune(d[p:])
			b = utf8.AppendRune(b, ru) // RuneError for invalid bytes
			p += size
		}
	}
}

func hex4(d []byte, p int) (rune, bool) {
	if p+4 > len(d) {
		return 0, false
	}
	var v rune
	for _, c := range d[p : p+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// foundAt describes the character at d[p] for an error message: the
// character in single quotes, Go-escaped when it is not printable ('\t',
// '\x00'), or the byte in hex when d[p] does not start valid UTF-8.
func foundAt(d []byte, p int) string {
	ch, size := utf8.DecodeRune(d[p:])
	if ch == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("the byte 0x%02x (not UTF-8)", d[p])
	}
	return strconv.QuoteRune(ch)
}
