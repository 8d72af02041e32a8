// Copyright (c) 2011-2019 Canonical Ltd
// Copyright (c) 2006-2010 Kirill Simonov
//
// Under the MIT license: see scanner.go.

package fastyaml

// Comments, as yaml.v3 handles them. The scanner queues each comment with
// the mark of the token it belongs to (token): a line comment after a token
// (scanLineComment), head comments before the next token, and foot
// comments of what came before, which scanComments tells apart by blank
// lines and indentation. unrollIndent puts the BLOCK-END of a block before
// the foot comments that belong to the blocks around it. The parser takes
// the queued comments whose token mark it has reached each time it peeks
// at a token (unfoldComments), and gives them to the next event that takes
// comments (parser.go), from which the tree builder moves some between
// nodes (tree.go). These are yaml.v3's steps, in its order.

// scanLineComment queues a comment on the line of the token just scanned
// (yaml_parser_scan_line_comment).
func (p *parser) scanLineComment(tokenMark mark) {
	if p.newlines > 0 {
		return
	}
	var start mark
	var text ctext
	for peek := 0; peek < 512; peek++ {
		c := p.src[p.pos+peek]
		if isBlank(c) {
			continue
		}
		if c == '#' {
			if p.flowLevel > 0 {
				p.decline("comment in a flow collection")
			}
			seen := p.mark.index + peek
			for {
				c := p.src[p.pos]
				if isBreakz(c) {
					if p.mark.index >= seen {
						break
					}
					p.skipLine()
				} else if p.mark.index >= seen {
					if text.len() == 0 {
						start = p.mark
					}
					p.readLine(&text)
				} else {
					p.skip()
				}
			}
		}
		break
	}
	if text.len() > 0 {
		p.comments = append(p.comments, comment{token: tokenMark, start: start, line: text})
	}
}

// readLine appends the rest of the line to t, as yaml.v3's read does one
// character at a time.
func (p *parser) readLine(t *ctext) {
	i := p.lineEnd()
	t.appendSource(p.src, p.pos, i)
	for j := i - 1; j >= p.pos; j-- {
		if !isBlank(p.src[j]) {
			p.newlines = 0
			break
		}
	}
	p.advance(i)
}

// scanComments queues the comment lines starting at the current position,
// splitting them into foot comments of what came before and a head
// comment of what follows (yaml_parser_scan_comments).
func (p *parser) scanComments(scanMark mark) {
	if p.flowLevel > 0 {
		p.decline("comment in a flow collection")
	}
	tok := p.tokens[p.ntok-1]
	if tok.typ == tokFlowEntry {
		// yaml.v3 looks at the token before, which its queue may or may
		// not still hold.
		p.decline("comment after a flow entry")
	}
	tokenMark := tok.start
	var start mark
	nextIndent := max(p.indent, 0)
	recentEmpty := false
	firstEmpty := p.newlines <= 1
	line := p.mark.line
	column := p.mark.column
	var text ctext

	// The foot line is the line where a comment must start to still be a
	// foot of the content before; with content on the current line, the
	// line after it.
	footLine := -1
	if scanMark.line > 0 {
		footLine = p.mark.line - p.newlines + 1
		if p.newlines == 0 && p.mark.column > 1 {
			footLine++
		}
	}

	peek := 0
	for ; peek < 512; peek++ {
		c := p.src[p.pos+peek]
		column++
		if isBlank(c) {
			continue
		}
		if isBreakz(c) {
			// A line break or the end of the input.
			if !recentEmpty {
				if firstEmpty && (start.line == footLine && tok.typ != tokValue || start.column-1 < nextIndent) {
					// The first empty line, with none before: the comment
					// so far is a foot of the token before, not a head
					// of the next one.
					if text.len() > 0 {
						if start.column-1 < nextIndent {
							// Dedented: not about the token before.
							tokenMark = start
						}
						end := mark{p.mark.index + peek, line, column}
						p.comments = append(p.comments, comment{scan: scanMark, token: tokenMark, start: start, end: end, foot: text})
						scanMark = end
						tokenMark = scanMark
						text = ctext{}
					}
				} else if text.len() > 0 && c != 0 {
					text.appendByte(p.src, '\n')
				}
			}
			if c != '\n' {
				break
			}
			firstEmpty = false
			recentEmpty = true
			column = 0
			line++
			continue
		}

		if text.len() > 0 && column-1 < nextIndent && column != start.column {
			// A comment at another indentation is a foot of the content
			// before rather than a head of the content after.
			end := mark{p.mark.index + peek, line, column}
			p.comments = append(p.comments, comment{scan: scanMark, token: tokenMark, start: start, end: end, foot: text})
			scanMark = end
			tokenMark = scanMark
			text = ctext{}
		}

		if c != '#' {
			break
		}
		if text.len() == 0 {
			start = mark{p.mark.index + peek, line, column}
		} else {
			text.appendByte(p.src, '\n')
		}
		recentEmpty = false

		// Consume up to the end of the comment line.
		seen := p.mark.index + peek
		for {
			c := p.src[p.pos]
			if isBreakz(c) {
				if p.mark.index >= seen {
					break
				}
				p.skipLine()
			} else if p.mark.index >= seen {
				p.readLine(&text)
			} else {
				p.skip()
			}
		}

		peek = 0
		column = 0
		line = p.mark.line
		nextIndent = max(p.indent, 0)
	}

	if text.len() > 0 {
		p.comments = append(p.comments, comment{
			scan:  scanMark,
			token: start,
			start: start,
			end:   mark{p.mark.index + peek - 1, line, column},
			head:  text,
		})
	}
}

