// Package lsp is kmerge's language server (`kmerge lsp`): the Language
// Server Protocol over standard input and output for .kpatch files and
// YAML patch lists. For the project a file belongs to (its kmerge.yaml),
// it reports what kmerge apply would (parse errors, unknown fields, values
// of the wrong type, undefined variables, ambiguous shortcuts, targets and
// selectors that match nothing, conflicts between patches) as the file is
// typed, and completes, explains (hover), finds (go to definition) and
// formats. The language logic is kmerge's own: the parsers, kpatch.Run
// on copies of the targeted objects, kpatch.Lookup, syntax.Format, and the
// text of kmerge explain. Each edit is checked in the background, cancelling
// the check of the text it replaces, and re-does only what it touched
// (check.go).
//
// The protocol layer is written here (JSON-RPC framing and the few
// structures used) rather than taken from a library: see docs/editors.md.
package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"sync"

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
// belong to. One goroutine reads the messages and acts on them in order
// (Serve): it owns the documents. The work runs beside it: each version of
// a document is checked in the background (check.go), an edit cancelling
// the check of the version it replaces, and each request is answered by a
// goroutine of its own, which waits for the check of the version it is
// about; $/cancelRequest cancels a request not answered yet, which then
// answers with the error RequestCancelled.
type Server struct {
	opts  Options
	conn  *conn
	ctx   context.Context // the server's: done when Serve returns
	work  sync.WaitGroup  // checks and requests running
	ended chan ended      // checks that have ended, for the reading goroutine to publish

	// the reading goroutine's
	docs  map[string]*document // by URI: the current version
	state int

	wsMu       sync.Mutex
	workspaces map[string]*workspace // by project key
	projectOf  map[string]*workspace // cache: folder -> workspace

	reqMu   sync.Mutex
	pending map[string]context.CancelFunc // requests not answered yet, by ID
}

// ended is a check that has ended, with what it found (nil: cancelled).
type ended struct {
	d *document
	a *analysis
}

const (
	stateNew = iota
	stateRunning
	stateShutDown
)

// Error codes of the protocol for requests that were not answered.
const (
	codeRequestCancelled = -32800 // the client cancelled it ($/cancelRequest)
	codeContentModified  = -32801 // the document changed before the answer was ready
)

func newServer(ctx context.Context, out io.Writer, opts Options) *Server {
	return &Server{opts: opts, conn: &conn{w: out}, ctx: ctx, ended: make(chan ended),
		docs: map[string]*document{}, workspaces: map[string]*workspace{}, projectOf: map[string]*workspace{},
		pending: map[string]context.CancelFunc{}}
}

// Serve runs a server on a stream (the editor's end of standard input and
// output) until the client sends exit or closes the stream. It returns nil
// after shutdown and exit, an error otherwise (the process then exits 1,
// as the protocol asks). The work still running when it returns is
// cancelled, and waited for.
func Serve(in io.Reader, out io.Writer, opts Options) error {
	ctx, cancel := context.WithCancel(context.Background())
	return newServer(ctx, out, opts).serve(in, cancel)
}

// serve is Serve on a server made; cancel cancels its context.
func (s *Server) serve(in io.Reader, cancel context.CancelFunc) error {
	ctx := s.ctx
	defer s.work.Wait()
	defer cancel()
	msgs := make(chan *message)
	failed := make(chan error, 1)
	go func() {
		r := bufio.NewReader(in)
		for {
			m, err := readMessage(r)
			if err != nil {
				failed <- err
				return
			}
			select {
			case msgs <- m:
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case m := <-msgs:
			if m.Method == "exit" {
				if s.state == stateShutDown {
					return nil
				}
				return errors.New("exit before shutdown")
			}
			s.handle(m)
		case e := <-s.ended:
			s.publish(e)
		case err := <-failed:
			if err == io.EOF {
				return errors.New("the client closed the connection without exit")
			}
			return err
		}
	}
}

// handle acts on a notification, or answers a request: at once, or from
// a goroutine of its own (async).
func (s *Server) handle(m *message) {
	if m.Error != nil && m.Method == "" && m.ID == nil {
		s.conn.reply(json.RawMessage("null"), nil, m.Error)
		return
	}
	result, rerr := s.dispatch(m)
	if m.ID == nil || result == later {
		if rerr != nil && s.opts.Log != nil {
			fmt.Fprintf(s.opts.Log, "kmerge lsp: %s: %s\n", m.Method, rerr.Message)
		}
		return
	}
	s.answer(m, result, rerr)
}

// answer replies to a request, logging a failure.
func (s *Server) answer(m *message, result any, rerr *rpcError) {
	if rerr != nil && s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "kmerge lsp: %s: %s\n", m.Method, rerr.Message)
	}
	s.conn.reply(m.ID, result, rerr)
}

