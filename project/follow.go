package project

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// An overlay's project is what kustomize build reads of it: its
// kustomization's resources, followed. Each entry of resources (or bases)
// is a file of manifests, or a folder with a kustomization of its own: a
// base, whose resources are followed in turn (the folder is one manifest
// entry when its resources are all the manifest files it holds), or
// another overlay (its patches or components: its resources are followed
// and its folder is a patch entry, before the overlay's own). Components
// are patch entries, before the overlay's own (kustomize applies them
// before the overlay's patches); the resources they add are manifests.
// The openapi files of the bases are schemas: kmerge reads a base's
// kustomization for nothing else (an overlay's is read through -p).

// followed is what following a kustomization found.
type followed struct {
	manifests []string // files and folders of manifests, in order
	patches   []string // folders of overlays and components, in the order kustomize applies them
	schemas   []string // the openapi files of the bases
	notes     []string // what could not be followed, and why
}

// kustomizationOf reads the kustomization of the folder dir: nil when it
// has none (or it does not read).
func kustomizationOf(dir string) *yaml.Node {
	k, err := kpatch.KustomizationIn(dir)
	if err != nil || k == "" {
		return nil
	}
	data, err := readfile.Found(k, nil)
	if err != nil {
		return nil
	}
	st, err := tree.Read(data, tree.Options{File: k})
	if err != nil {
		return nil
	}
	for _, d := range st.Docs {
		if r := tree.Root(d); r != nil && r.Kind == yaml.MappingNode {
			return r
		}
	}
	return nil
}

// field returns the field of a kustomization by kustomize's name for it,
// in any letter case (as kustomize reads names).
func field(k *yaml.Node, name string) *yaml.Node {
	if k == nil {
		return nil
	}
	for i := 0; i+1 < len(k.Content); i += 2 {
		if strings.EqualFold(k.Content[i].Value, name) {
			return k.Content[i+1]
		}
	}
	return nil
}

// entries returns the strings of a kustomization's list fields, in order.
func entries(k *yaml.Node, names ...string) []string {
	var out []string
	for _, n := range names {
		if v := field(k, n); v != nil && v.Kind == yaml.SequenceNode {
			for _, e := range v.Content {
				if e.Kind == yaml.ScalarNode && e.Value != "" {
					out = append(out, e.Value)
				}
			}
		}
	}
	return out
}

// isOverlay reports whether a kustomization patches: it has patches (of
// any of the three fields) or components.
func isOverlay(k *yaml.Node) bool {
	for _, f := range []string{"patches", "patchesStrategicMerge", "patchesJson6902", "components"} {
		if v := field(k, f); v != nil && len(v.Content) > 0 {
			return true
		}
	}
	return false
}

// overlayDir reports whether the folder dir holds a kustomization that
// patches (isOverlay), or one beside .kpatch files, which kmerge reads
// through it: an overlay, where a base only lists resources.
func overlayDir(dir string) bool {
	k := kustomizationOf(dir)
	if k == nil {
		return false
	}
	if isOverlay(k) {
		return true
	}
	files, err := kpatch.Files([]string{dir})
	return err == nil && len(files) > 1
}

// follow follows the kustomization of the folder dir (see above); seen
// holds the folders being followed, so that a cycle (which kustomize
// refuses) ends.
func follow(dir string, seen map[string]bool) *followed {
	out := &followed{}
	abs, err := filepath.Abs(dir)
	if err != nil || seen[abs] {
		return out
	}
	seen[abs] = true
	defer delete(seen, abs)
	k := kustomizationOf(dir)
	add := func(sub *followed) {
		out.manifests = append(out.manifests, sub.manifests...)
		out.patches = append(out.patches, sub.patches...)
		out.schemas = append(out.schemas, sub.schemas...)
		out.notes = append(out.notes, sub.notes...)
	}
	for _, r := range entries(k, "resources", "bases") {
		if strings.Contains(r, "://") || strings.HasPrefix(r, "github.com/") || strings.HasPrefix(r, "git@") {
			out.notes = append(out.notes, fmt.Sprintf("left out %s: kmerge reads no remote resource (fetch it, and name the copy here)", r))
			continue
		}
		p := filepath.Join(dir, r)
		switch {
		case !isDir(p):
			out.manifests = append(out.manifests, p)
		case kustomizationOf(p) == nil:
			out.manifests = append(out.manifests, p) // kustomize wants a kustomization there: the run says what is wrong
		case overlayDir(p):
			add(follow(p, seen))
			out.patches = append(out.patches, p)
		default: // a base
			sub := follow(p, seen)
			if path := openAPIPath(p); path != "" {
				sub.schemas = append([]string{path}, sub.schemas...)
			}
			if covers(p, sub.manifests) {
				sub.manifests = []string{p}
			}
			add(sub)
		}
	}
	for _, c := range entries(k, "components") {
		p := filepath.Join(dir, c)
		add(follow(p, seen))
		out.patches = append(out.patches, p)
	}
	return out
}

