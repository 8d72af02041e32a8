package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/validation/spec"
	smdfieldpath "sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/yaml"
)

// SSAServer is an API server's writes of one kind, for server-side apply's
// differential tests: k8s.io/apimachinery's field manager
// (managedfields.NewDefaultFieldManager, the one API servers build, with
// status as the reset field of a kind with a status subresource), with
// no conversion between versions (every version's object is the same
// value, typed by that version's schema) and no defaulting, and around it
// what the API server's handlers and strategies do with the result that
// kmerge's ssa package does too, written here from the same documented
// rules (so they are checked against each other, not against upstream):
// status kept as it was, system metadata kept (generation bumped when
// anything but metadata and status changed), and a write that changes
// nothing but managedFields times keeps the old times.
//
// The field manager stamps entries with the current time; Stamp, when
// set, replaces every time later than the test began with its result, so
// that both sides carry the same times (and order their entries alike).
type SSAServer struct {
	fm     *managedfields.FieldManager
	gvk    k8sschema.GroupVersionKind
	status bool
	Stamp  func() time.Time
	began  time.Time
}

// NewSSAServer returns the API server of one kind, its objects typed by tc.
func NewSSAServer(tc managedfields.TypeConverter, apiVersion, kind string, status bool) (*SSAServer, error) {
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	gvk := gv.WithKind(kind)
	var reset map[smdfieldpath.APIVersion]smdfieldpath.Filter
	if status {
		reset = map[smdfieldpath.APIVersion]smdfieldpath.Filter{smdfieldpath.APIVersion(apiVersion): smdfieldpath.NewExcludeSetFilter(
			smdfieldpath.NewSet(smdfieldpath.MakePathOrDie("status")))}
	}
	fm, err := managedfields.NewDefaultFieldManager(tc, sameObject{}, noDefaults{}, emptyObjects{}, gvk, gv, "", reset)
	if err != nil {
		return nil, err
	}
	return &SSAServer{fm: fm, gvk: gvk, status: status, began: time.Now().Add(-time.Second)}, nil
}

// Apply applies config to live (nil: creates it) as manager.
func (s *SSAServer) Apply(live, config map[string]any, manager string, force bool) (map[string]any, error) {
	liveObj := s.liveObject(live)
	out, err := s.fm.Apply(liveObj, &unstructured.Unstructured{Object: runtime.DeepCopyJSON(config)}, manager, force)
	if err != nil {
		return nil, err
	}
	return s.store(live, out.(*unstructured.Unstructured).Object), nil
}

// Update writes obj over live (nil: creates it) as manager.
func (s *SSAServer) Update(live, obj map[string]any, manager string) (map[string]any, error) {
	liveObj := s.liveObject(live)
	out, err := s.fm.Update(liveObj, &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}, manager)
	if err != nil {
		return nil, err
	}
	return s.store(live, out.(*unstructured.Unstructured).Object), nil
}

func (s *SSAServer) liveObject(live map[string]any) *unstructured.Unstructured {
	if live == nil {
		u := &unstructured.Unstructured{Object: map[string]any{}}
		u.SetGroupVersionKind(s.gvk)
		return u
	}
	return &unstructured.Unstructured{Object: runtime.DeepCopyJSON(live)}
}

// systemMeta are the metadata fields an API server keeps as they were.
var systemMeta = []string{"creationTimestamp", "deletionGracePeriodSeconds", "deletionTimestamp", "generation", "resourceVersion", "selfLink", "uid"}

