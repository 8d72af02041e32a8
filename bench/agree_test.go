package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kmerge/kmerge/bench/corpus"
	"github.com/kmerge/kmerge/tree"
)

// The tests check that the implementations compared compute the same
// thing on every benchmark input, so that the comparison is honest.

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

func decodeYAML(t *testing.T, b []byte) any {
	t.Helper()
	j, err := sigsyaml.YAMLToJSON(b)
	if err != nil {
		t.Fatalf("%v in\n%s", err, b)
	}
	return decodeJSON(t, j)
}

func same(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Fatalf("%s: results differ:\n%s\nwant\n%s", what, g, w)
	}
}

func allInputs(t *testing.T) map[string]*Inputs {
	out := map[string]*Inputs{}
	for _, kind := range corpus.Kinds {
		out[kind] = inputs(t, kind)
	}
	for _, n := range EnvSizes[:3] {
		kind := fmt.Sprintf("env=%d", n)
		out[kind] = inputs(t, kind)
	}
	return out
}

func TestApplyJSONAgrees(t *testing.T) {
	for _, in := range allInputs(t) {
		for i, name := range in.Names {
			want, err := UpstreamJSON(in.DocJSON[i], in.PatchJSON[i], in.Structs[i])
			if err != nil {
				t.Fatal(err)
			}
			got, err := KmergeJSON(in.DocJSON[i], in.PatchJSON[i], in.Types[i])
			if err != nil {
				t.Fatal(err)
			}
			same(t, name, decodeJSON(t, got), decodeJSON(t, want))
		}
	}
}

func TestApplyYAMLAgrees(t *testing.T) {
	for _, kind := range corpus.Kinds {
		in := inputs(t, kind)
		for i, name := range in.Names {
			want := decodeJSON(t, in.Modified[i])
			what := name
			km, err := KmergeYAML(in.DocYAML[i], in.PatchYAML[i], in.Types[i])
			if err != nil {
				t.Fatal(err)
			}
			same(t, what+" (kmerge)", decodeYAML(t, km), want)
			kp, err := KmergeYAMLPreserving(in.DocYAML[i], in.PatchYAML[i], in.Types[i])
			if err != nil {
				t.Fatal(err)
			}
			same(t, what+" (kmerge-splice)", decodeYAML(t, kp), want)
			kh, err := KmergeYAMLPreserving(in.DocHandYAML[i], in.PatchYAML[i], in.Types[i])
			if err != nil {
				t.Fatal(err)
			}
			same(t, what+" (kmerge-splice-hand)", decodeYAML(t, kh), want)
			// the hand-written blank lines are kept: it was spliced
			if got, had := bytes.Count(kh, []byte("\n\n")), bytes.Count(in.DocHandYAML[i], []byte("\n\n")); got < had {
				t.Errorf("%s (kmerge-splice-hand): %d blank lines out of %d kept:\n%s", what, got, had, kh)
			}
			up, err := UpstreamYAML(in.DocYAML[i], in.PatchYAML[i], in.Structs[i])
			if err != nil {
				t.Fatal(err)
			}
			same(t, what+" (upstream via YAML)", decodeYAML(t, up), want)
			ky, err := KyamlYAML(in.DocYAML[i], in.PatchYAML[i], in.Infer[i])
			if err != nil {
				t.Fatal(err)
			}
			// kyaml orders merged lists its own way (kustomize's known
			// difference): compare its items whatever their order
			same(t, what+" (kyaml, list order aside)", SortLists(decodeYAML(t, ky)), SortLists(want))
			// kmerge keeps every comment of the document
			for _, out := range [][]byte{km, kp} {
				for _, line := range strings.Split(string(in.DocYAML[i]), "\n") {
					if i := strings.Index(line, "# "); i >= 0 && !strings.Contains(string(out), line[i:]) {
						t.Fatalf("%s: comment %q lost:\n%s", what, line[i:], out)
					}
				}
			}
		}
	}
}

