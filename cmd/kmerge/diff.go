package main

import (
	"context"
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge"
)

type diffOptions struct {
	current     string
	overwrite   bool
	extended    bool
	patchType   string
	schemas     []string
	definition  string
	fallback    string
	output      string
	showSecrets bool
	limits      *limits
}

func newDiffCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
	o := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff ORIGINAL MODIFIED [--current LIVE]",
		Short: "Print the patch that turns ORIGINAL into MODIFIED (two-way), or that kubectl apply sends (three-way)",
		Long: `Print the strategic merge patch that turns ORIGINAL into MODIFIED, exactly as
Kubernetes' CreateTwoWayMergePatch computes it.

With --current, print the three-way patch kubectl apply sends: ORIGINAL is the
last-applied configuration, MODIFIED the new one, LIVE the object as it is now.
The patch makes LIVE what MODIFIED says, deletes what ORIGINAL had and MODIFIED
does not, and keeps what others added. Unless --overwrite, a patch that would
undo a change made to LIVE since ORIGINAL is refused: kmerge prints each
conflicting path and exits 1.

With --type merge, the patches are JSON merge patches (RFC 7396), as kubectl
computes them for kinds without a strategic schema (custom resources):
CreateMergePatch two-way, CreateThreeWayJSONMergePatch with --current, with
the same refusal unless --overwrite. --fallback merge does this only for the
kinds that have no schema.

Files with several documents are paired by apiVersion, kind, namespace and
name (or by position for documents that are not Kubernetes objects); each
patch is printed after a comment naming its object.`,
		Example: `  # what patch turns the example Deployment into the patched one?
  kmerge patch -f examples/deployment.yaml --patch-file examples/deployment-patch.yaml > /tmp/new.yaml
  kmerge diff examples/deployment.yaml /tmp/new.yaml

  # kubectl apply's patch, refusing to undo changes made on the cluster
  kmerge diff last-applied.yaml new.yaml --current live.yaml

  # kubectl apply's JSON merge patch for a custom resource
  kmerge diff last-applied.yaml new.yaml --current live.yaml --type merge

  # a patch that merges Service ports by port and protocol (for kmerge, not API servers)
  kmerge diff old.yaml new.yaml --extended`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("diff needs ORIGINAL and MODIFIED, two versions of a document, and makes the patch from one to the other; to see what patch files change in manifests, use kmerge apply --diff")
			}
			if len(args) != 2 {
				return usagef("diff needs ORIGINAL and MODIFIED, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			return runDiff(o, args[0], args[1], stdin, stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.current, "current", "", "the live object: print the three-way patch kubectl apply sends")
	f.BoolVar(&o.overwrite, "overwrite", false, "with --current: never refuse, let the patch undo changes made to the live object")
	f.BoolVar(&o.extended, "extended", false, "items of lists with recommended merge keys carry $patchMergeKey (kmerge extension)")
	f.StringVar(&o.patchType, "type", "strategic", "patch type: strategic or merge (RFC 7396)")
	f.StringArrayVar(&o.schemas, "schema", nil, "CustomResourceDefinition or OpenAPI v2/v3 document adding kinds and definitions (repeatable)")
	f.StringVar(&o.definition, "definition", "", "schema definition for documents that are not Kubernetes objects")
	f.StringVar(&o.fallback, "fallback", "", "merge: diff kinds without a schema as JSON merge patches instead of failing")
	f.StringVarP(&o.output, "output", "o", "yaml", "output format: yaml or json")
	addShowSecretsFlag(cmd, &o.showSecrets)
	o.limits = newLimits()
	o.limits.addFlag(f)
	return cmd
}

func runDiff(o *diffOptions, origName, modName string, stdin io.Reader, stdout io.Writer) error {
	opts := kmerge.DiffOptions{Limits: &o.limits.Limits, Overwrite: o.overwrite, Extended: o.extended, Fallback: o.fallback == "merge", JSON: o.output == "json", ShowSecrets: o.showSecrets}
	switch {
	case o.patchType != "strategic" && o.patchType != "merge":
		return usagef("--type %q: use strategic or merge", o.patchType)
	case o.output != "yaml" && o.output != "json":
		return usagef("-o %q: use yaml or json", o.output)
	case o.fallback != "" && o.fallback != "merge":
		return usagef("--fallback %q: the only fallback is merge", o.fallback)
	case o.overwrite && o.current == "":
		return usagef("--overwrite needs --current")
	case o.patchType == "merge" && o.extended:
		return usagef("--extended is for strategic patches")
	}
	if o.patchType == "merge" {
		opts.Type = kmerge.Merge
	}
	for _, c := range [][2]string{{"ORIGINAL", origName}, {"MODIFIED", modName}, {"--current", o.current}} {
		if err := checkPaths(c[0], c[1]); err != nil {
			return err
		}
	}
	if err := checkPaths("--schema", o.schemas...); err != nil {
		return err
	}
	var err error
	if opts.Schema, err = loadSchemas(o.schemas); err != nil {
		return err
	}
	if o.definition != "" {
		if opts.Definition, err = opts.Schema.Definition(o.definition); err != nil {
			return usagef("--definition: %v", err)
		}
	}
	names := []string{origName, modName}
	if o.current != "" {
		names = append(names, o.current)
	}
	in := &inputReader{stdin: stdin, limits: &o.limits.Limits}
	var inputs [][]byte
	for i, n := range names {
		data, name, err := in.readInput(n, true)
		if err != nil {
			return err
		}
		inputs = append(inputs, data)
		opts.Names[i] = name
	}
	if len(inputs) == 3 {
		opts.Current = inputs[2]
	}
	out, err := kmerge.Diff(context.Background(), inputs[0], inputs[1], opts)
	var dce *kmerge.DiffConflictError
	switch {
	case errors.As(err, &dce):
		return advised{err, "use --overwrite to apply it anyway"}
	case err != nil:
		return withSchemaAdvice(err, "diff")
	}
	_, err = stdout.Write(out)
	return err
}
