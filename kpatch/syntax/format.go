package syntax

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kmerge/kmerge/internal/lines"
	"github.com/kmerge/kmerge/tree"
)

// Format returns a .kpatch file in its canonical form (`kmerge fmt`, and
// the language server's formatting), or the error that keeps it from
// parsing. What it means is unchanged: the result parses to the same
// patches. Comments and the blank lines between sections are kept; the
// rest is reprinted by the printers of paths and targets:
//
//   - no indentation, no trailing spaces, lines end in \n, the file with
//     one;
//   - a header is [target.path], the target as Selector.String writes it
//     (a kind or name that needs quotes gets double quotes), a selector of
//     one plain condition without brackets (containers.name=main, the
//     format's preferred form), any other selector in brackets;
//   - an assignment is "key: value" (one space after the colon; "key =
//     value" becomes that too), the key as Path.String writes it, the value
//     as written ("key:" for an empty value, "key:#x" for a value starting
//     with #, which after a space would be a comment);
//   - a comment after code is separated from it by one space: aligned
//     comments would make a diff of one line touch its neighbours;
//   - runs of blank lines become one blank line, and there are none at
//     the start or the end.
//
// Formatting a formatted file changes nothing. opts bound what is read,
// as they bound Parse (the file's size, its longest line, the depth of its
// paths); the zero value is the defaults.
func Format(src []byte, file string, opts Options) ([]byte, error) {
	limits := tree.DefaultLimits()
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	if limits.MaxBytes > 0 && len(src) > limits.MaxBytes {
		return nil, &tree.SyntaxError{Pos: tree.Position{File: file}, Msg: fmt.Sprintf("input is %d bytes, more than the limit of %d", len(src), limits.MaxBytes), Limit: "bytes"}
	}
	maxLine := opts.MaxLineBytes
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	if _, err := parseKpatch(src, tree.Position{File: file, Line: 1, Column: 1}, maxLine, limits.MaxDepth); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	blank := false
	for i, line := range lines.Split(string(src)) {
		pos := tree.Position{File: file, Line: i + 1, Column: 1}
		code := stripComment(line)
		comment := strings.TrimSpace(line[len(code):])
		trimmed := strings.TrimSpace(code)
		if trimmed == "" && comment == "" {
			blank = out.Len() > 0
			continue
		}
		if blank {
			out.WriteByte('\n')
			blank = false
		}
		text, err := formatLine(trimmed, pos)
		if err != nil {
			return nil, err // not reached: the file parsed
		}
		switch {
		case text == "":
			out.WriteString(comment)
		case comment == "":
			out.WriteString(text)
		default:
			out.WriteString(text + " " + comment)
		}
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}

// formatLine reprints the code of one line: a header, !delete, or an
// assignment ("" for none).
func formatLine(code string, pos tree.Position) (string, error) {
	switch {
	case code == "":
		return "", nil
	case code[0] == '[':
		p, err := parseHeader(code, pos)
		if err != nil {
			return "", err
		}
		return "[" + targetText(p) + "]", nil
	case code == "!delete":
		return code, nil
	}
	a, err := parseAssignment(code, pos)
	if err != nil {
		return "", err
	}
	switch raw := a.Value.Raw; {
	case raw == "":
		return a.Key.String() + ":", nil
	case raw[0] == '#':
		return a.Key.String() + ":" + raw, nil // after a space, # would start a comment
	default:
		return a.Key.String() + ": " + raw, nil
	}
}

// targetText writes what a header holds: the target, and the path below
// it with selectors in the bare form where they read back the same.
func targetText(p *Patch) string {
	s := p.Target.String()
	if len(p.Path) > 0 {
		s += "." + p.Path.text(true)
	}
	return s
}
