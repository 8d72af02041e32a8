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
	cr := filepath.Join(dir, "cr.yaml")
	if err := os.WriteFile(cr, []byte("a: 1\rb: 2\r\rlast\r"), 0o644); err != nil {
		t.Fatal(err)
	}
	nel := filepath.Join(dir, "nel.yaml")
	if err := os.WriteFile(nel, []byte("a: 1\u0085b: 2\u2028c: 3\u2029d"), 0o644); err != nil {
		t.Fatal(err)
	}
	kp := filepath.Join(dir, "p.kpatch")
	if err := os.WriteFile(kp, []byte("a = \"x\u0085y\"\rb = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		line int
		want string
		ok   bool
		yaml bool // the file's lines as a YAML file's
	}{
		{crlf, 1, "a: 1", true, true},
		{crlf, 2, "b: 2", true, true},
		{crlf, 3, "", true, true},
		{crlf, 4, "last", true, true},
		{crlf, 5, "", false, true},
		{crlf, 0, "", false, true},
		{long, 2, "second", true, true},
		{long, 3, strings.Repeat("y", 4096), true, true}, // as much of a long line as the reader holds
		// a lone CR ends a line, and in a YAML file NEL, LS and PS do
		// (kmerge's YAML reader counts them); in a .kpatch file they do
		// not (cut at LF alone, these files were one line each)
		{cr, 2, "b: 2", true, true},
		{cr, 3, "", true, true},
		{cr, 4, "last", true, true},
		{cr, 5, "", false, true},
		{nel, 2, "b: 2", true, true},
		{nel, 3, "c: 3", true, true},
		{nel, 4, "d", true, true},
		{kp, 1, "a = \"x\u0085y\"", true, false},
		{kp, 2, "b = 1", true, false},
		{kp, 3, "", false, false},
		{fifo, 1, "", false, true},
		{zero, 1, "", false, true},
		{filepath.Join(dir, "missing"), 1, "", false, true},
	} {
		done := make(chan struct{})
		var got string
		var ok bool
		go func() {
			l := fileLine(c.path, c.line, c.yaml)
			got, ok = l.text, l.ok
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
	if r := fileRange(tree.Position{File: crlf, Line: 2, Column: 4}, fileText{text: "b: 2", ok: true, line: 1}, true); r.Start.Line != 1 || r.Start.Character != 3 || r.End.Character != 4 {
		t.Errorf("fileRange: %+v", r)
	}
}
