package lsp

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/change"
)

// BenchmarkDiagnostics measures what an edit costs: a didChange of a
// 200-line .kpatch file (40 sections of 5 lines, on 40 Deployments) in a
// project of 1,000 manifests (500 Deployments, 500 Services), after the
// first load, up to the diagnostics being published (written to
// io.Discard). The target is under 50 ms per edit.
func BenchmarkDiagnostics(b *testing.B) {
	dir := b.TempDir()
	write := func(name, text string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 500 {
		write(fmt.Sprintf("base/app-%03d.yaml", i), fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-%03d
  labels: {app: app-%03d, tier: web}
spec:
  replicas: 1
  selector:
    matchLabels: {app: app-%03d}
  template:
    metadata:
      labels: {app: app-%03d}
    spec:
      containers:
      - name: main
        image: registry.example.com/app-%03d:1.0
        ports:
        - {name: http, containerPort: 8080}
        env:
        - {name: LOG_LEVEL, value: info}
        resources:
          limits: {cpu: 100m, memory: 128Mi}
      - name: sidecar
        image: envoy:1.0
---
apiVersion: v1
kind: Service
metadata:
  name: app-%03d
spec:
  selector: {app: app-%03d}
  ports:
  - {name: http, port: 80, targetPort: 8080}
`, i, i, i, i, i, i, i))
	}
	write("values.yaml", "version: \"2.0\"\nreplicas: 3\n")
	write("kmerge.yaml", "apiVersion: kmerge/v1\nkind: Project\nmanifests: [base]\npatches: [overrides]\nvalues: [values.yaml]\n")
	var text strings.Builder
	for i := range 40 {
		fmt.Fprintf(&text, "[deployment.app-%03d.containers.name=main]\nimage: registry.example.com/app-%03d:${values.version}\nenv[name=LOG_LEVEL].value: debug\nresources.limits.cpu: 200m\n\n", i*10, i*10)
	}
	if n := strings.Count(text.String(), "\n"); n != 200 {
		b.Fatalf("%d lines", n)
	}
	write("overrides/a.kpatch", "")
	uri := pathURI(filepath.Join(dir, "overrides", "edited.kpatch"))
	s := &Server{conn: &conn{w: io.Discard}, docs: map[string]*document{}, workspaces: map[string]*workspace{},
		projectOf: map[string]*workspace{}, state: stateRunning}
	open, _ := json.Marshal(didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: text.String()}})
	s.handle(&message{Method: "textDocument/didOpen", Params: open})
	d := s.docs[uri]
	if d == nil || len(d.analysis.diagnostics) != 0 {
		b.Fatalf("the first analysis: %+v", d.analysis.diagnostics)
	}
	if got := len(d.analysis.ws.set.Resources); got != 1000 {
		b.Fatalf("%d manifests loaded", got)
	}
	edit, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": text.String()}}})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.handle(&message{Method: "textDocument/didChange", Params: edit})
	}
	b.StopTimer()
	sets := 0
	for _, c := range d.analysis.changes {
		if c.Op == change.Set {
			sets++
		}
	}
	if sets != 120 {
		b.Fatalf("%d values set, want 120 (3 assignments on 40 objects)", sets)
	}
}
