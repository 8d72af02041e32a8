package tree

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// Attack of 2026-11-30 on the parse Load keeps (rangedRead): the
// document's parse with its nodes' byte ranges becomes its snapshot, and
// replaceValues uses it instead of reading the text again.

// attack43Docs are document texts (after their "---" line, if any) put
// together into streams by attack43Stream.
var attack43Docs = []string{
	"apiVersion: v1\nkind: A\nmetadata:\n  name: a\ndata:\n  k: v  # c\n  l: [1, 2]\n",
	"apiVersion: v1\nkind: B\nmetadata:\n  name: b\n  labels: {x: y}\nspec:\n  list:\n    - p\n    - q # c\n  m: |\n    text\n",
	"a: 1\nb: 2\n",
	"# head\na: 1 # line\n# foot of a\nb:\n  c: 3\n\n# foot\n",
	"x: &x 1\ny: *x\n",
	"x: &x {k: v}\ny:\n  <<: *x\n  z: 1\n",
	"b: !!binary aGk=\nc: 1\n",
	"a: &anchor 1\nb: !t 2\nc: !!str 3\n",
	"{a: 1, b: [2, 3]}\n",
	"[a, {b: c}]\n",
	"a: 1\nz: |\n  last\n",
	"a: 1\nz: |+\n  kept\n\n",
	"a: 1\nz: >-\n  folded\n  more\n",
	"- a\n- b: 1\n  c: 2\n",
	"",
	"# only a comment\n",
	"a: 'q'\nb: \"d\"\nc:\n",
	"a:\n  # inner\n  b: 1\n  # inner foot\nc: 2\n",
	"? k\n: v\nm: 1\n",
	"a: 1\n...\n",
	"a: x\n  y\nb: 2\n",
}

// attack43Seps are what goes between two documents.
var attack43Seps = []string{
	"---\n", "---\n", "---\n", "--- # c\n", "...\n---\n", "---\n# lent\n\n", "---\n# lent 1\n# lent 2\n\n",
	"...\n%YAML 1.2\n---\n", "# before\n---\n", "---\n\n", "...\n# after dots\n---\n",
}

// attack43Stream writes a random stream of attack43Docs and hostileGen's
// documents, with random separators, line breaks, BOM and ends.
func attack43Stream(r *rand.Rand, g *hostileGen) string {
	var b strings.Builder
	if r.IntN(8) == 0 {
		b.WriteString("\ufeff")
	}
	if r.IntN(8) == 0 {
		b.WriteString("%YAML 1.2\n---\n")
	} else if r.IntN(5) == 0 {
		b.WriteString("---\n")
	}
	n := 1 + r.IntN(4)
	for d := range n {
		if d > 0 {
			sep := attack43Seps[r.IntN(len(attack43Seps))]
			if s := b.String(); strings.HasPrefix(sep, "...") && strings.HasSuffix(s, "...\n") {
				sep = strings.TrimPrefix(sep, "...\n")
				if !strings.HasPrefix(sep, "---") && !strings.HasPrefix(sep, "%") {
					sep = "---\n"
				}
			}
			if s := b.String(); len(s) > 0 && !strings.HasSuffix(s, "\n") {
				b.WriteString("\n")
			}
			b.WriteString(sep)
		}
		if r.IntN(3) == 0 {
			g.r = r
			s := g.stream()
			// one document of it
			s = strings.ReplaceAll(s, "\r\n", "\n")
			if i := strings.Index(s, "\n---"); i >= 0 {
				s = s[:i+1]
			}
			if i := strings.Index(s, "\n..."); i >= 0 {
				s = s[:i+1]
			}
			s = strings.TrimPrefix(s, "---\n")
			if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
				s = "a: 1\n"
			}
			if !strings.HasSuffix(s, "\n") {
				s += "\n"
			}
			b.WriteString(s)
		} else {
			b.WriteString(attack43Docs[r.IntN(len(attack43Docs))])
		}
	}
	s := b.String()
	switch r.IntN(10) {
	case 0, 1:
		s = strings.ReplaceAll(s, "\n", "\r\n")
	case 2:
		s = strings.ReplaceAll(s, "\n", "\r")
	case 3:
		s = strings.ReplaceAll(s, "\n", "\u2028")
	case 4:
		s = strings.ReplaceAll(s, "\n", "\u0085")
	case 5:
		s = strings.ReplaceAll(s, "\n", "\u2029")
	}
	if r.IntN(4) == 0 {
		s = strings.TrimRight(s, "\r\n")
	}
	return s
}

