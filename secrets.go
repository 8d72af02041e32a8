package kmerge

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// maskTexts returns a changed file's input and output as ApplyResult.Diff
// shows them: with the values of their Secrets (documents, and items of
// List documents) masked by internal/secret, a Secret of the input and one
// of the output in the same place (document, item) masked as a pair, so
// that a value that changed shows as "*** (before)" and "*** (after)".
// Each side is read as a stream of objects and written back as the
// patches' output is written, keeping the text of everything else; only
// the documents holding a Secret are parsed. Text without the word Secret
// holds none and is returned as it is.
func maskTexts(f *File, limits *tree.Limits) (string, string) {
	word := []byte("Secret")
	if !bytes.Contains(f.Input, word) && !bytes.Contains(f.Output, word) {
		return string(f.Input), string(f.Output)
	}
	in, inErr := readSecrets(f.Input, limits)
	out, outErr := readSecrets(f.Output, limits)
	if inErr != nil || outErr != nil {
		// what cannot be read cannot be masked: it is not shown
		note := "# kmerge: the %s of this file cannot be read to find its Secrets and mask them; --show-secrets shows it\n"
		return fmt.Sprintf(note, "input"), fmt.Sprintf(note, "output")
	}
	type place struct{ doc, item int }
	byPlace := map[place]*resource.Resource{}
	for _, r := range out.Resources {
		byPlace[place{r.Doc, r.Item}] = r
	}
	masked := map[*resource.Resource]bool{}
	for _, a := range in.Resources {
		if !secret.Holds(a.APIVersion, a.Kind) {
			continue
		}
		b := byPlace[place{a.Doc, a.Item}]
		if b == nil || !secret.Holds(b.APIVersion, b.Kind) {
			*a.Root = *secret.Value(a.Root, nil)
			continue
		}
		ma, mb := secret.Pair(a.Root, b.Root, nil)
		*a.Root, *b.Root = *ma, *mb
		masked[b] = true
	}
	for _, b := range out.Resources {
		if secret.Holds(b.APIVersion, b.Kind) && !masked[b] {
			*b.Root = *secret.Value(b.Root, nil)
		}
	}
	textIn, inErr := writeMasked(in, f.Input)
	textOut, outErr := writeMasked(out, f.Output)
	if inErr != nil || outErr != nil {
		note := "# kmerge: the %s of this file cannot be written with its Secrets masked; --show-secrets shows it\n"
		return fmt.Sprintf(note, "input"), fmt.Sprintf(note, "output")
	}
	return textIn, textOut
}

// readSecrets reads the objects of a text, parsing only the documents
// that hold a Secret, and snapshots its stream to write it back keeping
// the text. Its format is found from the text, not the file's name: a
// touched .json file's output is YAML.
func readSecrets(data []byte, limits *tree.Limits) (*resource.Set, error) {
	set, err := resource.Parse(data, "text", resource.LoadOptions{Limits: limits, Workers: 1,
		Select: func(r *resource.Resource) bool { return secret.Holds(r.APIVersion, r.Kind) }})
	if err != nil {
		return nil, err
	}
	for _, src := range set.Sources {
		src.Stream.Snapshot()
	}
	return set, nil
}

// writeMasked writes a set read by readSecrets from data, after masking:
// YAML as the patches' output is written (the text kept but for the
// masked values' lines), JSON as data with the masked values' tokens
// replaced (spliceJSON).
func writeMasked(set *resource.Set, data []byte) (string, error) {
	var b bytes.Buffer
	for _, src := range set.Sources {
		if src.Stream.Format == tree.JSON {
			return spliceJSON(data, set), nil
		}
		if err := src.Stream.WriteYAML(&b); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// spliceJSON returns a JSON text with the tokens of the Secrets' masked
// values replaced by the masks: the masked scalars keep the lines and
// columns (in bytes) of the values they replace, and a JSON value is one
// token, a string from quote to quote, else up to the next delimiter.
func spliceJSON(data []byte, set *resource.Set) string {
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
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind != yaml.ScalarNode {
			for _, c := range n.Content {
				walk(c)
			}
			return
		}
		if n.Value != secret.Mask && n.Value != secret.Before && n.Value != secret.After || n.Line < 1 || n.Line >= len(lineStart) {
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
		edits = append(edits, edit{from, min(to, len(data)), strconv.Quote(n.Value)})
	}
	for _, r := range set.Resources {
		if secret.Holds(r.APIVersion, r.Kind) {
			for _, field := range []string{"data", "stringData"} {
				if v := tree.MapGet(r.Root, field); v != nil {
					walk(v)
				}
			}
		}
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
