package syntax

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/tree"
)

// TestParsePath: each path as written and the steps it is made of, written
// back in canonical form (bare selectors bracketed, quoted fields quoted).
func TestParsePath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"spec.replicas", "spec.replicas"},
		{"spec.containers[0].image", "spec.containers[0].image"},
		{"spec.containers.0.image", "spec.containers.0.image"}, // .0 is a field here; applying makes it an index on a list
		{"containers[name=main].image", "containers[name=main].image"},
		{"ports[port=53,protocol=UDP].name", "ports[port=53,protocol=UDP].name"},
		{"containers[-]", "containers[-]"},
		{"containers[-3]", "containers[-3]"},
		{"containers[+2]", "containers[+2]"},
		{"containers[-name=sidecar]", "containers[-name=sidecar]"},
		{"containers[+name=main]", "containers[+name=main]"},
		{`metadata.annotations."example.com/team"`, `metadata.annotations."example.com/team"`},
		{`metadata.annotations.'it''s'`, `metadata.annotations."it's"`},
		{`parts[image.name=main].count`, `parts[image.name=main].count`},
		{`items[name="a.b"].x`, `items[name="a.b"].x`},
		{`items[name='x,y',n=1]`, `items[name="x,y",n=1]`},
		{`env[name=A][0]`, `env[name=A][0]`},
	} {
		p, err := ParsePath(c.in, tree.Position{File: "f", Line: 1, Column: 1})
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := p.String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

// TestParsePathErrors: the message and the column (1-based, in a text
// starting at column 1) of each mistake.
func TestParsePathErrors(t *testing.T) {
	for _, c := range []struct {
		in  string
		col int
		msg string
	}{
		{"", 1, "empty path"},
		{"spec.", 6, "a path cannot end with a dot"},
		{"spec..x", 6, "empty path segment"},
		{"containers.name=main", 12, "a selector in a key needs brackets: [name=main]"},
		{"containers[name=main", 11, "unclosed ["},
		{`a."b`, 3, "unterminated double-quoted string"},
		{"a[x]", 3, `expected key=value in a selector, got "x"`},
		{"a[-1x]", 4, `expected key=value in a selector, got "1x"`},
		{"a b", 1, `a path segment cannot hold spaces: quote "a b"`},
		{`a"b"`, 2, `unexpected '"' in a path; quote a key that contains it`},
	} {
		_, err := ParsePath(c.in, tree.Position{File: "f", Line: 7, Column: 1})
		var pe *Error
		if !errors.As(err, &pe) {
			t.Errorf("%q: %v, want an *Error", c.in, err)
			continue
		}
		if pe.Pos.Line != 7 || pe.Pos.Column != c.col || pe.Msg != c.msg {
			t.Errorf("%q: %d:%d %s\nwant  %d:%d %s", c.in, pe.Pos.Line, pe.Pos.Column, pe.Msg, 7, c.col, c.msg)
		}
	}
}

// TestParseKpatch: a file with every kind of line, and what each section
// holds, printed one line per patch and assignment.
func TestParseKpatch(t *testing.T) {
	src := `# a comment
[deployment.app]                  # top-level fields
replicas = 3
metadata.annotations."example.com/team": "shop # not a comment"
image: 'it''s'

[staging/deployment.app.containers.name=main.ports.name=http]
containerPort: 9090   # a comment after a value

["deployment.apps"."app.v2".containers[+name=main]]
name: proxy

[cm.*]
data.x: !delete
data.y: a#b

[svc.app.ports[port=53,protocol=UDP]]
!delete
`
	patches, err := ParseKpatch([]byte(src), "f.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range patches {
		fmt.Fprintf(&b, "%d:%d ns=%q kind=%q name=%q path=%s delete=%v\n", p.Pos.Line, p.Pos.Column, p.Target.Namespace, p.Target.Kind, p.Target.Name, p.Path, p.DeleteTarget)
		for _, a := range p.Sets {
			fmt.Fprintf(&b, "  %d:%d %s = %q quoted=%v delete=%v at %d\n", a.Pos.Line, a.Pos.Column, a.Key, a.Value.Raw, a.Value.Quoted, a.Value.Delete, a.Value.Pos.Column)
		}
	}
	want := `2:1 ns="" kind="deployment" name="app" path= delete=false
  3:1 replicas = "3" quoted=false delete=false at 12
  4:1 metadata.annotations."example.com/team" = "\"shop # not a comment\"" quoted=true delete=false at 42
  5:1 image = "'it''s'" quoted=true delete=false at 8
7:1 ns="staging" kind="deployment" name="app" path=containers[name=main].ports[name=http] delete=false
  8:1 containerPort = "9090" quoted=false delete=false at 16
10:1 ns="" kind="deployment.apps" name="app.v2" path=containers[+name=main] delete=false
  11:1 name = "proxy" quoted=false delete=false at 7
13:1 ns="" kind="cm" name="*" path= delete=false
  14:1 data.x = "!delete" quoted=false delete=true at 9
  15:1 data.y = "a#b" quoted=false delete=false at 9
17:1 ns="" kind="svc" name="app" path=ports[port=53,protocol=UDP] delete=true
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// the same text with CRLF and with lone CR line breaks (an old Mac's
	// file was one line, a comment) reads as the same patches
	for _, eol := range []string{"\r\n", "\r"} {
		other, err := ParseKpatch([]byte(strings.ReplaceAll(src, "\n", eol)), "f.kpatch")
		if err != nil {
			t.Fatalf("%q line breaks: %v", eol, err)
		}
		if !reflect.DeepEqual(other, patches) {
			t.Errorf("%q line breaks: other patches", eol)
		}
	}
}

func TestParseKpatchNotUTF8(t *testing.T) {
	_, err := ParseKpatch([]byte("[cm.a]\ndata.x: caf\xe9\n"), "f.kpatch")
	if err == nil || err.Error() != "f.kpatch:2:12: not UTF-8 text: byte 0xe9 (save the file as UTF-8)" {
		t.Errorf("got %v", err)
	}
}

// TestBareSelectorErrors: a bare selector (a header's name=value) whose
// value holds an = or a comma must be quoted or bracketed: in brackets
// the comma starts a second condition (FuzzParse found a header that
// printed with brackets meaning something else). The column is where the
// selector starts: "[deployment.web.containers." is 27 characters.
func TestBareSelectorErrors(t *testing.T) {
	for in, value := range map[string]string{"name=a,b": `"a,b"`, "name=,b": `",b"`, "name=a=b": `"a=b"`} {
		_, err := ParseKpatch([]byte("[deployment.web.containers."+in+"]\nimage: x\n"), "f")
		var pe *Error
		want := fmt.Sprintf("selector %q: a value with = or , needs brackets and quotes: [name=%s]", in, value)
		if !errors.As(err, &pe) || pe.Pos.Line != 1 || pe.Pos.Column != 28 || pe.Msg != want {
			t.Errorf("%s: %v, want f:1:28: %s", in, err, want)
		}
	}
	// quoted or bracketed, the comma is the value's
	for _, in := range []string{`[name="a,b"]`, `[name='a=b']`} {
		if _, err := ParseKpatch([]byte("[deployment.web.containers."+in+"]\nimage: x\n"), "f"); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// TestParseHeaderTargets: what a header's target holds, written back by
// the printer of targets (Selector.String), and what follows it.
func TestParseHeaderTargets(t *testing.T) {
	for _, c := range []struct{ header, target, path string }{
		{"[deployment.web]", "deployment.web", ""},
		{"[deployment.shop-*]", "deployment.shop-*", ""},
		{"[deployment.*-web.replicas]", "deployment.*-web", "replicas"},
		{"[deployment.*{app=web}]", "deployment.*{app=web}", ""},
		{"[deployment.shop-*{app.kubernetes.io/name in (web, cart),!legacy}.containers.name=web]", "deployment.shop-*{app.kubernetes.io/name in (web, cart),!legacy}", "containers[name=web]"},
		{"[*.*{team=a}.metadata.annotations]", "*.*{team=a}", "metadata.annotations"},
		{"[prod/deployment.web{ app = web }]", "prod/deployment.web{app = web}", ""},
	} {
		ps, err := ParseKpatch([]byte(c.header+"\nx: 1\n"), "f.kpatch")
		if err != nil {
			t.Errorf("%s: %v", c.header, err)
			continue
		}
		if got := ps[0].Target.String(); got != c.target || ps[0].Path.String() != c.path {
			t.Errorf("%s: target %s path %s, want %s and %s", c.header, got, ps[0].Path, c.target, c.path)
		}
	}
}

// TestParseHeaderTargetErrors: each mistake in a header's target, with its
// column.
func TestParseHeaderTargetErrors(t *testing.T) {
	for _, c := range []struct {
		header string
		col    int
		msg    string
	}{
		{"[deployment.web.]", 16, "a target ends with a dot: drop it, or write a path after it"},
		{"[deployment.web.containers.]", 28, "a path cannot end with a dot"},
		{"[deployment{app=web}]", 12, "a label selector follows the name: deployment.*{...} for every object of the kind with those labels"},
		{"[deployment.*{app=web]", 14, "unclosed { of a label selector"},
		{"[deployment.*{}]", 14, "an empty label selector: write one, such as {app=web}, or leave the braces out"},
		{"[deployment.*{tier in front}]", 15, `label selector "tier in front": "tier in front": expected in (a, b)`},
		{"[deployment.*{app=web}x]", 23, "expected . after the object's name, got 'x'"},
		{"[deployment[0]]", 12, "a target is kind.name: add the object's name (or * for all objects of the kind)"},
	} {
		_, err := ParseKpatch([]byte(c.header+"\nx: 1\n"), "f")
		var pe *Error
		if !errors.As(err, &pe) || pe.Pos.Line != 1 || pe.Pos.Column != c.col || pe.Msg != c.msg {
			t.Errorf("%s: %v\nwant f:1:%d: %s", c.header, err, c.col, c.msg)
		}
	}
}

// TestParseTargetBare: in a YAML patch list a name alone is a target (a
// bare name, as Kure writes it), with or without a namespace.
func TestParseTargetBare(t *testing.T) {
	for in, want := range map[string]Target{
		"demo":           {Name: "demo", Bare: true},
		"prod/demo":      {Name: "demo", Namespace: "prod", Bare: true},
		`"app.config"`:   {Name: "app.config", Bare: true},
		"deployment.web": {Kind: "deployment", Name: "web"},
		"*.web":          {Name: "web"},
	} {
		got, err := ParseTarget(in, tree.Position{File: "f", Line: 1, Column: 1})
		if err != nil || unplacedTarget(got) != want {
			t.Errorf("%s: %+v, %v; want %+v", in, got, err, want)
		}
	}
}

// TestParseHeaderBare: a header that is a name alone (with or without a
// namespace, quoted when it holds dots) is a bare name, as in a patch list:
// the one object of that name, whatever its kind (Target.Bare,
// which package kpatch resolves against the objects). It has no path: one
// would make it kind.name. Format writes it back as it reads.
func TestParseHeaderBare(t *testing.T) {
	for in, want := range map[string]Target{
		"[loadgenerator]":      {Name: "loadgenerator", Bare: true},
		"[prod/loadgenerator]": {Name: "loadgenerator", Namespace: "prod", Bare: true},
		`["app.config"]`:       {Name: "app.config", Bare: true},
	} {
		text := in + "\nspec.replicas: 2\n"
		ps, err := ParseKpatch([]byte(text), "f.kpatch")
		if err != nil || len(ps) != 1 || unplacedTarget(ps[0].Target) != want || len(ps[0].Path) != 0 {
			t.Errorf("%s: %+v, %v; want the target %+v and no path", in, ps, err, want)
			continue
		}
		out, err := Format([]byte(text), "f.kpatch", Options{})
		if err != nil || string(out) != text {
			t.Errorf("%s: formatted as %q (%v), want %q", in, out, err, text)
		}
	}
}

// TestParseObjectDelete: a section that names an object and holds !delete
// deletes the object; so do a YAML field patch that is !delete and a
// strategic patch whose top level is $patch: delete (kustomize's way). A
// $patch: delete further down deletes what it is in, not the object.
func TestParseObjectDelete(t *testing.T) {
	ps, err := ParseKpatch([]byte("[deployment.loadgenerator]\n!delete\n[deployment.web.containers.name=x]\n!delete\n"), "f.kpatch")
	if err != nil {
		t.Fatal(err)
	}
	if !ps[0].DeletesObject() || ps[1].DeletesObject() || !ps[1].DeleteTarget {
		t.Errorf(".kpatch: %v %v, want the object, then an item", ps[0].DeletesObject(), ps[1].DeletesObject())
	}
	ys, err := ParseYAML([]byte(`- target: deployment.a
  patch: !delete
- target: deployment.b
  type: strategic
  patch:
    $patch: delete
- target: deployment.c
  type: strategic
  patch:
    spec:
      $patch: delete
- target: deployment.d
  type: merge
  patch:
    $patch: delete
`), "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, true, false, false} {
		if got := ys[i].DeletesObject(); got != want {
			t.Errorf("patch %d deletes its object: %v, want %v", i, got, want)
		}
	}
}

// TestParseYAMLOptionsAndTargets: kustomize's options and target mapping,
// and their mistakes.
func TestParseYAMLOptionsAndTargets(t *testing.T) {
	ps, err := ParseYAML([]byte(`- target: {group: apps, version: v1, kind: Deployment, name: "shop-.*", namespace: prod, labelSelector: app=web, annotationSelector: team=a}
  type: strategic
  options: {allowNameChange: true, allowKindChange: false}
  patch: {metadata: {name: x}}
`), "f.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := Target{Group: "apps", Version: "v1", Kind: "Deployment", Name: "shop-.*", Namespace: "prod", Labels: "app=web", Annotations: "team=a", Regexp: true}
	if unplacedTarget(ps[0].Target) != want || !ps[0].AllowNameChange || ps[0].AllowKindChange {
		t.Errorf("got %+v name=%v kind=%v", ps[0].Target, ps[0].AllowNameChange, ps[0].AllowKindChange)
	}
	for _, c := range []struct{ in, want string }{
		{"- target: {knd: Deployment}\n  patch: {x: 1}\n", `f.yaml:1:12: unknown key "knd" in a target: the keys are group, version, kind, name (a regular expression), namespace, labelSelector, annotationSelector and apiVersion (did you mean kind?)`},
		{"- target: {name: 'a['}\n  patch: {x: 1}\n", `f.yaml:1:18: the name "a[" is not a regular expression: missing closing ]`},
		{"- target: {}\n  patch: {x: 1}\n", "f.yaml:1:11: an empty target would pick every object: name a kind, a name or a selector"},
		{"- target: deployment.web\n  options: {allowNameChange: true}\n  patch: {x: 1}\n", "f.yaml:2:12: options apply to strategic and merge patches: a field patch changes a name or a kind as it says"},
		{"- target: deployment.web\n  type: strategic\n  options: {allowNameChange: yes}\n  patch: {x: 1}\n", "f.yaml:3:30: allowNameChange is true or false"},
		{"- target: deployment.web\n  type: strategic\n  options: {allowRename: true}\n  patch: {x: 1}\n", `f.yaml:3:13: unknown option "allowRename": the options are allowNameChange and allowKindChange`},
	} {
		if _, err := ParseYAML([]byte(c.in), "f.yaml"); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\nwant %s", c.in, err, c.want)
		}
	}
}

// TestPathDepthLimit: a field patch creates what its path leads to, so a
// path of more steps than the depth limit (the header's and the key's
// together) is refused when the patch is parsed, with Limit "depth" and
// the position of the header or the assignment: a 200 KB line of ".a"
// once made a document 100,000 levels deep (24 GB, killed).
func TestPathDepthLimit(t *testing.T) {
	deep := func(n int) string { return strings.TrimPrefix(strings.Repeat(".a", n), ".") }
	for _, c := range []struct {
		name, text, file string
		at               string
	}{
		{"a deep header", "[widget.w." + deep(513) + "]\nx: 1\n", "p.kpatch", "p.kpatch:1:1: "},
		{"a deep key below a header", "[widget.w." + deep(300) + "]\n" + deep(213) + ": 1\n", "p.kpatch", "p.kpatch:2:1: "},
		// (an explicit key: YAML's implicit keys are at most 1,024 characters)
		{"a deep key in a patch list", "- target: widget.w\n  patch:\n    ? " + deep(513) + "\n    : 1\n", "p.yaml", "p.yaml:3:7: "},
		{"a whole line of it", "[widget.w]\n" + deep(100_000) + ": x\n", "p.kpatch", "p.kpatch:2:1: "},
	} {
		_, err := Parse([]byte(c.text), c.file, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Limit != "depth" || e.Pos.String() != c.at {
			t.Errorf("%s: %v, want a depth limit error at %s", c.name, err, c.at)
		}
	}
	// at the limit, and with a higher one
	if _, err := Parse([]byte("[widget.w."+deep(300)+"]\n"+deep(212)+": 1\n"), "p.kpatch", Options{}); err != nil {
		t.Errorf("512 steps: %v", err)
	}
	lim := tree.DefaultLimits()
	lim.MaxDepth = 1000
	if _, err := Parse([]byte("[widget.w]\n"+deep(600)+": 1\n"), "p.kpatch", Options{Limits: &lim}); err != nil {
		t.Errorf("600 steps, limit 1,000: %v", err)
	}
}

// TestParseErrorsInSecretsMasked: an error in a line of a section or a
// patch list's item whose target may pick v1 Secrets (the kind in any
// spelling kmerge accepts for it, a * kind, a kustomize kind expression
// that matches Secret, a target without a kind) says that its line is
// quoted masked (Masked), and its message does not hold the value; one in
// another kind's section does not mask. A patch list that is not YAML
// masks when its text names Secrets (or holds a *: its items are not
// known). Before, such errors, found before any object is known, quoted
// the line in clear, and "bad double-quoted string" put the value in the
// message too.
func TestParseErrorsInSecretsMasked(t *testing.T) {
	const value = "hunter2"
	for _, c := range []struct {
		file, text string
		masked     bool
	}{
		{"p.kpatch", "[secret.db]\nstringData.password: \"hunter2\n", true},
		{"p.kpatch", "[secret.db]\nstringData.password: \"hunt\\qer2\"\n", true},
		{"p.kpatch", "[secret.db]\nstringData.password: 'hunter2\n", true},
		{"p.kpatch", "[secret.db]\nstringData.password: \"x\" hunter2\n", true},
		{"p.kpatch", "[secret.db]\nstringData.password: hunter2 ${values.x\n", true},
		{"p.kpatch", "[Secrets.db]\nhunter2\n", true},
		{"p.kpatch", "[SECRET.db.stringData]\npassword = x: hunter2\n", true},
		{"p.kpatch", "[prod/secret.*{app=web}]\nstringData.password: \"hunter2\n", true},
		{"p.kpatch", "[*.db]\nstringData.password: \"hunter2\n", true},
		{"p.kpatch", "[secret.db]\n!delete\nstringData.password: hunter2\n", true},
		{"p.kpatch", "[configmap.db]\ndata.password: \"hunter2\n", false},
		{"p.kpatch", "[secret.db]\ndata.a: x\n\n[configmap.db]\ndata.password: \"hunter2\n", false},
		{"p.yaml", "- target: secret.db\n  patch: {stringData.password: \"hunter2${\"}\n", true},
		{"p.yaml", "- target: {kind: Sec.*}\n  patch: {stringData.password: \"hunter2${\"}\n", true},
		{"p.yaml", "- target: {name: db}\n  patch: {stringData.password: \"hunter2${\"}\n", true},
		{"p.yaml", "- target: {kind: ConfigMap}\n  patch: {data.password: \"hunter2${\"}\n", false},
		{"p.yaml", "- target: secret.db\n  patch: {stringData.password: \"hunt\\qer2\"}\n", true},
		{"p.yaml", "- target: configmap.db\n  patch: {data.password: \"hunt\\qer2\"}\n", false},
	} {
		var err error
		if strings.HasSuffix(c.file, ".kpatch") {
			_, err = ParseKpatch([]byte(c.text), c.file)
		} else {
			_, err = ParseYAML([]byte(c.text), c.file)
		}
		var m interface{ Masked() bool }
		switch {
		case err == nil:
			t.Errorf("%q: no error", c.text)
		case (errors.As(err, &m) && m.Masked()) != c.masked:
			t.Errorf("%q: %v: masked %v, want %v", c.text, err, !c.masked, c.masked)
		case c.masked && strings.Contains(err.Error(), value):
			t.Errorf("%q: the message holds the value: %v", c.text, err)
		}
	}
}

// unplacedTarget is t without its positions, to compare what it names.
func unplacedTarget(t Target) Target {
	t.Pos, t.End = tree.Position{}, tree.Position{}
	return t
}

// TestTargetPositions: a target read from text knows where it starts and
// ends (what an editor underlines): in a header, from after the [ to
// before the dot of the path or the ], quoted names and a label selector
// included; read alone, from its first byte to its last.
func TestTargetPositions(t *testing.T) {
	ps, err := ParseKpatch([]byte("# c\n  [prod/configmap.\"app.v2\"{a=b}.data.x]\nx: 1\n[web]\n"), "f")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]tree.Position{
		{{File: "f", Line: 2, Column: 4}, {File: "f", Line: 2, Column: 32}}, // 28 bytes
		{{File: "f", Line: 4, Column: 2}, {File: "f", Line: 4, Column: 5}},
	} {
		if got := ps[i].Target; got.Pos != want[0] || got.End != want[1] {
			t.Errorf("target %d (%s): %v to %v, want %v to %v", i, got, got.Pos, got.End, want[0], want[1])
		}
	}
	tg, err := ParseTarget(`deployment."a.b"`, tree.Position{File: "g", Line: 3, Column: 7})
	if err != nil || tg.End != (tree.Position{File: "g", Line: 3, Column: 7 + 16}) {
		t.Errorf("ParseTarget: %+v, %v", tg, err)
	}
}
