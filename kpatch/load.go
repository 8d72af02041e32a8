package kpatch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kmerge/kmerge/internal/walk"
	"github.com/kmerge/kmerge/tree"
)

// Load reads patch files: .kpatch files, and YAML (or JSON) patch lists
// (.yaml, .yml, .json). Folders are read recursively, files in lexical
// order, folders starting with a dot skipped. Patches keep the order of
// the files and of their place in each file.
func Load(paths []string, opts LoadOptions) ([]*Patch, error) {
	var patches []*Patch
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		files := []string{p}
		if info.IsDir() {
			if files, err = walk.Files(p, isPatchFile); err != nil {
				return nil, err
			}
		} else if !isPatchFile(p) {
			return nil, fmt.Errorf("%s: a patch file ends in .kpatch, .yaml, .yml or .json", p)
		}
		for _, f := range files {
			data, err := tree.ReadFile(f, opts.Limits)
			if err != nil {
				return nil, err
			}
			ps, err := Parse(data, f, opts)
			if err != nil {
				return nil, err
			}
			patches = append(patches, ps...)
		}
	}
	return patches, nil
}

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
		return nil, &tree.SyntaxError{File: file, Msg: fmt.Sprintf("input is %d bytes, more than the limit of %d", len(data), limits.MaxBytes), Limit: "bytes"}
	}
	if strings.EqualFold(filepath.Ext(file), ".kpatch") {
		maxLine := opts.MaxLineBytes
		if maxLine <= 0 {
			maxLine = DefaultMaxLineBytes
		}
		return parseKpatch(data, file, maxLine)
	}
	var format *tree.Format
	if strings.EqualFold(filepath.Ext(file), ".json") {
		f := tree.JSON
		format = &f
	}
	return parseYAML(data, file, &limits, format)
}
