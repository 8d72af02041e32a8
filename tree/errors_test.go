package tree

import (
	"strings"
	"testing"
)

// The line of a YAML syntax error is the line a person would look at: the
// expected values were read off the inputs by hand.
func TestYAMLErrorLines(t *testing.T) {
	for _, c := range []struct {
		in        string
		line, col int // col 0: the message has no column
	}{
		{"a: 1\nb: [3\n", 2, 4},             // the unclosed [ is on line 2
		{"a: 1\nb: {3\nc: 4\n", 3, 2},       // "3 c" would be a key over two lines (the { is not closed)
		{"a:\n  b: 1\n c: 2\n", 3, 2},       // c is indented less than b
		{"x: 1\ny: 2\n z: 3\n", 3, 3},       // z: on a plain scalar's continuation
		{"a: 1\nb: @x\n", 2, 4},             // @ cannot start a token
		{"a: 1\nb:\n\t- x\n", 3, 1},         // a tab
		{"a: 1\nb: \"x\n", 2, 4},            // the unclosed quote starts on line 2
		{"x: 1\na:\n  - b\n  c: 2\n", 4, 3}, // c: is no item of the sequence of line 3
		{"0: {", 1, 4},                      // the input ends inside the flow mapping
		{"a:\n- [", 2, 3},
		// the parser names the line of spec, where the mapping template
		// leaves started; the line at fault is template's (issue 16)
		{"- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      replicas: 2\n     template: {}\n", 6, 6},
		{"a:\n  b:\n    - 1\n    x: 2\n", 4, 5},     // x: is no item of the list of line 3
		{"x: 1\n---\na:\n  b: 1\n c: 2\n", 5, 2},    // in the second document: lines count from the stream's start
		{"a:\n  b: 1\n c: 2\nd: [\n", 3, 2},         // the first fault, not the unclosed [ after it
		{"a:\r\n  b: 1\r\n c: 2\r\n", 3, 2},         // CRLF line ends
		{"a:\n  b:\n    c: 1\n   d: 2\n\n\n", 4, 4}, // blank lines after the fault
		// a tag naming no type: yaml.v3 reads it and writes "!!", which does
		// not read back (FuzzRead found it); the error is at the tagged value
		{"a: 1\nb: !<tag:yaml.org,2002:> x\n", 2, 4},
		{"a: 1\n!<!!> b: x\n", 2, 1},
		{"- !<tag:yaml.org,2002:>\n", 1, 3},
		// JSON, read by its own reader: a lone CR is a line break there
		// too (it was not: "[\r\r\r\r" was 1:6; attack, 2026-11-29)
		{"[\r\r\r\r", 5, 1},   // the input ends inside the array, after four line breaks
		{"[1,\r2,\r@]", 3, 1}, // @ on the third line
		{"[1,\r\n@]", 2, 1},   // CRLF: one line break
		{"[1,\n@]", 2, 1},
	} {
		_, err := Read([]byte(c.in), Options{File: "f.yaml"})
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Errorf("%q: %v, want a *SyntaxError", c.in, err)
			continue
		}
		if se.Pos.Line != c.line || se.Pos.Column != c.col {
			t.Errorf("%q: %v: line %d column %d, want %d:%d", c.in, err, se.Pos.Line, se.Pos.Column, c.line, c.col)
		}
	}
}

func TestNotUTF8(t *testing.T) {
	_, err := Read([]byte("a: 1\nb: x\xffy\n"), Options{File: "f.yaml"})
	if err == nil || err.Error() != "f.yaml:2:5: not UTF-8 text: byte 0xff (save the file as UTF-8)" {
		t.Errorf("got %v", err)
	}
}

