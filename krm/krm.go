// Package krm runs kmerge as a KRM function (the Kubernetes Resource Model
// functions specification that kustomize, kpt and Argo CD's plugins speak):
// a ResourceList comes in, its items are patched as the functionConfig says,
// and the ResourceList goes out with results for warnings and conflicts.
//
// The functionConfig is either kmerge's own kind,
//
//	apiVersion: kmerge.dev/v1alpha1
//	kind: Patches
//	metadata:
//	  name: overrides
//	spec:
//	  kpatch: |            # .kpatch text
//	    [deployment.web]
//	    replicas: 3
//	  patches:             # a YAML patch list (field, strategic, merge patches)
//	  - target: deployment.web
//	    type: strategic
//	    patch: {...}
//	  values: {domain: example.org}   # ${values.*}
//	  features: {beta: true}          # ${features.*}
//	  strict: false                   # a patch that matches nothing is an error
//	  failOnConflict: false           # conflicts are errors, not warnings
//	  validate: strict                # strict, warn or none (see below)
//	  schemas: []                     # CRDs or OpenAPI documents, inline
//
// or a ConfigMap whose data holds the same fields as text (kpatch, patches,
// values and features as YAML, strict and failOnConflict as "true",
// validate as its mode).
//
// Every object a patch touched is checked against its schema (package
// validate), strictly by default as kmerge apply does: a value a patch
// wrote that the schema refuses is a result of severity error naming the
// field and the patch line, and nothing is applied. The function is the
// last place that knows which patch line wrote a value; left to the API
// server, the same mistake fails later without that. Violations the items
// had before the patches are warnings. validate: warn makes every
// violation a warning, validate: none checks nothing.
//
// CustomResourceDefinitions among the items are schemas too, so their
// custom resources merge lists by the keys the CRDs declare. Items keep
// their comments and their config.kubernetes.io annotations; items no patch
// touches come out as they went in.
package krm

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// The functionConfig kind of kmerge.
const (
	ConfigAPIVersion = "kmerge.dev/v1alpha1"
	ConfigKind       = "Patches"
)

// Config is a parsed functionConfig.
type Config struct {
	Patches        []*kpatch.Patch
	Vars           *kpatch.Vars
	Schema         *schema.Schema
	Strict         bool
	FailOnConflict bool
	Validate       validate.Mode // validate.Strict unless the functionConfig says otherwise
}

// Result is one entry of the ResourceList's results.
type Result struct {
	Message  string
	Severity string // "error", "warning" or "info"
	// Resource is the object it is about (its apiVersion, kind, namespace
	// and name), when there is one.
	APIVersion, Kind, Namespace, Name string
	FieldPath                         string // the field, when there is one
	File                              string // the object's file (from its config.kubernetes.io path annotation)
	Index                             int    // the object's index in its file
}

// Error is a failed run: the function could not apply its patches. The
// output ResourceList holds it as a result of severity error.
type Error struct {
	Results []Result
}

func (e *Error) Error() string {
	msgs := make([]string, len(e.Results))
	for i, r := range e.Results {
		msgs[i] = r.Message
	}
	return strings.Join(msgs, "\n")
}

// Process runs the function on a ResourceList (YAML or JSON) and returns the
// ResourceList to write out. On failure it returns the input with a result
// of severity error, and an *Error: the caller prints the error and exits
// with a status that is not 0, as the specification asks.
func Process(input []byte) ([]byte, error) {
	out, _, err := Run(input)
	return out, err
}

