// Copyright (c) 2011-2019 Canonical Ltd
// Copyright (c) 2006-2010 Kirill Simonov
//
// Permission is hereby granted, free of charge, to any person obtaining a copy of
// this software and associated documentation files (the "Software"), to deal in
// the Software without restriction, including without limitation the rights to
// use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
// of the Software, and to permit persons to whom the Software is furnished to do
// so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.

package fastyaml

import (
	"math/bits"
	"strings"
	"unicode/utf8"
)

// The scanner turns the input into tokens, as yaml.v3's scannerc.go does
// (its function names are given for each step). The differences:
//   - the input is a string read in place, followed by NUL bytes, where
//     yaml.v3 decodes it into a buffer it refills; the only line break is
//     \n (check declines the others);
//   - marks keep yaml.v3's meaning (index and column count characters,
//     not bytes), and the scanner keeps the byte position beside them;
//   - scalar values are substrings of the input where the text is the
//     value; they are built only where lines are folded or escapes
//     decoded;
//   - what the package declines (directives, tags, anchors, aliases,
//     complex keys, comments in flow collections) and every error stop
//     the scan with decline.

type tokenType uint8

const (
	tokNone tokenType = iota
	tokStreamStart
	tokStreamEnd
	tokDocumentStart
	tokDocumentEnd
	tokBlockSequenceStart
	tokBlockMappingStart
	tokBlockEnd
	tokFlowSequenceStart
	tokFlowSequenceEnd
	tokFlowMappingStart
	tokFlowMappingEnd
	tokBlockEntry
	tokFlowEntry
	tokKey
	tokValue
	tokScalar
)

type scalarStyle uint8

const (
	plainStyle scalarStyle = iota + 1
	singleQuotedStyle
	doubleQuotedStyle
	literalStyle
	foldedStyle
)

// mark is a place in the input as yaml.v3 counts it: index and column in
// characters from 0, line from 0.
type mark struct {
	index, line, column int
}

// token is a token of the input. It holds no pointers, so that the queue
// moves tokens without the garbage collector's write barriers: the value
// of a scalar is src[v0:v1], or p.built[v1] for a value that is not a
// substring of the input (v0 < 0).
type token struct {
	typ    tokenType
	style  scalarStyle
	start  mark
	v0, v1 int
}

// end returns the mark after the token, for the tokens the parser needs
// it of: '-' and ':' are one character long, a KEY token none.
func (t *token) end() mark {
	if t.typ == tokBlockEntry || t.typ == tokValue {
		return mark{t.start.index + 1, t.start.line, t.start.column + 1}
	}
	return t.start
}

// simpleKey is a place where a mapping key may start (yaml_simple_key_t).
type simpleKey struct {
	possible, required bool
	tokenNumber        int
	mark               mark
}

// keySlot stands for one entry of yaml.v3's simple_keys_by_tok map: the
// token number of a simple key and the slot of simple_keys it was saved in.
// yaml.v3 leaves entries behind in some cases, and looks them up to decide
// how far ahead to scan, which decides when comments are attached: the
// entries are kept as yaml.v3 keeps them.
type keySlot struct{ tok, slot int }

// A comment waiting to be attached to a token (yaml_comment_t).
type comment struct {
	scan, token, start, end mark
	head, line, foot        ctext
}

// parser holds the scanner's and the parser's state (yaml_parser_t).
type parser struct {
	src  string // the input, then NUL bytes
	pos  int    // byte offset of mark in src
	mark mark

	newlines int // line breaks since the last non-blank character

	streamStartProduced bool
	streamEndProduced   bool
	flowLevel           int
	tokens              []token // the queue is tokens[tokensHead:ntok]
	ntok                int
	tokensHead          int
	tokensParsed        int
	tokenAvailable      bool
	indent              int
	indents             []int
	simpleKeyAllowed    bool
	simpleKeys          []simpleKey
	keysByTok           []keySlot
	comments            []comment
	commentsHead        int
	built               []string // values of scalars that are not substrings of src

	// The parser's state (parser.go).
	state       parseState
	states      []parseState
	headComment ctext
	lineComment ctext
	footComment ctext
	stemComment ctext
}

// declined is what decline panics with; Parse recovers it.
type declined struct {
	line   int
	reason string
}

