package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// TestKustomizeOverlays is the agreement test of kmerge's reading of
// kustomizations: each folder of testdata/overlays (but bases/) is an
// unmodified kustomize overlay whose kustomization uses resources (folders
// of bases/) and patches only: patches, patchesStrategicMerge and
// patchesJson6902, files and inline, strategic and JSON, with targets by
// kind, name (regular expressions), namespace, group, version, labels and
// annotations, deleting, renaming and re-kinding objects, in several
// documents per file. kustomize build of the folder and kmerge apply -f
// RESOURCES -p FOLDER (with validation, as the command runs) must give the
// same objects: compared as values, by identity, in any order (kustomize
// sorts objects and keys and drops comments; kmerge keeps the order and
// the text). The first comment of each kustomization says what the case
// shows. kmerge may warn that a kind has no schema (its strategic patches
// are merge patches, as kustomize applies them too), and what the case's
// kmerge-warnings.txt lists (a target that matches nothing, which
// kustomize skips silently): nothing else.
func TestKustomizeOverlays(t *testing.T) {
	kustomize := kustomizeBinary(t)
	dirs, err := filepath.Glob("testdata/overlays/*/kustomization.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, k := range dirs {
		if d := filepath.Dir(k); filepath.Base(d) != "bases" {
			cases = append(cases, d)
		}
	}
	if len(cases) < 30 {
		t.Fatalf("%d overlays under testdata/overlays, want at least 30", len(cases))
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(kustomize, "build", dir)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("kustomize build %s: %v\n%s", dir, err, stderr.String())
			}
			want := objectsOf(t, "kustomize", stdout.Bytes())
			res, err := kmerge.Apply(context.Background(), kmerge.ApplyOptions{Manifests: resourcesOf(t, dir), Patches: []string{dir}, ApplyPatchesOptions: kmerge.ApplyPatchesOptions{Validate: validate.Strict}})
			if err != nil {
				t.Fatalf("kmerge apply: %v", err)
			}
			expected := map[string]bool{} // kmerge-warnings.txt: the warnings the case expects, one a line
			if b, err := os.ReadFile(filepath.Join(dir, "kmerge-warnings.txt")); err == nil {
				for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
					expected[l] = true
				}
			}
			for _, w := range res.Warnings {
				if !w.NoSchema && !expected[w.String()] {
					t.Errorf("kmerge warns: %s", w)
				}
				delete(expected, w.String())
			}
			for w := range expected {
				t.Errorf("kmerge does not warn %s", w)
			}
			got := objectsOf(t, "kmerge", res.Stream())
			for _, id := range sortedIDs(want) {
				g, ok := got[id]
				switch {
				case !ok:
					t.Errorf("kmerge lacks %s:\n%s", id, show(want[id]))
				case !tree.Equal(g, want[id]):
					t.Errorf("%s differs:\nkmerge:\n%s\nkustomize:\n%s", id, show(g), show(want[id]))
				}
			}
			for _, id := range sortedIDs(got) {
				if _, ok := want[id]; !ok {
					t.Errorf("kmerge has %s, which kustomize has not:\n%s", id, show(got[id]))
				}
			}
		})
	}
}

// resourcesOf returns the resources of the kustomization in dir, as paths:
// the manifests to give kmerge with -f.
func resourcesOf(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var k struct {
		Resources []string `yaml:"resources"`
	}
	if err := yaml.Unmarshal(data, &k); err != nil {
		t.Fatal(err)
	}
	if len(k.Resources) == 0 {
		t.Fatalf("%s: no resources", dir)
	}
	var out []string
	for _, r := range k.Resources {
		out = append(out, filepath.Join(dir, r))
	}
	return out
}

