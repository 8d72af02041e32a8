// Package bench compares kmerge with its peers on the same inputs: the
// strategic merge patch of k8s.io/apimachinery (what an API server and
// kubectl run), kyaml's merge2 (what kustomize runs), and the bare
// go.yaml.in/yaml/v3 parse and emit that any YAML-to-YAML tool pays.
//
// The benchmarks are in bench_test.go; the inputs come from package corpus;
// run.sh runs everything and writes docs/performance.md.
package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/kustomize/kyaml/yaml/merge2"
	"sigs.k8s.io/kustomize/kyaml/yaml/walk"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kmerge/kmerge/bench/corpus"
	"github.com/kmerge/kmerge/internal/fastyaml"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// Schema is kmerge's schema for the corpus: the built-in kinds and the
// Pipeline CRD.
var Schema = func() *schema.Schema {
	crd, err := schema.Load([]byte(corpus.PipelineCRD), "pipeline-crd.yaml")
	if err != nil {
		panic(err)
	}
	return schema.Builtin().Extend(crd)
}()

// KmergeType returns kmerge's type for a case.
func KmergeType(c corpus.Case) *schema.Type {
	t := Schema.Kind(c.APIVersion, c.Kind)
	if t == nil {
		panic("no schema for " + c.Kind)
	}
	return t
}

// UpstreamStruct returns the Go value upstream reads patch metadata from.
func UpstreamStruct(kind string) any {
	switch kind {
	case "Deployment":
		return appsv1.Deployment{}
	case "Service":
		return corev1.Service{}
	case "ConfigMap":
		return corev1.ConfigMap{}
	case "Pipeline":
		return corpus.Pipeline{}
	}
	panic("unknown kind " + kind)
}

// KmergeJSON is kmerge's JSON-to-JSON apply: read both, apply, write JSON.
func KmergeJSON(doc, patch []byte, t *schema.Type) ([]byte, error) {
	d, p, err := readBoth(doc, patch)
	if err != nil {
		return nil, err
	}
	res, err := smp.Apply(d, p, t, smp.Options{})
	if err != nil {
		return nil, err
	}
	return tree.MarshalJSON(res)
}

// readBoth reads the first document of each input with tree.Read.
func readBoth(a, b []byte) (*yaml.Node, *yaml.Node, error) {
	x, err := tree.Read(a, tree.Options{})
	if err != nil {
		return nil, nil, err
	}
	y, err := tree.Read(b, tree.Options{})
	if err != nil {
		return nil, nil, err
	}
	return x.Docs[0], y.Docs[0], nil
}

// UpstreamJSON is k8s.io/apimachinery's StrategicMergePatch, with the patch
// metadata of a Go struct, as an API server applies a strategic patch.
func UpstreamJSON(doc, patch []byte, dataStruct any) ([]byte, error) {
	return strategicpatch.StrategicMergePatch(doc, patch, dataStruct)
}

// KmergeYAML is kmerge's YAML-to-YAML apply, comments kept: read both,
// apply, write through yaml.v3's encoder in the input's style.
func KmergeYAML(doc, patch []byte, t *schema.Type) ([]byte, error) {
	d, err := tree.Read(doc, tree.Options{})
	if err != nil {
		return nil, err
	}
	p, err := tree.Read(patch, tree.Options{})
	if err != nil {
		return nil, err
	}
	if _, err := smp.Apply(d.Docs[0], p.Docs[0], t, smp.Options{}); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = d.WriteYAML(&b)
	return b.Bytes(), err
}

// KmergeYAMLPreserving is what kmerge apply does: the same, but the output
// is the input text with only the changed lines replaced (Snapshot, then
// the splicing writer, which re-reads what it writes to verify it).
func KmergeYAMLPreserving(doc, patch []byte, t *schema.Type) ([]byte, error) {
	return kmergeYAMLPreserving(doc, patch, t, false)
}

// KmergeYAMLValidated is KmergeYAMLPreserving with the result checked
// against its schema before it is written, as kmerge apply and kmerge
// patch do by default (--validate=strict).
func KmergeYAMLValidated(doc, patch []byte, t *schema.Type) ([]byte, error) {
	return kmergeYAMLPreserving(doc, patch, t, true)
}

