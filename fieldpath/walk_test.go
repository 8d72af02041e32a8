package fieldpath

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/internal/nodetest"
	"github.com/kmerge/kmerge/tree"
)

const service = `
apiVersion: v1
kind: Service
metadata:
  name: dns
  finalizers: [a, "53", 53]
  labels:
    app.kubernetes.io/name: dns
spec:
  ports:
  - {name: dns-tcp, port: 53, protocol: TCP, targetPort: 5353}
  - {name: dns-udp, port: 53, protocol: UDP, targetPort: 5354}
  - {name: "53", port: 0x36, protocol: UDP}
  externalIPs: [10.0.0.1]
`

// TestValueOf: a value keeps the JSON kind of its scalar, in canonical
// form, so that values compare as an API server compares them.
func TestValueOf(t *testing.T) {
	doc := nodetest.ReadDoc(t, "[53, '53', 0x35, 1.0, 1.50, 1e3, true, null, ~, '', x]")
	var got []string
	for _, n := range doc.Content[0].Content {
		v, ok := ValueOf(n)
		if !ok {
			t.Fatalf("ValueOf(%s): not a scalar", n.Value)
		}
		got = append(got, v.Kind.String()+" "+v.String())
	}
	want := []string{"integer 53", `string "53"`, "integer 53", "number 1.0", "number 1.5", "number 1000.0",
		"boolean true", "null null", "null null", `string ""`, "string x"}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if _, ok := ValueOf(doc.Content[0]); ok {
		t.Error("a list has a value")
	}
	if !Int(53).Matches(doc.Content[0].Content[2]) || Int(53).Matches(doc.Content[0].Content[1]) {
		t.Error("Int(53) matches 0x35 and not '53'")
	}
}

// TestGet: paths lead to the values they name; names of items that are
// not there lead nowhere.
func TestGet(t *testing.T) {
	doc := nodetest.ReadDoc(t, service)
	for path, want := range map[string]string{
		"":              "<object>",
		"metadata.name": "dns",
		`metadata.labels."app.kubernetes.io/name"`: "dns",
		"spec.ports[port=53,protocol=UDP].name":    "dns-udp",
		"spec.ports[port=53].name":                 "dns-tcp", // the first that matches
		`spec.ports[name="53"].port`:               "0x36",
		"spec.ports[name=53].port":                 "",   // the integer 53 is no item's name
		"spec.ports[port=54].name":                 "53", // port 0x36
		"spec.ports[2].protocol":                   "UDP",
		"spec.ports[3]":                            "",
		"metadata.finalizers[=a]":                  "a",
		`metadata.finalizers[="53"]`:               "53",
		"metadata.finalizers[=54]":                 "",
		"spec.externalIPs[0]":                      "10.0.0.1",
		"spec.nope.x":                              "",
		"metadata.name.x":                          "",
		"metadata[0]":                              "",
	} {
		n := Get(doc, MustParse(path))
		got := ""
		switch {
		case n == nil:
		case n.Value == "":
			got = "<object>"
		default:
			got = n.Value
		}
		if got != want {
			t.Errorf("Get(%s) = %q, want %q", path, got, want)
		}
	}
}

// TestItemElement: items are named by key when the list has one and the
// item has every key field as a scalar, by value in a set, else by index.
func TestItemElement(t *testing.T) {
	doc := nodetest.ReadDoc(t, "[{name: a, port: 1}, {port: 2}, {name: {x: 1}}, s, 7]")
	items := doc.Content[0].Content
	for _, c := range []struct {
		i    int
		key  []string
		set  bool
		want string
	}{
		{0, []string{"name"}, false, "[name=a]"},
		{0, []string{"port", "name"}, false, "[port=1,name=a]"},
		{1, []string{"name"}, false, "[1]"},
		{2, []string{"name"}, false, "[2]"},
		{3, nil, true, "[=s]"},
		{4, nil, true, "[=7]"},
		{4, nil, false, "[4]"},
	} {
		if got := ItemElement(items[c.i], c.key, c.set, c.i).String(); got != c.want {
			t.Errorf("item %d by %v: %s, want %s", c.i, c.key, got, c.want)
		}
	}
}

// TestPointer: RFC 6901's syntax, and paths to pointers through an object
// (schema.TestPathOfPointer has the way back, which needs a schema).
func TestPointer(t *testing.T) {
	for ptr, want := range map[string]string{
		"": "", "/": `""`, "/a~1b": "a/b", "/m~0n": "m~n", "/a/0/b": "a 0 b", "/~01": "~1",
	} {
		toks, err := ParsePointer(ptr)
		if err != nil {
			t.Errorf("ParsePointer(%s): %v", ptr, err)
			continue
		}
		if ptr == "/" {
			toks = []string{`""`}
		}
		if got := strings.Join(toks, " "); got != want {
			t.Errorf("ParsePointer(%s) = %q, want %q", ptr, got, want)
		}
	}
	for _, bad := range []string{"a", "/a~2", "/a~"} {
		if _, err := ParsePointer(bad); err == nil {
			t.Errorf("ParsePointer(%s): no error", bad)
		}
	}
	if got := FormatPointer([]string{"a/b", "m~n", ""}); got != "/a~1b/m~0n/" {
		t.Errorf("FormatPointer = %s", got)
	}

	doc := nodetest.ReadDoc(t, service)
	// the other way: items by key become the index they have in the object
	for path, want := range map[string]string{
		"spec.ports[port=53,protocol=UDP].targetPort": "/spec/ports/1/targetPort",
		`metadata.finalizers[="53"]`:                  "/metadata/finalizers/1",
		`metadata.labels."app.kubernetes.io/name"`:    "/metadata/labels/app.kubernetes.io~1name",
		"spec.new.field":                              "/spec/new/field",
		"":                                            "",
	} {
		got, err := MustParse(path).Pointer(doc)
		if err != nil || got != want {
			t.Errorf("Pointer(%s) = %s, %v; want %s", path, got, err, want)
		}
	}
	if _, err := MustParse("spec.ports[port=99].name").Pointer(doc); err == nil {
		t.Error("a pointer to an item the object lacks")
	}
}

