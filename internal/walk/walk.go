// Package walk lists the files of folders as kmerge reads them: recursively,
// in lexical order, skipping folders whose name starts with a dot, and
// following symbolic links.
package walk

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// LoopError is a symbolic link to a folder that holds it: following it
// would never end.
type LoopError struct {
	Link   string // the link, as a path below the folder walked
	Target string // the link's target, as the link holds it
	Folder string // the folder it leads to, resolved
}

func (e *LoopError) Error() string {
	return fmt.Sprintf("%s: a symbolic link (to %s) back to a folder that holds it: following it would never end", e.Link, e.Target)
}

// Files returns the files below dir that keep accepts, in lexical order.
// Folders below dir whose name starts with a dot (.git, .github) are
// skipped. Symbolic links are followed: dir itself may be one, a link to a
// file is the file (under the link's name), and a link to a folder is
// walked as the folder (its files under the link's name); a link to a
// folder that holds the link is a *LoopError. A link that leads nowhere is
// listed when keep accepts its name, so that reading it fails with the
// reason.
func Files(dir string, keep func(name string) bool) ([]string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return nil, err
	}
	var files []string
	err = walk(dir, []string{real}, keep, &files)
	return files, err
}

// walk lists the files of the folder dir, whose ancestors (dir's own real
// path last) are the real paths of the folders walked to reach it.
func walk(dir string, ancestors []string, keep func(string) bool, files *[]string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		real := ""
		if e.Type()&fs.ModeSymlink != 0 {
			info, err := os.Stat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				// leads nowhere: listed by name, reading it says so
			case err != nil:
				return err
			case info.IsDir():
				if real, err = filepath.EvalSymlinks(p); err == nil {
					real, err = filepath.Abs(real)
				}
				if err != nil {
					return err
				}
				isDir = true
			}
		}
		if !isDir {
			if keep(p) {
				*files = append(*files, p)
			}
			continue
		}
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if real == "" {
			real = filepath.Join(ancestors[len(ancestors)-1], e.Name())
		}
		for _, a := range ancestors {
			if a == real {
				target, _ := os.Readlink(p)
				return &LoopError{Link: p, Target: target, Folder: real}
			}
		}
		if err := walk(p, append(ancestors[:len(ancestors):len(ancestors)], real), keep, files); err != nil {
			return err
		}
	}
	return nil
}
