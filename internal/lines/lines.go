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
