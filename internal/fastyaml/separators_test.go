package fastyaml

import (
	"strings"
	"testing"
)

// TestLineSeparators: NEL (U+0085), LS (U+2028) and PS (U+2029) are read as
// yaml.v3 reads them, into the same trees or refused by both: line breaks
// everywhere (they end lines, keys, plain scalars and comments, and lines
// and columns count them), kept in a value as "\n" (NEL) or as themselves
// (LS, PS) where a line break is kept, and LS and PS not folded into a
// space. The inputs are those the task listed (observed with yaml.v3
// v3.0.6), then each template below with S made each separator, alone and
// next to a CRLF: every scalar style with a separator at the start, the
// middle and the end of a line, in comments, keys, flow collections, block
// scalars' headers and indentation-detection lines, after document
// markers and directives. Parse refused them all before.
func TestLineSeparators(t *testing.T) {
	check := func(name, in string) {
		t.Helper()
		if o := mustMatch(t, name, in); o != bothEqual && o != bothRefuse {
			t.Errorf("%s: %s\n%q", name, o, in)
		}
	}
	for _, in := range []string{
		"a: \"x\u2028y\"\n", "a: 'x\u2028y'\n", "a: \"x\u2028\u2028y\"\n", "a: \"x\n\u2028y\"\n",
		"a: x\u2028y\n", "a: x\u2028b: y\n", "a: |\n  x\u2028y\n", "a: |\n  x\u2028  y\n", "# c\u2028a: b\n",
		"a: b\u0085c: d\n", "a: \"x\u0085y\"\n", "a: \"x\u2029y\"\n", "- a\u2028- b\n", "a: [x,\u2028y]\n",
		"a: >\n  x\u2028  y\n  z\n",
	} {
		check("listed", in)
	}
	templates := []string{
		// plain
		"a: xS  y\n", "a: xSS  y\n", "a: x\nS  y\n", "a: xS\n  y\n", "a: x\n  yS  z\n", "- xS  y\n", "xSy\n", "xS y\n",
		"a: x  S  y\n", "a: xSy\n", "a: xSb: y\n", "Sa: b\n", "SSa: b\n", "a: bS", "a: bSS", "a:S  b: c\n", "a:S- b\n",
		"a:S  - bS  - c\n", "? aS: b\n", "a: &xS  b: c\n", "a: !!strS  b\n", "aSb: c\n", "a: bS  c: d\n", "aS", "S",
		// single-quoted
		"a: 'xSy'\n", "a: 'xSSy'\n", "a: 'x\nSy'\n", "a: 'xS\ny'\n", "a: ' S '\n", "a: 'S'\n", "'aSb': c\n", "a: 'bS",
		"a: 'xS  y'Sb: c\n",
		// double-quoted
		"a: \"xSy\"\n", "a: \"xSS  y\"\n", "a: \"x  S  y\"\n", "a: \"x\\Sy\"\n", "a: \"x\\S  y\"\n", "a: \"x\\\nSy\"\n",
		"a: \"x\\SSy\"\n", "a: \"xS--- y\"\n", "a: \"xS---\"\n", "a: \"S\"\n", "a: \"Sx\"\n", "a: \"xS\"\n", "\"aSb\": c\n",
		"a: \"x\"Sb: 'y'S",
		// literal and folded
		"a: |\n  xSy\n", "a: |\n  xS  y\n", "a: |\n  xS", "a: |\n  xSb: c\n", "a: |+\n  xSSb: c\n", "a: |-\n  xSSb: c\n",
		"a: |\n  xSSb: c\n", "a: |\n  x\nSb: c\n", "a: |\n  xS\n  y\n", "a: |\n  x\nS  y\n", "a: |S  x\n", "a: | # cS  x\n",
		"a: |SS  x\n", "a: |S    S  x\n", "a: |\n  S    S  x\n", "a: |\nS    S  x\n", "a: |+\nS\nb: c\n", "a: |+\n\nSb: c\n",
		"a: |2\n  xS   y\n", "- |\n xS y\n", "a: |\n  xS  ", "a: |+\n  xS  Sb: c\n",
		"a: >\n  xS  y\n  z\n", "a: >\n  xS   y\n  z\n", "a: >\n  x\n   yS  z\n", "a: >\n  xSS  y\n", "a: >\n  x\nS  y\n",
		"a: >\n  xS\n  y\n", "a: >\nS\n  x\n", "a: >\n\nS  x\n", "a: >+\n  xS  Sb: c\n", "a: >\n   xS  y\n", "a: >-\n  xS  yS",
		// comments
		"# cSa: b\n", "a: b # cSc: d\n", "a: b # cS# dSc: d\n", "a:\n  b: c\n# fSS# hSd: e\n", "a:\n  b: c\n# fS\n\n# h\nd: e\n",
		"a:\n  b: c\n# f\nS# h\nd: e\n", "# hSS# iSSa: b\n", "# hSS# i\n\na: b\n", "# hSSSa: b\n", "# h\nSa: b\n",
		"a: |\n  x\n# hSSb: c\n", "- aSS# xSS- b\n", "a:\n  b: c\n  # fS\n# h\nd: e\n", "a: b #cS", "# cS", "a: bSS# dSSc: d\n",
		"a:\n  b: c # lSS# h\nd: e\n", "a:\n  b: c\n  # cSS\n", "- a # cSS", "a: bS# f\n",
		// flow collections
		"a: [x,Sy]\n", "[aSb]\n", "[aS b]\n", "[aSSb]\n", "[a\nSb]\n", "{a: 1,Sb: 2}\n", "{a: 1S,b: 2}\n", "[a # cS, b]\n",
		"[a # cSS, b]\n", "[a,\n # cSS b]\n", "[a, # cSS b]\n", "a: [x,S  y]Sb: 1\n", "{aSb: c}\n", "{\"aSb\": c}\n",
		"a: {x: yS z}\n", "a: [\"xS  y\"]\n", "[aS", "{a: [bS]S}\n",
		// document markers and directives
		"---Sa: b\n", "--- Sa\n", "---Sa\n", "a: 1S---Sb: 2\n", "a: 1S--- Sb: 2\n", "a: 1S...Sb: 2\n", "a: 1\n...Sb: 2\n",
		"%YAML 1.1S---Sa\n", "%TAG !e! tag:e,2000:S---S!e!x a\n", "--- |S  xS...S",
	}
	for _, sep := range []string{"\u0085", "\u2028", "\u2029", "\r\n\u2028", "\u2028\r\n", "\r\u2029", "\u2029\r"} {
		for _, tm := range templates {
			check(tm, strings.ReplaceAll(tm, "S", sep))
		}
	}
}

