package syntax

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// Path is a dotted path below an object: fields, map keys and list
// selectors, e.g. spec.template.spec.containers[name=main].image.
type Path []Step

// Step is one step of a path: a field (or map key) or a list selector.
type Step struct {
	Pos    tree.Position
	Field  string // when Sel is nil
	Quoted bool   // the field was written in quotes: never an index, never a shortcut
	Sel    *ItemSelector
}

// SelOp is what a list selector does.
type SelOp uint8

// The list selectors.
const (
	SelIndex        SelOp = iota // [2] or .2: the item at an index
	SelMatch                     // [name=main] or .name=main: the items whose fields match
	SelAppend                    // [-]: a new item at the end
	SelInsertBefore              // [-2], [-name=x]: a new item before an index or the first match
	SelInsertAfter               // [+2], [+name=x]: a new item after an index or the first match
)

// ItemSelector selects items of a list, or a place to insert one: the
// bracketed step of a path ([name=web], [0], [-]). (What picks objects is
// a Target, as written, and a resource.Selector.)
type ItemSelector struct {
	Op    SelOp
	Index int    // SelIndex, and inserts relative to an index
	Conds []Cond // SelMatch, and inserts relative to a match
}

// Cond is one condition of a match selector: the field at Key (a path of
// field names within the item) equals Value. An empty Key compares the
// item itself: [=value] picks the scalar items equal to value.
type Cond struct {
	Key    []string
	Value  string
	Quoted bool
}

// Inserts reports whether the selector creates an item.
func (s *ItemSelector) Inserts() bool { return s.Op >= SelAppend }

// String formats the selector as a path writes it, bracketed.
func (s *ItemSelector) String() string {
	conds := func() string {
		parts := make([]string, len(s.Conds))
		for i, c := range s.Conds {
			v := c.Value
			if c.Quoted || !plainValue(v) {
				v = strconv.Quote(v)
			}
			// a key's fields were not written bare or quoted (a key is
			// names): they are written by the one rule of paths, which
			// quotes a leading + or - (an insertion), blanks (no key) and
			// every delimiter
			keys := make([]string, len(c.Key))
			for j, k := range c.Key {
				keys[j] = fieldpath.Quote(k)
			}
			parts[i] = strings.Join(keys, ".") + "=" + v
		}
		return strings.Join(parts, ",")
	}
	switch s.Op {
	case SelIndex:
		return "[" + strconv.Itoa(s.Index) + "]"
	case SelAppend:
		return "[-]"
	case SelInsertBefore, SelInsertAfter:
		sign := "-"
		if s.Op == SelInsertAfter {
			sign = "+"
		}
		if s.Conds == nil {
			return "[" + sign + strconv.Itoa(s.Index) + "]"
		}
		return "[" + sign + conds() + "]"
	}
	return "[" + conds() + "]"
}

// String formats the path as it would be written.
func (p Path) String() string { return p.text(false) }

// text formats the path; with bare (for a header), a selector of one
// plain condition that no selector follows is written without brackets,
// the format's preferred form: containers.name=main.
func (p Path) text(bare bool) string {
	var b strings.Builder
	for i, st := range p {
		if st.Sel != nil {
			if cond, ok := st.Sel.bare(); ok && bare && (i+1 == len(p) || p[i+1].Sel == nil) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(cond)
				continue
			}
			b.WriteString(st.Sel.String())
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(fieldWord(st.Field, st.Quoted, !bare))
	}
	return b.String()
}

// plainValue reports whether a condition value written without quotes
// reads back as itself, unquoted: then it is written so, since a quoted
// value matches strings only ([x=1.5] matches the number, [x="1.5"] does
// not).
func plainValue(v string) bool {
	if strings.ContainsAny(v, ",]") || strings.Contains(v, " #") || strings.Contains(v, "\t#") {
		return false
	}
	l := &pathLexer{src: "[x=" + v + "]"}
	st, err := l.bracket()
	return err == nil && l.pos == len(l.src) && st.Sel.Op == SelMatch && len(st.Sel.Conds) == 1 &&
		st.Sel.Conds[0].Value == v && !st.Sel.Conds[0].Quoted
}

// bare returns the selector as a header may write it without brackets,
// key=value, when it reads back the same that way: one condition on one
// field.
func (s *ItemSelector) bare() (string, bool) {
	if s.Op != SelMatch || len(s.Conds) != 1 || len(s.Conds[0].Key) != 1 || s.Conds[0].Quoted {
		return "", false
	}
	text := s.Conds[0].Key[0] + "=" + s.Conds[0].Value
	if text[0] == '"' || text[0] == '\'' || strings.Contains(text, " #") || strings.Contains(text, "\t#") {
		return "", false
	}
	l := &pathLexer{src: text, bareSelectors: true}
	steps, err := l.segment()
	if err != nil || l.pos != len(text) || len(steps) != 1 || steps[0].Sel == nil {
		return "", false
	}
	back := steps[0].Sel
	if back.Op != SelMatch || len(back.Conds) != 1 || len(back.Conds[0].Key) != 1 ||
		back.Conds[0].Key[0] != s.Conds[0].Key[0] || back.Conds[0].Value != s.Conds[0].Value {
		return "", false
	}
	return text, true
}

