// Package hostile generates the hostile corpus: inputs a hostile or unlucky
// user could give kmerge that once made it work without bound (minutes,
// gigabytes), each with the command that runs it and the outcome expected
// now. The large inputs are generated here, so the repository stays small;
// the small ones are literal text in this file. The corpus is run by
// cmd/kmerge's TestHostileCorpus and BenchmarkHostileCorpus, each case in a
// subprocess of the built binary whose time and peak memory are measured
// against the goal of docs/reliability.md (under 2 s and 200 MB).
//
// go run ./internal/hostile/write DIR writes the corpus to DIR, one folder
// per case with its command line in cmd.txt, to run it by hand.
package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Case is one hostile input and the command that runs it.
type Case struct {
	Name  string                   // a short name, also the case's folder
	Why   string                   // what it attacks, and what kmerge did before it was bounded
	Files func() map[string]string // makes the input files, by path relative to the case's folder
	// Links are symbolic links to make (path: target, as the link holds
	// it), Pipes named pipes (FIFOs): what a repository can hold, or a
	// machine have, that is not a regular file.
	Links map[string]string
	Pipes []string
	Args  []string // the kmerge command line, run in the case's folder
	// Code is the exit code expected, Stderr a text standard error must
	// hold ("" for any), Stdout one standard output must hold ("" for any;
	// a failure prints nothing there but for check's conflicts).
	Code           int
	Stderr, Stdout string
}

// Write writes the case's files under dir.
func (c Case) Write(dir string) error {
	files := c.Files()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			return err
		}
	}
	links := make([]string, 0, len(c.Links))
	for name := range c.Links {
		links = append(links, name)
	}
	sort.Strings(links)
	for _, name := range links {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.Symlink(c.Links[name], p); err != nil {
			return err
		}
	}
	for _, name := range c.Pipes {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := mkfifo(p); err != nil {
			return err
		}
	}
	return nil
}

const configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"

// word returns n bytes of text: a plain scalar that needs no quotes.
func word(n int) string {
	return strings.Repeat("x", n)
}

// lines returns n lines made by line(i), i from 0.
func lines(n int, line func(b *strings.Builder, i int)) string {
	var b strings.Builder
	for i := range n {
		line(&b, i)
	}
	return b.String()
}

