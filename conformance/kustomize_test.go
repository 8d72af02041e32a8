package conformance

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// kustomizeVersion is the kustomize release the exec-function test runs:
// the newest that builds with Go 1.26 (v5.8.3 needs Go 1.27).
const kustomizeVersion = "v5.8.2"

// kustomizeBinary returns the path of the kustomize binary: $KMERGE_KUSTOMIZE
// when set (.ci/run installs kustomize and sets it), else kustomize on PATH
// when it is the release the expected outputs were written for. Tests
// install nothing: otherwise the test skips, saying so, unless
// KMERGE_REQUIRE_KUSTOMIZE=1 (.ci/run sets it), which makes that a failure.
func kustomizeBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("KMERGE_KUSTOMIZE"); p != "" {
		return p
	}
	unavailable := func(why string) {
		if os.Getenv("KMERGE_REQUIRE_KUSTOMIZE") == "1" {
			t.Fatalf("%s, and KMERGE_REQUIRE_KUSTOMIZE=1 makes that a failure", why)
		}
		t.Skipf("%s: install it (go install sigs.k8s.io/kustomize/kustomize/v5@%s) or set KMERGE_KUSTOMIZE to run this test", why, kustomizeVersion)
	}
	path, err := exec.LookPath("kustomize")
	if err != nil {
		unavailable(fmt.Sprintf("kustomize %s is not installed (%v)", kustomizeVersion, err))
	}
	out, err := exec.Command(path, "version").Output()
	if v := strings.TrimSpace(string(out)); err != nil || v != kustomizeVersion {
		unavailable(fmt.Sprintf("%s is kustomize %q (%v), not %s", path, v, err, kustomizeVersion))
	}
	return path
}

// buildKmerge builds the kmerge command into dir.
func buildKmerge(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "kmerge")
	cmd := exec.Command("go", "build", "-o", path, "github.com/kmerge/kmerge/cmd/kmerge")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return path
}

// TestKustomizeExecFunction runs the real kustomize binary with kmerge fn
// as an exec KRM function (a transformer), on testdata/kustomize: a
// Deployment and a Service, a .kpatch text and a YAML field patch. The
// expected output was written by hand: replicas 3, the new image and the
// new port; kustomize itself orders Service before Deployment, sorts keys
// and drops comments. A section whose kind is mistyped (deploymnet) matches
// nothing: kustomize drops the function's results, so the warning must
// reach its standard error, with the suggestion.
func TestKustomizeExecFunction(t *testing.T) {
	kustomize := kustomizeBinary(t)
	dir := t.TempDir()
	kmerge := buildKmerge(t, dir)
	work := filepath.Join(dir, "work")
	copyDir(t, "testdata/kustomize", work)
	script := "#!/bin/sh\nexec " + kmerge + " fn\n"
	if err := os.WriteFile(filepath.Join(work, "kmerge-fn.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	build := func(flags ...string) (string, string, error) {
		if flags == nil {
			flags = []string{"--enable-alpha-plugins", "--enable-exec"}
		}
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(kustomize, append(append([]string{"build"}, flags...), work)...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}
	out, errOut, err := build()
	if err != nil {
		t.Fatalf("kustomize build: %v\n%s", err, errOut)
	}
	want, err := os.ReadFile(filepath.Join(work, "want.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("kustomize build:\n%s\nwant:\n%s", out, want)
	}
	// positions are those of the ResourceList kustomize hands the
	// function (it sorts keys and adds annotations: the kpatch text's third
	// line is the list's line 58, at the block's column 7), as docs/krm.md
	// says
	warning := "kmerge: <stdin>:58:7: warning: no object matches deploymnet.web (no object is a deploymnet: did you mean deployment.web?); skipped"
	if !strings.Contains(errOut, warning) {
		t.Errorf("kustomize build's standard error lacks the warning %q:\n%s", warning, errOut)
	}

	// docs/krm.md warns of this: with --enable-alpha-plugins but without
	// --enable-exec, kustomize skips the exec function without a word
	// (exit 0, replicas still 1, nothing on standard error); without
	// --enable-alpha-plugins it refuses the function
	out, errOut, err = build("--enable-alpha-plugins")
	if err != nil || !strings.Contains(out, "replicas: 1\n") || strings.Contains(out, "replicas: 3") || errOut != "" {
		t.Errorf("kustomize build --enable-alpha-plugins (no --enable-exec): %v, stderr %q, output:\n%s\nwant the input unpatched, silently, as docs/krm.md says", err, errOut, out)
	}
	if _, errOut, err := build("--enable-exec"); err == nil || !strings.Contains(errOut, "external plugins disabled") {
		t.Errorf("kustomize build --enable-exec (no --enable-alpha-plugins): %v, stderr %q; want external plugins disabled", err, errOut)
	}

	// a patch that cannot apply fails the build with kmerge's message
	cfg := filepath.Join(work, "kmerge-fn.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, bytes.Replace(data, []byte("replicas: 3"), []byte("replicas: many"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, err = build()
	if err == nil {
		t.Fatal("kustomize build succeeded with a bad patch")
	}
	msg := `<stdin>:57:17: apps/v1 Deployment web: spec.replicas is an integer (schema type integer/int32); "many" is not an integer`
	if !strings.Contains(errOut, msg) {
		t.Errorf("stderr lacks %q:\n%s", msg, errOut)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
