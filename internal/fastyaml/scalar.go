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
				if strings.IndexByte(r.src[i:j], '\t') >= 0 {
					r.refuse("a tab before a comment")
				}
				return end, i, true
			}
			if r.src[j] == '\n' || j >= r.end {
				return end, j, false
			}
			i = j
			continue
		case ':':
			if r.isBlankAt(i + 1) {
				r.refuse("a colon and a blank in a plain scalar")
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

// plain reads a plain scalar in block context, inside a block at column
// parent, with the lines it continues on, and the end of its last line.
func (r *reader) plain(parent int) *yaml.Node {
	n := r.node(yaml.ScalarNode, "", r.line, r.col(r.pos))
	start := r.pos
	end, stop, comment := r.plainEnd(start)
	value := r.src[start:end]
	var b []byte // the value, when over lines
	for !comment && stop < r.end {
		// stop is at a line break: does the scalar go on after it?
		j, breaks := stop+1, 0
		var s int
		for {
			s = j
			for r.src[j] == ' ' {
				j++
			}
			if r.src[j] != '\n' {
				break
			}
			j++
			breaks++
		}
		c := r.src[j]
		if j >= r.end || j-s <= parent || c == '#' {
			break
		}
		if j == s && (c == '-' || c == '.') && r.src[j+1] == c && r.src[j+2] == c && r.isBlankAt(j+3) {
			break
		}
		switch c {
		case '\t':
			r.refuse("a tab in indentation")
		case '-', '?', ':', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
			r.refuse("a plain scalar going on with an indicator")
		}
		if b == nil {
			b = append(r.sbuf[:0], value...)
		}
		if breaks == 0 {
			b = append(b, ' ')
		}
		for range breaks {
			b = append(b, '\n')
		}
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
	if comment && r.src[start] == ':' {
		// (yaml.v3 drops the comment of a document's root scalar
		// starting so, in a stream's later documents)
		r.refuse("a comment after a plain scalar starting with a colon")
	}
	n.Value = value
	n.Tag = resolve.Tag(value)
	r.pos = end
	r.com.scalarEnd(n)
	r.endLine()
	return n
}

// fold handles a line break inside a quoted scalar at pos: it drops the
// blanks before it (b[:keep] is what stays), reads the empty lines after
// it and the indentation of the line it goes on with, and appends a space
// or the empty lines' breaks.
func (r *reader) fold(b []byte, keep, parent int) []byte {
	b = b[:keep]
	breaks := 0
	for {
		r.newline()
		for r.src[r.pos] == ' ' {
			r.pos++
		}
		switch r.src[r.pos] {
		case '\n':
			breaks++
			continue
		case '\t':
			r.refuse("a tab in indentation")
		case 0:
			if r.pos >= r.end {
				r.refuse("a quoted scalar without its end")
			}
		}
		break
	}
	if r.pos-r.bol <= parent {
		r.refuse("a quoted scalar's line indented as its parent")
	}
	if r.pos == r.bol && (r.isMarker('-') || r.isMarker('.')) {
		r.refuse("a document marker in a quoted scalar")
	}
	if breaks == 0 {
		return append(b, ' ')
	}
	for range breaks {
		b = append(b, '\n')
	}
	return b
}

// singleQuoted reads a single-quoted scalar.
func (r *reader) singleQuoted(parent int) *yaml.Node {
	n := r.node(yaml.ScalarNode, strTag, r.line, r.col(r.pos))
	n.Style = yaml.SingleQuotedStyle
	r.pos++
	start := r.pos
	i := strings.IndexAny(r.src[start:r.end], "'\n")
	if i >= 0 && r.src[start+i] == '\'' && r.src[start+i+1] != '\'' {
		n.Value = r.src[start : start+i]
		r.pos = start + i + 1
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
			return n
		case '\n':
			b = r.fold(b, keep, parent)
			keep = len(b)
			continue
		case ' ', '\t':
			b = append(b, c)
		case 0:
			if r.pos >= r.end {
				r.refuse("a quoted scalar without its end")
			}
			fallthrough
		default:
			b = append(b, c)
			keep = len(b)
		}
		r.pos++
	}
}

// doubleQuoted reads a double-quoted scalar.
func (r *reader) doubleQuoted(parent int) *yaml.Node {
	n := r.node(yaml.ScalarNode, strTag, r.line, r.col(r.pos))
	n.Style = yaml.DoubleQuotedStyle
	r.pos++
	start := r.pos
	i := strings.IndexAny(r.src[start:r.end], "\"\\\n")
	if i >= 0 && r.src[start+i] == '"' {
		n.Value = r.src[start : start+i]
		r.pos = start + i + 1
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
			return n
		case '\n':
			b = r.fold(b, keep, parent)
			keep = len(b)
			continue
		case ' ', '\t':
			b = append(b, c)
			r.pos++
			continue
		case '\\':
			r.pos++
			e := r.src[r.pos]
			switch e {
			case '0':
				b = append(b, 0)
			case 'a':
				b = append(b, '\a')
			case 'b':
				b = append(b, '\b')
			case 't', '\t':
				b = append(b, '\t')
			case 'n':
				b = append(b, '\n')
			case 'v':
				b = append(b, '\v')
			case 'f':
				b = append(b, '\f')
			case 'r':
				b = append(b, '\r')
			case 'e':
				b = append(b, 0x1b)
			case ' ', '"', '\\':
				b = append(b, e)
			case 'N':
				b = utf8.AppendRune(b, 0x85)
			case '_':
				b = utf8.AppendRune(b, 0xa0)
			case 'L':
				b = utf8.AppendRune(b, 0x2028)
			case 'P':
				b = utf8.AppendRune(b, 0x2029)
			case 'x', 'u', 'U':
				w := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				var v rune
				for k := 1; k <= w; k++ {
					h := r.src[r.pos+k]
					switch {
					case h >= '0' && h <= '9':
						v = v<<4 | rune(h-'0')
					case h >= 'a' && h <= 'f':
						v = v<<4 | rune(h-'a'+10)
					case h >= 'A' && h <= 'F':
						v = v<<4 | rune(h-'A'+10)
					default:
						r.refuse("a bad escape")
					}
				}
				if v >= 0xd800 && v <= 0xdfff || v > 0x10ffff {
					r.refuse("an escape that is no character")
				}
				b = utf8.AppendRune(b, v)
				r.pos += w
			case '\n':
				// An escaped line break: the text goes on after the
				// next line's indentation.
				r.newline()
				for r.src[r.pos] == ' ' {
					r.pos++
				}
				switch r.src[r.pos] {
				case '\n', '\t':
					r.refuse("an escaped line break before an empty line")
				case 0:
					if r.pos >= r.end {
						r.refuse("a quoted scalar without its end")
					}
				}
				if r.pos-r.bol <= parent {
					r.refuse("a quoted scalar's line indented as its parent")
				}
				if r.pos == r.bol && (r.isMarker('-') || r.isMarker('.')) {
					r.refuse("a document marker in a quoted scalar")
				}
				keep = len(b)
				continue
			default:
				r.refuse("a bad escape")
			}
			r.pos++
			keep = len(b)
			continue
		case 0:
			if r.pos >= r.end {
				r.refuse("a quoted scalar without its end")
			}
		}
		b = append(b, r.src[r.pos])
		keep = len(b)
		r.pos++
	}
}

