package syntax

import (
	"fmt"
	"testing"
)

// TestCursor: a header, a target or a key cut at a cursor reads as the
// whole text does (quoted kinds and names that hold dots, namespaces,
// label selectors, quoted path steps), with the part the cursor is in and
// where its word starts. The expected values are what ParseKpatch reads
// of the same text completed (the parts before the cursor), and the
// offset of the first byte after the last delimiter before the cursor.
func TestCursor(t *testing.T) {
	show := func(c Cursor) string {
		s := fmt.Sprintf("in=%d start=%d ns=%q kind=%q name=%q labels=%q", c.In, c.Start, c.Target.Namespace, c.Target.Kind, c.Target.Name, c.Target.Labels)
		if c.In == InPath {
			s += fmt.Sprintf(" path=%s bracket=%v", c.Path, c.Bracket)
		}
		return s
	}
	for _, tc := range []struct {
		text   string
		header bool
		want   string // "" when nothing is to be completed
	}{
		{`dep`, true, `in=0 start=0 ns="" kind="" name="" labels=""`},
		{`prod/dep`, true, `in=0 start=5 ns="prod" kind="" name="" labels=""`},
		{`"a.b`, true, `in=0 start=0 ns="" kind="" name="" labels=""`},
		{`configmap.`, true, `in=1 start=10 ns="" kind="configmap" name="" labels=""`},
		{`configmap."app.`, true, `in=1 start=10 ns="" kind="configmap" name="" labels=""`},
		{`prod/configmap.ap`, true, `in=1 start=15 ns="prod" kind="configmap" name="" labels=""`},
		{`*.*{app=`, true, `in=2 start=4 ns="" kind="" name="*" labels=""`},
		{`"*".x{a=b}.spec.`, true, `in=3 start=16 ns="" kind="*" name="x" labels="a=b" path=spec bracket=false`},
		// a dotted name, quoted: the path starts after its closing quote
		{`configmap."app.v2".`, true, `in=3 start=19 ns="" kind="configmap" name="app.v2" labels="" path= bracket=false`},
		{`configmap."app.v2".data.x`, true, `in=3 start=24 ns="" kind="configmap" name="app.v2" labels="" path=data bracket=false`},
		{`deployment.web.containers[name=we`, true, `in=3 start=26 ns="" kind="deployment" name="web" labels="" path=containers bracket=true`},
		{`deployment.web.containers.name=web.im`, true, `in=3 start=35 ns="" kind="deployment" name="web" labels="" path=containers[name=web] bracket=false`},
		// a quoted step with a dot in it is one step
		{`deployment.web.metadata.annotations."example.com/team".x`, true, `in=3 start=55 ns="" kind="deployment" name="web" labels="" path=metadata.annotations."example.com/team" bracket=false`},
		{`deployment.web.metadata.annotations."example.c`, true, `in=3 start=36 ns="" kind="deployment" name="web" labels="" path=metadata.annotations bracket=false`},
		// a patch list's target has no path
		{`configmap."app.v2".data`, false, ``},
		{`configmap."app`, false, `in=1 start=10 ns="" kind="configmap" name="" labels=""`},
		{`dep{`, true, ``},
	} {
		c, ok := targetCursor(tc.text, tc.header)
		got := ""
		if ok {
			got = show(c)
		}
		if got != tc.want {
			t.Errorf("%q (header %v):\n got %s\nwant %s", tc.text, tc.header, got, tc.want)
		}
	}
	for text, want := range map[string]string{
		`image`:                       `in=3 start=0 ns="" kind="" name="" labels="" path= bracket=false`,
		`containers[name=web].im`:     `in=3 start=21 ns="" kind="" name="" labels="" path=containers[name=web] bracket=false`,
		`metadata.annotations."a.b/c`: `in=3 start=21 ns="" kind="" name="" labels="" path=metadata.annotations bracket=false`,
		`metadata.labels."a.b".`:      `in=3 start=22 ns="" kind="" name="" labels="" path=metadata.labels."a.b" bracket=false`,
	} {
		c, ok := PathCursor(text)
		if got := show(c); !ok || got != want {
			t.Errorf("PathCursor(%q):\n got %s (%v)\nwant %s", text, got, ok, want)
		}
	}
}
