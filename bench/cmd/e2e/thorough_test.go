package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/krm"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// TestThoroughSame runs kmerge.Apply on the end-to-end corpora (smaller,
// and laid out in more ways than run.sh lays them out) twice: parsing only
// the documents a patch targets and taking edited documents' texts as
// their edits prove them, as kmerge apply does by default, and parsing
// every document and reading back every edited one's text
// (ApplyOptions.Thorough, KMERGE_THOROUGH=1). The
// outputs, warnings, conflicts, schema violations and errors must be the
// same, byte for byte.
//
// Layouts: one manifest a file (as run.sh), every manifest in one stream,
// files of ten; Helm's layout (a "# Source:" comment after each "---",
// templates that render nothing as empty documents); hand-written style;
// documents the reader cannot skim (anchors, tags, flow style, CRLF),
// List documents. Patches: one per manifest (dense), one in seven
// (sparse), by label selector, matching nothing. Errors: YAML that does
// not parse, a duplicate key, a duplicate object, a document that is not an
// object, in documents no patch targets; every limit. The same for kmerge
// fn (the ResourceList gen writes, with krm.Options.Thorough and without)
// and kmerge patch (a strategic, a merge and a JSON patch on every
// document of the stream, with kmerge.PatchOptions.Thorough and without).
func TestThoroughSame(t *testing.T) {
	if testing.Short() {
		t.Skip("generates corpora")
	}
	base := t.TempDir()
	type scenario struct {
		name, corpus string
		n, patches   int
	}
	for _, sc := range []scenario{
		{"dense", "mixed", 60, 0},
		{"sparse", "mixed", 140, 20},
		{"sparse-hand", "mixed-hand", 140, 20},
		{"deployments", "deployments", 40, 0},
	} {
		dir := filepath.Join(base, sc.name)
		args := []string{"-n", fmt.Sprint(sc.n), "-corpus", sc.corpus}
		if sc.patches > 0 {
			args = append(args, "-patches", fmt.Sprint(sc.patches))
		}
		if err := gen(append(args, dir)); err != nil {
			t.Fatal(err)
		}
		manifests := readManifests(t, filepath.Join(dir, "manifests"))
		layouts := map[string]map[string]string{
			"files":  manifests,
			"stream": {"all.yaml": stream(manifests, "---\n", 0)},
			"tens":   tens(manifests),
			"helm":   {"helm.yaml": stream(manifests, "---\n# Source: chart/templates/%s\n", 3)},
			"odd":    {"odd.yaml": odd(manifests)},
		}
		for lname, files := range layouts {
			t.Run(sc.name+"/"+lname, func(t *testing.T) {
				mdir := writeFiles(t, files)
				for _, patches := range []string{filepath.Join(dir, "patches"), extraPatches(t)} {
					same(t, kmerge.ApplyOptions{Manifests: []string{mdir}, Patches: []string{patches}, ApplyPatchesOptions: kmerge.ApplyPatchesOptions{Validate: validate.Strict}})
				}
			})
		}
		t.Run(sc.name+"/fn", func(t *testing.T) {
			// the ResourceList gen writes (every manifest an item, the
			// patches in its functionConfig), and the same list with an
			// error in its patches
			rl, err := os.ReadFile(filepath.Join(dir, "resourcelist.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			sameFn(t, rl)
			broken := strings.Replace(string(rl), "type: strategic", "type: nonsense", 1)
			if broken == string(rl) {
				t.Fatal("no strategic patch in the ResourceList")
			}
			if err := sameFn(t, []byte(broken)); err == nil {
				t.Error("a patch of an unknown type: no error")
			}
		})
		t.Run(sc.name+"/patch", func(t *testing.T) {
			// kmerge patch: one patch, every document of a stream
			doc := []byte(stream(manifests, "---\n", 0))
			for _, p := range []struct {
				typ   kmerge.PatchType
				patch string
			}{
				{kmerge.Strategic, "metadata:\n  labels:\n    patched: \"yes\"\n  annotations:\n    note: by kmerge patch\n"},
				{kmerge.Merge, "metadata:\n  labels:\n    team: null\n"},
				{kmerge.JSON, `[{"op": "add", "path": "/metadata/labels/added", "value": "x"}]`},
			} {
				outcome := func(thorough bool) string {
					out, err := kmerge.Patch(context.Background(), doc, []byte(p.patch), kmerge.PatchOptions{Type: p.typ, Thorough: thorough})
					if err != nil {
						return "error: " + err.Error()
					}
					return string(out)
				}
				all, short := outcome(true), outcome(false)
				if strings.HasPrefix(all, "error: ") {
					t.Errorf("%s", all)
				}
				if all != short {
					t.Errorf("patch %q: rendering whole and rendering what changed differ:\n%s", p.patch, firstDifference(all, short))
				}
			}
		})
		t.Run(sc.name+"/errors", func(t *testing.T) {
			bads := map[string]string{"duplicate object": manifests[sorted(manifests)[1]]}
			for name, bad := range badDocuments {
				bads[name] = bad
			}
			for name, bad := range bads {
				files := map[string]string{"zz-bad.yaml": bad}
				for k, v := range manifests {
					files[k] = v
				}
				mdir := writeFiles(t, files)
				sdir := writeFiles(t, map[string]string{"all.yaml": stream(manifests, "---\n", 0) + "---\n" + bad})
				for _, m := range []string{mdir, sdir} {
					err := same(t, kmerge.ApplyOptions{Manifests: []string{m}, Patches: []string{filepath.Join(dir, "patches")}})
					switch {
					case err == nil && name != "anchors":
						t.Errorf("%s: no error", name)
					case err != nil && notYAML[name] && !positioned.MatchString(err.Error()):
						// issue 13: a document no patch targets that is not
						// valid YAML fails the run with its position, as a
						// full parse gives it (yaml.v3's syntax errors have
						// a line and no column)
						t.Errorf("%s: the error names no position: %v", name, err)
					}
				}
			}
			for _, lim := range []tree.Limits{{MaxDocuments: 7}, {MaxDepth: 6}, {MaxNodes: 300}, {MaxBytes: 4000}} {
				sdir := writeFiles(t, map[string]string{"all.yaml": stream(manifests, "---\n", 0)})
				if err := same(t, kmerge.ApplyOptions{Manifests: []string{sdir}, Patches: []string{filepath.Join(dir, "patches")}, ApplyPatchesOptions: kmerge.ApplyPatchesOptions{Limits: &lim}}); err == nil {
					t.Errorf("limits %+v: no error", lim)
				}
			}
		})
	}
}

// badDocuments are documents no patch targets that a parse rejects (but
// anchors, which only the reader's outline declines); the test adds a copy
// of a manifest (a duplicate object).
var badDocuments = map[string]string{
	"syntax":         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\ndata:\n  a: [1, 2\n",
	"indentation":    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\n data: x\n",
	"duplicate key":  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\ndata:\n  a: 1\n  b: 2\n  a: 3\n",
	"deep duplicate": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\n  labels:\n    x: 1\n    x: 2\n",
	"not an object":  "apiVersion: v1\nkind: ConfigMap\ndata: {}\n",
	"a scalar":       "just text\n",
	"tab":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: bad\n",
	"anchors":        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: &n anchored\ndata:\n  name: *n\n",
}

// notYAML are the badDocuments that are not valid YAML (or not what a
// Kubernetes manifest may be: a key twice), and positioned the start of
// the message naming where, in the file of errors (zz-bad.yaml) or the
// stream (all.yaml): file:line:col, or file:line for yaml.v3's syntax
// errors.
var (
	notYAML    = map[string]bool{"syntax": true, "indentation": true, "duplicate key": true, "deep duplicate": true, "tab": true}
	positioned = regexp.MustCompile(`(zz-bad|all)\.yaml:[1-9]\d*(:[1-9]\d*)?: `)
)

// same applies opts with and without Thorough, fails the test on any
// difference, and returns the error of the run.
func same(t *testing.T, opts kmerge.ApplyOptions) error {
	t.Helper()
	outcome := func(all bool) (string, error) {
		opts.Thorough = all
		res, err := kmerge.Apply(context.Background(), opts)
		if err != nil {
			return "error: " + err.Error(), err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "patches %d objects %d\n", res.Patches, res.Objects)
		for _, f := range res.Files {
			fmt.Fprintf(&b, "file %s (%s) changed=%v:\n%s\n", f.Path, f.Rel, f.Changed(), f.Output)
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(&b, "warning: %s\n", w)
		}
		for _, c := range res.Conflicts {
			fmt.Fprintf(&b, "conflict: %s\n", c)
		}
		for _, e := range res.Invalid {
			fmt.Fprintf(&b, "invalid: %s\n", e)
		}
		return b.String(), nil
	}
	all, err := outcome(true)
	sparse, _ := outcome(false)
	if all != sparse {
		t.Errorf("parsing everything and parsing what patches target differ:\n%s", firstDifference(all, sparse))
	}
	return err
}

// sameFn runs a ResourceList through kmerge fn's function with and
// without krm.Options.Thorough, fails the test on any difference (the
// ResourceList written, the results, the error), and returns the error.
func sameFn(t *testing.T, rl []byte) error {
	t.Helper()
	outcome := func(thorough bool) (string, error) {
		out, results, err := krm.RunWith(context.Background(), rl, krm.Options{Thorough: thorough})
		return fmt.Sprintf("%s\nresults: %+v\nerror: %v", out, results, err), err
	}
	all, err := outcome(true)
	short, _ := outcome(false)
	if all != short {
		t.Errorf("kmerge fn the long way and the short way differ:\n%s", firstDifference(all, short))
	}
	return err
}

// firstDifference shows where two texts part.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-300)
	return fmt.Sprintf("everything parsed:\n%s\n\ntargets parsed:\n%s", a[from:min(len(a), i+300)], b[from:min(len(b), i+300)])
}

func readManifests(t *testing.T, dir string) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no manifests in %s: %v", dir, err)
	}
	out := map[string]string{}
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = string(data)
	}
	return out
}

