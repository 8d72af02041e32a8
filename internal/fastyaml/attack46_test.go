package fastyaml

import (
	"os"
	"strings"
	"testing"
)

// TestTabAfterCommentPeek: yaml.v3 reads a tab before a comment on a line
// after a comment line ("a: .\n#\n \t#") only where its scanner, reading
// that comment line, looks on to the next comment: it looks over blanks
// and line breaks, 512 bytes at most from the comment line's end, and
// stops at a NEL, LS or PS (one byte of it: the next does not start a
// comment). Past either, the tab is refused as at the start of any line.
// Parse read these (attack, 2026-11-30).
func TestTabAfterCommentPeek(t *testing.T) {
	spaces := func(n int) string { return strings.Repeat(" ", n) }
	for _, in := range []string{
		// a NEL, LS or PS between the comment line's end and the tab
		"a: .\n#\u0085 \t#",
		"a: .\n#\u0085 \t#\n",
		"a: .\n#\u2028 \t#",
		"a: .\n# c\u0085 \t# d\n",
		"a: .\n#\n\u0085 \t#\n",
		"a: .\n#\u0085\n \t#\n",
		"a: .\n#\n \u2028 \t#\n",
		"a: .\n#\n \u2029\n \t\n#\n",
		"a: .\n#\n\n\n \t#\u0085 \t#\n",
		"a:\n  b: .\n  #\u0085   \t#\n",
		"a: .\r\n#\u2028\r\n \t#\r\n",
		// none: read
		"a: .\n#\n \t#\n",
		"a: .\n#\r \t#",
		"a: .\n#\r\n\r\n \t#\n",
		"a: .\n#\u0085#\n \t#\n",
		// the '#' 512 bytes or more after the comment line's end
		"a: .\n#\n" + spaces(600) + "\t#\n",
		"a: .\n#\n" + strings.Repeat(" \n", 300) + " \t#\n",
		"a: .\n#\n" + strings.Repeat(" \n", 250) + " \t#\n",
		"a: .\n#" + spaces(600) + "\n \t#\n",
		"a: .\n#\n" + spaces(508) + "\t#\n",
		"a: .\n#\n" + spaces(509) + "\t#\n",
		"a: .\n#\n" + spaces(510) + "\t#\n",
		"a: .\n#\r\n" + spaces(509) + "\t#\n", // (a CRLF counts two)
		"a: .\n#\r\n" + spaces(508) + "\t#\n",
		"a: .\n#\n" + spaces(300) + "\r\n" + spaces(208) + "\t#\n",
		"a: .\n#\n" + spaces(300) + "\r\n" + spaces(207) + "\t#\n",
		"a: .\n#\u2029" + spaces(300) + "\r\n" + spaces(100) + "\t#\n",
		"a: .\n#\n" + spaces(300) + "\n" + spaces(206) + "\t\n#\n",
		"a: .\n#\n" + spaces(300) + "\n" + spaces(208) + "\t\n#\n",
		"a: .\n#\n" + spaces(300) + "\n" + spaces(205) + "\t\n" + spaces(2) + "#\n",
		"a: .\n#\n" + spaces(300) + "\n" + spaces(205) + "\t\n" + spaces(3) + "#\n",
	} {
		// (placed: comments around a NEL, LS or PS go elsewhere in
		// places, a known difference: TestGenerated)
		if os.Getenv("A46V") != "" {
			o, _ := outcome(in)
			t.Logf("%d %s", len(in), o)
		}
		switch o, d := outcome(in); o {
		case bothEqual, bothRefuse, placed:
		default:
			t.Errorf("%s: %s\n%q", o, d, in)
		}
	}
}
