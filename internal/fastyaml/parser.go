// Copyright (c) 2011-2019 Canonical Ltd
// Copyright (c) 2006-2010 Kirill Simonov
//
// Under the MIT license: see scanner.go.

package fastyaml

// The parser turns tokens into events, as yaml.v3's parserc.go does, state
// by state; its function names are given for each. Events carry the
// comments the parser has collected when they are made; which events take
// them, and when, decides where comments end up.

type eventType uint8

const (
	evNone eventType = iota
	evStreamStart
	evStreamEnd
	evDocumentStart
	evDocumentEnd
	evScalar
	evSequenceStart
	evSequenceEnd
	evMappingStart
	evMappingEnd
)

type event struct {
	typ   eventType
	style scalarStyle // of a scalar
	flow  bool        // a flow collection
	start mark
	value string

	head, line, foot ctext
}

type parseState uint8

const (
	parseStreamStart parseState = iota
	parseImplicitDocumentStart
	parseDocumentStart
	parseDocumentContent
	parseDocumentEnd
	parseBlockNode
	parseBlockNodeOrIndentlessSequence
	parseFlowNode
	parseBlockSequenceFirstEntry
	parseBlockSequenceEntry
	parseIndentlessSequenceEntry
	parseBlockMappingFirstKey
	parseBlockMappingKey
	parseBlockMappingValue
	parseFlowSequenceFirstEntry
	parseFlowSequenceEntry
	parseFlowMappingFirstKey
	parseFlowMappingKey
	parseFlowMappingValue
	parseFlowMappingEmptyValue
	parseEnd
)

// peekToken returns the next token, with the comments that belong to it
// moved into the parser (peek_token).
func (p *parser) peekToken() *token {
	if !p.tokenAvailable {
		p.fetchMoreTokens()
	}
	t := &p.tokens[p.tokensHead]
	if p.commentsHead < len(p.comments) {
		p.unfoldComments(t)
	}
	return t
}

// skipToken moves past the token peekToken returned (skip_token).
func (p *parser) skipToken() {
	p.tokenAvailable = false
	p.tokensParsed++
	p.streamEndProduced = p.tokens[p.tokensHead].typ == tokStreamEnd
	p.tokensHead++
}

func (p *parser) pushState(s parseState) { p.states = append(p.states, s) }

func (p *parser) popState() {
	p.state = p.states[len(p.states)-1]
	p.states = p.states[:len(p.states)-1]
}

// takeComments gives the collected comments to an event
// (yaml_parser_set_event_comments).
func (p *parser) takeComments(e *event) {
	// Most events have no comments: pointers are written only when they
	// change, which spares the garbage collector's write barriers.
	if p.headComment.set() || p.lineComment.set() || p.footComment.set() {
		e.head, e.line, e.foot = p.headComment, p.lineComment, p.footComment
		p.headComment, p.lineComment, p.footComment = ctext{}, ctext{}, ctext{}
	}
	if p.stemComment.set() {
		p.stemComment = ctext{}
	}
}

// nextEvent makes the next event (yaml_parser_parse).
func (p *parser) nextEvent(e *event) {
	// The event is reused: its pointers are written only when they
	// change, which spares the garbage collector's write barriers.
	e.typ, e.style, e.flow = evNone, 0, false
	if e.head.set() || e.line.set() || e.foot.set() {
		e.head, e.line, e.foot = ctext{}, ctext{}, ctext{}
	}
	if p.streamEndProduced || p.state == parseEnd {
		return
	}
	switch p.state {
	case parseStreamStart:
		p.parseStreamStart(e)
	case parseImplicitDocumentStart:
		p.parseDocumentStart(e, true)
	case parseDocumentStart:
		p.parseDocumentStart(e, false)
	case parseDocumentContent:
		p.parseDocumentContent(e)
	case parseDocumentEnd:
		p.parseDocumentEnd(e)
	case parseBlockNode:
		p.parseNode(e, true, false)
	case parseBlockNodeOrIndentlessSequence:
		p.parseNode(e, true, true)
	case parseFlowNode:
		p.parseNode(e, false, false)
	case parseBlockSequenceFirstEntry:
		p.parseBlockSequenceEntry(e, true)
	case parseBlockSequenceEntry:
		p.parseBlockSequenceEntry(e, false)
	case parseIndentlessSequenceEntry:
		p.parseIndentlessSequenceEntry(e)
	case parseBlockMappingFirstKey:
		p.parseBlockMappingKey(e, true)
	case parseBlockMappingKey:
		p.parseBlockMappingKey(e, false)
	case parseBlockMappingValue:
		p.parseBlockMappingValue(e)
	case parseFlowSequenceFirstEntry:
		p.parseFlowSequenceEntry(e, true)
	case parseFlowSequenceEntry:
		p.parseFlowSequenceEntry(e, false)
	case parseFlowMappingFirstKey:
		p.parseFlowMappingKey(e, true)
	case parseFlowMappingKey:
		p.parseFlowMappingKey(e, false)
	case parseFlowMappingValue:
		p.parseFlowMappingValue(e, false)
	case parseFlowMappingEmptyValue:
		p.parseFlowMappingValue(e, true)
	}
}

