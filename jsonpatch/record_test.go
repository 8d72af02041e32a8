package jsonpatch_test

import (
	"strings"
	"testing"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/jsonpatch"
)

// TestRecord: what Apply records for each operation, read from the
// document as it is before the operation: list items by index (the
// identity a JSON patch uses), an add to a list an insertion ("-" the
// index after the last item), what each operation needs to exist, the
// value a move or a copy reads as a test. A patch that fails records
// nothing.
func TestRecord(t *testing.T) {
	doc := nodetest.ReadDoc(t, "m: {a: 1}\nl: [{name: x}, {name: y}]\n")
	ops := nodetest.ReadDoc(t, `- {op: replace, path: /m/a, value: 2}
- {op: add, path: /l/-, value: {name: z}}
- {op: add, path: /l/0, value: {name: w}}
- {op: remove, path: /l/1}
- {op: copy, from: /m/a, path: /m/b}
- {op: test, path: /m/b, value: 2}
`)
	log := &change.Log{}
	if _, err := jsonpatch.Apply(doc, ops, jsonpatch.Options{File: "p", Record: log}); err != nil {
		t.Fatal(err)
	}
	want := `p:1:3: needs m.a to exist
p:1:3: sets m.a to 2
p:2:3: needs l to exist
p:2:3: inserts l[2] to {"name":"z"}
p:3:3: needs l to exist
p:3:3: inserts l[0] to {"name":"w"}
p:4:3: needs l[1] to exist
p:4:3: deletes l[1]
p:5:3: needs m.a to exist
p:5:3: tests m.a is 2
p:5:3: needs m to exist
p:5:3: sets m.b to 2
p:6:3: needs m.b to exist
p:6:3: tests m.b is 2`
	if got := strings.TrimSpace(log.String()); got != want {
		t.Errorf("changes:\n%s\nwant:\n%s", got, want)
	}

	log = &change.Log{}
	bad := nodetest.ReadDoc(t, "- {op: replace, path: /m/a, value: 3}\n- {op: remove, path: /nope}\n")
	if _, err := jsonpatch.Apply(doc, bad, jsonpatch.Options{Record: log}); err == nil || len(log.Changes) > 0 {
		t.Errorf("a failed patch: %v, changes %v", err, log.Changes)
	}
}
