package main

import (
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge/internal/lsp"
)

func newLSPCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	showSecrets := false
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server for .kpatch files and YAML patch lists (LSP over standard input and output)",
		Long: `Run a Language Server Protocol server on standard input and output, for
editors: diagnostics as you type (parse errors, unknown fields, values of the
wrong type, undefined variables, ambiguous shortcuts, targets and selectors that
match nothing, conflicts between patches), completion, hover, go to definition
and formatting of .kpatch files and YAML patch lists, against the project the
file belongs to (its kmerge.yaml). Set-up for Neovim, VS Code and Helix:
docs/editors.md. The values of Secrets are masked in hovers and diagnostics
(***) unless --show-secrets.`,
		Args: noArgs("lsp"),
		RunE: func(_ *cobra.Command, _ []string) error {
			// exit without shutdown, or a closed stream, is exit code 1,
			// as the protocol asks
			if rec, ok := stdin.(*recorder); ok {
				stdin = rec.r // a session's input is not kept for error messages
			}
			return lsp.Serve(stdin, stdout, lsp.Options{Version: buildVersion(), Log: stderr, ShowSecrets: showSecrets})
		},
	}
	addShowSecretsFlag(cmd, &showSecrets)
	return cmd
}

// buildVersion is the module version kmerge was built from, "(devel)" in
// a checkout.
func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Main.Version
	}
	return ""
}
