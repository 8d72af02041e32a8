package kmerge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/validate"
)

// applyText runs ApplyPatches on manifests and a .kpatch file given as
// text.
func applyText(t *testing.T, file, manifests, patches string, opts ApplyPatchesOptions) *ApplyResult {
	t.Helper()
	set, err := resource.Parse([]byte(manifests), file, resource.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := kpatch.Parse([]byte(patches), "p.kpatch", kpatch.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ApplyPatches(context.Background(), set, ps, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestDiffMasksSecrets: ApplyResult.Diff masks the values of Secrets
// whatever holds them (a YAML document, a JSON file, the items of a
// ResourceList, as kmerge fn reads them) unless ShowSecrets; the outputs
// keep the values. Each expected diff is written from the rule
// (internal/secret): a changed value is '*** (before)' / '*** (after)',
// others '***', quoted as YAML quotes a string starting with *; the JSON
// input is shown as the stream it is, masked, against the YAML the patched
// JSON becomes.
func TestDiffMasksSecrets(t *testing.T) {
	for _, c := range []struct {
		about, file, manifests, patches, want, clear string
	}{
		{
			about: "a JSON Secret", file: "s.json",
			manifests: `{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db"},
 "stringData": {"password": "hunter2", "user": "admin"}}
`,
			patches: "[secret.db]\nstringData.password: n3wpass\n",
			want: `--- a/s.json
+++ b/s.json
@@ -1,2 +1,7 @@
-{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db"},
- "stringData": {"password": "*** (before)", "user": "***"}}
+apiVersion: v1
+kind: Secret
+metadata:
+  name: db
+stringData:
+  password: '*** (after)'
+  user: '***'
`,
			clear: "n3wpass",
		},
		{
			about: "the items of a ResourceList", file: "rl.yaml",
			manifests: `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Secret
  metadata:
    name: db
  data:
    password: aHVudGVyMg==
`,
			patches: "[secret.db]\ndata.password: bjN3cGFzcw==\n",
			want: `--- a/rl.yaml
+++ b/rl.yaml
@@ -6,4 +6,4 @@
   metadata:
     name: db
   data:
-    password: '*** (before)'
+    password: '*** (after)'
`,
			clear: "bjN3cGFzcw==",
		},
	} {
		res := applyText(t, c.file, c.manifests, c.patches, ApplyPatchesOptions{})
		if got := res.Diff(); got != c.want {
			t.Errorf("%s: the diff is\n%s\nwant\n%s", c.about, got, c.want)
		}
		if !strings.Contains(string(res.Files[0].Output), c.clear) {
			t.Errorf("%s: the output lost its value %s:\n%s", c.about, c.clear, res.Files[0].Output)
		}
		res.ShowSecrets = true
		if got := res.Diff(); !strings.Contains(got, c.clear) || strings.Contains(got, "***") {
			t.Errorf("%s: with ShowSecrets, the diff is\n%s\nwant the values in clear", c.about, got)
		}
		res = applyText(t, c.file, c.manifests, c.patches, ApplyPatchesOptions{ShowSecrets: true})
		if got := res.Diff(); !strings.Contains(got, c.clear) {
			t.Errorf("%s: with ApplyPatchesOptions.ShowSecrets, the diff is\n%s\nwant the values in clear", c.about, got)
		}
	}
}

// TestConflictsMaskSecrets: the texts of conflicts mask the values of a
// Secret (change.Change.Mask, set by kpatch) unless ShowSecrets; the
// values themselves stay in the changes, which is what conflicts are
// found on.
func TestConflictsMaskSecrets(t *testing.T) {
	manifests := "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: hunter2}\n"
	patches := "[secret.db]\nstringData.password: one\n\n[secret.db]\nstringData.password: two\n"
	for _, show := range []bool{false, true} {
		res := applyText(t, "s.yaml", manifests, patches, ApplyPatchesOptions{ShowSecrets: show})
		if len(res.Conflicts) != 1 {
			t.Fatalf("ShowSecrets %v: %d conflicts, want 1", show, len(res.Conflicts))
		}
		got := res.Conflicts[0].String()
		want := "v1 Secret db: p.kpatch:2:1 (field patch) sets stringData.password to ***, and p.kpatch:5:1 (field patch) sets stringData.password to ***"
		if show {
			want = "v1 Secret db: p.kpatch:2:1 (field patch) sets stringData.password to one, and p.kpatch:5:1 (field patch) sets stringData.password to two"
		}
		if got != want {
			t.Errorf("ShowSecrets %v: the conflict is\n%s\nwant\n%s", show, got, want)
		}
		if v := res.Conflicts[0].Sides[1].Change.Value; v == nil || v.Value != "two" {
			t.Errorf("ShowSecrets %v: the change lost its value: %v", show, v)
		}
	}
}

// TestPatchMasksSecrets: kmerge.Patch's validation errors and a JSON
// patch's failed test mask a Secret's values unless ShowSecrets, and say
// so (validate.Violation.Secret, jsonpatch.Error.Masked), so that a
// caller quoting the line they point at masks it too; a test of an object
// that an earlier operation made a Secret too.
func TestPatchMasksSecrets(t *testing.T) {
	doc := []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: db}\ndata: {password: aHVudGVyMg==}\n")
	for _, c := range []struct {
		about, patch string
		typ          PatchType
		masked       string // the message, masked
		clear        string // what it holds with ShowSecrets
	}{
		{"not base64", "data: {password: 'n3w pass'}", Strategic,
			`patch:1:8: data.password: the string "***" is not base64 data`, `the string "n3w pass"`},
		{"a failed test", `[{"op": "test", "path": "/data/password", "value": "b2xk"}]`, JSON,
			`test failed: /data/password is "***", not "***"`, `is "aHVudGVyMg==", not "b2xk"`},
		// a ConfigMap that the patch's first operation makes a Secret:
		// its values are the Secret's (the masking was decided on the
		// document before the patch, and the test's message showed them)
		{"a failed test of a Secret the patch made", `[{"op": "replace", "path": "/kind", "value": "Secret"}, {"op": "add", "path": "/stringData", "value": {"password": "hunter2"}}, {"op": "test", "path": "/stringData/password", "value": "n3wpass"}]`, JSON,
			`test failed: /stringData/password is "***", not "***"`, `is "hunter2", not "n3wpass"`},
	} {
		doc := doc
		if strings.Contains(c.patch, `"value": "Secret"`) {
			doc = []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\n")
		}
		_, err := Patch(context.Background(), doc, []byte(c.patch), PatchOptions{Type: c.typ, Validate: validate.Strict})
		if err == nil || !strings.Contains(err.Error(), c.masked) || strings.Contains(err.Error(), c.clear) {
			t.Errorf("%s: the error is %v, want it to hold %q", c.about, err, c.masked)
		}
		var m interface{ Masked() bool }
		if !errors.As(err, &m) || !m.Masked() {
			t.Errorf("%s: the error does not say it masks a value", c.about)
		}
		_, err = Patch(context.Background(), doc, []byte(c.patch), PatchOptions{Type: c.typ, Validate: validate.Strict, ShowSecrets: true})
		if err == nil || !strings.Contains(err.Error(), c.clear) {
			t.Errorf("%s: with ShowSecrets, the error is %v, want it to hold %q", c.about, err, c.clear)
		}
	}
}

// TestDiffConflictMasksSecrets: kmerge diff's three-way conflict report
// masks a Secret's values unless DiffOptions.ShowSecrets; the patch
// itself (with Overwrite) keeps them, since it is made to be applied.
func TestDiffConflictMasksSecrets(t *testing.T) {
	original := []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: one}\n")
	modified := []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: two}\n")
	current := []byte("apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {password: live}\n")
	_, err := Diff(context.Background(), original, modified, DiffOptions{Current: current})
	want := "v1 Secret db: the patch would undo changes made to the live object since it was last applied:\n  stringData.password\n    patch:   \"***\"\n    changed: \"***\""
	if err == nil || err.Error() != want {
		t.Errorf("the conflict is\n%v\nwant\n%s", err, want)
	}
	_, err = Diff(context.Background(), original, modified, DiffOptions{Current: current, ShowSecrets: true})
	if err == nil || !strings.Contains(err.Error(), `patch:   "two"`) || !strings.Contains(err.Error(), `changed: "live"`) {
		t.Errorf("with ShowSecrets, the conflict is\n%v\nwant the values in clear", err)
	}
	patch, err := Diff(context.Background(), original, modified, DiffOptions{Current: current, Overwrite: true})
	if err != nil || !strings.Contains(string(patch), "password: two") {
		t.Errorf("the patch is %q (%v), want it to set password: two", patch, err)
	}
}

// TestPatchErrorsOnSecretsMasked: an error applying a patch to a Secret
// says that it masks (Masked), so that the line of the patch it points at,
// which sets the Secret's values, is quoted masked (kmerge's report,
// errpos.QuoteMasked); with ShowSecrets it does not. Patch (a
// DocumentError) and ApplyPatches (a kpatch.Error) alike; a ConfigMap's
// error does not mask. Before, only validation errors and a JSON patch's
// failed test masked: the quoted line showed the value.
func TestPatchErrorsOnSecretsMasked(t *testing.T) {
	secretDoc := "apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData: {user: admin}\n"
	configDoc := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\n"
	patch := `[{"op": "add", "path": "/data/password", "value": "aHVudGVyMg=="}]`
	masks := func(err error) bool {
		var m interface{ Masked() bool }
		return errors.As(err, &m) && m.Masked()
	}
	for _, c := range []struct {
		doc  string
		show bool
		want bool
	}{
		{secretDoc, false, true},
		{secretDoc, true, false},
		{configDoc, false, false},
	} {
		_, err := Patch(context.Background(), []byte(c.doc), []byte(patch), PatchOptions{Type: JSON, ShowSecrets: c.show})
		if err == nil || masks(err) != c.want {
			t.Errorf("Patch on %.30q (show %v): %v, masked %v; want an error, masked %v", c.doc, c.show, err, masks(err), c.want)
		}
		set, err := resource.Parse([]byte(c.doc), "in.yaml", resource.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		kind := map[bool]string{true: "secret", false: "configmap"}[strings.Contains(c.doc, "Secret")]
		ps, err := kpatch.Parse([]byte("- target: "+kind+".db\n  type: json\n  patch: "+patch+"\n"), "p.yaml", kpatch.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = ApplyPatches(context.Background(), set, ps, ApplyPatchesOptions{ShowSecrets: c.show})
		if err == nil || masks(err) != c.want {
			t.Errorf("ApplyPatches on %.30q (show %v): %v, masked %v; want an error, masked %v", c.doc, c.show, err, masks(err), c.want)
		}
	}
}

// TestDiffAfterDeletion: Diff masks the objects of the input and the
// output that are one object as a pair, and once a patch deleted an
// object, the objects after it are in the same place only when the
// deleted one is counted out (attack of 2026-11-28, issue 25: the
// Deployment after a deleted Secret was paired with that Secret, and
// shown as changed, "- image: HUNTER2JXQ" against "+ image: '***'":
// a false change, masked on one side only). The diff of each case holds
// only the lines the deletion and the patches change: no line of an
// object they left as it was is marked, and no value shows.
func TestDiffAfterDeletion(t *testing.T) {
	secret := func(name, v string) string {
		return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: " + name + "\nstringData:\n  p: " + v + "\n"
	}
	item := func(name, v string) string {
		return "- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: " + name + "\n  stringData:\n    p: " + v + "\n"
	}
	deploy := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: HUNTER2JXQ\n"
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n"
	for _, c := range []struct {
		about, manifests, patches string
		removed                   int      // the lines marked -: the deleted object's, and the changed value's
		added                     []string // the lines marked +
	}{
		{"a Secret before a Deployment", secret("s", "HUNTER2JXQ") + "---\n" + deploy, "[secret.s]\n!delete\n", 6, nil},
		{"a Secret item before another", "apiVersion: v1\nkind: List\nitems:\n" + item("a", "AAAAAAAAAA1") + item("b", "BBBBBBBBBB2"), "[secret.a]\n!delete\n", 6, nil},
		{"a ConfigMap before a Secret", cm + "---\n" + secret("s", "HUNTER2JXQ"), "[configmap.c]\n!delete\n\n[secret.s]\nstringData.p: NEWVALUE99\n", 7, []string{"+  p: '*** (after)'"}},
		{"two Secrets, the first deleted", secret("s", "HUNTER2JXQ") + "---\n" + secret("t", "OTHERVAL77"), "[secret.s]\n!delete\n", 6, nil},
	} {
		res := applyText(t, "m.yaml", c.manifests, c.patches, ApplyPatchesOptions{})
		diff := res.Diff()
		removed, added := 0, []string(nil)
		for _, l := range strings.Split(diff, "\n") {
			switch {
			case strings.HasPrefix(l, "--- a/") || strings.HasPrefix(l, "+++ b/"):
			case strings.HasPrefix(l, "-"):
				removed++
			case strings.HasPrefix(l, "+"):
				added = append(added, l)
			}
		}
		if removed != c.removed || strings.Join(added, "\n") != strings.Join(c.added, "\n") {
			t.Errorf("%s: the diff removes %d lines and adds %q, want %d and %q:\n%s", c.about, removed, added, c.removed, c.added, diff)
		}
		for _, v := range []string{"HUNTER2JXQ", "AAAAAAAAAA1", "BBBBBBBBBB2", "NEWVALUE99", "OTHERVAL77"} {
			if strings.Contains(diff, v) {
				t.Errorf("%s: the diff shows %s:\n%s", c.about, v, diff)
			}
		}
	}
	for _, c := range []struct {
		deleted []int
		n, want int
	}{{nil, 5, 5}, {[]int{0, 1, 2}, 0, 3}, {[]int{1, 3}, 1, 2}, {[]int{1, 3}, 2, 4}, {[]int{1, 3}, 0, 0}, {[]int{5}, 4, 4}, {[]int{5}, 5, 6}} {
		if got := kept(c.deleted, c.n); got != c.want {
			t.Errorf("kept(%v, %d) = %d, want %d", c.deleted, c.n, got, c.want)
		}
	}
}
