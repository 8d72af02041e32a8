package conformance

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	yaml2 "go.yaml.in/yaml/v2"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/resolve"
)

// kmerge resolves plain scalars itself (internal/resolve): Tag as yaml.v3
// does (YAML 1.2, kmerge's reader), Tag11 as the YAML 1.1 reader of
// sigs.k8s.io/yaml, go.yaml.in/yaml/v2, does. These tests hold both to
// their oracle on every piece of resolveTexts and on generated and fuzzed
// texts: tag for tag against yaml.v3, and against yaml.v2 by what it
// decodes the text to (a string, a boolean, an integer, a float, null).

// resolveTexts are texts near the edges of every rule: numbers in every
// notation with signs, underscores and prefixes in every place, the words
// in their spellings, timestamps, and texts that are none of those.
func resolveTexts() []string {
	texts := append([]string{}, trickyPieces...)
	texts = append(texts,
		"-_0", "-_1", "-__5", "-_0x1", "-_0.5", "-_1_000", "+_0", "+_.5", "_1", "1_", "1__0", "0x_A", "0b1_0", "1_0.5", ".5_0",
		"0b", "0b+1", "0b-1", "-0b1", "-0b-1", "+0b1", "0B1", "-0B1", "0o", "0o7", "0o+7", "0o-7", "-0o7", "-0o-7", "0O7", "0o8",
		"0x", "0xG", "0x1F", "-0x1F", "+0x1f", "0X1F", "0x8000000000000000", "0xFFFFFFFFFFFFFFFF", "0x10000000000000000", "-0x8000000000000000", "-0x8000000000000001",
		"9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809",
		"1e400", "-1e400", "1e-400", ".5e400", "1.", "-1.", "+.5", "-.5", "-.", "+.", ".", "..", ".e5", "1e", "1e+", "1.5e-3", "1.5E+3", "1_e3", "1e_3",
		"08", "09", "017", "-017", "0_17", "00", "-00", "+0", "-0", "0.", "0.0", "00.5",
		"1:30", "-1:30", "1:60", "1_0:30", "1:30.5", "1:3:5",
		"2001-12-14", "2001-1-1", "2001-12-14t21:59:43.10-05:00", "2001-12-14T21:59:43Z", "2001-12-14 21:59:43.10", "2001-12-14 21:59:43.10 -5",
		"2001-13-14", "2001-12-32", "20011-12-14", "201-12-14", "2001-12-14T", "2001-12-14 1:2:3", "2001-12-14T1:2:3+01:00",
		".inf", ".Inf", ".INF", ".iNF", "+.inf", "-.inf", "+.INF", "-.Inf", ".nan", ".NaN", ".NAN", "+.nan", "inf", "-inf", "nan", "Infinity", "-Infinity", "NaN",
		"<<", "<", "<<<", "~", "~~", "null", "Null", "NULL", "nULL", "true", "True", "TRUE", "tRUE", "y", "Y", "yes", "YES", "Yes", "yEs", "on", "ON", "oN", "off", "OFF", "n", "N", "no", "NO",
		"1.2.3", "10.0.0.1", "1.2.", "v1", "1a", "1x", "0x1p-2", "0x1.8p1", "1d", "-", "+", "--", "-a", "+a", "- 1", "-1", "+1",
	)
	return texts
}

// genNumberText returns a random text made of the characters numbers are
// made of.
func genNumberText(r *rand.Rand) string {
	const alphabet = "0123456789_+-.eExXoObBaFp:T tZ"
	var b strings.Builder
	for range 1 + r.IntN(12) {
		if r.IntN(3) == 0 {
			b.WriteByte(alphabet[r.IntN(10)])
		} else {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
	}
	return b.String()
}

// checkResolve compares kmerge's tags for s with the oracles'.
func checkResolve(t testing.TB, s string) {
	t.Helper()
	n := yaml.Node{Kind: yaml.ScalarNode, Value: s}
	if got, want := resolve.Tag(s), n.ShortTag(); got != want {
		t.Errorf("Tag(%q) = %s; yaml.v3 gives %s", s, got, want)
	}
	// yaml.v2 reads s as the value of a key; only where that reads as the
	// plain scalar s (no indicator, no comment) is there something to
	// compare
	var v3 map[string]yaml.Node
	if err := yaml.Unmarshal([]byte("k: "+s+"\n"), &v3); err != nil || v3["k"].Kind != yaml.ScalarNode ||
		v3["k"].Value != s || v3["k"].Style != 0 || v3["k"].Tag != resolve.Tag(s) {
		return
	}
	var v2 map[string]any
	if err := yaml2.Unmarshal([]byte("k: "+s+"\n"), &v2); err != nil {
		return
	}
	var want string
	switch x := v2["k"].(type) {
	case string:
		want = resolve.StrTag
		if x != s {
			want = "a string other than the text: " + x
		}
	case bool:
		want = resolve.BoolTag
	case int, int64, uint64, uint:
		want = resolve.IntTag
	case float64:
		want = resolve.FloatTag
	case nil:
		want = resolve.NullTag
	default:
		want = fmt.Sprintf("%T", x)
	}
	got := resolve.Tag11(s)
	if got == resolve.TimestampTag || got == resolve.MergeTag {
		got = resolve.StrTag // yaml.v2 gives them as their text
	}
	if got != want {
		t.Errorf("Tag11(%q) = %s; yaml.v2 reads %s (%#v)", s, got, want, v2["k"])
	}
}

// TestResolve: every text of resolveTexts, and 20,000 generated ones.
func TestResolve(t *testing.T) {
	for _, s := range resolveTexts() {
		checkResolve(t, s)
	}
	r := rand.New(rand.NewPCG(29, 1))
	for range 20000 {
		checkResolve(t, genNumberText(r))
	}
}

// TestResolveString: String refuses every text that some reader reads as
// something other than the string (issue 29's family among them), and
// takes ordinary text.
func TestResolveString(t *testing.T) {
	for _, s := range []string{"-_0", "-_1", "-__5", "-_0x1", "-_0.5", "-_1_000", "+_0", "+_.5", "1_000", "0b1_0", "0x_A", "1_0.5",
		"yes", "oN", "tRuE", "nULL", "1:30", "=", "y", ".5_0", "017", "0o17", "0b-1", "2001-12-14", "<<", "~", ""} {
		if resolve.String(s) {
			t.Errorf("String(%q) = true: it does not read back as a string everywhere", s)
		}
	}
	for _, s := range []string{"web", "_1", "._5", "-_inf", "1.2.3", "v1.2", "--port=80", "-a", "a-_1", "0x", "1a"} {
		if !resolve.String(s) {
			t.Errorf("String(%q) = false", s)
		}
	}
}

// FuzzResolve: any text, Tag against yaml.v3 and Tag11 against yaml.v2.
func FuzzResolve(f *testing.F) {
	for _, s := range resolveTexts() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\n\r") {
			return
		}
		checkResolve(t, s)
	})
}
