package jsonpatch

import (
	"fmt"
	"strconv"
	"strings"
)

// parsePointer splits a JSON pointer (RFC 6901) into its reference tokens,
// unescaped: "" is the whole document (no token), "/" the member named "",
// "/a~1b" the member "a/b", "/m~0n" the member "m~n". A pointer that does
// not start with "/", or with a "~" not followed by 0 or 1, is an error.
func parsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("%s is not a JSON pointer: a pointer is \"\" (the whole document) or starts with \"/\" (try %s)", strconv.Quote(p), strconv.Quote("/"+p))
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		if !strings.Contains(t, "~") {
			continue
		}
		var b strings.Builder
		for j := 0; j < len(t); j++ {
			if t[j] != '~' {
				b.WriteByte(t[j])
				continue
			}
			if j+1 < len(t) && (t[j+1] == '0' || t[j+1] == '1') {
				b.WriteByte("~/"[t[j+1]-'0'])
				j++
				continue
			}
			return nil, fmt.Errorf("%s is not a JSON pointer: \"~\" must be followed by 0 or 1 (write ~0 for \"~\" and ~1 for \"/\" in a member name)", strconv.Quote(p))
		}
		toks[i] = b.String()
	}
	return toks, nil
}

// escapeToken escapes a member name for a pointer: "~" as "~0", "/" as "~1".
func escapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t
	}
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

// joinPointer returns the pointer of the tokens.
func joinPointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

// isPrefix reports whether a is a proper prefix of b, token by token ("/a"
// is one of "/a/b", not of "/ab").
func isPrefix(a, b []string) bool {
	if len(a) >= len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// maxIndex bounds the array indexes parseIndex accepts; larger ones are out
// of range of any array.
const maxIndex = 1 << 40

// parseIndex reads an array index as RFC 6901 writes it: "0", or digits
// without a leading zero. ok is false for anything else ("-" included); why
// then says what is wrong with it.
func parseIndex(t string) (i int, ok bool, why string) {
	switch {
	case t == "":
		return 0, false, "is empty"
	case t == "0":
		return 0, true, ""
	case t[0] == '-' && len(t) > 1 && allDigits(t[1:]):
		return 0, false, "is negative: JSON pointers count from 0 and have no negative indexes"
	case t[0] == '+' && len(t) > 1 && allDigits(t[1:]):
		return 0, false, "has a sign: write the digits alone"
	case !allDigits(t):
		return 0, false, "is not a number: array items are named by their index (0, 1, ...), or \"-\" for the end"
	case t[0] == '0':
		digits := strings.TrimLeft(t, "0")
		if digits == "" {
			digits = "0"
		}
		return 0, false, "has a leading zero: write " + digits
	case len(t) > 13:
		return maxIndex, true, ""
	}
	n, _ := strconv.Atoi(t)
	return min(n, maxIndex), true, ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
