package fastyaml

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// The outcomes of reading one input with Parse and with yaml.v3's Decoder.
const (
	bothEqual   = "equal"         // both read it, into the same trees
	bothRefuse  = "refused"       // both refuse it
	refusedOnly = "refuses"       // Parse refuses what yaml.v3 reads: a deliberate refusal (OnPurpose)
	readOnly    = "reads"         // Parse reads what yaml.v3 refuses: a deliberate reading (readings)
	treesDiffer = "differ"        // both read it, into other trees: a bug
	placed      = "placed"        // both read it, into trees that differ in which nodes hold which comments only
	slotted     = "slotted"       // both read it, into trees that differ in the position of a flow pair's empty value only (pairNulls)
	ended       = "ended"         // both read it, into trees that differ in the position of a mapping's empty value at the stream's end only (endNulls)
	wrongRefuse = "WRONG-refuses" // Parse refuses what yaml.v3 reads, for no documented reason: a bug
	wrongRead   = "WRONG-reads"   // Parse reads what yaml.v3 refuses, for no documented reason: a bug
	bad         = "BAD"           // Parse panicked, or gave an error without a position
)

// readings say whether an input yaml.v3 refuses is one kmerge reads on
// purpose: YAML 1.2 that yaml.v3 refuses (an escaped slash), a %YAML
// directive of a later 1.x than 1.2 (read as 1.2, with a warning from
// package tree).
func reading(in string) bool {
	return escapedSlash.MatchString(in) || laterVersion.MatchString(in)
}

var (
	escapedSlash = regexp.MustCompile(`\\/`)
	laterVersion = regexp.MustCompile(`(?m)(^|\r)%YAML[ \t]+0?1\.0?([3-9]|[1-9][0-9])([ \t\r]|$)`) // (lines ended by a lone CR too: FuzzDifferential, 2026-11-29)
)

// outcome reads in with Parse (dropping the comments yaml.v3 drops, so
// that the rest of the trees can be compared) and with yaml.v3, and says
// how they compare, with what differs.
func outcome(in string) (string, string) {
	got, _, err := parse([]byte(in), 0, true, false)
	want, werr := decodeV3([]byte(in))
	if err != nil {
		var e *Error
		var td *TooDeep
		switch {
		case errors.As(err, &td):
		case !errors.As(err, &e) || strings.HasPrefix(e.Msg, internalError) || e.Line < 1 || e.Column < 1:
			return bad, err.Error()
		}
		if werr != nil {
			return bothRefuse, ""
		}
		if OnPurpose(e.Msg) {
			return refusedOnly, err.Error()
		}
		return wrongRefuse, err.Error()
	}
	if werr != nil {
		if reading(in) {
			return readOnly, werr.Error()
		}
		return wrongRead, werr.Error()
	}
	if d := diffDocs(got, want); d != "" {
		if pairNulls(got, want) && diffDocs(got, want) == "" {
			return slotted, d
		}
		if endNulls(got, want, in) && diffDocs(got, want) == "" {
			return ended, d
		}
		// (with either, the trees may still differ in comments only:
		// placed)
		kept, _ := Parse([]byte(in), 0) // every comment, none dropped
		if commentsOnly(kept, want) {
			return placed, d
		}
		return treesDiffer, d
	}
	return bothEqual, ""
}

// pairNulls gives want's empty values of pairs in flow sequences (the
// null of "a" in `["a":, b]`) got's line and column, where the two trees
// have the same shape around them, and reports whether it changed one.
//
// Parse puts such a null at its ':', as yaml.v3 does in most streams. In
// others yaml.v3 gives it the position of a later token, one that depends
// on how many tokens its scanner has queued: `[\n"a":, b]` puts it at the
// b, `["a":, b]` at the ':'. Its parser keeps a pointer to the ':' token
// while it reads the next one, and the queue may have moved its tokens in
// between (found by FuzzDifferential, `[\n[]:]`): a position no rule of
// the text gives, which kmerge does not copy.
func pairNulls(got, want []*yaml.Node) bool {
	return sameShapes(got, want, func(g, w *yaml.Node) bool {
		if g.Kind != yaml.SequenceNode || g.Style&yaml.FlowStyle == 0 {
			return false
		}
		changed := false
		for i, gp := range g.Content {
			wp := w.Content[i]
			if gp.Kind != yaml.MappingNode || wp.Kind != yaml.MappingNode || gp.Style&yaml.FlowStyle == 0 || len(gp.Content) != 2 || len(wp.Content) != 2 {
				continue
			}
			gv, wv := gp.Content[1], wp.Content[1]
			if bareNull(gv) && bareNull(wv) && (gv.Line != wv.Line || gv.Column != wv.Column) {
				wv.Line, wv.Column = gv.Line, gv.Column
				changed = true
			}
		}
		return changed
	})
}

