package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kmerge/kmerge/kpatch/syntax"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/jsonpatch"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/project"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// The library's errors and warnings carry data (positions, paths, limits,
// the variable that is undefined, the kind without a schema); what to do
// about them is worded here, with kmerge's flags. report prints the advice
// on a line of its own, in parentheses, after the error and the line it
// quotes.

// advised is an error with advice that depends on the command that failed.
type advised struct {
	err    error
	advice string
}

func (e advised) Error() string { return e.err.Error() }
func (e advised) Unwrap() error { return e.err }

// advice returns what the user can do about err, "" when there is nothing
// to add to its message.
func advice(err error) string {
	var a advised
	var se *tree.SyntaxError
	var ke *syntax.Error
	var je *jsonpatch.Error
	var le *kmerge.DirLockedError
	var sme *smp.Error
	switch {
	case errors.As(err, &a):
		return a.advice
	case errors.As(err, new(*kpatch.OutsideRootError)):
		return "to read it all the same, as kustomize build --load-restrictor " + kpatch.NoRestrictionsName + " does, pass --load-restrictor " + kpatch.NoRestrictionsName
	case errors.As(err, &le):
		if le.Folder != "" {
			return "wait for it to finish: two runs cannot write one folder at once, nor a folder and one inside it"
		}
		return "wait for it to finish: two runs cannot write one folder at once"
	case errors.As(err, &sme) && sme.Reason == smp.ReasonNoSchema:
		return "pass the kind's CustomResourceDefinition or an OpenAPI document with --schema, and the patch is applied as a strategic merge patch"
	case errors.As(err, &ke) && ke.Limit != "":
		return limitAdvice(ke.Limit)
	case errors.As(err, &se) && se.Limit != "":
		return limitAdvice(se.Limit)
	case errors.As(err, &je) && je.Reason == jsonpatch.ReasonLimit:
		return limitAdvice("expanded") // what copies add is bounded as what aliases add
	case errors.As(err, &ke) && ke.ValuesFile:
		// a file given as what it is not
		return fmt.Sprintf("if %s holds values for ${values.*}, pass it with --values %s, and keep it out of the folders given to -p", ke.Pos.File, ke.Pos.File)
	case errors.As(err, new(*project.EmptyError)):
		return "kmerge init writes one from the folder's contents"
	case errors.As(err, &ke) && ke.Undefined != "":
		if name, ok := strings.CutPrefix(ke.Undefined, "features."); ok {
			return fmt.Sprintf("set it with --feature %s=true|false", name)
		}
		return fmt.Sprintf("give it in a --values file or with --set %s=...", strings.TrimPrefix(ke.Undefined, "values."))
	}
	return ""
}

func limitAdvice(key string) string {
	return fmt.Sprintf("if the input is right, raise the limit: --limit %s=N", key)
}

// withSchemaAdvice adds, to an error about a document without a schema,
// how to give one; verb is what the command does ("patch", "diff").
func withSchemaAdvice(err error, verb string) error {
	var ns *kmerge.NoSchemaError
	if !errors.As(err, &ns) {
		return err
	}
	if ns.Kind == "" {
		return advised{err, fmt.Sprintf("to %s a document that is not a Kubernetes object, name its schema with --definition, or use --type merge", verb)}
	}
	return advised{err, fmt.Sprintf("pass its CustomResourceDefinition or an OpenAPI document with --schema, or %s it with --type merge or --fallback merge", verb)}
}

// warningText is a warning as kmerge prints it, with advice.
func warningText(w kpatch.Warning) string {
	switch {
	case w.NoSchema:
		return w.String() + "; pass its CRD with --schema"
	case slices.ContainsFunc(w.Ignored, func(f string) bool { return !strings.Contains(f, " (") }):
		// fields of kustomize's own (resources and components say what to do)
		return w.String() + "; to keep them, run kmerge as a kustomize transformer (docs/krm.md), or kustomize on kmerge's output"
	}
	return w.String()
}
