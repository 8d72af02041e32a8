package kpatch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
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
// it, given or met below a folder given, and its .kpatch files (in it and
// below) after it: its other files are not patch lists (they are the
// kustomization's patches, or nothing: a warning names each, an error with
// Strict). Issue 27: a .kpatch beside a kustomization was not read, and a
// file nothing read was not said.
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
	if got := strings.Join(files, " "); got != "patches/a.kpatch patches/prod/kustomization.yml patches/prod/more/b.kpatch patches/staging/Kustomization patches/z.yaml file/kustomization.yaml" {
		t.Errorf("files: %s", got)
	}
	if _, err := Files([]string{filepath.Join(dir, "two")}); err == nil || !strings.Contains(err.Error(), "more than one kustomization file") {
		t.Errorf("two kustomizations: %v", err)
	}
	var warnings []string
	patches, err := Load(context.Background(), []string{filepath.Join(dir, "patches")}, LoadOptions{Warn: func(w Warning) {
		rel, _ := filepath.Rel(dir, w.Pos.File)
		warnings = append(warnings, fmt.Sprintf("%s:%d:%d %v %s", rel, w.Pos.Line, w.Pos.Column, w.Unread, w.Msg))
	}})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	var targets []string
	for _, p := range patches {
		targets = append(targets, p.Target.String())
	}
	if got := strings.Join(targets, " "); got != "cm.a v1 ConfigMap a cm.b cm.z" {
		t.Errorf("patches: %s", got)
	}
	want := "patches/staging/values.yaml:1:1 true nothing reads this file: kmerge reads its folder through " + filepath.Join(dir, "patches/staging/Kustomization") +
		" (and the .kpatch files there), which does not name it; name it there (patches: [{path: values.yaml}] for a patch), or remove it"
	if len(warnings) != 1 || warnings[0] != want {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), want)
	}
	_, err = Load(context.Background(), []string{filepath.Join(dir, "patches")}, LoadOptions{Strict: true})
	if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "patches/staging/values.yaml")+":1:1: nothing reads this file") || !strings.HasSuffix(err.Error(), "(an error in strict mode)") {
		t.Errorf("Strict: %v", err)
	}
}

