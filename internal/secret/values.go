package secret

import (
	"encoding/base64"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// Values are the secret values of one object, gathered from the states
// of it a run observes (as read, as a patch made it a Secret, as the
// patches left it) and from what its patches give it, so that no message
// about the object shows them,
// whatever the message: the layer that patches, validates, diffs or
// blames an object masks everything it says about it through the
// object's Values (Text, Error, Node, Pair), in one step, before it
// leaves that layer.
//
// An object's values are secret once it is, or has been, a v1 Secret
// (Observe of a state that is one, or Mark: its identity said so when a
// run picked it): from then on, every scalar but null at or below the
// data and stringData of every state observed is gathered, and so are
// the values a patch gives those places (Add, AddPatch, AddText), which a
// failing patch may never have written and a later one may move out. What was written there before the object became a
// Secret is not gathered (it was no Secret's value then), but what stays
// there is, from the state that is a Secret.
//
// Each value is masked in the forms a message may show it in: as it is,
// escaped as JSON, Go and single-quoted YAML escape it, each line of a
// value of several lines, and, for data, its base64 decoded (when that is
// text), for stringData, its base64 encoding (what data would hold).
// Where a form is masked in a text depends on its length, so that a short
// value does not garble every message it happens to be a word of (a
// password "live" in "the live object"):
//
//   - a form of MinAlone bytes or more is masked wherever it stands
//     alone: not preceded or followed by a letter, a digit, '_' or '-'
//     that continues it (so the value postgres is masked in "user
//     postgres," and in `"postgres"`, not in the name postgres-credentials);
//   - a shorter form is masked only where it is quoted ("admin", 'admin',
//     \"admin\", `admin` as markdown quotes code): where messages show a
//     string value;
//   - a form that is also a key of the object (or of a patch of it) is
//     masked only where quoted too: it names the key as well, in paths
//     (the value password of stringData.password leaves the path alone);
//   - a form the object also holds outside data and stringData (a patch
//     copied or moved it there: into its name, a label, a list item's
//     key; its apiVersion and kind aside, which name a type) is masked
//     wherever it stands alone, whatever its length: messages show such
//     values bare (the object's name starts most of them);
//   - a form cut short by a message (a prefix of it followed by "..." or
//     "…", as messages cut long values) is masked as the form is: from
//     MinAlone bytes standing alone, else quoted.
//
// Where a message shows a value as a node (Node, Pair: the trace, the
// changes of a conflict, validation, a diff, blame), every scalar equal
// to a secret value, or to one of its base64 forms, is masked whole,
// whatever its length, and one holding a form is masked as a text is.
//
// Keys are no secret (Value and Pair keep them); a key of a message that
// happens to equal a secret value is masked with it, as a message's text
// cannot tell the two apart.
//
// A nil *Values masks nothing (its user asked to see the values). The
// methods are safe for concurrent use.
type Values struct {
	mu   sync.Mutex
	on   bool
	seen map[string]uint8 // value: where it was found (fromData, fromText)
	list []string         // the values, in the order found
	keys map[string]bool  // the keys of the states observed and of the patches
	// the scalars of the states observed outside data and stringData
	outside map[string]bool
	m       *matcher // built from list when first needed
}

// MinAlone is the length, in bytes, from which a secret value is masked
// wherever it stands alone in a message; shorter ones only where quoted.
// Most passwords, tokens and keys, and every base64 value of six bytes or
// more, are that long; words of messages that long are rare.
const MinAlone = 8

const (
	fromData = 1 << iota // a value of data: base64
	fromText             // a value of stringData, or anything else
)

// ValuesOf returns the Values of an object as it is now (a document or
// its root mapping): nil when it is no v1 Secret.
func ValuesOf(obj *yaml.Node) *Values {
	if !Object(obj) {
		return nil
	}
	v := &Values{}
	v.Observe(obj)
	return v
}

// Mark makes the object's values secret whatever its states hold: the
// object was a Secret when the run picked it (its identity).
func (v *Values) Mark() {
	if v == nil {
		return
	}
	v.mu.Lock()
	v.on = true
	v.mu.Unlock()
}

// On reports whether the object's values are secret: it is or was a
// Secret. A Values that is not on masks nothing.
func (v *Values) On() bool {
	if v == nil {
		return false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.on
}

// Observe gathers the secret values of a state of the object (a document,
// or its root mapping; nil: none): when it is a Secret, or the object has
// been one, the scalars at and below its data and stringData.
func (v *Values) Observe(obj *yaml.Node) {
	if v == nil {
		return
	}
	root := tree.Root(obj)
	v.mu.Lock()
	defer v.mu.Unlock()
	if Object(root) {
		v.on = true
	}
	if !v.on || root == nil || root.Kind != yaml.MappingNode {
		return
	}
	v.gather(tree.MapGet(root, "data"), fromData, 0)
	v.gather(tree.MapGet(root, "stringData"), fromText, 0)
	v.gatherKeys(root, 0)
	for i := 0; i+1 < len(root.Content); i += 2 {
		// (apiVersion and kind name a type, not a value a patch moved)
		if k := root.Content[i].Value; k != "data" && k != "stringData" && k != "apiVersion" && k != "kind" {
			v.gatherOutside(root.Content[i+1], 0)
		}
	}
}

// gatherOutside adds the scalars of n (keys left out) to outside.
func (v *Values) gatherOutside(n *yaml.Node, depth int) {
	n = tree.Deref(n)
	if n == nil || depth > 1000 {
		return
	}
	if n.Kind == yaml.ScalarNode {
		if !v.outside[n.Value] && n.Value != "" {
			if v.outside == nil {
				v.outside = map[string]bool{}
			}
			v.outside[n.Value] = true
			v.m = nil
		}
		return
	}
	for i, c := range n.Content {
		if n.Kind != yaml.MappingNode || i%2 == 1 {
			v.gatherOutside(c, depth+1)
		}
	}
}

// Add gathers the secret values of n, a value a patch gives the place p
// of the object: every scalar of n when p is at or below data or
// stringData, those of n's data and stringData when p is the object
// itself, nothing elsewhere. It does nothing until the object is secret.
func (v *Values) Add(n *yaml.Node, p fieldpath.Path) {
	if v == nil || n == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.on {
		return
	}
	v.gatherKeys(n, 0)
	for _, e := range p {
		v.addKey(e.Name)
	}
	switch {
	case len(p) == 0:
		if root := tree.Root(n); root != nil && root.Kind == yaml.MappingNode {
			v.gather(tree.MapGet(root, "data"), fromData, 0)
			v.gather(tree.MapGet(root, "stringData"), fromText, 0)
		}
	case Touches(p):
		from := fromText
		if p[0].Name == "data" {
			from = fromData
		}
		v.gather(n, uint8(from), 0)
	}
}

// AddText gathers s, the text a patch gives the place p of the object (a
// field patch's value), when p is at or below data or stringData and the
// object is secret.
func (v *Values) AddText(s string, p fieldpath.Path) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.on {
		return
	}
	for _, e := range p {
		v.addKey(e.Name)
	}
	if len(p) == 0 || !Touches(p) {
		return
	}
	from := uint8(fromText)
	if p[0].Name == "data" {
		from = fromData
	}
	v.addValue(s, from)
}

// AddPatch gathers the values a strategic or merge patch (body, an
// object) or a JSON patch (json: body is its list of operations) gives
// the object's data and stringData, once the object is secret: a patch
// that fails may show them in its error without having written them.
func (v *Values) AddPatch(body *yaml.Node, json bool) {
	if !v.On() {
		return
	}
	root := tree.Root(body)
	if !json {
		v.Add(root, nil)
		return
	}
	if root == nil || root.Kind != yaml.SequenceNode {
		return
	}
	for _, op := range root.Content {
		op = tree.Deref(op)
		if op == nil || op.Kind != yaml.MappingNode {
			continue
		}
		path := tree.Deref(tree.MapGet(op, "path"))
		if path == nil || path.Kind != yaml.ScalarNode {
			continue
		}
		if value := tree.MapGet(op, "value"); value != nil {
			v.Add(value, AtPointer(path.Value))
		}
	}
}

// Include adds the values, keys and other scalars o gathered (another
// Values of the same object: what a run gathered, to a diff's). It does
// not make v secret.
func (v *Values) Include(o *Values) {
	if v == nil || o == nil || v == o {
		return
	}
	o.mu.Lock()
	list, seen := slices.Clone(o.list), maps.Clone(o.seen)
	keys, outside := maps.Clone(o.keys), maps.Clone(o.outside)
	o.mu.Unlock()
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, s := range list {
		for _, from := range []uint8{fromData, fromText} {
			if seen[s]&from != 0 {
				v.addValue(s, from)
			}
		}
	}
	for k := range keys {
		v.addKey(k)
	}
	for s := range outside {
		if v.outside == nil {
			v.outside = map[string]bool{}
		}
		v.outside[s] = true
	}
	v.m = nil
}

// gather adds every scalar of n but null (keys left out).
func (v *Values) gather(n *yaml.Node, from uint8, depth int) {
	n = tree.Deref(n)
	if n == nil || depth > 1000 {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if tree.KindOf(n) != tree.Null {
			v.addValue(n.Value, from)
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			v.gather(n.Content[i], from, depth+1)
		}
	default:
		for _, c := range n.Content {
			v.gather(c, from, depth+1)
		}
	}
}

// gatherKeys adds the keys of n's mappings: a value that is also a key
// names the key in messages too, and is masked only where quoted.
func (v *Values) gatherKeys(n *yaml.Node, depth int) {
	n = tree.Deref(n)
	if n == nil || depth > 1000 {
		return
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			if c.Kind == yaml.ScalarNode {
				v.addKey(c.Value)
			}
			continue
		}
		v.gatherKeys(c, depth+1)
	}
}

