package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/lines"
	"github.com/kmerge/kmerge/tree"
)

// Patch is one patch: the objects it targets and what it does to them.
type Patch struct {
	Pos    tree.Position // the header, or the item of a YAML patch list
	Target Target
	Type   change.PatchType // its String is the type a YAML patch list names

	// Field patches: Path leads from the object to what the assignments
	// are relative to; DeleteTarget deletes that instead. DeleteTarget
	// without a Path deletes the object itself: a section whose header
	// names an object and whose body is !delete, a patch list's field
	// patch that is !delete.
	Path         Path
	Sets         []Assignment
	DeleteTarget bool

	// Strategic, merge and JSON patches: the patch document.
	Body *yaml.Node
	// AllowNameChange and AllowKindChange are kustomize's patch options:
	// a strategic or merge patch then gives its target the metadata.name
	// (the kind) it holds. Without them the patch's name and kind, and
	// always its apiVersion and metadata.namespace, are not applied: they
	// name the target, as kustomize reads them.
	AllowNameChange, AllowKindChange bool
	// Kustomization is the kustomization file the patch was read through,
	// "" for a patch of a patch file of its own: its Pos may be in a file
	// the kustomization names.
	Kustomization string
}

// DeletesObject reports whether the patch deletes the objects it targets:
// a field patch whose DeleteTarget has no Path, or a strategic patch whose
// top level is $patch: delete (kustomize's way).
func (p *Patch) DeletesObject() bool {
	if p.Type == change.StrategicPatch {
		d := tree.MapGet(p.Body, "$patch")
		return d != nil && d.Kind == yaml.ScalarNode && d.Value == "delete"
	}
	return p.DeleteTarget && len(p.Path) == 0
}

// MayReidentify reports whether the patch may change the identity of the
// objects it applies to (their name, kind, apiVersion or namespace), so
// that later patches that did not pick them may: a JSON patch, a
// strategic or merge patch with kustomize's options, a field patch that
// may set a field of metadata, the kind or the apiVersion (as written, or
// through a shortcut such as name).
func (p *Patch) MayReidentify() bool {
	switch {
	case p.Type == change.JSONPatch:
		return true
	case p.Type != change.FieldPatch:
		return p.AllowNameChange || p.AllowKindChange
	case len(p.Path) > 0:
		return identityField(p.Path[0])
	}
	for _, a := range p.Sets {
		if len(a.Key) > 0 && identityField(a.Key[0]) {
			return true
		}
	}
	return false
}

func identityField(st Step) bool {
	switch st.Field {
	case "metadata", "name", "namespace", "kind", "apiVersion":
		return st.Sel == nil
	}
	return false
}

// Assignment sets (or deletes) what Key names.
type Assignment struct {
	Pos   tree.Position
	Key   Path
	Value Value
}

// ParseKpatch parses a .kpatch file: sections introduced by headers
// [kind.name.path], each followed by assignments "key: value" or
// "key = value". # starts a comment outside quotes. file names the file in
// positions.
func ParseKpatch(data []byte, file string) ([]*Patch, error) {
	return parseKpatch(data, tree.Position{File: file, Line: 1, Column: 1}, DefaultMaxLineBytes, tree.DefaultLimits().MaxDepth)
}

// ParseKpatchAt parses .kpatch text that is part of a larger file (the
// kpatch field of a KRM function's configuration): line 1, column 1 of
// data is at the position at of the file at.File, and every line of data
// is at that column (tree.Stream.TextOrigin finds such a position), so
// that positions in patches and errors are positions in that file.
func ParseKpatchAt(data []byte, at tree.Position) ([]*Patch, error) {
	if at.Line < 1 || at.Column < 1 {
		at.Line, at.Column = 1, 1
	}
	return parseKpatch(data, at, DefaultMaxLineBytes, tree.DefaultLimits().MaxDepth)
}

// parseKpatch is ParseKpatch with the position of the text's first
// character in its file, and limits: the longest line, and the deepest
// path (tree.Limits.MaxDepth; 0: no limit), which a patch would otherwise
// create in the object.
func parseKpatch(data []byte, origin tree.Position, maxLine, maxDepth int) ([]*Patch, error) {
	file := origin.File
	var patches []*Patch
	var cur *Patch
	// (lines ended by an LF, a CRLF or a lone CR, as YAML's: a file of an
	// old Mac's CRs was one line, all of it a comment when it started
	// with one)
	lines := lines.Split(string(data))
	for i, line := range lines {
		pos := tree.Position{File: file, Line: origin.Line + i, Column: origin.Column}
		// an error in a line of a section whose target may pick Secrets
		// is quoted masked (a header's line holds no value)
		inSection := func(err error) ([]*Patch, error) {
			if cur != nil {
				err = inSecretPatch(err, cur.Target)
			}
			return nil, err
		}
		if len(line) > maxLine {
			return inSection(&Error{Pos: pos, Msg: fmt.Sprintf("line of %d bytes, more than the limit of %d", len(line), maxLine), Limit: "line"})
		}
		if !utf8.ValidString(line) {
			bad := 0
			for bad < len(line) {
				r, size := utf8.DecodeRuneInString(line[bad:])
				if r == utf8.RuneError && size <= 1 {
					break
				}
				bad += size
			}
			pos.Column += utf8.RuneCountInString(line[:bad])
			return inSection(&Error{Pos: pos, Msg: fmt.Sprintf("not UTF-8 text: byte 0x%02x (save the file as UTF-8)", line[bad])})
		}
		body := stripComment(line)
		trimmed := strings.TrimSpace(body)
		if trimmed == "" {
			continue
		}
		indent := len(body) - len(strings.TrimLeft(body, " \t"))
		pos.Column += indent
		switch {
		case isHeader(trimmed):
			p, err := parseHeader(trimmed, pos)
			if err != nil {
				return nil, err
			}
			if err := checkDepth(pos, len(p.Path), maxDepth); err != nil {
				return nil, err
			}
			patches = append(patches, p)
			cur = p
		case cur == nil:
			return nil, &Error{Pos: pos, Msg: "an assignment needs a section: start with a header such as [deployment.app]"}
		case trimmed == "!delete":
			cur.DeleteTarget = true
		default:
			a, err := parseAssignment(trimmed, pos)
			if err != nil {
				return inSection(err)
			}
			if err := checkDepth(a.Pos, len(cur.Path)+len(a.Key), maxDepth); err != nil {
				return inSection(err)
			}
			cur.Sets = append(cur.Sets, a)
		}
	}
	for _, p := range patches {
		if p.DeleteTarget && len(p.Sets) > 0 {
			return nil, inSecretPatch(&Error{Pos: p.Sets[0].Pos, Msg: fmt.Sprintf("the section [%s] deletes what its header names (!delete); it cannot also set fields", headerText(p))}, p.Target)
		}
	}
	return patches, nil
}

