// Command e2e prepares and checks the end-to-end comparison of kmerge apply
// with kustomize build (run.sh times both):
//
//	e2e gen -n 1000 -corpus deployments [-patches K] DIR
//	e2e compare KMERGE_OUTPUT KUSTOMIZE_OUTPUT
//	e2e floor DIR|FILE
//	e2e stream -n 100000 DIR
//
// gen writes, for the same n manifests and n strategic merge patches (or
// K, one every n/K manifests: the sparse scenario),
// DIR/manifests/*.yaml, DIR/patches/*.yaml (kmerge's YAML patch lists, one
// strategic patch each) and DIR/kustomization.yaml with DIR/smp/*.yaml
// (kustomize's patches: the same patches, with the identity of their
// target). compare reads both outputs and checks that they hold the same
// objects. floor parses every file of DIR/manifests (or the stream FILE)
// into go.yaml.in/yaml/v3 nodes and emits them again, on every core, and
// nothing else: the least a tool that reads and writes YAML through yaml.v3
// can take. stream writes
// one YAML stream of n small manifests, DIR/stream.yaml (Deployments,
// Services, ConfigMaps and Secrets in turn), and ten .kpatch files in
// DIR/patches whose wildcard targets ([deployment.*], [service.*]) patch
// every Deployment and Service: half the documents, each by five patches.
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kmerge/kmerge/bench"
	"github.com/kmerge/kmerge/bench/corpus"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "compare":
		err = compare(os.Args[2:])
	case "floor":
		err = floor(os.Args[2:])
	case "stream":
		err = genStream(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: e2e gen -n N -corpus deployments|mixed[-hand] [-patches K] DIR | e2e compare KMERGE_OUT KUSTOMIZE_OUT | e2e floor DIR|FILE | e2e stream -n N DIR")
	os.Exit(2)
}

func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ExitOnError)
	n := fs.Int("n", 1000, "manifests (and patches)")
	which := fs.String("corpus", "deployments", "deployments, mixed (Deployments, Services, ConfigMaps) or crds (controller-gen's style); with -hand: in a hand-written style; with -commented: hand-written, a comment on every line ending with a value; with -crlf after either: every line ended with CRLF")
	npatches := fs.Int("patches", 0, "patches, spread evenly over the manifests (0: one per manifest)")
	fs.Parse(args)
	if fs.NArg() != 1 {
		usage()
	}
	dir := fs.Arg(0)
	// "-hand": the manifests written as a person writes them
	// (corpus.HandWritten), which kmerge apply must splice
	// "-commented": hand-written, and a trailing comment on every line
	// that ends with a value (corpus.Commented): the lines a patch edits
	// carry comments
	// "-crlf": every line of the manifests ends with CRLF (a Windows
	// checkout)
	kind, crlf := strings.CutSuffix(*which, "-crlf")
	kind, commented := strings.CutSuffix(kind, "-commented")
	kind, hand := strings.CutSuffix(kind, "-hand")
	var cases []corpus.Case
	switch kind {
	case "deployments":
		cases = corpus.Generate("Deployment", *n)
	case "mixed":
		cases = corpus.Mixed(*n)
	case "crds":
		// controller-gen's style (corpus.CRDs): its own text
		cases = corpus.CRDs(*n)
	default:
		return fmt.Errorf("unknown corpus %q", *which)
	}
	for _, sub := range []string{"manifests", "patches", "smp"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	var kust bytes.Buffer
	kust.WriteString("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n")
	for _, c := range cases {
		fmt.Fprintf(&kust, "- manifests/%s.yaml\n", c.Name)
	}
	kust.WriteString("patches:\n")
	// the ResourceList kmerge fn reads: every manifest an item, the
	// patches in the functionConfig, as a program (kustomize) writes it
	items := &yaml.Node{Kind: yaml.SequenceNode}
	patchList := &yaml.Node{Kind: yaml.SequenceNode}
	for i, c := range cases {
		file := c.Name + ".yaml"
		text := c.DocYAML()
		switch {
		case commented:
			text = c.DocCommentedYAML()
		case hand:
			text = c.DocHandYAML()
		}
		if crlf {
			text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
		}
		if err := os.WriteFile(filepath.Join(dir, "manifests", file), text, 0o644); err != nil {
			return err
		}
		items.Content = append(items.Content, c.Doc)
		if !patched(i, *n, *npatches) {
			continue
		}
		// kmerge: a YAML patch list with one strategic patch
		patch := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			scalar("target"), scalar(strings.ToLower(c.Kind) + "." + targetName(c.Name)),
			scalar("type"), scalar("strategic"),
			scalar("patch"), c.Patch,
		}}
		patchList.Content = append(patchList.Content, patch)
		out, err := yaml.Marshal(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{patch}})
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "patches", file), out, 0o644); err != nil {
			return err
		}
		// kustomize: the patch with its target's identity
		ns := ""
		if md := get(c.Doc, "metadata"); md != nil {
			if v := get(md, "namespace"); v != nil {
				ns = v.Value
			}
		}
		p := clone(c.Patch)
		md := get(p, "metadata")
		if md == nil {
			md = &yaml.Node{Kind: yaml.MappingNode}
			p.Content = append([]*yaml.Node{scalar("metadata"), md}, p.Content...)
		}
		md.Content = append([]*yaml.Node{scalar("name"), scalar(c.Name), scalar("namespace"), scalar(ns)}, md.Content...)
		p.Content = append([]*yaml.Node{scalar("apiVersion"), scalar(c.APIVersion), scalar("kind"), scalar(c.Kind)}, p.Content...)
		out, err = yaml.Marshal(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "smp", file), out, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(&kust, "- path: smp/%s\n", file)
	}
	rl := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		scalar("apiVersion"), scalar("config.kubernetes.io/v1"),
		scalar("kind"), scalar("ResourceList"),
		scalar("items"), items,
		scalar("functionConfig"), {Kind: yaml.MappingNode, Content: []*yaml.Node{
			scalar("apiVersion"), scalar("kmerge.dev/v1alpha1"),
			scalar("kind"), scalar("Patches"),
			scalar("metadata"), {Kind: yaml.MappingNode, Content: []*yaml.Node{scalar("name"), scalar("patches")}},
			scalar("spec"), {Kind: yaml.MappingNode, Content: []*yaml.Node{scalar("patches"), patchList}},
		}},
	}}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(rl); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "resourcelist.yaml"), b.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "kustomization.yaml"), kust.Bytes(), 0o644)
}

