package tree

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// endless is a reader that never ends: reading it all would never return.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

func TestReadInputLimit(t *testing.T) {
	_, err := ReadInput(endless{}, "<stdin>", &Limits{MaxBytes: 1 << 10})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Limit != "bytes" || !strings.Contains(err.Error(), "<stdin>: input is more than the limit of 1024 bytes") {
		t.Fatalf("an endless input under a 1 KiB limit: %v", err)
	}
	data, err := ReadInput(strings.NewReader("a: 1\n"), "<stdin>", &Limits{MaxBytes: 5})
	if err != nil || string(data) != "a: 1\n" {
		t.Fatalf("an input of exactly the limit: %q, %v", data, err)
	}
}

func TestReadFileLimit(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(name, []byte(strings.Repeat("a: 1\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(name, &Limits{MaxBytes: 100})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Limit != "bytes" || !strings.Contains(err.Error(), "input is 500 bytes, more than the limit of 100") {
		t.Fatalf("a 500-byte file under a 100-byte limit: %v", err)
	}
	if data, err := ReadFile(name, nil); err != nil || len(data) != 500 {
		t.Fatalf("under the default limits: %d bytes, %v", len(data), err)
	}
}

// TestWriteYAMLHandMadeTree: a hand-made tree that makes yaml.v3's emitter
// panic (a nil item, which Read never makes) is an error, not a panic.
func TestWriteYAMLHandMadeTree(t *testing.T) {
	bad := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{nil}}
	var b bytes.Buffer
	err := WriteYAML(&b, Style{}, bad)
	if err == nil || !strings.Contains(err.Error(), "cannot write the document as YAML") {
		t.Fatalf("WriteYAML of a sequence with a nil item: %v, %q", err, b.String())
	}
}
