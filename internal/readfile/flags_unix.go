//go:build unix

package readfile

import "syscall"

// The flags of open(2) that keep it from waiting (on a pipe without a
// writer, a device), from making a terminal the process's, and from
// following a link at the last part of the path.
const (
	nonBlock = syscall.O_NONBLOCK
	noCTTY   = syscall.O_NOCTTY
	// NoFollow is O_NOFOLLOW: opening a symbolic link fails.
	NoFollow = syscall.O_NOFOLLOW
	// NonBlock is O_NONBLOCK, for callers that open files themselves.
	NonBlock = nonBlock | noCTTY
)