// sameShapes calls visit on each pair of nodes of got and want at the same
// place, where the two trees have the same kinds and lengths down to it,
// and reports whether a call reported a change.
func sameShapes(got, want []*yaml.Node, visit func(g, w *yaml.Node) bool) bool {
	changed := false
	var walk func(g, w *yaml.Node)
	walk = func(g, w *yaml.Node) {
		if g == nil || w == nil || g.Kind != w.Kind || len(g.Content) != len(w.Content) {
			return
		}
		changed = visit(g, w) || changed
		for i := range g.Content {
			walk(g.Content[i], w.Content[i])
		}
	}
	if len(got) == len(want) {
		for i := range got {
			walk(got[i], want[i])
		}
	}
	return changed
}

// endNulls gives want's empty values of mappings that yaml.v3 puts
// elsewhere in the comment lines after them got's line and column, where
// the two trees have the same shape around them and nothing but blanks,
// line breaks and comments lies between the two places (commentsBetween),
// and reports whether it changed one.
//
// yaml.v3 puts the null of an explicit key without a value ("? a") at the
// stream's end when only comment lines follow it, indented more than the
// '?' ("? a\n #c\n": line 3, column 1), and gives those comments to other
// nodes than the lines around them would (to the mapping's first key in
// "x: 1\n? a\n #c\n"); Parse puts the null at the first comment's '#'.
// When the stream ends without a line break after such comment lines, the
// other way round in places: Parse puts it at the end, yaml.v3 at a
// comment's '#' ("   ? 0\n #": line 2, column 2, where "  ? 0\n #" has it
// at the end; FuzzDifferential, 2026-11-29). Before comment paragraphs
// (comment lines, a blank line, comment lines), yaml.v3 puts it a column
// after the '#' of the second paragraph's first comment, on the blank
// line's line with LF ("  ? a\n #c1\n\n  #c2\n": line 3, column 4) and on
// the line after the last with CRLF (line 5, column 4): a place its
// scanner's queue gives, no rule of the text (a helper's hunt, 2026-11-29).
// A known difference (docs/ARCHITECTURE.md; TestEmptyValueOfComplexKey
// holds the arrangements matched, TestNullPositions those named).
func endNulls(got, want []*yaml.Node, in string) bool {
	lines := textLines(in)
	return sameShapes(got, want, func(g, w *yaml.Node) bool {
		if g.Kind != yaml.MappingNode {
			return false
		}
		changed := false
		for i := 1; i < len(g.Content); i += 2 {
			gv, wv := g.Content[i], w.Content[i]
			if !bareNull(gv) || !bareNull(wv) || gv.Line == wv.Line && gv.Column == wv.Column {
				continue
			}
			if commentsBetween(lines, gv, wv) {
				wv.Line, wv.Column = gv.Line, gv.Column
				changed = true
			}
		}
		return changed
	})
}

// textLines returns the lines of in, ended as yaml.v3 ends them: LF, CRLF,
// a lone CR ("  ? 0\r#", FuzzDifferential, 2026-11-29).
func textLines(in string) []string {
	return strings.Split(strings.ReplaceAll(strings.ReplaceAll(in, "\r\n", "\n"), "\r", "\n"), "\n")
}

// commentsBetween reports whether nothing but blanks (spaces, tabs), line
// breaks and comments lies between the places of a and b (line and column
// from 1; a place past a line's end or past the last line is that line's
// end or the stream's end): the text from the earlier place on is, line by
// line, blank or a comment, or inside a comment begun earlier on its line.
func commentsBetween(lines []string, a, b *yaml.Node) bool {
	if b.Line < a.Line || b.Line == a.Line && b.Column < a.Column {
		a, b = b, a
	}
	for l := a.Line; l <= b.Line; l++ {
		if l < 1 {
			return false
		}
		if l > len(lines) {
			break
		}
		text := lines[l-1]
		from, to := 0, len(text)
		if l == a.Line {
			from = min(max(a.Column-1, 0), len(text))
		}
		if l == b.Line {
			to = min(max(b.Column-1, from), len(text))
		}
		if inComment(text, from) {
			continue
		}
		if rest := strings.TrimLeft(text[from:to], " \t"); rest != "" && rest[0] != '#' {
			return false
		}
	}
	return true
}

// inComment reports whether the byte at i of a line is inside a comment:
// a '#' at the line's start or after a blank comes before it.
func inComment(line string, i int) bool {
	for j := 0; j < i && j < len(line); j++ {
		if line[j] == '#' && (j == 0 || line[j-1] == ' ' || line[j-1] == '\t') {
			return true
		}
	}
	return false
}

