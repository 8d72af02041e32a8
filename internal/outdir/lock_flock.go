//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package outdir

import (
	"errors"
	"os"
	"syscall"
)

// lockFile locks f with flock(2) without waiting; false when another open
// file holds the lock.
func lockFile(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP):
			return true, nil // a file system without locks: no lock (see Lock)
		}
		return false, err
	}
}

// tryShared takes a shared lock on f without waiting, and lets go of it
// at once: true when no open file holds f's lock (a shared lock does not
// keep another prober out).
func tryShared(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, unlockFile(f)
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		}
		return false, err // no locks here: nothing to tell
	}
}

func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
