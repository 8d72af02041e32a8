// Package lsp is kmerge's language server (`kmerge lsp`): the Language
// Server Protocol over standard input and output for .kpatch files and
// YAML patch lists. For the project a file belongs to (its kmerge.yaml),
// it reports what kmerge apply would (parse errors, unknown fields, values
// of the wrong type, undefined variables, ambiguous shortcuts, targets and
// selectors that match nothing, conflicts between patches) as the file is
// typed, and completes, explains (hover), finds (go to definition) and
// formats. The language logic is kmerge's own: the parsers, kpatch.Apply
// on copies of the targeted objects, kpatch.Lookup, syntax.Format, and the
// text of kmerge explain.
//
// The protocol layer is written here (JSON-RPC framing and the few
// structures used) rather than taken from a library: see docs/editors.md.
package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// Options configure a server.
type Options struct {
	// Version is reported to the client as the server's version.
	Version string
	// Log receives a line per failed request (standard error, for an
	// editor's log); nil discards them.
	Log io.Writer
	// ShowSecrets shows the values of Secrets (data, stringData) in clear
	// in hovers and diagnostics; by default they are masked, as kmerge
	// apply masks them (kmerge lsp --show-secrets).
	ShowSecrets bool
}

// Server is a language server: the open documents and the projects they
// belong to. It handles one message at a time.
type Server struct {
	opts       Options
	conn       *conn
	docs       map[string]*document  // by URI
	workspaces map[string]*workspace // by project key
	projectOf  map[string]*workspace // cache: folder -> workspace
	state      int
}

const (
	stateNew = iota
	stateRunning
	stateShutDown
)

// Serve runs a server on a stream (the editor's end of standard input and
// output) until the client sends exit or closes the stream. It returns nil
// after shutdown and exit, an error otherwise (the process then exits 1,
// as the protocol asks).
func Serve(in io.Reader, out io.Writer, opts Options) error {
	s := &Server{opts: opts, conn: &conn{w: out}, docs: map[string]*document{},
		workspaces: map[string]*workspace{}, projectOf: map[string]*workspace{}}
	r := bufio.NewReader(in)
	for {
		m, err := readMessage(r)
		if err == io.EOF {
			return errors.New("the client closed the connection without exit")
		}
		if err != nil {
			return err
		}
		if m.Error != nil && m.Method == "" && m.ID == nil {
			s.conn.reply(json.RawMessage("null"), nil, m.Error)
			continue
		}
		if m.Method == "exit" {
			if s.state == stateShutDown {
				return nil
			}
			return errors.New("exit before shutdown")
		}
		s.handle(m)
	}
}

// handle answers a request or acts on a notification.
func (s *Server) handle(m *message) {
	isRequest := m.ID != nil
	result, rerr := s.dispatch(m)
	if !isRequest {
		if rerr != nil && s.opts.Log != nil {
			fmt.Fprintf(s.opts.Log, "kmerge lsp: %s: %s\n", m.Method, rerr.Message)
		}
		return
	}
	if rerr != nil && s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "kmerge lsp: %s: %s\n", m.Method, rerr.Message)
	}
	s.conn.reply(m.ID, result, rerr)
}

