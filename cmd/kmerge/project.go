package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge/internal/outdir"
	"github.com/kmerge/kmerge/project"
)

// fromProject completes the options of apply and check from the project
// file: the one --project names, or else, when -f or -p is missing, the
// kmerge.yaml of the current folder or its nearest parent. The merge rule
// (docs/project.md): -f and -p replace the project's manifests and
// patches; --values, --set and --feature come after the project's values,
// set and features (so they win); --schema files come before the
// project's schemas (earlier schemas win); --strict, --fail-on-conflict
// and --list-order, when given, replace the project's settings. It
// returns nil when no project file is read.
func (o *applyOptions) fromProject() (*project.Project, error) {
	path := o.project
	load := project.Load // a file named: a pipe is read on purpose
	switch {
	case path != "":
		if info, err := os.Stat(path); err == nil && info.IsDir() {
			path, load = filepath.Join(path, project.FileName), project.LoadFound
		}
	case len(o.files) > 0 && len(o.patches) > 0:
		return nil, nil // a complete command line: no project file
	default:
		found, err := project.Find(".")
		if err != nil || found == "" {
			return nil, err
		}
		path, load = found, project.LoadFound
	}
	p, err := load(path)
	if err != nil {
		return nil, err
	}
	if len(o.files) == 0 {
		o.files = p.Manifests
	}
	if len(o.patches) == 0 {
		o.patches = p.Patches
	}
	o.schemas = append(o.schemas, p.Schemas...)
	changed := o.changed
	if changed == nil {
		changed = func(string) bool { return false }
	}
	if !changed("strict") {
		o.strict = p.Strict
	}
	if !changed("fail-on-conflict") {
		o.failOnConflict = p.FailOnConflict
	}
	if !changed("list-order") && p.ListOrder != "" {
		o.listOrder = p.ListOrder
	}
	if !changed("validate") && p.Validate != "" {
		o.validate = p.Validate
	}
	return p, nil
}

func newInitCmd(stdout io.Writer) *cobra.Command {
	var force, print bool
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Write a commented " + project.FileName + " from the folder's contents",
		Long: `Look at the files below DIR (default: the current folder) and write
DIR/` + project.FileName + `, a project file that kmerge apply, check, blame and lsp read
when no -f/-p is given: folders of manifests, folders of patch files (.kpatch and
YAML patch lists), values files (*values*.yaml), CustomResourceDefinitions and
OpenAPI documents as schemas, and the settings with their defaults, each
commented. An existing project file is kept unless --force.

Overlays get a project each: sibling folders of patches (overlays/staging and
overlays/prod) are environments, each with its own ` + project.FileName + ` in its
folder, whose manifests are the base found above it; a folder of patches
elsewhere (argocd/app/overrides) makes a project of the folder that holds it.
Of two manifest folders that define the same object, the nearer is kept and the
other left out, with a comment (docs/project.md).`,
		Example: `  kmerge init            # writes ./kmerge.yaml (or overlays/*/kmerge.yaml)
  kmerge init examples --print`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("init takes at most one folder, got %q", args)
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if err := checkPaths("init", dir); err != nil {
				return err
			}
			ps, err := project.DetectAll(dir)
			if err != nil {
				return err
			}
			if print {
				for i, p := range ps {
					if len(ps) > 1 {
						if i > 0 {
							fmt.Fprintln(stdout, "---")
						}
						fmt.Fprintf(stdout, "# %s\n", p.File)
					}
					if _, err := stdout.Write(p.Render()); err != nil {
						return err
					}
				}
				return nil
			}
			for _, p := range ps {
				if _, err := os.Stat(p.File); err == nil && !force {
					return fmt.Errorf("%s exists: use --force to replace it, or --print to see what init would write", p.File)
				}
			}
			for _, p := range ps {
				if err := writeFileAtomic(p.File, p.Render()); err != nil {
					return err
				}
				fmt.Fprintf(stdout, "wrote %s: %d manifest, %d patch, %d values and %d schema entries\n",
					p.File, len(p.Manifests), len(p.Patches), len(p.Values), len(p.Schemas))
			}
			if len(ps) > 1 {
				fmt.Fprintf(stdout, "%d projects: run kmerge apply in a project's folder, or name one with --project (kmerge apply --project %s)\n",
					len(ps), filepath.Dir(ps[len(ps)-1].File))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "replace an existing "+project.FileName)
	cmd.Flags().BoolVar(&print, "print", false, "print the project file instead of writing it")
	return cmd
}

// writeFileAtomic writes data to name through a temporary file renamed
// into place: a new file gets 0666 less the umask, a replaced one keeps its
// permissions.
func writeFileAtomic(name string, data []byte) error {
	return outdir.WriteFile(name, data)
}
