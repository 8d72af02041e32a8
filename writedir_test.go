package kmerge

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// listTree lists the files under root with their contents, links as
// links: what a run must leave as it was when it fails.
func listTree(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			lines = append(lines, rel+" -> "+to)
		case info.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			lines = append(lines, rel+" "+string(b))
		default:
			lines = append(lines, rel+"/")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestWriteDirAllOrNothing is the case: with out/c.yaml a
// non-empty folder, a.yaml and b.yaml were replaced and the run then
// failed on c.yaml. Every target is now checked first: the run fails
// naming c.yaml, and out/ is as it was.
func TestWriteDirAllOrNothing(t *testing.T) {
	out := t.TempDir()
	for name, text := range map[string]string{"a.yaml": "a: old\n", "b.yaml": "b: old\n", "c.yaml/keep.txt": "mine\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(out, name)), 0o755)
		if err := os.WriteFile(filepath.Join(out, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := listTree(t, out)
	res := &ApplyResult{Files: []*File{
		{Path: "in/a.yaml", Rel: "a.yaml", Output: []byte("a: new\n")},
		{Path: "in/b.yaml", Rel: "b.yaml", Output: []byte("b: new\n")},
		{Path: "in/c.yaml", Rel: "c.yaml", Output: []byte("c: new\n")},
	}}
	err := res.WriteDir(out)
	if want := filepath.Join(out, "c.yaml") + ": a folder, where the file must be written"; err == nil || err.Error() != want {
		t.Errorf("WriteDir: %v, want %s", err, want)
	}
	if after := listTree(t, out); after != before {
		t.Errorf("after the failure:\n%s\nwant it as it was:\n%s", after, before)
	}
}

// TestWriteDirSymlinkedFolder: a link to a folder elsewhere, inside the
// output folder, made kmerge write through it, outside the output folder,
// exit 0. It is refused with its path; nothing is written, inside or out.
func TestWriteDirSymlinkedFolder(t *testing.T) {
	out, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(out, "sub")); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	res := &ApplyResult{Files: []*File{
		{Path: "in/a.yaml", Rel: "a.yaml", Output: []byte("a: new\n")},
		{Path: "in/sub/b.yaml", Rel: filepath.Join("sub", "b.yaml"), Output: []byte("b: new\n")},
	}}
	err := res.WriteDir(out)
	want := filepath.Join(out, "sub") + ": a symbolic link (to " + elsewhere + ") inside the output folder: kmerge writes only inside the folder, and does not follow links there"
	if err == nil || err.Error() != want {
		t.Errorf("WriteDir: %v\nwant: %s", err, want)
	}
	if got := listTree(t, elsewhere); got != "." && got != "./" {
		t.Errorf("written outside the output folder:\n%s", got)
	}
	if got := listTree(t, out); got != "./\nsub -> "+elsewhere {
		t.Errorf("the output folder:\n%s", got)
	}
}

// TestWriteDirLocked: a folder another run is writing (it holds the lock)
// is refused at once, with the lock and the process named; nothing is
// written. The lock here is this process's own, taken through another
// open file, which flock(2) and LockFileEx tell apart as they tell two
// processes apart (cmd/kmerge runs two processes).
func TestWriteDirLocked(t *testing.T) {
	out := t.TempDir()
	lock, err := LockDir(out)
	if err != nil {
		t.Fatal(err)
	}
	res := &ApplyResult{Files: []*File{{Path: "in/a.yaml", Rel: "a.yaml", Output: []byte("a: new\n")}}}
	err = res.WriteDir(out)
	var le *DirLockedError
	if !errors.As(err, &le) || le.PID != os.Getpid() || le.File != filepath.Join(out, ".kmerge.lock") {
		t.Errorf("WriteDir on a locked folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "a.yaml")); err == nil {
		t.Errorf("a.yaml was written")
	}
	// with the lock given, it writes
	if err := res.WriteDirWith(out, WriteDirOptions{Lock: lock}); err != nil {
		t.Fatal(err)
	}
	if err := lock.Unlock(); err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, out); got != "./\na.yaml a: new\n" {
		t.Errorf("the folder:\n%s", got)
	}
}
