// Package outdir writes a set of files into a folder all or nothing: every
// target is checked before anything is created, every file is written to a
// temporary file next to its target, the targets are replaced by renames,
// and what they held is kept until every rename succeeded, so that a
// failure (or a cancellation: a signal) puts the folder back as it was.
//
// Only the folder's own entries are written: a symbolic link inside the
// folder (to a folder or a file that would be replaced) is refused, never
// followed, so nothing outside the folder is written. Temporary files are
// named ".NAME.kmerge-DIGITS.tmp" next to their target NAME; those that a
// killed run left are removed by the next run that writes NAME. A lock
// (Lock) keeps two runs from writing one folder at once.
package outdir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kmerge/kmerge/internal/readfile"
)

// File is one file to write.
type File struct {
	Name string // relative to the folder, with the OS's separators
	Data []byte
}

// Options control Write.
type Options struct {
	// Context, when cancelled, stops the writing: what was written is
	// undone, and Write returns a *CanceledError.
	Context context.Context
}

// TargetError is a target that cannot be written: a folder where a file
// must go, a file where a folder must go, a symbolic link, a special file.
// Nothing was written.
type TargetError struct {
	Path   string // the target or the folder on its way, under the output folder
	Reason string
}

func (e *TargetError) Error() string { return e.Path + ": " + e.Reason }

// CanceledError reports a Write stopped by its context; what it had
// written is undone.
type CanceledError struct {
	Dir   string
	Cause error // context.Cause of the context
}

func (e *CanceledError) Error() string {
	return fmt.Sprintf("%s: stopped (%v): nothing was written", e.Dir, e.Cause)
}

func (e *CanceledError) Unwrap() error { return e.Cause }

// RollbackError is a failure while undoing a failed Write: the files it
// names could not be put back. The folder is left as it is then.
type RollbackError struct {
	Err    error    // the failure that started the rollback
	Failed []string // what could not be undone, one line each
}

func (e *RollbackError) Error() string {
	return fmt.Sprintf("%v; and undoing what was written failed, the folder is left half-written: %s", e.Err, strings.Join(e.Failed, "; "))
}

func (e *RollbackError) Unwrap() error { return e.Err }

// target is one file of a Write and what became of it.
type target struct {
	path    string
	data    []byte
	replace bool        // an existing file is replaced
	mode    fs.FileMode // of the file replaced
	temp    string      // the new content, until renamed
	backup  string      // the replaced content, until the end
	renamed bool
}

// Write writes files into dir, all or nothing, and then removes the stale
// temporary files of its targets (a killed run's). A file that already
// holds its data is not touched (its modification time neither). A new
// file is created with the permissions 0666 less the umask, as by
// touch(1); a replaced one keeps its permissions. Missing folders are
// created (0777 less the umask) and removed again on failure. dir itself
// may be a symbolic link (it was named); links below it are refused.
//
// Write does not lock dir: see Lock.
func Write(dir string, files []File, opts Options) error {
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	targets, err := plan(dir, files)
	if err != nil {
		return err
	}
	w := &writer{dir: dir, targets: targets}
	if err := w.write(ctx); err != nil {
		return w.undo(err)
	}
	// done: drop what was replaced, and what killed runs left
	for _, t := range targets {
		if t.backup != "" {
			os.Remove(t.backup)
		}
	}
	removeStale(files, dir)
	return nil
}

// plan checks every target before anything is written, and returns those
// whose content changes.
func plan(dir string, files []File) ([]*target, error) {
	info, err := os.Stat(dir)
	switch {
	case err == nil && !info.IsDir():
		return nil, &TargetError{Path: dir, Reason: "not a folder"}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	checked := map[string]bool{} // folders below dir known to be folders or missing
	var out []*target
	for _, f := range files {
		if !filepath.IsLocal(f.Name) {
			return nil, &TargetError{Path: filepath.Join(dir, f.Name), Reason: "outside the output folder"}
		}
		path := filepath.Join(dir, f.Name)
		info, err := os.Lstat(path)
		if err == nil && (info.Mode().IsRegular() && info.Size() == int64(len(f.Data)) || info.Mode()&fs.ModeSymlink != 0) &&
			sameContent(path, f.Data) {
			continue // nothing to write (a link, or a folder on the way, may lead outside: only read)
		}
		if err := checkFolders(dir, filepath.Dir(f.Name), checked); err != nil {
			return nil, err
		}
		t := &target{path: path, data: f.Data, mode: 0o666}
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		case info.Mode().IsRegular():
			t.replace, t.mode = true, info.Mode().Perm()
		case info.Mode()&fs.ModeSymlink != 0:
			return nil, &TargetError{Path: path, Reason: "a symbolic link" + linkText(path) + ": kmerge does not write through links in the output folder, nor replace them"}
		case info.IsDir():
			return nil, &TargetError{Path: path, Reason: "a folder, where the file must be written"}
		default:
			return nil, &TargetError{Path: path, Reason: "not a regular file (" + info.Mode().Type().String() + ")"}
		}
		out = append(out, t)
	}
	return out, nil
}

