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
		w.b = appendNumber(w.b, f)
	case String:
		w.b = appendQuoted(w.b, n.Value)
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
			w.b = appendQuoted(w.b, n.Content[i].Value)
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

// appendNumber appends the finite float64 f as a JSON number (RFC 8259
// §6: [ minus ] int [ frac ] [ exp ]), spelled as ECMAScript's
// Number::toString spells it (ECMA-262, sec-numeric-types-number-tostring),
// which is what JSON.stringify writes. It is used where a float's text is
// not already a JSON number (.5, 1., +2.5, 0x1p-3, an integer beyond
// int64).
//
// Number::toString takes the shortest decimal digits s (k of them) that
// read back as f, and the position n of the decimal point relative to
// them, so that f = 0.s × 10^n. Then, for the magnitude:
//
//   - k ≤ n ≤ 21: the digits and n-k zeros, no point (1e20 is
//     100000000000000000000);
//   - 0 < n ≤ 21: the digits with a point after the first n (12.5);
//   - -6 < n ≤ 0: "0.", -n zeros and the digits (0.000001);
//   - otherwise an exponent: the first digit, a point and the other digits
//     if there are any, "e", the sign of n-1 ('+' or '-', always written)
//     and its magnitude without leading zeros (1e+21, 1.5e-7).
//
// One deviation: Number::toString writes -0 as "0"; kmerge writes "-0",
// which RFC 8259's grammar allows, so that a value written -.0 or -0.
// keeps its sign, as the integer -0 keeps its text. Go's encoding/json
// writes "-0" too (conformance.TestJSONScalarsAsEncodingJSON).
func appendNumber(b []byte, f float64) []byte {
	if f == 0 {
		if math.Signbit(f) {
			return append(b, '-', '0')
		}
		return append(b, '0')
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	// The shortest digits that read back as f come from strconv in the
	// scientific form d[.ddd]e±XX: the first digit, the others, and the
	// exponent of the first digit, n-1.
	var buf [32]byte
	t := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	e := len(t) - 3 // the exponent has two or three digits
	for t[e] != 'e' {
		e--
	}
	first, rest := t[0], t[min(2, e):e]
	exp := 0
	for _, c := range t[e+2:] {
		exp = exp*10 + int(c-'0')
	}
	if t[e+1] == '-' {
		exp = -exp
	}
	k, n := 1+len(rest), exp+1
	switch {
	case k <= n && n <= 21:
		b = append(b, first)
		b = append(b, rest...)
		b = append(b, zeros[:n-k]...)
	case 0 < n && n <= 21: // 1 ≤ n < k
		b = append(b, first)
		b = append(b, rest[:n-1]...)
		b = append(b, '.')
		b = append(b, rest[n-1:]...)
	case -6 < n && n <= 0:
		b = append(b, '0', '.')
		b = append(b, zeros[:-n]...)
		b = append(b, first)
		b = append(b, rest...)
	default:
		b = append(b, first)
		if len(rest) > 0 {
			b = append(b, '.')
			b = append(b, rest...)
		}
		if exp < 0 {
			b = append(b, 'e', '-')
			exp = -exp
		} else {
			b = append(b, 'e', '+')
		}
		b = strconv.AppendInt(b, int64(exp), 10)
	}
	return b
}

// zeros holds as many zeros as appendNumber writes at most: 20 after one
// digit (1e20).
const zeros = "00000000000000000000"

// quoteAs tells appendQuoted what to do with each byte of a string: 0 for
// a byte written as it is, viaDecode for a byte at or above 0x80 (the
// start of a multi-byte UTF-8 sequence, or not UTF-8), and for an ASCII
// byte to escape the letter that follows the backslash: one of RFC 8259
// §7's two-character escapes (\" \\ \b \f \n \r \t), or 'u' for the
// six-character form \u00XX.
var quoteAs = func() (t [256]byte) {
	// RFC 8259 §7: quotation mark, reverse solidus and the control
	// characters U+0000 to U+001F must be escaped.
	for c := range 0x20 {
		t[c] = 'u'
	}
	t['"'], t['\\'] = '"', '\\'
	t['\b'], t['\f'], t['\n'], t['\r'], t['\t'] = 'b', 'f', 'n', 'r', 't'
	// kmerge's addition: DEL, which YAML does not take raw (YAML 1.2
	// §5.1, c-printable), so that the JSON also reads as YAML.
	t[0x7f] = 'u'
	for c := 0x80; c < 0x100; c++ {
		t[c] = viaDecode
	}
	return t
}()

const viaDecode = 1

// appendQuoted appends s as a JSON string (RFC 8259 §7): in quotation
// marks, with '"' and '\' escaped, and the control characters U+0000 to
// U+001F as their two-character escapes where RFC 8259 has one (\b \f \n
// \r \t) and as \u00XX otherwise; '/' is not escaped, nor are <, > and &
// (JSON does not need it; Go's encoding/json escapes these three for
// HTML).
//
// Some characters JSON allows raw are escaped too, so that the output also
// reads as YAML, to the same string: see escapedForYAML (and DEL, in
// quoteAs). They are written \u007f, \u0080 to \u009f, \u2028, \u2029,
// \ufffe and \uffff.
//
// The text is UTF-8 (RFC 8259 §8.1). A byte that does not start a valid
// UTF-8 sequence (RFC 3629: truncated, overlong, a surrogate's encoding,
// beyond U+10FFFF) is written as U+FFFD, escaped as \ufffd, one per byte,
// as Go's unicode/utf8 decoder reports them.
func appendQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	written := 0 // s[:written] is in b
	i := 0
	for i < len(s) {
		how := quoteAs[s[i]]
		if how == 0 {
			i++
			continue
		}
		if how == viaDecode {
			r, size := utf8.DecodeRuneInString(s[i:])
			if size > 1 && !escapedForYAML(r) {
				i += size // valid UTF-8, written as it is
				continue
			}
			b = append(b, s[written:i]...)
			if size == 1 {
				r = utf8.RuneError // not UTF-8
			}
			b = appendHex4(b, r)
			i += size
			written = i
			continue
		}
		b = append(b, s[written:i]...)
		if how == 'u' {
			b = appendHex4(b, rune(s[i]))
		} else {
			b = append(b, '\\', how)
		}
		i++
		written = i
	}
	b = append(b, s[written:]...)
	return append(b, '"')
}

// escapedForYAML reports whether appendQuoted escapes the character r
// (above U+007F) although RFC 8259 lets JSON hold it raw: YAML's readers
// would not give it back. YAML 1.2 §5.1 (c-printable) does not allow the
// C1 controls U+0080 to U+009F raw except NEL (U+0085), nor U+FFFE and
// U+FFFF (yaml.v3 refuses them: "control characters are not allowed");
// NEL, U+2028 and U+2029 are line breaks in YAML 1.1 (§5.4), and yaml.v3
// folds a raw NEL in a quoted string into a space. JSON read as YAML is
// the promise of docs/upstream-differences.md;
// conformance.FuzzJSONScalars checks it with yaml.v3.
func escapedForYAML(r rune) bool {
	return r <= 0x9f || r == '\u2028' || r == '\u2029' || r == 0xfffe || r == 0xffff
}

// appendHex4 appends the escape \uXXXX of a character of the Basic
// Multilingual Plane (RFC 8259 §7), hexadecimal digits in lower case.
func appendHex4(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}
