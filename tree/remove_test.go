package tree

import (
	"bytes"
	"testing"
)

// TestRemove: a removed document is left out of what WriteYAML writes, with
// the text that belongs to it (its "---" line, its comments, the blank
// lines after it); the other documents keep their text, edited or not.
// Each expected output is the input with the removed document's lines cut
// out by hand (and, where a document is edited, that line changed, keeping the space before its comment as the writer does).
func TestRemove(t *testing.T) {
	const three = "# head\napiVersion: v1\nkind: A # a\n---\n# b's comment\napiVersion: v1\nkind: B\n\n---\napiVersion: v1\nkind: C   # c\n"
	cases := []struct {
		name    string
		in      string
		remove  []int
		edit    int // a document whose kind becomes "Edited", -1 for none
		outline bool
		want    string
	}{
		{name: "first", in: three, remove: []int{0}, edit: -1,
			want: "---\n# b's comment\napiVersion: v1\nkind: B\n\n---\napiVersion: v1\nkind: C   # c\n"},
		{name: "middle", in: three, remove: []int{1}, edit: -1,
			want: "# head\napiVersion: v1\nkind: A # a\n---\napiVersion: v1\nkind: C   # c\n"},
		{name: "last", in: three, remove: []int{2}, edit: -1,
			want: "# head\napiVersion: v1\nkind: A # a\n---\n# b's comment\napiVersion: v1\nkind: B\n\n"},
		{name: "all", in: three, remove: []int{0, 1, 2}, edit: -1, want: ""},
		{name: "twice", in: three, remove: []int{1, 1}, edit: -1,
			want: "# head\napiVersion: v1\nkind: A # a\n---\napiVersion: v1\nkind: C   # c\n"},
		{name: "and an edit", in: three, remove: []int{1}, edit: 2,
			want: "# head\napiVersion: v1\nkind: A # a\n---\napiVersion: v1\nkind: Edited   # c\n"},
		{name: "outlines", in: three, remove: []int{0}, edit: 2, outline: true,
			want: "---\n# b's comment\napiVersion: v1\nkind: B\n\n---\napiVersion: v1\nkind: Edited   # c\n"},
		{name: "one document", in: "apiVersion: v1\nkind: A\n", remove: []int{0}, edit: -1, want: ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := Options{File: "in.yaml"}
			if c.outline {
				opts.Outline = testOutline
			}
			st, err := Read([]byte(c.in), opts)
			if err != nil {
				t.Fatal(err)
			}
			st.Snapshot()
			if c.edit >= 0 {
				if err := st.Load(c.edit); err != nil {
					t.Fatal(err)
				}
				MapGet(Root(st.Docs[c.edit]), "kind").Value = "Edited"
			}
			for _, i := range c.remove {
				st.Remove(i)
			}
			for _, i := range c.remove {
				if !st.Removed(i) {
					t.Errorf("Removed(%d) is false", i)
				}
			}
			if got := string(write(t, st)); got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
			if len(st.Docs) != 3 && len(st.Docs) != 1 {
				t.Errorf("Docs has %d documents: Remove keeps them", len(st.Docs))
			}
		})
	}
}

// TestRemoveWithoutSnapshot: without a snapshot, and in JSON, the removed
// documents are left out of yaml.v3's and the JSON writer's output.
func TestRemoveWithoutSnapshot(t *testing.T) {
	st, err := Read([]byte("a: 1\n---\nb: 2\n---\nc: 3\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Remove(1)
	if got, want := string(write(t, st)), "a: 1\n---\nc: 3\n"; got != want {
		t.Errorf("YAML: got %q, want %q", got, want)
	}
	var b bytes.Buffer
	if err := st.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if got, want := b.String(), "{\n    \"a\": 1\n}\n{\n    \"c\": 3\n}\n"; got != want {
		t.Errorf("JSON: got %q, want %q", got, want)
	}
}