// checkFolders checks the folders of rel below dir: each must be a folder
// (not a link to one, not a file) or missing.
func checkFolders(dir, rel string, checked map[string]bool) error {
	if rel == "." || checked[rel] {
		return nil
	}
	if err := checkFolders(dir, filepath.Dir(rel), checked); err != nil {
		return err
	}
	path := filepath.Join(dir, rel)
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case info.Mode()&fs.ModeSymlink != 0:
		return &TargetError{Path: path, Reason: "a symbolic link" + linkText(path) + " inside the output folder: kmerge writes only inside the folder, and does not follow links there"}
	case !info.IsDir():
		return &TargetError{Path: path, Reason: "a file, where a folder must be"}
	}
	checked[rel] = true
	return nil
}

func linkText(path string) string {
	if to, err := os.Readlink(path); err == nil {
		return " (to " + to + ")"
	}
	return ""
}

// sameContent reports whether the file at name holds data: a regular file
// (a link to one) of data's size, read no further than that. Anything else
// is not read (a link to /dev/zero would be read without end, a named pipe
// opened would wait for a writer).
func sameContent(name string, data []byte) bool {
	f, info, err := readfile.OpenRegular(name)
	if err != nil {
		return false
	}
	defer f.Close()
	if info.Size() != int64(len(data)) {
		return false
	}
	old := make([]byte, len(data)+1)
	n, err := io.ReadFull(f, old)
	return n == len(data) && errors.Is(err, io.ErrUnexpectedEOF) && bytes.Equal(old[:n], data) ||
		len(data) == 0 && n == 0 && errors.Is(err, io.EOF)
}

// writer is one Write in progress, and what it has done so far.
type writer struct {
	dir     string
	targets []*target
	created []string // folders created, parents first
}

func (w *writer) write(ctx context.Context) error {
	for _, t := range w.targets {
		if err := cancelled(ctx, w.dir); err != nil {
			return err
		}
		if err := w.mkdirs(filepath.Dir(t.path)); err != nil {
			return err
		}
		perm := fs.FileMode(0o666) // less the umask, by the system
		if t.replace {
			perm = 0o600 // until chmod gives the old permissions
		}
		tmp, err := createTemp(t.path, perm)
		if err != nil {
			return err
		}
		t.temp = tmp.Name()
		_, err = tmp.Write(t.data)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil && t.replace {
			err = os.Chmod(t.temp, t.mode)
		}
		if err != nil {
			return err
		}
	}
	for _, t := range w.targets {
		if err := cancelled(ctx, w.dir); err != nil {
			return err
		}
		if t.replace {
			backup, err := keep(t.path)
			if err != nil {
				return err
			}
			t.backup = backup
		}
		if err := os.Rename(t.temp, t.path); err != nil {
			return err
		}
		t.temp, t.renamed = "", true
	}
	return nil
}

func cancelled(ctx context.Context, dir string) error {
	if ctx.Err() != nil {
		return &CanceledError{Dir: dir, Cause: context.Cause(ctx)}
	}
	return nil
}