// openAPIPath returns the file a kustomization's openapi field names
// (path), joined to its folder dir; "" when there is none.
func openAPIPath(dir string) string {
	v := tree.MapGet(field(kustomizationOf(dir), "openapi"), "path")
	if v == nil || v.Kind != yaml.ScalarNode || v.Value == "" || strings.Contains(v.Value, "://") {
		return ""
	}
	return filepath.Join(dir, v.Value)
}

// covers reports whether the manifests followed from the kustomization of
// the folder dir are the files a manifest loader reads there (its
// kustomization left out): the folder can then be given as it is.
func covers(dir string, manifests []string) bool {
	files, err := resource.Files([]string{dir})
	if err != nil {
		return false
	}
	var want []string
	for _, f := range files {
		if !slices.Contains(kpatch.KustomizationNames, filepath.Base(f)) && filepath.Base(f) != FileName {
			want = append(want, filepath.Clean(f))
		}
	}
	var got []string
	for _, m := range manifests {
		if isDir(m) {
			more, err := resource.Files([]string{m})
			if err != nil {
				return false
			}
			for _, f := range more {
				if !slices.Contains(kpatch.KustomizationNames, filepath.Base(f)) {
					got = append(got, filepath.Clean(f))
				}
			}
			continue
		}
		got = append(got, filepath.Clean(m))
	}
	slices.Sort(want)
	slices.Sort(got)
	return slices.Equal(want, slices.Compact(got))
}

// followOverlays completes p with what kustomize reads of the overlays
// among its patches (each folder of patches holding a kustomization that
// patches): their manifests, the overlays and components they build on
// (patch entries before the entry that holds the overlay), and their bases'
// schemas, and the values files of the overlay's folder (for its .kpatch
// files), each unless an entry of p has it already. When own is set, p is
// the project of one overlay: its manifests are the overlay's, and those
// found otherwise (the nearest folder of manifests above it) are dropped,
// unless the overlay has none (a component).
func (p *Project) followOverlays(own bool) {
	var manifests, schemas, vals []string
	var patches []string
	found := false
	for _, entry := range p.Patches {
		files, err := kpatch.Files([]string{entry})
		if err != nil {
			patches = append(patches, entry)
			continue
		}
		for _, f := range files {
			if !slices.Contains(kpatch.KustomizationNames, filepath.Base(f)) {
				continue
			}
			if !overlayDir(filepath.Dir(f)) {
				continue
			}
			found = true
			vals = append(vals, valuesIn(filepath.Dir(f))...)
			fl := follow(filepath.Dir(f), map[string]bool{})
			manifests = append(manifests, fl.manifests...)
			schemas = append(schemas, fl.schemas...)
			p.notes = append(p.notes, fl.notes...)
			for _, q := range fl.patches {
				if !coveredBy(q, p.Patches) && !slices.Contains(patches, q) {
					patches = append(patches, q)
				}
			}
		}
		patches = append(patches, entry)
	}
	if !found {
		return
	}
	p.Patches = patches
	if own && len(manifests) > 0 {
		p.Manifests = nil // (a component adds no resources: the nearest manifests stay)
	}
	for _, m := range manifests {
		if !coveredBy(m, p.Manifests) {
			p.Manifests = append(p.Manifests, m)
		}
	}
	for _, s := range schemas {
		if !coveredBy(s, p.Schemas) {
			p.Schemas = append(p.Schemas, s)
		}
	}
	for _, v := range vals {
		if !slices.Contains(p.Values, v) {
			p.Values = append(p.Values, v) // the overlay's own: last, so they win
		}
	}
}

// valuesIn lists the values files of an overlay's folder (a mapping in a
// file whose name holds "values", as Detect finds them), for the .kpatch
// files kmerge reads beside its kustomization.
func valuesIn(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if p := filepath.Join(dir, e.Name()); !e.IsDir() && classify(p, false) == values {
			out = append(out, p)
		}
	}
	return out
}

// coveredBy reports whether path is one of entries or below one of them.
func coveredBy(path string, entries []string) bool {
	for _, e := range entries {
		if within(path, e) {
			return true
		}
	}
	return false
}
