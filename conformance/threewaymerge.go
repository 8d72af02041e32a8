package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	evanphx "gopkg.in/evanphx/json-patch.v4"
	k8sjson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/jsonmergepatch"
	"k8s.io/apimachinery/pkg/util/mergepatch"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
	kmergepatch "github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/tree"
)

// NewMergeDiffCase generates a triple for three-way JSON merge patches:
// free-form JSON without a schema, as custom resources are to kubectl.
// Keys come from a small set so that the three documents share fields;
// the values include nulls, empty objects, and arrays of objects with null
// fields (which upstream's merge prunes), and now and then a document is
// null, an array or a scalar (which upstream rejects). The modified and
// current documents are independent mutations of the original.
func NewMergeDiffCase(seed uint64) DiffCase {
	g := &mergeGen{r: rand.New(rand.NewPCG(seed, seed^0x51ed27f3a9b04c6d))}
	var orig any = g.object(0)
	if g.chance(0.1) {
		orig = map[string]any{} // the first apply: nothing applied before
	}
	mod, cur := g.mutate(orig, 0), g.mutate(orig, 0)
	docs := []any{orig, mod, cur}
	for i := range docs {
		if g.chance(0.02) {
			docs[i] = g.notObject()
		}
	}
	var out [3][]byte
	for i, d := range docs {
		out[i], _ = json.Marshal(d)
	}
	return DiffCase{Subject: "free-form", Seed: seed, Original: out[0], Modified: out[1], Current: out[2]}
}

// mergeGen makes free-form JSON for merge patch triples.
type mergeGen struct{ r *rand.Rand }

const mergeMaxDepth = 4

var mergeKeys = []string{"a", "b", "c", "d", "e"}

func (g *mergeGen) chance(p float64) bool { return g.r.Float64() < p }

func (g *mergeGen) scalar() any {
	switch g.r.IntN(6) {
	case 0:
		return int64(g.r.IntN(3))
	case 1:
		return float64(g.r.IntN(2)) + 0.5
	case 2:
		return g.chance(0.5)
	case 3:
		return nil
	}
	return mergeKeys[g.r.IntN(2)]
}

func (g *mergeGen) value(depth int) any {
	if depth >= mergeMaxDepth {
		return g.scalar()
	}
	switch g.r.IntN(5) {
	case 0:
		return g.object(depth + 1)
	case 1:
		return g.array(depth + 1)
	}
	return g.scalar()
}

func (g *mergeGen) object(depth int) map[string]any {
	m := map[string]any{}
	for i := g.r.IntN(4); i > 0; i-- {
		m[mergeKeys[g.r.IntN(len(mergeKeys))]] = g.value(depth)
	}
	return m
}

func (g *mergeGen) array(depth int) []any {
	l := []any{}
	for i := g.r.IntN(3); i > 0; i-- {
		if g.chance(0.5) {
			l = append(l, g.object(depth+1))
		} else {
			l = append(l, g.value(depth+1))
		}
	}
	return l
}

func (g *mergeGen) notObject() any {
	switch g.r.IntN(3) {
	case 0:
		return nil
	case 1:
		return []any{g.scalar()}
	}
	return g.scalar()
}

// mutate returns a changed deep copy of v: fields kept, changed, removed,
// set to null, added; values replaced by others of any kind.
func (g *mergeGen) mutate(v any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for _, k := range mergeKeys { // in a fixed order: the same seed, the same case
			e, ok := x[k]
			switch {
			case !ok:
				if g.chance(0.15) {
					out[k] = g.value(depth + 1)
				}
			case g.chance(0.1):
				// removed
			case g.chance(0.05):
				out[k] = nil
			case g.chance(0.3):
				out[k] = g.mutate(e, depth+1)
			default:
				out[k] = deepCopy(e)
			}
		}
		return out
	case []any:
		if g.chance(0.5) {
			return deepCopy(x)
		}
		out := []any{}
		for _, e := range x {
			if !g.chance(0.2) {
				out = append(out, g.mutate(e, depth+1))
			}
		}
		if g.chance(0.3) {
			out = append(out, g.value(depth+1))
		}
		return out
	}
	if g.chance(0.3) {
		return g.value(depth)
	}
	return v
}

