package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runIn runs kmerge in dir and returns its exit code and output.
func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// The example project's kmerge.yaml names what the README's command line
// gives with flags: apply without flags, from the project's folder or
// below it, prints what that command line prints.
func TestProjectApplyIsTheCommandLine(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	code, want, stderr := runIn(t, root, "apply", "-f", "examples/base", "-p", "examples/overrides",
		"--values", "examples/values.yaml", "--schema", "examples/crds/widget-crd.yaml")
	if code != 0 || want == "" {
		t.Fatalf("the README command: exit %d\n%s", code, stderr)
	}
	for _, dir := range []string{"examples", "examples/overrides"} {
		code, got, stderr := runIn(t, filepath.Join(root, dir), "apply")
		if code != 0 || got != want {
			t.Fatalf("apply in %s: exit %d, stderr:\n%s\nstdout:\n%s", dir, code, stderr, got)
		}
	}
	code, got, _ := runIn(t, root, "check", "--project", "examples")
	if code != 0 || got != "no conflicts: 10 patches, 5 objects\n" {
		t.Fatalf("check --project examples: exit %d: %q", code, got)
	}
}

// The merge rule of flags and the project file (docs/project.md).
func TestProjectFlagsWin(t *testing.T) {
	root, _ := filepath.Abs("../..")
	examples := filepath.Join(root, "examples")
	// --set comes after the project's values files
	_, out, _ := runIn(t, examples, "apply", "--set", "replicas=7")
	if !strings.Contains(out, "replicas: 7\n") {
		t.Errorf("--set replicas=7 did not win over values.yaml:\n%s", out)
	}
	// -p replaces the project's patches: only the patch list's changes
	dir := t.TempDir()
	write(t, dir, "p.kpatch", "[deployment.shop]\nreplicas: 9\n")
	_, out, stderr := runIn(t, examples, "apply", "-p", filepath.Join(dir, "p.kpatch"))
	if !strings.Contains(out, "replicas: 9\n") || strings.Contains(out, "envoyproxy") {
		t.Errorf("-p did not replace the project's patches:\n%s\n%s", out, stderr)
	}
	// strict from the project file; --strict=false replaces it
	proj := t.TempDir()
	write(t, proj, "base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")
	write(t, proj, "patches/p.kpatch", "[configmap.nosuch]\ndata.x: y\n")
	write(t, proj, "kmerge.yaml", "apiVersion: kmerge/v1\nkind: Project\nmanifests: [base]\npatches: [patches]\nstrict: true\n")
	if code, _, stderr := runIn(t, proj, "apply"); code != exitRejected || !strings.Contains(stderr, "an error in strict mode") {
		t.Errorf("strict: true in the project: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runIn(t, proj, "apply", "--strict=false"); code != 0 || !strings.Contains(stderr, "warning: no object matches") {
		t.Errorf("--strict=false over strict: true: exit %d\n%s", code, stderr)
	}
	// validate from the project file; --validate replaces it
	write(t, proj, "patches/p.kpatch", "[configmap.a]\nmetadata.name: !delete\n")
	write(t, proj, "kmerge.yaml", "apiVersion: kmerge/v1\nkind: Project\nmanifests: [base]\npatches: [patches]\nvalidate: warn\n")
	if code, _, stderr := runIn(t, proj, "apply"); code != 0 || !strings.Contains(stderr, "warning: metadata.name: missing") {
		t.Errorf("validate: warn in the project: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runIn(t, proj, "apply", "--validate=strict"); code != exitRejected || !strings.Contains(stderr, "1 schema violation") {
		t.Errorf("--validate=strict over validate: warn: exit %d\n%s", code, stderr)
	}
}

func TestProjectErrors(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"apiVersion: kmerge/v1\nkind: Project\nmanifest: [base]\n", "kmerge.yaml:3:1: unknown key \"manifest\" in a project file (did you mean manifests?)"},
		{"apiVersion: kmerge/v1\nkind: Project\nmanifests: [base, nosuch]\n", "kmerge.yaml:3:19: manifests: nosuch: no such file or folder"},
		{"apiVersion: kmerge/v2\nkind: Project\n", "kmerge.yaml:1:13: apiVersion \"kmerge/v2\""},
		{"kind: Project\nmanifests: [base]\n", "kmerge.yaml:1:1: a project file starts with apiVersion: kmerge/v1 and kind: Project; apiVersion is missing"},
		{"apiVersion: kmerge/v1\nkind: Project\nmanifests: base\n", "kmerge.yaml:3:12: manifests is a list of paths"},
		{"apiVersion: kmerge/v1\nkind: Project\nstrict: yes\n", "kmerge.yaml:3:9: strict is true or false"},
		{"apiVersion: kmerge/v1\nkind: Project\nfeatures: {a: 1}\n", "kmerge.yaml:3:15: feature a is true or false"},
		{"apiVersion: kmerge/v1\nkind: Project\nvalidate: loose\n", "kmerge.yaml:3:11: validate is strict, warn or none"},
	} {
		dir := t.TempDir()
		write(t, dir, "base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")
		write(t, dir, "kmerge.yaml", c.file)
		code, _, stderr := runIn(t, dir, "apply")
		if code != exitRejected || !strings.HasPrefix(stderr, "kmerge: "+c.want) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant it to start with kmerge: %s", c.file, code, stderr, c.want)
		}
	}
	// no project file and no flags: the usage error mentions kmerge init
	code, _, stderr := runIn(t, t.TempDir(), "apply")
	if code != exitUsage || !strings.Contains(stderr, "kmerge init") {
		t.Errorf("no project: exit %d\n%s", code, stderr)
	}
}

