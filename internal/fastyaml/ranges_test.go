package fastyaml

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// TestRanges checks the range of every scalar of every stream the reader
// reads among the repository's YAML files, yaml.v3's test inputs, the YAML
// test suite and the hand cases below (line breaks of every kind, a byte
// order mark, properties, keys, flow collections), against what the node
// says of itself: the range starts at the node's line and column (which
// the differential tests hold to yaml.v3's), a one-line plain scalar's
// range is its value, a quoted one's ends with its quote, what follows a
// range on its line ends the node (a blank, a line break, a flow
// indicator, a colon), ranges come in the order of the text and never
// overlap; block scalars and empty nodes have none.
func TestRanges(t *testing.T) {
	inputs := map[string]string{
		"crlf":        "a: b\r\nc:\r\n  - 'd'\r\n  - \"e\" # c\r\n  - f g\r\n    h\r\n",
		"lone cr":     "a: b\rc: [d, e]\r",
		"nel":         "a: b\u0085c: \"d\" # x\u0085e: f\u0085  g\u0085",
		"ls ps":       "a: b\u2028c: 'd'\u2029e: f\u2028",
		"bom":         "\ufeffa: b\nc: \"é\"\n",
		"props":       "a: !!str 1\nb: &x 'y'\nc: !t\n  z\nd: *x\ne: !!null\n",
		"props apart": "!\n#\n0\n---\n&a\n# c\n'q'\n",
		"flow":        "a: {b: c, \"d\": 'e', f: [g, h i, \"j\"]}\nk: [l,\n  m\n  n, o]\n",
		"multi":       "---\na: b\n--- c\n...\n---\n- d\n",
		"block":       "a: |\n  x\nb: >-\n  y\n  z\nc: d\n",
		"wide":        "ключ: значение # ü\n日本: 語\n",
		"empty":       "a:\nb: ''\nc: \"\"\n- \n",
		"quote fold":  "a: 'b\n  c'\nd: \"e\\\n  f\"\n",
	}
	for _, path := range yamlFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs[path] = string(data)
	}
	for i, in := range yamlv3Inputs(t) {
		inputs[fmt.Sprintf("yaml.v3 input %d", i)] = in
	}
	for name, in := range suiteInputs(t) {
		inputs["suite "+name] = in
	}
	read, scalars := 0, 0
	for name, in := range inputs {
		docs, ranges, err := ParseRanges([]byte(in), 0)
		if err != nil {
			continue
		}
		read++
		scalars += checkRanges(t, name, in, docs, ranges)
	}
	if read < 1000 || scalars < 20000 {
		t.Fatalf("only %d streams read, %d scalars", read, scalars)
	}
	t.Logf("%d streams, %d scalars with ranges", read, scalars)
}

// checkRanges checks the ranges of the scalars of docs, read from in, and
// returns how many have one.
func checkRanges(t testing.TB, name, in string, docs []*yaml.Node, ranges *Ranges) int {
	t.Helper()
	pos := yamlPositions(in)
	offset := map[[2]int]int{} // of the first byte at each line and column
	for i := len(pos) - 1; i >= 0; i-- {
		offset[pos[i]] = i
	}
	count, last := 0, -1
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind != yaml.ScalarNode {
			if n.Kind != yaml.AliasNode {
				for _, c := range n.Content {
					walk(c)
				}
			}
			return
		}
		g, ok := ranges.Of(n)
		block := n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0
		quoted := n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0
		// (properties on a line before the text: no range either, which
		// the checks below cannot tell; a range found must be right)
		want := !block && (quoted || n.Value != "")
		if at, found := offset[[2]int{n.Line, n.Column}]; !ok && want && found && (in[at] == '!' || in[at] == '&') {
			return
		}
		if ok != want {
			t.Errorf("%s: %d:%d %q (style %d): range %v, want one: %v", name, n.Line, n.Column, n.Value, n.Style, g, want)
			return
		}
		if !ok {
			return
		}
		count++
		if g.Start < last || g.End <= g.Start || g.End > len(in) {
			t.Errorf("%s: %d:%d %q: range %v after %d", name, n.Line, n.Column, n.Value, g, last)
			return
		}
		last = g.End
		if p := pos[g.Start]; p != [2]int{n.Line, n.Column} {
			t.Errorf("%s: %q: range starts at %d:%d, the node at %d:%d", name, n.Value, p[0], p[1], n.Line, n.Column)
		}
		text := in[g.Start:g.End]
		props := n.Style&yaml.TaggedStyle != 0 || n.Anchor != "" || strings.HasPrefix(text, "!")
		switch {
		case props:
			if c := text[0]; c != '!' && c != '&' {
				t.Errorf("%s: %d:%d: range %q of a node with properties", name, n.Line, n.Column, text)
			}
		case quoted:
			q := byte('"')
			if n.Style&yaml.SingleQuotedStyle != 0 {
				q = '\''
			}
			if len(text) < 2 || text[0] != q || text[len(text)-1] != q {
				t.Errorf("%s: %d:%d: range %q of a quoted scalar", name, n.Line, n.Column, text)
			}
		case pos[g.End-1][0] == n.Line && text != n.Value:
			t.Errorf("%s: %d:%d: range %q of the plain scalar %q", name, n.Line, n.Column, text, n.Value)
		}
		if after := in[g.End:]; after != "" && !strings.ContainsAny(after[:1], " \t\r\n,]}:") && !(quoted && after[0] == '#') &&
			!strings.HasPrefix(after, "\u0085") && !strings.HasPrefix(after, "\u2028") && !strings.HasPrefix(after, "\u2029") {
			t.Errorf("%s: %d:%d: range %q followed by %q", name, n.Line, n.Column, text, after[:min(len(after), 8)])
		}
	}
	for _, d := range docs {
		walk(d)
	}
	return count
}

// yamlPositions returns the line and column (from 1, the column in
// characters) of every byte offset of in, lines ended as YAML 1.1 and
// yaml.v3 end them (LF, CRLF, a lone CR, NEL, LS, PS), a byte order mark
// at the start taking no column.
func yamlPositions(in string) [][2]int {
	pos := make([][2]int, len(in)+1)
	line, col := 1, 1
	for i := 0; i < len(in); {
		r, n := utf8.DecodeRuneInString(in[i:])
		for k := range n {
			pos[i+k] = [2]int{line, col}
		}
		i += n
		switch {
		case r == '\r' && i < len(in) && in[i] == '\n':
			pos[i] = [2]int{line, col + 1}
			i++
			line, col = line+1, 1
		case r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029:
			line, col = line+1, 1
		case r == 0xfeff && i == n:
		default:
			col++
		}
	}
	pos[len(in)] = [2]int{line, col}
	return pos
}