// upstreamThreeWayMerge runs kubectl's three-way JSON merge patch,
// jsonmergepatch.CreateThreeWayJSONMergePatch. Without overwrite (which
// upstream does not have) the oracle is built from upstream's parts the
// way strategicpatch.CreateThreeWayMergePatch builds its own: the changes
// made to the live object are CreateMergePatch(original, current), and a
// conflict is mergepatch.HasConflicts(patch, changes), with every array
// turned into its JSON text first, so that arrays are compared whole (the
// documented rule of kmerge's check, see docs/upstream-differences.md).
func upstreamThreeWayMerge(c DiffCase, overwrite bool) (out diffOutcome) {
	defer func() {
		if r := recover(); r != nil {
			out = diffOutcome{err: fmt.Sprint("panic: ", r)}
		}
	}()
	p, err := jsonmergepatch.CreateThreeWayJSONMergePatch(c.Original, c.Modified, c.Current)
	if err != nil {
		if mergepatch.IsConflict(err) {
			return diffOutcome{conflict: true}
		}
		return diffOutcome{err: err.Error()}
	}
	if !overwrite {
		changed, err := evanphx.CreateMergePatch(c.Original, c.Current)
		if err != nil {
			return diffOutcome{err: "changes: " + err.Error()}
		}
		var pm, cm map[string]any
		if err := k8sjson.Unmarshal(p, &pm); err != nil {
			return diffOutcome{err: err.Error()}
		}
		if err := k8sjson.Unmarshal(changed, &cm); err != nil {
			return diffOutcome{err: err.Error()}
		}
		conflict, err := mergepatch.HasConflicts(arraysAsText(pm), arraysAsText(cm))
		if err != nil {
			return diffOutcome{err: "HasConflicts: " + err.Error()}
		}
		if conflict {
			return diffOutcome{conflict: true}
		}
	}
	s, err := upstreamcases.Canonical(p, false)
	if err != nil {
		return diffOutcome{err: "canonical: " + err.Error()}
	}
	return diffOutcome{patch: s}
}

// arraysAsText replaces, in place, every array in v by a string holding
// its JSON text (after a prefix no generated string has).
func arraysAsText(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = arraysAsText(e)
		}
	case []any:
		b, _ := json.Marshal(x)
		return "\x00array " + string(b)
	}
	return v
}

// kmergeThreeWayMerge runs mergepatch.ThreeWayDiff on the case.
func kmergeThreeWayMerge(c DiffCase, overwrite bool) diffOutcome {
	docs, err := readDocs([][]byte{c.Original, c.Modified, c.Current})
	if err != nil {
		return diffOutcome{err: err.Error()}
	}
	p, err := kmergepatch.ThreeWayDiff(docs[0], docs[1], docs[2], overwrite)
	if err != nil {
		var ce *change.LiveConflictError
		if errors.As(err, &ce) {
			return diffOutcome{conflict: true}
		}
		return diffOutcome{err: err.Error()}
	}
	b, err := tree.MarshalJSON(p)
	if err != nil {
		return diffOutcome{err: err.Error()}
	}
	s, err := upstreamcases.Canonical(b, false)
	if err != nil {
		return diffOutcome{err: err.Error()}
	}
	return diffOutcome{patch: s}
}

// CompareThreeWayMerge runs a triple through both implementations, with
// and without overwrite: the same patch (keys sorted), the same conflict
// decision, errors on the same inputs.
func CompareThreeWayMerge(c DiffCase) Verdict {
	for _, overwrite := range []bool{true, false} {
		up, km := upstreamThreeWayMerge(c, overwrite), kmergeThreeWayMerge(c, overwrite)
		if up.conflict != km.conflict || (up.err != "") != (km.err != "") || up.patch != km.patch {
			return Verdict{Category: fmt.Sprintf("UNEXPLAINED:threeWayMerge(overwrite=%v)", overwrite), Detail: fmt.Sprintf(
				"subject %s seed %d\n original: %s\n modified: %s\n current:  %s\n upstream: %s\n kmerge:   %s",
				c.Subject, c.Seed, c.Original, c.Modified, c.Current, up, km)}
		}
		if km.err != "" {
			return Verdict{Category: "both-rejected"}
		}
		if km.conflict {
			return Verdict{Category: "conflict"}
		}
	}
	return Verdict{Category: "equal"}
}
