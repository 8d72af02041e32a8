package kmerge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoYAMLv3Decoder: no non-test Go file of the library's module reads
// YAML text with go.yaml.in/yaml/v3 (yaml.Unmarshal, yaml.NewDecoder):
// internal/fastyaml reads every stream, and yaml.v3 stays the oracle the
// tests compare it with (issue 26, item 1). The modules beside the
// library's (bench, conformance, hack/schemagen, web/browsertest, each
// with a go.mod of its own) are not the library. No call is allowed, not
// even in internal/nodetest, the helper of tests: the last one (tree's
// decodeSeparators, for the streams holding NEL, LS or PS) went when the
// reader came to read them itself.
func TestNoYAMLv3Decoder(t *testing.T) {
	exempt := map[string]bool{}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == "." {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || exempt[filepath.ToSlash(path)] {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		name := ""
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "go.yaml.in/yaml/v3" {
				name = "yaml"
				if im.Name != nil {
					name = im.Name.Name
				}
			}
		}
		if name == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && (sel.Sel.Name == "Unmarshal" || sel.Sel.Name == "NewDecoder") {
				t.Errorf("%s: yaml.%s: the library reads YAML with internal/fastyaml", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go files checked", checked)
	}
}
