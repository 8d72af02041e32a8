//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bigInPlace writes a folder of n ConfigMaps (base/a0/first.yaml, which is
// written first, and base/fNNNN.yaml) and a patch that changes every one,
// and returns what base/ holds before and after the patch (the patch
// changes "value: old" to "value: new": by hand).
func bigInPlace(t *testing.T, dir string, n int) (before, after map[string]string) {
	t.Helper()
	before, after = map[string]string{}, map[string]string{}
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  value: old\n  padding: " + strings.Repeat("x", 200) + "\n"
	add := func(rel, name string) {
		text := fmt.Sprintf(cm, name)
		before[rel] = text
		after[rel] = strings.Replace(text, "value: old", "value: new", 1)
	}
	add(filepath.Join("a0", "first.yaml"), "first")
	for i := range n {
		add(fmt.Sprintf("f%05d.yaml", i), fmt.Sprintf("cm%05d", i))
	}
	files := map[string]string{"p.kpatch": "[configmap.*]\ndata.value: new\n"}
	for rel, text := range before {
		files[filepath.Join("base", rel)] = text
	}
	writeFiles(t, dir, files)
	return before, after
}

// folder returns the files under dir by relative path, and the names of
// kmerge's temporary and lock files found among them.
func folder(t *testing.T, dir string) (map[string]string, []string) {
	t.Helper()
	got := map[string]string{}
	var ours []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if strings.Contains(d.Name(), ".kmerge-") || d.Name() == ".kmerge.lock" {
			ours = append(ours, rel)
			return nil
		}
		b, _ := os.ReadFile(p)
		got[rel] = string(b)
		return nil
	})
	sort.Strings(ours)
	return got, ours
}

func sameFiles(got, want map[string]string) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// waitFor polls until cond holds, failing the test after 60 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for start := time.Now(); !cond(); time.Sleep(time.Millisecond) {
		if time.Since(start) > time.Minute {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

func hasTemp(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".kmerge-") {
			return true
		}
	}
	return false
}

// TestSignalDuringWrite: SIGINT or SIGTERM while kmerge apply edits a
// folder of 2,000 files in place (sent once the first temporary file
// exists: the writing has begun) stops the run with exit code 130 or 143;
// every file is as it was, and no temporary file or lock is left. A
// signal used to kill the run with its temporary files left (thousands of
// them on a large run), or half the files replaced.
func TestSignalDuringWrite(t *testing.T) {
	bin := kmergeBinary(t)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
		name string
	}{{syscall.SIGINT, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			before, _ := bigInPlace(t, dir, 2000)
			base := filepath.Join(dir, "base")
			cmd := exec.Command(bin, "apply", "-f", base, "-p", filepath.Join(dir, "p.kpatch"), "--output-dir", base)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the first temporary file", func() bool { return hasTemp(filepath.Join(base, "a0")) })
			cmd.Process.Signal(c.sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.code {
				t.Errorf("exit: %v, want the code %d; stderr:\n%s", err, c.code, stderr.String())
			}
			if want := "kmerge: " + base + ": stopped (interrupted by " + c.name + "): nothing was written\n"; stderr.String() != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
			}
			got, ours := folder(t, base)
			if !sameFiles(got, before) {
				t.Errorf("the folder changed: %d files", len(got))
			}
			if len(ours) > 0 {
				t.Errorf("left behind: %d files, %v...", len(ours), ours[:min(5, len(ours))])
			}
		})
	}
}

// TestSignalBeforeWrite: SIGTERM while the inputs are read and patched
// (sent once the lock is taken) ends the run with exit code 143 and
// nothing written; should the run have reached its writing by then, the
// writing is stopped and undone as above. Either way the folder is as it
// was and holds no lock file.
func TestSignalBeforeWrite(t *testing.T) {
	bin := kmergeBinary(t)
	dir := t.TempDir()
	before, _ := bigInPlace(t, dir, 2000)
	base := filepath.Join(dir, "base")
	cmd := exec.Command(bin, "apply", "-f", base, "-p", filepath.Join(dir, "p.kpatch"), "--output-dir", base)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the lock", func() bool {
		_, err := os.Stat(filepath.Join(base, ".kmerge.lock"))
		return err == nil
	})
	time.Sleep(20 * time.Millisecond) // the handler is installed right after the lock
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Errorf("exit: %v, want the code 143; stderr:\n%s", err, stderr.String())
	}
	early := "kmerge: " + base + ": interrupted by SIGTERM before anything was written\n"
	late := "kmerge: " + base + ": stopped (interrupted by SIGTERM): nothing was written\n"
	switch s := stderr.String(); s {
	case early:
		t.Logf("stopped before the writing")
	case late:
		t.Logf("stopped during the writing")
	default:
		t.Errorf("stderr:\n%s\nwant:\n%s", s, early)
	}
	got, ours := folder(t, base)
	if !sameFiles(got, before) || len(ours) > 0 {
		t.Errorf("the folder changed: %d files, and %v", len(got), ours)
	}
}

