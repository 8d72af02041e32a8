package conformance

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// quantityType is the schema type of a quantity (a container's limits).
func quantityType(t testing.TB) *schema.Type {
	qt, err := schema.Builtin().Definition("io.k8s.api.core.v1.ResourceRequirements")
	if err != nil {
		t.Fatal(err)
	}
	return qt.Field("limits").Type.Elem
}

// quantityVerdicts returns what resource.ParseQuantity and kmerge's
// validation say of s as a quantity: "" when they take it, the message
// when they do not (kmerge's is the violation's detail). want is what
// kmerge must say, from ParseQuantity's: the same, except for text with
// white space around it, which kmerge refuses in its own words
// (docs/validation.md). slow is true for the strings ParseQuantity takes
// minutes on, which are not compared (see quantityTooSlow).
func quantityVerdicts(t testing.TB, quantity *schema.Type, s string) (upstream, want, kmerge string, slow bool) {
	if quantityTooSlow(s) {
		return "", "", "", true
	}
	if _, err := resource.ParseQuantity(s); err != nil {
		upstream = err.Error()
	}
	want = upstream
	if trimmed := strings.TrimSpace(s); trimmed != s && trimmed != "" {
		want = "a quantity has no spaces around it (an API server's JSON decoder trims them, and stores the quantity without them; resource.ParseQuantity refuses them)"
	}
	vs := validate.Value(tree.NewString(s), quantity)
	switch len(vs) {
	case 0:
	case 1:
		kmerge = vs[0].Detail
	default:
		t.Fatalf("%q: %d violations for one value: %v", s, len(vs), vs)
	}
	return upstream, want, kmerge, false
}

// quantityTooSlow reports whether s has a digit before a long exponent
// (five digits or more): ParseQuantity's time grows with a negative
// exponent's size (0.2 s for 1e-1000000, minutes for 1e-100000000, and
// 1e2147483648 is 1e-2147483648 to it), where kmerge's check takes the
// same time for any exponent. TestCheckQuantity in validate has the long
// exponents, and the digitless ones are compared here.
func quantityTooSlow(s string) bool {
	number := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("+-.0123456789", r) })
	if number < 0 || !strings.ContainsAny(s[:number], "0123456789") {
		return false
	}
	for i := number; i < len(s); i++ {
		if s[i] != 'e' && s[i] != 'E' {
			continue
		}
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && '0' <= s[k] && s[k] <= '9' {
			k++
		}
		if k-j >= 5 {
			return true
		}
	}
	return false
}

// FuzzQuantity: kmerge's quantity check against resource.ParseQuantity,
// the black box: the same strings taken, the same message for the ones
// refused (kmerge's own for spaces around a quantity).
func FuzzQuantity(f *testing.F) {
	for _, s := range []string{"1", "1.5Gi", "500m", "-.5e-3", "1e9", "Ki", "Pi", "e-10", "e2147483648", "1K", "1GB", " 1", "+.", "1e1.5", "0.1n", "12345678901234567890Ei"} {
		f.Add(s)
	}
	quantity := quantityType(f)
	f.Fuzz(func(t *testing.T, s string) {
		upstream, want, kmerge, slow := quantityVerdicts(t, quantity, s)
		if !slow && kmerge != want {
			t.Errorf("%q: ParseQuantity says %q, kmerge %q; want %q", s, upstream, kmerge, want)
		}
	})
}