// objectsOf reads a stream of objects into a map by identity.
func objectsOf(t *testing.T, who string, data []byte) map[string]*yaml.Node {
	t.Helper()
	st, err := tree.Read(data, tree.Options{File: who})
	if err != nil {
		t.Fatalf("%s's output does not read: %v\n%s", who, err, data)
	}
	out := map[string]*yaml.Node{}
	for _, d := range st.Docs {
		root := tree.Root(d)
		if root == nil || tree.KindOf(root) == tree.Null {
			continue
		}
		text := func(n *yaml.Node, key string) string {
			if v := tree.MapGet(n, key); v != nil {
				return v.Value
			}
			return ""
		}
		meta := tree.MapGet(root, "metadata")
		id := fmt.Sprintf("%s %s %s/%s", text(root, "apiVersion"), text(root, "kind"), text(meta, "namespace"), text(meta, "name"))
		if _, dup := out[id]; dup {
			t.Fatalf("%s's output has %s twice", who, id)
		}
		out[id] = root
	}
	return out
}

func sortedIDs(m map[string]*yaml.Node) []string {
	var out []string
	for id := range m {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func show(n *yaml.Node) string {
	var b strings.Builder
	if err := tree.WriteYAML(&b, tree.Style{Indent: 2}, n); err != nil {
		return err.Error()
	}
	return b.String()
}

// TestKustomizeLoadRestrictions is the agreement test of the files a
// kustomization may name: for each patch path (a link out of the overlay,
// to a file or through a linked folder; a name going up; a link inside
// the overlay; an absolute path inside it; an overlay reached through a
// linked folder; a name going up and back in) and each of kustomize's
// --load-restrictor values, kustomize build and kmerge apply (its
// ApplyOptions.LoadRestrictions) both refuse the overlay, or both read it
// and give the same objects. kmerge used to check the name only: the links
// out of the overlay were read, where kustomize refuses them.
func TestKustomizeLoadRestrictions(t *testing.T) {
	kustomize := kustomizeBinary(t)
	dir := t.TempDir()
	const patch = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: %d}\n"
	files := map[string]string{
		"base/kustomization.yaml": "resources: [d.yaml]\n",
		"base/d.yaml":             "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n",
		"outside/evil.yaml":       fmt.Sprintf(patch, 7),
		"overlay/real/p.yaml":     fmt.Sprintf(patch, 2),
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range [][2]string{{"../outside/evil.yaml", "overlay/link.yaml"}, {"../outside", "overlay/sub"}, {"real/p.yaml", "overlay/in.yaml"}, {"overlay", "linked"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	refused := 0
	for _, c := range []struct{ path, overlay string }{
		{"link.yaml", "overlay"}, {"sub/evil.yaml", "overlay"}, {"../outside/evil.yaml", "overlay"},
		{"in.yaml", "overlay"}, {filepath.Join(dir, "overlay/real/p.yaml"), "overlay"}, {"real/p.yaml", "linked"},
		{"../overlay/real/p.yaml", "overlay"},
	} {
		if err := os.WriteFile(filepath.Join(dir, "overlay/kustomization.yaml"), []byte("resources: [../base]\npatches:\n- path: "+c.path+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, r := range []kpatch.LoadRestrictions{kpatch.RootOnly, kpatch.NoRestrictions} {
			overlay := filepath.Join(dir, c.overlay)
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(kustomize, "build", "--load-restrictor", r.String(), overlay)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			kerr := cmd.Run()
			res, err := kmerge.Apply(context.Background(), kmerge.ApplyOptions{Manifests: []string{filepath.Join(dir, "base")}, Patches: []string{overlay}, LoadRestrictions: r})
			switch {
			case (kerr != nil) != (err != nil):
				t.Errorf("%s, %v: kustomize: %v %s\nkmerge: %v", c.path, r, kerr, stderr.String(), err)
			case kerr != nil:
				refused++
				if !strings.Contains(stderr.String(), "is not in or below") {
					t.Errorf("%s, %v: kustomize refuses it for another reason: %s", c.path, r, stderr.String())
				}
			default:
				want, got := objectsOf(t, "kustomize", stdout.Bytes()), objectsOf(t, "kmerge", res.Stream())
				for id, w := range want {
					if g, ok := got[id]; !ok || !tree.Equal(g, w) {
						t.Errorf("%s, %v: %s: kmerge:\n%s\nkustomize:\n%s", c.path, r, id, show(g), show(w))
					}
				}
				if len(got) != len(want) {
					t.Errorf("%s, %v: kmerge gives %d objects, kustomize %d", c.path, r, len(got), len(want))
				}
			}
		}
	}
	if refused != 3 {
		t.Errorf("%d refusals; want 3 (the two links out of the overlay and the name going up, by default)", refused)
	}
}

// TestKustomizeDifferences holds the two differences from kustomize seen
// on real overlays (docs/kustomize.md, "Where kmerge does otherwise"), on
// a base Deployment with an empty metadata.annotations and two containers
// and an overlay whose strategic patch names the second: kustomize 5.8.2
// moves the named container to the front of the list and drops the empty
// annotations the base had; kmerge gives the order upstream's
// StrategicMergePatch gives (a, then b: checked here against upstream
// itself) and keeps the empty field (the same object to an API server).
// When kustomize stops doing either, this test fails, and the docs
// should change with it.
func TestKustomizeDifferences(t *testing.T) {
	kustomize := kustomizeBinary(t)
	dir := t.TempDir()
	files := map[string]string{
		"base/d.yaml":                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations: {}\nspec:\n  template:\n    spec:\n      containers:\n      - {name: a, image: 'a:1'}\n      - {name: b, image: 'b:1'}\n",
		"base/kustomization.yaml":    "resources: [d.yaml]\n",
		"overlay/kustomization.yaml": "resources: [../base]\npatches:\n- patch: |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec: {template: {spec: {containers: [{name: b, image: 'b:2'}]}}}\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(kustomize, "build", filepath.Join(dir, "overlay")).Output()
	if err != nil {
		t.Fatalf("kustomize build: %v", err)
	}
	ks := objectsOf(t, "kustomize", out)["apps/v1 Deployment /web"]
	res, err := kmerge.Apply(context.Background(), kmerge.ApplyOptions{Manifests: []string{filepath.Join(dir, "base")}, Patches: []string{filepath.Join(dir, "overlay")}})
	if err != nil {
		t.Fatal(err)
	}
	km := objectsOf(t, "kmerge", res.Stream())["apps/v1 Deployment /web"]
	names := func(obj *yaml.Node) string {
		var out []string
		for _, c := range tree.MapGet(tree.MapGet(tree.MapGet(tree.MapGet(obj, "spec"), "template"), "spec"), "containers").Content {
			out = append(out, tree.MapGet(c, "name").Value+"="+tree.MapGet(c, "image").Value)
		}
		return strings.Join(out, ",")
	}
	if got := names(ks); got != "b=b:2,a=a:1" {
		t.Errorf("kustomize's containers: %s (the documented difference is b first)", got)
	}
	if got := names(km); got != "a=a:1,b=b:2" {
		t.Errorf("kmerge's containers: %s, want a, then b", got)
	}
	// upstream's order, from upstream's StrategicMergePatch
	up, err := strategicpatch.StrategicMergePatch(
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]}}}}`),
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"b:2"}]}}}}`), appsv1.Deployment{})
	if err != nil || !strings.Contains(string(up), `"containers":[{"image":"a:1","name":"a"},{"image":"b:2","name":"b"}]`) {
		t.Errorf("upstream gives %s (%v)", up, err)
	}
	if tree.MapGet(tree.MapGet(ks, "metadata"), "annotations") != nil {
		t.Errorf("kustomize kept the empty annotations (the documented difference is that it drops them)")
	}
	if a := tree.MapGet(tree.MapGet(km, "metadata"), "annotations"); a == nil || len(a.Content) != 0 {
		t.Errorf("kmerge's annotations: %v, want the base's empty mapping", a)
	}
}

// TestKustomizationFields holds kmerge's list of kustomization fields
// (kpatch.KustomizationFields) against kustomize: kustomize build accepts
// a kustomization with each of them (empty), and so does kmerge; both
// refuse a misspelt one (pathces: kustomize "json: unknown field", kmerge
// an *kpatch.UnknownFieldError naming patches), and a misspelt key of a
// patches entry (pth), and both read a field name in another letter case
// (Patches) as the field. Issue 27: kmerge warned of a misspelt field as
// one it chose not to read, and exit 0.
func TestKustomizationFields(t *testing.T) {
	kustomize := kustomizeBinary(t)
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("o/d.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1}\n")
	write("o/p.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 4}\n")
	build := func(kustomization string) (out string, kustomizeErr, kmergeErr error) {
		write("o/kustomization.yaml", kustomization)
		var stderr bytes.Buffer
		cmd := exec.Command(kustomize, "build", filepath.Join(dir, "o"))
		cmd.Stderr = &stderr
		kout, kerr := cmd.Output()
		if kerr != nil {
			kerr = fmt.Errorf("%v: %s", kerr, stderr.String())
		}
		_, err := kmerge.Apply(context.Background(), kmerge.ApplyOptions{Manifests: []string{filepath.Join(dir, "o/d.yaml")}, Patches: []string{filepath.Join(dir, "o")}})
		return string(kout), kerr, err
	}
	fields := kpatch.KustomizationFields()
	// each field empty (apiVersion and kind with their values: kmerge
	// knows a kustomization by them when they are there)
	values := map[string]string{"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization"}
	for _, f := range fields {
		if f == "resources" {
			continue // below, in every case
		}
		v := values[f]
		if v == "" {
			v = "null"
		}
		if _, kerr, err := build("resources: [d.yaml]\n" + f + ": " + v + "\n"); kerr != nil || err != nil {
			t.Errorf("%s: kustomize: %v; kmerge: %v", f, kerr, err)
		}
	}
	for _, c := range []struct{ text, kustomize, kmerge string }{
		{"resources: [d.yaml]\npathces: [{path: p.yaml}]\n", `unknown field "pathces"`, `unknown field "pathces" in a kustomization (did you mean patches?)`},
		{"resources: [d.yaml]\npatches: [{pth: p.yaml}]\n", `unknown field "pth"`, `unknown key "pth" in an entry of patches (did you mean path?)`},
	} {
		_, kerr, err := build(c.text)
		if kerr == nil || !strings.Contains(kerr.Error(), c.kustomize) {
			t.Errorf("%q: kustomize: %v, want %s", c.text, kerr, c.kustomize)
		}
		var ue *kpatch.UnknownFieldError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.kmerge) {
			t.Errorf("%q: kmerge: %v, want %s", c.text, err, c.kmerge)
		}
	}
	out, kerr, err := build("resources: [d.yaml]\nPatches: [{Path: p.yaml}]\n")
	if kerr != nil || err != nil || !strings.Contains(out, "replicas: 4") {
		t.Errorf("Patches, Path: kustomize: %v (%s); kmerge: %v", kerr, out, err)
	}
}

