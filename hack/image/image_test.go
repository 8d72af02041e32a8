// Package image holds the tests of the kmerge container image: its
// definition (Containerfile, passwd, group) always, and the image itself
// when .ci/run has built it (KMERGE_IMAGE).
package image

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"debug/buildinfo"
	"debug/elf"
	"encoding/json"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// imageName is the name the examples give the image
// (cmd/kmerge/examples_test.go checks them).
const imageName = "ghcr.io/kmerge/kmerge:latest"

// TestContainerfile checks the definition: an empty base, the binary, the
// account files and the license files only, a numeric non-root user that passwd and group
// name, nobody in passwd (kpt and kustomize run functions with --user
// nobody, which must resolve), and kmerge fn as the entrypoint.
func TestContainerfile(t *testing.T) {
	var from, user, entrypoint string
	var copies []string
	f, err := os.Open("Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		instr, arg, _ := strings.Cut(sc.Text(), " ")
		switch instr {
		case "FROM":
			from = arg
		case "USER":
			user = arg
		case "ENTRYPOINT":
			entrypoint = arg
		case "COPY":
			copies = append(copies, arg)
		case "RUN", "ADD", "CMD", "SHELL":
			t.Errorf("Containerfile has %s: %s", instr, sc.Text())
		}
	}
	if from != "scratch" || entrypoint != `["/kmerge", "fn"]` || user != "65532:65532" {
		t.Errorf("FROM %s, USER %s, ENTRYPOINT %s", from, user, entrypoint)
	}
	if !slices.Equal(copies, []string{"passwd group /etc/", "linux_${TARGETARCH}/kmerge /kmerge", "licenses /licenses"}) {
		t.Errorf("COPY %q", copies)
	}
	passwd, group := readFile(t, "passwd"), readFile(t, "group")
	for _, want := range []string{"nobody:x:65534:65534:", "nonroot:x:65532:65532:"} {
		if !strings.Contains(passwd, "\n"+want) {
			t.Errorf("passwd lacks %s", want)
		}
	}
	for _, want := range []string{"nobody:x:65534:", "nonroot:x:65532:"} {
		if !strings.Contains(group, "\n"+want) {
			t.Errorf("group lacks %s", want)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ociArchive is an OCI image layout read from a tar archive (what
// hack/image/build.sh writes): its files by name.
type ociArchive map[string][]byte

func readOCIArchive(t *testing.T, path string) ociArchive {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := ociArchive{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			files[strings.TrimPrefix(h.Name, "./")] = b
		}
	}
	return files
}

// descriptor is an OCI content descriptor.
type descriptor struct {
	MediaType   string `json:"mediaType"`
	Digest      string `json:"digest"`
	Size        int64  `json:"size"`
	Platform    *struct{ OS, Architecture string }
	Annotations map[string]string `json:"annotations"`
}

// blob decodes the JSON blob d points to, checking its size.
func (a ociArchive) blob(t *testing.T, d descriptor, v any) []byte {
	t.Helper()
	b, ok := a["blobs/sha256/"+strings.TrimPrefix(d.Digest, "sha256:")]
	if !ok || int64(len(b)) != d.Size {
		t.Fatalf("blob %s: present %v, %d bytes, want %d", d.Digest, ok, len(b), d.Size)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("blob %s: %v", d.Digest, err)
		}
	}
	return b
}

// imageConfig is the part of an OCI image configuration the test reads.
type imageConfig struct {
	OS           string `json:"os"`
	Architecture string `json:"architecture"`
	Config       struct {
		User       string            `json:"User"`
		Entrypoint []string          `json:"Entrypoint"`
		Cmd        []string          `json:"Cmd"`
		Labels     map[string]string `json:"Labels"`
	} `json:"config"`
}

// TestImage checks the image .ci/run builds (KMERGE_IMAGE: the OCI archive
// of hack/image/build.sh; KMERGE_DIST: the release it was built from):
//   - an index of linux/amd64 and linux/arm64, in that order;
//   - each configuration: entrypoint kmerge fn, no command, user
//     65532:65532, the version and commit as labels;
//   - each one layer holding exactly /etc/passwd, /etc/group, /kmerge and
//     /licenses (LICENSE and THIRD_PARTY_NOTICES.txt, the repository's) (so
//     no shell, nothing else), owned by root, the binary executable;
//   - the binary static (no ELF interpreter) for its architecture, the
//     very bytes of the release archive, stamped with the labels' commit;
//   - the release archives hold the repository's LICENSE and notices;
//   - then, with podman: the image run as kpt and kustomize run functions
//     (--user nobody, no network) gives what the binary run directly gives;
//     the Argo CD plugin's generate command runs in it as user 999 on a
//     read-only folder; and kustomize, with the image as a container
//     function (examples/kustomize-container), builds the expected output.
//
// Without KMERGE_IMAGE the test is skipped: building and running images
// needs buildah and podman, which .ci/run installs.
func TestImage(t *testing.T) {
	path := os.Getenv("KMERGE_IMAGE")
	if path == "" {
		t.Skip("KMERGE_IMAGE is not set: .ci/run builds the image and sets it")
	}
	a := readOCIArchive(t, path)
	var top struct{ Manifests []descriptor }
	if err := json.Unmarshal(a["index.json"], &top); err != nil || len(top.Manifests) != 1 {
		t.Fatalf("index.json: %v %v", top, err)
	}
	tag := top.Manifests[0].Annotations["org.opencontainers.image.ref.name"]
	var index struct{ Manifests []descriptor }
	a.blob(t, top.Manifests[0], &index)
	var platforms []string
	binaries := map[string][]byte{}
	var version, revision string
	for _, m := range index.Manifests {
		platforms = append(platforms, m.Platform.OS+"/"+m.Platform.Architecture)
		var manifest struct {
			Config descriptor
			Layers []descriptor
		}
		a.blob(t, m, &manifest)
		var cfg imageConfig
		a.blob(t, manifest.Config, &cfg)
		c := cfg.Config
		if cfg.OS != m.Platform.OS || cfg.Architecture != m.Platform.Architecture || !slices.Equal(c.Entrypoint, []string{"/kmerge", "fn"}) || len(c.Cmd) != 0 || c.User != "65532:65532" {
			t.Errorf("%s: config %+v", platforms[len(platforms)-1], cfg)
		}
		version, revision = c.Labels["org.opencontainers.image.version"], c.Labels["org.opencontainers.image.revision"]
		if tag != "ghcr.io/kmerge/kmerge:"+version || len(revision) != 40 {
			t.Errorf("labels: version %q (tag %q), revision %q", version, tag, revision)
		}
		if len(manifest.Layers) != 1 {
			t.Fatalf("%d layers, want 1", len(manifest.Layers))
		}
		files := layerFiles(t, a.blob(t, manifest.Layers[0], nil))
		if names := slices.Sorted(maps.Keys(files)); !slices.Equal(names, []string{"etc/", "etc/group", "etc/passwd", "kmerge", "licenses/", "licenses/LICENSE", "licenses/THIRD_PARTY_NOTICES.txt"}) {
			t.Errorf("the layer holds %v, want etc/passwd, etc/group, kmerge and licenses/", names)
		}
		for _, name := range []string{"LICENSE", "THIRD_PARTY_NOTICES.txt"} {
			if string(files["licenses/"+name].data) != readFile(t, filepath.Join("..", "..", name)) {
				t.Errorf("/licenses/%s differs from the repository's", name)
			}
		}
		if string(files["etc/passwd"].data) != readFile(t, "passwd") || string(files["etc/group"].data) != readFile(t, "group") {
			t.Errorf("/etc/passwd or /etc/group differ from hack/image's")
		}
		bin := files["kmerge"]
		if bin.mode&0o111 != 0o111 || bin.uid != 0 {
			t.Errorf("/kmerge mode %o owner %d", bin.mode, bin.uid)
		}
		checkStatic(t, bin.data, cfg.Architecture, revision)
		binaries[cfg.Architecture] = bin.data
	}
	if !slices.Equal(platforms, []string{"linux/amd64", "linux/arm64"}) {
		t.Errorf("platforms %v", platforms)
	}
	if dist := os.Getenv("KMERGE_DIST"); dist != "" {
		for arch, data := range binaries {
			archive := filepath.Join(dist, "kmerge_"+version+"_linux_"+arch+".tar.gz")
			if rel := fileInTarGz(t, archive, "kmerge_"+version+"_linux_"+arch+"/kmerge"); !bytes.Equal(rel, data) {
				t.Errorf("linux/%s: the image's /kmerge is not the binary of %s", arch, archive)
			}
			for _, name := range []string{"LICENSE", "THIRD_PARTY_NOTICES.txt"} {
				if rel := fileInTarGz(t, archive, "kmerge_"+version+"_linux_"+arch+"/"+name); string(rel) != readFile(t, filepath.Join("..", "..", name)) {
					t.Errorf("%s: %s differs from the repository's", archive, name)
				}
			}
		}
	}
	runImage(t, path, tag, binaries["amd64"], version)
}

type layerFile struct {
	mode int64
	uid  int
	data []byte
}

// layerFiles reads a gzip-compressed layer.
func layerFiles(t *testing.T, layer []byte) map[string]layerFile {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(layer))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]layerFile{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		files[strings.TrimPrefix(h.Name, "./")] = layerFile{mode: h.Mode, uid: h.Uid, data: data}
	}
}

