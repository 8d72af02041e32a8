package conformance

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/tree"
)

// The Helm releases the post-renderer tests run: the newest of Helm 3 and
// of Helm 4 that the Go module proxy serves and that build with Go 1.26.
const (
	helm3Version = "v3.22.0"
	helm4Version = "v4.3.1"
)

// helmBinary returns the path of the Helm binary of a release: $env when
// set (.ci/run builds both releases and sets KMERGE_HELM3 and
// KMERGE_HELM4), else helm on PATH when it is that release. The release is
// checked either way (by helm version, or, for a binary built with go
// install, which reports only its minor version, by the module version
// Go recorded in it). Tests install nothing: otherwise the test skips,
// saying so, unless KMERGE_REQUIRE_HELM=1 (.ci/run sets it), which makes
// that a failure.
func helmBinary(t *testing.T, version, env string) string {
	t.Helper()
	major := strings.SplitN(version, ".", 2)[0] // v3, v4
	unavailable := func(why string) {
		if os.Getenv("KMERGE_REQUIRE_HELM") == "1" {
			t.Fatalf("%s, and KMERGE_REQUIRE_HELM=1 makes that a failure", why)
		}
		t.Skipf("%s: build it (GOBIN=DIR go install helm.sh/helm/%s/cmd/helm@%s) and set %s=DIR/helm to run this test", why, major, version, env)
	}
	path := os.Getenv(env)
	if path == "" {
		var err error
		if path, err = exec.LookPath("helm"); err != nil {
			unavailable(fmt.Sprintf("Helm %s is not installed (%v)", version, err))
		}
	}
	out, err := exec.Command(path, "version", "--template", "{{.Version}}").Output()
	if err != nil {
		unavailable(fmt.Sprintf("%s does not run: %v", path, err))
	}
	if v := strings.TrimSpace(string(out)); v != version {
		info, _ := exec.Command("go", "version", "-m", path).Output()
		if !strings.Contains(string(info), "\tmod\thelm.sh/helm/"+major+"\t"+version+"\t") {
			unavailable(fmt.Sprintf("%s is Helm %q, not %s", path, v, version))
		}
	}
	return path
}

// helmRun runs a Helm binary with its own folders for plugins, caches and
// configuration (a temporary HELM_DATA_HOME and the rest: a plugin the
// test installs stays there), and the kmerge binary of bin first on PATH.
type helmRun struct {
	helm, home, bin string
	env             []string // more variables
}

