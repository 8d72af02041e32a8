package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/internal/explain"
	"github.com/kmerge/kmerge/schema"
)

type explainOptions struct {
	schemas    []string
	apiVersion string
	definition string
}

func newExplainCmd(stdout io.Writer) *cobra.Command {
	o := &explainOptions{}
	cmd := &cobra.Command{
		ValidArgsFunction: completeKinds,
		Use:               "explain KIND[.path] | explain --definition NAME [path]",
		Short:             "Show how a patch treats a field: strategy, merge key, list type, and where that comes from",
		Long: `Show, for a kind or one of its fields, how a strategic merge patch treats it:
whether objects merge or are replaced, whether lists merge and by which key,
the recommended merge keys a patch can send with $patchMergeKey, server-side
apply's list type, and which schema said so (built-in table, CRD or OpenAPI file).

KIND is a kind name in any letter case (deployment), optionally with its
group (deployment.apps) or followed by --api-version. The path walks through
lists to their items: spec.template.spec.containers.ports.`,
		Example: `  # why was my list replaced?
  kmerge explain deployment spec.template.spec.containers.ports
  kmerge explain deployment.apps.spec.template.spec.tolerations

  # a custom resource
  kmerge explain widget.spec.parts --schema examples/widget-crd.yaml

  # a definition of an OpenAPI document
  kmerge explain --schema swagger.json --definition mergeItem mergingList`,
		Args: func(_ *cobra.Command, args []string) error {
			if o.definition == "" && (len(args) < 1 || len(args) > 2 || args[0] == "") {
				return usagef("explain needs KIND[.path] (and optionally a path as a second argument)")
			}
			if o.definition != "" && len(args) > 1 {
				return usagef("with --definition, explain takes at most a path")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			return runExplain(o, args, stdout)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.schemas, "schema", nil, "CustomResourceDefinition or OpenAPI v2/v3 document adding kinds and definitions (repeatable)")
	f.StringVar(&o.apiVersion, "api-version", "", "the group/version of KIND when it has several (apps/v1)")
	f.StringVar(&o.definition, "definition", "", "explain a schema definition instead of a kind")
	return cmd
}

func loadSchemas(files []string) (*schema.Schema, error) {
	s, err := kmerge.LoadSchemas(files)
	if err != nil {
		return nil, fmt.Errorf("--schema %w", err)
	}
	return s, nil
}

func runExplain(o *explainOptions, args []string, stdout io.Writer) error {
	if err := checkPaths("--schema", o.schemas...); err != nil {
		return err
	}
	s, err := loadSchemas(o.schemas)
	if err != nil {
		return err
	}
	var out string
	if o.definition != "" {
		def, derr := s.Definition(o.definition)
		if derr != nil {
			return usagef("--definition: %v", derr)
		}
		var path []string
		if len(args) == 1 {
			if path, err = explain.Split(args[0]); err != nil {
				return usageError{err}
			}
		}
		out, err = explain.Definition(def, path)
	} else {
		words, serr := explain.Split(args[0])
		if serr != nil {
			return usageError{serr}
		}
		if len(args) == 2 {
			more, serr := explain.Split(args[1])
			if serr != nil {
				return usageError{serr}
			}
			words = append(words, more...)
		}
		out, err = explain.Kind(s, words, o.apiVersion)
	}
	var uk *explain.UnknownKindError
	if errors.As(err, &uk) {
		return advised{err, "a custom resource's kind comes from its CRD or OpenAPI document: pass it with --schema"}
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, out)
	return err
}

// completeKinds completes the first argument of explain with the kinds of
// the built-in schema, in lower case as they are usually typed.
func completeKinds(_ *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 || strings.Contains(prefix, ".") {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	seen := map[string]bool{}
	var out []string
	for _, gvk := range schema.Builtin().Kinds() {
		k := strings.ToLower(gvk.Kind)
		if strings.HasPrefix(k, strings.ToLower(prefix)) && !strings.HasSuffix(k, "list") && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
