package mergepatch_test

import (
	"strings"
	"testing"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/mergepatch"
)

// TestRecord: what Apply records: objects of the patch merge (into an
// object that was there, or one created in place of what was not an
// object), nulls delete, anything else is set as a whole, lists included.
func TestRecord(t *testing.T) {
	doc := nodetest.ReadDoc(t, "a: {b: 1, c: 2}\nd: x\nl: [1, 2]\n")
	patch := nodetest.ReadDoc(t, "a: {b: null, e: 3}\nd: {f: 4}\nl: [3]\n")
	log := &change.Log{}
	if _, err := mergepatch.Apply(doc, patch, mergepatch.Options{File: "p", Record: log}); err != nil {
		t.Fatal(err)
	}
	want := `p:1:1: merges into the object
p:1:1: merges into a
p:1:5: deletes a.b
p:1:14: sets a.e to 3
p:2:1: creates d
p:2:5: sets d.f to 4
p:3:1: sets l to [3]`
	if got := strings.TrimSpace(log.String()); got != want {
		t.Errorf("changes:\n%s\nwant:\n%s", got, want)
	}
}