// Run is Process, and also returns the results it wrote into the
// ResourceList, for a caller that shows them elsewhere too (kmerge fn
// prints the warnings on standard error, where kustomize shows them).
func Run(input []byte) ([]byte, []Result, error) {
	set, err := resource.Load([]string{"-"}, bytes.NewReader(input), resource.LoadOptions{})
	if err != nil {
		return nil, nil, err
	}
	src := set.Sources[0]
	if len(src.Stream.Docs) != 1 || kindOf(tree.Root(src.Stream.Docs[0])) != "ResourceList" {
		return nil, nil, errors.New("the input is not a ResourceList: a KRM function reads one ResourceList (apiVersion config.kubernetes.io/v1, kind ResourceList) on standard input")
	}
	root := tree.Root(src.Stream.Docs[0])
	cfg, err := ParseConfig(tree.MapGet(root, "functionConfig"))
	if err == nil {
		cfg.Schema, err = withCRDs(cfg.Schema, set)
	}
	var results []Result
	if err == nil {
		// taken here, not by ApplyPatches (which drops the snapshots it
		// takes once it has written a file): the results are added to the
		// list after the patches, and the whole list is written then
		src.Stream.Snapshot()
		results, err = run(set, cfg)
	}
	st := src.Stream
	if err != nil {
		// nothing is applied when something fails: the input goes out as
		// it came, with the error as a result (one per schema violation)
		if invalid := validate.Errors(err); invalid != nil {
			results = append(results, invalidResults(set, invalid, "error")...)
		} else {
			results = append(results, Result{Message: err.Error(), Severity: "error"})
		}
		if st, err = tree.Read(input, tree.Options{File: "<stdin>"}); err != nil {
			return nil, nil, err
		}
		st.Snapshot()
		root = tree.Root(st.Docs[0])
	}
	setResults(root, results)
	var out bytes.Buffer
	werr := st.WriteYAML(&out)
	if st.Format == tree.JSON {
		out.Reset()
		werr = st.WriteJSON(&out)
	}
	if werr != nil {
		return nil, nil, werr
	}
	for _, r := range results {
		if r.Severity == "error" {
			return out.Bytes(), results, &Error{Results: errorsOf(results)}
		}
	}
	return out.Bytes(), results, nil
}

func errorsOf(results []Result) []Result {
	var out []Result
	for _, r := range results {
		if r.Severity == "error" {
			out = append(out, r)
		}
	}
	return out
}

func run(set *resource.Set, cfg *Config) ([]Result, error) {
	res, err := kmerge.ApplyPatches(set, cfg.Patches, kmerge.ApplyOptions{Vars: cfg.Vars, Schema: cfg.Schema, Strict: cfg.Strict, Validate: cfg.Validate})
	if err != nil {
		return nil, err
	}
	var results []Result
	for _, w := range res.Warnings {
		r := Result{Message: w.String(), Severity: "warning"}
		r.about(w.Object)
		results = append(results, r)
	}
	results = append(results, invalidResults(set, res.Invalid, "warning")...)
	severity := "warning"
	if cfg.FailOnConflict {
		severity = "error"
	}
	for _, c := range res.Conflicts {
		r := Result{Message: "conflict: " + c.String(), Severity: severity, FieldPath: c.A.Path}
		r.about(find(set, c.A.Resource))
		results = append(results, r)
	}
	return results, nil
}

// invalidResults makes a result of each schema violation: the message
// with the patch position, the field, the object and its file.
func invalidResults(set *resource.Set, invalid []*validate.Error, severity string) []Result {
	out := make([]Result, 0, len(invalid))
	for _, e := range invalid {
		label := ""
		if severity == "warning" {
			label = "warning: " // as kpatch.Warning writes its message
		}
		r := Result{Message: e.Pos().String() + label + e.Violation.String(), Severity: severity, FieldPath: e.Path.String()}
		if e.Input {
			r.Message += " (the input has it already; no patch wrote it)"
		}
		r.about(find(set, e.Object))
		out = append(out, r)
	}
	return out
}

// about makes the result refer to an object (nil: none): resourceRef,
// and file from its annotations.
func (r *Result) about(obj *resource.Resource) {
	if obj == nil {
		return
	}
	r.APIVersion, r.Kind, r.Namespace, r.Name = obj.APIVersion, obj.Kind, obj.Namespace, obj.Name
	r.File, r.Index = fileOf(obj)
}

// find returns the object of the set with the identity id (as
// resource.Resource.ID writes it).
func find(set *resource.Set, id string) *resource.Resource {
	for _, r := range set.Resources {
		if r.ID() == id {
			return r
		}
	}
	return nil
}

