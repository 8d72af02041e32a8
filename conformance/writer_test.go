package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/internal/playground"
	"github.com/kmerge/kmerge/krm"
	"github.com/kmerge/kmerge/tree"
)

// The writer's property: every YAML document kmerge writes reads back, by
// kmerge and by a YAML 1.1 reader (sigs.k8s.io/yaml, what kubectl reads
// YAML with), as the same values of the same JSON types. Each output path
// is tried (the writer alone, kmerge patch with a merge and a strategic
// patch, kmerge diff, kmerge fn, the playground) on random documents full
// of tricky strings: YAML 1.1 and 1.2 words in any letter case, numbers in
// every notation, indicators, tabs, line breaks, leading and trailing
// spaces, control characters. The inputs are YAML written by
// sigs.k8s.io/yaml (another writer, whose output a YAML 1.1 reader reads
// right) or JSON.
//
// What is compared: what kmerge reads from the output, as JSON, against
// the value the operation must give (the JSON the test built, or for a
// patch what kmerge computed in memory, which other tests compare with
// upstream), and what sigs.k8s.io/yaml reads from the output against
// that. Numbers are compared by value: sigs.k8s.io/yaml turns YAML's 1.0
// into JSON's 1 (it converts through float64), so the difference between
// an integer and a float is not one a YAML 1.1 reader keeps.

// writerCases is how many random documents each path gets;
// KMERGE_WRITER_CASES changes it.
func writerCases(t *testing.T) int {
	if s := os.Getenv("KMERGE_WRITER_CASES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("KMERGE_WRITER_CASES: %v", err)
		}
		return n
	}
	return 400
}

// trickyPieces are the parts tricky strings are made of.
var trickyPieces = []string{
	// YAML 1.1 booleans and nulls, YAML 1.2's, and words near them
	"y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
	"true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "~", "",
	"oN", "yEs", "tRUE", "nULL", "onto", "yess", "nope",
	// numbers in every notation
	"0", "-0", "+1", "12", "017", "08", "0o17", "0O17", "0x1F", "0X1f", "0b101", "-0b1", "1_000", "1__0",
	"_1", "1_", "-_0", "-_1", "-__5", "-_0x1", "-_0.5", "-_1_000", "+_.5", "0b-1", "0o+7", ".5_0", ".5", "5.", "-.5e-3", "1e3", "1E+2", "1.e5", "6.8523015e+5", ".inf", "-.Inf", ".NaN",
	"1:30", "-1:20:30", "190:20:30.15", "1:60", "12:3:4", "0:0",
	"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2002-12-14 21:59:43.10 -5",
	// indicators and markers
	"=", "<<", "-", "- ", "?", "? x", ":", ": ", "a: b", "#", " #c", "|", ">", "!", "!!str", "&a", "*a",
	"%", "@", "`", "\"", "'", "{", "}", "[", "]", ",", "---", "...", "--- x", "... x",
	// white space and line breaks
	" ", "  ", "\t", "\n", "\n\n", "\r\n", "\r", " \n", "\n ", "\t\n", "\n\t", "\tx\ny\n",
	// other text
	"x", "ab", "é", "日本", "😀", "\u0085", "\u2028", "\ufeff", "\x01", "\x7f", "\\", "\\n", "$", "${x}",
}

// trickyString returns a string made of one to three pieces, its letters'
// case sometimes flipped.
func trickyString(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(3) {
		b.WriteString(trickyPieces[r.IntN(len(trickyPieces))])
		if r.IntN(4) > 0 {
			break
		}
	}
	s := b.String()
	if r.IntN(8) == 0 {
		rs := []rune(s)
		for i, c := range rs {
			if r.IntN(2) == 0 {
				rs[i] = []rune(strings.ToUpper(string(c)))[0]
			} else {
				rs[i] = []rune(strings.ToLower(string(c)))[0]
			}
		}
		s = string(rs)
	}
	return s
}

