package kmerge

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// MaskSecrets returns two texts, streams of objects, as ApplyResult.Diff
// shows a file's input and output: the values of their v1 Secrets masked
// ("***"), the objects at one place (document, item of a List) of the two
// paired, so that a value that changed shows as "*** (before)" and "***
// (after)", and a scalar that holds one of a pair's secret values (an
// annotation that copies the object) masked by value. A text that cannot
// be read is replaced by a note saying so. limits bound the reading (nil:
// tree.DefaultLimits()).
func MaskSecrets(input, output []byte, limits *tree.Limits) (string, string) {
	return maskTexts(&File{Input: input, Output: output}, limits, nil, nil)
}

// maskTexts returns a changed file's input and output as ApplyResult.Diff
// shows them: with the values of their Secrets (documents, and items of
// List documents) masked by internal/secret. An object that is a Secret on
// either side (a patch may change its apiVersion or kind), or was one
// while the patches ran (run), is masked on both, as a pair with the object in the same place (document, item) of
// the other side, so that a value that changed shows as "*** (before)" and
// "*** (after)"; and every other scalar of the pair that is or holds one of
// their secret values (a value a JSON patch copied or moved out of data)
// is masked by value (secret.Values.Pair), with the values the run
// gathered of the object (run: a value a patch gave it and a later one
// moved out is in neither text). The objects of a pair are in the same
// place once the objects the patches deleted (deleted, their places in
// the input) are counted out of the input: the Deployment after a deleted
// Secret was paired with that Secret, and shown as changed, its values
// equal to the Secret's masked on one side and in clear on the other.
// Each side is read as a stream
// of objects and written back as the patches' output is written, keeping
// the text of everything else; only the documents holding such a pair are
// parsed. Text without the word Secret holds none and is returned as it
// is.
func maskTexts(f *File, limits *tree.Limits, run []placedSecrets, deleted []objPlace) (string, string) {
	word := []byte("Secret")
	if len(run) == 0 && !bytes.Contains(f.Input, word) && !bytes.Contains(f.Output, word) {
		return string(f.Input), string(f.Output)
	}
	type place = objPlace
	ran := map[place]*secret.Values{} // the run's values, by place
	docs := map[int]bool{}            // the documents to parse, by their number in the input
	for _, s := range run {
		ran[place{s.doc, s.item}] = s.vals
		docs[s.doc] = true
	}
	in2out, out2in := placesOf(deleted)
	// the places of the Secrets of either side, then each side read again
	// with the documents of those places parsed, when it has one there
	// that is no Secret
	in, inErr := readSecrets(f.Input, limits, nil)
	out, outErr := readSecrets(f.Output, limits, nil)
	if inErr == nil && outErr == nil {
		for i, set := range []*resource.Set{in, out} {
			for _, r := range set.Resources {
				if secret.Holds(r.APIVersion, r.Kind) {
					at := place{r.Doc, -1}
					if i == 1 {
						at = out2in(at)
					}
					docs[at.doc] = true
				}
			}
		}
		outDocs := map[int]bool{}
		for d := range docs {
			if o, ok := in2out(d); ok {
				outDocs[o] = true
			}
		}
		if outlined(in, docs) {
			in, inErr = readSecrets(f.Input, limits, docs)
		}
		if outlined(out, outDocs) {
			out, outErr = readSecrets(f.Output, limits, outDocs)
		}
	}
	if inErr != nil || outErr != nil {
		// what cannot be read cannot be masked: it is not shown
		note := "# kmerge: the %s of this file cannot be read to find its Secrets and mask them; --show-secrets shows it\n"
		return fmt.Sprintf(note, "input"), fmt.Sprintf(note, "output")
	}
	pairs := map[place][2]*resource.Resource{}
	var order []place
	for i, set := range []*resource.Set{in, out} {
		for _, r := range set.Resources {
			at := place{r.Doc, r.Item}
			if i == 1 {
				at = out2in(at)
			}
			p, ok := pairs[at]
			if !ok {
				order = append(order, at)
			}
			p[i] = r
			pairs[at] = p
		}
	}
	var masked [2][][2]*yaml.Node // by side: each masked object's root, and what it shows
	for _, at := range order {
		p := pairs[at]
		if ran[at] == nil && !slices.ContainsFunc(p[:], func(r *resource.Resource) bool { return r != nil && secret.Holds(r.APIVersion, r.Kind) }) {
			continue
		}
		vals := &secret.Values{}
		vals.Mark()
		vals.Include(ran[at])
		var roots [2]*yaml.Node
		for i, r := range p {
			if r != nil {
				roots[i] = r.Root
				vals.Observe(r.Root)
			}
		}
		ma, mb := vals.Pair(roots[0], roots[1], nil)
		for i, m := range [2]*yaml.Node{ma, mb} {
			if roots[i] != nil && m != roots[i] {
				masked[i] = append(masked[i], [2]*yaml.Node{roots[i], m})
			}
		}
	}
	var text [2]string
	for i, set := range []*resource.Set{in, out} {
		if set.Sources[0].Stream.Format == tree.JSON {
			text[i] = spliceJSON([][]byte{f.Input, f.Output}[i], masked[i])
			continue
		}
		for _, m := range masked[i] {
			*m[0] = *m[1]
		}
		var err error
		if text[i], err = writeMasked(set); err != nil {
			note := "# kmerge: the %s of this file cannot be written with its Secrets masked; --show-secrets shows it\n"
			return fmt.Sprintf(note, "input"), fmt.Sprintf(note, "output")
		}
	}
	return text[0], text[1]
}

