package tree

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// Attack of 2026-11-30 on flow collections replaced on their line
// (flowReplaced), the first entry of a later document cut (removedLines,
// ownText), documents with anchors, aliases and merge keys edited in place
// (expandsTo) and Options.Whole (every edited document read back).

// a45Run reads in with opts, loads every document (outlines), applies
// pre, snapshots, applies edit and writes.
func a45Run(in string, opts Options, pre, edit func(*Stream)) (*Stream, []byte, string) {
	st, err := Read([]byte(in), opts)
	if err != nil {
		return nil, nil, "read: " + err.Error()
	}
	for i := range st.Docs {
		if err := st.Load(i); err != nil {
			return nil, nil, "load: " + err.Error()
		}
	}
	if pre != nil {
		// (Snapshot, edits, Snapshot again: the second snapshot is not
		// what the text reads as)
		st.Snapshot()
		pre(st)
	}
	st.Snapshot()
	edit(st)
	var b bytes.Buffer
	if err := st.WriteYAML(&b); err != nil {
		return st, nil, "write: " + err.Error()
	}
	return st, b.Bytes(), ""
}

// a45V3 decodes text's documents with yaml.v3 into Go values (aliases and
// merge keys expanded by yaml.v3).
func a45V3(text []byte) ([]any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var out []any
	for {
		var v any
		if err := dec.Decode(&v); err != nil {
			if err.Error() == "EOF" {
				return out, nil
			}
			return out, err
		}
		if v != nil {
			out = append(out, v)
		}
	}
}

type a45Result struct {
	out     []byte
	direct  []byte
	inPlace bool
}

// a45Check: no panic; the output reads (Read, and yaml.v3 with aliases
// expanded) as the edited documents; replaceValues' text, when it writes
// one, reads so too, every comment of a one-document stream on its node;
// determinism; Options.Whole writes the same bytes; an outlined read
// writes what reads the same.
func a45Check(in string, pre, edit func(*Stream)) (res a45Result, bad string) {
	defer func() {
		if r := recover(); r != nil {
			bad = fmt.Sprintf("panic: %v", r)
		}
	}()
	st, out, e := a45Run(in, Options{}, pre, edit)
	if e != "" {
		if strings.HasPrefix(e, "read:") {
			return res, "skip"
		}
		return res, e
	}
	res.out = out
	docsOK := func(text []byte, what string, comments bool) string {
		back, err := Read(text, Options{})
		if err != nil && strings.Contains(err.Error(), "is already defined") {
			return "skip" // (the generator's: two keys made the same)
		}
		if err != nil || len(back.Docs) != len(st.Docs) {
			return fmt.Sprintf("%s: does not read as %d documents (%v): %q", what, len(st.Docs), err, text)
		}
		for i := range back.Docs {
			if !Equal(back.Docs[i], st.Docs[i]) {
				return fmt.Sprintf("%s: document %d reads otherwise: %q", what, i, text)
			}
		}
		v3, err := a45V3(text)
		if err != nil {
			return fmt.Sprintf("%s: yaml.v3: %v: %q", what, err, text)
		}
		var mine bytes.Buffer
		for _, d := range st.Docs {
			b, err := yaml.Marshal(a45Nulls(d))
			if err != nil {
				return ""
			}
			mine.WriteString("---\n")
			mine.Write(b)
		}
		want, err := a45V3(mine.Bytes())
		if err == nil && !reflect.DeepEqual(v3, want) {
			// (yaml.v3's encoder writes some texts it reads otherwise:
			// the writer's own text of the documents decides then)
			var plain bytes.Buffer
			if WriteYAML(&plain, st.Style, st.Docs...) == nil {
				want, err = a45V3(plain.Bytes())
			}
		}
		if err == nil && !reflect.DeepEqual(v3, want) {
			return fmt.Sprintf("%s: yaml.v3 reads otherwise: %v / %v: %q", what, v3, want, text)
		}
		if comments {
			for i := range back.Docs {
				if p := commentsDiffer(back.Docs[i], st.Docs[i]); p != "" && !footsMovedOnly(back.Docs[i], st.Docs[i]) {
					return fmt.Sprintf("%s: document %d: the comments of %s read otherwise: %q", what, i, p, text)
				}
			}
		}
		if !sameStreamComments(back.Docs, st.Docs) && (comments || pre == nil) {
			return fmt.Sprintf("%s: comment lines lost or added: %q", what, text)
		}
		return ""
	}
	if b := docsOK(out, "WriteYAML", false); b != "" {
		if b == "skip" {
			return res, b
		}
		return res, b
	}
	if pre == nil {
		direct, ok := replaceAll(st)
		res.direct, res.inPlace = direct, ok
		if ok {
			if b := docsOK(direct, "replaceValues", true); b != "" {
				if a45Proven(st) {
					return res, "PROVEN " + b
				}
				return res, "unproven " + b
			}
		}
	}
	_, again, _ := a45Run(in, Options{}, pre, edit)
	if !bytes.Equal(again, out) {
		return res, fmt.Sprintf("not deterministic: %q then %q", out, again)
	}
	_, whole, e := a45Run(in, Options{Whole: true}, pre, edit)
	if e != "" {
		return res, "whole: " + e
	}
	if !bytes.Equal(whole, out) {
		return res, fmt.Sprintf("whole %q, default %q", whole, out)
	}
	_, outl, e := a45Run(in, Options{Outline: testOutline}, pre, edit)
	if e != "" {
		return res, "outlined: " + e
	}
	if b := docsOK(outl, "outlined", false); b != "" {
		return res, b
	}
	return res, ""
}