// checkDepth refuses a path of more steps than max (0: no limit): a field
// patch creates what its path leads to, and a path deeper than the limit
// on the input's nesting would make a document no input may be.
func checkDepth(pos tree.Position, steps, max int) error {
	if max > 0 && steps > max {
		return &Error{Pos: pos, Msg: fmt.Sprintf("a path of %d steps, deeper than the limit of %d levels", steps, max), Limit: "depth"}
	}
	return nil
}

// IsHeader reports whether a line of a .kpatch file is a header, which
// starts a section ([kind.name...]): its first character but blanks is [.
// (A line whose text is being written is one too: what splits a file into
// sections, as the parser does, goes by it.)
func IsHeader(line string) bool { return isHeader(strings.TrimLeft(line, " \t")) }

// isHeader is IsHeader of a line without its leading blanks.
func isHeader(trimmed string) bool { return strings.HasPrefix(trimmed, "[") }

// StripComment returns a line of a .kpatch file without its comment: #
// at the start of the line or after a blank, outside quotes, starts one
// (blanks before it are dropped too).
func StripComment(line string) string { return stripComment(line) }

// KeySeparator returns the offset of the : or = that ends the key of an
// assignment's line, outside quotes and brackets; -1 when there is none
// (the line is a key still being written, or a quote in it is not
// closed).
func KeySeparator(s string) int {
	sep, _, err := separator(s)
	if err != nil {
		return -1
	}
	return sep
}

// stripComment removes a # comment: # at the start of the line or after a
// space, outside quotes and brackets.
func stripComment(line string) string {
	inQuote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inQuote != 0:
			if c == '\\' && inQuote == '"' {
				i++
			} else if c == inQuote {
				inQuote = 0
			}
		case c == '"' || c == '\'':
			inQuote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimRight(line[:i], " \t")
		}
	}
	return line
}

// parseHeader reads [ns/kind.name.path], or [ns/name]: a bare name, as
// in a patch list, without a path (with one it would read as kind.name).
func parseHeader(s string, pos tree.Position) (*Patch, error) {
	if !strings.HasSuffix(s, "]") {
		return nil, &Error{Pos: pos, Msg: "a header ends with ]"}
	}
	inner := s[1 : len(s)-1]
	at := pos
	at.Column++
	sel, rest, restPos, err := parseTarget(inner, at, true)
	if err != nil {
		return nil, err
	}
	p := &Patch{Pos: pos, Target: sel, Type: change.FieldPatch}
	if rest != "" {
		l := &pathLexer{src: rest, base: restPos, bareSelectors: true}
		if p.Path, err = l.parsePath(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// parseAssignment reads "key: value" or "key = value".
func parseAssignment(s string, pos tree.Position) (Assignment, error) {
	sep, quoteAt, qerr := separator(s)
	if qerr != nil {
		p := pos
		p.Column += quoteAt
		return Assignment{}, &Error{Pos: p, Msg: qerr.Error()}
	}
	// (the messages do not quote the line, which may hold a secret
	// value: the line is quoted after the message, masked where it must be)
	if sep < 0 {
		return Assignment{}, &Error{Pos: pos, Msg: "expected key: value or key = value"}
	}
	keyText := strings.TrimSpace(s[:sep])
	valText := strings.TrimSpace(s[sep+1:])
	if s[sep] == '=' && strings.Contains(valText, ": ") {
		return Assignment{}, &Error{Pos: pos, Msg: "a selector in a key needs brackets, e.g. containers[name=main].image: ..."}
	}
	key, err := ParsePath(keyText, pos)
	if err != nil {
		return Assignment{}, err
	}
	vpos := pos
	vpos.Column += sep + 1 + len(s[sep+1:]) - len(strings.TrimLeft(s[sep+1:], " \t"))
	val, err := parseValue(valText, vpos)
	if err != nil {
		return Assignment{}, err
	}
	return Assignment{Pos: pos, Key: key, Value: val}, nil
}

// separator finds the first : or = outside quotes and brackets. A quote
// that does not end is an error, with its offset.
func separator(s string) (sep, quoteAt int, err error) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'':
			_, n, err := unquote(s[i:])
			if err != nil {
				return -1, i, err
			}
			i += n - 1
		case '[':
			depth++
		case ']':
			depth--
		case ':', '=':
			if depth == 0 {
				return i, 0, nil
			}
		}
	}
	return -1, 0, nil
}

// headerText formats the header of a section, for messages.
func headerText(p *Patch) string {
	s := p.Target.String()
	if len(p.Path) > 0 {
		if p.Path[0].Sel == nil {
			s += "."
		}
		s += p.Path.String()
	}
	return s
}
