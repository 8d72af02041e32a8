package fastyaml

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestNormalizeRuns: normalize, which copies the text between the bytes
// that may start a line break as it is, gives what the rule it documents
// gives when applied one character at a time (the reference below: each
// "\r\n", lone "\r", NEL, LS and PS a "\n", the lines ended by "\r\n" and
// by NEL, LS or PS noted), on 20,000 random UTF-8 texts of line breaks,
// other characters starting with C2 or E2 ("¢", "€", "…"), and ASCII.
func TestNormalizeRuns(t *testing.T) {
	reference := func(s string) (string, []int32, []sepLine) {
		var b strings.Builder
		var crlf []int32
		var seps []sepLine
		line := int32(0)
		for i := 0; i < len(s); {
			r, n := rune(s[i]), 1
			if s[i] >= 0x80 {
				r, n = []rune(s[i:])[0], len(string([]rune(s[i:])[0]))
			}
			switch {
			case strings.HasPrefix(s[i:], "\r\n"):
				crlf = append(crlf, line)
				b.WriteByte('\n')
				line++
				n = 2
			case r == '\r' || r == '\n':
				b.WriteByte('\n')
				line++
			case r == 0x85 || r == 0x2028 || r == 0x2029:
				seps = append(seps, sepLine{line, r})
				b.WriteByte('\n')
				line++
			default:
				b.WriteString(s[i : i+n])
			}
			i += n
		}
		return b.String() + "\x00\x00\x00\x00\x00\x00\x00\x00", crlf, seps
	}
	parts := []string{"\r\n", "\r", "\n", "\u0085", "\u2028", "\u2029", "¢", "€", "…", "Â", "a", "b: c", " ", "#"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20_000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		got, gotCRLF, gotSeps := normalize([]byte(s), true)
		want, wantCRLF, wantSeps := reference(s)
		if got != want || !slices.Equal(gotCRLF, wantCRLF) || !slices.Equal(gotSeps, wantSeps) {
			t.Fatalf("%q: got %q %v %v, want %q %v %v", s, got, gotCRLF, gotSeps, want, wantCRLF, wantSeps)
		}
	}
}

// TestQuoteInFlowKey: a flow collection that is an implicit key, holding
// a plain scalar with a quote after a blank inside it ("[0 \"]: x", the
// key ["0 \""]), reads as yaml.v3 reads it; the quote starts a quoted
// scalar only as a node's first text (after an indicator or a property).
// Before the fix (FuzzDifferential, 2026-11-30) "[0 \"]:", "[a \"]: 1" and
// "[a 'b]: 1" were refused: the look for the key took the quote for a
// quoted scalar's start and found no end of the collection.
func TestQuoteInFlowKey(t *testing.T) {
	for _, in := range []string{
		"[0 \"]:", "[a \"]: 1", "[a \"b, c\"]: 1", "[a 'b]: 1",
		"[a, \"b\"]: 1", "[&x \"b\"]: 1", "[!t \"b c\"]: 1", "{a: \"b\"}: 1", "[ \"a\" ]: 1",
		"[a 'b', c]: 1", "[\"a\" ]: 1", "[a,\t\"b\"]: 1",
		// a colon inside a plain scalar, then a quote (FuzzDifferential,
		// 2026-11-30: "[0:\"]:" refused, "[a:\"b]\"]: 1" an internal error)
		"[0:\"]:", "[a:\"]: 1", "[0:'a']: 1", "[0::\"b\"]: 1",
		"[0:!a \"b\"]: 1", "[0:&a \"b\"]: 1", "[a'b':\"c\"]: 1",
		// a colon after a quoted scalar or a collection is an indicator
		"[\"a\":\"b\"]: 1", "[\"a\" :\"b\"]: 1", "[[a]:\"b\"]: 1", "[{a: b}:\"c\"]: 1",
		"[a:\"b,c\"]: 1",
		// a comment right after an indicator (FuzzDifferential,
		// 2026-11-30: "[#]: \n]" an internal error)
		"[#]: \n]", "[a,#]: \n]", "{#}: \n}", "[\"a\"#]: \n]", "[[a]#]: \n]", "[a:#]: 1", "[a:'b,c']: 1", "{a:\"b\", c: d}: 1",
	} {
		if o, d := outcome(in); o != bothEqual {
			t.Errorf("%q: %s %s", in, o, d)
		}
	}
}

// TestQuoteInFlowKeyRefused: flow keys both readers refuse, with a clean
// error ("[a:\"b]\"]: 1" was an internal error: the look-ahead took the
// quote for a quoted scalar's start and the key's end past the reader's).
func TestQuoteInFlowKeyRefused(t *testing.T) {
	for _, in := range []string{"[a:\"b]\"]: 1", "[a? \"b\"]: 1", "[? \"a\"]: 1"} {
		if o, d := outcome(in); o != bothRefuse {
			t.Errorf("%q: %s %s", in, o, d)
		}
	}
}

// TestExplicitKeyNullAfterComment: an explicit key of properties alone
// below a comment line, without a value, has its null where yaml.v3 has
// it (the stream's end), not on the comment's line; the comment, which
// yaml.v3 drops, kmerge keeps (placed). FuzzDifferential, 2026-11-30:
// "  ?\n  #\n   !0" put the null on line 2.
func TestExplicitKeyNullAfterComment(t *testing.T) {
	for _, in := range []string{
		"  ?\n  #\n   !0", "?\n#\n !0", "?\n#\n !0\n", "?\n  #\n !0", "?\n#\n !0\n\n",
		"?\n#\n !0\n---\n", "- ?\n  #\n   !0\n- x", "?\n#\n &a\n#\n", "?\n #\n !0\n# c\n",
	} {
		if o, d := outcome(in); o != placed && o != bothEqual {
			t.Errorf("%q: %s %s", in, o, d)
		}
	}
}
