package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/kmerge/kmerge"
)

// badInput is one entry of docs/errors.md: inputs, a command, and how to
// fix what it reports. The message is what kmerge prints; the test checks
// that it names a position (file:line, and the column where there is one)
// and the path in the document when there is one, that the exit code is
// right and that nothing reached standard output, and that docs/errors.md
// shows exactly these messages (go test -run TestErrorCatalogue -update
// rewrites it; review the diff).
type badInput struct {
	title string
	files map[string]string
	args  []string
	stdin string
	exit  int // 0 means 1
	// path is the document path the message must name ("" when the error
	// is not about a place in a document)
	path string
	// noPosition says why the message cannot name a line, when it cannot
	noPosition string
	fix        string
	// links are symbolic links to make (name: target)
	links map[string]string
	// locked is a folder whose lock another kmerge run holds (this test,
	// in fact: its process id is shown as 4242, to keep the page stable)
	locked string
}

const catConfigMap = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n"

const catDeploy = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports:
        - containerPort: 80
`

const catService = `apiVersion: v1
kind: Service
metadata:
  name: dns
spec:
  ports:
  - {name: dns-tcp, port: 53, protocol: TCP}
  - {name: dns-udp, port: 53, protocol: UDP}
`

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
`

// catLive is catDeploy as a cluster stores it, exported with kubectl get
// -o yaml --show-managed-fields: argocd applied it, then an autoscaler set
// replicas through the scale subresource.
const catLive = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  managedFields:
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:template:
          f:spec:
            f:containers:
              k:{"name":"web"}:
                .: {}
                f:image: {}
                f:name: {}
    manager: argocd
    operation: Apply
    time: "2025-01-01T00:00:00Z"
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:replicas: {}
    manager: kube-controller-manager
    operation: Update
    subresource: scale
    time: "2025-01-02T00:00:00Z"
