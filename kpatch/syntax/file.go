package syntax

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kmerge/kmerge/tree"
)

// Options bound what Parse reads. The zero value is the defaults.
type Options struct {
	// Limits apply to the file's size (MaxBytes), to YAML patch lists
	// (tree.Read), and to the depth of every path (MaxDepth: a field
	// patch creates what its path leads to); nil: tree.DefaultLimits().
	Limits *tree.Limits
	// MaxLineBytes is the longest line of .kpatch text; 0:
	// DefaultMaxLineBytes.
	MaxLineBytes int
	// Warn, when set, is given what reading a YAML patch list noticed
	// that is not an error (a %YAML directive of a later 1.x version:
	// tree.Stream.Warnings).
	Warn func(tree.Warning)
}

// DefaultMaxLineBytes is the longest line of a .kpatch file by default.
const DefaultMaxLineBytes = 1 << 20

// Parse parses the text of a patch file by its name: a .kpatch file as
// .kpatch text (ParseKpatch), anything else as a YAML patch list
// (ParseYAML; a .json file as JSON). A file whose text is in the other
// format than its name says is an error saying so. (A kustomization, which
// names other files, is read by package kpatch.)
func Parse(data []byte, file string, opts Options) ([]*Patch, error) {
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
		return parseKpatch(data, tree.Position{File: file, Line: 1, Column: 1}, maxLine, limits.MaxDepth)
	}
	var format *tree.Format
	if strings.EqualFold(filepath.Ext(file), ".json") {
		f := tree.JSON
		format = &f
	}
	ps, err := parseYAML(data, file, &limits, format, opts.Warn)
	if err != nil {
		return nil, misnamed(data, file, err)
	}
	return ps, nil
}
