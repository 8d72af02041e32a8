package next

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func same(t *testing.T, name, in string) bool {
	t.Helper()
	got, err := Parse([]byte(in))
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
		t.Errorf("%s: Parse accepts what yaml.v3 rejects (%v):\n%q", name, err, in)
	}
	if d := diffDocs(got, want); d != "" {
		t.Errorf("%s: %s\ninput:\n%q", name, d, in)
	}
	return true
}

func inputs(t testing.TB) []string {
	var out []string
	b, err := os.ReadFile("../testdata/yamlv3-inputs.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		s, err := strconv.Unquote(line)
		if err == nil {
			out = append(out, s)
		}
	}
	files, _ := filepath.Glob("/work/shared/yaml-test-suite/*/in.yaml")
	more, _ := filepath.Glob("/work/shared/yaml-test-suite/*/*/in.yaml")
	ms, _ := filepath.Glob("../testdata/manifests/*.yaml")
	for _, f := range append(append(files, more...), ms...) {
		b, _ := os.ReadFile(f)
		out = append(out, string(b))
	}
	return out
}

func TestScratch(t *testing.T) {
	fast, all := 0, 0
	reasons := map[string]int{}
	for i, in := range inputs(t) {
		all++
		if same(t, strconv.Itoa(i), in) {
			fast++
		} else {
			_, err := Parse([]byte(in))
			reasons[err.(*Unsupported).Reason]++
		}
	}
	t.Logf("%d of %d fast; %v", fast, all, reasons)
}

func FuzzDifferential(f *testing.F) {
	for _, in := range inputs(f) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		same(t, "", in)
	})
}