// Cases returns the corpus, in a fixed order.
func Cases() []Case {
	// (a) a 95 KB anchored scalar, and a flow list of 10,000 aliases to it:
	// 950 MB of text once expanded, from 135 KB
	aliasList := func() string {
		return configMap + "data:\n  big: &a " + word(95_000) + "\nlist: [" +
			strings.TrimSuffix(strings.Repeat("*a, ", 10_000), ", ") + "]\n"
	}
	aliasKeys := func() string {
		return configMap + "data:\n  big: &a " + word(95_000) + "\n" +
			lines(4_000, func(b *strings.Builder, i int) { fmt.Fprintf(b, "  k%d: *a\n", i) })
	}
	// (b) a 1 MB value used 2,000 times
	values := func() string { return "big: " + word(1<<20) + "\n" }
	varsPatch := func() string {
		return "[configmap.cm]\n" + lines(2_000, func(b *strings.Builder, i int) { fmt.Fprintf(b, "data.k%d: ${values.big}\n", i) })
	}
	// (c) 2,000 sections setting one field
	oneField := func() string { return lines(2_000, oneFieldLine) }
	// (d) a merge patch adding many keys to one map
	manyKeysJSON := func(n int) string {
		return `{"data":{` + strings.TrimSuffix(lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, `"k%d":"v",`, i) }), ",") + "}}\n"
	}
	// (f) 100,001 documents, one over the limit
	manyDocs := func() string {
		return lines(100_001, func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\n", i)
		})
	}
	// (g) 20,000 sections on one object, each setting its own field
	manySections := func() string {
		return lines(20_000, func(b *strings.Builder, i int) { fmt.Fprintf(b, "[configmap.cm]\ndata.k%d: v\n\n", i) })
	}

	return append([]Case{
		{
			Name:   "alias-list-patch",
			Why:    "a 95 KB anchored scalar and a flow list of 10,000 aliases to it (950 MB expanded): was killed at 60 s, 3.3 GB",
			Files:  func() map[string]string { return map[string]string{"cm.yaml": aliasList()} },
			Args:   []string{"patch", "-f", "cm.yaml", "-p", `{"data":{"x":"y"}}`},
			Code:   1,
			Stderr: "--limit expanded=",
		},
		{
			Name: "alias-list-apply",
			Why:  "the same manifest through apply",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": aliasList(), "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Code:   1,
			Stderr: "--limit expanded=",
		},
		{
			Name: "alias-keys",
			Why:  "4,000 keys whose value is an alias to a 95 KB scalar (380 MB expanded): was exit 0 after 55 s, 4.4 GB",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": aliasKeys(), "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Code:   1,
			Stderr: "--limit expanded=",
		},
		{
			Name: "vars-big",
			Why:  "a 26 KB .kpatch using a 1 MB ${values.big} 2,000 times (2 GB of text): was killed at 60 s, 5.8 GB",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "values.yaml": values(), "p.kpatch": varsPatch()}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch", "--values", "values.yaml"},
			Code:   1,
			Stderr: "--limit expanded=",
		},
		{
			Name:   "one-field-check",
			Why:    "2,000 sections setting one field of one ConfigMap: check gave 1,999,000 conflicts in 17.6 s, 1.4 GB",
			Files:  func() map[string]string { return map[string]string{"base/cm.yaml": configMap, "p.kpatch": oneField()} },
			Args:   []string{"check", "-f", "base", "-p", "p.kpatch"},
			Code:   1,
			Stdout: "conflict: v1 ConfigMap cm: p.kpatch:2:1 (field patch) sets data.a to v0, p.kpatch:5:1 (field patch) sets data.a to v1, ",
			Stderr: "kmerge: 1 conflict between patches",
		},
		{
			Name: "one-field-20k-check",
			Why:  "20,000 sections setting one field of one ConfigMap: one conflict, which listed its 20,000 sides on one line of 1 MB",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": lines(20_000, oneFieldLine)}
			},
			Args: []string{"check", "-f", "base", "-p", "p.kpatch"},
			Code: 1,
			// one line: the first ten sides, the number of the others, the
			// last (section i sets v<i> on line 3i+2)
			Stdout: "conflict: v1 ConfigMap cm: " + lines(10, func(b *strings.Builder, i int) {
				fmt.Fprintf(b, "p.kpatch:%d:1 (field patch) sets data.a to v%d, ", 3*i+2, i)
			}) + "19989 more sides, and p.kpatch:59999:1 (field patch) sets data.a to v19999\n",
			Stderr: "kmerge: 1 conflict between patches",
		},
		{
			Name:  "one-field-apply",
			Why:   "the same patches through apply: 34.6 s, 1.6 GB",
			Files: func() map[string]string { return map[string]string{"base/cm.yaml": configMap, "p.kpatch": oneField()} },
			Args:  []string{"apply", "-f", "base", "-p", "p.kpatch"},
		},
		{
			Name:   "one-field-blame",
			Why:    "the same patches through blame: each change overriding the last kept the list of all it overrode, 2,000 sections 2.7 s and 363 MB (n²/2 records)",
			Files:  func() map[string]string { return map[string]string{"base/cm.yaml": configMap, "p.kpatch": oneField()} },
			Args:   []string{"blame", "-f", "base", "-p", "p.kpatch"},
			Stdout: "p.kpatch:5999 (over :2, :5, :8, 1996 more) |   a: v1999",
		},
		{
			Name: "merge-40k-keys",
			Why:  "a merge patch adding 40,000 keys to one map: 20,000 took 4.3 s and 60,000 over 60 s (quadratic in the keys)",
			Files: func() map[string]string {
				return map[string]string{"cm.yaml": configMap, "p.json": manyKeysJSON(40_000)}
			},
			Args: []string{"patch", "-f", "cm.yaml", "--type", "merge", "--patch-file", "p.json"},
		},
		{
			Name: "jsonpatch-copies",
			Why:  "31 JSON patch copy operations doubling a value: exit 1 after 506 MB",
			Files: func() map[string]string {
				return map[string]string{"cm.yaml": configMap + "data:\n  a: x\n", "p.json": copyDoubling(31)}
			},
			Args:   []string{"patch", "-f", "cm.yaml", "--type", "json", "--patch-file", "p.json"},
			Code:   1,
			Stderr: "copy",
		},
		{
			Name: "documents-100001",
			Why:  "100,001 documents, one over the limit: refused in 1.9 s after 534 MB",
			Files: func() map[string]string {
				return map[string]string{"base/cms.yaml": manyDocs(), "p.kpatch": "[configmap.c0]\ndata.x: y\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Code:   1,
			Stderr: "--limit documents=",
		},
		{
			Name: "sections-20k",
			Why:  "20,000 sections on one object, each setting its own field: apply took 21.7 s (quadratic in the sections)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": manySections()}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.kpatch"},
		},
	}, append(append(found(), growing()...), serverSide()...)...)
}

// oneFieldLine writes section i of many setting one field of one
// ConfigMap: data.a to v<i>, on line 3i+2.
func oneFieldLine(b *strings.Builder, i int) { fmt.Fprintf(b, "[configmap.cm]\ndata.a: v%d\n\n", i) }

// deployment returns a Deployment named d whose pod has n containers,
// c0 to c(n-1).
func deployment(n int) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n" +
		lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, "      - name: c%d\n        image: i\n", i) })
}

// podOf returns a Pod of n containers, c0 to c(n-1).
func podOf(n int) string {
	return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n" +
		lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, "  - name: c%d\n    image: i\n", i) })
}

// strategicEach returns a YAML patch list of n strategic patches on the
// Pod p, the i-th giving the containers list the one item item writes.
func strategicEach(n int, item func(b *strings.Builder, i int)) string {
	return lines(n, func(b *strings.Builder, i int) {
		b.WriteString("- target: pod.p\n  type: strategic\n  patch: {spec: {containers: [")
		item(b, i)
		b.WriteString("]}}\n")
	})
}

