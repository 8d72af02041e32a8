package secret

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/tree"
)

func node(t *testing.T, text string) *yaml.Node {
	t.Helper()
	if text == "" {
		return nil
	}
	st, err := tree.Read([]byte(text), tree.Options{File: "t.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	return tree.Root(st.Docs[0])
}

func show(t *testing.T, n *yaml.Node) string {
	t.Helper()
	if n == nil {
		return "(absent)"
	}
	b, err := tree.MarshalJSON(n)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRule: which objects hold secret values, and which places of them
// are or hold some. The rule is the issue's: a v1 Secret's data and
// stringData; the apiVersion must be v1 exactly (no other group has a
// Secret kmerge knows), the kind Secret exactly.
func TestRule(t *testing.T) {
	for _, c := range []struct {
		apiVersion, kind string
		want             bool
	}{
		{"v1", "Secret", true},
		{"v1", "ConfigMap", false},
		{"v1", "SecretList", false}, // a List: its items are objects, each judged alone
		{"v1beta1", "Secret", false},
		{"example.com/v1", "Secret", false},
		{"v1", "secret", false},
	} {
		if got := Holds(c.apiVersion, c.kind); got != c.want {
			t.Errorf("Holds(%q, %q) = %v, want %v", c.apiVersion, c.kind, got, c.want)
		}
	}
	for _, c := range []struct {
		path string
		want bool
	}{
		{"", true}, // the object holds data and stringData
		{"data", true},
		{"stringData", true},
		{"data.password", true},
		{`stringData."a.b"`, true},
		{"metadata", false},
		{"metadata.annotations.data", false},
		{"type", false},
		{"immutable", false},
	} {
		var p fieldpath.Path
		if c.path != "" {
			p = fieldpath.MustParse(c.path)
		}
		if got := Touches(p); got != c.want {
			t.Errorf("Touches(%q) = %v, want %v", c.path, got, c.want)
		}
	}
	for _, c := range []struct {
		ptr  string
		want bool
	}{
		{"", true},
		{"/data/password", true},
		{"/stringData", true},
		{"/metadata/name", false},
		{"no-slash", true}, // not a pointer: the whole object, to be safe
	} {
		if got := Touches(AtPointer(c.ptr)); got != c.want {
			t.Errorf("Touches(AtPointer(%q)) = %v, want %v", c.ptr, got, c.want)
		}
	}
	if !Object(node(t, "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n")) ||
		Object(node(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: s}\n")) || Object(node(t, "[1]")) || Object(nil) {
		t.Error("Object does not tell a v1 Secret from other documents")
	}
}

// TestMask: what Value and Pair show of values of a Secret, at a path.
// Every expected text is written from the rule: scalars at or below data
// and stringData become "***", keys stay, null stays (it holds nothing),
// the rest of the object is untouched; beside the other side's value of
// the same place, a scalar that differs is "*** (before)" on the old side
// and "*** (after)" on the new one, one that is equal or has no
// counterpart (added, removed) is "***".
func TestMask(t *testing.T) {
	for _, c := range []struct {
		about    string
		path     string
		old, new string // YAML; "" absent
		// what Pair shows; wantOld is also what Value shows of old
		// alone, with the marks taken off
		wantOld, wantNew string
	}{
		{"a changed value", "data.password", "aHVudGVyMg==", "bjN3cGFzcw==",
			`"*** (before)"`, `"*** (after)"`},
		{"an unchanged value", "stringData.token", "hunter2", "hunter2",
			`"***"`, `"***"`},
		{"an added value", "stringData.token", "", "hunter2",
			`(absent)`, `"***"`},
		{"a deleted value", "stringData.token", "hunter2", "",
			`"***"`, `(absent)`},
		{"a number, a boolean: secret values too", "stringData", "{a: 1, b: true}", "{a: 2, b: true}",
			`{"a":"*** (before)","b":"***"}`, `{"a":"*** (after)","b":"***"}`},
		{"null holds nothing", "stringData", "{a: null}", "{a: x}",
			`{"a":null}`, `{"a":"***"}`},
		{"the map as a whole, keys kept", "data", "{u: YQ==, p: Yg==}", "{u: YQ==, p: Yw==, n: ZA==}",
			`{"u":"***","p":"*** (before)"}`, `{"u":"***","p":"*** (after)","n":"***"}`},
		{"a list where strings belong: its items", "stringData.users", "[{name: a}]", "[{name: b}]",
			`[{"name":"*** (before)"}]`, `[{"name":"*** (after)"}]`},
		{"the whole object: data and stringData only", "",
			"{apiVersion: v1, kind: Secret, metadata: {name: s}, type: Opaque, data: {p: YQ==}, stringData: {t: x}}",
			"{apiVersion: v1, kind: Secret, metadata: {name: s}, type: Opaque, data: {p: Yg==}, stringData: {t: x}}",
			`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"type":"Opaque","data":{"p":"*** (before)"},"stringData":{"t":"***"}}`,
			`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"type":"Opaque","data":{"p":"*** (after)"},"stringData":{"t":"***"}}`},
		{"not a secret place: shown as it is", "metadata.name", "a", "b", `"a"`, `"b"`},
		{"a scalar where the map belongs: masked", "data", "oops", "oops", `"***"`, `"***"`},
		{"data null: nothing", "data", "null", "{a: x}", `null`, `{"a":"***"}`},
	} {
		var p fieldpath.Path
		if c.path != "" {
			p = fieldpath.MustParse(c.path)
		}
		old, new := node(t, c.old), node(t, c.new)
		oldText, newText := show(t, old), show(t, new)
		mo, mn := Pair(old, new, p)
		if got := show(t, mo); got != c.wantOld {
			t.Errorf("%s: Pair: old shows as %s, want %s", c.about, got, c.wantOld)
		}
		if got := show(t, mn); got != c.wantNew {
			t.Errorf("%s: Pair: new shows as %s, want %s", c.about, got, c.wantNew)
		}
		wantAlone := c.wantOld
		for _, mark := range []string{Before, After} {
			wantAlone = strings.ReplaceAll(wantAlone, mark, Mask)
		}
		if got := show(t, Value(old, p)); got != wantAlone {
			t.Errorf("%s: Value shows %s, want %s", c.about, got, wantAlone)
		}
		if show(t, old) != oldText || show(t, new) != newText {
			t.Errorf("%s: masking changed the values it was given", c.about)
		}
	}
}

// TestLine: a quoted line keeps everything up to the key the error points
// at and its separator, and masks the rest: YAML and JSON (": "), .kpatch
// assignments (": " or " = "), flow mappings (the first key's value on).
func TestLine(t *testing.T) {
	for _, c := range []struct {
		line string
		col  int
		want string
	}{
		{"  password: hunter2", 3, "  password: ***"},
		{"  password: hunter2  # the old one", 3, "  password: ***"},
		{`    "password": "hunter2",`, 5, `    "password": ***`},
		{"data.password: aHVudGVyMg==", 1, "data.password: ***"},
		{"data.password = aHVudGVyMg==", 1, "data.password = ***"},
		{"stringData.url: http://x:y@host", 1, "stringData.url: ***"}, // the first ": " is the key's
		{"  - {op: test, path: /data/password, value: eHh4}", 5, "  - {op: ***"},
		{"  token: |", 3, "  token: ***"},
		{"hunter2", 1, "***"}, // no key: all of it from the column
		{"  ключ: секрет", 3, "  ключ: ***"},
		{"a: b", 0, "a: ***"},
		// the column inside a value: what precedes it may be secret too
		// (a flow mapping's earlier entries, the text before a variable),
		// so all after the line's first key is masked; these showed
		// c2VjcmV0LWE=, s3cret- and PSECRET3
		{`    patch: {data: {a: c2VjcmV0LWE=, token: "bad!"}}`, 35, "    patch: ***"},
		{"stringData.password: s3cret-${values.missing}", 29, "stringData.password: ***"},
		{`{"stringData":{"password":"PSECRET3","$patch":"bogus"}}`, 47, `{"stringData": ***`},
		// JSON's separator has no space after it
		{`[{"op":"add","path":"/stringData/x","value":"eHh4"}]`, 2, `[{"op": ***`},
		// the column at the value of the line's one key: as before
		{"  password: hunter2", 13, "  password: ***"},
	} {
		if got := Line(c.line, c.col); got != c.want {
			t.Errorf("Line(%q, %d) = %q, want %q", c.line, c.col, got, c.want)
		}
	}
}
