package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"flag"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

var (
	commitTime = time.Date(2026, 11, 22, 16, 16, 21, 0, time.UTC)
	files      = []archiveFile{
		{Name: "kmerge", Mode: 0o755, Data: []byte("\x7fELF binary")},
		{Name: "README.md", Mode: 0o644, Data: []byte("# kmerge\n")},
	}
)

func TestTargets(t *testing.T) {
	if len(Targets) != 6 {
		t.Errorf("%d targets, want linux, darwin, windows × amd64, arm64", len(Targets))
	}
	for _, c := range []struct {
		t             Target
		binary, named string
	}{
		{Target{"linux", "arm64"}, "kmerge", "kmerge_v1.2.0_linux_arm64.tar.gz"},
		{Target{"darwin", "amd64"}, "kmerge", "kmerge_v1.2.0_darwin_amd64.tar.gz"},
		{Target{"windows", "arm64"}, "kmerge.exe", "kmerge_v1.2.0_windows_arm64.zip"},
	} {
		if c.t.binary() != c.binary || c.t.archiveName("v1.2.0") != c.named {
			t.Errorf("%s: %s in %s, want %s in %s", c.t, c.t.binary(), c.t.archiveName("v1.2.0"), c.binary, c.named)
		}
	}
	ts, err := parseTargets("linux/amd64, windows/arm64")
	if err != nil || len(ts) != 2 || ts[1] != (Target{"windows", "arm64"}) {
		t.Errorf("parseTargets: %v %v", ts, err)
	}
	if _, err := parseTargets("plan9/386"); err == nil || !strings.Contains(err.Error(), `"plan9/386" is not one of`) {
		t.Errorf("parseTargets(plan9/386): %v", err)
	}
}

// TestTarGz: the same files and time give the same bytes; the archive holds
// the folder and the files with their modes, owner 0 and no owner names,
// the commit's time; gzip stores no name and no time.
func TestTarGz(t *testing.T) {
	a, err := tarGz("kmerge_v1_linux_amd64/", files, commitTime)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := tarGz("kmerge_v1_linux_amd64/", files, commitTime)
	c, _ := tarGz("kmerge_v1_linux_amd64/", files, commitTime.Add(time.Second))
	if !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Fatalf("same inputs equal: %v; another time differs: %v", bytes.Equal(a, b), !bytes.Equal(a, c))
	}
	gz, err := gzip.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() {
		t.Errorf("gzip header: name %q, time %v", gz.Name, gz.ModTime)
	}
	tr := tar.NewReader(gz)
	want := []struct {
		name string
		mode int64
		data string
	}{{"kmerge_v1_linux_amd64/", 0o755, ""}, {"kmerge_v1_linux_amd64/kmerge", 0o755, "\x7fELF binary"}, {"kmerge_v1_linux_amd64/README.md", 0o644, "# kmerge\n"}}
	for _, w := range want {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		data, _ := io.ReadAll(tr)
		if h.Name != w.name || h.Mode != w.mode || string(data) != w.data || h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" || !h.ModTime.Equal(commitTime) {
			t.Errorf("entry %s mode %o uid %d gid %d %q/%q time %v, data %q; want %s mode %o, %q", h.Name, h.Mode, h.Uid, h.Gid, h.Uname, h.Gname, h.ModTime, data, w.name, w.mode, w.data)
		}
	}
	if _, err := tr.Next(); err != io.EOF {
		t.Errorf("more entries: %v", err)
	}
}

