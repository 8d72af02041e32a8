// Package corpus generates the benchmark inputs: Kubernetes manifests and a
// strategic merge patch for each, deterministically (fixed seeds, one
// random stream per document, so a document does not depend on how many
// are generated).
//
// Kinds: Deployments (1-4 containers, env lists of 5-30, ports, volume
// mounts, probes), Services, ConfigMaps (10-100 keys) and Pipelines, a
// custom resource with three levels of keyed lists. Documents carry head
// and line comments, as hand-written manifests do.
package corpus

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	yaml "go.yaml.in/yaml/v3"
)

// Seed is the seed of every generated corpus.
const Seed = 20261122

// Case is a document and a strategic merge patch for it.
type Case struct {
	APIVersion, Kind, Name string
	Doc, Patch             *yaml.Node // root mappings; never modified by users
	// Text is the document's text when it is not yaml.v3's rendering of
	// Doc (CRDs: controller-gen's style); DocYAML and DocHandYAML give it.
	Text []byte
}

// DocYAML is the document as YAML, with its comments.
func (c Case) DocYAML() []byte {
	if c.Text != nil {
		return c.Text
	}
	return yamlText(c.Doc)
}

// DocHandYAML is the document as a person writes it: the YAML of DocYAML
// with a blank line before every top-level section (metadata:, spec:,
// data:) but the first, as hand-written manifests set them apart. yaml.v3
// writes no blank lines, so this text is not its rendering of the
// document: kmerge apply must splice it (a program's YAML it writes as the
// edited rendering).
func (c Case) DocHandYAML() []byte {
	if c.Text != nil {
		return c.Text
	}
	return HandWritten(c.DocYAML())
}

// HandWritten puts a blank line before every top-level key of a YAML
// document whose value is a block (the line ends with the colon), but the
// first line.
func HandWritten(text []byte) []byte {
	var out []byte
	for i, line := range bytes.SplitAfter(text, []byte("\n")) {
		l := bytes.TrimRight(line, "\n")
		if i > 0 && len(l) > 0 && l[0] != ' ' && l[0] != '#' && l[0] != '-' && bytes.HasSuffix(l, []byte(":")) {
			out = append(out, '\n')
		}
		out = append(out, line...)
	}
	return out
}

// PatchYAML is the patch as YAML.
func (c Case) PatchYAML() []byte { return yamlText(c.Patch) }

// DocJSON is the document as compact JSON, keys in document order.
func (c Case) DocJSON() []byte { return jsonText(c.Doc) }

// PatchJSON is the patch as compact JSON.
func (c Case) PatchJSON() []byte { return jsonText(c.Patch) }

// PatchValue is the patch as a Go value, as encoding/json decodes it.
func (c Case) PatchValue() any { return value(c.Patch) }

// Kinds the generator knows, by the name used in benchmark names.
var Kinds = []string{"Deployment", "Service", "ConfigMap", "Pipeline"}

// Generate returns n cases of the kind ("Deployment", "Service",
// "ConfigMap", "Pipeline"), numbered from 0.
func Generate(kind string, n int) []Case {
	gen := map[string]func(int, *rand.Rand) Case{
		"Deployment": deployment, "Service": service, "ConfigMap": configMap, "Pipeline": pipeline,
	}[kind]
	if gen == nil {
		panic("corpus: unknown kind " + kind)
	}
	out := make([]Case, n)
	for i := range out {
		out[i] = gen(i, rng(kind, i))
	}
	return out
}

// Mixed returns n cases of the built-in kinds: 4 Deployments, 3 Services and
// 3 ConfigMaps in every 10, each with its own number.
func Mixed(n int) []Case {
	out := make([]Case, n)
	for i := range out {
		switch i % 10 {
		case 0, 1, 2, 3:
			out[i] = deployment(i, rng("Deployment", i))
		case 4, 5, 6:
			out[i] = service(i, rng("Service", i))
		default:
			out[i] = configMap(i, rng("ConfigMap", i))
		}
	}
	return out
}

func rng(kind string, i int) *rand.Rand {
	h := uint64(0)
	for _, c := range kind {
		h = h*31 + uint64(c)
	}
	return rand.New(rand.NewPCG(Seed^h, uint64(i)))
}