// TestKustomizationNamedFiles: a file of the overlay's folder is named by
// any field that gives its path (generators' files after key=, env files,
// replacements, crds, resources, patches), so only the file nothing names
// is warned of (patches/forgotten.yaml too: the field patches names no
// folder); the files of a folder below with a kustomization of its own (a
// component) are that kustomization's, and a project file and a file Load
// would not read (notes.txt) are no patch files.
func TestKustomizationNamedFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"o/kustomization.yaml": `resources: [res.yaml, ../base]
components: [comp]
crds: [crds/c.yaml]
configMapGenerator:
- name: cfg
  files: [settings=gen/settings.json]
  envs: [gen/env.yaml]
replacements:
- path: repl.yaml
patches:
- path: p.yaml
`,
		"o/res.yaml":                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\n",
		"o/p.yaml":                  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\ndata: {a: b}\n",
		"o/crds/c.yaml":             "kind: CustomResourceDefinition\n",
		"o/gen/settings.json":       "{}\n",
		"o/gen/env.yaml":            "a: b\n",
		"o/repl.yaml":               "source: {kind: ConfigMap}\n",
		"o/comp/kustomization.yaml": "kind: Component\npatches: [{path: x.yaml}]\n",
		"o/comp/x.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\n",
		"o/comp/stray.yaml":         "a: b\n",
		"o/stray.yml":               "a: b\n",
		"o/patches/forgotten.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: r}\n",
		"o/kmerge.yaml":             "apiVersion: kmerge/v1\nkind: Project\n",
		"o/notes.txt":               "not a patch file\n",
	})
	var unread []string
	_, err := Load(context.Background(), []string{filepath.Join(dir, "o")}, LoadOptions{Warn: func(w Warning) {
		if w.Unread {
			rel, _ := filepath.Rel(dir, w.Pos.File)
			unread = append(unread, rel)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(unread, " "); got != "o/patches/forgotten.yaml o/stray.yml" {
		t.Errorf("unread: %s, want o/patches/forgotten.yaml o/stray.yml", got)
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

// TestKustomizationFieldErrors: kustomize build v5.8.2 refuses a
// kustomization with a field it does not know ("invalid Kustomization:
// json: unknown field"), and an entry of patches with a key it does not
// know: so does Load, with the nearest names (issue 27: a typo such as
// pathces was a warning, exit 0, nothing patched). kustomize reads names
// in any letter case (Go's JSON decoding: Patches is patches, Path is
// path): so does Load; two keys that are one name are an error.
func TestKustomizationFieldErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"o/p.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"})
	for _, c := range []struct {
		text string
		err  string // "" reads, with the patches' count in n
		n    int
	}{
		{"pathces:\n- path: p.yaml\n", `o/kustomization.yaml:1:1: unknown field "pathces" in a kustomization (did you mean patches?): kustomize refuses a kustomization with a field it does not know`, 0},
		{"resources: []\nnamePrefx: a-\n", `o/kustomization.yaml:2:1: unknown field "namePrefx" in a kustomization (did you mean namePrefix?)`, 0},
		{"spec: {}\n", `o/kustomization.yaml:1:1: unknown field "spec" in a kustomization: kustomize refuses`, 0},
		{"patches:\n- pth: p.yaml\n", `o/kustomization.yaml:2:3: unknown key "pth" in an entry of patches (did you mean path?): the keys are path, patch, target and options`, 0},
		{"patchesJson6902:\n- target: {kind: ConfigMap, name: c}\n  paht: p.yaml\n", `o/kustomization.yaml:3:3: unknown key "paht" in an entry of patchesJson6902 (did you mean path?): the keys are target, path and patch`, 0},
		{"Patches:\n- Path: p.yaml\nNAMESPACE: x\n", "", 1},
		{"patches: []\nPatches: []\n", `o/kustomization.yaml:2:1: Patches and patches (line 1) are one key to kustomize, which reads names in any letter case: keep one`, 0},
	} {
		writeFiles(t, dir, map[string]string{"o/kustomization.yaml": c.text})
		ps, err := Load(context.Background(), []string{filepath.Join(dir, "o")}, LoadOptions{})
		switch {
		case c.err == "" && (err != nil || len(ps) != c.n):
			t.Errorf("%q: %d patches, %v", c.text, len(ps), err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), filepath.Join(dir, c.err))):
			t.Errorf("%q: %v\nwant %s", c.text, err, c.err)
		}
		var ue *UnknownFieldError
		if c.err != "" && strings.Contains(c.err, "unknown") && !errors.As(err, &ue) {
			t.Errorf("%q: %T is no *UnknownFieldError", c.text, err)
		}
	}
	if got := KustomizationFields(); len(got) != 34 || got[0] != "apiVersion" {
		t.Errorf("KustomizationFields: %d %v", len(got), got)
	}
}

// TestKustomizationErrorsInSecretsMasked: an error in a kustomization's
// entry (a typo refused, an entry of the wrong shape) quotes the line it
// points at, and in a flow mapping that line holds the entry's inline
// patch: a Secret's values were printed in clear (attack of 2026-11-28,
// issue 25: - {patch: "...stringData: {p: NEWVAL8}", targt: {kind: Secret}}).
// The line is quoted masked (secret.InError) when the entry may set a
// Secret's values, as a patch list that is not YAML is judged (its text
// names secret in any letter case or holds a *, or its target names no
// kind), and in clear otherwise.
func TestKustomizationErrorsInSecretsMasked(t *testing.T) {
	dir := t.TempDir()
	inline := `"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {p: NEWVAL8}"`
	for _, c := range []struct {
		text   string
		masked bool
	}{
		{"patches:\n- {patch: " + inline + ", targt: {kind: Secret}}\n", true},
		{"patches:\n- {patch: " + inline + ", options: 3}\n", true},
		{"pathces: [{patch: " + inline + "}]\n", true},
		{"patchesStrategicMerge: [" + inline + ", {a: b}]\n", true},
		{"patchesJson6902:\n- {target: {name: s}, ptch: '[{op: add, path: /data/x, value: NEWVAL8}]'}\n", true},
		{"patchesJson6902:\n- {target: {kind: '*', name: s}, ptch: '[{op: add, path: /data/x, value: NEWVAL8}]'}\n", true},
		// not a Secret's: in clear
		{"patchesJson6902:\n- {target: {kind: ConfigMap, name: c}, ptch: '[{op: add, path: /data/x, value: v}]'}\n", false},
		{"patches:\n- {patch: 'apiVersion: v1\\nkind: ConfigMap\\nmetadata: {name: c}', targt: {kind: ConfigMap}}\n", false},
		{"pathces: [{path: p.yaml}]\n", false},
		// the entry of a Secret is the second; the error is in the first
		{"patches:\n- {path: p.yaml, targt: {kind: ConfigMap}}\n- {patch: " + inline + "}\n", false},
		// an entry of block lines, after another and before another
		{"patches:\n- path: p.yaml\n- path: p.yaml\n  targt:\n    kind: ConfigMap\n- path: p.yaml\n", false},
		{"patches:\n- path: p.yaml\n- patch: " + inline + "\n  targt: {kind: Secret}\n- path: p.yaml\n", true},
	} {
		// the same with CRLF and lone CR line breaks (a file of CRs was
		// one line to the entry's lines: its text none, a Secret's
		// values quoted in clear, or a slice out of range, a panic;
		// attack, 2026-11-29), and NEL, LS and PS, which the YAML reader
		// counts as line breaks too
		for _, eol := range []string{"\n", "\r\n", "\r", "\u0085", "\u2028", "\u2029"} {
			text := strings.ReplaceAll(c.text, "\n", eol)
			writeFiles(t, dir, map[string]string{"o/kustomization.yaml": text, "o/p.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"})
			_, err := Load(context.Background(), []string{filepath.Join(dir, "o")}, LoadOptions{})
			if err == nil {
				t.Errorf("%q: no error", text)
				continue
			}
			if got := secret.InError(err); got != c.masked {
				t.Errorf("%q: %v: masked %v, want %v", text, err, got, c.masked)
			}
		}
	}
}

