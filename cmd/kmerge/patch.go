package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

type patchOptions struct {
	filename   string
	patch      string
	patchFile  string
	patchType  string
	schemas    []string
	definition string
	listOrder  string
	fallback   string
	output     string
}

func newPatchCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
	o := &patchOptions{}
	cmd := &cobra.Command{
		Use:   "patch -f FILE (-p PATCH | --patch-file FILE)",
		Short: "Apply one patch to every document of a file, like kubectl patch --local",
		Long: `Apply a strategic merge patch (default) or a JSON merge patch to every document
of FILE and print the result.

The schema of a Kubernetes object comes from its apiVersion and kind: the
built-in table (every kind of k8s.io/api), or the CustomResourceDefinitions and
OpenAPI documents given with --schema. For documents that are not Kubernetes
objects, --definition names the schema definition to use.

Documents and patches may be YAML or JSON. The output has the input's format
unless -o says otherwise; YAML output keeps comments, key order and quoting.`,
		Example: `  # change the image of a container and add a variable
  kmerge patch -f examples/deployment.yaml --patch-file examples/deployment-patch.yaml

  # a patch on the command line, the document on stdin, JSON out
  cat examples/deployment.yaml | kmerge patch -f - -p '{"spec":{"replicas":5}}' -o json

  # a custom resource, its schema from the CRD
  kmerge patch -f examples/widget.yaml --patch-file examples/widget-patch.yaml --schema examples/widget-crd.yaml

  # a document that is not a Kubernetes object, schema from an OpenAPI definition
  kmerge patch -f doc.json --patch-file patch.json --schema swagger.json --definition mergeItem`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("patch takes no arguments, got %q: give the file with -f", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runPatch(o, stdin, stdout)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.filename, "filename", "f", "", "file to patch (YAML or JSON, one or more documents); - reads standard input")
	f.StringVarP(&o.patch, "patch", "p", "", "the patch, YAML or JSON")
	f.StringVar(&o.patchFile, "patch-file", "", "file holding the patch, YAML or JSON")
	f.StringVar(&o.patchType, "type", "strategic", "patch type: strategic or merge (RFC 7396)")
	f.StringArrayVar(&o.schemas, "schema", nil, "CustomResourceDefinition or OpenAPI v2/v3 document adding kinds and definitions (repeatable)")
	f.StringVar(&o.definition, "definition", "", "schema definition for documents that are not Kubernetes objects (e.g. mergeItem)")
	f.StringVar(&o.listOrder, "list-order", "spec", "order of lists with $setElementOrder: spec (the specification) or upstream (exactly as k8s.io/apimachinery)")
	f.StringVar(&o.fallback, "fallback", "", "merge: patch kinds without a schema with JSON merge patch semantics instead of failing")
	f.StringVarP(&o.output, "output", "o", "", "output format: yaml or json (default: the input's)")
	return cmd
}

// patchJob is a checked command line.
type patchJob struct {
	strategic bool
	order     smp.ListOrder
	fallback  bool
	format    *tree.Format
	schema    *schema.Schema
	def       *schema.Type
	patch     *yaml.Node
	patchName string
}

func (o *patchOptions) check() (*patchJob, error) {
	j := &patchJob{}
	if o.filename == "" {
		return nil, usagef("patch needs the file to patch: -f FILE (or -f - for standard input)")
	}
	switch {
	case o.patch == "" && o.patchFile == "":
		return nil, usagef("patch needs a patch: -p PATCH or --patch-file FILE")
	case o.patch != "" && o.patchFile != "":
		return nil, usagef("give the patch once: -p or --patch-file, not both")
	}
	switch o.patchType {
	case "strategic":
		j.strategic = true
	case "merge":
	default:
		return nil, usagef("--type %q: use strategic or merge", o.patchType)
	}
	order, err := smp.ParseListOrder(o.listOrder)
	if err != nil {
		return nil, usageError{err}
	}
	j.order = order
	switch o.fallback {
	case "":
	case "merge":
		j.fallback = true
	default:
		return nil, usagef("--fallback %q: the only fallback is merge", o.fallback)
	}
	switch o.output {
	case "":
	case "yaml":
		f := tree.YAML
		j.format = &f
	case "json":
		f := tree.JSON
		j.format = &f
	default:
		return nil, usagef("-o %q: use yaml or json", o.output)
	}
	return j, nil
}

