package tree

import (
	"io"
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
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > max {
		return nil, limitError("bytes", file, 0, 0, "input is more than the limit of %d bytes", max)
	}
	return data, nil
}

// ReadFile reads the file at path as ReadInput reads a stream; a file whose
// size is above the limit is refused before it is opened for reading.
func ReadFile(path string, limits *Limits) ([]byte, error) {
	max := DefaultLimits().MaxBytes
	if limits != nil {
		max = limits.MaxBytes
	}
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && max > 0 && info.Size() > int64(max) {
		return nil, limitError("bytes", path, 0, 0, "input is %d bytes, more than the limit of %d", info.Size(), max)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadInput(f, path, limits)
}
