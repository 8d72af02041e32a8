// Package secret says which values of an object are secret, and masks them
// in what kmerge shows people: diffs, the --debug trace, conflicts,
// validation messages, the line an error quotes, the language server's
// hovers. It is the one place that knows the rule; every output asks it.
//
// The rule: the values of a v1 Secret's data and stringData are secret:
// every scalar at or below those two fields but null (the keys stay
// visible, and so does a null, which holds nothing). A secret value is
// shown as Mask. Where two values of one place are shown side by side (a
// diff, the trace's "before -> after", a hover's "now → set"), a value
// that differs between the two is shown as Before on the old side and
// After on the new one, as kubectl diff marks them, so that what changed
// stays visible without showing what it was or became.
//
// Masking by place does not reach a value a message shows some other way
// (an error quoting the value a patch met, a value a patch copied out of
// data): Values gathers an object's secret values, and the layer that
// handles the object masks everything it says about it with them, by
// value, whatever code built the message.
//
// The patched manifests themselves are never masked; a caller that prints
// values for people masks them with this package unless its user asked to
// see them (kmerge's --show-secrets, the library's ShowSecrets options).
package secret

import (
	"errors"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// What a secret value is shown as: Mask, or, beside another value of the
// same place that differs, Before (the old value) and After (the new one).
// They are kubectl diff's marks.
const (
	Mask   = "***"
	Before = "*** (before)"
	After  = "*** (after)"
)

// The apiVersion and kind of the objects that hold secret values.
const (
	APIVersion = "v1"
	Kind       = "Secret"
)

// Holds reports whether objects of this apiVersion and kind hold secret
// values: v1 Secrets.
func Holds(apiVersion, kind string) bool { return apiVersion == APIVersion && kind == Kind }

// Object reports whether n (a document, or its root mapping) is a v1
// Secret.
func Object(n *yaml.Node) bool {
	root := tree.Root(n)
	if root == nil || root.Kind != yaml.MappingNode {
		return false
	}
	return Holds(scalar(tree.MapGet(root, "apiVersion")), scalar(tree.MapGet(root, "kind")))
}

func scalar(n *yaml.Node) string {
	if n = tree.Deref(n); n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// secretField reports whether a field of a Secret holds secret values.
func secretField(name string) bool { return name == "data" || name == "stringData" }

// Touches reports whether the value at p, in a Secret, is or holds secret
// values: the object itself, data, stringData, or anything below them.
func Touches(p fieldpath.Path) bool {
	return len(p) == 0 || p[0].Kind == fieldpath.FieldElement && secretField(p[0].Name)
}

// AtPointer returns the place a JSON pointer names (RFC 6901, as a JSON
// patch gives it), as this package's functions take it: each token a
// field (only the first matters to the rule). A pointer that does not
// parse is the whole object, so that nothing secret escapes.
func AtPointer(ptr string) fieldpath.Path {
	toks, err := fieldpath.ParsePointer(ptr)
	if err != nil {
		return nil
	}
	p := make(fieldpath.Path, len(toks))
	for i, t := range toks {
		p[i] = fieldpath.Field(t)
	}
	return p
}

// InError reports whether err is about a secret value that its message
// masks, which the error says with a method Masked() bool (the first
// error in err's tree that has one decides): the line such an error
// points at holds the value, and is quoted masked (Line).
func InError(err error) bool {
	var m interface{ Masked() bool }
	return errors.As(err, &m) && m.Masked()
}

// Value returns what a message shows of n, the value at p of a Secret: n
// itself when nothing in it is secret, else a copy (sharing what is not
// secret) with every secret value replaced by Mask.
func Value(n *yaml.Node, p fieldpath.Path) *yaml.Node {
	if !Touches(p) {
		return n
	}
	return mask(n, nil, len(p) > 0, "")
}

// Pair returns what a message shows of two values of the place p of a
// Secret, before and after a change: masked as Value masks them, and each
// secret value that differs from the value at the same place on the other
// side marked Before on the old side and After on the new one.
func Pair(old, new *yaml.Node, p fieldpath.Path) (*yaml.Node, *yaml.Node) {
	if !Touches(p) {
		return old, new
	}
	in := len(p) > 0
	return mask(old, new, in, Before), mask(new, old, in, After)
}

// mask returns n with its secret values masked: all of its scalars when in
// is set (n is at or below data or stringData), else those below its data
// and stringData fields (n is the object). other is the value at the same
// place on the other side of a pair (nil: none); a secret scalar that
// differs from it is shown as changed.
func mask(n, other *yaml.Node, in bool, changed string) *yaml.Node {
	n, other = tree.Deref(n), tree.Deref(other)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return n
		}
		var o *yaml.Node
		if other != nil && other.Kind == yaml.DocumentNode && len(other.Content) > 0 {
			o = other.Content[0]
		}
		c := *n
		c.Content = []*yaml.Node{mask(n.Content[0], o, in, changed)}
		return &c
	case yaml.MappingNode:
		c := *n
		c.Content = make([]*yaml.Node, len(n.Content))
		copy(c.Content, n.Content)
		for i := 0; i+1 < len(c.Content); i += 2 {
			if !in && !secretField(c.Content[i].Value) {
				continue
			}
			var o *yaml.Node
			if other != nil && other.Kind == yaml.MappingNode {
				o = tree.MapGet(other, c.Content[i].Value)
			}
			c.Content[i+1] = mask(c.Content[i+1], o, true, changed)
		}
		return &c
	case yaml.SequenceNode:
		if !in {
			return n
		}
		c := *n
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, item := range n.Content {
			var o *yaml.Node
			if other != nil && other.Kind == yaml.SequenceNode && i < len(other.Content) {
				o = other.Content[i]
			}
			c.Content[i] = mask(item, o, true, changed)
		}
		return &c
	}
	if !in || tree.KindOf(n) == tree.Null {
		return n
	}
	shown := Mask
	if o := tree.Deref(other); changed != "" && o != nil && o.Kind == yaml.ScalarNode && tree.KindOf(o) != tree.Null && !tree.Equal(n, o) {
		shown = changed
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: shown,
		Line: n.Line, Column: n.Column, HeadComment: n.HeadComment, LineComment: n.LineComment, FootComment: n.FootComment}
}

