package serverside

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/ssa"
)

// files writes name: text files under a new folder and returns it.
func files(t *testing.T, fs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range fs {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const ssaDeploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: web
        image: nginx
`

// liveDeploy is ssaDeploy as stored after argocd applied it in namespace
// prod and an HPA scaled it to 5.
const liveDeploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  uid: u-1
  managedFields:
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1: {"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"web\"}":{".":{},"f:image":{},"f:name":{}}}}}}}
    manager: argocd
    operation: Apply
    time: "2025-01-01T00:00:00Z"
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1: {"f:spec":{"f:replicas":{}}}
    manager: hpa
    operation: Update
    time: "2025-01-02T00:00:00Z"
spec:
  replicas: 5
  template:
    spec:
      containers:
      - name: web
        image: nginx
`

func manifests(dir string, patches ...string) kmerge.ApplyOptions {
	return kmerge.ApplyOptions{Manifests: []string{filepath.Join(dir, "m")}, Patches: patches}
}

// A conflict names the manifest's line that sets the field, or the
// patch's when a patch wrote it; the manifest without a namespace matches
// the live object of its name in prod.
func TestServerSideConflictPositions(t *testing.T) {
	dir := files(t, map[string]string{"m/web.yaml": ssaDeploy, "live/web.yaml": liveDeploy,
		"p.kpatch": "[deployment.web]\nmetadata.labels.team: shop\n", "q.kpatch": "[deployment.web]\nspec.replicas: 3\n"})
	for _, c := range []struct {
		patch     string
		file      string
		line      int
		fromPatch bool
	}{
		{"p.kpatch", filepath.Join(dir, "m/web.yaml"), 6, false}, // replicas: 2 in the manifest, line 6
		{"q.kpatch", filepath.Join(dir, "q.kpatch"), 2, true},    // the patch sets replicas
	} {
		_, err := Apply(context.Background(), manifests(dir, filepath.Join(dir, c.patch)), Options{Manager: "argocd", Live: []string{filepath.Join(dir, "live")}})
		var sce *ConflictError
		if !errors.As(err, &sce) {
			t.Fatalf("%s: %v", c.patch, err)
		}
		o := sce.Objects[0]
		if o.ID != "apps/v1 Deployment web" || len(o.Fields) != 1 {
			t.Fatalf("%s: %+v", c.patch, o)
		}
		f := o.Fields[0]
		if f.Path != ".spec.replicas" || f.Manager != "hpa" || f.Pos.File != c.file || f.Pos.Line != c.line || f.Patch != c.fromPatch {
			t.Errorf("%s: field %+v, want %s:%d (patch %v)", c.patch, f, c.file, c.line, c.fromPatch)
		}
		if want := `apps/v1 Deployment web: Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas`; err.Error() != want {
			t.Errorf("%s: %q", c.patch, err.Error())
		}
	}
}

// With force, the outputs are the stored objects: the live object's
// namespace and uid kept, replicas taken over, the time stamped; an
// object without a live one is created; Diff shows each change against
// the live object; live objects no manifest names are left out.
func TestServerSideForce(t *testing.T) {
	dir := files(t, map[string]string{"m/web.yaml": ssaDeploy + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: new}\ndata: {k: v}\n",
		"live/web.yaml": liveDeploy + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: prod}\n",
		"p.kpatch":      "[deployment.web]\nmetadata.labels.team: shop\n"})
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	res, err := Apply(context.Background(), manifests(dir, filepath.Join(dir, "p.kpatch")), Options{Manager: "argocd", Force: true, Time: when, Live: []string{filepath.Join(dir, "live")}})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Stream())
	for _, want := range []string{"namespace: prod", "uid: u-1", "replicas: 2", "team: shop", `time: "2026-01-01T00:00:00Z"`, "name: new"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "manager: hpa") || strings.Contains(out, "name: other") {
		t.Errorf("output:\n%s", out)
	}
	if len(res.Objects) != 2 || !res.Objects[0].Changed || res.Objects[1].Live != "" {
		t.Fatalf("objects %+v", res.Objects)
	}
	diff := res.Diff()
	for _, want := range []string{"--- a/apps.v1.Deployment.prod.web", "-  replicas: 5", "+  replicas: 2", "--- /dev/null\n+++ b/v1.ConfigMap.new"} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
}

// Errors name the object: a live object at another version, a kind the
// schema does not know, two live objects the manifest could mean.
func TestServerSideErrors(t *testing.T) {
	live := strings.Replace(liveDeploy, "apps/v1\nkind", "apps/v1beta2\nkind", 1)
	dir := files(t, map[string]string{"m/web.yaml": ssaDeploy, "live/web.yaml": live, "p.kpatch": "[deployment.web]\nspec.replicas: 3\n"})
	_, err := Apply(context.Background(), manifests(dir, filepath.Join(dir, "p.kpatch")), Options{Manager: "a", Live: []string{filepath.Join(dir, "live")}})
	var se *Error
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "kubectl get deployment.v1.apps") || se.Pos.Line != 1 {
		t.Errorf("version: %v", err)
	}
	dir = files(t, map[string]string{"m/w.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n", "p.kpatch": "[widget.w]\nspec.size: 1\n"})
	_, err = Apply(context.Background(), manifests(dir, filepath.Join(dir, "p.kpatch")), Options{Manager: "a"})
	var uk *ssa.UnknownKindError
	if !errors.As(err, &uk) || !errors.As(err, &se) {
		t.Errorf("unknown kind: %v", err)
	}
	twice := liveDeploy + "---\n" + strings.Replace(liveDeploy, "namespace: prod", "namespace: dev", 1)
	dir = files(t, map[string]string{"m/web.yaml": ssaDeploy, "live/web.yaml": twice, "p.kpatch": "[deployment.web]\nspec.replicas: 3\n"})
	_, err = Apply(context.Background(), manifests(dir, filepath.Join(dir, "p.kpatch")), Options{Manager: "a", Live: []string{filepath.Join(dir, "live")}})
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "in several") {
		t.Errorf("two namespaces: %v", err)
	}
}

