package conformance

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	kjson "sigs.k8s.io/json"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// validationKinds are the built-in kinds the property test patches, with
// the Go types an API server decodes them into.
var validationKinds = []struct {
	apiVersion, kind string
	goType           reflect.Type
}{
	{"apps/v1", "Deployment", reflect.TypeFor[appsv1.Deployment]()},
	{"apps/v1", "StatefulSet", reflect.TypeFor[appsv1.StatefulSet]()},
	{"apps/v1", "DaemonSet", reflect.TypeFor[appsv1.DaemonSet]()},
	{"batch/v1", "Job", reflect.TypeFor[batchv1.Job]()},
	{"batch/v1", "CronJob", reflect.TypeFor[batchv1.CronJob]()},
	{"v1", "Pod", reflect.TypeFor[corev1.Pod]()},
	{"v1", "Service", reflect.TypeFor[corev1.Service]()},
	{"v1", "ConfigMap", reflect.TypeFor[corev1.ConfigMap]()},
	{"v1", "Secret", reflect.TypeFor[corev1.Secret]()},
	{"v1", "PersistentVolumeClaim", reflect.TypeFor[corev1.PersistentVolumeClaim]()},
	{"v1", "ServiceAccount", reflect.TypeFor[corev1.ServiceAccount]()},
	{"v1", "List", reflect.TypeFor[corev1.List]()},
	{"networking.k8s.io/v1", "Ingress", reflect.TypeFor[networkingv1.Ingress]()},
	{"networking.k8s.io/v1", "NetworkPolicy", reflect.TypeFor[networkingv1.NetworkPolicy]()},
	{"autoscaling/v2", "HorizontalPodAutoscaler", reflect.TypeFor[autoscalingv2.HorizontalPodAutoscaler]()},
	{"policy/v1", "PodDisruptionBudget", reflect.TypeFor[policyv1.PodDisruptionBudget]()},
	{"rbac.authorization.k8s.io/v1", "Role", reflect.TypeFor[rbacv1.Role]()},
	{"coordination.k8s.io/v1", "Lease", reflect.TypeFor[coordinationv1.Lease]()},
	{"events.k8s.io/v1", "Event", reflect.TypeFor[eventsv1.Event]()},
}

// validationCases is how many random cases TestValidationDecodes runs;
// KMERGE_VALIDATE_CASES changes it.
func validationCases(t *testing.T) int {
	if s := os.Getenv("KMERGE_VALIDATE_CASES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("KMERGE_VALIDATE_CASES: %v", err)
		}
		return n
	}
	return 20000
}

// strictDecode decodes JSON into a new value of the Go type as an API
// server does with fieldValidation=Strict: sigs.k8s.io/json, case
// sensitive, unknown and duplicate fields refused. It returns why the
// object is refused, or "".
func strictDecode(data []byte, goType reflect.Type) string {
	obj := reflect.New(goType).Interface()
	strict, err := kjson.UnmarshalStrict(data, obj)
	switch {
	case err != nil:
		return err.Error()
	case len(strict) > 0:
		return fmt.Sprint(strict)
	}
	return ""
}