func sorted(files map[string]string) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// stream joins the manifests into one stream, each after sep (which may
// name the file with %s); every emptyEvery-th one is followed by an empty
// document of sep alone.
func stream(files map[string]string, sep string, emptyEvery int) string {
	var b strings.Builder
	for i, n := range sorted(files) {
		if strings.Contains(sep, "%s") {
			fmt.Fprintf(&b, sep, n)
		} else {
			b.WriteString(sep)
		}
		b.WriteString(files[n])
		if emptyEvery > 0 && i%emptyEvery == 0 {
			if strings.Contains(sep, "%s") {
				fmt.Fprintf(&b, sep, "empty-"+n)
			} else {
				b.WriteString(sep)
			}
		}
	}
	return b.String()
}

// tens puts the manifests into files of ten documents.
func tens(files map[string]string) map[string]string {
	out := map[string]string{}
	for i, n := range sorted(files) {
		name := fmt.Sprintf("part-%03d.yaml", i/10)
		if out[name] != "" {
			out[name] += "---\n"
		}
		out[name] += files[n]
	}
	return out
}

// odd is one stream of the manifests with documents the reader cannot
// skim, or must cut with care, among them: a List of two ConfigMaps, a
// document with anchors, one with a tag, one in flow style, one ending
// with "...", and a comment between documents.
func odd(files map[string]string) string {
	var b strings.Builder
	b.WriteString("# a stream with odd documents\n")
	for i, n := range sorted(files) {
		b.WriteString("---\n")
		b.WriteString(files[n])
		switch i % 9 {
		case 1:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMapList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: listed-%d-a}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: listed-%d-b\n    labels: {team: payments}\n", i, i)
		case 3:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: anchored-%d\n  labels: &l {team: search}\ndata: *l\n", i)
		case 4:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: !!str tagged-%d\ndata:\n  a: \"1\"\n", i)
		case 5:
			fmt.Fprintf(&b, "--- {apiVersion: v1, kind: ConfigMap, metadata: {name: flow-%d, labels: {team: data}}, data: {a: b}}\n", i)
		case 6:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ended-%d\n...\n# between documents\n", i)
		case 7:
			b.WriteString("# a comment between documents\n")
		}
	}
	return b.String()
}

