package tree

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/fastyaml"
)

// testOutline is the outline of a Kubernetes object's identity, as package
// resource asks for it.
var testOutline = &Outline{Fields: map[string]*Outline{
	"apiVersion": nil, "kind": nil,
	"metadata": {Fields: map[string]*Outline{"name": nil, "namespace": nil, "labels": {All: true}}},
	"items":    {Items: &Outline{Fields: map[string]*Outline{"kind": nil, "metadata": nil}}},
}}

// outlineInputs are the streams the outline tests start from: the
// preservation corpus, the fuzz corpora of this package, streams made for
// the edges of cutting a stream into documents, and for the comments
// between documents (lentLayouts).
func outlineInputs(t testing.TB) map[string][]byte {
	t.Helper()
	in := map[string][]byte{}
	for _, name := range corpus(t) {
		in[name] = readCorpus(t, name)
	}
	for _, dir := range []string{"testdata/fuzz/FuzzRead", "testdata/fuzz/FuzzPreserve"} {
		names, err := filepath.Glob(filepath.Join(dir, "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			data, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := fuzzString(data); ok {
				in[n] = []byte(s)
			}
		}
	}
	for i, s := range outlineEdges {
		in[fmt.Sprintf("edge-%d", i)] = []byte(s)
	}
	for i, l := range lentLayouts {
		in[fmt.Sprintf("lent-%d", i)] = []byte(l.in)
	}
	return in
}

// outlineEdges are streams whose documents are cut at the edges of what
// documentStarts handles: comments between documents, "..." with and
// without comments after it, empty documents, directives, documents
// without a final newline, block scalars at the end of a document, flow
// collections over several lines; sequence items whose first line is a
// comment after the dash.
var outlineEdges = []string{
	"a: 1\n# after a\n---\n# before b\nb: 2\n",
	"a: 1\n...\n# between\n---\nb: 2\n...\n",
	"a: 1\n...\nb: 2\n",
	"---\n---\na: 1\n---\n",
	"%YAML 1.1\n---\na: 1\n---\nb: [1,\n  2]\n",
	"a: |\n  text\n\n---\nb: >+\n  more\n\n\n---\nc: 3",
	"# head\napiVersion: v1 # line\nkind: A\nmetadata: {name: a, labels: {x: y}}\n--- # marker comment\napiVersion: v1\nkind: B\nmetadata:\n  name: b\n  labels:\n    x: \"y\"\n# foot\n",
	"kind: List\nitems:\n- kind: A\n  metadata: {name: a}\n- kind: B\n  metadata:\n    name: b\n---\nkind: C\n",
	"--- |\n  root text\n--- >-\n  folded\n---\n- a\n- b\n",
	"a: 1\n---\n\n\n# only a comment\n",
	"a: &x 1\nb: *x\n---\nc: 2\n",
	// items whose first key has a head comment, as yaml.v3 writes them
	// (a ResourceList of commented manifests)
	"kind: ResourceList\nitems:\n  - # first: owned by a\n    # and b\n    apiVersion: v1\n    kind: A\n    metadata:\n      name: a\n    data:\n      x: \"1\"\n  - # second\n    apiVersion: v1\n    kind: B\n    metadata:\n      name: b\n    spec:\n      list:\n        - # one\n          name: one\n          value: 1\n        - name: two\n          value: 2\nfunctionConfig:\n  kind: C\n",
}

// fuzzString decodes a file of a Go fuzz corpus holding one string (and
// perhaps an edit byte after it).
func fuzzString(data []byte) (string, bool) {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) < 2 || !bytes.HasPrefix(lines[0], []byte("go test fuzz v1")) {
		return "", false
	}
	var s string
	if _, err := fmt.Sscanf(string(lines[1]), "string(%q)", &s); err != nil {
		return "", false
	}
	return s, true
}

