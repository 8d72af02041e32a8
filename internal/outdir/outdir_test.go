package outdir

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
)

// snapshot lists everything under root (links not followed): each entry's
// path, type, permissions and content, one line each, sorted: two equal
// snapshots are folders left as they were.
func snapshot(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %s", filepath.ToSlash(rel), info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			line += " -> " + to
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %q", b)
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, to, at string) {
	t.Helper()
	if err := os.Symlink(to, at); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// out is what the tests write: a replaced file, a new one, a file in a
// new folder, and c.yaml, which each case makes unwritable in its own way.
var out = []File{
	{Name: "a.yaml", Data: []byte("a: new\n")},
	{Name: "b.yaml", Data: []byte("b: new\n")},
	{Name: filepath.Join("new", "d.yaml"), Data: []byte("d: new\n")},
	{Name: filepath.Join("sub", "c.yaml"), Data: []byte("c: new\n")},
}

// TestWriteRefusesTargets: a target that cannot be written is found before
// anything is written, the error names it, and the folder is left as it
// was (files, folders, permissions, no temporary file). The first case is
// the issue's: with c.yaml a folder, a.yaml and b.yaml used to be replaced
// before the run failed on c.yaml.
func TestWriteRefusesTargets(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, dir, elsewhere string)
		err   string // the message, after the folder's path
	}{
		{"a folder where the file goes", func(t *testing.T, dir, _ string) {
			writeTree(t, dir, map[string]string{"sub/c.yaml/x": "x\n"})
		}, "/sub/c.yaml: a folder, where the file must be written"},
		{"an empty folder where the file goes", func(t *testing.T, dir, _ string) {
			os.MkdirAll(filepath.Join(dir, "sub", "c.yaml"), 0o755)
		}, "/sub/c.yaml: a folder, where the file must be written"},
		{"a file where a folder goes", func(t *testing.T, dir, _ string) {
			writeTree(t, dir, map[string]string{"sub": "a file\n"})
		}, "/sub: a file, where a folder must be"},
		{"a link to a folder outside", func(t *testing.T, dir, elsewhere string) {
			symlink(t, elsewhere, filepath.Join(dir, "sub"))
		}, "/sub: a symbolic link (to ELSEWHERE) inside the output folder: kmerge writes only inside the folder, and does not follow links there"},
		{"a link to a folder inside", func(t *testing.T, dir, _ string) {
			os.Mkdir(filepath.Join(dir, "real"), 0o755)
			symlink(t, "real", filepath.Join(dir, "sub"))
		}, "/sub: a symbolic link (to real) inside the output folder: kmerge writes only inside the folder, and does not follow links there"},
		{"a link as the file", func(t *testing.T, dir, elsewhere string) {
			os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			symlink(t, filepath.Join(elsewhere, "c.yaml"), filepath.Join(dir, "sub", "c.yaml"))
		}, "/sub/c.yaml: a symbolic link (to ELSEWHERE/c.yaml): kmerge does not write through links in the output folder, nor replace them"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, elsewhere := t.TempDir(), t.TempDir()
			writeTree(t, dir, map[string]string{"a.yaml": "a: old\n"})
			writeTree(t, elsewhere, map[string]string{"c.yaml": "c: outside\n"})
			c.setup(t, dir, elsewhere)
			before, beforeElsewhere := snapshot(t, dir), snapshot(t, elsewhere)
			err := Write(dir, out, Options{})
			want := dir + strings.ReplaceAll(c.err, "ELSEWHERE", elsewhere)
			var te *TargetError
			if !errors.As(err, &te) || err.Error() != filepath.FromSlash(want) {
				t.Errorf("Write: %v\nwant: %s", err, want)
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("the folder changed:\n%s\nwas:\n%s", after, before)
			}
			if after := snapshot(t, elsewhere); after != beforeElsewhere {
				t.Errorf("the folder outside changed:\n%s\nwas:\n%s", after, beforeElsewhere)
			}
		})
	}
}

// TestWriteUnchangedThroughLink: a file that already holds its output is
// not written, so a link on its way is no reason to refuse the run.
func TestWriteUnchangedThroughLink(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	writeTree(t, elsewhere, map[string]string{"c.yaml": "c: new\n"})
	symlink(t, elsewhere, filepath.Join(dir, "sub"))
	if err := Write(dir, out, Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.yaml")); string(b) != "a: new\n" {
		t.Errorf("a.yaml: %q", b)
	}
}

