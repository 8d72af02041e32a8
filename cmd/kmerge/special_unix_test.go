//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFiles: what is not a regular file is refused with its path
// and what it is, at every place kmerge reads a file: a link to /dev/zero
// (a device's size is 0, so the size check let it through, and it was read
// up to the byte limit: 256 MB by default, 5 s and 600 MB) given with -f,
// -p, --values, --schema (read without any limit, until memory ran out),
// listed in kmerge.yaml, named by a kustomization (even with
// --load-restrictor LoadRestrictionsNone) or met in a folder; a named pipe
// met in a folder (opening it waited for a writer forever), in the
// manifests, the patches, kmerge patch's and kmerge fmt's folders and
// kmerge init's; a link to one where --output-dir writes a file. A pipe
// named on the command line is read, as cat reads it (bash's <(...)); one
// given as a patch file that holds no patches used to be opened again to
// say so, and waited forever. Each case runs the kmerge binary, killed
// after 20 s; --limit bytes=1Mi keeps the old behaviour short where a
// limit applied.
func TestSpecialFiles(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skipf("no /dev/zero: %v", err)
	}
	bin := kmergeBinary(t)
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n"
	limit := []string{"--limit", "bytes=1Mi"}
	for _, c := range []struct {
		name   string
		files  map[string]string
		links  map[string]string // name: target
		fifos  []string
		feed   map[string]string // a pipe: what a writer writes into it
		args   []string
		code   int
		stderr string
		stdout string
		// notStdout is a text standard output must not hold
		notStdout string
	}{
		{name: "a named pipe among the manifests", files: map[string]string{"base/c.yaml": cm, "p.kpatch": "[cm.c]\ndata.k: w\n"}, fifos: []string{"base/f.yaml"},
			args: append([]string{"apply", "-f", "base", "-p", "p.kpatch"}, limit...), code: 1,
			stderr: "kmerge: base/f.yaml: a named pipe (FIFO), not a regular file: kmerge reads only regular files in the folders it walks and from kustomizations (a pipe only when named on the command line)\n"},
		{name: "a link to /dev/zero among the manifests", files: map[string]string{"base/c.yaml": cm, "p.kpatch": "[cm.c]\ndata.k: w\n"}, links: map[string]string{"base/zero.yaml": "/dev/zero"},
			args: append([]string{"apply", "-f", "base", "-p", "p.kpatch"}, limit...), code: 1,
			stderr: "kmerge: base/zero.yaml: a character device (the link leads to /dev/zero), not a regular file"},
		{name: "-f a link to /dev/zero", files: map[string]string{"p.kpatch": "[cm.c]\ndata.k: w\n"}, links: map[string]string{"zero.yaml": "/dev/zero"},
			args: append([]string{"apply", "-f", "zero.yaml", "-p", "p.kpatch"}, limit...), code: 1,
			stderr: "kmerge: zero.yaml: a character device (the link leads to /dev/zero), not a regular file: kmerge reads regular files, and pipes named on purpose (- is standard input)\n"},
		{name: "-p a link to /dev/zero", files: map[string]string{"base/c.yaml": cm}, links: map[string]string{"zero.kpatch": "/dev/zero"},
			args: append([]string{"apply", "-f", "base", "-p", "zero.kpatch"}, limit...), code: 1,
			stderr: "kmerge: zero.kpatch: a character device (the link leads to /dev/zero)"},
		{name: "a named pipe among the patches", files: map[string]string{"base/c.yaml": cm, "patches/p.kpatch": "[cm.c]\ndata.k: w\n"}, fifos: []string{"patches/q.kpatch"},
			args: append([]string{"apply", "-f", "base", "-p", "patches"}, limit...), code: 1,
			stderr: "kmerge: patches/q.kpatch: a named pipe (FIFO), not a regular file"},
		{name: "--values a link to /dev/zero", files: map[string]string{"base/c.yaml": cm, "p.kpatch": "[cm.c]\ndata.k: w\n"}, links: map[string]string{"values.yaml": "/dev/zero"},
			args: append([]string{"apply", "-f", "base", "-p", "p.kpatch", "--values", "values.yaml"}, limit...), code: 1,
			stderr: "kmerge: values.yaml: a character device (the link leads to /dev/zero)"},
		{name: "--schema a link to /dev/zero", files: map[string]string{"base/c.yaml": cm, "p.kpatch": "[cm.c]\ndata.k: w\n"}, links: map[string]string{"crd.yaml": "/dev/zero"},
			args: append([]string{"apply", "-f", "base", "-p", "p.kpatch", "--schema", "crd.yaml"}, limit...), code: 1,
			stderr: "kmerge: --schema crd.yaml: a character device (the link leads to /dev/zero)"},
		{name: "a project's values file a link to /dev/zero", files: map[string]string{"base/c.yaml": cm, "p.kpatch": "[cm.c]\ndata.k: w\n",
			"kmerge.yaml": "apiVersion: kmerge/v1\nkind: Project\nmanifests: [base]\npatches: [p.kpatch]\nvalues: [values.yaml]\n"}, links: map[string]string{"values.yaml": "/dev/zero"},
			args: append([]string{"apply"}, limit...), code: 1,
			stderr: "kmerge: values.yaml: a character device (the link leads to /dev/zero)"},
		{name: "a kustomization's patch a link to /dev/zero, restrictions lifted", files: map[string]string{"base/c.yaml": cm, "overlay/kustomization.yaml": "patches:\n- path: zero.yaml\n"},
			links: map[string]string{"overlay/zero.yaml": "/dev/zero"},
			args:  append([]string{"apply", "-f", "base", "-p", "overlay", "--load-restrictor", "LoadRestrictionsNone"}, limit...), code: 1,
			stderr: "kmerge: overlay/kustomization.yaml:2:9: overlay/zero.yaml: a character device (the link leads to /dev/zero), not a regular file"},
		{name: "--live a link to /dev/zero", files: map[string]string{"base/c.yaml": cm, "p.kpatch": "[cm.c]\ndata.k: w\n"}, links: map[string]string{"live.yaml": "/dev/zero"},
			args: append([]string{"apply", "-f", "base", "-p", "p.kpatch", "--server-side", "--field-manager", "m", "--live", "live.yaml"}, limit...), code: 1,
			stderr: "kmerge: live.yaml: a character device (the link leads to /dev/zero), not a regular file"},
		{name: "--live, a named pipe and a link to /dev/zero in the folder", files: map[string]string{"base/c.yaml": cm, "p.kpatch": "[cm.c]\ndata.k: w\n", "live/c.yaml": cm},
			fifos: []string{"live/f.yaml"}, links: map[string]string{"live/zero.yaml": "/dev/zero"},
			args: append([]string{"blame", "-f", "base", "-p", "p.kpatch", "--live", "live"}, limit...), code: 1,
			stderr: "kmerge: live/f.yaml: a named pipe (FIFO), not a regular file: kmerge reads only regular files in the folders it walks"},
		{name: "a link to a named pipe in the output folder", files: map[string]string{"base/c.yaml": cm, "p.kpatch": "[cm.c]\ndata.k: w\n"},
			fifos: []string{"pipe"}, links: map[string]string{"out/c.yaml": "../pipe"},
			args: append([]string{"apply", "-f", "base", "-p", "p.kpatch", "--output-dir", "out"}, limit...), code: 1,
			stderr: "kmerge: out/c.yaml: a symbolic link (to ../pipe): kmerge does not write through links in the output folder, nor replace them\n"},
		{name: "kmerge patch, a named pipe in the folder", files: map[string]string{"base/c.yaml": cm}, fifos: []string{"base/f.yaml"},
			args: []string{"patch", "-f", "base", "-p", `{"data":{"k":"w"}}`}, code: 1,
			stderr: "kmerge: base/f.yaml: a named pipe (FIFO), not a regular file"},
		{name: "kmerge fmt, a named pipe in the folder", files: map[string]string{"patches/p.kpatch": "[cm.c]\ndata.k: w\n"}, fifos: []string{"patches/q.kpatch"},
			args: []string{"fmt", "patches"}, code: 1,
			stderr: "kmerge: patches/q.kpatch: a named pipe (FIFO), not a regular file"},
		{name: "kmerge init, a named pipe and a link to /dev/zero in the folder", files: map[string]string{"base/c.yaml": cm, "patches/p.kpatch": "[cm.c]\ndata.k: w\n"},
			fifos: []string{"base/f.yaml"}, links: map[string]string{"base/zero.yaml": "/dev/zero"},
			args: []string{"init", "--print"}, code: 0, stdout: "kind: Project"},
		// found by the attack of issue 25: init listed a .kpatch file that is
		// a named pipe or a link to /dev/zero (it classified .kpatch files by
		// their name alone), and the project it wrote then waited on the pipe
		// forever, as a pipe a project file names is read on purpose
		{name: "kmerge init, a named pipe and a link to /dev/zero named .kpatch", files: map[string]string{"base/c.yaml": cm, "base/p.kpatch": "[cm.c]\ndata.k: w\n"},
			fifos: []string{"base/q.kpatch"}, links: map[string]string{"base/zero.kpatch": "/dev/zero"},
			args: []string{"init", "--print"}, code: 0, stdout: "- base/p.kpatch\n", notStdout: "q.kpatch"},
		{name: "kmerge init, a link to /dev/zero named .kpatch", files: map[string]string{"base/c.yaml": cm, "base/p.kpatch": "[cm.c]\ndata.k: w\n"},
			links: map[string]string{"base/zero.kpatch": "/dev/zero"},
			args:  []string{"init", "--print"}, code: 0, stdout: "- base/p.kpatch\n", notStdout: "zero.kpatch"},
		// --project names a folder: its kmerge.yaml is found there, not named
		// on purpose, and a pipe there waited for a writer forever
		{name: "--project a folder whose kmerge.yaml is a named pipe", files: map[string]string{"proj/base/c.yaml": cm}, fifos: []string{"proj/kmerge.yaml"},
			args: []string{"apply", "--project", "proj"}, code: 1,
			stderr: "kmerge: proj/kmerge.yaml: a named pipe (FIFO), not a regular file: kmerge reads only regular files"},
		// and with no flags, Find passes over it, but the hint naming the
		// projects below proposed it (--project . then waited on it)
		{name: "no flags, a kmerge.yaml that is a named pipe", files: map[string]string{"base/c.yaml": cm}, fifos: []string{"kmerge.yaml"},
			args: []string{"apply"}, code: 2,
			stderr: "kmerge: give the manifests with -f (a file, a folder, or - for standard input), or list them in a kmerge.yaml (kmerge init writes one)\n"},
		{name: "-f a named pipe", files: map[string]string{"p.kpatch": "[cm.c]\ndata.k: w\n"}, fifos: []string{"in.yaml"}, feed: map[string]string{"in.yaml": cm},
			args: []string{"apply", "-f", "in.yaml", "-p", "p.kpatch"}, code: 0, stdout: "  k: w\n"},
		{name: "-p a named pipe that holds no patches", files: map[string]string{"base/c.yaml": cm}, fifos: []string{"p.kpatch"}, feed: map[string]string{"p.kpatch": "# nothing yet\n"},
			args: []string{"apply", "-f", "base", "-p", "p.kpatch"}, code: 0, stdout: "  k: v\n",
			stderr: "kmerge: p.kpatch: warning: the file holds no patches, so it changes nothing\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, c.files)
			for name, to := range c.links {
				p := filepath.Join(dir, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.Symlink(to, p); err != nil {
					t.Skipf("no symbolic links: %v", err)
				}
			}
			for _, name := range c.fifos {
				p := filepath.Join(dir, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Skipf("no named pipes: %v", err)
				}
			}
			for name, text := range c.feed {
				go os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644) // waits for the reader
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, c.args...)
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("still running after 20 s (killed)")
			}
			code := cmd.ProcessState.ExitCode()
			if code != c.code || !strings.HasPrefix(stderr.String(), c.stderr) || !strings.Contains(stdout.String(), c.stdout) ||
				c.notStdout != "" && strings.Contains(stdout.String(), c.notStdout) {
				t.Errorf("exit %d, stderr:\n%s\nstdout:\n%.300s\nwant exit %d, stderr starting %q, stdout holding %q and not %q", code, stderr.String(), stdout.String(), c.code, c.stderr, c.stdout, c.notStdout)
			}
		})
	}
}