func between(r *rand.Rand, lo, hi int) int { return lo + r.IntN(hi-lo+1) }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

var (
	teams          = []string{"payments", "search", "checkout", "identity", "platform", "data"}
	containerNames = []string{"main", "sidecar", "proxy", "metrics", "log-shipper", "init-helper"}
	envNames       = []string{"LOG_LEVEL", "PORT", "DB_HOST", "DB_PORT", "DB_USER", "CACHE_URL", "FEATURE_FLAGS",
		"REGION", "ZONE", "TRACING_ENDPOINT", "OTEL_SERVICE_NAME", "JAVA_OPTS", "GOMAXPROCS", "TZ", "HTTP_PROXY",
		"NO_PROXY", "QUEUE_URL", "BUCKET", "TIMEOUT_MS", "RETRIES", "POOL_SIZE", "METRICS_PORT", "ENVIRONMENT",
		"VERSION", "SENTRY_DSN", "API_KEY_FILE", "MAX_CONNECTIONS", "READ_TIMEOUT", "WRITE_TIMEOUT", "CLUSTER_NAME"}
	mountPaths = []string{"/etc/config", "/var/lib/data", "/var/run/secrets/app", "/tmp", "/var/cache/app"}
)

func deployment(i int, r *rand.Rand) Case {
	name := fmt.Sprintf("app-%05d", i)
	team := pick(r, teams)
	nContainers := between(r, 1, 4)
	var containers []*yaml.Node
	var names []string
	volumes := map[string]bool{}
	var volumeOrder []string
	for c := 0; c < nContainers; c++ {
		cname := containerNames[c]
		names = append(names, cname)
		nEnv := between(r, 5, 30)
		var env []*yaml.Node
		for e := 0; e < nEnv; e++ {
			ev := obj(kv{"name", str(envNames[e])}, kv{"value", str(fmt.Sprintf("%s-value-%d", team, r.IntN(1000)))})
			if r.IntN(6) == 0 {
				ev = obj(kv{"name", str(envNames[e])}, kv{"valueFrom", obj(kv{"configMapKeyRef", obj(
					kv{"name", str(name + "-config")}, kv{"key", str(fmt.Sprintf("key-%03d", e))})})})
			}
			if e == 0 {
				comment(ev, "settings the service reads at start-up")
			}
			env = append(env, ev)
		}
		var ports []*yaml.Node
		for p := 0; p < between(r, 1, 3); p++ {
			ports = append(ports, obj(kv{"name", str([]string{"http", "grpc", "metrics"}[p])},
				kv{"containerPort", num(8080 + 10*c + p)}, kv{"protocol", str("TCP")}))
		}
		var mounts []*yaml.Node
		for m := 0; m < between(r, 1, 3); m++ {
			vname := fmt.Sprintf("vol-%d", (c+m)%5)
			if !volumes[vname] {
				volumes[vname] = true
				volumeOrder = append(volumeOrder, vname)
			}
			mounts = append(mounts, obj(kv{"name", str(vname)}, kv{"mountPath", str(mountPaths[(c+m)%5])},
				kv{"readOnly", boolean(m == 0)}))
		}
		container := obj(
			kv{"name", str(cname)},
			kv{"image", lineComment(str(fmt.Sprintf("registry.example.com/%s/%s-%s:1.%d.%d", team, name, cname, r.IntN(10), r.IntN(20))), "pinned by the release job")},
			kv{"args", seq(str(fmt.Sprintf("--port=%d", 8080+10*c)), str("--log-format=json"))},
			kv{"env", seq(env...)},
			kv{"ports", seq(ports...)},
			kv{"volumeMounts", seq(mounts...)},
			kv{"resources", obj(
				kv{"requests", obj(kv{"cpu", str(fmt.Sprintf("%dm", 50*between(r, 1, 10)))}, kv{"memory", str(fmt.Sprintf("%dMi", 64*between(r, 1, 8)))})},
				kv{"limits", obj(kv{"cpu", str(fmt.Sprintf("%d", between(r, 1, 4)))}, kv{"memory", str(fmt.Sprintf("%dMi", 128*between(r, 1, 8)))})})},
			kv{"readinessProbe", obj(kv{"httpGet", obj(kv{"path", str("/healthz")}, kv{"port", num(8080 + 10*c)})},
				kv{"periodSeconds", num(10)})},
		)
		containers = append(containers, container)
	}
	var vols []*yaml.Node
	for _, v := range volumeOrder {
		var src kv
		switch v {
		case "vol-0":
			src = kv{"configMap", obj(kv{"name", str(name + "-config")})}
		case "vol-2":
			src = kv{"secret", obj(kv{"secretName", str(name + "-secret")})}
		default:
			src = kv{"emptyDir", obj()}
		}
		vols = append(vols, obj(kv{"name", str(v)}, src))
	}
	labels := func() *yaml.Node { return obj(kv{"app", str(name)}, kv{"team", str(team)}) }
	doc := obj(
		kv{"apiVersion", str("apps/v1")},
		kv{"kind", str("Deployment")},
		kv{"metadata", obj(
			kv{"name", str(name)},
			kv{"namespace", str(team)},
			kv{"labels", obj(kv{"app", str(name)}, kv{"team", str(team)}, kv{"tier", str(pick(r, []string{"frontend", "backend", "worker"}))})},
			kv{"annotations", obj(kv{"example.com/owner", str(team + "@example.com")}, kv{"example.com/revision", str(fmt.Sprint(r.IntN(500)))})},
		)},
		kv{"spec", obj(
			kv{"replicas", lineComment(num(between(r, 1, 6)), "scaled by the autoscaler in production")},
			kv{"revisionHistoryLimit", num(5)},
			kv{"selector", obj(kv{"matchLabels", labels()})},
			kv{"strategy", obj(kv{"type", str("RollingUpdate")}, kv{"rollingUpdate", obj(kv{"maxSurge", num(1)}, kv{"maxUnavailable", num(0)})})},
			kv{"template", obj(
				kv{"metadata", obj(kv{"labels", labels()})},
				kv{"spec", obj(
					kv{"serviceAccountName", str(name)},
					kv{"containers", comment(seq(containers...), "the application and its helpers")},
					kv{"volumes", seq(vols...)},
				)},
			)},
		)},
	)
	comment(doc.Content[0], fmt.Sprintf("%s: owned by team %s", name, team))

	// the patch: what an overlay for another environment does
	target := r.IntN(nContainers)
	tenv := get(containers[target], "env").Content
	var penv []*yaml.Node
	penv = append(penv, obj(kv{"name", str(get(tenv[r.IntN(len(tenv)-1)], "name").Value)}, kv{"value", str("changed")}))
	penv = append(penv, obj(kv{"name", str("NEW_SETTING")}, kv{"value", str("enabled")}))
	if r.IntN(3) == 0 && len(tenv) > 2 {
		penv = append(penv, obj(kv{"name", str(get(tenv[len(tenv)-1], "name").Value)}, kv{"$patch", str("delete")}))
	}
	pc := []*yaml.Node{obj(
		kv{"name", str(names[target])},
		kv{"image", str(fmt.Sprintf("registry.example.com/%s/%s-%s:2.0.0", team, name, names[target]))},
		kv{"env", seq(penv...)},
		kv{"resources", obj(kv{"limits", obj(kv{"memory", str("1Gi")})})},
	)}
	if r.IntN(4) == 0 {
		pc = append(pc, obj(kv{"name", str("istio-proxy")}, kv{"image", str("istio/proxyv2:1.24.0")},
			kv{"ports", seq(obj(kv{"name", str("http-envoy")}, kv{"containerPort", num(15090)}, kv{"protocol", str("TCP")}))}))
	}
	patch := obj(
		kv{"metadata", obj(kv{"labels", obj(kv{"release", str("canary")})})},
		kv{"spec", obj(
			kv{"replicas", num(between(r, 2, 10))},
			kv{"template", obj(
				kv{"metadata", obj(kv{"annotations", obj(kv{"example.com/rollout", str(fmt.Sprintf("2026-11-%02d", 1+i%28))})})},
				kv{"spec", obj(kv{"containers", seq(pc...)})},
			)},
		)},
	)
	return Case{APIVersion: "apps/v1", Kind: "Deployment", Name: name, Doc: doc, Patch: patch}
}