// found returns the cases found beyond the table: the same
// attacks on other paths. Their sizes keep each within the budget now
// while an algorithm quadratic in them would still take many seconds.
func found() []Case {
	const n = 20_000
	cms := func(k int, labels string) string {
		return lines(k, func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\n%s", i, labels)
		})
	}
	const m = 10_000
	const pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: main\n    image: i\n"
	return []Case{
		{
			Name: "sections-10k-items",
			Why:  "10,000 sections each on its own container of a Deployment of 10,000, picked by a selector: 4.5 s (18.6 s CPU for 20,000: each selector scanned the list)",
			Files: func() map[string]string {
				return map[string]string{"base/d.yaml": deployment(10_000), "p.kpatch": lines(10_000, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, "[deployment.d.containers[name=c%d]]\nimage: j\n\n", i)
				})}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.kpatch"},
		},
		{
			Name: "sections-10k-items-blame",
			Why:  "the same patches through blame: 3.9 s of processor time (apply: 0.66 s), each line looked its item up by scanning the list",
			Files: func() map[string]string {
				return map[string]string{"base/d.yaml": deployment(10_000), "p.kpatch": lines(10_000, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, "[deployment.d.containers[name=c%d]]\nimage: j\n\n", i)
				})}
			},
			Args:   []string{"blame", "-f", "base", "-p", "p.kpatch"},
			Stdout: "               |       - name: c9999\np.kpatch:29999 |         image: j\n",
		},
		{
			Name: "strategic-12k-items-blame",
			Why:  "blame of a strategic patch setting the image of each of 12,000 containers: 6.2 s of processor time (each origin looked its item up by scanning the list, in the object before and in the output)",
			Files: func() map[string]string {
				const k = 12_000
				return map[string]string{"base/d.yaml": deployment(k), "p.yaml": "- target: deployment.d\n  type: strategic\n  patch:\n    spec:\n      template:\n        spec:\n          containers:\n" +
					lines(k, func(b *strings.Builder, i int) { fmt.Fprintf(b, "          - name: c%d\n            image: j\n", i) })}
			},
			Args:   []string{"blame", "-f", "base", "-p", "p.yaml"},
			Stdout: "             |       - name: c11999\np.yaml:24007 |         image: j\n",
		},
		{
			Name: "deletes-20k",
			Why:  "20,000 sections each deleting its own key of a ConfigMap of 20,000: 1.6 s CPU (each deletion scanned the mapping)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap + "data:\n" + lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, "  k%d: v\n", i) }), "p.kpatch": lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, "[configmap.cm]\ndata.k%d: !delete\n\n", i) })}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.kpatch"},
		},
		{
			Name: "strategic-10k-items",
			Why:  "a strategic patch naming each of 10,000 containers by its merge key, with $setElementOrder reversing them",
			Files: func() map[string]string {
				const m = 10_000
				return map[string]string{"d.yaml": deployment(m), "p.yaml": "spec:\n  template:\n    spec:\n      $setElementOrder/containers:\n" + lines(m, func(b *strings.Builder, i int) { fmt.Fprintf(b, "      - name: c%d\n", m-1-i) }) + "      containers:\n" + lines(m, func(b *strings.Builder, i int) { fmt.Fprintf(b, "      - name: c%d\n        image: j\n", m-1-i) })}
			},
			Args: []string{"patch", "-f", "d.yaml", "--patch-file", "p.yaml"},
		},
		{
			Name: "strategic-adds-6k",
			Why:  "6,000 strategic patches each adding a container to a Pod of 6,000: each merged the list in passes over all of it (indexed by merge key, its order normalized), 4,000 took 16 s of processor time, 10,000 over a minute",
			Files: func() map[string]string {
				const k = 6_000
				return map[string]string{"base/pod.yaml": podOf(k), "p.yaml": strategicEach(k, func(b *strings.Builder, i int) { fmt.Fprintf(b, "{name: n%d, image: j}", i) })}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.yaml"},
			// new items go first (upstream's order): the last patch's first
			Stdout: "  containers:\n  - {name: n5999, image: j}\n",
		},
		{
			Name: "strategic-sets-10k-check",
			Why:  "10,000 strategic patches each setting the image of the first container of a Pod of 10,000: 4,000 took 7 s of processor time, 10,000 killed after 70 s",
			Files: func() map[string]string {
				return map[string]string{"base/pod.yaml": podOf(m), "p.yaml": strategicEach(m, func(b *strings.Builder, i int) { fmt.Fprintf(b, "{name: c0, image: j%d}", i) })}
			},
			Args:   []string{"check", "-f", "base", "-p", "p.yaml"},
			Code:   1,
			Stdout: "sets spec.containers[name=c0].image to j9999",
			Stderr: "kmerge: 1 conflict between patches",
		},
		{
			Name: "strategic-deletes-10k",
			Why:  "10,000 strategic patches each deleting its own container ($patch: delete) of a Pod of 10,000: 4,000 took 5 s of processor time",
			Files: func() map[string]string {
				return map[string]string{"base/pod.yaml": podOf(m), "p.yaml": strategicEach(m, func(b *strings.Builder, i int) { fmt.Fprintf(b, "{name: c%d, $patch: delete}", i) })}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.yaml"},
			Stdout: "spec:\n  containers: []\n",
		},
		{
			Name: "strategic-delete-primitives",
			Why:  "$deleteFromPrimitiveList of 20,000 finalizers from a list of 20,000",
			Files: func() map[string]string {
				return map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  finalizers:\n" + lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, "  - f%d\n", i) }), "p.yaml": "metadata:\n  $deleteFromPrimitiveList/finalizers:\n" + lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, "  - f%d\n", i) })}
			},
			Args: []string{"patch", "-f", "cm.yaml", "--patch-file", "p.yaml"},
		},
		{
			Name: "values-100k",
			Why:  "a values file of 100,000 keys, 20,000 of them used: killed at 60 s (merging and looking values up scanned the mapping)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "values.yaml": lines(100_000, func(b *strings.Builder, i int) { fmt.Fprintf(b, "k%d: v\n", i) }), "p.kpatch": "[configmap.cm]\n" + lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, "data.k%d: ${values.k%d}\n", i, 5*i) })}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.kpatch", "--values", "values.yaml"},
		},
		{
			Name: "deep-key",
			Why:  "a .kpatch key 100,000 fields deep (a 200 KB line) on a kind without a schema: was killed after 830 s, 24 GB (each step copied the path so far)",
			Files: func() map[string]string {
				return map[string]string{"base/w.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n", "p.kpatch": "[widget.w]\nspec" + strings.Repeat(".a", 100_000) + ": x\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Code:   1,
			Stderr: "--limit depth=",
		},
		{
			Name: "nesting-20k",
			Why: "a value nested 19,990 flow sequences deep (40 KB), under --limit depth=20000: the reader followed 1,000 levels, " +
				"then yaml.v3 stopped at 10,000 with \"exceeded max depth of 10000\", no position, whatever the limit",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap + "x: " + strings.Repeat("[", 19_990) + strings.Repeat("]", 19_990) + "\n", "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.kpatch", "--limit", "depth=20000"},
		},
		{
			Name: "nesting-100001",
			Why:  "block sequences nested 100,001 deep on one line: deeper than kmerge reads at all, refused at the line and column",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap + "x:\n" + strings.Repeat("- ", 100_001) + "y\n", "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch", "--limit", "depth=8Ei"},
			Code:   1,
			Stderr: "nesting deeper than 100000 levels, the most kmerge reads",
		},
		{
			Name: "patch-30k-documents",
			Why: "kmerge patch of every document of a stream of 30,000 ConfigMaps (1.5 MB): patched whole, every document's tree, " +
				"its snapshot and its rendering were held at once (99,000: 7 MB in, 1.2 GB); now part by part, as apply reads a long stream",
			Files: func() map[string]string {
				return map[string]string{"cms.yaml": cms(30_000, "  labels: {a: b}\n")}
			},
			Args:   []string{"patch", "-f", "cms.yaml", "--type", "merge", "-p", `{"metadata":{"labels":{"team":"shop"}}}`},
			Stdout: "  name: c29999\n  labels: {a: b, team: shop}\n",
		},
		{
			Name: "blame-99k-documents",
			Why: "kmerge blame on a stream of 99,000 ConfigMaps (5.2 MB), one of them patched: it read the output and the input " +
				"again whole, 500 MB (the issue measured 0.94 GB); now only the documents it shows",
			Files: func() map[string]string {
				return map[string]string{"base/cms.yaml": cms(99_000, ""), "p.kpatch": "[configmap.c5]\ndata.k: w\n"}
			},
			Args:   []string{"blame", "-f", "base", "-p", "p.kpatch"},
			Stdout: "p.kpatch:2 |   k: w\n",
		},
		{
			Name: "diff-20k-deletions",
			Why: "apply --diff on 20,000 ConfigMaps, every other one deleted: the line diff searched for a shortest script through " +
				"70,000 changed lines, 13 s (attack of 2026-11-28); now between the lines found once on each side",
			Files: func() map[string]string {
				return map[string]string{"base/cms.yaml": lines(20_000, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %c%d\ndata:\n  k: v%d\n", "ab"[i%2], i, i)
				}), "p.kpatch": "[configmap.a*]\n!delete\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch", "--diff"},
			Stdout: "-  name: a19998\n",
		},
		{
			Name: "long-value",
			Why:  "a manifest with a 10 MB value, patched beside it",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap + "data:\n  big: " + word(5<<20) + "\n", "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.kpatch"},
		},
		{
			Name: "jsonpatch-20k-ops",
			Why:  "a JSON patch of 20,000 operations each inserting at the head of a list",
			Files: func() map[string]string {
				return map[string]string{"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  finalizers: []\n", "p.json": "[" + strings.TrimSuffix(lines(n, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, `{"op":"add","path":"/metadata/finalizers/0","value":"f%d"},`, i)
				}), ",") + "]\n"}
			},
			Args: []string{"patch", "-f", "cm.yaml", "--type", "json", "--patch-file", "p.json"},
		},
		{
			Name: "diff-10k-items",
			Why:  "kmerge diff of two Deployments of 10,000 containers, every image changed",
			Files: func() map[string]string {
				return map[string]string{"a.yaml": deployment(10_000), "b.yaml": strings.ReplaceAll(deployment(10_000), "image: i", "image: j")}
			},
			Args: []string{"diff", "a.yaml", "b.yaml"},
		},
		{
			Name: "front-inserts-10k",
			Why:  "10,000 sections each inserting a container at the front of one Pod's list ([pod.p.containers[-0]]): 1,000 took 2.7 s and wrote 72 MB of conflicts (each insertion against every section's need of index 0: n conflicts of n sides), 4,000 30 s and 3.8 GB, 20,000 were killed; now one conflict of n sides",
			Files: func() map[string]string {
				return map[string]string{"base/pod.yaml": pod, "p.kpatch": lines(m, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, "[pod.p.containers[-0]]\nname: c%d\nimage: i\n\n", i)
				})}
			},
			Args: []string{"check", "-f", "base", "-p", "p.kpatch"},
			Code: 1,
			// one line: the first ten sides, the number of the others, the last
			Stdout: `(field patch) inserts spec.containers[name=c9] to {"name":"c9","image":"i"}, 9989 more sides, and p.kpatch:39997:1 (field patch) inserts spec.containers[name=c9999] to {"name":"c9999","image":"i"}` + "\n",
			Stderr: "kmerge: 1 conflict between patches",
		},
		{
			Name: "appends-10k",
			Why:  "10,000 sections each appending a container to one Pod's list ([pod.p.containers[-]]): no conflict, but 4,000 took 9.7 s and 680 MB (each insertion compared with every other)",
			Files: func() map[string]string {
				return map[string]string{"base/pod.yaml": pod, "p.kpatch": lines(m, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, "[pod.p.containers[-]]\nname: c%d\nimage: i\n\n", i)
				})}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.kpatch"},
		},
		{
			Name: "one-field-20k-blame",
			Why:  "blame of 20,000 sections setting one field of one ConfigMap: each change copied the list of all that the last one overrode and ranked it among all the changes (10,000: 36 s of processor time)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": lines(n, oneFieldLine)}
			},
			Args:   []string{"blame", "-f", "base", "-p", "p.kpatch"},
			Stdout: "p.kpatch:59999 (over :2, :5, :8, 19996 more) |   a: v19999\n",
		},
		{
			Name: "one-item-spellings-blame",
			Why:  "blame of 10,000 sections setting the image of one container, picked by [name=main,image=i] and by [name=main] in turn: each change filtered, change by change, the list of all the last one overrode (4,000 sections: 4.2 s of processor time)",
			Files: func() map[string]string {
				return map[string]string{"base/pod.yaml": pod, "p.kpatch": lines(m/2, func(b *strings.Builder, i int) {
					b.WriteString("[pod.p]\ncontainers[name=main,image=i].image: i\n\n[pod.p]\ncontainers[name=main].image: i\n\n")
				})}
			},
			Args: []string{"blame", "-f", "base", "-p", "p.kpatch"},
			// the last section's line (6 lines a pair), over every other
			Stdout: "p.kpatch:29999 (over :2, :5, :8, 9996 more) |     image: i\n",
		},
		{
			Name: "label-selector-20k",
			Why:  "a patch list target whose label selector has 20,000 requirements, on 5,000 objects: each object checked every requirement",
			Files: func() map[string]string {
				return map[string]string{"base/cms.yaml": cms(5_000, "  labels: {a: b}\n"), "p.yaml": "- target: {kind: ConfigMap, labelSelector: \"" + strings.TrimSuffix(lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, "k%d!=v,", i) }), ",") + "\"}\n  patch: {data.x: y}\n"}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.yaml"},
		},
		{
			Name: "wildcards-300x300",
			Why: "300 [configmap.*] sections, each adding a key, on 300 ConfigMaps: 90,000 applications from 33 KB, a 3.7 MB output; " +
				"the work is the output's (1,000 x 1,000 from 124 KB: 13 MB out, 6.7 s and 1.1 GB; with the memory budget kept " +
				"as the live heap passed it, 24 s of collections back to back)",
			Files: func() map[string]string {
				return map[string]string{"base/cms.yaml": cms(300, ""), "p.kpatch": lines(300, func(b *strings.Builder, i int) { fmt.Fprintf(b, "[configmap.*]\ndata.k%d: v%d\n\n", i, i) })}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Stdout: "  name: c299\ndata:\n  k0: v0\n",
		},
		{
			Name: "dev-zero-manifest",
			Why:  "a link to /dev/zero among the manifests (a device's size is 0, so the size check let it through): was read up to the byte limit, 5 s and 600 MB",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Links:  map[string]string{"base/zero.yaml": "/dev/zero"},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Code:   1,
			Stderr: "base/zero.yaml: a character device (the link leads to /dev/zero), not a regular file",
		},
		{
			Name: "dev-zero-values",
			Why:  "--values a link to /dev/zero: was read up to the byte limit",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Links:  map[string]string{"values.yaml": "/dev/zero"},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch", "--values", "values.yaml"},
			Code:   1,
			Stderr: "values.yaml: a character device",
		},
		{
			Name: "dev-zero-schema",
			Why:  "--schema a link to /dev/zero: was read without any limit (out of memory after 3.7 s under a 3 GB address space)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Links:  map[string]string{"crd.yaml": "/dev/zero"},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch", "--schema", "crd.yaml"},
			Code:   1,
			Stderr: "crd.yaml: a character device",
		},
		{
			Name: "dev-zero-kustomization",
			Why:  "a kustomization's patch a link to /dev/zero, with --load-restrictor LoadRestrictionsNone (kustomize 5.8.2 reads it until memory runs out): refused as not a regular file",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "overlay/kustomization.yaml": "patches:\n- path: zero.yaml\n"}
			},
			Links:  map[string]string{"overlay/zero.yaml": "/dev/zero"},
			Args:   []string{"apply", "-f", "base", "-p", "overlay", "--load-restrictor", "LoadRestrictionsNone"},
			Code:   1,
			Stderr: "overlay/zero.yaml: a character device",
		},
		{
			Name: "proc-pagemap-manifest",
			Why:  "a link to /proc/self/pagemap among the manifests (a regular file whose size is 0, gigabytes long): was read up to the byte limit, 1.3 s and 550 MB (attack of 2026-11-28)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Links:  map[string]string{"base/pagemap.yaml": "/proc/self/pagemap"},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Code:   1,
			Stderr: "base/pagemap.yaml: holds more than the 0 bytes its size says",
		},
		{
			Name: "fifo-manifest",
			Why:  "a named pipe among the manifests: opening it waited for a writer forever",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Pipes:  []string{"base/pipe.yaml"},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Code:   1,
			Stderr: "base/pipe.yaml: a named pipe (FIFO), not a regular file",
		},
		{
			Name: "fifo-output-dir",
			Why:  "a link to a named pipe where --output-dir writes a file: it was opened to compare its content, and waited forever",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Pipes:  []string{"pipe"},
			Links:  map[string]string{"out/cm.yaml": "../pipe"},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch", "--output-dir", "out"},
			Code:   1,
			Stderr: "out/cm.yaml: a symbolic link (to ../pipe)",
		},
		{
			Name: "overlay-5k-unread",
			Why:  "an overlay's folder of 5,000 files its kustomization does not name, beside 10,000 values: 22 s of processor time (121 s on this shared machine; the corpus stopped it after 60 s) when each file was compared with each value to say that nothing reads it",
			Files: func() map[string]string {
				files := map[string]string{"base/cm.yaml": configMap,
					"overlay/kustomization.yaml": "resources: [../base]\npatches:\n- patch: |\n    apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: cm}\n    data: {x: v}\nimages:\n" +
						lines(5000, func(b *strings.Builder, i int) { fmt.Fprintf(b, "- {name: img%d, newTag: t%d}\n", i, i) })}
				for i := range 5000 {
					files[fmt.Sprintf("overlay/f%d.yaml", i)] = "a: b\n"
				}
				return files
			},
			Args:   []string{"apply", "-f", "base", "-p", "overlay"},
			Stderr: "overlay/f999.yaml:1:1: warning: nothing reads this file",
			Stdout: "data: {x: v}",
		},
	}
}

