package fastyaml

import (
	"bufio"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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

// FuzzDifferential parses any input with Parse and with yaml.v3's Decoder:
// unless Parse declines it, the trees must be the same in every field of
// every node, and yaml.v3 must accept the input too.
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
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Parse([]byte(in))
		if err != nil {
			var u *Unsupported
			if !errors.As(err, &u) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		want, err := decodeV3([]byte(in))
		if err != nil {
			t.Fatalf("Parse accepts what yaml.v3 rejects (%v):\n%q", err, in)
		}
		if d := diffDocs(got, want); d != "" {
			t.Fatalf("%s\ninput:\n%q", d, in)
		}
	})
}

// TestCheck: check finds every character yaml.v3's reader rejects or
// treats as a line break, and counts lines, on every position of a word.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		in     string
		line   int
		reason string
	}{
		{"a: b\nc: d\n", 3, ""},
		{"a: b\r\nc: d\n", 1, "carriage return"},
		{"a\tb", 1, ""},
		{"é 日本 \U0001F600", 1, ""},
		{"\x7f", 1, "control character"},
		{"\x00", 1, "control character"},
		{"x\x1b", 1, "control character"},
		{"\u0085", 1, "Unicode line break"},
		{"\u2028", 1, "Unicode line break"},
		{"\u2029", 1, "Unicode line break"},
		{"\ufeffa: b", 1, "byte order mark"},
		{"\u0080", 1, "control character"},
		{"\ufffe", 1, "control character"},
		{"\xff", 1, "not UTF-8"},
	} {
		for pad := 0; pad < 17; pad++ {
			in := strings.Repeat("a\n", pad/2) + strings.Repeat("b", pad%2) + c.in
			line, reason := check([]byte(in))
			if reason != c.reason || line != c.line+pad/2 {
				t.Errorf("check(%q) = %d, %q; want %d, %q", in, line, reason, c.line+pad/2, c.reason)
			}
		}
	}
}
