package validate

import (
	"fmt"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// Change is something a patch did to an object: the path it changed and
// where the patch says so. It is the part of a change record that
// attribution needs.
type Change struct {
	Path fieldpath.Path
	Pos  tree.Position
	// Whole reports that the change wrote everything at Path (it set or
	// deleted the value) rather than changing part of it (merging into an
	// object or a list, inserting an item).
	Whole bool
	// Note is the change's note (change.Change.Note): a type violation of
	// the value it set gives it as its Detail.
	Note string
}

// Changes turns the change records of the patches (package change) into
// what Attribute needs: the paths they changed, where the patches say so,
// and whether they wrote the whole value there (a set, a delete, an
// insertion) or changed part of it. What a patch read (a test, the
// existence a JSON patch needs) changed nothing.
func Changes(changes []change.Change) []Change {
	out := make([]Change, 0, len(changes))
	for _, c := range changes {
		if c.Op == change.Test || c.Op == change.Exists {
			continue
		}
		whole := c.Op == change.Set || c.Op == change.Delete || c.Op == change.Insert
		out = append(out, Change{Path: c.Path, Pos: c.Pos, Whole: whole, Note: c.Note})
	}
	return out
}

// Attribute says where each violation of a patched object came from.
// changes are what the patches did to the object, in the order they did
// it; before are the violations of the object as it was read. For each
// violation, in this order:
//
//  1. a change at its path, or a Whole change above it, wrote the value:
//     the nearest one (the last of equally near ones, which wrote last)
//     sets Patch, and, for a type violation of the value it set, Detail
//     to its Note;
//  2. else, when the object had the violation already (the same path and
//     reason in before), Input is set, with its place in the input;
//  3. else a change above it (merging into what holds it) sets Patch;
//  4. else the first change below it (a field a patch added to something
//     that then stopped being what the schema wants) sets Patch;
//  5. else nothing is set: a patch made it, but no change says which.
//
// So a violation a patch wrote is the patch's even when the input had the
// same problem, and one the input had is not blamed on a patch that merged
// something next to it.
func Attribute(vs []Violation, changes []Change, before []Violation) {
	had := make(map[string]*Violation, len(before))
	for i := range before {
		had[key(before[i])] = &before[i]
	}
	for i := range vs {
		v := &vs[i]
		if c := nearest(v.Path, changes, true); c != nil {
			v.Patch = c.Pos
			if v.Reason == ReasonType && v.Detail == "" && c.Path.Equal(v.Path) {
				v.Detail = c.Note
			}
			continue
		}
		if b := had[key(*v)]; b != nil {
			v.Input = true
			if b.Node != nil {
				v.Line, v.Column = b.Node.Line, b.Node.Column
			}
			continue
		}
		if c := nearest(v.Path, changes, false); c != nil {
			v.Patch = c.Pos
			continue
		}
		for j := range changes {
			if changes[j].Path.Below(v.Path) {
				v.Patch = changes[j].Pos
				break
			}
		}
	}
}

func key(v Violation) string { return fmt.Sprint(v.Reason, "\x00", v.Path) }

// nearest returns the change at p or above it that is nearest to p (the
// last of equally near ones). With whole, only changes at p or Whole
// changes above it count.
func nearest(p fieldpath.Path, changes []Change, whole bool) *Change {
	var best *Change
	for j := range changes {
		c := &changes[j]
		if !p.HasPrefix(c.Path) {
			continue
		}
		if whole && !c.Whole && len(c.Path) < len(p) {
			continue
		}
		if best == nil || len(c.Path) >= len(best.Path) {
			best = c
		}
	}
	return best
}

// Mode says what a run does with violations.
type Mode uint8

// The modes.
const (
	// None checks nothing.
	None Mode = iota
	// Warn reports every violation as a warning and writes the result.
	Warn
	// Strict makes a violation a patch wrote an error: nothing is written.
	// Violations the input had already stay warnings: a patch did not
	// make them, and a run that patches a slightly invalid input still
	// gives its output.
	Strict
)

// String returns the mode's name: none, warn or strict.
func (m Mode) String() string {
	switch m {
	case Warn:
		return "warn"
	case Strict:
		return "strict"
	}
	return "none"
}

// ParseMode reads a mode's name: strict, warn or none.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "strict":
		return Strict, nil
	case "warn":
		return Warn, nil
	case "none":
		return None, nil
	}
	return None, fmt.Errorf("%q is not a validation mode: use strict, warn or none", s)
}

// Fails reports whether the violation is an error in mode m: in Strict
// mode, unless the input had it already.
func (m Mode) Fails(v Violation) bool { return m == Strict && !v.Input }
