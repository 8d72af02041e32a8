package change

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
)

// LiveConflict is a path that a three-way patch (kubectl apply's: package
// smp's CreateThreeWayPatch, package mergepatch's ThreeWayDiff) sets, and
// that was changed differently in the live object since the last-applied
// configuration. (A conflict between two patches of one run is package
// conflict's Conflict.)
type LiveConflict struct {
	Path    fieldpath.Path // the field's path
	Patch   *yaml.Node     // what the patch does there (nil: nothing; null: deletes it)
	Changed *yaml.Node     // what the live object's change did there (null: deleted it)
}

// Where names the conflict's place for messages: its path, or "(the
// whole object)" for the root.
func (c LiveConflict) Where() string {
	if len(c.Path) == 0 {
		return "(the whole object)"
	}
	return c.Path.String()
}

// LiveConflictError is a three-way patch refused, without overwrite,
// because it would undo changes made to the live object since the
// last-applied configuration: the one error of both engines that make
// three-way patches.
type LiveConflictError struct {
	Conflicts []LiveConflict
	Patch     *yaml.Node // the patch that was refused
	Changed   *yaml.Node // the changes from original to current
	// Err is set when some other path could not be compared (upstream's
	// strategic three-way patch reports either that failure or a
	// conflict, by Go map order; kmerge reports the conflicts and keeps
	// the failure here).
	Err error
}

// Error lists the conflicting paths.
func (e *LiveConflictError) Error() string {
	paths := make([]string, len(e.Conflicts))
	for i, c := range e.Conflicts {
		paths[i] = c.Where()
	}
	return fmt.Sprintf("the patch conflicts with changes made to the live object since it was last applied, at %s", strings.Join(paths, ", "))
}
