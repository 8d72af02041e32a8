package kpatch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/walk"
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
	parsed := make([][]*syntax.Patch, len(files))
	warnings := make([][]Warning, len(files))
	errs := make([]error, len(files))
	parallel.For(len(files), opts.Workers, func(i int) {
		if err := ctx.Err(); err != nil {
			errs[i] = fmt.Errorf("stopped before reading %s: %w", files[i], err)
			return
		}
		data, err := readfile.Read(files[i], opts.Limits, given[i])
		if err == nil {
			parsed[i], warnings[i], err = parse(data, files[i], opts)
		}
		errs[i] = err
	})
	var patches []*syntax.Patch
	for i := range files {
		if errs[i] != nil {
			return nil, errs[i]
		}
		patches = append(patches, parsed[i]...)
	}
	if opts.Warn != nil {
		for _, ws := range warnings {
			for _, w := range ws {
				opts.Warn(w)
			}
		}
	}
	return patches, nil
}

// Files lists the patch files Load reads, in the order it reads them. A
// folder that holds a kustomization (kustomization.yaml, .yml or
// Kustomization), given or met below one given, is its kustomization:
// kmerge reads the files of that folder only through it.
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
			return []string{k}, true, nil
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
	// kustomization's fields kmerge does not read), in file order.
	Warn func(Warning)
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
	ps, warnings, err := parse(data, file, opts)
	if err == nil && opts.Warn != nil {
		for _, w := range warnings {
			opts.Warn(w)
		}
	}
	return ps, err
}

func parse(data []byte, file string, opts LoadOptions) ([]*syntax.Patch, []Warning, error) {
	limits := tree.DefaultLimits()
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	// a kustomization names other files; a file over the size limit is
	// syntax.Parse's error
	if !strings.EqualFold(filepath.Ext(file), ".kpatch") && (limits.MaxBytes <= 0 || len(data) <= limits.MaxBytes) && isKustomizationFile(data, file) {
		return parseKustomization(data, file, &limits, opts.LoadRestrictions)
	}
	var warnings []Warning
	ps, err := syntax.Parse(data, file, syntax.Options{Limits: &limits, MaxLineBytes: opts.MaxLineBytes,
		Warn: func(w tree.Warning) { warnings = append(warnings, Warning{Pos: w.Pos, Msg: w.Msg}) }})
	return ps, warnings, err
}
