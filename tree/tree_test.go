package tree

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

func read(t *testing.T, s string) *Stream {
	t.Helper()
	st, err := Read([]byte(s), Options{File: "in"})
	if err != nil {
		t.Fatalf("Read(%q): %v", s, err)
	}
	return st
}

func TestKindsAndKeys(t *testing.T) {
	// Equality is Go's == on what an API server decodes: int64 for integers
	// that fit, float64 for other numbers, and no equality across types.
	cases := []struct {
		a, b  string
		equal bool
		kind  Kind
	}{
		{`1`, `1`, true, Int},
		{`1`, `1.0`, false, Int},
		{`1.0`, `1.00`, true, Float},
		{`1e2`, `100.0`, true, Float},
		{`-0.0`, `0.0`, true, Float},
		{`1`, `"1"`, false, Int},
		{`"a"`, `a`, true, String},
		{`true`, `True`, true, Bool},
		{`null`, `~`, true, Null},
		{`9223372036854775807`, `9223372036854775807`, true, Int},
		{`9223372036854775808`, `9.223372036854775808e18`, true, Float},
		{`0x1F`, `31`, true, Int},
		{`2001-12-14`, `"2001-12-14"`, true, String},
		// (Equal compares scalars as their Keys, without building them)
		{`.nan`, `.NaN`, true, Float},
		{`.inf`, `+.Inf`, true, Float},
		{`.inf`, `-.inf`, false, Float},
		{`false`, `FALSE`, true, Bool},
		{`false`, `true`, false, Bool},
		{`1_000`, `1000`, true, Int},
		{`0o17`, `15`, true, Int},
		{`2`, `3`, false, Int},
		{`18446744073709551615`, `1.8446744073709552e19`, true, Float},
		{`1.5`, `1.25`, false, Float},
		{`a`, `b`, false, String},
		{`~`, `""`, false, Null},
	}
	for _, c := range cases {
		a := read(t, c.a).Docs[0].Content[0]
		b := read(t, c.b).Docs[0].Content[0]
		if got := KindOf(a); got != c.kind {
			t.Errorf("KindOf(%s) = %s, want %s", c.a, got, c.kind)
		}
		if got := Key(a) == Key(b); got != c.equal {
			t.Errorf("Key(%s) == Key(%s) is %v, want %v (%q, %q)", c.a, c.b, got, c.equal, Key(a), Key(b))
		}
		if got := Equal(a, b); got != c.equal {
			t.Errorf("Equal(%s, %s) = %v, want %v", c.a, c.b, got, c.equal)
		}
	}
	if !Equal(read(t, `{a: 1, b: [1, 2]}`).Docs[0], read(t, `{"b": [1, 2], "a": 1}`).Docs[0]) {
		t.Error("objects with the same entries in another order must be equal")
	}
	if Equal(read(t, `[1, 2]`).Docs[0], read(t, `[2, 1]`).Docs[0]) {
		t.Error("arrays in another order must differ")
	}
}

func TestFormatDetection(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Format
		docs int
	}{
		{`{"a": 1}`, JSON, 1},
		{`{"a": 1} {"b": 2}` + "\n[3]", JSON, 3},
		{"a: 1\n---\nb: 2\n", YAML, 2},
		{`{a: 1}`, YAML, 1},            // YAML flow style, not JSON
		{`{"a": 1, "b": 2,}`, YAML, 1}, // trailing comma: YAML-flavoured JSON
		{"", YAML, 0},
	} {
		st := read(t, c.in)
		if st.Format != c.want || len(st.Docs) != c.docs {
			t.Errorf("%q: format %s with %d documents, want %s with %d", c.in, st.Format, len(st.Docs), c.want, c.docs)
		}
	}
}

