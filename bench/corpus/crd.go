package corpus

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// CRDs returns n CustomResourceDefinitions in the style controller-gen
// writes (sigs.k8s.io/yaml's output of a generated schema): deep
// openAPIV3Schema trees whose descriptions are long plain scalars folded
// over lines, continuation lines starting with quotes and backticks
// ("(e.g.\n  \"2m\", \"1h\")", "“TCP“ and\n  “UDP“"), single-quoted
// folded scalars where the text holds ": ", and literal blocks (|-) for
// texts with paragraphs. Each is about 100-200 KB, as real CRDs of
// operators are. The patch changes one field: the controller-gen version
// annotation. The documents are text (Case.Text), the trees read from it.
func CRDs(n int) []Case {
	out := make([]Case, n)
	for i := range out {
		out[i] = crd(i, rng("CustomResourceDefinition", i))
	}
	return out
}

var (
	crdKinds = []string{"Certificate", "Issuer", "Gateway", "Route", "Bucket", "Cluster", "Backup", "Policy", "Alert", "Tenant"}
	// the words of descriptions, in sentences as API docs write them;
	// none ends with a colon or starts with '#' (each would end a plain
	// scalar), and the ones with ": " make the text single-quoted
	crdSentences = []string{
		"Duration is the time to wait before a retry (e.g. \"2m\", \"1h\"); zero means the default.",
		"Protocol for the port, ``TCP`` and ``UDP`` are supported, and ``SCTP`` where the cluster allows it.",
		"Defaults to `Always` if `:latest` is specified, or `IfNotPresent` otherwise.",
		"This field is immutable once set, and a change requires the object to be created again.",
		"More info https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes",
		"Must be a valid DNS_LABEL, unique within the namespace, and at most 63 characters long.",
		"If not specified, the value of \"spec.defaults\" is used, and when that is unset, `100`.",
		"The name of the secret in the same namespace, whose key \"tls.crt\" holds the certificate.",
		"Selects a key of a ConfigMap (the \"data\" field, or \"binaryData\" for bytes).",
		"Valid values are \"Retain\" (the default), \"Delete\" and \"Recycle\"; `Recycle` is deprecated.",
		"Note: the controller reads this field only when the resource is created.",
		"Specifies how the value is matched: one of Exact, Prefix or RegularExpression.",
	}
	crdFields = []string{"issuerRef", "duration", "renewBefore", "secretName", "privateKey", "usages", "dnsNames", "subject",
		"keystores", "encodeUsagesInRequest", "revisionHistoryLimit", "secretTemplate", "listeners", "addresses",
		"infrastructure", "backendRefs", "filters", "matches", "timeouts", "retention", "schedule", "storageClass",
		"selector", "tolerations", "affinity", "resources", "podTemplate", "serviceAccount", "webhook", "acme"}
)

func crd(i int, r *rand.Rand) Case {
	kind := crdKinds[i%len(crdKinds)]
	group := fmt.Sprintf("g%03d.example.com", i)
	plural := strings.ToLower(kind) + "s"
	name := plural + "." + group
	var b bytes.Buffer
	fmt.Fprintf(&b, "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n")
	fmt.Fprintf(&b, "  annotations:\n    controller-gen.kubebuilder.io/version: v0.9.2\n  creationTimestamp: null\n  name: %s\n", name)
	fmt.Fprintf(&b, "spec:\n  group: %s\n  names:\n    kind: %s\n    listKind: %sList\n    plural: %s\n    singular: %s\n",
		group, kind, kind, plural, strings.ToLower(kind))
	b.WriteString("  scope: Namespaced\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n")
	description(&b, r, 8, kind+" is the Schema for the "+plural+" API. "+sentences(r, 1))
	b.WriteString("        properties:\n")
	field(&b, 10, "apiVersion", "string", "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources")
	field(&b, 10, "kind", "string", "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds")
	b.WriteString("          metadata:\n            type: object\n")
	b.WriteString("          spec:\n")
	description(&b, r, 12, kind+"Spec defines the desired state of "+kind+". "+sentences(r, 2))
	properties(&b, r, 12, 14, 0)
	b.WriteString("          status:\n")
	description(&b, r, 12, kind+"Status defines the observed state of "+kind+". "+sentences(r, 1))
	properties(&b, r, 12, 6, 1)
	b.WriteString("        type: object\n    served: true\n    storage: true\n    subresources:\n      status: {}\n")

	var doc yaml.Node
	if err := yaml.Unmarshal(b.Bytes(), &doc); err != nil {
		panic(fmt.Sprintf("corpus: CRD %d does not read: %v", i, err))
	}
	patch := obj(kv{"metadata", obj(kv{"annotations", obj(kv{"controller-gen.kubebuilder.io/version", str("v0.17.0")})})})
	return Case{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: name,
		Doc: doc.Content[0], Patch: patch, Text: b.Bytes()}
}

