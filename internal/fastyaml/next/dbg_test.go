package next

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bad reports whether Parse takes in and differs from yaml.v3.
func bad(in string) bool {
	got, err := Parse([]byte(in))
	if err != nil {
		var u *Unsupported
		return errors.As(err, &u) && strings.HasPrefix(u.Reason, internalError)
	}
	want, werr := decodeV3([]byte(in))
	if werr != nil {
		return true
	}
	return diffDocs(got, want) != ""
}

// minimize drops lines while the input stays bad.
func minimize(in string) string {
	lines := strings.SplitAfter(in, "\n")
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(lines); i++ {
			try := append(append([]string(nil), lines[:i]...), lines[i+1:]...)
			if bad(strings.Join(try, "")) {
				lines = try
				changed = true
				i--
			}
		}
	}
	return strings.Join(lines, "")
}

func TestDbg(t *testing.T) {
	g := &gen{r: rand.New(rand.NewPCG(7, uint64(time.Now().UnixNano())))}
	n := 0
	for i := 0; i < 200000 && n < 8; i++ {
		in := g.stream()
		if bad(in) {
			m := minimize(in)
			got, _ := Parse([]byte(m))
			want, _ := decodeV3([]byte(m))
			t.Errorf("%q\n%s", m, diffDocs(got, want))
			n++
		}
	}
}

func TestReasons(t *testing.T) {
	g := &gen{r: rand.New(rand.NewPCG(1, 2))}
	reasons := map[string]int{}
	for i := 0; i < 20000; i++ {
		in := g.stream()
		if _, err := decodeV3([]byte(in)); err != nil {
			continue
		}
		if _, err := Parse([]byte(in)); err != nil {
			reasons[err.(*Unsupported).Reason]++
		}
	}
	for r, n := range reasons {
		t.Logf("%6d %s", n, r)
	}
}

func TestRepo(t *testing.T) {
	var files []string
	filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != "../../.." {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			files = append(files, path)
		}
		return nil
	})
	fast, valid := 0, 0
	reasons := map[string]int{}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if _, err := decodeV3(b); err != nil {
			continue
		}
		valid++
		if same(t, f, string(b)) {
			fast++
		} else {
			_, err := Parse(b)
			reasons[err.(*Unsupported).Reason]++
			t.Logf("%s: %v", f, err)
		}
	}
	t.Logf("%d valid, %d fast: %v", valid, fast, reasons)
}
