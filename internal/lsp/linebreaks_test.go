package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestYAMLLineBreaks: kmerge's YAML reader counts a NEL, an LS and a PS
// as line breaks, the protocol does not (LF, CRLF and CR alone). A YAML
// patch list's errors were put on the reader's lines taken for the
// protocol's: later lines, or past the end, where blanking the item that
// holds the error to parse the rest panicked (index out of range; attack,
// 2026-11-29). Each error is on its own line of the protocol, at its
// character, and the hover of a manifest with such lines is on the field
// under the cursor.
func TestYAMLLineBreaks(t *testing.T) {
	for _, sep := range []string{"\u0085", "\u2028", "\u2029"} {
		dir := t.TempDir()
		for name, text := range map[string]string{
			"kmerge.yaml":        "apiVersion: kmerge/v1\nkind: Project\nmanifests: [base]\npatches: [overrides]\n",
			"base/s.yaml":        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  p: HUNTER2J-long\n",
			"overrides/a.kpatch": "[secret.db]\nstringData.p: from-a\n",
		} {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		c := startClient(t, Options{})
		uri := pathURI(filepath.Join(dir, "overrides", "d.yaml"))
		c.open(uri, 1, "- target: secret.db"+strings.Repeat(sep, 5)+"  bogus: 1\n- target: secret.db\n  typo: 2\n")
		var got []string
		for _, d := range c.diagnosticsOf(uri, 1) {
			r := d.Range
			got = append(got, fmt.Sprintf("%d:%d-%d:%d %s", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character, d.Message[:strings.Index(d.Message, ":")]))
		}
		want := []string{`0:26-0:31 unknown key "bogus" in a patch`, `2:2-2:6 unknown key "typo" in a patch`}
		if !slices.Equal(got, want) {
			t.Errorf("%q: the diagnostics\n%s\nwant\n%s", sep, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// a manifest of such lines: the hover on p (line 1 of the
		// protocol, after "stringData:" and a NEL) is p's
		m := pathURI(filepath.Join(dir, "base", "s.yaml"))
		c.open(m, 1, "apiVersion: v1\nkind: Secret\nmetadata:"+sep+"  name: db\nstringData:"+sep+"  p: HUNTER2J-long\n")
		c.diagnosticsOf(m, 1)
		h, err := c.hover(m, 3, len("stringData:")+3)
		if err != nil || !strings.Contains(h, "**stringData.p**") || strings.Contains(h, "HUNTER2J") || strings.Contains(h, "from-a") {
			t.Errorf("%q: the hover on p: %q %v", sep, h, err)
		}
		c.stop()
	}
}
