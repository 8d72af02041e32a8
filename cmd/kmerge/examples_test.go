package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// imageName is the kmerge image the examples run (hack/image builds it;
// docs/integrations.md says how to load it under this name).
const imageName = "ghcr.io/kmerge/kmerge:latest"

// resourceList makes the ResourceList an orchestrator hands the function:
// the files as items, fnConfig as the functionConfig, as YAML text that
// keeps their comments.
func resourceList(t *testing.T, fnConfig string, items ...string) string {
	t.Helper()
	indent := func(path, first string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
			switch {
			case i == 0:
				b.WriteString(first)
			case line == "":
			default:
				b.WriteString(strings.Repeat(" ", len(first)))
			}
			b.WriteString(line + "\n")
		}
		return b.String()
	}
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for _, it := range items {
		b.WriteString(indent(it, "- "))
	}
	b.WriteString("functionConfig:\n" + indent(fnConfig, "  "))
	return b.String()
}

// goldenPath is the absolute path of testdata/examples/NAME (tests that
// change folders take it first).
func goldenPath(t *testing.T, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("testdata", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// runGolden runs kmerge with args and stdin and compares its output with
// the golden file at path (-update rewrites it).
func runGolden(t *testing.T, path string, stdin string, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, strings.NewReader(stdin), &stdout, &stderr); code != exitOK {
		t.Fatalf("kmerge %v: exit %d\n%s", args, code, stderr.String())
	}
	if *update {
		os.WriteFile(path, stdout.Bytes(), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if stdout.String() != string(want) {
		t.Errorf("kmerge %v:\n%s\nwant (%s):\n%s", args, stdout.String(), path, want)
	}
}

// yamlField reads the YAML file at path and returns the value at the
// dotted path (list items by index), failing the test if it is missing.
func yamlField(t *testing.T, path, field string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return lookup(t, v, field, path)
}

func lookup(t *testing.T, v any, field, where string) any {
	t.Helper()
	for _, k := range strings.Split(field, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				t.Fatalf("%s: %s: no item %s", where, field, k)
			}
			v = x[i]
		default:
			t.Fatalf("%s: %s: no field %s", where, field, k)
		}
		if v == nil {
			t.Fatalf("%s: %s: no field %s", where, field, k)
		}
	}
	return v
}

// TestKptExample: the Kptfile runs the kmerge image with kmerge-fn.yaml;
// that function config, run through kmerge fn (the image's entrypoint) on
// the package's resources, scales the Deployment and sets the image
// (values from the config), and leaves the comment. hack/image's
// TestImage runs the same ResourceList through the image itself.
func TestKptExample(t *testing.T) {
	dir := "../../examples/kpt"
	if got := yamlField(t, dir+"/Kptfile", "pipeline.mutators.0.image"); got != imageName {
		t.Errorf("Kptfile runs %v, want %s", got, imageName)
	}
	cfg := yamlField(t, dir+"/Kptfile", "pipeline.mutators.0.configPath").(string)
	runGolden(t, goldenPath(t, "kpt.out.yaml"), resourceList(t, filepath.Join(dir, cfg), dir+"/deployment.yaml"), "fn")
}

// TestKustomizeContainerExample: the transformer config names the kmerge
// image as a container function; run through kmerge fn, it patches the
// Deployment. hack/image's TestImage runs kustomize itself with the image.
func TestKustomizeContainerExample(t *testing.T) {
	dir := "../../examples/kustomize-container"
	ann := yamlField(t, dir+"/kmerge-fn.yaml", "metadata.annotations").(map[string]any)
	var fn struct {
		Container struct{ Image string } `yaml:"container"`
	}
	if err := yaml.Unmarshal([]byte(ann["config.kubernetes.io/function"].(string)), &fn); err != nil || fn.Container.Image != imageName {
		t.Errorf("the function annotation runs %q (%v), want %s", fn.Container.Image, err, imageName)
	}
	if got := yamlField(t, dir+"/kustomization.yaml", "transformers.0"); got != "kmerge-fn.yaml" {
		t.Errorf("kustomization transformers: %v", got)
	}
	runGolden(t, goldenPath(t, "kustomize-container.out.yaml"), resourceList(t, dir+"/kmerge-fn.yaml", dir+"/deployment.yaml"), "fn")
}

// TestArgoCDExample checks the Argo CD plugin example: the sidecar runs the
// kmerge image as Argo CD's plugin server, as user 999, with the plugin
// configuration of cmp-plugin.yaml mounted where the server reads it; the
// Application names the plugin as Argo CD does (name-version); the
// discover rule matches the example application; and the generate command,
// run in the application's folder (with /kmerge, the binary's path in the
// image, standing for kmerge), renders it.
func TestArgoCDExample(t *testing.T) {
	dir, err := filepath.Abs("../../examples/argocd")
	if err != nil {
		t.Fatal(err)
	}
	side := dir + "/repo-server-sidecar.yaml"
	c := yamlField(t, side, "spec.template.spec.containers.0").(map[string]any)
	if c["image"] != imageName || lookup(t, c, "command.0", side) != "/var/run/argocd/argocd-cmp-server" || lookup(t, c, "securityContext.runAsUser", side) != 999 {
		t.Errorf("sidecar %v", c)
	}
	mounts := map[string]string{}
	for _, m := range c["volumeMounts"].([]any) {
		m := m.(map[string]any)
		mounts[m["mountPath"].(string)] = m["name"].(string)
	}
	cfgVolume := mounts["/home/argocd/cmp-server/config/plugin.yaml"]
	if cfgVolume == "" || mounts["/var/run/argocd"] != "var-files" || mounts["/home/argocd/cmp-server/plugins"] != "plugins" || mounts["/tmp"] == "" {
		t.Errorf("sidecar mounts %v", mounts)
	}
	var configMap string
	for _, v := range yamlField(t, side, "spec.template.spec.volumes").([]any) {
		if v := v.(map[string]any); v["name"] == cfgVolume {
			configMap = lookup(t, v, "configMap.name", side).(string)
		}
	}
	plugin := dir + "/cmp-plugin.yaml"
	if got := yamlField(t, plugin, "metadata.name"); got != configMap {
		t.Errorf("the sidecar mounts ConfigMap %q, cmp-plugin.yaml is %v", configMap, got)
	}
	var p struct {
		Metadata struct{ Name string }
		Spec     struct {
			Version  string
			Generate struct{ Command []string }
			Discover struct {
				FileName string `yaml:"fileName"`
			}
		}
	}
	text, _ := yamlField(t, plugin, "data").(map[string]any)["plugin.yaml"].(string)
	if err := yaml.Unmarshal([]byte(text), &p); err != nil || text == "" {
		t.Fatal(err)
	}
	if got := yamlField(t, dir+"/application.yaml", "spec.source.plugin.name"); got != p.Metadata.Name+"-"+p.Spec.Version {
		t.Errorf("the Application uses plugin %v, the plugin is %s version %s", got, p.Metadata.Name, p.Spec.Version)
	}
	app := filepath.Join(dir, "app")
	if m, _ := filepath.Glob(filepath.Join(app, p.Spec.Discover.FileName)); len(m) == 0 {
		t.Errorf("discover %q matches nothing in %s", p.Spec.Discover.FileName, app)
	}
	cmd := p.Spec.Generate.Command
	if len(cmd) == 0 || cmd[0] != "/kmerge" {
		t.Fatalf("generate command %v does not run /kmerge", cmd)
	}
	golden := goldenPath(t, "argocd.out.yaml")
	t.Chdir(app)
	runGolden(t, golden, "", cmd[1:]...)
}