// trickyValue returns a random JSON value: mostly tricky strings, and
// numbers, booleans, nulls, objects and arrays.
func trickyValue(r *rand.Rand, depth int) any {
	switch k := r.IntN(12); {
	case k < 6 || depth > 2:
		return trickyString(r)
	case k == 6:
		return json.Number([]string{"0", "-7", "12", "1.5", "1e3", "-0.25", "9007199254740993", "1.0"}[r.IntN(8)])
	case k == 7:
		return r.IntN(2) == 0
	case k == 8:
		return nil
	case k < 11:
		return trickyObject(r, depth+1)
	default:
		var a []any
		for range r.IntN(4) {
			a = append(a, trickyValue(r, depth+1))
		}
		return a
	}
}

// trickyObject returns an object of tricky keys and values.
func trickyObject(r *rand.Rand, depth int) map[string]any {
	m := map[string]any{}
	for range r.IntN(5) {
		m[trickyString(r)] = trickyValue(r, depth)
	}
	return m
}

// stringMap returns an object of tricky string keys and values, as labels
// and ConfigMap data are.
func stringMap(r *rand.Rand) map[string]any {
	m := map[string]any{}
	for range 1 + r.IntN(5) {
		m[trickyString(r)] = trickyString(r)
	}
	return m
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// yamlOf is v as YAML written by sigs.k8s.io/yaml; ok is false when
// that does not read back as v: it cannot write a raw DEL (its reader of
// the JSON refuses it, and JSON does not escape it), and it writes a key
// "<<" unquoted, a merge key. With noVars, ok is also false for a text
// holding "${" (kpatch's variables, in a patch list).
func yamlOf(t testing.TB, v any, noVars bool) (b []byte, ok bool) {
	js := mustJSON(t, v)
	b, err := sigsyaml.JSONToYAML(js)
	if err != nil || noVars && bytes.Contains(b, []byte("${")) {
		return nil, false
	}
	back, err := sigsyaml.YAMLToJSON(b)
	return b, err == nil && sameJSON(decodeJSON(back), decodeJSON(js))
}

// sources returns the YAML texts sigs.k8s.io/yaml writes for the values
// gen makes, and the values, asking gen again until it can write them
// all (yamlOf).
func sources(t testing.TB, noVars bool, gen func() []any) ([][]byte, []any) {
	for range 100 {
		vs := gen()
		var texts [][]byte
		for _, v := range vs {
			b, ok := yamlOf(t, v, noVars)
			if !ok {
				break
			}
			texts = append(texts, b)
		}
		if len(texts) == len(vs) {
			return texts, vs
		}
	}
	t.Fatal("sigs.k8s.io/yaml cannot write 100 random sources in a row")
	return nil, nil
}

// sameJSON compares JSON values: numbers by value, everything else exactly.
func sameJSON(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameJSON(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, _, errA := big.ParseFloat(string(a), 10, 200, big.ToNearestEven)
		y, _, errB := big.ParseFloat(string(b), 10, 200, big.ToNearestEven)
		return errA == nil && errB == nil && x.Cmp(y) == 0
	}
	return a == b
}

// checkWritten checks YAML that kmerge wrote: kmerge reads it as want (a
// JSON value), and so does sigs.k8s.io/yaml.
func checkWritten(t testing.TB, what string, out []byte, want any) {
	t.Helper()
	st, err := tree.Read(out, tree.Options{File: "out"})
	if err != nil || len(st.Docs) != 1 {
		t.Fatalf("%s: kmerge cannot read what it wrote (%v):\n%s", what, err, out)
	}
	j, err := tree.MarshalJSON(st.Docs[0])
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	got := decodeJSON(j)
	if !sameJSON(got, want) {
		t.Fatalf("%s: kmerge reads what it wrote as\n%s\nwant\n%s\nwritten:\n%s", what, j, mustJSON(t, want), out)
	}
	j11, err := sigsyaml.YAMLToJSON(out)
	if err != nil {
		t.Fatalf("%s: sigs.k8s.io/yaml cannot read what kmerge wrote (%v):\n%s", what, err, out)
	}
	got11 := decodeJSON(j11)
	if !sameJSON(got11, want) {
		t.Fatalf("%s: sigs.k8s.io/yaml reads what kmerge wrote as\n%s\nwant\n%s\nwritten:\n%s", what, j11, mustJSON(t, want), out)
	}
}

// roundTrip decodes JSON text into the JSON value it holds.
func roundTrip(t testing.TB, b []byte) any {
	if !json.Valid(b) {
		t.Fatalf("not JSON: %s", b)
	}
	return decodeJSON(b)
}

// writeJSONAsYAML is the writer alone: JSON read by kmerge, written as YAML.
func writeJSONAsYAML(t testing.TB, js []byte) []byte {
	st, err := tree.Read(js, tree.Options{})
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	var b bytes.Buffer
	if err := tree.WriteYAML(&b, st.Style, st.Docs...); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// patchJSON is kmerge patch's result in memory, as JSON: what the YAML
// output must read as.
func patchJSON(t testing.TB, doc, patch []byte, typ kmerge.PatchType) ([]byte, []byte) {
	out, err := kmerge.Patch(context.Background(), doc, patch, kmerge.PatchOptions{Type: typ})
	if err != nil {
		t.Fatalf("patch %s on\n%s: %v", patch, doc, err)
	}
	jsonOut := tree.JSON
	js, err := kmerge.Patch(context.Background(), doc, patch, kmerge.PatchOptions{Type: typ, Output: &jsonOut})
	if err != nil {
		t.Fatal(err)
	}
	return out, js
}

// writerPaths are the output paths the property is checked on, each
// given a random source.
var writerPaths = []struct {
	name string
	run  func(t testing.TB, r *rand.Rand)
}{
	{"write", func(t testing.TB, r *rand.Rand) {
		js := mustJSON(t, trickyObject(r, 0))
		checkWritten(t, "write "+string(js), writeJSONAsYAML(t, js), roundTrip(t, js))
	}},
	{"patch --type merge", func(t testing.TB, r *rand.Rand) {
		texts, _ := sources(t, false, func() []any {
			return []any{map[string]any{"apiVersion": "example.com/v1", "kind": "Thing", "metadata": map[string]any{"name": "t"},
				"spec": trickyObject(r, 0)}}
		})
		patch := mustJSON(t, map[string]any{"spec": trickyObject(r, 0)})
		out, js := patchJSON(t, texts[0], patch, kmerge.Merge)
		checkWritten(t, "patch --type merge "+string(patch), out, roundTrip(t, js))
	}},
	{"patch (strategic)", func(t testing.TB, r *rand.Rand) {
		texts, _ := sources(t, false, func() []any {
			return []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "c", "labels": stringMap(r)}, "data": stringMap(r)}}
		})
		patch := mustJSON(t, map[string]any{"metadata": map[string]any{"labels": stringMap(r), "annotations": stringMap(r)},
			"data": stringMap(r)})
		out, js := patchJSON(t, texts[0], patch, kmerge.Strategic)
		checkWritten(t, "patch "+string(patch), out, roundTrip(t, js))
	}},
	{"diff", func(t testing.TB, r *rand.Rand) {
		texts, _ := sources(t, false, func() []any {
			return []any{
				map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": stringMap(r)},
				map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "labels": stringMap(r)},
					"data": stringMap(r)},
			}
		})
		out, err := kmerge.Diff(context.Background(), texts[0], texts[1], kmerge.DiffOptions{})
		if err != nil {
			t.Fatal(err)
		}
		js, err := kmerge.Diff(context.Background(), texts[0], texts[1], kmerge.DiffOptions{JSON: true})
		if err != nil {
			t.Fatal(err)
		}
		checkWritten(t, "diff", out, roundTrip(t, js))
	}},
	{"fn", func(t testing.TB, r *rand.Rand) {
		var item, data map[string]any
		texts, vs := sources(t, true, func() []any {
			item = map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": stringMap(r)}
			data = stringMap(r)
			return []any{map[string]any{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": []any{item},
				"functionConfig": map[string]any{"apiVersion": "kmerge.dev/v1alpha1", "kind": "Patches", "metadata": map[string]any{"name": "p"},
					"spec": map[string]any{"patches": []any{map[string]any{"target": "configmap.c", "type": "merge",
						"patch": map[string]any{"data": data}}}}}}}
		})
		out, _, err := krm.Run(context.Background(), texts[0])
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range data {
			item["data"].(map[string]any)[k] = v
		}
		checkWritten(t, "fn", out, roundTrip(t, mustJSON(t, vs[0])))
	}},
	{"playground", func(t testing.TB, r *rand.Rand) {
		var doc, data map[string]any
		texts, _ := sources(t, true, func() []any {
			doc = map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}, "data": stringMap(r)}
			data = stringMap(r)
			return []any{doc, []any{map[string]any{"target": "configmap.c", "type": "merge", "patch": map[string]any{"data": data}}}}
		})
		o := playground.Run(context.Background(), playground.Input{Manifests: string(texts[0]), Patches: string(texts[1]),
			PatchFormat: playground.FormatPatchList})

		if o.Error != nil {
			t.Fatalf("%s", o.Error.Text)
		}
		for k, v := range data {
			doc["data"].(map[string]any)[k] = v
		}
		checkWritten(t, "playground", []byte(o.Result), roundTrip(t, mustJSON(t, doc)))
	}},
}