// blockScalar reads a literal or folded scalar, inside a block at column
// parent, from its header to its last line, and skips to the next content.
func (r *reader) blockScalar(parent int) *yaml.Node {
	if r.com.nextFoot != "" {
		r.refuse("a foot comment for an item that starts with a block scalar")
	}
	n := r.node(yaml.ScalarNode, strTag, r.line, r.col(r.pos))
	folded := r.src[r.pos] == '>'
	n.Style = yaml.LiteralStyle
	if folded {
		n.Style = yaml.FoldedStyle
	}
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
		}
	}
	// The rest of the header line: blanks, perhaps a comment.
	s := r.pos
	r.skipSpace()
	switch {
	case r.src[r.pos] == '#' && r.pos > s:
		cs := r.pos
		for r.src[r.pos] != '\n' && r.pos < r.end {
			r.pos++
		}
		r.com.lineTarget(n)
		r.com.lineComment(cs, r.pos)
	case r.atEOL():
	default:
		r.refuse("a bad block scalar header")
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
			if r.src[j] == '\t' {
				r.refuse("a tab in a block scalar's indentation")
			}
			k := j - i
			if j >= r.end {
				k = 0
			}
			if j < r.end && k < most && k > parent {
				r.refuse("a block scalar's empty line indented more than its text")
			}
			indent = max(k, most, parent+1, 1)
			break
		}
	}

	// The lines: text, or empty (blanks up to the indentation only).
	b := r.sbuf[:0]
	single := -1 // the start of the only text line, while there is one
	breaks := 0  // empty lines since the last text line (or the start)
	texts := 0
	prevNormal := false
	blanks := false // the last text line is of blanks only
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
				r.pos = i
				r.newline()
				continue
			}
			if r.src[i] == '\t' {
				r.refuse("a tab in a block scalar's indentation")
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
			r.pos = i
			r.newline()
			continue
		}
		if r.src[i] == '\t' {
			r.refuse("a tab after a block scalar's indentation")
		}
		// A text line (perhaps of blanks only, beyond the indentation).
		e := strings.IndexByte(r.src[i:r.end], '\n')
		if e < 0 {
			// (yaml.v3 reads a last line of blanks without a line
			// break as no line.)
			r.refuse("a block scalar's last line without a line break")
		}
		e += i
		line := r.src[i:e]
		normal := line != "" && line[0] != ' ' && line[0] != '\t'
		if texts == 0 {
			for range breaks {
				b = append(b, '\n')
			}
			if breaks == 0 {
				single = i
			}
		} else {
			single = -1
			switch {
			case !folded:
				for range breaks + 1 {
					b = append(b, '\n')
				}
			case prevNormal && normal && breaks == 0:
				b = append(b, ' ')
			case prevNormal && normal:
				for range breaks {
					b = append(b, '\n')
				}
			default:
				for range breaks + 1 {
					b = append(b, '\n')
				}
			}
		}
		b = append(b, line...)
		texts++
		breaks = 0
		prevNormal = normal
		blanks = !normal && strings.Trim(line, " \t") == ""
		r.pos = e
		r.newline()
	}
	if blanks {
		// (yaml.v3 puts the comments after such a line otherwise)
		r.refuse("a block scalar ending with a line of blanks")
	}
	// Chomping.
	var v string
	switch {
	case texts == 0:
		if chomp == '+' {
			v = strings.Repeat("\n", breaks)
		}
	case chomp == '-':
		v = string(b)
	case chomp == '+':
		for range breaks + 1 {
			b = append(b, '\n')
		}
		v = string(b)
	default:
		if single >= 0 && r.src[single+len(b)] == '\n' {
			v = r.src[single : single+len(b)+1]
		} else {
			v = string(append(b, '\n'))
		}
	}
	r.sbuf = b
	n.Value = v
	r.com.blockScalarEnd(n, breaks)
	r.skip()
	return n
}