// addKey adds a key; the caller holds the lock.
func (v *Values) addKey(k string) {
	if k == "" || v.keys[k] {
		return
	}
	if v.keys == nil {
		v.keys = map[string]bool{}
	}
	v.keys[k] = true
	v.m = nil
}

// addValue adds a value; the caller holds the lock.
func (v *Values) addValue(s string, from uint8) {
	if s == "" || v.seen[s]&from != 0 {
		return
	}
	if v.seen == nil {
		v.seen = map[string]uint8{}
	}
	if v.seen[s] == 0 {
		v.list = append(v.list, s)
	}
	v.seen[s] |= from
	v.m = nil
}

// matcher returns what masks the values, nil when there are none to mask.
func (v *Values) matcher() *matcher {
	if v == nil {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.on || len(v.list) == 0 {
		return nil
	}
	if v.m == nil {
		v.m = newMatcher(v.list, v.seen, v.keys, v.outside)
	}
	return v.m
}

// Text returns s, a message about the object (or any text shown to
// people: a line of a diff, of a trace), with every form of every secret
// value masked by Mask as the rule says (see Values).
func (v *Values) Text(s string) string {
	m := v.matcher()
	if m == nil || s == "" {
		return s
	}
	return m.mask(s)
}

// Error returns err as it may be shown: its message masked (Text). An
// error type whose fields callers read for text masks them itself
// (MaskSecrets); one that joins others (errors.Join) is joined again of
// its errors masked; any other is wrapped in a *MaskedError. nil, and any
// error when the values are not secret, are returned as they are.
func (v *Values) Error(err error) error {
	if err == nil || !v.On() {
		return err
	}
	switch e := err.(type) {
	case interface{ MaskSecrets(*Values) error }:
		return e.MaskSecrets(v)
	case *MaskedError:
		return &MaskedError{Err: e.Err, Msg: v.Text(e.Msg)}
	case interface{ Unwrap() []error }:
		errs := e.Unwrap()
		out := make([]error, len(errs))
		for i, x := range errs {
			out[i] = v.Error(x)
		}
		return errors.Join(out...)
	}
	return &MaskedError{Err: err, Msg: v.Text(err.Error())}
}

// MaskedError is an error shown with the secret values of its object
// masked (Values.Error): Error returns the masked message. Unwrap gives
// the error it masks, for its data (a reason, a position, a limit), not
// for its text: show an error by its Error.
type MaskedError struct {
	Err error
	Msg string
}

// Error returns the masked message.
func (e *MaskedError) Error() string { return e.Msg }

// Unwrap returns the error masked.
func (e *MaskedError) Unwrap() error { return e.Err }

// Masked reports that the message masks secret values: the line the
// error points at may hold one, and is quoted masked (InError).
func (e *MaskedError) Masked() bool { return true }

// Node returns what a message shows of n, the value at p of the object:
// masked by path as Value masks a Secret's (when the values are secret),
// and every other scalar by value: one equal to a secret value is Mask,
// one holding one has it masked as Text masks it. n itself when nothing
// in it is masked; else a copy, sharing what is not masked. Keys stay.
func (v *Values) Node(n *yaml.Node, p fieldpath.Path) *yaml.Node {
	if !v.On() {
		return n
	}
	return v.byValue(Value(n, p))
}

// Pair returns what a message shows of two values of the place p of the
// object, before and after a change: as Pair shows a Secret's, and by
// value as Node masks them.
func (v *Values) Pair(old, new *yaml.Node, p fieldpath.Path) (*yaml.Node, *yaml.Node) {
	if !v.On() {
		return old, new
	}
	old, new = Pair(old, new, p)
	return v.byValue(old), v.byValue(new)
}

// Masks reports whether a message masks n, a scalar of the object, by
// value (Node): it is or holds a secret value.
func (v *Values) Masks(n *yaml.Node) bool {
	m := v.matcher()
	n = tree.Deref(n)
	if m == nil || n == nil || n.Kind != yaml.ScalarNode || tree.KindOf(n) == tree.Null {
		return false
	}
	return m.whole[n.Value] || m.mask(n.Value) != n.Value
}

// byValue masks the scalars of n (keys kept) that are or hold a secret
// value, copying what it changes.
func (v *Values) byValue(n *yaml.Node) *yaml.Node {
	m := v.matcher()
	if m == nil || n == nil {
		return n
	}
	var walk func(n *yaml.Node, depth int) *yaml.Node
	walk = func(n *yaml.Node, depth int) *yaml.Node {
		if n == nil || depth > 1000 {
			return n
		}
		switch n.Kind {
		case yaml.ScalarNode:
			if n.Value == Mask || n.Value == Before || n.Value == After || tree.KindOf(n) == tree.Null {
				return n
			}
			shown := Mask
			if !m.whole[n.Value] {
				if shown = m.mask(n.Value); shown == n.Value {
					return n
				}
			}
			c := *n
			c.Value, c.Tag, c.Style = shown, "!!str", 0
			return &c
		case yaml.AliasNode:
			return n
		}
		var c *yaml.Node
		for i, ch := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				continue // a key
			}
			if m := walk(ch, depth+1); m != ch {
				if c == nil {
					cp := *n
					cp.Content = slices.Clone(n.Content)
					c = &cp
				}
				c.Content[i] = m
			}
		}
		if c == nil {
			return n
		}
		return c
	}
	return walk(n, 0)
}