// TestCompare: paths sort element by element, a path before those below
// it, integers by size.
func TestCompare(t *testing.T) {
	sorted := []string{
		"", "a", "a.b", "a.b.c", "a.c", "b",
		"l[name=a]", "l[name=a].x", "l[name=b]", "l[port=9]", "l[port=10]", `l[port="10"]`,
		"l[0]", "l[2]", "l[10]", "l[=null]", "l[=false]", "l[=1]", "l[=1.5]", "l[=x]",
	}
	for i := range sorted {
		for j := range sorted {
			a, b := MustParse(sorted[i]), MustParse(sorted[j])
			got := Compare(a, b)
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", sorted[i], sorted[j], got, want)
			}
		}
	}
	p := MustParse("a.b[name=x].c")
	if !p.HasPrefix(MustParse("a.b")) || !p.Below(MustParse("a.b[name=x]")) || p.Below(p) || !p.HasPrefix(p) || p.HasPrefix(MustParse("a.c")) {
		t.Error("HasPrefix/Below")
	}
	if q := p.Parent().Append(Field("d")); q.String() != "a.b[name=x].d" || p.String() != "a.b[name=x].c" {
		t.Errorf("Append modified its path: %s, %s", p, q)
	}
}

// TestItemIndex: an ItemIndex finds the item FindItem finds (the first one
// an element names, or none), on random lists long enough to be indexed:
// objects whose key fields hold strings, integers that read alike
// ("53", 53, 0x35), floats, booleans, nulls, or nothing (a field that is
// missing is null, as for FindItem), scalars, nested lists; elements by
// key (one or two fields, in either order, a field named twice), by value
// and by index. Get through it follows the same items.
func TestItemIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 21))
	scalars := []string{"a", "b", "'53'", "53", "0x35", "1.0", "1", "true", "null", "''"}
	found := map[ElementKind]int{}
	for round := range 200 {
		var b strings.Builder
		b.WriteString("l:\n")
		n := itemIndexMin + r.IntN(40)
		for range n {
			switch r.IntN(6) {
			case 0:
				fmt.Fprintf(&b, "- %s\n", scalars[r.IntN(len(scalars))])
			case 1:
				b.WriteString("- [x]\n")
			default:
				b.WriteString("- {")
				for _, f := range []string{"name", "port", "protocol"} {
					if r.IntN(4) > 0 {
						fmt.Fprintf(&b, "%s: %s, ", f, scalars[r.IntN(len(scalars))])
					}
				}
				b.WriteString("v: {w: 1}}\n")
			}
		}
		doc := nodetest.ReadDoc(t, b.String())
		list := doc.Content[0].Content[1]
		value := func() Value {
			v, _ := ValueOf(nodetest.ReadDoc(t, scalars[r.IntN(len(scalars))]).Content[0])
			if v.Kind == tree.Null && r.IntN(2) == 0 {
				v.Text = "" // the zero Value's spelling of null
			}
			return v
		}
		ix := &ItemIndex{}
		for range 100 {
			var e Element
			switch r.IntN(5) {
			case 0:
				e = Index(r.IntN(n + 2))
			case 1:
				e = Member(value())
			default:
				fields := []string{"name", "port", "protocol"}
				r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
				var kfs []KeyField
				for _, f := range fields[:1+r.IntN(2)] {
					kfs = append(kfs, KeyField{Name: f, Value: value()})
				}
				if r.IntN(10) == 0 {
					kfs = append(kfs, KeyField{Name: kfs[0].Name, Value: value()})
				}
				e = Key(kfs...)
			}
			got, want := ix.FindItem(list, e), FindItem(list, e)
			if got != want {
				t.Fatalf("round %d: %s in\n%s: index %d, scan %d", round, e, b.String(), got, want)
			}
			if got >= 0 {
				found[e.Kind]++
			}
			p := Path{Field("l"), e, Field("v")}
			if got, want := ix.Get(doc, p), Get(doc, p); got != want {
				t.Fatalf("round %d: Get %s: %v, want %v", round, p, got, want)
			}
		}
	}
	if found[KeyElement] < 2000 || found[MemberElement] < 500 {
		t.Errorf("few items found: %v", found)
	}
}
