package ssa

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/tree"
)

// maxNesting bounds the depth of the values converted: deeper is an
// error, not a stack overflow (the readers bound it far lower).
const maxNesting = 10000

// toValue converts a node to the value an API server decodes from it, as
// encoding/json does into interface{} (but integers as int64, as
// Kubernetes' decoder keeps them): map[string]any, []any, int64, float64,
// string, bool or nil. A mapping's keys are their text.
func toValue(n *yaml.Node, depth int) (any, error) {
	n = tree.Deref(n)
	if depth > maxNesting {
		return nil, fmt.Errorf("nested deeper than %d levels", maxNesting)
	}
	if n == nil {
		return nil, nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := toValue(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			m[tree.Deref(n.Content[i]).Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := toValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			l[i] = v
		}
		return l, nil
	}
	switch tree.KindOf(n) {
	case tree.Null:
		return nil, nil
	case tree.Bool:
		return tree.BoolValue(n), nil
	case tree.Int:
		i, _ := tree.IntValue(n)
		return i, nil
	case tree.Float:
		f, _ := tree.FloatValue(n)
		return f, nil
	}
	return n.Value, nil
}

// toNode converts a value back to a node, every mapping's keys sorted, as
// kubectl get -o yaml writes an object.
func toNode(v any) *yaml.Node {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: make([]*yaml.Node, 0, 2*len(keys))}
		for _, k := range keys {
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, toNode(v[k]))
		}
		return m
	case []any:
		s := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: make([]*yaml.Node, len(v))}
		for i, x := range v {
			s.Content[i] = toNode(x)
		}
		return s
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v, 10)}
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(v)}
	case float64:
		return floatNode(v)
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
	case *yaml.Node:
		return v // written already (managedFields' field sets)
	}
	// no other type comes out of toValue or the engine
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprint(v)}
}

// floatNode writes a float as encoding/json does (the API server's JSON,
// which kubectl turns into YAML): 1.5, 1e+21, and a whole float as an
// integer (3), as the object reads once the API server has stored it.
func floatNode(f float64) *yaml.Node {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	b, _ := json.Marshal(f)
	tag := "!!float"
	if _, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		tag = "!!int"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(b)}
}

// Canonical returns an object as the API server gives it back (and
// kubectl get -o yaml prints it): its value alone, every mapping's keys
// sorted, no comments, numbers as JSON writes them. n is not modified.
func Canonical(n *yaml.Node) (*yaml.Node, error) {
	v, err := toValue(n, 0)
	if err != nil {
		return nil, err
	}
	return toNode(v), nil
}

// objectValue is toValue of an object but for its metadata.managedFields,
// which are read apart (decodeManaged) and never part of the value the
// engine merges.
func objectValue(root *yaml.Node) (map[string]any, error) {
	root = tree.Deref(root)
	if root == nil || root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not a mapping")
	}
	out := make(map[string]any, len(root.Content)/2)
	for i := 0; i+1 < len(root.Content); i += 2 {
		key := tree.Deref(root.Content[i]).Value
		val := tree.Deref(root.Content[i+1])
		if key == "metadata" && val != nil && val.Kind == yaml.MappingNode {
			md := make(map[string]any, len(val.Content)/2)
			for j := 0; j+1 < len(val.Content); j += 2 {
				k := tree.Deref(val.Content[j]).Value
				if k == "managedFields" {
					continue
				}
				v, err := toValue(val.Content[j+1], 2)
				if err != nil {
					return nil, err
				}
				md[k] = v
			}
			out[key] = md
			continue
		}
		v, err := toValue(val, 1)
		if err != nil {
			return nil, err
		}
		out[key] = v
	}
	return out, nil
}