func service(i int, r *rand.Rand) Case {
	name := fmt.Sprintf("svc-%05d", i)
	team := pick(r, teams)
	nPorts := between(r, 1, 4)
	var ports []*yaml.Node
	for p := 0; p < nPorts; p++ {
		ports = append(ports, obj(kv{"name", str([]string{"http", "https", "grpc", "metrics"}[p])},
			kv{"port", num([]int{80, 443, 9000, 9090}[p])}, kv{"targetPort", num(8080 + p)}, kv{"protocol", str("TCP")}))
	}
	doc := obj(
		kv{"apiVersion", str("v1")},
		kv{"kind", str("Service")},
		kv{"metadata", obj(
			kv{"name", str(name)},
			kv{"namespace", str(team)},
			kv{"labels", obj(kv{"app", str(name)}, kv{"team", str(team)})},
		)},
		kv{"spec", obj(
			kv{"type", lineComment(str("ClusterIP"), "internal only")},
			kv{"selector", obj(kv{"app", str(name)})},
			kv{"ports", comment(seq(ports...), "one port per protocol the pods serve")},
		)},
	)
	comment(doc.Content[0], name+": generated by bench/corpus")
	p := r.IntN(nPorts)
	patch := obj(
		kv{"metadata", obj(kv{"annotations", obj(kv{"example.com/scrape", str("true")})})},
		kv{"spec", obj(
			kv{"sessionAffinity", str("ClientIP")},
			kv{"ports", seq(
				obj(kv{"port", num([]int{80, 443, 9000, 9090}[p])}, kv{"targetPort", num(9000 + p)}, kv{"protocol", str("TCP")}),
				obj(kv{"name", str("admin")}, kv{"port", num(10000 + r.IntN(100))}, kv{"targetPort", num(7000)}, kv{"protocol", str("TCP")}),
			)},
		)},
	)
	return Case{APIVersion: "v1", Kind: "Service", Name: name, Doc: doc, Patch: patch}
}