// KmergeValidate checks a patched document as kmerge does after a patch.
func KmergeValidate(doc *yaml.Node) error {
	if vs := validate.Object(doc, Schema); len(vs) > 0 {
		return fmt.Errorf("%d violations, the first %s", len(vs), vs[0])
	}
	return nil
}

func kmergeYAMLPreserving(doc, patch []byte, t *schema.Type, check bool) ([]byte, error) {
	d, err := tree.Read(doc, tree.Options{})
	if err != nil {
		return nil, err
	}
	p, err := tree.Read(patch, tree.Options{})
	if err != nil {
		return nil, err
	}
	d.Snapshot()
	if _, err := smp.Apply(d.Docs[0], p.Docs[0], t, smp.Options{}); err != nil {
		return nil, err
	}
	if check {
		if err := KmergeValidate(d.Docs[0]); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	err = d.WriteYAML(&b)
	return b.Bytes(), err
}

// kyamlOptions are the merge options kustomize's patchesStrategicMerge
// uses (api/filters/patchstrategicmerge).
var kyamlOptions = kyaml.MergeOptions{ListIncreaseDirection: kyaml.MergeOptionsListPrepend}

// KyamlYAML is kyaml's merge2, as kustomize applies a strategic merge patch:
// parse both, merge the patch into the document, print it. kyaml knows the
// schema of built-in kinds only; for a custom resource (infer) it is told
// to merge lists whose items have a name by that name, as the Pipeline CRD
// says, instead of replacing them.
func KyamlYAML(doc, patch []byte, infer bool) ([]byte, error) {
	d, err := kyaml.Parse(string(doc))
	if err != nil {
		return nil, err
	}
	p, err := kyaml.Parse(string(patch))
	if err != nil {
		return nil, err
	}
	res, err := walk.Walker{
		Sources:               []*kyaml.RNode{d, p},
		Visitor:               merge2.Merger{},
		InferAssociativeLists: infer,
		MergeOptions:          kyamlOptions,
	}.Walk() // merge2.Merge, with InferAssociativeLists
	if err != nil {
		return nil, err
	}
	s, err := res.String()
	return []byte(s), err
}

// UpstreamYAML is upstream's strategic merge patch on YAML, through JSON:
// YAML to JSON (sigs.k8s.io/yaml), StrategicMergePatch, JSON to YAML. It
// loses comments and key order.
func UpstreamYAML(doc, patch []byte, dataStruct any) ([]byte, error) {
	dj, err := sigsyaml.YAMLToJSON(doc)
	if err != nil {
		return nil, err
	}
	pj, err := sigsyaml.YAMLToJSON(patch)
	if err != nil {
		return nil, err
	}
	res, err := strategicpatch.StrategicMergePatch(dj, pj, dataStruct)
	if err != nil {
		return nil, err
	}
	return sigsyaml.JSONToYAML(res)
}

// YAMLv3Floor is the bare go.yaml.in/yaml/v3 parse of the document into
// nodes and emit of them: the least any YAML-to-YAML tool built on yaml.v3
// pays.
func YAMLv3Floor(doc []byte) ([]byte, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(doc, &n); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, err
	}
	err := enc.Close()
	return b.Bytes(), err
}

// KmergeRead is kmerge's YAML reader as tree.Read uses it:
// internal/fastyaml, giving the trees yaml.v3 gives, and yaml.v3's Decoder
// for what it declines (*fastyaml.Unsupported: the generated corpus never,
// controller-gen's CRDs today), so that the benchmark times what a user's
// run costs.
func KmergeRead(doc []byte) ([]*yaml.Node, error) {
	docs, err := fastyaml.Parse(doc, 0)
	var declined *fastyaml.Unsupported
	if errors.As(err, &declined) {
		return YAMLv3Read(doc)
	}
	return docs, err
}

// KmergeSkim is how kmerge apply reads a document no patch targets:
// internal/fastyaml's Skim, which reads it as Parse does but builds only
// what identifies an object (the outline package resource asks for).
//
// What Skim declines is read whole, as KmergeRead reads it (yaml.v3's
// Decoder, when the reader declines too), and the outline taken from the
// trees: the cost of that path.
func KmergeSkim(doc []byte) ([]fastyaml.Skimmed, error) {
	sk, err := fastyaml.Skim(doc, identity)
	var declined *fastyaml.Unsupported
	if errors.As(err, &declined) {
		docs, err := KmergeRead(doc)
		if err != nil {
			return nil, err
		}
		sk = make([]fastyaml.Skimmed, len(docs))
		for i, d := range docs {
			sk[i].Doc = d
		}
		return sk, nil
	}
	return sk, err
}

