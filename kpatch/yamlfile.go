package kpatch

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// ParseYAML parses a targeted patch list, a YAML list of items with the
// keys target (kind.name, or a mapping of apiVersion, kind, namespace, name
// and labelSelector), type (field, the default, strategic, merge or json) and
// patch. For example, the item
//
//	target: deployment.my-app
//	patch:
//	  spec.replicas: 3
//
// sets the replicas of the Deployment my-app. A field patch maps paths to scalars (a nested mapping continues the path;
// !delete deletes); a strategic or merge patch is the patch document.
func ParseYAML(data []byte, file string) ([]*Patch, error) {
	return parseYAML(data, file, nil, nil)
}

func parseYAML(data []byte, file string, limits *tree.Limits, format *tree.Format) ([]*Patch, error) {
	st, err := tree.Read(data, tree.Options{File: file, Limits: limits, Format: format})
	if err != nil {
		return nil, err
	}
	var patches []*Patch
	for _, d := range st.Docs {
		root := tree.Root(d)
		if root == nil || tree.KindOf(root) == tree.Null {
			continue // an empty document
		}
		if root.Kind != yaml.SequenceNode {
			return nil, notAList(file, root)
		}
		maxDepth := tree.DefaultLimits().MaxDepth
		if limits != nil {
			maxDepth = limits.MaxDepth
		}
		for _, item := range root.Content {
			p, err := parseYAMLPatch(item, file)
			if err != nil {
				return nil, err
			}
			if err := checkDepth(p.Pos, len(p.Path), maxDepth); err != nil {
				return nil, err
			}
			for _, a := range p.Sets {
				if err := checkDepth(a.Pos, len(p.Path)+len(a.Key), maxDepth); err != nil {
					return nil, err
				}
			}
			patches = append(patches, p)
		}
	}
	return patches, nil
}

func nodeErr(file string, n *yaml.Node, format string, args ...any) error {
	return &Error{Pos: nodePos(file, n), Msg: fmt.Sprintf(format, args...)}
}

func nodePos(file string, n *yaml.Node) tree.Position {
	return tree.Position{File: file, Line: n.Line, Column: n.Column}
}

func parseYAMLPatch(item *yaml.Node, file string) (*Patch, error) {
	if item.Kind != yaml.MappingNode {
		return nil, nodeErr(file, item, "a patch is a mapping with target, type and patch")
	}
	p := &Patch{Pos: nodePos(file, item)}
	var target, body *yaml.Node
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, v := item.Content[i], item.Content[i+1]
		switch k.Value {
		case "target":
			target = v
		case "patch":
			body = v
		case "type":
			switch v.Value {
			case "", "field":
				p.Type = Field
			case "strategic":
				p.Type = Strategic
			case "merge":
				p.Type = Merge
			case "json":
				p.Type = JSON
			default:
				return nil, nodeErr(file, v, "type %q: a patch is field, strategic, merge or json", v.Value)
			}
		default:
			return nil, unknownPatchKey(file, k)
		}
	}
	if target == nil {
		return nil, nodeErr(file, item, "a patch needs a target")
	}
	if body == nil {
		return nil, nodeErr(file, item, "a patch needs a patch")
	}
	sel, err := parseYAMLTarget(target, file)
	if err != nil {
		return nil, err
	}
	p.Target = sel
	switch p.Type {
	case Strategic:
		if body.Kind != yaml.MappingNode {
			return nil, nodeErr(file, body, "a strategic merge patch is a mapping")
		}
		p.Body = body
	case Merge:
		p.Body = body
	case JSON:
		if body.Kind != yaml.SequenceNode {
			return nil, nodeErr(file, body, "a JSON patch is a list of operations: - {op: replace, path: /spec/replicas, value: 3}")
		}
		p.Body = body
	case Field:
		if body.Kind != yaml.MappingNode {
			return nil, nodeErr(file, body, "a field patch maps paths to values")
		}
		if err := flatten(body, nil, file, &p.Sets); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func parseYAMLTarget(t *yaml.Node, file string) (resource.Selector, error) {
	if t.Kind == yaml.ScalarNode {
		return ParseTarget(t.Value, nodePos(file, t))
	}
	if t.Kind != yaml.MappingNode {
		return resource.Selector{}, nodeErr(file, t, "a target is kind.name or a mapping of apiVersion, kind, namespace, name, labelSelector")
	}
	var sel resource.Selector
	for i := 0; i+1 < len(t.Content); i += 2 {
		k, v := t.Content[i], t.Content[i+1]
		switch k.Value {
		case "apiVersion":
			sel.APIVersion = v.Value
		case "kind":
			sel.Kind = v.Value
		case "namespace":
			sel.Namespace = v.Value
		case "name":
			sel.Name = v.Value
		case "labelSelector":
			if _, err := resource.ParseLabelSelector(v.Value); err != nil {
				return sel, nodeErr(file, v, "%v", err)
			}
			sel.Labels = v.Value
		default:
			return sel, nodeErr(file, k, "unknown key %q in a target: the keys are apiVersion, kind, namespace, name and labelSelector", k.Value)
		}
	}
	if sel.Kind == "" && sel.Labels == "" && sel.Name == "" {
		return sel, nodeErr(file, t, "a target names a kind, a name or a labelSelector")
	}
	return sel, nil
}

// flatten turns a field patch mapping into assignments: keys are paths, a
// nested mapping continues the path.
func flatten(m *yaml.Node, prefix Path, file string, out *[]Assignment) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		var key Path
		if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			// a key quoted in YAML is one field, dots and all
			key = Path{{Pos: nodePos(file, k), Field: k.Value, Quoted: true}}
		} else {
			l := &pathLexer{src: k.Value, base: nodePos(file, k), bareSelectors: true}
			var err error
			if key, err = l.parsePath(); err != nil {
				return err
			}
		}
		full := append(append(Path(nil), prefix...), key...)
		switch v.Kind {
		case yaml.MappingNode:
			if err := flatten(v, full, file, out); err != nil {
				return err
			}
		case yaml.ScalarNode:
			val, err := scalarValue(v, file)
			if err != nil {
				return err
			}
			*out = append(*out, Assignment{Pos: nodePos(file, k), Key: full, Value: val})
		default:
			return nodeErr(file, v, "a field patch sets scalars; to set a list or an object, use type: strategic or merge")
		}
	}
	return nil
}

// scalarValue turns a YAML scalar of a field patch into a Value: quoted
// means a string, !delete deletes, anything else is typed by the schema.
func scalarValue(v *yaml.Node, file string) (Value, error) {
	pos := nodePos(file, v)
	if v.Tag == "!delete" {
		return Value{Pos: pos, Raw: "!delete", Delete: true}, nil
	}
	if strings.HasPrefix(v.Tag, "!") && !strings.HasPrefix(v.Tag, "!!") {
		return Value{}, nodeErr(file, v, "unknown tag %s: the only tag of a field patch is !delete", v.Tag)
	}
	quoted := v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
	parts, err := splitVariables(v.Value, pos)
	if err != nil {
		return Value{}, err
	}
	return Value{Pos: pos, Raw: v.Value, Quoted: quoted || v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0, parts: parts}, nil
}
