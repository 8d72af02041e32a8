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
		return parseQuantity(s)
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

// The errors of k8s.io/apimachinery's resource.ParseQuantity, worded as it
// words them.
var (
	errQuantityFormat  = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	errQuantityNumeric = errors.New("unable to parse numeric part of quantity")
	errQuantitySuffix  = errors.New("unable to parse quantity's suffix")
)

// errQuantitySpace is kmerge's word for a quantity with white space
// around it, which ParseQuantity refuses as errQuantityFormat.
var errQuantitySpace = errors.New("a quantity has no spaces around it (an API server's JSON decoder trims them, and stores the quantity without them; resource.ParseQuantity refuses them)")

// parseQuantity reports whether resource.ParseQuantity accepts a string:
// it parses it as ParseQuantity does, step by step, so that it accepts and
// refuses exactly the same strings (a differential test in the
// conformance module checks it). JSON numbers are always quantities.
//
// Text with spaces around it (" 1", "1 ") is refused, as ParseQuantity
// refuses it, although Quantity's UnmarshalJSON, what an API server
// decodes JSON with, trims the spaces a JSON encoder leaves unescaped
// before parsing: the server stores "1", so the manifest would say
// something else than the object (a diff that never goes away), and a
// reader parsing the text with ParseQuantity fails. A violation a
// manifest had before the patches is a warning, not an error.
func parseQuantity(s string) error {
	if s == "" {
		return errQuantityFormat
	}
	if t := strings.TrimSpace(s); t != s && t != "" {
		return errQuantitySpace
	}
	if s == "0" {
		return nil
	}
	value, num, denom, suffix, ok := splitQuantity(s)
	if !ok {
		return errQuantityFormat
	}
	exponent, binary, ok := quantitySuffix(suffix)
	if !ok {
		return errQuantitySuffix
	}
	// ParseQuantity's fast path (an int64 amount) succeeds whenever it is
	// taken; otherwise the number goes through inf.Dec, which needs a digit.
	precision, scale := int32(-1), int32(0)
	switch {
	case !binary:
		scale = exponent
		precision = 18 - int32(len(num)+len(denom))
	case exponent >= 0 && len(denom) == 0:
		precision = 15 - int32(len(num)) - int32(float32(exponent)*3/10) - 1
	}
	if precision >= 0 && scale-int32(len(denom)) >= -9 {
		return nil
	}
	if !strings.ContainsAny(value, "0123456789") {
		return errQuantityNumeric
	}
	return nil
}

// splitQuantity is resource's parseQuantityString: the number (value, with
// its sign; num and denom, its digits before and after the point, leading
// zeros of num dropped) and the suffix. ok is false for text after a
// suffix that is not an exponent.
func splitQuantity(s string) (value, num, denom, suffix string, ok bool) {
	pos, end := 0, len(s)
	if s[0] == '-' || s[0] == '+' {
		pos++
	}
	for pos < end && s[pos] == '0' {
		pos++
	}
	if pos >= end {
		return "0", "0", "", "", true
	}
	start := pos
	for pos < end && isDigit(s[pos]) {
		pos++
	}
	num = s[start:pos]
	if pos >= end {
		return s, num, "", "", true
	}
	if num == "" {
		num = "0"
	}
	if s[pos] == '.' {
		pos++
		start = pos
		for pos < end && isDigit(s[pos]) {
			pos++
		}
		denom = s[start:pos]
		if pos >= end {
			return s, num, denom, "", true
		}
	}
	value = s[:pos]
	suffixStart := pos
	for pos < end && strings.IndexByte("eEinumkKMGTP", s[pos]) >= 0 {
		pos++
	}
	if pos >= end {
		return value, num, denom, s[suffixStart:], true
	}
	if s[pos] == '-' || s[pos] == '+' {
		pos++
	}
	for pos < end && isDigit(s[pos]) {
		pos++
	}
	if pos < end {
		return "", "", "", "", false
	}
	return value, num, denom, s[suffixStart:], true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// quantitySuffix interprets a quantity's suffix as resource's suffixer
// does: a decimal SI suffix (n u m "" k M G T P E), a binary one (Ki Mi Gi
// Ti Pi Ei), or an exponent (e3, E-2).
func quantitySuffix(s string) (exponent int32, binary, ok bool) {
	switch s {
	case "":
		return 0, false, true
	case "n":
		return -9, false, true
	case "u":
		return -6, false, true
	case "m":
		return -3, false, true
	case "k":
		return 3, false, true
	case "M":
		return 6, false, true
	case "G":
		return 9, false, true
	case "T":
		return 12, false, true
	case "P":
		return 15, false, true
	case "E":
		return 18, false, true
	case "Ki":
		return 10, true, true
	case "Mi":
		return 20, true, true
	case "Gi":
		return 30, true, true
	case "Ti":
		return 40, true, true
	case "Pi":
		return 50, true, true
	case "Ei":
		return 60, true, true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		e, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			return 0, false, false
		}
		return int32(e), false, true
	}
	return 0, false, false
}
