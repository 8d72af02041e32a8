package tree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/fastyaml"
)

// Format is the syntax of a stream.
type Format uint8

// The formats kmerge reads and writes.
const (
	YAML Format = iota
	JSON
)

// String returns "yaml" or "json".
func (f Format) String() string {
	if f == JSON {
		return "json"
	}
	return "yaml"
}

// Limits bound what Read accepts, so that hostile input fails fast instead
// of exhausting memory. Zero (or less) means no limit.
type Limits struct {
	MaxBytes     int // size of the input
	MaxDocuments int // documents in one stream
	MaxDepth     int // nesting of objects and arrays; at most DeepestNesting, which zero or more means
	MaxNodes     int // values in one document, after YAML aliases are expanded
	// MaxExpanded bounds what YAML aliases add to one stream when they
	// are expanded, in bytes: each value an alias copies counts the bytes
	// of its text and the size of a node (a key and its value are two
	// values). It is checked before anything is copied.
	MaxExpanded int
}

// DeepestNesting is the deepest nesting Read reads, whatever the limits
// say: its reader follows collections by recursion. Deeper input is an
// error naming it.
const DeepestNesting = fastyaml.MaxDepth

// DefaultLimits are generous for real manifests (the largest CRDs in the
// wild have a few hundred thousand values and nest a few dozen levels) and
// stop alias bombs and runaway nesting long before they cost noticeable
// memory.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:     256 << 20,
		MaxDocuments: 100000,
		MaxDepth:     512,
		MaxNodes:     5000000,
		MaxExpanded:  8 << 20,
	}
}

// Options control Read.
type Options struct {
	File string // name used in error messages
	// Format is the input's format. nil: detected, JSON if the text
	// starts with '{' or '[' and is JSON text (then a JSON error is the
	// error, 1E400 out of range included), else YAML (flow style starts
	// so too). A caller that writes a file back pins the format its name
	// says (resource: a .json file is JSON).
	Format *Format
	Limits *Limits // nil: DefaultLimits()
	// Outline, when set, lets Read leave the documents of a YAML stream
	// outlined: holding only the parts it names (see Outline), their text
	// checked but not parsed into nodes, until Stream.Load parses them.
	// Read does so only where it is sure of the input: every document
	// then reads as YAML within the limits (an input that does not is
	// parsed fully and gives the error it gives without Outline). A JSON
	// stream is always parsed fully.
	Outline *Outline
	// Whole makes WriteYAML, after Snapshot, read back the text of every
	// edited document, values replaced alone too, where it otherwise takes
	// the proof of its edits for a reading (see Snapshot): the output is
	// the same bytes, checked; tests compare the two.
	Whole bool
	// Line is the line data starts at in its file, when data is a part
	// of a longer stream (SplitStream); 0 or 1: the first line. The
	// stream's nodes get the lines they have in the file.
	Line int
	// Column is the number of columns before each line of data in its
	// file, when data is a part of a longer text that holds its lines
	// indented by that much (an item of a sequence, taken out and
	// dedented: package krm reads the items of a long ResourceList so).
	// The stream's nodes get the columns they have in the file.
	Column int
	// Style, when set, is the style of the stream, which is not detected
	// from data: a part of a stream gets the style of the whole
	// (SplitStream), so that it is written as the whole would be.
	Style *Style
}

// Style is the layout of a YAML stream: read from the input, used to write
// it back so that untouched parts keep their look.
type Style struct {
	Indent           int  // spaces per nesting level of mappings (2 if unknown)
	CompactSequences bool // "- item" at the column of its parent key, as kubectl writes (the writer: two columns left of the next level, as yaml.v3 writes, which is the key's column with an Indent of 2)
}

