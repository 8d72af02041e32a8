// Command kmerge patches Kubernetes manifests, keeping every byte a patch
// does not change:
//
//	kmerge apply -f PATH... -p PATH... [flags]   .kpatch files and patch lists on folders of manifests
//	kmerge check -f PATH... -p PATH... [flags]   the conflicts between those patches
//	kmerge patch -f FILE (-p PATCH | --patch-file FILE) [flags]
//	                                             one strategic, merge or JSON patch, like kubectl patch --local
//	kmerge diff ORIGINAL MODIFIED [--current LIVE]
//	                                             the patch between two versions (two-way), or kubectl apply's (three-way)
//	kmerge explain KIND[.path]                   the fields of a kind and how patches merge them
//	kmerge fn                                    a KRM function (kustomize, kpt)
//
// Run kmerge help COMMAND for the flags; README.md and docs/ describe
// each. Exit codes: 0 success; 1 the input or the patches were rejected
// (the reason on standard error, nothing on standard output), conflicts
// with --fail-on-conflict, or conflicts found by check; 2 the command line
// is wrong.
//
// The library packages return errors that carry data (positions, paths,
// limits, what is missing); this command words them with its flags
// (advice.go) and quotes the line an error points at (report.go).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK       = 0
	exitRejected = 1
	exitUsage    = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// usageError marks errors in the command line (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// run executes the command line args and returns the exit code. Output
// reaches stdout only when the command succeeds.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	in := &recorder{r: stdin}
	inputs := texts{}
	root := newRootCmd(in, stdout, stderr, inputs)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	inputs["<stdin>"] = in.buf.Bytes()
	report(stderr, err, inputs)
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		fmt.Fprintln(stderr, "Run 'kmerge --help' for usage.")
		return exitUsage
	}
	return exitRejected
}

// isCobraUsage recognises the errors cobra returns for unknown commands and
// flags, which are usage errors too.
func isCobraUsage(err error) bool {
	var fe flagError
	return errors.As(err, &fe) || strings.HasPrefix(err.Error(), "unknown command")
}

type flagError struct{ error }

func newRootCmd(stdin io.Reader, stdout, stderr io.Writer, inputs texts) *cobra.Command {
	root := &cobra.Command{
		Use:   "kmerge",
		Short: "Patch Kubernetes manifests, keeping every byte a patch does not change",
		Long: `kmerge patches Kubernetes manifests with strategic merge patches that behave
exactly as a Kubernetes API server applies them, and with JSON merge patches.
Comments, key order and quoting of everything a patch does not touch are kept.`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return flagError{err} })
	root.AddCommand(newApplyCmd(stdin, stdout, stderr), newCheckCmd(stdin, stdout, stderr), newPatchCmd(stdin, stdout, inputs), newDiffCmd(stdin, stdout), newExplainCmd(stdout), newFnCmd(stdin, stdout))
	return root
}
