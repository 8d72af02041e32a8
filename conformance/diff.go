package conformance

import (
	"encoding/json"
	"errors"
	"fmt"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// DiffCase is an original document, a modified one and a current one.
type DiffCase struct {
	Subject                     string
	Seed                        uint64
	Original, Modified, Current []byte
}

// NewDiffCase generates the diff case for a seed: the modified and the
// current documents are independent mutations of the original. With unique,
// merged lists have distinct keys (see Gen.Unique).
func NewDiffCase(s Subject, seed uint64, unique ...bool) DiffCase {
	g := NewGen(seed)
	g.Unique = len(unique) > 0 && unique[0]
	orig, _ := g.Value(s.Shape, 0).(map[string]any)
	if orig == nil {
		orig = map[string]any{}
	}
	for k, v := range s.Root {
		orig[k] = v
	}
	mod := g.Mutate(orig, s.Shape, 0)
	cur := g.Mutate(orig, s.Shape, 0)
	o, _ := json.Marshal(orig)
	m, _ := json.Marshal(mod)
	c, _ := json.Marshal(cur)
	return DiffCase{Subject: s.Name, Seed: seed, Original: o, Modified: m, Current: c}
}

// diffOutcome is what one implementation did: a patch, a conflict or an error.
type diffOutcome struct {
	patch    string
	conflict bool
	err      string
	// alsoFailed: a conflict was found and another path could not be
	// compared; upstream reports either, by map order
	alsoFailed bool
}

func (o diffOutcome) String() string {
	switch {
	case o.conflict:
		return "CONFLICT"
	case o.err != "":
		return "ERROR: " + o.err
	}
	return o.patch
}

func upstreamDiff(s Subject, docs [][]byte, overwrite bool) (out diffOutcome) {
	defer func() {
		if r := recover(); r != nil {
			out = diffOutcome{err: fmt.Sprint("panic: ", r)}
		}
	}()
	var p []byte
	var err error
	if len(docs) == 2 {
		p, err = strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(docs[0], docs[1], s.Upstream)
	} else {
		p, err = strategicpatch.CreateThreeWayMergePatch(docs[0], docs[1], docs[2], s.Upstream, overwrite)
	}
	if err != nil {
		if mergepatch.IsConflict(err) {
			return diffOutcome{conflict: true}
		}
		return diffOutcome{err: err.Error()}
	}
	c, err := upstreamcases.Canonical(p, false)
	if err != nil {
		return diffOutcome{err: "canonical: " + err.Error()}
	}
	return diffOutcome{patch: c}
}

func readDocs(docs [][]byte) ([]*yaml.Node, error) {
	var out []*yaml.Node
	for _, d := range docs {
		st, err := tree.Read(d, tree.Options{})
		if err != nil {
			return nil, err
		}
		out = append(out, st.Docs[0])
	}
	return out, nil
}

func kmergeDiff(s Subject, docs [][]byte, overwrite, extended bool) (diffOutcome, *yaml.Node) {
	nodes, err := readDocs(docs)
	if err != nil {
		return diffOutcome{err: err.Error()}, nil
	}
	opts := smp.DiffOptions{Extended: extended}
	var p *yaml.Node
	if len(nodes) == 2 {
		p, err = smp.CreateTwoWayPatch(nodes[0], nodes[1], s.Kmerge, opts)
	} else {
		p, err = smp.CreateThreeWayPatch(nodes[0], nodes[1], nodes[2], s.Kmerge, overwrite, opts)
	}
	if err != nil {
		var ce *change.LiveConflictError
		if errors.As(err, &ce) {
			return diffOutcome{conflict: true, alsoFailed: ce.Err != nil}, nil
		}
		return diffOutcome{err: err.Error()}, nil
	}
	b, err := tree.MarshalJSON(p)
	if err != nil {
		return diffOutcome{err: err.Error()}, nil
	}
	c, err := upstreamcases.Canonical(b, false)
	if err != nil {
		return diffOutcome{err: err.Error()}, nil
	}
	return diffOutcome{patch: c}, p
}

// CompareDiff runs a diff case through both implementations: the two-way
// patch, the three-way patch without and with overwrite. It returns a
// verdict as Compare does.
func CompareDiff(s Subject, c DiffCase) Verdict {
	steps := []struct {
		name      string
		docs      [][]byte
		overwrite bool
	}{
		{"twoWay", [][]byte{c.Original, c.Modified}, false},
		{"threeWay", [][]byte{c.Original, c.Modified, c.Current}, false},
		{"threeWay(overwrite)", [][]byte{c.Original, c.Modified, c.Current}, true},
	}
	for _, st := range steps {
		up := upstreamDiff(s, st.docs, st.overwrite)
		km, _ := kmergeDiff(s, st.docs, st.overwrite, false)
		same := up.conflict == km.conflict && (up.err != "") == (km.err != "") && up.patch == km.patch
		if !same && up.err != "" && km.alsoFailed {
			return Verdict{Category: "explained:conflict-or-error-by-map-order"}
		}
		if !same {
			return Verdict{Category: "UNEXPLAINED:" + st.name, Detail: fmt.Sprintf(
				"subject %s seed %d step %s\n original: %s\n modified: %s\n current:  %s\n upstream: %s\n kmerge:   %s",
				s.Name, c.Seed, st.name, c.Original, c.Modified, c.Current, up, km)}
		}
	}
	return Verdict{Category: "equal"}
}

// RoundTrip checks kmerge alone: applying the two-way patch (plain or
// extended) to the original gives the modified document. It reports ""
// when the property holds or the case is outside it (the documents hold
// nulls or duplicate merge keys, which no patch can express), else why not.
func RoundTrip(s Subject, c DiffCase, extended bool) string {
	docs := [][]byte{c.Original, c.Modified}
	out, p := kmergeDiff(s, docs, false, extended)
	if p == nil {
		return "" // a diff error: CompareDiff checks those against upstream
	}
	nodes, err := readDocs(docs)
	if err != nil {
		return err.Error()
	}
	res, err := smp.Apply(nodes[0], p, s.Kmerge, smp.Options{})
	if err != nil {
		return fmt.Sprintf("the patch does not apply: %v\n patch: %s", err, out.patch)
	}
	got, _ := tree.MarshalJSON(res)
	g, _ := upstreamcases.Canonical(got, false)
	w, _ := upstreamcases.Canonical(c.Modified, false)
	if g != w {
		return fmt.Sprintf("apply(original, diff) differs from modified\n patch: %s\n got:   %s\n want:  %s", out.patch, g, w)
	}
	return ""
}