// store is what the API server's handler and strategy make of the field
// manager's result.
func (s *SSAServer) store(live, out map[string]any) map[string]any {
	out = runtime.DeepCopyJSON(out)
	u := &unstructured.Unstructured{Object: out}
	if s.Stamp != nil {
		mf := u.GetManagedFields()
		for i := range mf {
			if mf[i].Time != nil && mf[i].Time.After(s.began) {
				mf[i].Time = &metav1.Time{Time: s.Stamp()}
			}
		}
		sortManaged(mf)
		u.SetManagedFields(mf)
	}
	if s.status {
		if st, ok := live["status"]; ok {
			out["status"] = runtime.DeepCopyJSONValue(st)
		} else {
			delete(out, "status")
		}
	}
	var liveMeta map[string]any
	if live != nil {
		liveMeta, _ = live["metadata"].(map[string]any)
	}
	md, _ := out["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		out["metadata"] = md
	}
	for _, k := range systemMeta {
		if v, ok := liveMeta[k]; ok {
			md[k] = runtime.DeepCopyJSONValue(v)
		} else {
			delete(md, k)
		}
	}
	if g, ok := liveMeta["generation"].(int64); ok && !equalOutside(live, out, s.status) {
		md["generation"] = g + 1
	}
	if live != nil {
		lu := &unstructured.Unstructured{Object: live}
		oldMF, newMF := lu.GetManagedFields(), u.GetManagedFields()
		if len(oldMF) == len(newMF) && equalButTimes(oldMF, newMF) && equalOutside(live, out, false) {
			for i := range newMF {
				newMF[i].Time = oldMF[i].Time
			}
			u.SetManagedFields(newMF)
		}
	}
	return out
}

// equalOutside reports whether two objects are equal but for metadata
// (and status, with status).
func equalOutside(a, b map[string]any, status bool) bool {
	strip := func(m map[string]any) map[string]any {
		c := map[string]any{}
		for k, v := range m {
			if k != "metadata" && !(status && k == "status") {
				c[k] = v
			}
		}
		return c
	}
	if status || a == nil {
		return jsonSame(strip(a), strip(b))
	}
	ca, cb := runtime.DeepCopyJSON(a), runtime.DeepCopyJSON(b)
	for _, c := range []map[string]any{ca, cb} {
		if md, ok := c["metadata"].(map[string]any); ok {
			delete(md, "managedFields")
		}
	}
	return jsonSame(ca, cb)
}

func equalButTimes(a, b []metav1.ManagedFieldsEntry) bool {
	for i := range a {
		x, y := a[i], b[i]
		x.Time, y.Time = nil, nil
		if !jsonSame(x, y) {
			return false
		}
	}
	return true
}

func jsonSame(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// sortManaged orders entries as the API server does (Apply first, then
// by time, manager, apiVersion, subresource), after times were replaced.
func sortManaged(mf []metav1.ManagedFieldsEntry) {
	secs := func(e metav1.ManagedFieldsEntry) int64 {
		if e.Time == nil {
			return 0
		}
		return e.Time.Unix()
	}
	sort.SliceStable(mf, func(i, j int) bool {
		p, q := mf[i], mf[j]
		switch {
		case p.Operation != q.Operation:
			return p.Operation < q.Operation
		case secs(p) != secs(q):
			return secs(p) < secs(q)
		case p.Manager != q.Manager:
			return p.Manager < q.Manager
		case p.APIVersion != q.APIVersion:
			return p.APIVersion < q.APIVersion
		}
		return p.Subresource < q.Subresource
	})
}

// sameObject converts nothing: an object of another version is the same
// value with that apiVersion.
type sameObject struct{}

func (sameObject) Convert(in, out, context any) error {
	return fmt.Errorf("sameObject: Convert is not used")
}

func (sameObject) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	u, ok := in.(*unstructured.Unstructured)
	if !ok {
		return in, nil
	}
	out := u.DeepCopy()
	if target, ok := gv.KindForGroupVersionKinds([]k8sschema.GroupVersionKind{u.GroupVersionKind()}); ok {
		out.SetGroupVersionKind(target)
	}
	return out, nil
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

// BuiltinTypeConverter types the built-in kinds as client-go's
// applyconfigurations do: the schema API servers use for them.
func BuiltinTypeConverter() managedfields.TypeConverter {
	return applyconfigurations.NewTypeConverter(scheme.Scheme)
}

// BuiltinSMDSchema returns client-go's server-side apply schema of the
// built-in kinds, reached through a typed value (its parser is internal).
func BuiltinSMDSchema() (*smdschema.Schema, error) {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}
	tv, err := BuiltinTypeConverter().ObjectToTyped(u)
	if err != nil {
		return nil, err
	}
	return tv.Schema(), nil
}