// fileOf reads an object's file and index from the annotations kustomize
// and kpt set.
func fileOf(r *resource.Resource) (string, int) {
	ann := tree.MapGet(tree.MapGet(r.Root, "metadata"), "annotations")
	get := func(keys ...string) string {
		for _, k := range keys {
			if v := tree.MapGet(ann, k); v != nil && v.Kind == yaml.ScalarNode {
				return v.Value
			}
		}
		return ""
	}
	path := get("internal.config.kubernetes.io/path", "config.kubernetes.io/path")
	index, _ := strconv.Atoi(get("internal.config.kubernetes.io/index", "config.kubernetes.io/index"))
	return path, index
}

// setResults replaces the results of the ResourceList by ours (none: no
// results field).
func setResults(root *yaml.Node, results []Result) {
	tree.MapDelete(root, "results")
	if len(results) == 0 {
		return
	}
	list := tree.NewSeq()
	for _, r := range results {
		m := tree.NewMap()
		tree.MapSet(m, "message", tree.NewString(r.Message))
		tree.MapSet(m, "severity", tree.NewString(r.Severity))
		if r.Kind != "" {
			ref := tree.NewMap()
			tree.MapSet(ref, "apiVersion", tree.NewString(r.APIVersion))
			tree.MapSet(ref, "kind", tree.NewString(r.Kind))
			tree.MapSet(ref, "name", tree.NewString(r.Name))
			if r.Namespace != "" {
				tree.MapSet(ref, "namespace", tree.NewString(r.Namespace))
			}
			tree.MapSet(m, "resourceRef", ref)
		}
		if r.FieldPath != "" {
			f := tree.NewMap()
			tree.MapSet(f, "path", tree.NewString(r.FieldPath))
			tree.MapSet(m, "field", f)
		}
		if r.File != "" {
			f := tree.NewMap()
			tree.MapSet(f, "path", tree.NewString(r.File))
			if r.Index > 0 {
				tree.MapSet(f, "index", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(r.Index)})
			}
			tree.MapSet(m, "file", f)
		}
		list.Content = append(list.Content, m)
	}
	tree.MapSet(root, "results", list)
}

func kindOf(n *yaml.Node) string {
	if v := tree.MapGet(n, "kind"); v != nil {
		return v.Value
	}
	return ""
}

// ParseConfig reads a functionConfig: kmerge's Patches kind or a
// ConfigMap. Positions in patches are relative to their text, named
// functionConfig.spec.kpatch and so on.
func ParseConfig(fc *yaml.Node) (*Config, error) {
	if fc == nil || tree.KindOf(fc) == tree.Null {
		return nil, errors.New("no functionConfig: give the patches in a " + ConfigAPIVersion + " " + ConfigKind + " object or a ConfigMap (see docs/krm.md)")
	}
	cfg := &Config{Vars: kpatch.NewVars(), Schema: schema.Builtin(), Validate: validate.Strict}
	switch kind := kindOf(fc); {
	case kind == ConfigKind:
		return cfg, cfg.fromSpec(tree.MapGet(fc, "spec"))
	case kind == "ConfigMap":
		return cfg, cfg.fromConfigMap(tree.MapGet(fc, "data"))
	default:
		return nil, fmt.Errorf("functionConfig is a %s; kmerge takes a %s %s or a ConfigMap", kind, ConfigAPIVersion, ConfigKind)
	}
}