// matcher finds the forms of a set of values in a text.
type matcher struct {
	long     map[string][]string // forms of MinAlone bytes or more, by their first MinAlone bytes, longest first
	short    map[string]bool     // shorter forms (and keys), masked where quoted
	sorted   []string            // every form, sorted: their prefixes, for cut forms
	maxShort int
	whole    map[string]bool // the values and their base64 forms: a scalar equal to one is masked whole
	// forms shorter than MinAlone that are masked standing alone all the
	// same: the object holds them outside data and stringData (a patch
	// copied or moved them there), where messages show them bare (its
	// name, a list item's key)
	escaped []string
}

func newMatcher(values []string, from map[string]uint8, keys, outside map[string]bool) *matcher {
	m := &matcher{long: map[string][]string{}, short: map[string]bool{}, whole: map[string]bool{}}
	var all []string
	forms := func(s string) {
		m.whole[s] = true
		all = append(all, s)
		if plain(s) {
			return // its escaped forms are itself
		}
		if b, err := tree.MarshalJSON(tree.NewString(s)); err == nil && len(b) >= 2 {
			all = append(all, string(b[1:len(b)-1]))
		}
		q := strconv.Quote(s)
		all = append(all, q[1:len(q)-1], strings.ReplaceAll(s, "'", "''"))
		if strings.ContainsAny(s, "\r\n") {
			for _, l := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
				if l = strings.TrimSpace(l); len(l) >= MinAlone {
					all = append(all, l)
				}
			}
		}
	}
	for _, s := range values {
		forms(s)
		f := from[s]
		if f&fromData != 0 {
			if b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), "")); err == nil && len(b) > 0 && utf8.Valid(b) {
				forms(string(b))
			}
		}
		if f&fromText != 0 {
			forms(base64.StdEncoding.EncodeToString([]byte(s)))
		}
	}
	slices.Sort(all)
	m.sorted = slices.Compact(all)
	for _, f := range m.sorted {
		switch {
		case f == "":
		case outside[f] && len(f) < MinAlone:
			m.escaped = append(m.escaped, f)
		case !outside[f] && (len(f) < MinAlone || keys[f]):
			m.short[f] = true
			m.maxShort = min(max(m.maxShort, len(f)), maxQuoted)
		default:
			m.long[f[:MinAlone]] = append(m.long[f[:MinAlone]], f)
		}
	}
	for _, l := range m.long {
		if len(l) > 1 {
			slices.SortStableFunc(l, func(a, b string) int { return len(b) - len(a) })
		}
	}
	return m
}

