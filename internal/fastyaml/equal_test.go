package fastyaml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// decodeV3 parses data as tree.Read does today: yaml.v3's Decoder, one
// Decode per document.
//
// yaml.v3 refuses %YAML 1.2 (and later 1.x), which this package reads
// (the trees do not depend on it): the oracle reads such a directive as
// 1.1 (of the same length).
func decodeV3(data []byte) ([]*yaml.Node, error) {
	data = version11(data)
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

// markerLine reports whether line starts with the document marker m
// ("---" or "..."): m then the line's end, a space or a tab.
func markerLine(line []byte, m string) bool {
	rest, ok := bytes.CutPrefix(line, []byte(m))
	return ok && (len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t')
}

// version11 returns data with its %YAML directives of a version 1.2 to
// 1.9 spelled 1.1: a line starting with "%YAML " in a document's
// prologue (the lines before its --- line, when only directives, comments
// and blank lines are there).
func version11(data []byte) []byte {
	if !bytes.Contains(data, []byte("%YAML")) {
		return data
	}
	lines := splitLines(data)
	prologue := true // at the start of a document
	for i, l := range lines {
		t := bytes.TrimRight(bytes.TrimSuffix(bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\u0085")), []byte("\u2028")), []byte("\u2029")), "\r\n")
		switch {
		case markerLine(t, "---") || markerLine(t, "..."):
			// ("...0" is a plain scalar, not a marker: FuzzDifferential,
			// 2026-11-29, "...0\n%YAML 1.2" read as "...0 %YAML 1.1")
			prologue = markerLine(t, "...")
		case prologue && v1x.Match(t):
			lines[i] = v1x.ReplaceAll(l, []byte("${1}1.1${2}"))
		case prologue && (len(bytes.TrimSpace(t)) == 0 || bytes.TrimLeft(t, " \t")[0] == '#' || t[0] == '%'):
			// (a comment line may start with blanks: " #\n%YAML 1.2";
			// FuzzDifferential, 2026-11-29)
		default:
			prologue = false
		}
	}
	return bytes.Join(lines, nil)
}

// splitLines splits data after each "\n", lone "\r", NEL, LS and PS (all
// line breaks to yaml.v3; "\r%YAML 1.2" was left 1.2, which yaml.v3
// refuses: a hunt, 2026-11-29).
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexAny(data, "\n\r\u0085\u2028\u2029")
		if i < 0 {
			break
		}
		_, n := utf8.DecodeRune(data[i:])
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			n = 2
		}
		out = append(out, data[:i+n])
		data = data[i+n:]
	}
	if len(data) > 0 {
		out = append(out, data)
	}
	return out
}

// v1x finds a %YAML directive of a version 1.2 to 1.9.
var v1x = regexp.MustCompile(`^(%YAML[ \t]+)0?1\.0?[2-9]([ \t\r\n\x{85}\x{2028}\x{2029}]|$)`) // ("1.02" is 1.2 too: FuzzDifferential, 2026-11-29)

// diffDocs returns "" if the two lists of documents are the same in every
// field of every node, or where they first differ.
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
