package validate

import (
	"encoding/base64"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// KindFits reports whether the value n has the JSON kind the type t
// wants, before formats and ranges: an object for an object or a map, a
// list for a list, a string for a string, an integer for an integer (or a
// whole float where t is not from Go: see schema.Type.FromGo), any number
// for a number, an integer or a string for an int-or-string (any number
// for a quantity). Null fits everything; a nil type or Any takes
// anything.
func KindFits(n *yaml.Node, t *schema.Type) bool {
	k := tree.KindOf(n)
	_, whole := floatOf(n, k)
	return kindFits(k, whole, t)
}

// floatOf returns the value of a float, and whether it is a whole number.
func floatOf(n *yaml.Node, k tree.Kind) (f float64, whole bool) {
	if k != tree.Float {
		return 0, false
	}
	f, _ = tree.FloatValue(n)
	return f, f == math.Trunc(f) && !math.IsInf(f, 0)
}

func kindFits(k tree.Kind, whole bool, t *schema.Type) bool {
	if t == nil || k == tree.Null {
		return true
	}
	switch t.Kind {
	case schema.Any:
		return true
	case schema.Object, schema.Map:
		return k == tree.Object
	case schema.List:
		return k == tree.Array
	case schema.String:
		return k == tree.String
	case schema.Boolean:
		return k == tree.Bool
	case schema.Integer:
		return k == tree.Int || k == tree.Float && whole && !t.FromGo()
	case schema.Number:
		return k == tree.Int || k == tree.Float
	case schema.IntOrString:
		if t.Format == "quantity" {
			return k == tree.String || k == tree.Int || k == tree.Float
		}
		return k == tree.String || k == tree.Int || k == tree.Float && whole && !t.FromGo()
	}
	return false
}

// scalar checks a scalar type: the JSON kind, then the range of integers
// and the format of strings.
func (w *walker) scalar(n *yaml.Node, k tree.Kind, t *schema.Type) {
	f, whole := floatOf(n, k)
	if !kindFits(k, whole, t) {
		w.typeError(n, k, t)
		return
	}
	switch k {
	case tree.Float:
		if math.IsInf(f, 0) || math.IsNaN(f) {
			w.add(Violation{Reason: ReasonFormat, Want: t.String(), Found: describe(n, k), Node: n, Detail: "JSON has no infinities and no NaN"})
			return
		}
		if t.Kind != schema.Number && t.Format != "quantity" {
			w.checkRange(n, k, t, f)
		}
	case tree.Int:
		if t.Kind != schema.Number && t.Format != "quantity" {
			i, _ := tree.IntValue(n)
			w.checkRange(n, k, t, float64(i))
		}
	case tree.String:
		if err := checkFormat(t, n.Value); err != nil {
			w.add(Violation{Reason: ReasonFormat, Want: t.String(), Found: describe(n, k), Node: n, Detail: err.Error()})
		}
	}
}

// checkRange bounds an integer by its format (int32). Values that fit in
// an int64 compare exactly as float64 at the int32 bounds.
func (w *walker) checkRange(n *yaml.Node, k tree.Kind, t *schema.Type, v float64) {
	if t.Format == "int32" && (v < math.MinInt32 || v > math.MaxInt32) {
		w.add(Violation{Reason: ReasonRange, Want: t.String(), Found: describe(n, k), Node: n,
			Detail: strconv.Itoa(math.MinInt32) + " to " + strconv.Itoa(math.MaxInt32)})
	}
}

// checkFormat parses a string as its type's decoder does: quantities
// wherever they are, the formats of Go types (metav1.Time, MicroTime,
// Duration, []byte) only for types from Go (see the package
// documentation).
func checkFormat(t *schema.Type, s string) error {
	if t.Format == "quantity" {
		return checkQuantity(s)
	}
	if !t.FromGo() {
		return nil
	}
	switch t.Format {
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		return err
	case "date-time-micro":
		_, err := time.Parse("2006-01-02T15:04:05.000000Z07:00", s)
		return err
	case "duration":
		_, err := time.ParseDuration(s)
		return err
	case "byte":
		_, err := base64.StdEncoding.DecodeString(s)
		return err
	}
	return nil
}

// What a quantity that does not parse is told, in the words of
// k8s.io/apimachinery's resource.ParseQuantity (docs/validation.md: its
// message is quoted), for the three ways it refuses a string (see
// checkQuantity).
var (
	errNotQuantity     = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	errQuantityNoDigit = errors.New("unable to parse numeric part of quantity")
	errQuantityUnit    = errors.New("unable to parse quantity's suffix")
)

// errQuantitySpace is kmerge's word for a quantity with white space
// around it, which ParseQuantity refuses as errNotQuantity.
var errQuantitySpace = errors.New("a quantity has no spaces around it (an API server's JSON decoder trims them, and stores the quantity without them; resource.ParseQuantity refuses them)")

// checkQuantity reports why s is not a resource quantity, or nil. The
// grammar is the one Kubernetes documents for resource.Quantity (the API
// reference, "Quantity"):
//
//	<quantity>        ::= <signedNumber><suffix>
//	<signedNumber>    ::= <number> | <sign><number>
//	<number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits>
//	<suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
//	<binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
//	<decimalSI>       ::= m | "" | k | M | G | T | P | E
//	<decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>
//
// What resource.ParseQuantity, which an API server decodes quantities
// with, accepts differs from it; kmerge accepts what ParseQuantity
// accepts, as observed (conformance.TestQuantityStrings and
// FuzzQuantity compare the two, and the messages):
//
//   - the decimal SI suffixes n (10^-9) and u (10^-6) too;
//   - the exponent is an integer (1e3, E-2, e+09; not 1e1.5, nor 1e),
//     read as a 64-bit integer (longer: refused as a suffix) and then
//     kept modulo 2^32, as a signed 32-bit number;
//   - the number may have no digit at all (-, +., ., and nothing: Ki, e3)
//     and is then zero, as long as the suffix is not a decimal one below
//     10^-9 (e-10, or an exponent whose 32 bits are) nor binary above Ti
//     (Pi, Ei): those are refused with errQuantityNoDigit. The empty
//     string is not a quantity;
//   - the size and precision limits the documentation gives (|value| <
//     2^63, three decimal places) are not checked: a quantity beyond them
//     is capped or rounded, not refused.
//
// A string refuses in one of three ways: its shape is not a number and a
// run of suffix-like text (letters of the suffixes, then an optional
// sign, then digits) (errNotQuantity); that text is not a suffix
// (errQuantityUnit); the number has no digit and the suffix does not take
// that (errQuantityNoDigit).
//
// Text with spaces around it (" 1", "1 ") is refused, as ParseQuantity
// refuses it, although Quantity's UnmarshalJSON, what an API server
// decodes JSON with, trims the spaces a JSON encoder leaves unescaped
// before parsing: the server stores "1", so the manifest would say
// something else than the object (a diff that never goes away), and a
// reader parsing the text with ParseQuantity fails. A violation a
// manifest had before the patches is a warning, not an error.
func checkQuantity(s string) error {
	if s == "" {
		return errNotQuantity
	}
	if t := strings.TrimSpace(s); t != s && t != "" {
		return errQuantitySpace
	}
	// <signedNumber>: a sign, digits, a point and digits, every part optional
	i := 0
	if s[0] == '+' || s[0] == '-' {
		i++
	}
	afterInt := skipDigits(s, i)
	hasDigit := afterInt > i
	i = afterInt
	if i < len(s) && s[i] == '.' {
		afterFrac := skipDigits(s, i+1)
		hasDigit = hasDigit || afterFrac > i+1
		i = afterFrac
	}
	suffix := s[i:]
	if !suffixShaped(suffix) {
		return errNotQuantity
	}
	base, exp, ok := suffixValue(suffix)
	if !ok {
		return errQuantityUnit
	}
	if !hasDigit && (base == 10 && exp < -9 || base == 2 && exp > 40) {
		return errQuantityNoDigit
	}
	return nil
}

// skipDigits returns the index of the first byte at or after i in s that
// is not an ASCII digit.
func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// suffixShaped reports whether s could be a suffix as far as its
// characters go: letters a suffix is spelled with (the SI prefixes n u m
// k M G T P E, the K and i of the binary ones, the e of an exponent),
// then at most one sign, then digits.
func suffixShaped(s string) bool {
	i := 0
	for i < len(s) && strings.IndexByte("numkMGTPEKie", s[i]) >= 0 {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	return skipDigits(s, i) == len(s)
}

// suffixValue returns the multiplier a suffix stands for, base^exp: base
// 10 for the decimal SI suffixes and exponents, 2 for the binary SI
// suffixes (IEC 80000-13: Ki is 2^10). ok is false for anything else.
func suffixValue(s string) (base int, exp int32, ok bool) {
	switch {
	case s == "":
		return 10, 0, true
	case len(s) == 1:
		// the decimal SI prefixes: 10^-9 to 10^18 in steps of 10^3 (the
		// space stands for no suffix, 10^0)
		if p := strings.IndexByte("num kMGTPE", s[0]); p >= 0 && s[0] != ' ' {
			return 10, int32(3*p - 9), true
		}
	case len(s) == 2 && s[1] == 'i':
		if p := strings.IndexByte("KMGTPE", s[0]); p >= 0 {
			return 2, int32(10 * (p + 1)), true
		}
		return 0, 0, false
	}
	if s[0] != 'e' && s[0] != 'E' {
		return 0, 0, false
	}
	// an exponent: an optional sign and at least one digit, read as an
	// int64 and kept modulo 2^32 (as ParseQuantity is observed to do)
	x, err := strconv.ParseInt(s[1:], 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return 10, int32(x), true
}