spec:
  replicas: 5
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.25
`

func apply(patch string) []string { return []string{"apply", "-f", "base", "-p", patch} }

var badInputs = []badInput{
	// manifests
	{title: "A YAML flow list that is not closed", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  list: [a, b\n", "p.kpatch": "[cm.a]\ndata.x: 1\n"},
		args: apply("p.kpatch"), fix: "Close the list with `]`, or write it as a block list."},
	{title: "A key indented more than its siblings", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n   labels: {}\n", "p.kpatch": "[cm.a]\ndata.x: 1\n"},
		args: apply("p.kpatch"), fix: "Indent every key of a mapping by the same number of spaces."},
	{title: "A tab used for indentation", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: a\n", "p.kpatch": "[cm.a]\ndata.x: 1\n"},
		args: apply("p.kpatch"), fix: "YAML indents with spaces only: replace the tab."},
	{title: "A key written twice", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: \"1\"\n  x: \"2\"\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Keep one of the two: YAML parsers disagree on which one wins, so kmerge refuses to guess."},
	{title: "A mapping key that is not a string", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  [a, b]: x\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Kubernetes objects have string keys: quote the key."},
	{title: "A quoted string that is not closed", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: \"a\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Close the quote."},
	{title: "A trailing comma in a JSON manifest", files: map[string]string{"base/d.json": `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a",}}`, "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "JSON allows no comma before `}` or `]`."},
	{title: "A control character in a manifest", files: map[string]string{"base/c.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: \"a\x01b\"\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Write the character as an escape in a double-quoted string (`\"a\\x01b\"`), or remove it: YAML text holds printable characters only (tab and line breaks aside)."},
	{title: "A !!binary value that is not text", files: map[string]string{"base/s.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: key\ndata:\n  key.der: !!binary MIIBCgKCAQEA\n", "p.kpatch": "[secret.key]\ndata.user: YWRtaW4=\n"},
		args: apply("p.kpatch"), fix: "Drop the tag: `key.der: MIIBCgKCAQEA`. A Secret's data holds base64 text, which the API server decodes; a `!!binary` value is decoded on reading (as kubectl decodes it), and these bytes are no text."},
	{title: "A YAML version kmerge does not read", files: map[string]string{"base/c.yaml": "%YAML 2.0\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Remove the directive, or write `%YAML 1.2`: kmerge reads YAML 1.2. A document marked `%YAML 1.1` is read as YAML 1.2 too, and one marked with a later 1.x version (`%YAML 1.3`) as well, with a warning, as the YAML specification asks; a later major version (2.0) or an earlier one (1.0) is refused."},
	{title: "A manifest that is not UTF-8", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: caf\xe9\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Save the file as UTF-8 (iconv -f latin1 -t utf-8)."},
	{title: "A document that is a list, not an object", files: map[string]string{"base/d.yaml": "- a\n- b\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Give kmerge Kubernetes objects only; keep other YAML out of the manifest folders."},
	{title: "An object without apiVersion", files: map[string]string{"base/d.yaml": "kind: ConfigMap\nmetadata:\n  name: a\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Add the apiVersion (v1 for a ConfigMap)."},
	{title: "An object without a name", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Give it metadata.name (generateName is for the API server, not for manifests)."},
	{title: "One object defined twice", files: map[string]string{"base/a.yaml": catDeploy, "base/b.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n"},
		args: apply("p.kpatch"), fix: "Delete one copy, or give them different names or namespaces."},
	{title: "A YAML alias bomb", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: &a [x, x, x, x, x, x, x, x, x, x]\n  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n  e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n  f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n  g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "Expand fewer aliases; if the document really is that big, raise the limit."},
	{title: "A document of more values than the limit", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  a: x\n  b: y\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: append(apply("p.kpatch"), "--limit", "nodes=10"), fix: "Split the document; if it really is that big, raise the limit."},
	{title: "Nesting deeper than the limit", files: map[string]string{"base/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: " + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "\n", "p.kpatch": "[cm.a]\ndata.y: 1\n"},
		args: apply("p.kpatch"), fix: "No manifest nests this deep; if yours does, raise the limit."},
	{title: "A manifest larger than the limit", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n"},
		args: append(apply("p.kpatch"), "--limit", "bytes=100"), noPosition: "the whole file is too big", fix: "Raise the limit, or split the file."},
	{title: "A limit larger than 8Ei", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n"},
		args: append(apply("p.kpatch"), "--limit", "bytes=16Ei"), exit: exitUsage, noPosition: "the command line has no lines", fix: "Give a value up to `8Ei`, which is as good as no limit."},
	// the output folder
	{title: "A folder where --output-dir must write a file", files: map[string]string{"base/c.yaml": catConfigMap, "out/c.yaml/notes.txt": "mine\n", "p.kpatch": "[cm.c]\ndata.k: w\n"},
		args: append(apply("p.kpatch"), "--output-dir", "out"), noPosition: "the place is in the output folder, not in an input", fix: "Move the folder out of the way; nothing was written, not even the files that could have been."},
	{title: "A symbolic link inside the output folder", files: map[string]string{"base/sub/c.yaml": catConfigMap, "elsewhere/notes.txt": "not kmerge's\n", "p.kpatch": "[cm.c]\ndata.k: w\n"},
		links: map[string]string{"out/sub": "../elsewhere"},
		args:  append(apply("p.kpatch"), "--output-dir", "out"), noPosition: "the place is in the output folder, not in an input", fix: "kmerge writes only inside the output folder: replace the link by a folder, or write to the folder the link leads to with --output-dir."},
	{title: "Another run writing the same output folder", files: map[string]string{"base/c.yaml": catConfigMap, "p.kpatch": "[cm.c]\ndata.k: w\n"},
		locked: "out",
		args:   append(apply("p.kpatch"), "--output-dir", "out"), noPosition: "the place is in the output folder, not in an input", fix: "Run one at a time (the lock holds from before the inputs are read until the folder is written). A lock file that a killed run left locks nothing: the next run takes it over."},
	{title: "Another run writing a folder inside the output folder", files: map[string]string{"base/c.yaml": catConfigMap, "p.kpatch": "[cm.c]\ndata.k: w\n"},
		locked: "out/sub",
		args:   append(apply("p.kpatch"), "--output-dir", "out"), noPosition: "the place is in the output folder, not in an input", fix: "Run one at a time: a run writes its folder and every folder inside it, so two runs on nested folders could each undo the other's edits. Runs on folders side by side (`out/a`, `out/b`) do not meet."},
	{title: "Another run writing a folder that holds the output folder", files: map[string]string{"base/c.yaml": catConfigMap, "p.kpatch": "[cm.c]\ndata.k: w\n"},
		locked: "out",
		args:   append(apply("p.kpatch"), "--output-dir", "out/sub"), noPosition: "the place is in the output folder, not in an input", fix: "Run one at a time, or write a folder outside the other run's."},
	{title: "A link where the output folder's lock file goes", files: map[string]string{"base/c.yaml": catConfigMap, "elsewhere/notes.txt": "not kmerge's\n", "p.kpatch": "[cm.c]\ndata.k: w\n"},
		links: map[string]string{"out/.kmerge.lock": "../elsewhere/notes.txt"},
		args:  append(apply("p.kpatch"), "--output-dir", "out"), noPosition: "the place is in the output folder, not in an input", fix: "Remove the link (a repository can hold one): kmerge creates its lock file new, writes only a file it created, and opens an existing one without following a link. A hard link there is refused the same way (`a file of 2 names`); a lock file a killed run left is a regular file, and is taken over."},
	{title: "A symbolic link loop among the manifests", files: map[string]string{"base/c.yaml": catConfigMap, "p.kpatch": "[cm.c]\ndata.k: w\n"},
		links: map[string]string{"base/again": "."},
		args:  apply("p.kpatch"), noPosition: "a folder has no lines", fix: "Remove the link, or make it lead to a folder that does not hold it."},
	// .kpatch files
	{title: "A device among the manifests", files: map[string]string{"base/c.yaml": catConfigMap, "p.kpatch": "[cm.c]\ndata.k: w\n"},
		links: map[string]string{"base/null.yaml": "/dev/null"},
		args:  apply("p.kpatch"), noPosition: "a device has no lines", fix: "Remove the link: in the folders it walks (and in the files a kustomization names), kmerge reads regular files only, and refuses devices (a link to /dev/zero was read until the byte limit), named pipes (opening one waited for a writer forever) and sockets before opening them."},
	{title: "A device given with -f", files: map[string]string{"p.kpatch": "[cm.c]\ndata.k: w\n"},
		links: map[string]string{"null.yaml": "/dev/null"},
		args:  []string{"apply", "-f", "null.yaml", "-p", "p.kpatch"}, noPosition: "a device has no lines", fix: "Name a file. A pipe named on purpose is read (`-f <(helm template ...)`, a named pipe), and `-f -` reads standard input; -p, --values, --schema, --patch-file and the paths of kmerge.yaml are read the same way."},
	{title: "An assignment before any header", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "replicas: 3\n"},
		args: apply("p.kpatch"), fix: "Start the section with a header naming the object: `[deployment.web]`."},
	{title: "A header that is not closed", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web\nreplicas: 3\n"},
		args: apply("p.kpatch"), fix: "End the header with `]`."},
	{title: "A selector bracket that is not closed", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web.containers[name=web.image]\nimage: x\n"},
		args: apply("p.kpatch"), fix: "Close the selector: `[deployment.web.containers[name=web]]`."},
	{title: "A selector without brackets in a key", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\ncontainers.name=web.image: nginx:1.27\n"},
		args: apply("p.kpatch"), fix: "In a key, write selectors in brackets: `containers[name=web].image: nginx:1.27`."},
	{title: "A field the kind does not have", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nspec.replica: 3\n"},
		path: "spec", fix: "Use the field the message suggests (`spec.replicas`); `kmerge explain deployment.spec` lists the fields.",
		args: apply("p.kpatch")},
	{title: "A field of list items, without a selector", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web.ports.0]\ncontainerPort: 8080\n"},
		args: apply("p.kpatch"), fix: "Select the item first: `[deployment.web.containers.name=web.ports.0]`."},
	{title: "A shortcut with two meanings", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nlocalhostProfile: x\n"},
		args: apply("p.kpatch"), fix: "Write one of the full paths the message lists."},
	{title: "Text for an integer field", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: three\n"},
		args: apply("p.kpatch"), path: "spec.replicas", fix: "Write a number: `replicas: 3`."},
	{title: "yes for a boolean field", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nspec.paused: yes\n"},
		args: apply("p.kpatch"), path: "spec.paused", fix: "Write `true` or `false` (YAML 1.2 has no yes)."},
	{title: "A scalar for an object field", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nspec.template.metadata.labels: none\n"},
		args: apply("p.kpatch"), path: "spec.template.metadata.labels", fix: "Set a key inside it (`labels.tier: web`), or replace the object with a strategic or merge patch."},
	{title: "Selecting items of something that is not a list", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nmetadata.name[0]: x\n"},
		args: apply("p.kpatch"), path: "metadata.name", fix: "Selectors (`[0]`, `[name=x]`) pick list items; `metadata.name` is a string."},
	{title: "An undefined variable", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: ${values.replicas}\n", "values.yaml": "replica: 3\n"},
		args: append(apply("p.kpatch"), "--values", "values.yaml"), fix: "Define it in a --values file or with --set values.replicas=3; the message lists what is defined."},
	{title: "A variable outside values and features", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nmetadata.labels.env: ${env.STAGE}\n"},
		args: apply("p.kpatch"), fix: "Variables are ${values.NAME} and ${features.NAME}; pass the environment with --set values.stage=$STAGE."},
	{title: "A variable that is a mapping", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nmetadata.labels.db: ${values.db}\n", "values.yaml": "db:\n  host: x\n"},
		args: append(apply("p.kpatch"), "--values", "values.yaml"), fix: "Name a scalar inside it: ${values.db.host}."},
	{title: "A section that deletes and sets", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web.containers.name=web]\n!delete\nimage: x\n"},
		args: apply("p.kpatch"), fix: "Delete in one section and set in another, or drop one of them."},
	{title: "A .kpatch line longer than the limit", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nmetadata.annotations.note: " + strings.Repeat("x", 200) + "\n"},
		args: append(apply("p.kpatch"), "--limit", "line=100"), fix: "Shorten the line, or raise the limit."},
	{title: "A .kpatch path deeper than the limit", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nmetadata.annotations.x: 1\nspec.template.metadata.labels.app: web\n"},
		args: append(apply("p.kpatch"), "--limit", "depth=4"), fix: "No patch needs a path this deep; if yours does, raise the limit (it bounds the nesting of manifests too)."},
	{title: "Variables that expand to more than the limit", files: map[string]string{"base/d.yaml": catDeploy, "values.yaml": "note: " + strings.Repeat("x", 40) + "\n", "p.kpatch": "[deployment.web]\nmetadata.annotations.a: ${values.note}\nmetadata.annotations.b: ${values.note}\nmetadata.annotations.c: ${values.note}\n"},
		args: append(apply("p.kpatch"), "--values", "values.yaml", "--limit", "expanded=100"), fix: "Use large values less often (each use is a copy); if the patches really are that big, raise the limit."},
	// YAML patch lists
	{title: "A patch list that is not a list", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "target: deployment.web\npatch:\n  spec.replicas: 2\n"},
		args: apply("p.yaml"), fix: "A patch list is a YAML list: start each patch with `- `."},
	{title: "A misspelt key in a patch list", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "- target: deployment.web\n  typ: strategic\n  patch: {spec: {replicas: 2}}\n"},
		args: apply("p.yaml"), fix: "The keys are target, type, patch and options."},
	{title: "An unknown patch type", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "- target: deployment.web\n  type: jsonpatch\n  patch: []\n"},
		args: apply("p.yaml"), fix: "The types are field, strategic, merge and json."},
	{title: "A bare name that several objects have", files: map[string]string{"base/d.yaml": catDeploy, "base/s.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n", "p.yaml": "- target: web\n  patch: {metadata.labels.tier: front}\n"},
		args: apply("p.yaml"), fix: "Write kind.name for the object you mean (`deployment.web`), or a mapping target (`{name: web}`) to patch all of them."},
	{title: "A target name that is not a regular expression", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "- target: {kind: Deployment, name: 'web-(a'}\n  patch: {spec.replicas: 2}\n"},
		args: apply("p.yaml"), fix: "A mapping target's name is a regular expression, as in kustomize: close the parenthesis, or escape it (`\\(`)."},
	{title: "Options on a patch that is not strategic or merge", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "- target: deployment.web\n  type: json\n  options: {allowNameChange: true}\n  patch: [{op: replace, path: /metadata/name, value: web2}]\n"},
		args: apply("p.yaml"), fix: "Drop the options: a JSON or field patch renames by setting metadata.name."},
	{title: "A header that ends with a dot", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web.]\nreplicas: 2\n"},
		args: apply("p.kpatch"), fix: "Drop the dot (`[deployment.web]`), or write the path after it."},
	{title: "A label selector in a header that is not closed", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.*{app=web]\nreplicas: 2\n"},
		args: apply("p.kpatch"), fix: "Close the braces: `[deployment.*{app=web}]`."},
	{title: "A rename to the name of another object", files: map[string]string{"base/d.yaml": catDeploy, "base/api.yaml": strings.Replace(catDeploy, "name: web", "name: api", 1), "p.yaml": "- target: deployment.api\n  type: strategic\n  options: {allowNameChange: true}\n  patch: {metadata: {name: web}}\n"},
		args: apply("p.yaml"), fix: "Give the renamed object a name no other object of its kind has in its namespace, or delete the other one."},
	// kustomizations among the patch files
	{title: "A kustomization naming a patch file that does not exist", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- path: replicas.yaml\n"},
		args: apply("overlay"), fix: "Correct the path: patch files are relative to the kustomization's folder."},
	{title: "A kustomization naming a patch file outside its folder", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n", "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- path: ../p.yaml\n"},
		args: apply("overlay"), fix: "Move the patch file into the overlay's folder, as kustomize requires by default."},
	{title: "A kustomization's patch file that a link leads out of its folder", files: map[string]string{"base/d.yaml": catDeploy, "elsewhere/p.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n", "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- path: p.yaml\n"},
		links: map[string]string{"overlay/p.yaml": "../elsewhere/p.yaml"},
		args:  apply("overlay"), fix: "Move the file into the overlay's folder, as kustomize requires by default: it checks the file the link leads to, not the link's name, and so does kmerge (a linked folder on the way counts too). To read it all the same, pass `--load-restrictor LoadRestrictionsNone`, as to kustomize build."},
	{title: "A JSON patch in a kustomization without a target", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- patch: |-\n    - {op: replace, path: /spec/replicas, value: 2}\n"},
		args: apply("overlay"), fix: "Add a target (`target: {kind: Deployment, name: web}`): a JSON patch does not name its object."},
	{title: "A patch file of several documents with a target", files: map[string]string{"base/d.yaml": catDeploy, "overlay/two.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec: {replicas: 2}\n", "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- path: two.yaml\n  target: {kind: Deployment}\n"},
		args: apply("overlay"), fix: "Drop the target (each document names its object), or split the file, one patch an entry."},
	{title: "A strategic patch in a kustomization that names no object", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "resources: [../base]\npatchesStrategicMerge:\n- |-\n  spec:\n    replicas: 2\n"},
		args: apply("overlay"), fix: "Give the patch the apiVersion, kind and metadata.name of its object, or move it to patches with a target."},
	{title: "A kustomization's field misspelt", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "resources: [../base]\npathces:\n- path: replicas.yaml\n", "overlay/replicas.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n"},
		args: apply("overlay"), fix: "Write the field the message suggests: kustomize build refuses a field it does not know too (kmerge reads field names in any letter case, as kustomize does)."},
	{title: "A key of a kustomization's patch misspelt", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- pth: replicas.yaml\n", "overlay/replicas.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n"},
		args: apply("overlay"), fix: "Write the key the message suggests (`path`); kustomize refuses the entry too."},
	{title: "A kustomization's patch whose object does not exist", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- path: replicas.yaml\n", "overlay/replicas.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: wbe}\nspec: {replicas: 2}\n"},
		args: apply("overlay"), fix: "Correct the patch's apiVersion, kind, name or namespace (the message suggests near names): kustomize build fails on it too. A patch with a target that picks nothing is a warning, as kustomize skips it silently."},
	{title: "A file of an overlay that nothing reads, with --strict", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- path: replicas.yaml\n", "overlay/replicas.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 2}\n", "overlay/paused.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {paused: true}\n"},
		args: append(apply("overlay"), "--strict"), fix: "Name the file in the kustomization (`patches: [{path: paused.yaml}]`), make it a `.kpatch` file (kmerge reads those beside a kustomization; kustomize does not), or remove it. Without --strict this is a warning."},
	{title: "A kustomization's openapi file that does not exist", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "openapi:\n  path: schema.json\nresources: [../base]\n"},
		args: apply("overlay"), fix: "Correct the path (relative to the kustomization's folder), or drop the field: kustomize build fails on it too."},
	{title: "Two kustomization files in one folder", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "resources: [../base]\n", "overlay/kustomization.yml": "resources: [../base]\n"},
		args: apply("overlay"), noPosition: "two files, neither of them wrong by itself", fix: "Keep one of them: kustomize refuses the folder too."},
	{title: "A label selector that does not parse", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "- target: {kind: Deployment, labelSelector: 'tier in front'}\n  patch: {spec.replicas: 2}\n"},
		args: apply("p.yaml"), fix: "Write sets in parentheses: `tier in (front)`."},
	{title: "A list in a field patch", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "- target: deployment.web\n  patch:\n    spec.template.spec.containers:\n    - name: web\n"},
		args: apply("p.yaml"), fix: "Field patches set scalars; use `type: strategic` to merge a list."},
	{title: "A key indented less than its siblings in a patch list", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      replicas: 2\n     minReadySeconds: 5\n"},
		args: apply("p.yaml"), fix: "Indent minReadySeconds as much as replicas (6 spaces), or as much as spec if it belongs there."},
	{title: ".kpatch text in a file named .yaml", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "[deployment.web]\nreplicas: 2\n"},
		args: apply("p.yaml"), fix: "Rename the file p.kpatch: a patch file's format comes from its name."},
	{title: "A values file among the patch files", files: map[string]string{"base/d.yaml": catDeploy, "patches/a.kpatch": "[deployment.web]\nreplicas: ${values.replicas}\n", "patches/values.yaml": "replicas: 3\n"},
		args: apply("patches"), fix: "Move values.yaml out of the patch folder and pass it with `--values values.yaml`."},
	{title: "A patch file that holds nothing, with --strict", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "# to do: more replicas in prod\n"},
		args: append(apply("p.kpatch"), "--strict"), fix: "Write the patches, or leave the file out of -p (and of the project's patches). Without --strict this is a warning, and the manifests are printed as they are."},
	{title: "A patch list that is an empty list, with --strict", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "# prod overrides\n[]\n"},
		args: append(apply("p.yaml"), "--strict"), fix: "Write the patches into the list (`- target: deployment.web`, `patch: ...`), or leave the file out of -p (and of the project's patches). Without --strict this is a warning, and the manifests are printed as they are."},
	{title: "kmerge patch with a merge patch that is null", files: map[string]string{"d.yaml": catDeploy},
		args: []string{"patch", "-f", "d.yaml", "--type", "merge", "-p", "null"}, fix: "To delete the object, give a strategic patch whose top level is `$patch: delete` (`-p '{\"$patch\":\"delete\"}'`); to change fields, give a merge patch that is a mapping."},
	// targets
	{title: "A kind name two groups share", files: map[string]string{"base/w.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\napiVersion: other.org/v1\nkind: Widget\nmetadata: {name: w}\n", "p.kpatch": "[widget.w]\nspec.size: 2\n"},
		args: apply("p.kpatch"), fix: "Qualify the kind with its group: `[\"widget.example.com\".w]`."},
	{title: "A patch that matches nothing, with --strict", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.api]\nreplicas: 2\n"},
		args: append(apply("p.kpatch"), "--strict"), fix: "Fix the target's name or kind (kmerge check lists the objects' names), or drop --strict to skip it with a warning."},
	// strategic merge patches
	{title: "$patch: merge on an object", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      $patch: merge\n"},
		args: apply("p.yaml"), path: "spec", fix: "$patch on an object is replace or delete; merging is what a patch does without it."},
	{title: "$setElementOrder in another order than the patch list", files: map[string]string{"base/s.yaml": catService, "p.yaml": "- target: service.dns\n  type: strategic\n  patch:\n    spec:\n      $setElementOrder/ports: [{port: 53}, {port: 80}]\n      ports: [{port: 80}, {port: 53}]\n"},
		args: apply("p.yaml"), fix: "List the items in $setElementOrder in the order the patch list has them."},
	{title: "A $patchMergeKey item that matches two items", files: map[string]string{"base/s.yaml": catService, "p.yaml": "- target: service.dns\n  type: strategic\n  patch:\n    spec:\n      ports:\n      - {$patchMergeKey: [port], port: 53, name: dns}\n"},
		args: apply("p.yaml"), path: "spec.ports", fix: "Name all the fields that tell the items apart: `$patchMergeKey: [port, protocol]` with the protocol."},
	{title: "$retainKeys that leaves out a field the patch sets", files: map[string]string{"base/d.yaml": strings.Replace(catDeploy, "  replicas: 1\n", "  replicas: 1\n  strategy: {type: Recreate}\n", 1), "p.yaml": "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      strategy:\n        $retainKeys: [type]\n        type: RollingUpdate\n        rollingUpdate: {maxSurge: 1}\n"},
		args: apply("p.yaml"), path: "spec.strategy", fix: "List every field the patch sets in $retainKeys (here rollingUpdate too)."},
	{title: "A strategic patch on a kind with no schema (kmerge patch)", files: map[string]string{"w.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {parts: [{name: a}]}\n", "p.yaml": "spec:\n  parts: [{name: b}]\n"},
		args: []string{"patch", "-f", "w.yaml", "--patch-file", "p.yaml"}, noPosition: "the document as a whole has no schema; the message names it", fix: "Give the CRD with --schema, or patch with --type merge (lists are then replaced)."},
	{title: "A variable that is no integer, for an integer in a strategic patch", files: map[string]string{"base/d.yaml": catDeploy, "values.yaml": "replicas: many\n", "p.yaml": "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      replicas: \"${values.replicas}\"\n"},
		args: append(apply("p.yaml"), "--values", "values.yaml"), path: "spec.replicas", fix: "Give the variable a number (`replicas: 5` in values.yaml, or `--set replicas=5`). A variable in a strategic or merge patch is typed by the field's schema, as in a .kpatch: `\"${values.replicas}\"` holding 5 is the integer 5, quoted or not ([kpatch.md](kpatch.md#values-and-types))."},
	{title: "A directive the merge patch fallback cannot apply (kmerge patch --fallback merge)", files: map[string]string{"w.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {parts: [{name: a}, {name: b}]}\n", "p.yaml": "spec:\n  parts:\n  - name: a\n    $patch: delete\n"},
		args: []string{"patch", "-f", "w.yaml", "--patch-file", "p.yaml", "--fallback", "merge"}, path: "spec.parts[0]", fix: "Give the CRD with --schema (its list-map-keys name the item to delete), or, without one, write the list as it must end up: `spec: {parts: [{name: b}]}` (a merge patch replaces lists)."},
	{title: "A directive on a kind with no schema, in a patch list", files: map[string]string{"base/w.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  limits: {cpu: 1, memory: 1Gi}\n", "p.yaml": "- target: widget.w\n  type: strategic\n  patch:\n    spec:\n      limits:\n        $retainKeys: [cpu]\n        cpu: 2\n"},
		args: apply("p.yaml"), path: "spec.limits", fix: "Give the CRD with --schema, or delete the fields yourself: `limits: {cpu: 2, memory: null}` (null deletes a field in a merge patch)."},
	// results that do not fit their schema (--validate=strict, the default)
	{title: "An object where an integer belongs", files: map[string]string{"d.yaml": catDeploy},
		args: []string{"patch", "-f", "d.yaml", "-p", "spec: {replicas: {a: 1}}"}, path: "spec.replicas", fix: "Write a number: `spec: {replicas: 3}`. `kmerge explain deployment.spec.replicas` shows the type."},
	{title: "A list item without its dash", files: map[string]string{"base/d.yaml": catDeploy, "p.yaml": "- target: deployment.web\n  type: strategic\n  patch:\n    spec:\n      template:\n        spec:\n          containers:\n            name: web\n            image: nginx:1.27\n"},
		args: apply("p.yaml"), path: "spec.template.spec.containers", fix: "Start the item with `- ` (`- name: web`): containers is a list, and the patch merges its item by name."},
	{title: "A field indented one level too little", files: map[string]string{"d.yaml": catDeploy, "p.yaml": "spec:\nreplicas: 3\n"},
		args: []string{"patch", "-f", "d.yaml", "--patch-file", "p.yaml"}, path: "replicas", fix: "Indent replicas under spec. As written, `spec:` is null, which deletes spec, as it would with kubectl."},
	{title: "A field name in another letter case", files: map[string]string{"d.yaml": catDeploy},
		args: []string{"patch", "-f", "d.yaml", "-p", "spec: {Replicas: 3}"}, path: "spec.Replicas", fix: "Write the field as the message suggests (`replicas`): an API server's field names are case-sensitive."},
	{title: "A value that is no quantity", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web.containers.name=web]\nresources.limits.cpu: 2 cores\n"},
		args: apply("p.kpatch"), path: "resources.limits.cpu", fix: "Write a quantity: a number with an optional suffix (`2`, `500m`, `1.5Gi`)."},
	{title: "A quantity with spaces around it", files: map[string]string{"d.yaml": catDeploy},
		args: []string{"patch", "-f", "d.yaml", "-p", `{"spec":{"template":{"spec":{"containers":[{"name":"web","resources":{"limits":{"memory":"1Gi "}}}]}}}}`}, path: "resources.limits.memory", fix: "Write the quantity without the spaces: `1Gi` (templates that pad values leave them)."},
	{title: "Secret data that is not base64", files: map[string]string{"base/s.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n", "p.kpatch": "[secret.db]\ndata.password: hunter2\n"},
		args: apply("p.kpatch"), path: "data.password", fix: "Encode the value (`echo -n hunter2 | base64`), or set it in stringData, which takes plain text. The message shows the value as `***`, and the quoted line too: kmerge masks the values of Secrets in what it prints for people; `--show-secrets` shows them ([reliability.md](reliability.md#secrets))."},
	{title: "An unterminated quote in a Secret's section", files: map[string]string{"base/s.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n", "p.kpatch": "[secret.db]\nstringData.password: \"hunter2\n"},
		args: apply("p.kpatch"), fix: "Close the quote: `stringData.password: \"hunter2\"`. The quoted line is masked, as every line of a section that may patch Secrets is (its kind in any spelling, a `*` kind, a bare name): the error is found reading the patch file, before any object is known, and the line may hold a Secret's value (`--show-secrets` does not unmask it: open the file). The message itself never quotes a value."},
	{title: "A bad escape in a double-quoted value", files: map[string]string{"base/cm.yaml": catConfigMap, "p.kpatch": "[configmap.c]\ndata.path: \"C:\\data\"\n"},
		args: apply("p.kpatch"), fix: "Double the backslash (`\"C:\\\\data\"`), or use single quotes, which have no escapes (`'C:\\data'`). Double-quoted values take Go's escapes. The message does not quote the string, which may be a secret."},
	{title: "Text after a quoted value", files: map[string]string{"base/cm.yaml": catConfigMap, "p.kpatch": "[configmap.c]\ndata.greeting: \"hello\" world\n"},
		args: apply("p.kpatch"), fix: "Quote the whole value (`\"hello world\"`), or none of it (`hello world`): a value is quoted as a whole or not at all."},
	{title: "An integer out of int32's range", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 3000000000\n"},
		args: apply("p.kpatch"), path: "spec.replicas", fix: "replicas is an int32: at most 2147483647."},
	{title: "A patch that deletes metadata.name", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nmetadata.name: !delete\n"},
		args: apply("p.kpatch"), path: "metadata.name", fix: "Keep the name; to rename the object, set metadata.name to the new name."},
	{title: "A field the custom resource's schema does not have", files: map[string]string{"w.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 1}\n", "crd.yaml": widgetCRD},
		args: []string{"patch", "-f", "w.yaml", "-p", "spec: {colour: red}", "--schema", "crd.yaml"}, path: "spec.colour", fix: "Use a field the CRD declares (`kmerge explain widget.spec --schema crd.yaml` lists them), or add it to the CRD's schema."},
	{title: "JSON patch copies that add more than the limit", files: map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: " + strings.Repeat("x", 100) + "\n", "p.json": "[\n" + strings.Repeat(`  {"op": "copy", "from": "/data/a", "path": "/data/b"},`+"\n", 7) + `  {"op": "copy", "from": "/data/a", "path": "/data/b"}` + "\n]\n"},
		args: []string{"patch", "-f", "cm.yaml", "--type", "json", "--patch-file", "p.json", "--limit", "expanded=2000"}, fix: "Copy less (each copy counts, even over the same path); if the patch really is that big, raise the limit."},
	// conflicts and diffs
	{title: "A JSON patch's test of a Secret's value that fails", files: map[string]string{"base/s.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: aHVudGVyMg==\n", "p.yaml": "- target: secret.db\n  type: json\n  patch:\n  - {op: test, path: /data/password, value: b2xkcGFzcw==}\n  - {op: replace, path: /data/password, value: bjN3cGFzcw==}\n"},
		args: apply("p.yaml"), path: "/data/password", fix: "The test guards the replace: the Secret does not hold the value the patch expects. Both values are shown as `***` (and the quoted line is masked from its first key on), since they are a Secret's; `--show-secrets` shows them. Compare the value in the manifest with the test's, or drop the test."},
	{title: "Two patches that disagree, with --fail-on-conflict", files: map[string]string{"base/d.yaml": catDeploy, "a.kpatch": "[deployment.web]\nreplicas: 2\n", "b.kpatch": "[deployment.web]\nreplicas: 3\n"},
		args: []string{"apply", "-f", "base", "-p", "a.kpatch", "-p", "b.kpatch", "--fail-on-conflict"}, path: "spec.replicas", fix: "Decide which value wins and remove the other patch, or drop --fail-on-conflict to let the later patch win."},
	{title: "A three-way diff that would undo a change on the cluster", files: map[string]string{"last.yaml": catDeploy, "new.yaml": strings.Replace(catDeploy, "nginx:1.25", "nginx:1.27", 1), "live.yaml": strings.Replace(catDeploy, "replicas: 1", "replicas: 5", 1)},
		args: []string{"diff", "last.yaml", "new.yaml", "--current", "live.yaml"}, path: "spec.replicas", noPosition: "a diff has no patch file to point into; the message names every path", fix: "This is the guard kubectl apply lacks: keep the live change (put replicas: 5 in new.yaml), or pass --overwrite to undo it."},
	{title: "A live object that is not an object, in a three-way JSON merge patch", files: map[string]string{"w.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 1}\n", "w2.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 2}\n", "live.json": "[{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\"}]\n"},
		args: []string{"diff", "w.yaml", "w2.yaml", "--current", "live.json", "--type", "merge"}, fix: "Give the live object itself (`kubectl get widget w -o json`), not a list of objects: a three-way merge patch compares three objects."},
	// kmerge blame
	{title: "kmerge blame of an object no manifest holds", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n"},
		args: append([]string{"blame"}, append(apply("p.kpatch")[1:], "deploy.wbe")...), noPosition: "the object is named on the command line", fix: "Name an object of the manifests as a patch header names it (`kind.name`, `namespace/kind.name`): the message suggests the nearest."},
	// project files
	{title: "A misspelt key in the project file", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n", "kmerge.yaml": "apiVersion: kmerge/v1\nkind: Project\nmanifest: [base]\npatches: [p.kpatch]\n"},
		args: []string{"apply"}, fix: "Write the key the message suggests; docs/project.md lists them all."},
	{title: "An empty project file", files: map[string]string{"base/d.yaml": catDeploy, "kmerge.yaml": "# to do\n"},
		args: []string{"apply"}, fix: "Start it with `apiVersion: kmerge/v1` and `kind: Project`, or let `kmerge init` write it from the folder's contents."},
	{title: "A project file whose patches list is empty, with --strict", files: map[string]string{"base/d.yaml": catDeploy, "kmerge.yaml": "apiVersion: kmerge/v1\nkind: Project\nmanifests: [base]\npatches: []\n"},
		args: []string{"apply", "--strict"}, fix: "List the patch files or folders under `patches:` in kmerge.yaml, or give them with -p. Without --strict this is a warning, and the manifests are printed as they are."},
	{title: "A project file path that does not exist", files: map[string]string{"base/d.yaml": catDeploy, "kmerge.yaml": "apiVersion: kmerge/v1\nkind: Project\nmanifests: [base]\npatches: [overrides]\n"},
		args: []string{"apply"}, fix: "Create the folder, or correct the path: paths in kmerge.yaml are relative to its folder."},
	// schemas and values
	{title: "A --schema file that is not a schema", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n", "crd.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"},
		args: append(apply("p.kpatch"), "--schema", "crd.yaml"), fix: "Give a CustomResourceDefinition or an OpenAPI v2/v3 document."},
	{title: "A values file that is not a mapping", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: ${values.n}\n", "values.yaml": "- n: 3\n"},
		args: append(apply("p.kpatch"), "--values", "values.yaml"), fix: "Write values as a mapping: `n: 3`."},
	{title: "A file given to a flag that does not exist", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: ${values.replicas}\n", "values.yaml": "replicas: 2\n"},
		args: append(apply("p.kpatch"), "--values", "value.yaml"), noPosition: "the path is on the command line; the message names the flag", fix: "Correct the path (the message suggests a near name in its folder when there is one); -f, -p, --values, --schema and --project are each named so."},
	// KRM function
	{title: "kmerge fn without a ResourceList", stdin: catDeploy, args: []string{"fn"}, noPosition: "the input as a whole is wrong", fix: "A KRM function reads a ResourceList; run kmerge apply for plain manifests."},
	{title: "A functionConfig field of the wrong type", stdin: "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web}\nfunctionConfig:\n  apiVersion: kmerge.dev/v1alpha1\n  kind: Patches\n  metadata: {name: p}\n  spec:\n    kpatch:\n    - \"[deployment.web]\"\n    - \"replicas: 3\"\n",
		args: []string{"fn"}, path: "functionConfig.spec.kpatch", fix: "Write the .kpatch text as a block: `kpatch: |`, then its lines, indented."},
	// server-side apply
	{title: "A field another field manager owns, with --server-side", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n", "live/web.yaml": catLive},
		args: append(apply("p.kpatch"), "--server-side", "--field-manager", "argocd", "--live", "live"), path: ".spec.replicas", noPosition: "the API server's message comes first, as it words it; each field's line follows it", fix: "The API server would refuse the apply (409 Conflict): take the field over with --force-conflicts, or leave it to its manager by taking it out of the manifest and the patches (docs/ssa.md#conflicts)."},
	{title: "A live object's managedFields entry the API server would not read", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n", "live/web.yaml": strings.Replace(catLive, "operation: Update", "operation: update", 1)},
		args: append(apply("p.kpatch"), "--server-side", "--field-manager", "argocd", "--live", "live"), path: "metadata.managedFields", fix: "The live file is not as the API server stores the object: export it again with `kubectl get deployment web -o yaml --show-managed-fields` rather than editing it (an operation is `Apply` or `Update`)."},
	{title: "A live object of another version than the manifest", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n", "live/web.yaml": strings.Replace(catLive, "apps/v1\nkind", "apps/v1beta2\nkind", 1)},
		args: append(apply("p.kpatch"), "--server-side", "--field-manager", "argocd", "--live", "live"), fix: "Export the live object at the manifest's version, as the message says: kmerge cannot convert between the versions of a kind, as the API server does."},
	// the command line (exit 2)
	{title: "A mistyped flag", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n"},
		args: append(apply("p.kpatch"), "--strcit"), exit: exitUsage, noPosition: "the command line has no lines", fix: "Write the flag the message suggests; `kmerge apply --help` lists them."},
	{title: "A patch file given to kmerge patch -p", files: map[string]string{"d.yaml": catDeploy, "p.yaml": "spec:\n  replicas: 2\n"},
		args: []string{"patch", "-f", "d.yaml", "-p", "p.yaml"}, exit: exitUsage, noPosition: "the command line has no lines", fix: "`-p` is the patch itself (`-p '{\"spec\":{\"replicas\":2}}'`); a file is `--patch-file p.yaml`."},
	{title: "Patch text given to kmerge apply -p", files: map[string]string{"base/d.yaml": catDeploy},
		args: []string{"apply", "-f", "base", "-p", `{"spec":{"replicas":2}}`}, exit: exitUsage, noPosition: "the command line has no lines", fix: "In apply, `-p` names patch files: put the patch in a patch list (`- {target: deployment.web, type: strategic, patch: {spec: {replicas: 2}}}`), or use `kmerge patch -f base/d.yaml -p '...'`."},
	{title: "A folder given to -o", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n"},
		args: append(apply("p.kpatch"), "-o", "out"), exit: exitUsage, noPosition: "the command line has no lines", fix: "`-o` is the output format (yaml or json), as in kubectl; write files with `--output-dir out`."},
	{title: "An output format misspelt", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deployment.web]\nreplicas: 2\n"},
		args: append(apply("p.kpatch"), "-o", "yml"), exit: exitUsage, noPosition: "the command line has no lines", fix: "Write `-o yaml` (or `-o json`), as kubectl spells them."},
	{title: "A load restriction misspelt", files: map[string]string{"base/d.yaml": catDeploy, "overlay/kustomization.yaml": "resources: [../base]\n"},
		args: append(apply("overlay"), "--load-restrictor", "none"), exit: exitUsage, noPosition: "the command line has no lines", fix: "Write kustomize's names: `LoadRestrictionsRootOnly` (the default) or `LoadRestrictionsNone`."},
	{title: "A patch folder without patch files, with --strict", files: map[string]string{"base/d.yaml": catDeploy, "overrides/notes.txt": "the patches will go here\n"},
		args: []string{"apply", "-f", "base", "-p", "overrides", "--strict"}, noPosition: "a folder has no lines", fix: "Put the patches in the folder (`.kpatch` files, YAML patch lists, a kustomization), or name the folder that holds them. Without --strict this is a warning, and the manifests are printed unpatched."},
	{title: "A kind name with a typo, with --strict", files: map[string]string{"base/d.yaml": catDeploy, "p.kpatch": "[deploymnet.web]\nreplicas: 2\n"},
		args: append(apply("p.kpatch"), "--strict"), fix: "Write the kind the message suggests (`deployment`). Without --strict this is a warning, and the patch is skipped."},
}