// Stream is a parsed YAML or JSON stream.
type Stream struct {
	File   string
	Format Format
	Style  Style
	Docs   []*yaml.Node // document nodes; an empty document has no content
	// Warnings are what Read noticed that is not an error: a %YAML
	// directive of a later 1.x version than 1.2, read as 1.2 (the YAML
	// 1.2.2 specification, 6.8.1, asks for a warning).
	Warnings []Warning

	src        []byte        // the YAML text Read parsed (not a copy); nil for JSON
	limits     Limits        // the limits Read applied, reused to re-read output
	snapshot   []*yaml.Node  // the documents as read: copies Snapshot made, or Load's kept parses (ranged)
	resnapshot bool          // Snapshot was called more than once
	ranged     []*rangedRead // by document: a snapshot that is its text's parse, with its nodes' byte ranges (Load)

	// outlined documents (Options.Outline): which are, how many, where
	// each starts in src (after a byte order mark) and the line breaks
	// before that, what they hold; styled: Style is detected (an outlined
	// stream's is when a document is loaded)
	outline    *Outline
	outlined   []bool
	left       int
	starts     []int
	startLines []int
	styled     bool
	whole      bool                // Options.Whole
	noReplace  bool                // no byte-range edits (replaceValues): a retry after their text did not read back
	mangle     func([]byte) []byte // tests: changes what byte-range edits wrote, to see it read back (TestInPlaceReadBack)
	line0      int                 // the lines of the file before src (Options.Line)
	col0       int                 // the columns before src's lines in the file (Options.Column)
	rewritten  bool                // the last WriteYAML did not keep the source's text (Rewritten)
	aliases    aliases             // what the stream's aliases did (Expanded)

	removed []bool // documents taken out (Remove), by index; nil: none
}

// Remove takes document i out of the stream: it is no longer written
// (WriteYAML, WriteJSON), with the text it had after Snapshot (its "---"
// line, and the comments and blank lines up to the next document's).
// Docs keeps it, so that the indexes of the other documents stay what they
// were. Removing a document twice is removing it once.
func (s *Stream) Remove(i int) {
	if s.removed == nil {
		s.removed = make([]bool, len(s.Docs))
	}
	s.removed[i] = true
}

// Removed reports whether document i was taken out of the stream (Remove).
func (s *Stream) Removed(i int) bool { return s.removed != nil && s.removed[i] }

// kept returns the documents that are written: Docs but the removed ones.
func (s *Stream) kept() []*yaml.Node {
	if s.removed == nil {
		return s.Docs
	}
	out := make([]*yaml.Node, 0, len(s.Docs))
	for i, d := range s.Docs {
		if !s.removed[i] {
			out = append(out, d)
		}
	}
	return out
}

// Read parses data as a stream of YAML or JSON documents.
//
// YAML aliases and merge keys (<<) are expanded, so that every node has one
// parent and can be edited in place. Mappings with a key given twice and
// mappings with keys that are not scalars are rejected.
//
// For YAML input the stream keeps a reference to data (it does not copy
// it), so that WriteYAML can copy untouched text after Snapshot: data must
// not be modified while the stream is in use.
func Read(data []byte, opts Options) (*Stream, error) {
	limits := DefaultLimits()
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	if limits.MaxBytes > 0 && len(data) > limits.MaxBytes {
		return nil, limitError("bytes", opts.File, 0, 0, "input is %d bytes, more than the limit of %d", len(data), limits.MaxBytes)
	}
	if err := checkUTF8(data, opts.File); err != nil {
		return nil, err
	}
	s := &Stream{File: opts.File, Style: Style{Indent: 2}, limits: limits, whole: opts.Whole, line0: max(opts.Line-1, 0), col0: max(opts.Column, 0)}
	if opts.Style != nil {
		s.Style, s.styled = *opts.Style, true
	}
	format := YAML
	if opts.Format != nil {
		format = *opts.Format
	} else if looksLikeJSON(data) {
		format = JSON
	}
	if format == JSON {
		docs, err := readJSON(data, opts.File, limits)
		if err == nil || opts.Format != nil || jsonText(data) {
			s.Format, s.Docs = JSON, docs
			return s, err
		}
		// Not JSON after all: YAML flow style also starts with '{' or '['.
		ydocs, yerr := s.readYAML(data)
		if yerr != nil {
			return nil, err // the JSON error is the one the author needs
		}
		s.Docs, s.src = ydocs, data
		s.detectStyle()
		return s, nil
	}
	if err := checkDocumentCount(data, opts.File, limits); err != nil {
		return nil, err
	}
	// a lone carriage return, NEL, LS and PS are line breaks to YAML, and
	// to no line-based rule of the outlines (where documents start, what
	// comments a document lends the one before): such text is read whole
	if opts.Outline != nil && !otherBreaks(data) {
		if docs, starts, ok := s.readOutlines(data, opts.Outline); ok {
			s.Docs, s.src, s.outline, s.starts = docs, data, opts.Outline, starts
			s.outlined = make([]bool, len(docs))
			for i := range s.outlined {
				s.outlined[i] = true
			}
			s.left = len(docs)
			_, body := cutBOM(data)
			s.startLines = lineCounts(body, starts)
			if len(docs) == 0 {
				s.outlined, s.starts, s.startLines = nil, nil, nil
				s.detectStyle()
			}
			s.Warnings = directiveWarnings(data, opts)
			return s, nil
		}
	}
	docs, err := s.readYAML(data)
	if err != nil {
		return nil, err
	}
	s.Docs, s.src = docs, data
	s.detectStyle()
	s.Warnings = directiveWarnings(data, opts)
	return s, nil
}