// decline stops the parse: the input is left to yaml.v3.
func (p *parser) decline(reason string) {
	panic(declined{line: p.mark.line + 1, reason: reason})
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// isBlankz: a blank, a line break or the end of the input.
func isBlankz(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == 0 }

// isBreakz: a line break or the end of the input.
func isBreakz(c byte) bool { return c == '\n' || c == 0 }

// width is the length of the UTF-8 sequence a byte starts.
func width(c byte) int {
	switch {
	case c < 0x80:
		return 1
	case c&0xE0 == 0xC0:
		return 2
	case c&0xF0 == 0xE0:
		return 3
	}
	return 4
}

// skip moves past one character that is not a line break.
func (p *parser) skip() {
	c := p.src[p.pos]
	if !isBlank(c) {
		p.newlines = 0
	}
	p.pos += width(c)
	p.mark.index++
	p.mark.column++
}

// skipLine moves past a line break.
func (p *parser) skipLine() {
	if p.src[p.pos] == '\n' {
		p.pos++
		p.mark.index++
		p.mark.column = 0
		p.mark.line++
		p.newlines++
	}
}

// read appends one character to s and moves past it.
func (p *parser) read(s []byte) []byte {
	c := p.src[p.pos]
	if !isBlank(c) {
		p.newlines = 0
	}
	w := width(c)
	s = append(s, p.src[p.pos:p.pos+w]...)
	p.pos += w
	p.mark.index++
	p.mark.column++
	return s
}

// advance moves past the characters of src[p.pos:end], none of them a line
// break.
func (p *parser) advance(end int) {
	n := end - p.pos
	for i := p.pos; i < end; i++ {
		if p.src[i] >= 0x80 {
			n = utf8.RuneCountInString(p.src[p.pos:end])
			break
		}
	}
	p.pos = end
	p.mark.index += n
	p.mark.column += n
}

// isDocumentIndicator reports whether "---" or "..." and a blank start at
// the current position, which must be at column 0.
func (p *parser) isDocumentIndicator() bool {
	s, i := p.src, p.pos
	return (s[i] == '-' && s[i+1] == '-' && s[i+2] == '-' || s[i] == '.' && s[i+1] == '.' && s[i+2] == '.') && isBlankz(s[i+3])
}

// newToken appends a token to the queue, for the caller to fill in place
// (tokens are written field by field where they are, rather than copied:
// copying a token just built stalls the processor).
func (p *parser) newToken() *token {
	if p.ntok == len(p.tokens) {
		p.makeRoom()
	}
	p.ntok++
	t := &p.tokens[p.ntok-1]
	t.style, t.v0, t.v1 = 0, 0, 0
	return t
}

// makeRoom makes room for a token at the end of a full queue: it moves the
// queue to the start of its array, or grows the array.
func (p *parser) makeRoom() {
	if p.tokensHead > 0 {
		copy(p.tokens, p.tokens[p.tokensHead:p.ntok])
		p.ntok -= p.tokensHead
		p.tokensHead = 0
		return
	}
	grown := make([]token, 2*len(p.tokens)+16)
	copy(grown, p.tokens)
	p.tokens = grown
}

// insertToken puts a token of type typ at start in the queue, at
// position at from its head or, for at < 0, at its end
// (yaml_insert_token). The queue is p.tokens[tokensHead:ntok], in an array
// that only grows.
func (p *parser) insertToken(at int, typ tokenType, start mark) {
	t := p.newToken()
	if at >= 0 {
		i := p.tokensHead + at
		copy(p.tokens[i+1:p.ntok], p.tokens[i:p.ntok-1])
		t = &p.tokens[i]
		t.style, t.v0, t.v1 = 0, 0, 0
	}
	t.typ, t.start = typ, start
}

// fetchMoreTokens makes sure that the queue holds the next token, and
// enough tokens after it to know whether it starts a key
// (yaml_parser_fetch_more_tokens).
func (p *parser) fetchMoreTokens() {
	for {
		if p.tokensHead < p.ntok-2 {
			slot, ok := p.keySlot(p.tokensParsed)
			if !ok || !p.simpleKeyIsValid(&p.simpleKeys[slot]) {
				break
			}
		}
		p.fetchNextToken()
	}
	p.tokenAvailable = true
}

// fetchNextToken scans one token (yaml_parser_fetch_next_token).
func (p *parser) fetchNextToken() {
	if !p.streamStartProduced {
		p.fetchStreamStart()
		return
	}
	scanMark := p.mark
	p.scanToNextToken()
	if p.indent > p.mark.column {
		p.unrollIndent(p.mark.column, scanMark)
	}

	c := p.src[p.pos]
	if c == 0 {
		p.fetchStreamEnd()
		return
	}
	if p.mark.column == 0 {
		if c == '%' {
			p.decline("directive")
		}
		if p.isDocumentIndicator() {
			if c == '-' {
				p.fetchDocumentIndicator(tokDocumentStart)
			} else {
				p.fetchDocumentIndicator(tokDocumentEnd)
			}
			return
		}
	}

	commentMark := p.mark
	if p.ntok > 0 && (p.flowLevel == 0 && c == ':' || p.flowLevel > 0 && c == ',') {
		// Comments that follow belong to the token before.
		commentMark = p.tokens[p.ntok-1].start
	}

	next := p.src[p.pos+1]
	switch {
	case c == '[':
		p.fetchFlowCollectionStart(tokFlowSequenceStart)
	case c == '{':
		p.fetchFlowCollectionStart(tokFlowMappingStart)
	case c == ']':
		p.fetchFlowCollectionEnd(tokFlowSequenceEnd)
	case c == '}':
		p.fetchFlowCollectionEnd(tokFlowMappingEnd)
	case c == ',':
		p.fetchFlowEntry()
	case c == '-' && isBlankz(next):
		p.fetchBlockEntry()
	case c == '?' && (p.flowLevel > 0 || isBlankz(next)):
		p.decline("complex key (?)")
	case c == ':' && (p.flowLevel > 0 || isBlankz(next)):
		p.fetchValue()
	case c == '*':
		p.decline("alias")
	case c == '&':
		p.decline("anchor")
	case c == '!':
		p.decline("tag")
	case c == '|' && p.flowLevel == 0:
		p.fetchBlockScalar(true)
	case c == '>' && p.flowLevel == 0:
		p.fetchBlockScalar(false)
	case c == '\'':
		p.fetchFlowScalar(true)
	case c == '"':
		p.fetchFlowScalar(false)
	case startsPlain(c, next, p.flowLevel > 0):
		p.fetchPlainScalar()
	default:
		p.decline("found character that cannot start any token")
	}

	// Sequence indicators alone have no line comments: a comment after
	// one is a head comment of what follows.
	if p.newlines > 0 || p.tokens[p.ntok-1].typ == tokBlockEntry {
		return
	}
	p.scanLineComment(commentMark)
}

// startsPlain reports whether c, followed by next, starts a plain scalar.
func startsPlain(c, next byte, flow bool) bool {
	switch c {
	case ' ', '\t', '\n', 0, '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
	default:
		return true
	}
	return c == '-' && !isBlank(next) || !flow && (c == '?' || c == ':') && !isBlankz(next)
}

// keySlot looks a token number up in keysByTok.
func (p *parser) keySlot(tok int) (int, bool) {
	for _, k := range p.keysByTok {
		if k.tok == tok {
			return k.slot, true
		}
	}
	return 0, false
}

func (p *parser) setKeySlot(tok, slot int) {
	for i := range p.keysByTok {
		if p.keysByTok[i].tok == tok {
			p.keysByTok[i].slot = slot
			return
		}
	}
	if len(p.keysByTok) >= 16 {
		// Entries for tokens already parsed can never be looked up again.
		kept := p.keysByTok[:0]
		for _, k := range p.keysByTok {
			if k.tok >= p.tokensParsed {
				kept = append(kept, k)
			}
		}
		p.keysByTok = kept
	}
	p.keysByTok = append(p.keysByTok, keySlot{tok, slot})
}

func (p *parser) deleteKeySlot(tok int) {
	for i := range p.keysByTok {
		if p.keysByTok[i].tok == tok {
			last := len(p.keysByTok) - 1
			p.keysByTok[i] = p.keysByTok[last]
			p.keysByTok = p.keysByTok[:last]
			return
		}
	}
}

// simpleKeyIsValid reports whether a saved simple key can still be one: a
// key is on one line and at most 1024 characters long
// (yaml_simple_key_is_valid).
func (p *parser) simpleKeyIsValid(k *simpleKey) bool {
	if !k.possible {
		return false
	}
	if k.mark.line < p.mark.line || k.mark.index+1024 < p.mark.index {
		if k.required {
			p.decline("could not find expected ':'")
		}
		k.possible = false
		return false
	}
	return true
}

// saveSimpleKey records that a key may start here (yaml_parser_save_simple_key).
func (p *parser) saveSimpleKey() {
	required := p.flowLevel == 0 && p.indent == p.mark.column
	if p.simpleKeyAllowed {
		k := simpleKey{
			possible:    true,
			required:    required,
			tokenNumber: p.tokensParsed + p.ntok - p.tokensHead,
			mark:        p.mark,
		}
		p.removeSimpleKey()
		p.simpleKeys[len(p.simpleKeys)-1] = k
		p.setKeySlot(k.tokenNumber, len(p.simpleKeys)-1)
	}
}

// removeSimpleKey drops the possible key of the current flow level
// (yaml_parser_remove_simple_key).
func (p *parser) removeSimpleKey() {
	k := &p.simpleKeys[len(p.simpleKeys)-1]
	if k.possible {
		if k.required {
			p.decline("could not find expected ':'")
		}
		k.possible = false
		p.deleteKeySlot(k.tokenNumber)
	}
}

// increaseFlowLevel enters a flow collection (yaml_parser_increase_flow_level).
func (p *parser) increaseFlowLevel() {
	p.simpleKeys = append(p.simpleKeys, simpleKey{
		tokenNumber: p.tokensParsed + p.ntok - p.tokensHead,
		mark:        p.mark,
	})
	p.flowLevel++
	if p.flowLevel > 10000 {
		p.decline("exceeded max depth")
	}
}

// decreaseFlowLevel leaves a flow collection (yaml_parser_decrease_flow_level).
func (p *parser) decreaseFlowLevel() {
	if p.flowLevel > 0 {
		p.flowLevel--
		last := len(p.simpleKeys) - 1
		p.deleteKeySlot(p.simpleKeys[last].tokenNumber)
		p.simpleKeys = p.simpleKeys[:last]
	}
}

// rollIndent opens a block collection at column, inserting its start
// token at token number number, or at the end of the queue for -1
// (yaml_parser_roll_indent).
func (p *parser) rollIndent(column, number int, typ tokenType, m mark) {
	if p.flowLevel > 0 {
		return
	}
	if p.indent < column {
		p.indents = append(p.indents, p.indent)
		p.indent = column
		if len(p.indents) > 10000 {
			p.decline("exceeded max depth")
		}
		if number > -1 {
			number -= p.tokensParsed
		}
		p.insertToken(number, typ, m)
	}
}

// unrollIndent closes the block collections indented more than column,
// putting each BLOCK-END before the foot comments of the blocks around it
// (yaml_parser_unroll_indent).
func (p *parser) unrollIndent(column int, scanMark mark) {
	if p.flowLevel > 0 {
		return
	}
	blockMark := scanMark
	blockMark.index--
	for p.indent > column {
		stopIndex := blockMark.index
		for i := len(p.comments) - 1; i >= 0; i-- {
			c := &p.comments[i]
			if c.end.index < stopIndex {
				break
			}
			if c.start.column == p.indent+1 {
				blockMark = c.start
			}
			stopIndex = c.scan.index
		}
		p.insertToken(-1, tokBlockEnd, blockMark)
		p.indent = p.indents[len(p.indents)-1]
		p.indents = p.indents[:len(p.indents)-1]
	}
}

func (p *parser) fetchStreamStart() {
	p.indent = -1
	p.simpleKeys = append(p.simpleKeys, simpleKey{})
	p.simpleKeyAllowed = true
	p.streamStartProduced = true
	p.insertToken(-1, tokStreamStart, p.mark)
}

func (p *parser) fetchStreamEnd() {
	if p.mark.column != 0 {
		p.mark.column = 0
		p.mark.line++
	}
	p.unrollIndent(-1, p.mark)
	p.removeSimpleKey()
	p.simpleKeyAllowed = false
	p.insertToken(-1, tokStreamEnd, p.mark)
}

func (p *parser) fetchDocumentIndicator(typ tokenType) {
	p.unrollIndent(-1, p.mark)
	p.removeSimpleKey()
	p.simpleKeyAllowed = false
	start := p.mark
	p.skip()
	p.skip()
	p.skip()
	p.insertToken(-1, typ, start)
}

func (p *parser) fetchFlowCollectionStart(typ tokenType) {
	p.saveSimpleKey()
	p.increaseFlowLevel()
	p.simpleKeyAllowed = true
	start := p.mark
	p.skip()
	p.insertToken(-1, typ, start)
}

func (p *parser) fetchFlowCollectionEnd(typ tokenType) {
	p.removeSimpleKey()
	p.decreaseFlowLevel()
	p.simpleKeyAllowed = false
	start := p.mark
	p.skip()
	p.insertToken(-1, typ, start)
}

func (p *parser) fetchFlowEntry() {
	p.removeSimpleKey()
	p.simpleKeyAllowed = true
	start := p.mark
	p.skip()
	p.insertToken(-1, tokFlowEntry, start)
}

func (p *parser) fetchBlockEntry() {
	if p.flowLevel == 0 {
		if !p.simpleKeyAllowed {
			p.decline("block sequence entries are not allowed in this context")
		}
		p.rollIndent(p.mark.column, -1, tokBlockSequenceStart, p.mark)
	}
	// A '-' in a flow collection is an error the parser reports.
	p.removeSimpleKey()
	p.simpleKeyAllowed = true
	start := p.mark
	p.skip()
	p.insertToken(-1, tokBlockEntry, start)
}

// fetchValue scans ':' and, if a simple key was waiting, puts the KEY
// token (and the start of the mapping) before it (yaml_parser_fetch_value).
func (p *parser) fetchValue() {
	k := &p.simpleKeys[len(p.simpleKeys)-1]
	if p.simpleKeyIsValid(k) {
		p.insertToken(k.tokenNumber-p.tokensParsed, tokKey, k.mark)
		p.rollIndent(k.mark.column, k.tokenNumber, tokBlockMappingStart, k.mark)
		k.possible = false
		p.deleteKeySlot(k.tokenNumber)
		p.simpleKeyAllowed = false
	} else {
		if p.flowLevel == 0 {
			if !p.simpleKeyAllowed {
				p.decline("mapping values are not allowed in this context")
			}
			p.rollIndent(p.mark.column, -1, tokBlockMappingStart, p.mark)
		}
		p.simpleKeyAllowed = p.flowLevel == 0
	}
	start := p.mark
	p.skip()
	p.insertToken(-1, tokValue, start)
}

func (p *parser) fetchBlockScalar(literal bool) {
	p.removeSimpleKey()
	p.simpleKeyAllowed = true
	p.scanBlockScalar(p.newToken(), literal)
}

func (p *parser) fetchFlowScalar(single bool) {
	p.saveSimpleKey()
	p.simpleKeyAllowed = false
	p.scanFlowScalar(p.newToken(), single)
}

func (p *parser) fetchPlainScalar() {
	p.saveSimpleKey()
	p.simpleKeyAllowed = false
	p.scanPlainScalar(p.newToken())
}

// scanToNextToken skips blanks, line breaks and comments, queueing the
// comments (yaml_parser_scan_to_next_token).
func (p *parser) scanToNextToken() {
	scanMark := p.mark
	for {
		// Tabs are blanks in flow collections and after a value on its
		// line; elsewhere the token dispatch rejects them.
		src, i := p.src, p.pos
		for {
			c := src[i]
			if c != ' ' && (c != '\t' || p.flowLevel == 0 && p.simpleKeyAllowed) {
				break
			}
			i++
		}
		p.mark.index += i - p.pos
		p.mark.column += i - p.pos
		p.pos = i

		// A line comment after "- " that is followed by content on the
		// next line is a head comment of that content.
		if p.ntok > 1 && p.tokens[p.ntok-1].typ == tokBlockEntry && len(p.comments) > 0 {
			a := p.tokens[p.ntok-2].typ
			c := &p.comments[len(p.comments)-1]
			if a == tokBlockSequenceStart && c.line.len() > 0 && p.src[p.pos] != '\n' {
				c.head = c.line
				c.line = ctext{}
				if c.start.line == p.mark.line-1 {
					c.token = p.mark
				}
			}
		}

		if p.src[p.pos] == '#' {
			p.scanComments(scanMark)
		}
		if p.src[p.pos] != '\n' {
			return
		}
		p.skipLine()
		if p.flowLevel == 0 {
			p.simpleKeyAllowed = true
		}
	}
}

// scanPlainScalar scans a plain scalar (yaml_parser_scan_plain_scalar).
// While the scalar is one line its value is a substring of the input; the
// first folded line break makes it a copy.
func (p *parser) scanPlainScalar(t *token) {
	var (
		s              []byte // the value, once a line break is folded
		folded         bool
		valStart       = p.pos
		valEnd         = p.pos // end of the value while it is a substring
		wsStart        = -1    // start of the blanks after the last word, on its line
		leadingBlanks  bool    // a line break follows the last word
		trailingBreaks int     // line breaks after the first one
		indent         = p.indent + 1
		flow           = p.flowLevel > 0
		start          = p.mark
		stop           = &blockStop
	)
	if flow {
		stop = &flowStop
	}
	for {
		if p.mark.column == 0 && p.isDocumentIndicator() {
			break
		}
		if p.src[p.pos] == '#' {
			break
		}

		// Consume non-blank characters.
		if c := p.src[p.pos]; !isBlankz(c) && !(c == ':' && isBlankz(p.src[p.pos+1])) && !(flow && isFlowIndicator(c)) {
			// Join the blanks or fold the line breaks before this word.
			if leadingBlanks {
				if !folded {
					s = append(make([]byte, 0, 2*(valEnd-valStart)+16), p.src[valStart:valEnd]...)
					folded = true
				}
				if trailingBreaks == 0 {
					s = append(s, ' ')
				} else {
					for range trailingBreaks {
						s = append(s, '\n')
					}
				}
				trailingBreaks = 0
				leadingBlanks = false
			} else if wsStart >= 0 && folded {
				s = append(s, p.src[wsStart:p.pos]...)
			}
			wsStart = -1
			wordStart := p.pos
			src, i, wide := p.src, p.pos, false
			for {
				if !flow {
					i = skipWord(src, i)
				}
				c := src[i]
				if !stop[c] {
					i++
				} else if c >= 0x80 {
					wide = true
					i++
				} else if c == ':' && !isBlankz(src[i+1]) {
					i++
				} else {
					break
				}
			}
			if wide {
				p.advance(i)
			} else {
				p.mark.index += i - p.pos
				p.mark.column += i - p.pos
				p.pos = i
			}
			p.newlines = 0
			if folded {
				s = append(s, p.src[wordStart:i]...)
			} else {
				valEnd = i
			}
		}

		// Is it the end?
		if c := p.src[p.pos]; !isBlank(c) && c != '\n' {
			break
		}

		// Consume blank characters.
		for {
			src, i := p.src, p.pos
			for src[i] == ' ' || src[i] == '\t' {
				if src[i] == '\t' && leadingBlanks && p.mark.column+i-p.pos < indent {
					p.decline("found a tab character that violates indentation")
				}
				i++
			}
			if i > p.pos {
				if !leadingBlanks && wsStart < 0 {
					wsStart = p.pos
				}
				p.mark.index += i - p.pos
				p.mark.column += i - p.pos
				p.pos = i
			}
			if src[i] != '\n' {
				break
			}
			if !leadingBlanks {
				wsStart = -1
				leadingBlanks = true
			} else {
				trailingBreaks++
			}
			p.skipLine()
		}

		// Check the indentation level.
		if !flow && p.mark.column < indent {
			break
		}
	}

	if leadingBlanks {
		p.simpleKeyAllowed = true
	}
	t.typ, t.style, t.start, t.v0, t.v1 = tokScalar, plainStyle, start, valStart, valEnd
	if folded {
		p.setBuilt(t, s)
	}
}

// blockStop and flowStop hold the bytes a word of a plain scalar stops at
// in block and flow context, or must look at again: blanks, line breaks,
// the end of the input, ':' (which ends the scalar before a blank), the
// flow indicators in flow context, and the bytes of characters that are
// not ASCII (which count as one column each).
var blockStop, flowStop = func() (block, flow [256]bool) {
	for _, c := range []byte{' ', '\t', '\n', 0, ':'} {
		block[c], flow[c] = true, true
	}
	for c := 0x80; c < 0x100; c++ {
		block[c], flow[c] = true, true
	}
	for _, c := range []byte{',', '?', '[', ']', '{', '}'} {
		flow[c] = true
	}
	return block, flow
}()

// skipWord returns the offset of the first byte from i on that is in
// blockStop, or a little before it: it looks at eight bytes at a time, as
// long as eight bytes are left.
func skipWord(src string, i int) int {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	for i+8 <= len(src) {
		w := uint64(src[i]) | uint64(src[i+1])<<8 | uint64(src[i+2])<<16 | uint64(src[i+3])<<24 |
			uint64(src[i+4])<<32 | uint64(src[i+5])<<40 | uint64(src[i+6])<<48 | uint64(src[i+7])<<56
		stops := zeroBytes(w^(' '*ones)) | zeroBytes(w^('\t'*ones)) | zeroBytes(w^('\n'*ones)) |
			zeroBytes(w) | zeroBytes(w^(':'*ones)) | w&high
		if stops != 0 {
			return i + bits.TrailingZeros64(stops)/8
		}
		i += 8
	}
	return i
}

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}'
}

