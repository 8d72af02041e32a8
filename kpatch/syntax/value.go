package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kmerge/kmerge/tree"
)

// Value is the right-hand side of an assignment.
type Value struct {
	Pos    tree.Position
	Raw    string // as written, without the comment
	Quoted bool   // written in quotes: always a string
	Delete bool   // !delete: delete what the key names
	// Parts are the value's literal text and variables, in order (nil
	// for !delete): see Variables.
	Parts []Part
}

// Part is literal text, or a variable when Var is set.
type Part struct {
	Text string        // the literal text
	Var  string        // the variable: "values.a.b" or "features.x"
	Pos  tree.Position // where the variable's ${ is
}

// SingleVariable reports whether the value is exactly one variable, which
// then gives the value its own type.
func (v Value) SingleVariable() bool {
	return len(v.Parts) == 1 && v.Parts[0].Var != "" && !v.Quoted
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
		if rest := strings.TrimLeft(raw[n:], " \t"); rest != "" {
			// (not quoted in the message: it may be a secret's value)
			p := pos
			p.Column += utf8.RuneCountInString(raw[:len(raw)-len(rest)])
			return v, &Error{Pos: p, Msg: "text after the quoted value: quote the whole value"}
		}
		text, v.Quoted = s, true
	}
	parts, err := Variables(text, pos)
	if err != nil {
		return v, err
	}
	v.Parts = parts
	return v, nil
}

// Variables splits text into its literal parts and its ${values.NAME}
// and ${features.NAME} variables; $${ is a literal ${. pos is where text
// starts: a variable's position is that of its ${. Text without variables
// is one literal part (an empty one for "").
func Variables(text string, pos tree.Position) ([]Part, error) {
	var parts []Part
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
				parts = append(parts, Part{Text: lit.String()})
				lit.Reset()
			}
			p := pos
			p.Column += i
			ref := strings.TrimSpace(text[i+2 : i+end])
			if !strings.HasPrefix(ref, "values.") && !strings.HasPrefix(ref, "features.") {
				return nil, &Error{Pos: p, Msg: fmt.Sprintf("unknown variable ${%s}: variables are ${values.NAME} or ${features.NAME}", ref)}
			}
			parts = append(parts, Part{Var: ref, Pos: p})
			i += end
		default:
			lit.WriteByte(text[i])
		}
	}
	if lit.Len() > 0 || len(parts) == 0 {
		parts = append(parts, Part{Text: lit.String()})
	}
	return parts, nil
}
