package fastyaml

import (
	"fmt"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/resolve"
)

// Unsupported is the error of Parse for an input it leaves to yaml.v3.
type Unsupported struct {
	Line   int    // the line (from 1) where Parse stopped
	Reason string // what it found there
}

// Error says what Parse declined and where.
func (e *Unsupported) Error() string {
	return fmt.Sprintf("fastyaml: line %d: %s: left to yaml.v3", e.Line, e.Reason)
}

// TooDeep is the error of Parse for a document nested deeper than the
// limit it was given: a node inside more collections than the limit.
// Unlike *Unsupported, it is an answer: the input is read no further, by
// any reader.
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

// MaxDepth is the deepest nesting Parse reads: a limit of 0, or above it,
// is this one. The reader follows collections by recursion, each level a
// few hundred bytes of stack.
const MaxDepth = 100000

// internalError starts the reason of an input declined because of a panic
// of this package.
const internalError = "internal error"

// refusal is what a reader panics with to give up on its input.
type refusal struct {
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
// Decoder returns for it, or returns an *Unsupported error. A node inside
// more than maxDepth collections (0, or more than MaxDepth: MaxDepth) is a
// *TooDeep error, as tree's depth limit counts them: the root of a
// document is at depth 1, what a collection at depth d holds at d+1.
func Parse(data []byte, maxDepth int) (docs []*yaml.Node, err error) {
	lines, bad, reason := survey(data)
	if reason != "" {
		return nil, &Unsupported{Line: bad, Reason: reason}
	}
	r := newReader(data, lines)
	r.maxDepth = maxDepth
	if maxDepth <= 0 || maxDepth > MaxDepth {
		r.maxDepth = MaxDepth
	}
	defer func() {
		if p := recover(); p != nil {
			if td, ok := p.(*TooDeep); ok {
				td.Docs, td.Doc = r.docs, r.doc
				docs, err = nil, td
				return
			}
			f, ok := p.(refusal)
			if !ok {
				f = refusal{line: r.line + 1, reason: fmt.Sprintf("%s: %v", internalError, p)}
			}
			docs, err = nil, &Unsupported{Line: f.line, Reason: f.reason}
		}
	}()
	return r.stream(), nil
}

// A reader reads one stream. The parse is recursive descent over the
// lines of the text: every function that reads a node leaves the reader at
// the first byte of the next line with content (a node, or a document
// marker), its column in ind, the comments and blank lines on the way
// recorded for the comment rules.
type reader struct {
	src  string // the input and padding NULs: values and comments are parts of it
	end  int    // len(input): src[end:] are the NULs
	pos  int    // the next byte to read
	line int    // the line of pos, from 0
	bol  int    // where that line begins

	// What the last skip found: ind is the column of the content at pos,
	// -1 at a document marker (mark is '-' or '.') or at the end (mark 0).
	ind      int
	mark     byte
	colon    int // of the key keyAhead found
	keyStart int // of the flow mapping key being read

	ckBol, ck, ckCol int // where col counted last: the line, offset, column

	depth    int          // of nesting: the collections open
	docs     []*yaml.Node // the documents read
	doc      *yaml.Node   // the document being read
	maxDepth int          // the deepest a node may be (Parse); 0: skimming
	open     []int        // the columns of the block collections being read
	ended    bool         // by a ... marker: the next document starts with ---

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
		closed [16]*yaml.Node
		cols   [16]int
		lines  [16]gapLine
	}
}

func newReader(data []byte, lines int) *reader {
	var b strings.Builder
	b.Grow(len(data) + padding)
	b.Write(data)
	b.WriteString("\x00\x00\x00\x00\x00\x00\x00\x00")
	r := &reader{src: b.String(), end: len(data), lines: lines}
	r.kids = r.buf.kids[:0]
	r.open = r.buf.open[:0]
	r.com.r = r
	r.com.closed = r.buf.closed[:0]
	r.com.cols = r.buf.cols[:0]
	r.com.lines = r.buf.lines[:0]
	return r
}

