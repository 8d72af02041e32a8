package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	dir := t.TempDir()
	benchOut := `goos: linux
cores: 2
cpu: AMD EPYC
BenchmarkApplyJSON/kind=Deployment/impl=kmerge-2   100  2000000 ns/op  10 MB/s  100000 ns/doc  2800000 B/op  3000 allocs/op
BenchmarkApplyJSON/kind=Deployment/impl=kmerge-2   100  2200000 ns/op  10 MB/s  110000 ns/doc  2800000 B/op  3000 allocs/op
BenchmarkApplyJSON/kind=Deployment/impl=upstream-2 100  4000000 ns/op  10 MB/s  200000 ns/doc  1300000 B/op  27000 allocs/op
BenchmarkApplyYAML/kind=Deployment/impl=kmerge-2   100  20000000 ns/op 1 MB/s  1000000 ns/doc 1 B/op 1 allocs/op
BenchmarkApplyYAML/kind=Deployment/impl=yamlv3-2   100  17000000 ns/op 1 MB/s  850000 ns/doc 1 B/op 1 allocs/op
BenchmarkApplyYAML/kind=Deployment/impl=kyaml-2    100  90000000 ns/op 1 MB/s  4500000 ns/doc 1 B/op 1 allocs/op
BenchmarkRead/kind=Deployment/style=program/impl=kmerge-2  100  1000000 ns/op  126.00 MB/s  50000 ns/doc  2400000 B/op  2200 allocs/op
BenchmarkRead/kind=Deployment/style=program/impl=yamlv3-2  100  5000000 ns/op  25.20 MB/s  250000 ns/doc  2400000 B/op  41000 allocs/op
BenchmarkRead/kind=Deployment/style=program/impl=kmerge-skim-2  100  500000 ns/op  252.00 MB/s  25000 ns/doc  400000 B/op  2000 allocs/op
BenchmarkRead/kind=Deployment/style=hand/impl=kmerge-2     100  1200000 ns/op  105.00 MB/s  60000 ns/doc  40000 cpu-ns/doc  30000 thread-ns/doc  2400000 B/op  2200 allocs/op
BenchmarkRead/kind=Deployment/style=hand/impl=yamlv3-2     100  5400000 ns/op  23.33 MB/s  270000 ns/doc  220000 cpu-ns/doc  180000 thread-ns/doc  2400000 B/op  41000 allocs/op
BenchmarkEnvList/n=1000/impl=kmerge-2      100  1000000 ns/op 1 MB/s 1000000 ns/doc 1 B/op 1 allocs/op
BenchmarkEnvList/n=1000/impl=upstream-2    100  70000000 ns/op 1 MB/s 70000000 ns/doc 1 B/op 1 allocs/op
BenchmarkEnvList/n=10000/impl=kmerge-2     100  11000000 ns/op 1 MB/s 11000000 ns/doc 1 B/op 1 allocs/op
BenchmarkEnvList/n=10000/impl=upstream-2   1    9000000000 ns/op 1 MB/s 9000000000 ns/doc 1 B/op 1 allocs/op
BenchmarkServerSideApply/n=100/impl=kmerge-2   10  100000000 ns/op  800000 cpu-ns/object  1000000 ns/object  1 B/op  1000000 allocs/op
BenchmarkServerSideApply/n=100/impl=apimachinery-2   10  200000000 ns/op  1600000 cpu-ns/object  2000000 ns/object  1 B/op  2000000 allocs/op
BenchmarkServerSideApply/n=1000/impl=kmerge-2   1  1000000000 ns/op  850000 cpu-ns/object  1000000 ns/object  1 B/op  10000000 allocs/op
BenchmarkServerSideApply/n=1000/impl=apimachinery-2   1  2000000000 ns/op  1700000 cpu-ns/object  2000000 ns/object  1 B/op  20000000 allocs/op
BenchmarkServerSideApply/n=3000/impl=kmerge-2   1  3000000000 ns/op  900000 cpu-ns/object  1000000 ns/object  1 B/op  30000000 allocs/op
BenchmarkServerSideApply/n=3000/impl=apimachinery-2   1  6000000000 ns/op  1800000 cpu-ns/object  2000000 ns/object  1 B/op  60000000 allocs/op
`
	// a result of before the sparse scenario (no patches=), and a sparse
	// one with a baseline
	e2eOut := "n=1000 corpus=deployments tool=kmerge wall=4.00 rss_kb=400000\nn=1000 corpus=deployments tool=kustomize wall=16.00 rss_kb=300000\nn=1000 corpus=deployments tool=yaml.v3 wall=0.50 rss_kb=50000\nn=1000 corpus=deployments check=1000 objects: 1000 identical\n" +
		"n=10000 corpus=mixed patches=50 tool=kmerge wall=0.40 rss_kb=60000\nn=10000 corpus=mixed patches=50 tool=kmerge-baseline wall=2.40 rss_kb=220000\n" +
		"n=10000 corpus=mixed patches=50 tool=kustomize wall=300.00 rss_kb=1600000\nn=10000 corpus=mixed patches=50 tool=cat wall=0.10 rss_kb=2000\n" +
		"n=10000 corpus=mixed patches=50 check=10000 objects: 10000 identical\n" +
		"n=5000 corpus=mixed patches=10 tool=fn-kmerge wall=1.60 rss_kb=900000\nn=5000 corpus=mixed patches=10 tool=fn-kmerge-baseline wall=8.00 rss_kb=2400000\nn=5000 corpus=mixed patches=10 tool=fn-cat wall=0.01 rss_kb=2000\n" +
		// the one-stream scenario: CPU time, and its bytes
		"n=10000 corpus=stream patches=10 tool=stream-kmerge wall=0.50 rss_kb=60000 cpu=0.90 bytes=2000000\n" +
		"n=10000 corpus=stream patches=10 tool=stream-cat wall=0.01 rss_kb=2000 cpu=0.00 bytes=2000000\n" +
		"n=100000 corpus=stream patches=10 tool=stream-kmerge wall=5.00 rss_kb=300000 cpu=9.50 bytes=20000000\n" +
		"n=100000 corpus=stream patches=10 tool=stream-kmerge wall=4.00 rss_kb=200000 cpu=9.00 bytes=20000000\n" +
		"n=100000 corpus=stream patches=10 tool=stream-yaml.v3 wall=20.00 rss_kb=900000 cpu=20.00 bytes=20000000\n" +
		// a dense run with CPU times
		"n=1000 corpus=deployments-hand patches=1000 tool=kmerge wall=0.60 rss_kb=90000 cpu=0.80\nn=1000 corpus=deployments-hand patches=1000 tool=yaml.v3 wall=0.55 rss_kb=30000 cpu=1.00\n"
	tmpl := "{{.Env}}\n{{.Targets}}\n{{.ApplyJSON}}\n{{.ApplyYAML}}\n{{.Read}}\n{{.EnvList}}\n{{.Diff}}\n{{.SSA}}\n{{.E2E}}\n{{.Fn}}\n{{.Stream}}\n"
	files := map[string]string{"bench.txt": benchOut, "e2e.txt": e2eOut, "t.tmpl": tmpl}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := os.Create(filepath.Join(dir, "out.md"))
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = out
	err = run(filepath.Join(dir, "bench.txt"), filepath.Join(dir, "e2e.txt"), filepath.Join(dir, "t.tmpl"))
	os.Stdout = stdout
	out.Close()
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(filepath.Join(dir, "out.md"))
	for _, want := range []string{
		"| Deployment | 105 µs | 200 µs | 0.53 | **1.9×** | 150 / 1350 | 137 KiB / 63 KiB |", // medians per document
		"≥ 3× faster, fewer allocations | 1.9× faster, 150 / 1350 allocations | **missed** |",
		"| ≤ 12× the cost | 11.00× | met |",
		"| 1000 Deployments + 1000 patches | 4.00 s | 16.00 s | 0.25 | **4.0×** | 391 MiB | 293 MiB | yaml.v3 parse + emit: 0.50 s | 8.00 | – | – | 1000 objects: 1000 identical |",
		"| 10000 mixed manifests (Deployments, Services, ConfigMaps) + 50 patches | 0.40 s | 300.00 s | 0.00 | **750×** | 59 MiB | 1562 MiB | cat: 0.10 s | 4.00 | – | 2.40 s (215 MiB) | 10000 objects: 10000 identical |",
		"kmerge apply / cat of the files | ≤ 5 | 4.00 | met |",
		"| 5000 + 10 | 1.60 s | 879 MiB | 0.01 s | 160.00 | 8.00 s (2344 MiB) | **5.0×** |",
		"10 patches: peak memory | ≤ 200 MiB | peak RSS 879 MiB | **missed** |",
		// the median of two runs is the larger; the largest peak
		"| 100000 (19.1 MiB) | 5.00 s | 9.50 s | 1.90 | 95 µs | 1.06 | 293 MiB | 176 MiB | – | 20.00 s | – |",
		"| 10000 (1.9 MiB) | 0.50 s | 0.90 s | 1.80 | 90 µs | 1.00 | 59 MiB | 108 MiB | 0.01 s | – | – |",
		"100,000 documents on standard input: linear | cost per document ≤ 1.2× that at the smallest size | 1.06× | met |",
		"100,000 documents: every core | CPU time / wall time ≥ 1.5 (2 cores) | 1.90 | met |",
		"100,000 documents: peak memory | ≤ 4× its bytes + 100 MiB | 293 MiB (budget 176 MiB) | **missed** |",
		"| 1000 Deployments, hand-written style + 1000 patches | 0.60 s | – | – | – | 88 MiB | – | yaml.v3 parse + emit: 0.55 s | 1.09 | 0.80 (0.80 s / 1.00 s) | – |  |",
		"vs kustomize build | ≥ 300× faster | 750× faster | met |",
		"dense: 1,000 Deployments + 1,000 strategic patches, vs kustomize build | ≥ 25× faster | 4.0× faster | **missed** |",
		"kmerge apply / yaml.v3 parse + emit of the manifests | ≤ 0.7 | 8.00 | **missed** |",
		"goos: linux, cores: 2, cpu: AMD EPYC",
		// server-side apply: per object, CPU time first
		"| 1000 | 850 µs | 1.70 ms | **2.0×** | 1.00 ms | 2.00 ms | 10k / 20k |",
		"server-side apply of 1,000 Deployments vs apimachinery's field manager (CPU) | faster | 2.0× | met |",
		"server-side apply linear: cost per object at 3,000 vs 100 | ≤ 1.2× | 1.12× | met |",
		"| Deployment | program | 50 µs | 250 µs | 126.0 | 25.2 | **5.0×** | – | – | 110 / 2050 | 117 KiB / 117 KiB | 252.0 |",
		"| Deployment | hand | 60 µs | 270 µs | 105.0 | 23.3 | **4.5×** | **5.5×** | **6.0×** | 110 / 2050 | 117 KiB / 117 KiB | – |",
		"| YAML reader vs go.yaml.in/yaml/v3's parse, same trees | ≥ 5× the throughput | 4.5× to 5.0× (the nine kinds and styles, CRDs included) | **missed** |", // a row without CPU time: by the wall clock
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(string(page), "| 5000 mixed") {
		t.Errorf("kmerge fn's runs are in the kmerge apply table:\n%s", page)
	}
}
