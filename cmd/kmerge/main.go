// Command kmerge patches Kubernetes manifests: strategic merge patches that
// behave exactly as an API server applies them, JSON merge patches, and
// output that keeps the comments, order and quoting of what was not changed.
//
// Usage:
//
//	kmerge patch -f FILE (-p PATCH | --patch-file FILE) [flags]
//
// Run kmerge help patch for the flags. Exit codes: 0 success, 1 the input or
// the patch was rejected (the reason on stderr, nothing on stdout), 2 the
// command line is wrong.
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
	v := currentVersion()
	root.Version = v.String()
	root.SetVersionTemplate("{{.Version}}")
	// defined here so that cobra adds no -v shorthand
	root.Flags().Bool("version", false, "print kmerge's version (as kmerge version does)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return flagError{err} })
	root.AddCommand(newVersionCmd(stdout, v), newApplyCmd(stdin, stdout, stderr), newCheckCmd(stdin, stdout, stderr), newPatchCmd(stdin, stdout, stderr, inputs), newDiffCmd(stdin, stdout), newExplainCmd(stdout), newFnCmd(stdin, stdout), newInitCmd(stdout), newFmtCmd(stdin, stdout, stderr), newLSPCmd(stdin, stdout, stderr))
	return root
}
