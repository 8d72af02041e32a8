package syntax

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/tree"
)

// TestFormatGolden formats every testdata/fmt/*.in.kpatch and compares
// the result with the .out.kpatch next to it, written by hand from the
// rules of Format's doc comment. The output is a fixed point, and parses
// to the patches of the input.
func TestFormatGolden(t *testing.T) {
	ins, err := filepath.Glob("testdata/fmt/*.in.kpatch")
	if err != nil || len(ins) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, in := range ins {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(in, ".in.kpatch") + ".out.kpatch")
			if err != nil {
				t.Fatal(err)
			}
			got, err := Format(src, in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
			checkFormat(t, string(src))
		})
	}
}

func TestFormatCases(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"\n\n\n", ""},
		{"# only a comment   \n", "# only a comment\n"},
		{"[deployment.app]\r\nreplicas = 3\r\n", "[deployment.app]\nreplicas: 3\n"},
		{"[deployment.app.spec]\n  !delete  # gone\n", "[deployment.app.spec]\n!delete # gone\n"},
		{"[deployment.app]\nimage:   \n", "[deployment.app]\nimage:\n"},
		{"[deployment.app]\nx =#1\n", "[deployment.app]\nx:#1\n"},
		{"[deployment.app]\nx = #1\n", "[deployment.app]\nx: #1\n"},
		{"[deployment.app]\nx: a\"b # c\n", "[deployment.app]\nx: a\"b # c\n"},
		{"[\"a/b\".x]\nk: v\n", "[\"a/b\".x]\nk: v\n"},
		// a selector's key fields are quoted as paths quote them (a word
		// YAML reads as a boolean, a colon), bare words kept as written (a
		// bare field may be an index: args.0), quoted ones quoted
		{"[cm.x.items[true=a,a:b=c]]\nargs.0: x\n'v': y\n", "[cm.x.items[\"true\"=a,\"a:b\"=c]]\nargs.0: x\n\"v\": y\n"},
		// a kind that is * itself, not any kind
		{"['*'.x]\nk: v\n", "[\"*\".x]\nk: v\n"},
	} {
		got, err := Format([]byte(c.in), "f.kpatch", Options{})
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
		checkFormat(t, c.in)
	}
}

func TestFormatError(t *testing.T) {
	_, err := Format([]byte("[deployment.app]\nreplicas 3\n"), "f.kpatch", Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "f.kpatch:2:1: ") {
		t.Fatalf("got %v, want the parse error at f.kpatch:2:1", err)
	}
}

// checkFormat checks Format's promises on src, when src parses: the
// result parses to the same patches, and formatting it again changes
// nothing.
func checkFormat(t *testing.T, src string) {
	t.Helper()
	before, err := ParseKpatch([]byte(src), "f")
	if err != nil {
		return
	}
	out, err := Format([]byte(src), "f", Options{})
	if err != nil {
		t.Fatalf("%q parses but does not format: %v", src, err)
	}
	after, err := ParseKpatch(out, "f")
	if err != nil {
		t.Fatalf("%q formats as %q, which does not parse: %v", src, out, err)
	}
	if a, b := withoutPositions(before), withoutPositions(after); !reflect.DeepEqual(a, b) {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		t.Fatalf("%q formats as %q, which means something else:\n%s\n%s", src, out, ja, jb)
	}
	again, err := Format(out, "f", Options{})
	if err != nil || string(again) != string(out) {
		t.Fatalf("formatting %q twice: %q, then %q (%v)", src, out, again, err)
	}
}

// withoutPositions copies patches with every position zeroed.
func withoutPositions(patches []*Patch) []Patch {
	out := make([]Patch, len(patches))
	for i, p := range patches {
		c := *p
		c.Pos = tree.Position{}
		c.Target = unplacedTarget(c.Target)
		c.Path = pathWithoutPositions(p.Path)
		c.Sets = nil
		for _, a := range p.Sets {
			a.Pos = tree.Position{}
			a.Key = pathWithoutPositions(a.Key)
			a.Value.Pos = tree.Position{}
			parts := make([]Part, len(a.Value.Parts))
			for j, pt := range a.Value.Parts {
				pt.Pos = tree.Position{}
				parts[j] = pt
			}
			a.Value.Parts = parts
			c.Sets = append(c.Sets, a)
		}
		out[i] = c
	}
	return out
}

func pathWithoutPositions(p Path) Path {
	if p == nil {
		return nil
	}
	out := make(Path, len(p))
	for i, st := range p {
		st.Pos = tree.Position{}
		out[i] = st
	}
	return out
}