// TestKustomizationErrorsInSecretsMaskedMixedBreaks: lines ended by NELs
// before the entry (one line to a cut at LF, CRLF and CR alone, three to
// the YAML reader) made the entry's lines taken for later ones, which did
// not name secret: the line of the entry of a Secret, its inline patch's
// values, was quoted in clear (attack, 2026-11-29).
func TestKustomizationErrorsInSecretsMaskedMixedBreaks(t *testing.T) {
	dir := t.TempDir()
	inline := `"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {p: NEWVAL8}"`
	for _, sep := range []string{"\u0085", "\u2028", "\u2029"} {
		text := "resources:" + sep + "- a.yaml" + sep + "- b.yaml\npatches:\n- {patch: " + inline + ", targt: {kind: Secret}}\n- path: p.yaml\n- path: p.yaml\n- path: p.yaml\n"
		writeFiles(t, dir, map[string]string{"o/kustomization.yaml": text, "o/p.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"})
		_, err := Load(context.Background(), []string{filepath.Join(dir, "o")}, LoadOptions{})
		if err == nil || !secret.InError(err) {
			t.Errorf("%q: %v: not masked", text, err)
		}
	}
}

// TestKustomizationWarning: the warning of the fields kmerge does not
// read. An empty field is not named (kustomize does nothing with it
// either: issue 27, an empty components: was); components say how kmerge
// reads them (give each folder with -p); a resource file given among the
// manifests (LoadOptions.Inputs, -f: the file or a folder holding it)
// is not named (issue 27: it was, "give them with -f", when it had been).
func TestKustomizationWarning(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"o/extra.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: extra}\n",
		"o/more.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: more}\n",
	})
	for _, c := range []struct {
		text      string
		manifests []string
		want      string // the warning's message after "not its "; "" none
	}{
		{"resources: [extra.yaml, more.yaml]\ncomponents: []\nnamePrefix: ''\nimages: []\n", nil, "resources (extra.yaml, more.yaml: give them with -f)"},
		{"resources: [extra.yaml, more.yaml]\ncomponents: [../c]\n", []string{"o/extra.yaml"}, "resources (more.yaml: give them with -f) and components (give each component folder with -p)"},
		{"resources: [extra.yaml, more.yaml]\n", []string{"o"}, ""},
		{"resources: [extra.yaml]\ncommonLabels: {a: b}\ncomponents: null\n", []string{"o/extra.yaml"}, "commonLabels"},
	} {
		writeFiles(t, dir, map[string]string{"o/kustomization.yaml": c.text})
		var manifests []string
		for _, m := range c.manifests {
			manifests = append(manifests, filepath.Join(dir, m))
		}
		var got []string
		if _, err := Load(context.Background(), []string{filepath.Join(dir, "o")}, LoadOptions{Inputs: manifests, Warn: func(w Warning) {
			if w.Unread {
				return // more.yaml, in the last case
			}
			_, after, _ := strings.Cut(w.Msg, "not its ")
			got = append(got, after)
		}}); err != nil {
			t.Fatal(err)
		}
		if want := []string{c.want}; c.want == "" && len(got) != 0 || c.want != "" && !slices.Equal(got, want) {
			t.Errorf("%q, -f %v: warnings %q, want %q", c.text, c.manifests, got, c.want)
		}
	}
}