// A project's patches may name a kustomize overlay, as -p does: the
// project applies what the overlay's patches do, with the warning about
// its other fields; kmerge check lists its patches that do not commute.
func TestProjectOverlay(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "base/kustomization.yaml", "resources: [deploy.yaml]\n")
	write(t, dir, "base/deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n")
	write(t, dir, "overlays/prod/kustomization.yaml", "resources: [../../base]\ncommonLabels: {env: prod}\npatches:\n- path: replicas.yaml\n- target: {kind: Deployment}\n  patch: |-\n    - {op: replace, path: /spec/replicas, value: 5}\n")
	write(t, dir, "overlays/prod/replicas.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 3}\n")
	write(t, dir, "kmerge.yaml", "apiVersion: kmerge/v1\nkind: Project\nmanifests: [base]\npatches: [overlays/prod]\n")
	code, out, stderr := runIn(t, dir, "apply")
	if code != 0 || out != "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 5\n" ||
		!strings.Contains(stderr, "overlays/prod/kustomization.yaml:2:1: warning: kmerge reads the patches of a kustomization (patches, patchesStrategicMerge, patchesJson6902), not its commonLabels") {
		t.Errorf("apply: exit %d\n%s%s", code, out, stderr)
	}
	code, out, _ = runIn(t, dir, "check")
	if code != exitRejected || !strings.Contains(out, "conflict: apps/v1 Deployment web: overlays/prod/replicas.yaml:4:8 (strategic patch) sets spec.replicas to 3, and overlays/prod/kustomization.yaml:7:7 (json patch) sets spec.replicas to 5") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
}

