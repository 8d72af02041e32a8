package change

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

// TestString: how changes read in conflicts and tests.
func TestString(t *testing.T) {
	list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{tree.NewString("type")}}
	for _, c := range []struct {
		c    Change
		want string
	}{
		{Change{Path: fieldpath.MustParse("spec.replicas"), Op: Set, Value: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "3"}}, "sets spec.replicas to 3"},
		{Change{Path: fieldpath.MustParse("l[name=a]"), Op: Delete}, "deletes l[name=a]"},
		{Change{Path: nil, Op: Merge}, "merges into the object"},
		{Change{Path: fieldpath.MustParse("s"), Op: Retain, Value: list}, `keeps only the fields $retainKeys lists of s (["type"])`},
		{Change{Path: fieldpath.MustParse("l"), Op: Order}, "orders l"},
		{Change{Path: fieldpath.MustParse("l"), Op: Order, Value: list}, `orders l by ["type"]`},
		{Change{Path: fieldpath.MustParse("a.b"), Op: Exists}, "needs a.b to exist"},
		{Change{Path: fieldpath.MustParse("a"), Op: Test, Value: tree.NewString("x")}, "tests a is x"},
	} {
		if got := c.c.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
	long := tree.NewSeq()
	for range 40 {
		long.Content = append(long.Content, tree.NewString("é"))
	}
	if s := Show(long); len(s) > maxShown+3 || !strings.HasSuffix(s, "...") {
		t.Errorf("Show cuts long values at %d bytes: %q", maxShown, s)
	}
}

// TestLog: Record copies the path (a stack its caller goes on editing) and
// takes the position of the node; a nil Log records nothing.
func TestLog(t *testing.T) {
	var nilLog *Log
	nilLog.Record(Set, fieldpath.MustParse("a"), nil, "p", nil)
	nilLog.Add(Change{})

	l := &Log{}
	stack := fieldpath.Path{fieldpath.Field("a"), fieldpath.Field("b")}
	l.Record(Delete, stack, nil, "p.yaml", &yaml.Node{Line: 3, Column: 7})
	stack[1] = fieldpath.Field("c")
	if got, want := l.String(), "p.yaml:3:7: deletes a.b\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