// extraPatches writes patches that select by label, name objects of the
// odd layout, and match nothing, and returns their folder.
func extraPatches(t *testing.T) string {
	t.Helper()
	return writeFiles(t, map[string]string{
		"labels.yaml": `- target: {kind: Deployment, labelSelector: "team=payments,tier in (backend)"}
  type: strategic
  patch: {metadata: {annotations: {selected: by-label}}}
- target: {kind: ConfigMap, labelSelector: team=payments}
  patch:
    data.added: "yes"
- target: {kind: Service, labelSelector: "!nothing"}
  type: merge
  patch: {metadata: {labels: {merged: "true"}}}
`,
		"names.kpatch": `[configmap.listed-1-b]
data.x = "1"

[configmap.ended-6]
data.y = "2"

[configmap.anchored-3]
data.z = "3"

[configmap.flow-5]
data.w = "4"

[deployment.app-00010]
spec.replicas = 7

[configmap.nothing-here]
data.a = "b"
`,
	})
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for n, text := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestThoroughSameStream: the one-stream scenario (e2e stream: small
// manifests, ten .kpatch files of wildcard targets), long enough to be read
// in parts, written by kmerge apply's default way as by the thorough way.
func TestThoroughSameStream(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a corpus")
	}
	dir := t.TempDir()
	if err := genStream([]string{"-n", "4000", dir}); err != nil {
		t.Fatal(err)
	}
	if err := same(t, kmerge.ApplyOptions{Manifests: []string{filepath.Join(dir, "stream.yaml")}, Patches: []string{filepath.Join(dir, "patches")}, ApplyPatchesOptions: kmerge.ApplyPatchesOptions{Validate: validate.Strict}}); err != nil {
		t.Fatal(err)
	}
}
