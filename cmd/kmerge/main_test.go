package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files (review every change before committing it)")

// cliCase runs kmerge with args (from the repository root) and checks the
// exit code, stdout against a golden file (or empty), and stderr.
type cliCase struct {
	name    string
	args    []string
	stdin   string
	code    int
	golden  string   // testdata/<golden>: expected stdout
	stdout  string   // expected stdout when short
	stderrs []string // substrings stderr must hold
}

var cliCases = []cliCase{
	{
		name:   "README example: a strategic patch of a Deployment",
		args:   []string{"patch", "-f", "examples/deployment.yaml", "--patch-file", "examples/deployment-patch.yaml"},
		golden: "deployment.out.yaml",
	},
	{
		name:   "a custom resource with its CRD: parts merge by name, tags as a set",
		args:   []string{"patch", "-f", "examples/widget.yaml", "--patch-file", "examples/widget-patch.yaml", "--schema", "examples/widget-crd.yaml"},
		golden: "widget.out.yaml",
	},
	{
		name:    "a kind without a schema is an error that says how to supply one",
		args:    []string{"patch", "-f", "examples/widget.yaml", "--patch-file", "examples/widget-patch.yaml"},
		code:    exitRejected,
		stderrs: []string{"no schema for example.com/v1 Widget", "--schema", "--type merge", "while patching examples/widget.yaml, example.com/v1 Widget gizmo"},
	},
	{
		name:   "--fallback merge patches it as a JSON merge patch: lists are replaced",
		args:   []string{"patch", "-f", "examples/widget.yaml", "--patch-file", "examples/widget-patch.yaml", "--fallback", "merge"},
		golden: "widget-merge.out.yaml",
	},
	{
		name:   "stdin, a patch on the command line, JSON out",
		args:   []string{"patch", "-f", "-", "-p", `{"data":{"a":"changed"}}`, "-o", "json"},
		stdin:  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: one\n  b: two\n",
		stdout: "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"ConfigMap\",\n    \"metadata\": {\n        \"name\": \"x\"\n    },\n    \"data\": {\n        \"a\": \"changed\",\n        \"b\": \"two\"\n    }\n}\n",
	},
	{
		name:   "every document of a stream is patched; comments stay",
		args:   []string{"patch", "-f", "cmd/kmerge/testdata/multi.yaml", "-p", "data: {c: '3'}"},
		golden: "multi.out.yaml",
	},
	{
		name:   "a document that is not a Kubernetes object, with an OpenAPI definition",
		args:   []string{"patch", "-f", "cmd/kmerge/testdata/thing.json", "-p", `{"items":[{"name":"b","value":"two"},{"name":"c","value":"3"}]}`, "--schema", "cmd/kmerge/testdata/thing-openapi.yaml", "--definition", "thing"},
		stdout: "{\n    \"name\": \"thing\",\n    \"items\": [\n        {\n            \"name\": \"a\",\n            \"value\": \"1\"\n        },\n        {\n            \"name\": \"b\",\n            \"value\": \"two\"\n        },\n        {\n            \"name\": \"c\",\n            \"value\": \"3\"\n        }\n    ]\n}\n",
	},
	{
		name:   "$setElementOrder, spec order: unnamed live items first",
		args:   []string{"patch", "-f", "cmd/kmerge/testdata/order.yaml", "-p", `{"metadata":{"$setElementOrder/finalizers":["a","b"],"finalizers":["a","b"]}}`},
		stdout: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ordered\n  finalizers: [c, d, e, a, b]\n",
	},
	{
		name:   "$setElementOrder, upstream order",
		args:   []string{"patch", "-f", "cmd/kmerge/testdata/order.yaml", "--list-order", "upstream", "-p", `{"metadata":{"$setElementOrder/finalizers":["a","b"],"finalizers":["a","b"]}}`},
		stdout: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ordered\n  finalizers: [c, d, a, b, e]\n",
	},
	{
		name:    "a rejected patch names the patch position, the path and the document",
		args:    []string{"patch", "-f", "cmd/kmerge/testdata/multi.yaml", "-p", "metadata:\n  $patch: merge\n"},
		code:    exitRejected,
		stderrs: []string{"--patch:2:11: metadata: unknown patch type", "while patching cmd/kmerge/testdata/multi.yaml (document 1 of 2), v1 ConfigMap one", "\n    $patch: merge\n            ^\n"},
	},
	{
		name:    "bad YAML in the input names the file and line",
		args:    []string{"patch", "-f", "-", "-p", "{}"},
		stdin:   "a: 1\nb: [\n",
		code:    exitRejected,
		stderrs: []string{"<stdin>:"},
	},
	{
		name:   "a CRD list with two list-map-keys merges by both: UDP/53 is renamed, TCP/53 untouched, UDP/5353 added",
		args:   []string{"patch", "-f", "cmd/kmerge/testdata/resolver.yaml", "--schema", "cmd/kmerge/testdata/dns-crd.yaml", "-p", "spec:\n  listeners:\n  - {port: 53, protocol: UDP, name: dns}\n  - {port: 5353, protocol: UDP, name: mdns}\n"},
		stdout: "apiVersion: example.com/v1\nkind: Resolver\nmetadata:\n  name: dns\nspec:\n  listeners:\n  - port: 53\n    protocol: TCP\n    name: dns-tcp\n  - port: 53\n    protocol: UDP\n    name: dns\n  - {port: 5353, protocol: UDP, name: mdns}\n",
	},
	{
		name:   "explain: why a list merges, with recommended keys",
		args:   []string{"explain", "deployment", "spec.template.spec.containers.ports"},
		golden: "explain-ports.txt",
	},
	{
		name:   "explain: a replaced list, a CRD field, kind.group",
		args:   []string{"explain", "deployment.apps.spec.template.spec.tolerations"},
		golden: "explain-tolerations.txt",
	},
	{
		name:   "explain a CRD list",
		args:   []string{"explain", "resolver.spec.listeners", "--schema", "cmd/kmerge/testdata/dns-crd.yaml"},
		golden: "explain-crd.txt",
	},
	{name: "explain: unknown kind", args: []string{"explain", "nosuchkind"}, code: exitRejected, stderrs: []string{"no kind named \"nosuchkind\"", "--schema"}},
	{name: "explain: unknown field", args: []string{"explain", "pod.spec.nosuch"}, code: exitRejected, stderrs: []string{"spec has no field \"nosuch\""}},
	{name: "explain: no argument", args: []string{"explain"}, code: exitUsage, stderrs: []string{"KIND[.path]"}},
	{name: "explain: an empty kind", args: []string{"explain", ""}, code: exitUsage, stderrs: []string{"KIND[.path]"}},
	{name: "explain: a definition's unknown field", args: []string{"explain", "--schema", "cmd/kmerge/testdata/thing-openapi.yaml", "--definition", "thing", "nosuch"}, code: exitRejected, stderrs: []string{"has no field \"nosuch\""}},
	{
		name:   "diff: the two-way patch of the README example",
		args:   []string{"diff", "examples/deployment.yaml", "cmd/kmerge/testdata/deployment.out.yaml"},
		golden: "diff-twoway.yaml",
	},
	{
		name:    "diff: a three-way patch that would undo a change on the live object is refused, naming the path",
		args:    []string{"diff", "examples/deployment.yaml", "cmd/kmerge/testdata/deployment.out.yaml", "--current", "cmd/kmerge/testdata/deployment-live.yaml"},
		code:    exitRejected,
		stderrs: []string{"apps/v1 Deployment web: the patch would undo changes", "spec.replicas\n    patch:   3\n    changed: 5", "--overwrite"},
	},
	{
		name:   "diff: with --overwrite the three-way patch is printed",
		args:   []string{"diff", "examples/deployment.yaml", "cmd/kmerge/testdata/deployment.out.yaml", "--current", "cmd/kmerge/testdata/deployment-live.yaml", "--overwrite", "-o", "json"},
		golden: "diff-threeway.json",
	},
	{
		// conformance/upstream/examples/README.md records upstream's patch:
		// {"$setElementOrder/ports":[{"port":53},{"port":53}],"ports":[{"port":53,"protocol":"UDP"},{"port":53,"protocol":"TCP"}]}
		name:   "diff: upstream's patch for a second port on the same number",
		args:   []string{"diff", "cmd/kmerge/testdata/svc-old.yaml", "cmd/kmerge/testdata/svc-new.yaml"},
		stdout: "spec:\n  $setElementOrder/ports:\n  - port: 53\n  - port: 53\n  ports:\n  - port: 53\n    protocol: UDP\n  - port: 53\n    protocol: TCP\n",
	},
	{
		name:   "diff --extended identifies ports by port and protocol",
		args:   []string{"diff", "cmd/kmerge/testdata/svc-old.yaml", "cmd/kmerge/testdata/svc-new.yaml", "--extended"},
		stdout: "spec:\n  $setElementOrder/ports:\n  - port: 53\n    protocol: TCP\n  - port: 53\n    protocol: UDP\n  ports:\n  - $patchMergeKey: [port, protocol]\n    port: 53\n    protocol: UDP\n",
	},
	{
		name:   "diff --type merge: a JSON merge patch",
		args:   []string{"diff", "examples/widget.yaml", "cmd/kmerge/testdata/widget.out.yaml", "--type", "merge"},
		stdout: "spec:\n  parts:\n  - name: wheel\n    color: black\n    count: 4\n  - name: seat\n    color: blue\n  - name: bell\n    count: 1\n  tags: [kids, outdoor]\n",
	},
	{
		// the live object was scaled to 5 by hand: the patch's size: 3
		// (current 5, modified 3) would undo it
		name:    "diff --type merge --current: a three-way JSON merge patch that would undo a live change is refused",
		args:    []string{"diff", "examples/widget.yaml", "cmd/kmerge/testdata/widget-new.yaml", "--current", "cmd/kmerge/testdata/widget-live.yaml", "--type", "merge"},
		code:    exitRejected,
		stderrs: []string{"example.com/v1 Widget gizmo: the patch would undo changes made to the live object", "\n  spec.size\n    patch:   3\n    changed: 5\n", "--overwrite"},
	},
	{
		// kubectl's CreateThreeWayJSONMergePatch: the changes from live
		// to new without deletions (size, parts, finish; the annotation
		// and status only live has stay), plus the deletion of what
		// last-applied had and new lacks (tags)
		name:   "diff --type merge --current --overwrite: kubectl apply's patch for a custom resource",
		args:   []string{"diff", "examples/widget.yaml", "cmd/kmerge/testdata/widget-new.yaml", "--current", "cmd/kmerge/testdata/widget-live.yaml", "--type", "merge", "--overwrite"},
		stdout: "spec:\n  size: 3\n  parts:\n  - name: wheel\n    color: black\n    count: 4\n  - name: seat\n    color: blue\n  - name: bell\n    count: 1\n  finish: matte\n  tags: null\n",
	},
	{
		name:   "diff --fallback merge --current: kinds without a schema get the three-way JSON merge patch",
		args:   []string{"diff", "examples/widget.yaml", "cmd/kmerge/testdata/widget-new.yaml", "--current", "cmd/kmerge/testdata/widget-live.yaml", "--fallback", "merge", "--overwrite", "-o", "json"},
		stdout: "{\n    \"spec\": {\n        \"size\": 3,\n        \"parts\": [\n            {\n                \"name\": \"wheel\",\n                \"color\": \"black\",\n                \"count\": 4\n            },\n            {\n                \"name\": \"seat\",\n                \"color\": \"blue\"\n            },\n            {\n                \"name\": \"bell\",\n                \"count\": 1\n            }\n        ],\n        \"finish\": \"matte\",\n        \"tags\": null\n    }\n}\n",
	},
	{
		name:    "diff --type merge --current: a live document that is not an object",
		args:    []string{"diff", "examples/widget.yaml", "examples/widget.yaml", "--current", "-", "--type", "merge"},
		stdin:   "[1, 2]\n",
		code:    exitRejected,
		stderrs: []string{"<stdin>:1:1: the current document is an array: a three-way JSON merge patch needs objects"},
	},
	{
		name:   "diff pairs the documents of two streams by object",
		args:   []string{"diff", "cmd/kmerge/testdata/pair-a.yaml", "cmd/kmerge/testdata/pair-b.yaml"},
		stdout: "# patch for v1 ConfigMap two\ndata:\n  b: \"changed\"\n---\n# patch for v1 ConfigMap one\ndata:\n  c: \"3\"\n",
	},
	{name: "diff: one argument", args: []string{"diff", "a.yaml"}, code: exitUsage, stderrs: []string{"ORIGINAL and MODIFIED"}},
	{name: "diff: --overwrite without --current", args: []string{"diff", "a", "b", "--overwrite"}, code: exitUsage, stderrs: []string{"--overwrite needs --current"}},
	{name: "diff: --extended is strategic", args: []string{"diff", "a", "b", "--type", "merge", "--extended"}, code: exitUsage, stderrs: []string{"--extended is for strategic patches"}},
	{name: "no -f", args: []string{"patch", "-p", "{}"}, code: exitUsage, stderrs: []string{"-f FILE"}},
	{name: "no patch", args: []string{"patch", "-f", "examples/widget.yaml"}, code: exitUsage, stderrs: []string{"-p PATCH or --patch-file"}},
	{name: "two patches", args: []string{"patch", "-f", "x", "-p", "{}", "--patch-file", "y"}, code: exitUsage, stderrs: []string{"not both"}},
	{name: "bad --type", args: []string{"patch", "-f", "x", "-p", "{}", "--type", "jsonpatch"}, code: exitUsage, stderrs: []string{"--type \"jsonpatch\": use strategic, merge or json"}},
	{
		name:   "a JSON patch: a test, then an add, on every document; comments stay",
		args:   []string{"patch", "-f", "cmd/kmerge/testdata/multi.yaml", "--type", "json", "-p", `[{"op": "test", "path": "/kind", "value": "ConfigMap"}, {"op": "add", "path": "/data/c", "value": "3"}]`},
		golden: "multi-jsonpatch.out.yaml",
	},
	{
		name:    "a JSON patch that fails names the operation and its position, and writes nothing",
		args:    []string{"patch", "-f", "cmd/kmerge/testdata/multi.yaml", "--type", "json", "-p", "- {op: remove, path: /data/nosuch}\n"},
		code:    exitRejected,
		stderrs: []string{"--patch:1:3: operation 0 (remove /data/nosuch): ", "while patching cmd/kmerge/testdata/multi.yaml (document 1 of 2), v1 ConfigMap one"},
	},
	{name: "bad -o", args: []string{"patch", "-f", "x", "-p", "{}", "-o", "xml"}, code: exitUsage, stderrs: []string{"-o \"xml\""}},
	{name: "bad --list-order", args: []string{"patch", "-f", "x", "-p", "{}", "--list-order", "random"}, code: exitUsage, stderrs: []string{"list order"}},
	// a path that does not exist names the flag it came from (and a near
	// name in its folder), not the call that failed to open it
	{name: "missing -f, with a near name", args: []string{"apply", "-f", "examples/bse", "-p", "examples/overrides"}, code: exitRejected, stderrs: []string{"kmerge: -f examples/bse: no such file or folder (did you mean examples/base?)\n"}},
	{name: "missing -p", args: []string{"apply", "-f", "examples/base", "-p", "examples/nosuch"}, code: exitRejected, stderrs: []string{"kmerge: -p examples/nosuch: no such file or folder\n"}},
	{name: "missing --schema", args: []string{"apply", "-f", "examples/base", "-p", "examples/overrides", "--schema", "nosuch.yaml"}, code: exitRejected, stderrs: []string{"kmerge: --schema nosuch.yaml: no such file or folder\n"}},
	{name: "missing --values", args: []string{"check", "-f", "examples/base", "-p", "examples/overrides", "--values", "examples/value.yaml"}, code: exitRejected, stderrs: []string{"kmerge: --values examples/value.yaml: no such file or folder (did you mean examples/values.yaml?)"}},
	{name: "missing --project", args: []string{"apply", "--project", "nosuch"}, code: exitRejected, stderrs: []string{"kmerge: --project nosuch: no such file or folder"}},
	{name: "missing --patch-file", args: []string{"patch", "-f", "examples/deployment.yaml", "--patch-file", "nosuch.yaml"}, code: exitRejected, stderrs: []string{"kmerge: --patch-file nosuch.yaml: no such file or folder"}},
	{name: "missing diff argument", args: []string{"diff", "examples/deployment.yaml", "nosuch.yaml"}, code: exitRejected, stderrs: []string{"kmerge: MODIFIED nosuch.yaml: no such file or folder"}},
	{name: "missing fmt argument", args: []string{"fmt", "nosuch.kpatch"}, code: exitRejected, stderrs: []string{"kmerge: fmt nosuch.kpatch: no such file or folder"}},
	{name: "unknown flag", args: []string{"patch", "--frobnicate"}, code: exitUsage, stderrs: []string{"unknown flag"}},
	// kubectl's and kustomize's flags kmerge does not have: what to type
	// instead (issue 27 item 11: a bare "unknown flag")
	{name: "-k", args: []string{"apply", "-k", "overlays/prod"}, code: exitUsage, stderrs: []string{"unknown shorthand flag: 'k' in -k: kmerge reads a kustomize overlay's patches as patches: give the overlay with -p and its base with -f (kmerge apply -f base -p overlays/prod"}},
	{name: "--kustomize on patch", args: []string{"patch", "--kustomize", "o"}, code: exitUsage, stderrs: []string{"unknown flag: --kustomize: kmerge reads a kustomize overlay's patches as patches", "(kmerge apply -f base"}},
	{name: "-k on check", args: []string{"check", "-k", "o"}, code: exitUsage, stderrs: []string{"(kmerge check -f base -p overlays/prod"}},
	{name: "-n", args: []string{"apply", "-n", "shop"}, code: exitUsage, stderrs: []string{"unknown shorthand flag: 'n' in -n: kmerge works on the namespaces the manifests name", "[ns/deployment.web]"}},
	{name: "-nshop", args: []string{"apply", "-nshop"}, code: exitUsage, stderrs: []string{"'n' in -nshop: kmerge works on the namespaces"}},
	{name: "--namespace", args: []string{"diff", "--namespace", "shop"}, code: exitUsage, stderrs: []string{"unknown flag: --namespace: kmerge works on the namespaces"}},
	{name: "-l", args: []string{"apply", "-l", "app=web"}, code: exitUsage, stderrs: []string{"'l' in -l: to pick objects by label", "[deployment.*{app=web}]", "labelSelector: app=web"}},
	{name: "--selector", args: []string{"patch", "--selector", "app=web"}, code: exitUsage, stderrs: []string{"unknown flag: --selector: to pick objects by label"}},
	{name: "-R", args: []string{"apply", "-R"}, code: exitUsage, stderrs: []string{"'R' in -R: kmerge always walks the folders it is given, and their subfolders"}},
	{name: "--recursive", args: []string{"fmt", "--recursive"}, code: exitUsage, stderrs: []string{"unknown flag: --recursive: kmerge always walks"}},
	{name: "unknown command", args: []string{"frobnicate"}, code: exitUsage, stderrs: []string{"unknown command"}},
	{name: "unknown definition", args: []string{"patch", "-f", "examples/widget.yaml", "-p", "{}", "--definition", "nosuch"}, code: exitUsage, stderrs: []string{"no definition named \"nosuch\""}},
	{name: "missing file", args: []string{"patch", "-f", "nosuch.yaml", "-p", "{}"}, code: exitRejected, stderrs: []string{"nosuch.yaml"}},
}

func TestCLI(t *testing.T) {
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir("cmd/kmerge") })
	for _, c := range cliCases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(c.args, strings.NewReader(c.stdin), &stdout, &stderr)
			if code != c.code {
				t.Fatalf("exit code %d, want %d; stderr:\n%s", code, c.code, stderr.String())
			}
			for _, s := range c.stderrs {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
				}
			}
			want := c.stdout
			if c.golden != "" {
				path := filepath.Join("cmd/kmerge/testdata", c.golden)
				if *update {
					os.WriteFile(path, stdout.Bytes(), 0o644)
				}
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				want = string(b)
			}
			if c.code != exitOK && stdout.Len() > 0 {
				t.Fatalf("a failed command wrote to stdout:\n%s", stdout.String())
			}
			if stdout.String() != want {
				t.Fatalf("stdout:\n%s\nwant:\n%s", stdout.String(), want)
			}
		})
	}
}
