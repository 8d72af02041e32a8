package fastyaml

import (
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// isFlowIndicator reports whether c is one of the flow indicators ,[]{}.
func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// flowSpace skips blanks, line breaks and comments inside a flow
// collection opened at offset open. yaml.v3 reads the lines of a flow
// collection at any indentation, and a comment right after a comma.
func (r *reader) flowSpace(open int) {
	hush := false // as in skip
	for {
		switch r.src[r.pos] {
		case ' ', '\t':
			r.pos++
		case '\n':
			r.newline()
			for r.src[r.pos] == ' ' || r.src[r.pos] == '\t' {
				r.pos++
			}
			if r.src[r.pos] == '\n' {
				if !hush {
					r.com.flowBlank()
				}
				continue
			}
			if r.isMarkerAt(r.bol, '-') || r.isMarkerAt(r.bol, '.') {
				r.fail(r.bol, "a document marker inside a flow collection (is a [ or { not closed?)")
			}
		case '#':
			s := r.pos
			for r.src[r.pos] != '\n' && r.pos < r.end {
				r.pos++
			}
			r.com.flowComment(s, r.pos)
			hush = r.sepOf(r.line) != 0
		case 0:
			if r.pos >= r.end {
				r.unclosedFlow(open)
			}
			return
		default:
			return
		}
	}
}

// unclosedFlow fails for a flow collection opened at offset open that the
// stream ends in.
func (r *reader) unclosedFlow(open int) {
	line := strings.Count(r.src[:open], "\n")
	if r.src[open] == '[' {
		r.failAt(line, r.colOf(open), "a [ list without its closing ]")
	}
	r.failAt(line, r.colOf(open), "a { mapping without its closing }")
}

// flow reads a flow collection at pos, inside a block at column parent;
// p are its properties.
func (r *reader) flow(parent int, p props) *yaml.Node {
	r.enter()
	r.flowDepth++
	open := r.pos
	line, col := r.line, r.col(r.pos)
	if p.has {
		line, col = p.line, p.col
	}
	var n *yaml.Node
	closing := byte(']')
	if r.src[r.pos] == '{' {
		n = r.node(yaml.MappingNode, mapTag, line, col)
		closing = '}'
	} else {
		n = r.node(yaml.SequenceNode, seqTag, line, col)
	}
	n.Style = yaml.FlowStyle
	r.collectionProps(n, p)
	opened := r.rangeOpen(n, p)
	r.pos++
	base := len(r.kids)
	var o *Outline
	keep := false
	keys := 0
	set := -1
	if r.sk != nil {
		o, keep = r.sk.o, r.sk.keep
		keys = len(r.sk.keys)
		if closing == ']' {
			r.sk.items()
		}
	}
	r.com.flowStart(n)
	r.flowSpace(open)
	for r.src[r.pos] != closing {
		switch {
		case r.sk != nil && closing == '}':
			r.sk.o, r.sk.keep = o, keep
			r.sk.flowEntry(r, open, keys, &set)
		case closing == '}':
			k, v := r.flowPair(open, true)
			r.kids = append(r.kids, k, v)
			r.com.flowEntryEnd(&k.FootComment)
		default:
			item := r.flowSeqEntry(open)
			if r.sk == nil || r.sk.keep {
				r.kids = append(r.kids, item)
			}
			if item.Kind == yaml.MappingNode && item.Style&yaml.FlowStyle != 0 && len(item.Content) == 2 && item.Line == item.Content[0].Line && r.sk == nil {
				r.com.flowEntryEnd(&item.Content[0].FootComment)
			} else {
				r.com.flowEntryEnd(&item.FootComment)
			}
		}
		r.flowSpace(open)
		switch c := r.src[r.pos]; c {
		case ',':
			r.pos++
			r.flowSpace(open)
			if c := r.src[r.pos]; c == ',' {
				r.fail(r.pos, "two commas in a row in a flow collection (an entry is missing)")
			}
		case closing:
		case ']', '}':
			r.failf(r.pos, "%q where %q closes the collection", c, closing)
		default:
			if closing == ']' {
				r.fail(r.pos, "no comma between the items of a [ list (or is a ] missing?)")
			}
			r.fail(r.pos, "no comma between the entries of a { mapping (or is a } missing?)")
		}
	}
	r.pos++
	r.tokEnd = r.pos
	r.lastEnd = max(r.lastEnd, r.pos)
	r.rangeClose(opened)
	n.Content = r.content(base)
	if r.sk != nil {
		r.sk.o, r.sk.keep = o, keep
		r.sk.keys = r.sk.keys[:keys]
		r.sk.endSet(set)
	}
	r.com.flowEnd(n)
	r.flowDepth--
	r.leave()
	return n
}

// flowSeqEntry reads an entry of a flow sequence: a node, or a pair of a
// key and a value (a mapping of one entry).
func (r *reader) flowSeqEntry(open int) *yaml.Node {
	explicit := r.explicitKey()
	var k *yaml.Node
	before := len(r.ranges)
	if !explicit {
		k = r.flowKey(open)
		if !r.atValueIndicator(k) {
			return k
		}
	}
	// a pair: a mapping of one entry, where its key starts
	if r.sk != nil {
		panic(skimStop{r.line + 1, "a pair in a flow sequence"})
	}
	r.enter()
	var m *yaml.Node
	if explicit {
		m = r.node(yaml.MappingNode, mapTag, r.line, r.col(r.pos))
		m.Style = yaml.FlowStyle
		opened := r.rangeOpen(m, props{})
		k, v := r.flowPair(open, false)
		m.Content = []*yaml.Node{k, v}
		r.rangeClose(opened)
	} else {
		m = r.node(yaml.MappingNode, mapTag, k.Line-1, k.Column-1)
		m.Style = yaml.FlowStyle
		opened := -1
		if len(r.ranges) > before && r.ranges[before].n == k {
			// the pair's range starts with its key's, which is read:
			// it goes before the key's ranges
			r.ranges = slices.Insert(r.ranges, before, span{m, Range{r.ranges[before].Start, r.ranges[before].Start}})
			opened = before
		}
		v := r.flowValue(open, true)
		m.Content = []*yaml.Node{k, v}
		r.rangeClose(opened)
	}
	r.leave()
	return m
}

// explicitKey reports whether pos is at a "?" that starts an explicit key
// in a flow collection.
func (r *reader) explicitKey() bool {
	if r.src[r.pos] != '?' {
		if r.flowDepth == 1 {
			r.implicitIn = true
		}
		return false
	}
	if !r.isFlowBlankAt(r.pos + 1) {
		r.fail(r.pos, "a '?' at the start of a value in a flow collection: yaml.v3 reads it as a key indicator, YAML 1.2 as text (quote the value)")
	}
	if r.flowDepth == 1 && r.explicitAt < 0 {
		r.explicitAt = r.pos
	}
	return true
}

// flowKey reads a node of a flow collection that may be an implicit key,
// and the blanks after it: a colon after it must be on its line, within
// 1024 characters of its start.
func (r *reader) flowKey(open int) *yaml.Node {
	start, line := r.pos, r.line
	k := r.flowNode(open, true)
	endLine := r.line
	r.flowSpace(open)
	if r.atValueIndicator(k) {
		if r.line != endLine || endLine != line {
			r.fail(r.pos, "a key over lines, or its colon on a line after it, in a flow collection (an implicit key is on one line, with its colon)")
		}
		if r.line == line && r.longKey(start, r.pos) {
			r.failAt(line, k.Column-1, "a key longer than 1024 characters in a flow collection (write it as an explicit key, after ?)")
		}
	}
	return k
}

// isFlowBlankAt reports whether src[i] ends an indicator in a flow
// collection: a blank, or a flow indicator.
func (r *reader) isFlowBlankAt(i int) bool {
	return r.isBlankAt(i) || isFlowIndicator(r.src[i])
}

// atValueIndicator reports whether pos is at the colon of a key k of a
// flow collection: one followed by a blank, or right after a quoted or
// flow key (JSON's "key":value).
func (r *reader) atValueIndicator(k *yaml.Node) bool {
	if r.src[r.pos] != ':' {
		return false
	}
	if r.isFlowBlankAt(r.pos + 1) {
		return true
	}
	return k != nil && (k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.FlowStyle) != 0 || k == r.flowPropsKey)
}

