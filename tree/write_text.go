package tree

import (
	"strings"
	"unicode/utf8"
)

// Scalars in each style. The writer never breaks a line of text to keep
// it short (yaml.v3's encoder does not either): a line break in the
// output is one of the text, or of a block scalar's layout.
//
// What a text allows (classify), from YAML's rules for each style:
//
//   - plain: not empty, no space or line break at either end, no line
//     break, no character that must be escaped, no indicator where it
//     would be read as one: at the start one of # , [ ] { } & * ! | > ' "
//     % @ `, or ? : - followed by a space or the end; ": " anywhere, or
//     ":" at the end; " #"; a document marker (--- or ... at the start,
//     followed by a space or the end). In a flow collection also no
//     , ? [ ] { } anywhere, nor ":" at all;
//   - single quotes: no character that must be escaped, no line break
//     next to a space (a break before a space, a space before a break);
//   - a block: not empty, no space at the end, no line break after a
//     space, no character that must be escaped;
//   - double quotes: anything; what is not printable, line breaks, " and
//     \ are escaped.
//
// Printable are the line feed, ASCII from the space to ~, and Unicode
// characters of the basic plane from U+00A0 up but the byte order mark
// (U+FEFF) and U+FFFE, U+FFFF; the tab, other control characters, NEL
// (U+0085) and characters beyond the basic plane (emoji among them) are
// escaped, as yaml.v3 escapes them.

// scalarClass is what a scalar's text allows.
type scalarClass struct {
	multiline bool // it holds a line break
	flowPlain bool // plain, in a flow collection
	plain     bool // plain, outside
	single    bool // single quotes
	block     bool // a literal or folded block
}

// classify returns what text s allows.
func classify(s string) scalarClass {
	if s == "" {
		return scalarClass{plain: true, single: true}
	}
	if ordinaryText(s) {
		return scalarClass{flowPlain: true, plain: true, single: true, block: true}
	}
	return classifyAny(s)
}

// ordinary holds the bytes that can be anywhere in a text but its start
// without making it less than plain in a flow collection (ordinaryText);
// ordinaryFirst those that can also start it.
var ordinary, ordinaryFirst = func() (o, f [256]bool) {
	for c := 0x21; c <= 0x7E; c++ {
		switch c {
		case ',', '?', '[', ']', '{', '}', ':':
			continue
		}
		o[c] = true
		switch c {
		case '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', '-', '.':
			continue
		}
		f[c] = true
	}
	return o, f
}()

// ordinaryText reports whether s (not empty) is printable ASCII without
// a space, an indicator at its start, or a flow indicator or ":" after
// it, which every style allows but a line break needs: what
// classifyAny finds for such a text, found at a glance (most keys and
// values are such texts). A '#' in it follows no space: it starts no
// comment.
func ordinaryText(s string) bool {
	if !ordinaryFirst[s[0]] {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !ordinary[s[i]] {
			return false
		}
	}
	return true
}

