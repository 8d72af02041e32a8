package main

import (
	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"

	yaml "go.yaml.in/yaml/v3"
)

// jsonObjects writes the objects of apply's outputs as kubectl's -o json
// does: one object as itself, several as a v1 List of them (the items of
// List documents among them, empty documents left out), indented by four
// spaces as kmerge patch writes JSON.
func jsonObjects(files []*kmerge.File, limits *tree.Limits) ([]byte, error) {
	var objs []*yaml.Node
	for _, f := range files {
		set, err := resource.Parse(f.Output, f.Path, resource.LoadOptions{Limits: limits})
		if err != nil {
			return nil, err
		}
		for _, r := range set.Resources {
			objs = append(objs, r.Root)
		}
	}
	out := tree.NewMap()
	if len(objs) == 1 {
		out = objs[0]
	} else {
		tree.MapSet(out, "apiVersion", tree.NewString("v1"))
		tree.MapSet(out, "kind", tree.NewString("List"))
		items := tree.NewSeq()
		items.Content = objs
		tree.MapSet(out, "items", items)
	}
	b, err := tree.AppendJSON(nil, out, "    ")
	return append(b, '\n'), err
}