// kmerge init finds the folders of a typical repository, and the project
// it writes runs.
func TestInit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "base/app/deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n")
	write(t, dir, "base/svc.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n")
	// most real kustomizations have no apiVersion: kustomize knows them by name
	write(t, dir, "base/kustomization.yaml", "resources:\n- svc.yaml\n- app/deploy.yaml\n")
	write(t, dir, "overrides/a.kpatch", "[deployment.web]\nreplicas: ${values.replicas}\n")
	write(t, dir, "overrides/b.yaml", "- target: service.web\n  patch: {metadata.labels.x: y}\n")
	write(t, dir, "values.yaml", "replicas: 3\n")
	write(t, dir, "crds/thing.yaml", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: things.example.com\n"+
		"spec:\n  group: example.com\n  names: {kind: Thing, plural: things}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {type: object}\n")
	write(t, dir, "notes/README.md", "not a manifest\n")
	write(t, dir, "docker-compose.yaml", "services: {}\n")
	code, out, stderr := runIn(t, dir, "init")
	if code != 0 || out != "wrote kmerge.yaml: 1 manifest, 1 patch, 1 values and 1 schema entries\n" {
		t.Fatalf("init: exit %d: %s%s", code, out, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "kmerge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"apiVersion: kmerge/v1\nkind: Project\n", "manifests:\n- base\n", "patches:\n- overrides\n", "values:\n- values.yaml\n", "schemas:\n- crds/thing.yaml\n", "strict: false\n", "failOnConflict: false\n", "listOrder: spec\n", "validate: strict\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("kmerge.yaml lacks %q:\n%s", want, data)
		}
	}
	if code, _, stderr := runIn(t, dir, "init"); code != exitRejected || !strings.Contains(stderr, "kmerge.yaml exists: use --force") {
		t.Errorf("init over an existing file: exit %d\n%s", code, stderr)
	}
	if code, _, _ := runIn(t, dir, "init", "--force"); code != 0 {
		t.Errorf("init --force: exit %d", code)
	}
	code, out, stderr = runIn(t, dir, "apply")
	if code != 0 || !strings.Contains(out, "replicas: 3\n") || !strings.Contains(out, "x: \"y\"\n") || strings.Contains(out, "resources:") {
		t.Errorf("apply with the project init wrote: exit %d\n%s%s", code, out, stderr)
	}
}

