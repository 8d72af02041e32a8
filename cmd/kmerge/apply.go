package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/internal/linediff"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

type applyOptions struct {
	files          []string
	patches        []string
	valueFiles     []string
	sets           []string
	features       []string
	schemas        []string
	outDir         string
	strict         bool
	diff           bool
	failOnConflict bool
	debug          bool
	listOrder      string
}

func (o *applyOptions) flags(cmd *cobra.Command, output bool) {
	f := cmd.Flags()
	f.StringArrayVarP(&o.files, "filename", "f", nil, "manifests: a file, a folder (read recursively) or - for standard input (repeatable)")
	f.StringArrayVarP(&o.patches, "patch", "p", nil, "patches: a .kpatch file, a YAML patch list, or a folder of them (repeatable)")
	f.StringArrayVar(&o.valueFiles, "values", nil, "YAML file of ${values.*} variables (repeatable; later files win)")
	f.StringArrayVar(&o.sets, "set", nil, "a variable: values.NAME=VALUE (or NAME=VALUE); VALUE typed as YAML (repeatable)")
	f.StringArrayVar(&o.features, "feature", nil, "a feature flag: NAME=true|false (repeatable)")
	f.StringArrayVar(&o.schemas, "schema", nil, "CustomResourceDefinition or OpenAPI v2/v3 document adding kinds (repeatable)")
	f.BoolVar(&o.strict, "strict", false, "a patch whose target or selector matches nothing is an error, not a warning")
	f.BoolVar(&o.debug, "debug", false, "trace every change to standard error (also KURE_DEBUG=1)")
	f.StringVar(&o.listOrder, "list-order", "spec", "order of lists with $setElementOrder in strategic patches: spec or upstream")
	if output {
		f.StringVarP(&o.outDir, "output-dir", "o", "", "write each input file to this folder under its own name, atomically, instead of standard output")
		f.BoolVar(&o.diff, "diff", false, "print a unified diff of each changed file instead of the result")
		f.BoolVar(&o.failOnConflict, "fail-on-conflict", false, "refuse to write anything when two patches conflict")
	}
}

func newApplyCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &applyOptions{}
	cmd := &cobra.Command{
		Use:   "apply -f PATH... -p PATH... [flags]",
		Short: "Apply .kpatch files and patch lists to folders of manifests, keeping every untouched byte",
		Long: `Apply patches to a set of manifests and print the result (or write it with -o).

Manifests come from files, folders (recursively: .yaml, .yml, .json) and standard
input. Patches come from .kpatch files (sections of field assignments) and YAML
patch lists (field, strategic and merge patches); see docs/kpatch.md. Strategic
and merge patches are applied first, then field patches, each in the order of
the files given and of their place in each file.

Documents no patch touches come out byte for byte as they went in; in patched
documents only the changed lines differ.

A patch whose target matches nothing is a warning (an error with --strict).
Patches that conflict (two values for one field, a delete against a set, a
strategic patch and a field patch on one path) are reported on standard error;
with --fail-on-conflict nothing is written.`,
		Example: `  # the example: a base of manifests, overrides in both formats, variables
  kmerge apply -f examples/base -p examples/overrides --values examples/values.yaml

  # as a Helm post-renderer: manifests on standard input, result on standard output
  helm template my-release chart/ --post-renderer ./render.sh   # render.sh: kmerge apply -f - -p overrides/

  # what would change
  kmerge apply -f manifests/ -p patches/ --diff

  # write next to the input names, atomically
  kmerge apply -f manifests/ -p patches/ -o out/`,
		Args: noArgs("apply"),
		RunE: func(_ *cobra.Command, _ []string) error {
			return runApply(o, stdin, stdout, stderr, false)
		},
	}
	o.flags(cmd, true)
	return cmd
}

func newCheckCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &applyOptions{}
	cmd := &cobra.Command{
		Use:   "check -f PATH... -p PATH... [flags]",
		Short: "List conflicting patches (exit 1 when there are any)",
		Long: `Apply the patches as kmerge apply does, without writing anything, and list the
conflicts between them: two patches that set one field to different values, a
delete against a set, a strategic or merge patch and a field patch touching one
path. Each conflict names both patches by file:line. Exit 1 when there are any.`,
		Example: `  kmerge check -f examples/base -p examples/overrides --values examples/values.yaml`,
		Args:    noArgs("check"),
		RunE: func(_ *cobra.Command, _ []string) error {
			return runApply(o, stdin, stdout, stderr, true)
		},
	}
	o.flags(cmd, false)
	return cmd
}

func noArgs(cmd string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("%s takes no arguments, got %q: give manifests with -f and patches with -p", cmd, args)
		}
		return nil
	}
}

// errConflicts is returned when conflicts make the command fail; they have
// been printed already.
type errConflicts int

func (e errConflicts) Error() string {
	if e == 1 {
		return "1 conflict between patches"
	}
	return fmt.Sprintf("%d conflicts between patches", int(e))
}