// classifyAny is classify for any text s (not empty).
func classifyAny(s string) scalarClass {
	var (
		flowInd, blockInd          bool // an indicator that ends plain text in flow, in block
		leadSpace, leadBreak       bool
		trailSpace, trailBreak     bool
		breakSpace, spaceBreak     bool
		special, breaks, tabs      bool
		prevSpace, prevBreak       bool
		precededByWhite, followedW bool
		otherBreak                 bool // a line break other than a line feed
	)
	if len(s) >= 3 && (s[:3] == "---" || s[:3] == "...") {
		flowInd, blockInd = true, true
	}
	precededByWhite = true
	followedW = blankOrEnd(s, charWidth(s, 0))
	for i := 0; i < len(s); {
		c := s[i]
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				flowInd, blockInd = true, true
			case '?', ':':
				flowInd = true
				if followedW {
					blockInd = true
				}
			case '-':
				if followedW {
					flowInd, blockInd = true, true
				}
			}
		} else {
			switch c {
			case ',', '?', '[', ']', '{', '}':
				flowInd = true
			case ':':
				flowInd = true
				if followedW {
					blockInd = true
				}
			case '#':
				if precededByWhite {
					flowInd, blockInd = true, true
				}
			}
		}
		w := charWidth(s, i)
		if c == '\t' {
			tabs = true
		} else if !printable(s, i) {
			special = true
		}
		bw := breakWidth(s, i)
		if bw > 0 {
			breaks = true
			// a carriage return, NEL, U+2028 or U+2029 that starts a
			// line or ends the text: in a block scalar, a YAML 1.1
			// reader (yaml.v3, kubectl's) reads an empty line there and
			// YAML 1.2 a line of text, and the chomping of the block
			// reads another line break ("x\n\u2028" written "|+" read
			// "x\n\u2028\n"; attack52): such a text is not a block
			otherBreak = otherBreak || c != '\n' && (i == 0 || prevBreak || i+bw >= len(s))
		}
		last := i+w >= len(s)
		switch {
		case c == ' ':
			leadSpace = leadSpace || i == 0
			trailSpace = trailSpace || last
			breakSpace = breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case bw > 0:
			leadBreak = leadBreak || i == 0
			trailBreak = trailBreak || last
			spaceBreak = spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		precededByWhite = blankOrEnd(s, i)
		i += w
		if i < len(s) {
			followedW = blankOrEnd(s, i+charWidth(s, i))
		}
	}
	k := scalarClass{multiline: breaks, flowPlain: true, plain: true, single: true, block: true}
	if leadSpace || leadBreak || trailSpace || trailBreak {
		k.flowPlain, k.plain = false, false
	}
	if trailSpace {
		k.block = false
	}
	if breakSpace {
		k.flowPlain, k.plain, k.single = false, false, false
	}
	if spaceBreak || special {
		k.flowPlain, k.plain, k.single, k.block = false, false, false, false
	}
	if otherBreak {
		k.block = false
	}
	if tabs {
		k.flowPlain, k.plain, k.single = false, false, false
	}
	if breaks {
		k.flowPlain, k.plain = false, false
	}
	if flowInd {
		k.flowPlain = false
	}
	if blockInd {
		k.plain = false
	}
	return k
}

// charWidth is the length of the UTF-8 character at s[i] (1 for a byte
// that starts none).
func charWidth(s string, i int) int {
	switch c := s[i]; {
	case c < 0x80:
		return 1
	case c&0xE0 == 0xC0:
		return min(2, len(s)-i)
	case c&0xF0 == 0xE0:
		return min(3, len(s)-i)
	case c&0xF8 == 0xF0:
		return min(4, len(s)-i)
	}
	return 1
}

// breakWidth is the length of the line break at s[i], or 0: a line feed,
// a carriage return, NEL, U+2028 or U+2029.
func breakWidth(s string, i int) int {
	switch c := s[i]; {
	case c == '\n' || c == '\r':
		return 1
	case c == 0xC2 && i+1 < len(s) && s[i+1] == 0x85:
		return 2
	case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
		return 3
	}
	return 0
}

// blankOrEnd reports whether s[i] is a space, a tab, a line break, a NUL,
// or the end of s.
func blankOrEnd(s string, i int) bool {
	if i >= len(s) {
		return true
	}
	c := s[i]
	return c == ' ' || c == '\t' || c == 0 || breakWidth(s, i) > 0
}

// printable reports whether the character at s[i] is written as it is.
func printable(s string, i int) bool {
	c := s[i]
	switch {
	case c == '\n' || c >= 0x20 && c <= 0x7E:
		return true
	case c == 0xC2:
		return i+1 < len(s) && s[i+1] >= 0xA0
	case c > 0xC2 && c < 0xED:
		return true
	case c == 0xED:
		return i+1 < len(s) && s[i+1] < 0xA0
	case c == 0xEE:
		return true
	case c == 0xEF:
		return !(i+2 < len(s) && (s[i+1] == 0xBB && s[i+2] == 0xBF || s[i+1] == 0xBF && (s[i+2] == 0xBE || s[i+2] == 0xBF)))
	}
	return false
}