// a45Flows are flow collections' texts, and a45Places the texts around
// one (F marks where).
var a45Flows = []string{
	"[a, b]", "[a,b]", "[ a , b ]", "[]", "{}", "{a: 1, b: 2}", `{"a": 1, 'b': 2}`,
	"[[a, b], [c]]", "[{a: 1}, {b: 2}]", "{a: [1, 2], b: {c: d}}", "!!set {a, b}", "!t [a]",
	"[!t a, b]", `["x", 'y']`, "[a, b,]", `[null, ~, ""]`, "[1, 2.0, true]", "{a, b}",
	"{? a : b}", "[a: 1, b]", "[a, b\n  ]", "!!seq [a]", "{a: }", "[ ]", "{ }",
	"[\"a,b\", 'c]']", "[-1, .inf]", "[a, 'it''s']", "[\"\\t\"]",
}

var a45Places = []string{
	"k: F\n", "k: F # c\n", "k: F    #   c\n", "k: F\t# c\n", "- F\n- x\n", "k:\n  - F\n  - y\n",
	"F\n", "--- F\n", "a: 1\n--- F # c\n", "k: F", "k: F\nj: 2\n---\nb: 2\n", "k: F\n...\n",
	"? F\n: v\n", "- - F\n", "k:\n  m: F # c\n  n: 1\n", "# head\nk: F\n# foot\n", "k: !t F\n",
	"{\"a\": F, \"b\": 1}\n", "k: F\n\n\n", "k: F \n", "%YAML 1.1\n--- F\n",
}

var a45Values = []string{
	"a,b", "{", "]", ": ", "#", "a #b", "", "~", "null", "- x", "*x", "&x", "!x", "\"", "'",
	"x\ny", strings.Repeat("long", 40), "@", "`", "%", "? x", "true", "1", "é", "a\tb", " a", "a ",
	"[a]", "{a: 1}", "x: y", "a]b", "a}b", "--- x", "...",
}

// a45FlowNodes returns the flow collections under n (n included).
func a45FlowNodes(n *yaml.Node, out []*yaml.Node) []*yaml.Node {
	if n == nil {
		return out
	}
	if (n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode) && n.Style&yaml.FlowStyle != 0 {
		out = append(out, n)
	}
	for _, c := range n.Content {
		out = a45FlowNodes(c, out)
	}
	return out
}

