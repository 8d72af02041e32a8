//go:build !unix

package readfile

// This system has no such flags: the checks before and after opening
// (the file's type, os.SameFile) are what refuses a link or a special file.
const (
	nonBlock = 0
	noCTTY   = 0
	// NoFollow is O_NOFOLLOW where the system has it: 0 here.
	NoFollow = 0
	// NonBlock is O_NONBLOCK where the system has it: 0 here.
	NonBlock = 0
)
