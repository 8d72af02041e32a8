package validate

import (
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/suggest"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// Object checks a Kubernetes object (a mapping node, or a document node
// holding one) against the type s (nil: the built-in schema) has for its
// apiVersion and kind, and checks its identity: apiVersion, kind and
// metadata.name (or metadata.generateName). An object whose kind s does
// not know gets its identity and metadata checked. An empty document has
// nothing to check; a document that is not a mapping is one violation.
// Whether a document is meant as a Kubernetes object is the caller's call
// (kmerge asks whether it had an apiVersion or a kind before the patch).
// Violations come in document order, the identity's first.
func Object(obj *yaml.Node, s *schema.Schema) []Violation {
	root := tree.Deref(obj)
	if root == nil {
		return nil
	}
	var buf [24]frame // deep enough for most objects: no allocation
	w := &walker{frames: buf[:0]}
	if root.Kind != yaml.MappingNode {
		w.typeError(root, tree.KindOf(root), &schema.Type{Kind: schema.Object})
		return w.out
	}
	if s == nil {
		s = schema.Builtin()
	}
	w.kind = scalarText(tree.MapGet(root, "kind"))
	t := s.Kind(scalarText(tree.MapGet(root, "apiVersion")), w.kind)
	w.identity(root, t)
	w.object(root, t, true)
	return w.out
}

// Value checks a value against a type, for documents that are not
// Kubernetes objects (no identity is required). A nil type accepts
// anything.
func Value(v *yaml.Node, t *schema.Type) []Violation {
	var buf [24]frame
	w := &walker{frames: buf[:0]}
	w.value(tree.Deref(v), t, nil)
	return w.out
}

func scalarText(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// objectMeta and listMeta are the built-in ObjectMeta and ListMeta, which
// the metadata of every Kubernetes object and list decodes into.
var (
	objectMeta = builtinDefinition("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
	listMeta   = builtinDefinition("io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta")
)

func builtinDefinition(name string) func() *schema.Type {
	return sync.OnceValue(func() *schema.Type {
		t, err := schema.Builtin().Definition(name)
		if err != nil {
			panic("kmerge: the built-in schema lacks " + name + ": " + err.Error())
		}
		return t
	})
}

// isList reports whether a kind without a schema is a list (a List, or
// a kind ending in List): its metadata is a ListMeta, and it has no name.
func isList(kind string) bool { return strings.HasSuffix(kind, "List") }

// stringType is the type of apiVersion and kind where a schema does not
// name them (CRDs need not).
var stringType = &schema.Type{Kind: schema.String}

// walker walks an object and its type side by side. The path is kept as a
// stack of frames and only turned into a fieldpath.Path when a violation
// is found, so that walking a valid object allocates little.
type walker struct {
	out    []Violation
	frames []frame
	kind   string // the kind of the object, for the root's metadata
}

// frame is one step down: a field, or an item of a list.
type frame struct {
	field  string
	item   *yaml.Node // nil for a field
	index  int
	key    []string // the list's merge key, to name items by
	set    bool     // the list is a set of scalars, named by value
	isItem bool
}

func (w *walker) path() fieldpath.Path {
	p := make(fieldpath.Path, len(w.frames))
	for i, f := range w.frames {
		if f.isItem {
			p[i] = fieldpath.ItemElement(f.item, f.key, f.set, f.index)
		} else {
			p[i] = fieldpath.Field(f.field)
		}
	}
	return p
}

func (w *walker) add(v Violation) {
	v.Path = w.path()
	w.out = append(w.out, v)
}

// typeError reports a value of the wrong JSON kind.
func (w *walker) typeError(n *yaml.Node, k tree.Kind, t *schema.Type) {
	w.add(Violation{Reason: ReasonType, Want: t.String(), Found: describe(n, k), Node: n})
}

// value checks n against t. f is the field n is the value of, when it is
// one (for the merge key naming list items).
func (w *walker) value(n *yaml.Node, t *schema.Type, f *schema.Field) {
	if t == nil || t.Kind == schema.Any {
		return // anything goes: the walk stops here
	}
	n = tree.Resolve(n)
	k := tree.KindOf(n)
	if k == tree.Null {
		return // a decoder takes null for "not set", everywhere
	}
	switch t.Kind {
	case schema.Object:
		if k != tree.Object {
			w.typeError(n, k, t)
			return
		}
		w.object(n, t, false)
	case schema.Map:
		if k != tree.Object {
			w.typeError(n, k, t)
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			w.frames = append(w.frames, frame{field: n.Content[i].Value})
			w.value(n.Content[i+1], t.Elem, nil)
			w.frames = w.frames[:len(w.frames)-1]
		}
	case schema.List:
		if k != tree.Array {
			w.typeError(n, k, t)
			return
		}
		var key []string
		set := false
		if f != nil {
			key = f.Meta.MergeKey
			set = len(key) == 0 && (f.Meta.Strategy == schema.StrategyMerge || f.ListType == "set")
		}
		for i, item := range n.Content {
			w.frames = append(w.frames, frame{item: item, index: i, key: key, set: set, isItem: true})
			w.value(item, t.Elem, nil)
			w.frames = w.frames[:len(w.frames)-1]
		}
	default:
		w.scalar(n, k, t)
	}
}

// object checks the fields of an object. At the root of a Kubernetes
// object, apiVersion and kind are strings and metadata an ObjectMeta even
// where the type does not say so (CRD schemas need not), and t may be nil
// (a kind without a schema).
func (w *walker) object(n *yaml.Node, t *schema.Type, root bool) {
	open := t == nil || t.Kind != schema.Object || t.AllowsUnknownFields()
	for i := 0; i+1 < len(n.Content); i += 2 {
		name := n.Content[i].Value
		f := t.ExactField(name)
		var ft *schema.Type
		known := f != nil
		if known {
			ft = f.Type
		}
		if root {
			switch name {
			case "apiVersion", "kind":
				if !known {
					ft, known = stringType, true
				}
			case "metadata":
				switch {
				case t == nil && isList(w.kind):
					ft, known, f = listMeta(), true, nil
				case !t.FromGo():
					// a CRD's metadata schema only restricts the name
					ft, known, f = objectMeta(), true, nil
				}
			}
		}
		if !known {
			if !open {
				w.frames = append(w.frames, frame{field: name})
				w.add(Violation{Reason: ReasonUnknownField, Want: objectName(t), Found: "the field " + name,
					Detail: caseHint(t, name), Node: n.Content[i]})
				w.frames = w.frames[:len(w.frames)-1]
			}
			continue
		}
		w.frames = append(w.frames, frame{field: name})
		w.value(n.Content[i+1], ft, f)
		w.frames = w.frames[:len(w.frames)-1]
	}
}

// objectName names an object type for messages: its definition name, or
// the fields it has.
func objectName(t *schema.Type) string {
	if t.Name != "" {
		return t.Name
	}
	fields := t.Fields()
	if len(fields) == 0 {
		return "an object without fields"
	}
	names := make([]string, 0, 8)
	for _, f := range fields {
		if len(names) == cap(names) {
			names = append(names[:cap(names)-1], "...")
			break
		}
		names = append(names, f.Name)
	}
	return "an object with fields " + strings.Join(names, ", ")
}

// caseHint points at a field whose name differs only in letter case
// (field names are case-sensitive for an API server), or else at the
// nearest fields by spelling.
func caseHint(t *schema.Type, name string) string {
	var names []string
	for _, f := range t.Fields() {
		if strings.EqualFold(f.Name, name) {
			return "field names are case-sensitive: did you mean " + f.Name + "?"
		}
		names = append(names, f.Name)
	}
	return suggest.DidYouMean(name, names, nil) // replica: did you mean replicas?
}

// identity checks that the object has what every object needs to be
// created: apiVersion, kind, and metadata.name or metadata.generateName,
// none of them empty. Lists need no name: their metadata has none.
func (w *walker) identity(root *yaml.Node, t *schema.Type) {
	for _, field := range []string{"apiVersion", "kind"} {
		if v := tree.MapGet(root, field); !present(v) {
			w.frames = append(w.frames[:0], frame{field: field})
			w.add(Violation{Reason: ReasonRequired, Want: "string", Found: found(v), Node: v,
				Detail: absent(v) + ": every object needs " + article(field) + field})
		}
	}
	needsName := !isList(w.kind)
	if t.FromGo() {
		mf := t.ExactField("metadata")
		needsName = mf != nil && mf.Type.ExactField("name") != nil
	} else if t != nil {
		needsName = true
	}
	if !needsName {
		w.frames = w.frames[:0]
		return
	}
	meta := tree.MapGet(root, "metadata")
	name, gen := tree.MapGet(meta, "name"), tree.MapGet(meta, "generateName")
	if !present(name) && !present(gen) {
		w.frames = append(w.frames[:0], frame{field: "metadata"}, frame{field: "name"})
		w.add(Violation{Reason: ReasonRequired, Want: "string", Found: found(name), Node: name,
			Detail: absent(name) + ": an object needs metadata.name (or metadata.generateName)"})
	}
	w.frames = w.frames[:0]
}

// present reports whether a field is there with a value other than null
// and the empty string. A value of another kind is there (its type is
// checked by the walk).
func present(v *yaml.Node) bool {
	switch tree.KindOf(v) {
	case tree.Null:
		return false
	case tree.String:
		return tree.Deref(v).Value != ""
	}
	return true
}

func absent(v *yaml.Node) string {
	if v == nil {
		return "missing"
	}
	if tree.KindOf(v) == tree.Null {
		return "null"
	}
	return "empty"
}

func found(v *yaml.Node) string {
	if v == nil {
		return "nothing"
	}
	return describe(tree.Deref(v), tree.KindOf(v))
}

func article(field string) string {
	if field == "apiVersion" {
		return "an "
	}
	return "a "
}