// attack43Edit makes random edits to doc by r: values set (with tags and
// line comments), entries added (block scalars among them), removed,
// fuzzEdit's.
func attack43Edit(doc *yaml.Node, r *rand.Rand) {
	var values, maps_ []*yaml.Node
	var collect func(n *yaml.Node)
	collect = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			maps_ = append(maps_, n)
		}
		for i, c := range n.Content {
			switch {
			case c.Kind == yaml.ScalarNode && (n.Kind != yaml.MappingNode || i%2 == 1):
				values = append(values, c)
			case c.Kind != yaml.AliasNode:
				collect(c)
			}
		}
	}
	collect(doc)
	for range 1 + r.IntN(3) {
		switch k := r.IntN(6); {
		case k <= 1 && len(values) > 0:
			v := values[r.IntN(len(values))]
			v.Value = replacements[r.IntN(len(replacements))]
			v.Tag, v.Style = resolveText(v.Value), 0
			if v.Tag == "!!null" {
				v.Tag = "!!str"
			}
			if r.IntN(4) == 0 {
				v.LineComment = lineComments[r.IntN(len(lineComments))]
			}
		case k == 2 && len(maps_) > 0:
			m := maps_[r.IntN(len(maps_))]
			val := NewString([]string{"v", "two\nlines\n", "x"}[r.IntN(3)])
			if r.IntN(3) == 0 {
				val = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{NewString("in"), NewString("1")}}
			}
			MapSet(m, fmt.Sprintf("new%d", r.IntN(3)), val)
		case k == 3 && len(maps_) > 0:
			m := maps_[r.IntN(len(maps_))]
			if len(m.Content) >= 2 {
				j := r.IntN(len(m.Content) / 2)
				m.Content = slices.Delete(m.Content, 2*j, 2*j+2)
			}
		case k == 4 && len(values) > 0:
			values[r.IntN(len(values))].LineComment = lineComments[r.IntN(len(lineComments))]
		default:
			fuzzEdit([]*yaml.Node{doc}, uint8(r.IntN(30)))
		}
		values, maps_ = values[:0], maps_[:0]
		collect(doc)
	}
}

// attack43Run runs script on st: L loads the picked documents, U unloads
// them, A loads all, S snapshots, D drops the snapshot, R removes the
// documents next to the first picked one, 1 and 2 are rounds of edits of
// the picked documents, W writes (and checks what it wrote reads as the
// documents). It returns what each W wrote.
func attack43Run(t *testing.T, st *Stream, script string, picked []int, seed uint64, kept *bool) (outs [][]byte, bad string) {
	t.Helper()
	pristine := map[int]*yaml.Node{}
	snapped, lost := false, false // (an edit before Snapshot of a document whose parse was not kept is lost, as documented)
	for _, op := range script {
		switch op {
		case 'L':
			for _, i := range picked {
				was := st.Outlined(i)
				if err := st.Load(i); err != nil {
					t.Fatalf("Load(%d): %v", i, err)
				}
				if rr := st.rangedRead(i); rr != nil {
					pristine[i] = Clone(rr.doc)
				} else if was && kept != nil {
					*kept = false
				}
			}
		case 'U':
			for _, i := range picked {
				st.Unload(i)
			}
		case 'A':
			if err := st.LoadAll(); err != nil {
				t.Fatal(err)
			}
		case 'S':
			st.Snapshot()
			snapped = true
		case 'D':
			st.DropSnapshot()
		case 'R':
			if len(picked) > 0 {
				for _, j := range []int{picked[0] - 1, picked[0] + 1} {
					if j >= 0 && j < len(st.Docs) && !slices.Contains(picked, j) {
						st.Remove(j)
					}
				}
			}
		case '1', '2':
			if !snapped && (kept == nil || !*kept) {
				lost = true
			}
			for _, i := range picked {
				attack43Edit(st.Docs[i], rand.New(rand.NewPCG(seed, uint64(4*i)+uint64(op))))
			}
		case 'W':
			var b bytes.Buffer
			if err := st.WriteYAML(&b); err != nil {
				outs = append(outs, []byte("error: "+err.Error()))
				continue
			}
			out := b.Bytes()
			outs = append(outs, out)
			back, err := Read(out, Options{})
			k := st.kept()
			if err != nil || len(back.Docs) != len(k) {
				return outs, fmt.Sprintf("count: input %q, picked %v, seed %d, script %s: the output does not read as %d documents (%v):\n%q", st.src, picked, seed, script, len(k), err, out)
			}
			for i := range k {
				if !lost && !st.Outlined(i) && st.removed == nil && !Equal(back.Docs[i], k[i]) {
					return outs, fmt.Sprintf("input %q, picked %v, seed %d, script %s: document %d reads otherwise: %s\n%q", st.src, picked, seed, script, i, nodeDiff(back.Docs[i], k[i], "doc"), out)
				}
			}
			for i, p := range pristine {
				if rr := st.rangedRead(i); rr != nil {
					if d := nodeDiff(rr.doc, p, "doc"); d != "" {
						t.Fatalf("script %s: the kept parse of document %d changed: %s", script, i, d)
					}
				}
			}
		}
	}
	return outs, ""
}

