//go:build unix

package outdir

import (
	"io/fs"
	"syscall"
)

// links returns the number of names (hard links) of a file, 1 when it is
// not known.
func links(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
