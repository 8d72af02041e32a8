package fastyaml

import (
	"bufio"
	"errors"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// repoRoot is the root of the repository, from this package's directory.
const repoRoot = "../.."

// yamlFiles returns the .yaml and .yml files of the repository.
func yamlFiles(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != repoRoot {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("only %d YAML files found under %s", len(files), repoRoot)
	}
	return files
}

// fuzzCorpora returns the string and []byte values of every fuzz corpus
// file of the repository (testdata/fuzz/*/*).
func fuzzCorpora(t testing.TB) []string {
	var out []string
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || filepath.Base(filepath.Dir(filepath.Dir(path))) != "fuzz" {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			line := sc.Text()
			for _, prefix := range []string{"string(", "[]byte("} {
				if q, ok := strings.CutPrefix(line, prefix); ok {
					if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
						out = append(out, s)
					}
				}
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// yamlv3Inputs returns the YAML inputs of yaml.v3's own tests (node_test.go,
// decode_test.go, encode_test.go of go.yaml.in/yaml/v3 v3.0.6), many of them
// about where comments go, kept in testdata/yamlv3-inputs.txt one quoted
// string a line.
func yamlv3Inputs(t testing.TB) []string {
	b, err := os.ReadFile("testdata/yamlv3-inputs.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		s, err := strconv.Unquote(line)
		if err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		out = append(out, s)
	}
	return out
}

// same checks Parse against yaml.v3 on one input: unless Parse declines,
// yaml.v3 accepts it and builds the same trees. It reports whether Parse
// took the input.
func same(t *testing.T, name, in string) bool {
	t.Helper()
	got, err := Parse([]byte(in), 0)
	if err != nil {
		var u *Unsupported
		if !errors.As(err, &u) {
			t.Fatalf("%s: error of type %T: %v", name, err, err)
		}
		if strings.HasPrefix(u.Reason, internalError) {
			t.Fatalf("%s: %v on\n%q", name, err, in)
		}
		return false
	}
	want, err := decodeV3([]byte(in))
	if err != nil {
		t.Fatalf("%s: Parse accepts what yaml.v3 rejects (%v):\n%q", name, err, in)
	}
	if d := diffDocs(got, want); d != "" {
		t.Fatalf("%s: %s\ninput:\n%q", name, d, in)
	}
	return true
}

// TestRepositoryYAML compares Parse with yaml.v3 on every YAML file of the
// repository: manifests, patches, fixtures, golden outputs. Most must take
// the fast path; the others are logged with the reason.
func TestRepositoryYAML(t *testing.T) {
	files := yamlFiles(t)
	fast, valid := 0, 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if same(t, path, string(data)) {
			fast++
		}
		if _, err := decodeV3(data); err == nil {
			valid++
			if _, err := Parse(data, 0); err != nil {
				t.Logf("%s: %v", path, err)
			}
		}
	}
	t.Logf("%d YAML files, %d valid YAML, %d on the fast path", len(files), valid, fast)
	if fast < valid*95/100 {
		t.Errorf("only %d of %d valid YAML files on the fast path", fast, valid)
	}
}

// TestYAMLv3Inputs compares Parse with yaml.v3 on yaml.v3's own test inputs.
func TestYAMLv3Inputs(t *testing.T) {
	ins := yamlv3Inputs(t)
	fast := 0
	for i, in := range ins {
		if same(t, "input "+strconv.Itoa(i), in) {
			fast++
		}
	}
	t.Logf("%d of yaml.v3's %d test inputs on the fast path", fast, len(ins))
	if fast < len(ins)*2/3 {
		t.Errorf("only %d of %d on the fast path", fast, len(ins))
	}
}

// TestDeclines: what Parse leaves to yaml.v3, and why (invalid: yaml.v3
// rejects it too); and some of what it must not leave.
func TestDeclines(t *testing.T) {
	for _, c := range []struct {
		in, reason string
		invalid    bool
	}{
		{"%TAG ! tag:example.com,2000:\n---\na: b\n", "a directive other than %YAML", false},
		{"a: !!str b\n", "an anchor, alias or tag", false},
		{"a: &x b\nc: *x\n", "an anchor, alias or tag", false},
		{"a: *x\n", "an anchor, alias or tag", true},
		{"? a\n: b\n", "a complex key (?)", false},
		{"a: [b: c]\n", "a mapping in a flow sequence", false},
		{"a: [b, # c\n  d]\n", "a comment in a flow collection", false},
		{"a: b\r\n", "a carriage return", false},
		{"\ufeffa: b\n", "a byte order mark", false},
		{"a: b\u2028c: d\n", "a Unicode line break", false},
		{"a: \x01\n", "a control character", true},
		{"a: b\n c: d\n", "a colon and a blank in a plain scalar", true},
		{"a: 'b\n", "a quoted scalar without its end", true},
		{"- a\nb: c\n", "content after the end of a document", true},
		{"a:\n\t- b\n", "a tab in indentation", true},
		{"a: \"\\q\"\n", "a bad escape", true},
		{"k" + strings.Repeat("x", 1100) + ": v\n", "a key longer than yaml.v3 reads", true},
		{"%YAML 1.3\n---\na: b\n", "a %YAML version other than 1.1 and 1.2", true},
		{"a:\n  b: 1\n  # c\n\n    # d\nc: 2\n", "comments deeper than the next token's after others", false},
	} {
		_, err := Parse([]byte(c.in), 0)
		var u *Unsupported
		if !errors.As(err, &u) || u.Reason != c.reason {
			t.Errorf("Parse(%q): %v, want it declined for %q", c.in, err, c.reason)
		}
		if _, v3err := decodeV3([]byte(c.in)); (v3err != nil) != c.invalid {
			t.Errorf("%q: yaml.v3 gives %v", c.in, v3err)
		}
	}
	for _, in := range []string{
		"",
		"# only a comment\n",
		"---\n",
		"a: |2-\n    x\n  y\nb: >+\n  folded\n  text\n\n",
		"a: [1, 'two', \"three\", {four: 4}, []]\nb: {}\n",
		"# head\n\na: b # line\n# foot\n---\n- x\n...\n",
		"naïve: 日本語 # コメント\n",
		"a: \"\\t\\u00e9\\U0001F600\\x41\"\n",
		"a:\tb\n",
		"plain: multi\n  line\n\n  text\n",
		"%YAML 1.1\n---\na: b\n",
		"%YAML 1.2\n---\na: b\n",
		"a: 1 # c\n# foot\n\n# head\nb:\n  - x\n  # in\n  - y\n\n# end\n",
	} {
		if !same(t, "", in) {
			_, err := Parse([]byte(in), 0)
			t.Errorf("Parse(%q) declines: %v", in, err)
		}
	}
}

// suiteInputs returns the inputs of the YAML test suite kept in
// testdata/yaml-test-suite, by name; names ending in ".error" are inputs
// the suite marks as not YAML.
func suiteInputs(t testing.TB) map[string]string {
	names, err := filepath.Glob("testdata/yaml-test-suite/*.in")
	if err != nil || len(names) < 400 {
		t.Fatalf("%d test suite inputs (%v)", len(names), err)
	}
	out := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(n), ".in")] = string(b)
	}
	return out
}

