package syntax

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// The two path grammars, fieldpath's text (what errors, conflicts and
// blame print) and kpatch's (what patch files hold), are tied together
// here, so that they cannot drift apart:
//
//   - every path fieldpath prints reads, in this grammar (alone, in a
//     header, in the key of an assignment), as the same place: as
//     FromFieldpath of it, whose text is fieldpath's;
//   - every path this grammar prints reads back as itself, and where it
//     is written in fieldpath's canonical form (each word quoted exactly
//     where fieldpath.Quote quotes it: the grammars' overlap), fieldpath
//     reads it as the same place.
//
// Random paths of both come from a generator driven by bytes, which
// TestPathGrammars draws at random and FuzzPathGrammars lets the fuzzer
// choose.

// gen draws choices from bytes; past their end every choice is 0.
type gen struct {
	data []byte
}

func (g *gen) pick(n int) int {
	if len(g.data) == 0 || n <= 1 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return int(b) % n
}

// word is a name or a string value, rich in what the grammars delimit,
// quote or type: dots, brackets, quotes, =, commas, colons, #, blanks, a
// leading sign, digits, and words YAML reads as numbers, booleans or null.
func (g *gen) word() string {
	if g.pick(5) == 0 {
		return []string{"53", "true", "null", "1.5", "-1", "~", "0x1F", "+1", "1e3", ".inf", "", "a b", "-x", "#c", "a:b", "name"}[g.pick(16)]
	}
	const alphabet = "ab.[]\"'=,\\:# -+09é\t\x00/~{}*!$"
	rs := []rune(alphabet)
	n := g.pick(5)
	w := make([]rune, n)
	for i := range w {
		w[i] = rs[g.pick(len(rs))]
	}
	return string(w)
}

func (g *gen) value() fieldpath.Value {
	switch g.pick(6) {
	case 0:
		return fieldpath.Int(int64(g.pick(2000) - 1000))
	case 1:
		return fieldpath.Value{Kind: tree.Bool, Text: []string{"true", "false"}[g.pick(2)]}
	case 2:
		return fieldpath.Value{Kind: tree.Null, Text: "null"}
	case 3:
		return fieldpath.Plain(strconv.Itoa(g.pick(100)) + "." + strconv.Itoa(g.pick(100)))
	}
	return fieldpath.String(g.word())
}

// fieldpath returns a path of one to five elements.
func (g *gen) fieldpath() fieldpath.Path {
	p := make(fieldpath.Path, 1+g.pick(5))
	for i := range p {
		switch g.pick(4) {
		case 0:
			p[i] = fieldpath.Index(g.pick(20))
		case 1:
			p[i] = fieldpath.Member(g.value())
		case 2:
			fs := make([]fieldpath.KeyField, 1+g.pick(3))
			for j := range fs {
				fs[j] = fieldpath.KeyField{Name: g.word(), Value: g.value()}
			}
			p[i] = fieldpath.Key(fs...)
		default:
			p[i] = fieldpath.Field(g.word())
		}
	}
	return p
}

// target returns a selector as a header writes it: a kind (or any kind),
// a name or a pattern, maybe a namespace (a DNS label, as Kubernetes
// allows) and labels.
func (g *gen) target() Target {
	var sel Target
	for sel.Name == "" {
		sel.Name = g.word()
	}
	if g.pick(4) != 0 {
		sel.Kind = g.word()
	}
	if g.pick(3) == 0 {
		sel.Namespace = []string{"prod", "kube-system", "a1"}[g.pick(3)]
	}
	if g.pick(4) == 0 {
		sel.Labels = []string{"app=web", "tier in (a,b)", "!legacy"}[g.pick(3)]
	}
	return sel
}

// cond returns a condition on a key of one or two fields (none: a member).
func (g *gen) cond(member bool) Cond {
	c := Cond{Value: g.word(), Quoted: g.pick(2) == 0}
	if !c.Quoted && g.pick(3) == 0 {
		c.Value = g.value().String()
	}
	if !member {
		c.Key = make([]string, 1+g.pick(2))
		for i := range c.Key {
			c.Key[i] = g.word()
		}
	}
	return c
}

