package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/suggest"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/project"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/serverside"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/ssa"
	"github.com/kmerge/kmerge/validate"
)

type applyOptions struct {
	files          []string
	patches        []string
	valueFiles     []string
	sets           []string
	features       []string
	schemas        []string
	output         string // -o: yaml or json (or, deprecated, a folder)
	outDir         string
	strict         bool
	diff           bool
	exitCode       bool
	failOnConflict bool
	debug          bool
	listOrder      string
	color          string
	validate       string
	project        string
	loadRestrictor string
	showSecrets    bool
	serverSide     bool                // --server-side
	fieldManager   string              // --field-manager
	forceConflicts bool                // --force-conflicts
	live           []string            // --live
	blame          bool                // the command is blame: --live shows owners, alone too
	ss             *serverside.Options // read by load: a server-side run, or nil
	limits         *limits
	lock           *kmerge.DirLock         // of outDir, while the run lasts
	order          smp.ListOrder           // --list-order, read by prepare
	restrictions   kpatch.LoadRestrictions // --load-restrictor, read by prepare
	mode           validate.Mode           // --validate, read by prepare
	// changed reports whether a flag was given (the project file fills
	// in the others)
	changed func(name string) bool
}

func (o *applyOptions) flags(cmd *cobra.Command, output bool) {
	f := cmd.Flags()
	f.StringArrayVarP(&o.files, "filename", "f", nil, "manifests: a file, a folder (read recursively) or - for standard input (repeatable)")
	f.VarP(paths{&o.patches}, "patches", "p", "patch files: a .kpatch file, a YAML patch list, a kustomize overlay (its patches), or a folder of them (repeatable)")
	f.Var(paths{&o.patches}, "patch", "the old name of --patches")
	f.MarkHidden("patch") //nolint:errcheck // the flag exists; checkFlags warns when it is used
	f.StringArrayVar(&o.valueFiles, "values", nil, "YAML file of ${values.*} variables (repeatable; later files win)")
	f.StringArrayVar(&o.sets, "set", nil, "a variable: values.NAME=VALUE (or NAME=VALUE); VALUE typed as YAML (repeatable)")
	f.StringArrayVar(&o.features, "feature", nil, "a feature flag: NAME=true|false (repeatable)")
	f.StringArrayVar(&o.schemas, "schema", nil, "CustomResourceDefinition or OpenAPI v2/v3 document adding kinds (repeatable)")
	f.BoolVar(&o.strict, "strict", false, "a patch whose target or selector matches nothing is an error, not a warning (and so is a file of an overlay that nothing reads)")
	f.BoolVar(&o.debug, "debug", false, "trace every change to standard error (also KURE_DEBUG=1)")
	f.StringVar(&o.listOrder, "list-order", "spec", "order of lists with $setElementOrder in strategic patches: spec or upstream")
	f.StringVar(&o.loadRestrictor, "load-restrictor", kpatch.RootOnlyName, "which files a kustomization among the patches may name, as kustomize's flag: "+kpatch.RootOnlyName+" (in or below its folder, links followed) or "+kpatch.NoRestrictionsName+" (any regular file)")
	addValidateFlag(cmd, &o.validate)
	addShowSecretsFlag(cmd, &o.showSecrets)
	f.StringVar(&o.project, "project", "", "the project file (or its folder); by default "+project.FileName+" in the current folder or a parent, read when -f or -p is missing")
	o.limits = newLimits()
	o.limits.addFlag(f)
	cmd.MarkFlagFilename("filename", "yaml", "yml", "json")          //nolint:errcheck // the flag exists
	cmd.MarkFlagFilename("patches", "kpatch", "yaml", "yml", "json") //nolint:errcheck
	cmd.MarkFlagFilename("values", "yaml", "yml", "json")            //nolint:errcheck
	cmd.MarkFlagFilename("schema", "yaml", "yml", "json")            //nolint:errcheck
	cmd.MarkFlagFilename("project", "yaml")                          //nolint:errcheck
	if output {
		f.StringVarP(&o.output, "output", "o", "", "output format on standard output: yaml (default: every file, joined with ---) or json (the objects, a List when there are several)")
		f.StringVar(&o.outDir, "output-dir", "", "write each input file to this folder under its own name, in its own format, atomically, instead of standard output")
		cmd.MarkFlagDirname("output-dir") //nolint:errcheck // the flag exists
		f.BoolVar(&o.diff, "diff", false, "print a unified diff of each changed file instead of the result")
		f.BoolVar(&o.exitCode, "exit-code", false, "with --diff: exit 1 when there are changes, 0 when there are none, 2 on errors (as diff and kubectl diff do)")
		f.StringVar(&o.color, "color", "auto", "colour the --diff output: auto (when standard output is a terminal and NO_COLOR is unset), always or never")
		f.BoolVar(&o.failOnConflict, "fail-on-conflict", false, "refuse to write anything when two patches conflict")
		o.serverSideFlags(cmd)
	}
}

