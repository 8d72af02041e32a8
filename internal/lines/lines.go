// Package lines cuts text into lines as kmerge's positions count them: a
// line ends at a line feed (LF), a carriage return and a line feed
// (CRLF), or a carriage return alone (CR, an old Mac's line break), as
// YAML 1.2, the .kpatch format and the language server protocol have it;
// in a YAML text as kmerge reads it (as yaml.v3 does), at NEL, LS and PS
// too (the line breaks of YAML 1.1).
package lines

import "strings"

// Normalize returns s with every LF, CRLF and CR an LF.
func Normalize(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// NormalizeYAML returns s with every line break kmerge's YAML reader
// counts an LF: LF, CRLF, CR, NEL (U+0085), LS (U+2028) and PS (U+2029).
func NormalizeYAML(s string) string {
	s = Normalize(s)
	if !strings.ContainsAny(s, "\u0085\u2028\u2029") {
		return s
	}
	return yamlBreaks.Replace(s)
}

var yamlBreaks = strings.NewReplacer("\u0085", "\n", "\u2028", "\n", "\u2029", "\n")

// Split returns the lines of s (Normalize) without their line breaks: as
// many as s has line breaks, and one more (empty when s ends with a line
// break), as strings.Split has them.
func Split(s string) []string {
	return strings.Split(Normalize(s), "\n")
}

// SplitYAML returns the lines of s as kmerge's YAML reader counts them
// (NormalizeYAML), without their line breaks: line n of a YAML position
// is element n-1.
func SplitYAML(s string) []string {
	return strings.Split(NormalizeYAML(s), "\n")
}

// SplitYAMLAfter cuts s after each line break kmerge's YAML reader counts
// (LF, CRLF, CR, NEL, LS, PS), each line keeping its break: joined, the
// lines are s again, and line n of a YAML position is element n-1 (the
// last one, without a break, empty when s ends with one).
func SplitYAMLAfter(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		w := 0
		switch {
		case s[i] == '\n':
			w = 1
		case s[i] == '\r':
			w = 1
			if i+1 < len(s) && s[i+1] == '\n' {
				w = 2
			}
		case strings.HasPrefix(s[i:], "\u0085"):
			w = 2
		case strings.HasPrefix(s[i:], "\u2028"), strings.HasPrefix(s[i:], "\u2029"):
			w = 3
		}
		if w == 0 {
			i++
			continue
		}
		out = append(out, s[start:i+w])
		i += w
		start = i
	}
	return append(out, s[start:])
}