// bareNull reports whether n is a null written as nothing, without
// properties.
func bareNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "" && n.Style == 0
}

// commentsOnly reports whether two lists of documents differ only in which
// nodes hold which comments, got holding every comment line want holds.
func commentsOnly(got, want []*yaml.Node) bool {
	g, w := commentLines(got), commentLines(want)
	for l, n := range w {
		if g[l] < n {
			return false
		}
	}
	got, want = stripped(got), stripped(want)
	return diffDocs(got, want) == ""
}

// stripped returns copies of documents without comments.
func stripped(docs []*yaml.Node) []*yaml.Node {
	var copyNode func(n *yaml.Node, seen map[*yaml.Node]*yaml.Node) *yaml.Node
	copyNode = func(n *yaml.Node, seen map[*yaml.Node]*yaml.Node) *yaml.Node {
		if n == nil {
			return nil
		}
		if c, ok := seen[n]; ok {
			return c
		}
		c := *n
		seen[n] = &c
		c.HeadComment, c.LineComment, c.FootComment = "", "", ""
		c.Content = nil
		for _, k := range n.Content {
			c.Content = append(c.Content, copyNode(k, seen))
		}
		if n.Content != nil && c.Content == nil {
			c.Content = []*yaml.Node{}
		}
		c.Alias = copyNode(n.Alias, seen)
		return &c
	}
	seen := map[*yaml.Node]*yaml.Node{}
	var out []*yaml.Node
	for _, d := range docs {
		out = append(out, copyNode(d, seen))
	}
	return out
}