// positionRE finds a position (file:line or file:line:col) in the first
// line of a message.
var positionRE = regexp.MustCompile(`^kmerge: [^\n]*\S+:\d+(:\d+)?[: ]`)

func TestErrorCatalogue(t *testing.T) {
	if len(badInputs) < 40 {
		t.Fatalf("the catalogue has %d entries; the issue asks for 40", len(badInputs))
	}
	var doc strings.Builder
	doc.WriteString(catalogueHead)
	for i, c := range badInputs {
		dir := t.TempDir()
		for name, content := range c.files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for name, to := range c.links {
			if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
				if os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755) != nil || os.Symlink(to, filepath.Join(dir, name)) != nil {
					t.Skipf("%s: no symbolic links here: %v", c.title, err)
				}
			}
		}
		if c.locked != "" {
			lock, err := kmerge.LockDir(filepath.Join(dir, c.locked))
			if err != nil {
				t.Fatal(err)
			}
			defer lock.Unlock()
		}
		var stdout, stderr bytes.Buffer
		func() {
			wd, _ := os.Getwd()
			if err := os.Chdir(dir); err != nil {
				t.Fatal(err)
			}
			defer os.Chdir(wd)
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: panic: %v", c.title, r)
				}
			}()
			code := run(c.args, strings.NewReader(c.stdin), &stdout, &stderr)
			want := c.exit
			if want == 0 {
				want = exitRejected
			}
			if code != want {
				t.Errorf("%s: exit %d, want %d:\n%s", c.title, code, want, stderr.String())
			}
		}()
		msg := stderr.String()
		if c.locked != "" {
			msg = strings.ReplaceAll(msg, fmt.Sprintf("(process %d)", os.Getpid()), "(process 4242)")
			msg = strings.ReplaceAll(msg, dir+string(filepath.Separator), "")
		}
		if stdout.Len() > 0 && c.args[0] != "fn" {
			t.Errorf("%s: something reached standard output:\n%s", c.title, stdout.String())
		}
		if c.noPosition == "" && !positionRE.MatchString(msg) {
			t.Errorf("%s: the message names no file:line:\n%s", c.title, msg)
		}
		if c.path != "" && !strings.Contains(msg, c.path) {
			t.Errorf("%s: the message does not name %s:\n%s", c.title, c.path, msg)
		}
		fmt.Fprintf(&doc, "\n## %d. %s\n\n", i+1, c.title)
		names := make([]string, 0, len(c.files))
		for name := range c.files {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			content := c.files[name]
			switch content {
			case catDeploy:
				fmt.Fprintf(&doc, "`%s`: the Deployment web at the top of this page.\n\n", name)
				continue
			case catService:
				fmt.Fprintf(&doc, "`%s`: the Service dns at the top of this page.\n\n", name)
				continue
			}
			fmt.Fprintf(&doc, "`%s`:\n\n```%s\n%s```\n\n", name, fence(name), shorten(content))
		}
		links := make([]string, 0, len(c.links))
		for name := range c.links {
			links = append(links, name)
		}
		sort.Strings(links)
		for _, name := range links {
			fmt.Fprintf(&doc, "`%s`: a symbolic link to `%s`.\n\n", name, c.links[name])
		}
		if c.locked != "" {
			fmt.Fprintf(&doc, "`%s/`: another kmerge run, still running, writes this folder.\n\n", c.locked)
		}
		if c.stdin != "" {
			fmt.Fprintf(&doc, "standard input:\n\n```yaml\n%s```\n\n", shorten(c.stdin))
		}
		fmt.Fprintf(&doc, "<!-- not run: the files above are written by cmd/kmerge/catalogue_test.go -->\n```sh\nkmerge %s\n```\n\n", strings.Join(quoteArgs(c.args), " "))
		fmt.Fprintf(&doc, "```text\n%s```\n\n", msg)
		fmt.Fprintf(&doc, "**Fix:** %s\n", c.fix)
	}
	path := filepath.Join("..", "..", "docs", "errors.md")
	if *update {
		if err := os.WriteFile(path, []byte(doc.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	have, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != doc.String() {
		t.Errorf("docs/errors.md is not what the catalogue prints; run go test ./cmd/kmerge -run TestErrorCatalogue -update and review the diff")
	}
}

const catalogueHead = `# Bad inputs and what kmerge says

Every entry below is run by ` + "`cmd/kmerge/catalogue_test.go`" + `, which writes this page: the input,
the command, the exact message kmerge prints (exit code 1, or 2 for a wrong command line; nothing on
standard output), and how to fix it. Messages name the file, line and column, the object, and the path in the document where
there is one, and quote the line they point at.

Most entries patch one of these two manifests:

` + "```yaml\n" + catDeploy + "```\n\n```yaml\n" + catService + "```\n"

func fence(name string) string {
	switch filepath.Ext(name) {
	case ".kpatch":
		return "toml"
	case ".json":
		return "json"
	case ".txt":
		return "text"
	}
	return "yaml"
}

// shorten keeps long inputs readable: lines over 100 bytes are cut.
func shorten(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if len(l) > 100 {
			l = l[:90] + "…(" + fmt.Sprint(len(l)) + " bytes)\n"
		}
		// bytes that are not text are shown as escapes: the one latin-1
		// byte of the UTF-8 entry, and control characters
		b.WriteString(strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\t' && r != '\n' {
				return 0x2400 + r // a control picture: ␁
			}
			return r
		}, strings.ToValidUTF8(l, "\\xe9")))
	}
	if !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	return b.String()
}

func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " '\"$") {
			a = "'" + a + "'"
		}
		out[i] = a
	}
	return out
}