// serverSideFlags adds the flags of a server-side apply (docs/ssa.md).
func (o *applyOptions) serverSideFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&o.serverSide, "server-side", false, "apply the result server-side, to the live objects of --live, as an API server would: print the objects as it would store them, managedFields included (docs/ssa.md)")
	f.StringVar(&o.fieldManager, "field-manager", "", "with --server-side: the field manager that applies (as kubectl apply --field-manager; kubectl's own is kubectl)")
	f.BoolVar(&o.forceConflicts, "force-conflicts", false, "with --server-side: take over the fields other field managers own instead of failing")
	f.Var(paths{&o.live}, "live", "with --server-side: the live objects, as kubectl get -o yaml --show-managed-fields writes them: a file or a folder (repeatable); an object with none is created")
	cmd.MarkFlagFilename("live", "yaml", "yml", "json") //nolint:errcheck // the flag exists
}

// checkServerSide checks the server-side flags: they go together.
func (o *applyOptions) checkServerSide() error {
	switch {
	case !o.serverSide && o.fieldManager != "":
		return usagef("--field-manager goes with --server-side")
	case !o.serverSide && o.forceConflicts:
		return usagef("--force-conflicts goes with --server-side")
	case !o.serverSide && len(o.live) > 0 && !o.blame:
		return usagef("--live goes with --server-side")
	case o.blame && o.serverSide && len(o.live) == 0:
		return usagef("blame --server-side shows who owns each line once the output is applied to the live objects: give them with --live")
	case o.serverSide && o.fieldManager == "":
		return usagef("--server-side needs --field-manager NAME: the field manager the API server records as the fields' owner (kubectl apply --server-side's is kubectl)")
	case o.serverSide && o.failOnConflict:
		return usagef("--fail-on-conflict is about conflicts between patches; with --server-side, conflicts with other field managers always fail (--force-conflicts takes the fields over)")
	}
	for _, p := range o.live {
		if p == "-" {
			return usagef("--live -: give the live objects in files or folders (standard input is for -f -)")
		}
	}
	return nil
}

// serverSideOptions returns the options of a server-side apply, or nil;
// the time stamped on managedFields is SOURCE_DATE_EPOCH's when it is set
// (a reproducible output), else the current time.
func (o *applyOptions) serverSideOptions() (*serverside.Options, error) {
	if !o.serverSide && (!o.blame || len(o.live) == 0) {
		return nil, nil
	}
	ss := &serverside.Options{Manager: o.fieldManager, Force: o.forceConflicts, Live: o.live}
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		secs, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, usagef("SOURCE_DATE_EPOCH=%q: the time to stamp is a number of seconds since 1970 (reproducible-builds.org)", s)
		}
		ss.Time = time.Unix(secs, 0).UTC()
		if err := ssa.CheckTime(ss.Time); err != nil {
			return nil, usagef("SOURCE_DATE_EPOCH=%q: %v", s, err)
		}
	}
	return ss, nil
}

func newApplyCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &applyOptions{}
	cmd := &cobra.Command{
		Use:   "apply -f PATH... -p PATH... [flags]",
		Short: "Apply .kpatch files and patch lists to folders of manifests, keeping every untouched byte",
		Long: `Apply patches to a set of manifests and print the result (or write it with
--output-dir).

Manifests come from files, folders (recursively: .yaml, .yml, .json) and standard
input. Patches come from .kpatch files (sections of field assignments), YAML
patch lists (field, strategic, merge and JSON patches) and kustomize overlays
as they are (a kustomization's patches, in kustomize's order; docs/kustomize.md);
see docs/kpatch.md. Strategic, merge and JSON patches are applied first, then
field patches, each in the order of the files given and of their place in each
file.

Documents no patch touches come out byte for byte as they went in; in patched
documents only the changed lines differ. Every file is printed, patched or not,
joined with ---; --diff prints only what changed. Kustomization files
(kustomization.yaml) in the folders are not manifests: they are left out.

A patch whose target matches nothing is a warning (an error with --strict).
Every object a patch touched is checked against its schema (--validate, strict
by default): a value a patch wrote that an API server would refuse is an error
naming the patch line, and nothing is written; see docs/validation.md.
Patches that conflict (two values for one field, a delete against a set, a
strategic patch and a field patch on one path) are reported on standard error;
with --fail-on-conflict nothing is written.`,
		Example: `  # the example: a base of manifests (with a custom resource, whose CRD is its
  # schema), overrides in both formats, variables
  kmerge apply -f examples/base -p examples/overrides --values examples/values.yaml \
    --schema examples/crds/widget-crd.yaml

  # as a Helm post-renderer: manifests on standard input, result on standard output
  helm template my-release chart/ --post-renderer ./render.sh   # render.sh: kmerge apply -f - -p overrides/

  # what would change; in CI, fail when something would (exit 1)
  kmerge apply -f manifests/ -p patches/ --diff
  kmerge apply -f manifests/ -p patches/ --diff --exit-code

  # write the files under out/ by their names, atomically (out/ = manifests/: in place)
  kmerge apply -f manifests/ -p patches/ --output-dir out/

  # a kustomize overlay as it is: its patches, on its base
  kmerge apply -f base/ -p overlays/prod/`,
		Args: noArgs("apply"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.changed = cmd.Flags().Changed
			err := runApply(o, stdin, stdout, stderr, false)
			var ue usageError
			var code exitCode
			if o.exitCode && err != nil && !errors.As(err, &ue) && !errors.As(err, &code) {
				err = troubleError{err} // 1 means "changes" here
			}
			return err
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
path. Each conflict names its patches by file:line: every patch that changes
the path where they meet (N patches setting one field are one conflict). Exit 1
when there are any, or when a patch makes an object invalid for its schema
(--validate, strict by default; the violations go to standard error, as with
kmerge apply).`,
		Example: `  kmerge check -f examples/base -p examples/overrides --values examples/values.yaml`,
		Args:    noArgs("check"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.changed = cmd.Flags().Changed
			return runApply(o, stdin, stdout, stderr, true)
		},
	}
	o.flags(cmd, false)
	return cmd
}

// staleText says why a patch looks stale (kmerge.StalePatch), and what to
// do.
func staleText(st kmerge.StalePatch) string {
	if st.Kind == change.NewItem {
		item := st.Writes[0]
		last, _ := item.Last()
		here := ""
		if len(st.Items) > 0 {
			here = " (here: " + strings.Join(st.Items, ", ") + ")"
		}
		return fmt.Sprintf("%s: the patch makes a new item %s without %s, which every other item has: no item is named %s%s; if the patch meant one of them, it was renamed, and the patch is stale",
			st.Object, item, strings.Join(st.Missing, ", "), keyValues(last), here)
	}
	var what []string
	for _, p := range st.Writes {
		what = append(what, p.String())
	}
	return fmt.Sprintf("%s: the patch changes nothing: %s %s the value the manifest has already (a patch left behind by a change to the manifest?)",
		st.Object, strings.Join(what, ", "), map[bool]string{true: "has", false: "have"}[len(what) == 1])
}

// keyValues writes the values of an item's key: "web", "80,TCP".
func keyValues(e fieldpath.Element) string {
	var vs []string
	for _, k := range e.Key {
		vs = append(vs, k.Value.String())
	}
	return strings.Join(vs, ",")
}

func noArgs(cmd string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("%s takes no arguments, got %q: give manifests with -f and patches with -p", cmd, args)
		}
		return nil
	}
}

// errStale is returned when stale patches make check --strict fail; they
// have been printed already.
type errStale int

func (e errStale) Error() string {
	if e == 1 {
		return "1 stale patch (an error with --strict)"
	}
	return fmt.Sprintf("%d stale patches (an error with --strict)", int(e))
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

// prepare reads the project file into the options and checks the command
// line, reading no input yet: what apply, check and blame share. It
// returns the project read, nil when none is.
func (o *applyOptions) prepare(stderr io.Writer) (*project.Project, error) {
	// the paths the flags name, checked once the command line is known to
	// be right, before anything reads them; the project file's own are
	// checked by its reader, which names their lines
	given := []struct {
		flag  string
		paths []string
	}{{"-f", o.files}, {"-p", o.patches}, {"--values", o.valueFiles}, {"--schema", o.schemas}, {"--live", o.live}}
	if err := checkPaths("--project", o.project); err != nil {
		return nil, err
	}
	proj, err := o.fromProject()
	if err != nil {
		return nil, err
	}
	if len(o.files) == 0 {
		return nil, usagef("give the manifests with -f (a file, a folder, or - for standard input), or list them in a %s (kmerge init writes one)%s", project.FileName, projectsBelowHint(proj))
	}
	if len(o.patches) == 0 && proj != nil && proj.PatchesAt.Line > 0 {
		// patches: [] in the project file: nothing to apply, as with an
		// empty patch file (a warning; strict: an error)
		msg := "the project's patches list is empty ([]), so it changes nothing"
		if o.strict {
			return nil, &syntax.Error{Pos: proj.PatchesAt, Msg: msg + " (an error in strict mode)"}
		}
		fmt.Fprintf(stderr, "kmerge: %s\n", kpatch.Warning{Pos: proj.PatchesAt, Msg: msg})
	} else if len(o.patches) == 0 {
		return nil, usagef("give the patches with -p (a .kpatch file, a YAML patch list, or a folder), or list them in a %s (kmerge init writes one)%s", project.FileName, projectsBelowHint(proj))
	}
	if err := o.checkFlags(stderr); err != nil {
		return nil, err
	}
	if err := o.checkServerSide(); err != nil {
		return nil, err
	}
	if err := checkPatchPaths(o.patches); err != nil {
		return nil, err
	}
	if o.order, err = smp.ParseListOrder(o.listOrder); err != nil {
		return nil, usageError{err}
	}
	if o.restrictions, err = kpatch.ParseLoadRestrictions(o.loadRestrictor); err != nil {
		return nil, usagef("--load-restrictor %v", err)
	}
	if o.mode, err = parseValidate(o.validate); err != nil {
		return nil, err
	}
	for _, g := range given {
		if err := checkPaths(g.flag, g.paths...); err != nil {
			return nil, err
		}
	}
	return proj, nil
}

// load reads the schemas and the variables, and makes the options of the
// run; proj is what prepare returned.
func (o *applyOptions) load(proj *project.Project, stdin io.Reader, stderr io.Writer) (kmerge.ApplyOptions, error) {
	var none kmerge.ApplyOptions
	s, err := loadSchemas(o.schemas)
	if err != nil {
		return none, err
	}
	vars := kpatch.NewVars()
	if proj != nil {
		if vars, err = proj.Vars(&o.limits.Limits); err != nil {
			return none, err
		}
	}
	for _, f := range o.valueFiles {
		data, err := readfile.Given(f, &o.limits.Limits)
		if err != nil {
			return none, err
		}
		if err := vars.LoadValues(data, f); err != nil {
			return none, err
		}
	}
	for _, kv := range o.sets {
		if err := vars.Set(kv); err != nil {
			return none, usagef("--set %v", err)
		}
	}
	for _, f := range o.features {
		if err := vars.SetFeatureText(f); err != nil {
			return none, usagef("--feature %v", err)
		}
	}
	inputs := append(slices.Clip(o.valueFiles), o.schemas...) // read by the run: an overlay's folder may hold them
	if proj != nil {
		inputs = append(inputs, proj.Values...)
	}
	opts := kmerge.ApplyOptions{Manifests: o.files, Stdin: stdin, Patches: o.patches, Inputs: inputs, LoadRestrictions: o.restrictions, MaxLineBytes: o.limits.maxLine, Thorough: thorough(),
		ApplyPatchesOptions: kmerge.ApplyPatchesOptions{Vars: vars, Schema: s, Strict: o.strict, ListOrder: o.order,
			KeepFormat: o.outDir != "" || o.output == "json", Validate: o.mode, Limits: &o.limits.Limits, ShowSecrets: o.showSecrets}}
	if o.debug || os.Getenv("KURE_DEBUG") == "1" || os.Getenv("KMERGE_DEBUG") == "1" {
		opts.Trace = stderr
	}
	if o.ss, err = o.serverSideOptions(); err != nil {
		return none, err
	}
	return opts, nil
}

func runApply(o *applyOptions, stdin io.Reader, stdout, stderr io.Writer, check bool) error {
	proj, err := o.prepare(stderr)
	if err != nil {
		return err
	}
	ctx := context.Background()
	var sigs *signals
	if o.outDir != "" && !check {
		// signals handled from before the folder is locked, and locked
		// from before the inputs are read: an edit in place must not be
		// overlapped by another run (signals.go); a signal cancels the
		// whole run
		sigs = watchSignals()
		lock, err := kmerge.LockDir(o.outDir)
		if err != nil {
			sigs.stop()
			return err
		}
		defer lock.Unlock() //nolint:errcheck // after the writing, which reports its errors
		defer sigs.stop()
		o.lock, ctx = lock, sigs.ctx
	}
	opts, err := o.load(proj, stdin, stderr)
	if err != nil {
		return err
	}
	opts.Stale = check // check reports the patches that look left behind
	if rec, ok := stdin.(*recorder); ok && rec.budget != nil {
		// the manifest files count for the memory budget (standard input
		// counts as it is read)
		if files, err := resource.Files(o.files); err == nil {
			rec.budget.addFiles(files)
		}
	}
	var res *kmerge.ApplyResult
	var ssRes *serverside.Result
	if o.ss != nil {
		if ssRes, err = serverside.Apply(ctx, opts, *o.ss); err == nil {
			res = ssRes.ApplyResult
		}
	} else {
		res, err = kmerge.Apply(ctx, opts)
	}
	if err != nil {
		if sigs != nil {
			return sigs.stopped(o.outDir, err)
		}
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "kmerge: %s\n", warningText(w))
	}
	for _, e := range res.Invalid {
		warnInvalid(stderr, e)
	}
	if check {
		for _, st := range res.Stale {
			level := "warning"
			if o.strict {
				level = "error"
			}
			fmt.Fprintf(stderr, "kmerge: %s%s: %s\n", st.Pos, level, staleText(st))
		}
		// the report is the command's output
		for _, c := range res.Conflicts {
			fmt.Fprintf(stdout, "conflict: %s\n", c)
		}
		if len(res.Conflicts) > 0 {
			return errConflicts(len(res.Conflicts))
		}
		if o.strict && len(res.Stale) > 0 {
			return errStale(len(res.Stale))
		}
		fmt.Fprintf(stdout, "no conflicts: %s, %s\n", plural(res.Patches, "patch", "patches"), plural(res.Objects, "object", "objects"))
		return nil
	}
	for _, c := range res.Conflicts {
		fmt.Fprintf(stderr, "kmerge: conflict: %s\n", c)
	}
	if ssRes != nil {
		for _, id := range ssRes.NoManagedFields {
			fmt.Fprintf(stderr, "kmerge: warning: %s has no managedFields (exported without kubectl get --show-managed-fields?): the API server gives all its fields to before-first-apply, and the apply conflicts with it where it changes them\n", id)
		}
	}
	if o.failOnConflict && len(res.Conflicts) > 0 {
		return errConflicts(len(res.Conflicts))
	}
	switch {
	case o.diff:
		diff := res.Diff()
		if ssRes != nil {
			diff = ssRes.Diff()
		}
		colored, err := useColor(o.color, stdout)
		if err != nil {
			return err
		}
		if colored {
			diff = colorDiff(diff)
		}
		if _, err = io.WriteString(stdout, diff); err != nil {
			return err
		}
		if o.exitCode && diff != "" {
			return exitCode(1)
		}
		return nil
	case o.outDir != "":
		return res.WriteDirWith(o.outDir, kmerge.WriteDirOptions{Context: ctx, Lock: o.lock})
	case o.output == "json":
		out, err := jsonObjects(res.Files, &o.limits.Limits)
		if err != nil {
			return err
		}
		_, err = stdout.Write(out)
		return err
	}
	_, err = stdout.Write(res.Stream())
	return err
}

// projectsBelowHint names the project files below the current folder,
// when no project was read: overlays each have theirs (kmerge init), and
// a run at the top of the repository finds none above it.
func projectsBelowHint(read *project.Project) string {
	if read != nil {
		return ""
	}
	var found []string
	root := "."
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error { //nolint:errcheck // a folder that cannot be read has no project to name
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || strings.Count(filepath.ToSlash(path), "/") >= 3) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == project.FileName {
			// a regular file (a link to one): a pipe or a device there
			// is no project to propose, Find passes over it
			if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
				found = append(found, filepath.Dir(path))
			}
		}
		return nil
	})
	switch {
	case len(found) == 0:
		return ""
	case len(found) > 3:
		found = append(found[:3], fmt.Sprintf("%d more", len(found)-3))
	}
	return fmt.Sprintf("; projects below: %s (run in one's folder, or pass --project %s)", strings.Join(found, ", "), found[0])
}

// checkFlags checks the flags that choose the output: -o (a format),
// --output-dir, --diff, --exit-code. -o DIR, the old spelling of
// --output-dir, still works for a value that is plainly a folder (it holds
// a slash or names one), and --patch, the old name of --patches, still
// works, each with a warning; docs/kpatch.md#output.
func (o *applyOptions) checkFlags(stderr io.Writer) error {
	if o.changed != nil && o.changed("patch") {
		fmt.Fprintln(stderr, "kmerge: warning: --patch is now --patches (or -p) in apply and check: in kmerge patch, --patch is the patch text itself. --patch stops working here in the next release")
	}
	switch o.output {
	case "", "yaml", "json":
	default:
		if near := suggest.Closest(o.output, []string{"yaml", "json"}); len(near) == 1 && !looksLikeDir(o.output) {
			return usagef("-o %q: the output format is yaml or json (as in kubectl); did you mean -o %s?", o.output, near[0])
		}
		if o.outDir != "" || !looksLikeDir(o.output) {
			return usagef("-o %q: the output format is yaml or json (as in kubectl); to write the files to a folder, use --output-dir %s", o.output, o.output)
		}
		fmt.Fprintf(stderr, "kmerge: warning: -o %s: -o is now the output format (yaml or json, as in kubectl); writing to the folder %s as --output-dir %s does. -o DIR stops working in the next release: use --output-dir\n", o.output, o.output, o.output)
		o.outDir, o.output = o.output, ""
	}
	switch {
	case o.diff && o.outDir != "":
		return usagef("--diff prints; --output-dir writes: choose one")
	case o.diff && o.output != "":
		return usagef("--diff prints a diff; -o %s prints the result: choose one", o.output)
	case o.outDir != "" && o.output != "":
		return usagef("--output-dir writes each file in its own format; -o is the format of standard output: drop -o %s", o.output)
	case o.exitCode && !o.diff:
		return usagef("--exit-code goes with --diff: kmerge apply --diff --exit-code exits 1 when there are changes")
	}
	return nil
}

// looksLikeDir reports whether a value of -o is meant as a folder: it holds
// a path separator, or a folder of that name exists.
func looksLikeDir(s string) bool {
	if strings.ContainsRune(s, '/') || strings.ContainsRune(s, filepath.Separator) {
		return true
	}
	info, err := os.Stat(s)
	return err == nil && info.IsDir()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