// scanFlowScalar scans a single- or double-quoted scalar
// (yaml_parser_scan_flow_scalar).
func (p *parser) scanFlowScalar(t *token, single bool) {
	start := p.mark
	if v0, v1, ok := p.quotedLine(single); ok {
		// The whole scalar is on this line, without escapes: its value is
		// the text between the quotes.
		p.advance(v1 + 1)
		p.newlines = 0
		t.typ, t.style, t.start, t.v0, t.v1 = tokScalar, quoteStyle(single), start, v0, v1
		return
	}
	p.skip()

	var s, whitespaces []byte
	var leadingBreak bool
	var trailingBreaks int
	for {
		if p.mark.column == 0 && p.isDocumentIndicator() {
			p.decline("found unexpected document indicator")
		}
		if p.src[p.pos] == 0 {
			p.decline("found unexpected end of stream")
		}

		// Consume non-blank characters.
		leadingBlanks := false
		for !isBlankz(p.src[p.pos]) {
			c := p.src[p.pos]
			switch {
			case single && c == '\'' && p.src[p.pos+1] == '\'':
				s = append(s, '\'')
				p.skip()
				p.skip()
				continue
			case single && c == '\'':
			case !single && c == '"':
			case !single && c == '\\' && p.src[p.pos+1] == '\n':
				p.skip()
				p.skipLine()
				leadingBlanks = true
			case !single && c == '\\':
				s = p.escape(s)
				continue
			default:
				s = p.read(s)
				continue
			}
			break
		}

		// Check if we are at the end of the scalar.
		if c := p.src[p.pos]; single && c == '\'' || !single && c == '"' {
			break
		}

		// Consume blank characters.
		for {
			c := p.src[p.pos]
			if isBlank(c) {
				if !leadingBlanks {
					whitespaces = p.read(whitespaces)
				} else {
					p.skip()
				}
			} else if c == '\n' {
				if !leadingBlanks {
					whitespaces = whitespaces[:0]
					leadingBreak = true
					leadingBlanks = true
				} else {
					trailingBreaks++
				}
				p.skipLine()
			} else {
				break
			}
		}

		// Join the whitespaces or fold line breaks.
		if leadingBlanks {
			// A folded line break (yaml.v3's leading_break), if there
			// was one, was \n: it folds to a space or to the breaks
			// after it; an escaped line break folds to those breaks.
			if leadingBreak && trailingBreaks == 0 {
				s = append(s, ' ')
			}
			for range trailingBreaks {
				s = append(s, '\n')
			}
			trailingBreaks = 0
			leadingBreak = false
		} else {
			s = append(s, whitespaces...)
			whitespaces = whitespaces[:0]
		}
	}
	p.skip() // the right quote
	t.typ, t.style, t.start = tokScalar, quoteStyle(single), start
	p.setBuilt(t, s)
}

