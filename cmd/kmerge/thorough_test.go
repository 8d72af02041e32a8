package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestThoroughSame runs every case of testdata/apply and testdata/golden
// whose command reads manifests twice: as kmerge runs by default (only the
// documents a patch targets are parsed, the others copied as their text,
// and edited documents' texts taken as their edits prove them) and with
// KMERGE_THOROUGH=1 (every document parsed, and every edited document's
// text read back). Standard output, standard error, the exit code and every file
// of the case's folder afterwards must be the same, byte for byte. Each run
// has its own copy of the folder.
func TestThoroughSame(t *testing.T) {
	type invocation struct {
		dir   string
		args  []string
		stdin string
		env   map[string]string // the case's (SOURCE_DATE_EPOCH: the runs' times must not differ)
	}
	var runs []invocation
	applyDirs, err := filepath.Glob("testdata/apply/*/case.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range applyDirs {
		var c applyCase
		readCase(t, f, &c)
		cmd := c.Command
		if cmd == "" {
			cmd = "apply"
		}
		dir := filepath.Dir(f)
		args := append([]string{cmd, "-f", "base", "-p", "patches"}, c.Args...)
		if _, err := os.Stat(filepath.Join(dir, "values.yaml")); err == nil {
			args = append(args, "--values", "values.yaml")
		}
		runs = append(runs, invocation{dir: dir, args: args})
	}
	goldenDirs, err := filepath.Glob("testdata/golden/*/case.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range goldenDirs {
		var c goldenCase
		readCase(t, f, &c)
		switch c.Args[0] {
		case "apply", "check", "fn", "patch":
			runs = append(runs, invocation{dir: filepath.Dir(f), args: c.Args, stdin: c.Stdin, env: c.Env})
		}
	}
	if len(runs) < 60 {
		t.Fatalf("only %d cases found", len(runs))
	}
	for _, r := range runs {
		t.Run(r.dir, func(t *testing.T) {
			src, err := filepath.Abs(r.dir)
			if err != nil {
				t.Fatal(err)
			}
			outcome := func(mode string) string {
				t.Setenv("KMERGE_THOROUGH", mode)
				for k, v := range r.env {
					t.Setenv(k, v)
				}
				dir := t.TempDir()
				if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
					t.Fatal(err)
				}
				t.Chdir(dir)
				stdin := ""
				if r.stdin != "" {
					b, err := os.ReadFile(r.stdin)
					if err != nil {
						t.Fatal(err)
					}
					stdin = string(b)
				}
				var stdout, stderr bytes.Buffer
				code := run(r.args, strings.NewReader(stdin), &stdout, &stderr)
				var b strings.Builder
				b.WriteString("exit: " + strconv.Itoa(code) + "\nstdout:\n" + stdout.String() + "\nstderr:\n" + stderr.String())
				err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					data, err := os.ReadFile(p)
					b.WriteString("\nfile " + p + ":\n" + string(data))
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
			all, sparse := outcome("1"), outcome("")
			if all != sparse {
				t.Errorf("KMERGE_THOROUGH=1 and the default differ:\n%s", lineDiff(all, sparse))
			}
		})
	}
}

// readCase decodes a case.yaml strictly.
func readCase(t *testing.T, file string, c any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}
