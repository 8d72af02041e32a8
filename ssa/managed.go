package ssa

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/kmerge/kmerge/tree"
)

// Operation is how a manager wrote its fields: Apply (server-side apply)
// or Update (every other write: create, update, patch).
type Operation string

// The operations of managedFields entries.
const (
	OpApply  Operation = "Apply"
	OpUpdate Operation = "Update"
)

// Entry is an entry of an object's metadata.managedFields: a manager, how
// it wrote, and the fields it owns.
type Entry struct {
	Manager     string
	Operation   Operation
	APIVersion  string
	Subresource string
	Time        *time.Time // nil: the entry has none

	fields *smdfieldpath.Set
}

// Owns reports whether the entry owns the field or item at p (a path as
// the API server prints it, e.g. .spec.replicas).
func (e *Entry) Owns(p smdfieldpath.Path) bool { return e.fields != nil && e.fields.Has(p) }

// Fields returns the paths the entry owns, as the API server prints them
// (.spec.replicas, .spec.template.spec.containers[name="web"].image), in
// the order of its field set.
func (e *Entry) Fields() []string {
	var out []string
	if e.fields != nil {
		e.fields.Iterate(func(p smdfieldpath.Path) { out = append(out, p.String()) })
	}
	return out
}

// identity is what the API server tells managedFields entries apart by:
// the JSON of the entry's manager, operation, apiVersion (for Update
// entries only: an applier has one entry whatever version it applied) and
// subresource, in the order the API's ManagedFieldsEntry declares them.
// Conflicts with several managers list them sorted by it.
func identity(manager string, op Operation, apiVersion, subresource string) string {
	if op == OpApply {
		apiVersion = ""
	}
	b, _ := json.Marshal(struct {
		Manager     string `json:"manager,omitempty"`
		Operation   string `json:"operation,omitempty"`
		APIVersion  string `json:"apiVersion,omitempty"`
		Subresource string `json:"subresource,omitempty"`
	}{manager, string(op), apiVersion, subresource})
	return string(b)
}

func (e *Entry) identity() string {
	return identity(e.Manager, e.Operation, e.APIVersion, e.Subresource)
}

// ManagedFieldsError is an object's metadata.managedFields that the API
// server would not read.
type ManagedFieldsError struct {
	Pos tree.Position // of the entry or the field; 0 line when unknown
	Msg string
}

// Error says what is wrong, after the position when there is one.
func (e *ManagedFieldsError) Error() string {
	if e.Pos.Line > 0 {
		return e.Pos.String() + "metadata.managedFields: " + e.Msg
	}
	return "metadata.managedFields: " + e.Msg
}