// setBuilt makes s the value of t.
func (p *parser) setBuilt(t *token, s []byte) {
	t.v0, t.v1 = -1, len(p.built)
	p.built = append(p.built, string(s))
}

// value returns the value of a scalar token.
func (p *parser) value(t *token) string {
	if t.v0 < 0 {
		return p.built[t.v1]
	}
	return p.src[t.v0:t.v1]
}

func quoteStyle(single bool) scalarStyle {
	if single {
		return singleQuotedStyle
	}
	return doubleQuotedStyle
}

// quotedLine finds a quoted scalar that ends on its line and has no escape
// (a doubled single quote or a backslash): its value is src[v0:v1], and
// src[v1] is the right quote.
func (p *parser) quotedLine(single bool) (v0, v1 int, ok bool) {
	q := byte('"')
	if single {
		q = '\''
	}
	for i := p.pos + 1; ; i++ {
		switch c := p.src[i]; c {
		case q:
			if single && p.src[i+1] == '\'' {
				return 0, 0, false
			}
			return p.pos + 1, i, true
		case '\n', 0:
			return 0, 0, false
		case '\\':
			if !single {
				return 0, 0, false
			}
		}
	}
}

// escape decodes the escape sequence at the current position of a
// double-quoted scalar into s.
func (p *parser) escape(s []byte) []byte {
	codeLength := 0
	switch p.src[p.pos+1] {
	case '0':
		s = append(s, 0)
	case 'a':
		s = append(s, '\x07')
	case 'b':
		s = append(s, '\x08')
	case 't', '\t':
		s = append(s, '\x09')
	case 'n':
		s = append(s, '\x0A')
	case 'v':
		s = append(s, '\x0B')
	case 'f':
		s = append(s, '\x0C')
	case 'r':
		s = append(s, '\x0D')
	case 'e':
		s = append(s, '\x1B')
	case ' ':
		s = append(s, '\x20')
	case '"':
		s = append(s, '"')
	case '\'':
		s = append(s, '\'')
	case '\\':
		s = append(s, '\\')
	case 'N': // NEL (#x85)
		s = append(s, "\u0085"...)
	case '_': // #xA0
		s = append(s, "\u00a0"...)
	case 'L': // LS (#x2028)
		s = append(s, "\u2028"...)
	case 'P': // PS (#x2029)
		s = append(s, "\u2029"...)
	case 'x':
		codeLength = 2
	case 'u':
		codeLength = 4
	case 'U':
		codeLength = 8
	default:
		p.decline("found unknown escape character")
	}
	p.skip()
	p.skip()
	if codeLength == 0 {
		return s
	}
	value := 0
	for k := range codeLength {
		c := p.src[p.pos+k]
		switch {
		case c >= '0' && c <= '9':
			value = value<<4 + int(c-'0')
		case c >= 'A' && c <= 'F':
			value = value<<4 + int(c-'A') + 10
		case c >= 'a' && c <= 'f':
			value = value<<4 + int(c-'a') + 10
		default:
			p.decline("did not find expected hexdecimal number")
		}
	}
	if value >= 0xD800 && value <= 0xDFFF || value > 0x10FFFF {
		p.decline("found invalid Unicode character escape code")
	}
	s = utf8.AppendRune(s, rune(value))
	for range codeLength {
		p.skip()
	}
	return s
}