func TestDiffAgrees(t *testing.T) {
	for _, kind := range corpus.Kinds {
		in := inputs(t, kind)
		for i, name := range in.Names {
			want, err := UpstreamDiff(in.DocJSON[i], in.Modified[i], in.Structs[i])
			if err != nil {
				t.Fatal(err)
			}
			got, err := KmergeDiff(in.DocJSON[i], in.Modified[i], in.Types[i])
			if err != nil {
				t.Fatal(err)
			}
			same(t, name, decodeJSON(t, got), decodeJSON(t, want))
		}
	}
}

// TestCorpusDeterministic: the corpus is the same on every run.
func TestCorpusDeterministic(t *testing.T) {
	a, b := corpus.Mixed(50), corpus.Mixed(50)
	for i := range a {
		if string(a[i].DocYAML()) != string(b[i].DocYAML()) || string(a[i].PatchJSON()) != string(b[i].PatchJSON()) {
			t.Fatalf("case %d differs between two runs", i)
		}
	}
	if d := corpus.Generate("Deployment", 3)[2]; string(d.DocYAML()) != string(corpus.Mixed(3)[2].DocYAML()) {
		t.Fatalf("a document depends on how many are generated")
	}
}

// TestReadAgrees: kmerge's reader takes every document of the corpus, in
// both styles (none is left to yaml.v3), and builds yaml.v3's trees.
func TestReadAgrees(t *testing.T) {
	for _, kind := range corpus.Kinds {
		in := inputs(t, kind)
		for i, name := range in.Names {
			for _, doc := range [][]byte{in.DocYAML[i], in.DocHandYAML[i]} {
				got, err := KmergeRead(doc)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				want, err := YAMLv3Read(doc)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: the trees differ", name)
				}
			}
		}
	}
}

// TestCorpusValid: every patched document of the corpus fits its schema,
// so that BenchmarkValidate measures what every valid run pays, and the
// validated apply gives what the apply gives.
func TestCorpusValid(t *testing.T) {
	for kind, in := range allInputs(t) {
		for i := range in.Names {
			plain, err := KmergeYAMLPreserving(in.DocYAML[i], in.PatchYAML[i], in.Types[i])
			if err != nil {
				t.Fatal(err)
			}
			checked, err := KmergeYAMLValidated(in.DocYAML[i], in.PatchYAML[i], in.Types[i])
			if err != nil {
				t.Errorf("%s %s: %v", kind, in.Names[i], err)
				continue
			}
			if !bytes.Equal(plain, checked) {
				t.Errorf("%s %s: validating changed the output", kind, in.Names[i])
			}
		}
	}
}

// TestWriterAgrees: kmerge's YAML writer (tree.WriteYAML) writes every
// document of the corpus, patched or not, and every patch, byte for byte
// as yaml.v3's encoder writes it (two spaces, and compact sequences).
// tree's TestWriteGenerated, TestWriteInputs and FuzzWrite compare the two
// on generated trees and that package's corpora.
func TestWriterAgrees(t *testing.T) {
	for _, kind := range corpus.Kinds {
		in := inputs(t, kind)
		for i, name := range in.Names {
			patched, err := KmergeYAML(in.DocYAML[i], in.PatchYAML[i], in.Types[i])
			if err != nil {
				t.Fatal(err)
			}
			for j, text := range [][]byte{in.DocYAML[i], in.PatchYAML[i], patched, in.DocHandYAML[i]} {
				st, err := tree.Read(text, tree.Options{})
				if err != nil {
					t.Fatal(err)
				}
				for _, style := range []tree.Style{{Indent: 2}, {Indent: 2, CompactSequences: true}} {
					var got bytes.Buffer
					if err := tree.WriteYAML(&got, style, st.Docs...); err != nil {
						t.Fatal(err)
					}
					var want bytes.Buffer
					enc := yaml.NewEncoder(&want)
					enc.SetIndent(2)
					if style.CompactSequences {
						enc.CompactSeqIndent()
					}
					for _, d := range st.Docs {
						if err := enc.Encode(d); err != nil {
							t.Fatal(err)
						}
					}
					enc.Close()
					if !bytes.Equal(got.Bytes(), want.Bytes()) {
						t.Fatalf("%s, text %d, style %+v: kmerge writes\n%s\nyaml.v3\n%s", name, j, style, got.Bytes(), want.Bytes())
					}
				}
			}
		}
	}
}
