//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package outdir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f, failing the test when it has not returned after a few
// seconds (opening a named pipe waits for a writer forever; reading a
// device never ends).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still running after 10 s", what)
	}
}

// TestLockPlanted: a .kmerge.lock that a repository planted in the output
// folder (a link to a file outside, a hard link to one, a link that leads
// nowhere, a named pipe, a link to one) is refused, naming it; the file
// it leads to is neither written nor created, and it stays as it was. The
// link used to be followed: the file outside was truncated and given
// kmerge's process id (exit 0), and the link removed at the end; a link
// that leads nowhere created the file it names.
func TestLockPlanted(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, out, victim string)
		why   string
	}{
		{"a symbolic link to a file", func(t *testing.T, out, victim string) {
			symlink(t, victim, filepath.Join(out, LockName))
		}, "a symbolic link (to "},
		{"a hard link to a file", func(t *testing.T, out, victim string) {
			if err := os.Link(victim, filepath.Join(out, LockName)); err != nil {
				t.Skipf("no hard links here: %v", err)
			}
		}, "a file of 2 names (hard links)"},
		{"a symbolic link that leads nowhere", func(t *testing.T, out, victim string) {
			symlink(t, victim+".new", filepath.Join(out, LockName))
		}, "a symbolic link (to "},
		{"a named pipe", func(t *testing.T, out, _ string) {
			if err := syscall.Mkfifo(filepath.Join(out, LockName), 0o644); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
		}, "a named pipe (FIFO), not a lock file"},
		{"a symbolic link to a named pipe", func(t *testing.T, out, victim string) {
			if err := syscall.Mkfifo(victim+".pipe", 0o644); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			symlink(t, victim+".pipe", filepath.Join(out, LockName))
		}, "a symbolic link (to "},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			out, elsewhere := filepath.Join(root, "out"), filepath.Join(root, "elsewhere")
			victim := filepath.Join(elsewhere, "victim.txt")
			writeTree(t, root, map[string]string{"out/a.yaml": "a: old\n", "elsewhere/victim.txt": "precious\n"})
			c.plant(t, out, victim)
			before, beforeElsewhere := snapshot(t, out), snapshot(t, elsewhere)
			var err error
			within(t, "Acquire", func() {
				var l *Lock
				if l, err = Acquire(out); err == nil {
					l.Unlock()
				}
			})
			var te *TargetError
			want := filepath.Join(out, LockName) + ": " + c.why
			if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Acquire: %v\nwant: %s...", err, want)
			}
			if after := snapshot(t, out); after != before {
				t.Errorf("the output folder changed:\n%s\nwas:\n%s", after, before)
			}
			if after := snapshot(t, elsewhere); after != beforeElsewhere {
				t.Errorf("the folder outside changed:\n%s\nwas:\n%s", after, beforeElsewhere)
			}
		})
	}
}

// TestLockNested: a run writes its folder and the folders below it, so a
// folder is refused while another run writes a folder below it or above
// it, as well as the folder itself; runs on two folders side by side do
// not meet. Folders below are looked at as a run writes them: not through
// links, not into folders whose name starts with a dot; a lock file that
// a killed run left below locks nothing; a folder named through a link is
// the folder it leads to. Two runs on base and base/sub used to both
// write (exit 0), each losing the other's edits of base/sub.
func TestLockNested(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "base")
	sub, other := filepath.Join(base, "sub"), filepath.Join(base, "other")
	hidden, linked := filepath.Join(base, ".hidden", "x"), filepath.Join(root, "elsewhere")
	for _, d := range []string{sub, other, hidden, linked} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	symlink(t, base, filepath.Join(root, "link"))
	symlink(t, linked, filepath.Join(base, "linked"))
	lock := func(dir string) *Lock {
		t.Helper()
		l, err := Acquire(dir)
		if err != nil {
			t.Fatalf("Acquire(%s): %v", dir, err)
		}
		return l
	}
	refused := func(dir, folder string, above bool) {
		t.Helper()
		l, err := Acquire(dir)
		if err == nil {
			l.Unlock()
		}
		var le *LockedError
		if !errors.As(err, &le) || le.Folder != folder || le.Above != above || le.PID != os.Getpid() {
			t.Errorf("Acquire(%s): %v; want another run's lock on %q (above: %v)", dir, err, folder, above)
		}
	}

	held := lock(sub)
	refused(base, sub, false)
	refused(root, sub, false)
	refused(filepath.Join(root, "link"), filepath.Join(root, "link", "sub"), false)
	refused(filepath.Join(root, "link", "sub"), "", false) // the same folder, through a link
	refused(filepath.Join(sub, "deeper"), sub, true)
	lock(other).Unlock() // side by side
	held.Unlock()

	held = lock(base)
	refused(sub, base, true)
	refused(filepath.Join(root, "link", "sub"), base, true)
	held.Unlock()

	for _, dir := range []string{hidden, linked} {
		held = lock(dir)
		lock(base).Unlock() // base's runs write neither
		held.Unlock()
	}
	writeTree(t, root, map[string]string{"base/sub/" + LockName: "999999\n"}) // a killed run's
	lock(base).Unlock()
}

// TestWriteRefusesLinkToPipe: a link in the output folder to a named pipe
// (or a device) where a file must be written is refused as any link is,
// without being opened. To tell whether the file already held its output,
// it used to be read: a named pipe waited for a writer forever, a link to
// /dev/zero was read until memory ran out.
func TestWriteRefusesLinkToPipe(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	pipe := filepath.Join(elsewhere, "c.yaml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	symlink(t, pipe, filepath.Join(dir, "sub", "c.yaml"))
	var err error
	within(t, "Write", func() { err = Write(dir, out, Options{}) })
	var te *TargetError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "c.yaml: a symbolic link (to "+pipe+")") {
		t.Errorf("Write: %v", err)
	}
}

// BenchmarkAcquire: the lock of a folder of 10,000 files in 100 folders,
// as an in-place run of that many manifests takes it: its own lock file,
// the lock files of the folders above, and a listing of each folder below
// (what a run writes) for another run's lock file.
func BenchmarkAcquire(b *testing.B) {
	dir := b.TempDir()
	for i := range 100 {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", i))
		if err := os.Mkdir(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := range 100 {
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%03d.yaml", j)), []byte("a: 1\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	for b.Loop() {
		l, err := Acquire(dir)
		if err != nil {
			b.Fatal(err)
		}
		l.Unlock()
	}
}