// targetName is a name as a target writes it: quoted when it holds a dot
// (a CRD's name), which would otherwise start a path.
func targetName(name string) string {
	if strings.Contains(name, ".") {
		return strconv.Quote(name)
	}
	return name
}

// patched reports whether manifest i of n gets a patch when there are k
// patches (0: every manifest), spread evenly: the first manifest, and one
// every n/k after it.
func patched(i, n, k int) bool {
	if k <= 0 || k >= n {
		return true
	}
	return i*k/n != (i-1)*k/n || i == 0
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func get(m *yaml.Node, k string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k {
			return m.Content[i+1]
		}
	}
	return nil
}

func clone(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = nil
	for _, x := range n.Content {
		c.Content = append(c.Content, clone(x))
	}
	return &c
}

// compare checks that two YAML streams hold the same objects, by kind,
// namespace and name, compared as JSON values. Lists may differ in order
// only where one side orders merged items differently (kustomize's kyaml
// does); such objects are counted and reported, and anything else fails.
func compare(args []string) error {
	if len(args) != 2 {
		usage()
	}
	a, err := objects(args[0])
	if err != nil {
		return err
	}
	b, err := objects(args[1])
	if err != nil {
		return err
	}
	if len(a) != len(b) {
		return fmt.Errorf("%s has %d objects, %s has %d", args[0], len(a), args[1], len(b))
	}
	same, reordered := 0, 0
	var ids []string
	for id := range a {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		y, ok := b[id]
		if !ok {
			return fmt.Errorf("%s is in %s only", id, args[0])
		}
		x := a[id]
		switch {
		case reflect.DeepEqual(x, y):
			same++
		case reflect.DeepEqual(bench.SortLists(x), bench.SortLists(y)):
			reordered++
		default:
			xj, _ := json.MarshalIndent(x, "", " ")
			yj, _ := json.MarshalIndent(y, "", " ")
			return fmt.Errorf("%s differs:\n%s\n%s", id, xj, yj)
		}
	}
	fmt.Printf("%d objects: %d identical, %d identical but for the order of list items\n", len(a), same, reordered)
	return nil
}

func objects(file string) (map[string]any, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		text, err := yaml.Marshal(&n)
		if err != nil {
			return nil, err
		}
		j, err := sigsyaml.YAMLToJSON(text)
		if err != nil {
			return nil, err
		}
		var v map[string]any
		if err := json.Unmarshal(j, &v); err != nil {
			return nil, err
		}
		md, _ := v["metadata"].(map[string]any)
		id := fmt.Sprintf("%v/%v/%v", v["kind"], md["namespace"], md["name"])
		if _, dup := out[id]; dup {
			return nil, fmt.Errorf("%s: %s twice", file, id)
		}
		out[id] = v
	}
}

