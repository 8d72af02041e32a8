package project

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/walk"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// class is what a file holds, as far as a project is concerned.
type class uint8

const (
	other     class = iota // none of the below: left out
	empty                  // no documents, or a kustomization: any loader skips it
	manifest               // Kubernetes objects
	crd                    // CustomResourceDefinitions only (objects and schemas)
	openAPI                // an OpenAPI document: a schema
	patchFile              // a .kpatch file or a YAML patch list
	values                 // a mapping of values, by name: *values*.yaml
)

// Detect looks at the files below dir (as the loaders walk folders:
// recursively, skipping folders whose name starts with a dot) and
// proposes a project: each folder whose files are all manifests (or all
// patch files) is one entry, other files are listed one by one;
// CustomResourceDefinitions and OpenAPI documents are schemas, and
// mappings in files named *values* are values files. A folder holding only
// CRDs is a folder of schemas, not of manifests; a kustomize overlay (a
// kustomization with patches or components) is a folder of patches, and
// when dir is one, it is the project's only entry (DetectAll follows its
// resources). Project files there already (the folder's, an overlay's)
// are left out.
func Detect(dir string) (*Project, error) {
	p := &Project{File: filepath.Join(dir, FileName), Dir: dir}
	classes := map[string]class{}
	files, err := walk.Files(dir, func(string) bool { return true })
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		classes[f] = classify(f, filepath.Base(f) == FileName)
	}
	// a kustomize overlay (a kustomization with patches) is a folder of
	// patches, which -p reads through its kustomization: its strategic
	// patches look like objects, but are none
	for _, f := range files {
		if slices.Contains(kpatch.KustomizationNames, filepath.Base(f)) && hasPatches(f) {
			overlay := filepath.Dir(f)
			if filepath.Clean(overlay) == filepath.Clean(dir) {
				// dir is an overlay: its project is the overlay's, whose
				// manifests DetectAll finds by following its resources
				p.Patches = []string{dir}
				return p, nil
			}
			for g := range classes {
				if g == f || within(g, overlay) && classes[g] != other {
					classes[g] = patchFile
				}
			}
		}
	}
	var visit func(d string) error
	visit = func(d string) error {
		entries, err := os.ReadDir(d)
		if err != nil {
			return err
		}
		for _, e := range entries {
			path := filepath.Join(d, e.Name())
			if !e.IsDir() {
				switch c := classes[path]; {
				case c == manifest:
					p.Manifests = append(p.Manifests, path)
				case c == patchFile:
					p.Patches = append(p.Patches, path)
				case c == values:
					p.Values = append(p.Values, path)
				case c == crd || c == openAPI:
					p.Schemas = append(p.Schemas, path)
				}
				continue
			}
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			switch folderClass(path, classes) {
			case manifest:
				p.Manifests = append(p.Manifests, path)
				p.Schemas = append(p.Schemas, below(path, classes, crd)...)
			case crd:
				p.Schemas = append(p.Schemas, below(path, classes, crd)...)
			case patchFile:
				p.Patches = append(p.Patches, path)
			default:
				if err := visit(path); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := visit(dir); err != nil {
		return nil, err
	}
	return p, nil
}

// hasPatches reports whether the kustomization file at path makes its
// folder an overlay (overlayDir): it has patches (patches,
// patchesStrategicMerge or patchesJson6902) or components, or .kpatch
// files beside it, and not only a list of resources, as a base's is.
func hasPatches(path string) bool {
	k, err := kpatch.KustomizationIn(filepath.Dir(path))
	return err == nil && k == path && overlayDir(filepath.Dir(path))
}

// classify reads a file and says what it holds.
func classify(path string, isProject bool) class {
	ext := strings.ToLower(filepath.Ext(path))
	if ext == ".kpatch" {
		return patchFile
	}
	if isProject {
		return empty // a project file, as the loaders skip it
	}
	if ext != ".yaml" && ext != ".yml" && ext != ".json" {
		return other
	}
	data, err := readfile.Found(path, nil) // a device, a pipe: nothing to propose
	if err != nil {
		return other
	}
	st, err := tree.Read(data, tree.Options{File: path})
	if err != nil {
		return other
	}
	result := empty
	for _, d := range st.Docs {
		c := classifyDoc(tree.Root(d), path)
		switch {
		case c == empty:
		case result == empty:
			result = c
		case result == crd && c == manifest || result == manifest && c == crd:
			result = manifest // objects, some of them CRDs
		case result != c:
			return other
		}
	}
	return result
}

func classifyDoc(root *yaml.Node, path string) class {
	str := func(key string) string {
		if v := tree.MapGet(root, key); v != nil && v.Kind == yaml.ScalarNode {
			return v.Value
		}
		return ""
	}
	switch {
	case root == nil || tree.KindOf(root) == tree.Null:
		return empty
	case root.Kind == yaml.SequenceNode:
		for _, it := range root.Content {
			if it.Kind != yaml.MappingNode || tree.MapGet(it, "target") == nil {
				return other
			}
		}
		return patchFile
	case root.Kind != yaml.MappingNode:
		return other
	case resource.IsKustomization(root, path):
		return empty
	case strings.HasPrefix(str("apiVersion"), "kmerge/"):
		return other
	case str("kind") == "CustomResourceDefinition":
		return crd
	case str("swagger") != "" || str("openapi") != "":
		return openAPI
	case str("apiVersion") != "" && str("kind") != "":
		return manifest
	case strings.Contains(strings.ToLower(filepath.Base(path)), "values"):
		return values
	}
	return other
}

// folderClass says what a folder is as a whole: manifest when every file
// the manifest loader would read there is a manifest (crd when they are
// all CRDs), patchFile when every file the patch loader would read is a
// patch file, other otherwise.
func folderClass(dir string, classes map[string]class) class {
	counts := map[class]int{}
	for f, c := range classes {
		if strings.HasPrefix(f, dir+string(filepath.Separator)) && !hiddenBelow(f, dir) {
			ext := strings.ToLower(filepath.Ext(f))
			if ext == ".yaml" || ext == ".yml" || ext == ".json" || ext == ".kpatch" {
				counts[c]++
			}
		}
	}
	delete(counts, empty)
	switch {
	case len(counts) == 1 && counts[manifest] > 0:
		return manifest
	case len(counts) == 1 && counts[crd] > 0:
		return crd
	case len(counts) == 2 && counts[manifest] > 0 && counts[crd] > 0:
		return manifest
	case len(counts) == 1 && counts[patchFile] > 0:
		return patchFile
	}
	return other
}

// hiddenBelow reports whether a folder between dir and file starts with a
// dot (the loaders skip it).
func hiddenBelow(file, dir string) bool {
	rel, err := filepath.Rel(dir, filepath.Dir(file))
	if err != nil || rel == "." {
		return false
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// below lists the files of class c below dir, in order.
func below(dir string, classes map[string]class, c class) []string {
	var out []string
	for f, fc := range classes {
		if fc == c && strings.HasPrefix(f, dir+string(filepath.Separator)) && !hiddenBelow(f, dir) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// Render writes the project as a commented project file, its paths
// relative to its folder.
func (p *Project) Render() []byte {
	var b bytes.Buffer
	b.WriteString("# kmerge project: `kmerge apply`, `check`, `blame` and `lsp` read this file\n" +
		"# when no -f/-p is given (flags win; see docs/project.md). Paths are relative to\n" +
		"# this file's folder.\n")
	fmt.Fprintf(&b, "apiVersion: %s\nkind: %s\n", APIVersion, Kind)
	list := func(key, comment string, paths []string) {
		b.WriteString("\n# " + comment + "\n")
		if len(paths) == 0 {
			b.WriteString(key + ": []   # none found\n")
			return
		}
		b.WriteString(key + ":\n")
		for _, path := range paths {
			rel, err := filepath.Rel(p.Dir, path)
			if err != nil {
				rel = path
			}
			b.WriteString("- " + quoteIfNeeded(filepath.ToSlash(rel)) + "\n")
		}
	}
	list("manifests", "Kubernetes objects: files, and folders read recursively (.yaml, .yml, .json)", p.Manifests)
	for _, n := range p.notes {
		b.WriteString("# " + n + "\n")
	}
	list("patches", ".kpatch files, YAML patch lists, and folders of them, applied in this order", p.Patches)
	list("values", "YAML files of ${values.*} variables; later files win", p.Values)
	b.WriteString("\n# ${values.*} given here, merged over the values files (as --set is)\n")
	if p.Set != nil && len(p.Set.Content) > 0 {
		out, _ := yaml.Marshal(map[string]*yaml.Node{"set": p.Set})
		b.Write(out)
	} else {
		b.WriteString("# set:\n#   replicas: 3\n")
	}
	b.WriteString("\n# ${features.*} flags\n")
	if len(p.Features) > 0 {
		b.WriteString("features:\n")
		for _, f := range p.Features {
			fmt.Fprintf(&b, "  %s: %t\n", quoteIfNeeded(f.Name), f.On)
		}
	} else {
		b.WriteString("# features:\n#   canary: false\n")
	}
	list("schemas", "CustomResourceDefinitions and OpenAPI documents for custom kinds", p.Schemas)
	listOrder := p.ListOrder
	if listOrder == "" {
		listOrder = "spec"
	}
	fmt.Fprintf(&b, "\n# a patch whose target or selector matches nothing is an error, not a warning\nstrict: %t\n", p.Strict)
	fmt.Fprintf(&b, "# kmerge apply writes nothing when two patches conflict\nfailOnConflict: %t\n", p.FailOnConflict)
	fmt.Fprintf(&b, "# order of lists that strategic patches order with $setElementOrder: spec or upstream\nlistOrder: %s\n", listOrder)
	mode := p.Validate
	if mode == "" {
		mode = "strict"
	}
	fmt.Fprintf(&b, "# check patched objects against their schemas: strict (a value a patch wrote that\n# the schema refuses is an error), warn or none\nvalidate: %s\n", mode)
	return b.Bytes()
}

// quoteIfNeeded quotes a string that YAML would not read back as the same
// plain string.
func quoteIfNeeded(s string) string {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(s), &n); err == nil && len(n.Content) == 1 &&
		n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!str" && n.Content[0].Value == s && n.Content[0].Style == 0 {
		return s
	}
	out, _ := yaml.Marshal(s)
	return strings.TrimSuffix(string(out), "\n")
}
