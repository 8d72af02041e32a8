package tree

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// oldCommentedDocEnd is commentedDocEnd as it was before e038e06 (every
// line cut): the oracle of TestAttack41CommentedDocEnd.
func oldCommentedDocEnd(src []byte) bool {
	for rest := src; len(rest) > 0; {
		var line []byte
		line, rest = cutLine(rest)
		if !isMarker(line, "...") {
			continue
		}
		if len(bytes.TrimSpace(line[3:])) > 0 {
			return true
		}
		if t := bytes.TrimLeft(markerLine(rest), " \t"); len(t) > 0 && t[0] == '#' {
			return true
		}
	}
	return false
}

// TestAttack41CommentedDocEnd: commentedDocEnd searching for "..." gives
// what cutting every line gave, on texts of markers, dots, line breaks of
// every kind, comments and directives (attack, 2026-11-30).
func TestAttack41CommentedDocEnd(t *testing.T) {
	pieces := []string{"...", "....", "..", ".", "... ", "...\t", "...#", " # c", "#", "# c", "%YAML 1.1", "%TAG ! t:", "---",
		"a: 1", "a: ...", "x", " ", "\t", "\n", "\r\n", "\r", "\n", "\r\n", "\r", "\ufeff", "\u0085", "\u2028", "'...'", "\"...\""}
	r := rand.New(rand.NewPCG(41, 4))
	n := 0
	check := func(s string) {
		n++
		if got, want := commentedDocEnd([]byte(s)), oldCommentedDocEnd([]byte(s)); got != want {
			t.Errorf("commentedDocEnd(%q) = %v, the old code %v", s, got, want)
		}
	}
	for _, s := range []string{"", "...", "... #", "...\n#", "...\r#", "...\r\n#", "\r...#", "\r... #", "\n...\n%YAML 1.1\n#\n",
		"....#\n... \n#", "a\r\n...\r\n\r\n# c", "...\r\n%YAML 1.1\r\n# c\r\n---\r\n", "......", "...... #", ". ..", "\n.. .#"} {
		check(s)
	}
	for range 200000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		check(b.String())
	}
	// every text of up to 7 bytes of a small alphabet
	alpha := []byte(".\n\r #%a\t")
	var gen func(prefix []byte, left int)
	gen = func(prefix []byte, left int) {
		check(string(prefix))
		if left == 0 {
			return
		}
		for _, c := range alpha {
			gen(append(prefix, c), left-1)
		}
	}
	gen(nil, 7)
	t.Logf("%d texts", n)
}

