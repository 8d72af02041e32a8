package mergepatch

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/nodeedit"
	"github.com/kmerge/kmerge/tree"
)

// ThreeWayDiff returns the JSON merge patch kubectl apply sends for kinds
// without a strategic schema (custom resources, in kubectl's client-side
// apply), as k8s.io/apimachinery's CreateThreeWayJSONMergePatch computes
// it. original is the last-applied configuration, modified the new one,
// current the live object. The patch makes current what modified says and
// deletes what original had and modified lacks; fields that only current
// has (added by others) are kept.
//
// The patch is the changes from current to modified without their
// deletions (Diff(current, modified), nulls removed at every depth of its
// objects, an object emptied by that removed too, an object that was empty
// kept), merged into the deletions from original to modified (the nulls of
// Diff(original, modified)). As upstream's merge does, objects inside the
// arrays the patch brings lose their null fields. Keys come in modified's
// order, the deletions after the changes of the same object.
//
// Upstream also checks the changes against the deletions for conflicts;
// the two never touch the same field (a deletion is a field modified
// lacks or holds as null, a change one it holds with a value), so that
// check never fires and is not repeated here.
//
// Without overwrite, a patch that would undo a change made to current since
// original is refused with a *change.LiveConflictError naming every such path: a path
// where the patch and Diff(original, current) both set a value, and
// different ones. Objects are compared field by field; anything else,
// arrays included, as a whole (a merge patch replaces an array whole).
// Upstream has no such check: kubectl apply always overwrites.
//
// The three documents must be objects; an empty document or null counts as
// {}. Anything else is a *NotObjectError, as upstream fails on it. The
// documents are not modified and the patch shares no nodes with them.
func ThreeWayDiff(original, modified, current *yaml.Node, overwrite bool) (*yaml.Node, error) {
	var roots [3]*yaml.Node
	for i, n := range []*yaml.Node{original, modified, current} {
		r := tree.Deref(tree.Root(n))
		switch k := tree.KindOf(r); k {
		case tree.Object:
		case tree.Null:
			r = tree.NewMap()
		default:
			return nil, &NotObjectError{Document: threeWayNames[i], Kind: k, Pos: tree.Position{Line: r.Line, Column: r.Column}}
		}
		roots[i] = r
	}
	o, m, c := roots[0], roots[1], roots[2]
	changes := filterNulls(diffObjects(c, m), false)
	deletions := filterNulls(diffObjects(o, m), true)
	patch := combine(changes, deletions)
	if overwrite {
		return patch, nil
	}
	changed := diffObjects(o, c)
	var found []change.LiveConflict
	conflicts(patch, changed, nil, &found)
	if len(found) > 0 {
		return nil, &change.LiveConflictError{Conflicts: found, Patch: patch, Changed: changed}
	}
	return patch, nil
}

var threeWayNames = [3]string{"original", "modified", "current"}

// filterNulls returns the part of the merge patch p (an object) that
// deletes (keepNulls) or the part that sets values (!keepNulls), at every
// depth of its objects: upstream's keepOrDeleteNullInObj. An object left
// empty by the filter is dropped; an empty object of p sets a value and is
// kept with the values. Arrays are values: kept whole with the values,
// their objects' null fields pruned as upstream's merge prunes them. p's
// nodes are reused.
func filterNulls(p *yaml.Node, keepNulls bool) *yaml.Node {
	out := tree.NewMap()
	for i := 0; i+1 < len(p.Content); i += 2 {
		k, v := p.Content[i], p.Content[i+1]
		switch tree.KindOf(v) {
		case tree.Null:
			if !keepNulls {
				continue
			}
		case tree.Object:
			if len(v.Content) == 0 {
				if keepNulls {
					continue
				}
				break
			}
			if v = filterNulls(v, keepNulls); len(v.Content) == 0 {
				continue
			}
		case tree.Array:
			if keepNulls {
				continue
			}
			pruneNulls(v)
		default:
			if keepNulls {
				continue
			}
		}
		out.Content = append(out.Content, k, v)
	}
	return out
}

