// Package errpos quotes the line an error of kmerge's packages points at
// (tree.ErrorPosition finds where), as kmerge's command line and its
// playground show errors.
package errpos

import (
	"strings"
	"unicode/utf8"

	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/tree"
)

// Quote returns the line of data that pos points at, and a caret under its
// column, each indented by two spaces; "" when there is no such line or it
// is too long to show.
func Quote(data []byte, pos tree.Position) string { return quote(data, pos, false) }

// QuoteMasked quotes the line pos points at as Quote does, with the value
// on it masked (secret.Line): for a message that masks a secret value
// (secret.InError, validate.Violation.Secret, change.Change.Mask), whose
// line holds the value too.
func QuoteMasked(data []byte, pos tree.Position) string { return quote(data, pos, true) }

func quote(data []byte, pos tree.Position, masked bool) string {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if pos.Line < 1 || pos.Line > len(lines) {
		return ""
	}
	line := strings.Map(visible, strings.ToValidUTF8(lines[pos.Line-1], "\uFFFD"))
	if len(line) > 200 {
		return ""
	}
	col := pos.Column
	if masked {
		line = secret.Line(line, pos.Column)
		// a column past the masked line (the value it pointed into is
		// masked from an earlier key on) points at the mask
		if n := utf8.RuneCountInString(line); col > n {
			col = n - utf8.RuneCountInString(secret.Mask) + 1
		}
	}
	var caret strings.Builder
	if col > 0 {
		for i, r := range []rune(line) {
			if i >= col-1 {
				break
			}
			if r == '\t' {
				caret.WriteByte('\t')
			} else {
				caret.WriteByte(' ')
			}
		}
		caret.WriteByte('^')
	}
	s := "  " + line + "\n"
	if caret.Len() > 0 {
		s += "  " + caret.String() + "\n"
	}
	return s
}

// visible shows a control character of a quoted line as one character
// that prints (the caret stays under the column): C0 controls and DEL as
// their Unicode control pictures (␀, ␁, ␡), C1 controls as U+FFFD; a
// raw one would reach the terminal (and the page) as it is.
func visible(r rune) rune {
	switch {
	case r < 0x20 && r != '\t':
		return 0x2400 + r
	case r == 0x7f:
		return 0x2421
	case r >= 0x80 && r < 0xa0:
		return '\uFFFD'
	}
	return r
}