// unfoldComments moves the queued comments that belong to tok, or to
// tokens before it, into the parser (yaml_parser_unfold_comments).
func (p *parser) unfoldComments(tok *token) {
	for p.commentsHead < len(p.comments) && tok.start.index >= p.comments[p.commentsHead].token.index {
		c := &p.comments[p.commentsHead]
		if c.head.len() > 0 {
			if tok.typ == tokBlockEnd {
				// No heads on ends: the head waits for the next token.
				break
			}
			p.headComment.join(p.src, c.head)
		}
		if c.foot.len() > 0 {
			p.footComment.join(p.src, c.foot)
		}
		if c.line.len() > 0 {
			p.lineComment.join(p.src, c.line)
		}
		*c = comment{}
		p.commentsHead++
	}
	if p.commentsHead == len(p.comments) {
		// Every comment queued is taken: the queue starts over, which
		// yaml.v3 does not do but which changes nothing, since the steps
		// that look back at the queue (scanToNextToken, unrollIndent)
		// pass over taken comments, which are zero.
		p.comments = p.comments[:0]
		p.commentsHead = 0
	}
}

// ctext is the text of comments. It is a part of the input, src[off:end],
// as long as it is one (a comment line, or comment lines at column 0 one
// after the other, as most comments are), which nodes take without a copy;
// else it is buf. Texts are only ever appended to, and buf is never shared
// with another text that is appended to, so appending in place is safe.
type ctext struct {
	buf      []byte // the text, if not nil
	off, end int    // the text is src[off:end] while buf is nil
}

func (t *ctext) len() int {
	if t.buf != nil {
		return len(t.buf)
	}
	return t.end - t.off
}

// set reports whether t holds text, or held some: yaml.v3 tests such
// slices against nil.
func (t *ctext) set() bool { return t.buf != nil || t.end != 0 }

// str returns the text as a string, a part of src where it is one.
func (t *ctext) str(src string) string {
	if t.buf != nil {
		return string(t.buf)
	}
	return src[t.off:t.end]
}

// at returns the i-th byte of the text.
func (t *ctext) at(src string, i int) byte {
	if t.buf != nil {
		return t.buf[i]
	}
	return src[t.off+i]
}

// slice returns the bytes i to j of the text.
func (t *ctext) slice(i, j int) ctext {
	if t.buf != nil {
		return ctext{buf: t.buf[i:j]}
	}
	return ctext{off: t.off + i, end: t.off + j}
}

// own makes the text bytes of its own, with room for n more.
func (t *ctext) own(src string, n int) {
	if t.buf == nil {
		t.buf = append(make([]byte, 0, t.end-t.off+n+16), src[t.off:t.end]...)
	}
}

// appendSource appends src[i:j].
func (t *ctext) appendSource(src string, i, j int) {
	switch {
	case t.buf == nil && t.end == t.off:
		t.off, t.end = i, j
	case t.buf == nil && t.end == i:
		t.end = j
	default:
		t.own(src, j-i)
		t.buf = append(t.buf, src[i:j]...)
	}
}

// appendByte appends c.
func (t *ctext) appendByte(src string, c byte) {
	if t.buf == nil && t.end > t.off && t.end < len(src) && src[t.end] == c {
		t.end++
		return
	}
	t.own(src, 1)
	t.buf = append(t.buf, c)
}

// join appends a comment to the comments collected so far, on a line of
// its own. The first is taken as it is, not copied: the comment queue lets
// go of it.
func (t *ctext) join(src string, c ctext) {
	if t.len() == 0 {
		*t = c
		return
	}
	t.appendByte(src, '\n')
	if c.buf == nil {
		t.appendSource(src, c.off, c.end)
		return
	}
	t.own(src, len(c.buf))
	t.buf = append(t.buf, c.buf...)
}
