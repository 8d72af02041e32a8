package resource

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const (
	deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: prod\n  labels: {app: web, tier: front}\n"
	svc    = "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  labels: {app: web}\n"
	list   = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b, labels: {legacy: \"true\"}}\n"
	kust   = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [deploy.yaml]\n"
	widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\napiVersion: other.org/v1\nkind: Widget\nmetadata: {name: w}\n"
)

// TestLoad: a folder is read recursively in lexical order, dot folders and
// other files skipped; List items are objects of their own; a
// kustomization file is no object; an empty document is kept.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"b/deploy.yaml":           deploy,
		"a.yml":                   svc + "---\n",
		"c/list.json":             `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}]}`,
		"c/kustomization.yaml":    kust,
		".git/x.yaml":             "not: an object\n",
		"README.md":               "# not a manifest\n",
		"d/lists/configmaps.yaml": list,
	})
	set, err := Load(context.Background(), []string{dir, "-"}, strings.NewReader("apiVersion: v1\nkind: Namespace\nmetadata: {name: prod}\n"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var srcs []string
	for _, s := range set.Sources {
		srcs = append(srcs, s.Rel)
	}
	if got := strings.Join(srcs, " "); got != "a.yml b/deploy.yaml c/kustomization.yaml c/list.json d/lists/configmaps.yaml stdin.yaml" {
		t.Errorf("sources: %s", got)
	}
	var ids []string
	for _, r := range set.Resources {
		ids = append(ids, r.ID()+"@"+r.Position().String())
	}
	want := []string{
		"v1 Service web@" + filepath.Join(dir, "a.yml") + ":1:1: ",
		"apps/v1 Deployment prod/web@" + filepath.Join(dir, "b/deploy.yaml") + ":1:1: ",
		"v1 Secret s@" + filepath.Join(dir, "c/list.json") + ":1:43: ",
		"v1 ConfigMap a@" + filepath.Join(dir, "d/lists/configmaps.yaml") + ":4:3: ",
		"v1 ConfigMap b@" + filepath.Join(dir, "d/lists/configmaps.yaml") + ":7:3: ",
		"v1 Namespace prod@<stdin>:1:1: ",
	}
	if strings.Join(ids, "\n") != strings.Join(want, "\n") {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(ids, "\n"), strings.Join(want, "\n"))
	}
}

// TestLoadErrors: each document that is not an object, with its position.
func TestLoadErrors(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{"- a\n- b\n", "f.yaml:1:1: not a Kubernetes object: the document is an array, not a mapping"},
		{"image: {tag: x}\n", "f.yaml:1:1: not a Kubernetes object: no apiVersion and no kind"},
		{"a: 1\n---\nkind: Pod\nmetadata: {name: p}\n", "f.yaml:1:1: not a Kubernetes object: no apiVersion and no kind"},
		{"kind: Pod\nmetadata: {name: p}\n", "f.yaml:1:1: not a Kubernetes object: Pod without apiVersion"},
		{"apiVersion: v1\nmetadata: {name: p}\n", "f.yaml:1:1: not a Kubernetes object: no kind"},
		{"apiVersion: v1\nkind: Pod\n", "f.yaml:1:1: v1 Pod has no metadata.name"},
		{"apiVersion: v1\nkind: List\nitems:\n- 3\n", "f.yaml:4:3: not a Kubernetes object: item 0 of the list is an integer, not a mapping"},
		{"apiVersion: v1\nkind: List\nitems: {}\n", "f.yaml:3:8: the items of a List must be a list"},
		{"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n", ""},
		{"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n", "f.yaml:5:1: v1 Pod p is defined twice: here and at f.yaml:1:1"},
		{"apiVersion: v1\nkind: WatchList\nmetadata: {name: w}\n", ""}, // a kind ending in List with no items is an object
	} {
		dir := t.TempDir()
		write(t, dir, map[string]string{"f.yaml": c.in})
		t.Chdir(dir)
		_, err := Load(context.Background(), []string{"f.yaml"}, nil, LoadOptions{})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.msg {
			t.Errorf("%q:\n got %s\nwant %s", c.in, got, c.msg)
		}
		// the same text in memory: the same error
		_, err = Parse([]byte(c.in), "f.yaml", LoadOptions{})
		got = ""
		if err != nil {
			got = err.Error()
		}
		if got != c.msg {
			t.Errorf("Parse %q:\n got %s\nwant %s", c.in, got, c.msg)
		}
	}
}

