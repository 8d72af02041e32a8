package upstreamsrc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// SharedEnv names the folder of the project's shared copy of upstream's
// cases, which TestSharedCopy compares with what this package extracts.
const SharedEnv = "KMERGE_CONFORMANCE_DIR"

// sharedDir returns the shared copy: $KMERGE_CONFORMANCE_DIR (which must
// then hold it), or shared/conformance/upstream beside the folder of
// go.work. Without either, the test skips: the copy is the project's
// working material, not part of the repository, and nothing else needs it.
func sharedDir(t *testing.T) string {
	if d := os.Getenv(SharedEnv); d != "" {
		if _, err := os.Stat(filepath.Join(d, "observed")); err != nil {
			t.Fatalf("%s=%s holds no shared copy of upstream's cases: %v", SharedEnv, d, err)
		}
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			shared := filepath.Join(filepath.Dir(d), "shared", "conformance", "upstream")
			if _, err := os.Stat(filepath.Join(shared, "observed")); err != nil {
				t.Skipf("no shared copy of upstream's cases at %s (set %s to compare with one elsewhere); the comparison with upstream runs without it", shared, SharedEnv)
			}
			return shared
		}
		if filepath.Dir(d) == d {
			t.Skipf("no go.work above %s, so no shared copy of upstream's cases beside it (set %s to compare with one)", wd, SharedEnv)
		}
	}
}

type sharedTable struct {
	Table string `yaml:"table"`
	Count int    `yaml:"count"`
	Cases []struct {
		Description           string            `yaml:"description"`
		Line                  int               `yaml:"line"`
		JSON                  map[string]string `yaml:"json"`
		ExpectedError         string            `yaml:"expectedError"`
		ExpectedTwoWayError   string            `yaml:"expectedTwoWayError"`
		ExpectedThreeWayError string            `yaml:"expectedThreeWayError"`
		ExpectConflict        bool              `yaml:"expectConflict"`
	} `yaml:"cases"`
}

type sharedObserved struct {
	Cases []struct {
		Description string                       `yaml:"description"`
		Line        int                          `yaml:"line"`
		AllFlavors  map[string]string            `yaml:"allFlavors"`
		ByFlavor    map[string]map[string]string `yaml:"byFlavor"`
	} `yaml:"cases"`
}

func readShared(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// ran drops the steps that did not run: the shared copy lists them as not
// run, or leaves them out.
func ran(steps map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range steps {
		if !strings.HasPrefix(v, "(not run") {
			out[k] = v
		}
	}
	return out
}

// TestSharedCopy compares what this package extracts and observes with the
// project's shared copy of upstream's cases (made once by another extractor
// and replay, from the same upstream version), where there is one: every
// case's description, line, documents (exact bytes), expected errors and
// conflicts; every step's outcome per flavour (exact bytes or message); for
// table 01, SortMergeLists against upstream's own sort function's output;
// and the OpenAPI fixtures, byte for byte.
func TestSharedCopy(t *testing.T) {
	dir := sharedDir(t)
	m, tables := load(t)
	checks := 0
	for _, tb := range tables {
		var st sharedTable
		readShared(t, filepath.Join(dir, tb.ID+".yaml"), &st)
		var so sharedObserved
		readShared(t, filepath.Join(dir, "observed", tb.ID+".yaml"), &so)
		if st.Table != tb.Name || st.Count != len(tb.Cases) || len(st.Cases) != len(tb.Cases) || len(so.Cases) != len(tb.Cases) {
			t.Errorf("%s: table %s, %d cases; the shared copy: table %s, count %d, %d cases, %d observed", tb.ID, tb.Name, len(tb.Cases), st.Table, st.Count, len(st.Cases), len(so.Cases))
			continue
		}
		flavors, err := m.Flavors(tb.Schema)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range tb.Cases {
			s := st.Cases[i]
			name := fmt.Sprintf("%s/%d:%s", tb.ID, c.Line, c.Description)
			got := fmt.Sprintf("%q %d %q %q %q %v", c.Description, c.Line, c.ExpectedError, c.ExpectedTwoWayError, c.ExpectedThreeWayError, c.ExpectConflict)
			want := fmt.Sprintf("%q %d %q %q %q %v", s.Description, s.Line, s.ExpectedError, s.ExpectedTwoWayError, s.ExpectedThreeWayError, s.ExpectConflict)
			checks++
			if got != want {
				t.Errorf("%s: extracted %s\n shared copy %s", name, got, want)
			}
			checks++
			if !reflect.DeepEqual(c.JSON, s.JSON) {
				t.Errorf("%s: documents differ\n extracted:   %v\n shared copy: %v", name, c.JSON, s.JSON)
			}
			o := so.Cases[i]
			for _, fl := range flavors {
				want := o.AllFlavors
				if want == nil {
					want = o.ByFlavor[fl.Name]
				}
				var got map[string]string
				if tb.Kind == Sort {
					b, err := SortMergeLists([]byte(c.JSON["original"]), fl.Meta)
					got = map[string]string{"sort": string(b)}
					if err != nil {
						got["sort"] = "ERROR: " + err.Error()
					}
				} else {
					got = Observe(tb, c, fl)
				}
				checks++
				if !reflect.DeepEqual(ran(got), ran(want)) {
					t.Errorf("%s/%s: observed steps differ\n here:        %v\n shared copy: %v", name, fl.Name, ran(got), ran(want))
				}
			}
		}
	}
	for _, f := range []string{"swagger-merge-item.json", "swagger-merge-item-v3.json", "swagger-precision-item.json", "swagger-precision-item-v3.json"} {
		a, err := os.ReadFile(m.Testdata(f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "openapi", f))
		if err != nil {
			t.Fatal(err)
		}
		checks++
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from the shared copy's", f)
		}
	}
	t.Logf("%d comparisons with the shared copy at %s", checks, dir)
}
