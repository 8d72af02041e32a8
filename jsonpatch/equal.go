package jsonpatch

import (
	"math/big"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// equal reports whether a and b are the same JSON value as RFC 6902's test
// operation defines it (section 4.6): of the same type; strings with the
// same characters; numbers numerically equal; objects with the same members,
// in any order, whose values are equal; arrays of the same length whose items
// are equal one by one; the same literal (true, false, null).
//
// This is tree.Equal except for numbers: tree.Equal follows what a
// Kubernetes API server decodes, where 1 and 1.0 differ (int64 and
// float64); for RFC 6902 they are the same number. Numbers are compared
// exactly, by their decimal value, not as float64.
func equal(a, b *yaml.Node) bool {
	a, b = tree.Deref(a), tree.Deref(b)
	ka, kb := tree.KindOf(a), tree.KindOf(b)
	if isNumber(ka) && isNumber(kb) {
		return sameNumber(a, b)
	}
	if ka != kb {
		return false
	}
	switch ka {
	case tree.Object:
		if len(a.Content)/2 != len(b.Content)/2 {
			return false
		}
		get := func(key string) *yaml.Node { return tree.MapGet(b, key) }
		if len(b.Content) > 32 {
			index := make(map[string]*yaml.Node, len(b.Content)/2)
			for i := 0; i+1 < len(b.Content); i += 2 {
				if k := tree.Deref(b.Content[i]); k != nil {
					index[k.Value] = b.Content[i+1]
				}
			}
			get = func(key string) *yaml.Node { return index[key] }
		}
		for i := 0; i+1 < len(a.Content); i += 2 {
			k := tree.Deref(a.Content[i])
			if k == nil {
				return false
			}
			bv := get(k.Value)
			if bv == nil || !equal(a.Content[i+1], bv) {
				return false
			}
		}
		return true
	case tree.Array:
		if len(a.Content) != len(b.Content) {
			return false
		}
		for i := range a.Content {
			if !equal(a.Content[i], b.Content[i]) {
				return false
			}
		}
		return true
	}
	return tree.Key(a) == tree.Key(b)
}

func isNumber(k tree.Kind) bool { return k == tree.Int || k == tree.Float }

// sameNumber compares two numbers by value: exactly when both are written
// in decimal (or as YAML integers in another base), as float64 otherwise
// (infinities, and exponents too long to be real).
func sameNumber(a, b *yaml.Node) bool {
	da, oka := decimal(a)
	db, okb := decimal(b)
	if oka && okb {
		return da == db
	}
	fa, oka := tree.FloatValue(a)
	fb, okb := tree.FloatValue(b)
	return oka && okb && fa == fb
}

// decimal returns the value of a number node in a canonical form, the same
// for every way of writing one number: "0", or a sign, the significant
// digits without leading or trailing zeros, "e" and the exponent.
func decimal(n *yaml.Node) (string, bool) {
	s := strings.ReplaceAll(n.Value, "_", "")
	if n.ShortTag() == "!!int" {
		var z big.Int
		if _, ok := z.SetString(s, 0); ok { // 0x1F, 0o17, 0b1 and decimal
			s = z.String()
		}
	}
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	mant, exp := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i+1:]
	}
	whole, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		whole, frac = mant[:i], mant[i+1:]
	}
	if whole+frac == "" || !digitsOrEmpty(whole) || !digitsOrEmpty(frac) {
		return "", false
	}
	e := 0
	if exp != "" {
		sign := 1
		if exp[0] == '-' || exp[0] == '+' {
			if exp[0] == '-' {
				sign = -1
			}
			exp = exp[1:]
		}
		if !allDigits(exp) || len(strings.TrimLeft(exp, "0")) > 9 {
			return "", false
		}
		v, _ := strconv.Atoi(exp)
		e = sign * v
	}
	digits := strings.TrimLeft(whole+frac, "0")
	e -= len(frac)
	if digits == "" {
		return "0", true
	}
	sig := strings.TrimRight(digits, "0")
	e += len(digits) - len(sig)
	if neg {
		sig = "-" + sig
	}
	return sig + "e" + strconv.Itoa(e), true
}

func digitsOrEmpty(s string) bool { return s == "" || allDigits(s) }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
