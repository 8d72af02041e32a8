package tree

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestRerender: writing an edited stream by rendering only the changed
// entries (rerender) gives the bytes the general way gives (render the
// documents whole, splice or take the rendering), and reads as the edited
// documents (rerender reads back only what it has not proven), on random
// edits of the preservation corpus, of its yaml.v3 renderings (YAML as
// programs write it), and of the fuzz corpora. Every other seed edits only below the
// root (an edit of the root's keys is written the general way): then most
// edited documents of the renderings of the preservation corpus must take
// the fast way (not those with anchors, flow collections over several
// lines, or foot comments in what changed).
func TestRerender(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	inputs := outlineInputs(t)
	for name, data := range outlineInputs(t) {
		st, err := Read(data, Options{})
		if err != nil || st.Format != YAML {
			continue
		}
		var b bytes.Buffer
		if WriteYAML(&b, st.Style, st.Docs...) == nil {
			inputs["rendered "+name] = b.Bytes()
			// with CRLF line ends: rerendered as without, the CRs put back
			inputs["rendered crlf "+name] = bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte("\r\n"))
		}
		if bytes.IndexByte(data, '\r') < 0 {
			inputs["crlf "+name] = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
		}
	}
	counts := map[outcome]int{}
	crlfFast, crlfEdited := 0, 0
	canonicalFast, canonicalEdited := 0, 0
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		data := inputs[name]
		if _, err := Read(data, Options{}); err != nil {
			continue
		}
		for range 20 {
			seed := r.Uint64()
			fast, outcomes := rerenderEdit(t, data, seed, true)
			slow, _ := rerenderEdit(t, data, seed, false)
			if !bytes.Equal(fast, slow) {
				t.Fatalf("%s, seed %d: rerendering writes\n%s\nthe general way\n%s", name, seed, fast, unified(slow, fast))
			}
			for _, o := range outcomes {
				counts[o]++
				if seed%2 == 0 && strings.HasPrefix(name, "rendered crlf ") && !strings.Contains(name, "fuzz") && o != copied {
					crlfEdited++
					if o == rerendered {
						crlfFast++
					}
				}
				if seed%2 == 0 && strings.HasPrefix(name, "rendered ") && !strings.Contains(name, "fuzz") && o != copied {
					canonicalEdited++
					if o == rerendered {
						canonicalFast++
					}
				}
			}
		}
	}
	t.Logf("outcomes: %v; rendered sources: %d of %d edited documents rerendered (with CRLF: %d of %d)", counts, canonicalFast, canonicalEdited, crlfFast, crlfEdited)
	if crlfFast*10 < crlfEdited*7 {
		t.Errorf("only %d of %d edited documents of rendered sources with CRLF line ends were rerendered", crlfFast, crlfEdited)
	}
	if canonicalFast*10 < canonicalEdited*7 {
		t.Errorf("only %d of %d edited documents of rendered sources were rerendered", canonicalFast, canonicalEdited)
	}
}

