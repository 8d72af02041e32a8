//go:build windows

package outdir

import (
	"errors"
	"os"
	"syscall"
	"unsafe"
)

const (
	lockfileFailImmediately = 0x1
	lockfileExclusiveLock   = 0x2
	errorLockViolation      = syscall.Errno(33)
	errorIOPending          = syscall.Errno(997)
)

// lockFile locks the first byte of f with LockFileEx without waiting;
// false when another handle holds the lock.
func lockFile(f *os.File) (bool, error) {
	proc := syscall.NewLazyDLL("kernel32.dll").NewProc("LockFileEx")
	var ol syscall.Overlapped
	r, _, err := proc.Call(f.Fd(), lockfileExclusiveLock|lockfileFailImmediately, 0, 1, 0, uintptr(unsafe.Pointer(&ol)))
	switch {
	case r != 0:
		return true, nil
	case errors.Is(err, errorLockViolation), errors.Is(err, errorIOPending):
		return false, nil
	}
	return false, err
}

// tryShared takes a shared lock on the first byte of f without waiting,
// and lets go of it at once: true when no handle holds f's lock.
func tryShared(f *os.File) (bool, error) {
	proc := syscall.NewLazyDLL("kernel32.dll").NewProc("LockFileEx")
	var ol syscall.Overlapped
	r, _, err := proc.Call(f.Fd(), lockfileFailImmediately, 0, 1, 0, uintptr(unsafe.Pointer(&ol)))
	switch {
	case r != 0:
		return true, unlockFile(f)
	case errors.Is(err, errorLockViolation), errors.Is(err, errorIOPending):
		return false, nil
	}
	return false, err
}

func unlockFile(f *os.File) error {
	proc := syscall.NewLazyDLL("kernel32.dll").NewProc("UnlockFileEx")
	var ol syscall.Overlapped
	r, _, err := proc.Call(f.Fd(), 0, 1, 0, uintptr(unsafe.Pointer(&ol)))
	if r == 0 {
		return err
	}
	return nil
}
