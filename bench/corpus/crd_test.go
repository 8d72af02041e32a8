package corpus

import (
	"bytes"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// TestCRDs: the generated CRDs read (yaml.v3), are the size of real
// operators' CRDs, and have what the scenario is for: plain descriptions
// whose continuation lines start with a quote or a backtick, single-quoted
// folded ones and literal blocks; a description reads as its sentences
// joined by single spaces (folding loses nothing).
func TestCRDs(t *testing.T) {
	var quoteLines, backtickLines, singleQuoted, literal int
	for _, c := range CRDs(10) {
		if n := len(c.Text); n < 50_000 || n > 400_000 {
			t.Errorf("%s: %d bytes, want 50-400 KB", c.Name, n)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(c.Text, &doc); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		lines := bytes.Split(c.Text, []byte("\n"))
		for i, l := range lines {
			trimmed := bytes.TrimLeft(l, " ")
			switch {
			case bytes.HasPrefix(trimmed, []byte("description: '")):
				singleQuoted++
			case bytes.HasPrefix(trimmed, []byte("description: |-")):
				literal++
			}
			if i > 0 && bytes.HasPrefix(bytes.TrimLeft(lines[i-1], " "), []byte("description: ")) && !bytes.HasPrefix(bytes.TrimLeft(lines[i-1], " "), []byte("description: |")) && !bytes.HasPrefix(bytes.TrimLeft(lines[i-1], " "), []byte("description: '")) {
				switch {
				case bytes.HasPrefix(trimmed, []byte(`"`)):
					quoteLines++
				case bytes.HasPrefix(trimmed, []byte("`")):
					backtickLines++
				}
			}
		}
		var check func(n *yaml.Node)
		check = func(n *yaml.Node) {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if n.Kind == yaml.MappingNode && k.Value == "description" && v.Kind == yaml.ScalarNode && v.Style != yaml.LiteralStyle {
					if strings.Contains(v.Value, "  ") || strings.Contains(v.Value, "\n") {
						t.Errorf("%s line %d: description %q is not its sentences joined by spaces", c.Name, v.Line, v.Value)
					}
				}
			}
			for _, ch := range n.Content {
				check(ch)
			}
		}
		check(&doc)
	}
	if quoteLines == 0 || backtickLines == 0 || singleQuoted == 0 || literal == 0 {
		t.Errorf("continuation lines starting with a quote %d, with a backtick %d; single-quoted %d, literal %d: want each", quoteLines, backtickLines, singleQuoted, literal)
	}
}