// TestAttack41EqualIsKeys: for scalars, Equal(a, b) exactly when Key(a) ==
// Key(b) (value.go's definition), on texts of every kind and tag, read
// and built by hand (attack, 2026-11-30).
func TestAttack41EqualIsKeys(t *testing.T) {
	texts := []string{"", "0", "-0", "+0", "00", "0.0", "-0.0", "0e0", "1", "01", "1.0", "1e0", "1_0", "10", "0x10", "0o10", "0b10", "010",
		"0x_1", "-1", "+1", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "1e400", "-1e400", "1e-400", ".inf", ".Inf", "+.inf", "-.inf", ".nan", ".NaN",
		"NaN", "nan", "inf", "Infinity", "true", "True", "TRUE", "tRue", "false", "False", "FALSE", "yes", "no", "on", "~", "null",
		"Null", "NULL", "x", " x", "1_000", "1__0", "_1", "1_", "0x1F", "0X1F", "1.5", "1.50", "0.1", "0.10000000000000001", "3.",
		".5", "+.5", "1e3", "1E3", "1000.0", "2001-12-14", "0b", "0x", "-0x10", "0.", "-.0", "0x1p3", "1i", "٣"}
	tags := []string{"", "!!str", "!!int", "!!float", "!!bool", "!!null", "!t", "!", "!!binary", "!!timestamp"}
	var nodes, wrapped []*yaml.Node // (wrapped: behind an alias or a document, compared with the others)
	for _, s := range texts {
		for _, tag := range tags {
			nodes = append(nodes, &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s})
			nodes = append(nodes, &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s, Style: yaml.DoubleQuotedStyle})
		}
		// as read: plain, quoted, tagged
		for _, src := range []string{s, fmt.Sprintf("%q", s), "!!int " + s, "!!float " + s, "!!bool " + s, "!!null " + s, "!!str " + s} {
			st, err := Read([]byte("v: "+src+"\n"), Options{})
			if err == nil && len(st.Docs) == 1 {
				if v := MapGet(Root(st.Docs[0]), "v"); v != nil {
					nodes = append(nodes, v)
					wrapped = append(wrapped, &yaml.Node{Kind: yaml.AliasNode, Alias: v}, &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{v}})
				}
			}
		}
	}
	nodes = append(nodes, nil, &yaml.Node{Kind: yaml.DocumentNode})
	type scalar struct {
		n    *yaml.Node
		kind Kind
		key  string
	}
	scalars := func(nodes []*yaml.Node) []scalar {
		var out []scalar
		for _, n := range nodes {
			if k := KindOf(n); k.Scalar() {
				out = append(out, scalar{n, k, Key(n)})
			}
		}
		return out
	}
	as, bs := scalars(append(nodes, wrapped...)), scalars(nodes)
	n := 0
	for _, a := range as {
		for _, b := range bs {
			if a.kind != b.kind && (len(a.key)+len(b.key))%16 != 0 {
				continue // (of other kinds, a few)
			}
			n++
			if got, want := Equal(a.n, b.n), a.key == b.key; got != want {
				t.Fatalf("Equal(%s, %s) = %v, Keys %q %q", desc(a.n), desc(b.n), got, a.key, b.key)
			}
		}
	}
	t.Logf("%d pairs of %d scalars", n, len(nodes))
}

func desc(n *yaml.Node) string {
	if n == nil {
		return "nil"
	}
	d := Deref(n)
	if d == nil {
		return fmt.Sprintf("kind %d → nil", n.Kind)
	}
	return fmt.Sprintf("kind %d %q %q", n.Kind, d.Tag, d.Value)
}