// readYAML is readYAML with the stream's file and limits, the lines and
// columns of the documents and of an error those they have in the file
// (Options.Line, Options.Column).
func (s *Stream) readYAML(data []byte) ([]*yaml.Node, error) {
	docs, al, err := readYAMLCounted(data, s.File, s.limits)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) && se.Pos.Line > 0 {
			se.Pos.Line += s.line0
			if se.Pos.Column > 0 {
				se.Pos.Column += s.col0
			}
		}
		return nil, err
	}
	for _, d := range docs {
		shiftPos(d, s.line0, s.col0)
	}
	s.aliases = al
	return docs, nil
}

// Expanded returns what the YAML aliases of the stream's documents added
// when Read expanded them, in bytes, counted as Limits.MaxExpanded counts
// it (0 for a stream without aliases): the limit is on a whole stream, so
// a caller that reads a stream in parts (SplitStream) adds up its parts'.
func (s *Stream) Expanded() int { return s.aliases.added }

// detectStyle sets the stream's style from its text, unless it was given
// (Options.Style) or is detected already.
func (s *Stream) detectStyle() {
	if !s.styled {
		s.Style, s.styled = detectStyle(s.src), true
	}
}

// lineCounts returns, for each offset of starts (ascending), the number of
// line breaks in src before it.
func lineCounts(src []byte, starts []int) []int {
	out := make([]int, len(starts))
	n, at := 0, 0
	for i, off := range starts {
		n += lineBreaks(src[at:off])
		out[i], at = n, off
	}
	return out
}

// lineBreaks counts the line breaks of text as the reader counts lines:
// LF, CRLF, a lone CR, NEL, LS and PS ("0: \r... #\n---" has its "---" on
// line 3; FuzzReplaceValues' corpus, 2026-11-29).
func lineBreaks(text []byte) int {
	n := bytes.Count(text, []byte{'\n'})
	for i := 0; ; {
		j := bytes.IndexByte(text[i:], '\r')
		if j < 0 {
			break
		}
		if i += j + 1; i >= len(text) || text[i] != '\n' {
			n++
		}
	}
	return n + bytes.Count(text, []byte("\u0085")) + bytes.Count(text, []byte("\u2028")) + bytes.Count(text, []byte("\u2029"))
}

