package lsp

import (
	"strings"

	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/tree"
)

// tokenRange is the range a kmerge position points at: kmerge's errors
// name where something starts (a header, a path step, a selector, a
// value); the range runs to where that thing ends, by the syntax of the
// line. value, when known, is the value of an assignment that starts at p
// (a value may hold dots and spaces).
func tokenRange(d *document, p tree.Position, value *syntax.Value) Range {
	line, b := d.at(p)
	text := d.line(line)
	var end int
	if d.kpatch {
		end = kpatchTokenEnd(text, b, value)
	} else {
		end = yamlTokenEnd(text, b)
	}
	if end <= b {
		// nothing to underline there (an empty value, the end of the
		// line): the rest of the line, or one character
		end = len(strings.TrimRight(text, " \t"))
		if end <= b {
			end = min(b+1, len(text))
		}
	}
	return Range{Start: d.pos(line, b), End: d.pos(line, end)}
}

// valueAt returns the value of an assignment that starts at p, if any.
func valueAt(patches []*syntax.Patch, p tree.Position) *syntax.Value {
	for _, pt := range patches {
		for i := range pt.Sets {
			v := &pt.Sets[i].Value
			if v.Pos.Line == p.Line && v.Pos.Column == p.Column {
				return v
			}
		}
	}
	return nil
}

// kpatchTokenEnd finds the end of what starts at byte b of a line of a
// .kpatch file: a value, a header or bracketed selector (to its ]), a
// quoted string, a bare selector key=value in a header, or a word.
func kpatchTokenEnd(text string, b int, value *syntax.Value) int {
	if b >= len(text) {
		return b
	}
	if value != nil {
		return min(b+len(value.Raw), len(text))
	}
	header := syntax.IsHeader(text)
	if strings.HasPrefix(text[b:], "${") {
		if i := strings.IndexByte(text[b:], '}'); i >= 0 {
			return b + i + 1
		}
	}
	switch text[b] {
	case '[':
		if strings.TrimSpace(text[:b]) == "" {
			// the header itself: to its last ]
			// (a # in a quoted name starts no comment)
			return len(strings.TrimRight(syntax.StripComment(text), " \t"))
		}
		return closing(text, b+1)
	case '"', '\'':
		return quotedEnd(text, b)
	}
	end := b
	for end < len(text) && !strings.ContainsRune(".[]:=# \t", rune(text[end])) {
		end++
	}
	if header && end < len(text) && text[end] == '=' {
		// a bare selector: name=value
		for end++; end < len(text) && !strings.ContainsRune(".[]", rune(text[end])); end++ {
		}
	}
	return end
}

// closing finds the end of a bracket opened before i (after its ]),
// skipping quoted strings.
func closing(text string, i int) int {
	for ; i < len(text); i++ {
		switch text[i] {
		case '"', '\'':
			i = quotedEnd(text, i) - 1
		case ']':
			return i + 1
		}
	}
	return len(text)
}

// quotedEnd finds the end of the quoted string starting at i (after its
// closing quote), or the end of the text.
func quotedEnd(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case text[j] == q:
			if q == '\'' && j+1 < len(text) && text[j+1] == '\'' {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(text)
}

// yamlTokenEnd finds the end of what starts at byte b of a line of YAML:
// a quoted scalar, a key (to its colon), or the rest of the line before a
// comment.
func yamlTokenEnd(text string, b int) int {
	if b >= len(text) {
		return b
	}
	if text[b] == '"' || text[b] == '\'' {
		return quotedEnd(text, b)
	}
	if strings.HasPrefix(text[b:], "- ") {
		return b + 1
	}
	end := len(text)
	if i := strings.Index(text[b:], " #"); i >= 0 {
		end = b + i
	}
	if strings.HasPrefix(text[b:], "target:") {
		// a patch of a list: what it says about itself is about its target
		return len(strings.TrimRight(text[:end], " \t"))
	}
	if i := strings.Index(text[b:end], ": "); i >= 0 {
		end = b + i
	} else if strings.HasSuffix(strings.TrimRight(text[b:end], " \t"), ":") {
		end = b + len(strings.TrimRight(text[b:end], " \t")) - 1
	}
	return len(strings.TrimRight(text[:end], " \t"))
}
