package fastyaml

import (
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/resolve"
)

// plainEnd scans the text of a plain scalar in block context on one line,
// from i: it returns where the text ends (trailing blanks left out) and
// where the scan stopped: at the line break or the end, or at the blank
// before a comment (comment is then true). A colon and a blank, which
// would make the text a key, is refused: where keys are possible they are
// read before.
func (r *reader) plainEnd(i int) (end, stop int, comment bool) {
	for {
		for !blankStops[r.src[i]] {
			i++
		}
		end = i
		switch r.src[i] {
		case ' ', '\t':
			j := i
			for r.src[j] == ' ' || r.src[j] == '\t' {
				j++
			}
			if r.src[j] == '#' {
				return end, i, true
			}
			if r.src[j] == '\n' || j >= r.end {
				return end, j, false
			}
			i = j
			continue
		case ':':
			if r.isBlankAt(i + 1) {
				r.fail(i, "a colon and a space inside a plain value (does the value need quotes, or is this a key indented deeper than the one before it?)")
			}
		case '\n':
			return end, i, false
		case 0:
			if i >= r.end {
				return end, i, false
			}
		}
		i++
	}
}

// blankStops are stops and blanks.
var blankStops = [256]bool{':': true, '#': true, '\n': true, 0: true, ' ': true, '\t': true}

// tagOf is the tag of a plain scalar without properties.
var tagOf = resolve.Tag

// plain reads a plain scalar in block context, inside a block at column
// parent, with the lines it continues on, and the end of its last line; p
// are its properties.
func (r *reader) plain(parent int, p props) *yaml.Node {
	line, col := r.line, r.col(r.pos)
	if p.has {
		line, col = p.line, p.col
	}
	n := r.node(yaml.ScalarNode, "", line, col)
	start := r.pos
	end, stop, comment := r.plainEnd(start)
	value := r.src[start:end]
	var b []byte // the value, when over lines
	for !comment && stop < r.end {
		// stop is at a line break: does the scalar go on after it?
		j, breaks := stop+1, 0
		var s int
		var ind int
		tab := -1 // a tab on a blank line, not indented more than the block
		for {
			s = j
			for r.src[j] == ' ' {
				j++
			}
			ind = j - s
			if r.src[j] == '\t' && ind <= parent && tab < 0 {
				tab = j
			}
			for r.src[j] == ' ' || r.src[j] == '\t' {
				j++
			}
			if r.src[j] != '\n' {
				break
			}
			j++
			breaks++
		}
		c := r.src[j]
		if j >= r.end || ind <= parent || c == '#' {
			break
		}
		if j == s && (c == '-' || c == '.') && r.src[j+1] == c && r.src[j+2] == c && r.isBlankAt(j+3) {
			break
		}
		if c == ':' && r.isBlankAt(j+1) {
			// ": " ends the scalar (and is no key: a key is on one
			// line); what follows is read by the caller
			break
		}
		if tab >= 0 && tab < s {
			// (yaml.v3 refuses it inside a scalar that goes on: "a: b\n\t\n c")
			r.fail(tab, "a tab on a blank line inside a text over lines, not indented more than its block (remove it)")
		}
		if b == nil {
			b = append(r.sbuf[:0], value...)
		}
		b = r.foldBreaks(b, r.line, breaks)
		// The reader moves to the continuation line.
		r.line += 1 + breaks
		r.bol = s
		end, stop, comment = r.plainEnd(j)
		b = append(b, r.src[j:end]...)
	}
	if b != nil {
		value = string(b)
		r.sbuf = b
	}
	n.Value = value
	r.scalarProps(n, p, tagOf(value))
	r.ranged(n, p, start, end)
	r.pos = end
	r.tokEnd, r.textEnd = -1, end
	r.com.scalarEnd(n)
	if r.dropLost && value[0] == ':' && parent < 0 && len(r.docs) > 0 && line == r.doc.Line-1 {
		// (yaml.v3 drops the line comment of such a root on a ---
		// line after the stream's first document)
		r.com.target = nil
		r.com.deny = true
	}
	r.rootPlain = parent < 0 && !comment
	r.endLine(false)
	r.rootPlain = false
	return n
}