// A Secret's values are masked in the diff, as in a client-side one.
func TestServerSideDiffMasksSecrets(t *testing.T) {
	dir := files(t, map[string]string{"m/s.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {password: hunter2}\n",
		"p.kpatch": "[secret.s]\nstringData.user: admin\n"})
	res, err := Apply(context.Background(), manifests(dir, filepath.Join(dir, "p.kpatch")), Options{Manager: "a", Time: time.Unix(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Diff(); strings.Contains(d, "hunter2") || strings.Contains(d, "admin") || !strings.Contains(d, "***") {
		t.Fatalf("diff:\n%s", d)
	}
	res.ShowSecrets = true
	if d := res.Diff(); !strings.Contains(d, "hunter2") {
		t.Fatalf("diff with ShowSecrets:\n%s", d)
	}
}

// Blame gives each line the managers of its field in the live object,
// and, with a Manager, once applied server-side.
func TestBlameLive(t *testing.T) {
	dir := files(t, map[string]string{"m/web.yaml": ssaDeploy, "live/web.yaml": liveDeploy, "p.kpatch": "[deployment.web]\nspec.template.spec.containers[name=web].image: nginx:2\n"})
	opts := manifests(dir, filepath.Join(dir, "p.kpatch"))
	ss := Options{Live: []string{filepath.Join(dir, "live")}}
	res, err := Blame(context.Background(), opts, ss)
	if err != nil {
		t.Fatal(err)
	}
	owners := func(res *kmerge.BlameResult) map[string]string {
		out := map[string]string{}
		for _, l := range res.Documents[0].Lines {
			out[strings.TrimSpace(l.Text)] = strings.Join(l.Live, ",") + "/" + strings.Join(l.After, ",")
		}
		return out
	}
	got := owners(res)
	if got["replicas: 2"] != "argocd,hpa/" || got["image: nginx:2"] != "argocd/" || got["spec:"] != "/" {
		t.Fatalf("owners %v", got)
	}
	ss.Manager, ss.Force = "argocd", true
	if res, err = Blame(context.Background(), opts, ss); err != nil {
		t.Fatal(err)
	}
	if got := owners(res); got["replicas: 2"] != "argocd,hpa/argocd" || got["image: nginx:2"] != "argocd/argocd" {
		t.Fatalf("owners after %v", got)
	}
	ss.Force = false
	_, err = Blame(context.Background(), opts, ss)
	var sce *ConflictError
	if !errors.As(err, &sce) || sce.Objects[0].Fields[0].Pos.Line != 6 {
		t.Fatalf("conflict: %v", err)
	}
}

// An error in the live object (managedFields the API server would not
// read, a field that does not fit the schema) is placed in the live file,
// where it is to be fixed, not at the manifest; the place is said once.
func TestServerSideLiveErrorsAtLive(t *testing.T) {
	for _, c := range []struct {
		name, live string
		line, col  int
		msg        string
	}{
		// the entry of managedFields (line 8) whose operation is wrong
		{"operation", strings.Replace(liveDeploy, "operation: Apply", "operation: Replace", 1), 8, 5, "metadata.managedFields: operation must be `Apply` or `Update`"},
		// the live object (line 1)
		{"invalid", strings.Replace(liveDeploy, "  uid: u-1\n", "  uid: u-1\n  generation: many\n", 1), 1, 1, "the live object does not fit its schema: .metadata.generation: expected numeric (int or float), got a string"},
	} {
		dir := files(t, map[string]string{"m/web.yaml": ssaDeploy, "live/web.yaml": c.live, "p.kpatch": "[deployment.web]\nspec.template.spec.containers[name=web].image: nginx:2\n"})
		liveFile := filepath.Join(dir, "live", "web.yaml")
		opts := manifests(dir, filepath.Join(dir, "p.kpatch"))
		ss := Options{Manager: "argocd", Live: []string{filepath.Join(dir, "live")}}
		_, err := Apply(context.Background(), opts, ss)
		_, blameErr := Blame(context.Background(), opts, ss)
		for what, err := range map[string]error{"apply": err, "blame": blameErr} {
			var se *Error
			if !errors.As(err, &se) || se.Pos.File != liveFile || se.Pos.Line != c.line || se.Pos.Column != c.col {
				t.Errorf("%s, %s: %#v", c.name, what, err)
				continue
			}
			want := liveFile + ":" + strconv.Itoa(c.line) + ":" + strconv.Itoa(c.col) + ": apps/v1 Deployment prod/web: " + c.msg
			if err.Error() != want {
				t.Errorf("%s, %s:\n got %s\nwant %s", c.name, what, err, want)
			}
		}
	}
}
