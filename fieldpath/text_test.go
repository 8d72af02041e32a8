package fieldpath

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/tree"
)

func key(pairs ...any) Element {
	var fs []KeyField
	for i := 0; i+1 < len(pairs); i += 2 {
		var v Value
		switch x := pairs[i+1].(type) {
		case string:
			v = String(x)
		case int:
			v = Int(int64(x))
		case Value:
			v = x
		}
		fs = append(fs, KeyField{Name: pairs[i].(string), Value: v})
	}
	return Key(fs...)
}

// TestString: each path and the text the package documentation says it
// has. The expectations follow from the quoting rule, case by case.
func TestString(t *testing.T) {
	for _, c := range []struct {
		p    Path
		want string
	}{
		{nil, ""},
		{Path{Field("spec")}, "spec"},
		{Path{Field("spec"), Field("replicas")}, "spec.replicas"},
		// the example: two fields of the key, an integer and a string
		{Path{Field("spec"), Field("ports"), key("port", 53, "protocol", "UDP"), Field("targetPort")}, "spec.ports[port=53,protocol=UDP].targetPort"},
		// a string that reads as a number is quoted; so is the empty string
		{Path{Field("l"), key("name", "53")}, `l[name="53"]`},
		{Path{Field("l"), key("name", "")}, `l[name=""]`},
		// a value with a space or a dot is quoted; so is a label key with dots
		{Path{Field("l"), key("name", "my app")}, `l[name="my app"]`},
		{Path{Field("metadata"), Field("labels"), Field("app.kubernetes.io/name")}, `metadata.labels."app.kubernetes.io/name"`},
		// a slash alone needs no quotes
		{Path{Field("metadata"), Field("annotations"), Field("a/b")}, `metadata.annotations.a/b`},
		// field names that read as other types, or are empty, are quoted
		{Path{Field("data"), Field("1")}, `data."1"`},
		{Path{Field("data"), Field("true")}, `data."true"`},
		{Path{Field("data"), Field("null")}, `data."null"`},
		{Path{Field("data"), Field("~")}, `data."~"`},
		{Path{Field("")}, `""`},
		{Path{Field("data"), Field("-x")}, `data."-x"`},
		{Path{Field("a:b")}, `"a:b"`},
		{Path{Field("a#b")}, `"a#b"`},
		{Path{Field("tab\there")}, `"tab\there"`},
		{Path{Field("quote\"d")}, `"quote\"d"`},
		// non-ASCII letters are printable
		{Path{Field("café")}, "café"},
		// indexes, members
		{Path{Field("args"), Index(0)}, "args[0]"},
		{Path{Field("m"), Field("finalizers"), Member(String("kubernetes"))}, "m.finalizers[=kubernetes]"},
		{Path{Field("s"), Member(Int(3))}, "s[=3]"},
		{Path{Field("s"), Member(String("3"))}, `s[="3"]`},
		{Path{Index(2), Field("a")}, "[2].a"},
		{Path{Field("l"), Index(1), Index(0)}, "l[1][0]"},
		// other kinds of values
		{Path{Field("l"), key("on", Value{Kind: tree.Bool, Text: "true"})}, "l[on=true]"},
		{Path{Field("l"), key("x", Value{Kind: tree.Null, Text: "null"})}, "l[x=null]"},
		{Path{Field("l"), key("x", Value{Kind: tree.Float, Text: "1.5"})}, "l[x=1.5]"},
		{Path{Field("l"), key("x", String("1.5"))}, `l[x="1.5"]`},
		{Path{Field("l"), key("x", Int(-1))}, "l[x=-1]"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%#v: got %s, want %s", c.p, got, c.want)
		}
		back, err := Parse(c.want)
		if err != nil {
			t.Errorf("Parse(%s): %v", c.want, err)
			continue
		}
		if !back.Equal(c.p) {
			t.Errorf("Parse(%s) = %#v, want %#v", c.want, back, c.p)
		}
	}
}

