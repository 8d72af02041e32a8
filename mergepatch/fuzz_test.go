package mergepatch_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/tree"
)

// FuzzApply applies a merge patch to a document, both JSON or YAML (inputs
// that tree.Read rejects are skipped), as document nodes and as root values,
// and checks that Apply does not fail or panic; that the patch is unchanged
// and shares no node with the result; that an object document is edited in
// place; that the result is what a plain RFC 7396 implementation on decoded
// JSON gives, keys in the same order; and that applying the patch again
// changes nothing, not even a byte of the YAML output (merge patches are
// idempotent).
func FuzzApply(f *testing.F) {
	for _, c := range loadRFCCases(f) {
		f.Add(c.Original, c.Patch)
	}
	f.Add(string(nodetest.MustRead(f, "preserve", "original.yaml")), string(nodetest.MustRead(f, "preserve", "patch.yaml")))
	f.Add("a: &x {b: 1}\nc: *x\n<<: {m: 1}\n", "c: {b: null, d: [1, null, {e: null}]}\nm: ~\n")
	f.Add("", "a: 1\n")
	f.Add("a: 1\n", "")
	f.Add("a: 'x' # c\nb: [1]\n", "a: 1\nb: {c: {d: null}}\n")
	f.Add("---\n--- a\n", "a: 0x1F\nb: .inf\n")

	nodetest.FuzzDocPatch(f, checkApply)
}

func checkApply(t *testing.T, doc, patch *yaml.Node) {
	docRoot := tree.Root(doc)
	docJSON, docErr := tree.MarshalJSON(doc)
	patchJSON, patchErr := tree.MarshalJSON(patch)
	before := tree.Clone(patch)

	got, err := mergepatch.Apply(doc, patch, mergepatch.Options{})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got == nil {
		t.Fatalf("Apply returned nil")
	}
	if !reflect.DeepEqual(patch, before) {
		t.Fatalf("Apply modified the patch")
	}
	nodetest.CheckNoSharing(t, got, patch)
	if tree.KindOf(docRoot) == tree.Object && tree.KindOf(patch) == tree.Object && tree.Root(got) != docRoot {
		t.Errorf("object document not edited in place")
	}

	if docErr == nil && patchErr == nil {
		want := render(refMerge(decodeOrdered(t, docJSON), decodeOrdered(t, patchJSON)))
		gotJSON, err := tree.MarshalJSON(got)
		if err != nil {
			t.Fatalf("MarshalJSON of the result: %v", err)
		}
		if g := render(decodeOrdered(t, gotJSON)); g != want {
			t.Errorf("result %s\nwant  %s\n(document %s, patch %s)", g, want, docJSON, patchJSON)
		}
	}

	once := tree.Clone(got)
	var onceYAML bytes.Buffer
	yamlErr := tree.WriteYAML(&onceYAML, tree.Style{Indent: 2}, once)
	again, err := mergepatch.Apply(got, patch, mergepatch.Options{})
	if err != nil {
		t.Fatalf("Apply again: %v", err)
	}
	if !tree.Equal(once, again) || !slices.Equal(nodetest.KeyOrder(once), nodetest.KeyOrder(again)) {
		t.Errorf("applying the patch twice gives %s, once %s", jsonOf2(again), jsonOf2(once))
	}
	var againYAML bytes.Buffer
	if yamlErr == nil && tree.WriteYAML(&againYAML, tree.Style{Indent: 2}, again) == nil && againYAML.String() != onceYAML.String() {
		t.Errorf("applying the patch twice changes the YAML:\n%s\nonce:\n%s", againYAML.Bytes(), onceYAML.Bytes())
	}
	if !reflect.DeepEqual(patch, before) {
		t.Fatalf("Apply modified the patch the second time")
	}
}

func jsonOf2(n *yaml.Node) string {
	b, err := tree.MarshalJSON(n)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// The reference: RFC 7396 as its pseudo-code states it, on JSON decoded into
// objects that keep their key order.

type member struct {
	key string
	val any
}

type object []member

func decodeOrdered(t *testing.T, data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var value func() any
	value = func() any {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("decode %s: %v", data, err)
		}
		switch tok {
		case json.Delim('{'):
			o := object{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					t.Fatalf("decode %s: %v", data, err)
				}
				o = append(o, member{k.(string), value()})
			}
			dec.Token()
			return o
		case json.Delim('['):
			a := []any{}
			for dec.More() {
				a = append(a, value())
			}
			dec.Token()
			return a
		}
		return tok
	}
	return value()
}

func refMerge(target, patch any) any {
	p, ok := patch.(object)
	if !ok {
		return patch
	}
	t, ok := target.(object)
	if !ok {
		t = object{}
	}
	t = slices.Clone(t)
	for _, m := range p {
		i := slices.IndexFunc(t, func(e member) bool { return e.key == m.key })
		switch {
		case m.val == nil:
			if i >= 0 {
				t = slices.Delete(t, i, i+1)
			}
		case i >= 0:
			t[i].val = refMerge(t[i].val, m.val)
		default:
			t = append(t, member{m.key, refMerge(nil, m.val)})
		}
	}
	return t
}

// render writes a decoded value as a string that two values share exactly
// when they are equal, keys in order.
func render(v any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case object:
			b.WriteString("{")
			for i, m := range v {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, "%q:", m.key)
				walk(m.val)
			}
			b.WriteString("}")
		case []any:
			b.WriteString("[")
			for i, e := range v {
				if i > 0 {
					b.WriteString(",")
				}
				walk(e)
			}
			b.WriteString("]")
		case string:
			fmt.Fprintf(&b, "%q", v)
		default:
			fmt.Fprintf(&b, "%v", v)
		}
	}
	walk(v)
	return b.String()
}
