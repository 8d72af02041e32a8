package kpatch

import (
	"strings"
	"testing"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// TestParseValue: quoting, variables and the $${ escape.
func TestParseValue(t *testing.T) {
	vars := NewVars()
	if err := vars.LoadValues([]byte("a: x\nn: 3\nnested: {b: y}\n"), "v.yaml"); err != nil {
		t.Fatal(err)
	}
	vars.SetFeature("on", true)
	for _, c := range []struct {
		raw, text string
		single    bool
	}{
		{"plain", "plain", false},
		{`"quoted ${values.a}"`, "quoted x", false},
		{`'single $${values.a}'`, "single ${values.a}", false},
		{"${values.n}", "3", true},
		{`"${values.n}"`, "3", false}, // quoted: a string, not the number
		{"${values.nested.b}-${features.on}", "y-true", false},
		{"$${HOME}", "${HOME}", false},
		{"$$", "$$", false},
	} {
		ps, err := syntax.ParseKpatch([]byte("[cm.a]\nx: "+c.raw+"\n"), "f.kpatch")
		if err != nil {
			t.Errorf("%s: %v", c.raw, err)
			continue
		}
		v := ps[0].Sets[0].Value
		text, _, err := vars.resolve(v)
		if err != nil {
			t.Errorf("%s: %v", c.raw, err)
			continue
		}
		if text != c.text || v.SingleVariable() != c.single {
			t.Errorf("%s: %q single=%v, want %q single=%v", c.raw, text, v.SingleVariable(), c.text, c.single)
		}
	}
}

// TestVars: --set and --feature text, and their errors.
func TestVars(t *testing.T) {
	v := NewVars()
	for _, s := range []string{"values.a.b=1", "a.c=text", "d=\"2\"", "e=true"} {
		if err := v.Set(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{"x=true", "y=false", "features.z"} {
		if err := v.SetFeatureText(s); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(v.Names(), " "); got != "features.x features.y features.z values.a.b values.a.c values.d values.e" {
		t.Errorf("names: %s", got)
	}
	for ref, want := range map[string]string{"values.a.b": "!!int 1", "values.a.c": "!!str text", "values.d": "!!str 2", "values.e": "!!bool true", "features.y": "!!bool false"} {
		n, err := v.lookup(ref)
		if err != nil {
			t.Errorf("%s: %v", ref, err)
			continue
		}
		if got := n.Tag + " " + n.Value; got != want {
			t.Errorf("%s: %s, want %s", ref, got, want)
		}
	}
	for _, bad := range []string{"=x", "novalue"} {
		if err := v.Set(bad); err == nil {
			t.Errorf("--set %q: no error", bad)
		}
	}
	for _, bad := range []string{"x=maybe", "=true"} {
		if err := v.SetFeatureText(bad); err == nil {
			t.Errorf("--feature %q: no error", bad)
		}
	}
	if err := v.LoadValues([]byte("- a\n"), "v.yaml"); err == nil || !strings.Contains(err.Error(), "v.yaml:1:1: values must be a mapping") {
		t.Errorf("a list of values: %v", err)
	}
}
