//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package outdir

import "os"

// lockFile does not lock on this system (see Lock).
func lockFile(*os.File) (bool, error) { return true, nil }

func unlockFile(*os.File) error { return nil }

func tryShared(*os.File) (bool, error) { return true, nil }
