package gotypes

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

type node struct {
	Name     string            `json:"name"`
	Children []node            `json:"children" patchStrategy:"merge" patchMergeKey:"name"`
	Parent   *node             `json:"parent,omitempty"`
	Labels   map[string]string `json:"labels"`
	Raw      []byte            `json:"raw"`
	Any      any               `json:"any"`
	Count    int32             `json:"count"`
}

// The text form is read back into the same description.
func TestTextRoundTrip(t *testing.T) {
	g := NewReflector(nil).Describe(reflect.TypeFor[node]())
	kinds := map[APIKind]*Type{{"example.com/v1", "Node"}: g}
	var first bytes.Buffer
	if err := WriteText(&first, "header", kinds, map[APIKind]Names{{"example.com/v1", "Node"}: {Plural: "nodes", ShortNames: []string{"nd"}}}); err != nil {
		t.Fatal(err)
	}
	back, names, err := ReadText(first.String())
	if err != nil {
		t.Fatal(err)
	}
	var second bytes.Buffer
	if err := WriteText(&second, "header", back, names); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Fatalf("round trip changed the text:\n%s\n%s", first.String(), second.String())
	}
	n := back[APIKind{"example.com/v1", "Node"}]
	if n.Fields[1].Type.Elem != n || n.Fields[2].Type.Elem != n {
		t.Fatal("recursive references are not shared")
	}
	want := "\tchildren []com.github.kmerge.kmerge.internal.gotypes.node patch=merge key=name\n"
	if !bytes.Contains(first.Bytes(), []byte(want)) {
		t.Fatalf("text lacks %q:\n%s", want, first.String())
	}
}

func TestReadTextErrors(t *testing.T) {
	for _, in := range []string{
		"\tfield string\n",
		"struct a\n\tf nosuchtype\n",
		"kind v1 X missing\n",
		"struct a\nstruct a\n",
		"struct a\n\tf string bogus=1\n",
	} {
		if _, _, err := ReadText(in); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

// The server-side apply attributes (an atomic struct, an atomic map field,
// a key field's default) are read back as written.
func TestTextServerSideApply(t *testing.T) {
	text := "kind v1 X a\nstruct a atomic\n\tm map[string]string map=atomic\n\tp []b list=map mapkeys=port,protocol\nstruct b\n\tport integer:int32 default=0\n\tprotocol string default=\"TCP\"\n"
	kinds, _, err := ReadText(text)
	if err != nil {
		t.Fatal(err)
	}
	a := kinds[APIKind{"v1", "X"}]
	if !a.Atomic || a.Fields[0].MapType != "atomic" || a.Fields[1].Type.Elem.Atomic {
		t.Fatalf("atomic struct or map not read: %+v", a)
	}
	if b := a.Fields[1].Type.Elem; b.Fields[0].Default != "0" || b.Fields[1].Default != `"TCP"` {
		t.Fatalf("defaults not read: %+v", b.Fields)
	}
	var out bytes.Buffer
	if err := WriteText(&out, "", kinds, nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.SplitN(out.String(), "\n", 2)[1]; got != text {
		t.Fatalf("written back as\n%s\nwant\n%s", got, text)
	}
	b := a.Fields[1].Type.Elem
	b.Fields[1].Default = `"T P"`
	if err := WriteText(&out, "", kinds, nil); err == nil {
		t.Fatal("a default with a blank was written")
	}
}