// pruneNulls removes, in place, the null fields of the objects in v, at
// every depth, arrays included; null items of arrays stay. It is what
// evanphx/json-patch's merge does to the values a patch inserts, arrays
// included (RFC 7396 leaves arrays alone), and so what an API server and
// CreateThreeWayJSONMergePatch do.
func pruneNulls(v *yaml.Node) {
	switch tree.KindOf(v) {
	case tree.Object:
		kept := v.Content[:0]
		for i := 0; i+1 < len(v.Content); i += 2 {
			if tree.KindOf(v.Content[i+1]) == tree.Null {
				continue
			}
			pruneNulls(v.Content[i+1])
			kept = append(kept, v.Content[i], v.Content[i+1])
		}
		v.Content = kept
	case tree.Array:
		for _, e := range v.Content {
			pruneNulls(e)
		}
	}
}

// combine merges the deletions into the changes: keys both name as
// objects are combined, a key that only the deletions name is appended,
// and otherwise the change wins (upstream merges the changes into the
// deletions as a merge patch, which gives the same fields).
func combine(changes, deletions *yaml.Node) *yaml.Node {
	keys := nodeedit.NewMap(changes) // indexed once it has many
	for i := 0; i+1 < len(deletions.Content); i += 2 {
		k, d := deletions.Content[i], deletions.Content[i+1]
		c := keys.Get(k.Value)
		switch {
		case c == nil:
			keys.Put(k, d) // appended
		case tree.KindOf(c) == tree.Object && tree.KindOf(d) == tree.Object:
			combine(c, d)
		}
	}
	return changes
}

// conflicts appends to found the paths where the patch p and the changes
// made to the live object (changed) both set a value, and different ones.
func conflicts(p, changed *yaml.Node, path fieldpath.Path, found *[]change.LiveConflict) {
	inChanged := nodeedit.NewMap(changed).Get
	for i := 0; i+1 < len(p.Content); i += 2 {
		k, pv := p.Content[i].Value, p.Content[i+1]
		cv := inChanged(k)
		if cv == nil {
			continue
		}
		at := path.Append(fieldpath.Field(k))
		switch {
		case tree.KindOf(pv) == tree.Object && tree.KindOf(cv) == tree.Object:
			conflicts(pv, cv, at, found)
		case !tree.Equal(pv, cv):
			*found = append(*found, change.LiveConflict{Path: at, Patch: pv, Changed: cv})
		}
	}
}

// Conflict is a path the patch and the live object's changes both set.
//
// Deprecated: use change.LiveConflict (one type for both engines).
type Conflict = change.LiveConflict

// ConflictError is returned by ThreeWayDiff without overwrite.
//
// Deprecated: use change.LiveConflictError (one type for both engines).
type ConflictError = change.LiveConflictError

// NotObjectError is a document ThreeWayDiff cannot take: an array or a
// scalar, where a three-way merge patch needs objects.
type NotObjectError struct {
	Document string        // "original", "modified" or "current"
	Kind     tree.Kind     // what it is
	Pos      tree.Position // where its value starts, for documents read from text (no File: the caller knows it)
}

// Error formats the error as "file:line:col: the DOCUMENT document is a
// KIND: ...", the position as far as it is known.
func (e *NotObjectError) Error() string {
	return fmt.Sprintf("%sthe %s document is %s %s: a three-way JSON merge patch needs objects", e.Pos, e.Document, article(e.Kind), e.Kind)
}

// Position returns where the document's value starts.
func (e *NotObjectError) Position() tree.Position { return e.Pos }

var _ tree.PositionedError = (*NotObjectError)(nil)

func article(k tree.Kind) string {
	if k == tree.Array || k == tree.Int {
		return "an"
	}
	return "a"
}