// refuse gives the input up: yaml.v3 reads it.
func (r *reader) refuse(reason string) {
	panic(refusal{line: r.line + 1, reason: reason})
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
	if r.com.nextFoot != "" && kind == yaml.ScalarNode {
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

// newline moves pos past the line break at pos (or stays at the end).
func (r *reader) newline() {
	if r.src[r.pos] == '\n' {
		r.pos++
		r.line++
		r.bol = r.pos
	}
}

// endLine finishes the line of a node: spaces, perhaps a comment (the
// line comment, which the comment rules give to the node the line ends),
// the line break; then skips to the next content.
func (r *reader) endLine() {
	r.skipSpace()
	switch c := r.src[r.pos]; {
	case c == '#':
		if p := r.src[r.pos-1]; r.pos == r.bol || p != ' ' && p != '\t' {
			r.refuse("a comment without a space before it")
		}
		s := r.pos
		for r.src[r.pos] != '\n' && r.pos < r.end {
			r.pos++
		}
		r.com.lineComment(s, r.pos)
	case c == '\n' || r.pos >= r.end:
	default:
		r.refuse("more on the line after a node")
	}
	r.newline()
	r.skip()
}

// skip reads blank lines and comment lines from the start of a line up to
// the next content, and sets ind and mark.
func (r *reader) skip() {
	for {
		s := r.pos
		for r.src[r.pos] == ' ' {
			r.pos++
		}
		switch c := r.src[r.pos]; c {
		case '\n':
			r.com.blank()
			r.newline()
			continue
		case '#':
			col := r.col(r.pos)
			cs := r.pos
			for r.src[r.pos] != '\n' && r.pos < r.end {
				r.pos++
			}
			r.com.commentLine(cs, r.pos, col)
			r.newline()
			continue
		case '\t':
			r.refuse("a tab in indentation")
		case 0:
			if r.pos >= r.end {
				if r.pos > s {
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

// isMarker reports whether the line at pos (its start) begins with a
// document marker: three c and a blank.
func (r *reader) isMarker(c byte) bool {
	return r.src[r.pos] == c && r.src[r.pos+1] == c && r.src[r.pos+2] == c && r.isBlankAt(r.pos+3)
}

// stream reads every document.
func (r *reader) stream() []*yaml.Node {
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
	for r.ind == 0 && r.src[r.pos] == '%' {
		if directive {
			r.refuse("two directives")
		}
		r.directive()
		directive = true
	}
	if r.ended && !directive && !(r.ind < 0 && r.mark == '-') {
		r.refuse("a document after ... without ---")
	}
	r.ended = false
	if directive && !(r.ind < 0 && r.mark == '-') {
		r.refuse("a directive without a document start")
	}
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
		r.skipSpace()
		if r.atEOL() || r.src[r.pos] == '#' {
			r.endLine()
			if r.ind < 0 {
				// An empty document: a null where the next token is.
				line := r.line
				if r.mark == 0 && r.end > 0 && r.src[r.end-1] != '\n' {
					line++ // the end is on a line of its own
				}
				root = r.node(yaml.ScalarNode, nullTag, line, 0)
				r.com.emptyDoc(root)
			} else {
				root = r.block(-1)
			}
		} else {
			head := r.com.first()
			root = r.inline(-1, true)
			if head != "" {
				r.com.give(&root.HeadComment, head)
			}
		}
	case r.ind < 0 && r.mark == '.':
		r.refuse("a document end marker without a document")
	default:
		doc.Line, doc.Column = r.line+1, r.ind+1
		r.com.docHead(doc)
		root = r.block(-1)
	}
	if r.ind >= 0 {
		r.refuse("content after the end of a document")
	}
	doc.Content = []*yaml.Node{root}
	r.com.docEnd(doc, root, r.mark == 0)
	if r.mark == '.' {
		r.ended = true
		r.pos += 3
		r.skipSpace()
		if !r.atEOL() {
			r.refuse("text after a document end marker")
		}
		r.com.noComment()
		r.newline()
		r.skip()
		if r.com.hasComments() {
			r.refuse("comments after a ... line")
		}
	}
	return doc
}

// directive reads a %YAML line: versions 1.1 and 1.2 are the same to this
// reader (and to the trees yaml.v3 builds); any other directive is
// refused.
func (r *reader) directive() {
	rest := r.src[r.pos:]
	if !strings.HasPrefix(rest, "%YAML ") && !strings.HasPrefix(rest, "%YAML\t") {
		r.refuse("a directive other than %YAML")
	}
	r.pos += 6
	r.skipSpace()
	if v := r.src[r.pos : r.pos+3]; v != "1.1" && v != "1.2" || !r.isBlankAt(r.pos+3) {
		r.refuse("a %YAML version other than 1.1 and 1.2")
	}
	r.pos += 3
	r.com.noComment()
	r.endLine()
}

// block reads the node at pos, the first content of its line, inside a
// block at column parent.
func (r *reader) block(parent int) *yaml.Node {
	c := r.src[r.pos]
	switch {
	case c == '-' && r.isBlankAt(r.pos+1):
		return r.sequence(r.ind)
	case (c == '?' || c == ':') && r.isBlankAt(r.pos+1):
		r.refuse("a complex key (?)")
	}
	if r.keyAhead() {
		return r.mapping(r.ind)
	}
	head := r.com.first()
	n := r.inline(parent, false)
	if head != "" {
		r.com.give(&n.HeadComment, head)
	}
	return n
}

// enter and leave count the nesting of collections.
func (r *reader) enter() {
	r.depth++
	if r.sk != nil && r.depth > skimDepth {
		r.refuse("collections nested too deep")
	}
}

// skimDepth bounds the nesting Skim follows: deeper documents are read
// whole, by Parse, which knows the caller's limit.
const skimDepth = 1000

func (r *reader) leave() { r.depth-- }

// mapping reads a block mapping whose keys are at column col, the first at
// pos.
func (r *reader) mapping(col int) *yaml.Node {
	r.enter()
	m := r.node(yaml.MappingNode, mapTag, r.line, col)
	base := len(r.kids)
	keys := 0
	if r.sk != nil {
		keys = len(r.sk.keys)
	}
	head := r.com.first()
	r.open = append(r.open, col)
	set := -1 // when skimming, the table of the keys (once many)
	for {
		if r.sk != nil {
			r.sk.entry(r, col, keys, &set)
		} else {
			key := r.key()
			if head != "" {
				key.HeadComment = head
			}
			r.kids = append(r.kids, key)
			r.kids = append(r.kids, r.value(col, key))
		}
		if r.ind != col {
			break
		}
		if c := r.src[r.pos]; c == '-' && r.isBlankAt(r.pos+1) || (c == '?' || c == ':') && r.isBlankAt(r.pos+1) {
			r.refuse("not a key where a key is expected")
		}
		if !r.keyAhead() {
			r.refuse("not a key where a key is expected")
		}
		if r.sk == nil {
			head = r.com.next(col, r.kids[len(r.kids)-2], false)
		}
	}
	if r.ind > col {
		r.refuse("an indentation that is not the mapping's")
	}
	if r.sk != nil {
		r.sk.keys = r.sk.keys[:keys]
		r.sk.endSet(set)
	}
	m.Content = r.content(base)
	r.open = r.open[:len(r.open)-1]
	r.com.collectionEnd(m, col)
	r.leave()
	return m
}

// value reads the value of a block mapping's key at column col, from
// after its colon.
func (r *reader) value(col int, key *yaml.Node) *yaml.Node {
	line, colon := r.line, r.pos
	r.skipSpace()
	if r.atEOL() || r.src[r.pos] == '#' {
		r.com.lineTarget(key)
		r.endLine()
		switch {
		case r.ind > col:
			return r.block(col)
		case r.ind == col && r.src[r.pos] == '-' && r.isBlankAt(r.pos+1):
			return r.sequence(col)
		}
		// An empty value: a null just after the colon.
		return r.emptyAt(line, colon)
	}
	if c := r.src[r.pos]; c == '-' && r.isBlankAt(r.pos+1) {
		r.refuse("a block sequence on the line of its key")
	}
	return r.inline(col, false)
}

// emptyAt makes the null of an empty value whose indicator ends at offset
// at on line (already read past).
func (r *reader) emptyAt(line, at int) *yaml.Node {
	if r.com.nextFoot != "" {
		r.refuse("a foot comment for an empty item")
	}
	// The column of at, on its line: find the line's start.
	bol := strings.LastIndexByte(r.src[:at], '\n') + 1
	c := at - bol
	for j := bol; j < at; j++ {
		if r.src[j] >= 0x80 {
			c = utf8.RuneCountInString(r.src[bol:at])
			break
		}
	}
	n := r.node(yaml.ScalarNode, nullTag, line, c)
	return n
}

// sequence reads a block sequence whose dashes are at column col, the
// first at pos.
func (r *reader) sequence(col int) *yaml.Node {
	r.enter()
	s := r.node(yaml.SequenceNode, seqTag, r.line, col)
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
		for r.src[r.pos] == ' ' {
			r.pos++
		}
		if r.src[r.pos] == '\t' {
			r.refuse("a tab after a dash")
		}
		var item *yaml.Node
		empty := false
		switch c := r.src[r.pos]; {
		case r.atEOL() || c == '#':
			r.com.dashEnd()
			r.endLine()
			if r.ind > col {
				item = r.block(col)
			} else {
				item = r.emptyAt(line, dash)
				empty = true
			}
		case c == '-' && r.isBlankAt(r.pos+1):
			r.ind = r.col(r.pos)
			item = r.sequence(r.ind)
		case (c == '?' || c == ':') && r.isBlankAt(r.pos+1):
			r.refuse("a complex key (?)")
		default:
			if r.keyAhead() {
				r.ind = r.col(r.pos)
				item = r.mapping(r.ind)
			} else {
				item = r.inline(col, false)
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
	}
	if r.sk != nil {
		r.sk.o, r.sk.keep = o, keep
	}
	if r.ind > col {
		r.refuse("an indentation that is not the sequence's")
	}
	s.Content = r.content(base)
	r.open = r.open[:len(r.open)-1]
	r.com.collectionEnd(s, col)
	r.leave()
	return s
}

// keyAhead reports whether the line from pos holds an implicit key: a
// plain or quoted scalar on this line followed by a colon and a blank.
func (r *reader) keyAhead() bool {
	i := r.pos
	switch c := r.src[i]; c {
	case '"', '\'':
		i++
		for {
			switch r.src[i] {
			case c:
				if c == '\'' && r.src[i+1] == '\'' {
					i += 2
					continue
				}
				i++
				for r.src[i] == ' ' || r.src[i] == '\t' {
					i++
				}
				return r.src[i] == ':' && r.isBlankAt(i+1)
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
		// A flow collection as a key is refused when read (the colon
		// after it is text after a node).
		return false
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

// maxKey is the longest implicit key read, in bytes (yaml.v3 reads keys
// of up to 1,024 characters).
const maxKey = 1000

// key reads an implicit key and its colon.
func (r *reader) key() *yaml.Node {
	start := r.pos
	var k *yaml.Node
	switch r.src[r.pos] {
	case '"':
		k = r.doubleQuoted(-1)
	case '\'':
		k = r.singleQuoted(-1)
	case '&', '*', '!':
		r.refuse("an anchor, alias or tag")
	default:
		line, col := r.line, r.col(r.pos)
		i := r.colon // found by keyAhead
		j := i
		for r.src[j-1] == ' ' || r.src[j-1] == '\t' {
			j--
		}
		v := r.src[r.pos:j]
		k = r.node(yaml.ScalarNode, resolve.Tag(v), line, col)
		k.Value = v
		r.pos = i
	}
	r.skipSpace()
	if r.pos-start > maxKey {
		r.refuse("a key longer than yaml.v3 reads")
	}
	if r.src[r.pos] != ':' {
		r.refuse("internal: no colon after a key")
	}
	r.pos++
	return k
}

// inline reads a scalar or flow collection at pos, inside a block at
// column parent, and the rest of its last line (first says it is the
// content of a --- line).
func (r *reader) inline(parent int, first bool) *yaml.Node {
	var n *yaml.Node
	switch c := r.src[r.pos]; c {
	case '|', '>':
		return r.blockScalar(parent)
	case '[', '{':
		n = r.flow(parent)
	case '"':
		n = r.doubleQuoted(parent)
	case '\'':
		n = r.singleQuoted(parent)
	case '&', '*', '!':
		r.refuse("an anchor, alias or tag")
	default:
		if !r.plainStart(r.pos) {
			r.refuse(fmt.Sprintf("a node starting with %q", c))
		}
		if first && r.keyAhead() {
			r.refuse("a mapping on a --- line")
		}
		return r.plain(parent)
	}
	r.com.scalarEnd(n)
	r.endLine()
	return n
}