func a45Scalar(r *rand.Rand) *yaml.Node {
	switch r.IntN(8) {
	case 0:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: ""}
	case 1:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(r.IntN(100))}
	case 2:
		return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{NewString("p"), NewString(a45Values[r.IntN(len(a45Values))])}}
	case 3:
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Content: []*yaml.Node{NewString("q"), NewString(a45Values[r.IntN(len(a45Values))])}}
	}
	return NewString(a45Values[r.IntN(len(a45Values))])
}

// a45FlowEdit edits flow collection f: entries appended, removed,
// swapped, emptied, keys added.
func a45FlowEdit(f *yaml.Node, r *rand.Rand) {
	switch op := r.IntN(6); {
	case op == 0 || len(f.Content) == 0:
		if f.Kind == yaml.MappingNode {
			k := a45Values[r.IntN(len(a45Values))]
			if MapIndex(f, k) < 0 {
				f.Content = append(f.Content, NewString(k), a45Scalar(r))
			}
		} else {
			f.Content = append(f.Content, a45Scalar(r))
		}
	case op == 1:
		if f.Kind == yaml.MappingNode {
			i := r.IntN(len(f.Content)/2) * 2
			f.Content = append(f.Content[:i:i], f.Content[i+2:]...)
		} else {
			i := r.IntN(len(f.Content))
			f.Content = append(f.Content[:i:i], f.Content[i+1:]...)
		}
	case op == 2:
		if f.Kind == yaml.MappingNode && len(f.Content) >= 4 {
			c := append([]*yaml.Node{}, f.Content[2:4]...)
			f.Content = append(c, append(f.Content[:2:2], f.Content[4:]...)...)
		} else if f.Kind == yaml.SequenceNode && len(f.Content) >= 2 {
			f.Content[0], f.Content[1] = f.Content[1], f.Content[0]
		}
	case op == 3:
		f.Content = nil
	case op == 4:
		// an entry replaced and one added
		if f.Kind == yaml.SequenceNode {
			f.Content[0] = a45Scalar(r)
			f.Content = append(f.Content, a45Scalar(r))
		} else {
			f.Content[1] = a45Scalar(r)
			f.Content = append(f.Content, NewString("zz"+fmt.Sprint(r.IntN(9))), a45Scalar(r))
		}
	case op == 5:
		// many entries: a long line
		for range 30 {
			if f.Kind == yaml.SequenceNode {
				f.Content = append(f.Content, NewString("item-"+fmt.Sprint(r.IntN(1000))))
			} else {
				f.Content = append(f.Content, NewString(fmt.Sprintf("key%d", len(f.Content))), NewString("v"))
			}
		}
	}
}

type a45Stats struct {
	cases, skipped, inPlace, bad, unproven int
	log                                    func(in string, out []byte)
	seen                                   int // (raceSkip)
}

// fail counts bad, a failure of in, if any, and reports the first 15.
func (s *a45Stats) fail(t *testing.T, in, bad string) {
	t.Helper()
	if bad != "" {
		s.bad++
		if s.bad <= 15 {
			t.Errorf("%q: %s", in, bad)
		}
	}
}

func (s *a45Stats) run(t *testing.T, in string, pre, edit func(*Stream)) {
	t.Helper()
	if raceSkip(&s.seen) {
		return
	}
	res, bad := a45Check(in, pre, edit)
	if bad == "skip" {
		s.skipped++
		return
	}
	s.cases++
	if res.inPlace {
		s.inPlace++
		if s.log != nil {
			s.log(in, res.direct)
		}
	}
	if strings.HasPrefix(bad, "unproven ") {
		s.unproven++
		if s.unproven <= 3 || os.Getenv("A45V") != "" {
			t.Logf("unproven (read back, retried): %q: %s", in, bad)
		}
		return
	}
	s.fail(t, in, bad)
}

