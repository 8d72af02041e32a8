package kmerge

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// TestPatchErrors: the errors of Patch carry data, not advice about flags:
// a kind without a schema is a *NoSchemaError naming it; an error of the
// patch is a *DocumentError whose position is the patch's.
func TestPatchErrors(t *testing.T) {
	widget := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n")
	_, err := Patch(context.Background(), widget, []byte("spec: {a: 1}\n"), PatchOptions{DocName: "w.yaml", PatchName: "p.yaml"})
	var ns *NoSchemaError
	if !errors.As(err, &ns) || ns.APIVersion != "example.com/v1" || ns.Kind != "Widget" || !errors.Is(err, ErrNoSchema) {
		t.Fatalf("%v (%T)", err, err)
	}
	if got, want := err.Error(), "no schema for example.com/v1 Widget\n  while patching w.yaml, example.com/v1 Widget w"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if _, ok := tree.ErrorPosition(err); ok {
		t.Errorf("a position for an error about the document's kind")
	}
	_, err = Patch(context.Background(), []byte("a: 1\n"), []byte("a: 1\n"), PatchOptions{})
	if !errors.As(err, &ns) || ns.Kind != "" || !strings.HasPrefix(err.Error(), "no schema: the document has no kind") {
		t.Errorf("no kind: %v", err)
	}

	deploy := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n")
	_, err = Patch(context.Background(), deploy, []byte("metadata:\n  $patch: merge\n"), PatchOptions{DocName: "d.yaml", PatchName: "p.yaml"})
	var de *DocumentError
	if !errors.As(err, &de) {
		t.Fatalf("%v (%T)", err, err)
	}
	if pos, ok := tree.ErrorPosition(err); !ok || pos != (tree.Position{File: "p.yaml", Line: 2, Column: 11}) {
		t.Errorf("position %v", pos)
	}
	if got, want := err.Error(), "p.yaml:2:11: metadata: unknown patch type: \"merge\" in map; $patch of an object is replace or delete\n  while patching d.yaml, apps/v1 Deployment web"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestPatchFallbackDirectives: with Fallback, a strategic patch on a kind
// without a schema is applied as a JSON merge patch, and its directives
// never reach the result: a {$patch: replace} list item (the list is
// replaced anyway) is dropped; a directive a merge patch cannot honour is
// an *smp.Error naming it, with the path and the patch position, and
// nothing is written (smp/testdata/fallback/cases.yaml has every
// directive).
func TestPatchFallbackDirectives(t *testing.T) {
	widget := []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  items:\n  - name: a\n  - name: b\n")
	opts := PatchOptions{Fallback: true, DocName: "w.yaml", PatchName: "p.yaml"}
	out, err := Patch(context.Background(), widget, []byte("spec:\n  items:\n  - $patch: replace\n  - name: c\n"), opts)
	if want := "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n  items:\n  - name: c\n"; err != nil || string(out) != want {
		t.Errorf("replace item: %v\n%s\nwant\n%s", err, out, want)
	}
	for _, c := range []struct{ patch, directive, path string }{
		{"spec:\n  items:\n  - name: a\n    $patch: delete\n", "$patch: delete", "spec.items[0]"},
		// (a top-level $patch: delete needs no schema: it deletes the
		// object, as kmerge apply does; TestPatchDeletesObjects)
		{"spec:\n  $retainKeys: [items]\n", "$retainKeys", "spec"},
	} {
		out, err := Patch(context.Background(), widget, []byte(c.patch), opts)
		var se *smp.Error
		if !errors.As(err, &se) || se.Reason != smp.ReasonNoSchema || se.Directive != c.directive || se.Path.String() != c.path || out != nil {
			t.Errorf("%q: %v (%T), output %q", c.patch, err, err, out)
			continue
		}
		if pos, ok := tree.ErrorPosition(err); !ok || pos.File != "p.yaml" || pos.Line == 0 {
			t.Errorf("%q: position %v", c.patch, pos)
		}
	}
}

// TestPatchListItems: the items of a List document are the objects, as
// kubectl reads them: each gets the patch (the List does not), and an
// error in one names the item (DocumentError.Item).
func TestPatchListItems(t *testing.T) {
	list := []byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}, data: {x: \"1\"}}\n")
	out, err := Patch(context.Background(), list, []byte(`{"data":{"z":"2"}}`), PatchOptions{})
	want := "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {z: \"2\"}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}, data: {x: \"1\", z: \"2\"}}\n"
	if err != nil || string(out) != want {
		t.Errorf("%v\n%s\nwant\n%s", err, out, want)
	}
	_, err = Patch(context.Background(), list, []byte(`[{"op": "remove", "path": "/data/x"}]`), PatchOptions{Type: JSON, DocName: "l.yaml"})
	var de *DocumentError
	if !errors.As(err, &de) || de.Item != 0 || de.Object != "v1 ConfigMap a" ||
		!strings.Contains(err.Error(), "while patching l.yaml, items[0], v1 ConfigMap a") {
		t.Errorf("%v", err)
	}
	_, err = Patch(context.Background(), []byte("kind: RoleList\nitems: {a: 1}\n"), []byte(`{"a":1}`), PatchOptions{DocName: "l.yaml"})
	if err == nil || !strings.HasPrefix(err.Error(), "l.yaml:2:8: the items of a RoleList must be a list") {
		t.Errorf("items not a list: %v", err)
	}
}