// TestKustomizationOpenAPI: the openapi field's path is an OpenAPI
// document kustomize patches the overlay's kinds by: Load reads it, as
// kustomize does (a file in or below the overlay's folder, relative to
// it) and gives it to LoadOptions.Schemas; version (one of kustomize's
// built-in schemas) names no file; a file that does not exist, or is
// outside the folder, is an error, as kustomize build's.
func TestKustomizationOpenAPI(t *testing.T) {
	dir := t.TempDir()
	const defs = "definitions:\n  v1alpha1.MyCRD:\n    x-kubernetes-group-version-kind: [{group: example.com, kind: MyCRD, version: v1alpha1}]\n    properties:\n      spec:\n        properties:\n          items:\n            type: array\n            items: {type: object, properties: {name: {type: string}}}\n            x-kubernetes-patch-strategy: merge\n            x-kubernetes-patch-merge-key: name\n"
	writeFiles(t, dir, map[string]string{"o/schema/crd.json": defs, "out.json": defs})
	for _, c := range []struct {
		text string
		n    int    // schemas given
		err  string // "" reads
	}{
		{"openapi:\n  path: schema/crd.json\n", 1, ""},
		{"openapi: {version: v1.21.2}\n", 0, ""},
		{"openapi:\n  path: nosuch.json\n", 0, "o/kustomization.yaml:2:9: the schema file nosuch.json does not exist"},
		{"openapi:\n  path: ../out.json\n", 0, "../out.json is outside the kustomization's folder"},
		{"openapi: schema/crd.json\n", 0, "o/kustomization.yaml:1:10: openapi is a mapping"},
	} {
		writeFiles(t, dir, map[string]string{"o/kustomization.yaml": c.text})
		var got []*schema.Schema
		_, err := Load(context.Background(), []string{filepath.Join(dir, "o")}, LoadOptions{Schemas: func(s *schema.Schema) { got = append(got, s) }})
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.text, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), strings.ReplaceAll(c.err, "o/", filepath.Join(dir, "o")+"/"))):
			t.Errorf("%q: %v, want %s", c.text, err, c.err)
		case len(got) != c.n:
			t.Errorf("%q: %d schemas, want %d", c.text, len(got), c.n)
		case c.n == 1:
			k := got[0].Kind("example.com/v1alpha1", "MyCRD")
			if f := k.Field("spec").Type.Field("items"); f == nil || len(f.Meta.MergeKey) != 1 || f.Meta.MergeKey[0] != "name" {
				t.Errorf("%q: the schema's items: %+v", c.text, f)
			}
		}
	}
}