// TestKustomizeOpenAPIReplaces holds the difference docs/kustomize.md
// names for a kustomization's openapi file: kustomize 5.8.2 patches with
// that file's schema in place of its built-in one (kustomize issue 4613),
// so a Deployment patched beside the custom resource the file describes
// has its containers replaced, not merged by name; kmerge adds the file's
// kinds to its own schema, and merges both (the custom resource's list as
// kustomize does: conformance case 37-openapi-custom-resource).
func TestKustomizeOpenAPIReplaces(t *testing.T) {
	kustomize := kustomizeBinary(t)
	dir := t.TempDir()
	files := map[string]string{
		"o/d.yaml":             "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - {name: a, image: 'a:1'}\n      - {name: b, image: 'b:1'}\n",
		"o/schema.json":        `{"definitions": {"com.example.v1.Widget": {"x-kubernetes-group-version-kind": [{"group": "example.com", "kind": "Widget", "version": "v1"}], "properties": {"spec": {"type": "object"}}}}}`,
		"o/kustomization.yaml": "openapi: {path: schema.json}\nresources: [d.yaml]\npatches:\n- patch: |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: web}\n    spec: {template: {spec: {containers: [{name: b, image: 'b:2'}]}}}\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(kustomize, "build", filepath.Join(dir, "o")).Output()
	if err != nil {
		t.Fatalf("kustomize build: %v", err)
	}
	res, err := kmerge.Apply(context.Background(), kmerge.ApplyOptions{Manifests: []string{filepath.Join(dir, "o/d.yaml")}, Patches: []string{filepath.Join(dir, "o")}})
	if err != nil {
		t.Fatal(err)
	}
	containers := func(obj *yaml.Node) string {
		var out []string
		for _, c := range tree.MapGet(tree.MapGet(tree.MapGet(tree.MapGet(obj, "spec"), "template"), "spec"), "containers").Content {
			out = append(out, tree.MapGet(c, "name").Value+"="+tree.MapGet(c, "image").Value)
		}
		return strings.Join(out, ",")
	}
	if got := containers(objectsOf(t, "kustomize", out)["apps/v1 Deployment /web"]); got != "b=b:2" {
		t.Errorf("kustomize's containers: %s (the documented difference is b alone: the list replaced)", got)
	}
	if got := containers(objectsOf(t, "kmerge", res.Stream())["apps/v1 Deployment /web"]); got != "a=a:1,b=b:2" {
		t.Errorf("kmerge's containers: %s, want a, then b (merged by name)", got)
	}
}

// TestKustomizePatchMatchesNothing: kustomize build fails when a strategic
// patch without a target (in patches or patchesStrategicMerge) names no
// object, and builds when a target picks nothing (for a strategic patch or
// a JSON patch, in patches or patchesJson6902); kmerge.Apply fails and
// succeeds on the same overlays (issue 27: it never failed, and a CI that
// ran kmerge in kustomize's place lost the failure).
func TestKustomizePatchMatchesNothing(t *testing.T) {
	kustomize := kustomizeBinary(t)
	const smp = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec: {replicas: 2}\n"
	inline := func(text string, indent string) string {
		return indent + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n"+indent) + "\n"
	}
	for _, c := range []struct {
		name, kustomization string
		fails               bool
	}{
		{"patches without a target", "patches:\n- patch: |\n" + inline(fmt.Sprintf(smp, "wbe"), "    "), true},
		{"patchesStrategicMerge", "patchesStrategicMerge:\n- |\n" + inline(fmt.Sprintf(smp, "wbe"), "  "), true},
		{"a strategic patch with a target", "patches:\n- target: {kind: Deployment, name: wbe}\n  patch: |\n" + inline(fmt.Sprintf(smp, "any"), "    "), false},
		{"a JSON patch with a target", "patches:\n- target: {kind: Deployment, name: wbe}\n  patch: |\n    - {op: replace, path: /spec/replicas, value: 2}\n", false},
		{"patchesJson6902", "patchesJson6902:\n- target: {group: apps, version: v1, kind: Deployment, name: wbe}\n  patch: |\n    - {op: replace, path: /spec/replicas, value: 2}\n", false},
		{"a patch that matches", "patches:\n- patch: |\n" + inline(fmt.Sprintf(smp, "web"), "    "), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range map[string]string{
				"o/d.yaml":             "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1}\n",
				"o/kustomization.yaml": "resources: [d.yaml]\n" + c.kustomization,
			} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var stderr bytes.Buffer
			cmd := exec.Command(kustomize, "build", filepath.Join(dir, "o"))
			cmd.Stderr = &stderr
			kerr := cmd.Run()
			_, err := kmerge.Apply(context.Background(), kmerge.ApplyOptions{Manifests: []string{filepath.Join(dir, "o/d.yaml")}, Patches: []string{filepath.Join(dir, "o")}})
			if (kerr != nil) != c.fails || (err != nil) != c.fails {
				t.Errorf("want failing %v; kustomize: %v %s; kmerge: %v", c.fails, kerr, stderr.String(), err)
			}
			if c.fails && (!strings.Contains(stderr.String(), "no matches for Id Deployment.v1.apps/wbe") || err == nil || !strings.Contains(err.Error(), "no object matches apps/v1 Deployment wbe")) {
				t.Errorf("another failure: kustomize: %s; kmerge: %v", stderr.String(), err)
			}
		})
	}
}
