package fastyaml

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// The outcomes of reading one input with Parse and with yaml.v3's Decoder.
const (
	bothEqual   = "equal"         // both read it, into the same trees
	bothRefuse  = "refused"       // both refuse it
	refusedOnly = "refuses"       // Parse refuses what yaml.v3 reads: a deliberate refusal (OnPurpose)
	readOnly    = "reads"         // Parse reads what yaml.v3 refuses: a deliberate reading (readings)
	treesDiffer = "differ"        // both read it, into other trees: a bug
	placed      = "placed"        // both read it, into trees that differ in which nodes hold which comments only
	wrongRefuse = "WRONG-refuses" // Parse refuses what yaml.v3 reads, for no documented reason: a bug
	wrongRead   = "WRONG-reads"   // Parse reads what yaml.v3 refuses, for no documented reason: a bug
	bad         = "BAD"           // Parse panicked, or gave an error without a position
)

// readings say whether an input yaml.v3 refuses is one kmerge reads on
// purpose: YAML 1.2 that yaml.v3 refuses (an escaped slash), a %YAML
// directive of a later 1.x than 1.2 (read as 1.2, with a warning from
// package tree).
func reading(in string) bool {
	return escapedSlash.MatchString(in) || laterVersion.MatchString(in)
}

var (
	escapedSlash = regexp.MustCompile(`\\/`)
	laterVersion = regexp.MustCompile(`(?m)^%YAML[ \t]+0?1\.0?([3-9]|[1-9][0-9])([ \t]|$)`)
)

// outcome reads in with Parse (dropping the comments yaml.v3 drops, so
// that the rest of the trees can be compared) and with yaml.v3, and says
// how they compare, with what differs.
func outcome(in string) (string, string) {
	got, _, err := parse([]byte(in), 0, true, false)
	want, werr := decodeV3([]byte(in))
	if err != nil {
		var e *Error
		var td *TooDeep
		switch {
		case errors.As(err, &td):
		case !errors.As(err, &e) || strings.HasPrefix(e.Msg, internalError) || e.Line < 1 || e.Column < 1:
			return bad, err.Error()
		}
		if werr != nil {
			return bothRefuse, ""
		}
		if OnPurpose(e.Msg) {
			return refusedOnly, err.Error()
		}
		return wrongRefuse, err.Error()
	}
	if werr != nil {
		if reading(in) {
			return readOnly, werr.Error()
		}
		return wrongRead, werr.Error()
	}
	if d := diffDocs(got, want); d != "" {
		kept, _ := Parse([]byte(in), 0) // every comment, none dropped
		if commentsOnly(kept, want) {
			return placed, d
		}
		return treesDiffer, d
	}
	return bothEqual, ""
}

// commentsOnly reports whether two lists of documents differ only in which
// nodes hold which comments, got holding every comment line want holds.
func commentsOnly(got, want []*yaml.Node) bool {
	g, w := commentLines(got), commentLines(want)
	for l, n := range w {
		if g[l] < n {
			return false
		}
	}
	got, want = stripped(got), stripped(want)
	return diffDocs(got, want) == ""
}

// stripped returns copies of documents without comments.
func stripped(docs []*yaml.Node) []*yaml.Node {
	var copyNode func(n *yaml.Node, seen map[*yaml.Node]*yaml.Node) *yaml.Node
	copyNode = func(n *yaml.Node, seen map[*yaml.Node]*yaml.Node) *yaml.Node {
		if n == nil {
			return nil
		}
		if c, ok := seen[n]; ok {
			return c
		}
		c := *n
		seen[n] = &c
		c.HeadComment, c.LineComment, c.FootComment = "", "", ""
		c.Content = nil
		for _, k := range n.Content {
			c.Content = append(c.Content, copyNode(k, seen))
		}
		if n.Content != nil && c.Content == nil {
			c.Content = []*yaml.Node{}
		}
		c.Alias = copyNode(n.Alias, seen)
		return &c
	}
	seen := map[*yaml.Node]*yaml.Node{}
	var out []*yaml.Node
	for _, d := range docs {
		out = append(out, copyNode(d, seen))
	}
	return out
}

// commentLines counts the lines of the comments of documents.
func commentLines(docs []*yaml.Node) map[string]int {
	m := map[string]int{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, l := range strings.Split(c, "\n") {
				if l != "" {
					m[l]++
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, d := range docs {
		walk(d)
	}
	return m
}

// mustMatch fails the test unless Parse reads in as yaml.v3 does, or
// refuses or reads it on purpose; it returns the outcome.
func mustMatch(t *testing.T, name, in string) string {
	t.Helper()
	o, d := outcome(in)
	switch o {
	case bothEqual, bothRefuse, refusedOnly, readOnly:
	default:
		t.Errorf("%s: %s: %s\n%q", name, o, d, in)
	}
	return o
}
