package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/schema"
)

// buildInfo makes the build information of a kmerge binary.
func buildInfo(version string, settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Path:      "github.com/kmerge/kmerge/cmd/kmerge",
		Main:      debug.Module{Path: "github.com/kmerge/kmerge", Version: version},
	}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

// TestVersionGolden checks what kmerge version prints, as text and as
// JSON, for the ways kmerge gets built. The build information is made up
// here (a test binary's is not a release's): see TestVersionBinary for the
// real one.
func TestVersionGolden(t *testing.T) {
	const rev = "3a271b52713cb97f163b817011de44c518e7cbf0"
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
	}{
		// hack/release.sh on a tagged commit: the tag, the stamp, clean
		{"release", buildInfo("v1.2.0", "GOOS", "darwin", "GOARCH", "arm64", "vcs", "git", "vcs.revision", rev, "vcs.time", "2026-11-22T16:16:21Z", "vcs.modified", "false"), true},
		// go build in a clone between tags, with local changes
		{"checkout-modified", buildInfo("v0.0.0-20261122161621-3a271b52713c+dirty", "GOOS", "linux", "GOARCH", "amd64", "vcs", "git", "vcs.revision", rev, "vcs.time", "2026-11-22T16:16:21Z", "vcs.modified", "true"), true},
		// go install github.com/kmerge/kmerge/cmd/kmerge@v1.2.0: no stamp
		{"go-install", buildInfo("v1.2.0", "GOOS", "windows", "GOARCH", "amd64"), true},
		// -buildvcs=false, or a git worktree (Go does not stamp those)
		{"devel", buildInfo("(devel)", "GOOS", "linux", "GOARCH", "amd64"), true},
		// a binary without build information
		{"no-build-info", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := versionOf(c.bi, c.ok, "v0.37.2")
			for _, format := range []string{"text", "json"} {
				var out bytes.Buffer
				if err := writeVersion(&out, v, format); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", "version", c.name+"."+format)
				if *update {
					os.WriteFile(path, out.Bytes(), 0o644)
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if out.String() != string(want) {
					t.Errorf("%s:\n%s\nwant:\n%s", format, out.String(), want)
				}
			}
		})
	}
}

func TestKubernetesVersion(t *testing.T) {
	for api, want := range map[string]string{"v0.37.2": "v1.37.2", "v0.30.0-rc.1": "v1.30.0-rc.1", "unknown": "unknown"} {
		if got := kubernetesVersion(api); got != want {
			t.Errorf("kubernetesVersion(%q) = %q, want %q", api, got, want)
		}
	}
}

// TestVersionCommand runs kmerge version, --version and version -o json
// through the command line: the same text both ways, JSON that decodes to
// the same information, and usage errors.
func TestVersionCommand(t *testing.T) {
	var a, b, j, stderr bytes.Buffer
	if code := run([]string{"version"}, nil, &a, &stderr); code != exitOK {
		t.Fatalf("version: exit %d: %s", code, stderr.String())
	}
	if code := run([]string{"--version"}, nil, &b, &stderr); code != exitOK {
		t.Fatalf("--version: exit %d: %s", code, stderr.String())
	}
	if a.String() != b.String() || a.String() != currentVersion().String() {
		t.Errorf("version and --version differ:\n%s\n%s", a.String(), b.String())
	}
	if code := run([]string{"version", "-o", "json"}, nil, &j, &stderr); code != exitOK {
		t.Fatalf("version -o json: exit %d: %s", code, stderr.String())
	}
	var v versionInfo
	if err := json.Unmarshal(j.Bytes(), &v); err != nil {
		t.Fatalf("version -o json: %v\n%s", err, j.String())
	}
	if v != currentVersion() {
		t.Errorf("version -o json = %+v, want %+v", v, currentVersion())
	}
	for _, args := range [][]string{{"version", "-o", "yaml"}, {"version", "extra"}} {
		var out, errb bytes.Buffer
		if code := run(args, nil, &out, &errb); code != exitUsage || out.Len() > 0 {
			t.Errorf("%v: exit %d, stdout %q, want a usage error", args, code, out.String())
		}
	}
}

// TestVersionBinary builds kmerge as a user does (go build in this
// checkout) and checks that the binary reports its own build: the Go
// version and platform it was built with, the schema's Kubernetes
// version, and a version and commit of the right form. hack/release.sh
// checks the release builds' stamps against the commit they build.
func TestVersionBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "kmerge")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version", "-o", "json").Output()
	if err != nil {
		t.Fatalf("kmerge version -o json: %v", err)
	}
	var v versionInfo
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v.GoVersion != runtime.Version() || v.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("go %s %s, want %s %s/%s", v.GoVersion, v.Platform, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	if v.KubernetesAPI != schema.BuiltinVersion() || !strings.HasPrefix(v.Kubernetes, "v1.") {
		t.Errorf("kubernetes %s (k8s.io/api %s), want k8s.io/api %s", v.Kubernetes, v.KubernetesAPI, schema.BuiltinVersion())
	}
	// (devel), a tag, or a pseudo-version (+dirty for local changes)
	if !regexp.MustCompile(`^(\(devel\)|v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+dirty)?)$`).MatchString(v.Version) {
		t.Errorf("version %q is neither (devel) nor a module version", v.Version)
	}
	if v.Commit != "" && !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(v.Commit) {
		t.Errorf("commit %q is not a git revision", v.Commit)
	}
	text, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("kmerge --version: %v", err)
	}
	if string(text) != v.String() {
		t.Errorf("--version printed\n%s\nwhich is not the JSON's information:\n%s", text, v.String())
	}
}
