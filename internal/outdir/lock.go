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

	"github.com/kmerge/kmerge/internal/readfile"
)

// LockName is the lock file of an output folder, in the folder.
const LockName = ".kmerge.lock"

// Lock is the lock on an output folder, held from Acquire to Unlock. It is
// a lock file in the folder, locked with flock(2) on Linux, macOS and the
// BSDs and with LockFileEx on Windows: the system lets go of it when its
// process ends, however it ends, so a lock file a killed run left locks
// nothing. Elsewhere (other systems, a file system without locks) there
// is no lock.
//
// A run writes its folder's own entries and the folders below it (not
// those whose name starts with a dot, not through links: see Write), so
// two runs meet when one's folder is the other's, or holds it. Acquire
// takes the folder's own lock first, then looks at the lock files of the
// folders above it and below it: one that a run holds is a *LockedError.
// Of two runs on nested folders that start together, each may see the
// other's lock, and both fail; they never both write.
type Lock struct {
	Dir     string
	file    *os.File
	path    string
	real    string   // Dir, absolute, links followed
	created []string // folders Acquire created, parents first
}

// LockedError is a folder locked by another run: the folder itself, or a
// folder inside it or around it, which the other run writes.
type LockedError struct {
	Dir  string
	File string // the lock file
	PID  int    // the process holding it, 0 if unknown
	// Folder is the folder the other run writes when it is not Dir: a
	// folder below Dir, or (Above) one that holds Dir; "" when it is Dir.
	Folder string
	Above  bool
}

func (e *LockedError) Error() string {
	by := "another kmerge run"
	if e.PID > 0 {
		by += fmt.Sprintf(" (process %d)", e.PID)
	}
	switch {
	case e.Folder != "" && e.Above:
		return fmt.Sprintf("%s: %s is writing %s, a folder that holds this one: it holds the lock %s", e.Dir, by, e.Folder, e.File)
	case e.Folder != "":
		return fmt.Sprintf("%s: %s is writing %s, a folder inside this one: it holds the lock %s", e.Dir, by, e.Folder, e.File)
	}
	return fmt.Sprintf("%s: %s is writing this folder: it holds the lock %s", e.Dir, by, e.File)
}

// Acquire locks the output folder dir, creating it if it is missing (Unlock
// removes it again if it is still empty then). It does not wait: a folder
// locked by another process, or one inside it or around it that another
// process writes (see Lock), is a *LockedError.
//
// The lock file is created new (O_EXCL), and only a file Acquire created
// is written (the process id). One that is there already is a lock file a
// run holds, or one a killed run left, which is removed and made anew;
// it is opened without following a link, and must be a regular file of
// one name: a symbolic link (or a hard link) planted there, as a
// repository can hold one, is a *TargetError, and what it leads to is
// neither opened for writing nor written.
func Acquire(dir string) (*Lock, error) {
	created, err := mkdirAll(dir)
	if err != nil {
		return nil, err
	}
	l := &Lock{Dir: dir, path: filepath.Join(dir, LockName), created: created}
	if err := l.lock(); err != nil {
		l.removeCreated()
		return nil, err
	}
	// the lock is taken (and seen by any run that looks from now on):
	// now look for the runs that took theirs before
	if err := l.nested(); err != nil {
		l.Unlock() //nolint:errcheck // the error is the one to report
		return nil, err
	}
	return l, nil
}

// lock takes the lock of the folder's own lock file.
func (l *Lock) lock() error {
	for range 100 {
		f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE|os.O_EXCL|readfile.NoFollow|readfile.NonBlock, 0o666)
		if err == nil {
			ok, err := lockFile(f)
			switch {
			case err != nil:
				l.drop(f)
				return fmt.Errorf("%s: cannot lock: %w", l.path, err)
			case !ok:
				// another run took the new file for one a killed run
				// left, and holds it now
				f.Close()
				return &LockedError{Dir: l.Dir, File: l.path}
			case !l.current(f):
				// that run removed it, and let go: again
				unlockFile(f) //nolint:errcheck // closing unlocks too
				f.Close()
				continue
			}
			l.file = f
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0) //nolint:errcheck // the pid is for messages only
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return checkLockFile(l.path, err)
		}
		// a lock file is there: a run's, or one a killed run left
		f, err = openLockFile(l.path, os.O_RDWR)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed meanwhile
		}
		if err != nil {
			return err
		}
		ok, err := lockFile(f)
		if err != nil {
			f.Close()
			return fmt.Errorf("%s: cannot lock: %w", l.path, err)
		}
		if !ok {
			pid := readPID(f)
			f.Close()
			return &LockedError{Dir: l.Dir, File: l.path, PID: pid}
		}
		// left by a run that ended without removing it (killed): it is
		// removed while locked, so that no one locks it meanwhile, and
		// made anew
		l.drop(f)
	}
	return fmt.Errorf("%s: cannot lock: the lock file keeps being replaced", l.path)
}

// current reports whether the open file f is the file at the lock file's
// path (a file removed, or replaced, since it was opened is not).
func (l *Lock) current(f *os.File) bool {
	fi, err1 := f.Stat()
	pi, err2 := os.Lstat(l.path)
	return err1 == nil && err2 == nil && os.SameFile(fi, pi)
}