func (g *gen) conds() []Cond {
	if g.pick(4) == 0 {
		return []Cond{g.cond(true)}
	}
	cs := make([]Cond, 1+g.pick(3))
	for i := range cs {
		cs[i] = g.cond(false)
	}
	return cs
}

// path returns a path of this grammar of one to five steps, as a program
// may build it: words bare or quoted whatever they hold.
func (g *gen) path() Path {
	p := make(Path, 1+g.pick(5))
	for i := range p {
		switch g.pick(6) {
		case 0:
			p[i] = Step{Sel: &ItemSelector{Op: SelIndex, Index: g.pick(20)}}
		case 1:
			p[i] = Step{Sel: &ItemSelector{Op: SelMatch, Conds: g.conds()}}
		case 2:
			sel := &ItemSelector{Op: []SelOp{SelAppend, SelInsertBefore, SelInsertAfter}[g.pick(3)]}
			if sel.Op != SelAppend {
				if g.pick(2) == 0 {
					sel.Index = g.pick(20)
				} else {
					sel.Conds = g.conds()
				}
			}
			p[i] = Step{Sel: sel}
		default:
			f := g.word()
			if g.pick(3) == 0 {
				f = []string{"replicas", "containers", "0", "12", "image"}[g.pick(5)]
			}
			p[i] = Step{Field: f, Quoted: g.pick(2) == 0}
		}
	}
	return p
}

// canonical returns the place p names when p is written as fieldpath
// writes paths (every field quoted where fieldpath.Quote quotes it, every
// value as fieldpath writes it, keys of one field, no insertion): the
// grammars' overlap.
func canonical(p Path) (fieldpath.Path, bool) {
	out := make(fieldpath.Path, len(p))
	valueOf := func(c Cond) (fieldpath.Value, bool) {
		v := fieldpath.Plain(c.Value)
		if c.Quoted {
			v = fieldpath.String(c.Value)
		}
		if c.Quoted { // a string fieldpath quotes
			return v, v.String() != c.Value
		}
		return v, v.String() == c.Value // a value as fieldpath writes it
	}
	for i, st := range p {
		switch {
		case st.Sel == nil:
			if st.Quoted != (fieldpath.Quote(st.Field) != st.Field) {
				return nil, false
			}
			out[i] = fieldpath.Field(st.Field)
		case st.Sel.Op == SelIndex:
			out[i] = fieldpath.Index(st.Sel.Index)
		case st.Sel.Op != SelMatch:
			return nil, false
		case len(st.Sel.Conds) == 1 && st.Sel.Conds[0].Key == nil:
			v, ok := valueOf(st.Sel.Conds[0])
			if !ok {
				return nil, false
			}
			out[i] = fieldpath.Member(v)
		default:
			var fs []fieldpath.KeyField
			for _, c := range st.Sel.Conds {
				v, ok := valueOf(c)
				if len(c.Key) != 1 || !ok {
					return nil, false
				}
				fs = append(fs, fieldpath.KeyField{Name: c.Key[0], Value: v})
			}
			out[i] = fieldpath.Key(fs...)
		}
	}
	return out, true
}

// unplaced is p without positions.
func unplaced(p Path) Path {
	out := make(Path, len(p))
	for i, st := range p {
		st.Pos = tree.Position{}
		out[i] = st
	}
	return out
}

// asWritten reports whether every word of p that is not quoted reads back
// bare (so that printing p and reading it gives p itself, not a p whose
// words are quoted where a program left them bare).
func asWritten(p Path) bool {
	bareValues := func(s *ItemSelector) bool {
		for _, c := range s.Conds {
			if !c.Quoted && !plainValue(c.Value) {
				return false
			}
		}
		return true
	}
	for _, st := range p {
		if st.Sel == nil && !st.Quoted && !readsBare(st.Field, true) || st.Sel != nil && !bareValues(st.Sel) {
			return false
		}
	}
	return true
}