// TestOutlineSameOutput: reading a stream with outlines, loading some of
// its documents and editing them writes what reading it fully and making
// the same edits writes, byte for byte; documents load as the full read
// gives them (every field of every node); and a stream written without
// loading anything is its input.
func TestOutlineSameOutput(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	outlined := 0
	inputs := outlineInputs(t)
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		data := inputs[name]
		full, err := Read(data, Options{})
		if err != nil || full.Format != YAML {
			continue
		}
		if st, err := Read(data, Options{Outline: testOutline}); err != nil {
			t.Fatalf("%s: %v", name, err)
		} else if st.Outlines() {
			outlined++
			st.Snapshot()
			if out := write(t, st); !bytes.Equal(out, data) {
				t.Errorf("%s: written without loading, differs from the input:\n%s", name, unified(data, out))
			}
		}
		for range 8 {
			seed := r.Uint64()
			want := editStream(t, data, nil, seed, nil)
			st, err := Read(data, Options{Outline: testOutline})
			if err != nil {
				t.Fatal(err)
			}
			got := editStream(t, data, st, seed, nil)
			if !bytes.Equal(got, want) {
				t.Errorf("%s, seed %d: outlined stream written differently:\n%s", name, seed, unified(want, got))
			}
		}
	}
	if outlined < 20 {
		t.Errorf("only %d streams were outlined", outlined)
	}
}

