package kpatch

import "github.com/kmerge/kmerge/tree"

// Error is a problem in a patch file or in applying it, at a position of
// the patch file.
type Error struct {
	Pos tree.Position
	Msg string
	// ValuesFile is set when a file read as a YAML patch list is a
	// mapping, as a values file is (a values file among the patch files),
	// so that a caller can say how to give values.
	ValuesFile bool
	// Limit names the limit a file went over ("line"), "" for other
	// errors.
	Limit string
}

// Error formats the error as "file:line:col: message".
func (e *Error) Error() string { return e.Pos.String() + e.Msg }
