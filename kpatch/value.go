package kpatch

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"

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

// newString makes a string node for a value a patch writes. Text that a
// YAML 1.1 reader (kubectl's, through sigs.k8s.io/yaml, among them) would
// take for a boolean or a sexagesimal number is double-quoted, so that
// every reader sees a string; the writer quotes anything YAML 1.2 would
// misread.
func newString(s string) *yaml.Node {
	n := tree.NewString(s)
	if yaml11Special(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yaml11Special reports whether plain text is a boolean or a base-60
// number in YAML 1.1 (and a string in YAML 1.2).
func yaml11Special(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	// sexagesimal: [-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?
	t := strings.TrimLeft(s, "+-")
	head, rest, ok := strings.Cut(t, ":")
	if !ok || head == "" || strings.Trim(head, "0123456789_") != "" || head[0] == '_' {
		return false
	}
	if dot := strings.IndexByte(rest, '.'); dot >= 0 {
		if strings.Trim(rest[dot+1:], "0123456789_") != "" {
			return false
		}
		rest = rest[:dot]
	}
	for _, part := range strings.Split(rest, ":") {
		if len(part) == 0 || len(part) > 2 || strings.Trim(part, "0123456789") != "" || len(part) == 2 && part[0] > '5' {
			return false
		}
	}
	return true
}