// later is the result of a request that a goroutine of its own answers.
var later = new(int)

// async answers a request from a goroutine of its own, with what work
// returns. work's context is done when the client cancels the request
// ($/cancelRequest), or the server stops; a request cancelled before it is
// answered is answered with the error RequestCancelled.
func (s *Server) async(m *message, work func(ctx context.Context) (any, *rpcError)) (any, *rpcError) {
	if m.ID == nil {
		return nil, nil // a notification asks for no answer
	}
	key := requestKey(m.ID)
	ctx, cancel := context.WithCancel(s.ctx)
	s.reqMu.Lock()
	s.pending[key] = cancel
	s.reqMu.Unlock()
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		result, rerr := work(ctx)
		s.reqMu.Lock()
		delete(s.pending, key)
		cancelled := ctx.Err() != nil
		s.reqMu.Unlock()
		cancel()
		switch {
		case s.ctx.Err() != nil:
			return // the server has stopped
		case cancelled:
			result, rerr = nil, &rpcError{Code: codeRequestCancelled, Message: "the request was cancelled"}
		}
		s.answer(m, result, rerr)
	}()
	return later, nil
}

// requestKey is a request's ID as the key of pending: its JSON, compact.
func requestKey(id json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, id); err != nil {
		return string(id)
	}
	return b.String()
}

// cancelRequest cancels a request not answered yet ($/cancelRequest);
// one answered already, or unknown, is left alone.
func (s *Server) cancelRequest(id json.RawMessage) {
	s.reqMu.Lock()
	defer s.reqMu.Unlock()
	if cancel := s.pending[requestKey(id)]; cancel != nil {
		cancel()
	}
}

// analysisFor waits for the check of a version of a document: an error
// when the request is cancelled first, or when a newer version replaced
// this one (or the project changed) before the check ended.
func analysisFor(ctx context.Context, d *document) (*analysis, *rpcError) {
	a, err := d.check.wait(ctx)
	switch {
	case err != nil:
		return nil, &rpcError{Code: codeRequestCancelled, Message: "the request was cancelled"}
	case a == nil:
		return nil, &rpcError{Code: codeContentModified, Message: "the document changed: ask again"}
	}
	return a, nil
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
	// a request about a document: answered once its check has ended
	about := func(uri string, answer func(d *document, a *analysis) any) (any, *rpcError) {
		d := s.docs[uri]
		if d == nil {
			return nil, nil
		}
		return s.async(m, func(ctx context.Context) (any, *rpcError) {
			a, rerr := analysisFor(ctx, d)
			if rerr != nil {
				return nil, rerr
			}
			return answer(d, a), nil
		})
	}
	switch m.Method {
	case "initialized", "$/setTrace", "workspace/didChangeConfiguration":
		return nil, nil
	case "$/cancelRequest":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.cancelRequest(p.ID)
		return nil, nil
	case "shutdown":
		s.state = stateShutDown
		return nil, nil
	case "textDocument/didOpen":
		var p didOpenParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		s.replace(newDocument(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text))
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
		text := d.text
		for _, c := range p.ContentChanges {
			if c.Range != nil {
				return nil, &rpcError{Code: codeInvalidParams, Message: "incremental change: the server asks for full text (TextDocumentSyncKind.Full)"}
			}
			text = c.Text
		}
		s.replace(newDocument(d.uri, p.TextDocument.Version, text))
		return nil, nil
	case "textDocument/didClose":
		var p didCloseParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		if d := s.docs[p.TextDocument.URI]; d != nil {
			d.check.cancel()
			delete(s.docs, d.uri)
			s.closed(d)
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
		return about(p.TextDocument.URI, func(d *document, a *analysis) any { return s.complete(d, a, p.Position) })
	case "textDocument/hover":
		var p positionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return about(p.TextDocument.URI, func(d *document, a *analysis) any {
			if h := s.hover(d, a, p.Position); h != nil {
				return h
			}
			return nil
		})
	case "textDocument/definition":
		var p positionParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return about(p.TextDocument.URI, func(d *document, a *analysis) any { return s.definition(d, a, p.Position) })
	case "textDocument/formatting":
		var p formattingParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		d := s.docs[p.TextDocument.URI]
		if d == nil || !d.kpatch {
			return nil, nil
		}
		return s.async(m, func(context.Context) (any, *rpcError) { return format(d) })
	}
	if m.ID == nil {
		return nil, nil // notifications the server does not know are ignored
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: "unknown method " + m.Method}
}

// format formats a .kpatch document: one edit replacing its text, none
// when it is formatted already.
func format(d *document) (any, *rpcError) {
	out, err := syntax.Format([]byte(d.text), d.path, syntax.Options{})
	if err != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "the file does not parse: " + err.Error()}
	}
	if string(out) == d.text {
		return []TextEdit{}, nil
	}
	last := len(d.lines) - 1
	return []TextEdit{{Range: Range{End: d.pos(last, len(d.line(last)))}, NewText: string(out)}}, nil
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

