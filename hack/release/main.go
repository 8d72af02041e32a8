// Command release builds kmerge's release artefacts from a commit: static
// binaries for linux, darwin and windows on amd64 and arm64, one archive
// each (tar.gz; zip for windows) and a SHA-256 checksums file.
//
// Usage, from the repository:
//
//	go run ./hack/release [-ref REF] [-out DIR] [-targets OS/ARCH,...] [-verify] [-verify-targets OS/ARCH,...]
//
// The build is reproducible: the same commit built with the same Go
// version gives the same bytes, wherever and whenever it is built. To that
// end the commit is cloned into a temporary folder (so that nothing
// uncommitted or untracked gets in, and Go stamps the commit: it does not
// stamp git worktrees), binaries are built with CGO_ENABLED=0, -trimpath
// and -buildvcs=true (the version and commit come from the build
// information, see kmerge version), and archives have fixed metadata: the
// commit's time, owner 0, fixed modes, files in a fixed order.
//
// -verify builds everything a second time from another clone, at another
// path, with an empty build cache, and fails unless every archive has the
// same checksum. -verify-targets does the same for the targets it names
// only, each of -targets and each once, and not with -verify (CI proves
// one tar.gz and one zip target that way, inside its time); the archives
// written are the first build's, of every target. Malformed, unknown or
// repeated targets, an empty -verify-targets and arguments that are not
// flags are refused before anything is built.
//
// See docs/release.md.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Targets are the platforms of a release.
var Targets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

// Target is a GOOS/GOARCH pair.
type Target struct{ OS, Arch string }

func (t Target) String() string { return t.OS + "/" + t.Arch }

// binary is the name of the kmerge executable on t.
func (t Target) binary() string {
	if t.OS == "windows" {
		return "kmerge.exe"
	}
	return "kmerge"
}

// archiveName is the file name of t's archive for version.
func (t Target) archiveName(version string) string {
	ext := ".tar.gz"
	if t.OS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("kmerge_%s_%s_%s%s", version, t.OS, t.Arch, ext)
}

// parseTargets reads a comma-separated list of OS/ARCH pairs, each of
// Targets and each once.
func parseTargets(s string) ([]Target, error) {
	var out []Target
	for _, f := range strings.Split(s, ",") {
		os, arch, ok := strings.Cut(strings.TrimSpace(f), "/")
		t := Target{os, arch}
		if !ok || !slices.Contains(Targets, t) {
			return nil, fmt.Errorf("%q is not one of %v", f, Targets)
		}
		if slices.Contains(out, t) {
			return nil, fmt.Errorf("%s is named twice", t)
		}
		out = append(out, t)
	}
	return out, nil
}

// newFlags defines the command's flags.
func newFlags(handling flag.ErrorHandling) *flag.FlagSet {
	fs := flag.NewFlagSet("release", handling)
	fs.String("ref", "HEAD", "the commit to build (a branch, tag or revision)")
	fs.String("out", "dist", "the folder for the archives and the checksums file")
	fs.String("targets", "", "OS/ARCH,... to build (default: all six)")
	fs.Bool("verify", false, "build every target a second time from another clone with an empty build cache, and compare")
	fs.String("verify-targets", "", "OS/ARCH,... (of -targets) to build a second time and compare, as -verify does for all; not with -verify")
	return fs
}

// checkFlags returns the targets to build and those to build a second
// time, from the parsed fs; it refuses, before anything is built, a
// malformed, unknown or repeated target, a -verify-targets target not
// built, an empty -verify-targets, -verify with -verify-targets, and
// arguments that are not flags.
func checkFlags(fs *flag.FlagSet) (targets, again []Target, err error) {
	if fs.NArg() > 0 {
		return nil, nil, fmt.Errorf("unexpected arguments %q (flags only: a list of targets is one argument, comma-separated)", fs.Args())
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	targets = Targets
	if s := fs.Lookup("targets").Value.String(); s != "" {
		if targets, err = parseTargets(s); err != nil {
			return nil, nil, fmt.Errorf("-targets: %w", err)
		}
	}
	if fs.Lookup("verify").Value.String() == "true" {
		again = targets
	}
	if given["verify-targets"] {
		if again != nil {
			return nil, nil, errors.New("-verify rebuilds every target, -verify-targets the targets it names: give one of them")
		}
		s := fs.Lookup("verify-targets").Value.String()
		if strings.TrimSpace(s) == "" {
			return nil, nil, errors.New("-verify-targets: no targets (-verify rebuilds all)")
		}
		if again, err = parseTargets(s); err != nil {
			return nil, nil, fmt.Errorf("-verify-targets: %w", err)
		}
		for _, t := range again {
			if !slices.Contains(targets, t) {
				return nil, nil, fmt.Errorf("-verify-targets: %s is not built (-targets)", t)
			}
		}
	}
	return targets, again, nil
}

func main() {
	fs := newFlags(flag.ExitOnError)
	fs.Parse(os.Args[1:])
	ts, again, err := checkFlags(fs)
	if err != nil {
		fail(err)
	}
	if err := run(fs.Lookup("ref").Value.String(), fs.Lookup("out").Value.String(), ts, again); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "release:", err)
	os.Exit(1)
}

