package syntax

import "strings"

// Place is the part of a header, a target or a path that a cursor is in
// (Cursor.In).
type Place uint8

// The parts a cursor may be in.
const (
	InKind   Place = iota // the kind, or a bare name (a namespace's / not yet written)
	InName                // the name or pattern, after kind.
	InLabels              // the label selector, after {
	InPath                // a path: a header's, after the target's dot, or an assignment's key
)

// Cursor is text cut at a cursor, as an editor sees a header, a target or
// a key while it is written: what is complete before the cursor, read by
// the grammar that reads the whole text (the same quoting, namespaces,
// label selectors and path steps), and the part the cursor is in. It is
// what the language server completes by, so that what it proposes reads
// back as it is meant.
type Cursor struct {
	// In is the part the cursor is in.
	In Place
	// Target holds the parts of the target before the cursor's part:
	// Namespace, then Kind (InName, InLabels, InPath), Name (InLabels,
	// InPath) and Labels (InPath). Its positions are not set.
	Target Target
	// Start is the byte offset in the text where the cursor's word
	// starts: a kind's or a name's first character (its opening quote,
	// when quoted), a label selector's after {, a path step's after the
	// . or [ before it. What completes the word replaces the text from
	// Start to the cursor.
	Start int
	// Path holds, InPath, the steps before the cursor's; Bracket is set
	// when the cursor's step follows a [ (a list selector).
	Path    Path
	Bracket bool
}

// HeaderCursor reads text, a .kpatch header from after its [ to a cursor
// at the end of text, as far as it is written (ParseKpatch reads the
// whole header). ok is false when what precedes the cursor's part does not
// read as a header's beginning: there is then nothing to complete by.
func HeaderCursor(text string) (c Cursor, ok bool) { return targetCursor(text, true) }

// TargetCursor is HeaderCursor for a target as a YAML patch list writes
// it (ParseTarget): no path follows it.
func TargetCursor(text string) (c Cursor, ok bool) { return targetCursor(text, false) }

// PathCursor reads text, a path (an assignment's key, a field patch's key
// in a patch list) up to a cursor at its end: the complete steps before
// the cursor's step (ParsePath reads them) and where that step starts.
func PathCursor(text string) (c Cursor, ok bool) {
	c.In = InPath
	if !pathCursor(&c, text, 0, false) {
		return c, false
	}
	return c, true
}

func targetCursor(s string, header bool) (c Cursor, ok bool) {
	var i int
	c.Target.Namespace, i = targetNamespace(s)
	// word reads a kind or a name at i (as parseTarget does); done is
	// false when the cursor is in it (it runs to the end of the text, or
	// its quote is not closed)
	word := func() (w string, quoted, done bool) {
		w, quoted, next, err := targetWord(s, i)
		if err != nil {
			return "", true, false
		}
		i = next
		return w, quoted, quoted || i < len(s)
	}
	c.Start = i
	kind, quoted, done := word()
	if !done {
		c.In = InKind
		return c, true
	}
	if kind == "" || i >= len(s) || s[i] != '.' {
		// the cursor right after a quoted kind, or what a header does not
		// read (a { before the name)
		return c, i >= len(s) && quoted
	}
	if kind != "*" || quoted {
		c.Target.Kind = kind
	}
	i++
	c.Start = i
	name, quoted, done := word()
	c.In = InName
	if !done {
		return c, true
	}
	if i >= len(s) {
		return c, quoted // right after a quoted name
	}
	c.Target.Name = name
	if s[i] == '{' {
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			c.In, c.Start = InLabels, i+1
			return c, true
		}
		c.Target.Labels = strings.TrimSpace(s[i+1 : i+end])
		i += end + 1
	}
	if !header || i >= len(s) || s[i] != '.' {
		return c, false
	}
	c.In = InPath
	return c, pathCursor(&c, s[i+1:], i+1, true)
}

// pathCursor reads the path text s, which starts at byte off of the text,
// into c: the steps before the last . or [ outside quotes and brackets
// (the cursor's step starts after it), read by the path grammar (bare
// selectors as a header reads them).
func pathCursor(c *Cursor, s string, off int, header bool) bool {
	cut, depth := -1, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			if _, n, err := unquote(s[i:]); err == nil {
				i += n - 1
			} else {
				i = len(s) // the cursor is in the quote
			}
		case '[':
			cut, depth = i, depth+1
		case ']':
			depth = max(depth-1, 0)
		case '.':
			if depth == 0 {
				cut = i
			}
		}
	}
	c.Start = off + cut + 1
	c.Bracket = cut >= 0 && s[cut] == '['
	if cut <= 0 {
		return cut < 0 || c.Bracket // ".x" has no step before its dot
	}
	l := &pathLexer{src: s[:cut], bareSelectors: header}
	p, err := l.parsePath()
	if err != nil {
		return false
	}
	c.Path = p
	return true
}