// checkDocumentCount refuses a YAML stream of more documents than the
// limit before it is parsed (parsing them first would spend the memory the
// limit is there to save). The documents are counted from the text, as
// documentStarts finds them, which is exact for a stream that parses and
// whose line breaks are LF or CRLF (others are not counted); a document
// the count misses is refused when it is parsed (addDocument).
func checkDocumentCount(data []byte, file string, limits Limits) error {
	max := limits.MaxDocuments
	if max <= 0 {
		return nil
	}
	bom, body := cutBOM(data)
	// A document after the first starts with a "---" or "..." line: with
	// few of those, there are few documents, and no need to find them.
	if bytes.Count(body, []byte("\n---"))+bytes.Count(body, []byte("\n..."))+2 <= max {
		return nil
	}
	if !lfOrCRLF(body) {
		// documentStarts cuts at LF and CRLF alone: a marker after a lone
		// CR or a NEL would be missed, and the document it starts taken
		// for another (parsing refuses the stream as each document comes)
		return nil
	}
	starts := documentStarts(body)
	if len(starts) <= max {
		return nil
	}
	// the first line of the document after the limit that is not blank
	// or a comment
	at := starts[max]
	for at < len(body) {
		end := bytes.IndexByte(body[at:], '\n')
		if end < 0 || !isBlankOrComment(body[at:at+end]) {
			break
		}
		at += end + 1
	}
	line := 1 + lineBreaks(data[:len(bom)+at])
	return limitError("documents", file, line, 1, "more than %d documents in one stream", max)
}

// jsonText reports whether data is a stream of JSON values in JSON's
// grammar (RFC 8259), whatever the size of their numbers: a JSON error
// reading such text (1E400 out of range, a key given twice, a limit) is
// the error, not a sign that the text is YAML flow style.
func jsonText(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, utf8BOM)))
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return errors.Is(err, io.EOF)
		}
	}
}

func looksLikeJSON(data []byte) bool {
	data = bytes.TrimPrefix(data, utf8BOM)
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}

// readYAML parses a YAML stream into normalized documents: internal/fastyaml
// reads it (or gives the error where it is not YAML), then each document
// is checked against the limits and normalized in turn, so that the first
// error is the one reported.
func readYAML(data []byte, file string, limits Limits) ([]*yaml.Node, error) {
	docs, _, err := readYAMLCounted(data, file, limits)
	return docs, err
}

// readYAMLCounted is readYAML, and returns what the stream's aliases did
// too.
func readYAMLCounted(data []byte, file string, limits Limits) ([]*yaml.Node, aliases, error) {
	docs, err := fastyaml.Parse(data, limits.MaxDepth)
	if err == nil {
		var al aliases
		for i, doc := range docs {
			if _, err := addDocument(docs[:i], doc, file, limits, &al); err != nil {
				return nil, aliases{}, err
			}
		}
		return docs, al, nil
	}
	var td *fastyaml.TooDeep
	if errors.As(err, &td) {
		// the documents before, and the count of documents, are checked
		// first, as they are when every document reads
		var al aliases
		for i, doc := range td.Docs {
			if _, err := addDocument(td.Docs[:i], doc, file, limits, &al); err != nil {
				return nil, aliases{}, err
			}
		}
		if limits.MaxDocuments > 0 && len(td.Docs) >= limits.MaxDocuments {
			return nil, aliases{}, limitError("documents", file, td.Doc.Line, td.Doc.Column, "more than %d documents in one stream", limits.MaxDocuments)
		}
		if td.Max < limits.MaxDepth || limits.MaxDepth <= 0 {
			// the deepest kmerge reads, not a limit --limit raises
			return nil, aliases{}, errorf(file, td.Line, td.Column, "nesting deeper than %d levels, the most kmerge reads", td.Max)
		}
		return nil, aliases{}, limitError("depth", file, td.Line, td.Column, "nesting deeper than %d levels", td.Max)
	}
	var fe *fastyaml.Error
	if errors.As(err, &fe) {
		return nil, aliases{}, errorf(file, fe.Line, fe.Column, "%s", fe.Msg)
	}
	return nil, aliases{}, err
}