// attack43Scripts: a script on the stream read with outlines, and the
// script on the stream read whole whose last output it must write (""
// when only reading back is checked); needKept: only when every picked
// document kept its parse.
var attack43Scripts = []struct {
	outlined, whole string
	needKept        bool
}{
	{"LS12W", "S12W", false},
	{"L1S2W", "S12W", true},
	{"SL1W2W", "S1W2W", false},
	{"LSUL12W", "S12W", false},
	{"SLUL12W", "S12W", false},
	{"LSS12W", "SS12W", false},
	{"LSA12W", "S12W", false},
	{"LSR12W", "SR12W", false},
	{"LRS12W", "SR12W", false},
	{"LSDS12W", "SDS12W", false},
	{"LDS12W", "S12W", false},
	{"LS1WS2W", "-S1WS2W", false},
	{"L1SW", "S1W", true},
	{"LS1W2WW", "S1W2WW", false},
}

var attack43N = 300

// TestAttack43Scripts runs attack43Scripts on generated streams and the
// outline inputs.
func TestAttack43Scripts(t *testing.T) {
	var s1 uint64 = 43
	if v := os.Getenv("ATTACK43_SEED"); v != "" {
		fmt.Sscan(v, &s1)
		fmt.Sscan(os.Getenv("ATTACK43_N"), &attack43N)
	}
	r := rand.New(rand.NewPCG(s1, 7))
	g := &hostileGen{r: r}
	inputs := map[string]string{}
	for i := range attack43N {
		inputs[fmt.Sprintf("gen-%d", i)] = attack43Stream(r, g)
	}
	if os.Getenv("ATTACK43_SEED") == "" {
		for name, data := range outlineInputs(t) {
			inputs[name] = string(data)
		}
	}
	runs, outlined, keptRuns, skipped, both := 0, 0, 0, 0, 0
	seen := 0 // (raceSkip)
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		if raceSkip(&seen) {
			continue
		}
		data := []byte(inputs[name])
		if full, err := Read(data, Options{}); err != nil || full.Format != YAML {
			continue
		}
		probe, err := Read(data, Options{Outline: testOutline})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !probe.Outlines() {
			continue
		}
		outlined++
		// (WriteYAML writes an empty first document without its "---":
		// "---\n# c\n\n---\na: 1\n" is written "\n\n# c\n---\na: 1\n",
		// one document; the writer's, not this attack's)
		full, _ := Read(data, Options{})
		emptyFirst := full.empty(0)
		for k := range 3 {
			seed := uint64(k)*1000 + uint64(len(data))
			pr := rand.New(rand.NewPCG(seed, 1000))
			var picked []int
			for i := range probe.Docs {
				if pr.IntN(2) == 0 {
					picked = append(picked, i)
				}
			}
			if len(picked) == 0 {
				picked = []int{pr.IntN(len(probe.Docs))}
			}
			for _, sc := range attack43Scripts {
				st, _ := Read(data, Options{Outline: testOutline})
				kept := true
				got, bad := attack43Run(t, st, sc.outlined, picked, seed, &kept)
				runs++
				if kept {
					keptRuns++
				}
				full, _ := Read(data, Options{})
				want, wbad := attack43Run(t, full, strings.TrimPrefix(sc.whole, "-"), picked, seed, nil)
				if bad != "" {
					if wbad != "" && bytes.Equal(got[len(got)-1], want[len(want)-1]) ||
						strings.HasPrefix(bad, "count:") && emptyFirst {
						both++ // (the writer's, not the outline's: see the report)
						continue
					}
					t.Fatalf("%s, script %s: %s", name, sc.outlined, bad)
				}
				if strings.HasPrefix(sc.whole, "-") || sc.needKept && !kept {
					skipped++
					continue
				}
				if g, w := got[len(got)-1], want[len(want)-1]; !bytes.Equal(g, w) {
					t.Errorf("%s (%q), picked %v, seed %d, script %s: written otherwise than %s on the stream read whole:\n%s", name, data, picked, seed, sc.outlined, sc.whole, unified(w, g))
				}
			}
		}
	}
	t.Logf("%d inputs outlined, %d runs (%d with every picked parse kept), %d not compared, %d written wrong read whole too", outlined, runs, keptRuns, skipped, both)
}

