package conformance

import (
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
	"k8s.io/apimachinery/pkg/util/jsonmergepatch"

	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/tree"
)

// TestMergePatchDiffAgainstKubectl compares mergepatch.Diff with
// jsonpatch.CreateMergePatch, which kubectl uses to create JSON merge
// patches, on random pairs of documents.
func TestMergePatchDiffAgainstKubectl(t *testing.T) {
	subjects, err := Subjects()
	if err != nil {
		t.Fatal(err)
	}
	n := casesPerSubject(t) / 4
	failures := 0
	for _, s := range subjects {
		for i := 0; i < n; i++ {
			c := NewDiffCase(s, uint64(i)+99)
			want, err := jsonpatch.CreateMergePatch(c.Original, c.Modified)
			if err != nil {
				t.Fatal(err)
			}
			docs, err := readDocs([][]byte{c.Original, c.Modified})
			if err != nil {
				t.Fatal(err)
			}
			got, err := tree.MarshalJSON(mergepatch.Diff(docs[0], docs[1]))
			if err != nil {
				t.Fatal(err)
			}
			g, _ := upstreamcases.Canonical(got, false)
			w, _ := upstreamcases.Canonical(want, false)
			if g != w {
				failures++
				if failures <= 5 {
					t.Errorf("seed %d\n original: %s\n modified: %s\n kmerge:  %s\n kubectl: %s", c.Seed, c.Original, c.Modified, g, w)
				}
			}
		}
	}
	t.Logf("%d pairs, %d different", n*len(subjects), failures)
}

// TestThreeWayMergePatchAgainstKubectl compares mergepatch.ThreeWayDiff
// with jsonmergepatch.CreateThreeWayJSONMergePatch, which kubectl apply
// uses for kinds without a strategic schema, on random triples: free-form
// JSON (nulls, empty objects, arrays of objects, documents that are not
// objects) and documents of the differential subjects (Deployments,
// Services, Pods, upstream's test type). With overwrite, the same patch;
// without, the same conflict decision as upstream's HasConflicts with
// arrays compared whole (see upstreamThreeWayMerge).
func TestThreeWayMergePatchAgainstKubectl(t *testing.T) {
	subjects, err := Subjects()
	if err != nil {
		t.Fatal(err)
	}
	n := casesPerSubject(t)
	counts := map[string]int{}
	failures := 0
	check := func(c DiffCase) {
		v := CompareThreeWayMerge(c)
		counts[v.Category]++
		if v.Unexplained() {
			failures++
			if failures <= 10 {
				t.Errorf("%s\n%s", v.Category, v.Detail)
			}
		}
	}
	for i := 0; i < 4*n; i++ {
		check(NewMergeDiffCase(uint64(i)))
	}
	for _, s := range subjects {
		for i := 0; i < n/4; i++ {
			check(NewDiffCase(s, uint64(i)+31))
		}
	}
	total := 0
	for _, k := range counts {
		total += k
	}
	t.Logf("%d triples (%d free-form, %d typed): %d equal patches and no conflict, %d equal patches and a conflict without overwrite, %d rejected by both; %d unexplained",
		total, 4*n, total-4*n, counts["equal"], counts["conflict"], counts["both-rejected"], failures)
	if counts["conflict"] == 0 || counts["equal"] == 0 || counts["both-rejected"] == 0 {
		t.Errorf("the generator missed a kind of outcome: %v", counts)
	}
}

// FuzzThreeWayMerge explores seeds of the three-way JSON merge patch
// comparison: free-form triples (which 0) or a subject's documents.
func FuzzThreeWayMerge(f *testing.F) {
	subjects, err := Subjects()
	if err != nil {
		f.Fatal(err)
	}
	for i := 0; i <= len(subjects); i++ {
		f.Add(uint64(i*7919), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, which uint8) {
		c := NewMergeDiffCase(seed)
		if k := int(which) % (len(subjects) + 1); k > 0 {
			c = NewDiffCase(subjects[k-1], seed)
		}
		if v := CompareThreeWayMerge(c); v.Unexplained() {
			t.Fatalf("%s\n%s", v.Category, v.Detail)
		}
	})
}

// TestMergePatchNumbers pins a documented difference
// (docs/upstream-differences.md §8): upstream's JSON merge patch creator
// (evanphx/json-patch, under jsonmergepatch.CreateThreeWayJSONMergePatch,
// what kubectl apply sends for kinds without a schema) reads every number
// as a float64, so 1 and 1.0 are one value to it and a change between
// them is no patch ({}), and so are two integers a float64 cannot tell
// apart. kmerge's merge patches compare numbers as its strategic patches
// and upstream's strategic patches do (integers and floats differ, as an
// API server decodes them into int64 and float64; values exactly): the
// patch sets 1.0, and applying it gives the modified document exactly.
func TestMergePatchNumbers(t *testing.T) {
	for _, c := range []struct{ original, modified, kmerge string }{
		{`{"a":1}`, `{"a":1.0}`, `{"a":1.0}`},
		{`{"a":9007199254740993}`, `{"a":9007199254740992}`, `{"a":9007199254740992}`},
	} {
		o, m := []byte(c.original), []byte(c.modified)
		up2, err := jsonpatch.CreateMergePatch(o, m)
		if err != nil || string(up2) != "{}" {
			t.Errorf("%s -> %s: upstream's two-way patch %s (%v), the test expects {}", o, m, up2, err)
		}
		up3, err := jsonmergepatch.CreateThreeWayJSONMergePatch(o, m, o)
		if err != nil || string(up3) != "{}" {
			t.Errorf("%s -> %s: upstream's three-way patch %s (%v), the test expects {}", o, m, up3, err)
		}
		docs, err := readDocs([][]byte{o, m})
		if err != nil {
			t.Fatal(err)
		}
		two, err := tree.MarshalJSON(mergepatch.Diff(docs[0], docs[1]))
		if err != nil || string(two) != c.kmerge {
			t.Errorf("%s -> %s: kmerge's two-way patch %s (%v), want %s", o, m, two, err, c.kmerge)
		}
		p3, err := mergepatch.ThreeWayDiff(docs[0], docs[1], docs[0], false)
		if err != nil {
			t.Fatal(err)
		}
		three, err := tree.MarshalJSON(p3)
		if err != nil || string(three) != c.kmerge {
			t.Errorf("%s -> %s: kmerge's three-way patch %s (%v), want %s", o, m, three, err, c.kmerge)
		}
		res, err := mergepatch.Apply(tree.Clone(docs[0]), p3, mergepatch.Options{})
		if err != nil || !tree.Equal(res, docs[1]) {
			t.Errorf("%s -> %s: applying the patch does not give the modified document (%v)", o, m, err)
		}
	}
}