func runPatch(o *patchOptions, stdin io.Reader, stdout io.Writer) error {
	j, err := o.check()
	if err != nil {
		return err
	}
	j.schema = schema.Builtin()
	for _, file := range o.schemas {
		s, err := schema.LoadFile(file)
		if err != nil {
			return fmt.Errorf("--schema %w", err)
		}
		j.schema = j.schema.Extend(s)
	}
	if o.definition != "" {
		if j.def, err = j.schema.Definition(o.definition); err != nil {
			return usagef("--definition: %v", err)
		}
	}
	patchData, patchName := []byte(o.patch), "--patch"
	if o.patchFile != "" {
		if patchData, err = os.ReadFile(o.patchFile); err != nil {
			return err
		}
		patchName = o.patchFile
	}
	ps, err := tree.Read(patchData, tree.Options{File: patchName})
	if err != nil {
		return err
	}
	if len(ps.Docs) != 1 {
		return fmt.Errorf("%s: a patch is one document, this has %d", patchName, len(ps.Docs))
	}
	j.patch, j.patchName = ps.Docs[0], patchName

	var data []byte
	name := o.filename
	if name == "-" {
		data, err = io.ReadAll(stdin)
		name = "<stdin>"
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return err
	}
	st, err := tree.Read(data, tree.Options{File: name})
	if err != nil {
		return err
	}
	for i, doc := range st.Docs {
		res, err := j.patchDoc(doc)
		if err != nil {
			return docError(err, j.patchName, name, i, len(st.Docs), doc)
		}
		st.Docs[i] = res
	}
	var out bytes.Buffer
	format := st.Format
	if j.format != nil {
		format = *j.format
	}
	if format == tree.JSON {
		err = st.WriteJSON(&out)
	} else {
		err = st.WriteYAML(&out)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	_, err = stdout.Write(out.Bytes())
	return err
}

// patchDoc applies the patch to one document.
func (j *patchJob) patchDoc(doc *yaml.Node) (*yaml.Node, error) {
	if !j.strategic {
		return mergepatch.Apply(doc, j.patch)
	}
	if tree.Root(doc) == nil {
		return doc, nil // an empty document stays empty
	}
	typ, err := typeOf(j.schema, j.def, doc, "patch")
	if errors.Is(err, errNoSchema) && j.fallback {
		return mergepatch.Apply(doc, j.patch)
	}
	if err != nil {
		return nil, err
	}
	return smp.Apply(doc, j.patch, typ, smp.Options{ListOrder: j.order})
}

// errNoSchema marks a document kmerge has no schema for.
var errNoSchema = errors.New("no schema")

// typeOf returns the schema type of a document: def when a definition was
// named, else the type of its apiVersion and kind. verb says what the
// command does, for the message.
func typeOf(s *schema.Schema, def *schema.Type, doc *yaml.Node, verb string) (*schema.Type, error) {
	if def != nil {
		return def, nil
	}
	root := tree.Root(doc)
	apiVersion, kind := scalarField(root, "apiVersion"), scalarField(root, "kind")
	if kind == "" {
		return nil, fmt.Errorf("%w: the document has no kind; to %s a document that is not a Kubernetes object, name its schema with --definition, or use --type merge", errNoSchema, verb)
	}
	if t := s.Kind(apiVersion, kind); t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("%w for %s %s: pass its CustomResourceDefinition or an OpenAPI document with --schema, or use --type merge (or --fallback merge)", errNoSchema, apiVersion, kind)
}

func scalarField(m *yaml.Node, key string) string {
	v := tree.MapGet(m, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}

// docError names the patch position, the document path and the document.
func docError(err error, patchName, file string, i, n int, doc *yaml.Node) error {
	where := file
	if n > 1 {
		where = fmt.Sprintf("%s (document %d of %d)", file, i+1, n)
	}
	root := tree.Root(doc)
	if k := scalarField(root, "kind"); k != "" {
		what := scalarField(root, "apiVersion") + " " + k
		if name := scalarField(tree.MapGet(root, "metadata"), "name"); name != "" {
			what += " " + name
		}
		where += ", " + strings.TrimSpace(what)
	}
	var se *smp.Error
	if errors.As(err, &se) {
		pos := tree.Position{File: patchName, Line: se.Line, Column: se.Column}
		return fmt.Errorf("%s%s\n  while patching %s", pos, se.Error(), where)
	}
	return fmt.Errorf("%s\n  while patching %s", err, where)
}
