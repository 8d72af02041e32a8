package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoticesCurrent fails when THIRD_PARTY_NOTICES.txt is not what the
// generator writes now: a dependency added (or updated) without its
// notice, or the file edited by hand.
func TestNoticesCurrent(t *testing.T) {
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	text, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := compare(filepath.Join(root, Output), text); err != nil {
		t.Fatal(err)
	}
	// what the binaries are known to contain (go.mod's requirements and
	// Go itself) must be there, each with a license text
	for _, want := range []string{
		"The Go standard library and runtime",
		"github.com/spf13/cobra v1.10.2",
		"github.com/spf13/pflag v1.0.10",
		"go.yaml.in/yaml/v3 v3.0.6",
		"github.com/inconshreveable/mousetrap v1.1.0\n(in the builds for windows/amd64, windows/arm64)",
		"--- NOTICE ---", // yaml.v3's NOTICE file
		"--- PATENTS ---",
	} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the notices lack %q", want)
		}
	}
}

func TestLicenseFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("NOTICE", "notice\n")
	write("README.md", "readme\n")
	if _, err := licenseFiles(dir); err == nil || !strings.Contains(err.Error(), "no license file") {
		t.Fatalf("a NOTICE alone: %v, want no license file", err)
	}
	write("LICENSE.txt", "license\n")
	write("licenses.go", "package x\n")
	got, err := licenseFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range got {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "LICENSE.txt,NOTICE" {
		t.Fatalf("files %v, want LICENSE.txt, NOTICE", names)
	}
	if _, err := licenseFiles(""); err == nil {
		t.Fatal("a module outside the cache: no error")
	}
}
