package syntax

import (
	"bytes"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/suggest"
	"github.com/kmerge/kmerge/tree"
)

// ParseYAML parses a targeted patch list, a YAML list of items with the
// keys target (kind.name, a bare name, or kustomize's target: a mapping of
// group, version, kind, name, namespace, labelSelector and
// annotationSelector, or apiVersion), type (field, the default, strategic,
// merge or json), patch, and options (kustomize's allowNameChange and
// allowKindChange). For example, the item
//
//	target: deployment.my-app
//	patch:
//	  spec.replicas: 3
//
// sets the replicas of the Deployment my-app. A field patch maps paths to
// scalars (a nested mapping continues the path; !delete deletes), or is
// !delete, which deletes the object; a strategic or merge patch is the
// patch document (a strategic patch whose top level is $patch: delete
// deletes the object).
func ParseYAML(data []byte, file string) ([]*Patch, error) {
	return parseYAML(data, file, nil, nil, nil)
}

// parseYAML is ParseYAML with limits, a format (nil: detect), and warn
// (nil: none) given what reading the text noticed (tree.Stream.Warnings).
func parseYAML(data []byte, file string, limits *tree.Limits, format *tree.Format, warn func(tree.Warning)) ([]*Patch, error) {
	st, err := tree.Read(data, tree.Options{File: file, Limits: limits, Format: format})
	if err != nil {
		if namesSecrets(data) {
			err = maskedError{err}
		}
		return nil, err
	}
	if warn != nil {
		for _, w := range st.Warnings {
			warn(w)
		}
	}
	maxDepth := tree.DefaultLimits().MaxDepth
	if limits != nil {
		maxDepth = limits.MaxDepth
	}
	var patches []*Patch
	for _, d := range st.Docs {
		root := tree.Root(d)
		if root == nil || tree.KindOf(root) == tree.Null {
			continue // an empty document
		}
		ps, err := parseList(root, file, maxDepth)
		if err != nil {
			return nil, err
		}
		patches = append(patches, ps...)
	}
	return patches, nil
}

// ParseYAMLNode parses a targeted patch list (as ParseYAML does) that is
// part of a document already read, such as the patches field of a KRM
// function's configuration: the positions in patches and errors are the
// nodes' own, in the file named file. The patches hold parts of root
// (strategic, merge and JSON patch documents): pass a copy (tree.Clone)
// if root is written out later.
func ParseYAMLNode(root *yaml.Node, file string) ([]*Patch, error) {
	return parseList(root, file, tree.DefaultLimits().MaxDepth)
}

// parseList parses the list root of a patch list's document; maxDepth
// (0: no limit) bounds the depth of paths.
func parseList(root *yaml.Node, file string, maxDepth int) ([]*Patch, error) {
	if root.Kind != yaml.SequenceNode {
		return nil, notAList(file, root)
	}
	var patches []*Patch
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
	return patches, nil
}

// namesSecrets reports whether a patch list's text may target Secrets: it
// holds the word secret (in any letter case: every name kmerge accepts for
// the kind holds it) or a * (a kind, or a name pattern, that may pick
// them). It decides for a list that is not YAML, whose items are unknown;
// a target by a bare name in such a list goes unnoticed.
func namesSecrets(data []byte) bool {
	return bytes.Contains(bytes.ToLower(data), []byte("secret")) || bytes.IndexByte(data, '*') >= 0
}

func nodeErr(file string, n *yaml.Node, format string, args ...any) error {
	return &Error{Pos: nodePos(file, n), Msg: fmt.Sprintf(format, args...)}
}

func nodePos(file string, n *yaml.Node) tree.Position {
	return tree.Position{File: file, Line: n.Line, Column: n.Column}
}

