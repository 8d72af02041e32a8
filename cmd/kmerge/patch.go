package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

type patchOptions struct {
	filenames   []string
	patch       string
	patchFile   string
	patchType   string
	schemas     []string
	definition  string
	listOrder   string
	fallback    string
	output      string
	validate    string
	local       bool
	dryRun      string
	showSecrets bool
	limits      *limits
}

func newPatchCmd(stdin io.Reader, stdout, stderr io.Writer, inputs texts) *cobra.Command {
	o := &patchOptions{}
	cmd := &cobra.Command{
		Use:   "patch -f FILE... (-p PATCH | --patch-file FILE)",
		Short: "Apply one patch to every document of some files, like kubectl patch --local",
		Long: `Apply a strategic merge patch (default), a JSON merge patch or a JSON patch
to every document of the files -f gives and print the result. -f takes files,
folders (their .yaml, .yml and .json files, recursively) and - for standard
input, and may be repeated, as in kubectl; the results follow each other in
the order of the files, separated by --- lines. The items of a List (kind
List, or RoleList and the like) are the objects: each gets the patch.

-p is the patch itself, as in kubectl patch -p; --patch-file reads it from a
file. --local and --dry-run (none, client, server) are accepted as kubectl
users type them: kmerge never contacts a cluster.

The schema of a Kubernetes object comes from its apiVersion and kind: the
built-in table (every kind of k8s.io/api), or the CustomResourceDefinitions and
OpenAPI documents given with --schema. For documents that are not Kubernetes
objects, --definition names the schema definition to use.

Documents and patches may be YAML or JSON. The output has the input's format
unless -o says otherwise; YAML output keeps comments, key order and quoting.
With -o json, several files give JSON values one after another.

Every result is checked against its schema (--validate, strict by default): a
value the patch wrote that an API server would refuse (an object where an
integer belongs, a field the kind does not have, a quantity that does not
parse) is an error naming the patch line; see docs/validation.md.`,
		Example: `  # change the image of a container and add a variable
  kmerge patch -f examples/deployment.yaml --patch-file examples/deployment-patch.yaml

  # a patch on the command line, the document on stdin, JSON out
  cat examples/deployment.yaml | kmerge patch -f - -p '{"spec":{"replicas":5}}' -o json

  # every Deployment of a folder, as kubectl users type it
  kmerge patch --local -f manifests/ -p '{"spec":{"revisionHistoryLimit":3}}'  

  # a JSON patch (RFC 6902): a list of operations
  kmerge patch -f examples/deployment.yaml --type json -p '[{"op": "replace", "path": "/spec/replicas", "value": 5}]'

  # a custom resource, its schema from the CRD
  kmerge patch -f examples/widget.yaml --patch-file examples/widget-patch.yaml --schema examples/widget-crd.yaml

  # a document that is not a Kubernetes object, schema from an OpenAPI definition
  kmerge patch -f doc.json --patch-file patch.json --schema swagger.json --definition mergeItem`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("patch takes no arguments, got %q: give the files with -f", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			inputs["--patch"] = []byte(o.patch)
			return runPatch(o, stdin, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringArrayVarP(&o.filenames, "filename", "f", nil, "files to patch (YAML or JSON, one or more documents each), folders of them (recursively), - for standard input (repeatable)")
	f.StringVarP(&o.patch, "patch", "p", "", "the patch itself, YAML or JSON (a file: --patch-file)")
	f.StringVar(&o.patchFile, "patch-file", "", "file holding the patch, YAML or JSON")
	f.BoolVar(&o.local, "local", false, "accepted for kubectl's patch --local: kmerge always works on the files, never on a cluster")
	f.StringVar(&o.dryRun, "dry-run", "none", "accepted for kubectl's patch --dry-run (none, client or server): kmerge never changes a cluster, so every run is a dry run")
	f.Lookup("dry-run").NoOptDefVal = "client" // --dry-run alone, as kubectl once took it
	f.StringVar(&o.patchType, "type", "strategic", "patch type: strategic, merge (JSON merge patch, RFC 7396) or json (JSON patch, RFC 6902)")
	f.StringArrayVar(&o.schemas, "schema", nil, "CustomResourceDefinition or OpenAPI v2/v3 document adding kinds and definitions (repeatable)")
	f.StringVar(&o.definition, "definition", "", "schema definition for documents that are not Kubernetes objects (e.g. mergeItem)")
	f.StringVar(&o.listOrder, "list-order", "spec", "order of lists with $setElementOrder: spec (the specification) or upstream (exactly as k8s.io/apimachinery)")
	f.StringVar(&o.fallback, "fallback", "", "merge: patch kinds without a schema with JSON merge patch semantics instead of failing")
	f.StringVarP(&o.output, "output", "o", "", "output format: yaml or json (default: the input's)")
	addValidateFlag(cmd, &o.validate)
	addShowSecretsFlag(cmd, &o.showSecrets)
	o.limits = newLimits()
	o.limits.addFlag(f)
	return cmd
}

func runPatch(o *patchOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	opts := kmerge.PatchOptions{Limits: &o.limits.Limits, Thorough: thorough(), ShowSecrets: o.showSecrets}
	mode, err := parseValidate(o.validate)
	if err != nil {
		return err
	}
	opts.Validate = mode
	opts.Warn = func(e *validate.Error) { warnInvalid(stderr, e) }
	opts.Notify = func(w tree.Warning) { fmt.Fprintf(stderr, "kmerge: %s\n", w) }
	deleted := 0
	opts.Deleted = func(pos tree.Position, object string) {
		deleted++
		fmt.Fprintf(stderr, "kmerge: %sdeleted %s ($patch: delete)\n", pos, object)
	}
	switch o.dryRun {
	case "none", "client", "server":
	default:
		return usagef("--dry-run=%s: kubectl takes none, client or server (kmerge patch accepts them all, and never changes a cluster)", o.dryRun)
	}
	if len(o.filenames) == 0 {
		return usagef("patch needs the files to patch: -f FILE (or a folder, or -f - for standard input)")
	}
	switch {
	case o.patch == "" && o.patchFile == "":
		return usagef("patch needs a patch: -p PATCH or --patch-file FILE")
	case o.patch != "" && o.patchFile != "":
		return usagef("give the patch once: -p or --patch-file, not both")
	}
	if err := checkInlinePatch(o.patch); err != nil {
		return err
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
	if err := checkPaths("-f", o.filenames...); err != nil {
		return err
	}
	if err := checkPaths("--patch-file", o.patchFile); err != nil {
		return err
	}
	if err := checkPaths("--schema", o.schemas...); err != nil {
		return err
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
		if patch, err = readfile.Given(o.patchFile, &o.limits.Limits); err != nil {
			return err
		}
		patchName = o.patchFile
	}
	var files []string
	given := map[int]bool{} // the files named, not found in a folder: may be pipes
	for _, f := range o.filenames {
		found, err := resource.Files([]string{f})
		if err != nil {
			return err
		}
		if len(found) == 1 && found[0] == f {
			given[len(files)] = true
		}
		files = append(files, found...)
	}
	var outs [][]byte
	in := &inputReader{stdin: stdin, limits: &o.limits.Limits}
	for i, name := range files {
		doc, docName, err := in.readInput(name, given[i])
		if err != nil {
			return err
		}
		if resource.IsKustomizationFile(doc, name) {
			continue // not a manifest: left out, as apply leaves it out
		}
		opts.DocName, opts.PatchName = docName, patchName
		res, err := kmerge.Patch(context.Background(), doc, patch, opts)
		if err != nil {
			return withSchemaAdvice(err, "patch")
		}
		outs = append(outs, res)
	}
	if deletes, at := deletePatch(patch, patchName, opts.Type); deletes {
		// a patch that deletes objects: said when it deleted nothing, and
		// when nothing is left to print (an empty output is easily taken
		// for a failure, or for the file as it was)
		switch {
		case deleted == 0:
			fmt.Fprintf(stderr, "kmerge: %s\n", tree.Warning{Pos: at, Msg: "the patch deletes objects ($patch: delete), and no object is the one it names; nothing deleted"})
		case allDeleted(outs):
			fmt.Fprintf(stderr, "kmerge: %s\n", tree.Warning{Pos: at, Msg: fmt.Sprintf("the patch ($patch: delete) deleted every object (%d); the output is empty", deleted)})
		}
	}
	if o.output == "json" {
		_, err = stdout.Write(bytes.Join(outs, nil)) // JSON texts, one after another
	} else {
		_, err = stdout.Write(tree.JoinStreams(outs...))
	}
	return err
}

// addValidateFlag adds --validate, the same in every command.
func addValidateFlag(cmd *cobra.Command, v *string) {
	cmd.Flags().StringVar(v, "validate", "strict", "check results against their schemas: strict (a value a patch wrote that the schema refuses is an error), warn (a warning), none")
}

// addShowSecretsFlag adds --show-secrets, the same in every command that
// prints values for people, and kubectl diff's name for it, --show-secret,
// hidden.
func addShowSecretsFlag(cmd *cobra.Command, v *bool) {
	f := cmd.Flags()
	f.BoolVar(v, "show-secrets", false, "show the values of Secrets (data, stringData) in clear in diffs, the trace and messages; by default they are ***")
	f.BoolVar(v, "show-secret", false, "kubectl diff's name of --show-secrets")
	f.MarkHidden("show-secret") //nolint:errcheck // the flag exists
}

func parseValidate(s string) (validate.Mode, error) {
	m, err := validate.ParseMode(s)
	if err != nil {
		return m, usagef("--validate: %v", err)
	}
	return m, nil
}

// inputReader reads the files of a command, and standard input for "-"
// (named "<stdin>"), at most once, refusing more bytes than the limit. A
// file given on the command line may be a pipe, one found in a folder
// must be a regular file (readfile.Read).
type inputReader struct {
	stdin  io.Reader
	limits *tree.Limits
	read   bool // standard input was read
}

func (in *inputReader) readInput(name string, given bool) ([]byte, string, error) {
	if name != "-" {
		data, err := readfile.Read(name, in.limits, given)
		return data, name, err
	}
	if in.read {
		return nil, "", usagef("- is given twice: standard input can be read once")
	}
	in.read = true
	data, err := tree.ReadInput(in.stdin, "<stdin>", in.limits)
	return data, "<stdin>", err
}

// deletePatch reports whether a patch is a strategic patch whose top level
// is $patch: delete, and where its top level is.
func deletePatch(patch []byte, name string, typ kmerge.PatchType) (bool, tree.Position) {
	if typ != kmerge.Strategic {
		return false, tree.Position{}
	}
	st, err := tree.Read(patch, tree.Options{File: name})
	if err != nil || len(st.Docs) != 1 {
		return false, tree.Position{}
	}
	root := tree.Root(st.Docs[0])
	d := tree.MapGet(root, "$patch")
	if d == nil || d.Value != "delete" {
		return false, tree.Position{}
	}
	return true, tree.Position{File: name, Line: root.Line, Column: root.Column}
}

// allDeleted reports whether the outputs hold no document at all.
func allDeleted(outs [][]byte) bool {
	for _, o := range outs {
		if len(bytes.TrimSpace(o)) > 0 {
			return false
		}
	}
	return true
}