// TestOutlineAliasAcrossDocuments: yaml.v3 lets an alias name an anchor of
// an earlier document. Such a stream is not left outlined: the later
// document's text, copied as it is, would mean what the anchor holds once
// the earlier document is edited. Edited, it is written as the stream read
// fully is (the alias a copy of the value read: the later document keeps
// k: 1), never with the alias left to name the edited anchor.
func TestOutlineAliasAcrossDocuments(t *testing.T) {
	data := []byte("apiVersion: v1\nkind: A\nmetadata:\n  name: a\nx: &x\n  k: 1\n---\napiVersion: v1\nkind: B\nmetadata:\n  name: b\ny: *x\n")
	edit := func(st *Stream) []byte {
		t.Helper()
		if err := st.Load(0); err != nil {
			t.Fatal(err)
		}
		st.Snapshot()
		MapGet(MapGet(Root(st.Docs[0]), "x"), "k").Value = "2"
		return write(t, st)
	}
	full, err := Read(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := edit(full)
	st, err := Read(data, Options{Outline: testOutline})
	if err != nil {
		t.Fatal(err)
	}
	if st.Outlines() {
		t.Error("a stream with an alias is left outlined")
	}
	if got := edit(st); !bytes.Equal(got, want) {
		t.Errorf("written differently from the stream read fully:\n%s", unified(want, got))
	}
	back, err := Read(want, Options{})
	if err != nil || len(back.Docs) != 2 || MapGet(MapGet(Root(back.Docs[1]), "y"), "k").Value != "1" {
		t.Errorf("the second document does not keep k: 1 (%v):\n%s", err, want)
	}
	// an alias naming an anchor of its own document leaves it outlined
	own := []byte("apiVersion: v1\nkind: A\nmetadata:\n  name: a\nx: &x\n  k: 1\nz: *x\n---\napiVersion: v1\nkind: B\nmetadata:\n  name: b\n")
	if st, err := Read(own, Options{Outline: testOutline}); err != nil || !st.Outlines() {
		t.Errorf("an alias within its document: not outlined (%v)", err)
	}
}

// editStream reads data (with st given: the stream read with outlines),
// picks documents by seed, loads them, snapshots, makes an edit to each
// picked document (fuzzEdit), and returns what WriteYAML writes (or the
// error). With outlines it also checks that each loaded document is the
// one the full read gives.
func editStream(t *testing.T, data []byte, st *Stream, seed uint64, lim *Limits) []byte {
	t.Helper()
	full, err := Read(data, Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	if st == nil {
		st = full
	}
	r := rand.New(rand.NewPCG(seed, 1))
	var picked []int
	for i := range st.Docs {
		if r.IntN(3) == 0 {
			picked = append(picked, i)
			if err := st.Load(i); err != nil {
				t.Fatal(err)
			}
			if st != full {
				if d := nodeDiff(st.Docs[i], full.Docs[i], "doc"); d != "" {
					t.Fatalf("document %d loads differently from the full read: %s", i, d)
				}
			}
		}
	}
	st.Snapshot()
	for _, i := range picked {
		fuzzEdit(st.Docs[i:i+1], uint8(r.IntN(30)))
	}
	var b bytes.Buffer
	if err := st.WriteYAML(&b); err != nil {
		return []byte("error: " + err.Error())
	}
	return b.Bytes()
}

// nodeDiff describes the first difference between two trees, every field
// compared; "" when there is none.
func nodeDiff(a, b *yaml.Node, path string) string {
	if a == nil || b == nil {
		if a != b {
			return path + ": one is nil"
		}
		return ""
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: %+v and %+v", path, *a, *b)
	}
	for i := range a.Content {
		if d := nodeDiff(a.Content[i], b.Content[i], fmt.Sprintf("%s.%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// FuzzOutline: reading with outlines fails exactly where a full read does,
// with the same error; outlines are what the full read's documents hold;
// each document loads as the full read gives it; and edits write what they
// write on the full read.
func FuzzOutline(f *testing.F) {
	for _, data := range outlineInputs(f) {
		f.Add(string(data), uint64(1))
	}
	f.Fuzz(func(t *testing.T, src string, seed uint64) {
		outlineProperty(t, []byte(src), seed)
	})
}

// outlineProperty checks FuzzOutline's property on data: reading with
// outlines fails as the full read does, an outline is the outline of the
// full read's document, a document loaded from its outline is the full
// read's, and edits chosen by seed write the same bytes either way.
func outlineProperty(t *testing.T, data []byte, seed uint64) {
	t.Helper()
	lim := Limits{MaxBytes: 1 << 16, MaxDocuments: 50, MaxDepth: 50, MaxNodes: 5000}
	full, ferr := Read(data, Options{Limits: &lim})
	st, err := Read(data, Options{Limits: &lim, Outline: testOutline})
	if (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error() {
		t.Fatalf("input %q: outline read: %v; full read: %v", data, err, ferr)
	}
	if err != nil || full.Format != YAML {
		return
	}
	for i, d := range st.Docs {
		if st.Outlined(i) && !sameOutline(d, outline(full.Docs[i], testOutline)) {
			t.Fatalf("input %q: outline of document %d differs: %s", data, i, nodeDiff(d, outline(full.Docs[i], testOutline), "doc"))
		}
	}
	if st.Outlines() {
		var b bytes.Buffer
		if err := st.WriteYAML(&b); err != nil || !bytes.Equal(b.Bytes(), data) {
			// WriteYAML without a snapshot loads everything and renders
			if wb := writeFull(t, data, &lim); !bytes.Equal(b.Bytes(), wb) {
				t.Fatalf("input %q: written without a snapshot differently (%v)", data, err)
			}
		}
	}
	st, _ = Read(data, Options{Limits: &lim, Outline: testOutline})
	want := editStream(t, data, nil, seed, &lim)
	got := editStream(t, data, st, seed, &lim)
	if !bytes.Equal(got, want) {
		t.Fatalf("input %q: outlined stream written differently:\n%s", data, unified(want, got))
	}
}

func writeFull(t *testing.T, data []byte, lim *Limits) []byte {
	st, err := Read(data, Options{Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := st.WriteYAML(&b); err != nil {
		return nil
	}
	return b.Bytes()
}

// manyKeys is a mapping of n keys k0, k1..., and then extra as a key if
// it is not empty.
func manyKeys(n int, extra string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "k%d: %d\n", i, i)
	}
	if extra != "" {
		b.WriteString(extra + ": again\n")
	}
	return b.String()
}

// TestSkim: fastyaml.Skim, which reads the outlines, gives of every input
// it does not decline the outlines of the documents readYAML parses, and
// counts their nodes and depth as the limits count them (normalizeDoc);
// it declines what it must leave to a parse.
func TestSkim(t *testing.T) {
	var count func(n *yaml.Node, depth int) (nodes, deepest int)
	count = func(n *yaml.Node, depth int) (int, int) {
		nodes, deepest := 1, depth
		for _, c := range n.Content {
			k, d := count(c, depth+1)
			nodes, deepest = nodes+k, max(deepest, d)
		}
		return nodes, deepest
	}
	skimmed := 0
	inputs := outlineInputs(t)
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		data := inputs[name]
		docs, err := readYAML(data, name, Limits{})
		if err != nil {
			continue
		}
		for _, o := range []*Outline{testOutline, nil, {All: true}} {
			sk, err := fastyaml.Skim(data, o)
			if err != nil {
				continue
			}
			skimmed++
			if len(sk) != len(docs) {
				t.Fatalf("%s: %d documents skimmed, %d parsed", name, len(sk), len(docs))
			}
			for i, d := range docs {
				if want := outline(d, o); !sameOutline(sk[i].Doc, want) {
					t.Errorf("%s: document %d skims as\n%s", name, i, nodeDiff(sk[i].Doc, want, "doc"))
				}
				if nodes, depth := count(d, 0); sk[i].Nodes != nodes || sk[i].Depth != depth {
					t.Errorf("%s: document %d skims as %d nodes %d deep, parses as %d nodes %d deep", name, i, sk[i].Nodes, sk[i].Depth, nodes, depth)
				}
			}
		}
	}
	if skimmed < 60 {
		t.Errorf("only %d inputs skimmed", skimmed)
	}
	if sk, err := fastyaml.Skim([]byte(manyKeys(40, "")), testOutline); err != nil || sk[0].Nodes != 1+1+2*40 {
		t.Errorf("a mapping of 40 keys: %v, %+v", err, sk)
	}
	for _, in := range []string{
		"a: 1\nb: 2\na: 3\n",               // a key twice
		"a:\n  x: 1\n  x: 2\n",             // below
		"base: {a: 1}\nm:\n  <<: {b: 2}\n", // a merge key
		"? [a]\n: 1\n",                     // a key that is not a scalar
		"{a: 1}: 2\n",
		"a: &x 1\nb: *x\n", // anchors (fastyaml declines them)
		manyKeys(40, "k7"), // a key twice among many
		"a: [1\n",          // not YAML
		"a: 1\n b: 2\n",
	} {
		if _, err := fastyaml.Skim([]byte(in), testOutline); err == nil {
			t.Errorf("%q: skimmed", in)
		}
	}
}

// splitPool returns the outline inputs, in the order of their names, that
// TestSplitStream and FuzzSplitStream join into streams.
func splitPool(t testing.TB) [][]byte {
	inputs := outlineInputs(t)
	var out [][]byte
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		data := inputs[name]
		if st, err := Read(data, Options{}); err != nil || st.Format != YAML || len(data) == 0 || data[len(data)-1] != '\n' ||
			bytes.HasPrefix(data, utf8BOM) || bytes.Contains(data, []byte("\n%")) || data[0] == '%' || commentedDocEnd(data) ||
			bytes.IndexByte(data, '\r') >= 0 {
			// a part of the stream must end with a line break, hold no BOM
			// or directive, and no comment after "..."; a stream mixing
			// CRLF and LF documents is written otherwise outlined than read
			// whole (TestOutlineSameOutput reads each input alone)
			continue
		}
		out = append(out, data)
	}
	return out
}

// FuzzSplitStream: a stream joined from the inputs of splitPool (picks
// says which, and which of "---", "...\n---", "---\n# comment" and
// "--- # comment" joins each to the one before), cut into parts of about
// size bytes, is the parts joined, each part starting at the line it has;
// and when the stream and every part read, the parts' documents are the
// stream's, every field of every node the same (resource.Stream reads a
// stream whose parts do not all read whole).
func FuzzSplitStream(f *testing.F) {
	pool := splitPool(f)
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7}, uint16(1))
	f.Add([]byte{9, 0x49, 0x88, 0xc3, 17}, uint16(200))
	f.Fuzz(func(t *testing.T, picks []byte, size uint16) {
		if len(picks) > 64 {
			return
		}
		var all []byte
		for i, p := range picks {
			if i > 0 {
				all = append(all, [...]string{"---\n", "...\n---\n", "---\n# comment\n", "--- # comment\n"}[p>>6]...)
			}
			all = append(all, pool[int(p&63)%len(pool)]...)
		}
		parts, st := SplitStream(all, int(size)%3000+1)
		if parts == nil {
			return
		}
		var joined []byte
		line := 1
		var docs []*yaml.Node
		partsRead := true
		for i, p := range parts {
			joined = append(joined, p.Text...)
			if p.Line != line {
				t.Fatalf("part %d: line %d, want %d", i, p.Line, line)
			}
			line += bytes.Count(p.Text, []byte{'\n'})
			ps, err := Read(p.Text, Options{Line: p.Line, Style: &st})
			if err != nil {
				partsRead = false
				continue
			}
			if len(ps.Docs) != p.Docs {
				t.Fatalf("part %d: %d documents read, Docs says %d", i, len(ps.Docs), p.Docs)
			}
			docs = append(docs, ps.Docs...)
		}
		if !bytes.Equal(joined, all) {
			t.Fatal("the parts joined are not the stream")
		}
		whole, err := Read(all, Options{})
		if err != nil || !partsRead {
			return
		}
		if len(docs) != len(whole.Docs) {
			t.Fatalf("%d documents in the parts, %d in the stream", len(docs), len(whole.Docs))
		}
		for i := range docs {
			if d := nodeDiff(docs[i], whole.Docs[i], fmt.Sprintf("doc %d", i)); d != "" {
				t.Fatal(d)
			}
		}
	})
}

// TestSplitStream: SplitStream cuts a stream only at "---" lines between
// documents that hold content; read with Options.Line and Options.Style
// (with outlines and without), each part holds the documents the whole
// stream holds there, every field of every node the same; edited and
// written part by part, the parts' texts joined are what the whole stream
// writes with the same edits. The stream is every outline input that
// reads, joined.
func TestSplitStream(t *testing.T) {
	var all []byte
	for _, data := range splitPool(t) {
		if len(all) > 0 {
			all = append(all, "---\n"...)
		}
		all = append(all, data...)
	}
	whole, err := Read(all, Options{})
	if err != nil {
		t.Fatalf("the joined stream: %v", err)
	}
	if _, body := cutBOM(all); commentedDocEnd(body) {
		t.Fatal("the joined stream has a comment after \"...\": it would not be cut")
	}
	rewrites := 0
	for _, size := range []int{1, 100, 1000, 5000} {
		parts, st := SplitStream(all, size)
		if len(parts) < 2 {
			t.Fatalf("size %d: %d parts", size, len(parts))
		}
		if size == 1 && len(parts) < 10 {
			t.Errorf("size 1: only %d parts of %d documents", len(parts), len(whole.Docs))
		}
		if want := detectStyle(all); st != want {
			t.Errorf("size %d: style %+v, want %+v", size, st, want)
		}
		var joined []byte
		line := 1
		var docs []*yaml.Node
		for i, p := range parts {
			joined = append(joined, p.Text...)
			if p.Line != line {
				t.Errorf("size %d, part %d: line %d, want %d", size, i, p.Line, line)
			}
			line += bytes.Count(p.Text, []byte{'\n'})
			if i > 0 && !bytes.HasPrefix(p.Text, []byte("---\n")) {
				t.Errorf("size %d, part %d starts with %q", size, i, p.Text[:min(20, len(p.Text))])
			}
			ps, err := Read(p.Text, Options{Line: p.Line, Style: &st})
			if err != nil {
				t.Fatalf("size %d, part %d: %v", size, i, err)
			}
			docs = append(docs, ps.Docs...)
		}
		if !bytes.Equal(joined, all) {
			t.Fatalf("size %d: the parts joined are not the stream", size)
		}
		if len(docs) != len(whole.Docs) {
			t.Fatalf("size %d: %d documents in the parts, %d in the stream", size, len(docs), len(whole.Docs))
		}
		for i := range docs {
			if d := nodeDiff(docs[i], whole.Docs[i], fmt.Sprintf("doc %d", i)); d != "" {
				t.Fatalf("size %d: %s", size, d)
			}
		}
		// the same edits, part by part (with outlines) and whole
		for seed := range uint64(8) {
			edit := func(st *Stream, first int) []byte {
				t.Helper()
				var picked []int
				for i := range st.Docs {
					r := rand.New(rand.NewPCG(seed, uint64(first+i)))
					if r.IntN(3) == 0 {
						picked = append(picked, i)
						if err := st.Load(i); err != nil {
							t.Fatal(err)
						}
					}
				}
				st.Snapshot()
				for _, i := range picked {
					fuzzEdit(st.Docs[i:i+1], uint8(rand.New(rand.NewPCG(seed, uint64(first+i)+1<<32)).IntN(30)))
				}
				return write(t, st)
			}
			w, err := Read(all, Options{Outline: testOutline})
			if err != nil {
				t.Fatal(err)
			}
			want := edit(w, 0)

			var got []byte
			first, rewritten := 0, false
			for _, p := range parts {
				ps, err := Read(p.Text, Options{Line: p.Line, Style: &st, Outline: testOutline})
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, edit(ps, first)...)
				first += len(ps.Docs)
				rewritten = rewritten || ps.Rewritten()
			}
			if rewritten {
				// a part written by yaml.v3 as a whole: the caller writes
				// the whole stream instead (kmerge.Apply reads it again
				// whole); a part whose every document is loaded is read
				// back whole, which places some comments otherwise than
				// reading its edited documents one by one
				rewrites++
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("size %d, seed %d: the parts written differ from the stream written:\n%s", size, seed, unified(want, got))
			}
		}
	}
	if rewrites > 0 {
		t.Errorf("%d of 32 edits rewrote a part", rewrites)
	}
	// what is not cut
	for _, s := range []string{
		strings.Repeat("a: 1\n---\n", 100),                           // documents all of content: cut
		strings.Repeat("a: 1\n# c\n---\nb: 2\n", 100),                // a comment before "---"
		strings.Repeat("a: 1\n---\n# only a comment\n---\n", 100),    // an empty document after
		strings.Repeat("a: 1\n\n---\nb: 2\n", 100),                   // a blank line before
		strings.Repeat("a: 1\n--- # c\nb: 2\n", 100),                 // a comment after the marker
		strings.Repeat("a: 1\r\n---\r\nb: 2\r\n", 100),               // CRLF
		"a: 1\n...\n# c\n---\n" + strings.Repeat("a: 1\n---\n", 100), // a comment after "..."
		`{"a": 1}` + strings.Repeat("\n---\na: 1", 100),              // JSON
	} {
		parts, _ := SplitStream([]byte(s), 10)
		if cut := len(parts) > 0; cut != strings.HasPrefix(s, "a: 1\n---\na") {
			t.Errorf("%q...: %d parts", s[:min(len(s), 30)], len(parts))
		}
	}
	if parts, _ := SplitStream([]byte(strings.Repeat("a: 1\n---\n", 10)), 100); parts != nil {
		t.Errorf("a stream shorter than twice the size: %d parts", len(parts))
	}
}

// TestOutlineLineBreaks: the family of FuzzOutline's find
// "0: 00\n1: 00\n--- \n#\r\n0" (issue 29). Two documents with keys the
// outline reads, and between them each kind of marker line ("---" bare,
// with a trailing space or tab, with a comment, after "...") followed by
// up to two lines of each kind (a comment, an indented comment, a blank
// line), every line ended by each of YAML's three line breaks; the
// outlined read must load and write each document as the full read does.
func TestOutlineLineBreaks(t *testing.T) {
	breaks := []string{"\n", "\r\n", "\r"}
	markers := []string{"---", "--- ", "---\t", "--- # m", "...\n---", "...\r\n---", "# c0\n---", "# c0\r\n---", "# c0\r---", "\n---", "\r\n---"}
	lines := []string{"#", "# c", "  # c", ""}
	var between []string
	for _, l1 := range lines {
		for _, b1 := range breaks {
			between = append(between, l1+b1)
			for _, l2 := range lines {
				for _, b2 := range breaks {
					between = append(between, l1+b1+l2+b2)
				}
			}
		}
	}
	between = append(between, "")
	n := 0
	for _, m := range markers {
		for _, mb := range breaks {
			for _, mid := range between {
				for _, end := range []string{"", "\r\n"} {
					src := "metadata:\n  name: a\nk: 00\n" + m + mb + mid + "metadata:\n  name: b\nk: 0" + end
					// the edits each seed picks: none, one document or the other, both
					outlineProperty(t, []byte(src), uint64(n%4))
					n++
				}
			}
		}
	}
	t.Logf("%d streams", n)
}

// TestUnload: a document loaded and then unloaded is an outline again: it
// is written as its source text (after a snapshot, as every outline is),
// and loads again as it did.
func TestUnload(t *testing.T) {
	data := []byte("metadata:\n  name: a # first\nk: 1\n---\nmetadata: {name: b}\nk:   2\n---\nmetadata:\n  name: c\n")
	st, err := Read(data, Options{Outline: testOutline})
	if err != nil || !st.Outlines() {
		t.Fatalf("not outlined: %v", err)
	}
	st.Snapshot()
	if err := st.Load(1); err != nil {
		t.Fatal(err)
	}
	loaded := Clone(st.Docs[1])
	st.Unload(1)
	if !st.Outlined(1) || !sameOutline(st.Docs[1], outline(loaded, testOutline)) {
		t.Fatalf("document 1 after Unload: outlined %v, %s", st.Outlined(1), nodeDiff(st.Docs[1], outline(loaded, testOutline), "doc"))
	}
	var b bytes.Buffer
	if err := st.WriteYAML(&b); err != nil || !bytes.Equal(b.Bytes(), data) {
		t.Fatalf("written after Unload: %v\n%s", err, b.Bytes())
	}
	if err := st.Load(1); err != nil {
		t.Fatal(err)
	}
	if d := nodeDiff(st.Docs[1], loaded, "doc"); d != "" {
		t.Errorf("loaded again differently: %s", d)
	}
	// every document loaded: nothing is an outline, Unload does nothing
	if err := st.LoadAll(); err != nil {
		t.Fatal(err)
	}
	st.Unload(0)
	if st.Outlined(0) || st.Outlines() {
		t.Errorf("Unload after LoadAll made an outline")
	}
}

// TestCommentedDocEnd: a "..." line with a comment after its marker, or
// before anything else after it, after any line break YAML knows (a lone
// CR too: FuzzReplaceValues, 2026-11-29, where a spliced document lost
// the line "... #" and the check that would have seen it was skipped).
func TestCommentedDocEnd(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"a: 1\n... # c\n", true},
		{"a: 1\n...\n\n# c\n---\nb: 2\n", true},
		{"a: 1\r\n... #\r\n", true},
		{"0: \r... #\n---", true},
		{"0: 1\r...\r# c\r", true},
		{"a: 1\n...\nb: 2\n# c\n", false},
		{"a: 1\n...x # c\n", false}, // a plain scalar's text, no marker
		{"a: ... # c\n", false},
		{"a: 1\n...\n", false},
		{"... # c\na: 1\n", true}, // (the text's first line)
		{"a: 1\n.... # c\n", false},
		{"a: ......\n...... # c\n... # d\n", true},
		{"a: 1\n..", false},
		// a comment after directives, before "---" (yaml.v3 gives it to
		// the next document's first node)
		{"a: 1\n...\n%YAML 1.1\n# c\n---\nb: 2\n", true},
		{"a: 1\n...\n%YAML 1.1\n---\n# c\nb: 2\n", false},
	} {
		if got := commentedDocEnd([]byte(c.in)); got != c.want {
			t.Errorf("%q: %v, want %v", c.in, got, c.want)
		}
	}
}

