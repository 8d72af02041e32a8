package conformance

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// kptBinary returns the kpt binary on PATH. kpt is not on the Go module
// proxy (go install github.com/GoogleContainerTools/kpt fails there) nor in
// Debian, so CI cannot install it: without it the test skips, saying so,
// unless KMERGE_REQUIRE_KPT=1 makes that a failure.
func kptBinary(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("kpt")
	if err != nil {
		if os.Getenv("KMERGE_REQUIRE_KPT") == "1" {
			t.Fatalf("kpt is not on PATH and KMERGE_REQUIRE_KPT=1: %v", err)
		}
		t.Skip("kpt is not on PATH (it cannot be installed from the Go module proxy): the commands of docs/krm.md for kpt are not run")
	}
	return path
}

// TestKpt runs the kpt commands docs/krm.md shows, with the real kpt, on
// testdata/kpt (a Deployment with 1 replica, a Kptfile whose pipeline runs
// ./kmerge-fn.sh with kmerge-fn.yaml, which sets 3 replicas and has a
// section for a kind that does not exist). Expected, by hand: each run
// leaves replicas: 3 in deployment.yaml and reports the warning among its
// results; render without --allow-exec refuses to run the script, naming
// the flag.
func TestKpt(t *testing.T) {
	kpt := kptBinary(t)
	dir := t.TempDir()
	kmerge := buildKmerge(t, dir)
	run := func(work string, args ...string) (string, error) {
		var out bytes.Buffer
		cmd := exec.Command(kpt, args...)
		cmd.Dir = work
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	setup := func(name string) string {
		work := filepath.Join(dir, name)
		copyDir(t, "testdata/kpt", work)
		script := "#!/bin/sh\nexec " + kmerge + " fn\n"
		if err := os.WriteFile(filepath.Join(work, "kmerge-fn.sh"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return work
	}
	replicas := func(work string) string {
		b, err := os.ReadFile(filepath.Join(work, "deployment.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.Contains(l, "replicas:") {
				return strings.TrimSpace(l)
			}
		}
		return ""
	}
	const warning = "no object matches deploymnet.web"

	work := setup("eval")
	out, err := run(work, "fn", "eval", "--exec", "./kmerge-fn.sh", "--fn-config", "kmerge-fn.yaml")
	if err != nil || replicas(work) != "replicas: 3" || !strings.Contains(out, warning) {
		t.Errorf("kpt fn eval: %v; %s; output:\n%s", err, replicas(work), out)
	}

	work = setup("render")
	out, err = run(work, "fn", "render")
	if err == nil || !strings.Contains(out, "--allow-exec") || replicas(work) != "replicas: 1" {
		t.Errorf("kpt fn render without --allow-exec: %v; %s; output:\n%s", err, replicas(work), out)
	}
	out, err = run(work, "fn", "render", "--allow-exec")
	if err != nil || replicas(work) != "replicas: 3" || !strings.Contains(out, warning) {
		t.Errorf("kpt fn render --allow-exec: %v; %s; output:\n%s", err, replicas(work), out)
	}
}
