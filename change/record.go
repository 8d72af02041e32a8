package change

import (
	"fmt"

	"github.com/kmerge/kmerge/tree"
)

// PatchType is the type of a patch: which engine applies it, and so how
// its changes name list items and what they mean (a field patch's changes
// conflict with a strategic, merge or JSON patch's even where they agree:
// see package conflict). It is the one name of the concept: a YAML patch
// list's type, kmerge.PatchOptions.Type (kmerge.PatchType is this type),
// syntax.Patch.Type and a change Record's Patch. Its zero value is a
// strategic merge patch, kmerge.Patch's default.
type PatchType uint8

// The types of patches.
const (
	StrategicPatch PatchType = iota // a strategic merge patch
	MergePatch                      // a JSON merge patch (RFC 7396)
	JSONPatch                       // a JSON patch (RFC 6902)
	FieldPatch                      // assignments to paths (.kpatch sections, `type: field`)
)

// PatchKind is the former name of PatchType.
//
// Deprecated: use PatchType (one name for the type of a patch).
type PatchKind = PatchType

var patchTypes = [...]string{"strategic", "merge", "json", "field"}

// String returns the name of the type, as a YAML patch list's type and
// messages write it: "field", "strategic", "merge" or "json".
func (k PatchType) String() string {
	if int(k) < len(patchTypes) {
		return patchTypes[k]
	}
	return fmt.Sprintf("patchtype(%d)", k)
}

// Record is what one patch did to one object: what a patch engine hands
// back (kpatch gives the records of each object as soon as it is patched)
// and what package conflict compares.
type Record struct {
	Object  string        // the object's identity
	Patch   PatchType     // the type of the patch
	Pos     tree.Position // the patch: its header, or its item in a patch list
	Changes []Change
}
