package corpus

import (
	"bytes"
	"encoding/json"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// The generator builds documents as yaml.v3 nodes, so that key order and
// comments are fixed, and derives every other form (YAML text, JSON text,
// Go values) from them.

type kv struct {
	k string
	v *yaml.Node
}

func obj(entries ...kv) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, e := range entries {
		if e.v == nil {
			continue
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.k}, e.v)
	}
	return n
}

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

// str is a string scalar; the encoder quotes it when YAML would read it
// as something else.
func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func num(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func boolean(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func null() *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}

// comment gives n a head comment and returns it.
func comment(n *yaml.Node, c string) *yaml.Node {
	n.HeadComment = "# " + c
	return n
}

// lineComment gives n a line comment and returns it.
func lineComment(n *yaml.Node, c string) *yaml.Node {
	n.LineComment = "# " + c
	return n
}

// get returns the value of key in the mapping n.
func get(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// yamlText encodes n as YAML (two-space indent, as kubectl writes).
func yamlText(n *yaml.Node) []byte {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		panic(err)
	}
	if err := enc.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// value converts n to the Go value encoding/json would decode from it.
func value(n *yaml.Node) any {
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = value(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			l[i] = value(c)
		}
		return l
	}
	switch n.Tag {
	case "!!int":
		i, err := strconv.ParseInt(n.Value, 10, 64)
		if err != nil {
			panic(err)
		}
		return float64(i)
	case "!!bool":
		return n.Value == "true"
	case "!!null":
		return nil
	}
	return n.Value
}

// jsonText encodes n as compact JSON with its keys in document order.
func jsonText(n *yaml.Node) []byte {
	var b bytes.Buffer
	writeJSON(&b, n)
	return b.Bytes()
}

func writeJSON(b *bytes.Buffer, n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			b.Write(k)
			b.WriteByte(':')
			writeJSON(b, n.Content[i+1])
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, c)
		}
		b.WriteByte(']')
	default:
		switch n.Tag {
		case "!!int", "!!bool", "!!null":
			b.WriteString(n.Value)
		default:
			s, _ := json.Marshal(n.Value)
			b.Write(s)
		}
	}
}
