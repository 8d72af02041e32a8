package kpatch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/walk"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// Load reads patch files: .kpatch files, and YAML (or JSON) patch lists
// (.yaml, .yml, .json). Folders are read recursively, files in lexical
// order, folders starting with a dot skipped, and so are project files
// (kmerge.yaml) found in them; symbolic links are followed, as manifests'
// (a path given that is a link to a folder, links met in a folder). Patches keep the order of
// the files and of their place in each file. Files are read as
// resource.Load reads them: a file found in a folder (or named by a
// kustomization) must be a regular file, a path given may be a pipe too
// (resource.NotRegularError). The files a kustomization names must be in or
// below its folder, once links are followed, unless
// opts.LoadRestrictions lifts the restriction (*OutsideRootError).
//
// Once ctx is done, no further file is read, and Load returns ctx.Err()
// wrapped with the first file it did not read.
func Load(ctx context.Context, paths []string, opts LoadOptions) ([]*syntax.Patch, error) {
	files, given, err := listFiles(paths)
	if err != nil {
		return nil, err
	}
	// files are read and parsed in parallel, and their patches (or the
	// first error, in file order) taken in order
	results := make([]*parsed, len(files))
	errs := make([]error, len(files))
	parallel.For(len(files), opts.Workers, func(i int) {
		if err := ctx.Err(); err != nil {
			errs[i] = fmt.Errorf("stopped before reading %s: %w", files[i], err)
			return
		}
		data, err := readfile.Read(files[i], opts.Limits, given[i])
		if err == nil {
			results[i], err = parse(data, files[i], opts)
		}
		errs[i] = err
	})
	var patches []*syntax.Patch
	for i := range files {
		if errs[i] != nil {
			return nil, errs[i]
		}
		patches = append(patches, results[i].patches...)
	}
	for _, r := range results {
		r.report(opts)
	}
	return patches, nil
}

// parsed is what reading a patch file gave: its patches, warnings and, for
// a kustomization, the schema its openapi field names.
type parsed struct {
	patches  []*syntax.Patch
	warnings []Warning
	schemas  []*schema.Schema
}

// report gives the warnings and schemas to opts.Warn and opts.Schemas.
func (p *parsed) report(opts LoadOptions) {
	if opts.Warn != nil {
		for _, w := range p.warnings {
			opts.Warn(w)
		}
	}
	if opts.Schemas != nil {
		for _, s := range p.schemas {
			opts.Schemas(s)
		}
	}
}

// Files lists the patch files Load reads, in the order it reads them. A
// folder that holds a kustomization (kustomization.yaml, .yml or
// Kustomization), given or met below one given, is its kustomization and
// the .kpatch files in it and below (but in folders below that hold a
// kustomization of their own), in that order: kmerge reads its other
// files only through the kustomization, which warns of those it does not
// name.
func Files(paths []string) ([]string, error) {
	files, _, err := listFiles(paths)
	return files, err
}

// listFiles is Files, which also says of each file whether it is one of
// paths (which may be a pipe: readfile.Given) or was found in a folder.
func listFiles(paths []string) ([]string, []bool, error) {
	var files []string
	var given []bool
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, nil, err
		}
		if !info.IsDir() {
			if !isPatchFile(p) {
				return nil, nil, fmt.Errorf("%s: a patch file ends in .kpatch, .yaml, .yml or .json (or is a kustomization)", p)
			}
			files, given = append(files, p), append(given, true)
			continue
		}
		// folders as manifests are walked (internal/walk: links followed,
		// dot folders skipped), a kustomization standing for its folder
		found, err := walk.FilesEnter(p, func(path string) bool {
			return isPatchFile(path) && !isProjectFile(path)
		}, func(dir string) ([]string, bool, error) {
			k, err := KustomizationIn(dir)
			if err != nil || k == "" {
				return nil, false, err
			}
			kpatches, _, err := folderFiles(dir)
			return append([]string{k}, kpatches...), true, err
		})
		if err != nil {
			return nil, nil, err
		}
		files = append(files, found...)
		given = append(given, make([]bool, len(found))...)
	}
	return files, given, nil
}

// isProjectFile reports whether a file found in a patch folder is a
// kmerge project file (package project's FileName), which is no patch
// file: an overlay's project sits among its patches (kmerge init writes
// overlays/prod/kmerge.yaml with patches: [.]).
func isProjectFile(name string) bool { return filepath.Base(name) == "kmerge.yaml" }

func isPatchFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".kpatch", ".yaml", ".yml", ".json":
		return true
	}
	return filepath.Base(name) == "Kustomization"
}

// LoadOptions control Load and Parse.
type LoadOptions struct {
	// Limits apply to every patch file (MaxBytes) and to YAML patch lists;
	// nil: tree.DefaultLimits().
	Limits *tree.Limits
	// MaxLineBytes is the longest line of a .kpatch file; 0:
	// syntax.DefaultMaxLineBytes.
	MaxLineBytes int
	// Workers is how many files Load reads at once; 0: GOMAXPROCS.
	Workers int
	// Warn, when set, is given the warnings of reading the files (a
	// kustomization's fields kmerge does not read, the files of its folder
	// nothing reads), in file order.
	Warn func(Warning)
	// Schemas, when set, is given the schema each kustomization names in
	// its openapi field (path: an OpenAPI document, which kustomize patches
	// the overlay's kinds by), in file order: the run should extend its
	// schema with them (Apply does). A kustomization read without it has
	// its openapi file read all the same (a missing file is an error).
	Schemas func(*schema.Schema)
	// Inputs are the run's other inputs, files or folders of them: its
	// manifests (-f), values files and schemas. A kustomization's
	// resources among them are not named in its warning (resources kmerge
	// does not read), and a file of its folder among them is read (no
	// Warning.Unread names it).
	Inputs []string
	// Strict makes a file of a kustomization's folder that nothing reads
	// (neither the kustomization, which does not name it, nor kmerge: it
	// is no .kpatch file) an error, not a warning.
	Strict bool
	// LoadRestrictions say which files a kustomization may name: the
	// zero value, RootOnly, those in or below its folder once links are
	// followed (an *OutsideRootError otherwise), as kustomize by default.
	LoadRestrictions LoadRestrictions
}