// TestYAMLTestSuite: Parse declines every input the YAML test suite
// marks as an error, and reads every other one as yaml.v3 does, or
// declines it; Skim declines the error inputs too.
func TestYAMLTestSuite(t *testing.T) {
	fast, valid := 0, 0
	inputs := suiteInputs(t)
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		in := inputs[name]
		if strings.HasSuffix(name, ".error") {
			if docs, err := Parse([]byte(in), 0); err == nil {
				t.Errorf("%s: Parse reads an input that is not YAML: %d documents\n%s", name, len(docs), in)
			}
			if _, err := Skim([]byte(in), &Outline{All: true}); err == nil {
				t.Errorf("%s: Skim reads an input that is not YAML\n%s", name, in)
			}
			continue
		}
		valid++
		if same(t, name, in) {
			fast++
		}
	}
	t.Logf("%d valid inputs of the test suite, %d on the fast path", valid, fast)
	if fast < valid/3 {
		t.Errorf("only %d of %d on the fast path", fast, valid)
	}
}

// TestValuesAreCopies: the trees do not change when the caller's input
// does.
func TestValuesAreCopies(t *testing.T) {
	data := []byte("a: b # c\nd: 'e'\n")
	docs, err := Parse(data, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = 'x'
	}
	want, _ := decodeV3([]byte("a: b # c\nd: 'e'\n"))
	if d := diffDocs(docs, want); d != "" {
		t.Error(d)
	}
}