// flowPair reads an entry of a flow mapping (inMap), or the pair after a
// "?" in a flow sequence: an explicit key (?), or an implicit one, and its
// value if a colon follows.
func (r *reader) flowPair(open int, inMap bool) (k, v *yaml.Node) {
	if r.explicitKey() {
		r.pos++
		r.com.flowIndicator('?')
		r.flowSpace(open)
		if c := r.src[r.pos]; !inMap && (c == ',' || c == ']' || c == '}' || c == ':' && r.isFlowBlankAt(r.pos+1)) {
			// yaml.v3 reads "[?,]" and "[? :]", refuses "[?]", "[a, ?]"
			// and "[? : a]"; in a flow mapping it reads them all ("{?}")
			r.fail(r.pos, "a '?' without a key in a flow sequence (write the key, or remove the ?)")
		}
		if c := r.src[r.pos]; c == ',' || c == ']' || c == '}' || c == ':' && (r.isFlowBlankAt(r.pos+1) || inMap) {
			k = r.flowEmpty(nullTag, r.line, r.col(r.pos))
			if c == ':' && inMap {
				// an empty key's colon even without a blank after it, as
				// after properties alone (yaml.v3: "{? :0}" is {null: 0};
				// FuzzDifferential, 2026-11-29)
				r.flowPropsKey = k // (atValueIndicator)
			}
		} else {
			k = r.flowNode(open, true)
		}
		r.flowSpace(open)
	} else {
		k = r.flowKey(open)
	}
	if r.atValueIndicator(k) {
		return k, r.flowValue(open, !inMap)
	}
	// no value: a null where the next token is
	return k, r.node(yaml.ScalarNode, nullTag, r.line, r.col(r.pos))
}