// floor parses and emits every manifest of DIR/manifests with yaml.v3, the
// files spread over GOMAXPROCS goroutines (or the one stream FILE, on one),
// and writes the total size of the output to standard output (so that the
// work cannot be skipped).
func floor(args []string) error {
	if len(args) != 1 {
		usage()
	}
	files, err := filepath.Glob(filepath.Join(args[0], "manifests", "*.yaml"))
	if err != nil {
		return err
	}
	if info, err := os.Stat(args[0]); err == nil && info.Mode().IsRegular() {
		files = []string{args[0]} // one stream
	}
	workers := runtime.GOMAXPROCS(0)
	sizes := make([]int, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(files); i += workers {
				data, err := os.ReadFile(files[i])
				if err != nil {
					errs[w] = err
					return
				}
				var out bytes.Buffer
				dec, enc := yaml.NewDecoder(bytes.NewReader(data)), yaml.NewEncoder(&out)
				for {
					var n yaml.Node
					if err := dec.Decode(&n); err == io.EOF {
						break
					} else if err != nil {
						errs[w] = fmt.Errorf("%s: %w", files[i], err)
						return
					}
					if err := enc.Encode(&n); err != nil {
						errs[w] = err
						return
					}
				}
				enc.Close()
				sizes[w] += out.Len()
			}
		}()
	}
	wg.Wait()
	total := 0
	for w := range workers {
		if errs[w] != nil {
			return errs[w]
		}
		total += sizes[w]
	}
	fmt.Printf("%d files, %d bytes emitted\n", len(files), total)
	return nil
}

// streamPatches are the .kpatch files of the stream scenario: five patches
// of every Deployment and five of every Service, on separate paths (they do
// not conflict).
var streamPatches = []struct{ name, text string }{
	{"01-deployment-team.kpatch", "[deployment.*]\nmetadata.labels.team: platform\n"},
	{"02-deployment-replicas.kpatch", "[deployment.*]\nspec.replicas: 3\n"},
	{"03-deployment-image.kpatch", "[deployment.*.containers.name=main]\nimage: registry.example.com/app:2.0.0\n"},
	{"04-deployment-owner.kpatch", "[deployment.*]\nmetadata.annotations.\"example.com/owner\": platform\n"},
	{"05-deployment-version.kpatch", "[deployment.*]\nspec.template.metadata.labels.version: v2\n"},
	{"06-service-team.kpatch", "[service.*]\nmetadata.labels.team: platform\n"},
	{"07-service-type.kpatch", "[service.*]\nspec.type: ClusterIP\n"},
	{"08-service-scrape.kpatch", "[service.*]\nmetadata.annotations.\"example.com/scrape\": \"true\"\n"},
	{"09-service-port.kpatch", "[service.*.ports.name=http]\ntargetPort: 8081\n"},
	{"10-service-affinity.kpatch", "[service.*]\nspec.sessionAffinity: None\n"},
}

// genStream writes the stream scenario (see the package documentation).
func genStream(args []string) error {
	fs := flag.NewFlagSet("stream", flag.ExitOnError)
	n := fs.Int("n", 100000, "documents")
	fs.Parse(args)
	if fs.NArg() != 1 {
		usage()
	}
	dir := fs.Arg(0)
	if err := os.MkdirAll(filepath.Join(dir, "patches"), 0o755); err != nil {
		return err
	}
	for _, p := range streamPatches {
		if err := os.WriteFile(filepath.Join(dir, "patches", p.name), []byte(p.text), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "stream.yaml"), streamText(*n), 0o644)
}

// streamText is a YAML stream of n small manifests, as a program that
// renders manifests (helm template) writes them: a Deployment, a Service,
// a ConfigMap and a Secret in turn, each of its own number and namespace.
func streamText(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		if i > 0 {
			b.WriteString("---\n")
		}
		ns := fmt.Sprintf("team-%d", i%17)
		name := fmt.Sprintf("app-%06d", i)
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, `# Source: app/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s
  namespace: %[2]s
  labels:
    app: %[1]s
spec:
  replicas: %[3]d
  selector:
    matchLabels:
      app: %[1]s
  template:
    metadata:
      labels:
        app: %[1]s
    spec:
      containers:
      - name: main
        image: registry.example.com/app:1.%[4]d.0
        ports:
        - containerPort: 8080
`, name, ns, 1+i%3, i%10)
		case 1:
			fmt.Fprintf(&b, `# Source: app/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: %[1]s
  namespace: %[2]s
spec:
  selector:
    app: %[1]s
  ports:
  - name: http
    port: 80
    targetPort: 8080
`, name, ns)
		case 2:
			fmt.Fprintf(&b, `apiVersion: v1
kind: ConfigMap
metadata:
  name: %[1]s
  namespace: %[2]s
data:
  LOG_LEVEL: info
  REGION: eu-west-%[3]d
`, name, ns, i%3)
		default:
			fmt.Fprintf(&b, `apiVersion: v1
kind: Secret
metadata:
  name: %[1]s
  namespace: %[2]s
type: Opaque
data:
  password: %[3]s
`, name, ns, base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("secret-%d", i))))
		}
	}
	return b.Bytes()
}