func TestFmt(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "ok.kpatch", "[deployment.app]\nreplicas: 3\n")
	write(t, dir, "sub/messy.kpatch", "  [deployment.app]\nreplicas = 3   # three\n")
	write(t, dir, "bad.kpatch", "[deployment.app]\nreplicas 3\n")
	os.Chmod(filepath.Join(dir, "sub/messy.kpatch"), 0o600)
	if code, out, _ := runIn(t, dir, "fmt", "-l", "ok.kpatch", "sub"); code != 0 || out != filepath.Join("sub", "messy.kpatch")+"\n" {
		t.Errorf("fmt -l: exit %d: %q", code, out)
	}
	if code, out, _ := runIn(t, dir, "fmt", "-d", "sub"); code != 0 || !strings.Contains(out, "-  [deployment.app]\n-replicas = 3   # three\n+[deployment.app]\n+replicas: 3 # three\n") {
		t.Errorf("fmt -d: exit %d: %q", code, out)
	}
	code, out, stderr := runIn(t, dir, "fmt", ".")
	if code != exitRejected || !strings.HasPrefix(stderr, "kmerge: bad.kpatch:2:1: expected key: value") || !strings.Contains(stderr, "  replicas 3\n  ^\n") {
		t.Errorf("fmt on a bad file: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(out, "[deployment.app]\nreplicas: 3 # three\n") {
		t.Errorf("fmt prints the files that format: %q", out)
	}
	if code, _, _ := runIn(t, dir, "fmt", "-w", "sub"); code != 0 {
		t.Errorf("fmt -w: exit %d", code)
	}
	info, err := os.Stat(filepath.Join(dir, "sub/messy.kpatch"))
	data, _ := os.ReadFile(filepath.Join(dir, "sub/messy.kpatch"))
	if err != nil || string(data) != "[deployment.app]\nreplicas: 3 # three\n" || info.Mode().Perm() != 0o600 {
		t.Errorf("fmt -w wrote %q (mode %v)", data, info.Mode())
	}
	// a YAML patch list given by name: fmt says what it formats (issue 27
	// item 17: it read the list as .kpatch text, "an assignment needs a
	// section")
	write(t, dir, "list.yaml", "- target: deployment.app\n  patch: {replicas: 3}\n")
	if code, _, stderr := runIn(t, dir, "fmt", "list.yaml"); code != exitUsage || !strings.Contains(stderr, "list.yaml: kmerge fmt formats .kpatch files; this is a YAML or JSON file") {
		t.Errorf("fmt on a patch list: exit %d\n%s", code, stderr)
	}
	var stdout, stderr2 bytes.Buffer
	if code := run([]string{"fmt"}, strings.NewReader("[a.b]\nx=1\n"), &stdout, &stderr2); code != 0 || stdout.String() != "[a.b]\nx: 1\n" {
		t.Errorf("fmt on stdin: exit %d: %q %s", code, stdout.String(), stderr2.String())
	}
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// kmerge init in a repository of overlays (base/, overlays/staging/,
// overlays/prod/) writes a project per overlay, each applying its own
// patches to the base, not one project that blends both; at the top, apply
// names them. On examples/ (several independent sets of manifests and
// patches, and copies of the same objects), every project it proposes
// runs.
func TestInitOverlays(t *testing.T) {
	src, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, dir, "base/d.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n")
	write(t, dir, "overlays/staging/r.kpatch", "[deployment.web]\nreplicas: 2\n")
	write(t, dir, "overlays/prod/r.kpatch", "[deployment.web]\nreplicas: ${values.replicas}\n")
	write(t, dir, "overlays/prod/values.yaml", "replicas: 5\n")
	code, out, stderr := runIn(t, dir, "init")
	want := "wrote overlays/prod/kmerge.yaml: 1 manifest, 1 patch, 1 values and 0 schema entries\n" +
		"wrote overlays/staging/kmerge.yaml: 1 manifest, 1 patch, 0 values and 0 schema entries\n" +
		"2 projects: run kmerge apply in a project's folder, or name one with --project (kmerge apply --project overlays/staging)\n"
	if code != 0 || out != want {
		t.Fatalf("init: exit %d:\n%s%s\nwant\n%s", code, out, stderr, want)
	}
	for env, replicas := range map[string]string{"staging": "2", "prod": "5"} {
		code, out, stderr := runIn(t, filepath.Join(dir, "overlays", env), "apply")
		if code != 0 || !strings.Contains(out, "replicas: "+replicas+"\n") || stderr != "" {
			t.Errorf("apply in overlays/%s: exit %d\n%s%s", env, code, out, stderr)
		}
	}
	code, _, stderr = runIn(t, dir, "apply")
	if code != exitUsage || !strings.Contains(stderr, "projects below: overlays/prod, overlays/staging (run in one's folder, or pass --project overlays/prod)") {
		t.Errorf("apply at the top: exit %d\n%s", code, stderr)
	}

	examples := t.TempDir()
	if err := os.CopyFS(examples, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(examples, "kmerge.yaml")); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := runIn(t, examples, "init"); code != 0 {
		t.Fatalf("init examples: exit %d\n%s%s", code, out, stderr)
	}
	for _, sub := range []string{".", "argocd/app", "helm"} {
		if code, _, stderr := runIn(t, filepath.Join(examples, sub), "apply"); code != 0 {
			t.Errorf("apply in examples/%s with the project init proposed: exit %d\n%s", sub, code, stderr)
		}
	}
}

// TestFmtLimit: kmerge fmt reads under the limits apply reads with, and
// takes --limit to raise them, as the advice of its limit errors says
// (issue 25 item 14: the advice named a flag fmt did not have).
func TestFmtLimit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "long.kpatch", "[configmap.c]\ndata.x: "+strings.Repeat("v", 2000)+"\n")
	code, _, stderr := runIn(t, dir, "fmt", "--limit", "line=1Ki", "long.kpatch")
	if code != exitRejected || !strings.Contains(stderr, "long.kpatch:2:") || !strings.Contains(stderr, "--limit line=N") {
		t.Errorf("fmt over the line limit: exit %d\n%s", code, stderr)
	}
	if code, out, stderr := runIn(t, dir, "fmt", "--limit", "line=4Ki", "long.kpatch"); code != 0 || !strings.HasPrefix(out, "[configmap.c]\ndata.x: vvv") {
		t.Errorf("fmt under a raised limit: exit %d\n%s%s", code, out, stderr)
	}
	if code, _, stderr := runIn(t, dir, "fmt", "--limit", "bytes=100", "long.kpatch"); code != exitRejected || !strings.Contains(stderr, "--limit bytes=N") {
		t.Errorf("fmt over the byte limit: exit %d\n%s", code, stderr)
	}
}