// TestAttack43Concurrent: streams read, loaded, edited and written in
// goroutines of their own (go test -race): no state is shared.
func TestAttack43Concurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 43))
	g := &hostileGen{r: r}
	var inputs []string
	for range 40 {
		inputs = append(inputs, attack43Stream(r, g))
	}
	want := make([][]byte, len(inputs))
	run := func(k int) []byte {
		st, err := Read([]byte(inputs[k]), Options{Outline: testOutline})
		if err != nil {
			return nil
		}
		for i := range st.Docs {
			_ = st.Load(i)
		}
		st.Snapshot()
		for i := range st.Docs {
			attack43Edit(st.Docs[i], rand.New(rand.NewPCG(uint64(k), uint64(i))))
		}
		var b bytes.Buffer
		if err := st.WriteYAML(&b); err != nil {
			return []byte(err.Error())
		}
		return b.Bytes()
	}
	for k := range inputs {
		want[k] = run(k)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range inputs {
				k = (k + w*7) % len(inputs)
				if got := run(k); !bytes.Equal(got, want[k]) {
					t.Errorf("input %d written otherwise in a goroutine", k)
				}
			}
		}()
	}
	wg.Wait()
}

// TestAttack43Resnapshot: Snapshot called again after an edit was
// written, then another edit: both are written. The text of byte-range
// edits of values alone was taken as proven (replaceValues compares the
// snapshot with the text only where values changed), and an outlined
// stream's document written as its source text was not read back: the
// first edit was lost wherever the snapshot was not the source's parse
// (a stream read whole; a loaded document whose parse Load did not keep).
func TestAttack43Resnapshot(t *testing.T) {
	clear1 := func(d *yaml.Node) { Root(d).Content[1].Content = nil }
	yes0 := func(d *yaml.Node) { Root(d).Content[0].Value = "yes" }
	for _, c := range []struct {
		in           string
		doc          int
		edit1, edit2 func(*yaml.Node)
		want         string
	}{
		{"- a\n- b: 1\n  c: 2\n", 0, clear1, yes0, "- \"yes\"\n- {}\n"},
		{"- a\n- b: 1\n  c: 2\n---\nx: 1\n", 0, clear1, yes0, "- \"yes\"\n- {}\n---\nx: 1\n"},
		{"---\n---\n- a\n- b: 1\n  c: 2\n", 1, clear1, yes0, "---\n---\n- \"yes\"\n- {}\n"},
		{"x: &x 1\n---\n- a\n- b: 1\n  c: 2\n", 1, clear1, yes0, "x: &x 1\n---\n- \"yes\"\n- {}\n"},
		{"x: &x 1\ny: *x\n", 0, func(d *yaml.Node) { Root(d).Content = nil }, func(*yaml.Node) {}, "{}\n"},
		{"x: &x 1\ny: *x\n---\na: 1\n", 0, func(d *yaml.Node) { Root(d).Content = nil }, func(*yaml.Node) {}, "{}\n---\na: 1\n"},
	} {
		for _, o := range []*Outline{nil, testOutline} {
			st, err := Read([]byte(c.in), Options{Outline: o})
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Load(c.doc); err != nil {
				t.Fatal(err)
			}
			st.Snapshot()
			c.edit1(st.Docs[c.doc])
			write(t, st)
			st.Snapshot()
			c.edit2(st.Docs[c.doc])
			if got := write(t, st); string(got) != c.want {
				t.Errorf("%q (outline %v): written %q, want %q", c.in, o != nil, got, c.want)
			}
		}
	}
}
