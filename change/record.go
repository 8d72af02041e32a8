package change

import (
	"fmt"

	"github.com/kmerge/kmerge/tree"
)

// PatchKind is the kind of a patch: which engine applied it, and so how
// its changes name list items and what they mean (a field patch's changes
// conflict with a strategic, merge or JSON patch's even where they agree:
// see package conflict).
type PatchKind uint8

// The kinds of patches.
const (
	FieldPatch     PatchKind = iota // assignments to paths (.kpatch sections, `type: field`)
	StrategicPatch                  // a strategic merge patch
	MergePatch                      // a JSON merge patch (RFC 7396)
	JSONPatch                       // a JSON patch (RFC 6902)
)

var patchKinds = [...]string{"field", "strategic", "merge", "json"}

// String returns the name of the kind, as a YAML patch list's type and
// messages write it: "field", "strategic", "merge" or "json".
func (k PatchKind) String() string {
	if int(k) < len(patchKinds) {
		return patchKinds[k]
	}
	return fmt.Sprintf("patchkind(%d)", k)
}

// Record is what one patch did to one object: what a patch engine hands
// back (kpatch gives the records of each object as soon as it is patched)
// and what package conflict compares.
type Record struct {
	Object  string        // the object's identity
	Patch   PatchKind     // the kind of the patch
	Pos     tree.Position // the patch: its header, or its item in a patch list
	Changes []Change
}