// scanBlockScalar scans a literal (|) or folded (>) scalar
// (yaml_parser_scan_block_scalar).
func (p *parser) scanBlockScalar(t *token, literal bool) {
	start := p.mark
	p.skip()

	// The chomping and indentation indicators, in either order.
	var chomping, increment int
	if c := p.src[p.pos]; c == '+' || c == '-' {
		chomping = +1
		if c == '-' {
			chomping = -1
		}
		p.skip()
		if c := p.src[p.pos]; c >= '0' && c <= '9' {
			if c == '0' {
				p.decline("found an indentation indicator equal to 0")
			}
			increment = int(c - '0')
			p.skip()
		}
	} else if c >= '0' && c <= '9' {
		if c == '0' {
			p.decline("found an indentation indicator equal to 0")
		}
		increment = int(c - '0')
		p.skip()
		if c := p.src[p.pos]; c == '+' || c == '-' {
			chomping = +1
			if c == '-' {
				chomping = -1
			}
			p.skip()
		}
	}

	// Blanks and a comment to the end of the line.
	for isBlank(p.src[p.pos]) {
		p.skip()
	}
	if p.src[p.pos] == '#' {
		p.scanLineComment(start)
		for !isBreakz(p.src[p.pos]) {
			p.skip()
		}
	}
	if !isBreakz(p.src[p.pos]) {
		p.decline("did not find expected comment or line break")
	}
	p.skipLine()
	indent := 0
	if increment > 0 {
		if p.indent >= 0 {
			indent = p.indent + increment
		} else {
			indent = increment
		}
	}

	var s []byte
	var leadingBreak bool // a line break ends the last line
	trailingBreaks := p.blockScalarBreaks(&indent)

	var leadingBlank, trailingBlank bool
	for p.mark.column == indent && p.src[p.pos] != 0 {
		// At the start of a line that is not empty.
		trailingBlank = isBlank(p.src[p.pos])
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if trailingBreaks == 0 {
				s = append(s, ' ')
			}
		} else if leadingBreak {
			s = append(s, '\n')
		}
		leadingBreak = false
		for range trailingBreaks {
			s = append(s, '\n')
		}
		leadingBlank = isBlank(p.src[p.pos])

		// The line.
		i := p.lineEnd()
		s = append(s, p.src[p.pos:i]...)
		// yaml.v3 reads the line a character at a time, and a character
		// that is not blank resets newlines.
		for j := i - 1; j >= p.pos; j-- {
			if !isBlank(p.src[j]) {
				p.newlines = 0
				break
			}
		}
		p.advance(i)

		// The line break.
		if p.src[p.pos] == '\n' {
			leadingBreak = true
			p.skipLine()
		}
		trailingBreaks = p.blockScalarBreaks(&indent)
	}

	// Chomp the tail.
	if chomping != -1 && leadingBreak {
		s = append(s, '\n')
	}
	if chomping == 1 {
		for range trailingBreaks {
			s = append(s, '\n')
		}
	}
	style := literalStyle
	if !literal {
		style = foldedStyle
	}
	t.typ, t.style, t.start = tokScalar, style, start
	p.setBuilt(t, s)
}

// blockScalarBreaks skips the indentation and the empty lines of a block
// scalar, finding its indentation if it is not known yet, and returns the
// number of line breaks it skipped (yaml_parser_scan_block_scalar_breaks).
// lineEnd returns the offset of the line break or the end of the input
// that ends the current line.
func (p *parser) lineEnd() int {
	i := strings.IndexByte(p.src[p.pos:], '\n')
	if i < 0 {
		return len(p.src) - padding
	}
	return p.pos + i
}

func (p *parser) blockScalarBreaks(indent *int) int {
	breaks := 0
	maxIndent := 0
	for {
		for (*indent == 0 || p.mark.column < *indent) && p.src[p.pos] == ' ' {
			p.pos++
			p.mark.index++
			p.mark.column++
		}
		if p.mark.column > maxIndent {
			maxIndent = p.mark.column
		}
		if (*indent == 0 || p.mark.column < *indent) && p.src[p.pos] == '\t' {
			p.decline("found a tab character where an indentation space is expected")
		}
		if p.src[p.pos] != '\n' {
			break
		}
		p.skipLine()
		breaks++
	}
	if *indent == 0 {
		*indent = max(maxIndent, p.indent+1, 1)
	}
	return breaks
}