func configMap(i int, r *rand.Rand) Case {
	name := fmt.Sprintf("config-%05d", i)
	team := pick(r, teams)
	nKeys := between(r, 10, 100)
	var data []kv
	for k := 0; k < nKeys; k++ {
		v := str(fmt.Sprintf("%s-setting-%d", team, r.IntN(100000)))
		if r.IntN(10) == 0 {
			v = str(fmt.Sprintf("[section]\nkey = %d\nother = \"%s\"\n", r.IntN(100), team))
		}
		data = append(data, kv{fmt.Sprintf("key-%03d", k), v})
	}
	dataNode := obj(data...)
	comment(dataNode.Content[0], "generated settings")
	doc := obj(
		kv{"apiVersion", str("v1")},
		kv{"kind", str("ConfigMap")},
		kv{"metadata", obj(kv{"name", str(name)}, kv{"namespace", str(team)}, kv{"labels", obj(kv{"team", str(team)})})},
		kv{"data", dataNode},
	)
	comment(doc.Content[0], name+": generated by bench/corpus")
	var pdata []kv
	for _, k := range r.Perm(nKeys - 1)[:3] { // three distinct keys, not the one deleted
		pdata = append(pdata, kv{fmt.Sprintf("key-%03d", k), str("changed")})
	}
	pdata = append(pdata, kv{"new-key-1", str("added")}, kv{"new-key-2", str("added too")})
	pdata = append(pdata, kv{fmt.Sprintf("key-%03d", nKeys-1), null()})
	patch := obj(kv{"data", obj(pdata...)})
	return Case{APIVersion: "v1", Kind: "ConfigMap", Name: name, Doc: doc, Patch: patch}
}