// LoadRestrictions say which files a kustomization may name, as
// kustomize's --load-restrictor does.
type LoadRestrictions uint8

const (
	// RootOnly (kustomize's LoadRestrictionsRootOnly, its default): the
	// files in or below the kustomization's folder, once every symbolic
	// link is followed.
	RootOnly LoadRestrictions = iota
	// NoRestrictions (kustomize's LoadRestrictionsNone): any file. The
	// files must be regular files all the same (a device or a pipe is
	// refused).
	NoRestrictions
)

// Kustomize's names of the restrictions, as its --load-restrictor takes them.
const (
	RootOnlyName       = "LoadRestrictionsRootOnly"
	NoRestrictionsName = "LoadRestrictionsNone"
)

// String returns kustomize's name of r.
func (r LoadRestrictions) String() string {
	if r == NoRestrictions {
		return NoRestrictionsName
	}
	return RootOnlyName
}

// ParseLoadRestrictions reads kustomize's name of a load restriction,
// exactly as kustomize's --load-restrictor takes it; "" is RootOnly.
func ParseLoadRestrictions(s string) (LoadRestrictions, error) {
	switch s {
	case RootOnlyName, "":
		return RootOnly, nil
	case NoRestrictionsName:
		return NoRestrictions, nil
	}
	return RootOnly, fmt.Errorf("%q is no load restriction: kustomize's are %s (the default) and %s", s, RootOnlyName, NoRestrictionsName)
}

// Parse parses a patch file by its name, as syntax.Parse does, or as a
// kustomization when it is one (the files it names are read, relative to
// its folder: see KustomizationIn). Warnings go to opts.Warn.
func Parse(data []byte, file string, opts LoadOptions) ([]*syntax.Patch, error) {
	p, err := parse(data, file, opts)
	if err != nil {
		return nil, err
	}
	p.report(opts)
	return p.patches, nil
}

func parse(data []byte, file string, opts LoadOptions) (*parsed, error) {
	limits := tree.DefaultLimits()
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	// a kustomization names other files; a file over the size limit is
	// syntax.Parse's error
	if !strings.EqualFold(filepath.Ext(file), ".kpatch") && (limits.MaxBytes <= 0 || len(data) <= limits.MaxBytes) {
		if isKustomizationFile(data, file) {
			return parseKustomization(data, file, &limits, opts)
		}
		if p, ok, err := objectPatches(data, file, &limits); ok || err != nil {
			return p, err
		}
	}
	out := &parsed{}
	ps, err := syntax.Parse(data, file, syntax.Options{Limits: &limits, MaxLineBytes: opts.MaxLineBytes,
		Warn: func(w tree.Warning) { out.warnings = append(out.warnings, Warning{Pos: w.Pos, Msg: w.Msg}) }})
	out.patches = ps
	return out, err
}

// objectPatches reads a YAML or JSON file whose documents are all partial
// objects (apiVersion, kind and metadata.name: a kustomize patch file, as
// patchesStrategicMerge names them) as strategic merge patches, each for
// the object it names, as kustomize reads such a file; ok is false when
// the file is not one (a patch list, a values file: syntax.Parse's to
// read).
func objectPatches(data []byte, file string, limits *tree.Limits) (p *parsed, ok bool, err error) {
	if !bytes.Contains(data, []byte("kind")) || !bytes.Contains(data, []byte("apiVersion")) {
		return nil, false, nil // the quick answer, without parsing
	}
	st, err := tree.Read(data, tree.Options{File: file, Limits: limits})
	if err != nil {
		return nil, false, nil // syntax.Parse says what is wrong
	}
	var roots []*yaml.Node
	for _, d := range st.Docs {
		r := tree.Root(d)
		if r == nil || tree.KindOf(r) == tree.Null {
			continue
		}
		if !namesObject(r) {
			return nil, false, nil
		}
		roots = append(roots, r)
	}
	if len(roots) == 0 {
		return nil, false, nil
	}
	out := &parsed{}
	for _, w := range st.Warnings {
		out.warnings = append(out.warnings, Warning{Pos: w.Pos, Msg: w.Msg})
	}
	k := &kustomization{file: file, dir: filepath.Dir(file), data: data, limits: limits}
	for _, r := range roots {
		patch, err := k.strategic(r, file, nil)
		if err != nil {
			return nil, true, err
		}
		out.patches = append(out.patches, patch)
	}
	return out, true, nil
}

// namesObject reports whether the document root names an object as a
// strategic merge patch without a target does: a mapping with a string
// apiVersion, kind and metadata.name.
func namesObject(root *yaml.Node) bool {
	str := func(n *yaml.Node, key string) bool {
		v := tree.MapGet(n, key)
		return v != nil && v.Kind == yaml.ScalarNode && v.Value != "" && tree.KindOf(v) == tree.String
	}
	return root.Kind == yaml.MappingNode && str(root, "apiVersion") && str(root, "kind") && str(tree.MapGet(root, "metadata"), "name")
}
