package conformance

import (
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// jsonPatchCases is how many random cases TestJSONPatchDifferential runs:
// 20,000 by default, five times casesPerSubject (KMERGE_DIFF_CASES).
func jsonPatchCases(t testing.TB) int { return 5 * casesPerSubject(t) }

// TestJSONPatchDifferential compares kmerge's jsonpatch.Apply with
// evanphx/json-patch (v4, what kubectl uses) on random documents and
// patches: the same accept/reject decision and, when both accept, the same
// result as JSON values. A difference must come from one of the classes of
// operations on which evanphx departs from RFC 6902 (ExplainJSONPatch,
// docs/upstream-differences.md), in which kmerge keeps to the RFC; the
// classes are counted, any other difference fails the test.
func TestJSONPatchDifferential(t *testing.T) {
	n := jsonPatchCases(t)
	base := uint64(1)
	if s := os.Getenv("KMERGE_DIFF_SEED"); s != "" {
		base, _ = strconv.ParseUint(s, 10, 64)
	}
	counts := map[string]int{}
	failures := 0
	for i := 0; i < n; i++ {
		v := CompareJSONPatch(NewJSONPatchCase(base + uint64(i)))
		counts[v.Category]++
		if v.Unexplained() {
			failures++
			if failures <= 10 {
				t.Errorf("%s\n%s", v.Category, v.Detail)
			}
		}
	}
	var cats []string
	agreements := 0
	for c, k := range counts {
		cats = append(cats, c)
		if strings.HasPrefix(c, "both-") {
			agreements += k
		}
	}
	sort.Strings(cats)
	for _, c := range cats {
		t.Logf("%-45s %6d", c, counts[c])
	}
	t.Logf("%d cases: %d agree, %d explained by a documented difference, %d unexplained", n, agreements, n-agreements-failures, failures)
	if counts["both-accepted"] < n/4 || counts["both-rejected"] < n/20 {
		t.Errorf("the generator makes too few accepted or rejected patches: %v", counts)
	}
}

// FuzzJSONPatch explores seeds of the generator: go test -fuzz FuzzJSONPatch.
func FuzzJSONPatch(f *testing.F) {
	for i := uint64(0); i < 8; i++ {
		f.Add(i * 104729)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		if v := CompareJSONPatch(NewJSONPatchCase(seed)); v.Unexplained() {
			t.Fatalf("%s\n%s", v.Category, v.Detail)
		}
	})
}

