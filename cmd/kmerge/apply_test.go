package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/linediff"
)

// applyCase is the case.yaml of a folder under testdata/apply. The folder
// holds the inputs:
//
//	base/          the manifests (-f base)
//	patches/       the patch files (-p patches)
//	values.yaml    variables (--values values.yaml), when present
//
// and the expected outcome:
//
//	want.yaml      standard output (absent: nothing)
//	want.stderr    standard error, exactly (absent: nothing)
//
// The command runs inside the folder, so messages name files as
// patches/x.kpatch:3:1.
type applyCase struct {
	// About says what the case shows and why the expected output is right:
	// every expected file was written by hand from this reasoning.
	About   string   `yaml:"about"`
	Command string   `yaml:"command"` // apply (default) or check
	Args    []string `yaml:"args"`    // more flags
	Exit    int      `yaml:"exit"`
}

func TestApplyCases(t *testing.T) {
	dirs, err := filepath.Glob("testdata/apply/*/case.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no cases under testdata/apply")
	}
	for _, file := range dirs {
		dir := filepath.Dir(file)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var c applyCase
			dec := yaml.NewDecoder(bytes.NewReader(data))
			dec.KnownFields(true)
			if err := dec.Decode(&c); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if strings.TrimSpace(c.About) == "" {
				t.Fatalf("%s: say in about: why the expected output is right", file)
			}
			want := readOptional(t, filepath.Join(dir, "want.yaml"))
			wantErr := readOptional(t, filepath.Join(dir, "want.stderr"))

			t.Chdir(dir)
			if c.Command == "" {
				c.Command = "apply"
			}
			args := []string{c.Command, "-f", "base", "-p", "patches"}
			if _, err := os.Stat("values.yaml"); err == nil {
				args = append(args, "--values", "values.yaml")
			}
			args = append(args, c.Args...)
			var stdout, stderr bytes.Buffer
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			if *update {
				writeOptional(t, "want.yaml", stdout.String())
				writeOptional(t, "want.stderr", stderr.String())
				want, wantErr = stdout.String(), stderr.String()
			}
			if code != c.Exit {
				t.Errorf("exit code %d, want %d", code, c.Exit)
			}
			if got := stderr.String(); got != wantErr {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, wantErr)
			}
			if got := stdout.String(); got != want {
				t.Errorf("stdout:\n%s\nwant:\n%s\ndiff:\n%s", got, want, lineDiff(want, got))
			}
		})
	}
}

func readOptional(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeOptional(t *testing.T, name, content string) {
	t.Helper()
	if content == "" {
		os.Remove(name)
		return
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineDiff shows how got differs from want, for failures.
func lineDiff(want, got string) string {
	return linediff.Unified("want", "got", linediff.SplitLines(want), linediff.SplitLines(got), 2)
}
