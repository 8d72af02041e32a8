package kpatch

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/nodeedit"
	"github.com/kmerge/kmerge/tree"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// Vars are the values of ${values.NAME} and ${features.NAME}. Build them
// before applying patches; applying only reads them, so one Vars can serve
// concurrent applies.
type Vars struct {
	values   *yaml.Node // a mapping
	features map[string]bool

	// the large mappings of values, indexed when first looked up (and
	// forgotten when values change), so that N variables among N values
	// are looked up in time linear in N
	mu    sync.Mutex
	index map[*yaml.Node]map[string]*yaml.Node

	// the editors of the mappings Set writes into, kept from one Set to
	// the next (each looked its keys up by a scan: n --set flags cost n^2),
	// dropped when MergeValues changes the mappings
	editors map[*yaml.Node]*nodeedit.Map
}

// NewVars returns empty variables.
func NewVars() *Vars {
	return &Vars{values: tree.NewMap(), features: map[string]bool{}}
}

// LoadValues merges a YAML mapping into the values: nested mappings merge,
// anything else replaces. file names the source in messages.
func (v *Vars) LoadValues(data []byte, file string) error {
	st, err := tree.Read(data, tree.Options{File: file})
	if err != nil {
		return err
	}
	for _, d := range st.Docs {
		root := tree.Root(d)
		if root == nil {
			continue
		}
		if err := v.MergeValues(root, file); err != nil {
			return err
		}
	}
	return nil
}

// MergeValues merges a YAML mapping node into the values, as LoadValues
// merges a file: nested mappings merge, anything else replaces. file names
// the node's source in messages.
func (v *Vars) MergeValues(root *yaml.Node, file string) error {
	if root.Kind != yaml.MappingNode {
		return &syntax.Error{Pos: tree.Position{File: file, Line: root.Line, Column: root.Column}, Msg: "values must be a mapping"}
	}
	mergeValues(v.values, root)
	v.changed()
	v.editors = nil
	return nil
}

// changed forgets the index of the values.
func (v *Vars) changed() {
	v.mu.Lock()
	v.index = nil
	v.mu.Unlock()
}

// get is tree.MapGet on a mapping of the values, through the index when
// the mapping is large.
func (v *Vars) get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode || len(m.Content) < 64 {
		return tree.MapGet(m, key)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	keys := v.index[m]
	if keys == nil {
		if v.index == nil {
			v.index = map[*yaml.Node]map[string]*yaml.Node{}
		}
		keys = make(map[string]*yaml.Node, len(m.Content)/2)
		for i := 0; i+1 < len(m.Content); i += 2 {
			keys[m.Content[i].Value] = m.Content[i+1] // the last of a key given twice, as tree.MapGet
		}
		v.index[m] = keys
	}
	return keys[key]
}

func mergeValues(dst, src *yaml.Node) {
	m := nodeedit.NewMap(dst) // indexed when large: linear in the values
	for i := 0; i+1 < len(src.Content); i += 2 {
		k, sv := src.Content[i], src.Content[i+1]
		if dv := m.Get(k.Value); dv != nil && dv.Kind == yaml.MappingNode && sv.Kind == yaml.MappingNode {
			mergeValues(dv, sv)
			continue
		}
		m.Set(tree.NewString(k.Value), tree.Clone(sv))
	}
	m.Finish()
}

// Set sets one value from text: "values.a.b=text" or "a.b=text" (what
// kmerge's --set takes). The text is typed by YAML 1.2's core rules (3 is a
// number, true a boolean, "3" in quotes a string).
func (v *Vars) Set(assignment string) error {
	path, text, ok := strings.Cut(assignment, "=")
	if !ok || path == "" {
		return fmt.Errorf("%q: expected NAME=VALUE", assignment)
	}
	path = strings.TrimPrefix(path, "values.")
	val, err := typedScalar(text)
	if err != nil {
		return fmt.Errorf("%q: %v", assignment, err)
	}
	m := v.values
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		next := v.editor(m).Get(k)
		if next == nil || next.Kind != yaml.MappingNode {
			next = tree.NewMap()
			v.editor(m).Put(tree.NewString(k), next)
		}
		m = next
	}
	v.editor(m).Put(tree.NewString(keys[len(keys)-1]), val)
	v.changed()
	return nil
}

// editor returns the editor of the mapping m of the values for Set (as
// tree.MapGet and tree.MapSet, indexed once m is large).
func (v *Vars) editor(m *yaml.Node) *nodeedit.Map {
	e := v.editors[m]
	if e == nil {
		if v.editors == nil {
			v.editors = map[*yaml.Node]*nodeedit.Map{}
		}
		e = nodeedit.NewMap(m)
		v.editors[m] = e
	}
	return e
}

// typedScalar reads a scalar by YAML 1.2's core rules.
func typedScalar(text string) (*yaml.Node, error) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil || len(n.Content) == 0 {
		return tree.NewString(text), nil //nolint:nilerr // not YAML: the text itself
	}
	r := n.Content[0]
	switch {
	case r.Kind != yaml.ScalarNode || r.Anchor != "":
		return tree.NewString(text), nil
	case r.Style == yaml.SingleQuotedStyle || r.Style == yaml.DoubleQuotedStyle:
		// "2" is the string 2
		return tree.NewString(r.Value), nil
	case r.Style != 0 || r.Value != text:
		// a tag, a block scalar, or text that does not read as itself
		// (! alone reads as an empty value): the text
		return tree.NewString(text), nil
	}
	return r, nil
}