// TestAttack45Flows edits every flow collection of every place × flow,
// CRLF too, through a45Check.
func TestAttack45Flows(t *testing.T) {
	var s a45Stats
	seen := map[string]bool{}
	s.log = func(in string, out []byte) {
		a, b := strings.SplitAfter(in, "\n"), strings.SplitAfter(string(out), "\n")
		diff := 0
		for i := range max(len(a), len(b)) {
			if i >= len(a) || i >= len(b) || a[i] != b[i] {
				diff++
			}
		}
		if diff > 1 && len(seen) < 40 && !seen[in] && !strings.ContainsAny(in, "[{") == false && !strings.Contains(in, "[]") && !strings.Contains(in, "{}") && !strings.Contains(in, "[ ]") && !strings.Contains(in, "{ }") {
			seen[in] = true
			t.Logf("%d lines: %q -> %q", diff, in, out)
		}
	}
	for pi, p := range a45Places {
		for fi, f := range a45Flows {
			for _, crlf := range []bool{false, true} {
				in := strings.ReplaceAll(p, "F", f)
				if crlf {
					in = strings.ReplaceAll(in, "\n", "\r\n")
				}
				base, err := Read([]byte(in), Options{})
				if err != nil {
					s.skipped++
					continue
				}
				var nflows int
				for _, d := range base.Docs {
					nflows += len(a45FlowNodes(d, nil))
				}
				for fl := range nflows {
					for seed := range uint64(a45Seeds(12)) {
						edit := func(st *Stream) {
							var all []*yaml.Node
							for _, d := range st.Docs {
								all = a45FlowNodes(d, all)
							}
							if fl < len(all) {
								a45FlowEdit(all[fl], rand.New(rand.NewPCG(seed, uint64(pi*1000+fi))))
							}
						}
						s.run(t, in, nil, edit)
					}
				}
			}
		}
	}
	t.Logf("flows: %d cases, %d in place, %d skipped, %d bad", s.cases, s.inPlace, s.skipped, s.bad)
}

// a45Nulls returns a copy of n whose null scalars read "null" (yaml.v3's
// encoder writes a !!null "" as ”).
func a45Nulls(n *yaml.Node) *yaml.Node {
	c := *n
	if c.Kind == yaml.ScalarNode && c.Tag == "!!null" {
		c.Value = "null"
		c.Style = 0
	}
	c.Content = nil
	for _, k := range n.Content {
		c.Content = append(c.Content, a45Nulls(k))
	}
	return &c
}

// a45Seps are the texts between two documents (after the first's last
// line), a45Firsts the first entries of the second.
var a45Seps = []string{
	"---\n", "---\n\n", "---\n# c1\n\n", "---\n# c1\n# c2\n\n", "---\n# c1\n\n# head\n", "---\n  # ind\n\n",
	"# before\n---\n", "...\n---\n", "...\n%YAML 1.1\n---\n", "...\n# after dots\n\n---\n", "--- # on marker\n",
	"---\n# c1\n\n\n", "---\n\n# c1\n\n", "---\n#\n\n", "---\n# c1\n  \n", "---\n# c1\n\t\n", "\n---\n# c1\n\n",
	"---\n# lent\n\n# head of b\n\n", "---\n--- \n", "...\n", "---\n# c\n\n---\n", "---\n# head\n",
}

var a45Firsts = []string{
	"b: 1\n", "b: 1 # line\n", "b:\n  - x\n  - y\n", "b:\n- x\n", "b:\n  m: 1\n", "b: |\n  text\n\n", "b: >-\n  t\n",
	"# hb\nb: 1\n", "b: [x, y]\n", "b: {x: 1}\n", "b: 1\n# foot b\n", "b: 1\n\n", "\"b\": 1\n", "? b\n: 1\n",
	"b: 1\n  # indented after\n", "b: &an 1\n", "b: !t 1\n", "b:\n",
}

var a45Rests = []string{"k: x\n", "k: x\n# end\n", "k: x", "k:\n  - 1\n", "# mid\nk: x\nz: 2\n", "k: x\n\n# foot\n"}

