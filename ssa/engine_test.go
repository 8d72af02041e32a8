package ssa

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// The expectations below come from the Kubernetes server-side apply
// documentation (kubernetes.io/docs/reference/using-api/server-side-apply)
// and the history, checked with apimachinery's field manager; the
// conformance module runs the same histories against it.

func node(t testing.TB, s string) *yaml.Node {
	t.Helper()
	st, err := tree.Read([]byte(s), tree.Options{File: "test.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	return tree.Root(st.Docs[0])
}

func text(t testing.TB, n *yaml.Node) string {
	t.Helper()
	var b bytes.Buffer
	if err := tree.WriteYAML(&b, tree.Style{Indent: 2, CompactSequences: true}, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func get(t testing.TB, n *yaml.Node, path ...string) *yaml.Node {
	t.Helper()
	for _, p := range path {
		n = tree.MapGet(n, p)
	}
	return n
}

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func deployment(replicas string) string {
	s := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n"
	if replicas != "" {
		s += "  replicas: " + replicas + "\n"
	}
	return s + "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n"
}

// The history: argocd applies replicas 3, the HPA updates them to
// 7; argocd's apply of 5 conflicts with the API server's words; one that
// leaves replicas out does not, and replicas stays 7; with force, argocd
// takes replicas over.
func TestApplyConflictWithUpdater(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	r, err := e.Apply(ctx, nil, node(t, deployment("3")), Options{Manager: "argocd", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	hpa := node(t, text(t, r.Object))
	tree.MapSet(get(t, hpa, "spec"), "replicas", node(t, "7"))
	r, err = e.Update(ctx, r.Object, hpa, Options{Manager: "hpa", Time: t0.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	live := r.Object
	_, err = e.Apply(ctx, live, node(t, deployment("5")), Options{Manager: "argocd", Time: t0.Add(2 * time.Minute)})
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("no conflict: %v", err)
	}
	const want = `Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas`
	if ce.Error() != want {
		t.Fatalf("%s\nwant %s", ce.Error(), want)
	}
	if c := ce.Conflicts[0]; c.Manager != "hpa" || c.Operation != OpUpdate || c.APIVersion != "apps/v1" || c.Node == nil || c.Node.Value != "replicas" || c.Node.Line != 6 {
		t.Fatalf("conflict %+v", c)
	}
	r, err = e.Apply(ctx, live, node(t, deployment("")), Options{Manager: "argocd", Time: t0.Add(3 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if v := get(t, r.Object, "spec", "replicas").Value; v != "7" {
		t.Fatalf("replicas %s, want 7 (the HPA's)", v)
	}
	r, err = e.Apply(ctx, live, node(t, deployment("5")), Options{Manager: "argocd", Force: true, Time: t0.Add(4 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	if v := get(t, r.Object, "spec", "replicas").Value; v != "5" {
		t.Fatalf("replicas %s, want 5", v)
	}
	for _, en := range r.Managed {
		if en.Manager == "hpa" {
			t.Fatalf("the HPA's entry stays, owning nothing: %v", en.Fields())
		}
	}
}

// A Service whose ports base applies 53/TCP and overlay 53/UDP keeps both:
// server-side apply keys ports by port and protocol.
func TestApplyPortsByPortAndProtocol(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	svc := func(proto string) *yaml.Node {
		return node(t, "apiVersion: v1\nkind: Service\nmetadata: {name: dns}\nspec:\n  ports:\n  - {port: 53, protocol: "+proto+"}\n")
	}
	r, err := e.Apply(ctx, nil, svc("TCP"), Options{Manager: "base", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	r, err = e.Apply(ctx, r.Object, svc("UDP"), Options{Manager: "overlay", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	if ports := get(t, r.Object, "spec", "ports"); len(ports.Content) != 2 {
		t.Fatalf("ports:\n%s", text(t, ports))
	}
}

// An applier's fields are replaced on each apply: a field it no longer
// applies is removed, unless another manager owns it too.
func TestApplyRemovesWhatIsNoLongerApplied(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	cm := func(data string) *yaml.Node {
		return node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {"+data+"}\n")
	}
	r, err := e.Apply(ctx, nil, cm("a: '1', b: '2', c: '3'"), Options{Manager: "x", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	r, err = e.Apply(ctx, r.Object, cm("b: '2'"), Options{Manager: "y", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	r, err = e.Apply(ctx, r.Object, cm("a: '1'"), Options{Manager: "x", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	data := get(t, r.Object, "data")
	if tree.MapGet(data, "a") == nil || tree.MapGet(data, "b") == nil || tree.MapGet(data, "c") != nil {
		t.Fatalf("data:\n%s", text(t, data))
	}
}

// managedFields are written as the API server writes them: Apply entries
// before Update ones, then by time; FieldsV1; times to the second from
// Options.Time; the identity and system metadata never a manager's.
func TestManagedFieldsWritten(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	r, err := e.Apply(ctx, nil, node(t, deployment("1")), Options{Manager: "b", Time: t0.Add(1500 * time.Millisecond)})
	if err != nil {
		t.Fatal(err)
	}
	r, err = e.Update(ctx, r.Object, node(t, strings.Replace(deployment("1"), "image: nginx", "image: nginx:2", 1)), Options{Manager: "a", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	r, err = e.Apply(ctx, r.Object, node(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {x: y}\n"), Options{Manager: "c", Time: t0.Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, en := range r.Managed {
		got = append(got, string(en.Operation)+" "+en.Manager+" "+en.Time.Format(time.RFC3339))
	}
	want := []string{"Apply c 2024-12-31T23:00:00Z", "Apply b 2025-01-01T00:00:01Z", "Update a 2025-01-01T00:00:00Z"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("entries %v, want %v", got, want)
	}
	mf := text(t, get(t, r.Object, "metadata", "managedFields"))
	for _, never := range []string{"f:name", "f:apiVersion", "f:kind"} {
		if strings.Contains(mf, never+":") && !strings.Contains(mf, "k:{") {
			t.Errorf("managedFields hold %s:\n%s", never, mf)
		}
	}
	if !strings.Contains(mf, "fieldsType: FieldsV1") || !strings.Contains(mf, `k:{"name":"web"}`) {
		t.Fatalf("managedFields:\n%s", mf)
	}
	// the same inputs give the same bytes
	again, err := e.Apply(ctx, r.Object, node(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {x: z}\n"), Options{Manager: "c", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	twice, _ := e.Apply(ctx, r.Object, node(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {x: z}\n"), Options{Manager: "c", Time: t0})
	if text(t, again.Object) != text(t, twice.Object) {
		t.Fatal("the output differs between two runs")
	}
}

// An apply that changes nothing leaves the object as it was, times
// included.
func TestApplyNoChange(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	r, err := e.Apply(ctx, nil, node(t, deployment("2")), Options{Manager: "a", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.Apply(ctx, r.Object, node(t, deployment("2")), Options{Manager: "a", Time: t0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed || text(t, again.Object) != text(t, r.Object) {
		t.Fatalf("changed:\n%s", text(t, again.Object))
	}
}

// The API server's strategies: status is not written through the object
// when the kind has a status subresource; uid, resourceVersion,
// creationTimestamp stay; generation goes up when the spec changed.
func TestApplyKeepsServerFields(t *testing.T) {
	e := New(nil)
	live := node(t, deployment("2")+"status: {replicas: 2}\n")
	md := get(t, live, "metadata")
	tree.MapSet(md, "uid", tree.NewString("u-1"))
	tree.MapSet(md, "generation", node(t, "4"))
	tree.MapSet(md, "resourceVersion", tree.NewString("99"))
	cfg := node(t, deployment("3")+"status: {replicas: 9}\n")
	tree.MapSet(get(t, cfg, "metadata"), "uid", tree.NewString("other"))
	tree.MapSet(get(t, cfg, "metadata"), "generation", node(t, "1"))
	r, err := e.Apply(context.Background(), live, cfg, Options{Manager: "a", Time: t0, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if v := get(t, r.Object, "status", "replicas").Value; v != "2" {
		t.Errorf("status.replicas %s, want 2", v)
	}
	for k, want := range map[string]string{"uid": "u-1", "resourceVersion": "99", "generation": "5"} {
		if v := get(t, r.Object, "metadata", k); v == nil || v.Value != want {
			t.Errorf("metadata.%s %v, want %s", k, v, want)
		}
	}
	if mf := text(t, get(t, r.Object, "metadata", "managedFields")); strings.Contains(mf, "f:status") {
		t.Errorf("status is owned:\n%s", mf)
	}
}

// A live object without managedFields: its fields are
// before-first-apply's, and the apply conflicts with them.
func TestApplyBeforeFirstApply(t *testing.T) {
	e := New(nil)
	_, err := e.Apply(context.Background(), node(t, deployment("2")), node(t, deployment("3")), Options{Manager: "a", Time: t0})
	var ce *ConflictError
	if !errors.As(err, &ce) || !strings.Contains(ce.Error(), `conflict with "before-first-apply" using apps/v1: .spec.replicas`) {
		t.Fatalf("%v", err)
	}
}

// kubectl's server-side apply takes over the fields its last client-side
// apply set, and keeps the annotation up to date.
func TestApplyKubectlTakesOverClientSideApply(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	csa := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"c\"}}\ndata: {k: v}\n"
	r, err := e.Update(ctx, nil, node(t, csa), Options{Manager: "kubectl-client-side-apply", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	applied := node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: w}\n")
	if _, err := e.Apply(ctx, r.Object, applied, Options{Manager: "argocd", Time: t0}); err == nil {
		t.Fatal("another manager took client-side apply's fields over")
	}
	out, err := e.Apply(ctx, r.Object, applied, Options{Manager: "kubectl", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	ann := get(t, out.Object, "metadata", "annotations", lastApplied).Value
	if want := `{"apiVersion":"v1","data":{"k":"w"},"kind":"ConfigMap","metadata":{"name":"c"}}` + "\n"; ann != want {
		t.Fatalf("annotation %q, want %q", ann, want)
	}
}

// No takeover when the live object holds a keyed list with two entries of
// one key (an update stores it; here two env entries named A): kubectl's
// apply conflicts with the client-side apply's replicas, as the API server's
// does (conformance: TestSSAScripted's client-side-apply-duplicates); the
// same object without the duplicate is taken over.
func TestApplyKubectlNoTakeoverWithDuplicates(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	for _, second := range []string{"A", "B"} {
		csa := strings.Replace(deployment("2"), "metadata:\n", "metadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":2}}\n", 1)
		csa = strings.Replace(csa, "image: nginx\n", "image: nginx\n        env: [{name: A, value: '1'}, {name: "+second+", value: '2'}]\n", 1)
		r, err := e.Update(ctx, nil, node(t, csa), Options{Manager: "kubectl-client-side-apply", Time: t0})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(get(t, r.Object, "spec", "template", "spec", "containers").Content[0].Content); n < 6 {
			t.Fatalf("the container without its env: %s", text(t, r.Object))
		}
		_, err = e.Apply(ctx, r.Object, node(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 3}\n"), Options{Manager: "kubectl", Time: t0})
		var ce *ConflictError
		switch {
		case second == "A" && (!errors.As(err, &ce) || !strings.Contains(ce.Error(), `conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas`)):
			t.Errorf("duplicate env entries: %v, want the conflict on replicas", err)
		case second == "B" && err != nil:
			t.Errorf("no duplicates: %v, want replicas taken over", err)
		}
	}
}

// More than ten Update entries: the oldest are merged into
// ancient-changes.
func TestUpdateCapsManagers(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	obj := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n"
	var live *yaml.Node
	for i := 0; i < 12; i++ {
		obj += "  k" + string(rune('a'+i)) + ": v\n"
		r, err := e.Update(ctx, live, node(t, obj), Options{Manager: "m" + string(rune('a'+i)), Time: t0.Add(time.Duration(i) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		live = r.Object
		if i == 11 {
			if len(r.Managed) != 10 || r.Managed[0].Manager != "ancient-changes" {
				var names []string
				for _, en := range r.Managed {
					names = append(names, en.Manager)
				}
				t.Fatalf("entries %v", names)
			}
		}
	}
}

// Errors carry data: the request refused, the kind unknown, the object
// invalid (with its path), managedFields unreadable (with their line).
func TestErrors(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	var re *RequestError
	if _, err := e.Apply(ctx, nil, node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, managedFields: []}\n"), Options{Manager: "a"}); !errors.As(err, &re) || re.Msg != "metadata.managedFields must be nil" {
		t.Errorf("managedFields in the applied object: %v", err)
	}
	if _, err := e.Apply(ctx, nil, node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), Options{}); !errors.As(err, &re) {
		t.Errorf("no manager: %v", err)
	}
	var uk *UnknownKindError
	if _, err := e.Apply(ctx, nil, node(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"), Options{Manager: "a"}); !errors.As(err, &uk) || uk.Kind != "Widget" {
		t.Errorf("unknown kind: %v", err)
	}
	var ie *InvalidError
	if _, err := e.Apply(ctx, nil, node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: 1}\n"), Options{Manager: "a"}); !errors.As(err, &ie) || ie.Live || len(ie.Errors) != 1 || ie.Errors[0].Path != ".data.k" {
		t.Errorf("invalid: %#v", err)
	}
	var me *ManagedFieldsError
	live := node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  managedFields:\n  - manager: a\n    operation: Replace\n    apiVersion: v1\n    fieldsType: FieldsV1\n")
	if _, err := e.Apply(ctx, live, node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), Options{Manager: "a", LiveFile: "live.yaml"}); !errors.As(err, &me) || me.Pos.Line != 6 || me.Pos.File != "live.yaml" {
		t.Errorf("managedFields: %v", err)
	}
	ctxDone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := e.Apply(ctxDone, nil, node(t, deployment("1")), Options{Manager: "a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// A custom resource: its CRD's list and map types decide the merge.
func TestApplyCustomResource(t *testing.T) {
	crd := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ws.example.com}\nspec:\n  group: example.com\n  names: {kind: W, plural: ws}\n  versions:\n  - name: v1\n    served: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              parts:\n                type: array\n                x-kubernetes-list-type: map\n                x-kubernetes-list-map-keys: [name]\n                items: {type: object, properties: {name: {type: string}, n: {type: integer}}}\n              sel:\n                type: object\n                x-kubernetes-map-type: atomic\n                additionalProperties: {type: string}\n"
	s, err := schema.Load([]byte(crd), "crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := New(schema.Builtin().Extend(s))
	ctx := context.Background()
	w := func(body string) *yaml.Node {
		return node(t, "apiVersion: example.com/v1\nkind: W\nmetadata: {name: w}\nspec:\n"+body)
	}
	r, err := e.Apply(ctx, nil, w("  parts: [{name: a, n: 1}]\n  sel: {x: '1'}\n"), Options{Manager: "m1", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	r, err = e.Apply(ctx, r.Object, w("  parts: [{name: b, n: 2}]\n"), Options{Manager: "m2", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(get(t, r.Object, "spec", "parts").Content); n != 2 {
		t.Fatalf("parts merged by name: %d items", n)
	}
	if _, err := e.Apply(ctx, r.Object, w("  sel: {y: '2'}\n"), Options{Manager: "m2", Time: t0}); err == nil {
		t.Fatal("an atomic map's other keys conflict with its owner")
	}
}

// An engine is used by several goroutines at once (go test -race).
func TestConcurrent(t *testing.T) {
	e := New(nil)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := e.Apply(context.Background(), nil, node(t, deployment("1")), Options{Manager: "a", Time: t0})
			if err == nil {
				_, err = e.Apply(context.Background(), r.Object, node(t, deployment("2")), Options{Manager: "a", Time: t0})
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// Owners names the managers of each field and item of a manifest by the
// live object's managedFields: keyed items by their keys, every item of an
// atomic list and every field of an atomic struct by the list's or the
// struct's owners.
func TestOwners(t *testing.T) {
	e := New(nil)
	ctx := context.Background()
	r, err := e.Apply(ctx, nil, node(t, deployment("2")), Options{Manager: "argocd", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	upd := node(t, text(t, r.Object))
	tree.MapSet(get(t, upd, "spec"), "replicas", node(t, "7"))
	r, err = e.Update(ctx, r.Object, upd, Options{Manager: "hpa", Time: t0})
	if err != nil {
		t.Fatal(err)
	}
	entries, err := ManagedFields(r.Object, "")
	if err != nil {
		t.Fatal(err)
	}
	manifest := node(t, deployment("3"))
	owners, err := e.Owners(ctx, manifest, entries)
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[int]string{}
	for n, o := range owners {
		byLine[n.Line] = strings.Join(o, ",")
	}
	// deployment(): 6 replicas, 7 selector (atomic: its app too, on the
	// same line), 9 the template's labels, 12 the container web (the list
	// on line 11 is nobody's: only its items are), 13 its image
	want := map[int]string{6: "hpa", 7: "argocd", 9: "argocd", 12: "argocd", 13: "argocd"}
	for line, w := range want {
		if byLine[line] != w {
			t.Errorf("line %d: %q, want %q (all: %v)", line, byLine[line], w, byLine)
		}
	}
	for _, nobody := range []int{5, 11} {
		if byLine[nobody] != "" {
			t.Errorf("line %d is owned: %q", nobody, byLine[nobody])
		}
	}
}

// FieldsV1 keys written by kmerge's writer are the engine's own.
func TestElementKey(t *testing.T) {
	str := func(s string) value.Value { return value.NewValueInterface(s) }
	name := "a.b/c"
	i := 3
	cases := []smdfieldpath.PathElement{
		{FieldName: &name},
		{Index: &i},
		{Key: &value.FieldList{{Name: "containerPort", Value: value.NewValueInterface(int64(80))}, {Name: "protocol", Value: str("TCP")}}},
		{Key: &value.FieldList{{Name: "name", Value: str(`a"b<c>&\u2028é`)}}},
		{Key: &value.FieldList{{Name: "x", Value: value.NewValueInterface(1.5)}}},
		{Value: &[]value.Value{str("finalizer.io/x")}[0]},
		{Value: &[]value.Value{value.NewValueInterface(true)}[0]},
	}
	for _, pe := range cases {
		want, err := smdfieldpath.SerializePathElement(pe)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := elementKey(pe); err != nil || got != want {
			t.Errorf("%v: %q, want %q", pe, got, want)
		}
	}
}

// TestInvalidShowsNoValue: the engine's typing names a value that does not
// fit in Go's syntax ("expected string, got
// &value.valueUnstructured{Value:[]interface {}{\"...\"}}"); a live Secret's
// value must not show in a message, and Go's syntax says nothing to a
// user. The message says what kind of value it found instead, as kmerge's
// validation does.
func TestInvalidShowsNoValue(t *testing.T) {
	e := New(schema.Builtin())
	ctx := context.Background()
	manifest := node(t, "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: Opaque\n")
	for _, c := range []struct{ data, want string }{
		{"data: {token: [SUPERSECRETVALUE99]}", ".data.token: expected string, got a list"},
		{"data: {token: {SUPERSECRETVALUE99: 1}}", ".data.token: expected string, got an object"},
		{"data: {token: 123456789012}", ".data.token: expected string, got a number"},
		{"data: {token: true}", ".data.token: expected string, got a boolean"},
		// the engine writes these values without their type (&{...}): a
		// string "[x]" reads as a list [x] would, so no kind is named
		{"data: SUPERSECRETVALUE99", ".data: expected map"},
		{"data: [SUPERSECRETVALUE99]", ".data: expected map"},
		{"type: [SUPERSECRETVALUE99]", ".type: expected string, got a list"},
	} {
		live := node(t, "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"+c.data+"\n")
		_, err := e.Apply(ctx, live, manifest, Options{Manager: "a"})
		var ie *InvalidError
		if !errors.As(err, &ie) || !ie.Live {
			t.Errorf("%s: %v", c.data, err)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "SUPERSECRETVALUE99") || strings.Contains(msg, "123456789012") || strings.Contains(msg, "interface") {
			t.Errorf("%s: the message shows the value: %s", c.data, msg)
		}
		if !strings.HasSuffix(msg, c.want) {
			t.Errorf("%s: %s, want it to end in %q", c.data, msg, c.want)
		}
	}
}

// TestManagedFieldsErrorText: the position, then what is wrong (a
// tree.Position writes its own ": ").
func TestManagedFieldsErrorText(t *testing.T) {
	e := New(schema.Builtin())
	live := node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  managedFields:\n  - manager: a\n    operation: Replace\n    apiVersion: v1\n    fieldsType: FieldsV1\n")
	_, err := e.Apply(context.Background(), live, node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), Options{Manager: "a", LiveFile: "live.yaml"})
	if want := "live.yaml:6:5: metadata.managedFields: operation must be `Apply` or `Update`"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if got := (&ManagedFieldsError{Msg: "not a list"}).Error(); got != "metadata.managedFields: not a list" {
		t.Errorf("without a position: %s", got)
	}
}

// TestTimeOutsideRFC3339: managedFields' times are RFC 3339, years 0000 to
// 9999 (Go's time writes a later year, 3170843-11-07T09:46:39Z, that no
// reader takes back, an API server's included): such a time is refused
// before anything is written, by Apply and Update alike; the last second
// of year 9999 is written.
func TestTimeOutsideRFC3339(t *testing.T) {
	e := New(schema.Builtin())
	ctx := context.Background()
	cm := node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n")
	for _, when := range []time.Time{time.Unix(99999999999999, 0), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)} {
		var re *RequestError
		if _, err := e.Apply(ctx, nil, cm, Options{Manager: "a", Time: when}); !errors.As(err, &re) || !strings.Contains(err.Error(), "RFC 3339") {
			t.Errorf("apply at %v: %v", when, err)
		}
		if _, err := e.Update(ctx, nil, cm, Options{Manager: "a", Time: when}); !errors.As(err, &re) {
			t.Errorf("update at %v: %v", when, err)
		}
		if err := CheckTime(when); err == nil {
			t.Errorf("CheckTime(%v): nil", when)
		}
	}
	last := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	res, err := e.Apply(ctx, nil, cm, Options{Manager: "a", Time: last})
	if err != nil || len(res.Managed) != 1 || !res.Managed[0].Time.Equal(last) {
		t.Fatalf("year 9999: %v", err)
	}
}
