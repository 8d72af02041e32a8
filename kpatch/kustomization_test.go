package kpatch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKustomization: the patches of a kustomization, in kustomize's order
// (patchesStrategicMerge, then patches, then patchesJson6902, whatever
// their order in the file: kustomize build v5.8.2 applies them so), each
// with its target, options and the position of its text (a file's, or the
// kustomization's for an inline patch: its lines and columns there); the
// fields kmerge does not read in one warning, with the resources that are
// files of the overlay (a base folder is given with -f and not named).
func TestKustomization(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"overlay/kustomization.yaml": `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
- ../base
- extra.yaml
namePrefix: prod-
patchesJson6902:
- target: {group: apps, version: v1, kind: Deployment, name: web}
  path: ops.yaml
patches:
- path: two.yaml
- target: {kind: Deployment, labelSelector: app=web}
  options: {allowNameChange: true}
  patch: |-
    kind: Deployment
    metadata:
      name: web2
- target: {name: "web.*"}
  patch: '[{"op": "add", "path": "/metadata/labels/x", "value": "y"}]'
patchesStrategicMerge:
- |-
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cfg
  $patch: delete
images:
- name: nginx
  newTag: "1.27"
`,
		"overlay/extra.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: extra}\n",
		"overlay/ops.yaml":   "- op: replace\n  path: /spec/replicas\n  value: 3\n",
		"overlay/two.yaml":   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\nspec:\n  replicas: 2\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec: {replicas: 2}\n",
		"base/d.yaml":        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n",
	})
	var warnings []Warning
	patches, err := Load(context.Background(), []string{filepath.Join(dir, "overlay")}, LoadOptions{Warn: func(w Warning) { warnings = append(warnings, w) }})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range patches {
		rel, _ := filepath.Rel(dir, p.Pos.File)
		fmt.Fprintf(&b, "%s:%d:%d %s %s delete=%v name=%v kind=%v\n", rel, p.Pos.Line, p.Pos.Column, p.Type, p.Target, p.DeletesObject(), p.AllowNameChange, p.AllowKindChange)
	}
	want := `overlay/kustomization.yaml:22:3 strategic v1 ConfigMap cfg delete=true name=false kind=false
overlay/two.yaml:1:1 strategic apps/v1 Deployment prod/web delete=false name=false kind=false
overlay/two.yaml:9:1 strategic apps/v1 Deployment api delete=false name=false kind=false
overlay/kustomization.yaml:15:5 strategic {kind: Deployment, labelSelector: app=web} delete=false name=true kind=false
overlay/kustomization.yaml:19:11 json {name: "web.*"} delete=false name=false kind=false
overlay/ops.yaml:1:1 json {group: apps, version: v1, kind: Deployment, name: web} delete=false name=false kind=false
`
	if got := b.String(); got != want {
		t.Errorf("patches:\n%s\nwant:\n%s", got, want)
	}
	if len(warnings) != 1 {
		t.Fatalf("warnings: %v", warnings)
	}
	w := warnings[0]
	if rel, _ := filepath.Rel(dir, w.Pos.File); rel != "overlay/kustomization.yaml" || w.Pos.Line != 3 ||
		strings.Join(w.Ignored, "; ") != "resources (extra.yaml: give them with -f); namePrefix; images" ||
		!strings.HasSuffix(w.Msg, "not its resources (extra.yaml: give them with -f), namePrefix and images") {
		t.Errorf("warning: %s %v", w, w.Ignored)
	}
	// the inline patch's nodes have their places in the kustomization
	name := patches[3].Body.Content[3].Content[1] // metadata: {name: web2}
	if name.Value != "web2" || name.Line != 17 || name.Column != 13 {
		t.Errorf("web2 is at %d:%d, want 17:13", name.Line, name.Column)
	}
}

