package fastyaml

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"
	"os"
	"strconv"
	"testing"
)

func TestZZOne(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	in, _ := strconv.Unquote(`"` + os.Getenv("IN") + `"`)
	got, err := Parse([]byte(in), 0)
	if err != nil {
		t.Fatal(err)
	}
	want, werr := decodeV3([]byte(in))
	if werr != nil {
		t.Fatal("yaml.v3:", werr)
	}
	if d := diffDocs(got, want); d != "" {
		t.Fatal(d)
	}
}

func TestZZShow(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	in, _ := strconv.Unquote(`"` + os.Getenv("IN") + `"`)
	got, err := parse([]byte(in), 0, true)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := decodeV3([]byte(in))
	var dump func(n *yaml.Node, ind string) string
	dump = func(n *yaml.Node, ind string) string {
		s := fmt.Sprintf("%s%d %d:%d %q H=%q L=%q F=%q\n", ind, n.Kind, n.Line, n.Column, n.Value, n.HeadComment, n.LineComment, n.FootComment)
		for _, c := range n.Content {
			s += dump(c, ind+"  ")
		}
		return s
	}
	for i := range got {
		t.Logf("got:\n%s", dump(got[i], ""))
		if i < len(want) {
			t.Logf("want:\n%s", dump(want[i], ""))
		}
	}
}
