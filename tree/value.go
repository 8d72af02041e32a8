package tree

import (
	"math"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Kind is the JSON kind of a node, with numbers split the way a Kubernetes
// API server decodes them: integers that fit in 64 bits, and every other number.
type Kind uint8

// The kinds of a node.
const (
	Null Kind = iota
	Bool
	Int
	Float
	String
	Object
	Array
)

var kindNames = [...]string{"null", "boolean", "integer", "number", "string", "object", "array"}

// String names the kind as an error message would: "object", "integer", ...
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Scalar reports whether the kind is neither an object nor an array.
func (k Kind) Scalar() bool { return k < Object }

// KindOf returns the JSON kind of n. A nil node is Null. Aliases are followed.
// Scalars with tags other than the YAML core ones (timestamps, custom
// tags) are strings, as they are once converted to JSON.
func KindOf(n *yaml.Node) Kind {
	n = Resolve(n)
	if n == nil {
		return Null
	}
	switch n.Kind {
	case yaml.MappingNode:
		return Object
	case yaml.SequenceNode:
		return Array
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return Null
		}
		return KindOf(n.Content[0])
	}
	switch n.ShortTag() {
	case "!!null":
		return Null
	case "!!bool":
		return Bool
	case "!!int":
		if _, err := parseInt(n.Value); err == nil {
			return Int
		}
		if _, ok := FloatValue(n); ok {
			return Float // too large for int64: a float64 once decoded
		}
		return String
	case "!!float":
		if _, ok := parseFloat(n.Value); ok {
			return Float
		}
		return String
	}
	return String
}

// Key returns a string that identifies the value of a scalar node: two
// scalars are equal exactly when their keys are equal. It is "" for objects
// and arrays, which have no key.
//
// Equality is that of Go's == on the values a Kubernetes API server decodes:
// 1 and 1.0 differ (int64 and float64), 1.0 and 1.00 are equal, "1" and 1 differ.
func Key(n *yaml.Node) string {
	n = Deref(n)
	switch k := KindOf(n); k {
	case Null:
		return "n"
	case Bool:
		if trueText(n.Value) {
			return "b1"
		}
		return "b0"
	case Int:
		i, _ := parseInt(n.Value)
		return "i" + strconv.FormatInt(i, 10)
	case Float:
		f, _ := FloatValue(n)
		if f == 0 {
			f = 0 // -0 == 0
		}
		return "f" + strconv.FormatFloat(f, 'g', -1, 64)
	case String:
		return "s" + n.Value
	}
	return ""
}

// Equal reports whether a and b hold the same JSON value: same kind, and for
// scalars the same decoded value; objects are compared key by key regardless
// of order, arrays element by element.
func Equal(a, b *yaml.Node) bool {
	a, b = Deref(a), Deref(b)
	ka, kb := KindOf(a), KindOf(b)
	if ka != kb {
		return false
	}
	switch ka {
	case Object:
		if len(a.Content) != len(b.Content) {
			return false
		}
		get := func(key string) *yaml.Node { return MapGet(b, key) }
		if len(b.Content) > 64 {
			// large mappings: index b once instead of scanning it per key
			// (the index keeps the last of repeated keys, as MapGet does)
			index := make(map[string]*yaml.Node, len(b.Content)/2)
			for i := 0; i+1 < len(b.Content); i += 2 {
				if k := Resolve(b.Content[i]); k != nil {
					index[k.Value] = b.Content[i+1]
				}
			}
			get = func(key string) *yaml.Node { return index[key] }
		}
		for i := 0; i+1 < len(a.Content); i += 2 {
			bv := get(a.Content[i].Value)
			if bv == nil || !Equal(a.Content[i+1], bv) {
				return false
			}
		}
		return true
	case Array:
		if len(a.Content) != len(b.Content) {
			return false
		}
		for i := range a.Content {
			if !Equal(a.Content[i], b.Content[i]) {
				return false
			}
		}
		return true
	}
	// the scalars' Keys compared, without building them (Equal runs on
	// every document read back)
	switch ka {
	case Bool:
		return trueText(a.Value) == trueText(b.Value)
	case Int:
		x, _ := parseInt(a.Value)
		y, _ := parseInt(b.Value)
		return x == y
	case Float:
		x, _ := FloatValue(a)
		y, _ := FloatValue(b)
		return x == y || math.IsNaN(x) && math.IsNaN(y) // (Key: "fNaN" for each)
	case String:
		return a.Value == b.Value
	}
	return true // (null)
}

// trueText reports whether the text of a boolean is true (Key).
func trueText(s string) bool {
	switch s {
	case "true", "True", "TRUE":
		return true
	}
	return false
}

// Deref follows aliases and document nodes to the value they stand for
// (nil for an empty document). Alias chains are followed a bounded number
// of times, so a hand-built alias to itself cannot loop forever.
func Deref(n *yaml.Node) *yaml.Node {
	for hops := 0; n != nil && hops < maxAliasHops; hops++ {
		switch {
		case n.Kind == yaml.AliasNode:
			n = n.Alias
		case n.Kind == yaml.DocumentNode:
			n = Root(n)
		default:
			return n
		}
	}
	return n
}

// maxAliasHops bounds alias chains, so that a hand-built alias pointing to
// itself cannot loop forever (Read rejects such input).
const maxAliasHops = 64

// Resolve follows aliases to the node they point to. Trees from Read have
// none; Resolve is for trees built by hand.
func Resolve(n *yaml.Node) *yaml.Node {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode && hops < maxAliasHops; hops++ {
		n = n.Alias
	}
	return n
}

// BoolValue returns the value of a boolean scalar (false for anything
// else, nil included).
func BoolValue(n *yaml.Node) bool {
	if KindOf(n) != Bool {
		return false
	}
	switch Deref(n).Value {
	case "true", "True", "TRUE":
		return true
	}
	return false
}

// IntValue returns the value of an integer scalar.
func IntValue(n *yaml.Node) (int64, bool) {
	if KindOf(n) != Int {
		return 0, false
	}
	i, err := parseInt(n.Value)
	return i, err == nil
}

// FloatValue returns the value of a number as a float64.
func FloatValue(n *yaml.Node) (float64, bool) {
	n = Deref(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return 0, false
	}
	switch n.ShortTag() {
	case "!!int":
		if i, err := parseInt(n.Value); err == nil {
			return float64(i), true
		}
		if u, err := strconv.ParseUint(stripUnderscores(n.Value), 0, 64); err == nil {
			return float64(u), true
		}
		if f, err := strconv.ParseFloat(stripUnderscores(n.Value), 64); err == nil {
			return f, true
		}
	case "!!float":
		return parseFloat(n.Value)
	}
	return 0, false
}

func parseInt(s string) (int64, error) {
	return strconv.ParseInt(stripUnderscores(s), 0, 64)
}

func stripUnderscores(s string) string {
	if strings.IndexByte(s, '_') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "_", "")
}

func parseFloat(s string) (float64, bool) {
	switch s {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1), true
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), true
	case ".nan", ".NaN", ".NAN":
		return math.NaN(), true
	}
	f, err := strconv.ParseFloat(stripUnderscores(s), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// Describe names a value for a message by its JSON kind: "an object",
// "an array", `the string "x"`, "the integer 3", "null".
func Describe(n *yaml.Node) string {
	switch k := KindOf(n); k {
	case Null:
		return "null"
	case Object, Array:
		return "an " + k.String()
	case String:
		return "the string " + strconv.Quote(Deref(n).Value)
	default:
		return "the " + k.String() + " " + Deref(n).Value
	}
}