func (s *Server) dispatch(m *message) (any, *rpcError) {
	switch {
	case m.Method == "initialize":
		s.state = stateRunning
		return s.initialize(), nil
	case s.state == stateNew:
		return nil, &rpcError{Code: codeNotInitialized, Message: "initialize first"}
	case s.state == stateShutDown && m.ID != nil:
		return nil, &rpcError{Code: codeInvalidRequest, Message: "the server is shutting down"}
	}
	decode := func(v any) *rpcError {
		if err := json.Unmarshal(m.Params, v); err != nil {
			return &rpcError{Code: codeInvalidParams, Message: err.Error()}
		}
		return nil
	}
	switch m.Method {
	case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration":
		return nil, nil
	case "shutdown":
		s.state = stateShutDown
		return nil, nil
	case "textDocument/didOpen":
		var p didOpenParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		d := newDocument(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
		s.docs[d.uri] = d
		s.publish(d)
		return nil, nil
	case "textDocument/didChange":
		var p didChangeParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		d := s.docs[p.TextDocument.URI]
		if d == nil {
			return nil, &rpcError{Code: codeInvalidParams, Message: "didChange of a document that is not open"}
		}
		for _, c := range p.ContentChanges {
			if c.Range != nil {
				return nil, &rpcError{Code: codeInvalidParams, Message: "incremental change: the server asks for full text (TextDocumentSyncKind.Full)"}
			}
			d.setText(c.Text)
		}
		d.version = p.TextDocument.Version
		s.publish(d)
		return nil, nil
	case "textDocument/didClose":
		var p didCloseParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		if d := s.docs[p.TextDocument.URI]; d != nil {
			delete(s.docs, d.uri)
			s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Diagnostics: []Diagnostic{}})
		}
		return nil, nil
	case "textDocument/didSave":
		var p didSaveParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.changed(uriPath(p.TextDocument.URI), false)
		return nil, nil
	case "workspace/didChangeWatchedFiles":
		var p didChangeWatchedFilesParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		for _, c := range p.Changes {
			s.changed(uriPath(c.URI), c.Type != 2)
		}
		return nil, nil
	case "textDocument/completion":
		var p positionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		if d := s.docs[p.TextDocument.URI]; d != nil {
			return s.complete(d, p.Position), nil
		}
		return nil, nil
	case "textDocument/hover":
		var p positionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		if d := s.docs[p.TextDocument.URI]; d != nil {
			if h := s.hover(d, p.Position); h != nil {
				return h, nil
			}
		}
		return nil, nil
	case "textDocument/definition":
		var p positionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		if d := s.docs[p.TextDocument.URI]; d != nil {
			return s.definition(d, p.Position), nil
		}
		return nil, nil
	case "textDocument/formatting":
		var p formattingParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		d := s.docs[p.TextDocument.URI]
		if d == nil || !d.kpatch {
			return nil, nil
		}
		out, err := syntax.Format([]byte(d.text), d.path)
		if err != nil {
			return nil, &rpcError{Code: codeInternalError, Message: "the file does not parse: " + err.Error()}
		}
		if string(out) == d.text {
			return []TextEdit{}, nil
		}
		last := len(d.lines) - 1
		return []TextEdit{{Range: Range{End: d.pos(last, len(d.line(last)))}, NewText: string(out)}}, nil
	}
	if m.ID == nil {
		return nil, nil // notifications the server does not know are ignored
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: "unknown method " + m.Method}
}

func (s *Server) initialize() any {
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": "utf-16",
			"textDocumentSync": map[string]any{"openClose": true, "change": 1, "save": map[string]any{"includeText": false}},
			"completionProvider": map[string]any{
				"triggerCharacters": []string{".", "[", "=", "{", "/"},
			},
			"hoverProvider":              true,
			"definitionProvider":         true,
			"documentFormattingProvider": true,
		},
		"serverInfo": map[string]any{"name": "kmerge", "version": s.opts.Version},
	}
}

// publish analyses a document and sends its diagnostics.
func (s *Server) publish(d *document) {
	d.analysis = s.analyze(d)
	v := d.version
	diags := d.analysis.diagnostics
	if diags == nil {
		diags = []Diagnostic{}
	}
	s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: diags})
}

// analysisOf returns a document's analysis, made when missing.
func (s *Server) analysisOf(d *document) *analysis {
	if d.analysis == nil {
		d.analysis = s.analyze(d)
	}
	return d.analysis
}

// workspaceFor returns the loaded project of a file, loading it the first
// time.
func (s *Server) workspaceFor(path string) *workspace {
	dir := filepath.Dir(path)
	if ws, ok := s.projectOf[dir]; ok {
		return ws
	}
	key, p, err := findProject(path)
	ws, ok := s.workspaces[key]
	if !ok {
		ws = loadWorkspace(key, p, err)
		ws.showSecrets = s.opts.ShowSecrets
		s.workspaces[key] = ws
	}
	s.projectOf[dir] = ws
	return ws
}

// changed reacts to a file saved or changed on disk: a manifest, values
// file, schema or project file reloads its project (lazily, on the next
// analysis); a patch file is parsed again. Every open document is
// analysed again, since conflicts and targets may have changed.
func (s *Server) changed(path string, created bool) {
	for key, ws := range s.workspaces {
		if ws.owns(path, created) || ws.err != nil {
			delete(s.workspaces, key)
			for dir, w := range s.projectOf {
				if w == ws {
					delete(s.projectOf, dir)
				}
			}
			continue
		}
		ws.forget(path)
	}
	if filepath.Base(path) == "kmerge.yaml" {
		s.projectOf = map[string]*workspace{} // a new project file may take folders over
	}
	uris := make([]string, 0, len(s.docs))
	for uri := range s.docs {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		s.publish(s.docs[uri])
	}
}

// docByPath returns the open document of a file, nil when it is not open.
func (s *Server) docByPath(path string) *document {
	for _, d := range s.docs {
		if d.path == path {
			return d
		}
	}
	return nil
}