// properties writes "properties:" at indent and n fields below it, then
// "type: object"; fields at depth < 3 may be objects or lists of objects
// with properties of their own.
func properties(b *bytes.Buffer, r *rand.Rand, indent, n, depth int) {
	pad := strings.Repeat(" ", indent)
	b.WriteString(pad + "properties:\n")
	names := make([]string, 0, n)
	for len(names) < n {
		f := pick(r, crdFields)
		if !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	slices.Sort(names) // controller-gen writes properties sorted
	for _, f := range names {
		fmt.Fprintf(b, "%s  %s:\n", pad, f)
		description(b, r, indent+4, sentences(r, between(r, 1, 4)))
		switch k := r.IntN(6); {
		case depth < 3 && k < 2:
			properties(b, r, indent+4, between(r, 3, 6), depth+1)
		case depth < 3 && k == 2:
			fmt.Fprintf(b, "%s    items:\n", pad)
			description(b, r, indent+6, sentences(r, 1))
			properties(b, r, indent+6, between(r, 2, 5), depth+1)
			fmt.Fprintf(b, "%s    type: array\n", pad)
		case k == 3:
			fmt.Fprintf(b, "%s    format: int32\n%s    type: integer\n", pad, pad)
		default:
			fmt.Fprintf(b, "%s    type: string\n", pad)
		}
	}
	b.WriteString(pad + "type: object\n")
}

func field(b *bytes.Buffer, indent int, name, typ, desc string) {
	fmt.Fprintf(b, "%s%s:\n", strings.Repeat(" ", indent), name)
	writeDescription(b, indent+2, desc, false)
	fmt.Fprintf(b, "%s  type: %s\n", strings.Repeat(" ", indent), typ)
}

func sentences(r *rand.Rand, n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = pick(r, crdSentences)
	}
	return strings.Join(s, " ")
}

// description writes "description: TEXT" at indent, one time in five as a
// literal block of two paragraphs (controller-gen's |- for texts with line
// breaks).
func description(b *bytes.Buffer, r *rand.Rand, indent int, text string) {
	writeDescription(b, indent, text, r.IntN(5) == 0)
}

func writeDescription(b *bytes.Buffer, indent int, text string, block bool) {
	pad := strings.Repeat(" ", indent)
	if block {
		fmt.Fprintf(b, "%sdescription: |-\n", pad)
		for _, line := range wrap(text, 80-indent-2) {
			fmt.Fprintf(b, "%s  %s\n", pad, line)
		}
		fmt.Fprintf(b, "\n%s  %s\n", pad, "See the API reference for the fields it holds.")
		return
	}
	// plain, unless the text holds ": " or starts with an indicator:
	// single-quoted then, folded the same way
	quoted := strings.Contains(text, ": ") || strings.ContainsAny(text[:1], "\"'`[]{}!&*|>%@,?-#")
	if quoted {
		text = "'" + strings.ReplaceAll(text, "'", "''") + "'"
	}
	lines := wrap(text, 80-indent-len("description: "))
	fmt.Fprintf(b, "%sdescription: %s\n", pad, lines[0])
	for _, line := range lines[1:] {
		fmt.Fprintf(b, "%s  %s\n", pad, line)
	}
}

// wrap breaks text at spaces into lines of about width characters (a
// word longer than width has a line of its own).
func wrap(text string, width int) []string {
	width = max(width, 30)
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}
