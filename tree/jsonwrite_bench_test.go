package tree

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkMarshalJSON: compact JSON output of three kinds of document:
// a manifest (short ASCII keys and values, integers: what most output
// is), text (long strings with line breaks, quotes, tabs and non-ASCII
// letters: descriptions, scripts, config files in ConfigMaps), and floats
// whose YAML text is not JSON (.5, +1.5e3), which are respelled.
func BenchmarkMarshalJSON(b *testing.B) {
	var manifest, text, floats strings.Builder
	manifest.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {app: web, tier: frontend}\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n")
	for i := range 40 {
		fmt.Fprintf(&manifest, "      - name: c%d\n        image: registry.example.com/team/app-%d:v1.2.%d\n        ports: [{containerPort: %d, protocol: TCP}]\n        env:\n", i, i, i, 8000+i)
		for j := range 10 {
			fmt.Fprintf(&manifest, "        - name: VAR_%d_%d\n          value: value-%d-of-container-%d\n", i, j, j, i)
		}
	}
	text.WriteString("data:\n")
	for i := range 100 {
		fmt.Fprintf(&text, "  k%d: \"line one of a \\\"script\\\" with a tab\\there\\nand a second line: café, naïve, 東京 \\u2014 done\\n\"\n", i)
	}
	floats.WriteString("values:\n")
	for i := range 400 {
		fmt.Fprintf(&floats, "- .%d5\n- +%d.25e%d\n- -%d.\n", i, i, i%40-20, i)
	}
	for _, c := range []struct{ name, doc string }{{"manifest", manifest.String()}, {"text", text.String()}, {"floats", floats.String()}} {
		st, err := Read([]byte(c.doc), Options{})
		if err != nil {
			b.Fatal(err)
		}
		out, err := MarshalJSON(st.Docs[0])
		if err != nil {
			b.Fatal(err)
		}
		b.Run("doc="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(out)))
			for b.Loop() {
				if _, err := MarshalJSON(st.Docs[0]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