// TestAttack41Fingerprints: list items' fingerprints (itemFingerprint)
// are equal for identical items, differ for items that differ in any
// field identical compares (a tag, a value, an anchor, a comment, a
// style, children's order), and an item's entries' hashes are equal
// exactly when the entries are identical; itemInfos gives identical items
// one class and others another (attack, 2026-11-30).
func TestAttack41Fingerprints(t *testing.T) {
	srcs := []string{
		"- a: 1\n  b: 2\n- b: 2\n  a: 1\n- a: 1\n  b: 2\n- {a: 1, b: 2}\n- a: '1'\n  b: 2\n- a: !!str 1\n  b: 2\n",
		"- [1, 2]\n- [2, 1]\n- [1, [2]]\n- [[1], 2]\n- [1, 2]\n- - 1\n  - 2\n- []\n- {}\n- ''\n- \n- ~\n- \"\"\n",
		"- &a x\n- *a\n- x\n- !x x\n- ! x\n- x # c\n- # h\n  x\n- |\n  x\n- >\n  x\n",
		"- a:\n  b:\n- a: \n  b: ''\n- ? a\n  : b\n- a: b\n- {a: b}\n- {a: [b]}\n- {a: [], b: {}}\n- {a: {}, b: []}\n",
		"- k: &x v\n- k: v\n- k: *x\n- ? a\n  : b\n- ? b\n  : a\n- a: b\n  c: d\n- a: d\n  c: b\n- c: d\n  a: b\n",
		"- ''\n- ' '\n- '  '\n- x\n- 'x'\n- \"x\"\n- !!str x\n- !!int 1\n- 1\n- !!float 1\n- 1.0\n",
		"- 0:\n  #\n   !\n  00:\n- 0: !\n  00:\n- 0:\n  00:\n",
	}
	var items []*yaml.Node
	for _, s := range srcs {
		st := read(t, s)
		items = append(items, Root(st.Docs[0]).Content...)
	}
	// mutants: each field of each node changed in turn
	r := rand.New(rand.NewPCG(41, 3))
	var all []*yaml.Node
	var nodes func(n *yaml.Node) []*yaml.Node
	nodes = func(n *yaml.Node) []*yaml.Node {
		out := []*yaml.Node{n}
		if n.Kind != yaml.AliasNode {
			for _, c := range n.Content {
				out = append(out, nodes(c)...)
			}
		}
		return out
	}
	for _, x := range items {
		all = append(all, x, copyTree(x))
		for range 8 {
			y := copyTree(x)
			ns := nodes(y)
			n := ns[r.IntN(len(ns))]
			if n.Kind == yaml.AliasNode {
				continue
			}
			switch r.IntN(10) {
			case 0:
				n.Tag += "x"
			case 1:
				n.Value += "x"
			case 2:
				n.Anchor += "a"
			case 3:
				n.HeadComment += "#"
			case 4:
				n.LineComment += "#"
			case 5:
				n.FootComment += "#"
			case 6:
				n.Style ^= yaml.FlowStyle
			case 7:
				if len(n.Content) >= 2 {
					n.Content[0], n.Content[1] = n.Content[1], n.Content[0]
				}
			case 8:
				// a text moved to another field: a value "a" is not a tag "a"
				n.Tag, n.Value = n.Value, n.Tag
			case 9:
				n.HeadComment, n.FootComment = n.FootComment, n.HeadComment
			}
			all = append(all, y)
		}
	}
	n := 0
	for range 20 {
		ia, _ := itemInfos(all, nil)
		_, ib := itemInfos(nil, all)
		seed := maphash.MakeSeed()
		for i, x := range all {
			hx, ex := itemFingerprint(seed, x)
			if hx != fingerprint(seed, x) {
				t.Fatalf("itemFingerprint and fingerprint differ for %s", yamlText(x))
			}
			for j, y := range all {
				n++
				hy, ey := itemFingerprint(seed, y)
				id := identical(x, y)
				if id && hx != hy || !id && hx == hy && !hasAlias(x) && !hasAlias(y) {
					t.Fatalf("identical %v, fingerprints %x %x:\n%s\n%s", id, hx, hy, yamlText(x), yamlText(y))
				}
				if (ia[i].class == ia[j].class) != (id || i == j) || (ib[i].class == ib[j].class) != (ia[i].class == ia[j].class) {
					t.Fatalf("classes %d %d, identical %v:\n%s\n%s", ia[i].class, ia[j].class, id, yamlText(x), yamlText(y))
				}
				for a := range ex {
					for b := range ey {
						same := identical(x.Content[2*a], y.Content[2*b]) && identical(x.Content[2*a+1], y.Content[2*b+1])
						if same != (ex[a] == ey[b]) && !hasAlias(x) && !hasAlias(y) {
							t.Fatalf("entries %d of %s and %d of %s: identical %v, hashes %x %x", a, yamlText(x), b, yamlText(y), same, ex[a], ey[b])
						}
					}
				}
			}
		}
	}
	t.Logf("%d pairs of %d items", n, len(all))
}

func yamlText(n *yaml.Node) string {
	b, err := yaml.Marshal(n)
	if err != nil {
		return fmt.Sprint(err)
	}
	return fmt.Sprintf("%q", b)
}

// hostileGen writes streams of block collections whose values sit among
// comments: comment lines between a key and its value, properties (tags,
// "!", anchors) alone on lines, empty values and items, explicit keys,
// flow collections, documents after "---" and "...".
type hostileGen struct {
	r   *rand.Rand
	b   strings.Builder
	ind string // the indentation of the value being written
}

var hostileComments = []string{"#", "# c", "#k: v", "# - x"}

func (g *hostileGen) pick(s ...string) string { return s[g.r.IntN(len(s))] }