// placesOf returns, for the places of the objects of a file the patches
// deleted (in the input), what the document numbered d in the input is
// numbered in the output (ok false: deleted), and the place in the input
// of the object at a place of the output.
func placesOf(deleted []objPlace) (in2out func(d int) (int, bool), out2in func(objPlace) objPlace) {
	var docs []int           // the documents deleted
	items := map[int][]int{} // the List items deleted, by document
	for _, d := range deleted {
		if d.item < 0 {
			docs = append(docs, d.doc)
		} else {
			items[d.doc] = append(items[d.doc], d.item)
		}
	}
	slices.Sort(docs)
	for _, its := range items {
		slices.Sort(its)
	}
	in2out = func(d int) (int, bool) {
		n, found := slices.BinarySearch(docs, d)
		return d - n, !found
	}
	out2in = func(p objPlace) objPlace {
		p.doc = kept(docs, p.doc)
		if p.item >= 0 {
			p.item = kept(items[p.doc], p.item)
		}
		return p
	}
	return in2out, out2in
}

// kept returns the number of the n-th (from 0) of 0, 1, 2, ... that is
// not in deleted (sorted): the smallest k of which n+1 are kept up to k.
func kept(deleted []int, n int) int {
	return n + sort.Search(len(deleted)+1, func(j int) bool {
		k := n + j
		upTo, _ := slices.BinarySearch(deleted, k+1) // deleted up to k
		return k+1-upTo >= n+1
	})
}

// outlined reports whether a document of docs is an outline in set (not
// parsed: readSecrets parses the documents holding a Secret).
func outlined(set *resource.Set, docs map[int]bool) bool {
	for _, src := range set.Sources {
		for d := range docs {
			if d < len(src.Stream.Docs) && src.Stream.Outlined(d) {
				return true
			}
		}
	}
	return false
}

// readSecrets reads the objects of a text, parsing only the documents
// that hold a Secret, or whose number docs holds, and snapshots its stream
// to write it back keeping the text. Its format is found from the text,
// not the file's name: a touched .json file's output is YAML.
func readSecrets(data []byte, limits *tree.Limits, docs map[int]bool) (*resource.Set, error) {
	set, err := resource.Parse(data, "text", resource.LoadOptions{Limits: limits, Workers: 1,
		Select: func(r *resource.Resource) bool { return secret.Holds(r.APIVersion, r.Kind) || docs[r.Doc] }})
	if err != nil {
		return nil, err
	}
	for _, src := range set.Sources {
		src.Stream.Snapshot()
	}
	return set, nil
}

// writeMasked writes a YAML set read by readSecrets, after masking, as
// the patches' output is written: the text kept but for the masked
// values' lines.
func writeMasked(set *resource.Set) (string, error) {
	var b bytes.Buffer
	for _, src := range set.Sources {
		if err := src.Stream.WriteYAML(&b); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// spliceJSON returns a JSON text with the tokens of the masked scalars
// replaced: masked holds, for each masked object, its root as read and
// what it shows, which shares the nodes it does not mask; a masked scalar
// replaces the token at the line and column (in bytes) of the scalar it
// replaces, and a JSON value is one token, a string from quote to quote,
// else up to the next delimiter.
func spliceJSON(data []byte, masked [][2]*yaml.Node) string {
	lineStart := []int{0, 0} // by line, from 1
	for i, c := range data {
		if c == '\n' {
			lineStart = append(lineStart, i+1)
		}
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	var walk func(n, m *yaml.Node)
	walk = func(n, m *yaml.Node) {
		if n == m || n == nil || m == nil {
			return
		}
		if n.Kind != yaml.ScalarNode || m.Kind != yaml.ScalarNode {
			for i := 0; i < len(n.Content) && i < len(m.Content); i++ {
				walk(n.Content[i], m.Content[i])
			}
			return
		}
		if n.Line < 1 || n.Line >= len(lineStart) {
			return
		}
		from := lineStart[n.Line] + n.Column - 1
		if from < 0 || from >= len(data) {
			return
		}
		to := from + 1
		if data[from] == '"' {
			for to < len(data) && data[to] != '"' {
				if data[to] == '\\' {
					to++
				}
				to++
			}
			to++
		} else {
			for to < len(data) && !strings.ContainsRune(",}] \t\r\n", rune(data[to])) {
				to++
			}
		}
		edits = append(edits, edit{from, min(to, len(data)), strconv.Quote(m.Value)})
	}
	for _, p := range masked {
		walk(p[0], p[1])
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.from - b.from })
	var b strings.Builder
	at := 0
	for _, e := range edits {
		if e.from < at {
			continue // cannot happen: one token, one value
		}
		b.Write(data[at:e.from])
		b.WriteString(e.text)
		at = e.to
	}
	b.Write(data[at:])
	return b.String()
}
