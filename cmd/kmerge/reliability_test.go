package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/tree"
)

// writeFiles writes files (name: text) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestParseSize: every suffix, the largest limit (8Ei = 2^63, one more than
// an int64 holds, taken as math.MaxInt) and what is refused. The expected
// values are the suffixes' definitions (k = 10^3, Ki = 2^10, ...).
func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		err  string
	}{
		{in: "1", want: 1},
		{in: "100", want: 100},
		{in: "2k", want: 2000},
		{in: "2Ki", want: 2048},
		{in: "3M", want: 3000000},
		{in: "3Mi", want: 3 << 20},
		{in: "1G", want: 1000000000},
		{in: "1Gi", want: 1 << 30},
		{in: "1T", want: 1000000000000},
		{in: "1Ti", want: 1 << 40},
		{in: "1P", want: 1000000000000000},
		{in: "1Pi", want: 1 << 50},
		{in: "9E", want: 9000000000000000000},
		{in: "7Ei", want: 7 << 60},
		{in: "8Ei", want: math.MaxInt},
		{in: "9223372036854775807", want: math.MaxInt},
		{in: "9223372036854775808", want: math.MaxInt}, // 2^63 = 8Ei
		{in: "9223372036854775809", err: `"9223372036854775809" is more than the largest limit, 8Ei (2^63)`},
		{in: "18446744073709551616", err: `"18446744073709551616" is more than the largest limit, 8Ei (2^63)`}, // 2^64 wrapped around to 0
		{in: "99999999999999999999999", err: `"99999999999999999999999" is more than the largest limit, 8Ei (2^63)`},
		{in: "9Ei", err: `"9Ei" is more than the largest limit, 8Ei (2^63)`},
		{in: "16Ei", err: `"16Ei" is more than the largest limit, 8Ei (2^63)`}, // wrapped around to 0 in int64
		{in: "10E", err: `"10E" is more than the largest limit, 8Ei (2^63)`},
		{in: "0", err: `"0" is not a positive number`},
		{in: "0Ki", err: `"0Ki" is not a positive number`},
		{in: "-1", err: `"-1" is not a positive number`},
		{in: "+1", err: `"+1" is not a positive number`},
		{in: "Ki", err: `"Ki" is not a positive number`},
		{in: "", err: `"" is not a positive number`},
		{in: "1.5Gi", err: `"1.5Gi" is not a positive number`},
		{in: "1KiB", err: `"1KiB" is not a positive number`},
	} {
		got, err := parseSize(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("parseSize(%q) = %d, %v; want the error %q", c.in, got, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("parseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}

// TestLargestByteLimit: --limit bytes=9223372036854775807 (and 8Ei) used to
// read every file as empty (one byte more than the limit wrapped around to
// a negative count) and write the empty outputs over the inputs, exit 0.
// Under the largest limit the run is the run without one.
func TestLargestByteLimit(t *testing.T) {
	const in = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n"
	for _, limit := range []string{"bytes=9223372036854775807", "bytes=8Ei", "nodes=8Ei", "depth=8Ei", "documents=8Ei", "line=8Ei"} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"base/a.yaml": in, "ov/p.kpatch": "[cm.a]\ndata.k: w\n"})
		base, ov := filepath.Join(dir, "base"), filepath.Join(dir, "ov")
		want := strings.Replace(in, "k: v", "k: w", 1)
		var stdout, stderr bytes.Buffer
		if code := run([]string{"apply", "-f", base, "-p", ov, "--limit", limit}, strings.NewReader(""), &stdout, &stderr); code != 0 || stdout.String() != want {
			t.Errorf("--limit %s: exit %d, stdout %q, stderr %q; want %q", limit, code, stdout.String(), stderr.String(), want)
		}
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"apply", "-f", base, "-p", ov, "--limit", limit, "--output-dir", base}, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Errorf("--limit %s --output-dir: exit %d, stderr %q", limit, code, stderr.String())
		}
		if got, err := os.ReadFile(filepath.Join(base, "a.yaml")); string(got) != want {
			t.Errorf("--limit %s --output-dir: a.yaml is %q (%v); want %q", limit, got, err, want)
		}
	}
}

