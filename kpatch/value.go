package kpatch

import (
	"fmt"
	"strings"

	"github.com/kmerge/kmerge/tree"
)

// Value is the right-hand side of an assignment.
type Value struct {
	Pos    tree.Position
	Raw    string // as written, without the comment
	Quoted bool   // written in quotes: always a string
	Delete bool   // !delete: delete what the key names
	parts  []part // literal text and variables
}

// part is literal text, or a variable when ref is set.
type part struct {
	text string
	ref  string // "values.a.b" or "features.x"
	pos  tree.Position
}

// SingleVariable reports whether the value is exactly one variable, which
// then gives the value its own type.
func (v Value) SingleVariable() bool {
	return len(v.parts) == 1 && v.parts[0].ref != "" && !v.Quoted
}

// parseValue reads the value text of an assignment (after the separator,
// spaces trimmed, comment removed).
func parseValue(raw string, pos tree.Position) (Value, error) {
	v := Value{Pos: pos, Raw: raw}
	if raw == "!delete" {
		v.Delete = true
		return v, nil
	}
	text := raw
	if raw != "" && (raw[0] == '"' || raw[0] == '\'') {
		s, n, err := unquote(raw)
		if err != nil {
			return v, &Error{Pos: pos, Msg: err.Error()}
		}
		if rest := strings.TrimSpace(raw[n:]); rest != "" {
			return v, &Error{Pos: pos, Msg: fmt.Sprintf("unexpected %q after the quoted value", rest)}
		}
		text, v.Quoted = s, true
	}
	parts, err := splitVariables(text, pos)
	if err != nil {
		return v, err
	}
	v.parts = parts
	return v, nil
}

// splitVariables splits text into literal parts and ${...} references.
// $${ is a literal ${.
func splitVariables(text string, pos tree.Position) ([]part, error) {
	var parts []part
	var lit strings.Builder
	for i := 0; i < len(text); i++ {
		switch {
		case strings.HasPrefix(text[i:], "$${"):
			lit.WriteString("${")
			i += 2
		case strings.HasPrefix(text[i:], "${"):
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				p := pos
				p.Column += i
				return nil, &Error{Pos: p, Msg: "unclosed ${ (write $${ for a literal ${)"}
			}
			if lit.Len() > 0 {
				parts = append(parts, part{text: lit.String()})
				lit.Reset()
			}
			p := pos
			p.Column += i
			ref := strings.TrimSpace(text[i+2 : i+end])
			if !strings.HasPrefix(ref, "values.") && !strings.HasPrefix(ref, "features.") {
				return nil, &Error{Pos: p, Msg: fmt.Sprintf("unknown variable ${%s}: variables are ${values.NAME} or ${features.NAME}", ref)}
			}
			parts = append(parts, part{ref: ref, pos: p})
			i += end
		default:
			lit.WriteByte(text[i])
		}
	}
	if lit.Len() > 0 || len(parts) == 0 {
		parts = append(parts, part{text: lit.String()})
	}
	return parts, nil
}
