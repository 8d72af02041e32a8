// Package readfile reads the files kmerge's inputs are made of, refusing
// what is not a regular file before it is opened: a link to /dev/zero
// (a device's size is 0, so no size check stops it; it would be read up
// to the byte limit), a named pipe found in a folder (opening it would wait
// for a writer forever), a socket. A pipe is read only when it was given
// on purpose (Given: a path named on the command line, in a project file
// or by a library caller, such as bash's <(...)), as cat reads it.
//
// Files are opened without waiting (O_NONBLOCK, where the system has it)
// and checked again once open, so that a file replaced by a pipe between
// the check and the open is refused too, not waited on; O_NOCTTY keeps a
// terminal from becoming the process's. Nothing here writes.
package readfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/kmerge/kmerge/tree"
)

// NotRegularError is a file kmerge refuses to read: not a regular file (a
// device, a named pipe found in a folder, a socket, a folder where a file
// is named), nor a pipe given on purpose.
type NotRegularError struct {
	Path string
	// Type is the file's type (fs.ModeCharDevice|fs.ModeDevice,
	// fs.ModeNamedPipe, fs.ModeSocket, fs.ModeDir, ...), of the file a
	// link leads to when Path is one.
	Type fs.FileMode
	// Target is the file a symbolic link at Path (or on its way) leads to,
	// "" when there is none.
	Target string
	// Given is set when Path was given on purpose (a pipe would be read).
	Given bool
}

func (e *NotRegularError) Error() string {
	what := Describe(e.Type)
	if e.Target != "" {
		what += " (the link leads to " + e.Target + ")"
	}
	if e.Given {
		return fmt.Sprintf("%s: %s, not a regular file: kmerge reads regular files, and pipes named on purpose (- is standard input)", e.Path, what)
	}
	return fmt.Sprintf("%s: %s, not a regular file: kmerge reads only regular files in the folders it walks and from kustomizations (a pipe only when named on the command line)", e.Path, what)
}

// Describe names a file type as messages do: "a character device", "a
// named pipe (FIFO)", ...
func Describe(t fs.FileMode) string {
	switch {
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a block device"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDir != 0:
		return "a folder"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	case t.IsRegular():
		return "a regular file"
	}
	return "a special file (" + t.String() + ")"
}

// Given reads the file at path, named on purpose: a regular file, or a
// pipe (read to its end, waiting for its writer as cat does). Both are
// read as tree.ReadFile reads a file, under the byte limit of limits (nil:
// tree.DefaultLimits()); anything else is a *NotRegularError.
func Given(path string, limits *tree.Limits) ([]byte, error) {
	return read(path, limits, true)
}

// Found reads the regular file at path, found in a folder or named by a
// file (a kustomization's patch): anything else, a pipe too, is a
// *NotRegularError, refused before it is opened.
func Found(path string, limits *tree.Limits) ([]byte, error) {
	return read(path, limits, false)
}

// Read is Given when given is set, Found otherwise.
func Read(path string, limits *tree.Limits, given bool) ([]byte, error) {
	return read(path, limits, given)
}

func read(path string, limits *tree.Limits, given bool) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	pipe := given && info.Mode()&fs.ModeNamedPipe != 0
	if !info.Mode().IsRegular() && !pipe {
		return nil, notRegular(path, info.Mode(), given)
	}
	flags := os.O_RDONLY | noCTTY
	if !pipe {
		flags |= nonBlock
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	switch {
	case info.Mode().IsRegular():
		max := tree.DefaultLimits().MaxBytes
		if limits != nil {
			max = limits.MaxBytes
		}
		if max > 0 && info.Size() > int64(max) {
			// refused before it is read, as tree.ReadFile refuses it
			return nil, &tree.SyntaxError{Pos: tree.Position{File: path}, Limit: "bytes",
				Msg: fmt.Sprintf("input is %d bytes, more than the limit of %d", info.Size(), max)}
		}
	case given && info.Mode()&fs.ModeNamedPipe != 0:
	default:
		return nil, notRegular(path, info.Mode(), given) // replaced since the check
	}
	return tree.ReadInput(f, path, limits)
}

func notRegular(path string, mode fs.FileMode, given bool) error {
	e := &NotRegularError{Path: path, Type: mode.Type(), Given: given}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != filepath.Clean(path) {
		e.Target = real
	}
	return e
}

// OpenRegular opens the file at path for reading when it is a regular
// file (after following links), without waiting on anything else: a
// *NotRegularError otherwise. The caller closes the file.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, notRegular(path, info.Mode(), false)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|noCTTY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = notRegular(path, info.Mode(), false)
		}
		return nil, nil, err
	}
	return f, info, nil
}