// TestParse: text that is not written by String but means a path (quotes
// where none are needed, values YAML reads as numbers), and text that is
// not a path.
func TestParse(t *testing.T) {
	for text, want := range map[string]string{
		`"spec".replicas`:     "spec.replicas",
		`l[name="a"]`:         "l[name=a]",
		`l["name"=a]`:         "l[name=a]",
		`l[port=0x35]`:        "l[port=53]",  // YAML reads 0x35 as 53
		`l[x=1.50]`:           "l[x=1.5]",    // and 1.50 as 1.5
		`l[x=1e3]`:            "l[x=1000.0]", // a float, not an integer
		`l[x=True]`:           "l[x=true]",   // YAML 1.2's core spellings
		`l[x=~]`:              "l[x=null]",   //
		`l[x=.inf]`:           "l[x=.inf]",   //
		`s[=07]`:              "s[=7]",       //
		"data.\"\\u00e9\"":    "data.é",      // Go escapes
		`l[a=1,b="x y",c=-2]`: `l[a=1,b="x y",c=-2]`,
	} {
		p, err := Parse(text)
		if err != nil {
			t.Errorf("Parse(%s): %v", text, err)
			continue
		}
		if p.String() != want {
			t.Errorf("Parse(%s) = %s, want %s", text, p, want)
		}
	}
	for text, msg := range map[string]string{
		"a..b":                    "at byte 2: expected a field name",
		"a.":                      "at byte 2: expected a field name",
		".a":                      "at byte 0: expected a field name",
		"a b":                     `at byte 1: expected . or [ after a, found ' '`,
		"a[":                      "at byte 1: unclosed [",
		"a[name=x":                "at byte 1: unclosed [",
		"a[name]":                 "at byte 6: expected = after key field name",
		"a[name=]":                `at byte 7: expected a value (write "" for the empty string)`,
		"a[01]":                   "at byte 2: bad index 01",
		"a[1x]":                   "at byte 4: expected = after key field 1x",
		"a[x=1 ]":                 "at byte 5: expected ] to close the item, found ' '",
		"a[-1]":                   "at byte 2: key field name -1 must be quoted",
		`a["x]`:                   "at byte 2: unterminated quoted string",
		`"a\q"`:                   `at byte 0: bad quoted string "a\q"`,
		"1.a":                     `at byte 0: field name 1 must be quoted: "1"`,
		"a[x=-y]":                 `at byte 4: value -y must be quoted: "-y"`,
		"a[x=a.b]":                `at byte 4: value a.b must be quoted: "a.b"`,
		"a[99999999999999999999]": "at byte 2: bad index 99999999999999999999",
		"a]":                      `at byte 1: expected . or [ after a, found ']'`,
	} {
		_, err := Parse(text)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Parse(%s): error %v, want one with %q", text, err, msg)
		}
	}
}

// TestQuote: the one quoting rule.
func TestQuote(t *testing.T) {
	for s, want := range map[string]string{
		"web": "web", "app.kubernetes.io/name": `"app.kubernetes.io/name"`, "": `""`,
		"53": `"53"`, "0x35": `"0x35"`, "1e3": `"1e3"`, "true": `"true"`, "False": `"False"`,
		"null": `"null"`, "~": `"~"`, "yes": "yes", "on": "on", // YAML 1.2: strings
		"a=b": `"a=b"`, "a,b": `"a,b"`, "[x]": `"[x]"`, "it's": `"it's"`, `a\b`: `"a\\b"`,
		" x": `" x"`, "x\n": `"x\n"`, "+x": `"+x"`, "-": `"-"`, "x-y": "x-y", "$patch": "$patch",
		"a/b": "a/b", "*": "*", "\u00a0": `"\u00a0"`, "\xff": `"\xff"`,
	} {
		if got := Quote(s); got != want {
			t.Errorf("Quote(%q) = %s, want %s", s, got, want)
		}
	}
}

// randomPath builds a path from r: names and values drawn from a small
// alphabet rich in characters the text form must quote.
func randomPath(r *rand.Rand) Path {
	const alphabet = "ab.[]\"'=,\\:# -+09é\t\x00/~"
	str := func() string {
		n := r.IntN(4)
		var b strings.Builder
		for range n {
			rs := []rune(alphabet)
			b.WriteRune(rs[r.IntN(len(rs))])
		}
		if r.IntN(8) == 0 {
			return []string{"53", "true", "null", "1.5", "-1", "~", "0x1"}[r.IntN(7)]
		}
		return b.String()
	}
	value := func() Value {
		switch r.IntN(6) {
		case 0:
			return Int(r.Int64N(2000) - 1000)
		case 1:
			return Value{Kind: tree.Bool, Text: []string{"true", "false"}[r.IntN(2)]}
		case 2:
			return Value{Kind: tree.Null, Text: "null"}
		case 3:
			return Value{Kind: tree.Float, Text: formatFloat(r.NormFloat64() * 1e3)}
		}
		return String(str())
	}
	n := r.IntN(6)
	p := make(Path, 0, n)
	for range n {
		switch r.IntN(4) {
		case 0:
			p = append(p, Index(r.IntN(20)))
		case 1:
			p = append(p, Member(value()))
		case 2:
			var fs []KeyField
			for range 1 + r.IntN(3) {
				fs = append(fs, KeyField{Name: str(), Value: value()})
			}
			p = append(p, Key(fs...))
		default:
			p = append(p, Field(str()))
		}
	}
	return p
}

// TestRoundTrip: Parse(p.String()) is p, for random paths.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		p := randomPath(r)
		s := p.String()
		back, err := Parse(s)
		if err != nil {
			t.Fatalf("%#v: Parse(%s): %v", p, s, err)
		}
		if !back.Equal(p) || back.String() != s {
			t.Fatalf("%#v: Parse(%s) = %#v", p, s, back)
		}
	}
}

// FuzzParse: whatever Parse accepts prints as text that parses back to the
// same path, and printing is then stable.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "spec.ports[port=53,protocol=UDP].targetPort", `l[name="53"]`, `m."a.b"[=x][0]`,
		`[2].a`, `a[x=1.5,y=true,z=null]`, `"\u00e9"`, `a[x=.inf]`, `a[=-1]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		text := p.String()
		back, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) = %#v, whose text %q does not parse: %v", s, p, text, err)
		}
		if !back.Equal(p) || back.String() != text {
			t.Fatalf("Parse(%q) = %#v; its text %q parses as %#v", s, p, text, back)
		}
	})
}
