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
// is wrong; 130 and 143 apply --output-dir stopped by SIGINT or SIGTERM,
// nothing written (signals.go).
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
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kmerge/kmerge/internal/suggest"
)

// Exit codes.
const (
	exitOK       = 0
	exitRejected = 1
	exitUsage    = 2
)

func main() {
	os.Exit(runWith(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, newMemoryBudget()))
}

// usageError marks errors in the command line (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// run executes the command line args and returns the exit code. Output
// reaches stdout only when the command succeeds (and, with apply --diff
// --exit-code, when it found changes).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runWith(args, stdin, stdout, stderr, nil)
}

// runWith is run, with the memory budget main sets (nil: none).
func runWith(args []string, stdin io.Reader, stdout, stderr io.Writer, budget *memoryBudget) int {
	in := &recorder{r: stdin, budget: budget}
	inputs := texts{}
	root := newRootCmd(in, stdout, stderr, inputs)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	err = unknownCommand(root, err)
	var code exitCode
	if errors.As(err, &code) {
		return int(code) // said all it had to say
	}
	inputs["<stdin>"] = in.buf.Bytes()
	report(stderr, err, inputs)
	if code, ok := signalExit(err); ok {
		return code
	}
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		if cmd == nil {
			cmd = root
		}
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return exitUsage
	}
	var te troubleError
	if errors.As(err, &te) {
		return exitUsage
	}
	return exitRejected
}

// exitCode ends the command with a status and no message: what it had to
// say is on its output already (apply --diff --exit-code on changes).
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// troubleError is an error that exits 2 instead of 1, as diff(1) and
// kubectl diff report trouble when 1 means "differences found" (apply
// --diff --exit-code).
type troubleError struct{ err error }

func (e troubleError) Error() string { return e.err.Error() }
func (e troubleError) Unwrap() error { return e.err }

// isCobraUsage recognises the errors cobra returns for unknown commands and
// flags, which are usage errors too.
func isCobraUsage(err error) bool {
	var fe flagError
	return errors.As(err, &fe) || strings.HasPrefix(err.Error(), "unknown command")
}

// flagError is an error of cobra's flag parsing, worded for kmerge: an
// unknown flag names the nearest flags of the command.
type flagError struct{ error }

// newFlagError words an error of parsing cmd's flags.
func newFlagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if advice := habit(cmd, msg); advice != "" {
		return flagError{errors.New(msg + ": " + advice)}
	}
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Deprecated == "" {
				names = append(names, f.Name)
			}
		})
		if s := suggest.DidYouMean(name, names, func(n string) string { return "--" + n }); s != "" {
			msg += " (" + s + ")"
		}
	}
	return flagError{errors.New(msg)}
}

// habits are the flags of kubectl and kustomize that kmerge does not
// have, by the name pflag's error gives ("-k" for the shorthand, "--kustomize"),
// with what to type instead; cmd is the command's name.
var habits = []struct {
	short, long string
	advice      func(cmd string) string
}{
	{"k", "kustomize", func(cmd string) string {
		if cmd != "check" && cmd != "blame" {
			cmd = "apply" // the commands that take patch files
		}
		return "kmerge reads a kustomize overlay's patches as patches: give the overlay with -p and its base with -f (kmerge " + cmd +
			" -f base -p overlays/prod; kmerge init writes both into a kmerge.yaml)"
	}},
	{"n", "namespace", func(cmd string) string {
		return "kmerge works on the namespaces the manifests name; to pick objects of one namespace, name it in the patch's target " +
			"([ns/deployment.web] in a .kpatch file, target: {namespace: ns} in a YAML patch list)"
	}},
	{"l", "selector", func(cmd string) string {
		return "to pick objects by label, say so in the patch's target: [deployment.*{app=web}] in a .kpatch file, " +
			"target: {kind: Deployment, labelSelector: app=web} in a YAML patch list"
	}},
	{"R", "recursive", func(cmd string) string {
		return "kmerge always walks the folders it is given, and their subfolders"
	}},
}

// habit returns what to type instead of a kubectl or kustomize flag that
// msg, pflag's error for cmd, says is unknown; "" for other errors.
func habit(cmd *cobra.Command, msg string) string {
	for _, h := range habits {
		if strings.HasPrefix(msg, "unknown shorthand flag: '"+h.short+"' in -") || msg == "unknown flag: --"+h.long {
			return h.advice(cmd.Name())
		}
	}
	return ""
}

// unknownCommand words cobra's error for a command that does not exist
// (unknown command "NAME" for "kmerge"), with the nearest commands; other
// errors are returned as they are.
func unknownCommand(root *cobra.Command, err error) error {
	rest, ok := strings.CutPrefix(err.Error(), "unknown command ")
	if !ok {
		return err
	}
	name, err2 := strconv.QuotedPrefix(rest)
	if err2 != nil {
		return err
	}
	name, _ = strconv.Unquote(name)
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
			names = append(names, c.Aliases...)
		}
	}
	msg := fmt.Sprintf("unknown command %q", name)
	if s := suggest.DidYouMean(name, names, nil); s != "" {
		msg += " (" + s + ")"
	}
	return errors.New(msg)
}

func newRootCmd(stdin io.Reader, stdout, stderr io.Writer, inputs texts) *cobra.Command {
	root := &cobra.Command{
		Use:   "kmerge",
		Short: "Patch Kubernetes manifests, keeping every byte a patch does not change",
		Long: `kmerge patches Kubernetes manifests with strategic merge patches that behave
exactly as a Kubernetes API server applies them, and with JSON merge patches.
Comments, key order and quoting of everything a patch does not touch are kept.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		// unknown commands are worded by unknownCommand, with suggest's
		// suggestions, as unknown flags are
		DisableSuggestions: true,
	}
	v := currentVersion()
	root.Version = v.String()
	root.SetVersionTemplate("{{.Version}}")
	// defined here so that cobra adds no -v shorthand
	root.Flags().Bool("version", false, "print kmerge's version (as kmerge version does)")
	root.SetFlagErrorFunc(newFlagError)
	root.AddCommand(newVersionCmd(stdout, v), newApplyCmd(stdin, stdout, stderr), newCheckCmd(stdin, stdout, stderr), newPatchCmd(stdin, stdout, stderr, inputs), newDiffCmd(stdin, stdout), newExplainCmd(stdout), newFnCmd(stdin, stdout, stderr), newInitCmd(stdout), newBlameCmd(stdin, stdout, stderr), newFmtCmd(stdin, stdout, stderr), newLSPCmd(stdin, stdout, stderr))
	return root
}

// thorough reports whether KMERGE_THOROUGH=1 asks apply, check, patch and
// fn to take the long way (kmerge.ApplyOptions.Thorough): every document
// parsed, and edited ones' text read back. The output is the same; the
// variable is there to rule the short way out when something looks wrong.
func thorough() bool { return os.Getenv("KMERGE_THOROUGH") == "1" }