// TestSeparatorCommentsAtDocumentEnd: a deliberate difference. When a
// comment line at the end of a document ends with NEL, LS or PS, yaml.v3
// gives the comments of the end of the document to the document's foot,
// and drops a comment line before one ended so ("- a\n# c\u2028# d\n"
// keeps "# d" only); Parse places them as it does when "\n" ends the
// line (the foot comment of the last entry), keeping every one: "placed",
// which FuzzDifferential accepts. The documents are the same otherwise.
func TestSeparatorCommentsAtDocumentEnd(t *testing.T) {
	for _, in := range []string{
		"- a\n# c\u2028", "- a\n# c\u2028\n", "- a\n# c\u2028\u2028", "- a\n# c\u2028  ", "a: b\n# c\u2028",
		"- a\n# c\u2028# d\n", "- a\n# c\u2028# d\u2028", "- a\n# c\u0085", "- a\n# c\u2029\u2029",
	} {
		if o, d := outcome(in); o != placed {
			t.Errorf("%q: %s %s", in, o, d)
		}
		lf := strings.NewReplacer("\u0085", "\n", "\u2028", "\n", "\u2029", "\n").Replace(in)
		got, err := Parse([]byte(in), 0)
		want, werr := Parse([]byte(lf), 0)
		if err != nil || werr != nil {
			t.Errorf("%q: %v, %v", in, err, werr)
			continue
		}
		if d := diffDocs(got, want); d != "" {
			t.Errorf("%q: not read as %q: %s", in, lf, d)
		}
	}
}

// TestSeparatorAfterDirective: a %YAML 1.2 directive on a line after one
// NEL, LS or PS ends is read as the oracle reads it (as 1.1: decodeV3's
// version11 splits the lines at them too).
func TestSeparatorAfterDirective(t *testing.T) {
	for _, in := range []string{"%YAML 1.2\u2028---\u2028a\n", "# c\u2028%YAML 1.2\n--- a\n", "a\n...\u2029%YAML 1.2\u2029---\n"} {
		if o := mustMatch(t, "", in); o != bothEqual {
			t.Errorf("%q: %s", in, o)
		}
	}
}
