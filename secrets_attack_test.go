package kmerge

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/internal/errpos"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// The secret values of attackSecret, in every form a message could show
// them in. The long ones are masked wherever they stand alone; the short
// one (two bytes, fewer than secret.MinAlone) where quoted, by its place,
// and, once a patch copies it out of stringData, wherever it stands alone
// too. zq is no word of any message: any "zq" shown is the value.
var (
	attackLong    = "HUNTER2J-long"
	attackDecoded = "s3cr3t-data-value" // data.q, decoded
	attackData    = base64.StdEncoding.EncodeToString([]byte(attackDecoded))
	attackShort   = "zq"
	attackLines   = []string{"MIIBdGhpcyBpcyBhIGtleQ", "ZW5kIG9mIHRoZSBrZXk"}
)

// attackSecret is a Secret with a value of each kind: long, base64 data,
// short, several lines.
var attackSecret = fmt.Sprintf(`apiVersion: v1
kind: Secret
metadata:
  name: db
type: Opaque
data:
  q: %s
stringData:
  p: %s
  s: %s
  cert: |
    -----BEGIN KEY-----
    MIIBdGhpcyBpcyBhIGtleQ
    ZW5kIG9mIHRoZSBrZXk
    -----END KEY-----
`, attackData, attackLong, attackShort)

// attackList holds the same Secret as the item of a List.
var attackList = "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(attackSecret, "\n"), "\n", "\n  ") + "\n"

// leaked returns the first secret value text shows, "" when none.
func leaked(text string) string {
	for _, v := range append([]string{attackLong, attackDecoded, attackData, attackShort, "NEW-SECRET", "wrong-guess",
		base64.StdEncoding.EncodeToString([]byte(attackLong))}, attackLines...) {
		if strings.Contains(text, v) {
			return v
		}
	}
	return ""
}

// attackOutputs runs Blame (Apply, then blame) on the manifests and the
// patch file, and returns every text it has for people, by output: the
// error, the warnings, the trace (--debug), the conflicts (kmerge
// check), the schema violations, the diff (--diff), the blamed lines
// and records (kmerge blame, text and -o json).
func attackOutputs(t *testing.T, manifests, patchFile, patches string, mode validate.Mode) map[string]string {
	t.Helper()
	vars := kpatch.NewVars()
	// ${values.pw}: a value a patch gives a Secret through a variable
	if err := vars.LoadValues([]byte("pw: NEW-SECRET-var\n"), "values.yaml"); err != nil {
		t.Fatal(err)
	}
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"base/m.yaml": manifests, "patches/" + patchFile: patches} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var trace bytes.Buffer
	res, err := Blame(context.Background(), ApplyOptions{Manifests: []string{filepath.Join(dir, "base")}, Patches: []string{filepath.Join(dir, "patches")},
		ApplyPatchesOptions: ApplyPatchesOptions{Trace: &trace, Validate: mode, Vars: vars}})
	out := map[string]string{"trace": trace.String()}
	if err != nil {
		// the error, and the line it points at, quoted as kmerge's
		// command line quotes it (masked when the error masks a value)
		out["error"] = err.Error()
		if pos, ok := tree.ErrorPosition(err); ok {
			if data, rerr := os.ReadFile(pos.File); rerr == nil {
				if secret.InError(err) {
					out["error"] += "\n" + errpos.QuoteMasked(data, pos)
				} else {
					out["error"] += "\n" + errpos.Quote(data, pos)
				}
			}
		}
		return out
	}
	var b strings.Builder
	for _, w := range res.Warnings {
		b.WriteString(w.String() + "\n")
	}
	out["warnings"] = b.String()
	b.Reset()
	for _, c := range res.Conflicts {
		b.WriteString(c.String() + "\n")
	}
	out["conflicts"] = b.String()
	b.Reset()
	for _, e := range res.Invalid {
		b.WriteString(e.Warning() + "\n")
	}
	out["invalid"] = b.String()
	out["diff"] = res.Diff()
	b.Reset()
	for _, d := range res.Documents {
		for _, o := range d.Objects {
			b.WriteString(o.ID() + "\n")
			for _, og := range o.Origins {
				js, _ := tree.MarshalJSON(og.Shown())
				fmt.Fprintf(&b, "%s %s %s %s\n", og.Path, og.Op, js, og.Change)
			}
		}
		for _, l := range d.Lines {
			b.WriteString(l.Text + "\n")
		}
	}
	out["blame"] = b.String()
	return out
}

