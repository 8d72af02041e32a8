package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge/schema"
)

// versionInfo is what kmerge version prints. Everything comes from the
// binary itself: the Go build information (module version, version control
// stamp, toolchain, target) and the built-in schema's k8s.io/api version.
type versionInfo struct {
	// Version is the kmerge module version: a release tag (v1.2.0), a Go
	// pseudo-version for a commit between tags, or "(devel)" when the
	// build had no version control information.
	Version string `json:"version"`
	// Commit, CommitTime and Modified are the version control stamp of a
	// build from a checkout (empty for go install pkg@version, which builds
	// from the module proxy's zip); Modified: the checkout had changes.
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commitTime,omitempty"`
	Modified   bool   `json:"modified,omitempty"`
	GoVersion  string `json:"goVersion"`
	Platform   string `json:"platform,omitempty"` // GOOS/GOARCH
	// Kubernetes is the Kubernetes version whose API the built-in schema
	// describes; KubernetesAPI the k8s.io/api module version it was
	// generated from.
	Kubernetes    string `json:"kubernetes"`
	KubernetesAPI string `json:"kubernetesAPI"`
}

// versionOf reads a versionInfo from build information (as
// debug.ReadBuildInfo returns it; ok false: none) and the built-in
// schema's k8s.io/api version. It is the seam the tests use: the build
// information of a test binary is not that of a release.
func versionOf(bi *debug.BuildInfo, ok bool, k8sAPI string) versionInfo {
	v := versionInfo{Version: "(devel)", KubernetesAPI: k8sAPI, Kubernetes: kubernetesVersion(k8sAPI)}
	if !ok || bi == nil {
		v.GoVersion = "unknown"
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	v.GoVersion = bi.GoVersion
	var goos, goarch string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.CommitTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "GOOS":
			goos = s.Value
		case "GOARCH":
			goarch = s.Value
		}
	}
	v.Platform = goos + "/" + goarch
	return v
}

// kubernetesVersion turns a k8s.io/api module version (v0.37.2) into the
// Kubernetes version it belongs to (v1.37.2), as the staging modules are
// numbered; other strings are returned as they are.
func kubernetesVersion(api string) string {
	if rest, ok := strings.CutPrefix(api, "v0."); ok {
		return "v1." + rest
	}
	return api
}

// String is the text kmerge version and kmerge --version print.
func (v versionInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "kmerge %s\n", v.Version)
	switch {
	case v.Commit == "":
		b.WriteString("commit:     unknown (built without version control information)\n")
	default:
		var notes []string
		if v.CommitTime != "" {
			notes = append(notes, v.CommitTime)
		}
		if v.Modified {
			notes = append(notes, "with uncommitted changes")
		}
		fmt.Fprintf(&b, "commit:     %s", v.Commit)
		if len(notes) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(notes, ", "))
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "go:         %s\n", strings.TrimSpace(v.GoVersion+" "+v.Platform))
	fmt.Fprintf(&b, "kubernetes: %s (built-in schema from k8s.io/api %s)\n", v.Kubernetes, v.KubernetesAPI)
	return b.String()
}

// currentVersion is this binary's version.
func currentVersion() versionInfo {
	bi, ok := debug.ReadBuildInfo()
	return versionOf(bi, ok, schema.BuiltinVersion())
}

func newVersionCmd(stdout io.Writer, v versionInfo) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print kmerge's version, commit, Go version and the Kubernetes version of its built-in schema",
		Long: `Print kmerge's version (a release tag, a Go pseudo-version naming the commit,
or "(devel)"), the commit it was built from and whether the checkout had
uncommitted changes, the Go version and platform, and the Kubernetes version
whose API the built-in schema describes. kmerge --version prints the same.`,
		Example: `  kmerge version
  kmerge version -o json`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 0 {
				return usagef("version takes no arguments, got %d", len(args))
			}
			return nil
		},
		RunE: func(_ *cobra.Command, _ []string) error {
			return writeVersion(stdout, v, output)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text or json")
	return cmd
}

// writeVersion prints v as text or as a JSON object.
func writeVersion(w io.Writer, v versionInfo, format string) error {
	switch format {
	case "text":
		_, err := io.WriteString(w, v.String())
		return err
	case "json":
		b, err := json.MarshalIndent(v, "", "    ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	return usagef("-o %q: use text or json", format)
}