// TestDiffNoNewlineAtEnd: apply --diff marks a file without a final newline
// as diff -u does ("\ No newline at end of file"), so that patch -p1 turns
// the inputs into what --output-dir writes. Without the marker, patch
// rejected the hunk that ends such a file. The format itself is checked
// without patch(1) in internal/linediff (TestUnifiedTextNoNewline).
func TestDiffNoNewlineAtEnd(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string]string{
		"base/a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v", // no final newline
		"base/b.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  k: v\n  z: last",
		"p.kpatch":    "[cm.a]\ndata.k: w\n[cm.b]\ndata.k: w\n",
	}
	writeFiles(t, dir, files)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"apply", "-f", "base", "-p", "p.kpatch", "--diff"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("apply --diff: exit %d: %s", code, stderr.String())
	}
	diff := stdout.String()
	// the patched line is the last one of a.yaml, which lacks a newline
	// before and after (the patch changes the value, not the ending)
	wantA := "--- a/base/a.yaml\n+++ b/base/a.yaml\n@@ -3,4 +3,4 @@\n metadata:\n   name: a\n data:\n-  k: v\n\\ No newline at end of file\n+  k: w\n\\ No newline at end of file\n"
	if !strings.HasPrefix(diff, wantA) {
		t.Errorf("apply --diff:\n%s\nwant it to start with:\n%s", diff, wantA)
	}
	stdout.Reset()
	if code := run([]string{"apply", "-f", "base", "-p", "p.kpatch", "--output-dir", "want"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("apply --output-dir: exit %d: %s", code, stderr.String())
	}
	bin, err := exec.LookPath("patch")
	if err != nil {
		t.Logf("no patch(1) here: only the format was checked")
		return
	}
	cmd := exec.Command(bin, "-p1", "--batch", "--no-backup-if-mismatch", "-r", "-", "-d", "base")
	cmd.Stdin = strings.NewReader(strings.ReplaceAll(diff, "/base/", "/"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch -p1: %v\n%s\ndiff:\n%s", err, out, diff)
	}
	for _, name := range []string{"a.yaml", "b.yaml"} {
		got, _ := os.ReadFile(filepath.Join("base", name))
		want, _ := os.ReadFile(filepath.Join("want", name))
		if string(got) != string(want) || len(want) == 0 {
			t.Errorf("%s after patch -p1: %q, want %q (--output-dir's)", name, got, want)
		}
	}
}

// TestJoinedOutput: files printed one after another on standard output
// (apply, patch) read back as their objects. A file without a final
// newline followed by one that starts with --- used to print "k: v---",
// one mapping of both objects' keys (kmerge refused its own output as a
// duplicate key), and a byte order mark at the start of each file put one
// in the middle of the stream (read as part of the next key). Every
// pair of the tree package's join fragments is tested there
// (tree.TestJoinStreams); this is the commands' wiring.
func TestJoinedOutput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFiles(t, dir, map[string]string{
		"base/a.yaml": "\ufeffapiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v",
		"base/b.yaml": "\ufeff---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  k: v\n",
		"base/c.yaml": "\ufeffapiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n",
		"p.kpatch":    "[cm.b]\ndata.k: w\n",
	})
	// the first file keeps its byte order mark, the stream's; a, which
	// the patch does not touch, gets the newline it lacks
	want := "\ufeffapiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n" +
		"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  k: w\n" +
		"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n"
	for _, args := range [][]string{
		{"apply", "-f", "base", "-p", "p.kpatch"},
		{"patch", "-f", "base/a.yaml", "-f", "base/b.yaml", "-f", "base/c.yaml", "-p", `{"metadata":{"labels":null}}`},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
		}
		got := stdout.String()
		if args[0] == "patch" {
			want = strings.Replace(want, "k: w", "k: v", 1)
		}
		if got != want {
			t.Errorf("%q:\n%q\nwant\n%q", args, got, want)
		}
		st, err := tree.Read(stdout.Bytes(), tree.Options{})
		if err != nil || len(st.Docs) != 3 {
			t.Errorf("%q: the output does not read back as three objects: %v", args, err)
		}
	}
}

