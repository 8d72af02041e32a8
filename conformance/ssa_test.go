package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	yaml3 "go.yaml.in/yaml/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/yaml"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/ssa"
	"github.com/kmerge/kmerge/tree"
)

// ssaStep is one write in a history: an apply (force: with
// --force-conflicts) or an update by a manager, of an object written as
// YAML; or, with live set, the live object replaced by one as exported.
type ssaStep struct {
	op      string // apply, force, update
	manager string
	obj     string
	live    string
}

// ssaRun runs histories on both sides: kmerge's ssa.Engine and the
// API server of SSAServer, each on its own state.
type ssaRun struct {
	engine *ssa.Engine
	tcs    map[string]managedfields.TypeConverter // by apiVersion/kind's group
	schema *schema.Schema
}

func newSSARun(t testing.TB) *ssaRun {
	crd, err := os.ReadFile("testdata/ssa/gadget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crdTC, err := CRDTypeConverter(crd)
	if err != nil {
		t.Fatal(err)
	}
	s, err := schema.Load(crd, "gadget-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	full := schema.Builtin().Extend(s)
	return &ssaRun{engine: ssa.New(full), schema: full,
		tcs: map[string]managedfields.TypeConverter{"": BuiltinTypeConverter(), "example.com": crdTC}}
}

// toMap reads YAML as an API server decodes JSON (integers int64).
func toMap(t testing.TB, text string) map[string]any {
	js, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(js); err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return u.Object
}

func mapToNode(t testing.TB, m map[string]any) *tree.Stream {
	js, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	st, err := tree.Read(js, tree.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func nodeToMap(t testing.TB, n *yaml3.Node) map[string]any {
	js, err := tree.MarshalJSON(n)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(js); err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	return u.Object
}

func showObj(m map[string]any) string {
	if m == nil {
		return "<none>"
	}
	b, _ := yaml.Marshal(m)
	return string(b)
}

// history runs steps on both sides from no object, and returns the first
// difference ("" when none): in the stored object (managedFields
// included, times too: both sides stamp the same ones), in whether a step
// fails, in the text of a conflict.
func (r *ssaRun) history(t testing.TB, steps []ssaStep) string {
	clock := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	var ours, theirs map[string]any
	var server *SSAServer
	var log []string
	for i, st := range steps {
		clock = clock.Add(time.Minute)
		now := clock
		if st.live != "" {
			ours, theirs = toMap(t, st.live), toMap(t, st.live)
			log = append(log, fmt.Sprintf("step %d: live object\n%s", i, st.live))
			continue
		}
		var obj map[string]any
		if st.op == "edit" {
			// the live object read back, managedFields and all, with an
			// edit, as a controller writes it
			if theirs == nil {
				continue
			}
			obj = runtime.DeepCopyJSON(theirs)
			edit(obj, st.obj)
			st.op = "update"
			b, _ := yaml.Marshal(obj)
			st.obj = string(b)
		} else {
			obj = toMap(t, st.obj)
		}
		if server == nil {
			apiVersion, _ := obj["apiVersion"].(string)
			kind, _ := obj["kind"].(string)
			group, _, _ := strings.Cut(apiVersion, "/")
			if !strings.Contains(apiVersion, "/") {
				group = ""
			}
			var err error
			tc := r.tcs[group]
			if tc == nil {
				tc = r.tcs[""]
			}
			server, err = NewSSAServer(tc, apiVersion, kind, r.schema.StatusSubresource(apiVersion, kind))
			if err != nil {
				t.Fatal(err)
			}
		}
		server.Stamp = func() time.Time { return now }
		log = append(log, fmt.Sprintf("step %d: %s by %s\n%s", i, st.op, st.manager, st.obj))
		opts := ssa.Options{Manager: st.manager, Force: st.op == "force", Time: now}
		var liveNode, objNode *tree.Stream
		if ours != nil {
			liveNode = mapToNode(t, ours)
		}
		objNode = mapToNode(t, obj)
		var res *ssa.Result
		var err error
		var theirRes map[string]any
		var theirErr error
		live := func() *tree.Stream { return liveNode }
		if st.op == "update" {
			res, err = r.engine.Update(context.Background(), rootOf(live()), tree.Root(objNode.Docs[0]), opts)
			theirRes, theirErr = server.Update(theirs, obj, st.manager)
		} else {
			res, err = r.engine.Apply(context.Background(), rootOf(live()), tree.Root(objNode.Docs[0]), opts)
			theirRes, theirErr = server.Apply(theirs, obj, st.manager, st.op == "force")
		}
		history := strings.Join(log, "\n")
		switch {
		case (err == nil) != (theirErr == nil):
			return fmt.Sprintf("%s\nkmerge: %v\napimachinery: %v\nlive (apimachinery's):\n%s", history, err, theirErr, showObj(theirs))
		case err != nil:
			var ce *ssa.ConflictError
			var se *apierrors.StatusError
			if errors.As(err, &ce) != (errors.As(theirErr, &se) && apierrors.IsConflict(theirErr)) {
				return fmt.Sprintf("%s\nkmerge: %v\napimachinery: %v", history, err, theirErr)
			}
			if ce != nil && ce.Error() != theirErr.Error() {
				return fmt.Sprintf("%s\nconflict message:\nkmerge:       %s\napimachinery: %s\nlive:\n%s", history, ce.Error(), theirErr.Error(), showObj(theirs))
			}
			log = append(log, fmt.Sprintf("  -> %v", err))
			continue
		}
		got := nodeToMap(t, res.Object)
		if !reflect.DeepEqual(got, theirRes) {
			return fmt.Sprintf("%s\nkmerge stored:\n%s\napimachinery stored:\n%s\nlive (apimachinery's):\n%s", history, showObj(got), showObj(theirRes), showObj(theirs))
		}
		ours, theirs = got, theirRes
	}
	return ""
}

func rootOf(st *tree.Stream) *yaml3.Node {
	if st == nil {
		return nil
	}
	return tree.Root(st.Docs[0])
}

func steps(spec ...string) []ssaStep {
	var out []ssaStep
	for _, s := range spec {
		head, body, _ := strings.Cut(s, "\n")
		f := strings.Fields(head)
		if f[0] == "live" {
			out = append(out, ssaStep{live: body})
			continue
		}
		out = append(out, ssaStep{op: f[0], manager: f[1], obj: body})
	}
	return out
}

const deployHead = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"

// TestSSAScripted runs histories that exercise each rule, on both sides.
func TestSSAScripted(t *testing.T) {
	r := newSSARun(t)
	tmpl := func(extra string) string {
		return "  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx\n" + extra
	}
	cases := map[string][]ssaStep{
		// the history: an HPA's update conflicts with the next apply
		// of replicas, not with one that leaves replicas out
		"hpa": steps(
			"apply argocd\n"+deployHead+"spec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n"+tmpl(""),
			"update hpa\n"+deployHead+"spec:\n  replicas: 7\n  selector: {matchLabels: {app: web}}\n"+tmpl(""),
			"apply argocd\n"+deployHead+"spec:\n  replicas: 5\n  selector: {matchLabels: {app: web}}\n"+tmpl(""),
			"apply argocd\n"+deployHead+"spec:\n  selector: {matchLabels: {app: web}}\n"+tmpl(""),
			"force argocd\n"+deployHead+"spec:\n  replicas: 5\n  selector: {matchLabels: {app: web}}\n"+tmpl(""),
		),
		// ports are keyed by port and protocol: both stay
		"service-ports": steps(
			"apply base\napiVersion: v1\nkind: Service\nmetadata: {name: dns}\nspec:\n  ports:\n  - {port: 53, protocol: TCP}\n",
			"apply overlay\napiVersion: v1\nkind: Service\nmetadata: {name: dns}\nspec:\n  ports:\n  - {port: 53, protocol: UDP}\n",
			"apply base\napiVersion: v1\nkind: Service\nmetadata: {name: dns}\nspec:\n  ports:\n  - {port: 53, protocol: TCP, name: tcp}\n  selector: {app: dns}\n",
			"apply overlay\napiVersion: v1\nkind: Service\nmetadata: {name: dns}\nspec:\n  selector: {app: other}\n",
		),
		// a field no longer applied goes, unless another manager owns it
		"drop-field": steps(
			"apply a\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {x: '1', y: '2'}\ndata: {k: v, l: w}\n",
			"apply b\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {y: '2'}\n",
			"apply a\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata: {k: v}\n",
			"apply b\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
		),
		// containers (a list keyed by name), args (atomic), env (keyed),
		// ports (keyed by two fields, protocol defaulted), nodeSelector (an
		// atomic map), selector (an atomic struct), tolerations (atomic),
		// finalizers (a set)
		"lists": steps(
			"apply a\n"+deployHead+"  finalizers: [x, y]\nspec:\n  selector: {matchLabels: {app: web}}\n"+tmpl("        args: [a, b]\n        env: [{name: A, value: '1'}]\n        ports: [{containerPort: 80}]\n      nodeSelector: {disk: ssd}\n      tolerations: [{key: k, operator: Exists}]\n"),
			"apply b\n"+deployHead+"  finalizers: [z]\nspec:\n  template:\n    spec:\n      containers:\n      - name: side\n        image: busybox\n      - name: web\n        env: [{name: B, value: '2'}]\n        ports: [{containerPort: 80, protocol: UDP}]\n",
			"apply b\n"+deployHead+"spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        args: [c]\n      nodeSelector: {disk: hdd}\n",
			"force b\n"+deployHead+"spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        args: [c]\n      nodeSelector: {zone: a}\n",
			"apply a\n"+deployHead+"spec:\n  selector: {matchLabels: {app: web}}\n"+tmpl("        ports: [{containerPort: 80, protocol: TCP}]\n"),
		),
		// a custom resource: every list and map type of its schema
		"crd": steps(
			"apply a\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec:\n  size: 1\n  port: 80\n  parts: [{name: p, color: red}, {name: p, kind: fancy}]\n  tags: [x, y]\n  steps: [s1, s2]\n  order: [1, 2]\n  labels: {a: '1'}\n  pinned: {a: '1'}\n  target: {host: h}\n  extra: {known: k, unknown: {deep: [1, 2]}}\n",
			"apply b\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec:\n  port: http\n  parts: [{name: q}]\n  tags: [z]\n  labels: {b: '2'}\n  extra: {other: 1}\n",
			"apply b\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec:\n  parts: [{name: p, color: blue}]\n  steps: [s3]\n  pinned: {b: '2'}\n  target: {path: /}\n",
			"force b\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec:\n  parts: [{name: p, kind: plain, color: blue}]\n  steps: [s3]\n  pinned: {b: '2'}\n  target: {path: /}\n  ratio: 0.5\nstatus: {phase: ignored}\n",
			"apply a\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec:\n  size: 2\n",
		),
		// an object with no managedFields: its fields are
		// before-first-apply's at the first apply
		"before-first-apply": steps(
			"live\n"+deployHead+"  uid: '1234'\n  resourceVersion: '9'\n  generation: 4\n  creationTimestamp: '2019-01-01T00:00:00Z'\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n"+tmpl("")+"status: {replicas: 2}\n",
			"apply ci\n"+deployHead+"spec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n"+tmpl(""),
			"force ci\n"+deployHead+"spec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n"+tmpl(""),
			"update ctl\n"+deployHead+"  uid: '1234'\nspec:\n  replicas: 4\n  selector: {matchLabels: {app: web}}\n"+tmpl("")+"status: {replicas: 9}\n",
		),
		// kubectl's server-side apply takes over what its client-side
		// apply set, and keeps the annotation
		"client-side-apply": steps(
			"update kubectl-client-side-apply\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"c\"}}\ndata: {k: v, extra: e}\n",
			"apply kubectl\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v2}\n",
			"apply kubectl\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v3, extra: e2}\n",
			"force kubectl\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {a: <&>}\ndata: {k: v3, extra: e2}\n",
		),
		// no such takeover when the live object holds a keyed list with
		// two entries of one key (an update may store it): the conflict
		// stands, with and without the duplicates in the fields concerned
		// (FuzzSSA's find 5e49ac67cfbf7b2a: a custom resource's parts,
		// {name: p} and {name: p, kind: plain}, kind defaulted to plain)
		"client-side-apply-duplicates": steps(
			"update kubectl-client-side-apply\n"+deployHead+"  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":2}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n"+tmpl("        env: [{name: A, value: '1'}, {name: A, value: '2'}]\n"),
			"apply kubectl\n"+deployHead+"spec:\n  replicas: 3\n",
		),
		"client-side-apply-defaulted-key": steps(
			"update kubectl-client-side-apply\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"apiVersion\":\"example.com/v1\",\"kind\":\"Gadget\",\"metadata\":{\"name\":\"g\"},\"spec\":{\"port\":80}}\nspec:\n  parts: [{name: p}, {name: p, kind: plain}]\n  port: 80\n",
			"force kubectl\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {port: 80}\n",
			"apply kubectl\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {port: http}\n",
		),
		// the same without the duplicates: taken over
		"client-side-apply-no-duplicates": steps(
			"update kubectl-client-side-apply\n"+deployHead+"  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":2}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n"+tmpl("        env: [{name: A, value: '1'}, {name: B, value: '2'}]\n"),
			"apply kubectl\n"+deployHead+"spec:\n  replicas: 3\n",
		),
		// the annotation read as JSON only: YAML, or an object of another
		// kind, gives no takeover; a key twice in it, its last value does
		"client-side-apply-yaml-annotation": steps(
			"update kubectl-client-side-apply\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{apiVersion: example.com/v1, kind: Gadget, spec: {port: 80}}'\nspec: {port: 80}\n",
			"apply kubectl\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {port: http}\n",
		),
		"client-side-apply-other-kind": steps(
			"update kubectl-client-side-apply\n"+deployHead+"  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"apiVersion\":\"apps/v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"replicas\":2}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n"+tmpl(""),
			"apply kubectl\n"+deployHead+"spec:\n  replicas: 3\n",
		),
		"client-side-apply-key-twice": steps(
			"update kubectl-client-side-apply\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"apiVersion\":\"example.com/v1\",\"kind\":\"Gadget\",\"spec\":{\"port\":81},\"spec\":{\"port\":80}}\nspec: {port: 80}\n",
			"apply kubectl\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {port: http}\n",
		),
		// an annotation nested deeper than tree.Read's default limit, as
		// deep as JSON decoders take, still gives the takeover
		"client-side-apply-deep-annotation": steps(
			"update kubectl-client-side-apply\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{\"apiVersion\":\"example.com/v1\",\"kind\":\"Gadget\",\"spec\":{\"port\":80,\"extra\":{\"x\":"+strings.Repeat("[", 9990)+strings.Repeat("]", 9990)+"}}}'\nspec: {port: 80}\n",
			"apply kubectl\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {port: http}\n",
		),
		// another manager of the name kubectl gets no such pass
		"client-side-apply-other": steps(
			"update kubectl-client-side-apply\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"apiVersion\":\"v1\",\"data\":{\"k\":\"v\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"c\"}}\ndata: {k: v}\n",
			"apply argocd\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v2}\n",
		),
		// no change: the times stay
		"no-op": steps(
			"apply a\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n",
			"apply b\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {l: w}\n",
			"apply a\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n",
			"apply c\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n",
			"update d\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v, l: w}\n",
		),
		// managedFields sent with an update: an empty list resets them
		"reset": steps(
			"apply a\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n",
			"update b\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, managedFields: []}\ndata: {k: v}\n",
			"apply a\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v2}\n",
		),
		// errors on both sides: a field the schema does not declare, a
		// key twice, managedFields in an applied manifest
		"invalid": steps(
			"apply a\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\nnope: 1\n",
			"apply a\n"+deployHead+"spec:\n  template:\n    spec:\n      containers: [{name: a}, {name: a}]\n",
			"apply a\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, managedFields: []}\n",
			"apply a\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: 1}\n",
		),
	}
	// more than ten update managers: the oldest merge into ancient-changes
	var many []ssaStep
	many = append(many, steps("apply a\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n")...)
	for i := 0; i < 13; i++ {
		many = append(many, steps(fmt.Sprintf("update u%02d\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v, f%d: x}\n", i, i))...)
	}
	cases["ancient-changes"] = many
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			if d := r.history(t, h); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// TestSSARandom compares the two sides on random histories: applies,
// forced applies and updates by a few managers of a Deployment, a
// Service, a ConfigMap and a custom resource, with small pools of values
// so that managers meet on fields. KMERGE_SSA_CASES sets how many
// (default 300), KMERGE_SSA_SEED the first seed.
func TestSSARandom(t *testing.T) {
	r := newSSARun(t)
	n := 300
	if s := os.Getenv("KMERGE_SSA_CASES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	base := uint64(1)
	if s := os.Getenv("KMERGE_SSA_SEED"); s != "" {
		base, _ = strconv.ParseUint(s, 10, 64)
	}
	failed := 0
	for i := 0; i < n; i++ {
		seed := base + uint64(i)
		if d := r.history(t, randomHistory(seed)); d != "" {
			t.Errorf("seed %d:\n%s", seed, d)
			if failed++; failed >= 3 {
				t.FailNow()
			}
		}
	}
}

// FuzzSSA explores random histories: go test -fuzz FuzzSSA.
func FuzzSSA(f *testing.F) {
	r := newSSARun(f)
	for i := uint64(0); i < 8; i++ {
		f.Add(i * 7919)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		if d := r.history(t, randomHistory(seed)); d != "" {
			t.Fatal(d)
		}
	})
}

// randomHistory makes a history of 2 to 8 writes on one object.
func randomHistory(seed uint64) []ssaStep {
	rnd := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	gen := []func(*rand.Rand) map[string]any{genDeployment, genService, genConfigMap, genGadget}[rnd.IntN(4)]
	managers := []string{"a", "b", "c", "kubectl"}
	var out []ssaStep
	n := 2 + rnd.IntN(7)
	for i := 0; i < n; i++ {
		obj := gen(rnd)
		op := "apply"
		switch x := rnd.IntN(10); {
		case x < 2:
			op = "update"
		case x < 3:
			op = "force"
		}
		if i == 0 && rnd.IntN(4) == 0 {
			// a client-side apply first: kubectl's later applies take
			// its fields over
			js, _ := json.Marshal(obj)
			md := obj["metadata"].(map[string]any)
			md["annotations"] = map[string]any{"kubectl.kubernetes.io/last-applied-configuration": string(js) + "\n"}
			op = "update"
			b, _ := yaml.Marshal(obj)
			out = append(out, ssaStep{op: op, manager: "kubectl-client-side-apply", obj: string(b)})
			continue
		}
		if op == "update" && i > 0 && coin(rnd) {
			out = append(out, ssaStep{op: "edit", manager: pickOne(rnd, "hpa", "ctl"), obj: pickOne(rnd, edits...)})
			continue
		}
		b, _ := yaml.Marshal(obj)
		out = append(out, ssaStep{op: op, manager: managers[rnd.IntN(len(managers))], obj: string(b)})
	}
	return out
}

// edits are what a controller changes in an object it read.
var edits = []string{"label", "unlabel", "replicas", "drop-spec", "null-labels", "reset-managed", "drop-managed"}

// edit makes one of the edits to obj.
func edit(obj map[string]any, which string) {
	md, _ := obj["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		obj["metadata"] = md
	}
	spec, _ := obj["spec"].(map[string]any)
	switch which {
	case "label":
		labels, _ := md["labels"].(map[string]any)
		if labels == nil {
			labels = map[string]any{}
			md["labels"] = labels
		}
		labels["app"] = "edited"
	case "unlabel":
		if labels, _ := md["labels"].(map[string]any); labels != nil {
			delete(labels, "app")
		}
	case "replicas":
		if spec == nil {
			spec = map[string]any{}
			obj["spec"] = spec
		}
		spec["replicas"] = int64(7)
	case "drop-spec":
		keys := make([]string, 0, len(spec))
		for k := range spec {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) > 0 {
			delete(spec, keys[0])
		}
	case "null-labels":
		md["labels"] = nil
	case "reset-managed":
		md["managedFields"] = []any{}
	case "drop-managed":
		delete(md, "managedFields")
	}
}

func pickOne[T any](rnd *rand.Rand, xs ...T) T { return xs[rnd.IntN(len(xs))] }

func coin(rnd *rand.Rand) bool { return rnd.IntN(2) == 0 }

// stringMap is a map of some of keys, values from vals.
func someStrings(rnd *rand.Rand, keys, vals []string) map[string]any {
	m := map[string]any{}
	for _, k := range keys {
		if coin(rnd) {
			m[k] = pickOne(rnd, vals...)
		}
	}
	return m
}

func genMeta(rnd *rand.Rand, name string) map[string]any {
	md := map[string]any{"name": name}
	if coin(rnd) {
		md["labels"] = someStrings(rnd, []string{"app", "tier", "team"}, []string{"web", "x", "y"})
	}
	if rnd.IntN(4) == 0 {
		md["annotations"] = someStrings(rnd, []string{"note", "owner"}, []string{"1", "2"})
	}
	if rnd.IntN(5) == 0 {
		var f []any
		for _, x := range []string{"a.io/x", "b.io/y"} {
			if coin(rnd) {
				f = append(f, x)
			}
		}
		md["finalizers"] = f
	}
	return md
}

func genDeployment(rnd *rand.Rand) map[string]any {
	spec := map[string]any{}
	if coin(rnd) {
		spec["replicas"] = int64(1 + rnd.IntN(3))
	}
	if coin(rnd) {
		spec["selector"] = map[string]any{"matchLabels": someStrings(rnd, []string{"app", "tier"}, []string{"web", "x"})}
	}
	var containers []any
	for _, name := range []string{"web", "side"} {
		if !coin(rnd) {
			continue
		}
		c := map[string]any{"name": name}
		if coin(rnd) {
			c["image"] = pickOne(rnd, "nginx", "nginx:2", "busybox")
		}
		if rnd.IntN(3) == 0 {
			c["args"] = []any{pickOne(rnd, "-a", "-b"), pickOne(rnd, "1", "2")}
		}
		if rnd.IntN(3) == 0 {
			var env []any
			for _, n := range []string{"A", "B"} {
				if coin(rnd) {
					env = append(env, map[string]any{"name": n, "value": pickOne(rnd, "1", "2")})
				}
			}
			c["env"] = env
		}
		if rnd.IntN(3) == 0 {
			p := map[string]any{"containerPort": pickOne(rnd, int64(80), int64(8080))}
			if coin(rnd) {
				p["protocol"] = pickOne(rnd, "TCP", "UDP")
			}
			if coin(rnd) {
				p["name"] = pickOne(rnd, "http", "alt")
			}
			c["ports"] = []any{p}
		}
		containers = append(containers, c)
	}
	podSpec := map[string]any{}
	if len(containers) > 0 {
		podSpec["containers"] = containers
	}
	if rnd.IntN(4) == 0 {
		podSpec["nodeSelector"] = someStrings(rnd, []string{"disk", "zone"}, []string{"ssd", "a"})
	}
	if rnd.IntN(5) == 0 {
		podSpec["tolerations"] = []any{map[string]any{"key": pickOne(rnd, "k1", "k2"), "operator": "Exists"}}
	}
	tmpl := map[string]any{}
	if coin(rnd) {
		tmpl["metadata"] = map[string]any{"labels": someStrings(rnd, []string{"app", "tier"}, []string{"web", "x"})}
	}
	if len(podSpec) > 0 {
		tmpl["spec"] = podSpec
	}
	if len(tmpl) > 0 {
		spec["template"] = tmpl
	}
	obj := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": genMeta(rnd, "web")}
	if len(spec) > 0 {
		obj["spec"] = spec
	}
	if rnd.IntN(8) == 0 {
		obj["status"] = map[string]any{"replicas": int64(rnd.IntN(3))}
	}
	return obj
}

func genService(rnd *rand.Rand) map[string]any {
	spec := map[string]any{}
	var ports []any
	for _, port := range []int64{53, 80} {
		for _, proto := range []string{"TCP", "UDP"} {
			if rnd.IntN(3) != 0 {
				continue
			}
			p := map[string]any{"port": port}
			if proto != "TCP" || coin(rnd) {
				p["protocol"] = proto
			}
			if coin(rnd) {
				p["targetPort"] = pickOne[any](rnd, int64(8053), "dns")
			}
			ports = append(ports, p)
		}
	}
	if len(ports) > 0 {
		spec["ports"] = ports
	}
	if coin(rnd) {
		spec["selector"] = someStrings(rnd, []string{"app", "tier"}, []string{"dns", "x"})
	}
	if rnd.IntN(4) == 0 {
		spec["type"] = pickOne(rnd, "ClusterIP", "NodePort")
	}
	obj := map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": genMeta(rnd, "dns")}
	if len(spec) > 0 {
		obj["spec"] = spec
	}
	return obj
}

func genConfigMap(rnd *rand.Rand) map[string]any {
	obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": genMeta(rnd, "settings")}
	if d := someStrings(rnd, []string{"a", "b", "c"}, []string{"1", "2", "3"}); len(d) > 0 || coin(rnd) {
		obj["data"] = d
	}
	return obj
}

func genGadget(rnd *rand.Rand) map[string]any {
	spec := map[string]any{}
	if coin(rnd) {
		spec["size"] = int64(rnd.IntN(3))
	}
	if rnd.IntN(4) == 0 {
		spec["ratio"] = pickOne(rnd, 0.5, 1.5)
	}
	if rnd.IntN(3) == 0 {
		spec["port"] = pickOne[any](rnd, int64(80), "http")
	}
	if coin(rnd) {
		var parts []any
		for _, n := range []string{"p", "q"} {
			for _, k := range []string{"", "plain", "fancy"} {
				if rnd.IntN(4) != 0 {
					continue
				}
				p := map[string]any{"name": n}
				if k != "" {
					p["kind"] = k
				}
				if coin(rnd) {
					p["color"] = pickOne(rnd, "red", "blue")
				}
				parts = append(parts, p)
			}
		}
		spec["parts"] = parts
	}
	if rnd.IntN(3) == 0 {
		var tags []any
		for _, x := range []string{"x", "y", "z"} {
			if coin(rnd) {
				tags = append(tags, x)
			}
		}
		spec["tags"] = tags
	}
	if rnd.IntN(3) == 0 {
		spec["steps"] = []any{pickOne(rnd, "s1", "s2"), "s3"}
	}
	if rnd.IntN(4) == 0 {
		spec["order"] = []any{int64(rnd.IntN(3))}
	}
	if rnd.IntN(3) == 0 {
		spec["labels"] = someStrings(rnd, []string{"a", "b"}, []string{"1", "2"})
	}
	if rnd.IntN(3) == 0 {
		spec["pinned"] = someStrings(rnd, []string{"a", "b"}, []string{"1", "2"})
	}
	if rnd.IntN(3) == 0 {
		spec["target"] = someStrings(rnd, []string{"host", "path"}, []string{"h", "/"})
	}
	if rnd.IntN(3) == 0 {
		spec["extra"] = map[string]any{pickOne(rnd, "known", "free"): pickOne[any](rnd, "v", int64(1), map[string]any{"deep": "x"})}
	}
	obj := map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": genMeta(rnd, "g")}
	if len(spec) > 0 {
		obj["spec"] = spec
	}
	if rnd.IntN(6) == 0 {
		obj["status"] = map[string]any{"phase": pickOne(rnd, "a", "b")}
	}
	return obj
}
