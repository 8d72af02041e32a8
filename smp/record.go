package smp

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// Apply records what it does in Options.Record, as it does it (package
// change): a field set to a scalar, or replaced as a whole, is a Set; a
// null, a $patch: delete item, a $deleteFromPrimitiveList entry a Delete;
// a merged object or list records the fields and items below it, items
// named by the key that identified them (the list's merge key, or the
// item's $patchMergeKey) and scalars of merged lists by value; a value the
// document lacked is a Create and what is in it; $retainKeys a Retain,
// $setElementOrder an Order.

// recording reports whether Apply records changes.
func (a *applier) recording() bool { return a.opts.Record != nil }

// record adds a change at the applier's path followed by below. at is the
// patch node it comes from (its position); v is the change's value, which
// must not change afterwards.
func (a *applier) record(op change.Op, at, v *yaml.Node, below ...fieldpath.Element) {
	if a.opts.Record == nil {
		return
	}
	n := len(a.path)
	a.path = append(a.path, below...)
	a.opts.Record.Record(op, a.path, v, a.opts.File, at)
	a.path = a.path[:n]
}

// recordNew records a value the document did not have (or had with
// another kind), which the patch value pv of the field puts there, at the
// applier's path: the patch brings it as it is (upstream copies it), but
// for another patch that changes the same place it means what merging pv
// into an empty value means. So a new object or merged list is a Create,
// and what goes into it is recorded by merging pv into an empty one, for
// the records alone; anything else is a Set. t is the type of the object
// the field is in, at the patch's key.
func (a *applier) recordNew(at, pv *yaml.Node, t *schema.Type, field string) {
	if !a.recording() {
		return
	}
	switch tree.KindOf(pv) {
	case tree.Object:
		sub, meta, err := t.PatchField(field, false)
		if err != nil || meta.Strategy == schema.StrategyReplace {
			if v, keep := a.verbatim(pv); keep {
				a.record(change.Set, at, tree.Clone(v))
			}
			return
		}
		a.record(change.Create, at, tree.NewMap())
		a.mergeMap(tree.NewMap(), pv, sub) //nolint:errcheck // for its records
	case tree.Array:
		elem, meta, err := t.PatchField(field, true)
		if err != nil || meta.Strategy != schema.StrategyMerge && !usesPatchMergeKey(pv.Content) {
			v, _ := a.verbatim(pv)
			a.record(change.Set, at, tree.Clone(v))
			return
		}
		a.record(change.Create, at, tree.NewSeq())
		a.mergeListField(nil, at, pv, elem, meta, false) //nolint:errcheck // for its records
	default:
		a.record(change.Set, at, pv)
	}
}

// recordNewItem records an item of a merged list that the document did
// not have, the patch's item p named by label: created, and filled by
// merging p into an empty object, for the records alone.
func (a *applier) recordNewItem(p *yaml.Node, label fieldpath.Element, elem *schema.Type) {
	if !a.recording() {
		return
	}
	a.pushItem(label)
	a.record(change.Create, p, tree.NewMap())
	a.mergeMap(tree.NewMap(), withoutKey(p, directivePatchMergeKey), elem) //nolint:errcheck // for its records
	a.pop()
}
