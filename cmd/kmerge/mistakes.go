package main

import (
	"os"
	"path/filepath"
	"strings"
)

// The mistakes people make on kmerge's command line, each caught before it
// turns into a message about something else, with the fix.

// paths is a flag of paths that may be given several times: each value is
// added. Several flags (-p and its old name --patch) can share one list.
type paths struct{ list *[]string }

func (p paths) String() string     { return strings.Join(*p.list, ",") }
func (p paths) Type() string       { return "PATH" }
func (p paths) Set(s string) error { *p.list = append(*p.list, s); return nil }

// checkPatchPaths catches patch text given to apply's -p, which takes the
// paths of patch files: a value that names nothing and reads as a patch
// (JSON, YAML, .kpatch text) is a usage error that says where such a patch
// goes, instead of "stat {...}: no such file or directory".
func checkPatchPaths(list []string) error {
	for _, p := range list {
		if _, err := os.Stat(p); err == nil || !looksLikePatchText(p) {
			continue
		}
		return usagef("-p %s: -p takes patch files and folders (.kpatch files, YAML patch lists), and this is patch text, not a file. "+
			"To apply one patch to a file, use kmerge patch -f FILE -p TEXT; to apply it here, put it in a YAML patch list: "+
			"- {target: KIND.NAME, type: strategic, patch: ...}", abbreviate(p))
	}
	return nil
}

// looksLikePatchText reports whether a command-line value is a patch
// rather than a file name: it spans lines, starts like a JSON or YAML flow
// collection, or holds a YAML "key: value".
func looksLikePatchText(s string) bool {
	t := strings.TrimSpace(s)
	return strings.ContainsAny(t, "\n{") || strings.HasPrefix(t, "[") || strings.Contains(t, ": ") || strings.HasSuffix(t, ":")
}

// checkInlinePatch catches a file name given to patch's -p, which takes the
// patch itself: a one-word value that is a file, or ends like one, would
// otherwise be read as a patch that is a string ("the patch is a string,
// not an object").
func checkInlinePatch(p string) error {
	t := strings.TrimSpace(p)
	if t == "" || strings.ContainsAny(t, " \t\n{[:\"'") {
		return nil
	}
	if info, err := os.Stat(t); err == nil && !info.IsDir() {
		return usagef("-p %s: -p takes the patch itself (YAML or JSON), not a file: use --patch-file %s", t, t)
	}
	switch strings.ToLower(filepath.Ext(t)) {
	case ".yaml", ".yml", ".json", ".kpatch":
		return usagef("-p %s: -p takes the patch itself (YAML or JSON), and this looks like a file name: to read the patch from a file, use --patch-file", t)
	}
	return nil
}

// abbreviate shortens a long value for a message.
func abbreviate(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
