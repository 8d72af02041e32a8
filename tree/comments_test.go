package tree

import (
	"bytes"
	"testing"
)

// A changed line keeps the white space its source had before its comment,
// as a hand edit of the value would.
func TestChangedLineKeepsCommentGap(t *testing.T) {
	src := "spec:\n  ports:\n  - {name: http, port: 80}   # flow item\n  x: 'a # not a comment'    # c\n"
	st, err := Read([]byte(src), Options{File: "f.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	st.Snapshot()
	spec := MapGet(st.Docs[0].Content[0], "spec")
	MapGet(MapGet(spec, "ports").Content[0], "port").Value = "8080"
	MapGet(spec, "x").Value = "b # still not"
	var b bytes.Buffer
	if err := st.WriteYAML(&b); err != nil {
		t.Fatal(err)
	}
	want := "spec:\n  ports:\n  - {name: http, port: 8080}   # flow item\n  x: 'b # still not'    # c\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}
