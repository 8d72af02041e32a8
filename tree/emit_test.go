package tree

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// emitStyles are the styles the writer is compared with yaml.v3's encoder
// in.
var emitStyles = []Style{{Indent: 2}, {Indent: 4}, {Indent: 2, CompactSequences: true}, {Indent: 4, CompactSequences: true}, {Indent: 3}}

// checkEmit compares emitYAML with yaml.v3's encoder (encodeV3) on doc:
// where the writer writes the document, the bytes must be the encoder's.
// It reports whether the writer wrote it.
func checkEmit(t *testing.T, name string, doc *yaml.Node, st Style) bool {
	t.Helper()
	doc = encodable(doc)
	var want bytes.Buffer
	if err := encodeV3(&want, st, doc); err != nil {
		return false
	}
	got, ok := emitYAML(nil, doc, st)
	if ok && !bytes.Equal(got, want.Bytes()) {
		t.Errorf("%s, style %+v: the writer writes\n%s\nyaml.v3 writes\n%s", name, st, got, want.Bytes())
	}
	return ok
}

// TestEmitCorpus: on every document of this package's corpora, and on each
// entry of their mappings alone in a document of its ancestors (what
// rerender writes), the writer writes what yaml.v3 writes, or declines;
// and it writes most of them.
func TestEmitCorpus(t *testing.T) {
	inputs := outlineInputs(t)
	written, tried := 0, 0
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		st, err := Read(inputs[name], Options{})
		if err != nil || st.Format != YAML {
			continue
		}
		for i, doc := range st.Docs {
			for _, style := range emitStyles {
				tried++
				if checkEmit(t, fmt.Sprintf("%s doc %d", name, i), doc, style) {
					written++
				}
			}
			// every entry, in a document of one entry per ancestor
			var walk func(n *yaml.Node, wrap func(*yaml.Node) *yaml.Node)
			walk = func(n *yaml.Node, wrap func(*yaml.Node) *yaml.Node) {
				if n.Kind != yaml.MappingNode {
					return
				}
				for j := 0; j+1 < len(n.Content); j += 2 {
					entry := &yaml.Node{Kind: yaml.MappingNode, Content: n.Content[j : j+2]}
					tried++
					if checkEmit(t, fmt.Sprintf("%s doc %d entry %s", name, i, n.Content[j].Value), wrap(entry), st.Style) {
						written++
					}
					key := n.Content[j]
					walk(n.Content[j+1], func(c *yaml.Node) *yaml.Node {
						return wrap(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: key.Value}, c}})
					})
				}
			}
			walk(Root(doc), func(c *yaml.Node) *yaml.Node { return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{c}} })
		}
	}
	if written*5 < tried*2 {
		t.Errorf("the writer wrote %d of %d documents", written, tried)
	}
}

// TestEmitGenerated: on random trees of the shapes manifests have, with
// strings of every kind (plain words, numbers as strings, YAML's words,
// indicators, quotes, spaces, long text, line breaks, non-ASCII), every
// scalar style, comments everywhere, the writer writes what yaml.v3 writes
// or declines.
func TestEmitGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 26))
	written := 0
	const n = 6000
	for i := range n {
		doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{genMapping(r, 0)}}
		if checkEmit(t, fmt.Sprintf("tree %d", i), doc, emitStyles[i%len(emitStyles)]) {
			written++
		}
	}
	if written < n/20 {
		t.Errorf("the writer wrote %d of %d trees", written, n)
	}
	// strings alone, as values
	for i := range 30000 {
		v := genScalar(r)
		doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Content: []*yaml.Node{NewString("k"), v}}}}
		checkEmit(t, fmt.Sprintf("scalar %d %q", i, v.Value), doc, Style{Indent: 2})
	}
}

var genWords = []string{
	"app", "web", "a b", "a  b", "x:y", "x: y", "a #b", "a#b", "1a", "500m", "1Gi", "2d", "0x1F", "1e3", "1_000", "1:20",
	"12", "-1", "+1", ".5", ".inf", "true", "True", "TRUE", "false", "null", "Null", "~", "yes", "No", "on", "OFF", "y", "n",
	"=", "<<", "-", "-a", "- a", "?", "? a", "a?", ":a", "a:", "@a", "`a", "!a", "&a", "*a", "%a", "|", ">", "'a", "\"a",
	"a'b", "a\"b", "a\\b", "{a}", "[a]", "a,b", "a, b", "#a", " a", "a ", "", "é", "a\tb", "a\nb", "a\n", "2001-12-14",
	"2001-12-14t21:59:43.10-05:00", "registry.example.com/app:2.0.0", "example.com/owner", "/etc/config", "_x", "a=b", "a+b",
	"a@b", "a;b", "a(b)", "a%b", "a~b", "a^b", "a$b", "a|b", "a>b", "a<b", "0", "00", "007", "0o17", "0b1", "1.", "1.0",
	"ConfigMap", "apps/v1", "LOG_LEVEL", "--port=8080", "-x", "--", "-a b", "-1a", "--1", "-_", "-/", "---", "--- a", "...", "http://x.y/z?q=1&r=2", "a/b:c@d", "v1.2.3-rc.1+build.5",
}