// Line returns a line of text (of a manifest or a patch) that holds a
// secret value, for quoting below an error: what follows the key that
// starts at the column col (1-based, in characters; 0 or less for the
// start of the line) and its separator (": " in YAML and JSON, " = " in a
// .kpatch file) is replaced by Mask. The key stays, so that the quote
// still shows where the error is. Without a separator after col, all of
// the line from col on is replaced. When col is inside a value, after the
// line's first key and separator and text of that value (a flow mapping
// whose earlier entries may be secret, {a: X, token: Y} with col at
// token; a variable in a .kpatch value, password: X-${v}), all that
// follows the first separator is replaced: what is before col would show
// the values that precede it.
func Line(line string, col int) string {
	start := 0
	for i := 1; i < col && start < len(line); i++ {
		_, size := utf8.DecodeRuneInString(line[start:])
		start += size
	}
	if first := separatorEnd(line); first >= 0 && first <= start && strings.TrimSpace(line[first:start]) != "" {
		kept := line[:first]
		if !strings.HasSuffix(kept, " ") {
			kept += " "
		}
		return kept + Mask
	}
	rest := line[start:]
	cut := -1
	if i := separatorEnd(rest); i >= 0 {
		cut = i
	}
	if cut < 0 {
		return line[:start] + Mask
	}
	kept := line[:start+cut]
	if !strings.HasSuffix(kept, " ") {
		kept += " "
	}
	return kept + Mask
}

// separatorEnd returns where the first key separator of s ends (just
// after its ':' or '='), or -1: a ':' followed by a space, a tab or the
// end, or right after a quoted key (JSON's "key":value), or a '='.
func separatorEnd(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' || s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t' || i > 0 && (s[i-1] == '"' || s[i-1] == '\'')) {
			return i + 1
		}
	}
	return -1
}
