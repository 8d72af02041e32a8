package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// encodingJSONString is the oracle for kmerge's JSON strings: what Go's
// encoding/json writes for s (without its escapes of <, > and &, which are
// for HTML, not JSON), with the characters kmerge escapes in addition
// escaped: DEL, the C1 controls, U+FFFE and U+FFFF, which encoding/json
// writes raw and YAML does not read raw (docs/upstream-differences.md).
func encodingJSONString(t testing.TB, s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, r := range strings.TrimSuffix(buf.String(), "\n") {
		if r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0xfffe || r == 0xffff {
			fmt.Fprintf(&out, `\u%04x`, r)
		} else {
			out.WriteRune(r)
		}
	}
	return out.String()
}

// jsonScalarsCheck writes {s: f} with kmerge, f a float whose text is not
// JSON (so that kmerge spells it), and compares it with encoding/json's
// spelling of the same string and number. The output must also read as
// YAML (yaml.v3), to the string and number encoding/json reads from it,
// unless the key is too long for YAML.
func jsonScalarsCheck(t testing.TB, s string, f float64) {
	t.Helper()
	key := tree.NewString(s)
	val := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'x', -1, 64)}
	doc := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key, val}}
	got, err := tree.MarshalJSON(doc)
	number, numErr := json.Marshal(f)
	if (err != nil) != (numErr != nil) {
		t.Fatalf("%v (%s): kmerge's error %v, encoding/json's %v", f, val.Value, err, numErr)
	}
	if err != nil {
		got, err = tree.MarshalJSON(key)
		if err != nil {
			t.Fatal(err)
		}
		if want := encodingJSONString(t, s); string(got) != want {
			t.Fatalf("%q: kmerge writes %s, want %s", s, got, want)
		}
		return
	}
	if want := "{" + encodingJSONString(t, s) + ":" + string(number) + "}"; string(got) != want {
		t.Fatalf("%q, %v: kmerge writes %s, want %s", s, f, got, want)
	}
	var viaJSON map[string]float64
	if err := json.Unmarshal(got, &viaJSON); err != nil || len(viaJSON) != 1 {
		t.Fatalf("%s is not JSON: %v", got, err)
	}
	var viaYAML map[string]float64
	if err := yaml.Unmarshal(got, &viaYAML); err != nil {
		// YAML limits an implicit key, a JSON-like one in a flow mapping
		// too, to 1024 characters with its quotes (c-s-implicit-json-key),
		// which yaml.v3 enforces: no spelling of JSON's avoids it (found by
		// FuzzJSONScalars: testdata/fuzz/FuzzJSONScalars/4008c8efc39ac586).
		if utf8.RuneCountInString(encodingJSONString(t, s)) > 1024 {
			return
		}
		t.Fatalf("%s is not YAML: %v", got, err)
	}
	for k, v := range viaJSON {
		// values compare with ==: YAML reads -0 as the integer 0
		if y, ok := viaYAML[k]; !ok || y != v {
			t.Fatalf("%s: as JSON {%q: %v}, as YAML %v", got, k, v, viaYAML)
		}
	}
}

// trickyRunes are the characters where JSON writers differ: controls,
// quote and backslash, HTML's characters, DEL, C1 controls, separators,
// the BMP's last characters, a byte order mark, letters of every length,
// and bytes that are not UTF-8.
var trickyRunes = []string{"a", " ", "\"", "\\", "/", "<", ">", "&", "\x00", "\x01", "\b", "\t", "\n", "\f", "\r", "\x1f", "\x7f",
	"\u0080", "\u0085", "\u009f", "\u00a0", "é", "\u2028", "\u2029", "\u202f", "\ufeff", "\ufffd", "\ufffe", "\uffff", "東", "😀", "\U0010ffff",
	"\xff", "\xc0", "\xc0\xaf", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\x80", "\xf0\x9f\x98"}

func randomTrickyString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(8) {
		b.WriteString(trickyRunes[r.IntN(len(trickyRunes))])
	}
	return b.String()
}

// randomFloat returns a float64 of any bit pattern, or one near the
// thresholds of the exponent form (1e21, 1e-6), or a short decimal.
func randomFloat(r *rand.Rand) float64 {
	switch r.IntN(4) {
	case 0:
		return math.Float64frombits(r.Uint64())
	case 1:
		return []float64{1e21, 1e-6, 1e-7, 1e20}[r.IntN(4)] * (1 + (r.Float64()-0.5)*1e-15*float64(r.IntN(4)))
	case 2:
		f, _ := strconv.ParseFloat(fmt.Sprintf("%d.%de%d", r.IntN(1000), r.IntN(1000), r.IntN(60)-30), 64)
		return f
	}
	return math.Ldexp(r.Float64(), r.IntN(2100)-1075)
}

// TestJSONScalarsAsEncodingJSON: kmerge's JSON strings and numbers
// against Go's encoding/json (a black box: values in, text compared), on
// hand-picked and random strings and floats. Strings: the same text but
// for kmerge's escapes for YAML (encodingJSONString); numbers: the same
// text, both the ECMAScript spelling (tree.TestAppendNumberECMAScript has
// it from the specification), -0 included.
func TestJSONScalarsAsEncodingJSON(t *testing.T) {
	for _, s := range trickyRunes {
		jsonScalarsCheck(t, s, 1)
	}
	jsonScalarsCheck(t, strings.Repeat("k", 1022), 1) // the longest key YAML reads: 1024 characters quoted
	jsonScalarsCheck(t, strings.Repeat("k", 1023), 1)
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e20, 1e21, 1e-6, 1e-7, 5e-324, math.MaxFloat64, -math.SmallestNonzeroFloat64,
		123456789e-20, 1.5e300, math.Inf(1), math.NaN(), 9007199254740993, 1 << 70} {
		jsonScalarsCheck(t, "x", f)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 50000 {
		jsonScalarsCheck(t, randomTrickyString(r), randomFloat(r))
	}
	utf8Valid := 0
	for range 1000 {
		if utf8.ValidString(randomTrickyString(r)) {
			utf8Valid++
		}
	}
	if utf8Valid < 100 || utf8Valid > 900 {
		t.Errorf("%d of 1000 random strings are UTF-8: the mix lost what it is for", utf8Valid)
	}
}

// FuzzJSONScalars: kmerge's JSON string and number writers against
// encoding/json's, as TestJSONScalarsAsEncodingJSON, on what the fuzzer
// makes.
func FuzzJSONScalars(f *testing.F) {
	f.Add("a\"b\\c\x00\x7f\u0085\u2028\ufffe\xff<&>", 1e21)
	f.Add("", 1e-7)
	f.Add("plain", math.Copysign(0, -1))
	f.Add("\xed\xa0\x80é😀", 0.30000000000000004)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		jsonScalarsCheck(t, s, x)
	})
}
