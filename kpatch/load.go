package kpatch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kmerge/kmerge/internal/walk"
)

// Load reads patch files: .kpatch files, and YAML (or JSON) patch lists
// (.yaml, .yml, .json). Folders are read recursively, files in lexical
// order, folders starting with a dot skipped. Patches keep the order of
// the files and of their place in each file.
func Load(paths []string) ([]*Patch, error) {
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
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			ps, err := Parse(data, f)
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

// Parse parses a patch file by its name: .kpatch files as kpatch text,
// anything else as a YAML patch list.
func Parse(data []byte, file string) ([]*Patch, error) {
	if strings.EqualFold(filepath.Ext(file), ".kpatch") {
		return ParseKpatch(data, file)
	}
	return ParseYAML(data, file)
}
