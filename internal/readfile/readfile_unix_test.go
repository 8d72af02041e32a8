//go:build unix

package readfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kmerge/kmerge/tree"
)

// within runs f, failing the test when it has not returned after 10 s.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: still running after 10 s", what)
	}
}

// TestRead: a regular file (and a link to one) is read by Given and Found
// alike, one above the byte limit refused before it is read (the limit's
// error, as tree.ReadFile gives it); a named pipe is read by Given, as cat
// reads it, and refused by Found without being opened (opening it would
// wait for a writer); a device, a link to one and a folder are refused by
// both, naming what they are and where a link leads.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	file := write("a.yaml", "a: 1\n")
	link := filepath.Join(dir, "link.yaml")
	zero := filepath.Join(dir, "zero.yaml")
	pipe := filepath.Join(dir, "pipe.yaml")
	if err := os.Symlink("a.yaml", link); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	for _, given := range []bool{false, true} {
		for _, p := range []string{file, link} {
			if data, err := Read(p, nil, given); err != nil || string(data) != "a: 1\n" {
				t.Errorf("Read(%s, given %v): %q, %v", p, given, data, err)
			}
		}
		_, err := Read(write("big.yaml", strings.Repeat("a", 101)), &tree.Limits{MaxBytes: 100}, given)
		var se *tree.SyntaxError
		if !errors.As(err, &se) || se.Limit != "bytes" || !strings.HasSuffix(err.Error(), "input is 101 bytes, more than the limit of 100") {
			t.Errorf("a file above the limit, given %v: %v", given, err)
		}
		for _, c := range []struct {
			path, target string
			typ          fs.FileMode
		}{{zero, "/dev/zero", fs.ModeDevice | fs.ModeCharDevice}, {"/dev/null", "", fs.ModeDevice | fs.ModeCharDevice}, {dir, "", fs.ModeDir}} {
			_, err := Read(c.path, nil, given)
			var ne *NotRegularError
			if !errors.As(err, &ne) || ne.Path != c.path || ne.Type != c.typ || ne.Target != c.target || ne.Given != given {
				t.Errorf("Read(%s, given %v): %#v", c.path, given, err)
			}
		}
	}
	var err error
	within(t, "Found on a named pipe", func() { _, err = Found(pipe, nil) })
	var ne *NotRegularError
	want := pipe + ": a named pipe (FIFO), not a regular file: kmerge reads only regular files in the folders it walks and from kustomizations (a pipe only when named on the command line)"
	if !errors.As(err, &ne) || err.Error() != want {
		t.Errorf("Found(a named pipe): %v\nwant: %s", err, want)
	}
	go func() {
		f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
		if err == nil {
			f.WriteString("b: 2\n")
			f.Close()
		}
	}()
	var data []byte
	within(t, "Given on a named pipe", func() { data, err = Given(pipe, nil) })
	if err != nil || string(data) != "b: 2\n" {
		t.Errorf("Given(a named pipe): %q, %v", data, err)
	}
	within(t, "OpenRegular on a named pipe", func() { _, _, err = OpenRegular(pipe) })
	if !errors.As(err, &ne) {
		t.Errorf("OpenRegular(a named pipe): %v", err)
	}
	f, info, err := OpenRegular(link)
	if err != nil || info.Size() != 5 {
		t.Errorf("OpenRegular(a link to a file): %v, %v", info, err)
	} else {
		f.Close()
	}
}
