package syntax

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports: the syntax is a package tools can use without the engines
// that apply patches: no file of it imports package kpatch, the engines,
// schemas, validation or conflicts.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch strings.TrimPrefix(path, "github.com/kmerge/kmerge/") {
			case "kpatch", "smp", "mergepatch", "jsonpatch", "schema", "validate", "conflict":
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}