// copyDoubling returns a JSON patch of n copy operations, each copying the
// list /data/l into itself, doubling it.
func copyDoubling(n int) string {
	var b strings.Builder
	b.WriteString(`[{"op":"add","path":"/data/l","value":["` + word(100) + `"]}`)
	for range n {
		b.WriteString(`,{"op":"copy","from":"/data/l","path":"/data/l/-"}`)
	}
	b.WriteString("]\n")
	return b.String()
}

// growing returns the cases of work that grew with what it had built so
// far: a loop searching, for each new piece, every piece before it (the
// conflicts of a list's items, the documents before a comment, the keys
// of a patch being built, the items a list ordered by $setElementOrder
// has). Their sizes keep each within the budget now while the quadratic
// work would take minutes.
func growing() []Case {
	const k = 8_000
	// a ConfigMap whose data has n keys, each set to v
	dataOf := func(n int, v string) string {
		return configMap + "data:\n" + lines(n, func(b *strings.Builder, i int) { fmt.Fprintf(b, "  k%d: %s\n", i, v) })
	}
	const keys = 100_000
	return []Case{
		{
			Name: "two-field-selectors-8k-check",
			Why: "8,000 sections each setting the image of its own container of a Pod of 8,000, picked by [name=c<i>,image=i]: each was " +
				"taken to rename every item picked by a selector of the field it set, the others' among them (2,000: 15 s, 1.1 GB and " +
				"3,998,000 false conflicts; 8,000 killed at 60 s); an item named by other values of the other key fields is another item",
			Files: func() map[string]string {
				return map[string]string{"base/pod.yaml": podOf(k), "p.kpatch": lines(k, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, "[pod.p]\ncontainers[name=c%d,image=i].image: j\n\n", i)
				})}
			},
			Args:   []string{"check", "-f", "base", "-p", "p.kpatch"},
			Stdout: "no conflicts: 8000 patches, 1 object",
		},
		{
			Name: "comment-documents-patch",
			Why: "kmerge patch of 4,000 ConfigMaps, each text starting with a comment and a blank line, which yaml.v3 gives the " +
				"document before: each edited document was read back with every document before it (the issue's form, 2,000 " +
				"comment-only documents, took 3.6 s, 4,000 over 30 s; those are now left as they are: issue 25 item 5)",
			Files: func() map[string]string {
				return map[string]string{"c.yaml": lines(4_000, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, "---\n# c%d\n\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\n", i, i)
				})}
			},
			Args:   []string{"patch", "--type", "merge", "-f", "c.yaml", "-p", `{"data":{"x":"y"}}`},
			Stdout: "---\n# c3999\n\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c3999\ndata:\n  x: \"y\"\n",
		},
		{
			Name: "lending-documents-apply",
			Why: "4,000 ConfigMaps each patched, each text starting with a comment and a blank line, which yaml.v3 gives the " +
				"document before: each was read with every document before it (2,000: 107 s)",
			Files: func() map[string]string {
				return map[string]string{"base/cms.yaml": lines(4_000, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, "---\n# c%d\n\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\n", i, i)
				}), "p.kpatch": "[configmap.*]\ndata.x: y\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Stdout: "---\n# c3999\n\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c3999\ndata:\n  x: \"y\"\n",
		},
		{
			Name: "displaced-comments-apply",
			Why: "a value set in a ConfigMap of 40,000 entries each written \"k: #k\" then \"  v #v\", under an anchor (the " +
				"document is rendered whole: an edit under an anchor would change its aliases too): the writer keeps each key's comment, which another takes the place of, for the " +
				"document's end (yaml.v3 drops them, and so did the writer); joined as they came, 80,000 of them took 14 s " +
				"and 25 GB of allocations in the writer alone (attack, 2026-11-29)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata: &d\n" +
					lines(40_000, func(b *strings.Builder, i int) { fmt.Fprintf(b, "  k%d: #k%d\n    v%d #v%d\n", i, i, i, i) }),
					"p.kpatch": "[configmap.cm]\ndata.k0: w\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch"},
			Stdout: "\n#k0\n#k1\n",
		},
		{
			Name: "diff-100k-keys",
			Why: "kmerge diff of two ConfigMaps of 100,000 keys, every value changed: the patch looked each key up in the keys it " +
				"had so far (20,000: 0.95 s; 200,000 killed at 60 s)",
			Files: func() map[string]string {
				return map[string]string{"a.yaml": dataOf(keys, "v"), "b.yaml": dataOf(keys, "w")}
			},
			Args:   []string{"diff", "a.yaml", "b.yaml"},
			Stdout: "  k99999: w\n",
		},
		{
			Name: "diff-100k-keys-merge",
			Why:  "the same as a JSON merge patch: each key of one object was looked up in the other by a scan (20,000: 1.9 s)",
			Files: func() map[string]string {
				return map[string]string{"a.yaml": dataOf(keys, "v"), "b.yaml": dataOf(keys, "w")}
			},
			Args:   []string{"diff", "--type", "merge", "a.yaml", "b.yaml"},
			Stdout: "  k99999: w\n",
		},
		{
			Name: "diff-100k-deletions-current",
			Why: "the three-way patch deleting 100,000 keys of a map that the live object lacks too: the patch's keys were each " +
				"looked up in the live object's changes by a scan, to find the changes it would undo",
			Files: func() map[string]string {
				return map[string]string{"a.yaml": dataOf(keys, "v"), "b.yaml": dataOf(0, "") + "  other: x\n"}
			},
			Args:   []string{"diff", "a.yaml", "b.yaml", "--current", "b.yaml"},
			Stdout: "  k99999: null\n",
		},
		{
			Name: "diff-100k-deletions-current-merge",
			Why:  "the same as a JSON merge patch (CreateThreeWayJSONMergePatch)",
			Files: func() map[string]string {
				return map[string]string{"a.yaml": dataOf(keys, "v"), "b.yaml": dataOf(0, "") + "  other: x\n"}
			},
			Args:   []string{"diff", "--type", "merge", "a.yaml", "b.yaml", "--current", "b.yaml"},
			Stdout: "  k99999: null\n",
		},
		{
			Name: "finalizers-100k-duplicate",
			Why: "a strategic patch adding a finalizer to a list of 100,000 that holds one twice: upstream's removal of duplicates, " +
				"which kmerge reproduces where its effect shows, compared every two items (30,000: 2.7 s)",
			Files: func() map[string]string {
				return map[string]string{"cm.yaml": configMap + "  finalizers:\n" + lines(100_000, func(b *strings.Builder, i int) { fmt.Fprintf(b, "  - f%d\n", i) }) + "  - f0\n",
					"p.yaml": "metadata:\n  finalizers: [x]\n"}
			},
			Args:   []string{"patch", "-f", "cm.yaml", "--patch-file", "p.yaml"},
			Stdout: "  - f99999\n  - x\n",
		},
		{
			Name: "jsonpatch-40k-members",
			Why: "a JSON patch of 40,000 operations each adding a member to one object: each looked the object's members up by a scan, " +
				"after indexing them anew (20,000: 20 s)",
			Files: func() map[string]string {
				return map[string]string{"cm.yaml": configMap + "data: {}\n", "p.json": "[" + strings.TrimSuffix(lines(40_000, func(b *strings.Builder, i int) {
					fmt.Fprintf(b, `{"op":"add","path":"/data/k%d","value":"v"},`, i)
				}), ",") + "]\n"}
			},
			Args:   []string{"patch", "-f", "cm.yaml", "--type", "json", "--patch-file", "p.json"},
			Stdout: "  k39999: v\n",
		},
		{
			Name: "merge-patches-15k-keys",
			Why: "15,000 merge patches each setting its own key of one ConfigMap: each indexed the object's keys anew, and checked " +
				"them (10,000: 7.6 s)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap + "data: {}\n", "p.yaml": patchEach(15_000, "merge", "{data: {k%d: v}}")}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.yaml"},
			Stdout: "  k14999: v\n",
		},
		{
			Name: "strategic-patches-15k-keys",
			Why:  "the same as strategic patches (10,000: 7.5 s)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap + "data: {}\n", "p.yaml": patchEach(15_000, "strategic", "{data: {k%d: v}}")}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.yaml"},
			Stdout: "  k14999: v\n",
		},
		{
			Name: "json-patches-15k-keys",
			Why: "the same as JSON patches, each adding its key: each indexed the object anew, and copied its keys to undo a failure " +
				"(10,000: 15.8 s)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap + "data: {}\n", "p.yaml": patchEach(15_000, "json", "[{op: add, path: /data/k%d, value: v}]")}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.yaml"},
			Stdout: "  k14999: v\n",
		},
		{
			Name: "set-flags-60k",
			Why:  "60,000 --set flags (890 KB of arguments): each looked its keys up in the values set so far by a scan (20,000: 2.5 s, 60,000: 55 s)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap, "p.kpatch": "[configmap.cm]\ndata.x: ${values.k1}\n"}
			},
			Args:   append([]string{"apply", "-f", "base", "-p", "p.kpatch"}, setFlags(60_000)...),
			Stdout: "data:\n  x: v\n",
		},
		{
			Name: "set-element-order-6k",
			Why: "6,000 strategic patches each setting the image of its own container of a Pod of 6,000 and ordering it with " +
				"$setElementOrder: each merged and ordered the whole list in passes over it (1,000: 0.99 s, 2,000: 3.9 s, 8,000 killed at 60 s)",
			Files: func() map[string]string {
				return map[string]string{"base/pod.yaml": podOf(6_000), "p.yaml": strategicOrdered(6_000)}
			},
			Args: []string{"apply", "-f", "base", "-p", "p.yaml"},
			// spec order: each patch puts the container it names last
			Stdout: "  - name: c5999\n    image: j\n",
		},
		{
			Name: "set-element-order-6k-upstream",
			Why:  "the same patches in upstream's order, which leaves each container where it is",
			Files: func() map[string]string {
				return map[string]string{"base/pod.yaml": podOf(6_000), "p.yaml": strategicOrdered(6_000)}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.yaml", "--list-order", "upstream"},
			Stdout: "  - name: c5999\n    image: j\n",
		},
		{
			Name: "items-256-wide-mappings",
			Why: "a list of 256 mappings of 200 keys each, its first and last items changed: aligning the items for the byte-range " +
				"edits compared every two items' keys pair by pair in each of the table's 65,536 cells (33 s)",
			Files: func() map[string]string {
				return map[string]string{"cm.yaml": listOfMappings(256, 200, true)}
			},
			Args:   []string{"patch", "-f", "cm.yaml", "--validate", "none", "--type", "json", "-p", `[{"op":"replace","path":"/l/0/k0","value":"z"},{"op":"replace","path":"/l/255/k0","value":"z"}]`},
			Stdout: "- k0: z\n",
		},
		{
			Name: "items-256-identical-mappings",
			Why: "the same with 256 identical mappings of 400 keys: the table compared two identical items whole in each cell " +
				"(4.6 s; 1,000 keys: 10 s)",
			Files: func() map[string]string {
				return map[string]string{"cm.yaml": listOfMappings(256, 400, false)}
			},
			Args:   []string{"patch", "-f", "cm.yaml", "--validate", "none", "--type", "json", "-p", `[{"op":"replace","path":"/l/0/k0","value":"z"},{"op":"replace","path":"/l/255/k0","value":"z"}]`},
			Stdout: "- k0: z\n",
		},
	}
}