func runApply(o *applyOptions, stdin io.Reader, stdout, stderr io.Writer, check bool) error {
	if len(o.files) == 0 {
		return usagef("give the manifests with -f (a file, a folder, or - for standard input)")
	}
	if len(o.patches) == 0 {
		return usagef("give the patches with -p (a .kpatch file, a YAML patch list, or a folder)")
	}
	if o.diff && o.outDir != "" {
		return usagef("--diff prints; -o writes: choose one")
	}
	order, err := smp.ParseListOrder(o.listOrder)
	if err != nil {
		return usageError{err}
	}
	s, err := loadSchemas(o.schemas)
	if err != nil {
		return err
	}
	vars := kpatch.NewVars()
	for _, f := range o.valueFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := vars.LoadValues(data, f); err != nil {
			return err
		}
	}
	for _, kv := range o.sets {
		if err := vars.Set(kv); err != nil {
			return usageError{err}
		}
	}
	for _, f := range o.features {
		if err := vars.SetFeatureText(f); err != nil {
			return usageError{err}
		}
	}
	patches, err := kpatch.Load(o.patches)
	if err != nil {
		return err
	}
	set, err := resource.Load(o.files, stdin, resource.LoadOptions{})
	if err != nil {
		return err
	}
	for _, src := range set.Sources {
		src.Stream.Snapshot() // output splices changes into the input text
	}
	rec := &conflict.Recorder{}
	opts := kpatch.Options{Schema: s, Vars: vars, Strict: o.strict, ListOrder: order, Record: rec}
	if o.debug || os.Getenv("KURE_DEBUG") == "1" || os.Getenv("KMERGE_DEBUG") == "1" {
		opts.Trace = stderr
	}
	res, err := kpatch.Apply(set, patches, opts)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "kmerge: %s\n", w)
	}
	conflicts := conflict.Find(rec.Effects())
	if check {
		// the report is the command's output
		for _, c := range conflicts {
			fmt.Fprintf(stdout, "conflict: %s\n", c)
		}
		if len(conflicts) > 0 {
			return errConflicts(len(conflicts))
		}
		fmt.Fprintf(stdout, "no conflicts: %s, %s\n", plural(len(patches), "patch", "patches"), plural(len(set.Resources), "object", "objects"))
		return nil
	}
	for _, c := range conflicts {
		fmt.Fprintf(stderr, "kmerge: conflict: %s\n", c)
	}
	if o.failOnConflict && len(conflicts) > 0 {
		return errConflicts(len(conflicts))
	}
	outputs, err := render(set, res.Touched, o.outDir != "")
	if err != nil {
		return err
	}
	switch {
	case o.diff:
		var b strings.Builder
		for i, src := range set.Sources {
			b.WriteString(linediff.Unified("a/"+src.Path, "b/"+src.Path,
				linediff.SplitLines(string(src.Input)), linediff.SplitLines(string(outputs[i])), 3))
		}
		_, err = io.WriteString(stdout, b.String())
		return err
	case o.outDir != "":
		return writeOutputs(o.outDir, set, outputs)
	}
	var b bytes.Buffer
	for i, out := range outputs {
		if i > 0 && len(out) > 0 && !bytes.HasPrefix(out, []byte("---")) {
			if b.Len() > 0 && !bytes.HasSuffix(b.Bytes(), []byte("\n")) {
				b.WriteByte('\n')
			}
			b.WriteString("---\n")
		}
		b.Write(out)
	}
	_, err = stdout.Write(b.Bytes())
	return err
}

// render writes each source, keeping untouched documents as they were. A
// source no patch touched is its input (a JSON file of several documents
// becomes YAML on one stream, where JSON texts could not follow each other).
// A touched JSON source is JSON with -o (keepFormat), YAML on a stream.
func render(set *resource.Set, touched []*resource.Resource, keepFormat bool) ([][]byte, error) {
	changed := map[*resource.Source]bool{}
	for _, r := range touched {
		changed[r.Source] = true
	}
	out := make([][]byte, len(set.Sources))
	for i, src := range set.Sources {
		copyInput := src.Stream.Format == tree.YAML || keepFormat || len(src.Stream.Docs) == 1
		if !changed[src] && copyInput {
			out[i] = src.Input
			continue
		}
		var b bytes.Buffer
		var err error
		if keepFormat && src.Stream.Format == tree.JSON {
			err = src.Stream.WriteJSON(&b)
		} else {
			err = src.Stream.WriteYAML(&b)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src.Path, err)
		}
		out[i] = b.Bytes()
	}
	return out, nil
}

// writeOutputs writes every output under dir by its input's relative name.
// All outputs are first written to temporary files next to their targets,
// then renamed into place, so that no file is ever half-written and a
// failure while writing leaves the folder as it was.
func writeOutputs(dir string, set *resource.Set, outputs [][]byte) error {
	from := map[string]string{}
	for _, src := range set.Sources {
		name := filepath.Join(dir, src.Rel)
		if prev, dup := from[name]; dup {
			return fmt.Errorf("-o %s: %s and %s would both be written to %s; give them in separate runs or from one folder", dir, prev, src.Path, name)
		}
		from[name] = src.Path
	}
	var temps []string
	defer func() {
		for _, t := range temps {
			os.Remove(t) // after a failure; renamed ones are gone already
		}
	}()
	for i, src := range set.Sources {
		name := filepath.Join(dir, src.Rel)
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		tmp, err := writeTemp(name, outputs[i])
		if err != nil {
			return err
		}
		temps = append(temps, tmp)
	}
	for i, src := range set.Sources {
		if err := os.Rename(temps[i], filepath.Join(dir, src.Rel)); err != nil {
			return err
		}
	}
	return nil
}

// writeTemp writes data to a new temporary file next to name and returns
// its path.
func writeTemp(name string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