// yaml_parser_parse_stream_start
func (p *parser) parseStreamStart(e *event) {
	t := p.peekToken()
	if t.typ != tokStreamStart {
		p.decline("did not find expected <stream-start>")
	}
	p.state = parseImplicitDocumentStart
	e.typ, e.start = evStreamStart, t.start
	p.skipToken()
}

// parseDocumentStart starts a document, or ends the stream
// (yaml_parser_parse_document_start).
func (p *parser) parseDocumentStart(e *event, implicit bool) {
	t := p.peekToken()
	if !implicit {
		// Extra document end markers.
		for t.typ == tokDocumentEnd {
			p.skipToken()
			t = p.peekToken()
		}
	}
	switch {
	case implicit && t.typ != tokDocumentStart && t.typ != tokStreamEnd:
		// An implicit document. The head comment collected so far is
		// split at its last empty line: the part before belongs to the
		// document, the rest to its first node.
		p.pushState(parseDocumentEnd)
		p.state = parseBlockNode
		var head ctext
		if h, n := p.headComment, p.headComment.len(); n > 0 {
			for i := n - 1; i > 0; i-- {
				if h.at(p.src, i) == '\n' {
					if i == n-1 {
						head = h.slice(0, i)
						p.headComment = h.slice(i+1, n)
						break
					} else if h.at(p.src, i-1) == '\n' {
						head = h.slice(0, i-1)
						p.headComment = h.slice(i+1, n)
						break
					}
				}
			}
		}
		e.typ, e.start = evDocumentStart, t.start
		e.head = head
	case t.typ != tokStreamEnd:
		// An explicit document.
		if t.typ != tokDocumentStart {
			p.decline("did not find expected <document start>")
		}
		p.pushState(parseDocumentEnd)
		p.state = parseDocumentContent
		e.typ, e.start = evDocumentStart, t.start
		p.skipToken()
	default:
		p.state = parseEnd
		e.typ, e.start = evStreamEnd, t.start
		p.skipToken()
	}
}

// yaml_parser_parse_document_content
func (p *parser) parseDocumentContent(e *event) {
	t := p.peekToken()
	if t.typ == tokDocumentStart || t.typ == tokDocumentEnd || t.typ == tokStreamEnd {
		p.popState()
		p.emptyScalar(e, t.start)
		return
	}
	p.parseNode(e, true, false)
}

// parseDocumentEnd ends a document; the comments collected are its foot
// (yaml_parser_parse_document_end).
func (p *parser) parseDocumentEnd(e *event) {
	t := p.peekToken()
	start := t.start
	if t.typ == tokDocumentEnd {
		p.skipToken()
	}
	p.state = parseDocumentStart
	e.typ, e.start = evDocumentEnd, start
	p.takeComments(e)
	if e.head.len() > 0 && e.foot.len() == 0 {
		e.foot, e.head = e.head, ctext{}
	}
}

