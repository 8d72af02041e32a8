package kpatch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/internal/walk"
	"github.com/kmerge/kmerge/tree"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// Load reads patch files: .kpatch files, and YAML (or JSON) patch lists
// (.yaml, .yml, .json). Folders are read recursively, files in lexical
// order, folders starting with a dot skipped, and so are project files
// (kmerge.yaml) found in them; symbolic links are followed, as manifests'
// (a path given that is a link to a folder, links met in a folder). Patches keep the order of
// the files and of their place in each file.
//
// Once ctx is done, no further file is read, and Load returns ctx.Err()
// wrapped with the first file it did not read.
func Load(ctx context.Context, paths []string, opts LoadOptions) ([]*syntax.Patch, error) {
	files, err := Files(paths)
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
		data, err := tree.ReadFile(files[i], opts.Limits)
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
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			if !isPatchFile(p) {
				return nil, fmt.Errorf("%s: a patch file ends in .kpatch, .yaml, .yml or .json (or is a kustomization)", p)
			}
			files = append(files, p)
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
			return nil, err
		}
		files = append(files, found...)
	}
	return files, nil
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
		return parseKustomization(data, file, &limits)
	}
	var warnings []Warning
	ps, err := syntax.Parse(data, file, syntax.Options{Limits: &limits, MaxLineBytes: opts.MaxLineBytes,
		Warn: func(w tree.Warning) { warnings = append(warnings, Warning{Pos: w.Pos, Msg: w.Msg}) }})
	return ps, warnings, err
}