// An empty null in a flow collection stays null when written back (the
// YAML library alone writes it as ”, an empty string).
func TestFlowNullRoundTrip(t *testing.T) {
	for in, want := range map[string]string{
		"x: {a: }\n":        "x: {a: null}\n",
		"x: [a, ~, null]\n": "x: [a, ~, null]\n",
		"x:\n  a:\n":        "x:\n  a:\n",
	} {
		st, err := Read([]byte(in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := st.WriteYAML(&b); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("%q: written as %q, want %q", in, b.String(), want)
		}
	}
}

// The position of an error in a long input is exact too: the reader
// names the line and column where the text stops being YAML (c: is
// indented less than b:, after 10,000 lines of b:).
func TestYAMLErrorLineLargeInput(t *testing.T) {
	in := "a:\n" + strings.Repeat("  b: 1\n", 10000) + " c: 2\n"
	_, err := Read([]byte(in), Options{File: "f.yaml"})
	se, ok := err.(*SyntaxError)
	if !ok || se.Pos.Line != 10002 || se.Pos.Column != 2 {
		t.Errorf("%v, want line 10002 column 2", err)
	}
}

// A character YAML does not allow in its text (a NUL, other controls) is
// an error at its line and column (the YAML library names neither);
// expected positions counted by hand, columns in characters.
func TestUnprintablePosition(t *testing.T) {
	for in, want := range map[string]string{
		"a: 1\nb: \"x\x00y\"\n": `f.yaml:2:6: character U+0000 is not allowed in YAML text (in a double-quoted string, write it as the escape \x00)`,
		"a: b\n\x00":            `f.yaml:2:1: character U+0000 is not allowed in YAML text (in a double-quoted string, write it as the escape \x00)`,
		"é: b\x01\n":            `f.yaml:1:5: character U+0001 is not allowed in YAML text (in a double-quoted string, write it as the escape \x01)`,
		"a: 1\n# x\x7f\n":       `f.yaml:2:4: character U+007F is not allowed in YAML text (in a double-quoted string, write it as the escape \x7f)`,
		"a: \"\xef\xbf\xbe\"\n": `f.yaml:1:5: character U+FFFE is not allowed in YAML text (in a double-quoted string, write it as the escape \ufffe)`,
	} {
		_, err := Read([]byte(in), Options{File: "f.yaml"})
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v\nwant %s", in, err, want)
		}
	}
}

// YAML versions: kmerge reads YAML 1.2, so a stream that says so reads
// (yaml.v3 alone refuses %YAML 1.2), with its lines where they are, and
// so does one marked 1.1 (kmerge's decision: Kubernetes manifests were
// long written as 1.1, and kmerge's writer quotes what 1.1 reads
// otherwise). A later minor version (1.3, 1.10) reads as 1.2 with a
// warning at its directive, a later major version (2.0) is an error
// there, as the YAML 1.2.2 specification says (6.8.1: a higher minor
// version "should be processed with an appropriate warning", a higher
// major version "rejected with an appropriate error message"); so is a
// version that is no version of YAML 1 after 1.0.
func TestYAMLVersionDirective(t *testing.T) {
	for in, want := range map[string]struct{ json, warnings string }{
		"%YAML 1.2\n---\na: yes\n":                                    {`{"a":"yes"}`, ""},
		"%YAML   1.2 # the version\n---\na: 1\n":                      {`{"a":1}`, ""},
		"%YAML 1.1\n---\na: 1\n":                                      {`{"a":1}`, ""},
		"a: 1\n...\n%YAML 1.2\n---\nb: 2\n":                           {`{"a":1}{"b":2}`, ""},
		"%YAML 1.2\n%TAG !e! tag:example.com,2000:\n---\nc: !e!x 3\n": {`{"c":"3"}`, ""},
		// a "%YAML 1.2" line inside a document is text, not a directive
		"--- |\n  %YAML 1.2\n": {`"%YAML 1.2\n"`, ""},
		"--- |\n  %YAML 1.3\n": {`"%YAML 1.3\n"`, ""},
		// later minor versions: read as 1.2 (yes is a string), warned of
		"%YAML 1.3\n---\na: yes\n":             {`{"a":"yes"}`, "f.yaml:1:1: warning: %YAML 1.3: a later version of YAML 1 than kmerge reads; read as YAML 1.2"},
		"%YAML 1.10 # ten\n---\na: [1, 2]\n":   {`{"a":[1,2]}`, "f.yaml:1:1: warning: %YAML 1.10: a later version of YAML 1 than kmerge reads; read as YAML 1.2"},
		"\ufeff%YAML 1.3\n---\na: 1\n":         {`{"a":1}`, "f.yaml:1:1: warning: %YAML 1.3: a later version of YAML 1 than kmerge reads; read as YAML 1.2"},
		"a: 1\n...\n%YAML 1.4\n---\nb: &x 2\n": {`{"a":1}{"b":2}`, "f.yaml:3:1: warning: %YAML 1.4: a later version of YAML 1 than kmerge reads; read as YAML 1.2"},
	} {
		st, err := Read([]byte(in), Options{File: "f.yaml"})
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		var got string
		for _, d := range st.Docs {
			b, err := MarshalJSON(d)
			if err != nil {
				t.Fatal(err)
			}
			got += string(b)
		}
		if got != want.json {
			t.Errorf("%q: read as %s, want %s", in, got, want.json)
		}
		var warnings []string
		for _, w := range st.Warnings {
			warnings = append(warnings, w.String())
		}
		if got := strings.Join(warnings, "\n"); got != want.warnings {
			t.Errorf("%q: warnings %q, want %q", in, got, want.warnings)
		}
	}
	// a part of a longer stream (SplitStream) starting at line 101: the
	// warning names the line in the file
	if st, err := Read([]byte("a: 1\n...\n%YAML 1.3\n---\nb: 2\n"), Options{File: "f.yaml", Line: 101}); err != nil {
		t.Error(err)
	} else if len(st.Warnings) != 1 || st.Warnings[0].Pos.Line != 103 {
		t.Errorf("a part starting at line 101: warnings %v, want one at line 103", st.Warnings)
	}
	_, err := Read([]byte("%YAML 1.2\n---\na: [1\n"), Options{File: "f.yaml"})
	if se, ok := err.(*SyntaxError); !ok || se.Pos.Line != 3 {
		t.Errorf("an error after a %%YAML 1.2 directive: %v, want line 3", err)
	}
	_, err = Read([]byte("%YAML 1.3\n---\na: [1\n"), Options{File: "f.yaml"})
	if se, ok := err.(*SyntaxError); !ok || se.Pos.Line != 3 {
		t.Errorf("an error after a %%YAML 1.3 directive: %v, want line 3", err)
	}
	for in, want := range map[string]string{
		"a: 1\n...\n%YAML 2.0\n---\nb: 1\n": "f.yaml:3:1: %YAML 2.0: YAML 2 is a later major version than kmerge reads (YAML 1.2; documents marked 1.1 or a later 1.x read as 1.2)",
		"%YAML 3.1\n---\nb: 1\n":            "f.yaml:1:1: %YAML 3.1: YAML 3 is a later major version than kmerge reads (YAML 1.2; documents marked 1.1 or a later 1.x read as 1.2)",
		"%YAML 1.0\n---\nb: 1\n":            "f.yaml:1:1: %YAML 1.0: kmerge reads YAML 1.2 (documents marked 1.1 or a later 1.x read as 1.2)",
		// a version that is no number says so, not that kmerge reads 1.2
		"%YAML one\n---\nb: 1\n":   "f.yaml:1:1: %YAML one: not a version number, which is two numbers and a dot (kmerge reads YAML 1.2: %YAML 1.2)",
		"%YAML 1.1.1\n---\nb: 1\n": "f.yaml:1:1: %YAML 1.1.1: not a version number, which is two numbers and a dot (kmerge reads YAML 1.2: %YAML 1.2)",
		"%YAML 1.\n---\nb: 1\n":    "f.yaml:1:1: %YAML 1.: not a version number, which is two numbers and a dot (kmerge reads YAML 1.2: %YAML 1.2)",
		"%YAML\n---\nb: 1\n":       "f.yaml:1:1: a %YAML directive without a version (kmerge reads YAML 1.2: %YAML 1.2)",
	} {
		_, err := Read([]byte(in), Options{File: "f.yaml"})
		if err == nil || err.Error() != want {
			t.Errorf("%q: got %v\nwant %s", in, err, want)
		}
	}
}

