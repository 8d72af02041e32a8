package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge/internal/linediff"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/walk"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/tree"
)

type fmtOptions struct {
	write, list, diff bool
	limits            *limits
}

func newFmtCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &fmtOptions{limits: newLimits()}
	cmd := &cobra.Command{
		Use:   "fmt [-w] [-l] [-d] [FILE|DIR]...",
		Short: "Format .kpatch files in the canonical form (like gofmt)",
		Long: `Format .kpatch files: no indentation, "key: value", one space before a comment,
selectors spelt canonically, one blank line at most between lines; comments and
the blank lines between sections are kept, and what the file means does not
change (docs/kpatch.md#formatting). Folders are searched for .kpatch files
recursively. Without files, standard input is formatted to standard output.

By default the formatted files are printed. -l lists the files whose formatting
differs, -d prints a diff, -w writes the files back (atomically); a file that
does not parse is reported with its position and makes the exit code 1.`,
		Example: `  kmerge fmt -w overrides/        # format every .kpatch file in place
  test -z "$(kmerge fmt -l .)"     # in CI: fail when a file is not formatted`,
		RunE: func(_ *cobra.Command, args []string) error {
			return runFmt(o, args, stdin, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&o.write, "write", "w", false, "write the result to the file instead of standard output")
	f.BoolVarP(&o.list, "list", "l", false, "list the files whose formatting differs")
	f.BoolVarP(&o.diff, "diff", "d", false, "print a diff instead of the result")
	o.limits.addFlag(f)
	return cmd
}

// errReported is returned when the errors have been printed already.
type errReported int

func (e errReported) Error() string { return fmt.Sprintf("%d files could not be formatted", int(e)) }

func runFmt(o *fmtOptions, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		if o.write {
			return usagef("-w needs files to write")
		}
		src, err := tree.ReadInput(stdin, "<stdin>", &o.limits.Limits)
		if err != nil {
			return err
		}
		return fmtOne(o, "<stdin>", src, stdout)
	}
	var files []string
	given := map[string]bool{} // named, not found in a folder: may be a pipe
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return &missingError{flag: "fmt", path: a, err: err}
		}
		if !info.IsDir() {
			switch strings.ToLower(filepath.Ext(a)) {
			case ".yaml", ".yml", ".json":
				return usagef("%s: kmerge fmt formats .kpatch files; this is a YAML or JSON file (a patch list, manifests), which it leaves as written", a)
			}
			files = append(files, a)
			given[a] = true
			continue
		}
		found, err := walk.Files(a, func(name string) bool { return strings.EqualFold(filepath.Ext(name), ".kpatch") })
		if err != nil {
			return err
		}
		files = append(files, found...)
	}
	failed := 0
	for _, f := range files {
		src, err := readfile.Read(f, &o.limits.Limits, given[f])
		if err == nil {
			err = fmtOne(o, f, src, stdout)
		}
		if err != nil {
			report(stderr, err, nil)
			failed++
		}
	}
	if failed > 0 {
		return errReported(failed)
	}
	return nil
}

func fmtOne(o *fmtOptions, name string, src []byte, stdout io.Writer) error {
	out, err := syntax.Format(src, name, syntax.Options{Limits: &o.limits.Limits, MaxLineBytes: o.limits.maxLine})
	if err != nil {
		return err
	}
	same := bytes.Equal(src, out)
	if o.list && !same {
		fmt.Fprintln(stdout, name)
	}
	if o.diff && !same {
		io.WriteString(stdout, linediff.UnifiedText("a/"+name, "b/"+name, string(src), string(out), 3))
	}
	if o.write && !same {
		return writeFileAtomic(name, out)
	}
	if !o.list && !o.diff && !o.write {
		_, err = stdout.Write(out)
	}
	return err
}