// checkStatic checks that data is a static ELF executable for arch,
// stamped with the commit revision and built without cgo.
func checkStatic(t *testing.T, data []byte, arch, revision string) {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("/kmerge (%s): %v", arch, err)
	}
	machine := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[arch]
	if f.Machine != machine {
		t.Errorf("/kmerge (%s): machine %v", arch, f.Machine)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("/kmerge (%s) is dynamically linked (%v)", arch, p.Type)
		}
	}
	bi, err := buildinfo.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if settings["vcs.revision"] != revision || settings["CGO_ENABLED"] != "0" || settings["vcs.modified"] != "false" {
		t.Errorf("/kmerge (%s): build settings %v", arch, settings)
	}
}

// fileInTarGz returns the file named name in the archive at path.
func fileInTarGz(t *testing.T, path, name string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("%s: %s: %v", path, name, err)
		}
		if h.Name == name {
			data, _ := io.ReadAll(tr)
			return data
		}
	}
}

// podman runs podman with a storage of its own (the test's) and the global
// flags of $KMERGE_PODMAN_FLAGS (.ci/run: --runtime runc, as crun cannot
// run containers under this machine's hybrid cgroups).
type podman struct {
	t     *testing.T
	flags []string
}

func newPodman(t *testing.T) *podman {
	if _, err := exec.LookPath("podman"); err != nil {
		t.Fatalf("podman is needed to run the image: %v", err)
	}
	dir := t.TempDir()
	flags := []string{"--root", filepath.Join(dir, "root"), "--runroot", filepath.Join(dir, "run"), "--storage-driver", "vfs"}
	flags = append(flags, strings.Fields(os.Getenv("KMERGE_PODMAN_FLAGS"))...)
	return &podman{t: t, flags: flags}
}

