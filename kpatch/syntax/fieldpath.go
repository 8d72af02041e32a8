package syntax

import (
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// FromFieldpath returns the path that names what p names (a place in a
// document, as errors and conflicts name it): every path kmerge prints is
// a path of this grammar, and FromFieldpath(p).String() is p.String(), so
// that a message that goes on from a place with the rest of a path (a
// path being walked) prints one text, in one grammar. A field is quoted
// where fieldpath.Quote quotes it (and so is never an index nor a
// shortcut), a string value where it needs quotes to be a string.
func FromFieldpath(p fieldpath.Path) Path {
	out := make(Path, len(p))
	for i, e := range p {
		switch e.Kind {
		case fieldpath.FieldElement:
			out[i] = Step{Field: e.Name, Quoted: fieldpath.Quote(e.Name) != e.Name}
		case fieldpath.IndexElement:
			out[i] = Step{Sel: &ItemSelector{Op: SelIndex, Index: e.Index}}
		case fieldpath.KeyElement:
			conds := make([]Cond, len(e.Key))
			for j, f := range e.Key {
				conds[j] = condOf([]string{f.Name}, f.Value)
			}
			out[i] = Step{Sel: &ItemSelector{Op: SelMatch, Conds: conds}}
		case fieldpath.MemberElement:
			out[i] = Step{Sel: &ItemSelector{Op: SelMatch, Conds: []Cond{condOf(nil, e.Value)}}}
		}
	}
	return out
}

// condOf is the condition that key equals v: a string quoted where a
// path quotes it, any other value as its text, which reads as it.
func condOf(key []string, v fieldpath.Value) Cond {
	if v.Kind == tree.String {
		return Cond{Key: key, Value: v.Text, Quoted: fieldpath.Quote(v.Text) != v.Text}
	}
	return Cond{Key: key, Value: v.String()}
}