// rerenderEdit reads data, makes random edits by seed (values set, keys
// added and deleted, items added and removed, anywhere, or below the root
// for an even seed), and writes the
// stream, fast (WriteYAML) or the general way (preserved, or the whole
// stream rendered when that gives up); it returns the text and how
// preservedWith(fast) wrote each document.
func rerenderEdit(t *testing.T, data []byte, seed uint64, fast bool) ([]byte, []outcome) {
	t.Helper()
	st, err := Read(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Snapshot()
	st.noReplace = true // changed values written in place differ from the general way on purpose (TestReplaceValues)
	r := rand.New(rand.NewPCG(seed, 2))
	values := []string{"x", "a: 1\nb: [2]", "- p\n- q", "{f: 1}", "|\n  text\n  more\n", "# c\nk: v # d\n", "long " + string(bytes.Repeat([]byte("word "), 30))}
	var colls []*yaml.Node
	var collect func(n *yaml.Node)
	collect = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			colls = append(colls, n)
		}
		for _, c := range n.Content {
			collect(c)
		}
	}
	for _, d := range st.Docs {
		if root := Root(d); seed%2 == 0 && root != nil {
			for _, c := range root.Content {
				collect(c)
			}
		} else {
			collect(d)
		}
	}
	if len(colls) == 0 {
		return data, nil
	}
	for e := range 1 + r.IntN(4) {
		c := colls[r.IntN(len(colls))]
		v, err := parseValue(values[r.IntN(len(values))])
		if err != nil {
			t.Fatal(err)
		}
		switch n := len(c.Content); {
		case c.Kind == yaml.MappingNode && n > 0 && r.IntN(3) == 0:
			i := 2 * r.IntN(n/2)
			c.Content = slices.Delete(c.Content, i, i+2)
		case c.Kind == yaml.MappingNode && n > 0 && r.IntN(2) == 0:
			c.Content[2*r.IntN(n/2)+1] = v
		case c.Kind == yaml.MappingNode:
			MapSet(c, "new"+strconv.Itoa(e), v)
		case n > 0 && r.IntN(2) == 0:
			c.Content[r.IntN(n)] = v
		case n > 0 && r.IntN(2) == 0:
			i := r.IntN(n)
			c.Content = slices.Delete(c.Content, i, i+1)
		default:
			c.Content = append(c.Content, v)
		}
	}
	out, outcomes, err := st.preservedWith(fast)
	if err != nil {
		return []byte("error: " + err.Error()), nil
	}
	if out == nil {
		var b bytes.Buffer
		if err := WriteYAML(&b, st.Style, st.Docs...); err != nil {
			return []byte("error: " + err.Error()), nil
		}
		return b.Bytes(), nil
	}
	if fast {
		if w := write(t, st); !bytes.Equal(w, out) {
			t.Fatalf("WriteYAML and preservedWith(true) differ")
		}
		// what is written reads as the edited documents, with their
		// comments, even where it was not read back (rerender's proven)
		docs, err := readYAML(out, "", Limits{})
		if err != nil || len(docs) != len(st.Docs) {
			t.Fatalf("the output does not read as %d documents: %v\n%s", len(st.Docs), err, out)
		}
		for i, o := range outcomes {
			if o == rerendered && (!Equal(docs[i], st.Docs[i]) || !sameComments(docs[i], st.Docs[i])) {
				t.Fatalf("document %d, rerendered, reads otherwise:\n%s", i, out)
			}
		}
	}
	return out, outcomes
}

// FuzzRerender: on any input and random edits, rerendering writes what the
// general way writes, and so does the input rendered by yaml.v3 first (YAML
// as programs write it, where rerendering applies most).
func FuzzRerender(f *testing.F) {
	for _, data := range outlineInputs(f) {
		f.Add(string(data), uint64(0))
		f.Add(string(data), uint64(1))
		f.Add(string(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))), uint64(0))
	}
	f.Fuzz(func(t *testing.T, src string, seed uint64) {
		lim := Limits{MaxBytes: 1 << 16, MaxDocuments: 50, MaxDepth: 50, MaxNodes: 5000}
		st, err := Read([]byte(src), Options{Limits: &lim})
		if err != nil || st.Format != YAML {
			return
		}
		inputs := [][]byte{[]byte(src)}
		var b bytes.Buffer
		if WriteYAML(&b, st.Style, st.Docs...) == nil {
			if _, err := Read(b.Bytes(), Options{Limits: &lim}); err == nil {
				inputs = append(inputs, b.Bytes())
			}
		}
		for _, in := range inputs {
			fast, _ := rerenderEdit(t, in, seed, true)
			slow, _ := rerenderEdit(t, in, seed, false)
			if !bytes.Equal(fast, slow) {
				t.Fatalf("rerendering writes\n%s\nthe general way\n%s", fast, unified(slow, fast))
			}
		}
	})
}
