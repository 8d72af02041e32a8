package tree

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestFastReaderSameResult: readYAML, which parses with internal/fastyaml
// what it can, gives what yaml.v3's Decoder alone gives (decodeYAML, the
// reader before it): the same documents after normalization, node for
// node, the same errors, the same YAML written out, on every YAML file and
// fuzz corpus of the repository, with the default limits and with small
// ones.
func TestFastReaderSameResult(t *testing.T) {
	var inputs []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		switch {
		case d.IsDir():
		case strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			inputs = append(inputs, string(b))
		case filepath.Base(filepath.Dir(filepath.Dir(path))) == "fuzz":
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<24)
			for sc.Scan() {
				if q, ok := strings.CutPrefix(sc.Text(), "string("); ok {
					if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
						inputs = append(inputs, s)
					}
				}
			}
			return sc.Err()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) < 300 {
		t.Fatalf("only %d inputs", len(inputs))
	}
	small := Limits{MaxBytes: 1 << 20, MaxDocuments: 2, MaxDepth: 4, MaxNodes: 40}
	for _, lim := range []Limits{DefaultLimits(), small} {
		for _, in := range inputs {
			got, gerr := readYAML([]byte(in), "f.yaml", lim)
			want, werr := decodeYAML([]byte(in), "f.yaml", lim)
			if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
				t.Fatalf("error %v, want %v, on\n%s", gerr, werr, in)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("documents differ on\n%s", in)
			}
			var g, w bytes.Buffer
			gerr = WriteYAML(&g, Style{Indent: 2}, got...)
			werr = WriteYAML(&w, Style{Indent: 2}, want...)
			if (gerr == nil) != (werr == nil) || !bytes.Equal(g.Bytes(), w.Bytes()) {
				t.Fatalf("written YAML differs on\n%s", in)
			}
		}
	}
}
