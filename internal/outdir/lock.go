package outdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockName is the lock file of an output folder, in the folder.
const LockName = ".kmerge.lock"

// Lock is the lock on an output folder, held from Acquire to Unlock. It is
// a lock file in the folder, locked with flock(2) on Linux, macOS and the
// BSDs and with LockFileEx on Windows: the system lets go of it when its
// process ends, however it ends, so a lock file a killed run left locks
// nothing. Elsewhere (other systems, a file system without locks) there
// is no lock.
type Lock struct {
	Dir     string
	file    *os.File
	path    string
	created []string // folders Acquire created, parents first
}

// LockedError is a folder locked by another run.
type LockedError struct {
	Dir  string
	File string // the lock file
	PID  int    // the process holding it, 0 if unknown
}

func (e *LockedError) Error() string {
	by := "another kmerge run"
	if e.PID > 0 {
		by += fmt.Sprintf(" (process %d)", e.PID)
	}
	return fmt.Sprintf("%s: %s is writing this folder: it holds the lock %s", e.Dir, by, e.File)
}

// Acquire locks the output folder dir, creating it if it is missing (Unlock
// removes it again if it is still empty then). It does not wait: a folder
// locked by another process is a *LockedError.
func Acquire(dir string) (*Lock, error) {
	created, err := mkdirAll(dir)
	if err != nil {
		return nil, err
	}
	l := &Lock{Dir: dir, path: filepath.Join(dir, LockName), created: created}
	for range 100 {
		f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			l.removeCreated()
			return nil, err
		}
		ok, err := lockFile(f)
		if err != nil {
			f.Close()
			l.removeCreated()
			return nil, fmt.Errorf("%s: cannot lock: %w", l.path, err)
		}
		if !ok {
			pid := readPID(f)
			f.Close()
			l.removeCreated()
			return nil, &LockedError{Dir: dir, File: l.path, PID: pid}
		}
		// the holder before may have removed the file between our open
		// and our lock: then the lock is on a file nobody else will open
		fi, err1 := f.Stat()
		pi, err2 := os.Stat(l.path)
		if err1 == nil && err2 == nil && os.SameFile(fi, pi) {
			l.file = f
			if f.Truncate(0) == nil {
				f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0) //nolint:errcheck // the pid is for messages only
			}
			return l, nil
		}
		unlockFile(f) //nolint:errcheck // closing unlocks too
		f.Close()
	}
	l.removeCreated()
	return nil, fmt.Errorf("%s: cannot lock: the lock file keeps being replaced", l.path)
}

// Unlock removes the lock file and lets go of the lock, then removes the
// folders Acquire created if they are empty.
func (l *Lock) Unlock() error {
	if l == nil || l.file == nil {
		return nil
	}
	// removed while locked, so that no one locks the file being removed
	// (on Windows an open file cannot be removed: after closing it)
	removed := os.Remove(l.path) == nil
	unlockFile(l.file) //nolint:errcheck // closing unlocks too
	err := l.file.Close()
	l.file = nil
	if !removed {
		os.Remove(l.path)
	}
	l.removeCreated()
	return err
}

func (l *Lock) removeCreated() {
	for i := len(l.created) - 1; i >= 0; i-- {
		if os.Remove(l.created[i]) != nil {
			break
		}
	}
}

func readPID(f *os.File) int {
	b, err := io.ReadAll(io.LimitReader(f, 32))
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}

// mkdirAll creates dir and its missing parents (0777 less the umask), and
// returns those it created, parents first.
func mkdirAll(dir string) ([]string, error) {
	info, err := os.Stat(dir)
	if err == nil {
		if !info.IsDir() {
			return nil, &TargetError{Path: dir, Reason: "not a folder"}
		}
		return nil, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var created []string
	if parent := filepath.Dir(dir); parent != dir {
		if created, err = mkdirAll(parent); err != nil {
			return nil, err
		}
	}
	if err := os.Mkdir(dir, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	} else if err == nil {
		created = append(created, dir)
	}
	return created, nil
}