func (h helmRun) run(args ...string) (string, string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(h.helm, args...)
	cmd.Env = append(os.Environ(),
		"HELM_DATA_HOME="+filepath.Join(h.home, "data"),
		"HELM_CONFIG_HOME="+filepath.Join(h.home, "config"),
		"HELM_CACHE_HOME="+filepath.Join(h.home, "cache"),
		"HELM_PLUGINS="+filepath.Join(h.home, "data", "plugins"),
		"PATH="+h.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.Env = append(cmd.Env, h.env...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// helmSetup returns the Helm binary of a release, ready to run with kmerge
// built on its PATH, and the absolute paths of the chart
// (testdata/helm/shop), the plugin (examples/helm/kmerge) and the
// overrides (examples/helm/overrides). It checks first that the chart
// renders, without a post-renderer, to the objects of
// examples/helm/rendered.yaml, the chart's output the docs show and
// testdata/helm/want.yaml was written from, each under its # Source:
// comment.
func helmSetup(t *testing.T, version, env string) (h helmRun, chart, plugin, overrides string) {
	t.Helper()
	helm := helmBinary(t, version, env)
	dir := t.TempDir()
	buildKmerge(t, dir)
	h = helmRun{helm: helm, home: filepath.Join(dir, "helm"), bin: dir}
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	chart, plugin, overrides = abs("testdata/helm/shop"), abs("../examples/helm/kmerge"), abs("../examples/helm/overrides")
	out, errOut, err := h.run("template", "shop", chart)
	if err != nil {
		t.Fatalf("helm template: %v\n%s", err, errOut)
	}
	checkObjects(t, "helm template (no post-renderer)", out, "../examples/helm/rendered.yaml")
	return h, chart, plugin, overrides
}

// checkObjects compares the objects of a stream Helm wrote with those of
// the file want, document by document (as JSON: the layout is Helm's),
// and checks that each document is under its template's # Source: comment,
// as Helm writes them.
func checkObjects(t *testing.T, what, got, want string) {
	t.Helper()
	wantText, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	objects := func(text, name string) []string {
		st, err := tree.Read([]byte(text), tree.Options{File: name})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var out []string
		for _, d := range st.Docs {
			if root := tree.Root(d); root != nil && tree.KindOf(root) != tree.Null {
				b, err := tree.MarshalJSON(root)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, string(b))
			}
		}
		return out
	}
	g, w := objects(got, what), objects(string(wantText), want)
	if strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Errorf("%s: the objects\n%s\nwant those of %s\n%s\n(the output:\n%s)", what, strings.Join(g, "\n"), want, strings.Join(w, "\n"), got)
	}
	for _, source := range []string{"---\n# Source: shop/templates/service.yaml\napiVersion: v1\nkind: Service\n", "---\n# Source: shop/templates/deployment.yaml\napiVersion: apps/v1\nkind: Deployment\n"} {
		if !strings.Contains(got, source) {
			t.Errorf("%s: no %q in the output:\n%s", what, source, got)
		}
	}
}

// checkPostRendered checks what helm template wrote through the
// post-renderer: the objects of testdata/helm/want.yaml, which is the
// rendered chart with, by hand, what examples/helm/overrides says (an
// annotation on the Service, memory limits filling the chart's empty
// resources, a security context and a priority class), under their #
// Source: comments, and nothing from kmerge on standard error.
func checkPostRendered(t *testing.T, out, errOut string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("helm template --post-renderer: %v\n%s", err, errOut)
	}
	checkObjects(t, "helm template --post-renderer", out, "testdata/helm/want.yaml")
	if strings.Contains(errOut, "kmerge") {
		t.Errorf("stderr: %s", errOut)
	}
}