// crdConverter types custom resources as an API server does: the CRD's
// schema converted by kube-openapi's schemaconv (as
// managedfields.NewTypeConverter converts an OpenAPI document), its
// metadata the built-in ObjectMeta (client-go's), apiVersion and kind
// strings.
type crdConverter struct {
	parser *typed.Parser
	kinds  map[k8sschema.GroupVersionKind]string
}

// CRDTypeConverter returns the type converter of the served versions of a
// CustomResourceDefinition (YAML or JSON).
func CRDTypeConverter(crd []byte) (managedfields.TypeConverter, error) {
	var doc struct {
		Spec struct {
			Group string `json:"group"`
			Names struct {
				Kind string `json:"kind"`
			} `json:"names"`
			Versions []struct {
				Name   string `json:"name"`
				Served bool   `json:"served"`
				Schema struct {
					OpenAPIV3Schema json.RawMessage `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(crd, &doc); err != nil {
		return nil, err
	}
	builtin, err := BuiltinSMDSchema()
	if err != nil {
		return nil, err
	}
	models := map[string]*spec.Schema{}
	kinds := map[k8sschema.GroupVersionKind]string{}
	for _, v := range doc.Spec.Versions {
		if !v.Served {
			continue
		}
		s := &spec.Schema{}
		if err := json.Unmarshal(v.Schema.OpenAPIV3Schema, s); err != nil {
			return nil, fmt.Errorf("version %s: %w", v.Name, err)
		}
		if s.Properties == nil {
			s.Properties = map[string]spec.Schema{}
		}
		s.Properties["apiVersion"] = *spec.StringProperty()
		s.Properties["kind"] = *spec.StringProperty()
		s.Properties["metadata"] = *spec.RefSchema("#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
		name := "crd." + doc.Spec.Group + "." + v.Name + "." + doc.Spec.Names.Kind
		models[name] = s
		kinds[k8sschema.GroupVersionKind{Group: doc.Spec.Group, Version: v.Name, Kind: doc.Spec.Names.Kind}] = name
	}
	conv, err := schemaconv.ToSchemaFromOpenAPI(models, false)
	if err != nil {
		return nil, err
	}
	types := conv.Types
	have := map[string]bool{}
	for _, t := range types {
		have[t.Name] = true
	}
	// ObjectMeta and what it refers to, from client-go's schema
	for _, t := range builtin.Types {
		if strings.HasPrefix(t.Name, "io.k8s.apimachinery.pkg.apis.meta.v1.") && !have[t.Name] {
			types = append(types, t)
			have[t.Name] = true
		}
	}
	return &crdConverter{parser: &typed.Parser{Schema: smdschema.Schema{Types: types}}, kinds: kinds}, nil
}

func (c *crdConverter) ObjectToTyped(obj runtime.Object, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("crdConverter: %T is not unstructured", obj)
	}
	name, ok := c.kinds[u.GroupVersionKind()]
	if !ok {
		return nil, fmt.Errorf("no schema for %v", u.GroupVersionKind())
	}
	return c.parser.Type(name).FromUnstructured(u.Object, opts...)
}

func (c *crdConverter) TypedToObject(tv *typed.TypedValue) (runtime.Object, error) {
	m, ok := tv.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("crdConverter: the value is not an object")
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// CRDSMDSchema returns the schema the converter types a kind with, and
// its root type's name.
func CRDSMDSchema(tc managedfields.TypeConverter, apiVersion, kind string) (*smdschema.Schema, string, error) {
	c, ok := tc.(*crdConverter)
	if !ok {
		return nil, "", fmt.Errorf("not a CRD type converter")
	}
	gv, err := k8sschema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, "", err
	}
	name, ok := c.kinds[gv.WithKind(kind)]
	if !ok {
		return nil, "", fmt.Errorf("no kind %s %s", apiVersion, kind)
	}
	return &c.parser.Schema, name, nil
}
