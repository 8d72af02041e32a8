// Package upstreamcases holds what the tests that compare kmerge with
// upstream (k8s.io/apimachinery's strategic merge patch) share: upstream's
// test types, the JSON normal form results are compared in, and how
// upstream's error messages map to smp reasons. It has no dependency on
// upstream; the conformance module, which has, uses it (and
// conformance/upstreamsrc checks the types against upstream's source). The
// library itself never does.
package upstreamcases

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/kmerge/kmerge/smp"
)

// MergeItem and the types below are the Go types of upstream's strategic
// merge patch tests (k8s.io/apimachinery's pkg/util/strategicpatch
// patch_test.go), with their tags.
type MergeItem struct {
	Name                  string               `json:"name,omitempty"`
	Value                 string               `json:"value,omitempty"`
	Other                 string               `json:"other,omitempty"`
	MergingList           []MergeItem          `json:"mergingList,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	NonMergingList        []MergeItem          `json:"nonMergingList,omitempty"`
	MergingIntList        []int                `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	NonMergingIntList     []int                `json:"nonMergingIntList,omitempty"`
	MergeItemPtr          *MergeItem           `json:"mergeItemPtr,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	SimpleMap             map[string]string    `json:"simpleMap,omitempty"`
	ReplacingItem         RawExtension         `json:"replacingItem,omitempty" patchStrategy:"replace"`
	RetainKeysMap         RetainKeysMergeItem  `json:"retainKeysMap,omitempty" patchStrategy:"retainKeys"`
	RetainKeysMergingList []MergeItem          `json:"retainKeysMergingList,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
	JSONItem              struct{ Raw []byte } `json:"jsonItem,omitempty"`
}

// RetainKeysMergeItem is the type of MergeItem.RetainKeysMap.
type RetainKeysMergeItem struct {
	Name           string            `json:"name,omitempty"`
	Value          string            `json:"value,omitempty"`
	Other          string            `json:"other,omitempty"`
	SimpleMap      map[string]string `json:"simpleMap,omitempty"`
	MergingIntList []int             `json:"mergingIntList,omitempty" patchStrategy:"merge"`
	MergingList    []MergeItem       `json:"mergingList,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	NonMergingList []MergeItem       `json:"nonMergingList,omitempty"`
}

// PrecisionItem is the type of upstream's number conversion tests.
type PrecisionItem struct {
	Name    string  `json:"name,omitempty"`
	Int32   int32   `json:"int32,omitempty"`
	Int64   int64   `json:"int64,omitempty"`
	Float32 float32 `json:"float32,omitempty"`
	Float64 float64 `json:"float64,omitempty"`
}

// RawExtension stands in for runtime.RawExtension, which marshals itself.
// The field that has it uses the replace strategy, so neither
// implementation ever looks inside it.
type RawExtension struct {
	Raw []byte `json:"-"`
}

// MarshalJSON returns the raw bytes.
func (r RawExtension) MarshalJSON() ([]byte, error) { return r.Raw, nil }

// Canonical decodes JSON as an API server does (int64 or float64 numbers)
// and encodes it with sorted keys. With stripLeaks it also removes what
// upstream leaves of directives in a result and kmerge does not: the keys
// $retainKeys, $setElementOrder/... and $deleteFromPrimitiveList/..., and
// objects carrying $patch (docs/upstream-differences.md).
func Canonical(data []byte, stripLeaks bool) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	b, err := json.Marshal(convert(v, stripLeaks))
	return string(b), err
}

func convert(v any, strip bool) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			if strip && (k == "$retainKeys" || strings.HasPrefix(k, "$setElementOrder") || strings.HasPrefix(k, "$deleteFromPrimitiveList")) {
				delete(x, k)
				continue
			}
			if strip && hasPatch(e) {
				delete(x, k)
				continue
			}
			x[k] = convert(e, strip)
		}
	case []any:
		out := x[:0]
		for _, e := range x {
			if !(strip && hasPatch(e)) {
				out = append(out, convert(e, strip))
			}
		}
		return out
	}
	return v
}

func hasPatch(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, has := m["$patch"]
	return has
}

// reasons maps upstream's error messages to smp's reasons.
var reasons = []struct {
	substr string
	reason smp.Reason
}{
	{"doesn't match", smp.ReasonSetElementOrder},
	{"does not contain declared merge key", smp.ReasonMergeKey},
	{"cannot merge lists without merge key", smp.ReasonMergeKey},
	{"unable to find api field", smp.ReasonSchema},
	{"expected kind", smp.ReasonSchema},
	{"expected slice", smp.ReasonSchema},
	{"data type is not struct", smp.ReasonSchema},
	{"unexpected patch strategy", smp.ReasonSchema},
	{"unable to resolve", smp.ReasonSchema},
	{"lists of lists", smp.ReasonListItems},
	{"list element types are not identical", smp.ReasonListItems},
	{"no elements in any of the given slices", smp.ReasonListItems},
	{"invalid patch format of retainKeys", smp.ReasonRetainKeys},
	{"unknown patch type", smp.ReasonDirective},
	{"merging lists cannot yet be specified", smp.ReasonDirective},
	{"invalid patch format of setElementOrder", smp.ReasonDirective},
	{"invalid patch format of primitive list", smp.ReasonDirective},
	{"expected a map", smp.ReasonType},
	{"expected a []interface", smp.ReasonType},
	{"is not a map", smp.ReasonType},
}

// ReasonFor maps an upstream error message to the reason kmerge must give.
func ReasonFor(msg string) (smp.Reason, bool) {
	for _, r := range reasons {
		if strings.Contains(msg, r.substr) {
			return r.reason, true
		}
	}
	return "", false
}
