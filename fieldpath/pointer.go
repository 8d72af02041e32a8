package fieldpath

import (
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// ParsePointer splits a JSON pointer (RFC 6901) into its reference tokens,
// unescaped: "" is the whole document (no token), "/" the member named "",
// "/a~1b" the member "a/b", "/m~0n" the member "m~n". A pointer that does
// not start with "/", or with a "~" not followed by 0 or 1, is an error.
func ParsePointer(p string) ([]string, error) {
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

// FormatPointer returns the JSON pointer of the tokens, each escaped: "~"
// as "~0", "/" as "~1".
func FormatPointer(toks []string) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
		}
		b.WriteString(t)
	}
	return b.String()
}

// MaxPointerIndex bounds the array indexes PointerIndex reads; larger ones
// are out of range of any array.
const MaxPointerIndex = 1 << 40

// PointerIndex reads a token of a JSON pointer as an array index, as RFC
// 6901 writes one: "0", or digits without a leading zero. ok is false for
// anything else ("-" included), and why then says what is wrong with it.
// Indexes above MaxPointerIndex read as MaxPointerIndex.
func PointerIndex(t string) (i int, ok bool, why string) {
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
		return MaxPointerIndex, true, ""
	}
	n, _ := strconv.Atoi(t)
	return min(n, MaxPointerIndex), true, ""
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Pointer returns the JSON pointer of p in root (a document node or a
// value): fields become member names, items their index in root. An item
// root does not have is an error.
func (p Path) Pointer(root *yaml.Node) (string, error) {
	toks := make([]string, len(p))
	n := tree.Deref(root)
	for i, e := range p {
		if e.Kind == FieldElement {
			toks[i] = e.Name
			if n != nil && n.Kind == yaml.MappingNode {
				n = tree.Deref(tree.MapGet(n, e.Name))
			} else {
				n = nil
			}
			continue
		}
		j := FindItem(n, e)
		if j < 0 {
			return "", fmt.Errorf("%s: no item %s in %s", p, e, describeAt(p[:i]))
		}
		toks[i] = strconv.Itoa(j)
		n = tree.Deref(n.Content[j])
	}
	return FormatPointer(toks), nil
}

func describeAt(p Path) string {
	if len(p) == 0 {
		return "the root"
	}
	return p.String()
}
