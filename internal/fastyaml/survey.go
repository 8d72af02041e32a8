package fastyaml

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// survey reads the input once before the parse: it counts the lines (to
// size the slabs) and finds what the reader leaves to yaml.v3 wherever it
// is: bytes that are not UTF-8, characters YAML does not allow in a stream
// (control characters, surrogates, U+FFFE and U+FFFF), a byte order mark,
// and line breaks other than \n (\r, NEL, LS, PS).
func survey(data []byte) (lines, line int, reason string) {
	i := 0
	for {
		// Eight bytes at a time while all are printable ASCII, \t or \n.
		for ; i+8 <= len(data); i += 8 {
			w := binary.LittleEndian.Uint64(data[i:])
			nl := eqMask(w, '\n')
			lines += bits.OnesCount64(nl)
			if (ltMask(w, 0x20)&^(nl|eqMask(w, '\t')))|geMask7f(w) != 0 {
				break
			}
		}
		if i >= len(data) {
			return lines, 0, ""
		}
		c := data[i]
		switch {
		case c == '\n':
			lines++
			i++
		case c == '\t' || c >= 0x20 && c < 0x7f:
			i++
		case c < 0x80:
			if c == '\r' {
				return lines, lines + 1, "a carriage return"
			}
			return lines, lines + 1, "a control character"
		default:
			r, n := utf8.DecodeRune(data[i:])
			switch {
			case r == utf8.RuneError && n <= 1:
				return lines, lines + 1, "bytes that are not UTF-8"
			case r == 0x85 || r == 0x2028 || r == 0x2029:
				return lines, lines + 1, "a Unicode line break"
			case r == 0xfeff:
				return lines, lines + 1, "a byte order mark"
			case r < 0xa0 || r >= 0xd800 && r <= 0xdfff || r == 0xfffe || r == 0xffff:
				return lines, lines + 1, "a control character"
			}
			i += n
		}
	}
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