// decodeManaged reads an object's metadata.managedFields, as the API
// server does: every entry's operation is Apply or Update, its apiVersion
// is set, its fieldsType is FieldsV1 and its fieldsV1 a field set. file
// names the object's file in errors.
func decodeManaged(obj *yaml.Node, file string) ([]*Entry, error) {
	mf := tree.Deref(tree.MapGet(tree.MapGet(obj, "metadata"), "managedFields"))
	if mf == nil || tree.KindOf(mf) == tree.Null {
		return nil, nil
	}
	at := func(n *yaml.Node) tree.Position { return tree.Position{File: file, Line: n.Line, Column: n.Column} }
	if mf.Kind != yaml.SequenceNode {
		return nil, &ManagedFieldsError{Pos: at(mf), Msg: "not a list"}
	}
	var out []*Entry
	for i, item := range mf.Content {
		item = tree.Deref(item)
		if item.Kind != yaml.MappingNode {
			return nil, &ManagedFieldsError{Pos: at(item), Msg: fmt.Sprintf("entry %d is not an object", i)}
		}
		str := func(k string) (string, error) {
			v := tree.Deref(tree.MapGet(item, k))
			if v == nil || tree.KindOf(v) == tree.Null {
				return "", nil
			}
			if tree.KindOf(v) != tree.String {
				return "", &ManagedFieldsError{Pos: at(v), Msg: fmt.Sprintf("entry %d: %s is not a string", i, k)}
			}
			return v.Value, nil
		}
		e := &Entry{}
		var op, fieldsType, when string
		var err error
		for _, f := range []struct {
			key string
			to  *string
		}{{"manager", &e.Manager}, {"operation", &op}, {"apiVersion", &e.APIVersion}, {"subresource", &e.Subresource},
			{"fieldsType", &fieldsType}, {"time", &when}} {
			if *f.to, err = str(f.key); err != nil {
				return nil, err
			}
		}
		e.Operation = Operation(op)
		switch {
		case e.Operation != OpApply && e.Operation != OpUpdate:
			return nil, &ManagedFieldsError{Pos: at(item), Msg: "operation must be `Apply` or `Update`"}
		case e.APIVersion == "":
			return nil, &ManagedFieldsError{Pos: at(item), Msg: "apiVersion must not be empty"}
		case fieldsType == "":
			return nil, &ManagedFieldsError{Pos: at(item), Msg: fmt.Sprintf("missing fieldsType in managed fields entry %d", i)}
		case fieldsType != "FieldsV1":
			return nil, &ManagedFieldsError{Pos: at(item), Msg: fmt.Sprintf("invalid fieldsType %q in managed fields entry %d", fieldsType, i)}
		}
		if when != "" {
			t, err := time.Parse(time.RFC3339, when)
			if err != nil {
				return nil, &ManagedFieldsError{Pos: at(tree.MapGet(item, "time")), Msg: fmt.Sprintf("entry %d: time %q is not an RFC 3339 time", i, when)}
			}
			t = t.UTC()
			e.Time = &t
		}
		e.fields = &smdfieldpath.Set{}
		if fv := tree.Deref(tree.MapGet(item, "fieldsV1")); fv != nil && tree.KindOf(fv) != tree.Null {
			set, _, bad := readFields(fv, 0)
			if bad != nil {
				return nil, &ManagedFieldsError{Pos: at(bad.at), Msg: fmt.Sprintf("entry %d: fieldsV1 is not a field set: %s", i, bad.msg)}
			}
			if set != nil {
				e.fields = set
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// sortEntries orders entries as the API server writes them: Apply
// before Update, then by time (to the second; none is the oldest), manager,
// apiVersion and subresource.
func sortEntries(entries []*Entry) {
	secs := func(e *Entry) int64 {
		if e.Time == nil {
			return 0
		}
		return e.Time.Unix()
	}
	sort.SliceStable(entries, func(i, j int) bool {
		p, q := entries[i], entries[j]
		switch {
		case p.Operation != q.Operation:
			return p.Operation < q.Operation
		case secs(p) != secs(q):
			return secs(p) < secs(q)
		case p.Manager != q.Manager:
			return p.Manager < q.Manager
		case p.APIVersion != q.APIVersion:
			return p.APIVersion < q.APIVersion
		}
		return p.Subresource < q.Subresource
	})
}

// encodeManaged writes entries as metadata.managedFields holds them (a
// value: toNode sorts its keys, as kubectl prints them); nil for none.
func encodeManaged(entries []*Entry) ([]any, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	out := make([]any, 0, len(entries))
	for _, e := range entries {
		fields, err := fieldsNode(e.fields, false, 0)
		if err != nil {
			return nil, fmt.Errorf("encoding the fields of %s: %w", e.Manager, err)
		}
		m := map[string]any{"apiVersion": e.APIVersion, "fieldsType": "FieldsV1", "fieldsV1": fields,
			"manager": e.Manager, "operation": string(e.Operation)}
		if e.Subresource != "" {
			m["subresource"] = e.Subresource
		}
		if e.Time != nil {
			m["time"] = e.Time.UTC().Format(time.RFC3339)
		}
		out = append(out, m)
	}
	return out, nil
}

// sameButTimes reports whether two lists of entries are the same entry by
// entry, times aside.
func sameButTimes(a, b []*Entry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		p, q := a[i], b[i]
		if p.Manager != q.Manager || p.Operation != q.Operation || p.APIVersion != q.APIVersion ||
			p.Subresource != q.Subresource || !p.fields.Equals(q.fields) {
			return false
		}
	}
	return true
}

// fieldsError is a fieldsV1 that is no field set, and where.
type fieldsError struct {
	at  *yaml.Node
	msg string
}

// readFields reads a field set written as FieldsV1 (f:NAME, k:KEYS, v:VALUE,
// i:INDEX keys, "." for a place that is a member as well as a parent), as
// the API server reads it: an empty object is a member of its parent,
// path elements of kinds it does not know are left out. It returns the
// set of what is below n (nil: nothing), and whether n is a member.
func readFields(n *yaml.Node, depth int) (*smdfieldpath.Set, bool, *fieldsError) {
	n = tree.Deref(n)
	if depth > maxNesting {
		return nil, false, &fieldsError{n, "nested too deep"}
	}
	if tree.KindOf(n) == tree.Null {
		return nil, true, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, false, &fieldsError{n, "expected an object, not " + tree.KindOf(n).String()}
	}
	var children *smdfieldpath.Set
	member := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := tree.Deref(n.Content[i]).Value
		if key == "." {
			member = true
			continue
		}
		pe, err := readElement(key)
		if errors.Is(err, smdfieldpath.ErrUnknownPathElementType) {
			continue
		}
		if err != nil {
			return nil, false, &fieldsError{n.Content[i], fmt.Sprintf("%q: %v", key, err)}
		}
		below, isMember, bad := readFields(n.Content[i+1], depth+1)
		if bad != nil {
			return nil, false, bad
		}
		if isMember || below != nil {
			if children == nil {
				children = &smdfieldpath.Set{}
			}
		}
		if isMember {
			children.Members.Insert(pe)
		}
		if below != nil {
			*children.Children.Descend(pe) = *below
		}
	}
	return children, member || children == nil, nil
}

// fieldsNode writes a field set as FieldsV1, keys sorted as kubectl prints
// them; self says that the set's own place is a member too (".").
func fieldsNode(s *smdfieldpath.Set, self bool, depth int) (*yaml.Node, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if depth > maxNesting {
		return nil, fmt.Errorf("nested deeper than %d levels", maxNesting)
	}
	type entry struct {
		key string
		val *yaml.Node
	}
	var entries []entry
	empty := func() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle} }
	if self && (s.Members.Size() > 0 || !s.Children.Empty()) {
		entries = append(entries, entry{".", empty()})
	}
	var err error
	s.Members.Iterate(func(pe smdfieldpath.PathElement) {
		if _, ok := s.Children.Get(pe); ok || err != nil {
			return
		}
		var key string
		if key, err = elementKey(pe); err == nil {
			entries = append(entries, entry{key, empty()})
		}
	})
	s.Children.Iterate(func(pe smdfieldpath.PathElement) {
		if err != nil {
			return
		}
		child, _ := s.Children.Get(pe)
		var key string
		if key, err = elementKey(pe); err != nil {
			return
		}
		var val *yaml.Node
		if val, err = fieldsNode(child, s.Members.Has(pe), depth+1); err == nil {
			entries = append(entries, entry{key, val})
		}
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].key < entries[j].key })
	m.Content = make([]*yaml.Node, 0, 2*len(entries))
	for _, e := range entries {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: e.key}, e.val)
	}
	if len(m.Content) == 0 {
		m.Style = yaml.FlowStyle
	}
	return m, nil
}