// parseNode parses a node: a scalar, or the start of a collection
// (yaml_parser_parse_node). Anchors, aliases and tags were declined by the
// scanner.
func (p *parser) parseNode(e *event, block, indentlessSequence bool) {
	t := p.peekToken()
	start := t.start
	switch {
	case indentlessSequence && t.typ == tokBlockEntry:
		p.state = parseIndentlessSequenceEntry
		e.typ, e.start = evSequenceStart, start
	case t.typ == tokScalar:
		p.popState()
		e.typ, e.start = evScalar, start
		e.value = p.value(t)
		e.style = t.style
		p.takeComments(e)
		p.skipToken()
	case t.typ == tokFlowSequenceStart:
		p.state = parseFlowSequenceFirstEntry
		e.typ, e.start = evSequenceStart, start
		e.flow = true
		p.takeComments(e)
	case t.typ == tokFlowMappingStart:
		p.state = parseFlowMappingFirstKey
		e.typ, e.start = evMappingStart, start
		e.flow = true
		p.takeComments(e)
	case block && t.typ == tokBlockSequenceStart:
		p.state = parseBlockSequenceFirstEntry
		e.typ, e.start = evSequenceStart, start
		if p.stemComment.set() {
			e.head = p.stemComment
			p.stemComment = ctext{}
		}
	case block && t.typ == tokBlockMappingStart:
		p.state = parseBlockMappingFirstKey
		e.typ, e.start = evMappingStart, start
		if p.stemComment.set() {
			e.head = p.stemComment
			p.stemComment = ctext{}
		}
	default:
		p.decline("did not find expected node content")
	}
}

// yaml_parser_parse_block_sequence_entry
func (p *parser) parseBlockSequenceEntry(e *event, first bool) {
	if first {
		p.peekToken()
		p.skipToken()
	}
	t := p.peekToken()
	switch t.typ {
	case tokBlockEntry:
		m := t.end()
		priorHeadLen := p.headComment.len()
		p.skipToken()
		p.splitStemComment(priorHeadLen)
		t = p.peekToken()
		if t.typ != tokBlockEntry && t.typ != tokBlockEnd {
			p.pushState(parseBlockSequenceEntry)
			p.parseNode(e, true, false)
			return
		}
		p.state = parseBlockSequenceEntry
		p.emptyScalar(e, m)
	case tokBlockEnd:
		p.popState()
		e.typ, e.start = evSequenceEnd, t.start
		p.skipToken()
	default:
		p.decline("did not find expected '-' indicator")
	}
}

// yaml_parser_parse_indentless_sequence_entry
func (p *parser) parseIndentlessSequenceEntry(e *event) {
	t := p.peekToken()
	if t.typ == tokBlockEntry {
		m := t.end()
		priorHeadLen := p.headComment.len()
		p.skipToken()
		p.splitStemComment(priorHeadLen)
		t = p.peekToken()
		if t.typ != tokBlockEntry && t.typ != tokKey && t.typ != tokValue && t.typ != tokBlockEnd {
			p.pushState(parseIndentlessSequenceEntry)
			p.parseNode(e, true, false)
			return
		}
		p.state = parseIndentlessSequenceEntry
		p.emptyScalar(e, m)
		return
	}
	p.popState()
	e.typ, e.start = evSequenceEnd, t.start
}

// splitStemComment sets aside the head comment collected before a
// sequence entry whose content is a block collection: it belongs to the
// collection as a whole (yaml_parser_split_stem_comment).
func (p *parser) splitStemComment(stemLen int) {
	if stemLen == 0 {
		return
	}
	t := p.peekToken()
	if t.typ != tokBlockSequenceStart && t.typ != tokBlockMappingStart {
		return
	}
	n := p.headComment.len()
	p.stemComment = p.headComment.slice(0, stemLen)
	if n == stemLen {
		p.headComment = ctext{}
	} else {
		rest := p.headComment.slice(stemLen+1, n)
		if rest.buf != nil {
			// A copy: the stem comment keeps the bytes before.
			rest.buf = append([]byte(nil), rest.buf...)
		}
		p.headComment = rest
	}
}

