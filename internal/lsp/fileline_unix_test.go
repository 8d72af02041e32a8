//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kmerge/kmerge/tree"
)

// TestFileLine: placing a position in another file reads that file up to
// the position's line, and nothing from what is not a regular file (issue
// 25 item 6: a project file linked to /dev/zero was refused by the byte
// limit, then read again without one to place the diagnostic, to 5 GB and
// an out-of-memory crash; a FIFO would block the server for ever).
func TestFileLine(t *testing.T) {
	dir := t.TempDir()
	crlf := filepath.Join(dir, "crlf.yaml")
	if err := os.WriteFile(crlf, []byte("a: 1\r\nb: 2\r\n\r\nlast"), 0o644); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, "long.yaml")
	if err := os.WriteFile(long, []byte(strings.Repeat("x", 100_000)+"\nsecond\n"+strings.Repeat("y", 100_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		line int
		want string
		ok   bool
	}{
		{crlf, 1, "a: 1", true},
		{crlf, 2, "b: 2", true},
		{crlf, 3, "", true},
		{crlf, 4, "last", true},
		{crlf, 5, "", false},
		{crlf, 0, "", false},
		{long, 2, "second", true},
		{long, 3, strings.Repeat("y", 4096), true}, // as much of a long line as the reader holds
		{fifo, 1, "", false},
		{zero, 1, "", false},
		{filepath.Join(dir, "missing"), 1, "", false},
	} {
		done := make(chan struct{})
		var got string
		var ok bool
		go func() {
			got, ok = fileLine(c.path, c.line)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s line %d: still reading after 5 s", filepath.Base(c.path), c.line)
		}
		if ok != c.ok || got != c.want {
			t.Errorf("%s line %d: %.40q %v, want %.40q %v", filepath.Base(c.path), c.line, got, ok, c.want, c.ok)
		}
	}
	// the range at a position of a line read so: the rest of the line
	if r := fileRange(tree.Position{File: crlf, Line: 2, Column: 4}, "b: 2", true, true); r.Start.Line != 1 || r.Start.Character != 3 || r.End.Character != 4 {
		t.Errorf("fileRange: %+v", r)
	}
}