// SetFeature sets ${features.name}.
func (v *Vars) SetFeature(name string, on bool) { v.features[name] = on }

// SetFeatureText sets a feature from text: "name=true", "name=false", or
// "name" (true), as kmerge's --feature takes it.
func (v *Vars) SetFeatureText(s string) error {
	name, val, has := strings.Cut(s, "=")
	name = strings.TrimPrefix(name, "features.")
	switch {
	case name == "":
		return fmt.Errorf("%q: expected NAME=true|false", s)
	case !has || val == "true":
		v.features[name] = true
	case val == "false":
		v.features[name] = false
	default:
		return fmt.Errorf("%q: a feature is true or false", s)
	}
	return nil
}

// undefinedError is a reference to a variable that is not defined.
type undefinedError struct {
	ref string
	msg string
}

func (e *undefinedError) Error() string { return e.msg }

// lookup returns the scalar a reference names.
func (v *Vars) lookup(ref string) (*yaml.Node, error) {
	if name, ok := strings.CutPrefix(ref, "features."); ok {
		on, found := v.features[name]
		if !found {
			return nil, &undefinedError{ref, fmt.Sprintf("undefined variable ${%s}", ref)}
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(on)}, nil
	}
	path := strings.TrimPrefix(ref, "values.")
	n := v.values
	for _, k := range strings.Split(path, ".") {
		n = v.get(n, k)
		if n == nil {
			msg := fmt.Sprintf("undefined variable ${%s}", ref)
			if names := v.Names(); len(names) > 0 && len(names) <= 20 {
				msg += " (defined: " + strings.Join(names, ", ") + ")"
			}
			return nil, &undefinedError{ref, msg}
		}
	}
	switch k := tree.KindOf(n); {
	case k == tree.Object:
		return nil, fmt.Errorf("${%s} is a mapping; variables must be scalars: name a value inside it, e.g. ${%s.%s}", ref, ref, n.Content[0].Value)
	case k == tree.Array:
		return nil, fmt.Errorf("${%s} is a list; variables must be scalars", ref)
	case k == tree.Null:
		return nil, fmt.Errorf("${%s} is null; variables must be scalars", ref)
	}
	return n, nil
}

// Names lists the defined variables, for messages and debugging.
func (v *Vars) Names() []string {
	var out []string
	var walk func(prefix string, m *yaml.Node)
	walk = func(prefix string, m *yaml.Node) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			name := prefix + m.Content[i].Value
			if m.Content[i+1].Kind == yaml.MappingNode {
				walk(name+".", m.Content[i+1])
			} else {
				out = append(out, name)
			}
		}
	}
	walk("values.", v.values)
	for f := range v.features {
		out = append(out, "features."+f)
	}
	sort.Strings(out)
	return out
}

// resolve gives the text of a value with its variables substituted, and,
// for a value that is exactly one variable, the variable's own node.
func (v *Vars) resolve(val syntax.Value) (string, *yaml.Node, error) {
	if val.SingleVariable() {
		n, err := v.lookup(val.Parts[0].Var)
		if err != nil {
			return "", nil, lookupError(val.Parts[0].Pos, err)
		}
		return n.Value, n, nil
	}
	var b strings.Builder
	for _, p := range val.Parts {
		if p.Var == "" {
			b.WriteString(p.Text)
			continue
		}
		n, err := v.lookup(p.Var)
		if err != nil {
			return "", nil, lookupError(p.Pos, err)
		}
		b.WriteString(n.Value)
	}
	return b.String(), nil, nil
}

// lookupError is the error of a variable at pos that lookup refused.
func lookupError(pos tree.Position, err error) *syntax.Error {
	e := &syntax.Error{Pos: pos, Msg: err.Error()}
	if u, ok := err.(*undefinedError); ok {
		e.Undefined = u.ref
	}
	return e
}

// checkExpansion refuses patches whose variables would add more than max
// bytes (0: no limit) to the values of one patch file: each use of a
// variable counts the bytes of its value, once, however many objects or
// list items the patch applies to. Patches are counted in order, so the
// error names the first use over the limit.
func (v *Vars) checkExpansion(patches []*syntax.Patch, max int) error {
	if max <= 0 {
		return nil
	}
	added := map[string]int{} // by patch file
	count := func(parts []syntax.Part) error {
		for _, p := range parts {
			if p.Var == "" {
				continue
			}
			n, err := v.lookup(p.Var)
			if err != nil {
				continue // an error where the patch is applied
			}
			added[p.Pos.File] += len(n.Value)
			if added[p.Pos.File] > max {
				return &syntax.Error{Pos: p.Pos, Limit: "expanded",
					Msg: fmt.Sprintf("variables expand to more than %d bytes in one patch file (each use counts the bytes of its value)", max)}
			}
		}
		return nil
	}
	for _, p := range patches {
		for _, a := range p.Sets {
			if err := count(a.Value.Parts); err != nil {
				return err
			}
		}
		if p.Body == nil {
			continue
		}
		var walk func(n *yaml.Node) error
		walk = func(n *yaml.Node) error {
			if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "${") {
				parts, err := syntax.Variables(n.Value, tree.Position{File: p.Pos.File, Line: n.Line, Column: n.Column})
				if err != nil {
					return nil //nolint:nilerr // an error where the patch is applied
				}
				return count(parts)
			}
			for _, c := range n.Content {
				if err := walk(c); err != nil {
					return err
				}
			}
			return nil
		}
		if err := walk(p.Body); err != nil {
			return err
		}
	}
	return nil
}