// TestObjectPatchFile: a YAML file of partial objects (apiVersion, kind,
// metadata.name) among kmerge's own patch files is a kustomize patch file,
// as patchesStrategicMerge names them: each document is a strategic merge
// patch of the object it names (issue 27: it was refused as a values file,
// with --values suggested). A mapping that names no object is still the
// values file it looks like.
func TestObjectPatchFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"p/replicas.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\nspec:\n  replicas: 3\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\n$patch: delete\n",
		"v/values.yaml":   "replicas: 3\nkind: Deployment\n",
	})
	ps, err := Load(context.Background(), []string{filepath.Join(dir, "p")}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, fmt.Sprintf("%d:%d %s %s id=%v delete=%v kustomization=%q", p.Pos.Line, p.Pos.Column, p.Type, p.Target, p.Target.ID, p.DeletesObject(), p.Kustomization))
	}
	want := []string{`1:1 strategic apps/v1 Deployment prod/web id=true delete=false kustomization=""`, `9:1 strategic v1 ConfigMap cfg id=true delete=true kustomization=""`}
	if !slices.Equal(got, want) {
		t.Errorf("patches:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var se *syntax.Error
	if _, err := Load(context.Background(), []string{filepath.Join(dir, "v")}, LoadOptions{}); !errors.As(err, &se) || !se.ValuesFile {
		t.Errorf("a values file: %v", err)
	}
}

// TestKustomizationPatchMatchesNothing: a strategic patch without a
// target in a kustomization names its object; kustomize build v5.8.2
// fails when no object has that identity ("no matches for Id
// Deployment.v1.apps/wbe.[noNs]"), so Apply does, whatever Strict, with
// the nearest names (issue 27: a warning, exit 0; a team swapping
// kustomize build for kmerge in CI lost the failure). A target that picks
// nothing is skipped silently by kustomize: a warning, as for kmerge's own
// patches; and a kustomize patch file among kmerge's own patch files keeps
// the warning of kmerge's own files.
func TestKustomizationPatchMatchesNothing(t *testing.T) {
	dir := t.TempDir()
	const manifests = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: prod}\n"
	writeFiles(t, dir, map[string]string{
		"o1/kustomization.yaml": "patches:\n- patch: |\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: wbe}\n    spec: {replicas: 2}\n",
		"o2/kustomization.yaml": "patchesStrategicMerge:\n- p.yaml\n",
		"o2/p.yaml":             "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec: {replicas: 2}\n",
		"o3/kustomization.yaml": "patches:\n- target: {kind: Deployment, name: wbe}\n  patch: |\n    - {op: replace, path: /spec/replicas, value: 2}\n",
		"own/p.yaml":            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: wbe}\nspec: {replicas: 2}\n",
	})
	for _, c := range []struct {
		path, err, warning string
	}{
		{"o1", "o1/kustomization.yaml:3:5: no object matches apps/v1 Deployment wbe (did you mean apps/v1 Deployment web?): a kustomization's patch that names its object must match one (kustomize build fails too)", ""},
		{"o2", "o2/p.yaml:1:1: no object matches apps/v1 Deployment api (api is in namespace prod: the patch's metadata.namespace picks the namespace): a kustomization's patch", ""},
		{"o3", "", "no object matches {kind: Deployment, name: wbe} (did you mean {kind: Deployment, name: web}?); skipped"},
		{"own", "", "no object matches apps/v1 Deployment wbe (did you mean apps/v1 Deployment web?); skipped"},
	} {
		patches, err := Load(context.Background(), []string{filepath.Join(dir, c.path)}, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		set, err := resource.Parse([]byte(manifests), "m.yaml", resource.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Apply(context.Background(), set, patches, Options{})
		switch {
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, c.err))):
			t.Errorf("%s: %v\nwant %s", c.path, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.path, err)
		case c.err == "" && (len(res.Warnings) != 1 || res.Warnings[0].Msg != c.warning):
			t.Errorf("%s: warnings %v, want %s", c.path, res.Warnings, c.warning)
		}
	}
}

// TestKustomizationInlineBlockPosition: an inline patch of a block
// (patch: |-) starts at the block's indentation on the line after the
// indicator, whatever the kustomization's line breaks: the indentation
// was found by a cut at "\n" alone, so that a file of CRs, or of NELs,
// had no such line, and the patch was placed at column 1 (attack,
// 2026-11-29).
func TestKustomizationInlineBlockPosition(t *testing.T) {
	dir := t.TempDir()
	for _, eol := range []string{"\n", "\r\n", "\r", "\u0085", "\u2028", "\u2029"} {
		text := strings.ReplaceAll("patches:\n- target: {kind: Deployment}\n  patch: |-\n    - {op: replace, path: /spec/replicas, value: 2}\n", "\n", eol)
		writeFiles(t, dir, map[string]string{"o/kustomization.yaml": text})
		ps, err := Load(context.Background(), []string{filepath.Join(dir, "o")}, LoadOptions{})
		if err != nil || len(ps) != 1 {
			t.Fatalf("%q: %d patches, %v", text, len(ps), err)
		}
		if p := ps[0].Pos; p.Line != 4 || p.Column != 5 {
			t.Errorf("%q: the patch at %d:%d, want 4:5", text, p.Line, p.Column)
		}
	}
}

