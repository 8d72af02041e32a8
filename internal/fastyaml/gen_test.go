package fastyaml

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// gen writes random YAML of the kind manifests are made of, with comments,
// blank lines and indentation put anywhere, to test Parse against yaml.v3
// where byte-level fuzzing rarely goes: where comments end up. Not all it
// writes is valid YAML (a comment or an indentation can break a block):
// Parse must decline what yaml.v3 rejects.
type gen struct {
	r    *rand.Rand
	b    strings.Builder
	tidy bool // comments only at the indentation of the entries around them
	seps bool // some line breaks NEL, LS or PS (a "\r\n" before some)
}

func (g *gen) chance(n int) bool { return g.r.IntN(n) == 0 }

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// comments writes zero or more comment lines and blank lines, at the
// indentation given or near it.
func (g *gen) comments(indent int) {
	for g.chance(3) {
		switch g.r.IntN(4) {
		case 0:
			g.b.WriteString("\n")
		case 1:
			off := []int{-4, -2, -1, 0, 1, 2}[g.r.IntN(6)]
			if g.tidy {
				off = 0
			}
			g.b.WriteString(strings.Repeat(" ", max(0, indent+off)) + "# c" + fmt.Sprint(g.r.IntN(100)) + "\n")
		default:
			g.b.WriteString(strings.Repeat(" ", indent) + "#" + g.pick("", " h", " head comment") + "\n")
		}
	}
}

func (g *gen) lineComment() string {
	if g.chance(4) {
		return g.pick(" # l", "  # line comment", " #")
	}
	return ""
}

func (g *gen) scalar() string {
	switch g.r.IntN(14) {
	case 0:
		return g.pick("'quoted'", "'it''s'", "''", "' a  b '")
	case 1:
		return g.pick(`"dq"`, `"esc\n\t\"x\u00e9"`, `""`, `"a  b"`)
	case 2:
		return g.pick("1", "0", "-3", "0x1F", "010", "1.5", "1e3", ".inf", "-.Inf", ".nan", "08", "1_000", "+1")
	case 3:
		return g.pick("true", "False", "yes", "no", "on", "null", "~", "Null", "<<")
	case 4:
		return g.pick("2001-12-14", "2001-12-14T21:59:43.10Z", "2001-12-14 21:59:43.10", "2002-1-1")
	case 5:
		return g.pick("a b c", "a#b", "x:y", "http://x/y", "-x", "é", "日本", "a  b")
	case 6:
		return g.pick("[]", "{}", "[a, b]", "[1, 'x', \"y\"]", "{a: 1}", "{a: 1, b: [x]}", "[ ]", "{ }")
	}
	return g.pick("v", "value", "registry.example.com/app:1.2", "app-00001", "8080m", "TCP")
}

func (g *gen) key() string {
	switch g.r.IntN(10) {
	case 0:
		return g.pick("'k q'", `"k d"`, "1", "true", "null", "<<")
	case 1:
		return g.pick("a b", "example.com/owner", "k-é")
	}
	return g.pick("a", "b", "name", "image", "spec", "metadata", "labels", "x", "y", "z")
}

// node writes a block node at indent, after a key or a dash (inline is
// whether it starts on the line of the key or dash).
func (g *gen) node(indent, depth int) {
	if depth > 4 || g.chance(3) {
		// A scalar, a flow collection or a block scalar on this line.
		if g.chance(8) {
			g.b.WriteString(" " + g.pick("|", ">", "|-", ">-", "|+", ">+", "|2", ">1-") + g.lineComment() + "\n")
			ind := indent + []int{2, 2, 4, 1}[g.r.IntN(4)]
			n := g.r.IntN(4)
			for i := 0; i < n; i++ {
				switch r := g.r.IntN(5); {
				case r == 0:
					g.b.WriteString("\n")
				case r == 1 && i > 0:
					g.b.WriteString(strings.Repeat(" ", ind+2) + "more\n")
				default:
					g.b.WriteString(strings.Repeat(" ", ind) + g.pick("line", "two words", "# not a comment", "x: y") + g.pick("", " ") + "\n")
				}
			}
			return
		}
		if g.chance(10) {
			g.b.WriteString(g.lineComment() + "\n") // an empty value
			return
		}
		v := g.scalar()
		if c := v[0]; c != '[' && c != '{' && c != '\'' && c != '"' && g.chance(12) {
			// a plain scalar continued on the next line
			v += "\n" + strings.Repeat(" ", indent+2) + "continued"
		}
		g.b.WriteString(" " + v + g.lineComment() + "\n")
		return
	}
	g.b.WriteString(g.lineComment() + "\n")
	if !g.tidy {
		g.comments(indent + 2)
	}
	step := 2
	if g.chance(5) {
		step = g.r.IntN(4) + 1
	}
	if g.chance(2) {
		g.mapping(indent+step, depth+1)
	} else {
		seqIndent := indent + step
		if g.chance(2) {
			seqIndent = indent // kubectl's style: the dash at the key's column
		}
		g.sequence(seqIndent, depth+1)
	}
}