// replace makes d the current version of its document: the check of the
// version it replaces is cancelled (its diagnostics would be stale), and
// d's begins.
func (s *Server) replace(d *document) {
	var before *check
	if old := s.docs[d.uri]; old != nil {
		old.check.cancel()
		before = old.check
	}
	s.docs[d.uri] = d
	others := make(map[string]*document, len(s.docs))
	for _, od := range s.docs {
		if od != d {
			others[od.path] = od
		}
	}
	ctx, cancel := context.WithCancel(s.ctx)
	c := &check{cancel: cancel, done: make(chan struct{})}
	d.check = c
	s.work.Add(1)
	go func() {
		defer s.work.Done()
		defer cancel()
		// One check of a document runs at a time: the one it replaces
		// (cancelled above) ends first, and a check replaced while it
		// waits does nothing. Changes sent faster than a check takes
		// cost one check's memory, not one each.
		if before != nil {
			select {
			case <-before.done:
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			close(c.done)
			return
		}
		a := s.analyze(ctx, d, others)
		if ctx.Err() != nil {
			a = nil
		}
		c.a = a
		close(c.done)
		if a != nil {
			select {
			case s.ended <- ended{d, a}:
			case <-s.ctx.Done():
			}
		}
	}()
}

// publish sends the diagnostics of a check that has ended, unless a newer
// version replaced its document (or the document was closed) meanwhile.
func (s *Server) publish(e ended) {
	if s.docs[e.d.uri] != e.d {
		return
	}
	v := e.d.version
	diags := e.a.diagnostics
	if diags == nil {
		diags = []Diagnostic{}
	}
	s.conn.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: e.d.uri, Version: &v, Diagnostics: diags})
}

// closed lets the caches go of what a closed document's checks kept.
func (s *Server) closed(d *document) {
	s.wsMu.Lock()
	defer s.wsMu.Unlock()
	for _, ws := range s.workspaces {
		ws.retain(d.uri, nil)
	}
}

// workspaceFor returns the project of a file, loaded: found the first
// time, and loaded once (the checks that need it meanwhile wait).
func (s *Server) workspaceFor(path string) *workspace {
	dir := filepath.Dir(path)
	s.wsMu.Lock()
	ws, ok := s.projectOf[dir]
	s.wsMu.Unlock()
	if !ok {
		key, p, err := findProject(path)
		s.wsMu.Lock()
		if ws, ok = s.workspaces[key]; !ok {
			ws = newWorkspace(key, p, err, s.opts.ShowSecrets)
			s.workspaces[key] = ws
		}
		s.projectOf[dir] = ws
		s.wsMu.Unlock()
	}
	ws.load(s.ctx)
	return ws
}

// changed reacts to a file saved or changed on disk: a manifest, values
// file, schema or project file reloads its project (on the next check); a
// patch file is parsed again. Every open document is checked again, since
// conflicts and targets may have changed.
func (s *Server) changed(path string, created bool) {
	s.wsMu.Lock()
	for key, ws := range s.workspaces {
		if ws.owns(path, created) || ws.failed() {
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
	s.wsMu.Unlock()
	uris := make([]string, 0, len(s.docs))
	for uri := range s.docs {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		s.replace(s.docs[uri].again())
	}
}