// TestPatchDeletesObjects: a strategic patch whose top level is $patch:
// delete removes the objects it picks from Patch's output, as kmerge apply
// and kustomize delete the object such a patch targets (docs/kpatch.md);
// before, the object was emptied and failed validation (apiVersion, kind
// and metadata.name missing). The patch picks by the identity it names
// (kustomize reads a patch's apiVersion, kind, name and namespace as its
// target); one naming none picks every object. A List loses the items it
// picks and stays a List. Expected outputs: the input's text without the
// deleted documents and items, the rest written as it was (a document
// with the "---" line that starts it, so the first one left keeps its
// own, as kmerge apply writes it: docs/kpatch.md "Deleting").
func TestPatchDeletesObjects(t *testing.T) {
	const a = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"
	const b = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n"
	const dep = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n"
	for _, c := range []struct {
		name, doc, patch, want string
		deleted                []string
	}{
		{"the one object", dep, `{"$patch":"delete"}`, "", []string{"d.yaml:1:1: apps/v1 Deployment a"}},
		{"every object", a + "---\n" + b, `{"$patch":"delete"}`, "", []string{"d.yaml:1:1: v1 ConfigMap a", "d.yaml:5:1: v1 ConfigMap b"}},
		{"by name", a + "---\n" + b, "$patch: delete\nmetadata: {name: b}\n", a, []string{"d.yaml:5:1: v1 ConfigMap b"}},
		{"by name, the first", a + "---\n" + b, "$patch: delete\nmetadata: {name: a}\n", "---\n" + b, []string{"d.yaml:1:1: v1 ConfigMap a"}},
		{"by kind", a + "---\n" + dep, "$patch: delete\nkind: Deployment\n", a, []string{"d.yaml:5:1: apps/v1 Deployment a"}},
		{"by apiVersion and kind", a + "---\n" + dep, "$patch: delete\napiVersion: v1\nkind: Deployment\n", a + "---\n" + dep, nil},
		{"no such object", a, "$patch: delete\nmetadata: {name: zz}\n", a, nil},
		{"by namespace", a, "$patch: delete\nmetadata: {name: a, namespace: prod}\n", a, nil},
		// deleting needs no schema: a kind without one goes as well
		{"a kind without a schema", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\n" + a, "$patch: delete\nkind: Widget\n", "---\n" + a, []string{"d.yaml:1:1: example.com/v1 Widget w"}},
		{"an item of a List", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n",
			"$patch: delete\nmetadata: {name: a}\n",
			"apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n",
			[]string{"d.yaml:4:3: v1 ConfigMap a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var deleted []string
			out, err := Patch(context.Background(), []byte(c.doc), []byte(c.patch), PatchOptions{DocName: "d.yaml", PatchName: "p.yaml", Validate: validate.Strict,
				Deleted: func(pos tree.Position, object string) { deleted = append(deleted, pos.String()+object) }})
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Errorf("output:\n%s\nwant:\n%s", out, c.want)
			}
			if strings.Join(deleted, "|") != strings.Join(c.deleted, "|") {
				t.Errorf("deleted %q, want %q", deleted, c.deleted)
			}
		})
	}
	// a merge patch that is null would make the object null (RFC 7396):
	// one error at the patch, not a schema violation per document
	_, err := Patch(context.Background(), []byte(a+"---\n"+b), []byte("null\n"), PatchOptions{Type: Merge, DocName: "d.yaml", PatchName: "p.yaml"})
	if err == nil || !strings.HasPrefix(err.Error(), "p.yaml:1:1: a merge patch that is null makes each object null") {
		t.Errorf("merge patch null: %v", err)
	}
}

