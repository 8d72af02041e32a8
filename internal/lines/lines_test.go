package lines

import (
	"slices"
	"strings"
	"testing"
)

// TestSplit: the lines of texts with every kind of line break, and
// without a final one, written out by hand.
func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a\nb\n", []string{"a", "b", ""}},
		{"a\r\nb\r\n", []string{"a", "b", ""}},
		{"a\rb\r", []string{"a", "b", ""}},
		{"a\r\rb", []string{"a", "", "b"}},               // two CRs: a blank line between
		{"a\n\rb", []string{"a", "", "b"}},               // an LF then a CR: two line breaks
		{"a\r\n\nb", []string{"a", "", "b"}},             // a CRLF then an LF
		{"a\u0085b\u2028c", []string{"a\u0085b\u2028c"}}, // NEL and LS end no line here
	} {
		if got := Split(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Split(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNormalizeYAML: the line breaks of YAML 1.1, which kmerge's reader
// counts (as yaml.v3's does), become LFs too.
func TestNormalizeYAML(t *testing.T) {
	for in, want := range map[string]string{
		"a\u0085b\u2028c\u2029d\r\ne\rf\n": "a\nb\nc\nd\ne\nf\n",
		"a\xc2\x84b":                       "a\xc2\x84b", // U+0084, no line break
		"plain":                            "plain",
	} {
		if got := NormalizeYAML(in); got != want {
			t.Errorf("NormalizeYAML(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSplitYAML: the lines of YAML texts with every line break kmerge's
// reader counts, with and without them kept.
func TestSplitYAML(t *testing.T) {
	for _, c := range []struct {
		in    string
		want  []string // SplitYAMLAfter's
		lines []string // SplitYAML's
	}{
		{"", []string{""}, []string{""}},
		{"a", []string{"a"}, []string{"a"}},
		{"a\u0085b\u2028c\u2029d\r\ne\rf\n", []string{"a\u0085", "b\u2028", "c\u2029", "d\r\n", "e\r", "f\n", ""}, []string{"a", "b", "c", "d", "e", "f", ""}},
		{"a\r\r\nb", []string{"a\r", "\r\n", "b"}, []string{"a", "", "b"}},
		{"a\xc2\x84b\xe2\x80", []string{"a\xc2\x84b\xe2\x80"}, []string{"a\xc2\x84b\xe2\x80"}}, // U+0084, a cut LS: no line break
	} {
		if got := SplitYAMLAfter(c.in); !slices.Equal(got, c.want) || strings.Join(got, "") != c.in {
			t.Errorf("SplitYAMLAfter(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := SplitYAML(c.in); !slices.Equal(got, c.lines) {
			t.Errorf("SplitYAML(%q) = %q, want %q", c.in, got, c.lines)
		}
	}
}
