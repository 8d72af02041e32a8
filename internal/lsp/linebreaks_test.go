package lsp

import (
	"encoding/json"
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

// TestOtherFileProtocolLines: a position in a file the server has not open
// (a definition in a manifest, the other side of a conflict) is on the
// protocol's line (LF, CRLF, CR alone), not the YAML reader's (NEL, LS and
// PS too): after a NEL it was put on a later line, or past the end of the
// file (attack, 2026-11-29), its character counted from the reader's line.
func TestOtherFileProtocolLines(t *testing.T) {
	for _, c := range []struct {
		text   string
		line   int  // the reader's, from 1
		yaml   bool // the text's lines as a YAML file's
		want   string
		ok     bool
		pline  int // the protocol's, from 0
		before int // UTF-16 units of the protocol's line before it
	}{
		{"a\nb\n", 2, true, "b", true, 1, 0},
		{"a\u0085b\n", 2, true, "b", true, 0, 2},
		{"a\u2028b\u2029c\rd", 3, true, "c", true, 0, 4},
		{"a\u2028b\u2029c\rd", 4, true, "d", true, 1, 0},
		{"x\r\né\U0001F600\u0085ü: 1\nz", 3, true, "ü: 1", true, 1, 4}, // é 1 unit, the emoji 2, NEL 1
		{"a\u0085\u0085", 3, true, "", false, 0, 0},                    // after the final line break: none
		{"a\u0085b\n", 2, false, "", false, 0, 0},                      // a .kpatch file: NEL ends no line
		{"a\u0085b\nc", 2, false, "c", true, 1, 0},
		{"\u0085\u0085x", 3, true, "x", true, 0, 2},
		{"", 1, true, "", false, 0, 0},
		{"\n\n", 2, true, "", true, 1, 0},
		{"a", 0, true, "", false, 0, 0},
		{"a", -1, true, "", false, 0, 0},
	} {
		l := textLine([]byte(c.text), c.line, c.yaml)
		if l != (fileText{c.want, c.ok, c.pline, c.before}) {
			t.Errorf("textLine(%q, %d, %v) = %+v, want %q %v on the protocol's line %d after %d units", c.text, c.line, c.yaml, l, c.want, c.ok, c.pline, c.before)
		}
	}
	// a definition from a .kpatch file into a manifest of NELs on disk:
	// the field's place on its line of the protocol
	for _, sep := range []string{"\n", "\r", "\u0085", "\u2028", "\u2029"} {
		dir := t.TempDir()
		for name, text := range map[string]string{
			"kmerge.yaml":        "apiVersion: kmerge/v1\nkind: Project\nmanifests: [base]\npatches: [overrides]\n",
			"overrides/a.kpatch": "[secret.db]\nstringData.p: from-a\n",
			"base/s.yaml":        "apiVersion: v1" + sep + "kind: Secret" + sep + "metadata:" + sep + "  name: db" + sep + "stringData:" + sep + "  é: x" + sep + "  p: y\n",
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
		uri := pathURI(filepath.Join(dir, "overrides", "a.kpatch"))
		c.open(uri, 1, "[secret.db]\nstringData.p: from-a\n")
		c.diagnosticsOf(uri, 1)
		m := c.request("textDocument/definition", positionParams{TextDocument: textDocumentIdentifier{URI: uri}, Position: Position{Line: 1, Character: 12}})
		var got []Location
		if b, err := json.Marshal(m.Result); err != nil || json.Unmarshal(b, &got) != nil {
			t.Fatalf("%q: the definition: %v", sep, m.Result)
		}
		// p on line 6 of the protocol, else on line 0 after the 6 lines
		// before it and their breaks (é one unit): 6*1 + 62 characters
		want := Range{Start: Position{Line: 6, Character: 2}, End: Position{Line: 6, Character: 6}}
		if sep != "\n" && sep != "\r" {
			before := len([]rune("apiVersion: v1kind: Secretmetadata:  name: dbstringData:  é: x")) + 6
			want = Range{Start: Position{Line: 0, Character: before + 2}, End: Position{Line: 0, Character: before + 6}}
		}
		if len(got) != 1 || got[0].Range != want {
			t.Errorf("%q: the definition of stringData.p: %+v, want %+v", sep, got, want)
		}
		c.stop()
	}
}