func pipeline(i int, r *rand.Rand) Case {
	name := fmt.Sprintf("pipeline-%05d", i)
	nStages := between(r, 2, 5)
	var stages []*yaml.Node
	type ref struct{ stage, step, param string }
	var refs []ref
	for s := 0; s < nStages; s++ {
		sname := []string{"build", "test", "scan", "package", "deploy"}[s]
		var steps []*yaml.Node
		for t := 0; t < between(r, 2, 6); t++ {
			tname := fmt.Sprintf("%s-step-%d", sname, t)
			var params []*yaml.Node
			for p := 0; p < between(r, 1, 5); p++ {
				pname := fmt.Sprintf("param-%d", p)
				params = append(params, obj(kv{"name", str(pname)}, kv{"value", str(fmt.Sprintf("v%d", r.IntN(1000)))}))
				refs = append(refs, ref{sname, tname, pname})
			}
			steps = append(steps, obj(kv{"name", str(tname)}, kv{"image", str(fmt.Sprintf("tools.example.com/%s:%d", sname, r.IntN(9)))},
				kv{"params", seq(params...)}))
		}
		stage := obj(kv{"name", str(sname)}, kv{"timeoutSeconds", num(60 * between(r, 1, 30))}, kv{"steps", seq(steps...)})
		comment(stage, "stage "+sname)
		stages = append(stages, stage)
	}
	doc := obj(
		kv{"apiVersion", str("example.com/v1")},
		kv{"kind", str("Pipeline")},
		kv{"metadata", obj(kv{"name", str(name)}, kv{"namespace", str("ci")})},
		kv{"spec", obj(kv{"concurrency", lineComment(num(between(r, 1, 4)), "runs at once")}, kv{"stages", seq(stages...)})},
	)
	comment(doc.Content[0], name+": generated by bench/corpus")
	a := refs[r.IntN(len(refs))]
	patch := obj(kv{"spec", obj(kv{"stages", seq(
		obj(kv{"name", str(a.stage)}, kv{"steps", seq(
			obj(kv{"name", str(a.step)}, kv{"params", seq(
				obj(kv{"name", str(a.param)}, kv{"value", str("changed")}),
				obj(kv{"name", str("added")}, kv{"value", str("new")}),
			)}),
			obj(kv{"name", str(a.stage + "-notify")}, kv{"image", str("tools.example.com/notify:1")}),
		)}),
	)})})
	return Case{APIVersion: "example.com/v1", Kind: "Pipeline", Name: name, Doc: doc, Patch: patch}
}

// EnvList returns a Deployment with one container whose env has n entries,
// and a patch that changes every hundredth entry (at least one) and adds
// one: the list-scaling benchmark.
func EnvList(n int) Case {
	env := make([]*yaml.Node, n)
	for i := range env {
		env[i] = obj(kv{"name", str(fmt.Sprintf("VAR_%d", i))}, kv{"value", str(fmt.Sprintf("value-%d", i))})
	}
	doc := obj(
		kv{"apiVersion", str("apps/v1")},
		kv{"kind", str("Deployment")},
		kv{"metadata", obj(kv{"name", str("web")}, kv{"namespace", str("prod")})},
		kv{"spec", obj(
			kv{"replicas", num(3)},
			kv{"selector", obj(kv{"matchLabels", obj(kv{"app", str("web")})})},
			kv{"template", obj(
				kv{"metadata", obj(kv{"labels", obj(kv{"app", str("web")})})},
				kv{"spec", obj(kv{"containers", seq(obj(
					kv{"name", str("c0")},
					kv{"image", str("registry.example.com/app:1.0.0")},
					kv{"env", seq(env...)},
				))})},
			)},
		)},
	)
	var penv []*yaml.Node
	for i := 0; i < n; i += 100 {
		penv = append(penv, obj(kv{"name", str(fmt.Sprintf("VAR_%d", i))}, kv{"value", str("changed")}))
	}
	penv = append(penv, obj(kv{"name", str("NEW")}, kv{"value", str("new")}))
	patch := obj(kv{"spec", obj(kv{"template", obj(kv{"spec", obj(kv{"containers", seq(obj(
		kv{"name", str("c0")}, kv{"env", seq(penv...)},
	))})})})})
	return Case{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", Doc: doc, Patch: patch}
}