// readYAMLRanges is readYAMLCounted with the byte ranges of the parse
// (fastyaml.ParseRanges), and whether normalizing changed a document
// (normalizeDoc): then the ranges are not all its nodes'.
func readYAMLRanges(data []byte, file string, limits Limits) ([]*yaml.Node, *fastyaml.Ranges, bool, error) {
	docs, ranges, err := fastyaml.ParseRanges(data, limits.MaxDepth)
	if err != nil {
		return nil, nil, false, err // (readYAMLCounted words the error)
	}
	var al aliases
	changed := false
	for i, doc := range docs {
		c, err := addDocument(docs[:i], doc, file, limits, &al)
		if err != nil {
			return nil, nil, false, err
		}
		changed = changed || c
	}
	return docs, ranges, changed, nil
}

// directiveWarnings warns of each %YAML directive of data that names a
// later 1.x version than 1.2, which kmerge reads as YAML 1.2.
func directiveWarnings(data []byte, opts Options) []Warning {
	var out []Warning
	for _, d := range yamlDirectives(data) {
		if minor, ok := version1x(d.version); ok && minor > 2 {
			line := d.line
			if opts.Line > 1 { // a part of a longer stream: the line in the file
				line += opts.Line - 1
			}
			out = append(out, Warning{Pos: Position{File: opts.File, Line: line, Column: 1},
				Msg: fmt.Sprintf("%%YAML %s: a later version of YAML 1 than kmerge reads; read as YAML 1.2", d.version)})
		}
	}
	return out
}

