package lsp

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The project of these tests is testdata/project (its README says what it
// holds).

func projectURI(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "project", "overrides", name))
	if err != nil {
		t.Fatal(err)
	}
	return pathURI(p)
}

// TestIncrementalSameAsFresh: a check re-does only the sections an edit
// changed, and the objects their patches target; what it publishes must be
// what a check of the same texts from scratch publishes. A server is edited
// through a series of versions of c.kpatch (and of a.kpatch, open with
// unsaved changes, whose patches c.kpatch's conflict with): lines
// inserted above every section (which moves them all), values changed,
// sections broken and mended, a section repeated, a section deleted. After
// each edit, the diagnostics of the edited server are compared with those
// of a new server given the same open texts: ranges, severities, messages
// and related places all alike.
func TestIncrementalSameAsFresh(t *testing.T) {
	c := projectURI(t, "c.kpatch")
	a := projectURI(t, "a.kpatch")
	base := `[deployment.web]
replicas: 3
image: x:1

[deployment.web.containers.name=web]
image: shop/web:${values.version}
resources.limits.cpu: lots

[deployment.api]
replicas: lots

[deployment.nope]
replicas: 1

[deployment.api.containers.name=api]
image: shop/api:1.2
`
	// lines (from 0) of base's diagnostics, counted by hand: the
	// conflict on replicas (1), image (2), the cpu quantity (6), lots (9),
	// nope (11), the conflict on api's image (15)
	baseLines := []int{1, 2, 6, 9, 11, 15}
	steps := []struct {
		uri, text string
		what      string
		lines     []int // the lines of the diagnostics, when checked
		related   int   // the line in a.kpatch of the first related place, when checked
	}{
		{c, base, "conflicts with a.kpatch, a field web lacks, a value of the wrong type, a violation of the schema, a target that matches nothing", baseLines, 2},
		{c, "# lines above\n\n" + base, "every section two lines down", []int{3, 4, 8, 11, 13, 17}, 2},
		{c, "# lines above\n\n" + strings.Replace(base, "replicas: 3", "replicas: 2", 1), "web's replicas now agree with a.kpatch", nil, 0},
		{c, "# lines above\n\n" + strings.Replace(strings.Replace(base, "[deployment.web]", "[deployment.web", 1), "replicas: lots", "replicas lots", 1), "a header and an assignment broken", nil, 0},
		{c, base + "\n[deployment.api]\nreplicas: lots\n", "a section twice", nil, 0},
		{a, "\n\n\n# edited, not saved\n[deployment.web]\nreplicas: 4\n\n[deployment.api.containers.name=api]\nimage: shop/api:1.3\n", "a.kpatch open, its sections moved", nil, 0},
		{c, base + "\n[deployment.api]\nreplicas: lots\n\n", "c.kpatch checked against a.kpatch's buffer", append(baseLines, 18), 5},
		{c, strings.Replace(base, "[deployment.nope]\nreplicas: 1\n", "[deployment.web.containers.name=sidecar]\nimage: envoy:${values.missing}\n", 1), "a section replaced by one with an undefined variable", nil, 0},
		{c, base, "back to the first text", baseLines, 5},
		{a, "[deployment.web]\nmetadata.name: web2\n", "a.kpatch renames web to web2", nil, 0},
		{c, base + "\n[deployment.web2]\nreplicas: 5\n", "a section on web2, which a.kpatch's rename makes pick web", nil, 0},
		{a, "[deployment.api]\nmetadata.labels.tier: edge\n", "a.kpatch labels api", nil, 0},
		{c, base + "\n[deployment.*{tier=edge}]\nmetadata.labels.tier: core\n", "a section on the Deployments labelled tier=edge, which a.kpatch's label makes pick api", nil, 0},
	}
	edited := startClient(t, Options{})
	open := map[string]string{}
	versions := map[string]int{}
	for i, st := range steps {
		if _, ok := open[st.uri]; ok {
			versions[st.uri]++
			edited.change(st.uri, versions[st.uri], st.text)
		} else {
			versions[st.uri] = 1
			edited.open(st.uri, 1, st.text)
		}
		open[st.uri] = st.text
		got := edited.diagnosticsOf(st.uri, versions[st.uri])

		fresh := startClient(t, Options{})
		for uri, text := range open {
			if uri != st.uri {
				fresh.open(uri, 1, text)
				fresh.diagnosticsOf(uri, 1)
			}
		}
		fresh.open(st.uri, 1, st.text)
		want := fresh.diagnosticsOf(st.uri, 1)
		fresh.stop()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("step %d (%s): the edited server published\n%s\na new server\n%s", i, st.what, show(got), show(want))
		}
		if st.lines != nil {
			var lines []int
			for _, d := range got {
				lines = append(lines, d.Range.Start.Line)
			}
			if !reflect.DeepEqual(lines, st.lines) {
				t.Errorf("step %d (%s): diagnostics on lines %v, want %v:\n%s", i, st.what, lines, st.lines, show(got))
			}
			if rel := got[0].RelatedInformation; len(rel) != 1 || rel[0].Location.URI != a || rel[0].Location.Range.Start.Line != st.related {
				t.Errorf("step %d (%s): the other side of the first conflict: %+v, want line %d of a.kpatch", i, st.what, rel, st.related)
			}
		}
		if st.what == "a section on web2, which a.kpatch's rename makes pick web" {
			// kpatch.Run decides which patches pick an object as the
			// patches before left it: web2 is web, renamed by a.kpatch
			// (which comes first), so the section matches, and its
			// replicas (5) meet those of c.kpatch's first section (3)
			all := show(got)
			if strings.Contains(all, "no object matches deployment.web2") || !strings.Contains(all, "sets spec.replicas to 5") {
				t.Errorf("step %d (%s):\n%s", i, st.what, all)
			}
		}
		if st.what == "a section on the Deployments labelled tier=edge, which a.kpatch's label makes pick api" {
			// no object has the label as read; a.kpatch gives it to api
			// before c.kpatch's patches run: the section picks api, and
			// its label (core) meets a.kpatch's (edge)
			all := show(got)
			if strings.Contains(all, "no object matches") && strings.Contains(all, "tier=edge") || !strings.Contains(all, "sets metadata.labels.tier to core") {
				t.Errorf("step %d (%s):\n%s", i, st.what, all)
			}
		}
		if i == 0 {
			// the first text has each kind of diagnostic the steps move about
			var messages []string
			for _, d := range got {
				messages = append(messages, d.Message)
			}
			all := strings.Join(messages, "\n")
			for _, w := range []string{"conflict: ", "has no field \"image\"", "\"lots\" is not an integer", "(apps/v1 Deployment web)", "no object matches deployment.nope"} {
				if !strings.Contains(all, w) {
					t.Fatalf("the first text lacks %q:\n%s", w, all)
				}
			}
		}
	}
	edited.stop()
}

