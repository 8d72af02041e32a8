package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
	"github.com/kmerge/kmerge/smp"
)

// Case is one generated document and patch.
type Case struct {
	Subject string
	Seed    uint64
	Doc     []byte
	Patch   []byte
	patch   any
}

// NewCase generates the case for a seed.
func NewCase(s Subject, seed uint64) Case {
	g := NewGen(seed)
	doc, _ := g.Value(s.Shape, 0).(map[string]any)
	if doc == nil {
		doc = map[string]any{}
	}
	for k, v := range s.Root {
		doc[k] = v
	}
	patch := g.Patch(doc, s.Shape)
	db, _ := json.Marshal(doc)
	pb, _ := json.Marshal(patch)
	var p any
	_ = json.Unmarshal(pb, &p)
	return Case{Subject: s.Name, Seed: seed, Doc: db, Patch: pb, patch: p}
}

// Verdict classifies how kmerge's outcome relates to upstream's.
type Verdict struct {
	Category string // "equal", "both-rejected", "explained:...", or "UNEXPLAINED:..."
	Detail   string
	// ReasonMismatch is set when both rejected but kmerge's reason is not
	// the one upstream's message maps to.
	ReasonMismatch string
}

// Unexplained reports a difference no documented rule accounts for.
func (v Verdict) Unexplained() bool { return strings.HasPrefix(v.Category, "UNEXPLAINED") }

// Compare runs a case through upstream and through kmerge in both list
// orders and classifies the differences.
func Compare(s Subject, c Case) Verdict {
	up := Upstream(s, c.Doc, c.Patch)
	ku := Kmerge(s, c.Doc, c.Patch, smp.OrderUpstream)
	ks := Kmerge(s, c.Doc, c.Patch, smp.OrderSpec)
	random := RandomOutcome(c.patch)
	detail := func() string {
		return fmt.Sprintf("subject %s seed %d\n doc:      %s\n patch:    %s\n upstream: %s%s%s\n kmerge:   %s%s\n spec:     %s%s",
			s.Name, c.Seed, c.Doc, c.Patch, up.JSON, up.Err, up.Panic, ku.JSON, ku.Err, ks.JSON, ks.Err)
	}
	if ku.Rejected() != ks.Rejected() {
		return Verdict{Category: "UNEXPLAINED:modes-disagree", Detail: detail()}
	}
	if up.Rejected() != ku.Rejected() {
		switch {
		case ku.Kerr != nil && ku.Kerr.Reason == smp.ReasonMergeKey && strings.Contains(ku.Err, "must be scalars"):
			return Verdict{Category: "explained:object-merge-key", Detail: detail()}
		case random:
			return Verdict{Category: "explained:random", Detail: detail()}
		}
		return Verdict{Category: "UNEXPLAINED:decision", Detail: detail()}
	}
	if up.Rejected() {
		v := Verdict{Category: "both-rejected"}
		if want, ok := upstreamcases.ReasonFor(up.Err); ok && (ku.Kerr == nil || ku.Kerr.Reason != want) {
			// With several faults in one patch, which one upstream reports
			// depends on Go map order: sample it before calling it a mismatch.
			if !upstreamMayReport(s, c, ku.Kerr) {
				v.ReasonMismatch = fmt.Sprintf("upstream %q (%s) vs kmerge %q", up.Err, want, ku.Err)
			}
		}
		if up.Panic != "" {
			v.Category = "both-rejected:upstream-panics"
		}
		return v
	}
	if up.JSON != ku.JSON {
		if random {
			return Verdict{Category: "explained:random", Detail: detail()}
		}
		return Verdict{Category: "UNEXPLAINED:result", Detail: detail()}
	}
	if SortedLists(up.JSON) != SortedLists(ks.JSON) {
		return Verdict{Category: "UNEXPLAINED:spec-result", Detail: detail()}
	}
	if up.JSON != ks.JSON {
		return Verdict{Category: "equal:spec-order-differs"}
	}
	return Verdict{Category: "equal"}
}

// upstreamMayReport runs upstream repeatedly and reports whether one of its
// runs rejects the case for kmerge's reason.
func upstreamMayReport(s Subject, c Case, kerr *smp.Error) bool {
	if kerr == nil {
		return false
	}
	for i := 0; i < 50; i++ {
		o := Upstream(s, c.Doc, c.Patch)
		if r, ok := upstreamcases.ReasonFor(o.Err); ok && r == kerr.Reason {
			return true
		}
		if o.Panic != "" && kerr.Reason != "" {
			return true
		}
	}
	return false
}