func (g *gen) mapping(indent, depth int) {
	n := 1 + g.r.IntN(4)
	for i := 0; i < n; i++ {
		if i > 0 || g.tidy {
			g.comments(indent)
		}
		g.b.WriteString(strings.Repeat(" ", indent) + g.key() + ":")
		g.node(indent, depth)
	}
	g.comments(indent)
}

func (g *gen) sequence(indent, depth int) {
	n := 1 + g.r.IntN(4)
	for i := 0; i < n; i++ {
		if i > 0 || g.tidy {
			g.comments(indent)
		}
		g.b.WriteString(strings.Repeat(" ", indent) + "-")
		switch g.r.IntN(4) {
		case 0:
			// a mapping starting on the dash's line
			g.b.WriteString(" " + g.key() + ":")
			g.node(indent+2, depth+1)
			if g.chance(2) {
				g.comments(indent + 2)
				g.b.WriteString(strings.Repeat(" ", indent+2) + g.key() + "2:")
				g.node(indent+2, depth+1)
			}
		case 1:
			if g.chance(3) {
				g.b.WriteString(" #" + g.pick("", " dash comment"))
			}
			g.node(indent, depth)
		default:
			g.node(indent, depth)
		}
	}
	g.comments(indent)
}

// stream writes one to three documents.
func (g *gen) stream() string {
	g.b.Reset()
	g.comments(0)
	n := 1 + g.r.IntN(3)
	for i := 0; i < n; i++ {
		if i > 0 || g.chance(3) {
			g.b.WriteString(g.pick("---", "--- ", "---"+g.lineComment()) + "\n")
			g.comments(0)
		}
		if g.chance(4) {
			g.sequence(0, 1)
		} else {
			g.mapping(0, 1)
		}
		if g.chance(5) {
			g.b.WriteString("...\n")
			g.comments(0)
		}
	}
	s := g.b.String()
	if g.chance(6) {
		s = strings.TrimSuffix(s, "\n")
	}
	if g.seps {
		s = g.separators(s)
	}
	return s
}

// separators returns s with some of its line breaks made NEL, LS or PS,
// some with a "\r\n" or "\r" next to them.
func (g *gen) separators(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if !strings.HasSuffix(line, "\n") || !g.chance(4) {
			b.WriteString(line)
			continue
		}
		b.WriteString(line[:len(line)-1])
		b.WriteString(g.pick("\u0085", "\u2028", "\u2029", "\u2028", "\r\n\u2028", "\u2029\r", "\u2028\n"))
	}
	return b.String()
}

// TestGenerated compares Parse with yaml.v3 on generated YAML: streams
// with comments put anywhere, and tidy streams, with comments at the
// columns of the entries around them. Parse must read what yaml.v3 reads
// and refuse what it refuses, into the same trees but for where comments
// go in arrangements the comment rules (comment.go) do not yet follow
// yaml.v3 in: those are counted, and must stay under the bounds below.
// Streams with some line breaks made NEL, LS or PS are compared too.
func TestGenerated(t *testing.T) {
	for _, c := range []struct {
		tidy, seps bool
		percent    int // of the valid streams whose comments may go elsewhere, at most
	}{{false, false, 34}, {true, false, 23}, {true, true, 88}} {
		n := 20000
		if c.seps {
			// with NEL, LS and PS (separators): most streams have a
			// comment placed elsewhere than yaml.v3 places it (its
			// comment rules around them are followed in part only:
			// doc.go); these streams are here for the values, lines,
			// columns and refusals, which must all match
			n = 5000 // (86.9% placed; 88.1% of the first 1,000)
		}
		if testing.Short() || raceEnabled {
			n = 1000
		}
		g := &gen{r: rand.New(rand.NewPCG(1, 2)), tidy: c.tidy, seps: c.seps}
		counts := map[string]int{}
		shown := 0
		for i := 0; i < n; i++ {
			in := g.stream()
			o, d := outcome(in)
			counts[o]++
			switch o {
			case bothEqual, bothRefuse:
			case placed:
				if shown < 3 {
					shown++
					t.Logf("%s\n%q", d, in)
				}
			default:
				t.Fatalf("%s: %s\n%s", o, d, in)
			}
		}
		t.Logf("tidy %v, separators %v: %d streams: %v", c.tidy, c.seps, n, counts)
		// the bounds are set on the 20,000 streams; the first 1,000 (short
		// and race runs) are a sample whose rate swings a few points around
		// it (35.3% of the untidy ones at the bound of 34%)
		bound := c.percent
		if n < 20000 {
			bound += 3
		}
		if valid := n - counts[bothRefuse]; counts[placed]*100 > valid*bound {
			t.Errorf("tidy %v, separators %v: %d of %d valid streams read with comments elsewhere", c.tidy, c.seps, counts[placed], valid)
		}
	}
}
