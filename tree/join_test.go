package tree

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// joinFragments are streams as files hold them: with and without a final
// line break, byte order marks, markers of their own, comments before
// them, directives, block scalars that end the text, JSON.
var joinFragments = []string{
	"k: v",
	"k: v\n",
	"---\nb: 1\n",
	"--- # first\nb: 1\n",
	"---\tb\n",
	"# license\n---\nb: 1\n",
	"# license\n\n--- # first\nb: 1\n",
	"# only a comment\n",
	"# only a comment, no line break",
	"\n\n",
	"  \n",
	"\n\n# license after blank lines\n---\nb: 1\n",
	"  # an indented comment\n---\nb: 1\n",
	"   # an indented comment, alone\n",
	"\ufeffa: 1\n",
	"\ufeff---\nb: 1\n",
	"\ufeff# license\n---\nb: 1\n",
	"s: |\n  text",
	"s: |\n  text\n",
	"s: |+\n  text\n\n",
	"s: >\n  folded\n  text",
	"s: |-\n  text",
	"l:\n- |\n  item",
	"a: 1\n...\n",
	"a: 1\n...\n# after the end\n",
	"%YAML 1.1\n---\nd: 1\n",
	"# comment\n%TAG !e! tag:example.com,2000:\n---\nd: !e!x 1\n",
	`{"j": 1}`,
	"[1, 2]\n",
	"a: 1\n---\n",
	"---x: 1\n",
	"a: 1\r\nb: 2\r\n",
	"a: 1\n---\nb: 2",
	"k: 'two\n  lines'",
	"- a\n- b",
}

// docValues reads a stream and returns its documents' values, as text that
// Equal's notion of a value decides (JSON with kinds): what must survive
// a join.
func docValues(t *testing.T, name string, s []byte) []string {
	t.Helper()
	st, err := Read(s, Options{})
	if err != nil {
		t.Fatalf("%s %q does not read: %v", name, s, err)
	}
	if err := st.LoadAll(); err != nil {
		t.Fatalf("%s %q does not load: %v", name, s, err)
	}
	var out []string
	for _, d := range st.Docs {
		r := Root(d)
		if r == nil || KindOf(r) == Null {
			out = append(out, "null")
			continue
		}
		j, err := MarshalJSON(r)
		if err != nil {
			t.Fatalf("%s %q: %v", name, s, err)
		}
		out = append(out, string(j))
	}
	return out
}

// TestJoinStreams: every pair and every triple of fragments joins into a
// stream that reads as the documents of each, in order (each read alone
// is the expectation; the join must neither merge two documents, nor add
// an empty one, nor change a value), and every join holds one byte order
// mark at most, at its start.
func TestJoinStreams(t *testing.T) {
	alone := map[string][]string{}
	// and the fragments with lone CRs for line breaks (an old Mac's
	// files): "# license\r---\rb: 1\r" was one comment line to the join,
	// which joined it to the stream before without a "---", two
	// documents one mapping
	joinFragments := slices.Clone(joinFragments)
	for _, f := range joinFragments[:len(joinFragments)-8] {
		if cr := strings.ReplaceAll(f, "\n", "\r"); cr != f && !strings.Contains(f, "\r") {
			joinFragments = append(joinFragments, cr)
		}
	}
	for _, f := range joinFragments {
		alone[f] = docValues(t, "fragment", []byte(f))
	}
	check := func(parts ...string) {
		var want []string
		in := make([][]byte, len(parts))
		for i, p := range parts {
			want = append(want, alone[p]...)
			in[i] = []byte(p)
		}
		out := JoinStreams(in...)
		if _, err := Read(out, Options{}); err != nil {
			t.Errorf("JoinStreams(%q) = %q, which does not read: %v", parts, out, err)
			return
		}
		got := docValues(t, "join", out)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("JoinStreams(%q) = %q\nreads as %q\nwant     %q", parts, out, got, want)
		}
		for i := 1; i < len(out); i++ {
			if string(out[i:min(i+3, len(out))]) == bom {
				t.Errorf("JoinStreams(%q) = %q: a byte order mark at byte %d", parts, out, i)
			}
		}
	}
	for _, a := range joinFragments {
		for _, b := range joinFragments {
			check(a, b)
			check(a, "", b)
		}
	}
	for _, a := range joinFragments[:8] {
		for _, b := range joinFragments {
			for _, c := range joinFragments[len(joinFragments)-8:] {
				check(a, b, c)
			}
		}
	}
}

// TestJoinStreamsText: the text of joins, where the rule decides it: the
// first stream as it is, one --- between documents (none added where the
// next stream has its own), a line break after a stream that lacks one,
// byte order marks after the first dropped, a block scalar at the end of a
// stream without a line break rewritten (yaml.v3 writes "text" without a
// final line break as |-).
func TestJoinStreamsText(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"k: v", "---\nb: 1\n"}, "k: v\n---\nb: 1\n"}, // was "k: v---\nb: 1\n", one mapping
		{[]string{"k: v", "b: 1"}, "k: v\n---\nb: 1"},
		{[]string{"\ufeffa: 1\n", "\ufeffb: 1\n"}, "\ufeffa: 1\n---\nb: 1\n"},
		{[]string{"a: 1\n", "# license\n---\nb: 1\n"}, "a: 1\n# license\n---\nb: 1\n"},
		{[]string{"a: 1\n", "# only a comment\n", "b: 1\n"}, "a: 1\n# only a comment\n---\nb: 1\n"},
		{[]string{"a: 1\n", "%YAML 1.1\n---\nb: 1\n"}, "a: 1\n...\n%YAML 1.1\n---\nb: 1\n"},
		{[]string{"a: 1\n...\n", "%YAML 1.1\n---\nb: 1\n"}, "a: 1\n...\n%YAML 1.1\n---\nb: 1\n"},
		{[]string{"# nothing\n", "%YAML 1.1\n---\nb: 1\n"}, "# nothing\n%YAML 1.1\n---\nb: 1\n"},
		{[]string{"s: |\n  text", "b: 1\n"}, "s: |-\n  text\n---\nb: 1\n"},
		{[]string{"b: 1\n", "s: |\n  text"}, "b: 1\n---\ns: |\n  text"}, // the last keeps its end
		{[]string{"", "a: 1\n", ""}, "a: 1\n"},
		// lone CRs: the join's line breaks are CRs where no stream has an LF
		{[]string{"a: 1\r", "# license\r---\rb: 1\r"}, "a: 1\r# license\r---\rb: 1\r"},
		{[]string{"a: 1\r", "# only a comment\r", "b: 1\r"}, "a: 1\r# only a comment\r---\rb: 1\r"},
		{[]string{"k: v", "b: 1\r"}, "k: v\r---\rb: 1\r"},
		{[]string{"a: 1\r", "%YAML 1.1\r---\rb: 1\r"}, "a: 1\r...\r%YAML 1.1\r---\rb: 1\r"},
		{[]string{"a: 1\r", "\r\r  \rb: 1\r"}, "a: 1\r---\rb: 1\r"},
		{[]string{"a: 1\r", "b: 1\n"}, "a: 1\r---\nb: 1\n"},
	} {
		if got := string(JoinStreams(bytesOf(c.in)...)); got != c.want {
			t.Errorf("JoinStreams(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func bytesOf(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}
