package kmerge

import (
	"bytes"
	"fmt"

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
	in, inErr := readSecrets(f.Input, f.Path, limits)
	out, outErr := readSecrets(f.Output, f.Path, limits)
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
	textIn, inErr := writeMasked(in)
	textOut, outErr := writeMasked(out)
	if inErr != nil || outErr != nil {
		note := "# kmerge: the %s of this file cannot be written with its Secrets masked; --show-secrets shows it\n"
		return fmt.Sprintf(note, "input"), fmt.Sprintf(note, "output")
	}
	return textIn, textOut
}

// readSecrets reads the objects of a text, parsing only the documents
// that hold a Secret, and snapshots its stream to write it back keeping
// the text.
func readSecrets(data []byte, file string, limits *tree.Limits) (*resource.Set, error) {
	set, err := resource.Parse(data, file, resource.LoadOptions{Limits: limits, Workers: 1,
		Select: func(r *resource.Resource) bool { return secret.Holds(r.APIVersion, r.Kind) }})
	if err != nil {
		return nil, err
	}
	for _, src := range set.Sources {
		src.Stream.Snapshot()
	}
	return set, nil
}

// writeMasked writes a set read by readSecrets, after masking, in its
// source's format.
func writeMasked(set *resource.Set) (string, error) {
	var b bytes.Buffer
	for _, src := range set.Sources {
		var err error
		if src.Stream.Format == tree.JSON {
			err = src.Stream.WriteJSON(&b)
		} else {
			err = src.Stream.WriteYAML(&b)
		}
		if err != nil {
			return "", err
		}
	}
	return b.String(), nil
}