// plain writes text without quotes.
func (w *writer) plain(s string) {
	if s == "" {
		w.lead = false
		return
	}
	if !w.room {
		w.out = append(w.out, ' ')
	}
	w.out = append(w.out, s...)
	w.room, w.lead = false, false
}

// singleQuoted writes text in single quotes: a quote doubled, a line
// feed as an empty line (a line break alone would read as a space), the
// lines after a break at the scalar's column.
func (w *writer) singleQuoted(s string) {
	w.indicator("'", true, false, false)
	breaks := false
	for i := 0; i < len(s); {
		if n := breakWidth(s, i); n > 0 {
			if !breaks && s[i] == '\n' {
				w.newline()
			}
			w.lineBreak(s[i : i+n])
			i += n
			breaks = true
			continue
		}
		if breaks {
			w.scalarLine()
		}
		if s[i] == '\'' {
			w.out = append(w.out, '\'')
		}
		n := charWidth(s, i)
		w.out = append(w.out, s[i:i+n]...)
		i += n
		w.lead, breaks = false, false
	}
	w.indicator("'", false, false, false)
	w.room, w.lead = false, false
}

// doubleQuoted writes text in double quotes, escaping what is not
// printable, line breaks, " and \ (as \n, \t, \", \\, \xXX, \uXXXX...).
// A text that starts with a byte order mark is escaped whole, as yaml.v3
// escapes it.
func (w *writer) doubleQuoted(s string) {
	w.indicator(`"`, true, false, false)
	all := len(s) >= 3 && s[:3] == "\ufeff"
	for i := 0; i < len(s); {
		c := s[i]
		if !all && c != '"' && c != '\\' && printable(s, i) && c != '\n' && breakWidth(s, i) == 0 {
			n := charWidth(s, i)
			w.out = append(w.out, s[i:i+n]...)
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		w.out = append(w.out, '\\')
		switch r {
		case 0:
			w.out = append(w.out, '0')
		case 0x07:
			w.out = append(w.out, 'a')
		case 0x08:
			w.out = append(w.out, 'b')
		case 0x09:
			w.out = append(w.out, 't')
		case 0x0A:
			w.out = append(w.out, 'n')
		case 0x0B:
			w.out = append(w.out, 'v')
		case 0x0C:
			w.out = append(w.out, 'f')
		case 0x0D:
			w.out = append(w.out, 'r')
		case 0x1B:
			w.out = append(w.out, 'e')
		case '"':
			w.out = append(w.out, '"')
		case '\\':
			w.out = append(w.out, '\\')
		case 0x85:
			w.out = append(w.out, 'N')
		case 0xA0:
			w.out = append(w.out, '_')
		case 0x2028:
			w.out = append(w.out, 'L')
		case 0x2029:
			w.out = append(w.out, 'P')
		default:
			w.hexEscape(r)
		}
	}
	w.indicator(`"`, false, false, false)
	w.room, w.lead = false, false
}

// hexEscape writes the escape of r after its backslash: x and two hex
// digits up to U+00FF, u and four up to U+FFFF, U and eight beyond.
func (w *writer) hexEscape(r rune) {
	const hex = "0123456789ABCDEF"
	digits := 2
	switch {
	case r <= 0xFF:
		w.out = append(w.out, 'x')
	case r <= 0xFFFF:
		w.out = append(w.out, 'u')
		digits = 4
	default:
		w.out = append(w.out, 'U')
		digits = 8
	}
	for k := digits - 1; k >= 0; k-- {
		w.out = append(w.out, hex[(r>>(4*k))&15])
	}
}

// block writes a literal (|) or folded (>) block scalar: its header, with
// an indentation indicator when the text starts with a space or a line
// break (ind, the columns from the collection holding it to the block's
// lines) and a chomping indicator (- when the text does not end with a
// line break, + when it ends with more than one); a waiting line comment
// after the header; then the text's lines at the scalar's column. In a
// folded block a line break between two lines that do not start with a
// space or a tab reads as a space: such a break is written as an empty
// line. It reports whether the chomping is keep (+).
func (w *writer) block(indicator byte, s string, ind int) (keep bool) {
	w.indicator(string(indicator), true, false, false)
	if s != "" && (s[0] == ' ' || breakWidth(s, 0) > 0) {
		if onlyBreaks(s) {
			// no line of text: any indentation reads, and yaml.v3
			// writes its width
			ind = w.step
		}
		w.out = append(w.out, byte('0'+ind))
	}
	switch {
	case s == "" || breakWidth(s, lastChar(s)) == 0:
		w.out = append(w.out, '-')
	case lastChar(s) == 0 || breakWidth(s, lastChar(s[:lastChar(s)])) > 0:
		w.out = append(w.out, '+')
		keep = true
	}
	if w.line != "" {
		// the comment of the header's line: of a comment of several
		// lines, its first line, as the lines after the header are the
		// block's; the others go below the block, before its foot
		// comment (yaml.v3's reader gives an explicit key the comments of
		// "? k # a" and ": # b" as one line comment, which waits for the
		// next scalar's line when the value has its own: they were
		// joined on one line, "# a # b"; attack, 2026-11-29)
		if i := strings.IndexAny(w.line, "\r\n\u0085\u2028\u2029"); i >= 0 && i+breakWidth(w.line, i) < len(w.line) {
			rest := w.line[i+breakWidth(w.line, i):]
			w.line = strings.TrimRight(w.line[:i], " \t")
			if strings.TrimSpace(w.foot) != "" {
				rest = joinComments(rest, w.foot)
			}
			if strings.TrimSpace(rest) != "" {
				w.foot = rest
			}
			w.kept.comment = w.line // (the header's, if the block is written again: beforeBlank)
		}
		w.flushLine()
		if !w.lead {
			w.newline()
		}
	} else {
		w.newline()
	}
	w.room = true
	breaks := true
	leading := true // the line starts with a space or a tab
	folded := indicator == '>'
	for i := 0; i < len(s); {
		if n := breakWidth(s, i); n > 0 {
			if folded && !breaks && !leading && s[i] == '\n' && foldsAt(s, i) {
				w.newline()
			}
			w.lineBreak(s[i : i+n])
			i += n
			breaks = true
			continue
		}
		if breaks {
			w.scalarLine()
			leading = s[i] == ' ' || s[i] == '\t'
		}
		n := charWidth(s, i)
		w.out = append(w.out, s[i:i+n]...)
		i += n
		w.lead, breaks = false, false
	}
	return keep
}

// lastChar returns the index of the last UTF-8 character of s (not
// empty).
func lastChar(s string) int {
	i := len(s) - 1
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// foldsAt reports whether the line feed at s[i], which ends a line of a
// folded block that does not start with a space or a tab, must be
// written with an empty line after it: the next line that is not empty
// does not start with a space or a tab, or (at the end of the text) the
// text's first line that is not empty does not.
func foldsAt(s string, i int) bool {
	j := i
	for j < len(s) && breakWidth(s, j) > 0 {
		j += breakWidth(s, j)
	}
	if j == len(s) {
		k := 0
		for k < len(s) && breakWidth(s, k) > 0 {
			k += breakWidth(s, k)
		}
		return !blankOrEnd(s, k)
	}
	return s[j] != ' ' && s[j] != '\t'
}

// onlyBreaks reports whether s is line breaks only.
func onlyBreaks(s string) bool {
	for i := 0; i < len(s); {
		n := breakWidth(s, i)
		if n == 0 {
			return false
		}
		i += n
	}
	return true
}