// TestKilledRunCleanedUp: a run killed with SIGKILL (which no program can
// handle) during its writing leaves temporary files; the next run in the
// folder succeeds and removes them, and its lock file too (the lock a
// killed process held is free).
func TestKilledRunCleanedUp(t *testing.T) {
	bin := kmergeBinary(t)
	dir := t.TempDir()
	_, after := bigInPlace(t, dir, 2000)
	base := filepath.Join(dir, "base")
	args := []string{"apply", "-f", base, "-p", filepath.Join(dir, "p.kpatch"), "--output-dir", base}
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "temporary files", func() bool { return hasTemp(base) })
	cmd.Process.Kill()
	cmd.Wait()
	_, ours := folder(t, base)
	if len(ours) == 0 {
		t.Fatalf("the killed run left nothing: the test did not kill it while it wrote")
	}
	t.Logf("the killed run left %d files (temporary files and the lock)", len(ours))
	var stdout, stderr bytes.Buffer
	if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("the next run: exit %d: %s", code, stderr.String())
	}
	got, ours := folder(t, base)
	if !sameFiles(got, after) {
		t.Errorf("the next run's output is not the patched folder")
	}
	if len(ours) > 0 {
		t.Errorf("left after the next run: %d files, %v...", len(ours), ours[:min(5, len(ours))])
	}
}

// TestConcurrentRuns: while one kmerge process edits a folder in place, a
// second run on the same folder fails at once, naming the first process
// and the lock, and writes nothing; the first run then completes, and the
// folder is its output alone. Two such runs used to end with a mix of
// both outputs, each exit 0.
func TestConcurrentRuns(t *testing.T) {
	bin := kmergeBinary(t)
	dir := t.TempDir()
	_, after := bigInPlace(t, dir, 2000)
	base := filepath.Join(dir, "base")
	writeFiles(t, dir, map[string]string{"other.kpatch": "[configmap.*]\ndata.value: other\n"})
	first := exec.Command(bin, "apply", "-f", base, "-p", filepath.Join(dir, "p.kpatch"), "--output-dir", base)
	var stderr1 bytes.Buffer
	first.Stderr = &stderr1
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the lock", func() bool {
		b, _ := os.ReadFile(filepath.Join(base, ".kmerge.lock"))
		return strings.TrimSpace(string(b)) == fmt.Sprint(first.Process.Pid)
	})
	var stdout, stderr bytes.Buffer
	code := run([]string{"apply", "-f", base, "-p", filepath.Join(dir, "other.kpatch"), "--output-dir", base}, strings.NewReader(""), &stdout, &stderr)
	want := fmt.Sprintf("kmerge: %s: another kmerge run (process %d) is writing this folder: it holds the lock %s\n  (wait for it to finish: two runs cannot write one folder at once)\n",
		base, first.Process.Pid, filepath.Join(base, ".kmerge.lock"))
	if code != 1 || stderr.String() != want {
		t.Errorf("the second run: exit %d, stderr:\n%s\nwant:\n%s", code, stderr.String(), want)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("the first run: %v: %s", err, stderr1.String())
	}
	got, ours := folder(t, base)
	if !sameFiles(got, after) || len(ours) > 0 {
		t.Errorf("the folder is not the first run's output alone (%d files; left: %v)", len(got), ours)
	}
}

// TestConcurrentNestedRuns: while one kmerge process edits a folder in
// place, a run writing a folder inside it, or a folder that holds it, fails
// at once, naming the first process, its folder and its lock, and writes
// nothing; the first run completes, and its folder is its output alone.
// The lock used to cover one folder: runs on base and base/sub both wrote
// (exit 0), and no file of base/sub had both edits (issue 25 item 3).
func TestConcurrentNestedRuns(t *testing.T) {
	bin := kmergeBinary(t)
	for _, c := range []struct {
		name  string
		out   string // the second run's output folder, relative to dir
		input string // and its manifests
		want  string // its message, after "kmerge: OUT: another kmerge run (process N) is writing "
	}{
		{"a folder inside", filepath.Join("base", "a0"), filepath.Join("base", "a0"), "base, a folder that holds this one: it holds the lock base/.kmerge.lock"},
		{"a folder around", ".", "base", "base, a folder inside this one: it holds the lock base/.kmerge.lock"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			_, after := bigInPlace(t, dir, 2000)
			base := filepath.Join(dir, "base")
			writeFiles(t, dir, map[string]string{"other.kpatch": "[configmap.*]\ndata.value: other\n"})
			first := exec.Command(bin, "apply", "-f", base, "-p", filepath.Join(dir, "p.kpatch"), "--output-dir", base)
			var stderr1 bytes.Buffer
			first.Stderr = &stderr1
			if err := first.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the lock", func() bool {
				b, _ := os.ReadFile(filepath.Join(base, ".kmerge.lock"))
				return strings.TrimSpace(string(b)) == fmt.Sprint(first.Process.Pid)
			})
			outside, _ := folder(t, dir)
			var stdout, stderr bytes.Buffer
			code := run([]string{"apply", "-f", c.input, "-p", "other.kpatch", "--output-dir", c.out}, strings.NewReader(""), &stdout, &stderr)
			msg := strings.ReplaceAll(c.want, "/", string(filepath.Separator))
			want := fmt.Sprintf("kmerge: %s: another kmerge run (process %d) is writing %s\n  (wait for it to finish: two runs cannot write one folder at once, nor a folder and one inside it)\n",
				c.out, first.Process.Pid, msg)
			if code != 1 || stderr.String() != want {
				t.Errorf("the second run: exit %d, stderr:\n%s\nwant:\n%s", code, stderr.String(), want)
			}
			if err := first.Wait(); err != nil {
				t.Fatalf("the first run: %v: %s", err, stderr1.String())
			}
			got, ours := folder(t, base)
			if !sameFiles(got, after) || len(ours) > 0 {
				t.Errorf("the folder is not the first run's output alone (%d files; left: %v)", len(got), ours)
			}
			if now, _ := folder(t, dir); len(now) != len(outside) {
				t.Errorf("files were added around the folder: %d files, were %d", len(now), len(outside))
			}
		})
	}
}