// TestLoadKeepsParse: a document loaded from an outline keeps the tree it
// was read as, with its nodes' byte ranges (rangedRead), when that tree is
// its text's parse node for node: not when aliases, merge keys or a
// !!binary value were normalized, nor in a part whose columns start right
// of the file's. That tree is the snapshot, whether Snapshot comes before
// Load or after, and an edit made after Load is written; the document is
// then written in place without its text read again, as a stream read
// whole writes it (the same bytes).
func TestLoadKeepsParse(t *testing.T) {
	head := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
	for _, c := range []struct {
		name, doc string
		col       int
		kept      bool
	}{
		{"plain", "data:\n  k: v  # c\n  l: [1, 2]\n", 0, true},
		{"alias", "x: &x 1\ndata:\n  k: *x\n", 0, false},
		{"merge key", "x: &x {k: v}\ndata:\n  <<: *x\n", 0, false},
		{"binary", "data:\n  k: !!binary aGk=\n", 0, false},
		{"a part right of the file's columns", "data:\n  k: v\n", 3, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := []byte("apiVersion: v1\nkind: B\nmetadata:\n  name: b\n---\n" + head + c.doc)
			for _, before := range []bool{false, true} {
				st, err := Read(src, Options{Outline: testOutline, Column: c.col})
				if err != nil || !st.Outlines() {
					t.Fatalf("not outlined: %v", err)
				}
				if before {
					st.Snapshot()
				}
				if err := st.Load(1); err != nil {
					t.Fatal(err)
				}
				rr := st.rangedRead(1)
				if (rr != nil) != c.kept {
					t.Fatalf("parse kept: %v, want %v", rr != nil, c.kept)
				}
				if rr != nil {
					// (the text replaceValues reads: else it reads it again)
					_, body := cutBOM(st.src)
					own, _ := inStream(ownText(textOf(body, documentStarts(body), 1), lentLines(textOf(body, documentStarts(body), 1))), true)
					if !bytes.Equal(rr.text, own) {
						t.Fatalf("the kept parse is of %q, not %q", rr.text, own)
					}
				}
				// an edit after Load, before Snapshot, is written when
				// the parse was kept (else Snapshot must come first:
				// its copy would hold the edit)
				if !before && !c.kept {
					st.Snapshot()
				}
				data := MapGet(Root(st.Docs[1]), "data")
				MapSet(data, "new", NewString("yes"))
				if !before && c.kept {
					st.Snapshot()
				}
				if rr != nil && (st.snapshot[1] != rr.doc || st.Docs[1] == rr.doc) {
					t.Fatal("the kept parse is not the snapshot, or is the document edited")
				}
				got := write(t, st)
				back, err := Read(got, Options{})
				if err != nil || !Equal(back.Docs[1], st.Docs[1]) {
					t.Fatalf("the output does not read as the edited document (%v):\n%s", err, got)
				}
				if c.col != 0 {
					continue
				}
				// the same edit on the stream read whole, snapshotted first
				whole, err := Read(src, Options{})
				if err != nil {
					t.Fatal(err)
				}
				whole.Snapshot()
				MapSet(MapGet(Root(whole.Docs[1]), "data"), "new", NewString("yes"))
				if want := write(t, whole); !bytes.Equal(got, want) {
					t.Fatalf("written otherwise than the stream read whole:\n%s\nwant\n%s", got, want)
				}
			}
		})
	}
}