// TestKustomizationInlineSyntaxErrorPosition: a syntax error in an inline
// patch is at its place in the kustomization, moved as the patch's nodes
// are: it named the line and column in the patch's text with the
// kustomization's name, a line of another entry or none (attack,
// 2026-11-29). Lines and columns counted by hand: "}" is on line 9 of the
// file, column 14 (four spaces of the block, six of the key "q", "[a, ").
func TestKustomizationInlineSyntaxErrorPosition(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		text         string
		line, column int
	}{
		{"resources:\n- cm.yaml\npatches:\n- patch: |-\n    apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: c}\n    data:\n      q: [a, }\n", 9, 14},
		// a patch in a quoted string on one line: its columns after the
		// quote ("}" at column 18: the quote at 10, "a: [b, " from 11)
		{"patches:\n- patch: \"a: [b, }\"\n", 2, 18},
		// JSON, read by the JSON reader: "a" where a quoted key belongs, at 12
		{"patches:\n- patch: \"{a: [b, }\"\n", 2, 12},
		// a block's indentation is its first line with text's, less the
		// spaces the value keeps: a blank line first (empty, or of fewer
		// spaces) or an indentation indicator put the errors at other
		// columns ("}" at 12: 8, 10 and 16 before; attack, 2026-11-29)
		{"patches:\n- patch: |-\n\n    a: [b, }\n", 4, 12},
		{"patches:\n- patch: |-\n  \n    a: [b, }\n", 4, 12},
		{"patches:\n- patch: |2-\n      a: [b, }\n", 3, 14},
		{"patchesStrategicMerge:\n- |-\n\n    a: 1\n    b: [c, }\n", 5, 12},
		// the block's first and last lines, after every line break the
		// YAML reader counts, a BOM, characters of several bytes (columns
		// in characters, as the YAML reader counts them)
		{"patches:\n- patch: |-\n    a: [b, }\n    c: 1\n", 3, 12},
		{"patches:\r\n- patch: |-\r\n    a: 1\r\n    b: [c, }\r\n", 4, 12},
		{"patches:\r- patch: |-\r    a: 1\r    b: [c, }\r", 4, 12},
		{"patches:\u0085- patch: |-\u0085\u0085    a: 1\u0085    b: [c, }", 5, 12},
		{"patches:\u2028- patch: |-\u2028    a: 1\u2028    b: [c, }\u2028", 4, 12},
		{"patches:\u2029- patch: |-\u2029    a: 1\u2029    b: [c, }\u2029", 4, 12},
		{"\ufeffpatches:\n- patch: |-\n    a: [é, ü, }\n", 3, 15},
		// an inline patch of patchesStrategicMerge whose lines end with LSs
		// or PSs (a block keeps them): it was taken for a file name
		{"patchesStrategicMerge:\u2028- |-\u2028    a: 1\u2028    b: [c, }\u2028", 4, 12},
		{"patchesStrategicMerge:\u2029- |-\u2029    a: 1\u2029    b: [c, }", 4, 12},
	} {
		writeFiles(t, dir, map[string]string{"o/kustomization.yaml": c.text})
		_, err := Load(context.Background(), []string{filepath.Join(dir, "o")}, LoadOptions{})
		var se *syntax.Error
		if !errors.As(err, &se) || se.Pos.Line != c.line || se.Pos.Column != c.column || !strings.HasSuffix(se.Pos.File, "kustomization.yaml") {
			t.Errorf("%q: %v, want an error at %d:%d of the kustomization", c.text, err, c.line, c.column)
		}
	}
}

// TestKustomizationInlinePatchesLinear: reading a kustomization of many
// inline block patches allocates in proportion to their number (the
// bytes, not the time, are counted): an inline block's indentation cut
// the whole text into lines once per patch, n patches n times (a
// kustomization of 1,600 took 470 MB, of NELs 1 GB).
func TestKustomizationInlinePatchesLinear(t *testing.T) {
	for _, sep := range []string{"\n", "\r", "\u0085"} {
		bytes := map[int]uint64{}
		for _, n := range []int{50, 400} {
			dir := t.TempDir()
			var b strings.Builder
			b.WriteString("resources: [cm.yaml]" + sep + "patches:" + sep)
			for i := range n {
				fmt.Fprintf(&b, "- patch: |-%s    apiVersion: v1%[1]s    kind: ConfigMap%[1]s    metadata: {name: c}%[1]s    data: {k%d: v}%[1]s", sep, i)
			}
			writeFiles(t, dir, map[string]string{"o/kustomization.yaml": b.String(), "o/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"})
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			if _, err := Load(context.Background(), []string{filepath.Join(dir, "o")}, LoadOptions{}); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&m1)
			bytes[n] = m1.TotalAlloc - m0.TotalAlloc
		}
		// 8 times the patches: about 8 times the bytes (64 if quadratic)
		if r := float64(bytes[400]) / float64(bytes[50]); r > 16 {
			t.Errorf("%q: 400 inline patches allocate %.1f times what 50 do (%d, %d bytes)", sep, r, bytes[400], bytes[50])
		}
	}
}