func show(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		j, _ := json.Marshal(d)
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// bigText is a .kpatch file whose first check takes long (a second or
// so, against the microseconds a message takes): 3,000 sections of
// bigKpatch (1,200 diagnostics), for the project of the benchmarks.
func bigText(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	writeBenchProject(t, dir)
	return pathURI(filepath.Join(dir, "overrides", "big.kpatch")), bigKpatch(3000)
}

// TestCancelRequest: a request the client cancels ($/cancelRequest) before
// the server has answered it is answered with the error RequestCancelled
// (-32800). The hover waits for the first check of a large file, which
// takes far longer than the cancellation takes to arrive. A request that
// has been answered is not affected by a late cancellation.
func TestCancelRequest(t *testing.T) {
	uri, text := bigText(t)
	c := startClient(t, Options{})
	c.open(uri, 1, text)
	id := c.start("textDocument/hover", positionParams{TextDocument: textDocumentIdentifier{URI: uri}, Position: Position{Line: 1, Character: 3}})
	c.notify("$/cancelRequest", map[string]any{"id": id})
	if m := c.response(id); m.Error == nil || m.Error.Code != codeRequestCancelled {
		t.Errorf("the cancelled hover: %s %+v, want the error %d", m.Result, m.Error, codeRequestCancelled)
	}
	// the check goes on: the document's diagnostics come, and a hover
	// then answers, and a cancellation after its answer changes nothing
	if d := c.diagnosticsOf(uri, 1); len(d) != 1200 {
		t.Errorf("%d diagnostics, want 1,200", len(d))
	}
	if h, err := c.hover(uri, 1, 3); err != nil || !strings.Contains(h, "metadata.labels.l0") {
		t.Errorf("the hover after the check: %v\n%s", err, h)
	}
	c.notify("$/cancelRequest", map[string]any{"id": c.id})
	if h, err := c.hover(uri, 3, 1); err != nil || !strings.Contains(h, "picks 1 object") {
		t.Errorf("a hover after a late cancellation: %v\n%s", err, h)
	}
	c.stop()
}

// TestSupersededCheck: an edit cancels the check of the version it
// replaces. The first version of a large file is opened and at once
// replaced: its check is cancelled, so its diagnostics are never published
// (the first the client gets are the second version's), and a hover asked
// about it answers ContentModified (-32801), the protocol's error for a
// request whose document changed under it.
func TestSupersededCheck(t *testing.T) {
	uri, text := bigText(t)
	c := startClient(t, Options{})
	c.open(uri, 1, text)
	id := c.start("textDocument/hover", positionParams{TextDocument: textDocumentIdentifier{URI: uri}, Position: Position{Line: 1, Character: 3}})
	c.change(uri, 2, strings.Replace(text, "metadata.labels.l0: v", "metadata.labels.l0: w", 1))
	if m := c.response(id); m.Error == nil || m.Error.Code != codeContentModified {
		t.Errorf("the hover about version 1: %s %+v, want the error %d", m.Result, m.Error, codeContentModified)
	}
	if v, d := c.diagnostics(uri); v != 2 || len(d) != 1200 {
		t.Errorf("the first diagnostics published: version %d (%d diagnostics), want version 2", v, len(d))
	}
	if h, err := c.hover(uri, 1, 3); err != nil || !strings.Contains(h, "→ `w`") {
		t.Errorf("the hover about version 2: %v\n%s", err, h)
	}
	c.stop()
}

// TestSectionCache: an edit of one section parses that section again and
// patches again only the objects its patches target; lines inserted above
// the sections parse the new lines alone and patch nothing again. Here a
// file of 30 sections on 30 objects is opened (30 sections parsed, 30
// objects patched), section 12 (app-012) is edited (1 section, 1 object),
// a comment is put above the first section (1 unit: the lines before the
// first header; no object), and the first text comes back (section 12's
// first text, which the caches let go of once no check used it: 1 section,
// 1 object).
func TestSectionCache(t *testing.T) {
	dir := t.TempDir()
	writeBenchProject(t, dir)
	uri := pathURI(filepath.Join(dir, "overrides", "s.kpatch"))
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "[deployment.app-%03d]\nreplicas: %d\n\n", i, i)
	}
	first := b.String()
	edited := strings.Replace(first, "replicas: 12\n", "replicas: 120\n", 1)
	c := startClient(t, Options{})
	var ws *workspace
	for i, step := range []struct {
		text            string
		parsed, patched int64
	}{
		{first, 30, 30},
		{edited, 1, 1},
		{"# a comment\n" + edited, 1, 0},
		{first, 1, 1},
	} {
		if i == 0 {
			c.open(uri, 1, step.text)
		} else {
			c.change(uri, i+1, step.text)
		}
		if d := c.diagnosticsOf(uri, i+1); len(d) != 0 {
			t.Fatalf("step %d: %+v", i, d)
		}
		if ws == nil {
			ws = c.s.workspaceFor(filepath.Join(dir, "overrides", "s.kpatch"))
		}
		parsed, patched := ws.parsed.Swap(0), ws.patched.Swap(0)
		if parsed != step.parsed || patched != step.patched {
			t.Errorf("step %d: %d sections parsed and %d objects patched, want %d and %d", i, parsed, patched, step.parsed, step.patched)
		}
	}
	c.stop()
}
