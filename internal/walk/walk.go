// Package walk lists the files of folders as kmerge reads them: recursively,
// in lexical order, skipping folders whose name starts with a dot.
package walk

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// Files returns the files below dir that keep accepts, in lexical order.
// Folders below dir whose name starts with a dot (.git, .github) are
// skipped.
func Files(dir string, keep func(name string) bool) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if keep(p) {
			files = append(files, p)
		}
		return nil
	})
	return files, err
}
