package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// goldenCase is the case.yaml of a folder under testdata/golden: any
// kmerge command, run inside the folder (so messages name its files as
// they are given), with the folder's files as inputs. Expected:
//
//	want.stdout    standard output, exactly (absent: nothing)
//	want.stderr    standard error, exactly (absent: nothing)
//
// go test ./cmd/kmerge -run TestGolden -update rewrites them; review
// every change against the case's about.
type goldenCase struct {
	// About says what the case shows and why the expected output is right.
	About string   `yaml:"about"`
	Args  []string `yaml:"args"`  // the command line, without "kmerge"
	Stdin string   `yaml:"stdin"` // a file of the folder to give as standard input
	Exit  int      `yaml:"exit"`
	// Absent lists paths that must not exist after the run (what a failed
	// command must not have written).
	Absent []string `yaml:"absent"`
	// Env sets environment variables for the run (SOURCE_DATE_EPOCH).
	Env map[string]string `yaml:"env"`
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*/case.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no cases under testdata/golden")
	}
	for _, file := range files {
		dir := filepath.Dir(file)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var c goldenCase
			dec := yaml.NewDecoder(bytes.NewReader(data))
			dec.KnownFields(true)
			if err := dec.Decode(&c); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if strings.TrimSpace(c.About) == "" || len(c.Args) == 0 {
				t.Fatalf("%s: give the args, and say in about: why the expected output is right", file)
			}
			t.Chdir(dir)
			for k, v := range c.Env {
				t.Setenv(k, v)
			}
			want := readOptional(t, "want.stdout")
			wantErr := readOptional(t, "want.stderr")
			stdin := ""
			if c.Stdin != "" {
				b, err := os.ReadFile(c.Stdin)
				if err != nil {
					t.Fatal(err)
				}
				stdin = string(b)
			}
			var stdout, stderr bytes.Buffer
			code := run(c.Args, strings.NewReader(stdin), &stdout, &stderr)
			if *update {
				writeOptional(t, "want.stdout", stdout.String())
				writeOptional(t, "want.stderr", stderr.String())
				want, wantErr = stdout.String(), stderr.String()
			}
			if code != c.Exit {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, c.Exit, stderr.String())
			}
			if got := stderr.String(); got != wantErr {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, wantErr)
			}
			if got := stdout.String(); got != want {
				t.Errorf("stdout:\n%s\nwant:\n%s\ndiff:\n%s", got, want, lineDiff(want, got))
			}
			for _, p := range c.Absent {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("%s was written", p)
					os.RemoveAll(p)
				}
			}
		})
	}
}
