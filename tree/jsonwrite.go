package tree

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// MarshalJSON returns n as compact JSON, keys in document order.
func MarshalJSON(n *yaml.Node) ([]byte, error) {
	return AppendJSON(nil, n, "")
}

// AppendJSON appends n as JSON to b. With a non-empty indent the output has
// one value per line, indented by nesting level. Keys keep document order;
// numbers keep their text when it is valid JSON, and are rewritten (0x1F as
// 31, .5 as 0.5) when it is not. Infinities and NaN are an error.
func AppendJSON(b []byte, n *yaml.Node, indent string) ([]byte, error) {
	if indent == "" {
		// grow once to about the output's size instead of doubling
		b = slices.Grow(b, compactSize(n, 0))
	}
	w := jsonWriter{b: b, indent: indent}
	w.value(n, 0)
	return w.b, w.err
}

// compactSize estimates the length of n as compact JSON: its text, quotes
// and separators (escapes and rewritten numbers aside). Deep or aliased
// trees stop counting, it is only an estimate.
func compactSize(n *yaml.Node, depth int) int {
	if n == nil || depth > 100 {
		return 0
	}
	size := len(n.Value) + 3
	for _, c := range n.Content {
		size += compactSize(c, depth+1)
	}
	return size
}

type jsonWriter struct {
	b      []byte
	indent string
	err    error
}

func (w *jsonWriter) newline(depth int) {
	if w.indent == "" {
		return
	}
	w.b = append(w.b, '\n')
	for i := 0; i < depth; i++ {
		w.b = append(w.b, w.indent...)
	}
}

func (w *jsonWriter) value(n *yaml.Node, depth int) {
	if w.err != nil {
		return
	}
	n = Deref(n)
	switch KindOf(n) {
	case Null:
		w.b = append(w.b, "null"...)
	case Bool:
		w.b = strconv.AppendBool(w.b, BoolValue(n))
	case Int:
		if isJSONNumber(n.Value) {
			w.b = append(w.b, n.Value...)
		} else {
			i, _ := IntValue(n)
			w.b = strconv.AppendInt(w.b, i, 10)
		}
	case Float:
		if isJSONNumber(n.Value) {
			w.b = append(w.b, n.Value...)
			return
		}
		f, _ := FloatValue(n)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			w.err = fmt.Errorf("line %d: %s has no JSON form", n.Line, n.Value)
			return
		}
		w.b = appendFloat(w.b, f)
	case String:
		w.b = appendString(w.b, n.Value)
	case Object:
		if len(n.Content) == 0 {
			w.b = append(w.b, "{}"...)
			return
		}
		w.b = append(w.b, '{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.newline(depth + 1)
			w.b = appendString(w.b, n.Content[i].Value)
			w.b = append(w.b, ':')
			if w.indent != "" {
				w.b = append(w.b, ' ')
			}
			w.value(n.Content[i+1], depth+1)
		}
		w.newline(depth)
		w.b = append(w.b, '}')
	case Array:
		if len(n.Content) == 0 {
			w.b = append(w.b, "[]"...)
			return
		}
		w.b = append(w.b, '[')
		for i, c := range n.Content {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.newline(depth + 1)
			w.value(c, depth+1)
		}
		w.newline(depth)
		w.b = append(w.b, ']')
	}
}

// isJSONNumber reports whether s is a number as RFC 8259 spells it.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	if s[i] == '0' {
		i++
	} else if '1' <= s[i] && s[i] <= '9' {
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
	} else {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// appendFloat formats f as encoding/json does.
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD;
// U+2028 and U+2029 are escaped, as encoding/json does; <, > and & are not.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f { // DEL: YAML refuses it raw
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		// C1 controls and the Unicode line separators are escaped (DEL
		// above too): YAML
		// reads NEL (U+0085), U+2028 and U+2029 as line breaks and refuses
		// the other C1 controls, so JSON read as YAML keeps them only
		// escaped (found by FuzzRead).
		if r >= 0x80 && r <= 0x9F || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