// TestAttack45LaterFirst removes (and replaces, and adds after) the first
// entry of a later document in every layout of a45Seps × a45Firsts ×
// a45Rests, LF and CRLF.
func TestAttack45LaterFirst(t *testing.T) {
	var s a45Stats
	edits := []func(*Stream){
		func(st *Stream) { r := Root(st.Docs[1]); r.Content = r.Content[2:] },
		func(st *Stream) { r := Root(st.Docs[1]); r.Content = r.Content[2:]; MapSet(r, "n", NewString("new")) },
		func(st *Stream) { r := Root(st.Docs[1]); r.Content[1] = NewString("v") },
		func(st *Stream) {
			r := Root(st.Docs[1])
			r.Content = r.Content[2:]
			MapSet(Root(st.Docs[0]), "a", NewString("2"))
		},
		func(st *Stream) {
			r := Root(st.Docs[1])
			r.Content = append([]*yaml.Node{NewString("n0"), NewString("x")}, r.Content[2:]...)
		},
		func(st *Stream) {
			r := Root(st.Docs[1])
			r.Content = r.Content[2:]
			if len(st.Docs) > 2 && Root(st.Docs[2]) != nil && len(Root(st.Docs[2]).Content) >= 2 {
				r2 := Root(st.Docs[2])
				r2.Content = r2.Content[2:]
			}
		},
	}
	n := 0
	for _, sep := range a45Seps {
		for _, f := range a45Firsts {
			for _, rest := range a45Rests {
				for _, third := range []string{"", "---\n# t\n\nq: 1\nw: 2\n"} {
					for _, crlf := range []bool{false, true} {
						if n++; n%6 != 0 && os.Getenv("ATTACK45_FULL") == "" {
							continue // (one in six)
						}
						in := "a: 1\n" + sep + f + rest
						if third != "" {
							if !strings.HasSuffix(in, "\n") {
								continue
							}
							in += third
						}
						if crlf {
							in = strings.ReplaceAll(in, "\n", "\r\n")
						}
						base, err := Read([]byte(in), Options{})
						if err != nil || len(base.Docs) < 2 || Root(base.Docs[1]) == nil || Root(base.Docs[1]).Kind != yaml.MappingNode || len(Root(base.Docs[1]).Content) < 2 {
							s.skipped++
							continue
						}
						for _, e := range edits {
							s.run(t, in, nil, e)
						}
					}
				}
			}
		}
	}
	t.Logf("later first: %d cases, %d in place, %d skipped, %d bad", s.cases, s.inPlace, s.skipped, s.bad)
}

// a45Anchored are documents with anchors, aliases and merge keys.
var a45Anchored = []string{
	"base: &b\n  x: 1\n  y: 2\nc:\n  <<: *b\n  y: 3\nz: 1\n",
	"a: &x 1\nb: *x\nc: 2\n",
	"l:\n- &i {n: 1}\n- *i\n- n: 2\n",
	"a: &a 1\nb: *a\nc: &a 2\nd: *a\ne: 3\n",
	"m:\n  &k key: v\n  other: *k\n  z: 1\n",
	"a: &k kk\nm:\n  *k : v\n  n: 1\n",
	"a: &x 1\nl: [*x, 2]\nm: {p: *x, q: 3}\n",
	"a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3\nw: 1\n",
	"a: &a {x: 1, y: 1}\nc:\n  <<: *a\n  x: 5\nd:\n  x: 6\n  <<: *a\n",
	"c:\n  <<: {x: 1}\n  y: 2\nd: 1\n",
	"a: &o\n  i: &in 1\n  j: 2\nb: *o\nc: *in\nd: 0\n",
	"a: &x 1\n---\nb: *x\nc: 2\n",
	"a: &x 1\nb: 2\n---\nc: *x\nd: 3\n",
	"l:\n- &i\n  n: 1\n  m: 2\n- *i\n- x\n",
	"&r\na: 1\nb: 2\n",
	"x-defaults: &d\n  image: nginx\n  ports: [80]\nspec:\n  containers:\n  - <<: *d\n    name: a\n  - <<: *d\n    name: b\n",
	"b: &b {y: 2, x: 1}\nc:\n  <<: *b\n  y: 3\ne: 1\n",
	"a: &s [1, 2]\nb: *s\nc:\n- *s\n- 3\n",
	"a: &n\nb: *n\nc: 1\n",
	"a: &x !t 1\nb: *x\nc: 2 # c\n",
	"# head\na: &x 1 # a\n# about b\nb: *x # b\nc: 2\n",
	"a: &x 1\r\nb: *x\r\nc: 2\r\n",
	"a: &x 1\nb: *x\nc: 2",
	"b: &b {p: v}\nc:\n  <<: *b\n  q: v\n",
	"b: &b {p: v, q: v}\nc:\n  q: v\n  <<: *b\n",
	"a: &x |\n  text\nb: *x\nc: 1\n",
	"a: &x\n  - 1\n  - 2\nb:\n  <<: {}\n  k: *x\n",
	"b: &b {x: 1}\nl:\n- <<: *b\n  y: 1\n- <<: *b\n  y: 2\n",
	"a: &x 1\nl: [p, q] # c\nb: *x\n",
	"b: &b {p: 1}\nm: {<<: *b, q: 1}\nz: 0\n",
	"b: &b {p: 1}\nm: {q: 1, <<: *b}\nz: 0\n",
	"a: &x [1, [2, 3]]\nb: *x\nc: [4, 5]\n",
	"a: &x {k: [1, 2]}\nb: [*x, {j: 1}]\n",
	"l: [&x a, b, *x]\nm: [c, d]\n",
	"--- &r {a: 1, b: [x, y]}\n",
	"a: &x 1\n---\n# lent\n\nb: *x\nc: 2\n---\nd: [1, 2]\n",
	"a: 1\n---\n# lent\n\nb: &y 2\nc: *y\nd: [1, 2]\n",
	"m: {&k a: 1, b: 2}\nn: *k\n",
}

