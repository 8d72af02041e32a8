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
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
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
	Patches        []*syntax.Patch
	Vars           *kpatch.Vars
	Schema         *schema.Schema
	Strict         bool
	FailOnConflict bool
	Validate       validate.Mode // validate.Strict unless the functionConfig says otherwise

	file string       // the input the functionConfig was read from, for errors
	st   *tree.Stream // the stream it is part of; nil: unknown
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
	// Err is the error the run failed with (a *ConfigError, a
	// *syntax.Error, ...), whose position errors.As and
	// tree.ErrorPosition find.
	Err error
}

// Error joins the messages of the results, one a line.
func (e *Error) Error() string {
	msgs := make([]string, len(e.Results))
	for i, r := range e.Results {
		msgs[i] = r.Message
	}
	return strings.Join(msgs, "\n")
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// ConfigError is a functionConfig kmerge cannot use: a field it does not
// know, a value of the wrong type.
type ConfigError struct {
	Path fieldpath.Path // the field of the ResourceList, e.g. functionConfig.spec.strict
	Pos  tree.Position  // where it is in the ResourceList
	Msg  string
}

// Error formats the error as "file:line:col: path: message".
func (e *ConfigError) Error() string { return fieldpath.Message(e.Pos, e.Path, e.Msg) }

// Position returns where the field is in the ResourceList.
func (e *ConfigError) Position() tree.Position { return e.Pos }

var _ tree.PositionedError = (*ConfigError)(nil)

// Process runs the function on a ResourceList (YAML or JSON) and returns the
// ResourceList to write out. On failure it returns the input with a result
// of severity error, and an *Error: the caller prints the error and exits
// with a status that is not 0, as the specification asks.
//
// Once ctx is done, Process stops and returns ctx.Err() wrapped with where
// it stopped, and no output at all: a run cut short is not a failure of
// the function to report in the ResourceList.
func Process(ctx context.Context, input []byte) ([]byte, error) {
	out, _, err := Run(ctx, input)
	return out, err
}

// Run is Process, and also returns the results it wrote into the
// ResourceList, for a caller that shows them elsewhere too (kmerge fn
// prints the warnings on standard error, where kustomize shows them).
func Run(ctx context.Context, input []byte) ([]byte, []Result, error) {
	return RunWith(ctx, input, Options{})
}

// Options control RunWith.
type Options struct {
	// Thorough writes the ResourceList the long way, which gives the same
	// output (kmerge.ApplyOptions.Thorough): read whole, and its edited
	// parts' text read back whatever their edits prove. The kmerge
	// command's KMERGE_THOROUGH=1 sets it.
	Thorough bool
}

// RunWith is Run with options.
func RunWith(ctx context.Context, input []byte, opts Options) ([]byte, []Result, error) {
	if !opts.Thorough {
		if out, results, ok, err := runItems(ctx, input); ok {
			return out, results, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("stopped before reading %s: %w", stdinName, err)
	}
	st, err := tree.Read(input, tree.Options{File: stdinName, Whole: opts.Thorough})
	if err != nil {
		return nil, nil, err
	}
	if len(st.Docs) != 1 || kindOf(tree.Root(st.Docs[0])) != "ResourceList" {
		return nil, nil, errors.New("the input is not a ResourceList: a KRM function reads one ResourceList (apiVersion config.kubernetes.io/v1, kind ResourceList) on standard input")
	}
	root := tree.Root(st.Docs[0])
	src := &resource.Source{Path: stdinName, Rel: "stdin.yaml", Input: input, Stream: st, Warnings: st.Warnings}
	// an item that is no object is an error of the run, as a patch's is
	set, prune, err := wholeSet(src, root)
	var cfg *Config
	if err == nil {
		cfg, err = parseConfig(tree.MapGet(root, "functionConfig"), st, src.Path)
	}
	var results []Result
	if err == nil {
		cfg.Schema, results = withCRDs(cfg.Schema, set)
		// taken here, not by ApplyPatches (which drops the snapshots it
		// takes once it has written a file): the results are added to the
		// list after the patches, and the whole list is written then
		st.Snapshot()
		var more []Result
		more, err = run(ctx, set, cfg)
		results = append(results, more...)
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, nil, err // cut short: no output, no results
	}
	var out []byte
	if err == nil {
		prune()
		setResults(root, results)
		if out, err = write(st); err != nil {
			// as kmerge.ApplyPatches gives an error writing a source
			err, results = fmt.Errorf("%s: %w", src.Path, err), nil
		}
	}
	var runErr error
	if err != nil {
		// nothing is applied when something fails: the input goes out as
		// it came, with the error as a result (one per schema violation)
		runErr = err
		if invalid := validate.Errors(err); invalid != nil {
			results = append(results, invalidResults(set, invalid, "error")...)
		} else {
			results = append(results, Result{Message: withAdvice(err), Severity: "error"})
		}
		if st, err = tree.Read(input, tree.Options{File: "<stdin>", Whole: opts.Thorough}); err != nil {
			return nil, nil, err
		}
		st.Snapshot()
		setResults(tree.Root(st.Docs[0]), results)
		if out, err = write(st); err != nil {
			return nil, nil, err
		}
	}
	for _, r := range results {
		if r.Severity == "error" {
			return out, results, &Error{Results: errorsOf(results), Err: runErr}
		}
	}
	return out, results, nil
}

// write writes a ResourceList in its format.
func write(st *tree.Stream) ([]byte, error) {
	var out bytes.Buffer
	var err error
	if st.Format == tree.JSON {
		err = st.WriteJSON(&out)
	} else {
		err = st.WriteYAML(&out)
	}
	return out.Bytes(), err
}

// withAdvice is the message of an error, with what a function's user can
// do about it where the error alone does not say.
func withAdvice(err error) string {
	var ke *syntax.Error
	var sme *smp.Error
	if errors.As(err, &sme) && sme.Reason == smp.ReasonNoSchema {
		return fmt.Sprintf("%v (add the kind's CustomResourceDefinition to the items or to the functionConfig's schemas)", err)
	}
	if errors.As(err, &ke) && ke.Undefined != "" {
		if name, ok := strings.CutPrefix(ke.Undefined, "features."); ok {
			return fmt.Sprintf("%v (set it in the functionConfig's features: %s: true)", err, name)
		}
		return fmt.Sprintf("%v (give it in the functionConfig's values)", err)
	}
	return err.Error()
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

func run(ctx context.Context, set *resource.Set, cfg *Config) ([]Result, error) {
	// the ResourceList is written by Run, with the results
	kept := keepPipelineAnnotations(set, kpatch.NewRun(cfg.Patches, kpatch.Options{Schema: cfg.Schema, Vars: cfg.Vars}).Targets)
	res, err := kmerge.ApplyPatches(ctx, set, cfg.Patches, kmerge.ApplyPatchesOptions{Vars: cfg.Vars, Schema: cfg.Schema, Strict: cfg.Strict, Validate: cfg.Validate, NoOutput: true})
	if err != nil {
		return nil, err
	}
	for _, k := range kept {
		k.restore()
	}
	var results []Result
	for _, w := range res.Warnings {
		r := Result{Message: w.String(), Severity: "warning"}
		if w.NoSchema {
			r.Message += "; add its CustomResourceDefinition to the items or to the functionConfig's schemas"
		}
		r.about(w.Object)
		results = append(results, r)
	}
	results = append(results, invalidResults(set, res.Invalid, "warning")...)
	severity := "warning"
	if cfg.FailOnConflict {
		severity = "error"
	}
	for _, c := range res.Conflicts {
		r := Result{Message: "conflict: " + c.String(), Severity: severity, FieldPath: c.Sides[0].Change.MaskText(c.Sides[0].Change.Path.String())}
		r.about(find(set, c.Object))
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
		r := Result{Message: e.Position().String() + label + e.Violation.String(), Severity: severity, FieldPath: e.Path.String()}
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
// and kpt set: the object's, or, for an object of a List item, the List's
// (the item the pipeline knows).
func fileOf(r *resource.Resource) (string, int) {
	path, index := annotatedFile(r.Root)
	if path == "" && r.Item >= 0 && r.Source.Stream != nil && r.Doc < len(r.Source.Stream.Docs) {
		if list := tree.Root(r.Source.Stream.Docs[r.Doc]); kindOf(list) != "ResourceList" {
			path, index = annotatedFile(list)
		}
	}
	return path, index
}

// annotatedFile reads a file and an index from the annotations of the
// object n.
func annotatedFile(n *yaml.Node) (string, int) {
	ann := tree.MapGet(tree.MapGet(n, "metadata"), "annotations")
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

// parseConfig reads a functionConfig, kmerge's Patches kind or a
// ConfigMap, read from file as part of the stream st (nil: unknown),
// which names it in the positions of errors and patches; text kept line
// for line in st (kpatch: |) is parsed where it is in st, so that
// positions in it are the file's. Errors about the functionConfig itself
// are *ConfigError.
func parseConfig(fc *yaml.Node, st *tree.Stream, file string) (*Config, error) {
	if fc == nil || tree.KindOf(fc) == tree.Null {
		return nil, errors.New("no functionConfig: give the patches in a " + ConfigAPIVersion + " " + ConfigKind + " object or a ConfigMap (see docs/krm.md)")
	}
	cfg := &Config{Vars: kpatch.NewVars(), Schema: schema.Builtin(), Validate: validate.Strict, file: file, st: st}
	root := fieldpath.Path{fieldpath.Field("functionConfig")}
	if err := cfg.wantKind(fc, root, tree.Object, "a "+ConfigAPIVersion+" "+ConfigKind+" object or a ConfigMap"); err != nil {
		return nil, err
	}
	switch kind := kindOf(fc); {
	case kind == ConfigKind:
		return cfg, cfg.fromSpec(fc, root)
	case kind == "ConfigMap":
		return cfg, cfg.fromConfigMap(fc, root)
	case kind == "":
		return nil, cfg.errorf(fc, root, "it has no kind; kmerge takes a %s %s or a ConfigMap", ConfigAPIVersion, ConfigKind)
	default:
		return nil, cfg.errorf(fc, root, "it is a %s; kmerge takes a %s %s or a ConfigMap", kind, ConfigAPIVersion, ConfigKind)
	}
}

// errorf returns a *ConfigError about the node n at path.
func (cfg *Config) errorf(n *yaml.Node, path fieldpath.Path, format string, args ...any) error {
	e := &ConfigError{Path: path, Pos: tree.Position{File: cfg.file}, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Pos.Line, e.Pos.Column = n.Line, n.Column
	}
	return e
}

func (cfg *Config) fromSpec(fc *yaml.Node, root fieldpath.Path) error {
	spec := tree.MapGet(fc, "spec")
	if spec == nil {
		return cfg.errorf(fc, root, "no spec: give spec.kpatch or spec.patches")
	}
	if err := cfg.wantKind(spec, root.Append(fieldpath.Field("spec")), tree.Object, "the fields kpatch, patches, values, features, strict, failOnConflict, validate and schemas"); err != nil {
		return err
	}
	for i := 0; i+1 < len(spec.Content); i += 2 {
		kn, v := spec.Content[i], spec.Content[i+1]
		field := root.Append(fieldpath.Field("spec"), fieldpath.Field(kn.Value))
		name := field.String() // names the text of a field in the positions inside it
		if want, ok := specKinds[kn.Value]; ok {
			if err := cfg.wantKind(v, field, want.kind, want.what); err != nil {
				return err
			}
		}
		var err error
		switch kn.Value {
		case "kpatch":
			err = cfg.addKpatch(v, name)
		case "patches":
			err = cfg.addPatchList(v, cfg.file)
		case "values":
			err = cfg.addValues(v, cfg.file)
		case "features":
			err = cfg.addFeatures(v, field)
		case "strict":
			cfg.Strict, err = cfg.boolOf(v, field)
		case "failOnConflict":
			cfg.FailOnConflict, err = cfg.boolOf(v, field)
		case "validate":
			cfg.Validate, err = cfg.modeOf(v, v.Value, field)
		case "schemas":
			err = cfg.addSchemas(v, field)
		default:
			err = cfg.errorf(kn, field, "unknown field; the fields are kpatch, patches, values, features, strict, failOnConflict, validate and schemas")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// specKinds are the JSON kinds of the fields of a Patches object's spec,
// and what each holds, for the error about a value of another kind: a
// value of the wrong kind is never read as nothing (a kpatch given as a
// list once gave no patches, silently).
var specKinds = map[string]struct {
	kind tree.Kind
	what string
}{
	"kpatch":         {tree.String, "the text of a .kpatch file (kpatch: |, then its lines, indented)"},
	"patches":        {tree.Array, "a YAML patch list (- target: ..., type: ..., patch: ...)"},
	"values":         {tree.Object, "a mapping of values, for ${values.*}"},
	"features":       {tree.Object, "a mapping of feature names to true or false"},
	"strict":         {tree.Bool, "true or false"},
	"failOnConflict": {tree.Bool, "true or false"},
	"validate":       {tree.String, "strict, warn or none"},
	"schemas":        {tree.Array, "a list of CustomResourceDefinitions or OpenAPI documents"},
}

// wantKind returns an error naming path when n is not of the JSON kind
// want; what says what belongs there.
func (cfg *Config) wantKind(n *yaml.Node, path fieldpath.Path, want tree.Kind, what string) error {
	if tree.KindOf(n) != want {
		return cfg.errorf(n, path, "%s, where %s belongs", tree.Describe(n), what)
	}
	return nil
}

func (cfg *Config) fromConfigMap(fc *yaml.Node, root fieldpath.Path) error {
	data := tree.MapGet(fc, "data")
	if data == nil {
		return cfg.errorf(fc, root, "the ConfigMap has no data: give data.kpatch or data.patches")
	}
	if err := cfg.wantKind(data, root.Append(fieldpath.Field("data")), tree.Object, "a mapping of the keys kpatch, patches, values, features, strict, failOnConflict and validate to text"); err != nil {
		return err
	}
	for i := 0; i+1 < len(data.Content); i += 2 {
		kn, vn := data.Content[i], data.Content[i+1]
		text := vn.Value
		field := root.Append(fieldpath.Field("data"), fieldpath.Field(kn.Value))
		name := field.String()
		// a ConfigMap's data holds text; unquoted true or 3 are taken
		// by their text, as a ConfigMap's reader would have them quoted
		if k := tree.KindOf(vn); !k.Scalar() || k == tree.Null {
			return cfg.errorf(vn, field, "%s, where text belongs: a ConfigMap's data values are strings (write YAML as a block: %s: |, then its lines, indented)", tree.Describe(vn), kn.Value)
		}
		var err error
		file := name // the name positions in text parsed here have
		parse := func() (*yaml.Node, error) {
			// YAML in text: where the text is kept line for line in
			// the ResourceList, positions in it are the ResourceList's
			at, ok := cfg.origin(vn)
			if !ok {
				at = tree.Position{File: name, Line: 1, Column: 1}
			}
			file = at.File
			st, err := tree.Read([]byte(text), tree.Options{File: at.File})
			if err != nil {
				var se *tree.SyntaxError
				if ok && errors.As(err, &se) && se.Pos.Line > 0 {
					se.Pos.Line += at.Line - 1
					if se.Pos.Column > 0 {
						se.Pos.Column += at.Column - 1
					}
				}
				return nil, err
			}
			if len(st.Docs) == 0 {
				return nil, nil
			}
			n := tree.Root(st.Docs[0])
			if ok {
				tree.ShiftPositions(n, at)
			}
			return n, nil
		}
		switch kn.Value {
		case "kpatch":
			err = cfg.addKpatch(vn, name)
		case "patches", "values", "features":
			var n *yaml.Node
			if n, err = parse(); err == nil && n != nil {
				switch kn.Value {
				case "patches":
					err = cfg.addPatchList(n, file)
				case "values":
					err = cfg.addValues(n, file)
				default:
					err = cfg.addFeatures(n, field)
				}
			}
		case "strict", "failOnConflict":
			on := text == "true"
			if !on && text != "false" && text != "" {
				err = cfg.errorf(vn, field, "%q is not true or false", text)
			}
			if kn.Value == "strict" {
				cfg.Strict = on
			} else {
				cfg.FailOnConflict = on
			}
		case "validate":
			cfg.Validate, err = cfg.modeOf(vn, text, field)
		default:
			err = cfg.errorf(kn, field, "unknown key; the keys are kpatch, patches, values, features, strict, failOnConflict and validate")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// origin returns where the text of the scalar n is in the functionConfig's
// file, when it is kept there line for line (tree.Stream.TextOrigin).
func (cfg *Config) origin(n *yaml.Node) (tree.Position, bool) {
	at, ok := cfg.st.TextOrigin(n)
	at.File = cfg.file
	return at, ok
}

// addKpatch reads the .kpatch text of the node n, the field name: where
// the text is kept line for line in the ResourceList (kpatch: |), its
// positions are the ResourceList's; otherwise (a quoted string over
// lines, JSON) they are lines of the text, named by the field
// (functionConfig.spec.kpatch:2:11).
func (cfg *Config) addKpatch(n *yaml.Node, name string) error {
	var ps []*syntax.Patch
	var err error
	if at, ok := cfg.origin(n); ok {
		ps, err = syntax.ParseKpatchAt([]byte(n.Value), at)
	} else {
		ps, err = syntax.ParseKpatch([]byte(n.Value), name)
	}
	if err != nil {
		return err
	}
	cfg.Patches = append(cfg.Patches, ps...)
	return nil
}

// addPatchList reads a YAML patch list from its nodes, whose positions
// are in file (the ResourceList's, but for text that is not kept line for
// line in it); it reads a copy: the patches hold parts of it, and the
// ResourceList is written out.
func (cfg *Config) addPatchList(n *yaml.Node, file string) error {
	ps, err := syntax.ParseYAMLNode(tree.Clone(n), file)
	if err != nil {
		return err
	}
	cfg.Patches = append(cfg.Patches, ps...)
	return nil
}

// addValues merges a mapping of values, whose positions are in file, into
// the variables; it merges a copy, as the ResourceList is written out.
func (cfg *Config) addValues(n *yaml.Node, file string) error {
	return cfg.Vars.MergeValues(tree.Clone(n), file)
}

func (cfg *Config) addFeatures(n *yaml.Node, path fieldpath.Path) error {
	if n.Kind != yaml.MappingNode {
		return cfg.errorf(n, path, "features map names to true or false")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		on, err := cfg.boolOf(n.Content[i+1], path.Append(fieldpath.Field(n.Content[i].Value)))
		if err != nil {
			return err
		}
		cfg.Vars.SetFeature(n.Content[i].Value, on)
	}
	return nil
}

func (cfg *Config) addSchemas(n *yaml.Node, path fieldpath.Path) error {
	if n.Kind != yaml.SequenceNode {
		return cfg.errorf(n, path, "a list of CustomResourceDefinitions or OpenAPI documents")
	}
	for _, doc := range n.Content {
		// positions in the schema are the functionConfig's
		s, err := schema.LoadNode(doc, cfg.file)
		if err != nil {
			return err
		}
		cfg.Schema = cfg.Schema.Extend(s)
	}
	return nil
}

func (cfg *Config) modeOf(n *yaml.Node, text string, path fieldpath.Path) (validate.Mode, error) {
	m, err := validate.ParseMode(text)
	if err != nil {
		return validate.Strict, cfg.errorf(n, path, "%v", err)
	}
	return m, nil
}

func (cfg *Config) boolOf(n *yaml.Node, path fieldpath.Path) (bool, error) {
	if tree.KindOf(n) == tree.Bool {
		return tree.BoolValue(n), nil
	}
	return false, cfg.errorf(n, path, "%q is not true or false", n.Value)
}

// withCRDs extends s by the CustomResourceDefinitions among the objects of
// the set. A CRD that gives no schema (an apiextensions.k8s.io/v1 version
// without one, no spec.group: the API server refuses it) is an object like
// any other, as kmerge apply has the CRDs among its manifests, and a
// warning: its custom resources are patched without a schema.
func withCRDs(s *schema.Schema, set *resource.Set) (*schema.Schema, []Result) {
	var warns []Result
	for _, r := range set.Resources {
		if !isCRD(r) {
			continue
		}
		more, err := schema.LoadNode(r.Root, r.Source.Path)
		if err != nil {
			pos, _ := tree.ErrorPosition(err)
			msg := strings.TrimPrefix(err.Error(), pos.String())
			w := Result{Severity: "warning", Message: fmt.Sprintf("%swarning: %s is not read as a schema (%s): its custom resources are patched without one", pos, r.ID(), msg)}
			w.about(r)
			warns = append(warns, w)
			continue
		}
		s = s.Extend(more)
	}
	return s, warns
}

// isCRD reports whether r is a CustomResourceDefinition, of any version of
// apiextensions.k8s.io.
func isCRD(r *resource.Resource) bool {
	return r.Kind == "CustomResourceDefinition" && strings.HasPrefix(r.APIVersion, "apiextensions.k8s.io/")
}