func parseYAMLPatch(item *yaml.Node, file string) (*Patch, error) {
	if item.Kind != yaml.MappingNode {
		return nil, nodeErr(file, item, "a patch is a mapping with target, type, patch and options")
	}
	p := &Patch{Pos: nodePos(file, item), Type: change.FieldPatch} // without a type: a field patch
	var target, body, options *yaml.Node
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, v := item.Content[i], item.Content[i+1]
		switch k.Value {
		case "target":
			target = v
		case "patch":
			body = v
		case "options":
			options = v
		case "type":
			switch v.Value {
			case "", "field":
				p.Type = change.FieldPatch
			case "strategic":
				p.Type = change.StrategicPatch
			case "merge":
				p.Type = change.MergePatch
			case "json":
				p.Type = change.JSONPatch
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
	sel, err := ParseYAMLTarget(target, file)
	if err != nil {
		return nil, err
	}
	p.Target = sel
	if options != nil {
		if err := ParseOptions(p, options, file); err != nil {
			return nil, err
		}
	}
	switch p.Type {
	case change.StrategicPatch:
		if body.Kind != yaml.MappingNode {
			return nil, nodeErr(file, body, "a strategic merge patch is a mapping")
		}
		p.Body = body
	case change.MergePatch:
		p.Body = body
	case change.JSONPatch:
		if body.Kind != yaml.SequenceNode {
			return nil, nodeErr(file, body, "a JSON patch is a list of operations: - {op: replace, path: /spec/replicas, value: 3}")
		}
		p.Body = body
	case change.FieldPatch:
		if body.Kind == yaml.ScalarNode && body.Tag == "!delete" {
			p.DeleteTarget = true // the object
			return p, nil
		}
		if body.Kind != yaml.MappingNode {
			return nil, nodeErr(file, body, "a field patch maps paths to values (or is !delete, which deletes the object)")
		}
		if err := flatten(body, nil, file, &p.Sets); err != nil {
			return nil, inSecretPatch(err, p.Target)
		}
	}
	return p, nil
}

// ParseYAMLTarget reads the target of a YAML patch list's item (or of a
// kustomization's patch): a string as ParseTarget reads it, or kustomize's
// mapping of group, version, kind, name, namespace, labelSelector and
// annotationSelector (regular expressions, as kustomize matches them), or
// apiVersion. file names the node's file in errors.
func ParseYAMLTarget(t *yaml.Node, file string) (Target, error) {
	if t.Kind == yaml.ScalarNode {
		return ParseTarget(t.Value, nodePos(file, t))
	}
	if t.Kind != yaml.MappingNode {
		return Target{}, nodeErr(file, t, "a target is kind.name, a name, or a mapping of %s", targetKeys)
	}
	sel := Target{Pos: nodePos(file, t), Regexp: true}
	for i := 0; i+1 < len(t.Content); i += 2 {
		k, v := t.Content[i], t.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			return sel, nodeErr(file, v, "the %s of a target is a string", k.Value)
		}
		switch k.Value {
		case "group":
			sel.Group = v.Value
		case "version":
			sel.Version = v.Value
		case "apiVersion":
			sel.APIVersion = v.Value
		case "kind":
			sel.Kind = v.Value
		case "namespace":
			sel.Namespace = v.Value
		case "name":
			sel.Name = v.Value
		case "labelSelector":
			sel.Labels = v.Value
		case "annotationSelector":
			sel.Annotations = v.Value
		default:
			msg := fmt.Sprintf("unknown key %q in a target: the keys are %s", k.Value, targetKeys)
			if s := suggest.DidYouMean(k.Value, strings.Split(targetKeyList, " "), nil); s != "" {
				msg += " (" + s + ")"
			}
			return sel, &Error{Pos: nodePos(file, k), Msg: msg}
		}
		if err := sel.check(); err != nil {
			return sel, nodeErr(file, v, "%v", err)
		}
	}
	if len(t.Content) == 0 {
		return sel, nodeErr(file, t, "an empty target would pick every object: name a kind, a name or a selector")
	}
	return sel, nil
}

// The keys of a target mapping: kustomize's, and apiVersion.
const (
	targetKeyList = "group version kind name namespace labelSelector annotationSelector apiVersion"
	targetKeys    = "group, version, kind, name (a regular expression), namespace, labelSelector, annotationSelector and apiVersion"
)

// ParseOptions reads kustomize's patch options, the mapping n
// ({allowNameChange: true, allowKindChange: true}) of the file file, into
// p, a strategic or merge patch.
func ParseOptions(p *Patch, n *yaml.Node, file string) error {
	if n.Kind != yaml.MappingNode {
		return nodeErr(file, n, "options is a mapping: {allowNameChange: true, allowKindChange: true}")
	}
	if p.Type != change.StrategicPatch && p.Type != change.MergePatch {
		return nodeErr(file, n, "options apply to strategic and merge patches: a %s patch changes a name or a kind as it says", p.Type)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var on bool
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!bool":
			on = v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
		default:
			return nodeErr(file, v, "%s is true or false", k.Value)
		}
		switch k.Value {
		case "allowNameChange":
			p.AllowNameChange = on
		case "allowKindChange":
			p.AllowKindChange = on
		default:
			return nodeErr(file, k, "unknown option %q: the options are allowNameChange and allowKindChange", k.Value)
		}
	}
	return nil
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
	parts, err := Variables(v.Value, pos)
	if err != nil {
		return Value{}, err
	}
	return Value{Pos: pos, Raw: v.Value, Quoted: quoted || v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0, Parts: parts}, nil
}