// TestPatchDeleteKeepsText: deleting objects with kmerge patch writes the
// documents left as their text (comments, flow style, indentation), as
// apply does; it wrote every document again by yaml.v3's rules ("    y: z"
// came out as `  "y": z`, comments moved).
func TestPatchDeleteKeepsText(t *testing.T) {
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n# b's own\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}   # flow\ndata:\n    y: z\n"
	want := "---\n# b's own\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}   # flow\ndata:\n    y: z\n"
	out, err := Patch(context.Background(), []byte(doc), []byte("$patch: delete\nmetadata: {name: a}\n"), PatchOptions{DocName: "d.yaml", Validate: validate.Strict})
	if err != nil || string(out) != want {
		t.Errorf("got %q, %v\nwant %q", out, err, want)
	}
}

// TestPatchPassesNonObjects: documents that hold no object pass through
// Patch untouched, for every type of patch (issue 25 item 5, issue 27
// item 3): a comment-only document (helm writes "---\n# Source: ..." for
// a template that renders nothing) and an empty one (a file ending with
// "---", an empty document between objects: kubectl skips both) silently;
// a scalar or an array with a warning at its line. Before, a merge patch
// made each of them an object of the patch's fields, exit 0, and a
// strategic patch failed with "the document has no kind".
func TestPatchPassesNonObjects(t *testing.T) {
	obj := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n"
	in := "---\n# Source: chart/templates/empty.yaml\n---\n" + obj + "---\n---\n- a\n- b\n---\nhello # c\n---\n"
	// the object gets the label; every other line is the input's
	want := strings.Replace(in, "  name: x\n", "  name: x\n  labels:\n    team: shop\n", 1)
	patches := map[PatchType]string{
		Strategic: `{"metadata":{"labels":{"team":"shop"}}}`,
		Merge:     `{"metadata":{"labels":{"team":"shop"}}}`,
		JSON:      `[{"op":"add","path":"/metadata/labels","value":{"team":"shop"}}]`,
	}
	for _, typ := range []PatchType{Strategic, Merge, JSON} {
		var warns []string
		out, err := Patch(context.Background(), []byte(in), []byte(patches[typ]), PatchOptions{DocName: "d.yaml", Type: typ,
			Validate: validate.Strict, Notify: func(w tree.Warning) { warns = append(warns, w.String()) }})
		if err != nil || string(out) != want {
			t.Errorf("%v: got %q, %v\nwant %q", typ, out, err, want)
		}
		wantWarns := []string{
			"d.yaml:10:1: warning: document 4 of 6 is an array, not an object: no patch applies to it, it is written as it is",
			"d.yaml:13:1: warning: document 5 of 6 is a string, not an object: no patch applies to it, it is written as it is",
		}
		if !slices.Equal(warns, wantWarns) {
			t.Errorf("%v: warnings %q, want %q", typ, warns, wantWarns)
		}
	}
}