// a45AllNodes returns n's nodes, parents before children.
func a45AllNodes(n *yaml.Node, out []*yaml.Node) []*yaml.Node {
	if n == nil {
		return out
	}
	out = append(out, n)
	for _, c := range n.Content {
		out = a45AllNodes(c, out)
	}
	return out
}

// a45RandomEdit edits a random node of a random document.
func a45RandomEdit(st *Stream, r *rand.Rand) {
	d := st.Docs[r.IntN(len(st.Docs))]
	all := a45AllNodes(Root(d), nil)
	if len(all) == 0 {
		return
	}
	n := all[r.IntN(len(all))]
	switch n.Kind {
	case yaml.ScalarNode:
		switch r.IntN(3) {
		case 0:
			n.Value, n.Tag, n.Style = fmt.Sprint(r.IntN(100)), "!!int", 0
		case 1:
			n.Value, n.Tag, n.Style = a45Values[r.IntN(len(a45Values))], "!!str", 0
		case 2:
			// (not on a key: "k: [a] # c" given a comment on k is
			// written "k: [a] # new # c", one comment; the writer's)
			key := false
			for _, m := range all {
				for i := 0; m.Kind == yaml.MappingNode && i < len(m.Content); i += 2 {
					key = key || m.Content[i] == n
				}
			}
			if !key {
				n.LineComment = "# new"
			}
		}
	case yaml.MappingNode:
		if len(n.Content) == 0 || r.IntN(2) == 0 {
			k := []string{"x", "y", "p", "q", "new", "m", "n"}[r.IntN(7)]
			if MapIndex(n, k) < 0 {
				n.Content = append(n.Content, NewString(k), a45Scalar(r))
			} else {
				MapDelete(n, k)
			}
		} else {
			i := r.IntN(len(n.Content)/2) * 2
			n.Content = append(n.Content[:i:i], n.Content[i+2:]...)
		}
	case yaml.SequenceNode:
		switch {
		case len(n.Content) == 0 || r.IntN(3) == 0:
			n.Content = append(n.Content, a45Scalar(r))
		case r.IntN(2) == 0 && len(n.Content) >= 2:
			n.Content[0], n.Content[1] = n.Content[1], n.Content[0]
		default:
			i := r.IntN(len(n.Content))
			n.Content = append(n.Content[:i:i], n.Content[i+1:]...)
		}
	}
}

