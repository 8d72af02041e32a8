package conformance

import (
	"encoding/json"
	"fmt"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"github.com/kmerge/kmerge/internal/upstreamcases"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

// The benchmarks run kmerge and upstream on the same bytes, JSON in and
// JSON out, as an API server does: compare the two lines of each pair
// (go test -bench . -benchmem). docs/performance.md has the ratios.

// deployment returns a Deployment with containers of envPer variables each.
func deployment(containers, envPer int) map[string]any {
	var cs []any
	for c := 0; c < containers; c++ {
		var env []any
		for i := 0; i < envPer; i++ {
			env = append(env, map[string]any{"name": fmt.Sprintf("VAR_%d", i), "value": fmt.Sprintf("value-%d", i)})
		}
		cs = append(cs, map[string]any{
			"name":  fmt.Sprintf("c%d", c),
			"image": "registry.example.com/app:1.0.0",
			"env":   env,
			"ports": []any{map[string]any{"containerPort": 8080 + c, "protocol": "TCP", "name": "http"}},
			"volumeMounts": []any{
				map[string]any{"name": "config", "mountPath": "/etc/app"},
				map[string]any{"name": "data", "mountPath": "/var/lib/app"},
			},
			"resources": map[string]any{"limits": map[string]any{"cpu": "1", "memory": "512Mi"}},
		})
	}
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "prod", "labels": map[string]any{"app": "web", "tier": "frontend"}},
		"spec": map[string]any{
			"replicas": 3,
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec": map[string]any{
					"containers": cs,
					"volumes": []any{
						map[string]any{"name": "config", "configMap": map[string]any{"name": "web-config"}},
						map[string]any{"name": "data", "emptyDir": map[string]any{}},
					},
				},
			},
		},
	}
}

// envPatch changes every hundredth variable of the first container (at
// least one) and adds one.
func envPatch(envPer int) map[string]any {
	var env []any
	for i := 0; i < envPer; i += 100 {
		env = append(env, map[string]any{"name": fmt.Sprintf("VAR_%d", i), "value": "changed"})
	}
	env = append(env, map[string]any{"name": "NEW", "value": "new"})
	return map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
		"containers": []any{map[string]any{"name": "c0", "env": env}},
	}}}}
}

// typicalPatch is what an overlay usually does to a Deployment.
func typicalPatch() map[string]any {
	return map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"release": "canary"}},
		"spec": map[string]any{
			"replicas": 5,
			"template": map[string]any{"spec": map[string]any{
				"containers": []any{map[string]any{
					"name":      "c1",
					"image":     "registry.example.com/app:1.1.0",
					"env":       []any{map[string]any{"name": "VAR_3", "value": "x"}, map[string]any{"name": "LOG_LEVEL", "value": "debug"}},
					"resources": map[string]any{"limits": map[string]any{"memory": "1Gi"}},
				}},
			}},
		},
	}
}

func mustJSON(b *testing.B, v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

func benchPair(b *testing.B, doc, patch []byte) {
	typ := schema.Builtin().Kind("apps/v1", "Deployment")
	b.Run("kmerge", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if _, err := kmergeJSON(doc, patch, typ); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if _, err := strategicpatch.StrategicMergePatch(doc, patch, appsv1.Deployment{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// kmergeJSON is kmerge's JSON-to-JSON path: read, apply, write.
func kmergeJSON(doc, patch []byte, typ *schema.Type) ([]byte, error) {
	d, err := tree.Read(doc, tree.Options{})
	if err != nil {
		return nil, err
	}
	p, err := tree.Read(patch, tree.Options{})
	if err != nil {
		return nil, err
	}
	res, err := smp.Apply(d.Docs[0], p.Docs[0], typ, smp.Options{})
	if err != nil {
		return nil, err
	}
	return tree.MarshalJSON(res)
}

func BenchmarkDeploymentPatch(b *testing.B) {
	benchPair(b, mustJSON(b, deployment(3, 10)), mustJSON(b, typicalPatch()))
}

func BenchmarkEnvList(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchPair(b, mustJSON(b, deployment(1, n)), mustJSON(b, envPatch(n)))
		})
	}
}

// TestBenchmarkInputsAgree makes sure both sides of every benchmark compute
// the same thing.
func TestBenchmarkInputsAgree(t *testing.T) {
	typ := schema.Builtin().Kind("apps/v1", "Deployment")
	pairs := [][2]any{{deployment(3, 10), typicalPatch()}}
	for _, n := range []int{10, 100, 1000} {
		pairs = append(pairs, [2]any{deployment(1, n), envPatch(n)})
	}
	for i, p := range pairs {
		doc, _ := json.Marshal(p[0])
		patch, _ := json.Marshal(p[1])
		up, err := strategicpatch.StrategicMergePatch(doc, patch, appsv1.Deployment{})
		if err != nil {
			t.Fatal(err)
		}
		km, err := kmergeJSON(doc, patch, typ)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := upstreamcases.Canonical(up, false)
		k, _ := upstreamcases.Canonical(km, false)
		if a != k {
			t.Fatalf("pair %d: kmerge and upstream disagree:\n%s\n%s", i, k, a)
		}
	}
}