// countdown is a context that is cancelled once its Err has been asked
// n times: Write asks before each file it writes and each rename, so
// every n stops it at another step.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestWriteUndo stops Write at every step (before each temporary file,
// before each rename) and checks that the folder is then as it was:
// replaced files back (content and permissions), new files and the
// folders created for them gone, no temporary file left. Then a run to the
// end writes everything.
func TestWriteUndo(t *testing.T) {
	for n := int64(0); ; n++ {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"a.yaml": "a: old\n", "sub/c.yaml": "c: old\n"})
		if err := os.Chmod(filepath.Join(dir, "a.yaml"), 0o640); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		ctx := &countdown{Context: context.Background()}
		ctx.n.Store(n)
		err := Write(dir, out, Options{Context: ctx})
		if err == nil {
			if n < 8 { // 4 files written, 4 renames
				t.Fatalf("Write stopped after %d steps succeeded", n)
			}
			for _, f := range out {
				if b, _ := os.ReadFile(filepath.Join(dir, f.Name)); string(b) != string(f.Data) {
					t.Errorf("%s: %q, want %q", f.Name, b, f.Data)
				}
			}
			if info, _ := os.Stat(filepath.Join(dir, "a.yaml")); info.Mode().Perm() != 0o640 {
				t.Errorf("a.yaml replaced with permissions %v, want its own, 0640", info.Mode().Perm())
			}
			if s := snapshot(t, dir); strings.Contains(s, ".kmerge-") {
				t.Errorf("temporary files left:\n%s", s)
			}
			return
		}
		var ce *CanceledError
		if !errors.As(err, &ce) || !errors.Is(err, context.Canceled) || err.Error() != dir+": stopped (context canceled): nothing was written" {
			t.Fatalf("stopped after %d steps: %v", n, err)
		}
		if after := snapshot(t, dir); after != before {
			t.Errorf("stopped after %d steps, the folder changed:\n%s\nwas:\n%s", n, after, before)
		}
	}
}

// TestWriteUndoFailure: a file that cannot be created fails the run after
// other files were written to temporary files: they are removed, and the
// folder is as it was. The file that fails has a name of 250 bytes, which
// file systems take (255 at most) but not with the temporary name's 20
// more.
func TestWriteUndoFailure(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows limits whole paths, not names")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.yaml": "a: old\n", "sub/c.yaml": "c: old\n"})
	long := strings.Repeat("x", 245) + ".yaml"
	if err := os.WriteFile(filepath.Join(dir, long), []byte("x: old\n"), 0o644); err != nil {
		t.Skipf("the file system takes no name of 250 bytes: %v", err)
	}
	before := snapshot(t, dir)
	files := append(append([]File{}, out...), File{Name: long, Data: []byte("x: new\n")})
	err := Write(dir, files, Options{})
	if err == nil || !strings.Contains(err.Error(), "file name too long") {
		t.Errorf("Write: %v, want a name too long", err)
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("the folder changed:\n%s\nwas:\n%s", after, before)
	}
}

// TestRemoveStale: after a successful run, the temporary files a killed
// run left next to its targets are gone; other files that look alike are
// not kmerge's (other names, no kmerge part, no digits, another target)
// and stay.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	stale := []string{".a.yaml.kmerge-123.tmp", ".b.yaml.kmerge-4294967295.tmp", "sub/.c.yaml.kmerge-7.tmp"}
	kept := []string{".a.yaml.123.tmp", ".a.yaml.kmerge-x1.tmp", ".a.yaml.kmerge-.tmp", ".z.yaml.kmerge-1.tmp", "a.yaml.kmerge-1.tmp", ".a.yaml.kmerge-1.tmp.bak", "sub/.a.yaml.kmerge-1.tmp"}
	files := map[string]string{"a.yaml": "a: new\n"} // unchanged: its stale files go too
	for _, n := range append(append([]string{}, stale...), kept...) {
		files[n] = "left by a killed run\n"
	}
	writeTree(t, dir, files)
	if err := Write(dir, out, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, n := range stale {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s was not removed", n)
		}
	}
	for _, n := range kept {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s was removed", n)
		}
	}
}

func TestStaleTarget(t *testing.T) {
	for _, c := range []struct {
		name, target string
		ok           bool
	}{
		{".a.yaml.kmerge-1.tmp", "a.yaml", true},
		{"..a.kmerge-1.tmp", ".a", true},
		{".a.kmerge-b.yaml.kmerge-12.tmp", "a.kmerge-b.yaml", true},
		{".a.yaml.kmerge-.tmp", "", false},
		{".a.yaml.kmerge-1a.tmp", "", false},
		{"a.yaml.kmerge-1.tmp", "", false},
		{".kmerge-1.tmp", "", false},
		{".a.yaml.1.tmp", "", false},
	} {
		target, ok := staleTarget(c.name)
		if ok != c.ok || ok && target != c.target {
			t.Errorf("staleTarget(%q) = %q, %v; want %q, %v", c.name, target, ok, c.target, c.ok)
		}
	}
	// tempName makes names staleTarget knows
	name := filepath.Base(tempName(filepath.Join("x", "a.yaml")))
	if target, ok := staleTarget(name); !ok || target != "a.yaml" {
		t.Errorf("staleTarget(%q) = %q, %v", name, target, ok)
	}
}

