package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kmerge/kmerge/internal/suggest"
)

// missingError is a path given on the command line that cannot be read:
// it names the flag (or argument) it came from, and the nearest names in
// its folder when it does not exist.
type missingError struct {
	flag, path string
	err        error
}

func (e *missingError) Error() string {
	if !errors.Is(e.err, fs.ErrNotExist) {
		var pe *fs.PathError
		if errors.As(e.err, &pe) {
			return fmt.Sprintf("%s %s: %v", e.flag, e.path, pe.Err)
		}
		return fmt.Sprintf("%s %s: %v", e.flag, e.path, e.err)
	}
	msg := fmt.Sprintf("%s %s: no such file or folder", e.flag, e.path)
	dir, base := filepath.Split(e.path)
	if dir == "" {
		dir = "."
	}
	if entries, err := os.ReadDir(dir); err == nil {
		var names []string
		for _, en := range entries {
			names = append(names, en.Name())
		}
		if s := suggest.DidYouMean(base, names, func(n string) string { return filepath.Join(filepath.Dir(e.path), n) }); s != "" {
			msg += " (" + s + ")"
		}
	}
	return msg
}

func (e *missingError) Unwrap() error { return e.err }

// checkPaths checks that the paths a flag (or an argument) names exist,
// before anything reads them: a missing one is an error that names the
// flag, rather than the bare error of the call that would have opened
// it. "-" (standard input) is no path.
func checkPaths(flag string, paths ...string) error {
	for _, p := range paths {
		if p == "-" || p == "" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return &missingError{flag: flag, path: p, err: err}
		}
	}
	return nil
}
