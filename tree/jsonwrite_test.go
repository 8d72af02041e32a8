package tree

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestAppendNumberECMAScript: floats whose text is not a JSON number are
// written as ECMAScript's Number::toString writes them (ECMA-262,
// sec-numeric-types-number-tostring). Each case names s (the shortest
// digits that read back as the value), k (their count) and n (the
// position of the point: value = 0.s × 10^n), and the step of the
// algorithm that applies.
func TestAppendNumberECMAScript(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
		why  string
	}{
		{1, "1", "s=1 k=1 n=1: k ≤ n ≤ 21, the digits and no zeros"},
		{100, "100", "s=1 k=1 n=3: the digit and n-k = 2 zeros"},
		{1e20, "100000000000000000000", "s=1 n=21: still k ≤ n ≤ 21, 20 zeros"},
		{1.2345678901234568e20, "123456789012345680000", "s=12345678901234568 k=17 n=21: 4 zeros"},
		{9007199254740992, "9007199254740992", "2^53: k=n=16"},
		{1e21, "1e+21", "n=22 > 21: the exponent form, k=1 so no point; '+' is written"},
		{1.5e21, "1.5e+21", "s=15 k=2 n=22: first digit, point, the rest, e+21"},
		{12.5, "12.5", "s=125 k=3 n=2: 0 < n ≤ 21, the point after n digits"},
		{0.5, "0.5", "s=5 n=0: -6 < n ≤ 0, '0.', no zeros, the digits"},
		{0.1, "0.1", "the shortest digits that read back, not the binary value's 55 digits"},
		{0.30000000000000004, "0.30000000000000004", "0.1+0.2: s has k=17 digits, n=0"},
		{1e-6, "0.000001", "s=1 n=-5: '0.', 5 zeros, the digit"},
		{1.5e-6, "0.0000015", "s=15 n=-5"},
		{1e-7, "1e-7", "n=-6 is not > -6: the exponent form, n-1 = -7, no leading zeros"},
		{1.23e-18, "1.23e-18", "123e-20, n=-17"},
		{5e-324, "5e-324", "the smallest subnormal: s=5, n=-323"},
		{math.MaxFloat64, "1.7976931348623157e+308", "s has 17 digits, n=309"},
		{-2.5e-10, "-2.5e-10", "a negative number: '-' and the spelling of its magnitude"},
		{-1e21, "-1e+21", "negative, exponent form"},
		{0, "0", "+0"},
		{math.Copysign(0, -1), "-0", "kmerge's deviation: Number::toString says \"0\"; RFC 8259 allows -0 and the text said minus"},
	} {
		if got := string(appendNumber(nil, c.f)); got != c.want {
			t.Errorf("%v: %s, want %s (%s)", c.f, got, c.want, c.why)
		}
	}
}

// TestJSONFloatTexts: through MarshalJSON, a float's text stays when it
// is a JSON number (RFC 8259 §6) and is spelled by appendNumber when it is
// not.
func TestJSONFloatTexts(t *testing.T) {
	for text, want := range map[string]string{
		"1.50":    "1.50", // JSON already: kept
		"1E3":     "1E3",
		"+1.5":    "1.5", // no '+' in JSON
		".5":      "0.5", // a digit before the point
		"-.0":     "-0",
		"5.":      "5", // a digit after the point
		"+1e21":   "1e+21",
		"+12e-8":  "1.2e-7",
		"1_000.5": "1000.5",
		"0x1p-3":  "0.125",
		// !!int beyond int64 are floats once decoded
		"+36893488147419103232":         "36893488147419103000", // 2^65: 17 digits, n=20
		"1_000_000_000_000_000_000_000": "1e+21",                // 10^21: n=22, the exponent form
	} {
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: text}
		if !strings.ContainsAny(text, ".xe") {
			n.Tag = "!!int"
		}
		got, err := MarshalJSON(n)
		if err != nil || string(got) != want {
			t.Errorf("%s: %s (%v), want %s", text, got, err, want)
		}
	}
}