// TestLock: a second lock on a locked folder fails at once, naming the
// lock file and the process; after Unlock the folder can be locked again,
// and the lock file is gone. A folder the lock created is removed again
// when it is still empty.
func TestLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out", "deep")
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(dir)
	var le *LockedError
	want := fmt.Sprintf("%s: another kmerge run (process %d) is writing this folder: it holds the lock %s", dir, os.Getpid(), filepath.Join(dir, LockName))
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		if !errors.As(err, &le) || err.Error() != want {
			t.Errorf("a second lock: %v\nwant: %s", err, want)
		}
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Dir(dir)); err == nil {
		t.Errorf("the folders the lock created are left")
	}
	os.MkdirAll(dir, 0o755)
	l, err = Acquire(dir)
	if err != nil {
		t.Fatalf("locking again: %v", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, LockName)); err == nil {
		t.Errorf("the lock file is left")
	}
	if _, err := os.Lstat(dir); err != nil {
		t.Errorf("a folder the lock did not create was removed")
	}
}

// TestLockLeftByKilledRun: a lock file that a killed run left (no process
// holds it) locks nothing.
func TestLockLeftByKilledRun(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{LockName: "999999\n"})
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
}

// TestWriteFileThroughLink: WriteFile on a symbolic link (kmerge fmt -w
// of a linked .kpatch file, kmerge init --force of a linked kmerge.yaml)
// writes the file the link leads to, keeping its permissions, and the link
// stays a link. It used to rename the new text onto the link: the link
// was replaced by a copy, and the file it led to was left unformatted,
// exit 0. A link that leads nowhere is an error naming it.
func TestWriteFileThroughLink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real", "a.kpatch")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "a.kpatch")
	symlink(t, filepath.Join("real", "a.kpatch"), link)
	if err := WriteFile(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link is no longer a link: %v, %v", info, err)
	}
	if b, err := os.ReadFile(real); string(b) != "new\n" {
		t.Errorf("the file the link leads to holds %q (%v), want %q", b, err, "new\n")
	}
	if info, err := os.Stat(real); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("the file's permissions: %v (%v), want 0640", info.Mode().Perm(), err)
	}
	dangling := filepath.Join(dir, "nowhere.kpatch")
	symlink(t, "missing.kpatch", dangling)
	if err := WriteFile(dangling, []byte("x\n")); err == nil || !strings.Contains(err.Error(), "leads nowhere") {
		t.Errorf("a link that leads nowhere: %v, want an error saying so", err)
	}
}

// TestWriteRefusesOwnNames: a file to write named as kmerge's own files
// are is refused, naming it, before anything is written. Both were
// written, exit 0, and then lost: an output named as a temporary file of
// another target (.a.yaml.kmerge-5.tmp beside a.yaml) was removed at once
// as what a killed run left, and one named .kmerge.lock was renamed over
// the run's lock (another run could then take the folder meanwhile), and
// removed by the next run as a lock a killed run left. Found by the attack
// of issue 25 (kmerge apply -f a.yaml -f .a.yaml.kmerge-5.tmp --output-dir).
func TestWriteRefusesOwnNames(t *testing.T) {
	for _, c := range []struct{ name, reason string }{
		{".a.yaml.kmerge-5.tmp", "named as kmerge's temporary files are (.NAME.kmerge-DIGITS.tmp), which a run removes as left by a killed run: rename the file"},
		{filepath.Join("sub", ".c.yaml.kmerge-1.tmp"), "named as kmerge's temporary files are (.NAME.kmerge-DIGITS.tmp), which a run removes as left by a killed run: rename the file"},
		{LockName, "the name of kmerge's lock file, which a run removes: rename the file"},
		{filepath.Join("sub", LockName), "the name of kmerge's lock file, which a run removes: rename the file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"a.yaml": "a: old\n"})
			before := snapshot(t, dir)
			files := append(append([]File{}, out...), File{Name: c.name, Data: []byte("x: 1\n")})
			err := Write(dir, files, Options{})
			want := filepath.Join(dir, c.name) + ": " + c.reason
			var te *TargetError
			if !errors.As(err, &te) || err.Error() != want {
				t.Errorf("Write: %v\nwant: %s", err, want)
			}
			if after := snapshot(t, dir); after != before {
				t.Errorf("the folder changed:\n%s\nwas:\n%s", after, before)
			}
		})
	}
}