// TestSymlinkedInputs: a link to a folder, given with -f or listed under
// manifests: in kmerge.yaml, is read as the folder (it read as empty,
// exit 0, with only "matches no object" warnings); a link to a folder
// found inside a folder is read too; --output-dir may name a link to a
// folder (it was named); a link that makes a loop is an error naming it.
func TestSymlinkedInputs(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  k: v\n"
	writeFiles(t, dir, map[string]string{
		"real/a.yaml":        fmt.Sprintf(cm, "a"),
		"shared/b.yaml":      fmt.Sprintf(cm, "b"),
		"p.kpatch":           "[cm.a]\ndata.k: w\n[cm.b]\ndata.k: w\n",
		"proj/kmerge.yaml":   "apiVersion: kmerge/v1\nkind: Project\nmanifests: [../linkdir]\npatches: [../p.kpatch]\n",
		"patchdir/p.kpatch":  "[cm.a]\ndata.k: w\n",
		"patchdir2/p.kpatch": "[cm.b]\ndata.k: w\n",
		"proj2/kmerge.yaml":  "apiVersion: kmerge/v1\nkind: Project\nmanifests: [../linkdir]\npatches: [../patchlink]\n",
	})
	// patch folders are walked as manifest folders are: -p patchlink (a
	// link to a folder) and patches: [../patchlink] used to read no patch
	// file ("the folder holds no patch files", exit 0 without --strict),
	// and a link inside a patch folder was not followed
	for _, l := range [][2]string{{"real", "linkdir"}, {"../shared", "real/shared"}, {"patchdir", "patchlink"}, {"../patchdir2", "patchdir/more"}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	want := fmt.Sprintf(cm, "a") + "---\n" + fmt.Sprintf(cm, "b")
	want = strings.ReplaceAll(want, "k: v", "k: w")
	for _, args := range [][]string{
		{"apply", "-f", "linkdir", "-p", "p.kpatch", "--strict"},
		{"apply", "--project", "proj", "--strict"},
		{"apply", "-f", "linkdir", "-p", "patchlink", "--strict"},
		{"apply", "--project", "proj2", "--strict"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(args, strings.NewReader(""), &stdout, &stderr); code != 0 || stdout.String() != want || stderr.Len() > 0 {
			t.Errorf("%q: exit %d, stdout:\n%s\nstderr:\n%s\nwant:\n%s", args, code, stdout.String(), stderr.String(), want)
		}
	}
	// writing into the folder a link names: its own files only (the
	// link to shared/ inside it holds a file to replace: refused)
	var stdout, stderr bytes.Buffer
	code := run([]string{"apply", "-f", "linkdir", "-p", "p.kpatch", "--output-dir", "linkdir"}, strings.NewReader(""), &stdout, &stderr)
	wantErr := "kmerge: linkdir/shared: a symbolic link (to ../shared) inside the output folder: kmerge writes only inside the folder, and does not follow links there\n"
	if code != 1 || stderr.String() != wantErr {
		t.Errorf("--output-dir with a link inside: exit %d, stderr:\n%s\nwant:\n%s", code, stderr.String(), wantErr)
	}
	if b, _ := os.ReadFile("real/a.yaml"); string(b) != fmt.Sprintf(cm, "a") {
		t.Errorf("real/a.yaml was written: %q", b)
	}
	os.Remove("real/shared")
	stderr.Reset()
	if code := run([]string{"apply", "-f", "linkdir", "-p", "p.kpatch", "--output-dir", "linkdir"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Errorf("--output-dir linkdir: exit %d: %s", code, stderr.String())
	}
	if b, _ := os.ReadFile("real/a.yaml"); !strings.Contains(string(b), "k: w") {
		t.Errorf("real/a.yaml, written through --output-dir linkdir: %q", b)
	}
	// a loop
	if err := os.Symlink("..", filepath.Join("real", "up")); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	code = run([]string{"apply", "-f", "linkdir", "-p", "p.kpatch"}, strings.NewReader(""), &stdout, &stderr)
	// up leads to the folder holding linkdir, a link back to real: the
	// loop closes there
	wantErr = "kmerge: " + filepath.Join("linkdir", "up", "linkdir") + ": a symbolic link (to real) back to a folder that holds it: following it would never end\n"
	if code != 1 || !strings.HasPrefix(stderr.String(), wantErr) {
		t.Errorf("a loop: exit %d, stderr:\n%s\nwant:\n%s", code, stderr.String(), wantErr)
	}
}

// TestJSONFileStaysJSON: kmerge patch on a .json file whose number is out
// of a float64's range fails with the JSON error and writes nothing (issue
// 25 item 15: it fell back to YAML and printed the object as YAML flow
// style, exit 0; with --output-dir, into the .json file).
func TestJSONFileStaysJSON(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "cm.json", "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"ConfigMap\",\n  \"metadata\": {\"name\": \"x\"},\n  \"big\": 1E400\n}\n")
	code, out, stderr := runIn(t, dir, "patch", "-f", "cm.json", "--type", "merge", "-p", `{"data":{"c":"d"}}`)
	if code != exitRejected || out != "" || !strings.Contains(stderr, "cm.json:5:10: number 1E400 is out of range") {
		t.Errorf("patch: exit %d, stdout %q\n%s", code, out, stderr)
	}
}
