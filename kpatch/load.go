package kpatch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/internal/walk"
	"github.com/kmerge/kmerge/tree"
)

// Load reads patch files: .kpatch files, and YAML (or JSON) patch lists
// (.yaml, .yml, .json). Folders are read recursively, files in lexical
// order, folders starting with a dot skipped, and so are project files
// (kmerge.yaml) found in them. Patches keep the order of
// the files and of their place in each file.
func Load(paths []string, opts LoadOptions) ([]*Patch, error) {
	files, err := Files(paths)
	if err != nil {
		return nil, err
	}
	// files are read and parsed in parallel, and their patches (or the
	// first error, in file order) taken in order
	parsed := make([][]*Patch, len(files))
	errs := make([]error, len(files))
	parallel.For(len(files), opts.Workers, func(i int) {
		data, err := tree.ReadFile(files[i], opts.Limits)
		if err == nil {
			parsed[i], err = Parse(data, files[i], opts)
		}
		errs[i] = err
	})
	var patches []*Patch
	for i := range files {
		if errs[i] != nil {
			return nil, errs[i]
		}
		patches = append(patches, parsed[i]...)
	}
	return patches, nil
}

// Files lists the patch files Load reads, in the order it reads them.
func Files(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			if !isPatchFile(p) {
				return nil, fmt.Errorf("%s: a patch file ends in .kpatch, .yaml, .yml or .json", p)
			}
			files = append(files, p)
			continue
		}
		found, err := walk.Files(p, func(name string) bool { return isPatchFile(name) && !isProjectFile(name) })
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
	return false
}

// LoadOptions control Load and Parse.
type LoadOptions struct {
	// Limits apply to every patch file (MaxBytes) and to YAML patch lists;
	// nil: tree.DefaultLimits().
	Limits *tree.Limits
	// MaxLineBytes is the longest line of a .kpatch file; 0:
	// DefaultMaxLineBytes.
	MaxLineBytes int
	// Workers is how many files Load reads at once; 0: GOMAXPROCS.
	Workers int
}

// DefaultMaxLineBytes is the longest line of a .kpatch file by default.
const DefaultMaxLineBytes = 1 << 20

// Parse parses a patch file by its name: .kpatch files as kpatch text,
// anything else as a YAML patch list.
func Parse(data []byte, file string, opts LoadOptions) ([]*Patch, error) {
	limits := tree.DefaultLimits()
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	if limits.MaxBytes > 0 && len(data) > limits.MaxBytes {
		return nil, &tree.SyntaxError{Pos: tree.Position{File: file}, Msg: fmt.Sprintf("input is %d bytes, more than the limit of %d", len(data), limits.MaxBytes), Limit: "bytes"}
	}
	if strings.EqualFold(filepath.Ext(file), ".kpatch") {
		maxLine := opts.MaxLineBytes
		if maxLine <= 0 {
			maxLine = DefaultMaxLineBytes
		}
		return parseKpatch(data, file, maxLine, limits.MaxDepth)
	}
	var format *tree.Format
	if strings.EqualFold(filepath.Ext(file), ".json") {
		f := tree.JSON
		format = &f
	}
	ps, err := parseYAML(data, file, &limits, format)
	if err != nil {
		return nil, misnamed(data, file, err)
	}
	return ps, nil
}