// drop removes the lock file f, if it is still at its path, and closes it.
func (l *Lock) drop(f *os.File) {
	same := l.current(f)
	removed := same && os.Remove(l.path) == nil
	unlockFile(f) //nolint:errcheck // closing unlocks too
	f.Close()
	if same && !removed {
		os.Remove(l.path) // Windows: not while it is open
	}
}

// openLockFile opens the existing lock file at path without following a
// link and without waiting, and checks that it is a regular file of one
// name (a *TargetError otherwise); flag is os.O_RDONLY or os.O_RDWR.
func openLockFile(path string, flag int) (*os.File, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if err := lockFileShape(path, info); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, flag|readfile.NoFollow|readfile.NonBlock, 0)
	if err != nil {
		return nil, checkLockFile(path, err)
	}
	fi, err := f.Stat()
	if err == nil && !os.SameFile(fi, info) {
		err = &TargetError{Path: path, Reason: "replaced while kmerge opened it; run again"}
	}
	if err == nil {
		err = lockFileShape(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// lockFileShape refuses a lock file that is not a regular file of one
// name: what a run makes. A link there was planted.
func lockFileShape(path string, info fs.FileInfo) error {
	const fix = "kmerge keeps its lock there, and neither follows nor replaces this: remove it"
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return &TargetError{Path: path, Reason: "a symbolic link" + linkText(path) + ", not a lock file: " + fix}
	case !info.Mode().IsRegular():
		return &TargetError{Path: path, Reason: readfile.Describe(info.Mode().Type()) + ", not a lock file: " + fix}
	case links(info) > 1:
		return &TargetError{Path: path, Reason: fmt.Sprintf("a file of %d names (hard links), not a lock file: %s", links(info), fix)}
	}
	return nil
}

// checkLockFile turns the error of opening the lock file at path into a
// *TargetError when a link there is why (O_NOFOLLOW's ELOOP, or EEXIST for
// a link that leads nowhere).
func checkLockFile(path string, err error) error {
	if info, lerr := os.Lstat(path); lerr == nil {
		if serr := lockFileShape(path, info); serr != nil {
			return serr
		}
	}
	return err
}

// nested looks for another run writing a folder above the lock's or below
// it: a lock file there that a run holds. Folders below are looked at as
// far as a run writes: not through links, not into folders whose name
// starts with a dot. A folder that cannot be listed is passed over.
func (l *Lock) nested() error {
	real, err := filepath.EvalSymlinks(l.Dir)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return err
	}
	l.real = real
	for d := filepath.Dir(real); ; d = filepath.Dir(d) {
		if err := l.probe(d, l.display(d), true); err != nil {
			return err
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	todo := []string{real}
	for len(todo) > 0 {
		d := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for i := len(entries) - 1; i >= 0; i-- { // in name order, depth first
			e := entries[i]
			switch {
			case e.Type().IsDir() && !strings.HasPrefix(e.Name(), "."):
				todo = append(todo, filepath.Join(d, e.Name()))
			case e.Name() == LockName && d != real:
				rel, _ := filepath.Rel(real, d)
				if err := l.probe(d, filepath.Join(l.Dir, rel), false); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// display names a folder above the lock's in messages: from the current
// folder when Dir was named so and the folder is below it, else in full.
func (l *Lock) display(d string) string {
	if filepath.IsAbs(l.Dir) {
		return d
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, d); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return d
}

// probe reports the run that holds the lock file of the folder d (named
// name in messages), nil when none does: a lock file that is missing, left
// by a killed run, or not one (a link, a hard link: no run holds it).
func (l *Lock) probe(d, name string, above bool) error {
	path := filepath.Join(d, LockName)
	f, err := openLockFile(path, os.O_RDONLY)
	if err != nil {
		return nil
	}
	defer f.Close()
	free, err := tryShared(f)
	if err != nil || free {
		return nil
	}
	file := filepath.Join(name, LockName)
	return &LockedError{Dir: l.Dir, File: file, PID: readPID(f), Folder: name, Above: above}
}

// Holds reports whether the lock is dir's: the folder it locked, however
// dir names it (links followed).
func (l *Lock) Holds(dir string) bool {
	if l == nil || l.file == nil || l.real == "" {
		return false
	}
	a, err1 := os.Stat(dir)
	b, err2 := os.Stat(l.real)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// Unlock removes the lock file and lets go of the lock, then removes the
// folders Acquire created if they are empty.
func (l *Lock) Unlock() error {
	if l == nil || l.file == nil {
		return nil
	}
	// removed while locked, so that no one locks the file being removed
	// (on Windows an open file cannot be removed: after closing it), and
	// only if it is still this lock's file
	same := l.current(l.file)
	removed := same && os.Remove(l.path) == nil
	unlockFile(l.file) //nolint:errcheck // closing unlocks too
	err := l.file.Close()
	l.file = nil
	if same && !removed {
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

// readPID reads the process id a lock file holds (a regular file, checked
// by openLockFile).
func readPID(f *os.File) int {
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 32))
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