// run builds the release of ref into out; the targets of verify, if
// any, are built a second time and must give the same archives.
func run(ref, out string, targets, verify []Target) error {
	commit, err := git("", "rev-parse", "--verify", ref+"^{commit}")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "kmerge-release-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	rel, err := build(commit, filepath.Join(tmp, "a"), "", targets)
	if err != nil {
		return err
	}
	if len(verify) > 0 {
		cache := filepath.Join(tmp, "gocache")
		again, err := build(commit, filepath.Join(tmp, "b", "elsewhere"), cache, verify)
		if err != nil {
			return fmt.Errorf("the second build: %w", err)
		}
		if err := sameArchives(again, rel, verify); err != nil {
			return err
		}
		fmt.Printf("reproducible: a second build (another clone, another path, an empty build cache) gave the same archives for %s\n", joinTargets(verify))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for name, data := range rel.files {
		if err := writeFileAtomic(filepath.Join(out, name), data); err != nil {
			return err
		}
	}
	fmt.Printf("kmerge %s (commit %s), in %s:\n%s", rel.version, commit, out, rel.checksums)
	return nil
}

// sameArchives reports an error unless again, a second build of the
// targets, has archives byte for byte those of first; an archive missing
// from either is an error, not two equal nothings.
func sameArchives(again, first *release, targets []Target) error {
	if again.version != first.version {
		return fmt.Errorf("not reproducible: the second build's version is %s, the first's %s", again.version, first.version)
	}
	for _, t := range targets {
		name := t.archiveName(first.version)
		a, inAgain := again.files[name]
		f, inFirst := first.files[name]
		if !inFirst {
			return fmt.Errorf("%s is not in the first build", name)
		}
		if !inAgain {
			return fmt.Errorf("not reproducible: the second build has no %s", name)
		}
		if !bytes.Equal(a, f) {
			return fmt.Errorf("not reproducible: the second build's %s differs:\n%s\nfirst build:\n%s", name, again.checksums, first.checksums)
		}
	}
	return nil
}

// joinTargets is targets as a comma-separated list.
func joinTargets(targets []Target) string {
	var names []string
	for _, t := range targets {
		names = append(names, t.String())
	}
	return strings.Join(names, ", ")
}

// release is what build makes: archives and the checksums file, by name.
type release struct {
	version   string
	files     map[string][]byte
	checksums []byte
}

// build clones commit into work/src and builds the targets from there
// into work/bin; gocache, if set, is the build cache to use.
func build(commit, work, gocache string, targets []Target) (*release, error) {
	repo, err := git("", "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	// the binaries go outside the clone: an untracked file in it would
	// make Go stamp the build as modified
	dir := filepath.Join(work, "src")
	if _, err := git("", "clone", "--quiet", "--no-checkout", repo, dir); err != nil {
		return nil, err
	}
	if _, err := git(dir, "checkout", "--quiet", "--detach", commit); err != nil {
		return nil, err
	}
	stamp, err := git(dir, "show", "--no-patch", "--format=%ct", commit)
	if err != nil {
		return nil, err
	}
	var secs int64
	if _, err := fmt.Sscan(stamp, &secs); err != nil {
		return nil, fmt.Errorf("commit time %q: %v", stamp, err)
	}
	mtime := time.Unix(secs, 0).UTC()
	// the README, the license and the notices of the third-party code the
	// binary contains (hack/notices) go into every archive
	var docs []archiveFile
	for _, name := range []string{"README.md", "LICENSE", "THIRD_PARTY_NOTICES.txt"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		docs = append(docs, archiveFile{Name: name, Mode: 0o644, Data: data})
	}
	rel := &release{files: map[string][]byte{}}
	for _, t := range targets {
		bin := filepath.Join(work, "bin", t.OS+"_"+t.Arch, t.binary())
		start := time.Now()
		cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=true", "-ldflags=-s -w", "-o", bin, "./cmd/kmerge")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.OS, "GOARCH="+t.Arch, "GOWORK=off", "GOTOOLCHAIN=local")
		if gocache != "" {
			cmd.Env = append(cmd.Env, "GOCACHE="+gocache)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build for %s: %v\n%s", t, err, out)
		}
		version, err := checkBinary(bin, t, commit)
		if err != nil {
			return nil, err
		}
		if rel.version == "" {
			rel.version = version
		}
		data, err := os.ReadFile(bin)
		if err != nil {
			return nil, err
		}
		files := append([]archiveFile{{Name: t.binary(), Mode: 0o755, Data: data}}, docs...)
		name := t.archiveName(rel.version)
		prefix := strings.TrimSuffix(strings.TrimSuffix(name, ".tar.gz"), ".zip") + "/"
		var archive []byte
		if t.OS == "windows" {
			archive, err = zipArchive(prefix, files, mtime)
		} else {
			archive, err = tarGz(prefix, files, mtime)
		}
		if err != nil {
			return nil, err
		}
		rel.files[name] = archive
		fmt.Fprintf(os.Stderr, "built %s in %.1fs\n", name, time.Since(start).Seconds())
	}
	rel.checksums = checksums(rel.files)
	rel.files["kmerge_"+rel.version+"_checksums.txt"] = rel.checksums
	return rel, nil
}

// checkBinary reads the build information of the binary at path and checks
// that it is a release build of commit for t: stamped with the commit, no
// local changes, cgo off, paths trimmed. It returns the module version.
func checkBinary(path string, t Target, commit string) (string, error) {
	bi, err := buildinfo.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %v", t, err)
	}
	want := map[string]string{
		"vcs.revision": commit, "vcs.modified": "false", "CGO_ENABLED": "0", "-trimpath": "true",
		"GOOS": t.OS, "GOARCH": t.Arch,
	}
	for _, s := range bi.Settings {
		if w, ok := want[s.Key]; ok {
			if s.Value != w {
				return "", fmt.Errorf("%s: the binary's build setting %s is %q, want %q", t, s.Key, s.Value, w)
			}
			delete(want, s.Key)
		}
	}
	if len(want) > 0 {
		missing := make([]string, 0, len(want))
		for k := range want {
			missing = append(missing, k)
		}
		slices.Sort(missing)
		return "", fmt.Errorf("%s: the binary lacks the build settings %v (was it built from a git clone?)", t, missing)
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" || strings.HasSuffix(v, "+dirty") {
		return "", fmt.Errorf("%s: the binary's version is %q, want a tag or a pseudo-version", t, v)
	}
	return v, nil
}

// archiveFile is one file of an archive.
type archiveFile struct {
	Name string
	Mode int64
	Data []byte
}

// tarGz returns a gzip-compressed tar archive of files under prefix, with
// nothing that varies between builds: the given time, owner 0, no names,
// the files in the order given, no gzip name or time.
func tarGz(prefix string, files []archiveFile, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(gz)
	dir := &tar.Header{Typeflag: tar.TypeDir, Name: prefix, Mode: 0o755, ModTime: mtime, Format: tar.FormatUSTAR}
	if err := tw.WriteHeader(dir); err != nil {
		return nil, err
	}
	for _, f := range files {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: prefix + f.Name, Mode: f.Mode, Size: int64(len(f.Data)), ModTime: mtime, Format: tar.FormatUSTAR}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.Data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// zipArchive returns a zip archive of files under prefix, deflated, with
// the given time (UTC) and Unix modes.
func zipArchive(prefix string, files []archiveFile, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	dir := &zip.FileHeader{Name: prefix, Modified: mtime}
	dir.SetMode(os.ModeDir | 0o755)
	if _, err := zw.CreateHeader(dir); err != nil {
		return nil, err
	}
	for _, f := range files {
		h := &zip.FileHeader{Name: prefix + f.Name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(os.FileMode(f.Mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.Data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// checksums returns the SHA-256 checksums of files in the format of
// sha256sum (sha256sum -c checks them), sorted by name.
func checksums(files map[string][]byte) []byte {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	var b bytes.Buffer
	for _, n := range names {
		sum := sha256.Sum256(files[n])
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), n)
	}
	return b.Bytes()
}

// git runs git in dir (the current folder if "") and returns its output,
// trimmed.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// writeFileAtomic writes data to path through a temporary file and a
// rename, so that path is never half-written.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
