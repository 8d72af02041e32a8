package tree

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// tagDump renders a tree's kinds, tags and values, one node a line.
func tagDump(n *yaml.Node, depth int, b *strings.Builder) {
	if n == nil {
		return
	}
	if n.Kind == yaml.DocumentNode {
		for _, c := range n.Content {
			tagDump(c, depth, b)
		}
		return
	}
	fmt.Fprintf(b, "%s%d %q %q\n", strings.Repeat(" ", depth), n.Kind, n.Tag, n.Value)
	for _, c := range n.Content {
		tagDump(c, depth+1, b)
	}
}

func dumpDocs(docs []*yaml.Node) string {
	var b strings.Builder
	for _, d := range docs {
		tagDump(d, 0, &b)
		b.WriteString("--\n")
	}
	return b.String()
}

func v3Docs(text []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var out []*yaml.Node
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if err.Error() == "EOF" {
				return out, nil
			}
			return out, err
		}
		out = append(out, &n)
	}
}

// TestAttack40Tags: every tree read writes (Stream.WriteYAML, WriteYAML)
// as text kmerge's reader and yaml.v3 read back to the same kinds, tags
// and values: tags with flow indicators, escapes, verbatim and global
// tags, on keys, flow items and empty values. The verbatim tag !<!> (or
// !<%21>) was read as the tag "!", written "!", the non-specific tag,
// read back as !!str (attack, 2026-11-30).
func TestAttack40Tags(t *testing.T) {
	for _, in := range []string{
		"!a%2Cb x\n",
		"!a%2Cb [1]\n",
		"[!a%2Cb x, y]\n",
		"!<!a,b> x\n",
		"!<!a[b]> x\n",
		"!<tag:yaml.org,2002:str> x\n",
		"!<!> x\n",
		"! x\n",
		"!<tag:example.com,2000:a,b> x\n",
		"%TAG !e! tag:example.com,2000:app/\n---\n!e!foo x\n",
		"%TAG !e! tag:example.com,2000:app/\n---\n!e!a%2Cb x\n",
		"%TAG !e! tag:ex,2000:\n---\n!e!a%5Bb x\n",
		"%TAG ! tag:ex,2000:\n---\n!a x\n",
		"!a%7Bb x\n",
		"!a%7Db x\n",
		"!a%21b x\n",
		"!a%25b x\n",
		"!a%23b x\n",
		"!é x\n",
		"!%C3%A9 x\n",
		"!<!é> x\n",
		"!<tag:é,2000:x> x\n",
		"!!a%2Cb x\n",
		"!<tag:yaml.org,2002:a,b> x\n",
		"!<tag:yaml.org,2002:> x\n",
		"!<tag:yaml.org,2002:!> x\n",
		"!a%2Cb k: v\n",
		"{!a%2Cb k: v}\n",
		"k: !a%2Cb\n",
		"k: [!a%2Cb ]\n",
		"- !a%2Cb\n- x\n",
		"{? !a%5B : v}\n",
		"!<!a,b> &x k: *x\n",
		"!<a> x\n",
		"!<a,b> x\n",
		"!<,> x\n",
		"!<[> x\n",
		"!<!,> x\n",
		"!<!!> x\n",
		"!<!!a> x\n",
		"!<!<a>> x\n",
		"!a%3Eb x\n",
		"!<!a%2Cb> x\n",
		"!<tag:a%2Cb> x\n",
		"!<%2C> x\n",
		"!a%20b x\n",
		"!a%09b x\n",
		"!a%00b x\n",
		"!a%0Ab x\n",
		"!<!a;b/c?d:e@f&g=h+i$j_k.l~m*n'o(p)q> x\n",
		"--- !a%2Cb\n--- !<!c,d>\n",
		"!a%2Cb |\n  x\n",
		"!a%2Cb\n",
		"!a%2Cb \"\"\n",
		"[!a%2Cb , !<!c,d> ]\n",
		"{!a%2Cb : !<!c]d> }\n",
		"[!<tag:ex,2000:a> x, !<tag:ex,2000:b>]\n",
		"{!<tag:ex,2000:a> k: !<tag:ex,2000:b,c> }\n",
		"!<%21> x\n",
		"!%21str x\n",
		"!<!!str> x\n",
		"!<tag:yaml.org,2002:str%2C> x\n",
		"%TAG !! tag:ex,2000:\n---\n!!a x\n",
		"%TAG !e! !pre%2C\n---\n!e!a x\n",
		"%TAG !e! tag:yaml.org,2002:\n---\n!e!str 1\n",
		"!<tag:yaml.org,2002:int> 1\n",
		"!<tag:yaml.org,2002:map> {}\n",
		"!<tag:yaml.org,2002:seq> []\n",
		"!<tag:yaml.org,2002:null> ''\n",
		"!!binary aGk=\n",
		"? !a%2Cb\n: v\n",
		"!a%2Cb\n- 1\n",
		"- !a%2Cb\n  - 1\n",
		"k: !a%5B%5D\n  x: 1\n",
		"&a !a%2Cb x\n",
		"!a%2Cb &a x\n",
	} {
		st, err := Read([]byte(in), Options{})
		if err != nil {
			continue // (refused: non-ASCII, an empty type name)
		}
		want := dumpDocs(st.Docs)
		var y bytes.Buffer
		if err := st.WriteYAML(&y); err != nil {
			t.Errorf("%q: write: %v", in, err)
			continue
		}
		back, err := Read(y.Bytes(), Options{})
		if err != nil {
			t.Errorf("%q written %q: kmerge reads: %v", in, y.String(), err)
			continue
		}
		if got := dumpDocs(back.Docs); got != want {
			t.Errorf("%q written %q: kmerge reads\n%s\nwant\n%s", in, y.String(), got, want)
		}
		var w bytes.Buffer
		if err := WriteYAML(&w, st.Style, st.Docs...); err != nil {
			t.Errorf("%q: WriteYAML: %v", in, err)
		} else {
			back, err := Read(w.Bytes(), Options{})
			if err != nil {
				t.Errorf("%q WriteYAML %q: kmerge reads: %v", in, w.String(), err)
			} else if got := dumpDocs(back.Docs); got != want {
				t.Errorf("%q WriteYAML %q: kmerge reads\n%s\nwant\n%s", in, w.String(), got, want)
			}
		}
		v, err := v3Docs(y.Bytes())
		if err != nil {
			t.Errorf("%q written %q: yaml.v3 reads: %v", in, y.String(), err)
			continue
		}
		if got := dumpDocs(v); got != want {
			t.Errorf("%q written %q: yaml.v3 reads\n%s\nwant\n%s", in, y.String(), got, want)
		}
	}
}