// listOfMappings returns a ConfigMap whose key l is a block list of n
// mappings of k keys each: k<j>: v<i>_<j> in item i when distinct, else
// k<j>: v<j> (the items identical).
func listOfMappings(n, k int, distinct bool) string {
	return configMap + "l:\n" + lines(n, func(b *strings.Builder, i int) {
		for j := range k {
			lead := "  "
			if j == 0 {
				lead = "- "
			}
			if distinct {
				fmt.Fprintf(b, "%sk%d: v%d_%d\n", lead, j, i, j)
			} else {
				fmt.Fprintf(b, "%sk%d: v%d\n", lead, j, j)
			}
		}
	})
}

// strategicOrdered returns a YAML patch list of n strategic patches on the
// Pod p, the i-th setting the image of container c<i> and naming it in
// $setElementOrder.
func strategicOrdered(n int) string {
	return lines(n, func(b *strings.Builder, i int) {
		fmt.Fprintf(b, "- target: pod.p\n  type: strategic\n  patch: {spec: {$setElementOrder/containers: [{name: c%d}], containers: [{name: c%d, image: j}]}}\n", i, i)
	})
}

// setFlags returns n --set flags, setting k0 to k<n-1> to v.
func setFlags(n int) []string {
	args := make([]string, 0, 2*n)
	for i := range n {
		args = append(args, "--set", fmt.Sprintf("k%d=v", i))
	}
	return args
}