// fold handles a line break inside a quoted scalar at pos (opened at
// offset open): it drops the blanks before it (b[:keep] is what stays),
// reads the empty lines after it and the blanks of the line it goes on
// with, and appends a space or the empty lines' breaks. yaml.v3 reads the
// lines of a quoted scalar at any indentation, tabs included.
func (r *reader) fold(b []byte, keep, open int) []byte {
	b = b[:keep]
	line, breaks := r.line, 0
	for {
		r.newline()
		for r.src[r.pos] == ' ' || r.src[r.pos] == '\t' {
			r.pos++
		}
		switch r.src[r.pos] {
		case '\n':
			breaks++
			continue
		case 0:
			if r.pos >= r.end {
				r.unclosed(open)
			}
		}
		break
	}
	if r.isMarkerAt(r.bol, '-') || r.isMarkerAt(r.bol, '.') {
		r.fail(r.bol, "a document marker inside a quoted value (is a quote not closed?)")
	}
	return r.foldBreaks(b, line, breaks)
}

// unclosed fails for a quoted scalar opened at offset open that the
// stream ends in.
func (r *reader) unclosed(open int) {
	line := strings.Count(r.src[:open], "\n")
	r.failAt(line, r.colOf(open), "a quoted value without its closing quote")
}

// quotedNode makes the node of a quoted scalar at pos, with properties p.
func (r *reader) quotedNode(p props, style yaml.Style) *yaml.Node {
	line, col := r.line, r.col(r.pos)
	if p.has {
		line, col = p.line, p.col
	}
	n := r.node(yaml.ScalarNode, strTag, line, col)
	n.Style = style
	if p.has {
		r.scalarProps(n, p, strTag)
	}
	return n
}

// singleQuoted reads a single-quoted scalar; p are its properties.
func (r *reader) singleQuoted(parent int, p props) *yaml.Node {
	n := r.quotedNode(p, yaml.SingleQuotedStyle)
	open := r.pos
	r.pos++
	start := r.pos
	i := strings.IndexAny(r.src[start:r.end], "'\n")
	if i >= 0 && r.src[start+i] == '\'' && r.src[start+i+1] != '\'' {
		n.Value = r.src[start : start+i]
		r.pos = start + i + 1
		r.tokEnd = r.pos
		r.ranged(n, p, open, r.pos)
		return n
	}
	b := r.sbuf[:0]
	keep := 0
	for {
		switch c := r.src[r.pos]; c {
		case '\'':
			if r.src[r.pos+1] == '\'' {
				b = append(b, '\'')
				r.pos += 2
				keep = len(b)
				continue
			}
			r.pos++
			n.Value = string(b)
			r.sbuf = b
			r.tokEnd = r.pos
			r.ranged(n, p, open, r.pos)
			return n
		case '\n':
			b = r.fold(b, keep, open)
			keep = len(b)
			continue
		case ' ', '\t':
			b = append(b, c)
		case 0:
			if r.pos >= r.end {
				r.unclosed(open)
			}
			fallthrough
		default:
			b = append(b, c)
			keep = len(b)
		}
		r.pos++
	}
}

// escapes are the characters of double-quoted escapes of one character
// after the backslash, to what they stand for (0xff: a hexadecimal
// escape, 0: none).
var escapes = [256]byte{'0': 0xfe, 'a': '\a', 'b': '\b', 't': '\t', '\t': '\t', 'n': '\n', 'v': '\v', 'f': '\f', 'r': '\r',
	'e': 0x1b, ' ': ' ', '"': '"', '/': '/', '\\': '\\', 'x': 0xff, 'u': 0xff, 'U': 0xff}