// runFlags go with every podman run: limits within what a sandbox allows
// (podman's defaults exceed them on this machine).
var runFlags = []string{"--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"}

func (p *podman) command(args ...string) *exec.Cmd {
	if len(args) > 0 && args[0] == "run" {
		args = append([]string{"run"}, append(slices.Clone(runFlags), args[1:]...)...)
	}
	return exec.Command("podman", append(slices.Clone(p.flags), args...)...)
}

// output runs podman with stdin and returns its standard output.
func (p *podman) output(stdin []byte, args ...string) []byte {
	p.t.Helper()
	cmd := p.command(args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		p.t.Fatalf("podman %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// runImage loads the image into podman, as docs/release.md says, under
// its name (tag) and imageName, and runs it.
func runImage(t *testing.T, archive, tag string, amd64 []byte, version string) {
	p := newPodman(t)
	if out := string(p.output(nil, "load", "-q", "-i", archive)); strings.TrimSpace(out) != "Loaded image: "+tag {
		t.Errorf("podman load: %q, want the image named %s", out, tag)
	}
	p.output(nil, "tag", tag, imageName)

	// as kpt and kustomize run a function: the same output as the binary
	// run directly (the image's own linux/amd64 binary, on this machine)
	rl, err := os.ReadFile("../../examples/krm/resourcelist.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := p.output(rl, "run", "--rm", "-i", "--network", "none", "--user", "nobody", "--security-opt=no-new-privileges", imageName)
	bin := filepath.Join(t.TempDir(), "kmerge")
	if err := os.WriteFile(bin, amd64, 0o755); err != nil {
		t.Fatal(err)
	}
	direct := exec.Command(bin, "fn")
	direct.Stdin = bytes.NewReader(rl)
	want, err := direct.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || !bytes.Contains(got, []byte("replicas: 3")) {
		t.Errorf("the image as a KRM function:\n%s\nthe binary directly:\n%s", got, want)
	}

	// the default user, the binary's version
	var v struct{ Version string }
	if err := json.Unmarshal(p.output(nil, "run", "--rm", "--network", "none", "--entrypoint", "/kmerge", imageName, "version", "-o", "json"), &v); err != nil || v.Version != version {
		t.Errorf("kmerge version in the image: %q %v, want %s", v.Version, err, version)
	}

	// the Argo CD plugin's generate command, as Argo CD's sidecar runs it:
	// user 999 (not in /etc/passwd), in the application's folder
	app, err := filepath.Abs("../../examples/argocd/app")
	if err != nil {
		t.Fatal(err)
	}
	rendered := p.output(nil, "run", "--rm", "--network", "none", "--user", "999", "-v", app+":/app:ro", "-w", "/app",
		"--entrypoint", "/kmerge", imageName, "apply", "-f", "manifests", "-p", "overrides", "--strict")
	if want := readFile(t, "../../cmd/kmerge/testdata/examples/argocd.out.yaml"); string(rendered) != want {
		t.Errorf("the Argo CD plugin in the image:\n%s\nwant:\n%s", rendered, want)
	}

	kustomizeContainer(t, p)
}

// kustomizeContainer runs kustomize ($KMERGE_KUSTOMIZE, which .ci/run
// installs) on examples/kustomize-container, whose transformer is the
// kmerge image as a container function. kustomize runs containers with
// the docker command: a docker script on PATH hands its arguments to
// podman. The expected output was written by hand: replicas 3 and the new
// image; kustomize sorts keys and drops comments.
func kustomizeContainer(t *testing.T, p *podman) {
	kustomize := os.Getenv("KMERGE_KUSTOMIZE")
	if kustomize == "" {
		t.Fatal("KMERGE_KUSTOMIZE is not set: the kustomize binary runs the container example")
	}
	shim := t.TempDir()
	cmd := p.command("run")
	script := "#!/bin/sh\n# docker, as kustomize runs it, by podman\n[ \"$1\" = run ] || { echo \"docker $1: not supported\" >&2; exit 1; }\nshift\nexec"
	for _, a := range cmd.Args {
		script += " '" + a + "'"
	}
	script += " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(shim, "docker"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	build := exec.Command(kustomize, "build", "--enable-alpha-plugins", "../../examples/kustomize-container")
	build.Env = append(os.Environ(), "PATH="+shim+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr bytes.Buffer
	build.Stderr = &stderr
	out, err := build.Output()
	if err != nil {
		t.Fatalf("kustomize build: %v\n%s", err, stderr.String())
	}
	want := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
spec:
  replicas: 3
  template:
    spec:
      containers:
      - image: registry.example.com/shop/web:1.5
        name: web
`
	if string(out) != want {
		t.Errorf("kustomize build examples/kustomize-container:\n%s\nwant:\n%s", out, want)
	}
}