func (cfg *Config) fromSpec(spec *yaml.Node) error {
	if spec == nil {
		return errors.New("functionConfig has no spec: give spec.kpatch or spec.patches")
	}
	for i := 0; i+1 < len(spec.Content); i += 2 {
		k, v := spec.Content[i].Value, spec.Content[i+1]
		field := "functionConfig.spec." + k
		var err error
		switch k {
		case "kpatch":
			err = cfg.addKpatch(v.Value, field)
		case "patches":
			err = cfg.addPatchList(v, field)
		case "values":
			err = cfg.addValues(v, field)
		case "features":
			err = cfg.addFeatures(v, field)
		case "strict":
			cfg.Strict, err = boolOf(v, field)
		case "failOnConflict":
			cfg.FailOnConflict, err = boolOf(v, field)
		case "validate":
			cfg.Validate, err = modeOf(v.Value, field)
		case "schemas":
			err = cfg.addSchemas(v, field)
		default:
			err = fmt.Errorf("%s: unknown field; the fields are kpatch, patches, values, features, strict, failOnConflict, validate and schemas", field)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (cfg *Config) fromConfigMap(data *yaml.Node) error {
	if data == nil {
		return errors.New("the ConfigMap functionConfig has no data: give data.kpatch or data.patches")
	}
	for i := 0; i+1 < len(data.Content); i += 2 {
		k, text := data.Content[i].Value, data.Content[i+1].Value
		field := "functionConfig.data." + k
		var err error
		parse := func() (*yaml.Node, error) {
			st, err := tree.Read([]byte(text), tree.Options{File: field})
			if err != nil || len(st.Docs) == 0 {
				return nil, err
			}
			return tree.Root(st.Docs[0]), nil
		}
		switch k {
		case "kpatch":
			err = cfg.addKpatch(text, field)
		case "patches", "values", "features":
			var n *yaml.Node
			if n, err = parse(); err == nil && n != nil {
				switch k {
				case "patches":
					err = cfg.addPatchList(n, field)
				case "values":
					err = cfg.addValues(n, field)
				default:
					err = cfg.addFeatures(n, field)
				}
			}
		case "strict", "failOnConflict":
			on := text == "true"
			if !on && text != "false" && text != "" {
				err = fmt.Errorf("%s: %q is not true or false", field, text)
			}
			if k == "strict" {
				cfg.Strict = on
			} else {
				cfg.FailOnConflict = on
			}
		case "validate":
			cfg.Validate, err = modeOf(text, field)
		default:
			err = fmt.Errorf("%s: unknown key; the keys are kpatch, patches, values, features, strict, failOnConflict and validate", field)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (cfg *Config) addKpatch(text, name string) error {
	ps, err := kpatch.ParseKpatch([]byte(text), name)
	if err != nil {
		return err
	}
	cfg.Patches = append(cfg.Patches, ps...)
	return nil
}

func (cfg *Config) addPatchList(n *yaml.Node, name string) error {
	// the patch list is read from its own text, so that its positions
	// are lines of the list
	b, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	ps, err := kpatch.ParseYAML(b, name)
	if err != nil {
		return err
	}
	cfg.Patches = append(cfg.Patches, ps...)
	return nil
}

func (cfg *Config) addValues(n *yaml.Node, name string) error {
	b, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	return cfg.Vars.LoadValues(b, name)
}

func (cfg *Config) addFeatures(n *yaml.Node, name string) error {
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("%s: features map names to true or false", name)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		on, err := boolOf(n.Content[i+1], name+"."+n.Content[i].Value)
		if err != nil {
			return err
		}
		cfg.Vars.SetFeature(n.Content[i].Value, on)
	}
	return nil
}

func (cfg *Config) addSchemas(n *yaml.Node, name string) error {
	if n.Kind != yaml.SequenceNode {
		return fmt.Errorf("%s: a list of CustomResourceDefinitions or OpenAPI documents", name)
	}
	for i, doc := range n.Content {
		s, err := loadNode(doc, fmt.Sprintf("%s[%d]", name, i))
		if err != nil {
			return err
		}
		cfg.Schema = cfg.Schema.Extend(s)
	}
	return nil
}

func modeOf(text, name string) (validate.Mode, error) {
	m, err := validate.ParseMode(text)
	if err != nil {
		return validate.Strict, fmt.Errorf("%s: %v", name, err)
	}
	return m, nil
}

func boolOf(n *yaml.Node, name string) (bool, error) {
	if tree.KindOf(n) == tree.Bool {
		return tree.BoolValue(n), nil
	}
	return false, fmt.Errorf("%s: %q is not true or false", name, n.Value)
}

// withCRDs extends s by the CustomResourceDefinitions among the objects of
// the set.
func withCRDs(s *schema.Schema, set *resource.Set) (*schema.Schema, error) {
	for _, r := range set.Resources {
		if r.Kind != "CustomResourceDefinition" || !strings.HasPrefix(r.APIVersion, "apiextensions.k8s.io/") {
			continue
		}
		more, err := loadNode(r.Root, r.ID())
		if err != nil {
			return nil, err
		}
		s = s.Extend(more)
	}
	return s, nil
}

func loadNode(n *yaml.Node, name string) (*schema.Schema, error) {
	b, err := tree.MarshalJSON(n)
	if err != nil {
		return nil, err
	}
	return schema.Load(b, name)
}
