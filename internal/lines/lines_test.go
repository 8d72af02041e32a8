package lines

import (
	"slices"
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
