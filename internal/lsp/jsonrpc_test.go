package lsp

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestReadMessage(t *testing.T) {
	in := "Content-Length: 37\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" +
		`{"jsonrpc":"2.0","id":1,"method":"x"}` +
		"Content-Length: 5\r\n\r\n{bad}"
	r := bufio.NewReader(strings.NewReader(in))
	m, err := readMessage(r)
	if err != nil || m.Method != "x" || string(m.ID) != "1" {
		t.Fatalf("%+v %v", m, err)
	}
	m, err = readMessage(r)
	if err != nil || m.Error == nil || m.Error.Code != codeParseError {
		t.Fatalf("bad JSON: %+v %v", m, err)
	}
	if _, err := readMessage(r); err != io.EOF {
		t.Fatalf("at the end: %v, want EOF", err)
	}
	for _, bad := range []string{"Content-Length: x\r\n\r\n", "\r\n{}", "Content-Length: 10\r\n\r\n{}"} {
		if _, err := readMessage(bufio.NewReader(strings.NewReader(bad))); err == nil || err == io.EOF {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestReply(t *testing.T) {
	var b bytes.Buffer
	c := &conn{w: &b}
	c.reply([]byte("7"), nil, nil)
	c.reply([]byte("8"), nil, &rpcError{Code: codeMethodNotFound, Message: "no"})
	want := "Content-Length: 38\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":null}" +
		"Content-Length: 63\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":8,\"error\":{\"code\":-32601,\"message\":\"no\"}}"
	if b.String() != want {
		t.Fatalf("%q\nwant %q", b.String(), want)
	}
}

// Ranges in UTF-16: a character outside the BMP counts two.
func TestPositions(t *testing.T) {
	d := newDocument("file:///p/x.kpatch", 1, "[cm.x]\ndata.a: \"😀\" # é\n")
	if p := d.pos(1, len("data.a: \"😀\"")); p.Character != 12 {
		t.Errorf("utf-16 column %d, want 12", p.Character)
	}
	if b := d.byteCol(Position{Line: 1, Character: 12}); b != len("data.a: \"😀\"") {
		t.Errorf("byte column %d", b)
	}
	// lone CRs end lines, as LSP and the .kpatch parser have them (the
	// parser's errors are on those lines)
	for _, text := range []string{"[cm.x]\rdata.a: 1\r", "[cm.x]\r\ndata.a: 1\r\n", "[cm.x]\ndata.a: 1\n"} {
		if c := newDocument("file:///p/x.kpatch", 1, text); len(c.lines) != 3 || c.lines[1] != "data.a: 1" {
			t.Errorf("%q: lines %q", text, c.lines)
		}
	}
	if d.path != "/p/x.kpatch" || pathURI("/p/a b.kpatch") != "file:///p/a%20b.kpatch" || uriPath("file:///p/a%20b.kpatch") != "/p/a b.kpatch" {
		t.Errorf("uris: %s %s", d.path, pathURI("/p/a b.kpatch"))
	}
}