// yaml_parser_parse_block_mapping_key
func (p *parser) parseBlockMappingKey(e *event, first bool) {
	if first {
		p.peekToken()
		p.skipToken()
	}
	t := p.peekToken()
	switch t.typ {
	case tokKey:
		m := t.end()
		p.skipToken()
		t = p.peekToken()
		if t.typ != tokKey && t.typ != tokValue && t.typ != tokBlockEnd {
			p.pushState(parseBlockMappingValue)
			p.parseNode(e, true, true)
			return
		}
		p.state = parseBlockMappingValue
		p.emptyScalar(e, m)
	case tokBlockEnd:
		p.popState()
		e.typ, e.start = evMappingEnd, t.start
		p.takeComments(e)
		p.skipToken()
	default:
		p.decline("did not find expected key")
	}
}

// yaml_parser_parse_block_mapping_value
func (p *parser) parseBlockMappingValue(e *event) {
	t := p.peekToken()
	if t.typ == tokValue {
		m := t.end()
		p.skipToken()
		t = p.peekToken()
		if t.typ != tokKey && t.typ != tokValue && t.typ != tokBlockEnd {
			p.pushState(parseBlockMappingKey)
			p.parseNode(e, true, true)
			return
		}
		p.state = parseBlockMappingKey
		p.emptyScalar(e, m)
		return
	}
	p.state = parseBlockMappingKey
	p.emptyScalar(e, t.start)
}

// yaml_parser_parse_flow_sequence_entry; an implicit mapping in a flow
// sequence ([a: b]) is declined.
func (p *parser) parseFlowSequenceEntry(e *event, first bool) {
	if first {
		p.peekToken()
		p.skipToken()
	}
	t := p.peekToken()
	if t.typ != tokFlowSequenceEnd {
		if !first {
			if t.typ != tokFlowEntry {
				p.decline("did not find expected ',' or ']'")
			}
			p.skipToken()
			t = p.peekToken()
		}
		if t.typ == tokKey {
			p.decline("mapping in a flow sequence")
		}
		if t.typ != tokFlowSequenceEnd {
			p.pushState(parseFlowSequenceEntry)
			p.parseNode(e, false, false)
			return
		}
	}
	p.popState()
	e.typ, e.start = evSequenceEnd, t.start
	e.flow = true
	p.takeComments(e)
	p.skipToken()
}

// yaml_parser_parse_flow_mapping_key
func (p *parser) parseFlowMappingKey(e *event, first bool) {
	if first {
		p.peekToken()
		p.skipToken()
	}
	t := p.peekToken()
	if t.typ != tokFlowMappingEnd {
		if !first {
			if t.typ != tokFlowEntry {
				p.decline("did not find expected ',' or '}'")
			}
			p.skipToken()
			t = p.peekToken()
		}
		if t.typ == tokKey {
			p.skipToken()
			t = p.peekToken()
			if t.typ != tokValue && t.typ != tokFlowEntry && t.typ != tokFlowMappingEnd {
				p.pushState(parseFlowMappingValue)
				p.parseNode(e, false, false)
				return
			}
			p.state = parseFlowMappingValue
			p.emptyScalar(e, t.start)
			return
		} else if t.typ != tokFlowMappingEnd {
			p.pushState(parseFlowMappingEmptyValue)
			p.parseNode(e, false, false)
			return
		}
	}
	p.popState()
	e.typ, e.start = evMappingEnd, t.start
	e.flow = true
	p.takeComments(e)
	p.skipToken()
}

// yaml_parser_parse_flow_mapping_value
func (p *parser) parseFlowMappingValue(e *event, empty bool) {
	t := p.peekToken()
	if empty {
		p.state = parseFlowMappingKey
		p.emptyScalar(e, t.start)
		return
	}
	if t.typ == tokValue {
		p.skipToken()
		t = p.peekToken()
		if t.typ != tokFlowEntry && t.typ != tokFlowMappingEnd {
			p.pushState(parseFlowMappingKey)
			p.parseNode(e, false, false)
			return
		}
	}
	p.state = parseFlowMappingKey
	p.emptyScalar(e, t.start)
}

// emptyScalar makes the event of a node left out, a plain empty scalar;
// it takes no comments (yaml_parser_process_empty_scalar).
func (p *parser) emptyScalar(e *event, m mark) {
	e.typ, e.start, e.style = evScalar, m, plainStyle
	if e.value != "" {
		e.value = ""
	}
}
