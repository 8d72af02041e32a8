package kpatch

import (
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
)

// TargetHint says why a target picks no object of set, as the warning
// about a patch whose target matches nothing says it (the nearest kinds or
// names): "" when it has nothing to add, else " (...)". s nil is the
// built-in schema. kmerge blame words its arguments' misses with it.
func TargetHint(sel resource.Selector, set *resource.Set, s *schema.Schema) string {
	if s == nil {
		s = schema.Builtin()
	}
	return targetHint(sel, set, s)
}