// commentLines counts the lines of the comments of documents.
func commentLines(docs []*yaml.Node) map[string]int {
	m := map[string]int{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, l := range strings.Split(c, "\n") {
				if l != "" {
					m[l]++
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, d := range docs {
		walk(d)
	}
	return m
}

// mustMatch fails the test unless Parse reads in as yaml.v3 does, or
// refuses or reads it on purpose; it returns the outcome.
func mustMatch(t *testing.T, name, in string) string {
	t.Helper()
	o, d := outcome(in)
	switch o {
	case bothEqual, bothRefuse, refusedOnly, readOnly:
	default:
		t.Errorf("%s: %s: %s\n%q", name, o, d, in)
	}
	return o
}

// TestNullPositions: the null of a pair's empty value in a flow sequence
// is at its ':' (line and column counted by hand below); yaml.v3 agrees
// in some of these streams and not in others, and outcome calls the
// latter slotted, not equal and not a difference; so too an explicit
// key's null at the end of the stream (ended).
func TestNullPositions(t *testing.T) {
	for _, c := range []struct {
		in           string
		line, column int
		outcome      string
	}{
		{"[\n[]:]", 2, 3, slotted},        // yaml.v3: line 3, column 1 (the stream's end)
		{"[\n\"a\":, b]", 2, 4, slotted},  // yaml.v3: the b
		{"[\n\"a\" :, b]", 2, 5, slotted}, // yaml.v3: the b
		{"[x,\n{}:\n, c]", 2, 3, slotted}, // yaml.v3: the c
		{"[\"a\":, b]", 1, 5, bothEqual},  // the same pair on the bracket's line
		{"[\n[a]:]", 2, 4, bothEqual},     // a key that is not empty
		{"x: [\n []:]", 2, 4, bothEqual},  // a flow sequence as a value
		{"{\n[]:, b}", 2, 4, bothEqual},   // a flow mapping: its empty value at the next token, the ","
		// an explicit key without a value, comment lines more indented
		// than the '?' to the end: Parse puts the null at the first
		// comment's '#' (TestEmptyValueOfComplexKey), yaml.v3 at the
		// stream's end
		{"? a\n #c\n", 2, 2, ended},           // yaml.v3: line 3, column 1
		{"? a\r  #c\r", 2, 3, ended},          // yaml.v3: line 3, column 1
		{"? 0\n\n #c\n", 3, 2, ended},         // yaml.v3: line 4, column 1
		{"? a\n #c\nb: 1\n", 3, 1, bothEqual}, // not at the end: at the next key, as yaml.v3 has it
		// without a final line break after the comment: Parse at the
		// end, yaml.v3 at the '#' when the mapping is two columns or more
		// right of it
		{"   ? 0\n #", 3, 1, ended},    // yaml.v3: line 2, column 2
		{"  ? 0\n #", 3, 1, bothEqual}, // yaml.v3 at the end too
		// before comment paragraphs: yaml.v3 a column after the second
		// paragraph's '#', on the blank line (LF) or past the last line
		// (CRLF)
		{"  ? a\n #c1\n\n  #c2\n", 2, 2, ended},          // yaml.v3: line 3, column 4
		{"  ? a\r\n #c1\r\n\r\n  #c2\r\n", 2, 2, ended},  // yaml.v3: line 5, column 4
		{"  ? a\n #c1\n\n  #c2\n\n  #c3\n", 2, 2, ended}, // yaml.v3: line 3, column 4
		{"  ? a\n #c1\n  #c2\n", 2, 2, bothEqual},        // one paragraph
	} {
		docs, err := Parse([]byte(c.in), 0)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		var null *yaml.Node
		var find func(n *yaml.Node)
		find = func(n *yaml.Node) {
			if null == nil && n.Kind == yaml.MappingNode && len(n.Content) >= 2 && bareNull(n.Content[1]) {
				null = n.Content[1]
			}
			for _, k := range n.Content {
				find(k)
			}
		}
		find(docs[0])
		if null == nil {
			t.Fatalf("%q: no empty value", c.in)
		}
		if null.Line != c.line || null.Column != c.column {
			t.Errorf("%q: the null at %d:%d, want %d:%d", c.in, null.Line, null.Column, c.line, c.column)
		}
		if o, d := outcome(c.in); o != c.outcome {
			t.Errorf("%q: %s (%s), want %s", c.in, o, d, c.outcome)
		}
	}
}

// TestCommentsBetween holds the places endNulls lets differ to those with
// nothing but blanks and comments between them.
func TestCommentsBetween(t *testing.T) {
	for _, c := range []struct {
		in         string
		a, b       [2]int // line, column
		onlyBlanks bool
	}{
		{"? a\n #c\n", [2]int{2, 2}, [2]int{3, 1}, true},             // from a '#' to the end
		{"  ? a\n #c1\n\n  #c2\n", [2]int{3, 4}, [2]int{2, 2}, true}, // past a blank line's end
		{"? a\n #c\n", [2]int{2, 4}, [2]int{9, 1}, true},             // inside a comment, past the last line
		{"? a\n #c\nb: 1\n", [2]int{2, 2}, [2]int{4, 1}, false},      // a key between
		{"? a\n #c\n x\n", [2]int{2, 2}, [2]int{3, 3}, false},        // a scalar's text between
		{"? a\n", [2]int{1, 1}, [2]int{1, 4}, false},                 // the key itself
		{"? a\n", [2]int{1, 4}, [2]int{2, 1}, true},                  // after the key to the end
	} {
		a := &yaml.Node{Line: c.a[0], Column: c.a[1]}
		b := &yaml.Node{Line: c.b[0], Column: c.b[1]}
		if got := commentsBetween(textLines(c.in), a, b); got != c.onlyBlanks {
			t.Errorf("%q %v..%v: %v, want %v", c.in, c.a, c.b, got, c.onlyBlanks)
		}
	}
}

// TestGapAfterMarker: the comments between a --- line and what follows it
// go where yaml.v3 puts them whatever the document before ended with: a
// key without a value at another column than the first left that column
// behind (" a:\n---\n#\n!t" gave "#" to !t, yaml.v3 to the document, as
// after "a:"; FuzzOutline, 2026-11-30). Of every combination of the parts
// below that reads as yaml.v3 reads it after "a:\n", each is compared with
// yaml.v3 after the other documents (mustMatch). (Where yaml.v3 drops a
// comment the comparison is of another kind, placed: "---\n#\n!t\n#e"
// loses "#" in yaml.v3, not in kmerge.)
func TestGapAfterMarker(t *testing.T) {
	n := 0
	for _, sep := range []string{"---\n", "...\n---\n", "...\n", "--- #x\n"} {
		for _, gap := range []string{"#\n", "#\n\n", "# a\n# b\n", "  #\n", "\n#\n", " #\n\n#\n"} {
			for _, root := range []string{"!t", "&x", "!t\n", "!t &x\n", "!!null", "!t\n#e\n", "!t x", "- !t", "k: !t"} {
				rest := sep + gap + root
				if o, _ := outcome("a:\n" + rest); o != bothEqual {
					continue
				}
				for _, pre := range []string{"", " a:\n", "  a:\n", " - \n", "- \n", " ? a\n", " a: !t\n", " a:\n  b:\n", "a: 1\n", " a: #c\n"} {
					mustMatch(t, "after "+strings.TrimSpace(pre), pre+rest)
					n++
				}
			}
		}
	}
	if n < 200 {
		t.Errorf("%d streams compared: the parts changed?", n)
	}
}
