package fastyaml

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// survey reads the input once before the parse: it counts the lines (to
// size the slabs), notes whether it has line breaks other than "\n" (which
// the copy the reader reads has as line feeds: carriage returns, and the
// Unicode line breaks NEL, LS and PS, which yaml.v3 reads as line breaks, as
// YAML 1.1 does), and finds what no YAML stream has: bytes that are not
// UTF-8, and characters outside YAML's printable set (control characters,
// U+FFFE and U+FFFF).
func survey(data []byte) (lines int, norm bool, err *Error) {
	i := 0
	line, bol := 1, 0
	for {
		// Eight bytes at a time while all are printable ASCII, \t or \n.
		for ; i+8 <= len(data); i += 8 {
			w := binary.LittleEndian.Uint64(data[i:])
			nl := eqMask(w, '\n')
			if (ltMask(w, 0x20)&^(nl|eqMask(w, '\t')))|geMask7f(w) != 0 {
				break
			}
			if nl != 0 {
				k := bits.OnesCount64(nl)
				lines += k
				line += k
				bol = i + 8 - bits.LeadingZeros64(nl)/8
			}
		}
		if i >= len(data) {
			return lines, norm, nil
		}
		c := data[i]
		switch {
		case c == '\n':
			lines++
			line++
			i++
			bol = i
		case c == '\r':
			norm = true
			i++
			if i < len(data) && data[i] == '\n' {
				i++
			}
			lines++
			line++
			bol = i
		case c == '\t' || c >= 0x20 && c < 0x7f:
			i++
		case c < 0x80:
			return lines, norm, charError(data, line, bol, i, rune(c))
		default:
			r, n := utf8.DecodeRune(data[i:])
			switch {
			case r == utf8.RuneError && n <= 1:
				return lines, norm, &Error{Line: line, Column: column(data[bol:i]) + 1, Byte: data[i],
					Msg: fmt.Sprintf("not UTF-8 text: byte 0x%02x (save the file as UTF-8)", data[i])}
			case r == 0x85 || r == 0x2028 || r == 0x2029:
				norm = true
				lines++
				line++
				i += n
				bol = i
				continue
			case r < 0xa0 || r == 0xfffe || r == 0xffff:
				return lines, norm, charError(data, line, bol, i, r)
			}
			i += n
		}
	}
}

// charError is the error for a character YAML does not allow at offset i,
// on line (from 1) starting at bol.
func charError(data []byte, line, bol, i int, r rune) *Error {
	escape := fmt.Sprintf(`\x%02x`, r)
	if r > 0xff {
		escape = fmt.Sprintf(`\u%04x`, r)
	}
	return &Error{Line: line, Column: column(data[bol:i]) + 1, Char: r,
		Msg: fmt.Sprintf("character %U is not allowed in YAML text (in a double-quoted string, write it as the escape %s)", r, escape)}
}

// column returns the number of characters of b, a part of a line (a
// carriage return, NEL, LS or PS, which the reader reads as line breaks,
// count as none: b holds none but at its end).
func column(b []byte) int {
	return utf8.RuneCount(b)
}

// A sepLine is a line (from 0) that ended with NEL, LS or PS (sep).
type sepLine struct {
	line int32
	sep  rune
}

// normalize returns the text the reader reads: data with each "\r\n",
// each lone "\r" and each NEL, LS and PS made a "\n", followed by the
// padding; the lines (from 0) that ended with "\r\n" (yaml.v3 reads the
// "\n" after a comment ended so as a blank line of its own: the comment
// rules follow it); and the lines that ended with NEL, LS or PS (a value
// keeps LS and PS as themselves where it keeps a line break).
func normalize(data []byte, norm bool) (string, []int32, []sepLine) {
	var b strings.Builder
	b.Grow(len(data) + padding)
	var crlf []int32
	var seps []sepLine
	if !norm {
		b.Write(data)
	} else {
		// the text between the bytes that may start a line break to
		// change ("\r", and C2 or E2, the first byte of NEL, LS and PS)
		// is copied as it is, its "\n" counted (bytes.IndexByte and
		// bytes.Count: this runs over every CRLF file)
		next := func(c byte, at int) int {
			if j := bytes.IndexByte(data[at:], c); j >= 0 {
				return at + j
			}
			return len(data)
		}
		line := int32(0)
		from := 0 // data[from:] is not written yet, nor its "\n" counted
		cr, c2, e2 := next('\r', 0), next(0xc2, 0), next(0xe2, 0)
		for {
			i := min(cr, c2, e2)
			if i >= len(data) {
				break
			}
			n, sep := 1, rune(0) // the bytes of the line break at i
			switch {
			case i == cr:
				if i+1 < len(data) && data[i+1] == '\n' {
					n = 2
				}
			case i == c2 && i+1 < len(data) && data[i+1] == 0x85:
				n, sep = 2, 0x85
			case i == e2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xa8 || data[i+2] == 0xa9):
				n, sep = 3, 0x2028+rune(data[i+2]-0xa8)
			default: // a C2 or E2 of another character
				if i == c2 {
					c2 = next(0xc2, i+1)
				} else {
					e2 = next(0xe2, i+1)
				}
				continue
			}
			line += int32(bytes.Count(data[from:i], []byte{'\n'}))
			b.Write(data[from:i])
			b.WriteByte('\n')
			switch {
			case sep != 0:
				seps = append(seps, sepLine{line, sep})
			case n == 2:
				crlf = append(crlf, line)
			}
			line++
			from = i + n
			if cr < from {
				cr = next('\r', from)
			}
			if c2 < from {
				c2 = next(0xc2, from)
			}
			if e2 < from {
				e2 = next(0xe2, from)
			}
		}
		b.Write(data[from:])
	}
	b.WriteString("\x00\x00\x00\x00\x00\x00\x00\x00")
	return b.String(), crlf, seps
}

const (
	ones  = 0x0101010101010101
	lows  = 0x7f7f7f7f7f7f7f7f
	highs = 0x8080808080808080
)

// The masks below have the high bit of each byte of w for which they
// hold, exactly (no carry crosses bytes).

// eqMask: the bytes equal to b.
func eqMask(w uint64, b byte) uint64 {
	x := w ^ (ones * uint64(b))
	return ^(((x & lows) + lows) | x) & highs
}

// ltMask: the bytes below k (k at most 0x80).
func ltMask(w uint64, k byte) uint64 {
	return ^(((w & lows) + ones*uint64(0x80-k)) | w) & highs
}

// geMask7f: the bytes from 0x7f up.
func geMask7f(w uint64) uint64 {
	return (((w & lows) + ones) | w) & highs
}
