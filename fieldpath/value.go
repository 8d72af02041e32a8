package fieldpath

import (
	"cmp"
	"math"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// Value is a scalar as a path holds it (the value of a key field, a member
// of a set): its JSON kind and its canonical text. Two values are equal
// exactly when the scalars are equal for a Kubernetes API server
// (tree.Equal): the integer 53 and the string "53" differ, 1 and 1.0 differ.
// The zero Value is null.
type Value struct {
	Kind tree.Kind // tree.Null, Bool, Int, Float or String
	// Text is the string itself for a String; for the other kinds, the
	// value as JSON writes it: 53, 1.5, true, null. A float's text always
	// has a dot or an exponent (1.0, 1e+21), so that it never reads as an
	// integer.
	Text string
}

// String returns the value of a string.
func String(s string) Value { return Value{Kind: tree.String, Text: s} }

// Int returns the value of an integer.
func Int(i int64) Value { return Value{Kind: tree.Int, Text: strconv.FormatInt(i, 10)} }

// ValueOf returns the value of a scalar node; ok is false for objects and
// arrays, which have none.
func ValueOf(n *yaml.Node) (v Value, ok bool) {
	n = tree.Deref(n)
	k := tree.KindOf(n)
	switch k {
	case tree.Object, tree.Array:
		return Value{}, false
	case tree.String:
		return Value{Kind: tree.String, Text: n.Value}, true // no allocation for the usual key values
	case tree.Int:
		if plainDecimal(n.Value) {
			return Value{Kind: tree.Int, Text: n.Value}, true // ports: no allocation either
		}
	}
	return canonical(k, tree.Key(n)[1:]), true
}

// plainDecimal reports whether s is an integer as JSON writes it, short
// enough to fit in 64 bits: its own canonical text.
func plainDecimal(s string) bool {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 18 || digits[0] == '0' && len(digits) > 1 || s == "-0" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// canonical returns the value of kind k whose tree.Key is key without its
// kind letter.
func canonical(k tree.Kind, key string) Value {
	switch k {
	case tree.Null:
		return Value{Kind: tree.Null, Text: "null"}
	case tree.Bool:
		if key == "1" {
			return Value{Kind: tree.Bool, Text: "true"}
		}
		return Value{Kind: tree.Bool, Text: "false"}
	case tree.Float:
		return Value{Kind: tree.Float, Text: formatFloat(floatOf(key))}
	}
	return Value{Kind: k, Text: key}
}

// formatFloat writes a float as JSON would, with a dot or an exponent so
// that it does not read as an integer. The values JSON lacks are written as
// YAML writes them.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// Plain returns what a value written without quotes means: what YAML
// 1.2's core schema reads the plain scalar s as (tree.KindOf), in
// canonical form: Plain("53") is the integer 53, Plain("web") the string.
func Plain(s string) Value {
	n := yaml.Node{Kind: yaml.ScalarNode, Value: s}
	k := tree.KindOf(&n)
	if k == tree.String {
		return Value{Kind: tree.String, Text: s}
	}
	return canonical(k, tree.Key(&n)[1:])
}

// Node returns a new scalar node holding the value.
func (v Value) Node() *yaml.Node {
	tag := map[tree.Kind]string{tree.Null: "!!null", tree.Bool: "!!bool", tree.Int: "!!int", tree.Float: "!!float"}[v.Kind]
	if tag == "" {
		return tree.NewString(v.Text)
	}
	text := v.Text
	if v.Kind == tree.Null && text == "" {
		text = "null"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text}
}

// Matches reports whether the scalar node n holds the value v.
func (v Value) Matches(n *yaml.Node) bool {
	nv, ok := ValueOf(n)
	return ok && nv.Kind == v.Kind && nv.Text == v.normalText()
}

// normalText is Text, with the zero Value's "" read as null.
func (v Value) normalText() string {
	if v.Kind == tree.Null {
		return "null"
	}
	return v.Text
}

// String writes the value as a path writes it: a number, a boolean or null
// as JSON does, a string as Quote does.
func (v Value) String() string {
	if v.Kind == tree.String {
		return Quote(v.Text)
	}
	return v.normalText()
}

// CompareValues orders values: by kind (null, booleans, integers, numbers,
// strings), then integers and numbers by size, strings and booleans by
// text.
func CompareValues(a, b Value) int {
	if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	switch a.Kind {
	case tree.Int:
		x, _ := strconv.ParseInt(a.Text, 10, 64)
		y, _ := strconv.ParseInt(b.Text, 10, 64)
		if c := cmp.Compare(x, y); c != 0 {
			return c
		}
	case tree.Float:
		if c := cmp.Compare(floatOf(a.Text), floatOf(b.Text)); c != 0 {
			return c
		}
	}
	return strings.Compare(a.normalText(), b.normalText())
}

// floatOf reads the text of a Float.
func floatOf(s string) float64 {
	switch s {
	case ".inf":
		return math.Inf(1)
	case "-.inf":
		return math.Inf(-1)
	case ".nan":
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
