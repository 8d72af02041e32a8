package syntax

import (
	"errors"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/tree"
)

// FuzzParse: no input makes the parsers panic; every error is an *Error
// (or, for YAML, a *tree.SyntaxError) whose position is inside the input; a
// path that parses prints as text that parses back to the same path; a
// .kpatch file that parses formats (Format) as text that parses to the
// same patches and that formatting again leaves as it is.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[deployment.app]\nreplicas: 3\n",
		"[staging/deployment.app.containers.name=main.ports[port=53,protocol=UDP]]\ncontainerPort = 9090 # c\n",
		"[cm.\"a.b\"]\ndata.'x.y': \"${values.a}-$${b}\"\ndata.z: !delete\n",
		"[pod.p.containers[-name=a]]\nname: x\n[pod.p.containers[+2]]\n!delete\n",
		"[a.b.c[-]]\nargs[-3]: x\n",
		"  [deployment.app.containers[name=main][0]]  # c\n\n\n\tx = 'a''b' # d\n[\"a/b\".x.name=y]\n!delete\n",
		"- target: deployment.app\n  type: strategic\n  patch: {spec: {replicas: 2}}\n",
		"- target: {kind: Deployment, labelSelector: 'a in (b,c)'}\n  patch:\n    spec.replicas: !delete\n",
		"[deployment.shop-*{app=web, tier notin (a,b)}.containers.name=web]\nimage: x\n[*.*{!legacy}]\n!delete\n[cm.web]\n!delete\n",
		"- target: {group: apps, name: 'shop-(a|b)', annotationSelector: x=y}\n  type: strategic\n  options: {allowNameChange: true}\n  patch: {$patch: delete}\n- target: demo\n  patch: !delete\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// lines as YAML counts them (\r, NEL, LS and PS end lines too),
		// plus one for an error at the very end
		lines := strings.Count(yamlBreaks.Replace(src), "\n") + 1
		check := func(err error) {
			var pe *Error
			var se *tree.SyntaxError
			switch {
			case err == nil:
			case errors.As(err, &pe):
				if pe.Pos.File != "f" || pe.Pos.Line < 1 || pe.Pos.Line > lines || pe.Pos.Column < 1 {
					t.Fatalf("error outside the input (%d lines): %v", lines, err)
				}
			case errors.As(err, &se):
				if se.Pos.File != "f" || se.Pos.Line > lines {
					t.Fatalf("syntax error outside the input (%d lines): %v", lines, err)
				}
			default:
				t.Fatalf("error without a position: %T %v", err, err)
			}
		}
		patches, err := ParseKpatch([]byte(src), "f")
		check(err)
		checkFormat(t, src)
		for _, p := range patches {
			roundTrip(t, p.Path)
			for _, a := range p.Sets {
				roundTrip(t, a.Key)
			}
		}
		_, err = ParseYAML([]byte(src), "f")
		check(err)
		if !strings.Contains(src, "\n") {
			p, err := ParsePath(src, tree.Position{File: "f", Line: 1, Column: 1})
			check(err)
			roundTrip(t, p)
		}
	})
}

func roundTrip(t *testing.T, p Path) {
	if len(p) == 0 {
		return
	}
	text := p.String()
	q, err := ParsePath(text, tree.Position{File: "f", Line: 1, Column: 1})
	if err != nil {
		t.Fatalf("%s does not parse back: %v", text, err)
	}
	if q.String() != text {
		t.Fatalf("%s parses back as %s", text, q.String())
	}
}

// yamlBreaks turns every line break YAML knows into \n.
var yamlBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n")
