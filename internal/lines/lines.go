// Package lines cuts text into lines as YAML counts them, and so as the
// positions of kmerge's errors and nodes do: a line ends at a line feed
// (LF), a carriage return and a line feed (CRLF), or a carriage return
// alone (CR, an old Mac's line break).
//
// (NEL, LS and PS, line breaks to YAML 1.1 and to kmerge's YAML reader,
// which reads as yaml.v3 does, end no line here: the texts cut here are
// .kpatch files, a kustomization's lines and the output of kmerge, which
// writes none of them raw.)
package lines

import "strings"

// Normalize returns s with every line break an LF.
func Normalize(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// Split returns the lines of s without their line breaks: as many as s
// has line breaks, and one more (empty when s ends with a line break), as
// strings.Split has them.
func Split(s string) []string {
	return strings.Split(Normalize(s), "\n")
}
