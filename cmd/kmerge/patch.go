package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
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
	validate   string
	limits     *limits
}

func newPatchCmd(stdin io.Reader, stdout, stderr io.Writer, inputs texts) *cobra.Command {
	o := &patchOptions{}
	cmd := &cobra.Command{
		Use:   "patch -f FILE (-p PATCH | --patch-file FILE)",
		Short: "Apply one patch to every document of a file, like kubectl patch --local",
		Long: `Apply a strategic merge patch (default), a JSON merge patch or a JSON patch
to every document of FILE and print the result.

The schema of a Kubernetes object comes from its apiVersion and kind: the
built-in table (every kind of k8s.io/api), or the CustomResourceDefinitions and
OpenAPI documents given with --schema. For documents that are not Kubernetes
objects, --definition names the schema definition to use.

Documents and patches may be YAML or JSON. The output has the input's format
unless -o says otherwise; YAML output keeps comments, key order and quoting.

Every result is checked against its schema (--validate, strict by default): a
value the patch wrote that an API server would refuse (an object where an
integer belongs, a field the kind does not have, a quantity that does not
parse) is an error naming the patch line; see docs/validation.md.`,
		Example: `  # change the image of a container and add a variable
  kmerge patch -f examples/deployment.yaml --patch-file examples/deployment-patch.yaml

  # a patch on the command line, the document on stdin, JSON out
  cat examples/deployment.yaml | kmerge patch -f - -p '{"spec":{"replicas":5}}' -o json

  # a JSON patch (RFC 6902): a list of operations
  kmerge patch -f examples/deployment.yaml --type json -p '[{"op": "replace", "path": "/spec/replicas", "value": 5}]'

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
			inputs["--patch"] = []byte(o.patch)
			return runPatch(o, stdin, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.filename, "filename", "f", "", "file to patch (YAML or JSON, one or more documents); - reads standard input")
	f.StringVarP(&o.patch, "patch", "p", "", "the patch, YAML or JSON")
	f.StringVar(&o.patchFile, "patch-file", "", "file holding the patch, YAML or JSON")
	f.StringVar(&o.patchType, "type", "strategic", "patch type: strategic, merge (JSON merge patch, RFC 7396) or json (JSON patch, RFC 6902)")
	f.StringArrayVar(&o.schemas, "schema", nil, "CustomResourceDefinition or OpenAPI v2/v3 document adding kinds and definitions (repeatable)")
	f.StringVar(&o.definition, "definition", "", "schema definition for documents that are not Kubernetes objects (e.g. mergeItem)")
	f.StringVar(&o.listOrder, "list-order", "spec", "order of lists with $setElementOrder: spec (the specification) or upstream (exactly as k8s.io/apimachinery)")
	f.StringVar(&o.fallback, "fallback", "", "merge: patch kinds without a schema with JSON merge patch semantics instead of failing")
	f.StringVarP(&o.output, "output", "o", "", "output format: yaml or json (default: the input's)")
	addValidateFlag(cmd, &o.validate)
	o.limits = newLimits()
	o.limits.addFlag(f)
	return cmd
}

func runPatch(o *patchOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	opts := kmerge.PatchOptions{Limits: &o.limits.Limits}
	mode, err := parseValidate(o.validate)
	if err != nil {
		return err
	}
	opts.Validate = mode
	opts.Warn = func(e *validate.Error) { warnInvalid(stderr, e) }
	if o.filename == "" {
		return usagef("patch needs the file to patch: -f FILE (or -f - for standard input)")
	}
	switch {
	case o.patch == "" && o.patchFile == "":
		return usagef("patch needs a patch: -p PATCH or --patch-file FILE")
	case o.patch != "" && o.patchFile != "":
		return usagef("give the patch once: -p or --patch-file, not both")
	}
	switch o.patchType {
	case "strategic":
	case "merge":
		opts.Type = kmerge.Merge
	case "json":
		opts.Type = kmerge.JSON
	default:
		return usagef("--type %q: use strategic, merge or json", o.patchType)
	}
	order, err := smp.ParseListOrder(o.listOrder)
	if err != nil {
		return usageError{err}
	}
	opts.ListOrder = order
	switch o.fallback {
	case "":
	case "merge":
		opts.Fallback = true
	default:
		return usagef("--fallback %q: the only fallback is merge", o.fallback)
	}
	switch o.output {
	case "":
	case "yaml":
		f := tree.YAML
		opts.Output = &f
	case "json":
		f := tree.JSON
		opts.Output = &f
	default:
		return usagef("-o %q: use yaml or json", o.output)
	}
	if opts.Schema, err = loadSchemas(o.schemas); err != nil {
		return err
	}
	if o.definition != "" {
		if opts.Definition, err = opts.Schema.Definition(o.definition); err != nil {
			return usagef("--definition: %v", err)
		}
	}
	patch, patchName := []byte(o.patch), "--patch"
	if o.patchFile != "" {
		if patch, err = tree.ReadFile(o.patchFile, &o.limits.Limits); err != nil {
			return err
		}
		patchName = o.patchFile
	}
	doc, docName, err := readInput(o.filename, stdin, &o.limits.Limits)
	if err != nil {
		return err
	}
	opts.DocName, opts.PatchName = docName, patchName
	out, err := kmerge.Patch(doc, patch, opts)
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}

// addValidateFlag adds --validate, the same in every command.
func addValidateFlag(cmd *cobra.Command, v *string) {
	cmd.Flags().StringVar(v, "validate", "strict", "check results against their schemas: strict (a value a patch wrote that the schema refuses is an error), warn (a warning), none")
}

func parseValidate(s string) (validate.Mode, error) {
	m, err := validate.ParseMode(s)
	if err != nil {
		return m, usagef("--validate: %v", err)
	}
	return m, nil
}

// readInput reads a file, or standard input for "-" (named "<stdin>"),
// refusing more bytes than the limit.
func readInput(name string, stdin io.Reader, limits *tree.Limits) ([]byte, string, error) {
	if name == "-" {
		data, err := tree.ReadInput(stdin, "<stdin>", limits)
		return data, "<stdin>", err
	}
	data, err := tree.ReadFile(name, limits)
	return data, name, err
}
