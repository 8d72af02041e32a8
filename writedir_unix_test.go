//go:build unix

package kmerge

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteDirUmask: new files get 0666 less the umask and new folders 0777
// less it, as files a shell creates do (they used to be 0644 whatever the
// umask); a replaced file keeps its own permissions. The umask is the
// process's: this test changes it and puts it back, and runs alone.
func TestWriteDirUmask(t *testing.T) {
	for _, c := range []struct {
		umask          int
		file, dir, old os.FileMode
	}{
		{0o077, 0o600, 0o700, 0o640},
		{0o022, 0o644, 0o755, 0o600},
		{0o002, 0o664, 0o775, 0o604},
	} {
		out := t.TempDir()
		if err := os.WriteFile(filepath.Join(out, "old.yaml"), []byte("a: old\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(out, "old.yaml"), c.old); err != nil {
			t.Fatal(err)
		}
		res := &ApplyResult{Files: []*File{
			{Path: "in/old.yaml", Rel: "old.yaml", Output: []byte("a: new\n")},
			{Path: "in/new.yaml", Rel: "new.yaml", Output: []byte("b: new\n")},
			{Path: "in/sub/new.yaml", Rel: filepath.Join("sub", "new.yaml"), Output: []byte("c: new\n")},
		}}
		prev := syscall.Umask(c.umask)
		err := res.WriteDir(out)
		syscall.Umask(prev)
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]os.FileMode{"old.yaml": c.old, "new.yaml": c.file, "sub": c.dir | os.ModeDir, "sub/new.yaml": c.file} {
			info, err := os.Stat(filepath.Join(out, name))
			if err != nil || info.Mode() != want {
				t.Errorf("umask %04o: %s is %v (%v), want %v", c.umask, name, info.Mode(), err, want)
			}
		}
	}
}