// TestValidationDecodes is the property that makes validation worth
// having: random strategic patches (the differential tests' generator,
// with valid formats most of the time, an unknown field or a wrong letter
// case now and then) on random objects of built-in kinds; whenever kmerge
// accepts the result, it decodes into the k8s.io/api type with strict
// decoding, and whenever kmerge reports a violation other than a missing
// identity, strict decoding refuses it. The identity (a name) is what
// decoding does not check: those cases are counted apart.
func TestValidationDecodes(t *testing.T) {
	builtin := schema.Builtin()
	n := validationCases(t)
	counts := map[string]int{}
	failures := 0
	fail := func(format string, args ...any) {
		failures++
		if failures <= 10 {
			t.Errorf(format, args...)
		}
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		k := validationKinds[int(seed)%len(validationKinds)]
		typ := builtin.Kind(k.apiVersion, k.kind)
		g := NewGen(seed)
		g.Formats = true
		doc, _ := g.Value(typ, 0).(map[string]any)
		if doc == nil {
			doc = map[string]any{}
		}
		doc["apiVersion"], doc["kind"] = k.apiVersion, k.kind
		if g.chance(0.9) && k.kind != "List" {
			meta, _ := doc["metadata"].(map[string]any)
			if meta == nil {
				meta = map[string]any{}
				doc["metadata"] = meta
			}
			meta["name"] = "n"
		}
		patch := g.Patch(doc, typ)
		// the oracle decodes into the kind's Go type: the patch keeps the
		// kind (kmerge would check another kind by its own schema)
		delete(patch, "apiVersion")
		delete(patch, "kind")
		switch r := rand.New(rand.NewPCG(seed, 7)); r.IntN(20) {
		case 0:
			patch["unknownTopLevel"] = 1
		case 1:
			patch["Metadata"] = map[string]any{"name": "m"}
		}
		db, _ := json.Marshal(doc)
		pb, _ := json.Marshal(patch)
		d, err := tree.Read(db, tree.Options{File: "doc.json"})
		if err != nil {
			t.Fatal(err)
		}
		p, err := tree.Read(pb, tree.Options{File: "patch.json"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := smp.Apply(d.Docs[0], p.Docs[0], typ, smp.Options{})
		if err != nil {
			counts["patch rejected"]++
			continue
		}
		out, err := tree.MarshalJSON(res)
		if err != nil {
			fail("seed %d: the result has no JSON form: %v", seed, err)
			continue
		}
		vs := validate.Object(res, builtin)
		refused := strictDecode(out, k.goType)
		switch {
		case len(vs) == 0 && refused == "":
			counts["valid: accepted by both"]++
		case len(vs) == 0:
			fail("seed %d %s: kmerge accepts what strict decoding refuses (%s)\n result: %s", seed, k.kind, refused, out)
		case refused != "":
			counts["invalid: refused by both"]++
			for _, v := range vs {
				counts["  reason "+string(v.Reason)]++
			}
		case stricter(res, vs) != "":
			counts["invalid for kmerge only: "+stricter(res, vs)]++
		default:
			fail("seed %d %s: kmerge reports %v, which strict decoding accepts\n result: %s", seed, k.kind, vs, out)
		}
	}
	var lines []string
	for c, k := range counts {
		lines = append(lines, fmt.Sprintf("%-60s %6d", c, k))
	}
	sort.Strings(lines)
	t.Logf("%d cases over %d kinds:\n%s", n, len(validationKinds), strings.Join(lines, "\n"))
	if counts["valid: accepted by both"] < n/20 || counts["invalid: refused by both"] < n/20 {
		t.Errorf("too few valid or invalid results to say anything: %v", counts)
	}
	if failures > 0 {
		t.Errorf("%d of %d cases disagree", failures, n)
	}
}

// stricter explains violations strict decoding does not see, the
// documented exceptions (docs/validation.md): the identity, which decoding
// does not check (and without a kind, nothing says that a list's metadata
// is a ListMeta); a list of byte values for a []byte field, which Go's
// decoder takes and kmerge does not (it wants base64 text). "" when the
// violations are not all explained.
func stricter(res *yaml.Node, vs []validate.Violation) string {
	root := tree.Root(res)
	lostKind := tree.MapGet(root, "apiVersion") == nil || tree.MapGet(root, "kind") == nil
	why := ""
	for _, v := range vs {
		switch {
		case v.Reason == validate.ReasonRequired || lostKind && v.Path[0].Name == "metadata":
			if why == "" {
				why = "the identity (decoding does not check it)"
			}
		case v.Reason == validate.ReasonType && v.Want == "string/byte" && v.Found == "a list":
			why = "a list of byte values for []byte"
		default:
			return ""
		}
	}
	return why
}

// TestQuantityStrings compares kmerge's quantity check with
// resource.ParseQuantity on strings of quantity characters, random and
// hand-picked: they accept exactly the same ones, and refuse the others
// with the same message (quantityVerdicts). Quantity's UnmarshalJSON (an
// API server's JSON decoding) accepts more: the same text with spaces
// around it, which it trims (and stores without them); kmerge refuses
// those, as ParseQuantity does (docs/validation.md says why), and the test
// checks that these are the only strings where UnmarshalJSON and kmerge
// disagree.
func TestQuantityStrings(t *testing.T) {
	quantity := quantityType(t)
	strs := []string{"", "0", "-", "+", ".", "-.", "1", "1.", ".5", "1.5Gi", "Ki", "e3", "e-10", "1e-10", "1E+3", "1e", "1ei",
		"1GB", "1.2.3", " 1Gi ", " 1", "1 ", "\t1Gi", "1Gi\n", "\u00a01", "1Mi ", "123456789012345678901", "1234567890123456789", "0.000000001",
		"0.0000000001", "1n", "1.5n", "9223372036854775807Ei", "1e9999999999", "-0.5m", "+1k", "1K", "1kk", "10Ki5",
		// the grammar's edges and what ParseQuantity does beyond it
		"Ti", "Pi", "-.Ei", "n", "u", "E", "e", "E-9", "E-10", "e2147483647", "e2147483648", "e4294967296", "e-2147483649",
		"1e9223372036854775807", "1e9223372036854775808", "1e+09", "1e1.5", "1e3k", "--1", "+-1", "1m3", "1Kie3", "1e-", "e+", " ", "0x10"}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "0123456789.+-eEinumkKMGTP xQ"
	for range 20000 {
		b := make([]byte, r.IntN(9))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		strs = append(strs, string(b))
	}
	spaced, slow := 0, 0
	for _, s := range strs {
		upstream, want, kmerge, tooSlow := quantityVerdicts(t, quantity, s)
		if tooSlow {
			slow++
			continue
		}
		if kmerge != want {
			t.Errorf("%q: ParseQuantity says %q, kmerge %q; want %q", s, upstream, kmerge, want)
		}
		j, _ := json.Marshal(s)
		var q resource.Quantity
		if decoded := q.UnmarshalJSON(j) == nil; decoded != (kmerge == "") {
			if _, err := resource.ParseQuantity(strings.TrimSpace(s)); !decoded || strings.TrimSpace(s) == s || err != nil {
				t.Errorf("%q: UnmarshalJSON accepts %v, kmerge %v, and not for spaces around it", s, decoded, kmerge == "")
			}
			spaced++
		}
	}
	if spaced == 0 {
		t.Errorf("no string with spaces around it: the cases lost what they are for")
	}
	if slow > len(strs)/100 {
		t.Errorf("%d of %d strings too slow for ParseQuantity to compare", slow, len(strs))
	}
}

// TestMisindentedPatchUpstream: a strategic patch whose field is indented
// one level too little ("spec:\nreplicas: 3") deletes spec and adds a
// top-level replicas, upstream as in kmerge: null deletes. kmerge does not
// lose data upstream keeps; validation then reports the unknown field
// (cmd/kmerge/testdata/golden/validate-misindented-field).
func TestMisindentedPatchUpstream(t *testing.T) {
	doc := []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1}}`)
	patch, err := sigsyaml.YAMLToJSON([]byte("spec:\nreplicas: 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	up, err := strategicpatch.StrategicMergePatch(doc, patch, appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	s := Subject{Upstream: nil, Kmerge: schema.Builtin().Kind("apps/v1", "Deployment")}
	km := Kmerge(s, doc, patch, smp.OrderSpec)
	if km.Err != "" {
		t.Fatal(km.Err)
	}
	want := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"replicas":3}`
	if string(up) != want {
		t.Errorf("upstream: %s", up)
	}
	var a, b any
	_ = json.Unmarshal(up, &a)
	_ = json.Unmarshal([]byte(km.JSON), &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("kmerge %s, upstream %s", km.JSON, up)
	}
}