// TestDepthLimitFlag: --limit depth raises the nesting limit up to the
// deepest nesting kmerge reads, tree.DeepestNesting (100,000); a larger
// value (8Ei: no limit) is that; nesting deeper than yaml.v3 reads (10,000)
// is read (issue 25 item 14: yaml.v3's "exceeded max depth of 10000", with
// no position, and no limit that raised it).
func TestDepthLimitFlag(t *testing.T) {
	dir := t.TempDir()
	// the root mapping is at depth 1, x's value at 2: the k-th [ (column 3+k) at k+1
	write(t, dir, "deep.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\nx: "+strings.Repeat("[", 15000)+strings.Repeat("]", 15000)+"\n")
	write(t, dir, "p.kpatch", "[configmap.c]\ndata.a: b\n")
	code, _, stderr := runIn(t, dir, "apply", "-f", "deep.yaml", "-p", "p.kpatch")
	if code != exitRejected || !strings.Contains(stderr, "deep.yaml:5:515: nesting deeper than 512 levels") || !strings.Contains(stderr, "--limit depth=N") {
		t.Errorf("15,000 deep under the default limit: exit %d\n%s", code, stderr)
	}
	if code, out, stderr := runIn(t, dir, "apply", "-f", "deep.yaml", "-p", "p.kpatch", "--limit", "depth=20000"); code != 0 || !strings.Contains(out, "  a: b\n") {
		t.Errorf("15,000 deep under --limit depth=20000: exit %d\n%s", code, stderr)
	}
	// deeper than kmerge reads at all: no limit raises that
	write(t, dir, "deeper.yaml", "x: "+strings.Repeat("[", 100001)+strings.Repeat("]", 100001)+"\n")
	code, _, stderr = runIn(t, dir, "apply", "-f", "deeper.yaml", "-p", "p.kpatch", "--limit", "depth=8Ei")
	if code != exitRejected || !strings.Contains(stderr, "deeper.yaml:1:100003: nesting deeper than 100000 levels, the most kmerge reads") || strings.Contains(stderr, "--limit") {
		t.Errorf("100,001 deep under --limit depth=8Ei: exit %d\n%s", code, stderr)
	}
}

// TestInitInOverlay is issue 27's first wall: in an overlay's folder,
// `kmerge init && kmerge apply` printed a Deployment with only replicas
// (the overlay's patch file read as a manifest, its kustomization as a
// patch file) and check passed. init there follows the kustomization's
// resources, as kustomize build does: apply prints the base's Deployment
// with the overlay's replicas, its Service, and the overlay's own
// ConfigMap (extra.yaml, which kustomize builds too), and warns of
// nothing; check finds no conflict.
func TestInitInOverlay(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "base/kustomization.yaml", "resources: [deployment.yaml, service.yaml]\n")
	write(t, dir, "base/deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: web\n        image: web:1\n")
	write(t, dir, "base/service.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n")
	write(t, dir, "overlays/staging/kustomization.yaml", "resources: [../../base, extra.yaml]\npatches:\n- path: replicas.yaml\n")
	write(t, dir, "overlays/staging/replicas.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n")
	write(t, dir, "overlays/staging/extra.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  a: b\n")
	overlay := filepath.Join(dir, "overlays/staging")
	code, out, stderr := runIn(t, overlay, "init")
	if code != 0 || out != "wrote kmerge.yaml: 2 manifest, 1 patch, 0 values and 0 schema entries\n" {
		t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = runIn(t, overlay, "apply")
	want := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        image: web:1\n" +
		"---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n" +
		"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  a: b\n"
	if code != 0 || out != want || stderr != "" {
		t.Errorf("apply: exit %d\n%s\nwant\n%s\nstderr:\n%s", code, out, want, stderr)
	}
	if code, out, stderr := runIn(t, overlay, "check"); code != 0 || out != "no conflicts: 1 patch, 3 objects\n" {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
}
