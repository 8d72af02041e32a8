package tree

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
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

var yamlLineRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// yamlError turns an error of the YAML parser into a SyntaxError.
// data is the input, to keep the line inside it.
func yamlError(file string, err error, data []byte) error {
	msg := err.Error()
	if msg == "yaml: control characters are not allowed" {
		if line, col, r, ok := firstUnprintable(data); ok {
			escape := fmt.Sprintf(`\x%02x`, r)
			if r > 0xff {
				escape = fmt.Sprintf(`\u%04x`, r)
			}
			return errorf(file, line, col, "character %U is not allowed in YAML text (in a double-quoted string, write it as the escape %s)", r, escape)
		}
	}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil && (m[2] == "found incompatible YAML document" || strings.Contains(m[2], "version number")) {
		if line, version, ok := otherVersion(data); ok {
			if major, _, _ := strings.Cut(version, "."); major != "1" && major != "" && strings.Trim(major, "0123456789") == "" {
				return errorf(file, line, 1, "%%YAML %s: YAML %s is a later major version than kmerge reads (YAML 1.2; documents marked 1.1 or a later 1.x read as 1.2)", version, major)
			}
			return errorf(file, line, 1, "%%YAML %s: kmerge reads YAML 1.2 (documents marked 1.1 or a later 1.x read as 1.2)", version)
		}
	}
	e := &SyntaxError{Pos: Position{File: file}, Msg: msg}
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		e.Pos.Line, _ = strconv.Atoi(m[1])
		e.Msg = m[2]
		if e.Pos.Line > 0 {
			// go.yaml.in/yaml/v3 numbers the lines of parser errors from
			// 0 (those of scanner errors from 1), and puts the end of the
			// input on a line of its own
			if parserProblem(e.Msg) {
				e.Pos.Line++
			}
			e.Pos.Line = min(e.Pos.Line, max(lineCount(data), 1))
		}
		if line, col, ok := problemLine(data, e.Msg, msg); ok {
			e.Pos.Line, e.Pos.Column = line, col
		}
	}
	if e.Msg == "" {
		e.Msg = "invalid YAML"
	}
	if hint := yamlHint(e.Msg, line(data, e.Pos.Line)); hint != "" {
		e.Msg += " (" + hint + ")"
	}
	return e
}

// yamlHints say what usually causes the YAML library's messages.
var yamlHints = map[string]string{
	"mapping values are not allowed in this context": `is a key indented deeper than the one before it, or does a value holding ": " need quotes?`,
	"found character that cannot start any token":    "does a value start with @ or ` and need quotes?",
	"did not find expected key":                      "is a key indented less than its siblings?",
	"did not find expected ',' or ']'":               "is a [ list not closed?",
	"did not find expected ',' or '}'":               "is a { mapping not closed?",
	"found unexpected end of stream":                 "is a quote not closed?",
	"did not find expected '-' indicator":            "is a list item indented otherwise than the others?",
	"could not find expected ':'":                    "does a key lack its colon?",
	"did not find expected node content":             "is a value missing after a dash, a comma or a bracket?",
}

// yamlHint returns a hint for a message of the YAML library about a line.
func yamlHint(msg, line string) string {
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	if strings.Contains(indent, "\t") {
		return "YAML indents with spaces; this line has a tab"
	}
	return yamlHints[msg]
}

// line returns line n (from 1) of data, "" when there is none.
func line(data []byte, n int) string {
	if n < 1 {
		return ""
	}
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return ""
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	return string(data)
}

// limitError reports an input over one of the Limits.
func limitError(limit, file string, line, col int, format string, args ...any) error {
	return &SyntaxError{Pos: Position{File: file, Line: line, Column: col}, Msg: fmt.Sprintf(format, args...), Limit: limit}
}

func errorf(file string, line, col int, format string, args ...any) error {
	return &SyntaxError{Pos: Position{File: file, Line: line, Column: col}, Msg: fmt.Sprintf(format, args...)}
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

// lineCount counts lines as YAML does: \n, \r\n, a lone \r, NEL, LS
// and PS end one, and text after the last break is a line too.
func lineCount(data []byte) int {
	s := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n").Replace(string(data))
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
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

// firstUnprintable returns the line and column (from 1, in characters) of
// the first character of data that YAML does not allow in its text: the
// C0 controls but tab, line feed and carriage return, DEL, the C1
// controls but NEL, the surrogates and U+FFFE, U+FFFF (the complement of
// the YAML 1.2 specification's c-printable, 5.1). data is UTF-8.
func firstUnprintable(data []byte) (line, col int, r rune, ok bool) {
	line, col = 1, 1
	for _, r := range string(data) {
		printable := r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0x7e || r == 0x85 ||
			r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff
		if !printable {
			return line, col, r, true
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return 0, 0, 0, false
}

// otherVersion returns the line (from 1) and the version of the first
// %YAML directive of data that names a version kmerge does not read: not
// 1.1, 1.2 nor a later 1.x.
func otherVersion(data []byte) (line int, version string, ok bool) {
	for _, d := range yamlDirectives(data) {
		if minor, ok := version1x(d.version); !ok || minor < 1 {
			return d.line, d.version, true
		}
	}
	return 0, "", false
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