// TestAppendQuotedRFC8259: strings as RFC 8259 §7 writes them, with
// kmerge's additions for YAML (escapedForYAML) and its handling of text
// that is not UTF-8.
func TestAppendQuotedRFC8259(t *testing.T) {
	for _, c := range []struct {
		in, want, why string
	}{
		{"", `""`, "quotation marks around nothing"},
		{"plain text, ~ and space", `"plain text, ~ and space"`, "U+0020 to U+007E other than \" and \\ are written as they are"},
		{`a"b\c`, `"a\"b\\c"`, "quotation mark and reverse solidus must be escaped"},
		{"a/b", `"a/b"`, "'/' may be escaped (\\/) but need not be"},
		{"<&>", `"<&>"`, "JSON does not escape HTML's characters"},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`, "the controls with a two-character escape"},
		{"\x00\x01\x0b\x1f", `"\u0000\u0001\u000b\u001f"`, "the other controls U+0000 to U+001F: \\u00XX"},
		{"\x7f", `"\u007f"`, "DEL: JSON allows it raw, YAML 1.2 §5.1 does not"},
		{"é😀\u00a0\U0010ffff", "\"é😀\u00a0\U0010ffff\"", "UTF-8 (RFC 8259 §8.1) is written as it is, beyond the BMP too"},
		{"\u0080\u0085\u009f", `"\u0080\u0085\u009f"`, "C1 controls: not YAML raw, NEL is a line break to YAML 1.1"},
		{"\u2027\u2028\u2029\u202a", "\"\u2027\\u2028\\u2029\u202a\"", "only the two line and paragraph separators around them"},
		{"\ufffd\ufffe\uffff", "\"\ufffd\\ufffe\\uffff\"", "U+FFFE and U+FFFF are not YAML (§5.1); U+FFFD is"},
		{"\xff", `"\ufffd"`, "a byte that is never UTF-8"},
		{"a\xe2\x80", `"a\ufffd\ufffd"`, "a truncated sequence: one U+FFFD per byte"},
		{"\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`, "the encoding of a surrogate (U+D800) is not UTF-8 (RFC 3629 §3)"},
		{"\xc0\xaf", `"\ufffd\ufffd"`, "an overlong '/'"},
		{"\xf4\x90\x80\x80", `"\ufffd\ufffd\ufffd\ufffd"`, "beyond U+10FFFF"},
		{"x\xffy\"z\u2028", `"x\ufffdy\"z\u2028"`, "escapes between plain runs"},
	} {
		if got := string(appendQuoted(nil, c.in)); got != c.want {
			t.Errorf("%q: %s, want %s (%s)", c.in, got, c.want, c.why)
		}
	}
}

// TestJSONStringsReadAsYAML: JSON output is YAML too (docs/upstream-
// differences.md): each string appendQuoted writes reads back, as YAML,
// to itself. Raw U+FFFE and U+FFFF used to be written, which YAML refuses
// (c-printable, YAML 1.2 §5.1).
func TestJSONStringsReadAsYAML(t *testing.T) {
	yamlFormat := YAML
	var all strings.Builder
	for r := rune(0); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff || r > 0x3000 && r < 0xfff0 || r > 0x10010 && r < 0x10fff0 {
			continue // surrogates are not UTF-8; skip the long uneventful ranges
		}
		s := "a" + string(r) + "b"
		all.WriteString(s)
		b := appendQuoted(nil, s)
		st, err := Read(b, Options{File: "in", Format: &yamlFormat})
		if err != nil || len(st.Docs) != 1 || Root(st.Docs[0]).Value != s {
			t.Errorf("%U: %s reads as YAML with error %v", r, b, err)
		}
	}
	b := appendQuoted(nil, all.String())
	if st, err := Read(b, Options{File: "in", Format: &yamlFormat}); err != nil || Root(st.Docs[0]).Value != all.String() {
		t.Errorf("all of them in one string: error %v", err)
	}
}

// TestAppendNumberProperties: for floats of every magnitude, what
// appendNumber writes is a JSON number (RFC 8259 §6) that reads back as
// the same float64, in the exponent form exactly when Number::toString
// uses it (|f| ≥ 1e21 or |f| < 1e-6), with no '+' but the exponent's and
// no leading zeros in the exponent.
func TestAppendNumberProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 200000 {
		f := math.Float64frombits(r.Uint64())
		if i%2 == 0 { // half of them near the two thresholds
			f = math.Float64frombits(r.Uint64()&^(0x7ff<<52) | uint64(1023+r.IntN(60)-40)<<52)
			f = []float64{f, f * 1e21 / 8, f / 1e6}[i%3]
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			continue
		}
		s := string(appendNumber(nil, f))
		back, err := strconv.ParseFloat(s, 64)
		if !isJSONNumber(s) || err != nil || back != f || math.Signbit(back) != math.Signbit(f) {
			t.Fatalf("%v (bits %#x) written %s, which is not JSON or reads back as %v", f, math.Float64bits(f), s, back)
		}
		a := math.Abs(f)
		if exp := strings.ContainsRune(s, 'e'); exp != (a >= 1e21 || a != 0 && a < 1e-6) {
			t.Fatalf("%v written %s: exponent form %v", f, s, exp)
		}
		if i := strings.IndexByte(s, 'e'); i >= 0 && (s[i+1] != '+' && s[i+1] != '-' || s[i+2] == '0') {
			t.Fatalf("%v written %s: the exponent has no sign or a leading zero", f, s)
		}
	}
}