// patchEach returns a YAML patch list of n patches of type typ on the
// ConfigMap cm, the i-th with body (a format of i).
func patchEach(n int, typ, body string) string {
	return lines(n, func(b *strings.Builder, i int) {
		fmt.Fprintf(b, "- target: configmap.cm\n  type: %s\n  patch: %s\n", typ, fmt.Sprintf(body, i))
	})
}

// serverSide returns the cases of kmerge apply --server-side's live files:
// what a live file may be that is not a file, and the sizes of
// managedFields whose cost grows with them (docs/ssa.md, Limits).
func serverSide() []Case {
	const managers = 2_000
	// a ConfigMap whose labels each an Update of its own manager set
	live := func() string {
		var b strings.Builder
		b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: d\n  managedFields:\n")
		b.WriteString(lines(managers, func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "  - apiVersion: v1\n    fieldsType: FieldsV1\n    fieldsV1:\n      f:metadata:\n        f:labels:\n          f:l%d: {}\n    manager: m%d\n    operation: Update\n    time: \"2025-01-01T00:00:00Z\"\n", i, i)
		}))
		b.WriteString("  labels:\n" + lines(managers, func(b *strings.Builder, i int) { fmt.Fprintf(b, "    l%d: v\n", i) }))
		return b.String() + "data: {k: v}\n"
	}
	manifest := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: d\n  labels: {l0: w}\n"
	return []Case{
		{
			Name: "live-dev-zero",
			Why:  "--live a link to /dev/zero: refused before it is opened, as every file kmerge reads",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": manifest, "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Links:  map[string]string{"live.yaml": "/dev/zero"},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch", "--server-side", "--field-manager", "me", "--live", "live.yaml"},
			Code:   1,
			Stderr: "live.yaml: a character device (the link leads to /dev/zero), not a regular file",
		},
		{
			Name: "ssa-2k-managers",
			Why:  "a live object with the managedFields of 2,000 managers, each owning a label: their entries read, compared with the apply and written back (3,000: 1.4 s, 145 MB under load)",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": manifest, "live/cm.yaml": live(), "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch", "--server-side", "--field-manager", "me", "--live", "live", "--force-conflicts"},
			Stdout: "    manager: m1999\n",
		},
		{
			Name: "ssa-10k-keys",
			Why:  "a ConfigMap of 10,000 keys created server-side: structured-merge-diff's field sets cost n² in a map's keys (100,000: 20 s, 600 MB), so the corpus holds what is within the budget",
			Files: func() map[string]string {
				return map[string]string{"base/cm.yaml": configMap + "  namespace: d\ndata:\n" + lines(10_000, func(b *strings.Builder, i int) { fmt.Fprintf(b, "  k%d: v\n", i) }), "p.kpatch": "[configmap.cm]\ndata.x: y\n"}
			},
			Args:   []string{"apply", "-f", "base", "-p", "p.kpatch", "--server-side", "--field-manager", "me"},
			Stdout: "        f:k9999: {}\n",
		},
	}
}
