package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	evanphx "gopkg.in/evanphx/json-patch.v4"

	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/tree"
)

// Comparing kmerge's JSON patch (RFC 6902) with evanphx/json-patch, the
// implementation kubectl uses: the outcome of each, and the verdict.

// JSONPatchOutcome is what one implementation made of a case.
type JSONPatchOutcome struct {
	JSON     string // the result, canonical (sorted keys, numbers as values)
	Err      string
	Panic    string
	Rejected bool
}

func (o JSONPatchOutcome) String() string {
	switch {
	case o.Panic != "":
		return "panic: " + o.Panic
	case o.Rejected:
		return "rejected: " + o.Err
	}
	return o.JSON
}

// KmergeJSONPatch applies the patch with kmerge: tree.Read, jsonpatch.Apply,
// tree.MarshalJSON.
func KmergeJSONPatch(doc, patch []byte) JSONPatchOutcome {
	return outcome(kmergeRun(doc, patch))
}

// outcome is the outcome of an implementation that returned out and err:
// rejected, or its output in canonical form.
func outcome(out []byte, err error) JSONPatchOutcome {
	if err != nil {
		return JSONPatchOutcome{Err: err.Error(), Rejected: true}
	}
	c, err := upstreamcases.Canonical(out, false)
	if err != nil {
		return JSONPatchOutcome{Err: "canonical: " + err.Error(), Rejected: true}
	}
	return JSONPatchOutcome{JSON: c}
}

func kmergeRun(doc, patch []byte) ([]byte, error) {
	d, err := tree.Read(doc, tree.Options{File: "doc"})
	if err != nil {
		return nil, err
	}
	p, err := tree.Read(patch, tree.Options{File: "patch"})
	if err != nil {
		return nil, err
	}
	if len(d.Docs) != 1 || len(p.Docs) != 1 {
		return nil, fmt.Errorf("%d documents and %d patches", len(d.Docs), len(p.Docs))
	}
	res, err := jsonpatch.Apply(d.Docs[0], p.Docs[0], jsonpatch.Options{})
	if err != nil {
		return nil, err
	}
	return tree.MarshalJSON(res)
}

// kmergeApply applies a patch to a document, both JSON, with kmerge.
func kmergeApply(doc, patch []byte) ([]byte, bool) {
	out, err := kmergeRun(doc, patch)
	return out, err == nil
}

// EvanphxJSONPatch applies the patch as kubectl does:
// jsonpatch.DecodePatch(patch).Apply(doc) of gopkg.in/evanphx/json-patch.v4.
func EvanphxJSONPatch(doc, patch []byte) (o JSONPatchOutcome) {
	defer func() {
		if r := recover(); r != nil {
			o = JSONPatchOutcome{Panic: fmt.Sprint(r), Rejected: true}
		}
	}()
	p, err := evanphx.DecodePatch(patch)
	if err != nil {
		return JSONPatchOutcome{Err: err.Error(), Rejected: true}
	}
	return outcome(p.Apply(doc))
}

func agree(a, b JSONPatchOutcome) bool {
	return a.Rejected == b.Rejected && (a.Rejected || a.JSON == b.JSON)
}

// JSONPatchVerdict classifies how kmerge's outcome relates to evanphx's.
type JSONPatchVerdict struct {
	// Category is "both-accepted", "both-rejected" (":evanphx-panics" when
	// it panicked), "explained:CLASS" for a difference one of the
	// documented classes accounts for, or "UNEXPLAINED".
	Category string
	Detail   string
}

// Unexplained reports a difference no documented class accounts for.
func (v JSONPatchVerdict) Unexplained() bool { return v.Category == "UNEXPLAINED" }

// CompareJSONPatch runs a case through both implementations. When they
// disagree it finds the first operation after which they do (both agree on
// the operations before it, so they start it from the same document) and
// asks ExplainJSONPatch whether that operation is one of the documented
// differences.
func CompareJSONPatch(c JSONPatchCase) JSONPatchVerdict {
	k := KmergeJSONPatch(c.Doc, c.Patch)
	e := EvanphxJSONPatch(c.Doc, c.Patch)
	if agree(k, e) {
		switch {
		case !k.Rejected:
			return JSONPatchVerdict{Category: "both-accepted"}
		case e.Panic != "":
			return JSONPatchVerdict{Category: "both-rejected:evanphx-panics"}
		}
		return JSONPatchVerdict{Category: "both-rejected"}
	}
	detail := fmt.Sprintf("seed %d\n doc:     %s\n patch:   %s\n kmerge:  %s\n evanphx: %s", c.Seed, c.Doc, c.Patch, k, e)
	var ops []json.RawMessage
	if err := json.Unmarshal(c.Patch, &ops); err != nil {
		return JSONPatchVerdict{Category: "UNEXPLAINED", Detail: detail}
	}
	state := c.Doc
	for i := range ops {
		prefix := jpJSON(ops[:i+1])
		kp, ep := KmergeJSONPatch(c.Doc, prefix), EvanphxJSONPatch(c.Doc, prefix)
		if agree(kp, ep) {
			if next, ok := kmergeApply(c.Doc, prefix); ok {
				state = next
			}
			continue
		}
		class := ExplainJSONPatch(decodeJSON(state), ops[:i], ops[i])
		detail += fmt.Sprintf("\n operation %d: %s\n kmerge:  %s\n evanphx: %s", i, ops[i], kp, ep)
		if class == "" {
			return JSONPatchVerdict{Category: "UNEXPLAINED", Detail: detail}
		}
		return JSONPatchVerdict{Category: "explained:" + class, Detail: detail}
	}
	return JSONPatchVerdict{Category: "UNEXPLAINED", Detail: detail + "\n (every prefix agrees)"}
}

// jsonEqual is RFC 6902's equality on decoded values: numbers by value.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		ra, oka := new(big.Rat).SetString(string(x))
		rb, okb := new(big.Rat).SetString(string(y))
		return oka && okb && ra.Cmp(rb) == 0
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, e := range x {
			f, ok := y[k]
			if !ok || !jsonEqual(e, f) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func jsonString(raw json.RawMessage) string {
	s, _ := jsonStringOK(raw)
	return s
}

func jsonStringOK(raw json.RawMessage) (string, bool) {
	var s string
	if raw == nil || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// decodeJSON decodes JSON with numbers as json.Number.
func decodeJSON(data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return v
}

func jpJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