// TestJSONPatchUpstreamDifferences shows each documented difference: what
// kmerge does (RFC 6902), what evanphx does, and that ExplainJSONPatch puts
// the last operation in its class. Results are canonical JSON; "rejected"
// and "panic" match any rejection or panic of evanphx, "rejected: text" a
// kmerge error containing text.
func TestJSONPatchUpstreamDifferences(t *testing.T) {
	cases := []struct {
		class, doc, patch, kmerge, evanphx string
	}{
		{ClassScalarDocument, `1`, `[{"op":"test","path":"","value":1}]`,
			`1`, `rejected`},
		{ClassScalarDocument, `null`, `[{"op":"add","path":"/a","value":1}]`,
			`rejected: the document is null`, `panic`},
		{ClassMissingValue, `{"a":1}`, `[{"op":"add","path":"/b"}]`,
			`rejected: no "value" member`, `{"a":1,"b":null}`},
		{ClassMissingValue, `{"a":1}`, `[{"op":"replace","path":"/a"}]`,
			`rejected: no "value" member`, `{"a":null}`},
		{ClassMissingValue, `{"a":null}`, `[{"op":"test","path":"/a"}]`,
			`rejected: no "value" member`, `{"a":null}`},
		{ClassMissingValue, `{"a":1}`, `[{"op":"test","path":""}]`,
			`rejected: no "value" member`, `panic`},
		{ClassPointerWithoutSlash, `{"a":{"b":1},"b":2}`, `[{"op":"remove","path":"a/b"}]`,
			`rejected: is not a JSON pointer`, `{"a":{"b":1}}`},
		{ClassBadEscape, `{"~2":1}`, `[{"op":"remove","path":"/~2"}]`,
			`rejected: "~" must be followed by 0 or 1`, `{}`},
		{ClassWholeDocument, `{"a":1}`, `[{"op":"add","path":"","value":{"b":2}}]`,
			`{"b":2}`, `rejected`},
		{ClassWholeDocument, `{"a":1}`, `[{"op":"replace","path":"","value":3}]`,
			`3`, `rejected`},
		{ClassWholeDocument, `{"a":1}`, `[{"op":"copy","from":"","path":"/b"}]`,
			`{"a":1,"b":{"a":1}}`, `rejected`},
		{ClassWholeDocument, `{"a":1}`, `[{"op":"move","from":"","path":""}]`,
			`{"a":1}`, `rejected`},
		{ClassWholeDocument, `{"a":[1]}`, `[{"op":"move","from":"/a","path":""}]`,
			`[1]`, `rejected`},
		{ClassNegativeIndex, `[1,2]`, `[{"op":"remove","path":"/-1"}]`,
			`rejected: is negative`, `[1]`},
		{ClassNegativeIndex, `[1,2]`, `[{"op":"add","path":"/-1","value":3}]`,
			`rejected: is negative`, `[1,2,3]`},
		{ClassLenientIndex, `[1,2]`, `[{"op":"remove","path":"/01"}]`,
			`rejected: has a leading zero`, `[1]`},
		{ClassLenientIndex, `[1,2]`, `[{"op":"test","path":"/+1","value":2}]`,
			`rejected: has a sign`, `[1,2]`},
		{ClassReplaceMissing, `{"a":1}`, `[{"op":"replace","path":"/b","value":2}]`,
			`rejected: no member "b"`, `{"a":1,"b":2}`},
		{ClassCopyMissing, `{"a":1}`, `[{"op":"copy","from":"/b","path":"/c"}]`,
			`rejected: no member "b"`, `{"a":1,"c":null}`},
		{ClassTestMissing, `{"a":1}`, `[{"op":"test","path":"/b","value":null}]`,
			`rejected: no member "b"`, `{"a":1}`},
		{ClassTestNumbers, `{"a":1.0}`, `[{"op":"test","path":"/a","value":1}]`,
			`{"a":1}`, `rejected`},
		{ClassTestNumbers, `{"a":[100]}`, `[{"op":"test","path":"/a","value":[1e2]}]`,
			`{"a":[100]}`, `rejected`},
		{ClassTestNullInArray, `{"a":[null]}`, `[{"op":"test","path":"/a","value":[null]}]`,
			`{"a":[null]}`, `panic`},
		{ClassTestNullInArray, `{"a":[1]}`, `[{"op":"test","path":"/a","value":[null]}]`,
			`rejected: test failed`, `panic`},
		{ClassNullFromPatch, `{}`, `[{"op":"add","path":"/n","value":null},{"op":"copy","from":"/n","path":"/m"},{"op":"test","path":"/m","value":{}}]`,
			`rejected: test failed`, `{"m":null,"n":null}`},
		{ClassNullFromPatch, `{}`, `[{"op":"add","path":"/n","value":null},{"op":"copy","from":"/n","path":"/m"},{"op":"test","path":"/m","value":null}]`,
			`{"m":null,"n":null}`, `rejected`},
		{ClassNullFromPatch, `{"a":1}`, `[{"op":"add","path":"/n","value":null},{"op":"test","path":"","value":{"a":1,"n":null}}]`,
			`{"a":1,"n":null}`, `rejected`},
		{ClassNullFromPatch, `{"b":1}`, `[{"op":"replace","path":"/b","value":null},{"op":"copy","from":"/b","path":"/c"},{"op":"copy","from":"/c/a","path":"/d"}]`,
			`rejected: /c is null, not an object or an array`, `{"b":null,"c":null,"d":null}`},
		{ClassLenientIndex, `{"l":["x",{},[0]]}`, `[{"op":"move","from":"/l/0","path":"/l/1/01"}]`,
			`rejected: has a leading zero`, `{"l":[{},[0,"x"]]}`},
		{ClassMoveIntoChild, `{"l":[{"a":1},{"b":2}]}`, `[{"op":"move","from":"/l/0","path":"/l/0/c"}]`,
			`rejected: into its own child`, `{"l":[{"b":2,"c":{"a":1}}]}`},
	}
	for _, c := range cases {
		t.Run(c.class, func(t *testing.T) {
			k := KmergeJSONPatch([]byte(c.doc), []byte(c.patch))
			e := EvanphxJSONPatch([]byte(c.doc), []byte(c.patch))
			if !outcomeIs(k, c.kmerge) {
				t.Errorf("%s %s: kmerge %s, want %s", c.doc, c.patch, k, c.kmerge)
			}
			if !outcomeIs(e, c.evanphx) {
				t.Errorf("%s %s: evanphx %s, want %s", c.doc, c.patch, e, c.evanphx)
			}
			var ops []json.RawMessage
			if err := json.Unmarshal([]byte(c.patch), &ops); err != nil {
				t.Fatal(err)
			}
			last := len(ops) - 1
			state := []byte(c.doc)
			if last > 0 {
				var ok bool
				if state, ok = kmergeApply(state, jpJSON(ops[:last])); !ok {
					t.Fatalf("the operations before the last fail")
				}
			}
			if got := ExplainJSONPatch(decodeJSON(state), ops[:last], ops[last]); got != c.class {
				t.Errorf("%s %s: ExplainJSONPatch says %q, want %q", c.doc, c.patch, got, c.class)
			}
			// where both reject (evanphx by panicking), the cases agree
			want := "explained:" + c.class
			if k.Rejected && e.Rejected {
				want = "both-rejected:evanphx-panics"
			}
			if v := CompareJSONPatch(JSONPatchCase{Doc: []byte(c.doc), Patch: []byte(c.patch)}); v.Category != want {
				t.Errorf("%s %s: CompareJSONPatch says %s\n%s", c.doc, c.patch, v.Category, v.Detail)
			}
		})
	}

	// A patch that is null: evanphx applies it as an empty patch; for RFC
	// 6902 it is no patch (not an array). Not generated by the differential
	// test, which makes only arrays.
	if k := KmergeJSONPatch([]byte(`{"a":1}`), []byte(`null`)); !outcomeIs(k, "rejected: a JSON patch is an array of operations") {
		t.Errorf("null patch: kmerge %s", k)
	}
	if e := EvanphxJSONPatch([]byte(`{"a":1}`), []byte(`null`)); !outcomeIs(e, `{"a":1}`) {
		t.Errorf("null patch: evanphx %s", e)
	}
}

func outcomeIs(o JSONPatchOutcome, want string) bool {
	switch {
	case want == "panic":
		return o.Panic != ""
	case want == "rejected":
		return o.Rejected
	case strings.HasPrefix(want, "rejected: "):
		return o.Rejected && o.Panic == "" && strings.Contains(o.Err, strings.TrimPrefix(want, "rejected: "))
	}
	return !o.Rejected && o.JSON == want
}