// TestParse: an input in memory gives the set that Load gives for a file
// of that name and content: its objects, their positions, the source's
// names; a name ending in .json reads JSON as JSON.
func TestParse(t *testing.T) {
	for name, content := range map[string]string{
		"all.yaml":  deploy + "---\n" + svc + "---\n" + list + "# end\n",
		"list.json": `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"}}]}`,
	} {
		dir := t.TempDir()
		write(t, dir, map[string]string{name: content})
		t.Chdir(dir)
		loaded, err := Load(context.Background(), []string{name}, nil, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := Parse([]byte(content), name, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		show := func(set *Set) string {
			var b strings.Builder
			for _, src := range set.Sources {
				fmt.Fprintf(&b, "source %s %s %s %d docs\n", src.Path, src.Rel, src.Stream.Format, len(src.Stream.Docs))
			}
			for _, r := range set.Resources {
				fmt.Fprintf(&b, "%s@%s\n", r.ID(), r.Position())
			}
			return b.String()
		}
		if got, want := show(parsed), show(loaded); got != want || len(parsed.Resources) == 0 {
			t.Errorf("%s: Parse:\n%s\nLoad:\n%s", name, got, want)
		}
	}
	// a trailing comma: YAML accepts it, JSON does not
	trailing := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},}`)
	if _, err := Parse(trailing, "pod.yaml", LoadOptions{}); err != nil {
		t.Errorf("pod.yaml: %v", err)
	}
	if _, err := Parse(trailing, "pod.json", LoadOptions{}); err == nil || !strings.HasPrefix(err.Error(), "pod.json:1:57: ") {
		t.Errorf("pod.json is read as JSON: got %v", err)
	}
}

// TestSelect: kinds by name, plural, short name and group; names; the
// namespace default; labels; the group ambiguity error.
func TestSelect(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"all.yaml": deploy + "---\n" + svc + "---\n" + list + "---\n" + widget})
	set, err := Load(context.Background(), []string{filepath.Join(dir, "all.yaml")}, nil, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := schema.Builtin()
	for _, c := range []struct {
		sel  Selector
		want string
	}{
		{Selector{Kind: "deployment", Name: "web"}, "apps/v1 Deployment prod/web"},
		{Selector{Kind: "Deployments", Name: "web"}, "apps/v1 Deployment prod/web"},
		{Selector{Kind: "deploy", Name: "web", Namespace: "prod"}, "apps/v1 Deployment prod/web"},
		{Selector{Kind: "deploy", Name: "web", Namespace: "default"}, ""},
		{Selector{Kind: "deployment.apps", Name: "web"}, "apps/v1 Deployment prod/web"},
		{Selector{Kind: "deployment.extensions", Name: "web"}, ""},
		{Selector{Kind: "svc", Name: "web", Namespace: "default"}, "v1 Service web"},
		{Selector{Kind: "SERVICE", Name: "*"}, "v1 Service web"},
		{Selector{Kind: "cm", Name: "*"}, "v1 ConfigMap a, v1 ConfigMap b"},
		{Selector{Kind: "configmap", Labels: "!legacy"}, "v1 ConfigMap a"},
		{Selector{Labels: "app=web"}, "apps/v1 Deployment prod/web, v1 Service web"},
		{Selector{Labels: "app=web,tier in (front, back)"}, "apps/v1 Deployment prod/web"},
		{Selector{Labels: "tier notin (front)"}, "v1 Service web, v1 ConfigMap a, v1 ConfigMap b, example.com/v1 Widget w, other.org/v1 Widget w"},
		{Selector{Kind: "widget.example.com", Name: "w"}, "example.com/v1 Widget w"},
		{Selector{Kind: "widget", APIVersion: "other.org/v1"}, "other.org/v1 Widget w"},
	} {
		rs, err := set.Select(c.sel, s)
		if err != nil {
			t.Errorf("%+v: %v", c.sel, err)
			continue
		}
		var ids []string
		for _, r := range rs {
			ids = append(ids, r.ID())
		}
		if got := strings.Join(ids, ", "); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.sel, got, c.want)
		}
	}
	_, err = set.Select(Selector{Kind: "widget", Name: "w"}, s)
	if err == nil || err.Error() != `kind "widget" names objects of several groups here: qualify it as one of widget.example.com, widget.other.org` {
		t.Errorf("ambiguous kind: %v", err)
	}
}

func TestLabelSelector(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "front", "empty": ""}
	for sel, want := range map[string]bool{
		"":                           true,
		"app=web":                    true,
		"app==web":                   true,
		"app!=web":                   false,
		"app=db":                     false,
		"missing!=x":                 true,
		"app,tier":                   true,
		"missing":                    false,
		"!missing":                   true,
		"!app":                       false,
		"tier in (front,back)":       true,
		"tier in (back)":             false,
		"tier notin (back)":          true,
		"missing notin (x)":          true,
		"missing in (x)":             false,
		"app=web, tier in (a,front)": true,
		"empty=":                     true,
	} {
		ls, err := ParseLabelSelector(sel)
		if err != nil {
			t.Errorf("%q: %v", sel, err)
			continue
		}
		if got := ls.Matches(labels); got != want {
			t.Errorf("%q matches: %v, want %v", sel, got, want)
		}
	}
	for _, bad := range []string{"=x", "!", "tier in front", "a b c"} {
		if _, err := ParseLabelSelector(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestStream: each gets every source once, with its objects, while the set
// is read; sources released in each keep their objects' identities and
// positions; the set returned is Load's; a file that does not parse is not
// passed to each, and the error is the first in input order.
func TestStream(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"a.yaml": deploy, "b.yaml": svc + "---\n" + widget, "c/list.yaml": list, "c/kustomization.yaml": kust})
	loaded, err := Load(context.Background(), []string{dir}, nil, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]string{}
	set, err := Stream(context.Background(), []string{dir}, nil, LoadOptions{Workers: 3}, func(src *Source, objs []*Resource) {
		var ids []string
		for _, r := range objs {
			if r.Source != src || r.Root.Kind != yaml.MappingNode || len(r.Root.Content) == 0 {
				t.Errorf("%s: object %s is not in its source", src.Rel, r.ID())
			}
			ids = append(ids, r.ID())
		}
		src.Release(objs)
		mu.Lock()
		defer mu.Unlock()
		if _, twice := seen[src.Rel]; twice {
			t.Errorf("source %s given twice", src.Rel)
		}
		seen[src.Rel] = src.Rel + ": " + strings.Join(ids, ", ")
	})

	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a.yaml: apps/v1 Deployment prod/web",
		"b.yaml: v1 Service web, example.com/v1 Widget w, other.org/v1 Widget w",
		"c/kustomization.yaml: ",
		"c/list.yaml: v1 ConfigMap a, v1 ConfigMap b",
	}
	for i, w := range want {
		if rel, _, _ := strings.Cut(w, ":"); seen[rel] != w || set.Sources[i].Rel != rel {
			t.Errorf("source %d: %s, %q, want %q", i, set.Sources[i].Rel, seen[rel], w)
		}
	}
	if len(set.Resources) != len(loaded.Resources) {
		t.Fatalf("%d objects, Load has %d", len(set.Resources), len(loaded.Resources))
	}
	for i, r := range set.Resources {
		l := loaded.Resources[i]
		if r.ID() != l.ID() || r.Position() != l.Position() || r.Source.Stream != nil {
			t.Errorf("object %d: %s at %s (stream %v), Load has %s at %s", i, r.ID(), r.Position(), r.Source.Stream != nil, l.ID(), l.Position())
		}
	}

	write(t, dir, map[string]string{"a.yaml": "a: [\n", "b.yaml": "b: [\n"})
	calls := 0
	_, err = Stream(context.Background(), []string{dir}, nil, LoadOptions{Workers: 3}, func(src *Source, objs []*Resource) {
		mu.Lock()
		calls++
		mu.Unlock()
	})

	if err == nil || !strings.Contains(err.Error(), "a.yaml:") {
		t.Errorf("two broken files: %v, want a.yaml's error", err)
	}
	if calls != 2 {
		t.Errorf("each called %d times, want 2 (the files that parse)", calls)
	}
}

// TestStreamCancelled: once the context is done, Stream reads, parses and
// hands on no further source, and returns context.Canceled wrapped with
// the first file it did not take. Here the context is cancelled from the
// call for the first file (one worker: in order): the second is not read.
func TestStreamCancelled(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"a.yaml": deploy, "b.yaml": svc})
	ctx, cancel := context.WithCancel(context.Background())
	var got []string
	set, err := Stream(ctx, []string{dir}, nil, LoadOptions{Workers: 1}, func(src *Source, objs []*Resource) {
		got = append(got, src.Rel)
		cancel()
	})
	if want := "stopped before reading " + filepath.Join(dir, "b.yaml") + ": context canceled"; set != nil || !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("%v, %v; want %q", set, err, want)
	}
	if len(got) != 1 || got[0] != "a.yaml" {
		t.Errorf("handed on %v, want a.yaml alone", got)
	}
	if _, err := Load(ctx, []string{dir}, nil, LoadOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Load with a cancelled context: %v", err)
	}
}

// TestSelectorString: a target prints as a header writes it, with a kind
// qualified by its group and a name with a dot quoted, a label selector in
// braces (after * when no name is given); a bare name as itself; a
// kustomize target as the YAML flow mapping it was written as.
func TestSelectorString(t *testing.T) {
	for _, c := range []struct {
		sel  Selector
		want string
	}{
		{Selector{Kind: "deployment", Name: "web"}, "deployment.web"},
		{Selector{Kind: "deployment.apps", Name: "*", Namespace: "prod"}, `prod/"deployment.apps".*`},
		{Selector{Kind: "configmap", Name: "my.app"}, `configmap."my.app"`},
		{Selector{Kind: "Deployment", Labels: "tier=web"}, "Deployment.*{tier=web}"},
		{Selector{Kind: "deployment", Name: "shop-*", Labels: "env in (a,b)"}, "deployment.shop-*{env in (a,b)}"},
		{Selector{Name: "demo", Bare: true}, "demo"},
		{Selector{Kind: "Deployment", Name: "web-.*", Group: "apps", Regexp: true}, `{group: apps, kind: Deployment, name: "web-.*"}`},
		{Selector{Kind: "ConfigMap", Annotations: "team=a", Regexp: true}, `{kind: ConfigMap, annotationSelector: team=a}`},
	} {
		if got := c.sel.String(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.sel, got, c.want)
		}
	}
}

// TestKustomizations: the documents kustomize reads as kustomizations are
// no objects, with or without apiVersion, and a file of nothing else is
// marked as one (kmerge apply leaves it out of its output), as
// IsKustomizationFile says (kmerge patch leaves it out); anything else
// without apiVersion and kind stays an error.
func TestKustomizations(t *testing.T) {
	for _, c := range []struct {
		name, text string
		marked     bool   // Source.Kustomization
		err        string // "" for none
	}{
		{"kustomization.yaml", "resources:\n- deploy.yaml\npatches:\n- path: p.yaml\n", true, ""}, // most real ones: no apiVersion, no kind
		{"kustomization.yml", "resources: [deploy.yaml]\n", true, ""},
		{"kustomization.yaml", kust, true, ""},
		{"base.yaml", kust, true, ""},                                         // by apiVersion, whatever the name
		{"base.yaml", "kind: Kustomization\nresources: [a.yaml]\n", true, ""}, // kind without apiVersion
		{"components/x/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n", true, ""},
		{"kustomization.yaml", "# only a comment\n---\nresources: [a.yaml]\n---\n", true, ""},
		{"kustomization.yaml", deploy, false, ""},                                                           // a Deployment, whatever the file's name
		{"kustomization.yaml", "resources: [a.yaml]\n---\n" + deploy, false, ""},                            // a stream holding more than that is a manifest file
		{"base.yaml", "resources: [a.yaml]\n", false, "not a Kubernetes object: no apiVersion and no kind"}, // kustomize reads no such file
		{"kustomization.yaml", "apiVersion: v1\nresources: [a.yaml]\n", false, "not a Kubernetes object: no kind"},
	} {
		set, err := Parse([]byte(c.text), c.name, LoadOptions{})
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %q: %v, want %q", c.name, c.text, err, c.err)
			}
			continue
		case err != nil:
			t.Errorf("%s %q: %v", c.name, c.text, err)
			continue
		}
		if got := set.Sources[0].Kustomization; got != c.marked {
			t.Errorf("%s %q: Kustomization = %v, want %v", c.name, c.text, got, c.marked)
		}
		if got := IsKustomizationFile([]byte(c.text), c.name); got != c.marked {
			t.Errorf("%s %q: IsKustomizationFile = %v, want %v", c.name, c.text, got, c.marked)
		}
		if c.marked && len(set.Resources) != 0 {
			t.Errorf("%s %q: %d objects", c.name, c.text, len(set.Resources))
		}
	}
}

// TestFiles: the files Load reads, in its order, "-" kept.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"b/x.yaml": svc, "a.json": "{}", "c.txt": "", ".hidden/y.yaml": svc})
	got, err := Files([]string{filepath.Join(dir, "b", "x.yaml"), "-", dir})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "b", "x.yaml"), "-", filepath.Join(dir, "a.json"), filepath.Join(dir, "b", "x.yaml")}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Files = %q, want %q", got, want)
	}
	if _, err := Files([]string{filepath.Join(dir, "nosuch")}); err == nil {
		t.Error("a missing path is no error")
	}
}

// TestStreamParts: a long stream read in parts (LoadOptions.Parts) gives
// the objects a whole read gives, at the same positions, in parts that
// follow each other in the set (Part, Line, Whole); a stream whose parts do
// not all read (an error in a late part, more documents than the limit
// allows) is read whole, and gives the whole read's error; a stream of
// kustomizations is one in every part, and its documents are counted over
// the file.
func TestStreamParts(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\n  namespace: ns%d\ndata:\n  k: v%d\n", i, i%3, i)
	}
	good := b.String()
	selectAll := func(*Resource) bool { return true }
	dir := t.TempDir()
	write(t, dir, map[string]string{"a.yaml": deploy, "s.yaml": good})
	whole, err := Load(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	called := 0
	set, err := Stream(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll, Parts: 1000, Workers: 3}, func(src *Source, objs []*Resource) {
		mu.Lock()
		called++
		mu.Unlock()
		src.Release(objs)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Sources) < 10 || called != len(set.Sources) {
		t.Fatalf("%d sources, each called %d times", len(set.Sources), called)
	}
	for i, src := range set.Sources[1:] {
		if src.Part != i || src.Path != filepath.Join(dir, "s.yaml") || src.Rel != "s.yaml" || string(src.Whole) != good ||
			!strings.HasPrefix(good[strings.Index(good, string(src.Input)):], string(src.Input)) {
			t.Errorf("source %d: part %d of %s (%s)", i+1, src.Part, src.Path, src.Rel)
		}
		if want := 1 + strings.Count(good[:strings.Index(good, string(src.Input))], "\n"); src.Line != want {
			t.Errorf("part %d: line %d, want %d", src.Part, src.Line, want)
		}
	}
	if len(set.Resources) != len(whole.Resources) {
		t.Fatalf("%d objects in parts, %d read whole", len(set.Resources), len(whole.Resources))
	}
	for i, r := range set.Resources {
		w := whole.Resources[i]
		if r.ID() != w.ID() || r.Position() != w.Position() {
			t.Errorf("object %d: %s at %s, read whole %s at %s", i, r.ID(), r.Position(), w.ID(), w.Position())
		}
	}

	// errors: the whole read's
	for name, text := range map[string]string{
		"syntax":    good + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\ndata: [1, 2\n",
		"duplicate": good + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c7\n  namespace: ns1\n",
		"object":    good + "---\napiVersion: v1\nkind: ConfigMap\ndata: {}\n",
	} {
		write(t, dir, map[string]string{"s.yaml": text})
		_, want := Load(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll})
		_, got := Stream(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll, Parts: 1000}, nil)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: %v, read whole: %v", name, got, want)
		}
	}
	write(t, dir, map[string]string{"s.yaml": good})
	lim := &tree.Limits{MaxDocuments: 299}
	_, want := Load(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll, Limits: lim})
	_, got := Stream(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll, Parts: 1000, Limits: lim}, nil)
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Errorf("299 documents at most: %v, read whole: %v", got, want)
	}
	if _, err := Stream(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll, Parts: 1000, Limits: &tree.Limits{MaxDocuments: 300}}, nil); err != nil {
		t.Errorf("300 documents at most: %v", err)
	}

	// what aliases add counts over the stream (tree.Limits.MaxExpanded),
	// not over a part: each of these 300 documents adds 458 bytes (a
	// mapping of two scalars copied: 3 nodes of 152 bytes and "x", "y"),
	// 137,400 in all, about 4,600 a part of 1,000 bytes
	var al strings.Builder
	for i := range 300 {
		fmt.Fprintf(&al, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\n  labels: &l\n    x: y\n  annotations: *l\n", i)
	}
	write(t, dir, map[string]string{"s.yaml": al.String()})
	for _, max := range []int{137400 - 1, 20000} {
		lim = &tree.Limits{MaxExpanded: max}
		_, want = Load(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll, Limits: lim})
		_, got = Stream(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll, Parts: 1000, Limits: lim}, nil)
		if want == nil || !strings.Contains(want.Error(), "YAML aliases expand to more than") || got == nil || got.Error() != want.Error() {
			t.Errorf("aliases expand to %d bytes at most: %v, read whole: %v", max, got, want)
		}
	}
	lim = &tree.Limits{MaxExpanded: 137400}
	if _, err := Stream(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll, Parts: 1000, Limits: lim}, nil); err != nil {
		t.Errorf("aliases expand to 137,400 bytes at most: %v", err)
	}
	if _, err := Load(context.Background(), []string{dir}, nil, LoadOptions{Select: selectAll, Limits: lim}); err != nil {
		t.Errorf("aliases expand to 137,400 bytes at most, read whole: %v", err)
	}

	// kustomizations: a file of them is one in every part; a part of them
	// in a file of objects is not
	kusts := strings.Repeat("---\n"+kust, 200)
	write(t, dir, map[string]string{"s.yaml": kusts, "k.yaml": kusts + good})
	set, err = Stream(context.Background(), []string{filepath.Join(dir, "s.yaml"), filepath.Join(dir, "k.yaml")}, nil, LoadOptions{Select: selectAll, Parts: 1000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string][2]int{} // of each file: parts, kustomization parts
	for _, src := range set.Sources {
		p := parts[src.Rel]
		p[0]++
		if src.Kustomization {
			p[1]++
		}
		parts[src.Rel] = p
	}
	if s, k := parts["s.yaml"], parts["k.yaml"]; s[0] < 5 || s[1] != s[0] || k[0] < 10 || k[1] != 0 {
		t.Errorf("parts, kustomization parts: s.yaml %v, k.yaml %v", s, k)
	}
}