// fieldWord writes a field as it was written, quoted or bare: a quoted
// field is never an index nor a shortcut, a bare one may be either, so the
// author's choice is part of its meaning. A bare field is quoted only when
// it would not read back as itself (a step built by a program): in the key
// of an assignment (key), where : and = end the key, or in a header. The
// quoted form is the one of every path (fieldpath.Quote's).
func fieldWord(f string, quoted, key bool) string {
	if !quoted && readsBare(f, key) {
		return f
	}
	return strconv.Quote(f)
}

// readsBare reports whether the path lexer reads f, written bare, back as
// the bare field f: in the key of an assignment (key), or in a header.
func readsBare(f string, key bool) bool {
	if f == "" || key && strings.ContainsAny(f, ":=") {
		return false
	}
	l := &pathLexer{src: f, bareSelectors: !key}
	steps, err := l.segment()
	return err == nil && l.pos == len(f) && len(steps) == 1 && steps[0].Sel == nil && !steps[0].Quoted && steps[0].Field == f
}

// pathLexer reads a path. It knows where the text sits in its file, so
// that every step carries its position.
type pathLexer struct {
	src  string
	pos  int
	base tree.Position // position of src[0]
	// bareSelectors allows name=value segments (headers; in assignment keys
	// selectors need brackets, because = also separates key and value)
	bareSelectors bool
}

func (l *pathLexer) at(i int) tree.Position {
	p := l.base
	p.Column += i
	return p
}

func (l *pathLexer) errorf(i int, format string, args ...any) error {
	return &Error{Pos: l.at(i), Msg: fmt.Sprintf(format, args...)}
}

// parsePath reads a whole path.
func (l *pathLexer) parsePath() (Path, error) {
	var p Path
	if strings.TrimSpace(l.src) == "" {
		return nil, l.errorf(0, "empty path")
	}
	for {
		steps, err := l.segment()
		if err != nil {
			return nil, err
		}
		p = append(p, steps...)
		if l.pos >= len(l.src) {
			return p, nil
		}
		if l.src[l.pos] != '.' {
			return nil, l.errorf(l.pos, "unexpected %q in a path; quote a key that contains it", l.src[l.pos])
		}
		l.pos++
		if l.pos >= len(l.src) {
			return nil, l.errorf(l.pos, "a path cannot end with a dot")
		}
	}
}

// segment reads one dot-separated segment: a field (bare or quoted) with
// any bracketed selectors after it, a bare selector, or a bracketed
// selector alone.
func (l *pathLexer) segment() ([]Step, error) {
	start := l.pos
	var steps []Step
	switch c := l.src[l.pos]; {
	case c == '"' || c == '\'':
		s, err := l.quoted()
		if err != nil {
			return nil, err
		}
		steps = append(steps, Step{Pos: l.at(start), Field: s, Quoted: true})
	case c == '[':
	default:
		end := l.pos
		for end < len(l.src) && !strings.ContainsRune(".[]\"'", rune(l.src[end])) {
			end++
		}
		word := l.src[l.pos:end]
		if word == "" {
			return nil, l.errorf(l.pos, "empty path segment")
		}
		if k, v, ok := strings.Cut(word, "="); ok {
			if !l.bareSelectors {
				return nil, l.errorf(start, "a selector in a key needs brackets: [%s]", word)
			}
			if k == "" {
				return nil, l.errorf(start, "selector %q has no key", word)
			}
			if strings.ContainsAny(k, " \t") {
				return nil, l.errorf(start, "selector %q: a key cannot hold spaces", word)
			}
			v = strings.TrimSpace(v)
			if strings.ContainsAny(v, "=,") {
				// a comma would read as a second condition in brackets,
				// where a bare selector is printed when another follows it
				return nil, l.errorf(start, "selector %q: a value with = or , needs brackets and quotes: [%s=%s]", word, k, strconv.Quote(v))
			}
			l.pos = end
			steps = append(steps, Step{Pos: l.at(start), Sel: &ItemSelector{Op: SelMatch, Conds: []Cond{{Key: []string{k}, Value: v}}}})
			return steps, nil
		}
		if strings.ContainsAny(word, " \t") {
			return nil, l.errorf(start, "a path segment cannot hold spaces: quote %q", word)
		}
		l.pos = end
		steps = append(steps, Step{Pos: l.at(start), Field: word})
	}
	for l.pos < len(l.src) && l.src[l.pos] == '[' {
		sel, err := l.bracket()
		if err != nil {
			return nil, err
		}
		steps = append(steps, sel)
	}
	return steps, nil
}

// quoted reads a quoted string: double quotes with Go/JSON escapes, or
// single quotes, in which a doubled single quote stands for one.
func (l *pathLexer) quoted() (string, error) {
	s, n, err := unquote(l.src[l.pos:])
	if err != nil {
		return "", l.errorf(l.pos, "%v", err)
	}
	l.pos += n
	return s, nil
}

