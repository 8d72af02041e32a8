package tree

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// SyntaxError reports input that is not well-formed YAML or JSON, or that
// breaks a rule every Kubernetes document follows (duplicate keys, keys that
// are not scalars, limits).
type SyntaxError struct {
	File   string // name of the input, "" if unknown
	Line   int    // 1-based; 0 if unknown
	Column int    // 1-based; 0 if unknown
	Msg    string
}

// Error formats the error as "file:line:col: message".
func (e *SyntaxError) Error() string {
	return Position{File: e.File, Line: e.Line, Column: e.Column}.String() + e.Msg
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

var yamlLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// yamlError turns an error of the YAML parser into a SyntaxError.
func yamlError(file string, err error) error {
	msg := err.Error()
	e := &SyntaxError{File: file, Msg: msg}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = m[2]
		if e.Line > 0 && parserProblem(e.Msg) {
			// go.yaml.in/yaml/v3 numbers the lines of parser errors from
			// 0 (those of scanner errors from 1)
			e.Line++
		}
	}
	if e.Msg == "" {
		e.Msg = "invalid YAML"
	}
	return e
}

func errorf(file string, line, col int, format string, args ...any) error {
	return &SyntaxError{File: file, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// parserProblem reports whether a message of the YAML library comes from its
// parser rather than its scanner: the parser's "did not find expected"
// problems name a token, the scanner's a kind of character.
func parserProblem(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "did not find expected ")
	if !ok {
		return false
	}
	for _, scanner := range []string{"alphabetic", "comment", "whitespace", "tag URI", "hexdecimal"} {
		if strings.HasPrefix(rest, scanner) {
			return false
		}
	}
	return true
}