// TestWriterReadsSameIn11 checks the writer's property on every path.
func TestWriterReadsSameIn11(t *testing.T) {
	n := writerCases(t)
	for _, p := range writerPaths {
		t.Run(p.name, func(t *testing.T) {
			for i := range n {
				r := rand.New(rand.NewPCG(uint64(i), 7))
				p.run(t, r)
			}
		})
	}
}

// TestWriterPiecesAlone: each tricky piece as a value and as a key, on
// its own (the random documents combine them).
func TestWriterPiecesAlone(t *testing.T) {
	for _, s := range trickyPieces {
		for _, v := range []any{map[string]any{"k": s}, map[string]any{s: "v"}, []any{s}, map[string]any{"k": []any{s, s + "\n"}}} {
			js := mustJSON(t, v)
			checkWritten(t, fmt.Sprintf("write %s", js), writeJSONAsYAML(t, js), roundTrip(t, js))
		}
	}
}

// FuzzWriterReadsSameIn11 checks the writer's property on any string, as
// a key and as a value, alone, in a flow-style-free nested document, and
// written by kmerge patch into a ConfigMap's data and labels.
func FuzzWriterReadsSameIn11(f *testing.F) {
	for _, s := range trickyPieces {
		f.Add(s)
	}
	base := []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c # the object\n  labels:\n    app: web\ndata:\n  x: \"1\"\n")
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // not a JSON string
		}
		v := map[string]any{s: s, "k": []any{s, map[string]any{s: []any{s}}}}
		js := mustJSON(t, v)
		checkWritten(t, "write", writeJSONAsYAML(t, js), roundTrip(t, js))
		patch := mustJSON(t, map[string]any{"metadata": map[string]any{"labels": map[string]any{s: s}}, "data": map[string]any{s: s}})
		for _, typ := range []kmerge.PatchType{kmerge.Strategic, kmerge.Merge} {
			out, jsOut := patchJSON(t, base, patch, typ)
			checkWritten(t, "patch", out, roundTrip(t, jsOut))
		}
	})
}