var identity = &fastyaml.Outline{Fields: map[string]*fastyaml.Outline{
	"apiVersion": nil, "kind": nil,
	"metadata": {Fields: map[string]*fastyaml.Outline{"name": nil, "namespace": nil}},
}}

// YAMLv3Read is yaml.v3's Decoder, one Decode per document, as tree.Read
// parsed every YAML input before kmerge had its own reader, and still
// parses what that reader declines.
func YAMLv3Read(doc []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(doc))
	var docs []*yaml.Node
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if err == io.EOF {
				return docs, nil
			}
			return nil, err
		}
		docs = append(docs, &n)
	}
}

// KmergeDiff is kmerge's two-way patch creation, JSON in and out.
func KmergeDiff(orig, mod []byte, t *schema.Type) ([]byte, error) {
	o, m, err := readBoth(orig, mod)
	if err != nil {
		return nil, err
	}
	p, err := smp.CreateTwoWayPatch(o, m, t, smp.DiffOptions{})
	if err != nil {
		return nil, err
	}
	return tree.MarshalJSON(p)
}

// UpstreamDiff is upstream's CreateTwoWayMergePatch.
func UpstreamDiff(orig, mod []byte, dataStruct any) ([]byte, error) {
	return strategicpatch.CreateTwoWayMergePatch(orig, mod, dataStruct)
}

// Inputs are a set of cases in every form the implementations take. They
// hold bytes, not the generator's trees, so that the garbage collector
// has little to scan besides what the code measured allocates.
type Inputs struct {
	Names              []string // kind and name of each case
	DocJSON, PatchJSON [][]byte
	DocYAML, PatchYAML [][]byte
	DocHandYAML        [][]byte // DocYAML as a person writes it (corpus.HandWritten)
	DocCommentedYAML   [][]byte // DocHandYAML with a comment on every value's line (corpus.Commented)
	Modified           [][]byte // the documents after the patch (JSON), for diffs
	Types              []*schema.Type
	Structs            []any
	Infer              []bool // kyaml has no schema for the kind
	Bytes              int    // total size of the YAML documents
	DocJSONBytes       int
}

// Prepare computes every form of the cases.
func Prepare(cases []corpus.Case) (*Inputs, error) {
	in := &Inputs{}
	for _, c := range cases {
		in.Names = append(in.Names, c.Kind+" "+c.Name)
		dj, pj := c.DocJSON(), c.PatchJSON()
		mod, err := UpstreamJSON(dj, pj, UpstreamStruct(c.Kind))
		if err != nil {
			return nil, fmt.Errorf("%s %s: %v", c.Kind, c.Name, err)
		}
		in.DocJSON = append(in.DocJSON, dj)
		in.PatchJSON = append(in.PatchJSON, pj)
		in.DocYAML = append(in.DocYAML, c.DocYAML())
		in.DocHandYAML = append(in.DocHandYAML, c.DocHandYAML())
		in.DocCommentedYAML = append(in.DocCommentedYAML, c.DocCommentedYAML())
		in.PatchYAML = append(in.PatchYAML, c.PatchYAML())
		in.Modified = append(in.Modified, mod)
		in.Types = append(in.Types, KmergeType(c))
		in.Structs = append(in.Structs, UpstreamStruct(c.Kind))
		in.Infer = append(in.Infer, c.Kind == "Pipeline")
		in.Bytes += len(in.DocYAML[len(in.DocYAML)-1])
		in.DocJSONBytes += len(dj)
	}
	return in, nil
}

// SortLists sorts every list of a decoded JSON value by the JSON text of its
// items, in place, and returns it: two values equal after SortLists hold
// the same items in every list, in any order.
func SortLists(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = SortLists(e)
		}
	case []any:
		type item struct {
			key string
			v   any
		}
		items := make([]item, len(v))
		for i, e := range v {
			e = SortLists(e)
			b, _ := json.Marshal(e)
			items[i] = item{string(b), e}
		}
		slices.SortStableFunc(items, func(a, b item) int { return strings.Compare(a.key, b.key) })
		for i := range items {
			v[i] = items[i].v
		}
	}
	return v
}
