package upstreamsrc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"k8s.io/apimachinery/pkg/util/strategicpatch"
)

// SortMergeLists normalises a JSON object the way upstream's tests
// normalise the documents of two of their YAML tables before use, so that
// list order in their expectations means what it meant to upstream (its
// own helper for this is unexported). The rule, which TestSortMergeLists
// checks on upstream's test table for that helper (table 01) and
// TestUpstreamAssertions on every document of tables 02 and 04: every list
// the schema gives the merge strategy is sorted, a list of objects by the text (%v) of
// each object's merge key, its objects normalised in turn; a list of
// scalars loses its duplicates and is sorted by the text of its values.
// Objects are normalised field by field; lists without the merge strategy,
// and everything in them, stay as they are. The result is encoded with
// encoding/json (sorted keys); numbers keep their text.
func SortMergeLists(doc []byte, schema strategicpatch.LookupPatchMeta) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if err := sortObject(v, schema); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func sortObject(obj map[string]any, schema strategicpatch.LookupPatchMeta) error {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the first error is the same on every run
	for _, k := range keys {
		switch v := obj[k].(type) {
		case map[string]any:
			sub, _, err := schema.LookupPatchMetadataForStruct(k)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			if err := sortObject(v, sub); err != nil {
				return fmt.Errorf("%s.%w", k, err)
			}
		case []any:
			sub, meta, err := schema.LookupPatchMetadataForSlice(k)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			if !slices.Contains(meta.GetPatchStrategies(), "merge") {
				continue
			}
			sorted, err := sortList(v, sub, meta.GetPatchMergeKey())
			if err != nil {
				return fmt.Errorf("%s%w", k, err)
			}
			obj[k] = sorted
		}
	}
	return nil
}

// sortList sorts a list with the merge strategy (see SortMergeLists).
func sortList(list []any, elem strategicpatch.LookupPatchMeta, mergeKey string) ([]any, error) {
	if len(list) == 0 {
		return list, nil
	}
	text := func(v any) string { return fmt.Sprintf("%v", v) }
	if _, ok := list[0].(map[string]any); ok {
		keys := make([]string, len(list))
		for i, e := range list {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("[%d]: objects and other values in one list", i)
			}
			if err := sortObject(m, elem); err != nil {
				return nil, fmt.Errorf("[%d].%w", i, err)
			}
			keys[i] = text(m[mergeKey])
		}
		idx := make([]int, len(list))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
		out := make([]any, len(list))
		for i, j := range idx {
			out[i] = list[j]
		}
		return out, nil
	}
	seen := map[string]bool{}
	var out []any
	for i, e := range list {
		switch e.(type) {
		case map[string]any, []any:
			return nil, fmt.Errorf("[%d]: objects and other values in one list", i)
		}
		if t := text(e); !seen[t] {
			seen[t] = true
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return text(out[a]) < text(out[b]) })
	return out, nil
}

// sortTable normalises every document of a table with each flavour of its
// schema; the flavours must agree.
func sortTable(t *Table, flavors func(schema string) ([]Flavor, error)) error {
	fls, err := flavors(t.Schema)
	if err != nil {
		return err
	}
	for _, c := range t.Cases {
		for name, doc := range c.JSON {
			var first []byte
			for i, fl := range fls {
				b, err := SortMergeLists([]byte(doc), fl.Meta)
				if err != nil {
					return fmt.Errorf("case %q: %s: sorting with the %s flavour: %v", c.Description, name, fl.Name, err)
				}
				if i == 0 {
					first = b
				} else if !bytes.Equal(b, first) {
					return fmt.Errorf("case %q: %s: the %s flavour sorts it as %s, the %s flavour as %s", c.Description, name, fls[0].Name, first, fl.Name, b)
				}
			}
			c.JSON[name] = string(first)
		}
	}
	return nil
}
