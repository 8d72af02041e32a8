// Package upstreamsrc reads k8s.io/apimachinery's own strategic merge patch
// test cases from the source of the module the conformance module builds
// with, and replays them through upstream to record what it returns, so that
// kmerge is compared with upstream's cases on every clone, with nothing but
// the Go module cache.
//
// The cases are the string literals of upstream's test tables in
// pkg/util/strategicpatch/patch_test.go, found with go/ast and converted as
// upstream's tests convert them (sigs.k8s.io/yaml, and for two tables a
// sort of merge lists by key); nothing of upstream's test code is run or
// copied. What upstream returns for each case is computed by calling
// upstream's exported functions (the oracle), per schema flavour.
package upstreamsrc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// ModulePath is the module whose tests hold the cases.
const ModulePath = "k8s.io/apimachinery"

// TestFile is the file of upstream's tables, relative to the module folder.
const TestFile = "pkg/util/strategicpatch/patch_test.go"

// TestdataDir holds the OpenAPI fixtures upstream's tests load (the
// mergeItem and precisionItem types in OpenAPI v2 and v3), relative to the
// module folder.
const TestdataDir = "pkg/util/strategicpatch/testdata"

// Module is where the source of k8s.io/apimachinery is.
type Module struct {
	Version string // as go list -m reports it, for example v0.37.2
	Dir     string // the folder in the module cache
}

// FindModule asks the go command, run in the current directory (a test's
// package folder in the conformance module), where k8s.io/apimachinery is in
// the module cache. Nothing is downloaded (GOPROXY=off): go test resolves
// and downloads the modules of a package before it runs its tests, so the
// module is there whenever the tests that need it were built. Any other
// outcome is an error saying what to do.
func FindModule() (Module, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		if root := os.Getenv("GOROOT"); root != "" {
			goBin = filepath.Join(root, "bin", "go")
		} else {
			return Module{}, fmt.Errorf("finding %s in the module cache needs the go command: %w", ModulePath, err)
		}
	}
	cmd := exec.Command(goBin, "list", "-m", "-json", ModulePath)
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return Module{}, fmt.Errorf("go list -m %s, offline (GOPROXY=off): %v\n%s\n(the module cache lacks what the conformance module needs: run go mod download there)", ModulePath, err, bytes.TrimSpace(stderr.Bytes()))
	}
	var m struct {
		Path, Version, Dir string
		Error              *struct{ Err string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil {
		return Module{}, fmt.Errorf("go list -m %s: %v", ModulePath, err)
	}
	if m.Error != nil {
		return Module{}, fmt.Errorf("go list -m %s: %s", ModulePath, m.Error.Err)
	}
	if m.Dir == "" {
		return Module{}, fmt.Errorf("%s %s is not in the module cache: run go mod download %s in the conformance module (go test downloads it when it builds these tests)", ModulePath, m.Version, ModulePath)
	}
	mod := Module{Version: m.Version, Dir: m.Dir}
	for _, p := range []string{TestFile, TestdataDir} {
		if _, err := os.Stat(filepath.Join(m.Dir, p)); err != nil {
			return Module{}, fmt.Errorf("%s %s in the module cache lacks %s: %w", ModulePath, m.Version, p, errors.Unwrap(err))
		}
	}
	return mod, nil
}

// Testdata returns the path of one of upstream's OpenAPI fixtures, for
// example swagger-merge-item.json.
func (m Module) Testdata(name string) string {
	return filepath.Join(m.Dir, TestdataDir, name)
}

// Source returns the text of upstream's test file.
func (m Module) Source() ([]byte, error) {
	return os.ReadFile(filepath.Join(m.Dir, TestFile))
}

// Load finds the module and reads its tables (see Extract).
func Load() (Module, []Table, error) {
	m, err := FindModule()
	if err != nil {
		return Module{}, nil, err
	}
	src, err := m.Source()
	if err != nil {
		return Module{}, nil, err
	}
	tables, err := Extract(src, filepath.Join(m.Dir, TestFile), m.Flavors)
	if err != nil {
		return Module{}, nil, err
	}
	return m, tables, nil
}
