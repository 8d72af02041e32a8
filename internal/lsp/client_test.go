package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// client speaks JSON-RPC to a server running in the test's process, over
// pipes: the messages go through the framing and decoding an editor's go
// through.
type client struct {
	tb      testing.TB
	s       *Server
	in      *io.PipeWriter
	msgs    chan *message
	served  chan error
	id      int
	pending []*message // notifications read while waiting for something else
}

func startClient(tb testing.TB, opts Options) *client {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{tb: tb, s: newServer(ctx, outW, opts), in: inW, msgs: make(chan *message, 64), served: make(chan error, 1)}
	go func() {
		c.served <- c.s.serve(inR, cancel)
		outW.Close()
	}()
	go func() {
		defer close(c.msgs)
		r := bufio.NewReader(outR)
		for {
			m, err := readMessage(r)
			if err != nil {
				return
			}
			c.msgs <- m
		}
	}()
	tb.Cleanup(func() {
		inW.Close()
		<-c.served
		for range c.msgs { // what the server wrote last
		}
	})
	c.request("initialize", map[string]any{"capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	return c
}

func (c *client) send(v any) {
	c.tb.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		c.tb.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.tb.Fatal(err)
	}
}

func (c *client) notify(method string, params any) {
	c.tb.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// next returns the next message; a server silent for a minute has hung
// (a guard against deadlock, not a timing assertion).
func (c *client) next() *message {
	c.tb.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.tb.Fatal("the server closed its output")
		}
		return m
	case <-time.After(time.Minute):
		c.tb.Fatal("no message from the server for a minute")
	}
	return nil
}

// start sends a request and returns its ID.
func (c *client) start(method string, params any) int {
	c.tb.Helper()
	c.id++
	c.send(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	return c.id
}

// response waits for the response to request id, keeping the
// notifications that come first.
func (c *client) response(id int) *message {
	c.tb.Helper()
	for {
		m := c.next()
		if m.Method != "" {
			c.pending = append(c.pending, m)
			continue
		}
		if string(m.ID) != fmt.Sprint(id) {
			c.tb.Fatalf("a response to %s, want %d", m.ID, id)
		}
		return m
	}
}

// request sends a request and returns its response.
func (c *client) request(method string, params any) *message {
	c.tb.Helper()
	return c.response(c.start(method, params))
}

// diagnostics waits for the diagnostics of a document, and returns them
// with the version they are of. The other messages read meanwhile are
// kept.
func (c *client) diagnostics(uri string) (int, []Diagnostic) {
	c.tb.Helper()
	for i := 0; ; i++ {
		var m *message
		if i < len(c.pending) {
			m = c.pending[i]
		} else {
			m = c.next()
			c.pending = append(c.pending, m)
		}
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p publishDiagnosticsParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			c.tb.Fatal(err)
		}
		if p.URI != uri {
			continue
		}
		c.pending = append(c.pending[:i], c.pending[i+1:]...)
		v := -1
		if p.Version != nil {
			v = *p.Version
		}
		return v, p.Diagnostics
	}
}

// diagnosticsOf waits for the diagnostics of a version of a document,
// passing over those of older versions.
func (c *client) diagnosticsOf(uri string, version int) []Diagnostic {
	c.tb.Helper()
	for {
		v, d := c.diagnostics(uri)
		if v == version {
			return d
		}
		if v > version {
			c.tb.Fatalf("%s: diagnostics of version %d, waiting for %d", uri, v, version)
		}
	}
}

func (c *client) open(uri string, version int, text string) {
	c.tb.Helper()
	c.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: "kpatch", Version: version, Text: text}})
}

func (c *client) change(uri string, version int, text string) {
	c.tb.Helper()
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"text": text}}})
}

// hover asks for the hover at a position, and returns its text ("" for
// none) or the error.
func (c *client) hover(uri string, line, char int) (string, *rpcError) {
	c.tb.Helper()
	m := c.request("textDocument/hover", positionParams{TextDocument: textDocumentIdentifier{URI: uri}, Position: Position{Line: line, Character: char}})
	if m.Error != nil {
		return "", m.Error
	}
	var h *Hover
	if err := json.Unmarshal(m.Result, &h); err != nil {
		c.tb.Fatal(err)
	}
	if h == nil {
		return "", nil
	}
	return h.Contents.Value, nil
}

// stop shuts the server down, as an editor does.
func (c *client) stop() {
	c.tb.Helper()
	c.request("shutdown", nil)
	c.notify("exit", nil)
	if err := <-c.served; err != nil {
		c.tb.Fatalf("after shutdown and exit: %v", err)
	}
	c.served <- nil // for the cleanup
}

// writeBenchProject writes the project of the benchmarks into dir: 1,000
// manifests (500 Deployments app-000 to app-499, with containers main and
// sidecar, and 500 Services), values version and replicas, and a patch
// folder overrides holding an empty a.kpatch.
func writeBenchProject(tb testing.TB, dir string) {
	write := func(name, text string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
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
	write("overrides/a.kpatch", "")
}
