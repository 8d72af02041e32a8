package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestSecretsEveryCommand: the message of a patch that fails on a
// Secret's value, or that moves one out of data or stringData, shows it
// masked on every command's standard error and in every text meant for
// people: apply (plain, --debug, --diff, -o json), check, blame (text and
// -o json), patch and diff. Issue 25, item 4: the field patch
// stringData.p[0] printed `stringData.p is the string "HUNTER2J", not a
// list` (its quoted line masked, its message not); a JSON patch copying a
// value out printed it in --debug and in the validation error; a patch
// changing the Secret's apiVersion showed its values on the + side of
// --diff. The patched manifests on standard output keep the values (they
// are what apply and patch make), and are not looked at.
func TestSecretsEveryCommand(t *testing.T) {
	const value = "HUNTER2J"
	secretYAML := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: d\nstringData:\n  p: " + value + "\n"
	for _, c := range []struct {
		about   string
		patches map[string]string
		args    [][]string // the commands, each run with -f base -p patches but patch and diff
		stdout  bool       // standard output is for people too (check, blame, --diff)
		want    string     // what standard error or output holds, masked
	}{
		{
			about:   "the issue's field patch",
			patches: map[string]string{"p.kpatch": "[secret.d]\nstringData.p[0]: x\n"},
			args:    [][]string{{"apply"}, {"apply", "--debug"}, {"apply", "-o", "json"}, {"check"}, {"blame"}, {"blame", "-o", "json"}},
			want:    `v1 Secret d: stringData.p is the string "***", not a list`,
		},
		{
			about:   "a JSON patch copying the value out",
			patches: map[string]string{"p.yaml": "- target: secret.d\n  type: json\n  patch: [{op: copy, from: /stringData/p, path: /metadata/labels}]\n"},
			args:    [][]string{{"apply"}, {"apply", "--debug"}, {"check"}, {"blame"}},
			want:    `metadata.labels: expected map, found the string "***"`,
		},
		{
			about:   "a JSON patch copying the value out, shown",
			patches: map[string]string{"p.yaml": "- target: secret.d\n  type: json\n  patch: [{op: add, path: /metadata/annotations, value: {}}, {op: copy, from: /stringData/p, path: /metadata/annotations/x}]\n"},
			args:    [][]string{{"apply", "--debug", "--diff"}, {"blame"}, {"blame", "-o", "json"}},
			stdout:  true,
			want:    "***",
		},
		{
			about:   "a new apiVersion",
			patches: map[string]string{"p.yaml": "- target: secret.d\n  type: json\n  patch: [{op: replace, path: /apiVersion, value: v2}, {op: replace, path: /stringData/p, value: " + value + "-new}]\n"},
			args:    [][]string{{"apply", "--diff"}},
			stdout:  true,
			want:    "+  p: '*** (after)'",
		},
	} {
		t.Run(c.about, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"base/s.yaml": secretYAML}
			for name, text := range c.patches {
				files["patches/"+name] = text
			}
			writeFiles(t, dir, files)
			t.Chdir(dir)
			for _, args := range c.args {
				var stdout, stderr bytes.Buffer
				run(append(append([]string(nil), args...), "-f", "base", "-p", "patches"), strings.NewReader(""), &stdout, &stderr)
				shown := stderr.String()
				if c.stdout || args[0] == "check" || args[0] == "blame" {
					shown += stdout.String()
				}
				if strings.Contains(shown, value) {
					t.Errorf("kmerge %s shows the value:\n%s", strings.Join(args, " "), shown)
				}
				if !strings.Contains(shown, c.want) {
					t.Errorf("kmerge %s does not say %q:\n%s", strings.Join(args, " "), c.want, shown)
				}
			}
		})
	}
	// kmerge patch: the error of a patch on the Secret, and its
	// validation error
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"s.yaml": secretYAML})
	t.Chdir(dir)
	for patch, want := range map[string]string{
		`[{"op": "add", "path": "/stringData/p/0", "value": "x"}]`:                                                     "/stringData/p is a string",
		`[{"op": "copy", "from": "/stringData/p", "path": "/metadata/labels"}]`:                                        `found the string "***"`,
		`[{"op": "test", "path": "/stringData/p", "value": "` + value + `-guess"}]`:                                    `is "***", not "***"`,
		`[{"op": "move", "from": "/stringData/p", "path": "/metadata/name"}, {"op": "add", "path": "/x", "value": 1}]`: "v1 Secret ***",
	} {
		var stdout, stderr bytes.Buffer
		run([]string{"patch", "-f", "s.yaml", "--type", "json", "-p", patch}, strings.NewReader(""), &stdout, &stderr)
		if strings.Contains(stderr.String(), value) || !strings.Contains(stderr.String(), want) {
			t.Errorf("kmerge patch -p %s: standard error\n%s\nwant %q, and no value", patch, stderr.String(), want)
		}
	}
	// kmerge diff: a three-way conflict on a value the live object holds
	// outside stringData too
	writeFiles(t, dir, map[string]string{
		"o.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: d, labels: {x: a}}\nstringData: {p: one}\n",
		"m.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: d, labels: {x: b}}\nstringData: {p: one}\n",
		"l.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: d, labels: {x: " + value + "}}\nstringData: {p: " + value + "}\n",
	})
	var stdout, stderr bytes.Buffer
	run([]string{"diff", "o.yaml", "m.yaml", "--current", "l.yaml"}, strings.NewReader(""), &stdout, &stderr)
	if strings.Contains(stderr.String(), value) || !strings.Contains(stderr.String(), "changed: \"***\"") {
		t.Errorf("kmerge diff --current: standard error\n%s\nwant the live value masked", stderr.String())
	}
}
