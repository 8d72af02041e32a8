package krm

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// The pipeline's annotations.
//
// kustomize and kpt write annotations on each item to know where it came
// from and where it goes: config.kubernetes.io/path and index,
// internal.config.kubernetes.io/path, index, id and the like. They are the
// pipeline's, not the object's: kmerge apply, reading the same objects
// from their files, never sees them. A patch that replaces the object's
// annotations (a strategic patch's $patch: replace, a merge patch's
// annotations: null, a .kpatch !replace) would take them out, and the
// pipeline would then lose the item's file. So an annotation of the
// pipeline a patch took out is put back, with the value it had; one a
// patch set keeps its new value (kpt moves an item to another file when a
// function sets its path).

// isPipelineAnnotation reports whether an annotation is the pipeline's.
func isPipelineAnnotation(key string) bool {
	return strings.HasPrefix(key, "config.kubernetes.io/") || strings.HasPrefix(key, "internal.config.kubernetes.io/")
}

// pipelineAnnotations are an object's annotations of the pipeline, as it
// was read.
type pipelineAnnotations struct {
	r     *resource.Resource
	pairs []*yaml.Node // keys and values, copies
}

// keepPipelineAnnotations notes the pipeline's annotations of the objects
// of set that targeted says a patch targets.
func keepPipelineAnnotations(set *resource.Set, targeted func(*resource.Resource) bool) []pipelineAnnotations {
	var out []pipelineAnnotations
	for _, r := range set.Resources {
		ann := tree.MapGet(tree.MapGet(r.Root, "metadata"), "annotations")
		if ann == nil || ann.Kind != yaml.MappingNode || !targeted(r) {
			continue
		}
		var pairs []*yaml.Node
		for i := 0; i+1 < len(ann.Content); i += 2 {
			if k := ann.Content[i]; k.Kind == yaml.ScalarNode && isPipelineAnnotation(k.Value) {
				pairs = append(pairs, tree.Clone(k), tree.Clone(ann.Content[i+1]))
			}
		}
		if pairs != nil {
			out = append(out, pipelineAnnotations{r, pairs})
		}
	}
	return out
}

// restore puts back the annotations of the pipeline that the object no
// longer has (in their order, after its own), unless a patch deleted the
// object.
func (p pipelineAnnotations) restore() {
	meta := tree.MapGet(p.r.Root, "metadata")
	if p.r.Deleted || meta == nil || meta.Kind != yaml.MappingNode {
		return
	}
	ann := tree.MapGet(meta, "annotations")
	if ann == nil || ann.Kind != yaml.MappingNode {
		ann = tree.NewMap()
		tree.MapSet(meta, "annotations", ann)
	}
	for i := 0; i+1 < len(p.pairs); i += 2 {
		if tree.MapIndex(ann, p.pairs[i].Value) < 0 {
			ann.Content = append(ann.Content, p.pairs[i], p.pairs[i+1])
		}
	}
}
