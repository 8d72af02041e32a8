package lsp

import (
	"bufio"
	"bytes"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/kmerge/kmerge/internal/lines"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/tree"
)

// document is a version of a file the editor has open, with its unsaved
// text. It does not change once made: an edit makes a new one, so that the
// checks and requests still working on the old one read what they began
// with.
type document struct {
	uri     string
	path    string // absolute
	version int
	text    string
	norm    string   // text with \r\n and a lone \r made \n (LSP's line ends, and the .kpatch parser's)
	lines   []string // of norm, without line ends
	kpatch  bool     // a .kpatch file (else a YAML patch list)
	// where each line of a YAML document, as kmerge's YAML reader counts
	// them (at NEL, LS and PS too, which end no line of the protocol),
	// starts in lines; nil when the two count alike
	yamlLines []lineStart

	// the check of this version (check.go), begun as it is made; nil for
	// a document only read (a test's)
	check *check

	// its sections, as a workspace's units (sectionsIn)
	mu       sync.Mutex
	placedWS *workspace
	placed   []placed
}

func newDocument(uri string, version int, text string) *document {
	d := &document{uri: uri, path: uriPath(uri), version: version, text: text, norm: lines.Normalize(text)}
	d.kpatch = strings.EqualFold(filepath.Ext(d.path), ".kpatch")
	d.lines = strings.Split(d.norm, "\n")
	if !d.kpatch && strings.ContainsAny(d.norm, "\u0085\u2028\u2029") {
		for i, l := range d.lines {
			off := 0
			for _, y := range lines.SplitYAMLAfter(l) {
				d.yamlLines = append(d.yamlLines, lineStart{i, off})
				off += len(y)
			}
		}
	}
	return d
}

// lineStart is where a line of a YAML document (kmerge's count) starts:
// the protocol's line (from 0) and the byte offset in it.
type lineStart struct{ line, off int }

// at returns where a kmerge position of the document is in the
// protocol's lines: the line (from 0) and the byte offset in it. A YAML
// reader's line is not the protocol's in a document with a NEL, LS or PS
// (the reader counts them as line breaks, the protocol does not): its
// errors were put on later lines, or past the end (a panic blanking a
// patch list's item: attack, 2026-11-29).
func (d *document) at(p tree.Position) (line, byteCol int) {
	line, start := p.Line-1, 0
	if d.yamlLines != nil && line >= 0 {
		if line >= len(d.yamlLines) {
			return len(d.lines), 0 // past the end: no line
		}
		line, start = d.yamlLines[line].line, d.yamlLines[line].off
	}
	col := max(p.Column-1, 0)
	if d.kpatch {
		return line, col
	}
	text := d.line(line)
	off := min(start, len(text))
	for i := 0; i < col && off < len(text); i++ {
		_, size := utf8.DecodeRuneInString(text[off:])
		off += size
	}
	return line, off
}

// lineOf returns the protocol's line (from 0) of a kmerge position of the
// document (at).
func (d *document) lineOf(p tree.Position) int {
	line, _ := d.at(p)
	return line
}

// again returns a new document of the same version and text, for a new
// check.
func (d *document) again() *document {
	return &document{uri: d.uri, path: d.path, version: d.version, text: d.text, norm: d.norm, lines: d.lines, kpatch: d.kpatch, yamlLines: d.yamlLines}
}

// line returns a line's text, "" past the end.
func (d *document) line(i int) string {
	if i < 0 || i >= len(d.lines) {
		return ""
	}
	return d.lines[i]
}

// byteCol turns a protocol position's character (UTF-16 units) into a
// byte offset in its line.
func (d *document) byteCol(p Position) int {
	line := d.line(p.Line)
	units := 0
	for i, r := range line {
		if units >= p.Character {
			return i
		}
		units += len(utf16.Encode([]rune{r}))
	}
	return len(line)
}

// pos turns a byte offset in a line into a protocol position.
func (d *document) pos(line, byteCol int) Position {
	text := d.line(line)
	byteCol = max(0, min(byteCol, len(text)))
	return Position{Line: line, Character: len(utf16.Encode([]rune(text[:byteCol])))}
}

// column turns a kmerge position's column (1-based; bytes in a .kpatch
// file, characters in YAML, as yaml.v3 counts) into a byte offset.
// (in the protocol's line of p: at).
func (d *document) column(p tree.Position) int {
	_, off := d.at(p)
	return off
}

// uriPath turns a file URI into an absolute path.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return filepath.FromSlash(u.Path)
}

