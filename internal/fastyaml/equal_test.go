package fastyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"

	yaml "go.yaml.in/yaml/v3"
)

// decodeV3 parses data as tree.Read does today: yaml.v3's Decoder, one
// Decode per document.
//
// yaml.v3 refuses %YAML 1.2, which this package reads as 1.1 (the trees
// do not depend on it): the oracle reads such a directive as 1.1.
func decodeV3(data []byte) ([]*yaml.Node, error) {
	data = v12.ReplaceAll(data, []byte("${1}1.1"))
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return docs, nil
			}
			return nil, err
		}
		docs = append(docs, &doc)
	}
}

// diffDocs returns "" if the two lists of documents are the same in every
// field of every node, or where they first differ.
// v12 finds %YAML 1.2 directives.
var v12 = regexp.MustCompile(`(?m)^(%YAML[ \t]+)1\.2`)

func diffDocs(got, want []*yaml.Node) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d documents, want %d", len(got), len(want))
	}
	for i := range got {
		if d := diffNode(got[i], want[i], fmt.Sprintf("doc %d", i)); d != "" {
			return d
		}
	}
	// diffNode names the fields of yaml.Node; DeepEqual also sees any
	// field it would not.
	if !reflect.DeepEqual(got, want) {
		return "the trees differ (reflect.DeepEqual)"
	}
	return ""
}

func diffNode(a, b *yaml.Node, path string) string {
	if a == nil || b == nil {
		if a != b {
			return path + ": one node is nil"
		}
		return ""
	}
	type field struct {
		name      string
		got, want any
	}
	for _, f := range []field{
		{"Kind", a.Kind, b.Kind},
		{"Style", a.Style, b.Style},
		{"Tag", a.Tag, b.Tag},
		{"Value", a.Value, b.Value},
		{"Anchor", a.Anchor, b.Anchor},
		{"HeadComment", a.HeadComment, b.HeadComment},
		{"LineComment", a.LineComment, b.LineComment},
		{"FootComment", a.FootComment, b.FootComment},
		{"Line", a.Line, b.Line},
		{"Column", a.Column, b.Column},
		{"Alias", a.Alias != nil, b.Alias != nil},
		{"len(Content)", len(a.Content), len(b.Content)},
		{"Content==nil", a.Content == nil, b.Content == nil},
	} {
		if f.got != f.want {
			return fmt.Sprintf("%s (line %d): %s is %#v, want %#v", path, b.Line, f.name, f.got, f.want)
		}
	}
	for i := range a.Content {
		if d := diffNode(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}