// version1x returns the minor version of a version 1.x (x digits only).
func version1x(v string) (minor int, ok bool) {
	rest, found := strings.CutPrefix(v, "1.")
	if !found || rest == "" || len(rest) > 9 {
		return 0, false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	minor, err := strconv.Atoi(rest)
	return minor, err == nil
}

// yamlDirective is a %YAML directive: its line (from 1), the offset of its
// version in the text, the version.
type yamlDirective struct {
	line, at int
	version  string
}

// yamlDirectives finds the %YAML directives of data where they can be: on
// the lines before a document's "---", at the start of the stream and
// after a "..." line (a "---" or "..." line ends a document whatever is in
// it).
func yamlDirectives(data []byte) []yamlDirective {
	if !bytes.Contains(data, []byte("%YAML")) {
		return nil
	}
	var out []yamlDirective
	prefix := true // before the first line of a document
	lineNo := 0
	for off := 0; off < len(data); {
		lineNo++
		end := bytes.IndexByte(data[off:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += off + 1
		}
		line := data[off:end]
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		switch {
		case bytes.HasPrefix(line, []byte("...")) && marker(line[3:]):
			prefix = true
		case bytes.HasPrefix(line, []byte("---")) && marker(line[3:]):
			prefix = false
		case prefix && bytes.HasPrefix(line, []byte("%YAML")):
			rest := line[len("%YAML"):]
			v := bytes.TrimLeft(rest, " \t")
			if len(v) < len(rest) {
				n := 0
				for n < len(v) && !marker(v[n:]) {
					n++
				}
				out = append(out, yamlDirective{line: lineNo, at: end - len(v), version: string(v[:n])})
			}
		case prefix && len(bytes.TrimSpace(line)) > 0 && line[0] != '%' && line[0] != '#':
			prefix = false // a document without "---"
		}
		off = end
	}
	return out
}

// otherBreaks reports whether data holds a line break that YAML counts
// and the line-based rules of outlines and cuts (where documents start,
// which lines a document holds) do not: a carriage return not followed by
// a line feed, or NEL, LS or PS (line breaks to kmerge's reader, as to
// yaml.v3). Such text is read whole: cut at "\n" alone, its documents'
// lines would be counted wrong.
func otherBreaks(data []byte) bool {
	return loneCR(data) || bytes.Contains(data, []byte("\u0085")) ||
		bytes.Contains(data, []byte("\u2028")) || bytes.Contains(data, []byte("\u2029"))
}

// loneCR reports whether data holds a carriage return that is not followed
// by a line feed.
func loneCR(data []byte) bool {
	for {
		i := bytes.IndexByte(data, '\r')
		if i < 0 {
			return false
		}
		if i+1 == len(data) || data[i+1] != '\n' {
			return true
		}
		data = data[i+2:]
	}
}

// marker reports whether rest, what follows "---", "..." or a directive's
// version on its line, ends it: nothing, or white space (and what follows).
func marker(rest []byte) bool {
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r'
}

// addDocument checks the document after docs against the limits and
// normalizes it; *al is what the aliases of docs did. changed reports
// whether normalizing changed the tree (normalizeDoc).
func addDocument(docs []*yaml.Node, doc *yaml.Node, file string, limits Limits, al *aliases) (changed bool, err error) {
	if limits.MaxDocuments > 0 && len(docs) >= limits.MaxDocuments {
		return false, limitError("documents", file, doc.Line, doc.Column, "more than %d documents in one stream", limits.MaxDocuments)
	}
	return normalizeDoc(doc, file, limits, al)
}

// DetectStyle returns the style of a YAML text: the indentation of nested
// mappings and whether block sequences under a key start at the key's
// column, as Read detects them (Stream.Style).
func DetectStyle(data []byte) Style { return detectStyle(data) }

// detectStyle finds the indentation of nested mappings and whether block
// sequences under a key start at the key's column. Each nested line votes.
func detectStyle(data []byte) Style {
	st := Style{Indent: 2}
	indentVotes := map[int]int{}
	compact, indented := 0, 0
	prevIndent, prevOpens := -1, false
	for rest := data; len(rest) > 0; {
		// a line ends at an LF or a CR: a lone CR is a line break to YAML
		// (a file of them had one line here, and the style 2 spaces, the
		// writer's lines indented otherwise than the source's); a CRLF's
		// LF ends a blank line, which votes for nothing
		line := rest
		if i := bytes.IndexAny(rest, "\r\n"); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' || bytes.HasPrefix(trimmed, []byte("---")) {
			continue
		}
		ind := len(line) - len(trimmed)
		isItem := trimmed[0] == '-' && (len(trimmed) == 1 || trimmed[1] == ' ')
		if prevOpens && prevIndent >= 0 {
			switch {
			case isItem && ind == prevIndent:
				compact++
			case isItem && ind > prevIndent:
				indented++
			case !isItem && ind > prevIndent:
				indentVotes[ind-prevIndent]++
			}
		}
		t := bytes.TrimRight(trimmed, " \r")
		prevOpens = len(t) > 0 && t[len(t)-1] == ':' && !isItem
		prevIndent = ind
	}
	best := 0
	for _, w := range []int{2, 4, 3, 8, 1, 5, 6, 7} { // fixed order: deterministic ties
		if indentVotes[w] > best {
			best, st.Indent = indentVotes[w], w
		}
	}
	st.CompactSequences = compact > indented
	return st
}

// WriteYAML writes the stream as YAML in its style.
//
// Without Snapshot, or for a stream read from JSON, every document is
// written by the writer (see the function WriteYAML). After
// Snapshot, documents of a stream read from YAML keep their text: a
// document that renders as its snapshot is copied byte for byte, and an
// edited one is the source text with only the changed lines replaced; see
// Snapshot for how, and for when it falls back to the writer's output.
func (s *Stream) WriteYAML(w io.Writer) error {
	if s.snapshot != nil && s.src != nil {
		return s.writePreserving(w)
	}
	if err := s.LoadAll(); err != nil {
		return err
	}
	return WriteYAML(w, s.Style, s.kept()...)
}

// WriteJSON writes each document of the stream as indented JSON, one after
// the other.
func (s *Stream) WriteJSON(w io.Writer) error {
	if err := s.LoadAll(); err != nil {
		return err
	}
	var b []byte
	for _, d := range s.kept() {
		var err error
		b, err = AppendJSON(b, d, "    ")
		if err != nil {
			return err
		}
		b = append(b, '\n')
	}
	_, err := w.Write(b)
	return err
}