// pathURI turns a path into a file URI.
func pathURI(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// fileRange is the range at a position of another file (the other side of
// a conflict, an object in a manifest): the rest of its line, given as l
// (l.ok false: unknown, when the file cannot be read there), else the
// position alone.
func fileRange(p tree.Position, l fileText, yamlColumns bool) Range {
	line := p.Line - 1
	start := max(p.Column-1, 0)
	if line < 0 || !l.ok {
		return Range{Start: Position{Line: max(line, 0), Character: start}, End: Position{Line: max(line, 0), Character: start}}
	}
	// the line alone, as the first of a document, then moved to its place:
	// the protocol's line it is in, after what that line holds before it
	// (the YAML reader's lines before it on that line, ended by NELs)
	d := &document{lines: []string{l.text}, kpatch: !yamlColumns}
	at := p
	at.Line = 1
	b := d.column(at)
	end := len(strings.TrimRight(l.text, " \t"))
	r := Range{Start: d.pos(0, b), End: d.pos(0, max(end, b))}
	r.Start.Line, r.End.Line = l.line, l.line
	r.Start.Character += l.before
	r.End.Character += l.before
	return r
}

// maxLineSearch is how far into a file fileLine reads to find a line: the
// byte limit files are read with.
var maxLineSearch = int64(tree.DefaultLimits().MaxBytes)

// fileLine returns line n (from 1) of the file at path, without its line
// break, reading the file no further than that line and maxLineSearch
// bytes (nor its size); ok is false when it cannot be read there: no such line, or not a
// regular file (a device such as /dev/zero, a FIFO: nothing is read from
// those, which may never end). Lines are cut as the file's positions count
// them (nthLine): a YAML file's (yaml) as kmerge's YAML reader does.
func fileLine(path string, n int, yaml bool) fileText {
	if n < 1 {
		return fileText{}
	}
	f, info, err := readfile.OpenRegular(path) // never waits on a pipe put there meanwhile
	if err != nil {
		return fileText{}
	}
	defer f.Close()
	// no further than the file's size either: a file of /proc or /sys says
	// 0 and holds more, without end
	return nthLine(bufio.NewReader(io.LimitReader(f, min(maxLineSearch, info.Size()))), n, yaml)
}

// textLine returns line n (from 1) of text, as fileLine does a file's.
func textLine(text []byte, n int, yaml bool) fileText {
	if n < 1 {
		return fileText{}
	}
	return nthLine(bufio.NewReader(bytes.NewReader(text)), n, yaml)
}

// maxLineKept is how much of a long line nthLine keeps: enough to place a
// position near its start.
const maxLineKept = 4096

// fileText is a line of a file (nthLine), with where it is in the
// protocol's lines, which end at LF, CRLF and a lone CR alone: a YAML
// reader's line after a NEL, LS or PS is in the protocol's line of the
// one before it.
type fileText struct {
	text   string // the line without its line break, its first maxLineKept bytes
	ok     bool   // the line was read (else it is unknown)
	line   int    // the protocol's line (from 0) it is in
	before int    // the UTF-16 units of that protocol's line before it
}

// nthLine reads r up to the end of its line n (from 1) and returns that
// line (ok false when r ends before it: a final line break ends the last
// line, none follows it). Lines end at LF, CRLF and a lone CR (the .kpatch
// format, YAML 1.2), and in a YAML text (yaml) at NEL, LS and PS too, as
// kmerge's YAML reader counts them (internal/lines): cut at LF alone, a
// file of CRs or NELs was one line, and a position in it was placed on
// the wrong line. The protocol counts only the first three: a line after
// a NEL is placed on the protocol's line (it was put on the reader's,
// a later line or none: attack, 2026-11-29).
func nthLine(r *bufio.Reader, n int, yaml bool) fileText {
	var line []byte
	var l fileText
	at, seen := 1, false // the line read, and whether it has a byte
	for {
		b, err := r.ReadByte()
		if err != nil {
			if at != n || !seen {
				return fileText{}
			}
			l.text, l.ok = string(line), true
			return l
		}
		seen = seen || at == n
		width, protocol := 0, false // of a line break starting at b, b's byte included; a break of the protocol's
		switch {
		case b == '\n':
			width, protocol = 1, true
		case b == '\r':
			width, protocol = 1, true
			if p, _ := r.Peek(1); len(p) == 1 && p[0] == '\n' {
				width = 2
			}
		case yaml && b == 0xC2:
			if p, _ := r.Peek(1); len(p) == 1 && p[0] == 0x85 {
				width = 2 // NEL
			}
		case yaml && b == 0xE2:
			if p, _ := r.Peek(2); len(p) == 2 && p[0] == 0x80 && (p[1] == 0xA8 || p[1] == 0xA9) {
				width = 3 // LS, PS
			}
		}
		if width == 0 {
			if at == n {
				if len(line) < maxLineKept {
					line = append(line, b)
				}
				continue
			}
			l.before += utf16Units(b)
			continue
		}
		if _, err := r.Discard(width - 1); err != nil {
			return fileText{}
		}
		if at == n {
			l.text, l.ok = string(line), true
			return l
		}
		at++
		if protocol {
			l.line, l.before = l.line+1, 0
		} else {
			l.before++ // NEL, LS, PS: one unit each
		}
	}
}

// utf16Units returns the UTF-16 units a byte of UTF-8 text adds: one for
// the first byte of a character, two for one of four bytes (a surrogate
// pair), none for the bytes that follow.
func utf16Units(b byte) int {
	switch {
	case b&0xC0 == 0x80:
		return 0
	case b >= 0xF0:
		return 2
	}
	return 1
}
