package project

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDetectAll: the projects kmerge init proposes, worked out from the
// rules of DetectAll's documentation, written as "FILE: manifests |
// patches | values | schemas | notes", paths relative to the folder.
func TestDetectAll(t *testing.T) {
	const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n"
	const patch = "[deployment.web]\nreplicas: 2\n"
	const crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n"
	const overlay = "resources: [../../base, extra.yaml]\npatches:\n- path: replicas.yaml\n"
	const svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n"
	for _, c := range []struct {
		name  string
		in    string // the folder init runs in, below the files' ("" the top)
		files map[string]string
		want  []string
	}{
		{
			name:  "one set of patches: one project at the root, as before",
			files: map[string]string{"base/d.yaml": deploy, "overrides/p.kpatch": patch, "values.yaml": "n: 1\n"},
			want:  []string{"kmerge.yaml: base | overrides | values.yaml | |"},
		},
		{
			name: "overlays: a project each, in its folder, with the base above it and the values it passes",
			files: map[string]string{"base/d.yaml": deploy, "overlays/staging/p.kpatch": patch, "overlays/prod/p.kpatch": patch,
				"overlays/prod/values.yaml": "n: 5\n", "values.yaml": "n: 1\n", "crds/w.yaml": crd},
			want: []string{
				"overlays/prod/kmerge.yaml: base | overlays/prod/p.kpatch | values.yaml overlays/prod/values.yaml | crds/w.yaml |",
				"overlays/staging/kmerge.yaml: base | overlays/staging | values.yaml | crds/w.yaml |",
			},
		},
		{
			name: "patch files beside the overlays come first in each",
			files: map[string]string{"base/d.yaml": deploy, "overlays/common.kpatch": patch,
				"overlays/a/p.kpatch": patch, "overlays/b/p.yaml": "- target: deployment.web\n  patch: {spec.replicas: 3}\n"},
			want: []string{
				"overlays/a/kmerge.yaml: base | overlays/common.kpatch overlays/a | | |",
				"overlays/b/kmerge.yaml: base | overlays/common.kpatch overlays/b | | |",
			},
		},
		{
			name: "kustomize overlays as they are: their strategic patches are no manifests, and each is an overlay",
			files: map[string]string{"base/kustomization.yaml": "resources: [d.yaml]\n", "base/d.yaml": deploy,
				"overlays/staging/kustomization.yaml": "resources: [../../base]\npatches:\n- path: r.yaml\n", "overlays/staging/r.yaml": deploy + "spec:\n  replicas: 2\n",
				"overlays/prod/kustomization.yaml": "resources: [../../base]\npatchesStrategicMerge: [r.yaml]\n", "overlays/prod/r.yaml": deploy + "spec:\n  replicas: 5\n"},
			want: []string{
				"overlays/prod/kmerge.yaml: base | overlays/prod | | |",
				"overlays/staging/kmerge.yaml: base | overlays/staging | | |",
			},
		},
		{
			name: "independent apps: a project each; a copy of the manifests elsewhere is left out, with a note",
			files: map[string]string{"base/d.yaml": deploy, "overrides/p.kpatch": patch, "copy/d.yaml": deploy,
				"app/manifests/c.yaml": cm, "app/overrides/p.kpatch": "[cm.settings]\ndata.a: b\n"},
			want: []string{
				"kmerge.yaml: base | overrides | | | left out copy: it defines apps/v1 Deployment web, as base does",
				"app/kmerge.yaml: app/manifests | app/overrides | | |",
			},
		},
		{
			name: "in an overlay's folder, its project is what kustomize builds: its resources followed, its own files among them (issue 27: its patches were manifests, its kustomization a patch file)",
			in:   "overlays/staging",
			files: map[string]string{"base/kustomization.yaml": "resources: [d.yaml, s.yaml]\n", "base/d.yaml": deploy, "base/s.yaml": svc,
				"overlays/staging/kustomization.yaml": overlay, "overlays/staging/replicas.yaml": deploy + "spec:\n  replicas: 3\n", "overlays/staging/extra.yaml": cm},
			want: []string{"overlays/staging/kmerge.yaml: base overlays/staging/extra.yaml | overlays/staging | | |"},
		},
		{
			name: "components side by side, without resources of their own: a project each, with the manifests nearest above (as before)",
			files: map[string]string{"base/kustomization.yaml": "resources: [d.yaml]\n", "base/d.yaml": deploy, "kustomization.yaml": "resources: [base]\n",
				"components/a/kustomization.yaml": "kind: Component\npatches: [{path: p.yaml}]\n", "components/a/p.yaml": deploy,
				"components/b/kustomization.yaml": "kind: Component\npatches: [{path: p.yaml}]\n", "components/b/p.yaml": deploy},
			want: []string{"components/a/kmerge.yaml: base | components/a | | |", "components/b/kmerge.yaml: base | components/b | | |"},
		},
		{
			name: "an overlay's values file is its project's, for the .kpatch files beside its kustomization",
			in:   "overlays/staging",
			files: map[string]string{"base/kustomization.yaml": "resources: [d.yaml]\n", "base/d.yaml": deploy,
				"overlays/staging/kustomization.yaml": "resources: [../../base]\n", "overlays/staging/r.kpatch": "[deployment.web]\nreplicas: ${values.n}\n",
				"overlays/staging/values.yaml": "n: 2\n", "values.yaml": "n: 1\n"},
			want: []string{"overlays/staging/kmerge.yaml: base | overlays/staging | overlays/staging/values.yaml | |"},
		},
		{
			name: "at the top, an overlay's own resource files are manifests too (issue 27: left out)",
			files: map[string]string{"base/kustomization.yaml": "resources: [d.yaml, s.yaml]\n", "base/d.yaml": deploy, "base/s.yaml": svc,
				"overlays/staging/kustomization.yaml": overlay, "overlays/staging/replicas.yaml": deploy + "spec:\n  replicas: 3\n", "overlays/staging/extra.yaml": cm},
			want: []string{"kmerge.yaml: base overlays/staging/extra.yaml | overlays | | |"},
		},
		{
			name: "an overlay on an overlay with a component: the patches in kustomize's order (the component, the overlay built on, the overlay); a base that holds more than its resources is given by its files; its openapi file is a schema; a remote resource is left out, with a note",
			in:   "overlays/prod",
			files: map[string]string{"base/kustomization.yaml": "openapi: {path: schema.json}\nresources: [d.yaml]\n", "base/d.yaml": deploy, "base/old.yaml": svc,
				"base/schema.json":                  `{"definitions": {}}`,
				"components/mon/kustomization.yaml": "kind: Component\nresources: [sm.yaml]\npatches: [{path: p.yaml}]\n", "components/mon/sm.yaml": cm, "components/mon/p.yaml": deploy,
				"overlays/staging/kustomization.yaml": "resources: [../../base, https://example.com/x.yaml]\ncomponents: [../../components/mon]\npatches: [{path: r.yaml}]\n", "overlays/staging/r.yaml": deploy,
				"overlays/prod/kustomization.yaml": "resources: [../staging]\npatches: [{path: r.yaml}]\n", "overlays/prod/r.yaml": deploy},
			want: []string{"overlays/prod/kmerge.yaml: base/d.yaml components/mon/sm.yaml | components/mon overlays/staging overlays/prod | | base/schema.json | left out https://example.com/x.yaml: kmerge reads no remote resource (fetch it, and name the copy here)"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range c.files {
				write(t, dir, name, text)
			}
			ps, err := DetectAll(filepath.Join(dir, c.in))
			if err != nil {
				t.Fatal(err)
			}
			rel := func(paths []string) string {
				var out []string
				for _, p := range paths {
					r, _ := filepath.Rel(dir, p)
					out = append(out, filepath.ToSlash(r))
				}
				return strings.Join(out, " ")
			}
			var got []string
			for _, p := range ps {
				f, _ := filepath.Rel(dir, p.File)
				line := filepath.ToSlash(f) + ": " + rel(p.Manifests) + " | " + rel(p.Patches) + " | " + rel(p.Values) + " | " + rel(p.Schemas) + " | " + strings.Join(p.notes, "; ")
				got = append(got, strings.Join(strings.Fields(line), " "))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			// what is proposed loads, and a project file among an
			// overlay's patches is no patch
			for _, p := range ps {
				write(t, filepath.Dir(p.File), FileName, string(p.Render()))
			}
			for _, p := range ps {
				if _, err := Load(p.File); err != nil {
					t.Errorf("%s: %v", p.File, err)
				}
			}
		})
	}
}
