//go:build !unix

package outdir

import "io/fs"

// links returns the number of names (hard links) of a file: not known on
// this system (os.Stat does not say), so 1.
func links(fs.FileInfo) uint64 { return 1 }