// checkStrict: an override that no longer matches the chart (its container
// renamed upstream; here, a patch naming a container the chart does not
// have) fails helm template, the --strict the script passes
// (docs/integrations.md). Helm 3 shows kmerge's message in its own; Helm
// 4.3.1 drops a plugin's standard error, so the script sends it to the
// file $KMERGE_STDERR names (to the terminal without it), and the message
// must be there, and Helm's own error says which plugin failed.
func checkStrict(t *testing.T, h helmRun, helm4 bool, args ...string) {
	t.Helper()
	stale := t.TempDir()
	if err := os.WriteFile(filepath.Join(stale, "stale.kpatch"), []byte("[deployment.shop.containers.name=web]\nimage: web:2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(stale, "kmerge.log")
	if helm4 {
		h.env = append(h.env, "KMERGE_STDERR="+log)
	}
	_, errOut, err := h.run(append(args, "--post-renderer-args=--patches="+stale)...)
	msg := "stale.kpatch:1:29: apps/v1 Deployment shop: spec.template.spec.containers has no item matching [name=web] (an error in strict mode)"
	shown := errOut
	if helm4 {
		b, _ := os.ReadFile(log)
		shown = string(b)
		if !strings.Contains(errOut, `plugin "kmerge" exited with error`) {
			t.Errorf("Helm 4's error does not name the plugin: %s", errOut)
		}
	}
	if err == nil || !strings.Contains(shown, msg) {
		t.Errorf("helm template with a stale override: %v, stderr:\n%s\nkmerge's messages:\n%s\nwant a failure with %q", err, errOut, shown, msg)
	}
}

// TestHelm4PostRendererPlugin runs the real Helm 4 with examples/helm/kmerge
// installed as a plugin (helm plugin install, from its folder): Helm 4
// takes a post-renderer plugin's name, and --post-renderer-args are the
// arguments of kmerge apply. A script's path, which Helm 3 takes, is an
// error in Helm 4 (issue 27 item 10: "plugin: {Name:./post-render.sh
// Type:postrenderer/v1} not found"), as docs/integrations.md says.
func TestHelm4PostRendererPlugin(t *testing.T) {
	h, chart, plugin, overrides := helmSetup(t, helm4Version, "KMERGE_HELM4")
	if out, errOut, err := h.run("plugin", "install", plugin); err != nil {
		t.Fatalf("helm plugin install: %v\n%s%s", err, out, errOut)
	}
	args := []string{"template", "shop", chart, "--post-renderer", "kmerge"}
	out, errOut, err := h.run(append(args, "--post-renderer-args=--patches="+overrides)...)
	checkPostRendered(t, out, errOut, err)
	checkStrict(t, h, true, args...)

	script := filepath.Join(plugin, "post-render.sh")
	_, errOut, err = h.run("template", "shop", chart, "--post-renderer", script, "--post-renderer-args=--patches="+overrides)
	if err == nil || !strings.Contains(errOut, "plugin: {Name:"+script+" Type:postrenderer/v1} not found") {
		t.Errorf("Helm 4 given the script's path: %v, stderr:\n%s\nwant the error docs/integrations.md quotes", err, errOut)
	}
}

// TestHelm3PostRenderer runs the real Helm 3 with the plugin's script as
// the post-renderer, by its path, which is what Helm 3's --post-renderer
// takes; the same arguments as Helm 4's plugin. Helm 3's plugins are
// subcommands, read from a plugin.yaml of another format, so Helm 3 cannot
// install the plugin (its error names plugin.yaml's apiVersion field); it
// leaves the plugin's link in its plugins folder all the same, and complains
// of it, on every command, as it does when a folder shared with Helm 4
// holds it, as docs/integrations.md says.
func TestHelm3PostRenderer(t *testing.T) {
	h, chart, plugin, overrides := helmSetup(t, helm3Version, "KMERGE_HELM3")
	args := []string{"template", "shop", chart, "--post-renderer", filepath.Join(plugin, "post-render.sh")}
	out, errOut, err := h.run(append(args, "--post-renderer-args=--patches="+overrides)...)
	checkPostRendered(t, out, errOut, err)
	// Helm 3 hands the post-renderer the chart's text and writes back what
	// it gets: the output is want.yaml byte for byte, every line the
	// overrides do not change as the chart wrote it (rendered.yaml)
	if want, err := os.ReadFile("testdata/helm/want.yaml"); err != nil || out != string(want) {
		t.Errorf("Helm 3's output is not testdata/helm/want.yaml byte for byte (%v):\n%s", err, out)
	}
	checkStrict(t, h, false, args...)

	if out, errOut, err := h.run("plugin", "install", plugin); err == nil || !strings.Contains(errOut, `unknown field "apiVersion"`) {
		t.Errorf("Helm 3 installing the Helm 4 plugin: %v\n%s%s\nwant the error docs/integrations.md quotes", err, out, errOut)
	}
	// the failed install left its link in the plugins folder, where a
	// folder shared with Helm 4, which installed it, has it too: Helm 3
	// says so on every command, and still runs them
	if _, err := os.Lstat(filepath.Join(h.home, "data", "plugins", "kmerge")); err != nil {
		t.Errorf("Helm 3's failed install left no link in its plugins folder (docs/integrations.md says it does): %v", err)
	}
	out, errOut, err = h.run(append(args, "--post-renderer-args=--patches="+overrides)...)
	if err != nil || !strings.Contains(errOut, "failed to load plugins") || !strings.Contains(out, "priorityClassName: high") {
		t.Errorf("Helm 3 with the Helm 4 plugin in its plugins folder: %v\n%s%s\nwant the output, and the complaint docs/integrations.md quotes", err, out, errOut)
	}
}