// flowValue reads the value after the colon at pos in a flow collection;
// inSeq: of a pair in a flow sequence.
func (r *reader) flowValue(open int, inSeq bool) *yaml.Node {
	line, col := r.line, r.col(r.pos)
	r.pos++ // the colon
	r.com.flowIndicator(':')
	r.flowSpace(open)
	if c := r.src[r.pos]; c == ',' || c == ']' || c == '}' {
		if !inSeq {
			line, col = r.line, r.col(r.pos)
		}
		// (an empty value is where the next token is, in a pair of a
		// flow sequence where its colon is, as yaml.v3 places them)
		return r.flowEmpty(nullTag, line, col)
	}
	return r.flowNode(open, false)
}

// flowNode reads a node inside a flow collection opened at offset open:
// properties, then an alias, a nested collection, a quoted scalar, a
// plain scalar (over lines too), or nothing (a node of its properties
// alone). key says it may be a key, followed by a colon.
func (r *reader) flowNode(open int, key bool) *yaml.Node {
	r.com.flowNodeStart()
	var p props
	if c := r.src[r.pos]; c == '&' || c == '!' {
		p = r.props(true)
		r.flowSpace(open)
		if c := r.src[r.pos]; (c == '&' || c == '!') && r.line != p.line {
			// more on a line below: one node's, as yaml.v3 reads them
			// ("[&a\n!t b]"; a hunt, 2026-11-29)
			p = r.merge(p, r.props(true))
			r.flowSpace(open)
		}
	}
	var n *yaml.Node
	empty := false // a node of its properties alone
	switch c := r.src[r.pos]; c {
	case '[', '{':
		if key && r.sk != nil {
			panic(skimStop{r.line + 1, "a key that may not be a scalar"})
		}
		n = r.flow(-1, p)
	case '"':
		n = r.doubleQuoted(-1, p)
	case '\'':
		n = r.singleQuoted(-1, p)
	case '*':
		if p.has {
			r.failAt(p.line, p.col, "properties on an alias")
		}
		n = r.alias()
	case ',', ']', '}':
		if !p.has {
			r.fail(r.pos, "a flow collection's entry is missing")
		}
		n = r.flowEmpty("", p.line, p.col)
		r.scalarProps(n, p, "")
		r.ranged(n, p, r.pos, r.pos) // (its properties)
		empty = true
	case ':':
		if p.has && (r.isFlowBlankAt(r.pos+1) || key) {
			// properties alone, then a colon: the empty node's; a key's
			// colon even without a blank after it, as after a quoted key
			// (yaml.v3: "{!0 :0}" is {!0 "": 0}; FuzzDifferential,
			// 2026-11-29)
			n = r.flowEmpty("", p.line, p.col)
			r.scalarProps(n, p, "")
			r.ranged(n, p, r.pos, r.pos)
			empty = true
			if key {
				r.flowPropsKey = n // (atValueIndicator)
			}
			break
		}
		if r.isFlowBlankAt(r.pos + 1) {
			r.fail(r.pos, "a value (:) without a key in a flow collection")
		}
		r.fail(r.pos, "a value starting with ':' in a flow collection (quote the value)")
	case '?':
		r.fail(r.pos, "a '?' at the start of a value in a flow collection: yaml.v3 reads it as a key indicator, YAML 1.2 as text (quote the value)")
	case '|', '>':
		r.failf(r.pos, "a block scalar (%c) inside a flow collection", c)
	case '-':
		if r.isBlankAt(r.pos + 1) {
			// (a dash before a flow indicator, "[-]", yaml.v3 reads as
			// text, as it does "-x")
			r.fail(r.pos, "a dash and a blank inside a flow collection: a block sequence's dash cannot be there (quote a value '-')")
		}
		n = r.flowPlain(open, p)
	default:
		if !r.plainStart(r.pos) {
			r.failf(r.pos, "%q cannot start a value (quote the value)", c)
		}
		n = r.flowPlain(open, p)
	}
	r.com.flowNode(n, empty)
	return n
}

