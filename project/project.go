// Package project reads kmerge project files: a kmerge.yaml at the root of
// a folder that names the manifests, the patches, the values and the
// schemas of one run, so that `kmerge apply`, `kmerge check` and the
// language server need no flags. Find looks for one in a folder and its
// parents, as git looks for .git; Load reads it; Detect proposes one from a
// folder's contents and Render writes it, commented (`kmerge init`).
//
// A project file is YAML:
//
//	apiVersion: kmerge/v1
//	kind: Project
//	manifests: [base]
//	patches: [overrides]
//	values: [values.yaml]
//	set: {replicas: 3}
//	features: {canary: false}
//	schemas: [crds/widget-crd.yaml]
//	strict: false
//	failOnConflict: false
//	listOrder: spec
//	validate: strict
//
// Paths are relative to the project file's folder. Every error names the
// file, line and column (a *tree.SyntaxError).
package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/suggest"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// FileName is the name of a project file.
const FileName = "kmerge.yaml"

// APIVersion and Kind identify a project file; a later format will have
// another APIVersion.
const (
	APIVersion = "kmerge/v1"
	Kind       = "Project"
)

// Project is a project file, read. Paths are joined to Dir, ready to open
// from the current folder.
type Project struct {
	File string // the project file
	Dir  string // its folder

	Manifests []string // files and folders of manifests (-f)
	Patches   []string // patch files and folders (-p)
	// PatchesAt is where the patches list is in File (its line and
	// column); no line when the file has no patches key.
	PatchesAt tree.Position
	Values    []string // values files (--values), later ones win
	// Set holds values given in the project file itself (a mapping merged
	// over the values files, like --set); nil when there are none.
	Set      *yaml.Node
	Features []Feature // ${features.*} (--feature)
	Schemas  []string  // CRDs and OpenAPI documents (--schema)

	Strict         bool   // --strict
	FailOnConflict bool   // --fail-on-conflict
	ListOrder      string // --list-order: "spec", "upstream", or "" (the default)
	Validate       string // --validate: "strict", "warn", "none", or "" (the default)

	notes []string // what DetectAll left out, and why: comments Render writes
}

// Feature is a ${features.NAME} flag.
type Feature struct {
	Name string
	On   bool
}

// Find looks for a project file in dir, then in its parents, and returns
// its path (relative when dir is), or "" when there is none.
func Find(dir string) (string, error) {
	for d := dir; ; d = filepath.Join(d, "..") {
		candidate := filepath.Join(d, FileName)
		info, err := os.Stat(candidate)
		if err == nil && info.Mode().IsRegular() {
			return candidate, nil
		}
		if err != nil && !os.IsNotExist(err) {
			return "", err
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", err
		}
		if filepath.Dir(abs) == abs {
			return "", nil
		}
	}
}

// Load reads the project file at path, checks that the paths it names
// exist, and joins them to its folder.
func Load(path string) (*Project, error) {
	data, err := readfile.Given(path, nil)
	if err != nil {
		return nil, err
	}
	return parse(data, path, true)
}

// fields are the keys of a project file, in the order Render writes them.
var fields = []string{"apiVersion", "kind", "manifests", "patches", "values", "set", "features", "schemas", "strict", "failOnConflict", "listOrder", "validate"}

// Parse reads a project file's text; file names it in messages and its
// folder is the project's. Unlike Load, it does not look at the paths.
func Parse(data []byte, file string) (*Project, error) {
	return parse(data, file, false)
}