// doubleQuoted reads a double-quoted scalar; p are its properties.
func (r *reader) doubleQuoted(parent int, p props) *yaml.Node {
	n := r.quotedNode(p, yaml.DoubleQuotedStyle)
	open := r.pos
	r.pos++
	start := r.pos
	i := strings.IndexAny(r.src[start:r.end], "\"\\\n")
	if i >= 0 && r.src[start+i] == '"' {
		n.Value = r.src[start : start+i]
		r.pos = start + i + 1
		r.tokEnd = r.pos
		r.ranged(n, p, open, r.pos)
		return n
	}
	b := r.sbuf[:0]
	keep := 0
	for {
		switch c := r.src[r.pos]; c {
		case '"':
			r.pos++
			n.Value = string(b)
			r.sbuf = b
			r.tokEnd = r.pos
			r.ranged(n, p, open, r.pos)
			return n
		case '\n':
			b = r.fold(b, keep, open)
			keep = len(b)
			continue
		case ' ', '\t':
			b = append(b, c)
			r.pos++
			continue
		case '\\':
			esc := r.pos
			r.pos++
			e := r.src[r.pos]
			switch x := escapes[e]; {
			case e == 'N':
				b = utf8.AppendRune(b, 0x85)
			case e == '_':
				b = utf8.AppendRune(b, 0xa0)
			case e == 'L':
				b = utf8.AppendRune(b, 0x2028)
			case e == 'P':
				b = utf8.AppendRune(b, 0x2029)
			case x == 0xfe:
				b = append(b, 0)
			case x == 0xff:
				w := 2
				if e == 'u' {
					w = 4
				} else if e == 'U' {
					w = 8
				}
				var v rune
				for k := 1; k <= w; k++ {
					h := unhex(r.src[r.pos+k])
					if h < 0 {
						r.failf(esc, "a bad escape \\%c in a double-quoted value: \\%c needs %d hexadecimal digits", e, e, w)
					}
					v = v<<4 | rune(h)
				}
				if v >= 0xd800 && v <= 0xdfff || v > 0x10ffff {
					r.failf(esc, "the escape \\%s is no character", r.src[r.pos:r.pos+1+w])
				}
				b = utf8.AppendRune(b, v)
				r.pos += w
			case x != 0:
				b = append(b, x)
			case e == '\n':
				// An escaped line break: the text goes on after the
				// next line's blanks, without a space.
				r.newline()
				for r.src[r.pos] == ' ' || r.src[r.pos] == '\t' {
					r.pos++
				}
				for r.src[r.pos] == '\n' {
					// empty lines after it are line breaks
					b = r.keepBreaks(b, r.line, 1)
					r.newline()
					for r.src[r.pos] == ' ' || r.src[r.pos] == '\t' {
						r.pos++
					}
				}
				if r.src[r.pos] == 0 && r.pos >= r.end {
					r.unclosed(open)
				}
				if r.isMarkerAt(r.bol, '-') || r.isMarkerAt(r.bol, '.') {
					r.fail(r.bol, "a document marker inside a quoted value (is a quote not closed?)")
				}
				keep = len(b)
				continue
			default:
				if e == 0 && r.pos >= r.end {
					r.unclosed(open)
				}
				if e == '\'' {
					r.fail(esc, "a bad escape \\' in a double-quoted value (a single quote needs none)")
				}
				c, _ := utf8.DecodeRuneInString(r.src[r.pos:])
				r.failf(esc, "a bad escape \\%c in a double-quoted value", c)
			}
			r.pos++
			keep = len(b)
			continue
		case 0:
			if r.pos >= r.end {
				r.unclosed(open)
			}
		}
		b = append(b, r.src[r.pos])
		keep = len(b)
		r.pos++
	}
}