// TestZip: as TestTarGz, for the windows archives.
func TestZip(t *testing.T) {
	a, err := zipArchive("kmerge_v1_windows_amd64/", files, commitTime)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := zipArchive("kmerge_v1_windows_amd64/", files, commitTime)
	c, _ := zipArchive("kmerge_v1_windows_amd64/", files, commitTime.Add(2*time.Second))
	if !bytes.Equal(a, b) || bytes.Equal(a, c) {
		t.Fatalf("same inputs equal: %v; another time differs: %v", bytes.Equal(a, b), !bytes.Equal(a, c))
	}
	zr, err := zip.NewReader(bytes.NewReader(a), int64(len(a)))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name string
		mode os.FileMode
		data string
	}{{"kmerge_v1_windows_amd64/", os.ModeDir | 0o755, ""}, {"kmerge_v1_windows_amd64/kmerge", 0o755, "\x7fELF binary"}, {"kmerge_v1_windows_amd64/README.md", 0o644, "# kmerge\n"}}
	if len(zr.File) != len(want) {
		t.Fatalf("%d entries, want %d", len(zr.File), len(want))
	}
	for i, w := range want {
		f := zr.File[i]
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name != w.name || f.Mode() != w.mode || string(data) != w.data || !f.Modified.Equal(commitTime) {
			t.Errorf("entry %s mode %v time %v data %q, want %s %v %q", f.Name, f.Mode(), f.Modified, data, w.name, w.mode, w.data)
		}
	}
}

// TestChecksums: sha256sum's format, sorted by name.
func TestChecksums(t *testing.T) {
	got := string(checksums(map[string][]byte{"b.zip": []byte("b"), "a.tar.gz": []byte("")}))
	want := "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.tar.gz\n" +
		"3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d  b.zip\n"
	if got != want {
		t.Errorf("checksums:\n%s\nwant:\n%s", got, want)
	}
}

// TestCheckBinary: a binary without the release build settings is refused,
// naming what it lacks (the test binary: no version control stamp).
func TestCheckBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	_, err = checkBinary(exe, Target{"linux", "amd64"}, "0123")
	if err == nil || !strings.Contains(err.Error(), "linux/amd64: ") {
		t.Errorf("checkBinary(test binary) = %v, want a refusal", err)
	}
	if _, err := checkBinary("testdata/nosuch", Target{"linux", "amd64"}, "0123"); err == nil {
		t.Error("checkBinary(missing file): no error")
	}
}

// TestSameArchives: the second build of -verify-targets is compared
// archive by archive, for its targets only; a differing archive or version
// is named.
func TestSameArchives(t *testing.T) {
	lin, win := Target{"linux", "amd64"}, Target{"windows", "arm64"}
	mk := func(version string, files map[Target]string) *release {
		r := &release{version: version, files: map[string][]byte{}}
		for t, data := range files {
			r.files[t.archiveName(version)] = []byte(data)
		}
		r.checksums = checksums(r.files)
		return r
	}
	first := mk("v1", map[Target]string{lin: "l", win: "w", {"darwin", "arm64"}: "d"})
	if err := sameArchives(mk("v1", map[Target]string{lin: "l", win: "w"}), first, []Target{lin, win}); err != nil {
		t.Errorf("the same archives: %v", err)
	}
	err := sameArchives(mk("v1", map[Target]string{lin: "l", win: "W"}), first, []Target{lin, win})
	if err == nil || !strings.Contains(err.Error(), win.archiveName("v1")+" differs") {
		t.Errorf("a differing zip: %v", err)
	}
	if err := sameArchives(mk("v2", map[Target]string{lin: "l"}), first, []Target{lin}); err == nil || !strings.Contains(err.Error(), "version is v2") {
		t.Errorf("another version: %v", err)
	}
	if got := joinTargets([]Target{lin, win}); got != "linux/amd64, windows/arm64" {
		t.Errorf("joinTargets: %q", got)
	}
}