// TestAttack45Anchors edits documents with anchors, aliases and merge
// keys at random nodes, one or two edits, a Snapshot taken before or
// after a first edit.
func TestAttack45Anchors(t *testing.T) {
	var s a45Stats
	for di, in := range a45Anchored {
		for seed := range uint64(a45Seeds(300)) {
			r := func(salt uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(di)*7+salt)) }
			edit := func(st *Stream) { a45RandomEdit(st, r(1)) }
			edit2 := func(st *Stream) { a45RandomEdit(st, r(1)); a45RandomEdit(st, r(2)) }
			pre := func(st *Stream) { a45RandomEdit(st, r(3)) }
			s.run(t, in, nil, edit)
			s.run(t, in, nil, edit2)
			s.run(t, in, pre, edit)
		}
	}
	t.Logf("anchors: %d cases, %d in place, %d skipped, %d bad, %d wrong unproven texts", s.cases, s.inPlace, s.skipped, s.bad, s.unproven)
}

// a45Proven reports whether replaceValues calls every document it writes
// proven (not read back by preserved).
func a45Proven(st *Stream) bool {
	_, body := cutBOM(st.src)
	starts := documentStarts(body)
	for i := range st.Docs {
		if identical(st.snapshot[i], st.Docs[i]) {
			continue
		}
		snap, doc, ok := st.ownDocs(body, starts, i)
		if !ok {
			return false
		}
		_, proven, _, ok := st.replaceValues(textOf(body, starts, i), st.lentOf(textOf(body, starts, i), i), snap, doc, i == 0, i == len(st.Docs)-1, st.rangedRead(i))
		if !ok || !proven {
			return false
		}
	}
	return true
}

// TestAttack45Mixed edits random nodes (a45RandomEdit) of the flow
// places, the later-document layouts and the outline corpus, once,
// twice, and after a second Snapshot.
func TestAttack45Mixed(t *testing.T) {
	var inputs []string
	for _, p := range a45Places {
		for _, f := range a45Flows[:12] {
			inputs = append(inputs, strings.ReplaceAll(p, "F", f))
		}
	}
	for _, sep := range a45Seps {
		for _, f := range a45Firsts {
			inputs = append(inputs, "a: &x 1\nb: *x\n"+sep+f+"k: [x, y]\n", "a: 1\n"+sep+f+"k: {p: 1}\n")
		}
	}
	corpus := outlineInputs(t)
	for _, name := range slices.Sorted(maps.Keys(corpus)) {
		inputs = append(inputs, string(corpus[name]))
	}
	var s a45Stats
	for ii, in := range inputs {
		// (an empty first document is written without its "---" by the
		// writer, one document less: known, attack43's report)
		if st, err := Read([]byte(in), Options{}); err != nil || st.Format != YAML || len(st.Docs) == 0 || st.empty(0) {
			s.skipped++
			continue
		}
		for seed := range uint64(a45Seeds(6)) {
			r := func(salt uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(ii)*7+salt)) }
			s.run(t, in, nil, func(st *Stream) { a45RandomEdit(st, r(1)) })
			s.run(t, in, nil, func(st *Stream) { a45RandomEdit(st, r(1)); a45RandomEdit(st, r(2)) })
			s.run(t, in, func(st *Stream) { a45RandomEdit(st, r(3)) }, func(st *Stream) { a45RandomEdit(st, r(1)) })
		}
	}
	t.Logf("mixed: %d inputs, %d cases, %d in place, %d skipped, %d bad, %d wrong unproven texts", len(inputs), s.cases, s.inPlace, s.skipped, s.bad, s.unproven)
}

// a45Seeds is how many seeds of full a generated attack45 test runs: a
// sixth, and every one with ATTACK45_FULL=1 (the attack's runs,
// 2026-11-30: 17,472 flow cases, 42,768 later-document cases, 34,195
// anchor cases, 18,377 mixed, none bad; 100 s, too long for every run).
func a45Seeds(full int) int {
	if os.Getenv("ATTACK45_FULL") != "" {
		return full
	}
	return max(1, full/6)
}
