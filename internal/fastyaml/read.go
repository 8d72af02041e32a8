package fastyaml

import (
	"fmt"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/resolve"
)

// Error is the error of Parse for a stream that is not YAML: where it
// stops being YAML, and why.
type Error struct {
	Line, Column int    // from 1; the column in characters
	Msg          string // what is wrong there
	// Char is the character not allowed in YAML text the error is about,
	// Byte the byte that is not UTF-8; 0 otherwise.
	Char rune
	Byte byte
}

// Error says where and what.
func (e *Error) Error() string {
	return fmt.Sprintf("fastyaml: line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// TooDeep is the error of Parse for a document nested deeper than the
// limit it was given: a node inside more collections than the limit.
type TooDeep struct {
	Line, Column int // of the first node too deep (from 1)
	Max          int // the limit
	// Docs are the documents before the one too deep, read whole, and
	// Doc that document's node, with its position and no content: what
	// the caller checks of each document (its own limits) comes first.
	Docs []*yaml.Node
	Doc  *yaml.Node
}

// Error says where the nesting went past the limit.
func (e *TooDeep) Error() string {
	return fmt.Sprintf("fastyaml: line %d, column %d: nesting deeper than %d levels", e.Line, e.Column, e.Max)
}

// Unsupported is the error of Skim for a stream it leaves to Parse: a
// document with what only a full read decides (a key given twice, a merge
// key, an alias).
type Unsupported struct {
	Line   int    // the line (from 1) where Skim stopped
	Reason string // what it found there
}

// Error says what Skim declined and where.
func (e *Unsupported) Error() string {
	return fmt.Sprintf("fastyaml: line %d: %s: left to Parse", e.Line, e.Reason)
}

// MaxDepth is the deepest nesting Parse reads: a limit of 0, or above it,
// is this one. The reader follows collections by recursion, each level a
// few hundred bytes of stack.
const MaxDepth = 100000

// internalError starts the message of an error that is a panic of this
// package (a bug), which the tests fail on.
const internalError = "internal error"

// failure is what a reader panics with to stop at an error.
type failure struct {
	err *Error
}

// skimStop is what a skimming reader panics with to leave a stream to
// Parse.
type skimStop struct {
	line   int
	reason string
}

const (
	strTag   = "!!str"
	intTag   = "!!int"
	floatTag = "!!float"
	boolTag  = "!!bool"
	nullTag  = "!!null"
	timeTag  = "!!timestamp"
	mergeTag = "!!merge"
	mapTag   = "!!map"
	seqTag   = "!!seq"
)

// Parse reads a stream of YAML documents into the document nodes yaml.v3's
// Decoder returns for it, or returns an *Error saying where it is not YAML.
// A node inside more than maxDepth collections (0, or more than MaxDepth:
// MaxDepth) is a *TooDeep error, as tree's depth limit counts them: the
// root of a document is at depth 1, what a collection at depth d holds at
// d+1.
func Parse(data []byte, maxDepth int) (docs []*yaml.Node, err error) {
	docs, _, err = parse(data, maxDepth, false, false)
	return docs, err
}

// parse is Parse; dropLost drops the comments yaml.v3 drops, so that the
// tests compare the rest of the trees with yaml.v3's; ranges records the
// scalars' ranges (ParseRanges), which it returns.
func parse(data []byte, maxDepth int, dropLost, ranges bool) (docs []*yaml.Node, rs *Ranges, err error) {
	lines, norm, serr := survey(data)
	if serr != nil {
		return nil, nil, serr
	}
	r := newReader(data, lines, norm)
	r.dropLost = dropLost
	r.maxDepth = maxDepth
	if maxDepth <= 0 || maxDepth > MaxDepth {
		r.maxDepth = MaxDepth
	}
	if ranges {
		r.ranges = make([]span, 0, lines)
	}
	defer func() {
		if p := recover(); p != nil {
			docs, rs, err = nil, nil, r.recovered(p)
		}
	}()
	docs = r.stream()
	if !ranges {
		return docs, nil, nil
	}
	if norm {
		r.inputOffsets()
	}
	return docs, &Ranges{r.ranges}, nil
}

// recovered turns what a reader panicked with into the error Parse or Skim
// returns.
func (r *reader) recovered(p any) error {
	switch p := p.(type) {
	case *TooDeep:
		p.Docs, p.Doc = r.docs, r.doc
		return p
	case failure:
		return p.err
	case skimStop:
		return &Unsupported{Line: p.line, Reason: p.reason}
	}
	return &Error{Line: r.line + 1, Column: r.col(min(r.pos, r.end)) + 1, Msg: fmt.Sprintf("%s: %v", internalError, p)}
}

// A reader reads one stream. The parse is recursive descent over the
// lines of the text: every function that reads a node leaves the reader at
// the first byte of the next line with content (a node, or a document
// marker), its column in ind, the comments and blank lines on the way
// recorded for the comment rules.
type reader struct {
	src  string // the input (line breaks made \n) and padding NULs: values and comments are parts of it
	end  int    // the length of the input: src[end:] are the NULs
	pos  int    // the next byte to read
	line int    // the line of pos, from 0
	bol  int    // where that line begins

	// What the last skip found: ind is the column of the content at pos,
	// -1 at a document marker (mark is '-' or '.') or at the end (mark 0).
	ind      int
	mark     byte
	colon    int  // of the key keyAhead found
	tokEnd   int  // the end of the last token read, if not a plain scalar (-1)
	textEnd  int  // the end of the last plain or block scalar's text read (where tokEnd is -1)
	awaiting bool // skip: a node is awaited below an indicator (awaitLine)
	// the end (its line break) and the line of the last comment line
	// read (commentLine), where yaml.v3 looks on for the next comment
	// (commentPeek)
	comEnd, comLine int

	flowDepth  int  // the flow collections open
	explicitAt int  // key: where the flow collection read as a key has a "?" entry, -1 for none
	implicitIn bool // key: whether the flow collection read as a key has an entry without "?"
	noBlock    bool // the sequence about to be read is an indentless one
	valueSeq   bool // the sequence about to be read is a mapping's value
	dropLost   bool // drop the comments yaml.v3 drops (the tests' oracle mode)
	// rootPlain: skip reads the lines after a plain scalar at the root
	rootPlain bool
	prologue  bool // after a directive, before the --- line

	ckBol, ck, ckCol int // where col counted last: the line, offset, column

	depth    int          // of nesting: the collections open
	docs     []*yaml.Node // the documents read
	doc      *yaml.Node   // the document being read
	maxDepth int          // the deepest a node may be (Parse); 0: skimming
	open     []int        // the columns of the block collections being read
	ended    bool         // by a ... marker

	anchors      map[string]*yaml.Node // the nodes anchored so far, by name
	ranges       []span                // of the nodes, when recorded (ParseRanges)
	lastEnd      int                   // the end of the last node's text read, when recording ranges
	propsNull    *yaml.Node            // the last node of properties alone read (afterProps)
	flowPropsKey *yaml.Node            // the last key of properties alone, or empty after "?", before a colon in a flow collection (flowNode, flowPair)
	lineCom      [2]int                // the line and end of the last comment read after a node on its line (endLine)
	commented    bool                  // a comment ended the line of the last token (endLine; skip)
	handles      map[string]string     // the %TAG handles of the document, to their prefixes
	crlf         []int32               // the lines (from 0) that ended with "\r\n", ascending
	seps         []sepLine             // the lines that ended with NEL, LS or PS, ascending

	lines          int         // of the input, to size slabs
	slab           []yaml.Node // nodes to hand out
	ptrs           []*yaml.Node
	made, kidsMade int          // nodes and Content pointers handed out
	kids           []*yaml.Node // the children of the collections being read
	sbuf           []byte       // where values over lines are put together

	com commenter
	sk  *skimmer // set when skimming

	// The first room of the stacks above, in the reader's allocation.
	buf struct {
		kids   [64]*yaml.Node
		open   [16]int
		closed [16]closedColl
		lines  [16]gapLine
	}
}

func newReader(data []byte, lines int, norm bool) *reader {
	src, crlf, seps := normalize(data, norm)
	r := &reader{src: src, end: len(src) - padding, lines: lines, crlf: crlf, seps: seps}
	r.kids = r.buf.kids[:0]
	r.open = r.buf.open[:0]
	r.com.r = r
	r.com.closed = r.buf.closed[:0]
	r.com.lines = r.buf.lines[:0]
	return r
}

// fail stops the reader at an error at offset at of the current line.
func (r *reader) fail(at int, msg string) {
	if at < r.bol {
		at = r.bol
	}
	panic(failure{&Error{Line: r.line + 1, Column: r.col(min(at, r.end)) + 1, Msg: msg}})
}

// failf is fail with a formatted message.
func (r *reader) failf(at int, format string, args ...any) {
	r.fail(at, fmt.Sprintf(format, args...))
}

// failAt stops the reader at an error at a line and column (from 0).
func (r *reader) failAt(line, col int, msg string) {
	panic(failure{&Error{Line: line + 1, Column: col + 1, Msg: msg}})
}

// padding is the number of NUL bytes after the input in src: the reader
// looks a few bytes ahead without checking for the end, and stops at a NUL
// where the input has none (survey refuses them).
const padding = 8

// node hands out a node from a slab (slabSize), of at most 32 KiB, which
// keeping one node of it keeps.
func (r *reader) node(kind yaml.Kind, tag string, line, col int) *yaml.Node {
	if r.sk != nil {
		return r.sk.node(kind, tag, line, col)
	}
	if len(r.slab) == 0 {
		r.slab = make([]yaml.Node, r.slabSize(r.made))
	}
	if kind != yaml.DocumentNode {
		// a collection is made once it is entered (r.depth counts it);
		// anything else is one deeper than the collections open
		depth := r.depth
		if kind != yaml.MappingNode && kind != yaml.SequenceNode {
			depth++
		}
		if depth > r.maxDepth {
			panic(&TooDeep{Line: line + 1, Column: col + 1, Max: r.maxDepth})
		}
	}
	r.made++
	n := &r.slab[0]
	r.slab = r.slab[1:]
	n.Kind, n.Tag, n.Line, n.Column = kind, tag, line+1, col+1
	if (kind == yaml.ScalarNode || kind == yaml.AliasNode) && (r.com.nextFoot != "" || r.com.nextLine != "") {
		// (an alias is a scalar to yaml.v3's comment rules: "&x #\n- *x")
		r.com.firstScalar(n)
	}
	return n
}

const nodeSize = 152 // bytes of a yaml.Node on 64-bit platforms

// slabSize returns the number of nodes (or pointers) for the next slab,
// made of them so far: as many as the lines left will need at the rate of
// the lines read (two a line before many are read; manifests have one and
// a half to two and a half), at most 32 KiB of nodes.
func (r *reader) slabSize(made int) int {
	left := r.lines - r.line + 1
	n := 2*left + 4
	if r.line > 32 && made > 0 {
		n = made*left/r.line + 8
	}
	return min(max(16, n), 32<<10/int(nodeSize))
}

// content returns the children read since base as a slice of their own
// (no room after its end), and drops them from the stack.
func (r *reader) content(base int) []*yaml.Node {
	k := len(r.kids) - base
	if k == 0 {
		return nil
	}
	if len(r.ptrs) < k {
		// Sized as the slabs of nodes (one child a node): a slab of
		// pointers lives as long as the nodes it points to.
		n := r.slabSize(r.kidsMade)
		if r.sk != nil {
			n = 16 // few nodes are kept
		}
		r.ptrs = make([]*yaml.Node, max(k, n))
	}
	r.kidsMade += k
	c := r.ptrs[:k:k]
	r.ptrs = r.ptrs[k:]
	copy(c, r.kids[base:])
	clear(r.kids[base:])
	r.kids = r.kids[:base]
	return c
}

// col returns the column of offset i on the current line, in characters.
// It counts from where it counted last on the line (ck, whose column is
// ckCol), so that the columns of the many nodes of one long line cost one
// pass over it.
func (r *reader) col(i int) int {
	if r.ckBol != r.bol || i < r.ck {
		r.ckBol, r.ck, r.ckCol = r.bol, r.bol, 0
	}
	c := r.ckCol
	for j := r.ck; j < i; j++ {
		if b := r.src[j]; b < 0x80 || b >= 0xc0 {
			c++ // an ASCII byte, or the first of a character
		}
	}
	r.ck, r.ckCol = i, c
	return c
}

// colOf returns the column of offset at, on whatever line it is.
func (r *reader) colOf(at int) int {
	bol := strings.LastIndexByte(r.src[:at], '\n') + 1
	if bol == 0 && at >= 3 && strings.HasPrefix(r.src, "\ufeff") {
		bol = 3 // (columns count from after a byte order mark, as in col)
	}
	c := at - bol
	for j := bol; j < at; j++ {
		if r.src[j] >= 0x80 {
			return utf8.RuneCountInString(r.src[bol:at])
		}
	}
	return c
}

// isBlankAt reports whether src[i] separates tokens: space, tab, line
// break or the end.
func (r *reader) isBlankAt(i int) bool {
	switch r.src[i] {
	case ' ', '\t', '\n':
		return true
	case 0:
		return i >= r.end
	}
	return false
}

// skipSpace skips spaces and tabs on the current line.
func (r *reader) skipSpace() {
	for {
		switch r.src[r.pos] {
		case ' ', '\t':
			r.pos++
		default:
			return
		}
	}
}

// atEOL reports whether pos is at a line break or the end.
func (r *reader) atEOL() bool {
	c := r.src[r.pos]
	return c == '\n' || c == 0 && r.pos >= r.end
}

// atComment reports whether pos starts a comment: a '#' after a blank or
// at the start of a line.
func (r *reader) atComment() bool {
	if r.src[r.pos] != '#' {
		return false
	}
	return r.pos == r.bol || r.src[r.pos-1] == ' ' || r.src[r.pos-1] == '\t'
}

// newline moves pos past the line break at pos (or stays at the end).
func (r *reader) newline() {
	if r.src[r.pos] == '\n' {
		r.pos++
		r.line++
		r.bol = r.pos
	}
}

// crlfLine reports whether line (from 0) ended with "\r\n".
func (r *reader) crlfLine(line int) bool {
	if len(r.crlf) == 0 {
		return false
	}
	lo, hi := 0, len(r.crlf)
	for lo < hi {
		m := (lo + hi) / 2
		if int(r.crlf[m]) < line {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(r.crlf) && int(r.crlf[lo]) == line
}

// sepOf returns the NEL, LS or PS that ended line (from 0), or 0.
func (r *reader) sepOf(line int) rune {
	if len(r.seps) == 0 {
		return 0
	}
	lo, hi := 0, len(r.seps)
	for lo < hi {
		m := (lo + hi) / 2
		if int(r.seps[m].line) < line {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(r.seps) && int(r.seps[lo].line) == line {
		return r.seps[lo].sep
	}
	return 0
}

// textBreak returns the LS or PS that ended line, which a value keeps as
// itself where it keeps a line break (yaml.v3 reads it so), or 0 for
// another line break (which a value keeps as "\n", NEL too).
func (r *reader) textBreak(line int) rune {
	if s := r.sepOf(line); s != 0x85 {
		return s
	}
	return 0
}

// keepBreaks appends to b the n line breaks that ended the lines from
// line on, as a value keeps them: "\n", or LS or PS.
func (r *reader) keepBreaks(b []byte, line, n int) []byte {
	if len(r.seps) == 0 {
		for range n {
			b = append(b, '\n')
		}
		return b
	}
	for k := range n {
		if s := r.textBreak(line + k); s != 0 {
			b = utf8.AppendRune(b, s)
		} else {
			b = append(b, '\n')
		}
	}
	return b
}

// foldBreaks appends to b what the line break that ended line, and the
// empty lines after it, fold into between two lines of text: a space for
// the break alone, the empty lines' breaks when there are some (YAML's
// folding); but the break is kept when it is an LS or PS, which yaml.v3
// does not fold.
func (r *reader) foldBreaks(b []byte, line, empty int) []byte {
	if len(r.seps) == 0 {
		if empty == 0 {
			return append(b, ' ')
		}
		for range empty {
			b = append(b, '\n')
		}
		return b
	}
	if r.textBreak(line) != 0 {
		return r.keepBreaks(b, line, empty+1)
	}
	if empty == 0 {
		return append(b, ' ')
	}
	return r.keepBreaks(b, line+1, empty)
}

// endLine finishes the line of a node: blanks, perhaps a comment (the
// line comment, which the comment rules give to the node the line ends),
// the line break; then skips to the next content. loose allows a comment
// right after the node without a blank before it, as yaml.v3 does after
// a quoted scalar, a flow collection and a block scalar's header.
func (r *reader) endLine(loose bool) {
	r.skipSpace()
	switch c := r.src[r.pos]; {
	case c == '#':
		if !loose && r.pos > r.bol && r.src[r.pos-1] != ' ' && r.src[r.pos-1] != '\t' {
			r.fail(r.pos, "a comment without a blank before it")
		}
		s := r.pos
		for r.src[r.pos] != '\n' && r.pos < r.end {
			r.pos++
		}
		r.com.lineComment(s, r.pos)
		r.lineCom = [2]int{r.line, r.pos}
		r.commented = true
	case c == '\n' || r.pos >= r.end:
	default:
		r.fail(r.pos, "more text after the end of a value")
	}
	r.newline()
	r.skip()
}

// awaitLine ends the line of an indicator or properties whose node is on
// the lines below: yaml.v3 refuses a tab on the blank lines before it
// ("a:\n \t\n"), however indented.
func (r *reader) awaitLine() {
	r.awaiting = true
	r.endLine(false)
	r.awaiting = false
}

// skip reads blank lines and comment lines from the start of a line up to
// the next content, and sets ind and mark.
func (r *reader) skip() {
	// hush: the last comment line ended with NEL, LS or PS, after which
	// yaml.v3's comment rules see no blank line up to the next line with
	// text
	hush := false
	// commented: a comment was read since the last token (on its line,
	// or a line of its own): yaml.v3 refuses a tab on a blank line after
	// one, outside the prologue, unless the last was on a line of its
	// own and a comment line is next ("a: b #c\n \t" and "a: b #c\n
	// \t\n#" are refused, "a: b\n#\n \t\n#" read; attack, 2026-11-29),
	// where after a plain scalar alone the scalar takes the blank lines.
	// lineCom: the last comment read was the token's line's
	commented, lineCom := r.commented, r.commented
	r.commented = false
	// in the prologue, yaml.v3 eats a tab on the line right after a
	// directive (its scanner allows no simple key there), and on a later
	// line only where it looks on from a comment line to a comment
	// (commentPeek): "%YAML 1.2\n\t#\n---" is read, "%YAML 1.2\n\n\t#\n---"
	// and "%YAML 1.2\n#\n \t\n---" refused (attack, 2026-11-30)
	first := r.line
	for {
		s := r.pos
		for r.src[r.pos] == ' ' {
			r.pos++
		}
		switch c := r.src[r.pos]; c {
		case '\n':
			if !hush {
				r.com.blank()
			}
			r.newline()
			continue
		case '\t':
			// a tab after the indentation: a blank line, a comment line,
			// or content that cannot start so; yaml.v3 refuses a tab
			// not indented more than the block being read
			// not indented more than the block being read, but in the
			// blank lines right after a plain scalar at the root (up to
			// a comment), which yaml.v3 reads ("0\n\t")
			bad := len(r.open) == 0 && !r.prologue || len(r.open) > 0 && r.pos-s <= r.indentNow() || r.awaiting || (r.tokEnd >= 0 || lineCom || commented && !r.commentPeek(r.pos)) && !r.prologue ||
				r.prologue && r.line > first && (lineCom || !commented || !r.commentPeek(r.pos))
			if bad && !r.rootPlain {
				r.tabIndent(r.pos)
			}
			j := r.pos
			for r.src[j] == ' ' || r.src[j] == '\t' {
				j++
			}
			switch r.src[j] {
			case '\n':
				r.pos = j
				if !hush {
					r.com.blank()
				}
				r.newline()
				continue
			case '#':
				r.pos = j
				hush = r.commentLine()
				r.rootPlain = false
				commented, lineCom = true, false
				continue
			case 0:
				if j >= r.end {
					r.pos = j
					continue
				}
			}
			if bad {
				r.tabIndent(r.pos)
			}
			r.ind = r.pos - s
			return
		case '#':
			hush = r.commentLine()
			r.rootPlain = false
			commented, lineCom = true, false
			continue
		case 0:
			if r.pos >= r.end {
				if r.pos > s && !hush {
					r.com.blank()
				}
				r.ind, r.mark = -1, 0
				return
			}
		case '-', '.':
			if r.pos == s && r.isMarker(c) {
				r.ind, r.mark = -1, c
				return
			}
		}
		r.ind = r.pos - s
		return
	}
}

// commentNext reports whether the first line from offset at on that is
// not blank (spaces and tabs) is a comment line.
func (r *reader) commentNext(at int) bool {
	for i := at; i < r.end; i++ {
		switch r.src[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '#':
			return true
		}
		return false
	}
	return false
}

// commentPeek reports whether the first line from offset at on that is
// not blank is a comment line (commentNext) that yaml.v3's scanner, after
// the last comment line read, reads on to: it looks over blanks and line
// breaks up to 512 bytes of the input from that line's end, and stops at
// a NEL, LS or PS ("a: .\n#\n \t#" is read, "a: .\n#\u0085 \t#"
// refused; attack, 2026-11-30).
func (r *reader) commentPeek(at int) bool {
	if !r.commentNext(at) {
		return false
	}
	j := at
	for r.src[j] != '#' {
		j++
	}
	line, more := r.comLine, 0 // (the bytes the input has more: CRLF, NEL, LS, PS)
	for i := r.comEnd; i < j; i++ {
		if r.src[i] != '\n' {
			continue
		}
		if r.sepOf(line) != 0 {
			return false
		}
		if r.crlfLine(line) {
			more++
		}
		line++
	}
	return j-r.comEnd+more < 512
}

// indentNow returns the column of the innermost block collection being
// read, 0 outside any.
func (r *reader) indentNow() int {
	if len(r.open) == 0 {
		return 0
	}
	return r.open[len(r.open)-1]
}

// commentLine reads a line holding only a comment, from its '#', and
// reports whether a NEL, LS or PS ended it.
func (r *reader) commentLine() bool {
	col := r.col(r.pos)
	cs := r.pos
	for r.src[r.pos] != '\n' && r.pos < r.end {
		r.pos++
	}
	r.com.commentLine(cs, r.pos, col)
	r.comEnd, r.comLine = r.pos, r.line
	if r.crlfLine(r.line) {
		r.com.blank()
	}
	sep := r.sepOf(r.line) != 0
	r.newline()
	return sep
}

// isMarker reports whether the line at pos (its start) begins with a
// document marker: three c and a blank.
func (r *reader) isMarker(c byte) bool {
	return r.isMarkerAt(r.pos, c)
}

// isMarkerAt reports whether the line at i (its start) begins with a
// document marker: three c and a blank.
func (r *reader) isMarkerAt(i int, c byte) bool {
	return r.src[i] == c && r.src[i+1] == c && r.src[i+2] == c && r.isBlankAt(i+3)
}

// blockScalarOutdented fails at a block scalar's header (| or >) that
// starts a line where a key, a dash or nothing is expected: yaml.v3 reads
// it as the empty value above it, YAML 1.2 refuses it (a value is indented
// more than its key or dash).
func (r *reader) blockScalarOutdented() {
	if c := r.src[r.pos]; c == '|' || c == '>' {
		r.failf(r.pos, "a block scalar (%c) indented no more than the key or dash it would be the value of: indent it more", c)
	}
}

// atTab fails at a tab where indentation is: YAML indents with spaces.
func (r *reader) tabIndent(at int) {
	i := at
	for r.src[i] == ' ' || r.src[i] == '\t' {
		i++
	}
	if r.src[i] == '#' {
		// yaml.v3 reads it on a line after a comment line, refuses it
		// elsewhere
		r.fail(at, "a tab before a comment at the start of a line (indent comments with spaces)")
	}
	if r.src[i] == '\n' || i >= r.end {
		// yaml.v3 reads it between two comment lines ("#\n\t\n#"),
		// refuses it elsewhere
		r.fail(at, "a tab on a blank line (remove it)")
	}
	r.fail(at, "a tab character in indentation (YAML indents with spaces)")
}

// byteOrderMark steps over a byte order mark at the start of the stream,
// from which columns count.
func (r *reader) byteOrderMark() {
	if strings.HasPrefix(r.src, "\ufeff") {
		r.pos, r.bol = 3, 3
		if strings.HasPrefix(r.src[3:], "\ufeff") {
			// yaml.v3 skips a second one, counting it as a column or
			// not depending on what follows
			r.fail(3, "a second byte order mark at the start of the stream (remove it)")
		}
	}
}

// stream reads every document.
func (r *reader) stream() []*yaml.Node {
	r.byteOrderMark()
	r.skip()
	for {
		if r.ind < 0 && r.mark == 0 {
			r.com.streamEnd(r.docs)
			return r.docs
		}
		r.com.firstDoc = len(r.docs) == 0
		r.docs = append(r.docs, r.document())
	}
}

// document reads one document, from its directives or marker or content
// to its end (the next marker or the end of the stream).
func (r *reader) document() *yaml.Node {
	line, col := r.line, r.col(r.pos)
	directive := false
	r.handles = nil
	version := false
	for r.ind == 0 && r.src[r.pos] == '%' {
		if r.ended || len(r.docs) == 0 || directive {
			// (directives start a document: the first, or one after a
			// ... marker)
		} else {
			r.fail(r.pos, "a directive inside a document (end the one before with ...)")
		}
		if r.directive(&version) {
			directive = true
		}
	}
	if r.ended && !directive && !(r.ind < 0 && r.mark == '-') && r.ind >= 0 {
		r.fail(r.pos, "a document after a ... line without a --- line before it")
	}
	if directive && !(r.ind < 0 && r.mark == '-') {
		if r.ind < 0 && r.mark == 0 {
			r.fail(r.pos, "directives without a document after them (--- missing)")
		}
		r.fail(r.pos, "directives without a --- line after them")
	}
	r.ended = false
	r.prologue = false
	doc := r.node(yaml.DocumentNode, "", line, col)
	r.doc = doc
	var root *yaml.Node
	switch {
	case r.ind < 0 && r.mark == '-':
		if !directive {
			line, col = r.line, 0
			doc.Line, doc.Column = line+1, 1
		}
		r.pos += 3
		r.com.marker()
		root = r.afterMarker()
	case r.ind < 0 && r.mark == '.':
		r.fail(r.pos, "a document end marker (...) without a document")
	default:
		doc.Line, doc.Column = r.line+1, r.ind+1
		r.com.docHead(doc)
		root = r.block(-1, props{})
	}
	if r.ind >= 0 {
		if r.ind == 0 && r.src[r.pos] == '%' {
			r.fail(r.pos, "a directive (%) inside a document (end the document with a ... line before it)")
		}
		r.blockScalarOutdented()
		r.fail(r.pos, "more content after the end of the document's root node (is it indented less than the lines before?)")
	}
	if emptyNull(root) && r.com.emptyRoot == nil && r.com.prehead != "" {
		// a root of properties alone ("#\n---\n!"): yaml.v3 gives the
		// comments before the --- line to the document, as when it is
		// empty
		r.com.emptyDoc(root)
	}
	doc.Content = []*yaml.Node{root}
	r.com.docEnd(doc, root, r.mark == 0)
	if r.mark == '.' {
		r.ended = true
		for r.ind < 0 && r.mark == '.' {
			r.pos += 3
			r.com.endMarker()
			r.endLine(false)
		}
	}
	r.com.emptyRoot = nil
	return doc
}

// afterMarker reads the root of a document from after its --- marker.
func (r *reader) afterMarker() *yaml.Node {
	r.skipSpace()
	if r.atEOL() || r.atComment() {
		r.com.markerLine()
		r.endLine(false)
		if r.ind < 0 {
			// An empty document: a null where the next token is.
			line, col := r.line, 0
			if r.mark == 0 && r.end > 0 && r.src[r.end-1] != '\n' {
				line++ // the end is on a line of its own
			}
			root := r.node(yaml.ScalarNode, nullTag, line, col)
			r.com.emptyDoc(root)
			return root
		}
		return r.block(-1, props{})
	}
	if r.src[r.pos] == '#' {
		r.fail(r.pos, "a comment without a blank before it")
	}
	if c := r.src[r.pos]; c == '&' || c == '!' {
		// properties: the comments before go to what is below them,
		// if they end the line
		p := r.props(false)
		if r.atEOL() || r.atComment() {
			return r.afterProps(-1, p, false)
		}
		head := r.com.first()
		root := r.inline(-1, p, true)
		if head != "" {
			r.com.give(&root.HeadComment, head)
		}
		return root
	}
	head := r.com.first()
	root := r.valueNode(-1, false, nil, false)
	if head != "" {
		r.com.give(&root.HeadComment, head)
	}
	return root
}

// directive reads a directive line: %YAML (of a version 1.x, all read as
// YAML 1.2 is; yaml.v3 reads 1.1 only, and kmerge reads later 1.x with a
// warning from its caller) or %TAG. It reports whether it read one.
func (r *reader) directive(version *bool) bool {
	start := r.pos
	r.pos++
	name := r.pos
	for !r.isBlankAt(r.pos) {
		r.pos++
	}
	switch r.src[name:r.pos] {
	case "YAML":
		if *version {
			r.fail(start, "a second %YAML directive for one document")
		}
		*version = true
		r.skipSpace()
		v := r.pos
		for !r.isBlankAt(r.pos) {
			if r.src[r.pos] == '#' {
				r.fail(r.pos, "a comment without a blank before it")
			}
			r.pos++
		}
		if version := r.src[v:r.pos]; !versionOK(version) {
			major, minor, dot := strings.Cut(version, ".")
			switch m := strings.TrimLeft(major, "0"); {
			case version == "":
				r.fail(start, "a %YAML directive without a version (kmerge reads YAML 1.2: %YAML 1.2)")
			case !dot || !digits(major) || !digits(minor):
				r.failf(start, "%%YAML %s: not a version number, which is two numbers and a dot (kmerge reads YAML 1.2: %%YAML 1.2)", version)
			case digits(major) && digits(minor) && (len(major) > 2 || len(minor) > 2):
				r.failf(start, "%%YAML %s: a version number of more than two digits, which YAML readers (yaml.v3, kubectl's) refuse (kmerge reads YAML 1.2; documents marked 1.1 or a later 1.x read as 1.2)", version)
			case digits(major) && m != "1" && m != "":
				r.failf(start, "%%YAML %s: YAML %s is a later major version than kmerge reads (YAML 1.2; documents marked 1.1 or a later 1.x read as 1.2)", version, m)
			}
			r.failf(start, "%%YAML %s: kmerge reads YAML 1.2 (documents marked 1.1 or a later 1.x read as 1.2)", version)
		}
	case "TAG":
		r.skipSpace()
		h := r.pos
		if r.src[r.pos] != '!' {
			r.fail(h, "a %TAG directive's handle must start with !")
		}
		r.pos++
		for isWordChar(r.src[r.pos]) {
			r.pos++
		}
		if r.src[r.pos] == '!' {
			r.pos++
		} else if r.pos > h+1 {
			r.fail(h, "a %TAG directive's handle must be !, !! or !name!")
		}
		handle := r.src[h:r.pos]
		if !r.isBlankAt(r.pos) || r.atEOL() {
			r.fail(r.pos, "a %TAG directive without a prefix")
		}
		r.skipSpace()
		p := r.pos
		for !r.isBlankAt(r.pos) {
			r.pos++
		}
		if r.pos == p {
			r.fail(p, "a %TAG directive without a prefix")
		}
		prefix := r.uri(p, r.pos, true)
		if r.handles == nil {
			r.handles = map[string]string{}
		}
		if _, dup := r.handles[handle]; dup {
			r.failf(h, "the tag handle %s defined twice", handle)
		}
		r.handles[handle] = prefix
	default:
		r.failf(start, "an unknown directive %%%s (kmerge knows %%YAML and %%TAG)", r.src[name:r.pos])
	}
	r.com.noComment()
	r.prologue = true
	r.endLine(false)
	return true
}

// versionOK reports whether a %YAML directive's version is one kmerge
// reads: 1.x with x at least 1.
func versionOK(v string) bool {
	major, minor, ok := strings.Cut(v, ".")
	if !ok || !digits(major) || !digits(minor) || len(major) > 2 || len(minor) > 2 {
		return false
	}
	// as numbers, of two digits at most as yaml.v3 reads them: 1.00 is
	// 1.0, which it refuses; 01.1 is 1.1
	return strings.TrimLeft(major, "0") == "1" && strings.TrimLeft(minor, "0") != ""
}

// digits reports whether s is one decimal digit or more.
func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// isWordChar reports whether c may be in a tag handle's name or an anchor
// name as yaml.v3 reads them: a letter, a digit, '-' or '_'.
func isWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// enter and leave count the nesting of collections.
func (r *reader) enter() {
	r.depth++
	if r.sk != nil && r.depth > skimDepth {
		panic(skimStop{r.line + 1, "collections nested too deep"})
	}
}

// skimDepth bounds the nesting Skim follows: deeper documents are read
// whole, by Parse, which knows the caller's limit.
const skimDepth = 1000

func (r *reader) leave() { r.depth-- }

// block reads the node at pos, the first content of its line, inside a
// block at column parent. p are properties read on the lines before, for
// this node.
func (r *reader) block(parent int, p props) *yaml.Node {
	return r.blockIn(parent, p, false)
}

// blockIn is block, for a mapping's value when seq (a block sequence may
// follow properties at parent's column).
func (r *reader) blockIn(parent int, p props, seq bool) *yaml.Node {
	if r.src[r.pos] == '\t' {
		r.tabIndent(r.pos)
	}
	if r.src[r.pos] == '%' && r.ind == 0 {
		r.fail(r.pos, "a directive (%) inside a document (end the document with a ... line before it)")
	}
	c := r.src[r.pos]
	switch {
	case c == '-' && r.isBlankAt(r.pos+1):
		return r.sequence(r.ind, p)
	case c == '?' && r.isBlankAt(r.pos+1):
		return r.mapping(r.ind, p)
	case c == ':' && r.isBlankAt(r.pos+1):
		r.fail(r.pos, "a value (:) without a key")
	}
	if r.keyAhead() {
		return r.mapping(r.ind, p)
	}
	if c == '&' || c == '!' {
		// properties on a line of their own, or before a node on this
		// line
		q := r.props(false)
		p = r.merge(p, q)
		if r.atEOL() || r.atComment() {
			return r.afterProps(parent, p, seq)
		}
	}
	head := r.com.first()
	n := r.inline(parent, p, false)
	if head != "" {
		r.com.give(&n.HeadComment, head)
	}
	return n
}

// propsAlone reports whether the line from pos holds properties and
// nothing after them but a comment.
func (r *reader) propsAlone() bool {
	i := r.pos
	if c := r.src[i]; c != '&' && c != '!' {
		return false
	}
	for {
		switch c := r.src[i]; c {
		case '&', '!':
			for !r.isBlankAt(i) {
				i++
			}
			for r.src[i] == ' ' || r.src[i] == '\t' {
				i++
			}
			continue
		case '\n', '#':
			return true
		case 0:
			return i >= r.end
		}
		return false
	}
}

// merge returns the properties p and q, read for one node on two lines,
// unless both give an anchor or a tag.
func (r *reader) merge(p, q props) props {
	if !p.has {
		return q
	}
	if !q.has {
		return p
	}
	if p.anchor != "" && q.anchor != "" || p.hasTag && q.hasTag {
		r.failAt(q.line, q.col, "two anchors or two tags for one node")
	}
	if q.anchor != "" {
		p.anchor = q.anchor
	}
	if q.hasTag {
		p.tag, p.tagged, p.hasTag = q.tag, q.tagged, true
	}
	p.end = q.end // (its properties are over lines: no range, ranged)
	return p
}

// afterProps reads what follows properties that end their line: the node
// on the lines below, more indented than parent (a block sequence may be
// at parent's column for a mapping's value: seq), or an empty node with
// them.
func (r *reader) afterProps(parent int, p props, seq bool) *yaml.Node {
	r.com.propsEnd()
	r.awaitLine()
	switch {
	case r.ind > parent:
		// (more properties there may be followed by a block sequence at
		// parent's column too: "? !t\n  &a\n- a"; a hunt, 2026-11-29)
		return r.blockIn(parent, p, seq)
	case seq && r.ind == parent && r.src[r.pos] == '-' && r.isBlankAt(r.pos+1):
		return r.indentless(parent, p)
	}
	n := r.node(yaml.ScalarNode, "", p.line, p.col)
	r.scalarProps(n, p, "")
	r.ranged(n, p, p.start, p.end)
	r.propsNull = n
	return n
}

// mapping reads a block mapping whose keys are at column col, the first
// at pos; p are properties read before it, on lines of their own.
func (r *reader) mapping(col int, p props) *yaml.Node {
	r.enter()
	line, c := r.line, col
	if p.has {
		line, c = p.line, p.col
	}
	m := r.node(yaml.MappingNode, mapTag, line, c)
	r.collectionProps(m, p)
	opened := r.rangeOpen(m, p)
	base := len(r.kids)
	keys := 0
	if r.sk != nil {
		keys = len(r.sk.keys)
	}
	head := r.com.first()
	r.open = append(r.open, col)
	set := -1 // when skimming, the table of the keys (once many)
	for {
		if r.src[r.pos] == '?' && r.isBlankAt(r.pos+1) {
			r.complexEntry(col, head)
		} else if r.sk != nil {
			r.sk.entry(r, col, keys, &set)
		} else {
			key := r.key()
			if head != "" {
				r.com.give(&key.HeadComment, head)
			}
			r.kids = append(r.kids, key)
			r.kids = append(r.kids, r.value(col, key))
		}
		if r.ind != col {
			break
		}
		c := r.src[r.pos]
		switch {
		case c == '-' && r.isBlankAt(r.pos+1):
			r.fail(r.pos, "a list item where a key of the mapping is expected")
		case c == ':' && r.isBlankAt(r.pos+1):
			r.fail(r.pos, "a value (:) without a key")
		case c == '?' && r.isBlankAt(r.pos+1):
		case c == '%' && col == 0:
			// (yaml.v3 ends the document there: FuzzDifferential,
			// 2026-11-29, "0: \n%YAML 1.1\n---")
			r.fail(r.pos, "a directive (%) inside a document (end the document with a ... line before it)")
		case !r.keyAhead():
			r.blockScalarOutdented()
			r.fail(r.pos, "text where a key of the mapping is expected (a key needs a colon and a space after it)")
		}
		if r.sk == nil {
			head = r.com.next(col, r.kids[len(r.kids)-2], false)
		} else {
			head = ""
		}
	}
	if r.ind > col {
		r.fail(r.pos, "a line indented more than its mapping's keys, where a key is expected (is a key indented otherwise than its siblings, or does the line above lack a colon?)")
	}
	if r.sk != nil {
		r.sk.keys = r.sk.keys[:keys]
		r.sk.endSet(set)
	}
	m.Content = r.content(base)
	r.rangeClose(opened)
	r.open = r.open[:len(r.open)-1]
	r.com.collectionEnd(m, col, true)
	r.leave()
	return m
}

// complexEntry reads an entry of a block mapping at column col with an
// explicit key: "? key", then perhaps ": value" at col.
func (r *reader) complexEntry(col int, head string) {
	if r.sk != nil {
		panic(skimStop{r.line + 1, "a complex key"})
	}
	q, qline := r.pos, r.line
	r.pos++ // the ?
	r.tokEnd = r.pos
	key := r.compact(col, r.pos, head, true, nil)
	r.kids = append(r.kids, key)
	if r.ind == col && r.src[r.pos] == ':' && r.isBlankAt(r.pos+1) {
		head := r.com.first()
		r.pos++
		v := r.compact(col, r.pos, head, true, key)
		if head != "" && emptyNull(v) && r.com.undefer(head) {
			// a value of properties alone: its head comment the next
			// token's, as an empty key's below ("? a\n#c\n: !t\nb: 1")
			r.com.carry(head)
		}
		r.kids = append(r.kids, v)
		return
	}
	if key.Kind == yaml.ScalarNode && key.Value == "" && key.Style == 0 && key.Anchor == "" && key.Tag == nullTag {
		// yaml.v3 places the comments and the nulls of such an entry
		// in ways no rule describes
		r.failAt(qline, r.colOf(q), "a '?' with neither a key nor a value after it (write the key, or remove the ?)")
	}
	if head != "" && emptyNull(key) && r.com.undefer(head) {
		// a key of properties alone without a value: yaml.v3 takes it
		// as an empty key, whose head comment the next token takes
		// ("#h\n? !t\nb: 1", as for an item: "#\n- !t\n- x"; a hunt,
		// 2026-11-29)
		r.com.carry(head)
	}
	if key.Kind == yaml.MappingNode || key.Kind == yaml.SequenceNode {
		// nor those of an entry whose key is a collection (the null
		// where the key's last token is, its last empty value, its
		// comment, the end of the stream or a line of blanks, by rules
		// of each shape: FuzzDifferential found a new one each hour)
		r.failAt(qline, r.colOf(q), "a '?' whose key is a list or a mapping, without a value (:) after it (write ': ' and the value, or ': {}' for none)")
	}
	// no value: a null where the next token is (yaml.v3: where the end
	// of the mapping is, when it ends, right after the key's last token
	// unless that is a plain scalar)
	line, c := r.line, max(r.ind, 0)
	switch {
	case r.ind < col && r.com.firstCommentAt(col) > r.lastTokenEnd():
		// the mapping ends with comments, the first at its column
		// (yaml.v3: on that comment's line, a column after its '#'),
		// after the key's last token (not a comment the key's
		// properties alone carry, before them: "?\n#\n !0" has the null
		// at the end; FuzzDifferential, 2026-11-30)
		s := r.com.firstCommentAt(col)
		line, c = strings.Count(r.src[:s], "\n"), col+1
	case r.ind < col && r.lineCom[1] > q && r.lineCom[0] >= lastLine(key) && r.lineCom[1] > r.lastTokenEnd() && !(r.ind < 0 && (col == 0 || r.mark == 0 && r.lastLineWide(col))):
		// a comment on the line the key ends, after its last token
		// (not after properties with a property or the text on the
		// line below: "? !t #c\n  &a", "  ? ! #c\n    a\n---"), the
		// mapping ending there:
		// yaml.v3 puts the null after it ("? a #c"), unless the stream
		// or the document ends after it, the mapping at column 0 (then
		// at the end or the marker), or the stream ends without a line
		// break on a line as wide as the mapping (at the end; not the
		// document: "  ? a #c\n--- aaaa" has it after the comment)
		line, c = r.lineCom[0], r.colOf(r.lineCom[1]-strings.Count(r.src[r.lineCom[1]-1:r.lineCom[1]], "\r"))
	case r.ind < col && r.tokEnd < 0 && !(r.mark != 0 && col == 0) && r.firstCommentOther(q, col) >= 0:
		// the mapping ends with comments, the first at another column,
		// after a plain key (the stream not ending without a line break,
		// a root mapping not ended by a document marker, which takes it:
		// "? a\n #c\n---\n"): at its '#'
		s, cc := r.com.firstComment()
		line, c = strings.Count(r.src[:s], "\n"), cc
	case r.ind < 0 && r.mark == 0 && col > 0 && r.emptyEnd(key) != nil && r.endsLineOf(r.emptyEnd(key)):
		// a key ending with an empty value on the stream's last line,
		// and its line break: yaml.v3 puts the null where that value's
		// is (" ? a:\n"), or after the comment on its line
		e := r.emptyEnd(key)
		line, c = e.Line-1, r.afterComment(e.Line-1, e.Column-1)
	case r.ind < 0 && r.mark == 0 && col > 0 && r.shortBlankEnd(col) >= 0 && r.emptyEnd(key) != nil && r.emptyEnd(key).Line-1 == strings.Count(r.src[:r.end], "\n"):
		// a key ending with a null on a last line of blanks narrower
		// than the mapping (its own "? a" ended there): the same place
		// ("  ? ? a\n ")
		e := r.emptyEnd(key)
		line, c = e.Line-1, e.Column-1
	case r.ind < 0 && r.mark == 0 && col > 0 && r.emptyEnd(key) != nil && r.emptyEnd(key).Line-1 > qline && r.end > 0 && r.src[r.end-1] != '\n':
		// the same on a line below the "?", without a line break: at the
		// end (" ?\n  a:")
		line, c = r.endPos()
	case r.ind < 0 && r.mark == 0 && r.tokEnd < 0 && col > 0 && r.shortBlankEnd(col) >= 0:
		// after a plain key, a last line of blanks alone without a line
		// break, narrower than the mapping: yaml.v3 ends the mapping on
		// that line ("  ? 0\n ")
		line, c = strings.Count(r.src[:r.end], "\n"), r.shortBlankEnd(col)
	case r.ind < 0 && r.mark == 0 && (col == 0 || r.tokEnd < 0 || r.endsAtColumn(r.tokEnd, col)):
		line, c = r.endPos()
	case (r.ind >= 0 || r.mark != 0) && r.ind < col && r.emptyEnd(key) != nil:
		// a key ending with an empty value, the mapping ended by a line
		// indented less or a marker: where that value's null is too
		// ("- ? a: \n- b"), or after the comment on its line
		e := r.emptyEnd(key)
		line, c = e.Line-1, r.afterComment(e.Line-1, e.Column-1)
	case r.mark != 0 && col == 0:
		// a root mapping ended by a document marker, as by the stream's
		// end: at the marker, whatever token ends the key ("? !0" or
		// "? 'q'", then "---"; FuzzDifferential, 2026-11-29)
	case r.ind < col && r.tokEnd >= 0:
		line = strings.Count(r.src[:r.tokEnd], "\n")
		c = r.afterComment(line, r.colOf(r.tokEnd))
	}
	r.kids = append(r.kids, r.node(yaml.ScalarNode, nullTag, line, c))
}

// lastTokenEnd returns the end of the last token read, a plain or block
// scalar's text too.
func (r *reader) lastTokenEnd() int {
	if r.tokEnd >= 0 {
		return r.tokEnd
	}
	return r.textEnd
}

// afterComment returns the column after the comment on line (0-based)
// from column col on, or col when none is there.
func (r *reader) afterComment(line, col int) int {
	at := 0
	for range line {
		at += strings.IndexByte(r.src[at:], '\n') + 1
	}
	text := r.src[at:]
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	if col < len(text) && strings.Contains(text[col:], "#") {
		return r.colOf(at + len(strings.TrimSuffix(text, "\r")))
	}
	return col
}

// firstCommentOther returns the offset of the first comment line of the
// gap after an explicit key at offset q when it is at a column other than
// the mapping's (firstCommentAt takes that), unless the stream ends
// without a line break after it (yaml.v3 puts the null at the end then;
// not a document ended by a marker: "- ? a\n #c\n---" has it at the '#',
// nor a last line of blanks narrower than the mapping at column col:
// "- ? a\n #c\n "); -1 otherwise.
func (r *reader) firstCommentOther(q, col int) int {
	s, _ := r.com.firstComment()
	if s < q || r.ind < 0 && r.mark == 0 && r.end > 0 && r.src[r.end-1] != '\n' && r.shortBlankEnd(col) < 0 {
		return -1
	}
	return s
}

// lastLineWide reports whether the stream ends without a line break, its
// last line at least col wide.
func (r *reader) lastLineWide(col int) bool {
	if r.end == 0 || r.src[r.end-1] == '\n' {
		return false
	}
	return r.end-(strings.LastIndexByte(r.src[:r.end], '\n')+1) >= col
}

// lastLine returns the line (from 0) of the last node of n in the text, a
// block scalar's a line after all (its text is below its header).
func lastLine(n *yaml.Node) int {
	for len(n.Content) > 0 && n.Kind != yaml.AliasNode {
		n = n.Content[len(n.Content)-1]
	}
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Line
	}
	return n.Line - 1
}

// emptyEnd returns the last node of key, a block collection, when it is
// an empty value without properties in the text (emptyLast; "!" alone
// marks none on the node), or nil.
func (r *reader) emptyEnd(key *yaml.Node) *yaml.Node {
	if e := emptyLast(key); e != nil && e != r.propsNull {
		return e
	}
	return nil
}

// endsAtColumn reports whether the stream ends on the line of offset at,
// or on a last line of blanks alone, without a line break, at least col
// wide: where yaml.v3 ends the collections open by the end of the stream,
// not by a line indented less.
func (r *reader) endsAtColumn(at, col int) bool {
	nl := strings.LastIndexByte(r.src[at:r.end], '\n')
	if nl < 0 {
		return true
	}
	last := r.src[at+nl+1 : r.end]
	return len(last) >= col && strings.Trim(last, " ") == ""
}

// emptyLast returns the last node of block collection n (through its
// last block collections) when it is an empty null (an empty value), or
// nil.
func emptyLast(n *yaml.Node) *yaml.Node {
	block := func(n *yaml.Node) bool {
		return (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0
	}
	if !block(n) {
		return nil
	}
	for block(n) {
		n = n.Content[len(n.Content)-1]
	}
	if n.Kind == yaml.ScalarNode && n.Value == "" && n.Tag == nullTag && n.Style == 0 && n.Anchor == "" {
		return n
	}
	return nil
}

// endsLineOf reports whether the stream's last line is n's, ended by a
// line break.
func (r *reader) endsLineOf(n *yaml.Node) bool {
	return r.end > 0 && r.src[r.end-1] == '\n' && strings.Count(r.src[:r.end], "\n") == n.Line
}

// shortBlankEnd returns the width of the stream's last line when it is of
// blanks alone, without a line break, and narrower than col but not
// empty; -1 otherwise.
func (r *reader) shortBlankEnd(col int) int {
	nl := strings.LastIndexByte(r.src[:r.end], '\n')
	last := r.src[nl+1 : r.end]
	if nl < 0 || last == "" || len(last) >= col || strings.Trim(last, " ") != "" {
		return -1
	}
	return len(last)
}

// endPos returns the line and column yaml.v3 gives the end of the stream:
// the start of the line after the last (with a line break or not).
func (r *reader) endPos() (int, int) {
	n := strings.Count(r.src[:r.end], "\n")
	if r.end > 0 && r.src[r.end-1] != '\n' {
		n++
	}
	return n, 0
}

// compact reads the node after an indicator that may start a compact
// collection on its line (a dash, "?", or the ":" of an explicit entry),
// at column col, ending at offset at, with head as its head comment. seq
// allows a block sequence at col on the lines below (after "?" and ":").
func (r *reader) compact(col, at int, head string, seq bool, key *yaml.Node) *yaml.Node {
	line := r.line
	tab := false
	for r.src[r.pos] == ' ' || r.src[r.pos] == '\t' {
		tab = tab || r.src[r.pos] == '\t'
		r.pos++
	}
	if tab && !r.atComment() {
		// (yaml.v3 refuses a tab there before the end of the line too,
		// not before a comment: "?\t", but "?\t#c")
		r.fail(r.pos-1, "a tab after a block indicator (-, ? or :): yaml.v3 refuses it (use spaces)")
	}
	if r.atEOL() || r.atComment() {
		// a comment on the line of a "?" is the line comment of the
		// first scalar below, on that of a ":" the key's
		_ = at
		if key != nil && key.Kind == yaml.ScalarNode {
			r.com.lineTarget(key)
		} else {
			r.com.propsEnd()
		}
		r.awaitLine()
		var n *yaml.Node
		switch {
		case r.ind > col:
			// (properties on a line of their own, then a block sequence at
			// col: "? \n !t\n- a", as after a key's colon; a hunt,
			// 2026-11-29)
			n = r.blockIn(col, props{}, seq)
		case seq && r.ind == col && r.src[r.pos] == '-' && r.isBlankAt(r.pos+1):
			n = r.indentless(col, props{})
		default:
			n = r.emptyAt(line, at)
			if head != "" {
				r.com.carry(head)
			}
			return n
		}
		if head != "" {
			r.com.give(&n.HeadComment, head)
		}
		return n
	}
	n := r.inlineNode(col, &head, seq)
	if head != "" {
		r.com.give(&n.HeadComment, head)
	}
	return n
}

// inlineNode reads the node that starts on the line of a block indicator
// ("- ", "? " or ": "), at r.pos, for an indicator at column col: a compact
// sequence or mapping, or a value. A node of properties alone takes no head
// comment: *head is deferred to the node below them and cleared. seq
// allows a block sequence at col below properties (after "?" and ":").
func (r *reader) inlineNode(col int, head *string, seq bool) *yaml.Node {
	c := r.src[r.pos]
	switch {
	case c == '#':
		r.fail(r.pos, "a comment without a blank before it")
	case c == '-' && r.isBlankAt(r.pos+1):
		r.ind = r.col(r.pos)
		return r.sequence(r.ind, props{})
	case c == '?' && r.isBlankAt(r.pos+1):
		r.ind = r.col(r.pos)
		return r.mapping(r.ind, props{})
	case c == ':' && r.isBlankAt(r.pos+1):
		r.fail(r.pos, "a value (:) without a key")
	case r.keyAhead():
		r.ind = r.col(r.pos)
		return r.mapping(r.ind, props{})
	}
	if r.propsAlone() {
		r.com.deferHead(*head)
		*head = ""
	}
	return r.valueNode(col, true, nil, seq)
}

// emptyNull reports whether n is a null without text: an empty node, or
// one of properties alone.
func emptyNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Value == "" && n.Style&^yaml.TaggedStyle == 0
}

// value reads the value of a block mapping's key at column col, from
// after its colon.
func (r *reader) value(col int, key *yaml.Node) *yaml.Node {
	line, colon := r.line, r.pos
	r.skipSpace()
	if r.atEOL() || r.atComment() {
		r.com.lineTarget(key)
		r.awaitLine()
		switch {
		case r.ind > col:
			r.valueSeq = r.src[r.pos] == '-' && r.isBlankAt(r.pos+1)
			return r.blockIn(col, props{}, true)
		case r.ind == col && r.src[r.pos] == '-' && r.isBlankAt(r.pos+1):
			r.valueSeq = true
			return r.indentless(col, props{})
		}
		// An empty value: a null just after the colon.
		return r.emptyAt(line, colon)
	}
	if r.src[r.pos] == '#' {
		r.fail(r.pos, "a comment without a blank before it")
	}
	if c := r.src[r.pos]; c == '-' && r.isBlankAt(r.pos+1) {
		r.fail(r.pos, "a list on the line of its key (start it on the next line)")
	}
	return r.valueNode(col, false, key, true)
}

// emptyAt makes the null of an empty value whose indicator ends at offset
// at on line (already read past).
func (r *reader) emptyAt(line, at int) *yaml.Node {
	c := r.colOf(at)
	// (a foot comment for the next item's first scalar waits for one
	// with text)
	foot := r.com.nextFoot
	r.com.nextFoot = ""
	n := r.node(yaml.ScalarNode, nullTag, line, c)
	r.com.nextFoot = foot
	r.lastEnd = max(r.lastEnd, at) // (the indicator ends the text)
	return n
}

// valueNode reads a node that starts on the line of an indicator (after
// a key's colon, a dash, a ---), at pos, inside a block at column parent:
// properties, then a scalar, an alias, a flow collection or a block
// scalar on this line, or a block collection below them. compact says a
// dash or "?" came before (their node may be a block collection on this
// line: the caller looked for that). key is the key whose value it is;
// seq allows a block sequence at parent's column below properties alone
// on the line (a key's value, or the node after "?" or an explicit ":").
func (r *reader) valueNode(parent int, compact bool, key *yaml.Node, seq bool) *yaml.Node {
	var p props
	if c := r.src[r.pos]; c == '&' || c == '!' {
		p = r.props(false)
		if r.atEOL() || r.atComment() {
			return r.afterProps(parent, p, seq)
		}
		if c := r.src[r.pos]; c == '-' && r.isBlankAt(r.pos+1) || (c == '?' || c == ':') && r.isBlankAt(r.pos+1) {
			r.fail(r.pos, "a block collection on the line of its properties (start it on the next line)")
		}
		if r.keyAhead() {
			if !compact {
				r.fail(r.colon, "a key on the line of a value (does the value need quotes?)")
			}
			// "- &a key: value": the properties are the key's
			r.ind = r.col(p.start)
			r.pos = p.start
			return r.mapping(r.ind, props{})
		}
	}
	return r.inline(parent, p, !compact && key == nil)
}

// indentless reads a block sequence at the column of the key (or "?" or
// ":") whose value it is: one without a block of its own (yaml.v3's
// indentless sequence), which matters to where comments go.
func (r *reader) indentless(col int, p props) *yaml.Node {
	r.noBlock = true
	return r.sequence(col, p)
}

// sequence reads a block sequence whose dashes are at column col, the
// first at pos; p are properties read before it.
func (r *reader) sequence(col int, p props) *yaml.Node {
	block := !r.noBlock
	r.noBlock = false
	inValue := r.valueSeq
	r.valueSeq = false
	r.enter()
	line, c := r.line, col
	if p.has {
		line, c = p.line, p.col
	}
	s := r.node(yaml.SequenceNode, seqTag, line, c)
	r.collectionProps(s, p)
	opened := r.rangeOpen(s, p)
	base := len(r.kids)
	head, carry := r.com.first(), ""
	r.open = append(r.open, col)
	var o *Outline
	keep := false
	if r.sk != nil {
		o, keep = r.sk.o, r.sk.keep
		r.sk.items()
	}
	for {
		line := r.line
		r.pos++ // the dash
		dash := r.pos
		r.tokEnd = r.pos
		tab := false
		for r.src[r.pos] == ' ' || r.src[r.pos] == '\t' {
			tab = tab || r.src[r.pos] == '\t'
			r.pos++
		}
		if tab {
			// (before the end of the line or a comment too: "-\t",
			// "-\t#c")
			r.fail(r.pos-1, "a tab after a list's dash: yaml.v3 refuses it (use spaces)")
		}
		var item *yaml.Node
		empty := false
		switch {
		case r.atEOL() || r.atComment():
			r.com.dashEnd(col)
			r.awaitLine()
			if r.ind > col {
				item = r.block(col, props{})
			} else {
				item = r.emptyAt(line, dash)
				empty = true
			}
		default:
			h := head
			item = r.inlineNode(col, &head, false)
			if h != "" && head == "" && emptyNull(item) && r.com.undefer(h) {
				// An item of properties alone: yaml.v3 takes it as
				// an empty item, whose head comment the next token
				// takes ("#\n- !t\n- x").
				head, empty = h, true
			}
		}
		if empty {
			// An empty item takes no head comment: the next does.
			carry = head
		} else {
			r.com.item(item, head)
			carry = ""
		}
		if r.sk == nil || r.sk.keep {
			r.kids = append(r.kids, item)
		}
		if r.ind != col || r.src[r.pos] != '-' || !r.isBlankAt(r.pos+1) {
			if r.ind == col {
				// a block scalar's header at the dashes' column, where
				// yaml.v3 reads the empty item's value (FuzzDifferential,
				// 2026-11-29: "0:\n  - \n  >"), as at the root
				r.blockScalarOutdented()
			}
			break
		}
		head = r.com.next(col, item, true)
		if carry != "" {
			if head != "" {
				head = carry + "\n" + head
			} else {
				head = carry
			}
		}
	}
	if carry != "" {
		// yaml.v3 gives it to the token after the sequence.
		r.com.carry(carry)
		r.com.carriedFirst = len(r.kids) == base+1 && inValue
	}
	if r.sk != nil {
		r.sk.o, r.sk.keep = o, keep
	}
	if r.ind > col {
		r.fail(r.pos, "a line indented more than the list's dashes, where an item is expected")
	}
	s.Content = r.content(base)
	r.rangeClose(opened)
	r.open = r.open[:len(r.open)-1]
	r.com.collectionEnd(s, col, block)
	r.leave()
	return s
}

// colonAfter reports whether blanks from offset i lead to a colon and a
// blank, the end of an implicit key, and sets colon.
func (r *reader) colonAfter(i int) bool {
	for r.src[i] == ' ' || r.src[i] == '\t' {
		i++
	}
	if r.src[i] == ':' && r.isBlankAt(i+1) {
		r.colon = i
		return true
	}
	return false
}

// keyAhead reports whether the line from pos holds an implicit key: a
// node on this line (with properties or not) followed by a colon and a
// blank, and sets colon.
func (r *reader) keyAhead() bool {
	i := r.pos
	// properties
	hasProps := false
	for {
		c := r.src[i]
		if c != '&' && c != '!' {
			break
		}
		hasProps = true
		for !r.isBlankAt(i) {
			if c == '&' && r.src[i] == ':' && r.isBlankAt(i+1) {
				// "&a: ", which yaml.v3 reads as an empty key with
				// the anchor a: the key's properties are read, and
				// refused (propEnd)
				r.colon = i
				return true
			}
			i++
		}
		for r.src[i] == ' ' || r.src[i] == '\t' {
			i++
		}
	}
	switch c := r.src[i]; c {
	case ':':
		if hasProps && r.isBlankAt(i+1) {
			// an empty key with properties
			r.colon = i
			return true
		}
	case '"', '\'':
		i++
		for {
			switch r.src[i] {
			case c:
				if c == '\'' && r.src[i+1] == '\'' {
					i += 2
					continue
				}
				return r.colonAfter(i + 1)
			case '\\':
				if c == '"' && i+1 < r.end {
					if r.src[i+1] == '\n' {
						return false // an escaped line break: over lines
					}
					i++
				}
			case '\n':
				return false
			case 0:
				if i >= r.end {
					return false
				}
			}
			i++
		}
	case '[', '{':
		// a flow collection on this line, then a colon
		j, ok := r.flowAhead(i)
		return ok && r.colonAfter(j)
	case '*':
		i++
		for isWordChar(r.src[i]) {
			i++
		}
		return r.colonAfter(i)
	}
	if !r.plainStart(i) {
		return false
	}
	for {
		for !stops[r.src[i]] {
			i++
		}
		switch r.src[i] {
		case ':':
			if r.isBlankAt(i + 1) {
				r.colon = i
				return true
			}
		case '#':
			if r.src[i-1] == ' ' || r.src[i-1] == '\t' {
				return false
			}
		case '\n':
			return false
		case 0:
			if i >= r.end {
				return false
			}
		}
		i++
	}
}

// flowAhead returns the offset after the flow collection starting at i if
// it ends on the same line. It reads the line forward, token by token, as
// the reader does: a quote starts a quoted scalar (skipped whole) only
// where a node starts, not inside a plain scalar ("[0 \"]: x" and
// "[0:\"]: x" are the keys ["0 \""] and ["0:\""]; FuzzDifferential,
// 2026-11-30, twice: a look back from the quote took a colon inside a
// plain scalar for an indicator, and "[a:\"b]\"]: 1" ended past its end).
func (r *reader) flowAhead(i int) (int, bool) {
	depth := 0
	plain := false // inside a plain scalar
	json := false  // after a quoted scalar or a collection, blanks between
	for {
		c := r.src[i]
		after := json
		json = false
		switch c {
		case '[', '{':
			depth++
			plain = false
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1, true
			}
			plain, json = false, true
		case ',':
			plain = false
		case ':':
			// a value indicator before a blank or a flow indicator, or
			// after a quoted scalar or a collection; else text
			plain = !after && !r.isBlankAt(i+1) && !isFlowIndicator(r.src[i+1])
		case '?':
			// a key indicator before a blank where a node starts
			plain = plain || !r.isBlankAt(i+1)
		case '&', '!':
			if !plain { // a property: its name, then a node starts
				for !r.isBlankAt(i+1) && !isFlowIndicator(r.src[i+1]) {
					i++
				}
			}
		case '"', '\'':
			if plain {
				break // a quote inside a plain scalar
			}
			i++
			for {
				d := r.src[i]
				if d == c {
					if c == '\'' && r.src[i+1] == '\'' {
						i += 2
						continue
					}
					break
				}
				if d == '\\' && c == '"' && r.src[i+1] != '\n' {
					i++
				} else if d == '\n' || d == 0 && i >= r.end {
					return 0, false
				}
				i++
			}
			json = true
		case '#':
			// a comment where a node may start (after an indicator too:
			// "[#]: \n]" is "[]", its "#]: " a comment; FuzzDifferential,
			// 2026-11-30), or after a blank
			if !plain || r.src[i-1] == ' ' || r.src[i-1] == '\t' {
				return 0, false
			}
		case '\n':
			return 0, false
		case ' ', '\t':
			json = after
		case 0:
			if i >= r.end {
				return 0, false
			}
			plain = true
		default:
			plain = true
		}
		i++
	}
}

// stops are the bytes where scans of plain scalars look closer: a colon
// (which a blank after makes an indicator), a number sign (a comment after
// a blank), a line break, a NUL (the end); and blanks.
var stops = [256]bool{':': true, '#': true, '\n': true, 0: true}

// plainStart reports whether a plain scalar can start at i.
func (r *reader) plainStart(i int) bool {
	switch r.src[i] {
	case '-', '?', ':':
		return !r.isBlankAt(i + 1)
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case ' ', '\t', '\n':
		return false
	case 0:
		return i < r.end
	}
	return true
}

// maxKey is the longest implicit key read, in characters from its first
// to its colon (yaml.v3 reads keys of up to 1,024 so, the YAML
// specification bounds them so too; it was 1,000 bytes: keys of 1,001 to
// 1,024 characters, or of fewer characters over more bytes, were refused
// where yaml.v3 reads them; FuzzDifferential, 2026-11-29).
const maxKey = 1024

// longKey reports whether the key whose text starts at offset start and
// whose colon is at offset colon is longer than maxKey.
func (r *reader) longKey(start, colon int) bool {
	return colon-start > maxKey && utf8.RuneCountInString(r.src[start:colon]) > maxKey
}

// key reads an implicit key and its colon.
func (r *reader) key() *yaml.Node {
	start := r.pos
	var p props
	if c := r.src[r.pos]; c == '&' || c == '!' {
		p = r.props(false)
	}
	var k *yaml.Node
	switch c := r.src[r.pos]; {
	case c == ':' && p.has && r.pos == r.colon:
		k = r.node(yaml.ScalarNode, "", p.line, p.col)
		r.scalarProps(k, p, "")
		r.ranged(k, p, r.pos, r.pos) // (its properties)
	case c == '"':
		k = r.doubleQuoted(-1, p)
	case c == '\'':
		k = r.singleQuoted(-1, p)
	case c == '*':
		if p.has {
			r.failAt(p.line, p.col, "properties on an alias")
		}
		k = r.alias()
	case c == '[' || c == '{':
		if r.sk != nil {
			panic(skimStop{r.line + 1, "a key that is not a scalar"})
		}
		r.explicitAt, r.implicitIn = -1, false
		k = r.flow(-1, p)
		if r.explicitAt >= 0 && !r.implicitIn && !p.has {
			// yaml.v3 refuses it there when every entry has a '?'
			// ("{? a}: b", "[? a, ? b]: c") and no properties come
			// before it on its line, reads it as a key otherwise
			// ("{? a, b}: c", "&x {? a}: b"), and so deeper ("[{? a}]:
			// b"); at the column of a mapping after a key without a
			// value, it reads it as that key's value and ": b" as an
			// entry with an empty key (" a:\n {? b}: c"), where no rule
			// of the text puts them (FuzzDifferential, 2026-11-29; a
			// hunt); on purpose (OnPurpose)
			r.failAt(k.Line-1, k.Column-1, "an explicit key (?) in a flow collection that is itself a key (write the entry without ?)")
		}
	default:
		line, col := r.line, r.col(r.pos)
		i := r.colon // found by keyAhead
		j := i
		for r.src[j-1] == ' ' || r.src[j-1] == '\t' {
			j--
		}
		v := r.src[r.pos:j]
		if p.has {
			line, col = p.line, p.col
		}
		k = r.node(yaml.ScalarNode, "", line, col)
		k.Value = v
		r.scalarProps(k, p, resolve.Tag(v))
		r.ranged(k, p, r.pos, j)
		r.pos = i
	}
	r.skipSpace()
	if r.longKey(start, r.pos) {
		r.failAt(r.line, r.col(start), "a key longer than 1024 characters (write it as an explicit key, after ?)")
	}
	if r.src[r.pos] != ':' {
		r.fail(r.pos, "internal error: no colon after a key")
	}
	r.pos++
	return k
}

// alias reads an alias (*name) at pos.
func (r *reader) alias() *yaml.Node {
	at := r.pos
	name := r.name("an alias", '*')
	if !r.isBlankAt(r.pos) && !isFlowIndicator(r.src[r.pos]) {
		r.failf(r.pos, "%q right after an alias's name (a name is of letters, digits, - and _; a space must follow it)", r.src[r.pos])
	}
	r.tokEnd = r.pos
	n := r.node(yaml.AliasNode, "", r.line, r.col(at))
	n.Value = name
	r.ranged(n, props{}, at, r.pos)
	if r.sk != nil {
		panic(skimStop{r.line + 1, "an alias"})
	}
	target, ok := r.anchors[name]
	if !ok {
		r.failf(at, "an alias to the anchor %q, which no node before it has", name)
	}
	n.Alias = target
	return n
}

// inline reads a scalar, alias or flow collection at pos, inside a block
// at column parent, and the rest of its last line; p are its properties.
// first says the node starts on a --- line or after a key's colon, where
// a key cannot start.
func (r *reader) inline(parent int, p props, first bool) *yaml.Node {
	var n *yaml.Node
	switch c := r.src[r.pos]; c {
	case '|', '>':
		return r.blockScalar(parent, p)
	case '[', '{':
		n = r.flow(parent, p)
	case '"':
		n = r.doubleQuoted(parent, p)
	case '\'':
		n = r.singleQuoted(parent, p)
	case '*':
		if p.has {
			r.failAt(p.line, p.col, "properties on an alias")
		}
		n = r.alias()
		r.com.scalarEnd(n)
		r.endLine(false)
		return n
	default:
		if !r.plainStart(r.pos) {
			switch c {
			case '@', '`':
				r.failf(r.pos, "%q cannot start a value (quote the value)", c)
			case '%':
				r.fail(r.pos, "'%' cannot start a value (quote the value)")
			}
			r.failf(r.pos, "%q cannot start a value here", c)
		}
		if first && r.keyAhead() {
			r.fail(r.colon, "a key on the line of a value (does the value need quotes?)")
		}
		return r.plain(parent, p)
	}
	r.com.scalarEnd(n)
	r.endLine(true)
	return n
}