// A !!binary value is the string its base64 text decodes to, as
// sigs.k8s.io/yaml (kubectl's reader) reads it (the conformance module's
// TestBinaryAsUpstream compares them); bytes that are not UTF-8 text, and
// text that is not base64, are errors at the value. Expected values:
// aGVsbG8= is base64 for "hello"; /w== for the byte 0xff.
func TestBinary(t *testing.T) {
	for in, want := range map[string]string{
		"a: !!binary aGVsbG8=\n":                    `{"a":"hello"}`,
		"a: !!binary |\n  aGVs\n  bG8=\n":           `{"a":"hello"}`,
		"a: !<tag:yaml.org,2002:binary> aGVsbG8=\n": `{"a":"hello"}`,
		"!!binary aGVsbG8=: 1\n":                    `{"hello":1}`,
		"a: &x !!binary aGVsbG8=\nb: *x\n":          `{"a":"hello","b":"hello"}`,
		"a: !!binary \"\"\n":                        `{"a":""}`,
	} {
		st, err := Read([]byte(in), Options{File: "f.yaml"})
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		b, err := MarshalJSON(st.Docs[0])
		if err != nil || string(b) != want {
			t.Errorf("%q: read as %s (%v), want %s", in, b, err, want)
		}
	}
	for in, want := range map[string]string{
		"a: 1\nb: !!binary /w==\n": "f.yaml:2:4: the !!binary value decodes to bytes that are not UTF-8 text",
		"a: !!binary hello!\n":     "f.yaml:1:4: the !!binary value is not base64 text",
	} {
		_, err := Read([]byte(in), Options{File: "f.yaml"})
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %s", in, err, want)
		}
	}
}

// An error after a %YAML 1.2 directive has the line and column it has
// without the directive (counted by hand: c is indented less than b).
func TestYAMLVersionErrorColumn(t *testing.T) {
	_, err := Read([]byte("%YAML 1.2\n---\na:\n  b: 1\n c: 2\n"), Options{File: "f.yaml"})
	if se, ok := err.(*SyntaxError); !ok || se.Pos.Line != 5 || se.Pos.Column != 2 {
		t.Errorf("%v, want line 5 column 2", err)
	}
}