func (g *hostileGen) comments(ind string) {
	for g.r.IntN(3) == 0 {
		switch g.r.IntN(4) {
		case 0:
			g.b.WriteString("\n")
		case 1:
			g.b.WriteString(ind + g.pick(hostileComments...) + "\n")
		case 2:
			g.b.WriteString(ind[:len(ind)/2] + g.pick(hostileComments...) + "\n")
		default:
			g.b.WriteString(g.pick(hostileComments...) + "\n")
		}
	}
}

func (g *hostileGen) eol() {
	if g.r.IntN(4) == 0 {
		g.b.WriteString(" " + g.pick(hostileComments...))
	}
	g.b.WriteString("\n")
}

// props writes properties or none, a blank after them.
func (g *hostileGen) props() string {
	switch g.r.IntN(8) {
	case 0:
		return "! "
	case 1:
		return "!t "
	case 2:
		return "!!null "
	case 3:
		return fmt.Sprintf("&a%d ", g.r.IntN(1000))
	case 4:
		return "!!str "
	}
	return ""
}

func (g *hostileGen) scalar() string {
	// (no flow collections: the writer writes a key's line comment and
	// its flow value's on one line, TestReplaceValuesGenerated)
	return g.pick("", "", "x", "1", "''", "\"\"", "~", "'q'", "y z", "null", "0", "|\n"+g.ind+"   lit", ">-\n"+g.ind+"   f\n\n"+g.ind+"   g")
}

// value writes what follows "key:" or "-" in a collection at ind.
func (g *hostileGen) value(ind string, depth int) {
	g.ind = ind
	switch k := g.r.IntN(8); {
	case depth < 3 && k < 3:
		// a collection on the lines after, properties maybe on the line
		if p := g.props(); p != "" && g.r.IntN(2) == 0 {
			g.b.WriteString(" " + strings.TrimSpace(p))
		}
		g.eol()
		g.comments(ind + "  ")
		if k == 0 {
			g.sequence(ind+g.pick("  ", ""), depth+1)
		} else {
			g.mapping(ind+"  ", depth+1)
		}
	case k < 5:
		// a scalar or properties on a line after, comment lines between
		g.eol()
		g.comments(ind + "  ")
		if g.r.IntN(2) == 0 {
			g.b.WriteString(ind + "  " + g.pick(hostileComments...) + "\n")
		}
		g.b.WriteString(ind + "  " + strings.TrimSpace(g.props()+g.scalar()))
		g.eol()
	default:
		if s := strings.TrimSpace(g.props() + g.scalar()); s != "" {
			g.b.WriteString(" " + s)
		}
		g.eol()
	}
	g.comments(ind)
}

func (g *hostileGen) mapping(ind string, depth int) {
	for i := range 1 + g.r.IntN(3) {
		switch g.r.IntN(10) {
		case 0:
			fmt.Fprintf(&g.b, "%s? k%d", ind, i)
			g.eol()
			g.comments(ind)
			g.b.WriteString(ind + ":")
		case 1:
			fmt.Fprintf(&g.b, "%s\"k%d\":", ind, i)
		default:
			fmt.Fprintf(&g.b, "%sk%d:", ind, i)
		}
		g.value(ind, depth)
	}
}

func (g *hostileGen) sequence(ind string, depth int) {
	for range 1 + g.r.IntN(3) {
		g.b.WriteString(ind + "-")
		g.value(ind, depth)
	}
}

