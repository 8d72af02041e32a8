package tree

import (
	"bytes"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestAttack38WholeSame: Options.Whole writes what the byte-range edits
// write (TestWholeSameInPlace's promise) where entries are added with
// comments, as a patch's are (attack, 2026-11-30).
func TestAttack38WholeSame(t *testing.T) {
	// add parses entry (a mapping of one entry, or a list of one item)
	// and appends its entry to the collection at path (keys, or item
	// indexes of one digit) of the last document
	add := func(entry string, path ...string) func(st *Stream) {
		return func(st *Stream) {
			var d yaml.Node
			if err := yaml.Unmarshal([]byte(entry), &d); err != nil {
				panic(err)
			}
			n := Root(st.Docs[len(st.Docs)-1])
			n = nodeAt(n, path...)
			n.Content = append(n.Content, d.Content[0].Content...)
		}
	}
	for _, c := range []struct {
		name, in string
		edit     func(st *Stream)
	}{
		// the splice lines up a source laid out otherwise than the
		// writer writes it without blank lines (loose): the blank line
		// inside the new entry's comment was written in place alone
		{"a blank line inside a new entry's comment, a root indented", "  - a: 1\n", add("p1:\n  # c\n\n  # q\n  p2: x", "0")},
		// a new entry ending with a block scalar then a comment, at
		// the end of a text without a final line break: its last line
		// is the comment's, which needs no line break
		{"a new block scalar's foot comment at the end without a final newline", "l:\n- a", add("- |\n  x\n# foot", "l")},
		// a foot comment ending the new lines right above the next
		// entry: yaml.v3 reads it as the next entry's head comment but
		// after a CRLF, where it was written in place without the blank
		// line the writer puts between them
		{"a new entry's foot comment before the next key, CRLF", "a: 1\r\nb: 2\r\n", func(st *Stream) {
			r := Root(st.Docs[0])
			z := []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "z", FootComment: "# foot"}, {Kind: yaml.ScalarNode, Tag: "!!int", Value: "0"}}
			r.Content = append(r.Content[:2], append(z, r.Content[2:]...)...)
		}},
		{"a new item's foot comment before the next item, CRLF", "l:\r\n- a\r\n- b\r\n", func(st *Stream) {
			l := MapGet(Root(st.Docs[0]), "l")
			z := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "z", FootComment: "# foot"}
			l.Content = append(l.Content[:1], append([]*yaml.Node{z}, l.Content[1:]...)...)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			def, whole := editedWith(t, c.in, Options{}, c.edit), editedWith(t, c.in, Options{Whole: true}, c.edit)
			if !bytes.Equal(def, whole) {
				t.Errorf("the default way writes\n%q\nOptions.Whole\n%q", def, whole)
			}
		})
	}
}
