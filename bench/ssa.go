package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/kmerge/kmerge/bench/corpus"
	"github.com/kmerge/kmerge/ssa"
	"github.com/kmerge/kmerge/tree"
)

// SSAInputs are server-side apply's benchmark inputs: Deployments as the
// cluster stores them, with the managedFields of three managers (argocd
// applied the corpus's Deployment; an HPA scaled it to 17, an Update of
// replicas; kubectl rollout restart annotated its template, an Update), and
// argocd's next manifest of each (a new image for every container): an
// apply that changes the object and conflicts with nobody. Both sides get
// them decoded, as an API server holds the live object and has decoded
// the request: kmerge as YAML nodes, apimachinery as unstructured
// objects.
type SSAInputs struct {
	Live, Config       []*yaml.Node
	LiveObj, ConfigObj []*unstructured.Unstructured
}

// ssaClock is the time the inputs' entries are stamped with.
var ssaClock = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// PrepareSSA makes n inputs, the live objects by kmerge's engine (the
// conformance module checks that apimachinery's field manager writes the
// same).
func PrepareSSA(n int) (*SSAInputs, error) {
	e := ssa.New(nil)
	ctx := context.Background()
	in := &SSAInputs{}
	for _, c := range corpus.Generate("Deployment", n) {
		doc := tree.Clone(c.Doc)
		r, err := e.Apply(ctx, nil, doc, ssa.Options{Manager: "argocd", Time: ssaClock})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		scaled := tree.Clone(r.Object)
		tree.MapSet(tree.MapGet(scaled, "spec"), "replicas", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "17"})
		if r, err = e.Update(ctx, r.Object, scaled, ssa.Options{Manager: "hpa", Time: ssaClock.Add(time.Hour)}); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		restarted := tree.Clone(r.Object)
		tmd := tree.MapGet(tree.MapGet(tree.MapGet(restarted, "spec"), "template"), "metadata")
		ann := tree.NewMap()
		tree.MapSet(ann, "kubectl.kubernetes.io/restartedAt", tree.NewString("2025-06-01T02:00:00Z"))
		tree.MapSet(tmd, "annotations", ann)
		if r, err = e.Update(ctx, r.Object, restarted, ssa.Options{Manager: "kubectl-rollout", Time: ssaClock.Add(2 * time.Hour)}); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		cfg := tree.Clone(c.Doc)
		tree.MapDelete(tree.MapGet(cfg, "spec"), "replicas") // the HPA's
		for _, ct := range tree.MapGet(tree.MapGet(tree.MapGet(tree.MapGet(cfg, "spec"), "template"), "spec"), "containers").Content {
			img := tree.MapGet(ct, "image")
			img.Value += "-next"
		}
		in.Live = append(in.Live, r.Object)
		in.Config = append(in.Config, cfg)
		lo, err := unstructuredOf(r.Object)
		if err != nil {
			return nil, err
		}
		co, err := unstructuredOf(cfg)
		if err != nil {
			return nil, err
		}
		in.LiveObj, in.ConfigObj = append(in.LiveObj, lo), append(in.ConfigObj, co)
	}
	return in, nil
}

func unstructuredOf(n *yaml.Node) (*unstructured.Unstructured, error) {
	js, err := tree.MarshalJSON(n)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{}
	return u, u.UnmarshalJSON(js)
}

// KmergeSSA applies argocd's manifest to the live object with kmerge's
// engine.
func KmergeSSA(e *ssa.Engine, live, config *yaml.Node) (*yaml.Node, error) {
	r, err := e.Apply(context.Background(), live, config, ssa.Options{Manager: "argocd", Time: ssaClock.Add(3 * time.Hour)})
	if err != nil {
		return nil, err
	}
	return r.Object, nil
}

// NewUpstreamFieldManager is apimachinery's field manager for apps/v1
// Deployments, as an API server builds it (managedfields.
// NewDefaultFieldManager), with client-go's type converter, no conversion
// and no defaulting (as in the conformance module).
func NewUpstreamFieldManager() (*managedfields.FieldManager, error) {
	gvk := k8sschema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	return managedfields.NewDefaultFieldManager(applyconfigurations.NewTypeConverter(scheme.Scheme),
		sameObject{}, noDefaults{}, emptyObjects{}, gvk, gvk.GroupVersion(), "", nil)
}

// UpstreamSSA applies argocd's manifest to the live object with
// apimachinery's field manager. The live object is copied first, as an API
// server copies the object it holds before writing it (the field manager
// writes managedFields into what it returns, which shares the live
// object's maps); the applied object it only reads.
func UpstreamSSA(fm *managedfields.FieldManager, live, config *unstructured.Unstructured) (runtime.Object, error) {
	return fm.Apply(live.DeepCopy(), config, "argocd", false)
}

type sameObject struct{}

func (sameObject) Convert(in, out, context any) error { return fmt.Errorf("not used") }

func (sameObject) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	return in, nil
}

func (sameObject) ConvertFieldLabel(gvk k8sschema.GroupVersionKind, label, value string) (string, string, error) {
	return label, value, nil
}

type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}

type emptyObjects struct{}

func (emptyObjects) New(gvk k8sschema.GroupVersionKind) (runtime.Object, error) {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetGroupVersionKind(gvk)
	return u, nil
}

// sameButTimes compares two objects as JSON, managedFields' times aside.
func sameButTimes(a, b map[string]any) (bool, string, string) {
	strip := func(m map[string]any) string {
		c := runtime.DeepCopyJSON(m)
		u := &unstructured.Unstructured{Object: c}
		mf := u.GetManagedFields()
		for i := range mf {
			mf[i].Time = nil
		}
		u.SetManagedFields(mf)
		js, _ := json.Marshal(c)
		return string(js)
	}
	x, y := strip(a), strip(b)
	return x == y, x, y
}