// TestSameArchivesMissing: an archive missing from both builds, or from
// the second, is not "the same" (bytes.Equal(nil, nil) is true); run does
// not itself check that the verify targets are among the targets built.
func TestSameArchivesMissing(t *testing.T) {
	lin, win := Target{"linux", "amd64"}, Target{"windows", "arm64"}
	r := func(names ...Target) *release {
		rel := &release{version: "v1", files: map[string][]byte{}}
		for _, n := range names {
			rel.files[n.archiveName("v1")] = []byte(n.String())
		}
		return rel
	}
	if err := sameArchives(r(lin), r(lin), []Target{lin, win}); err == nil || !strings.Contains(err.Error(), "not in the first build") {
		t.Errorf("a target built by neither: %v", err)
	}
	if err := sameArchives(r(lin), r(lin, win), []Target{lin, win}); err == nil || !strings.Contains(err.Error(), "second build has no "+win.archiveName("v1")) {
		t.Errorf("a target missing from the second build: %v", err)
	}
	if err := sameArchives(r(lin, win), r(lin, win), []Target{win}); err != nil {
		t.Errorf("one target of two: %v", err)
	}
}

// TestCheckFlags: every malformed combination of -targets, -verify and
// -verify-targets is refused before anything is built, naming the flag.
func TestCheckFlags(t *testing.T) {
	lin, win := Target{"linux", "amd64"}, Target{"windows", "arm64"}
	for _, c := range []struct {
		args        []string
		err         string // "" for none
		build, verf []Target
	}{
		{nil, "", Targets, nil},
		{[]string{"-verify"}, "", Targets, Targets},
		{[]string{"-verify-targets", "linux/amd64,windows/arm64"}, "", Targets, []Target{lin, win}},
		{[]string{"-verify-targets", " linux/amd64 , windows/arm64"}, "", Targets, []Target{lin, win}},
		{[]string{"-targets", "linux/amd64", "-verify-targets", "linux/amd64"}, "", []Target{lin}, []Target{lin}},
		{[]string{"-verify-targets", ""}, "-verify-targets: no targets", nil, nil},
		{[]string{"-verify-targets", " "}, "-verify-targets: no targets", nil, nil},
		{[]string{"-verify-targets", ","}, `-verify-targets: "" is not one of`, nil, nil},
		{[]string{"-verify-targets", "linux/amd64,,"}, `-verify-targets: "" is not one of`, nil, nil},
		{[]string{"-verify-targets", "linux/amd64 windows/arm64"}, `-verify-targets: "linux/amd64 windows/arm64" is not one of`, nil, nil},
		{[]string{"-verify-targets", "linux"}, `-verify-targets: "linux" is not one of`, nil, nil},
		{[]string{"-verify-targets", "LINUX/amd64"}, `-verify-targets: "LINUX/amd64" is not one of`, nil, nil},
		{[]string{"-verify-targets", "plan9/386"}, `-verify-targets: "plan9/386" is not one of`, nil, nil},
		{[]string{"-verify-targets", "linux/amd64,linux/amd64"}, "-verify-targets: linux/amd64 is named twice", nil, nil},
		{[]string{"-targets", "linux/amd64,linux/amd64"}, "-targets: linux/amd64 is named twice", nil, nil},
		{[]string{"-targets", "linux"}, `-targets: "linux" is not one of`, nil, nil},
		{[]string{"-targets", "linux/amd64", "-verify-targets", "windows/arm64"}, "-verify-targets: windows/arm64 is not built (-targets)", nil, nil},
		{[]string{"-verify", "-verify-targets", "linux/amd64"}, "give one of them", nil, nil},
		{[]string{"-verify", "linux/amd64"}, `unexpected arguments ["linux/amd64"]`, nil, nil},
		{[]string{"-verify-targets", "linux/amd64", "windows/arm64"}, `unexpected arguments ["windows/arm64"]`, nil, nil},
	} {
		fs := newFlags(flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		if err := fs.Parse(c.args); err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		build, verf, err := checkFlags(fs)
		if c.err == "" {
			if err != nil || !slices.Equal(build, c.build) || !slices.Equal(verf, c.verf) {
				t.Errorf("%q: build %v, verify %v, %v; want %v, %v", c.args, build, verf, err, c.build, c.verf)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want an error with %q", c.args, err, c.err)
		}
	}
}
