package tree

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// SyntaxError reports input that is not well-formed YAML or JSON, or that
// breaks a rule every Kubernetes document follows (duplicate keys, keys that
// are not scalars, limits).
type SyntaxError struct {
	Pos Position // where: the input's name ("" if unknown), line and column (0 if unknown)
	Msg string
	// Limit names the limit the input went over ("bytes", "documents",
	// "depth", "nodes"), "" for other errors.
	Limit string
}

// Error formats the error as "file:line:col: message".
func (e *SyntaxError) Error() string { return e.Pos.String() + e.Msg }

// Position returns where the error is.
func (e *SyntaxError) Position() Position { return e.Pos }

var _ PositionedError = (*SyntaxError)(nil)

// PositionedError is an error that knows the place in an input it is
// about. Every error of kmerge's packages that does implements it, in the
// same way: Position returns the place (the input's name, line and column,
// as far as they are known), and the message Error returns starts with it
// (Position.String), followed by what is wrong. Errors about a place in a
// document carry its path too, as a field (Path).
type PositionedError interface {
	error
	Position() Position
}

// ErrorPosition returns the position of the first error in err's chain
// (errors.As) that has one; ok is false when none has a line.
func ErrorPosition(err error) (pos Position, ok bool) {
	var pe PositionedError
	if !errors.As(err, &pe) {
		return Position{}, false
	}
	pos = pe.Position()
	return pos, pos.Line > 0
}

// Position is a place in an input file.
type Position struct {
	File   string
	Line   int
	Column int
}

// String formats p as "file:line:col: " (parts that are unknown are left
// out), ready to be put before a message.
func (p Position) String() string {
	s := p.File
	if p.Line > 0 {
		if s != "" {
			s += ":"
		}
		s += strconv.Itoa(p.Line)
		if p.Column > 0 {
			s += ":" + strconv.Itoa(p.Column)
		}
	}
	if s == "" {
		return ""
	}
	return s + ": "
}

// limitError reports an input over one of the Limits.
func limitError(limit, file string, line, col int, format string, args ...any) error {
	return &SyntaxError{Pos: Position{File: file, Line: line, Column: col}, Msg: fmt.Sprintf(format, args...), Limit: limit}
}

func errorf(file string, line, col int, format string, args ...any) error {
	return &SyntaxError{Pos: Position{File: file, Line: line, Column: col}, Msg: fmt.Sprintf(format, args...)}
}

// checkUTF8 rejects input that is not UTF-8, the encoding of Kubernetes
// manifests (and of JSON), naming the line and column of the first bad byte.
func checkUTF8(data []byte, file string) error {
	if utf8.Valid(data) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return errorf(file, line, col, "not UTF-8 text: byte 0x%02x (save the file as UTF-8)", data[i])
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return nil
}

// Warning is what a reader noticed that is not an error, at a place in
// its input.
type Warning struct {
	Pos Position
	Msg string
}

// String formats the warning as "file:line:col: warning: message", as
// kmerge's warnings are written.
func (w Warning) String() string { return w.Pos.String() + "warning: " + w.Msg }
