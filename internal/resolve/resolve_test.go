package resolve

import (
	"math/rand/v2"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestTagAsYAMLv3: the tags Tag gives plain scalars are yaml.v3's, on the
// words of its resolver and on random strings of the characters numbers,
// timestamps and those words are made of.
func TestTagAsYAMLv3(t *testing.T) {
	ins := []string{"", "~", "null", "Null", "NULL", "nULL", "true", "True", "TRUE", "tRUE", "false", "yes", "no", "on", "off",
		"y", "n", "<<", "<", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "-.nan", "0", "00", "08", "0o17", "0x1F", "0b101", "-0b1",
		"-0o7", "1_000", "+1", "-0", "1e3", "1.5e-3", ".5", "5.", "1.2.3", "9223372036854775807", "9223372036854775808",
		"18446744073709551616", "123456789012345678", "1234567890123456789", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
		"2001-12-14 21:59:43.10", "2001-12-14T21:59:43.10Z", "0000-1-1T0:0:0,0Z", "2001-12-14 21:59:43,5", "2002-1-1", "20011-1-1", "50m", "128Mi", "1.0.0", "0.1", "-", "--port=8080", "-x", "+x",
		"-.5", "+.5", "-1.5", "1.2.3", "1.5", "01.5", "1.2.", "1..2", "10.0.0.1", "0.1.2", "1.2.3-rc1", "123456789012345.678",
		"+", "_", "0x", "1:20", "1_2.5", "8080", "v1", "app-00001"}
	r := rand.New(rand.NewPCG(3, 4))
	const chars = "0123456789+-_.,:eEtTzZxXoObBaAfFiInN ~<luLU"
	for range 200000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = chars[r.IntN(len(chars))]
		}
		ins = append(ins, string(b))
	}
	// Strings shaped like numbers and timestamps, from their pieces.
	pieces := []string{"2001", "0000", "1", "12", "0", "9", "-", "-", ":", ":", "T", "t", " ", ".", ",", "Z", "+",
		"07:00", "5", "0x", "0o", "0b", "_", "e", "E", "1e3", ".5", "inf", "nan", "F"}
	for range 200000 {
		var b strings.Builder
		for range 1 + r.IntN(10) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		ins = append(ins, b.String())
	}
	// Timestamps with every separator and zone, one character of them
	// replaced by any printable ASCII character.
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	for range 200000 {
		v := []byte(pick("2001", "0000", "1999") + "-" + pick("1", "12", "01") + "-" + pick("2", "14", "02") +
			pick("", "T", "t", " ", "  ") + pick("", "0:0:0", "21:59:43", "1:2:3") + pick("", ".", ",") + pick("", "0", "10", "123456789") +
			pick("", "Z", "+07:00", "-05:00", "-5", " -5", "+0700"))
		if r.IntN(2) == 0 {
			v[r.IntN(len(v))] = byte(' ' + r.IntN(95))
		}
		ins = append(ins, string(v))
	}
	for _, v := range ins {
		n := yaml.Node{Kind: yaml.ScalarNode, Value: v}
		if got, want := Tag(v), n.ShortTag(); got != want {
			t.Errorf("Tag(%q) = %s, want %s", v, got, want)
		}
	}
}