// mkdirs creates the missing folders of path, remembering them.
func (w *writer) mkdirs(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	if parent := filepath.Dir(path); parent != path {
		if err := w.mkdirs(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(path, 0o777); err != nil {
		return err
	}
	w.created = append(w.created, path)
	return nil
}

// keep makes a second name for the file at path, under which its content
// stays when a rename replaces it: a hard link, or, where the file system
// has none, the file itself moved aside (the target is then missing until
// the rename that follows).
func keep(path string) (string, error) {
	for range 10000 {
		name := tempName(path)
		err := os.Link(path, name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			if err = os.Rename(path, name); err != nil {
				return "", err
			}
		}
		return name, nil
	}
	return "", fmt.Errorf("%s: no free temporary name", path)
}

// undo puts the folder back as it was after a failure err, in the reverse
// order of what was done.
func (w *writer) undo(err error) error {
	var failed []string
	for i := len(w.targets) - 1; i >= 0; i-- {
		t := w.targets[i]
		switch {
		case t.backup != "" && (t.renamed || !exists(t.path)):
			// the new file replaced the old, or the old was moved aside
			if rerr := os.Rename(t.backup, t.path); rerr != nil {
				failed = append(failed, fmt.Sprintf("%s is the new file, its old content is in %s (%v)", t.path, t.backup, rerr))
			}
		case t.backup != "":
			os.Remove(t.backup) // a link, the old file untouched
		case t.renamed:
			if rerr := os.Remove(t.path); rerr != nil {
				failed = append(failed, fmt.Sprintf("%s, a new file, is left (%v)", t.path, rerr))
			}
		}
		if t.temp != "" {
			os.Remove(t.temp)
		}
	}
	for i := len(w.created) - 1; i >= 0; i-- {
		os.Remove(w.created[i]) // empty again, unless something else wrote there
	}
	if failed != nil {
		return &RollbackError{Err: err, Failed: failed}
	}
	return err
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Temporary files are ".NAME.kmerge-DIGITS.tmp": hidden, ending in .tmp
// (which no reader of manifests takes for one), and with a part that only
// kmerge writes, so that removeStale removes nothing else.
const (
	tempInfix  = ".kmerge-"
	tempSuffix = ".tmp"
)

// tempName returns a fresh temporary name next to path.
func tempName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+tempInfix+strconv.FormatUint(uint64(rand.Uint32()), 10)+tempSuffix)
}

// createTemp creates a new temporary file next to path, with the given
// permissions (less the umask).
func createTemp(path string, perm fs.FileMode) (*os.File, error) {
	for range 10000 {
		f, err := os.OpenFile(tempName(path), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("%s: no free temporary name", path)
}

// isTemp reports whether name (a base name) is one of kmerge's temporary
// files for the file named target.
func isTemp(name, target string) bool {
	rest, ok := strings.CutPrefix(name, "."+target+tempInfix)
	if !ok {
		return false
	}
	digits, ok := strings.CutSuffix(rest, tempSuffix)
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// removeStale removes the temporary files that runs killed before they
// could remove them left next to the targets of files.
func removeStale(files []File, dir string) {
	byFolder := map[string][]string{} // folder: target names
	var folders []string
	for _, f := range files {
		d := filepath.Join(dir, filepath.Dir(f.Name))
		if _, ok := byFolder[d]; !ok {
			folders = append(folders, d)
		}
		byFolder[d] = append(byFolder[d], filepath.Base(f.Name))
	}
	checked := map[string]bool{}
	for _, d := range folders {
		rel, err := filepath.Rel(dir, d)
		if err != nil || checkFolders(dir, rel, checked) != nil {
			continue // not through a link
		}
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		names := map[string]bool{}
		for _, n := range byFolder[d] {
			names[n] = true
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			if target, ok := staleTarget(e.Name()); ok && names[target] {
				os.Remove(filepath.Join(d, e.Name()))
			}
		}
	}
}

// staleTarget returns the target a temporary file's name was made for.
func staleTarget(name string) (string, bool) {
	rest, ok := strings.CutSuffix(name, tempSuffix)
	if !ok || !strings.HasPrefix(rest, ".") {
		return "", false
	}
	i := strings.LastIndex(rest, tempInfix)
	if i < 1 {
		return "", false
	}
	target := rest[1:i]
	return target, isTemp(name, target)
}

// WriteFile writes one file through a temporary file renamed into place:
// never half-written. A new file gets the permissions 0666 less the umask,
// a replaced one keeps its own. A path that is a symbolic link is written
// through: the file it leads to is replaced, beside it, and the link stays
// (renaming onto the link would replace the link with a copy, and leave
// the file it led to as it was: kmerge fmt -w on a linked .kpatch file).
func WriteFile(path string, data []byte) error {
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return fmt.Errorf("%s: a symbolic link that leads nowhere: %w", path, err)
		}
		path = real
	}
	perm, replace := fs.FileMode(0o666), false
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		perm, replace = info.Mode().Perm(), true
	}
	create := perm
	if replace {
		create = 0o600
	}
	tmp, err := createTemp(path, create)
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && replace {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
