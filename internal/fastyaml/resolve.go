package fastyaml

import (
	yaml "go.yaml.in/yaml/v3"
)

// resolve returns the tag yaml.v3 gives a plain scalar of value v. The
// shapes that are plainly strings (a letter first, but for the words of
// booleans and null; a sign and then a letter or a dash; digits and then a
// letter that no number or timestamp has there; versions like 1.2.3) or
// plainly numbers (up to 18 digits without a leading zero; digits, a dot
// and digits) are decided here; the rest is asked of yaml.v3 itself, whose
// rules for numbers and timestamps have corners of their own (08 is a
// float, 1e400 a string, 2001-1-1 a timestamp).
func resolve(v string) string {
	if v == "" {
		return nullTag
	}
	c := v[0]
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		switch c {
		case 't', 'T', 'f', 'F', 'n', 'N':
			switch v {
			case "true", "True", "TRUE", "false", "False", "FALSE":
				return boolTag
			case "null", "Null", "NULL":
				return nullTag
			}
		}
		return strTag
	case c >= '0' && c <= '9':
		i := 1
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		if i == len(v) {
			if i <= 18 && (c != '0' || i == 1) {
				return intTag
			}
			break
		}
		switch d := v[i]; {
		case d == 'e' || d == 'E' || d == 'x' || d == 'X' || d == 'o' || d == 'O' || d == 'b' || d == 'B' || d == 'p' || d == 'P':
		case d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z':
			return strTag
		case d == '.' && i <= 15:
			// Digits, a dot, digits: a float; with more dots and
			// digits only: a string (a version, an address).
			j := i + 1
			for j < len(v) && v[j] >= '0' && v[j] <= '9' {
				j++
			}
			if j == len(v) && j > i+1 {
				return floatTag
			}
			if j < len(v) && v[j] == '.' && j > i+1 {
				k := j + 1
				for k < len(v) && (v[k] >= '0' && v[k] <= '9' || v[k] == '.') {
					k++
				}
				if k == len(v) && v[k-1] != '.' {
					return strTag
				}
			}
		}
	case c == '-' || c == '+':
		// A sign and then a letter or a dash (an option): no number.
		if len(v) == 1 {
			return strTag
		}
		if d := v[1]; d == '-' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' {
			return strTag
		}
	case c == '/' || c == '$' || c == '_' || c == '@' || c == '`' || c == '(' || c == '=' || c == '^' || c >= 0x80:
		return strTag
	}
	n := yaml.Node{Kind: yaml.ScalarNode, Value: v}
	return n.ShortTag()
}