func genText(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		// random characters
		const chars = "abcXYZ019 -_./:@=+,#'\"\\!&*%?[]{}|>~`\t\néü"
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(string([]rune(chars)[r.IntN(len([]rune(chars)))]))
		}
		return b.String()
	case 1:
		// long text
		s := strings.Repeat(genWords[r.IntN(len(genWords))]+" ", 2+r.IntN(20))
		return s[:min(len(s), 20+r.IntN(80))]
	}
	return genWords[r.IntN(len(genWords))]
}

func genScalar(r *rand.Rand) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: genText(r)}
	switch r.IntN(10) {
	case 0:
		n.Tag, n.Value = "!!int", fmt.Sprint(r.IntN(2000)-1000)
	case 1:
		n.Tag, n.Value = "!!bool", []string{"true", "false"}[r.IntN(2)]
	case 2:
		n.Tag, n.Value = "!!null", []string{"null", "~", ""}[r.IntN(3)]
	case 3:
		n.Tag, n.Value = "!!float", []string{"1.5", "1e3", ".5", "-0.25"}[r.IntN(4)]
	case 4:
		n.Style = []yaml.Style{yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle, yaml.LiteralStyle, yaml.FoldedStyle, yaml.FlowStyle}[r.IntN(5)]
	case 5:
		n.Tag = ""
	}
	if r.IntN(8) == 0 {
		n.LineComment = "# " + genWords[r.IntN(len(genWords))]
	}
	return n
}

func genComment(r *rand.Rand) string {
	switch r.IntN(12) {
	case 0:
		return "# one"
	case 1:
		return "# one\n# two"
	case 2:
		return "# one\n\n# after a blank line"
	}
	return ""
}

func genMapping(r *rand.Rand, depth int) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if r.IntN(30) == 0 {
		m.Style = yaml.FlowStyle
	}
	seen := map[string]bool{}
	for range 1 + r.IntN(4) {
		k := genWords[r.IntN(len(genWords))]
		if r.IntN(3) > 0 {
			k = []string{"name", "image", "env", "labels", "spec", "metadata", "ports", "x.y/z", "a_b"}[r.IntN(9)]
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		key := NewString(k)
		key.HeadComment = genComment(r)
		if r.IntN(15) == 0 {
			key.LineComment = "# on the key"
		}
		m.Content = append(m.Content, key, genValue(r, depth+1))
	}
	if r.IntN(40) == 0 {
		m.Content[len(m.Content)-2].FootComment = "# foot"
	}
	return m
}

func genValue(r *rand.Rand, depth int) *yaml.Node {
	switch x := r.IntN(10); {
	case depth < 4 && x < 3:
		return genMapping(r, depth)
	case depth < 4 && x < 5:
		s := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if r.IntN(30) == 0 {
			s.Style = yaml.FlowStyle
		}
		for range r.IntN(4) {
			var it *yaml.Node
			switch r.IntN(3) {
			case 0:
				it = genScalar(r)
			case 1:
				it = genMapping(r, depth+1)
			default:
				it = genValue(r, depth+1)
			}
			if r.IntN(10) == 0 {
				it.HeadComment = "# item"
			}
			s.Content = append(s.Content, it)
		}
		return s
	case x == 5:
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	return genScalar(r)
}

// FuzzEmit: on every document any input reads as, in every style, the
// writer writes what yaml.v3 writes, or declines.
func FuzzEmit(f *testing.F) {
	for _, data := range outlineInputs(f) {
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, src string) {
		lim := Limits{MaxBytes: 1 << 16, MaxDocuments: 50, MaxDepth: 50, MaxNodes: 5000}
		st, err := Read([]byte(src), Options{Limits: &lim})
		if err != nil {
			return
		}
		for i, doc := range st.Docs {
			for _, style := range emitStyles {
				checkEmit(t, fmt.Sprintf("doc %d", i), doc, style)
			}
		}
	})
}
