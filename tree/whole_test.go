package tree

import (
	"bytes"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestWholeSameInPlace: Options.Whole, which reads back every edited
// text, writes what the default writes (TestThoroughSame's promise), on
// the shapes an attack found the two ways writing otherwise when Whole
// spliced (2026-11-29): documents with anchors and aliases, which the
// splice wrote as copies, their anchors dropped, in the lines it wrote
// anew; both now write them in place, every anchor and alias kept where
// nothing under it changed (want: the source with the changed value
// alone), and a flow item with a comment inside, whose continuation line
// the writer indents otherwise (not removed and added in place).
func TestWholeSameInPlace(t *testing.T) {
	set := func(v string, path ...string) func(st *Stream) {
		return func(st *Stream) {
			n := Root(st.Docs[0])
			n = nodeAt(n, path...)
			n.Value, n.Style = v, 0
		}
	}
	for _, c := range []struct {
		name, in string
		edit     func(st *Stream)
		want     string
	}{
		{"the changed value's key anchored", "&k a: 1\nb: *k\n", set("2", "a"), "&k a: 2\nb: *k\n"},
		{"an alias in the flow collection of a changed value", "a: &k x\nl: [*k, y]\nc: 1\n", set("z", "l", "1"), "a: &k x\nl: [*k, z]\nc: 1\n"},
		{"an anchor in the flow item of a changed value", "l:\n- {a: &k x, b: y}\n- *k\n", set("z", "l", "0", "b"), "l:\n- {a: &k x, b: z}\n- *k\n"},
		{"an anchor and an alias elsewhere, a flow value changed", "a: &x 1\nb: *x\nk: {m: 1}\n", set("5", "k", "m"), "a: &x 1\nb: *x\nk: {m: 5}\n"},
		{"an alias item kept, the one before it changed", "a: &k v\nl:\n- *k\n- *k\n", set("z", "l", "0"), "a: &k v\nl:\n- z\n- *k\n"},
		{"an anchored item kept, an item added after it", "l:\n- &k v\nb: *k\n", func(st *Stream) {
			l := MapGet(Root(st.Docs[0]), "l")
			l.Content = append(l.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "w"})
		}, "l:\n- &k v\n- w\nb: *k\n"},
		// (a flow entry's value so too, before 2026-11-29)
		{"a flow item with a comment inside given an entry", "k:\n- {kind: A, # k\n   metadata: {name: a}}\nx: 1\n", func(st *Stream) {
			m := MapGet(MapGet(Root(st.Docs[0]), "k").Content[0], "metadata")
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "team"}, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "shop"})
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			def, whole := editedWith(t, c.in, Options{}, c.edit), editedWith(t, c.in, Options{Whole: true}, c.edit)
			if !bytes.Equal(def, whole) {
				t.Errorf("the default way writes\n%q\nOptions.Whole\n%q", def, whole)
			}
			if c.want != "" && string(def) != c.want {
				t.Errorf("written\n%q\nwant\n%q", def, c.want)
			}
		})
	}
}

// editedWith reads in with opts, takes a snapshot, edits the stream and
// returns what WriteYAML writes: the default way's text, or with
// Options.Whole the general way's, for the tests that compare the two.
func editedWith(t *testing.T, in string, opts Options, edit func(st *Stream)) []byte {
	t.Helper()
	st, err := Read([]byte(in), opts)
	if err != nil {
		t.Fatal(err)
	}
	st.Snapshot()
	edit(st)
	var b bytes.Buffer
	if err := st.WriteYAML(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
