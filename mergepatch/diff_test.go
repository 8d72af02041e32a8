package mergepatch

import (
	"strings"
	"testing"

	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/tree"
)

func readOne(t testing.TB, s string) *tree.Stream {
	t.Helper()
	st, err := tree.Read([]byte(s), tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestDiff(t *testing.T) {
	for _, c := range []struct{ original, modified, patch string }{
		{`{"a":"b"}`, `{"a":"c"}`, `{"a":"c"}`},
		{`{"a":"b"}`, `{"a":"b","b":"c"}`, `{"b":"c"}`},
		{`{"a":"b","b":"c"}`, `{"a":"b"}`, `{"b":null}`},
		{`{"a":{"b":"c","d":"e"}}`, `{"a":{"b":"x","d":"e"}}`, `{"a":{"b":"x"}}`},
		{`{"a":[{"b":"c"}]}`, `{"a":[{"b":"d"}]}`, `{"a":[{"b":"d"}]}`},
		{`{"a":{"b":"c"}}`, `{"a":[1]}`, `{"a":[1]}`},
		{`{"a":1}`, `{"a":1.0}`, `{"a":1.0}`}, // an integer and a float differ, as for an API server
		{`{"a":"b"}`, `["c"]`, `["c"]`},
		{`["a"]`, `{"a":"b"}`, `{"a":"b"}`},
		{`{"e":null}`, `{"a":1}`, `{"a":1,"e":null}`},
		{`{"a":"same"}`, `{"a":"same"}`, `{}`},
		{``, `{"a":1}`, `{"a":1}`},
	} {
		o, m := readOne(t, c.original), readOne(t, c.modified)
		var od = tree.NewNull()
		if len(o.Docs) > 0 {
			od = o.Docs[0]
		}
		p := Diff(od, m.Docs[0])
		got, _ := tree.MarshalJSON(p)
		if string(got) != c.patch {
			t.Errorf("Diff(%s, %s) = %s, want %s", c.original, c.modified, got, c.patch)
		}
		// and the patch gives modified back
		res, err := Apply(tree.Clone(od), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !tree.Equal(res, m.Docs[0]) {
			back, _ := tree.MarshalJSON(res)
			t.Errorf("Apply(%s, Diff, Options{}) = %s, want %s", c.original, back, c.modified)
		}
	}
}

// FuzzDiff checks Apply(original, Diff(original, modified), Options{}) == modified for
// documents without nulls (a merge patch cannot set a null).
func FuzzDiff(f *testing.F) {
	for _, s := range [][2]string{{`{"a":"b"}`, `{"a":"c"}`}, {`{"a":{"b":1}}`, `{"a":{"c":[1,2]},"d":true}`}, {"a: 1\nb: [x]\n", "b: {c: d}\n"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, original, modified string) {
		o, err1 := tree.Read([]byte(original), tree.Options{})
		m, err2 := tree.Read([]byte(modified), tree.Options{})
		if err1 != nil || err2 != nil || len(o.Docs) != 1 || len(m.Docs) != 1 || strings.Contains(modified, "null") || nodetest.HasNull(m.Docs[0]) {
			return
		}
		before := tree.Clone(o.Docs[0])
		p := Diff(o.Docs[0], m.Docs[0])
		if !tree.Equal(before, o.Docs[0]) {
			t.Fatal("Diff modified the original")
		}
		res, err := Apply(o.Docs[0], p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !tree.Equal(res, m.Docs[0]) {
			got, _ := tree.MarshalJSON(res)
			want, _ := tree.MarshalJSON(m.Docs[0])
			t.Fatalf("round trip: got %s, want %s", got, want)
		}
	})
}