func TestJSONKeepsNumberText(t *testing.T) {
	in := `{"i":9223372036854775807,"f":1.7976931348623157e+308,"g":1.50,"e":1E3,"n":-0}`
	out, err := MarshalJSON(read(t, in).Docs[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Fatalf("got %s\nwant %s", out, in)
	}
}

func TestJSONFromYAMLScalars(t *testing.T) {
	// YAML spellings that are not JSON are rewritten; strings stay strings.
	in := "hex: 0x1F\noct: 0o17\nhalf: .5\nyes: yes\non: true\nnull1: ~\nq: '1'\nts: 2001-12-14\n"
	out, err := MarshalJSON(read(t, in).Docs[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"hex":31,"oct":15,"half":0.5,"yes":"yes","on":true,"null1":null,"q":"1","ts":"2001-12-14"}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
	if _, err := MarshalJSON(read(t, "x: .inf\n").Docs[0]); err == nil {
		t.Fatal("an infinity must not become JSON")
	}
}

func TestJSONStrings(t *testing.T) {
	in := `{"s":"tab\tquote\"back\\slash\u00e9\ud83d\ude00\u2028<&>","bad":"\ud800x"}`
	doc := read(t, in).Docs[0]
	if got := MapGet(doc.Content[0], "s").Value; got != "tab\tquote\"back\\slashé😀\u2028<&>" {
		t.Fatalf("decoded %q", got)
	}
	if got := MapGet(doc.Content[0], "bad").Value; got != "\uFFFDx" {
		t.Fatalf("a lone surrogate decodes to %q, want U+FFFD", got)
	}
	out, _ := MarshalJSON(doc)
	want := `{"s":"tab\tquote\"back\\slashé😀\u2028<&>","bad":"` + "\uFFFD" + `x"}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
}

func TestRejectedInput(t *testing.T) {
	// Input that starts like JSON but is not JSON is read as YAML, a
	// superset; these are JSON errors only when the format is JSON.
	json := JSON
	for _, c := range []struct {
		in, msg  string
		jsonOnly bool
	}{
		{`{"a": 1, "a": 2}`, `in:1:10: duplicate key "a"`, false},
		{"a: 1\nb: 2\na: 3\n", `in:3:1: key "a" is already defined at line 1`, false},
		{`{"a": 1e400}`, "out of range", true},
		{"[1, 2", "in:1:", false},
		{`{"a": tru}`, `expected "true"`, true},
		{"{\"a\": \"x\ny\"}", `in:1:9: control character '\n' in a string`, true},
		{`{"a": @}`, `in:1:7: expected a value (an object, array, string, number, true, false or null), found '@'`, true},
		{`{1: 2}`, `in:1:2: expected a key (a string in double quotes), found '1'`, true},
		{`{"a": 1 "b": 2}`, `in:1:9: expected ',' or '}' after a member of an object, found '"'`, true},
		{`[1 2]`, `in:1:4: expected ',' or ']' after an item of an array, found '2'`, true},
		{`["\q"]`, `in:1:3: unknown escape: 'q' after a backslash in a string`, true},
		{"[\"\x00\"]", `in:1:3: control character '\x00' in a string`, true},
		{"? [a]\n: b\n", "mapping key is a sequence", false},
		{"a: [\n", "in:", false},
	} {
		opts := Options{File: "in"}
		if c.jsonOnly {
			opts.Format = &json
		}
		_, err := Read([]byte(c.in), opts)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want one containing %q", c.in, err, c.msg)
		}
		if _, ok := err.(*SyntaxError); err != nil && !ok {
			t.Errorf("%q: error is %T, want *SyntaxError", c.in, err)
		}
	}
}

func TestAliasesAndMergeKeys(t *testing.T) {
	// merged entries take the place of "<<"; explicit keys win
	in := "base: &b {x: 1, y: 2}\nref: *b\nmerged:\n  <<: *b\n  y: 3\n"
	st := read(t, in)
	out, _ := MarshalJSON(st.Docs[0])
	if want := `{"base":{"x":1,"y":2},"ref":{"x":1,"y":2},"merged":{"x":1,"y":3}}`; string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
	// the expanded alias is a copy: editing it leaves the anchor alone
	root := st.Docs[0].Content[0]
	MapGet(root, "ref").Content[1].Value = "9"
	if MapGet(root, "base").Content[1].Value != "1" {
		t.Fatal("an expanded alias shares nodes with its anchor")
	}
}

// TestExpandedLimit: aliases add, toward Limits.MaxExpanded, the cost
// (text and nodeCost per value) of each value they copy: a limit of exactly
// that passes, one byte less fails at the alias that crosses it, and the
// cost adds up over the stream. Where no merge key rewrites the result, the
// expected cost is checked against the expanded tree Read returns: its cost
// less that of the values written in the input.
func TestExpandedLimit(t *testing.T) {
	cost := func(n *yaml.Node) int {
		c := 0
		var walk func(*yaml.Node)
		walk = func(n *yaml.Node) {
			c += len(n.Value) + nodeCost
			for _, k := range n.Content {
				walk(k)
			}
		}
		walk(n)
		return c
	}
	for _, c := range []struct {
		in      string
		added   int    // by hand
		written int    // values written in the input (document node included), aliases excepted, and their text
		text    int    // the bytes of their text; 0: not checked against the tree
		at      string // where the error points with one byte less
	}{
		// one value of 3 bytes
		{in: "a: &a xyz\nb: *a\n", added: 3 + nodeCost, written: 5, text: 5, at: "in:2:4"},
		// *a copies 2 values of 1 byte (a list and x), twice; *b copies
		// the list b (1 node) and two copies of a
		{in: "a: &a [x]\nb: &b [*a, *a]\nc: [*b]\n", added: 2*(2*nodeCost+1) + nodeCost + 2*(2*nodeCost+1), written: 9, text: 4, at: "in:3:5"},
		// *m copies {k: v, l: [1, 2]}: 7 values, 5 bytes, whatever the
		// merge key keeps of them
		{in: "m: &m {k: v, l: [1, 2]}\nn:\n  <<: *m\n  k: w\n", added: 7*nodeCost + 5, at: "in:3:7"},
	} {
		if c.text > 0 {
			st, err := Read([]byte(c.in), Options{File: "in"})
			if err != nil {
				t.Fatal(err)
			}
			if got := cost(st.Docs[0]) - (c.written*nodeCost + c.text); got != c.added {
				t.Errorf("%q: the expanded tree says aliases added %d, want %d", c.in, got, c.added)
			}
		}
		lim := DefaultLimits()
		lim.MaxExpanded = c.added
		if _, err := Read([]byte(c.in), Options{File: "in", Limits: &lim}); err != nil {
			t.Errorf("%q with MaxExpanded %d (what it adds): %v", c.in, c.added, err)
		}
		lim.MaxExpanded = c.added - 1
		_, err := Read([]byte(c.in), Options{File: "in", Limits: &lim})
		var se *SyntaxError
		if !errors.As(err, &se) || se.Limit != "expanded" || fmt.Sprintf("%s:%d:%d", se.Pos.File, se.Pos.Line, se.Pos.Column) != c.at {
			t.Errorf("%q with MaxExpanded %d: %v, want an \"expanded\" limit error at %s", c.in, c.added-1, err, c.at)
		}
	}
	// the cost is the stream's: two documents each adding d fail together
	one := "a: &a xyz\nb: *a\n"
	d := 3 + nodeCost
	lim := DefaultLimits()
	lim.MaxExpanded = 2*d - 1
	if _, err := Read([]byte(one), Options{File: "in", Limits: &lim}); err != nil {
		t.Fatalf("one document: %v", err)
	}
	_, err := Read([]byte(one+"---\n"+one), Options{File: "in", Limits: &lim})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Limit != "expanded" || se.Pos.Line != 5 {
		t.Errorf("two documents: %v, want an \"expanded\" limit error on line 5", err)
	}
}

// hostile returns inputs that must fail fast and small: a billion-laughs
// alias bomb (10^10 values once expanded), a 95 KB scalar and 10,000
// aliases to it (950 MB of text once expanded, in 10,001 values), and YAML
// and JSON nested 1,000 deep.
func hostile() map[string]string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return map[string]string{
		"alias bomb":      b.String(),
		"alias text bomb": "big: &a " + strings.Repeat("x", 95_000) + "\nlist: [" + strings.Repeat("*a, ", 9_999) + "*a]\n",
		"YAML 1,000 deep": "a: " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "\n",
		"YAML blocks 1,000 deep": func() string {
			var d strings.Builder
			for i := 0; i < 1000; i++ {
				d.WriteString(strings.Repeat(" ", i) + "k:\n")
			}
			return d.String()
		}(),
		"JSON 1,000 deep": strings.Repeat("[", 1000) + strings.Repeat("]", 1000),
	}
}

// TestHostileInputs: each hostile input is refused with the limit's error,
// allocating less than 100 MB (the time is measured by
// BenchmarkHostileInputs; a run of over 10 s here would be a hang).
func TestHostileInputs(t *testing.T) {
	for name, in := range hostile() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := Read([]byte(in), Options{File: "in"})
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Limit == "" {
			t.Errorf("%s: %v, want a limit error", name, err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
			t.Errorf("%s: allocated %d MB before failing", name, alloc>>20)
		}
		if elapsed > 10*time.Second {
			t.Errorf("%s: took %v to fail", name, elapsed)
		}
	}
}

func BenchmarkHostileInputs(b *testing.B) {
	inputs := hostile()
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Read([]byte(inputs[name]), Options{File: "in"}); err == nil {
					b.Fatal("accepted")
				}
			}
		})
	}
}

func TestDeepNestingIsLimited(t *testing.T) {
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	if _, err := Read([]byte(deep), Options{File: "deep.json"}); err == nil || !strings.Contains(err.Error(), "nesting deeper than") {
		t.Fatalf("JSON nested 2000 deep: %v", err)
	}
	lim := Limits{MaxDepth: 5000}
	if _, err := Read([]byte(deep), Options{File: "deep.json", Limits: &lim}); err != nil {
		t.Fatalf("with a higher limit: %v", err)
	}
}

func TestStyleRoundTrip(t *testing.T) {
	// What yaml.v3's writer keeps: comments, key order, quoting, flow style,
	// literal blocks; the input's mapping indentation and sequence style.
	for _, in := range []string{
		"# head\na: 1 # line\nb:\n- x\n- 'y'\nc: {d: \"e\"}\nf: |\n  text\n  more\n",
		"a:\n    b:\n        - 1\n        - 2\n    c: x\n",
		"a:\n  - 1\n  - 2\nb:\n  c: d\n",
	} {
		st := read(t, in)
		var out bytes.Buffer
		if err := st.WriteYAML(&out); err != nil {
			t.Fatal(err)
		}
		if out.String() != in {
			t.Errorf("round trip changed the text:\n%s\nwant:\n%s", out.String(), in)
		}
	}
}

func TestNodeHelpers(t *testing.T) {
	m := NewMap()
	MapSet(m, "a", NewString("1"))
	MapSet(m, "b", NewNull())
	MapSet(m, "a", NewString("2"))
	if len(m.Content) != 4 || MapGet(m, "a").Value != "2" {
		t.Fatalf("MapSet: %v", m.Content)
	}
	if !MapDelete(m, "a") || MapDelete(m, "a") || MapGet(m, "a") != nil {
		t.Fatal("MapDelete")
	}
	c := Clone(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{NewString("x")}})
	if c.Content[0].Value != "x" || Root(nil) != nil || KindOf(nil) != Null || BoolValue(nil) {
		t.Fatal("Clone, Root or nil handling")
	}
}

// TestDepthLimitPosition: kmerge's reader stops at the nesting limit where
// the check of a tree yaml.v3 read stops (the first node inside more
// collections than the limit), with the same error: each shape of nesting
// is read once as it is and once after an anchor, which left the stream to
// yaml.v3 until kmerge's reader read anchors too (issue 25 item 14: the
// reader followed collections to 1,000 levels, then yaml.v3 to 10,000,
// whatever the limit, and said "exceeded max depth of 10000" without a
// position). An anchored document reads as deep as the limit allows
// (issue 26: it stopped at yaml.v3's 10,000 levels).
func TestDepthLimitPosition(t *testing.T) {
	shapes := map[string]func(n int) string{
		"flow sequences": func(n int) string { return "a: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n" },
		"flow mappings":  func(n int) string { return "a: " + strings.Repeat("{k: ", n) + "v" + strings.Repeat("}", n) + "\n" },
		"block sequences": func(n int) string {
			return "a:\n" + strings.Repeat("- ", n) + "x\n"
		},
		"block mappings": func(n int) string {
			var b strings.Builder
			for i := range n {
				b.WriteString(strings.Repeat(" ", i) + "k:\n")
			}
			b.WriteString(strings.Repeat(" ", n) + "v\n")
			return b.String()
		},
		"mixed": func(n int) string {
			var b strings.Builder
			for i := range n {
				b.WriteString(strings.Repeat("  ", i) + "- k:\n")
			}
			return b.String()
		},
	}
	for _, name := range slices.Sorted(maps.Keys(shapes)) {
		for _, limit := range []int{1, 2, 3, 7, 40} {
			for _, n := range []int{limit - 1, limit, limit + 1, limit + 5} {
				if n < 1 {
					continue
				}
				lim := Limits{MaxDepth: limit}
				in := shapes[name](n)
				_, own := Read([]byte(in), Options{File: "f", Limits: &lim})
				_, v3 := Read([]byte("--- &q 1\n---\n"+in), Options{File: "f", Limits: &lim})
				var want string
				if v3 != nil {
					se := v3.(*SyntaxError)
					se.Pos.Line -= 2
					want = se.Error()
				}
				got := ""
				if own != nil {
					got = own.Error()
				}
				if got != want {
					t.Errorf("%s, %d deep, limit %d: kmerge's reader: %q; yaml.v3's tree: %q", name, n, limit, got, want)
				}
			}
		}
	}
	// deeper than yaml.v3 reads, under a limit that allows it
	lim := Limits{MaxDepth: 20000}
	in := "a: " + strings.Repeat("[", 15000) + strings.Repeat("]", 15000) + "\n"
	if _, err := Read([]byte(in), Options{File: "f", Limits: &lim}); err != nil {
		t.Errorf("15,000 deep under a limit of 20,000: %v", err)
	}
	if _, err := Read([]byte("--- &q 1\n---\n"+in), Options{File: "f", Limits: &lim}); err != nil {
		t.Errorf("15,000 deep under a limit of 20,000, after an anchor: %v", err)
	}
	lim.MaxDepth = 12000
	_, err := Read([]byte(in), Options{File: "f", Limits: &lim})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Limit != "depth" || se.Pos.Line != 1 || se.Pos.Column != 4+11999 {
		t.Errorf("15,000 deep under a limit of 12,000: %#v", err)
	}
}

// TestJSONStaysJSON: text that is JSON is read as JSON, or fails with the
// JSON error (issue 25 item 15: JSON with 1E400, out of a float64's range,
// fell back to YAML, where it is a string, and kmerge patch wrote a .json
// file back as YAML flow style); text that is not JSON and starts as JSON
// does is YAML flow style.
func TestJSONStaysJSON(t *testing.T) {
	for _, c := range []struct {
		name, in string
		format   Format
		err      string // "": reads
	}{
		{"out of range", "{\"a\": 1,\n \"big\": 1E400}\n", JSON, "f:2:9: number 1E400 is out of range"},
		{"out of range, in an array", "[{\"big\": -1e999}]", JSON, "f:1:10: number -1e999 is out of range"},
		{"out of range, a stream", "{\"a\": 1}\n{\"b\": 1e400}\n", JSON, "f:2:7: number 1e400 is out of range"},
		{"key twice", `{"a": 1, "a": 2}`, JSON, "f:1:10:"},
		{"flow style", "{a: b, \"c\": 1E400}\n", YAML, ""},
	} {
		st, err := Read([]byte(c.in), Options{File: "f"})
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.err)
		case err == nil && st.Format != c.format:
			t.Errorf("%s: read as %v, want %v", c.name, st.Format, c.format)
		}
	}
}

// TestLineSeparatorsInQuotes: a stream holding NEL, LS or PS (line breaks
// to YAML 1.1, text to 1.2) is read as yaml.v3 reads it, by kmerge's own
// reader (which refused them before, when tree gave them to yaml.v3's
// decoder), so that a file kmerge wrote (its writer writes LS in single
// quotes) reads back. Out of quotes, an LS ends the line: "b" is then a
// key without its colon, refused with the reader's error on line 2, as
// yaml.v3 refuses it.
func TestLineSeparatorsInQuotes(t *testing.T) {
	s, err := Read([]byte("k: '\u2028'\nj: \"a\u2029b\"\n"), Options{File: "f"})
	if err != nil {
		t.Fatal(err)
	}
	m := s.Docs[0].Content[0]
	if v := MapGet(m, "k"); v == nil || v.Value != "\u2028" {
		t.Errorf("k: %#v", v)
	}
	if v := MapGet(m, "j"); v == nil || v.Value != "a\u2029b" {
		t.Errorf("j: %#v", v)
	}
	_, err = Read([]byte("k: a\u2028b\n"), Options{File: "f"})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Pos.Line != 2 || se.Pos.Column != 1 || !strings.Contains(se.Msg, "a key needs a colon") {
		t.Errorf("LS in a plain scalar: %v", err)
	}
}

// nodeAt returns the node at path under n: keys of mappings, and indexes
// of one digit of list items.
func nodeAt(n *yaml.Node, path ...string) *yaml.Node {
	for _, p := range path {
		if n.Kind == yaml.SequenceNode {
			n = n.Content[int(p[0]-'0')]
		} else {
			n = MapGet(n, p)
		}
	}
	return n
}
