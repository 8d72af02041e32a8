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
	line, ok := lineAt(data, pos.Line, !strings.HasSuffix(pos.File, ".kpatch"))
	if !ok {
		return ""
	}
	line = strings.Map(visible, strings.ToValidUTF8(line, "\uFFFD"))
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

// lineAt returns line n (from 1) of data, its line break not included.
// Lines end as the reader of the file ends them: a .kpatch file's at "\n",
// "\r\n" and a lone "\r" (kpatch/syntax's lines: the line after the
// error's was quoted when an earlier line held a lone "\r", none in a file
// of them; attack, 2026-11-29); YAML's (yaml) also at NEL, LS and PS,
// which kmerge's YAML reader counts as line breaks, as yaml.v3 does: the
// line quoted is the line the error's position counts.
func lineAt(data []byte, n int, yaml bool) (string, bool) {
	text := string(data)
	for line := 1; ; line++ {
		end, next := len(text), len(text)
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c == '\n' {
				end, next = i, i+1
				break
			}
			if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				end, next = i, i+2
				break
			}
			if c == '\r' {
				end, next = i, i+1
				break
			}
			if !yaml {
				continue
			}
			if w := separator(text[i:]); w > 0 {
				end, next = i, i+w
				break
			}
		}
		if line == n {
			return text[:end], n >= 1
		}
		if next == len(text) && end == len(text) {
			return "", false
		}
		text = text[next:]
	}
}

// separator returns the length of the NEL, LS or PS that s starts with, 0
// when it starts with none.
func separator(s string) int {
	switch {
	case strings.HasPrefix(s, "\u0085"):
		return 2
	case strings.HasPrefix(s, "\u2028"), strings.HasPrefix(s, "\u2029"):
		return 3
	}
	return 0
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
	case r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029:
		// (NEL is a C1 control; LS and PS, in a .kpatch line, would
		// break it on the terminal)
		return '\uFFFD'
	}
	return r
}