// TestPatchParts: a long stream is patched part by part (patchParts), and
// gives what patching it whole gives: the same output, byte for byte, the
// same warnings and violations in the same order, and for a stream with an
// error, the error of the whole (issue 25 item 12: 99,000 ConfigMaps, 7 MB,
// took 1.2 GB patched whole; part by part about 90 MB).
func TestPatchParts(t *testing.T) {
	var b strings.Builder
	for i := range 4000 {
		switch i % 9 {
		case 0:
			fmt.Fprintf(&b, "---\n# Source: chart/templates/cm-%d.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d # the name\ndata:\n  k: v\n", i, i)
		case 1:
			b.WriteString("---\n# Source: chart/templates/empty.yaml\n")
		case 2:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: l%d}}\n", i)
		case 3:
			fmt.Fprintf(&b, "---\n- not an object %d\n", i)
		case 4:
			fmt.Fprintf(&b, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d%d}\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: main\n        image: i\n        ports: [{containerPort: 80}]\n", i)
		default:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c%d\n  labels: {a: b}\ndata: {k: v}\n", i)
		}
	}
	stream := []byte(b.String())
	if len(stream) < 4*patchPartBytes {
		t.Fatalf("the stream is %d bytes: too short to be cut in parts", len(stream))
	}
	type result struct {
		out          string
		err          string
		notes, warns []string
		deleted      []string
	}
	run := func(patch string, typ PatchType, thorough bool, stream []byte) result {
		var r result
		out, err := Patch(context.Background(), stream, []byte(patch), PatchOptions{DocName: "s.yaml", Type: typ, Validate: validate.Warn, Thorough: thorough,
			Notify:  func(w tree.Warning) { r.notes = append(r.notes, w.String()) },
			Warn:    func(e *validate.Error) { r.warns = append(r.warns, e.Error()) },
			Deleted: func(p tree.Position, o string) { r.deleted = append(r.deleted, p.String()+o) }})
		r.out = string(out)
		if err != nil {
			r.err = err.Error()
		}
		return r
	}
	for _, c := range []struct {
		name, patch string
		typ         PatchType
	}{
		{"merge", `{"metadata":{"labels":{"team":"shop"}},"data":{"x":"-_1"}}`, Merge},
		{"strategic with violations", `{"metadata":{"labels":{"team":"shop"}},"spec":{"replicas":"two"}}`, Strategic},
		{"json", `[{"op":"add","path":"/metadata/annotations","value":{"a":"b"}}]`, JSON},
		{"delete", "$patch: delete\nkind: Deployment\n", Strategic},
	} {
		whole, parts := run(c.patch, c.typ, true, stream), run(c.patch, c.typ, false, stream)
		if whole.err != "" && c.name != "json" {
			t.Fatalf("%s: %s", c.name, whole.err)
		}
		if !reflect.DeepEqual(whole, parts) {
			t.Errorf("%s: part by part differs from whole: output same %v, error %q / %q, %d/%d notes, %d/%d warnings, %d/%d deletions",
				c.name, whole.out == parts.out, whole.err, parts.err, len(whole.notes), len(parts.notes), len(whole.warns), len(parts.warns), len(whole.deleted), len(parts.deleted))
		}
	}
	// an error in a late part: the whole stream's error, document numbers
	// and all
	bad := append(append([]byte{}, stream...), "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: bad}\n"...)
	whole, parts := run(`{"data":{"x":"y"}}`, Strategic, true, bad), run(`{"data":{"x":"y"}}`, Strategic, false, bad)
	if whole.err == "" || !reflect.DeepEqual(whole, parts) {
		t.Errorf("an error in the last part: whole %q, parts %q", whole.err, parts.err)
	}
}

// TestPatchRefusesOtherTypes: PatchType is change.PatchType (one name
// for the type of a patch, issue 27 item 16), which also holds field
// patches; Patch applies strategic, merge and JSON patches and refuses
// the others with an error naming the type, where a type it did not know
// was applied as a strategic patch (the zero value's), which would set
// replicas here and hide the mistake.
func TestPatchRefusesOtherTypes(t *testing.T) {
	doc := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n")
	for _, typ := range []PatchType{change.FieldPatch, PatchType(9)} {
		out, err := Patch(context.Background(), doc, []byte("spec:\n  replicas: 3\n"), PatchOptions{Type: typ})
		if err == nil || !strings.Contains(err.Error(), "not a "+typ.String()+" patch") {
			t.Errorf("type %v: %q, %v; want an error naming the type", typ, out, err)
		}
	}
	if _, err := Patch(context.Background(), doc, []byte("spec:\n  replicas: 3\n"), PatchOptions{}); err != nil {
		t.Errorf("the zero value, a strategic patch: %v", err)
	}
}

// TestDiffLiveConflictsOneType: both engines that make three-way patches
// refuse one that would undo the live object's changes with one error
// type, change.LiveConflictError (issue 27 item 16: smp and mergepatch had
// a ConflictError each, with the same fields, and callers matched both).
func TestDiffLiveConflictsOneType(t *testing.T) {
	for _, tc := range []struct {
		typ                     PatchType
		applied, modified, live string
	}{
		{Strategic,
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec: {replicas: 1}\n",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec: {replicas: 2}\n",
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec: {replicas: 5}\n"},
		{Merge,
			"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n",
			"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 4}\n",
			"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 5}\n"},
	} {
		_, err := Diff(context.Background(), []byte(tc.applied), []byte(tc.modified), DiffOptions{Type: tc.typ, Current: []byte(tc.live)})
		var ce *change.LiveConflictError
		if !errors.As(err, &ce) || len(ce.Conflicts) != 1 || ce.Conflicts[0].Where() != "spec."+map[PatchType]string{Strategic: "replicas", Merge: "size"}[tc.typ] {
			t.Errorf("%v: %v, want one change.LiveConflictError at spec", tc.typ, err)
		}
	}
}