func checkGrammars(t *testing.T, data []byte) {
	g := &gen{data: data}
	at := tree.Position{File: "f", Line: 1, Column: 1}

	// fieldpath's text, read by this grammar
	fp := g.fieldpath()
	text := fp.String()
	want := FromFieldpath(fp)
	if got := want.String(); got != text {
		t.Fatalf("fieldpath prints %s, FromFieldpath's text is %s", text, got)
	}
	kp, err := ParsePath(text, at)
	if err != nil {
		t.Fatalf("fieldpath's %s does not read as a kpatch path: %v", text, err)
	}
	if !reflect.DeepEqual(unplaced(kp), want) {
		t.Fatalf("fieldpath's %s reads as %#v, want %#v", text, unplaced(kp), want)
	}
	if back, ok := canonical(kp); !ok || !back.Equal(fp) {
		t.Fatalf("fieldpath's %s reads as another place: %v (canonical %v)", text, back, ok)
	}
	src := "[cm.x." + text + "]\n"
	if text[0] != '[' { // a line that starts with [ is a header: a key cannot
		src += text + ": v\n"
	}
	ps, err := ParseKpatch([]byte(src), "f")
	if err != nil {
		t.Fatalf("fieldpath's %s in a header and a key: %v", text, err)
	}
	if !reflect.DeepEqual(unplaced(ps[0].Path), want) || text[0] != '[' && !reflect.DeepEqual(unplaced(ps[0].Sets[0].Key), want) {
		t.Fatalf("fieldpath's %s reads in a header as %#v and in a key as %v, want %#v", text, unplaced(ps[0].Path), ps[0].Sets, want)
	}

	// a target, printed by Target.String, read back alone and
	// in a header
	sel := g.target()
	text = sel.String()
	for _, src := range []string{text, "[" + text + "]\nx: 1\n"} {
		var got Target
		if src == text {
			got, err = ParseTarget(src, at)
		} else if ps, perr := ParseKpatch([]byte(src), "f"); perr == nil {
			got = ps[0].Target
		} else {
			err = perr
		}
		if err != nil || unplacedTarget(got) != sel {
			t.Fatalf("the target %#v prints as %s, which reads as %#v (%v)", sel, src, got, err)
		}
	}

	// this grammar's text, read back, and by fieldpath where they overlap
	p := g.path()
	text = p.String()
	back, err := ParsePath(text, at)
	if err != nil {
		t.Fatalf("%#v prints as %s, which does not read: %v", p, text, err)
	}
	if back.String() != text {
		t.Fatalf("%#v prints as %s, which reads as %s", p, text, back)
	}
	if asWritten(p) && !reflect.DeepEqual(unplaced(back), p) {
		t.Fatalf("%#v prints as %s, which reads as %#v", p, text, unplaced(back))
	}
	if place, ok := canonical(p); ok {
		if place.String() != text {
			t.Fatalf("%s is in fieldpath's form, which prints it as %s", text, place)
		}
		read, err := fieldpath.Parse(text)
		if err != nil || !read.Equal(place) {
			t.Fatalf("fieldpath reads %s as %v (%v), want %v", text, read, err, place)
		}
	}
}

// TestPathGrammars checks the grammars against each other on random paths.
func TestPathGrammars(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 1))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	data := make([]byte, 96)
	for range n {
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		checkGrammars(t, data)
	}
}

// FuzzPathGrammars is TestPathGrammars with the generator's choices the
// fuzzer's.
func FuzzPathGrammars(f *testing.F) {
	for _, s := range []string{"", "\x03\x01\x02", "\x00\x07\x05\x01\x09\x02\x00\x04\x03", "\x04\x02\x01\x01\x00\x05\x05\x05\x02\x01\x03\x01\x00\x04"} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkGrammars)
}