// flowEmpty makes the scalar of an empty node in a flow collection (a
// null, or one of properties alone: tag ""), at line and col: a comment after a colon before
// it is not its line comment but the next scalar's, or the collection's
// when none follows in it, as yaml.v3 gives it ("{a: #c\n, b: 1}" to b,
// "{a: #c\n}" and "{a: &x #c\n}" to the mapping; FuzzDifferential
// allowed it as a comment placed elsewhere; attack, 2026-11-29).
func (r *reader) flowEmpty(tag string, line, col int) *yaml.Node {
	next := r.com.nextLine
	r.com.nextLine = ""
	n := r.node(yaml.ScalarNode, tag, line, col)
	r.com.nextLine = next
	return n
}

// flowPlain reads a plain scalar inside a flow collection opened at
// offset open, over lines if it goes on; p are its properties.
func (r *reader) flowPlain(open int, p props) *yaml.Node {
	line, col := r.line, r.col(r.pos)
	if p.has {
		line, col = p.line, p.col
	}
	n := r.node(yaml.ScalarNode, "", line, col)
	start := r.pos
	end := start
	seg := start // where the text of the current line starts, when over lines
	var b []byte // the value, when over lines
	for {
		switch r.src[r.pos] {
		case ',', '[', ']', '{', '}':
		case ':':
			if !r.isBlankAt(r.pos + 1) {
				r.pos++
				end = r.pos
				continue
			}
		case ' ', '\t':
			r.pos++
			continue
		case '?':
			r.fail(r.pos, "a '?' inside a plain value in a flow collection: yaml.v3 reads it as a key indicator (quote the value)")
		case '\n':
			// the scalar goes on on the next line with text, folded,
			// unless that line starts with what ends it
			j, breaks := r.pos, 0
			var s int
			for {
				j++ // the line break
				s = j
				for r.src[j] == ' ' {
					j++
				}
				if r.src[j] == '\t' && len(r.open) > 0 && j-s <= r.indentNow() {
					// yaml.v3 refuses a tab there, in the indentation of
					// the block around the flow collection ("k: [a\n\t]")
					r.failAt(r.line+1+breaks, j-s, "a tab in the indentation of a line inside a flow collection (indent with spaces)")
				}
				for r.src[j] == ' ' || r.src[j] == '\t' {
					j++
				}
				if r.src[j] != '\n' {
					break
				}
				breaks++
			}
			switch c := r.src[j]; {
			case c == 0 && j >= r.end:
				r.unclosedFlow(open)
			case c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '#',
				c == ':' && r.isBlankAt(j+1):
			default:
				if r.isMarkerAt(s, '-') || r.isMarkerAt(s, '.') {
					r.fail(s, "a document marker inside a flow collection (is a [ or { not closed?)")
				}
				if b == nil {
					b = append(r.sbuf[:0], r.src[start:end]...)
				} else {
					b = append(b, r.src[seg:end]...)
				}
				b = r.foldBreaks(b, r.line, breaks)
				r.line += 1 + breaks
				r.bol = s
				r.pos, seg, end = j, j, j
				continue
			}
		case '#':
			if r.pos > start && (r.src[r.pos-1] == ' ' || r.src[r.pos-1] == '\t') {
				break // a comment
			}
			r.pos++
			end = r.pos
			continue
		case 0:
			if r.pos >= r.end {
				r.unclosedFlow(open)
			}
			fallthrough
		default:
			r.pos++
			end = r.pos
			continue
		}
		break
	}
	if b != nil {
		b = append(b, r.src[seg:end]...)
		n.Value = string(b)
		r.sbuf = b
	} else {
		n.Value = r.src[start:end]
	}
	r.scalarProps(n, p, tagOf(n.Value))
	r.ranged(n, p, start, end)
	r.pos = end
	r.tokEnd, r.textEnd = -1, end
	return n
}
