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
	var text []byte
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
					if len(text) == 0 {
						start = p.mark
					}
					text = p.readLine(text)
				} else {
					p.skip()
				}
			}
		}
		break
	}
	if len(text) > 0 {
		p.comments = append(p.comments, comment{token: tokenMark, start: start, line: text})
	}
}

// readLine appends the rest of the line to s, as yaml.v3's read does one
// character at a time.
func (p *parser) readLine(s []byte) []byte {
	i := p.lineEnd()
	if s == nil {
		s = make([]byte, 0, max(i-p.pos, 32))
	}
	s = append(s, p.src[p.pos:i]...)
	for j := i - 1; j >= p.pos; j-- {
		if !isBlank(p.src[j]) {
			p.newlines = 0
			break
		}
	}
	p.advance(i)
	return s
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
	var text []byte

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
					if len(text) > 0 {
						if start.column-1 < nextIndent {
							// Dedented: not about the token before.
							tokenMark = start
						}
						end := mark{p.mark.index + peek, line, column}
						p.comments = append(p.comments, comment{scan: scanMark, token: tokenMark, start: start, end: end, foot: text})
						scanMark = end
						tokenMark = scanMark
						text = nil
					}
				} else if len(text) > 0 && c != 0 {
					text = append(text, '\n')
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

		if len(text) > 0 && column-1 < nextIndent && column != start.column {
			// A comment at another indentation is a foot of the content
			// before rather than a head of the content after.
			end := mark{p.mark.index + peek, line, column}
			p.comments = append(p.comments, comment{scan: scanMark, token: tokenMark, start: start, end: end, foot: text})
			scanMark = end
			tokenMark = scanMark
			text = nil
		}

		if c != '#' {
			break
		}
		if len(text) == 0 {
			start = mark{p.mark.index + peek, line, column}
		} else {
			text = append(text, '\n')
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
				text = p.readLine(text)
			} else {
				p.skip()
			}
		}

		peek = 0
		column = 0
		line = p.mark.line
		nextIndent = max(p.indent, 0)
	}

	if len(text) > 0 {
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
		if len(c.head) > 0 {
			if tok.typ == tokBlockEnd {
				// No heads on ends: the head waits for the next token.
				break
			}
			p.headComment = join(p.headComment, c.head)
		}
		if len(c.foot) > 0 {
			p.footComment = join(p.footComment, c.foot)
		}
		if len(c.line) > 0 {
			p.lineComment = join(p.lineComment, c.line)
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

// join appends a comment to the comments collected so far, on a line of its
// own. The first is taken as it is, not copied: the comment queue lets go
// of it, and what is appended to it later goes after its end.
func join(collected, c []byte) []byte {
	if len(collected) == 0 {
		return c
	}
	collected = append(collected, '\n')
	return append(collected, c...)
}