func (g *hostileGen) stream() string {
	g.b.Reset()
	for d := range 1 + g.r.IntN(3) {
		if d > 0 || g.r.IntN(4) == 0 {
			if d > 0 && g.r.IntN(4) == 0 {
				g.b.WriteString("..." + g.pick("", " # e") + "\n")
				g.comments("")
			}
			g.b.WriteString("---")
			g.eol()
		}
		g.comments("")
		if g.r.IntN(4) == 0 {
			g.sequence("", 0)
		} else {
			g.mapping("", 0)
		}
	}
	s := g.b.String()
	switch g.r.IntN(6) {
	case 0:
		s = strings.ReplaceAll(s, "\n", "\r\n")
	case 1:
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

// TestAttack41Hostile: replaceRandom and removeRandom (values set,
// entries removed and added) on hostileGen's streams: every output reads
// as the edited documents, a document written in place with every comment
// on its node (attack, 2026-11-30).
func TestAttack41Hostile(t *testing.T) {
	var s1 uint64 = 41
	if v := os.Getenv("ATTACK41_SEED"); v != "" {
		fmt.Sscan(v, &s1)
		fmt.Sscan(os.Getenv("ATTACK41_N"), &attack41Streams)
	}
	g := &hostileGen{r: rand.New(rand.NewPCG(s1, 1))}
	counts, removed := map[outcome]int{}, map[outcome]int{}
	read := 0
	for i := range attack41Streams {
		in := g.stream()
		if _, err := Read([]byte(in), Options{}); err != nil {
			continue
		}
		read++
		if !t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, o := range replaceRandom(t, []byte(in), uint64(i)) {
				counts[o]++
			}
			for _, o := range removeRandom(t, []byte(in), uint64(i)) {
				removed[o]++
			}
		}) {
			if os.Getenv("ATTACK41_SEED") != "" {
				t.Logf("FAILED input %q (seed %d)", in, i)
				continue
			}
			t.Fatalf("input %q (seed %d)", in, i)
		}
	}
	t.Logf("%d streams read; outcomes: values %v, removals %v", read, counts, removed)
}

var attack41Streams = 3000

// TestAttack41InPlaceComments: texts of byte-range edits that yaml.v3
// read with a comment on another node than the edited tree's, written
// by replaceValues itself (checkInPlace's standard: the stream's
// read-back would take another way): a comment on the line of an item
// above a nested first item given to its first scalar, then to a new
// item before it; CRLF texts, whose comments yaml.v3 places by the lines
// cut or inserted around them; a comment above empty values given to the
// first node after them with text, then to a value replacing one of them
// (attack, 2026-11-30).
func TestAttack41InPlaceComments(t *testing.T) {
	// at is the node at path in the document: keys, and item indexes of
	// one digit
	at := func(st *Stream, path ...string) *yaml.Node {
		n := Root(st.Docs[0])
		n = nodeAt(n, path...)
		return n
	}
	str := func(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
	// add inserts "new: x" (or the item x) first in the collection at path
	add := func(path ...string) func(st *Stream) {
		return func(st *Stream) {
			n := at(st, path...)
			if n.Kind == yaml.MappingNode {
				n.Content = append([]*yaml.Node{str("new"), str("x")}, n.Content...)
			} else {
				n.Content = append([]*yaml.Node{str("x")}, n.Content...)
			}
		}
	}
	set := func(path ...string) func(st *Stream) {
		return func(st *Stream) {
			n := at(st, path...)
			n.Value, n.Tag, n.Style = "x", "!!str", 0
		}
	}
	for _, c := range []struct {
		in   string
		edit func(*Stream)
	}{
		{"- #\n  - &a\n    - y\n", add("0")},                         // "#" is y's head comment
		{"k1:\r\n  - a\r\n#\r\n  -\r\n    k: y\r\n", add("k1", "1")}, // "#" is k's foot comment
		{"k0: ''\r\n#\r\nk1: y\r\n", add()},                          // "#" is k1's head comment, then k0's foot comment
		{"#\n- !\n- !\n- a\n", set("1")},                             // "#" is a's head comment, then x's
		{"#\n- !\n- !\n- - a\n", set("1")},
	} {
		st := read(t, c.in)
		st.Snapshot()
		c.edit(st)
		if direct, ok := replaceAll(st); ok {
			docs, err := readYAML(direct, "", Limits{})
			if err != nil || len(docs) != 1 || !Equal(docs[0], st.Docs[0]) {
				t.Errorf("%q: written in place %q, which reads otherwise", c.in, direct)
			} else if p := commentsDiffer(docs[0], st.Docs[0]); p != "" {
				t.Errorf("%q: written in place %q, which reads with the comments of %s otherwise", c.in, direct, p)
			}
		}
		out, outcomes, err := st.preserved()
		if err != nil {
			t.Fatal(err)
		}
		checkReadsAs(t, out, st, outcomes)
	}
}
