package conformance

import (
	"testing"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"github.com/kmerge/kmerge/internal/upstreamcases"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/tree"
)

// TestMergePatchDiffAgainstKubectl compares mergepatch.Diff with
// jsonpatch.CreateMergePatch, which kubectl uses to create JSON merge
// patches, on random pairs of documents.
func TestMergePatchDiffAgainstKubectl(t *testing.T) {
	subjects, err := Subjects()
	if err != nil {
		upstreamcases.Skip(t, err)
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