// elementKey is a path element as FieldsV1 writes it
// (smdfieldpath.SerializePathElement): written here for a field, and for
// the keys and set values of plain strings and integers, the common ones
// (the engine's writer, built for streams, costs more than the rest of
// writing the entry).
func elementKey(pe smdfieldpath.PathElement) (string, error) {
	switch {
	case pe.FieldName != nil:
		return "f:" + *pe.FieldName, nil
	case pe.Index != nil:
		return "i:" + strconv.Itoa(*pe.Index), nil
	case pe.Key != nil:
		b := make([]byte, 0, 48)
		b = append(b, "k:{"...)
		for i, f := range *pe.Key {
			if i > 0 {
				b = append(b, ',')
			}
			if !plainJSON(f.Name) {
				return smdfieldpath.SerializePathElement(pe)
			}
			b = append(append(append(b, '"'), f.Name...), '"', ':')
			var ok bool
			if b, ok = appendPlain(b, f.Value); !ok {
				return smdfieldpath.SerializePathElement(pe)
			}
		}
		return string(append(b, '}')), nil
	case pe.Value != nil:
		if b, ok := appendPlain([]byte("v:"), *pe.Value); ok {
			return string(b), nil
		}
	}
	return smdfieldpath.SerializePathElement(pe)
}

// appendPlain appends a value as JSON when it is an integer or a string
// JSON writes as it is, between quotes.
func appendPlain(b []byte, v value.Value) ([]byte, bool) {
	switch {
	case v.IsInt():
		return strconv.AppendInt(b, v.AsInt(), 10), true
	case v.IsString() && plainJSON(v.AsString()):
		return append(append(append(b, '"'), v.AsString()...), '"'), true
	}
	return b, false
}

// plainJSON reports whether JSON writes s as its bytes between quotes:
// printable ASCII without quotes, backslashes, or the characters an
// HTML-safe writer escapes (<, >, &).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// readElement reads a FieldsV1 key: a field's (f:NAME, most of them) here,
// the others by the engine's reader.
func readElement(key string) (smdfieldpath.PathElement, error) {
	if name, ok := strings.CutPrefix(key, "f:"); ok {
		return smdfieldpath.PathElement{FieldName: &name}, nil
	}
	return smdfieldpath.DeserializePathElement(key)
}