// parse reads a project file; with stat, a path that does not exist is
// an error at its line, rather than a bare "no such file" later.
func parse(data []byte, file string, stat bool) (*Project, error) {
	st, err := tree.Read(data, tree.Options{File: file})
	if err != nil {
		return nil, err
	}
	p := &Project{File: file, Dir: filepath.Dir(file)}
	errAt := func(n *yaml.Node, format string, args ...any) error {
		return &tree.SyntaxError{Pos: tree.Position{File: file, Line: n.Line, Column: n.Column}, Msg: fmt.Sprintf(format, args...)}
	}
	var root *yaml.Node
	for _, d := range st.Docs {
		r := tree.Root(d)
		if r == nil || tree.KindOf(r) == tree.Null {
			continue
		}
		if root != nil {
			return nil, errAt(r, "a project file holds one document")
		}
		root = r
	}
	if root == nil {
		return nil, &EmptyError{Pos: tree.Position{File: file, Line: 1, Column: 1}}
	}
	if root.Kind != yaml.MappingNode {
		return nil, errAt(root, "a project file is a mapping: apiVersion, kind, manifests, patches, ...")
	}
	paths := func(n *yaml.Node, key string) ([]string, error) {
		if n.Kind != yaml.SequenceNode {
			return nil, errAt(n, "%s is a list of paths, e.g. %s: [%s]", key, key, example(key))
		}
		var out []string
		for _, it := range n.Content {
			if it.Kind != yaml.ScalarNode || tree.KindOf(it) != tree.String || it.Value == "" {
				return nil, errAt(it, "%s is a list of paths; this item is not a path", key)
			}
			path := p.join(it.Value)
			if _, err := os.Stat(path); stat && err != nil {
				return nil, errAt(it, "%s: %s: no such file or folder (paths are relative to the project file's folder)", key, it.Value)
			}
			out = append(out, path)
		}
		return out, nil
	}
	boolean := func(n *yaml.Node, key string) (bool, error) {
		if tree.KindOf(n) != tree.Bool {
			return false, errAt(n, "%s is true or false", key)
		}
		return tree.BoolValue(n), nil
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		seen[k.Value] = true
		switch k.Value {
		case "apiVersion":
			if v.Value != APIVersion {
				return nil, errAt(v, "apiVersion %q: this kmerge reads project files of apiVersion %s", v.Value, APIVersion)
			}
		case "kind":
			if v.Value != Kind {
				return nil, errAt(v, "kind %q: a project file is of kind %s", v.Value, Kind)
			}
		case "manifests":
			p.Manifests, err = paths(v, k.Value)
		case "patches":
			p.Patches, err = paths(v, k.Value)
			p.PatchesAt = tree.Position{File: p.File, Line: v.Line, Column: v.Column}
		case "values":
			p.Values, err = paths(v, k.Value)
		case "schemas":
			p.Schemas, err = paths(v, k.Value)
		case "set":
			if v.Kind != yaml.MappingNode {
				return nil, errAt(v, "set is a mapping of values, as a values file holds them, e.g. set: {replicas: 3}")
			}
			p.Set = v
		case "features":
			if v.Kind != yaml.MappingNode {
				return nil, errAt(v, "features is a mapping of names to true or false, e.g. features: {canary: true}")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				on, err := boolean(v.Content[j+1], "feature "+v.Content[j].Value)
				if err != nil {
					return nil, err
				}
				p.Features = append(p.Features, Feature{Name: v.Content[j].Value, On: on})
			}
		case "strict":
			p.Strict, err = boolean(v, k.Value)
		case "failOnConflict":
			p.FailOnConflict, err = boolean(v, k.Value)
		case "listOrder":
			if v.Value != "spec" && v.Value != "upstream" {
				return nil, errAt(v, "listOrder is spec or upstream")
			}
			p.ListOrder = v.Value
		case "validate":
			if _, err := validate.ParseMode(v.Value); err != nil || v.Kind != yaml.ScalarNode {
				return nil, errAt(v, "validate is strict, warn or none")
			}
			p.Validate = v.Value
		default:
			return nil, errAt(k, "unknown key %q in a project file%s; the keys are %s", k.Value, didYouMean(k.Value), strings.Join(fields, ", "))
		}
		if err != nil {
			return nil, err
		}
	}
	for _, key := range []string{"apiVersion", "kind"} {
		if !seen[key] {
			return nil, errAt(root, "a project file starts with apiVersion: %s and kind: %s; %s is missing", APIVersion, Kind, key)
		}
	}
	return p, nil
}

// join makes a path of the project file a path from the current folder.
func (p *Project) join(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(p.Dir, filepath.FromSlash(path))
}

// Vars returns the project's variables: its values files in order, then
// set, then features. limits apply to the values files (nil: the
// defaults).
func (p *Project) Vars(limits *tree.Limits) (*kpatch.Vars, error) {
	vars := kpatch.NewVars()
	for _, f := range p.Values {
		data, err := readfile.Given(f, limits)
		if err != nil {
			return nil, err
		}
		if err := vars.LoadValues(data, f); err != nil {
			return nil, err
		}
	}
	if p.Set != nil {
		if err := vars.MergeValues(p.Set, p.File); err != nil {
			return nil, err
		}
	}
	for _, f := range p.Features {
		vars.SetFeature(f.Name, f.On)
	}
	return vars, nil
}

// Owns reports whether a file is one of the project's inputs other than
// its patches (a manifest, a values file, a schema, or the project file):
// a change to it changes what the patches apply to.
func (p *Project) Owns(file string) bool {
	for _, group := range [][]string{p.Manifests, p.Values, p.Schemas, {p.File}} {
		for _, path := range group {
			if within(file, path) {
				return true
			}
		}
	}
	return false
}

// within reports whether file is path or lies below it.
func within(file, path string) bool {
	fa, err1 := filepath.Abs(file)
	pa, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	return fa == pa || strings.HasPrefix(fa, pa+string(filepath.Separator))
}

func example(key string) string {
	return map[string]string{"manifests": "base", "patches": "overrides", "values": "values.yaml", "schemas": "crds/widget-crd.yaml"}[key]
}

// didYouMean proposes the keys nearest to name, as " (did you mean X?)".
func didYouMean(name string) string {
	if s := suggest.DidYouMean(name, fields, nil); s != "" {
		return " (" + s + ")"
	}
	return ""
}

// EmptyError is the error of a project file that holds no document (or
// only empty ones).
type EmptyError struct {
	Pos tree.Position // the file, line 1, column 1
}

func (e *EmptyError) Error() string {
	return e.Pos.String() + "empty project file: start with apiVersion: " + APIVersion + " and kind: " + Kind
}

// Position returns where the error is.
func (e *EmptyError) Position() tree.Position { return e.Pos }

var _ tree.PositionedError = (*EmptyError)(nil)
