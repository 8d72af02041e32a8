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
	return FilesEnter(dir, keep, nil)
}

// FilesEnter is Files, with a say on each folder it walks (dir itself
// included, and folders reached through links, under the path walked):
// enter, unless nil, is called with the folder before its entries are
// listed; the files it returns are listed there, and when it returns skip
// the folder's own entries are not (a folder that a file of its stands
// for: a kustomization's).
func FilesEnter(dir string, keep func(name string) bool, enter func(dir string) (files []string, skip bool, err error)) ([]string, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return nil, err
	}
	w := &walker{keep: keep, enter: enter}
	err = w.walk(dir, []string{real}, link{})
	return w.files, err
}

// walker is one walk: what it keeps and lists.
type walker struct {
	keep  func(string) bool
	enter func(string) ([]string, bool, error)
	files []string
}

// link is a symbolic link to a folder the walk followed: its path as
// walked, and its target as the link holds it.
type link struct{ path, target string }

// walk lists the files of the folder dir, whose ancestors (dir's own real
// path last) are the real paths of the folders walked to reach it; via is
// the last link followed on the way (none: zero).
func (w *walker) walk(dir string, ancestors []string, via link) error {
	if w.enter != nil {
		files, skip, err := w.enter(dir)
		if err != nil {
			return err
		}
		w.files = append(w.files, files...)
		if skip {
			return nil
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		real := ""
		next := via
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
				target, _ := os.Readlink(p)
				next = link{path: p, target: target}
			}
		}
		if !isDir {
			if w.keep(p) {
				w.files = append(w.files, p)
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
				// a folder met again: the link that led here (the entry
				// itself, or one above it: a link to a folder that holds
				// the folder the walk started in) makes the loop
				if next.path == "" {
					next = link{path: p}
				}
				return &LoopError{Link: next.path, Target: next.target, Folder: real}
			}
		}
		if err := w.walk(p, append(ancestors[:len(ancestors):len(ancestors)], real), next); err != nil {
			return err
		}
	}
	return nil
}