// plain reports whether s has no escaped forms but itself: printable
// ASCII without quotes or backslashes.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\'' || c == '\\' {
			return false
		}
	}
	return true
}

// isPrefix reports whether p is a prefix of a form.
func (m *matcher) isPrefix(p string) bool {
	i, _ := slices.BinarySearch(m.sorted, p)
	return i < len(m.sorted) && strings.HasPrefix(m.sorted[i], p)
}

// maxQuoted bounds the length of the forms masked only where quoted
// (short ones, and keys): how far after a quote mask looks for its end.
const maxQuoted = 256

// mask masks the forms in s (see Values).
func (m *matcher) mask(s string) string {
	var spans [][2]int
	for i := 0; i+MinAlone <= len(s); i++ {
		cands := m.long[s[i:i+MinAlone]]
		for _, f := range cands {
			n := commonPrefix(s[i:], f)
			if n == len(f) && alone(s, i, i+n) || n < len(f) && cut(s[i+n:]) && alone(s, i, i) {
				spans = append(spans, [2]int{i, i + n})
				break
			}
		}
	}
	for _, f := range m.escaped {
		for i := 0; ; {
			j := strings.Index(s[i:], f)
			if j < 0 {
				break
			}
			if j += i; alone(s, j, j+len(f)) {
				spans = append(spans, [2]int{j, j + len(f)})
			}
			i = j + 1
		}
	}
	for i := 0; i < len(s); i++ {
		if !quote(s[i]) {
			continue
		}
		for j := i + 1; j < len(s) && j <= i+1+max(m.maxShort, MinAlone-1); j++ {
			if quote(s[j]) || s[j] == '\\' {
				if w := s[i+1 : j]; m.short[w] {
					spans = append(spans, [2]int{i + 1, j})
				}
				break
			}
			if cut(s[j:]) {
				if w := s[i+1 : j]; m.isPrefix(w) {
					spans = append(spans, [2]int{i + 1, j})
				}
				break
			}
		}
	}
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	at := 0
	for k := 0; k < len(spans); {
		from, to := spans[k][0], spans[k][1]
		for k++; k < len(spans) && spans[k][0] <= to; k++ {
			to = max(to, spans[k][1])
		}
		if from < at {
			from = at
		}
		b.WriteString(s[at:from])
		b.WriteString(Mask)
		at = to
	}
	b.WriteString(s[at:])
	return b.String()
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// cut reports whether s starts with the mark of a value cut short.
func cut(s string) bool { return strings.HasPrefix(s, "...") || strings.HasPrefix(s, "…") }

func quote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// alone reports whether s[i:j] stands alone in s: no letter, digit, '_'
// or '-' on either side continues one at its edge.
func alone(s string, i, j int) bool {
	if i > 0 && i < len(s) {
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		first, _ := utf8.DecodeRuneInString(s[i:])
		if word(before) && word(first) {
			return false
		}
	}
	if j > i && j < len(s) {
		last, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[j:])
		if word(last) && word(after) {
			return false
		}
	}
	return true
}

func word(r rune) bool { return r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r) }
