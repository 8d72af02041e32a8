package validate

import "testing"

// TestCheckQuantity: strings against the quantity grammar Kubernetes
// documents for resource.Quantity, and where resource.ParseQuantity is
// observed to differ from it, against what it does (the conformance
// module's TestQuantityStrings and FuzzQuantity compare the two on many
// more). want is the error, nil for a quantity.
func TestCheckQuantity(t *testing.T) {
	for _, c := range []struct {
		in   string
		want error
		why  string
	}{
		// the documented grammar
		{"1", nil, "<digits>, no suffix"},
		{"1.5", nil, "<digits>.<digits>"},
		{"1.", nil, "<digits>."},
		{".5", nil, ".<digits>"},
		{"-1", nil, "a sign"},
		{"+1", nil, "a sign"},
		{"500m", nil, "decimal SI: milli"},
		{"2k", nil, "decimal SI"},
		{"1E", nil, "decimal SI: E is exa, not an exponent"},
		{"1.5Gi", nil, "binary SI"},
		{"1Ei", nil, "binary SI: exbi"},
		{"1e3", nil, "decimal exponent"},
		{"1E-2", nil, "decimal exponent, signed"},
		{"1e+09", nil, "decimal exponent with '+' and a leading zero"},
		{"123456789012345678901234567890", nil, "beyond 2^63: capped, not refused"},
		{"0.0000000001", nil, "more than three decimal places: rounded, not refused"},
		{"", errNotQuantity, "nothing: not a quantity (whereas - alone is, below)"},
		{"1GB", errNotQuantity, "B is no letter of any suffix"},
		{"1.2.3", errNotQuantity, "one point"},
		{"1e1.5", errNotQuantity, "observed: the exponent is an integer (the grammar says <signedNumber>)"},
		{"1e3k", errNotQuantity, "letters after the exponent's digits"},
		{"0x10", errNotQuantity, "x is no letter of any suffix"},
		{"1_000", errNotQuantity, "no digit separators"},
		{"1 ", errQuantitySpace, "kmerge's own word for spaces around a quantity"},
		{"\t1Gi", errQuantitySpace, "a tab is white space too"},
		{" ", errNotQuantity, "only spaces: the format error"},
		{"1K", errQuantityUnit, "kilo is k; K exists only in Ki"},
		{"1kk", errQuantityUnit, "one suffix"},
		{"1Kie3", errQuantityUnit, "a binary suffix and an exponent"},
		{"1m3", errQuantityUnit, "only e and E start an exponent"},
		{"1e", errQuantityUnit, "observed: an exponent needs a digit (the grammar's <number> needs one too)"},
		{"1e-", errQuantityUnit, "a sign without digits"},
		{"--1", errQuantityUnit, "the second sign starts the suffix-like text: -1 is no suffix"},
		{"1e9223372036854775807", nil, "the largest exponent an int64 holds"},
		{"1e9223372036854775808", errQuantityUnit, "observed: an exponent beyond int64 is refused as a suffix"},
		// observed: ParseQuantity's additions and its numbers without digits
		{"1n", nil, "observed: n (nano) is a decimal SI suffix too"},
		{"1u", nil, "observed: u (micro) is a decimal SI suffix too"},
		{"-", nil, "observed: a number without digits is zero"},
		{".", nil, "observed: a point alone is zero"},
		{"+.", nil, "observed"},
		{"Ki", nil, "observed: no number, a suffix: zero"},
		{"Ti", nil, "observed: up to 2^40 a number without digits is taken"},
		{"Pi", errQuantityNoDigit, "observed: 2^50 is not"},
		{"-.Ei", errQuantityNoDigit, "observed: nor 2^60"},
		{"n", nil, "observed: 10^-9 is taken without digits"},
		{"e-9", nil, "observed"},
		{"e-10", errQuantityNoDigit, "observed: below 10^-9 a number needs a digit"},
		{"E-10", errQuantityNoDigit, "observed"},
		{"0e-10", nil, "with a digit, any exponent"},
		{"e2147483647", nil, "observed: 10^(2^31-1)"},
		{"e2147483648", errQuantityNoDigit, "observed: 2^31 is -2^31 modulo 2^32, below 10^-9"},
		{"e4294967296", nil, "observed: 2^32 is 0 modulo 2^32"},
		{"e-2147483649", nil, "observed: -2^31-1 is 2^31-1 modulo 2^32"},
		{"e", errQuantityUnit, "e alone is no suffix (E alone is)"},
	} {
		if got := checkQuantity(c.in); got != c.want {
			t.Errorf("%q: %v, want %v (%s)", c.in, got, c.want, c.why)
		}
	}
}