// TestAppendToContent: a Content slice of a tree has no room after its
// end, so that appending to it does not write over another's.
func TestAppendToContent(t *testing.T) {
	docs, err := Parse([]byte("a: [1, 2]\nb: [3]\n"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m := docs[0].Content[0]
	a, b := m.Content[1], m.Content[3]
	a.Content = append(a.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "x"})
	if len(b.Content) != 1 || b.Content[0].Value != "3" || len(m.Content) != 4 || m.Content[2].Value != "b" {
		t.Errorf("appending to one Content slice changed another")
	}
}

// oddInputs is YAML of the kinds manifests rarely have, for the fuzz
// target to start from: anchors and aliases, merge keys, tags, complex
// keys, directives, flow collections over lines, CRLF line breaks, byte
// order marks, tabs, long lines, documents without content.
var oddInputs = []string{
	"base: &b {a: 1, b: [x, y]}\nderived:\n  <<: *b\n  c: 3\nlist: [*b, &l {z: 0}, *l]\n",
	"- &x !!str 1\n- !custom {a: b}\n- !!binary aGVsbG8=\n- *x\n",
	"? [a, b]\n: 1\n? {c: d}\n: 2\n? |\n  block key\n: 3\n",
	"%YAML 1.1\n%TAG !e! tag:example.com,2000:\n---\n!e!x a: b\n...\n%YAML 1.2\n---\nc: d\n",
	"args: [\n  --a=1,\n  \"--b=2\",\n  'c'\n]\nenv: {\n  A: 1, B: [\n    x]}\n",
	"a: 1\r\nb:\r\n  - c\r\n  # d\r\n",
	"\ufeffa: 1\n---\n\ufeffb: 2\n",
	"a:\tb\nc: \"\t\"\nd: |\n  \tx\n- \te\n",
	"k: " + strings.Repeat("long value ", 300) + "\n" + strings.Repeat("x", 2000) + ": v\n",
	"---\n---\n...\n---\n# only a comment\n...\n",
	"a: !!int \"1\"\nb: !!float 2\nc: !!null ''\nd: !!timestamp 2001-12-14\n",
	"{a: [1, {b: c}], ? d : e, f: }\n",
	"- [a, b]: c\n- {x: y}: z\n",
	"a: >-\n  folded\n   more\n\n  text\nb: |+\n  kept\n\n",
}

// FuzzDifferential parses any input with Parse and with yaml.v3's
// Decoder: unless Parse declines it, yaml.v3 must accept it too and build
// the same trees, every field of every node; and unless Skim declines it,
// Skim gives the parts of those trees an outline names. Seeds: every fuzz
// corpus and YAML file of the repository (among them the manifests of
// examples/ and, in testdata/manifests, documents of the bench corpus in
// both its styles), yaml.v3's own test inputs, every input of the YAML
// test suite, odd YAML (oddInputs) and generated streams (gen_test.go).
func FuzzDifferential(f *testing.F) {
	for _, s := range fuzzCorpora(f) {
		f.Add(s)
	}
	for _, path := range yamlFiles(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	for _, s := range yamlv3Inputs(f) {
		f.Add(s)
	}
	for _, s := range suiteInputs(f) {
		f.Add(s)
	}
	for _, s := range oddInputs {
		f.Add(s)
	}
	for _, tidy := range []bool{false, true} {
		g := &gen{r: rand.New(rand.NewPCG(5, 6)), tidy: tidy}
		for range 200 {
			f.Add(g.stream())
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		same(t, "", in)
		sk, err := Skim([]byte(in), identityOutline)
		if err != nil {
			var u *Unsupported
			if !errors.As(err, &u) || strings.HasPrefix(u.Reason, internalError) {
				t.Fatalf("Skim: %v on\n%q", err, in)
			}
			return
		}
		docs, err := decodeV3([]byte(in))
		if err != nil {
			t.Fatalf("Skim accepts what yaml.v3 rejects (%v):\n%q", err, in)
		}
		if len(docs) != len(sk) {
			t.Fatalf("Skim: %d documents, want %d:\n%q", len(sk), len(docs), in)
		}
		for i, d := range docs {
			if dd := diffDocs([]*yaml.Node{sk[i].Doc}, []*yaml.Node{outlineOf(d, identityOutline)}); dd != "" {
				t.Fatalf("Skim: document %d: %s\n%q", i, dd, in)
			}
			if nodes, depth := count(d, 0); sk[i].Nodes != nodes || sk[i].Depth != depth {
				t.Fatalf("Skim: document %d: %d nodes %d deep, want %d %d\n%q", i, sk[i].Nodes, sk[i].Depth, nodes, depth, in)
			}
		}
	})
}