// TestSecretsNeverShown attacks the masking (docs/reliability.md,
// "Secrets") with every way kmerge knows of for a Secret's value to reach
// a message: each patch type failing on a value or moving one, validation
// of what patches wrote, conflicts, the trace, the diff and blame. No
// output may show any form of any value (leaked), nor a value a patch
// gives the Secret's data or stringData (NEW-SECRET-n) or tests there
// (wrong-guess-n). Each case names the outputs that must speak of it, and
// those (*) that must show a value masked where it was: the case reaches
// the value, it is not vacuous; a message that speaks of a value without
// showing it (a type, a member) is guarded all the same against a
// message that would. The patched manifests themselves keep the values,
// and are not looked at. Validation warns (validate.Warn), so that the
// diff and blame are reached too.
func TestSecretsNeverShown(t *testing.T) {
	type attack struct {
		about     string
		manifests string // attackSecret when ""
		file      string // the patch file's name: p.yaml when ""
		patches   string
		// outputs that must speak of the case, and, of them, those that
		// show a value masked ("*X": both)
		shows []string
	}
	json := func(ops string) string { return "- target: secret.db\n  type: json\n  patch: [" + ops + "]\n" }
	annotations := "{op: add, path: /metadata/annotations, value: {}}, "
	cases := []attack{
		// field patches (.kpatch)
		{about: "the issue: a selector in a string", file: "p.kpatch", patches: "[secret.db]\nstringData.p[0]: x\n", shows: []string{"*error"}},
		{about: "a selector in a short string", file: "p.kpatch", patches: "[secret.db]\nstringData.s[0]: x\n", shows: []string{"*error"}},
		{about: "a selector in base64 data", file: "p.kpatch", patches: "[secret.db]\ndata.q[name=x]: y\n", shows: []string{"*error"}},
		{about: "a selector in lines", file: "p.kpatch", patches: "[secret.db]\nstringData.cert[0]: y\n", shows: []string{"*error"}},
		{about: "a field below a string", file: "p.kpatch", patches: "[secret.db]\nstringData.p.x: y\n", shows: []string{"error"}},
		{about: "setting values: the trace", file: "p.kpatch", patches: "[secret.db]\nstringData.p: NEW-SECRET-1\ndata.q: TkVXLVNFQ1JFVC0y\n", shows: []string{"*trace", "*diff", "*blame"}},
		// the manifests' lines ended by lone CRs (an old Mac's file), or
		// NELs or LSs (YAML 1.1's): blame cut its lines at LF alone, the
		// file one line, shown in clear
		{about: "setting values in a file of CRs: blame", manifests: strings.ReplaceAll(attackSecret, "\n", "\r"), file: "p.kpatch", patches: "[secret.db]\nstringData.p: NEW-SECRET-1\ndata.q: TkVXLVNFQ1JFVC0y\n", shows: []string{"*trace", "*diff", "*blame"}},
		{about: "setting values in a file of NELs: blame", manifests: strings.ReplaceAll(attackSecret, "\n", "\u0085"), file: "p.kpatch", patches: "[secret.db]\nstringData.p: NEW-SECRET-1\ndata.q: TkVXLVNFQ1JFVC0y\n", shows: []string{"*trace", "*diff", "*blame"}},
		{about: "setting values in a file of LSs: blame", manifests: strings.ReplaceAll(attackSecret, "\n", "\u2028"), file: "p.kpatch", patches: "[secret.db]\nstringData.p: NEW-SECRET-1\ndata.q: TkVXLVNFQ1JFVC0y\n", shows: []string{"*trace", "*diff", "*blame"}},
		{about: "setting values in a file of CRLFs: blame", manifests: strings.ReplaceAll(attackSecret, "\n", "\r\n"), file: "p.kpatch", patches: "[secret.db]\nstringData.p: NEW-SECRET-1\ndata.q: TkVXLVNFQ1JFVC0y\n", shows: []string{"*trace", "*diff", "*blame"}},
		// a kustomization's inline patch of the Secret, an entry refused:
		// NELs before it (one line to a cut at LF and CR, three to the
		// YAML reader) made the entry's lines taken for later ones, without
		// "secret", and its line was quoted in clear
		{about: "a kustomization's inline patch refused, after NELs", file: "kustomization.yaml", patches: "resources:\u0085- a.yaml\u0085- b.yaml\npatches:\n- {patch: \"apiVersion: v1\\nkind: Secret\\nmetadata: {name: db}\\nstringData: {p: NEW-SECRET-1}\", targt: {kind: Secret}}\n- path: p.yaml\n- path: p.yaml\n- path: p.yaml\n", shows: []string{"error"}},
		{about: "two field patches on one value: a conflict", file: "p.kpatch", patches: "[secret.db]\nstringData.p: NEW-SECRET-1\n\n[secret.db]\nstringData.p: NEW-SECRET-2\n", shows: []string{"*conflicts"}},
		{about: "a field patch on a Secret of a List", manifests: attackList, file: "p.kpatch", patches: "[secret.db]\nstringData.p[0]: x\n", shows: []string{"*error"}},
		{about: "a field patch's data that is no base64, validated", file: "p.kpatch", patches: "[secret.db]\ndata.q: NEW-SECRET-1!\n", shows: []string{"*invalid", "*trace"}},
		// strategic merge patches
		{about: "strategic: a list where a string belongs", patches: "- target: secret.db\n  type: strategic\n  patch:\n    stringData:\n      p: [NEW-SECRET-1]\n", shows: []string{"invalid", "*trace"}},
		{about: "strategic: a string where data's object belongs", patches: "- target: secret.db\n  type: strategic\n  patch:\n    data: NEW-SECRET-1\n", shows: []string{"*invalid", "*trace"}},
		{about: "strategic: a re-kind into a ConfigMap", patches: "- target: secret.db\n  type: strategic\n  options: {allowKindChange: true}\n  patch:\n    kind: ConfigMap\n    stringData: {p: NEW-SECRET-1}\n", shows: []string{"*trace", "invalid", "*diff", "*blame"}},
		{about: "strategic and merge on one value: a conflict", patches: "- target: secret.db\n  type: strategic\n  patch: {stringData: {p: NEW-SECRET-1}}\n- target: secret.db\n  type: merge\n  patch: {stringData: {p: NEW-SECRET-2}}\n", shows: []string{"*conflicts", "*trace"}},
		{about: "strategic: $patch: replace of stringData", patches: "- target: secret.db\n  type: strategic\n  patch:\n    stringData:\n      $patch: replace\n      x: NEW-SECRET-1\n", shows: []string{"*trace", "*diff"}},
		// merge patches
		{about: "merge: an object where a string belongs", patches: "- target: secret.db\n  type: merge\n  patch: {stringData: {p: {a: NEW-SECRET-1}}}\n", shows: []string{"invalid", "*trace"}},
		{about: "merge: base64 that is not", patches: "- target: secret.db\n  type: merge\n  patch: {data: {q: \"not base64 NEW-SECRET-1\"}}\n", shows: []string{"*invalid"}},
		{about: "merge: a number where a string belongs", patches: "- target: secret.db\n  type: merge\n  patch: {stringData: {p: 98765432101}}\n", shows: []string{"*trace"}},
		{about: "merge: null for a value", patches: "- target: secret.db\n  type: merge\n  patch: {stringData: {p: null}}\n", shows: []string{"*trace", "*diff"}},
		// JSON patches
		{about: "json: a failed test of a value", patches: json("{op: test, path: /stringData/p, value: wrong-guess-1}"), shows: []string{"*error"}},
		{about: "json: a failed test of a map", patches: json("{op: test, path: /stringData, value: {}}"), shows: []string{"*error"}},
		{about: "json: a failed test of data", patches: json("{op: test, path: /data/q, value: wrong-guess-2}"), shows: []string{"*error"}},
		{about: "json: a failed test of the whole object", patches: json("{op: test, path: '', value: {}}"), shows: []string{"error"}},
		{about: "json: copy out into labels (a map)", patches: json("{op: copy, from: /stringData/p, path: /metadata/labels}"), shows: []string{"*invalid", "*trace"}},
		{about: "json: copy out into an annotation", patches: json(annotations + "{op: copy, from: /stringData/p, path: /metadata/annotations/x}, {op: copy, from: /data/q, path: /metadata/annotations/y}"), shows: []string{"*trace", "*diff", "*blame"}},
		{about: "json: copy the short value out", patches: json(annotations + "{op: copy, from: /stringData/s, path: /metadata/annotations/x}"), shows: []string{"*trace", "*diff", "*blame"}},
		{about: "json: copy the lines out", patches: json(annotations + "{op: copy, from: /stringData/cert, path: /metadata/annotations/c}"), shows: []string{"*trace", "*diff", "*blame"}},
		{about: "json: move into the namespace (every message names the object)", patches: json("{op: move, from: /stringData/p, path: /metadata/namespace}"), shows: []string{"*trace", "*diff", "*blame"}},
		{about: "json: move the short value into the namespace", patches: json("{op: move, from: /stringData/s, path: /metadata/namespace}"), shows: []string{"*trace", "*diff", "*blame"}},
		{about: "json: move into the name", patches: json("{op: move, from: /stringData/p, path: /metadata/name}"), shows: []string{"*trace", "*blame"}},
		{about: "json: copy out into a boolean", patches: json("{op: copy, from: /stringData/p, path: /immutable}"), shows: []string{"*invalid", "*trace"}},
		{about: "json: copy out into a list's key", patches: json("{op: add, path: /metadata/ownerReferences, value: [{apiVersion: v1, kind: X, uid: u}]}, {op: copy, from: /stringData/p, path: /metadata/ownerReferences/0/name}"), shows: []string{"*trace", "*diff", "*blame"}},
		{about: "json: copy the whole stringData out, cut in the trace", patches: json("{op: copy, from: /stringData, path: /metadata/annotations}"), shows: []string{"*trace", "*diff"}},
		{about: "json: replace the apiVersion (the diff's new side)", patches: json("{op: replace, path: /apiVersion, value: v2}, {op: replace, path: /stringData/p, value: NEW-SECRET-1}"), shows: []string{"*diff", "*trace", "*blame"}},
		{about: "json: replace the kind (the diff's new side)", patches: json("{op: replace, path: /kind, value: ConfigMap}, {op: remove, path: /type}, {op: replace, path: /stringData/p, value: NEW-SECRET-1}"), shows: []string{"*diff", "invalid", "*blame"}},
		{about: "json: into a string", patches: json("{op: add, path: /stringData/p/0, value: x}"), shows: []string{"error"}},
		{about: "json: copy into a string", patches: json("{op: copy, from: /data/q, path: /stringData/p/x}"), shows: []string{"error"}},
		{about: "json: remove below a string", patches: json("{op: remove, path: /stringData/p/x}"), shows: []string{"error"}},
		{about: "json: a test of the copy", patches: json(annotations + "{op: copy, from: /stringData/p, path: /metadata/annotations/x}, {op: test, path: /metadata/annotations/x, value: not-secret}"), shows: []string{"*error"}},
		{about: "json: a new value, copied out", patches: json("{op: add, path: /stringData/n, value: NEW-SECRET-1}, {op: copy, from: /stringData/n, path: /metadata/labels}"), shows: []string{"*invalid", "*trace"}},
		{about: "json: a new value, then a failure", patches: json("{op: add, path: /stringData/n, value: NEW-SECRET-1}, {op: test, path: /stringData/n, value: wrong-guess-1}"), shows: []string{"*error"}},
		{about: "json: copy out, then a conflict on the copy", patches: json(annotations+"{op: copy, from: /stringData/p, path: /metadata/annotations/x}") + "- target: secret.db\n  type: merge\n  patch: {metadata: {annotations: {x: other}}}\n", shows: []string{"*conflicts"}},
		{about: "json: copy out of a Secret of a List", manifests: attackList, patches: json("{op: copy, from: /stringData/p, path: /metadata/labels}"), shows: []string{"*invalid", "*trace"}},
		{about: "json: replace the apiVersion of a Secret of a List", manifests: attackList, patches: json("{op: replace, path: /apiVersion, value: v2}, {op: replace, path: /stringData/p, value: NEW-SECRET-1}"), shows: []string{"*diff"}},
		// values given through a variable, then moved out by a later patch
		{about: "a variable in a strategic patch, moved out", patches: "- target: secret.db\n  type: strategic\n  patch: {stringData: {v: \"${values.pw}\"}}\n" + json("{op: move, from: /stringData/v, path: /metadata/namespace}"), shows: []string{"*trace", "*diff", "*blame"}},
		{about: "a variable in a field patch, moved out", file: "p.kpatch", patches: "[secret.db]\nstringData.v: ${values.pw}\n", shows: []string{"*trace"}},
		// a ConfigMap made a Secret: its new values
		{about: "a ConfigMap re-kinded, then failing", manifests: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\n", patches: "- target: configmap.db\n  type: json\n  patch: [{op: replace, path: /kind, value: Secret}, {op: add, path: /stringData, value: {p: NEW-SECRET-1}}, {op: test, path: /stringData/p, value: wrong-guess-1}]\n", shows: []string{"*error"}},
		{about: "a ConfigMap re-kinded, then copied out", manifests: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\n", patches: "- target: configmap.db\n  type: json\n  patch: [{op: replace, path: /kind, value: Secret}, {op: add, path: /stringData, value: {p: NEW-SECRET-1}}, {op: copy, from: /stringData/p, path: /metadata/labels}]\n", shows: []string{"*invalid", "*trace"}},
		{about: "a ConfigMap re-kinded by a patch, failing in the next", manifests: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\n", patches: "- target: configmap.db\n  type: json\n  patch: [{op: replace, path: /kind, value: Secret}, {op: add, path: /stringData, value: {p: NEW-SECRET-1}}]\n- target: configmap.db\n  type: json\n  patch: [{op: add, path: /metadata/annotations, value: {}}, {op: copy, from: /stringData/p, path: /metadata/annotations/x}]\n", shows: []string{"*trace", "*diff", "*blame"}},
		{about: "a ConfigMap made a Secret and a ConfigMap again", manifests: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\n", patches: "- target: configmap.db\n  type: json\n  patch: [{op: replace, path: /kind, value: Secret}, {op: add, path: /stringData, value: {p: NEW-SECRET-1}}]\n- target: secret.db\n  type: json\n  patch: [{op: replace, path: /kind, value: ConfigMap}, {op: add, path: /data, value: {}}, {op: move, from: /stringData/p, path: /data/p}, {op: remove, path: /stringData}]\n", shows: []string{"*trace", "*diff", "*blame"}},
	}
	for _, c := range cases {
		manifests := c.manifests
		if manifests == "" {
			manifests = attackSecret
		}
		file := c.file
		if file == "" {
			file = "p.yaml"
		}
		t.Run(c.about, func(t *testing.T) {
			out := attackOutputs(t, manifests, file, c.patches, validate.Warn)
			for _, name := range []string{"error", "warnings", "trace", "conflicts", "invalid", "diff", "blame"} {
				if v := leaked(out[name]); v != "" {
					t.Errorf("the %s shows %q:\n%s", name, v, out[name])
				}
			}
			for _, name := range c.shows {
				masked := strings.HasPrefix(name, "*")
				name = strings.TrimPrefix(name, "*")
				if out[name] == "" || masked && !strings.Contains(out[name], "***") {
					t.Errorf("the %s does not show the value masked (the case does not reach it):\n%s\n(error: %s)", name, out[name], out["error"])
				}
			}
		})
	}
}

// BenchmarkApplyBigSecret: the cost of masking (docs/reliability.md,
// "Secrets") on a Secret of 20,000 values patched by 2,000 field patches,
// against the same object as a ConfigMap (nothing masked), with the trace
// on (every change masked as a pair) and off.
func BenchmarkApplyBigSecret(b *testing.B) {
	var m, p strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&m, "  k%d: %s\n", i, base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "value-number-%d", i)))
	}
	for i := range 2000 {
		fmt.Fprintf(&p, "[KIND.big]\ndata.k%d: %s\n\n", i, base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "new-%d", i)))
	}
	for _, kind := range []string{"Secret", "ConfigMap"} {
		for _, traced := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/trace=%v", kind, traced), func(b *testing.B) {
				manifests := "apiVersion: v1\nkind: " + kind + "\nmetadata:\n  name: big\ndata:\n" + m.String()
				patches, err := kpatch.Parse([]byte(strings.ReplaceAll(p.String(), "KIND", strings.ToLower(kind))), "p.kpatch", kpatch.LoadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					b.StopTimer()
					set, err := resource.Parse([]byte(manifests), "m.yaml", resource.LoadOptions{})
					if err != nil {
						b.Fatal(err)
					}
					opts := ApplyPatchesOptions{Workers: 1}
					if traced {
						opts.Trace = io.Discard
					}
					b.StartTimer()
					if _, err := ApplyPatches(context.Background(), set, patches, opts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
