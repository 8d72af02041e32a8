// Command notices writes THIRD_PARTY_NOTICES.txt: the license texts (and
// NOTICE files) of everything the kmerge binaries and the playground's
// WebAssembly module contain besides kmerge's own code: the Go standard
// library and runtime, and every module that a release target or the
// playground compiles in. It asks the go command which packages each
// target builds (go list -deps, per GOOS/GOARCH, with the workspace off,
// as hack/release builds) and reads the license files from each module's
// folder in the module cache, so it works offline once the modules are
// downloaded.
//
//	go run ./hack/notices            # rewrite THIRD_PARTY_NOTICES.txt
//	go run ./hack/notices -check     # fail if it is not what would be written
//
// A module without a license file is an error: kmerge does not ship code
// whose terms it cannot state. TestNoticesCurrent runs the check, so adding
// a dependency without regenerating the file fails the tests.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// build is one thing kmerge ships that has code compiled in: a package
// built for a platform.
type build struct {
	Pkg, OS, Arch string
}

// builds are what is shipped: the command for every release target
// (hack/release) and the playground's WebAssembly module (web/build.sh).
var builds = []build{
	{"./cmd/kmerge", "linux", "amd64"},
	{"./cmd/kmerge", "linux", "arm64"},
	{"./cmd/kmerge", "darwin", "amd64"},
	{"./cmd/kmerge", "darwin", "arm64"},
	{"./cmd/kmerge", "windows", "amd64"},
	{"./cmd/kmerge", "windows", "arm64"},
	{"./web/wasm", "js", "wasm"},
}

// Output is the file the notices are written to, at the repository root.
const Output = "THIRD_PARTY_NOTICES.txt"

func main() {
	check := flag.Bool("check", false, "compare "+Output+" with what would be written, and fail if they differ")
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		fail(err)
	}
	text, err := generate(root)
	if err != nil {
		fail(err)
	}
	path := filepath.Join(root, Output)
	if *check {
		if err := compare(path, text); err != nil {
			fail(err)
		}
		return
	}
	if err := os.WriteFile(path, text, 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "notices:", err)
	os.Exit(1)
}

// compare reports whether the file at path holds text.
func compare(path string, text []byte) error {
	have, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(have, text) {
		return fmt.Errorf("%s is not up to date with the modules the binaries contain; run go run ./hack/notices and commit it", path)
	}
	return nil
}

// repoRoot is the folder of the main module's go.mod.
func repoRoot() (string, error) {
	out, err := goCmd("", nil, "env", "GOMOD")
	if err != nil {
		return "", err
	}
	mod := strings.TrimSpace(out)
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the kmerge module")
	}
	return filepath.Dir(mod), nil
}

// module is a dependency compiled into at least one build.
type module struct {
	Path, Version, Dir string
	Builds             []string // "linux/amd64", ... where it is compiled in
}

// generate returns the text of the notices file for the repository at root.
func generate(root string) ([]byte, error) {
	mods := map[string]*module{}
	var all []string
	for _, b := range builds {
		where := b.OS + "/" + b.Arch
		all = append(all, where)
		env := []string{"GOOS=" + b.OS, "GOARCH=" + b.Arch, "GOWORK=off", "CGO_ENABLED=0"}
		out, err := goCmd(root, env, "list", "-deps", "-f", "{{with .Module}}{{if not .Main}}{{.Path}}\t{{.Version}}\t{{.Dir}}{{end}}{{end}}", b.Pkg)
		if err != nil {
			return nil, fmt.Errorf("%s for %s: %v", b.Pkg, where, err)
		}
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			if len(f) != 3 {
				continue // packages of the standard library and of kmerge print nothing
			}
			m := mods[f[0]]
			if m == nil {
				m = &module{Path: f[0], Version: f[1], Dir: f[2]}
				mods[f[0]] = m
			}
			if !slices.Contains(m.Builds, where) {
				m.Builds = append(m.Builds, where)
			}
		}
	}
	goroot, err := goCmd(root, nil, "env", "GOROOT")
	if err != nil {
		return nil, err
	}

	var b bytes.Buffer
	b.WriteString(`Third-party notices for kmerge

kmerge is licensed under the Apache License, Version 2.0 (the LICENSE file).
Its binaries and the playground's WebAssembly module also contain the
software below, each under its own license, whose text follows its name.
This file is written by hack/notices from the module cache; do not edit it.
`)
	section(&b, "The Go standard library and runtime (https://go.dev)", "in every binary and in the playground")
	texts, err := licenseFiles(strings.TrimSpace(goroot))
	if err != nil {
		return nil, fmt.Errorf("the license of Go (GOROOT): %v", err)
	}
	writeTexts(&b, texts)
	paths := make([]string, 0, len(mods))
	for p := range mods {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		m := mods[p]
		texts, err := licenseFiles(m.Dir)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %v", m.Path, m.Version, err)
		}
		where := "in the builds for " + strings.Join(m.Builds, ", ")
		switch {
		case len(m.Builds) == len(all):
			where = "in every binary and in the playground"
		case len(m.Builds) == len(all)-1 && !slices.Contains(m.Builds, "js/wasm"):
			where = "in every binary, not in the playground"
		}
		section(&b, m.Path+" "+m.Version, where)
		writeTexts(&b, texts)
	}
	return b.Bytes(), nil
}

// section writes the heading of one component.
func section(b *bytes.Buffer, name, where string) {
	rule := strings.Repeat("=", 78)
	fmt.Fprintf(b, "\n%s\n%s\n(%s)\n%s\n", rule, name, where, rule)
}

// licenseFile matches the names of the files that state a module's terms.
var licenseFile = regexp.MustCompile(`(?i)^(licen[cs]e|copying|notice|patents)(\.(txt|md|markdown|rst))?$`)

// namedText is a license file: its name and its text.
type namedText struct {
	Name string
	Text []byte
}

// licenseFiles returns the license, notice and patent files at the top of
// the folder dir, by name.
func licenseFiles(dir string) ([]namedText, error) {
	if dir == "" {
		return nil, errors.New("the module is not in the module cache (go mod download)")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []namedText
	for _, e := range entries {
		if e.IsDir() || !licenseFile.MatchString(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, namedText{e.Name(), data})
	}
	if !slices.ContainsFunc(out, func(t namedText) bool {
		n := strings.ToLower(t.Name)
		return strings.HasPrefix(n, "licen") || strings.HasPrefix(n, "copying")
	}) {
		return nil, fmt.Errorf("no license file in %s", dir)
	}
	return out, nil
}

func writeTexts(b *bytes.Buffer, texts []namedText) {
	for _, t := range texts {
		fmt.Fprintf(b, "\n--- %s ---\n\n", t.Name)
		text := bytes.TrimRight(t.Text, "\n")
		b.Write(text)
		b.WriteByte('\n')
	}
}

// goCmd runs the go command in dir with env added, and returns its output.
func goCmd(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out), nil
}
