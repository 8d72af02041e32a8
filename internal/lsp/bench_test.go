package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kmerge/kmerge/change"
)

// BenchmarkDiagnostics measures what an edit costs: a didChange of a
// 200-line .kpatch file (40 sections of 5 lines, on 40 Deployments) in a
// project of 1,000 manifests (500 Deployments, 500 Services), after the
// first load, up to the diagnostics being published. Every edit changes
// the value of one line (so that the version checked is a new text). The
// target is under 50 ms per edit.
func BenchmarkDiagnostics(b *testing.B) {
	dir := b.TempDir()
	writeBenchProject(b, dir)
	section := func(i int, cpu string) string {
		return fmt.Sprintf("[deployment.app-%03d.containers.name=main]\nimage: registry.example.com/app-%03d:${values.version}\nenv[name=LOG_LEVEL].value: debug\nresources.limits.cpu: %s\n\n", i*10, i*10, cpu)
	}
	var text strings.Builder
	for i := range 40 {
		text.WriteString(section(i, "200m"))
	}
	if n := strings.Count(text.String(), "\n"); n != 200 {
		b.Fatalf("%d lines", n)
	}
	uri := pathURI(filepath.Join(dir, "overrides", "edited.kpatch"))
	c := startClient(b, Options{})
	c.open(uri, 1, text.String())
	if _, d := c.diagnostics(uri); len(d) != 0 {
		b.Fatalf("the first check: %+v", d)
	}
	// the edit: the cpu of section 20, back and forth
	edits := []string{text.String(), strings.Replace(text.String(), section(20, "200m"), section(20, "300m"), 1)}
	version := 1
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		version++
		c.change(uri, version, edits[version%2])
		if v, d := c.diagnostics(uri); v != version || len(d) != 0 {
			b.Fatalf("version %d: %d diagnostics of version %d", version, len(d), v)
		}
	}
	b.StopTimer()
	c.stop()
	sets := 0
	for _, ch := range c.s.docs[uri].check.a.changes {
		if ch.Op == change.Set {
			sets++
		}
	}
	if sets != 120 {
		b.Fatalf("%d values set, want 120 (3 assignments on 40 objects)", sets)
	}
}

// bigKpatch is a .kpatch file of n sections on the Deployments of the
// bench project, 42 bytes each on average (10,000 sections: 424 KB). Of
// every ten, six set a label of their own (section i sets label li to v),
// three set image on the Deployment, which the shortcut cannot resolve
// (two containers: an error), and one targets a Deployment that does not
// exist (a warning): 40% of the sections have a diagnostic. Section i is
// lines 3i to 3i+2.
func bigKpatch(n int) string {
	var b strings.Builder
	for i := range n {
		switch i % 10 {
		case 1, 4, 7:
			fmt.Fprintf(&b, "[deployment.app-%03d]\nimage: x:%d\n\n", i%500, i)
		case 9:
			fmt.Fprintf(&b, "[deployment.nope-%d]\nreplicas: 2\n\n", i)
		default:
			fmt.Fprintf(&b, "[deployment.app-%03d]\nmetadata.labels.l%d: v\n\n", i%500, i)
		}
	}
	return b.String()
}

// BenchmarkHoverAfterChange measures how soon a hover answers after an
// edit of a large .kpatch file (bigKpatch: 2,000, 10,000 and 20,000
// sections) open in the editor: from the didChange (the whole text, as the
// server asks; one value changed) to the hover's answer on the changed
// line, which must say what the line now sets. The file is opened first,
// and its first check (every section) is reported as open-ms. The target
// is under 1 s at 10,000 sections (issue 19: 33.8 s when every change
// re-checked the whole file).
func BenchmarkHoverAfterChange(b *testing.B) {
	for _, n := range []int{2000, 10000, 20000} {
		b.Run(fmt.Sprintf("sections=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			writeBenchProject(b, dir)
			uri := pathURI(filepath.Join(dir, "overrides", "big.kpatch"))
			text := bigKpatch(n)
			c := startClient(b, Options{})
			start := time.Now()
			c.open(uri, 1, text)
			if _, d := c.diagnostics(uri); len(d) != n*4/10 {
				b.Fatalf("%d diagnostics, want %d", len(d), n*4/10)
			}
			open := time.Since(start)
			edit := n / 2 // a label section
			line := fmt.Sprintf("metadata.labels.l%d: v\n", edit)
			version := 1
			b.ResetTimer()
			for b.Loop() {
				version++
				value := fmt.Sprintf("w%d", version)
				c.change(uri, version, strings.Replace(text, line, fmt.Sprintf("metadata.labels.l%d: %s\n", edit, value), 1))
				h, err := c.hover(uri, 3*edit+1, 17)
				if err != nil || !strings.Contains(h, "→ `"+value+"`") {
					b.Fatalf("the hover after version %d: %v\n%s", version, err, h)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(open.Milliseconds()), "open-ms")
			c.stop()
		})
	}
}