// TestBinaryAsUpstream: kmerge reads a !!binary value as sigs.k8s.io/yaml
// (kubectl's reader) does, the string its base64 text decodes to, and
// refuses what it refuses (docs/upstream-differences.md, "Reading
// documents").
func TestBinaryAsUpstream(t *testing.T) {
	for _, in := range []string{
		"a: !!binary aGVsbG8=\n",
		"a: !!binary |\n  aGVs\n  bG8=\n",
		"a: !!binary >\n  aGVs\n  bG8=\n", // folded: a space in the text, which is no base64
		"a: !!binary \"4pyTIMOgIGxhIG1vZGU=\"\n",
		"data: {k: !!binary YQ==, l: [!!binary Yg==]}\n",
		"a: !!binary hello!\n",
	} {
		st, err := tree.Read([]byte(in), tree.Options{})
		_, uperr := sigsyaml.YAMLToJSON([]byte(in))
		if (err != nil) != (uperr != nil) {
			t.Errorf("%q: kmerge: %v; upstream: %v", in, err, uperr)
		}
		if err != nil {
			continue
		}
		j, err := tree.MarshalJSON(st.Docs[0])
		if err != nil {
			t.Fatal(err)
		}
		up, err := sigsyaml.YAMLToJSON([]byte(in))
		if err != nil {
			t.Fatalf("%q: upstream: %v", in, err)
		}
		if !sameJSON(decodeJSON(j), decodeJSON(up)) {
			t.Errorf("%q: kmerge reads %s, upstream %s", in, j, up)
		}
	}
}
