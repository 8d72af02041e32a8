package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

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
			if o.definition == "" && (len(args) < 1 || len(args) > 2) {
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
	s, err := loadSchemas(o.schemas)
	if err != nil {
		return err
	}
	var root *schema.Type
	var head []string // header lines
	var path []string
	if o.definition != "" {
		if root, err = s.Definition(o.definition); err != nil {
			return usagef("--definition: %v", err)
		}
		head = append(head, "DEFINITION:\t"+root.Name)
		if len(args) == 1 {
			path = splitPath(args[0])
		}
	} else {
		words := splitPath(args[0])
		if len(args) == 2 {
			words = append(words, splitPath(args[1])...)
		}
		gvk, t, rest, err := findKind(s, words, o.apiVersion)
		if err != nil {
			return err
		}
		root, path = t, rest
		head = append(head, "KIND:\t"+gvk.Kind, "VERSION:\t"+gvk.APIVersion())
	}
	head = append(head, "SOURCE:\t"+source(root))

	var field *schema.Field
	t := root
	for i, name := range path {
		t = itemsOf(t)
		if t != nil && t.Kind == schema.Map && t.Fields() == nil {
			t = t.Elem // a key of a map
			field = nil
			continue
		}
		f := t.Field(name)
		if f == nil {
			return fmt.Errorf("%s has no field %q%s", pathName(path[:i]), name, suggest(t, name))
		}
		field, t = f, f.Type
	}
	var b bytes.Buffer
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, h := range head {
		fmt.Fprintln(w, h)
	}
	if len(path) > 0 {
		fmt.Fprintf(w, "PATH:\t%s\n", strings.Join(path, "."))
	}
	if field != nil {
		fmt.Fprintf(w, "\nFIELD:\t%s <%s>\n", field.Name, explain.TypeName(field.Type))
		for _, line := range explain.Details(field) {
			fmt.Fprintln(w, line)
		}
	}
	if fs := itemsOf(t).Fields(); len(fs) > 0 {
		fmt.Fprintf(w, "\nFIELDS:\n")
		for _, f := range fs {
			fmt.Fprintf(w, "  %s\t<%s>\t%s\n", f.Name, explain.TypeName(f.Type), explain.Summary(f))
		}
	}
	w.Flush()
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err = io.WriteString(stdout, strings.Join(lines, "\n"))
	return err
}

func splitPath(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ".")
}

func pathName(p []string) string {
	if len(p) == 0 {
		return "the kind"
	}
	return strings.Join(p, ".")
}

// itemsOf looks through lists to their items.
func itemsOf(t *schema.Type) *schema.Type {
	for t != nil && t.Kind == schema.List {
		t = t.Elem
	}
	return t
}

func source(t *schema.Type) string {
	if t == nil || t.Source == "" {
		return "unknown"
	}
	return t.Source
}

func suggest(t *schema.Type, name string) string {
	var names []string
	for _, f := range t.Fields() {
		if strings.EqualFold(f.Name, name) || strings.Contains(strings.ToLower(f.Name), strings.ToLower(name)) {
			names = append(names, f.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(names, ", ") + "?"
}

// findKind finds the kind the first words name: "deployment" or
// "deployment.apps" (kind.group, the group's words following), preferring
// like kubectl (schema.SortPreferred). It returns the remaining words as
// the path.
func findKind(s *schema.Schema, words []string, apiVersion string) (schema.GroupVersionKind, *schema.Type, []string, error) {
	var matches []schema.GroupVersionKind
	used := 1
	for _, gvk := range s.FindKinds(words[0]) {
		if apiVersion == "" || gvk.APIVersion() == apiVersion {
			matches = append(matches, gvk)
		}
	}
	if len(matches) == 0 {
		return schema.GroupVersionKind{}, nil, nil, fmt.Errorf("no kind named %q%s: pass its CRD or OpenAPI document with --schema", words[0], versionNote(apiVersion))
	}
	// kind.group: the longest run of following words that qualifies it
	for n := len(words); n >= 2; n-- {
		qualified := strings.Join(words[:n], ".")
		var in []schema.GroupVersionKind
		for _, gvk := range matches {
			if s.NameMatches(qualified, gvk) {
				in = append(in, gvk)
			}
		}
		if len(in) > 0 {
			matches, used = in, n
			break
		}
	}
	gvk := matches[0]
	for _, other := range matches[1:] {
		if other.Group != gvk.Group && other.Version == gvk.Version && (gvk.Group == "") == (other.Group == "") {
			return schema.GroupVersionKind{}, nil, nil, fmt.Errorf("kind %q is in groups %s and %s: name one (%s.%s)", words[0], gvk.Group, other.Group, words[0], gvk.Group)
		}
	}
	return gvk, s.Kind(gvk.APIVersion(), gvk.Kind), words[used:], nil
}

func versionNote(apiVersion string) string {
	if apiVersion == "" {
		return ""
	}
	return " in " + apiVersion
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