// blockScalar reads a literal or folded scalar, inside a block at column
// parent, from its header to its last line, and skips to the next
// content; p are its properties.
func (r *reader) blockScalar(parent int, p props) *yaml.Node {
	line, col := r.line, r.col(r.pos)
	if p.has {
		line, col = p.line, p.col
	}
	n := r.node(yaml.ScalarNode, strTag, line, col)
	folded := r.src[r.pos] == '>'
	n.Style = yaml.LiteralStyle
	if folded {
		n.Style = yaml.FoldedStyle
	}
	if p.has {
		r.scalarProps(n, p, strTag)
	}
	indicator := r.pos
	r.pos++
	chomp, step := byte(0), 0
	for range 2 {
		switch c := r.src[r.pos]; {
		case (c == '+' || c == '-') && chomp == 0:
			chomp = c
			r.pos++
		case c >= '1' && c <= '9' && step == 0:
			step = int(c - '0')
			r.pos++
		case c == '0' && step == 0:
			r.fail(r.pos, "a block scalar's indentation indicator of 0 (it is 1 to 9)")
		}
	}
	textEnd := r.pos // the end of the header's indicators, then of the last text line
	// The rest of the header line: blanks, perhaps a comment (yaml.v3
	// reads one right after the indicators too).
	r.skipSpace()
	switch {
	case r.src[r.pos] == '#':
		cs := r.pos
		for r.src[r.pos] != '\n' && r.pos < r.end {
			r.pos++
		}
		r.com.lineTarget(n)
		r.com.lineComment(cs, r.pos)
	case r.atEOL():
	default:
		r.fail(r.pos, "text after a block scalar's header (| or > and its indicators): the text starts on the next line")
	}
	r.newline()

	// The indentation of the content.
	indent := 0
	if step > 0 {
		indent = step
		if parent >= 0 {
			indent = parent + step
		}
	} else {
		most, i := 0, r.pos
		for {
			j := i
			for r.src[j] == ' ' {
				j++
			}
			if r.src[j] == '\n' {
				most = max(most, j-i)
				i = j + 1
				continue
			}
			k := j - i
			if r.src[j] == '\t' {
				r.failAt(r.line+strings.Count(r.src[r.pos:j], "\n"), k, "a tab character in a block scalar's indentation (YAML indents with spaces)")
			}
			if j >= r.end {
				most, k = max(most, k), 0
			}
			indent = max(k, most, parent+1, 1)
			break
		}
	}

	// The lines: text, or empty (blanks up to the indentation only).
	first := r.line // the first line of the content
	last := -1      // the last text line
	b := r.sbuf[:0]
	single := -1 // the start of the only text line, while there is one
	breaks := 0  // empty lines since the last text line (or the start)
	texts := 0
	prevNormal := false
	unbroken := false // the last text line ends the stream without a line break
	wsTail := 0       // the lines of blanks only (or none) at the end, which the comment rules count as blank lines
	for r.pos < r.end {
		i := r.pos
		for r.src[i] == ' ' && i-r.pos < indent {
			i++
		}
		if i-r.pos < indent {
			// Fewer blanks than the indentation: an empty line, or
			// the end of the scalar.
			if r.src[i] == '\n' {
				breaks++
				wsTail++
				r.pos = i
				r.newline()
				continue
			}
			if r.src[i] == '\t' {
				j := i
				for r.src[j] == ' ' || r.src[j] == '\t' {
					j++
				}
				if r.src[j] == '\n' || r.src[j] == '#' || j >= r.end || j-r.pos <= parent {
					r.fail(i, "a tab character in a block scalar's indentation (YAML indents with spaces)")
				}
				r.fail(i, "a tab character in a block scalar's indentation (YAML indents with spaces)")
			}
			if i >= r.end {
				r.pos = i
			}
			break
		}
		if i >= r.end {
			r.pos = i
			break
		}
		if r.src[i] == '\n' {
			// Only the indentation: an empty line.
			breaks++
			wsTail++
			r.pos = i
			r.newline()
			continue
		}
		// A text line (perhaps of blanks only, beyond the indentation).
		e := strings.IndexByte(r.src[i:r.end], '\n')
		if e < 0 {
			// the stream's last line, without a line break: its
			// text is the scalar's last, and no break follows it
			e = r.end - i
			unbroken = true
		}
		e += i
		text := r.src[i:e]
		normal := text != "" && text[0] != ' ' && text[0] != '\t'
		if texts == 0 {
			b = r.keepBreaks(b, first, breaks)
			if breaks == 0 {
				single = i
			}
		} else {
			single = -1
			if folded && prevNormal && normal {
				b = r.foldBreaks(b, last, breaks)
			} else {
				b = r.keepBreaks(b, last, breaks+1)
			}
		}
		b = append(b, text...)
		if strings.Trim(text, " \t") == "" {
			wsTail++
		} else {
			wsTail = 0
		}
		texts++
		breaks = 0
		prevNormal = normal
		last = r.line
		textEnd = e
		r.pos = e
		r.newline()
	}
	// Chomping.
	var v string
	switch {
	case texts == 0:
		if chomp == '+' {
			v = string(r.keepBreaks(b, first, breaks))
		}
	case chomp == '-' || unbroken && chomp != '+':
		v = string(b)
	case chomp == '+':
		if !unbroken {
			breaks++
		}
		b = r.keepBreaks(b, last, breaks)
		v = string(b)
	default:
		if single >= 0 && r.src[single+len(b)] == '\n' && r.textBreak(last) == 0 {
			v = r.src[single : single+len(b)+1]
		} else {
			b = r.keepBreaks(b, last, 1)
			v = string(b)
		}
	}
	r.sbuf = b
	n.Value = v
	r.tokEnd, r.textEnd = -1, textEnd
	r.ranged(n, p, indicator, textEnd)
	r.com.blockScalarEnd(n, wsTail)
	r.skip()
	return n
}