// unquote reads the quoted string at the start of s and returns it with
// the number of bytes it took.
func unquote(s string) (string, int, error) {
	q := s[0]
	if q == '\'' {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				return b.String(), i + 1, nil
			}
			b.WriteByte(s[i])
		}
		return "", 0, fmt.Errorf("unterminated single-quoted string")
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			v, err := strconv.Unquote(s[:i+1])
			if err != nil {
				// (the string is not quoted in the message: it may be a
				// secret's value)
				return "", 0, errors.New("bad double-quoted string: an escape Go's strings do not have (theirs are \\\\, \\\", \\n, \\t, \\u00e9...)")
			}
			return v, i + 1, nil
		}
	}
	return "", 0, fmt.Errorf("unterminated double-quoted string")
}

// bracket reads a bracketed selector: [2] [-] [-2] [+2] [name=x] [-name=x]
// [+name=x] [port=53,protocol=UDP] [spec.name="a.b"].
func (l *pathLexer) bracket() (Step, error) {
	start := l.pos
	l.pos++ // [
	end := l.closing(l.pos)
	if end < 0 {
		return Step{}, l.errorf(start, "unclosed [")
	}
	inner := l.src[l.pos:end]
	sel := &ItemSelector{Op: SelMatch}
	body := inner
	switch {
	case inner == "-":
		sel.Op = SelAppend
		body = ""
	case strings.HasPrefix(inner, "-"):
		sel.Op, body = SelInsertBefore, inner[1:]
	case strings.HasPrefix(inner, "+"):
		sel.Op, body = SelInsertAfter, inner[1:]
	}
	if sel.Op != SelAppend {
		if n, err := strconv.Atoi(body); err == nil {
			if n < 0 {
				return Step{}, l.errorf(start, "bad index %q", body)
			}
			sel.Index = n
			if sel.Op == SelMatch {
				sel.Op = SelIndex
			}
		} else {
			conds, err := l.conds(body, l.pos+(len(inner)-len(body)))
			if err != nil {
				return Step{}, err
			}
			sel.Conds = conds
		}
	}
	l.pos = end + 1
	return Step{Pos: l.at(start), Sel: sel}, nil
}

// closing finds the ] that closes a bracket opened before i, skipping
// quoted strings.
func (l *pathLexer) closing(i int) int {
	for ; i < len(l.src); i++ {
		switch l.src[i] {
		case '"', '\'':
			_, n, err := unquote(l.src[i:])
			if err != nil {
				return -1
			}
			i += n - 1
		case ']':
			return i
		}
	}
	return -1
}

// conds reads key=value conditions separated by commas.
func (l *pathLexer) conds(s string, at int) ([]Cond, error) {
	var conds []Cond
	i := 0
	for {
		keyStart := i
		eq := -1
		for j := i; j < len(s); j++ {
			if s[j] == '=' {
				eq = j
				break
			}
			if s[j] == '"' || s[j] == '\'' {
				_, n, err := unquote(s[j:])
				if err != nil {
					return nil, l.errorf(at+j, "%v", err)
				}
				j += n - 1
			}
		}
		if eq < 0 {
			return nil, l.errorf(at+i, "expected key=value in a selector, got %q", s[i:])
		}
		var key []string
		if eq == keyStart && keyStart == 0 {
			// [=value]: the scalar items equal to value (a member of a set,
			// as paths name it); key stays empty
		} else {
			sub := &pathLexer{src: s[keyStart:eq], base: l.at(at + keyStart)}
			keyPath, err := sub.parsePath()
			if err != nil {
				return nil, err
			}
			for _, st := range keyPath {
				if st.Sel != nil {
					return nil, l.errorf(at+keyStart, "a selector key is a path of fields")
				}
				key = append(key, st.Field)
			}
		}
		i = eq + 1
		c := Cond{Key: key}
		if i < len(s) && (s[i] == '"' || s[i] == '\'') {
			v, n, err := unquote(s[i:])
			if err != nil {
				return nil, l.errorf(at+i, "%v", err)
			}
			c.Value, c.Quoted = v, true
			i += n
		} else {
			j := i
			for j < len(s) && s[j] != ',' {
				j++
			}
			c.Value = strings.TrimSpace(s[i:j])
			i = j
		}
		conds = append(conds, c)
		if i >= len(s) {
			return conds, nil
		}
		if len(key) == 0 {
			return nil, l.errorf(at+i, "[=value] selects the scalar items equal to value: it has no other condition")
		}
		if s[i] != ',' {
			return nil, l.errorf(at+i, "expected , between selector conditions")
		}
		i++
	}
}

// ParsePath parses a dotted path with bracketed selectors, as written in
// the key of an assignment. pos is where the text starts, for messages.
func ParsePath(s string, pos tree.Position) (Path, error) {
	l := &pathLexer{src: s, base: pos}
	return l.parsePath()
}
