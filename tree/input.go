package tree

import (
	"bytes"
	"io"
	"math"
	"os"
)

// ReadInput reads r, named file in messages, but no more than the byte
// limit of limits (nil: DefaultLimits()) allows: an input above the limit
// is refused with the same error Read gives, without being read into
// memory first.
func ReadInput(r io.Reader, file string, limits *Limits) ([]byte, error) {
	max := DefaultLimits().MaxBytes
	if limits != nil {
		max = limits.MaxBytes
	}
	if max <= 0 {
		return io.ReadAll(r)
	}
	data, err := io.ReadAll(io.LimitReader(r, overLimit(max)))
	if err != nil {
		return nil, err
	}
	if len(data) > max {
		return nil, limitError("bytes", file, 0, 0, "input is more than the limit of %d bytes", max)
	}
	return data, nil
}

// ReadFile reads the file at path as ReadInput reads a stream; a file whose
// size is above the limit is refused before it is read. A regular file is
// read into a buffer of its size, at once.
func ReadFile(path string, limits *Limits) ([]byte, error) {
	max := DefaultLimits().MaxBytes
	if limits != nil {
		max = limits.MaxBytes
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return ReadInput(f, path, limits)
	}
	if max > 0 && info.Size() > int64(max) {
		return nil, limitError("bytes", path, 0, 0, "input is %d bytes, more than the limit of %d", info.Size(), max)
	}
	var b bytes.Buffer
	b.Grow(int(info.Size()) + bytes.MinRead) // room to read the end of the file, without growing
	var r io.Reader = f
	if max > 0 {
		r = io.LimitReader(f, overLimit(max)) // should the file grow meanwhile
	}
	if _, err := b.ReadFrom(r); err != nil {
		return nil, err
	}
	if max > 0 && b.Len() > max {
		return nil, limitError("bytes", path, 0, 0, "input is more than the limit of %d bytes", max)
	}
	return b.Bytes(), nil
}

// overLimit is how many bytes to read of an input under a byte limit of
// max > 0: one more than the limit, to tell an input of exactly max bytes
// from a longer one, but never more than an int64 holds (a limit of
// math.MaxInt64 bytes plus one would wrap around to a negative count,
// which reads nothing).
func overLimit(max int) int64 {
	if int64(max) == math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(max) + 1
}
