package fastyaml

// Attack of 2026-11-30 on commentPeek (a tab before a comment after a
// comment line, read only where yaml.v3's scanner looks on to that
// comment), yaml.v3 the oracle.

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// a47Text generates a text around comment lines followed by lines with a
// tab before a comment, with mixed line breaks and blank runs near 512
// bytes.
func a47Text(r *rand.Rand) string {
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	brk := func() string {
		if r.IntN(3) > 0 {
			return "\n"
		}
		return pick("\r\n", "\r", "\u0085", "\u2028", "\u2029", "\n")
	}
	pad := func() string {
		switch r.IntN(6) {
		case 0:
			return strings.Repeat(" ", 500+r.IntN(20))
		case 1:
			return strings.Repeat(" ", 250+r.IntN(10))
		case 2:
			return strings.Repeat(" ", r.IntN(4))
		}
		return pick("", " ", "  ", "\t", " \t", "\t ")
	}
	var b strings.Builder
	b.WriteString(pick("", "a: .", "a: 1", "- x", "a:\n  b: .", "a: |\n  x", "a: >\n  x\n", "---", "--- x", "- ", "a: [", "a: {b: 1,", "[", "? x", "a: 'x'", "a:", "%YAML 1.2", "a: 1\n...", "- - x", "a: &x", "a: !t", "\ufeff", "#h"))
	n := 1 + r.IntN(5)
	for range n {
		b.WriteString(brk())
		switch r.IntN(7) {
		case 6:
			b.WriteString(pick("%TAG !x! !y", "%YAML 1.2", "---", "--- # c", "...", "%TAG ! !z # c"))
		case 0, 1:
			b.WriteString(pad() + pick("#", "# c", "#\t", "## d"))
		case 2:
			b.WriteString(pad())
		case 3:
			b.WriteString(pick(" ", "  ", "") + pick("\t", " \t", "\t\t") + pick("#", "# c", ""))
		case 4:
			b.WriteString(pad() + "\t#" + pad())
		case 5:
			if r.IntN(3) == 0 {
				b.WriteString(strings.Repeat(" \n", 100+r.IntN(160)))
			} else {
				b.WriteString(pick("#", "# e") + pad())
			}
		}
	}
	b.WriteString(pick("", "\n", "\r\n", "\n"+pick("b: 2", "- y", "]", "}", "  c: 3", "---", "...", "y", "  - z")+pick("", "\n")))
	return b.String()
}

// TestTabInPrologue: in a prologue, yaml.v3's scanner eats a tab on the
// line right after a directive (no simple key is allowed there) and, on a
// later line, only before a comment it looks on to from a comment line
// (commentPeek); elsewhere it refuses it. Parse read every tab of a
// prologue (found by TestA47Generated).
func TestTabInPrologue(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"%YAML 1.2\n\n\t#\n---", bothRefuse},
		{"%YAML 1.2\n \n\t#\n---", bothRefuse},
		{"%YAML 1.2\n#\n \t\n---", bothRefuse},
		{"%YAML 1.2\n#  \u2028 \t\n---", bothRefuse},
		{"%YAML 1.2\u0085 \t\r \t#\n---", bothRefuse},
		{"%YAML 1.2\n  \t\r\n\t #\n---", bothRefuse},
		{"%YAML 1.2\n\t\n\t\n---\n", bothRefuse},
		{"%YAML 1.2 # c\n\n\t#\n---\n", bothRefuse},
		{"%YAML 1.2\n%TAG !x! !y\n\n\t#\n---\n", bothRefuse},
		{"%YAML 1.2\n#\n" + strings.Repeat(" \n", 260) + "\t#\n---\n", bothRefuse},
		// read: the line after the directive, a comment looked on to
		{"%YAML 1.2\n \t\n---", bothEqual},
		{"%YAML 1.2\n\t#\n---\n", bothEqual},
		{"%YAML 1.2 # c\n\t#\n---\n", bothEqual},
		{"%YAML 1.2\n#\n\t#\n---", bothEqual},
		{"%YAML 1.2\n#\n\n \t# d\n---", placed}, // (the comments of an empty document: placed)
		{"%YAML 1.2\n%TAG !x! !y\n\t#\n---\n", bothEqual},
		{"%TAG ! !x\n\t#\n---\n", bothEqual},
	} {
		if o, d := outcome(c.in); o != c.want {
			t.Errorf("%s, want %s: %s\n%q", o, c.want, d, c.in)
		}
	}
}

func TestA47Generated(t *testing.T) {
	n := 30000
	if s := os.Getenv("ATTACK47_FULL"); s != "" {
		n, _ = strconv.Atoi(s)
		if n == 0 {
			n = 1000000
		}
	}
	counts := map[string]int{}
	shown := map[string]int{}
	r := rand.New(rand.NewPCG(47, 47))
	for range n {
		in := a47Text(r)
		o, d := outcome(in)
		counts[o]++
		switch o {
		case bothEqual, bothRefuse, refusedOnly, readOnly, placed, ended, slotted:
			continue
		case wrongRead:
			if strings.Contains(d, "incompatible YAML document") {
				counts["v1.2*"]++ // (version11 spells no %YAML 1.2 after a BOM or a CR 1.1)
				continue
			}
		case treesDiffer:
			if strings.HasPrefix(in, "? ") && strings.ContainsAny(in, "\u0085\u2028\u2029") {
				// (an explicit key's null at the stream's end, and
				// comments placed otherwise, lines broken by NEL, LS or
				// PS, which textLines does not count: ended and placed)
				counts["ended*"]++
				continue
			}
		}
		if shown[o] < 8 {
			shown[o]++
			if len(in) > 300 && os.Getenv("A47LONG") == "" {
				t.Errorf("%s: %s\n%q (%d bytes)", o, d, strings.ReplaceAll(in, strings.Repeat(" ", 50), "<50sp>"), len(in))
			} else {
				t.Errorf("%s: %s\n%q", o, d, in)
			}
		}
	}
	t.Logf("%v", counts)
}
