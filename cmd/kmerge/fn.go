package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge/krm"
	"github.com/kmerge/kmerge/tree"
)

func newFnCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "fn",
		Short: "Run as a KRM function: a ResourceList on standard input, patched, on standard output",
		Long: `Run kmerge as a KRM function, for kustomize (transformers with exec
functions), kpt and other orchestrators: read a ResourceList on standard input,
apply the patches its functionConfig gives (a kmerge.dev/v1alpha1 Patches
object or a ConfigMap: .kpatch text, a YAML patch list, values, features), and
write the ResourceList to standard output with results for warnings and
conflicts; warnings and conflicts also go to standard error, where kustomize
shows them (it drops a transformer's results). Items keep their comments and annotations; items no patch touches
come out as they went in. CustomResourceDefinitions among the items are used
as schemas.

Every patched item is checked against its schema, strictly unless the
functionConfig says validate: warn or validate: none (docs/validation.md).

When the patches cannot be applied, the output holds the input with a result
of severity error, the error goes to standard error, and the exit code is 1.
See docs/krm.md.`,
		Example: `  # as a kustomize transformer (kustomize build --enable-alpha-plugins --enable-exec):
  #   transformers: [kmerge-fn.yaml], where kmerge-fn.yaml is
  #     apiVersion: kmerge.dev/v1alpha1
  #     kind: Patches
  #     metadata:
  #       name: overrides
  #       annotations:
  #         config.kubernetes.io/function: |
  #           exec:
  #             path: ./kmerge-fn.sh       # a script running: kmerge fn
  #     spec:
  #       kpatch: |
  #         [deployment.web]
  #         replicas: 3

  # by hand
  kmerge fn < examples/krm/resourcelist.yaml`,
		Args: noArgs("fn"),
		RunE: func(_ *cobra.Command, _ []string) error {
			in, err := tree.ReadInput(stdin, "<stdin>", nil)
			if err != nil {
				return err
			}
			out, results, err := krm.RunWith(context.Background(), in, krm.Options{Thorough: thorough()})
			var fnErr *krm.Error
			if err != nil && !errors.As(err, &fnErr) {
				return err
			}
			// warnings go to standard error too: kustomize drops the
			// results of a transformer, and shows its standard error
			for _, r := range results {
				if r.Severity != "error" {
					fmt.Fprintf(stderr, "kmerge: %s\n", r.Message)
				}
			}
			// the ResourceList goes out even when the function failed:
			// its results say why
			if _, werr := stdout.Write(out); werr != nil {
				return werr
			}
			return err
		},
	}
}