// TestKustomizationFiles: a folder holding a kustomization is read through
// it, given or met below a folder given: its other files are not patch
// lists (they are the kustomization's patches, or nothing).
func TestKustomizationFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"patches/a.kpatch":                "[cm.a]\ndata.x: 1\n",
		"patches/prod/kustomization.yml":  "patches:\n- path: p.yaml\n",
		"patches/prod/p.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"patches/prod/more/b.kpatch":      "[cm.b]\ndata.x: 1\n",
		"patches/staging/Kustomization":   "patches: []\n",
		"patches/staging/values.yaml":     "replicas: 3\n",
		"patches/z.yaml":                  "- target: cm.z\n  patch: {data.x: 1}\n",
		"two/kustomization.yaml":          "patches: []\n",
		"two/kustomization.yml":           "patches: []\n",
		"file/kustomization.yaml":         "patches: []\n",
		"file/unrelated/kustomization.ym": "not read",
	})
	files, err := Files([]string{filepath.Join(dir, "patches"), filepath.Join(dir, "file/kustomization.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		files[i], _ = filepath.Rel(dir, files[i])
	}
	if got := strings.Join(files, " "); got != "patches/a.kpatch patches/prod/kustomization.yml patches/staging/Kustomization patches/z.yaml file/kustomization.yaml" {
		t.Errorf("files: %s", got)
	}
	if _, err := Files([]string{filepath.Join(dir, "two")}); err == nil || !strings.Contains(err.Error(), "more than one kustomization file") {
		t.Errorf("two kustomizations: %v", err)
	}
	if _, err := Load(context.Background(), []string{filepath.Join(dir, "patches")}, LoadOptions{}); err != nil {
		t.Errorf("Load: %v", err)
	}
}

// TestKustomizationLoadRestrictions: a file a kustomization names must be
// in or below its folder once links are followed, as kustomize build
// v5.8.2 requires by default ("security; file ... is not in or below
// ..."): a link out of the overlay, to a file or to a folder on the way,
// is refused as a name going up is, with an *OutsideRootError naming the
// entry's line; a link inside the overlay, an absolute path inside it and
// an overlay reached through a linked folder are read, as kustomize reads
// them. NoRestrictions (kustomize's --load-restrictor
// LoadRestrictionsNone) reads them all. The check used to be on the name
// only: both links were read, exit 0.
func TestKustomizationLoadRestrictions(t *testing.T) {
	dir := t.TempDir()
	const patch = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: %d}\n"
	writeFiles(t, dir, map[string]string{
		"outside/evil.yaml":   fmt.Sprintf(patch, 7),
		"overlay/real/p.yaml": fmt.Sprintf(patch, 2),
	})
	for _, l := range [][2]string{
		{"../outside/evil.yaml", "overlay/link.yaml"},
		{"../outside", "overlay/sub"},
		{"real/p.yaml", "overlay/in.yaml"},
		{"overlay", "linked"},
	} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	for _, c := range []struct {
		path    string
		overlay string
		err     string // with the default restrictions; "" reads
	}{
		{"link.yaml", "overlay", " link.yaml leads out of the kustomization's folder through a symbolic link (to ../outside/evil.yaml), where kustomize reads no file"},
		{"sub/evil.yaml", "overlay", " sub/evil.yaml leads out of the kustomization's folder through a symbolic link (to ../outside/evil.yaml), where kustomize reads no file"},
		{"../outside/evil.yaml", "overlay", " ../outside/evil.yaml is outside the kustomization's folder, where kustomize reads no file"},
		{"in.yaml", "overlay", ""},
		{"DIR/overlay/real/p.yaml", "overlay", ""},
		{"real/p.yaml", "linked", ""},
		{"../overlay/real/p.yaml", "overlay", ""},
	} {
		path := strings.ReplaceAll(c.path, "DIR", dir)
		for _, field := range []struct{ name, text, at string }{
			{"patches", "patches:\n- path: %s\n", "3:9:"},
			{"patchesStrategicMerge", "patchesStrategicMerge:\n- %s\n", "3:3:"},
		} {
			writeFiles(t, dir, map[string]string{"overlay/kustomization.yaml": "resources: [../base]\n" + fmt.Sprintf(field.text, path)})
			for _, r := range []LoadRestrictions{RootOnly, NoRestrictions} {
				ps, err := Load(context.Background(), []string{filepath.Join(dir, c.overlay)}, LoadOptions{LoadRestrictions: r})
				var oe *OutsideRootError
				switch {
				case c.err == "" || r == NoRestrictions:
					if err != nil || len(ps) != 1 {
						t.Errorf("%s, %s, %v: %d patches, %v", c.path, field.name, r, len(ps), err)
					}
				case !errors.As(err, &oe):
					t.Errorf("%s, %v: %v, want an *OutsideRootError", c.path, r, err)
				default:
					want := field.at + strings.ReplaceAll(c.err, "DIR", dir)
					if !strings.Contains(err.Error(), filepath.Join(c.overlay, "kustomization.yaml")+":"+want) {
						t.Errorf("%s: %v\nwant ...%s", c.path, err, want)
					}
				}
			}
		}
	}
	if r, err := ParseLoadRestrictions("LoadRestrictionsNone"); r != NoRestrictions || err != nil || r.String() != "LoadRestrictionsNone" {
		t.Errorf("ParseLoadRestrictions(LoadRestrictionsNone): %v, %v", r, err)
	}
	if _, err := ParseLoadRestrictions("none"); err == nil {
		t.Errorf("ParseLoadRestrictions(none): no error; kustomize refuses it")
	}
}
