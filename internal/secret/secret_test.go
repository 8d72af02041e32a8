package secret

import (
	"errors"
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

// valuesOf gathers the values of an object given as YAML.
func valuesOf(t *testing.T, text string) *Values {
	t.Helper()
	v := &Values{}
	v.Observe(node(t, text))
	return v
}

// TestValuesText: where a text masks an object's secret values (the rule
// of Values): a value of MinAlone (8) bytes or more wherever it stands
// alone, a shorter one, or one that is also a key, only where quoted, one
// the object holds outside data and stringData too wherever it stands
// alone; each in its escaped forms, its lines, its base64 forms; a value
// cut short by "..." or "…". Each expected text is written from the rule.
func TestValuesText(t *testing.T) {
	secret := `{apiVersion: v1, kind: Secret, metadata: {name: db},
  data: {q: czNjcjN0LWRhdGEtdmFsdWU=, u: YWRtaW4=},
  stringData: {p: HUNTER2J-long, s: zq, password: password, cert: "line-one-of-it\nline-two-of-it\n", quote: "say \"hi\" 'there' friend"}}`
	v := valuesOf(t, secret)
	for _, c := range []struct{ in, want string }{
		{`stringData.p is the string "HUNTER2J-long", not a list`, `stringData.p is the string "***", not a list`},
		{`-> HUNTER2J-long`, `-> ***`},
		{`{"p":"HUNTER2J-long","s":"zq"}`, `{"p":"***","s":"***"}`},
		{`xHUNTER2J-long`, `xHUNTER2J-long`},                       // part of a longer word: not this value
		{`HUNTER2J-long-credentials`, `HUNTER2J-long-credentials`}, // a name holding it: '-' continues it
		{`HUNTER2J-long.txt`, `***.txt`},
		{`the string zq, the string "zq", 'zq', \"zq\", ` + "`zq`", `the string zq, the string "***", '***', \"***\", ` + "`***`"}, // short: only quoted
		{`admin is "admin"`, `admin is "***"`},                                    // data.u decoded: short
		{`data: czNjcjN0LWRhdGEtdmFsdWU= (s3cr3t-data-value)`, `data: *** (***)`}, // base64 and decoded
		{`encoded SFVOVEVSMkotbG9uZw==`, `encoded ***`},                           // stringData's base64
		{`stringData.password is "password"`, `stringData.password is "***"`},     // a key too: quoted only
		{`"line-one-of-it\nline-two-of-it\n"`, `"***"`},                           // JSON-escaped whole
		{`  line-two-of-it`, `  ***`},                                             // a line of it (a diff's)
		{`"say \"hi\" 'there' friend"`, `"***"`},                                  // escaped quotes
		{`'say "hi" ''there'' friend'`, `'***'`},                                  // YAML single-quoted
		{`{"p":"HUNTER2J-lo...`, `{"p":"***...`},                                  // cut, from a quote
		{`p: HUNTER2J-…`, `p: ***…`},                                              // cut, standing alone, MinAlone bytes or more
		{`p: HUNT...`, `p: HUNT...`},                                              // cut short of MinAlone, bare: kept
		{`nothing secret here`, `nothing secret here`},
	} {
		if got := v.Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// the short value zq copied into a label: standing alone, it is
	// masked everywhere then (the object's name, a path show it bare)
	moved := valuesOf(t, `{apiVersion: v1, kind: Secret, metadata: {name: zq}, stringData: {s: zq, v: v1}}`)
	if got, want := moved.Text(`v1 Secret zq: stringData.s: zq -> zqx`), `v1 Secret ***: stringData.s: *** -> zqx`; got != want {
		t.Errorf("a short value held outside stringData: %q, want %q", got, want)
	}
	// a value equal to the apiVersion or kind is not taken for one moved
	if got, want := moved.Text(`v1 Secret`), `v1 Secret`; got != want {
		t.Errorf("a value equal to the apiVersion: %q, want %q", got, want)
	}
	// not a Secret, nil, and a Secret without values: nothing masked
	for _, v := range []*Values{valuesOf(t, `{apiVersion: v1, kind: ConfigMap, data: {a: HUNTER2J-long}}`), nil, valuesOf(t, `{apiVersion: v1, kind: Secret}`)} {
		if got := v.Text("HUNTER2J-long"); got != "HUNTER2J-long" {
			t.Errorf("%+v masks %q", v, got)
		}
	}
}

// TestValuesStates: an object's values are secret once one of its states
// is a Secret (or Mark says it was picked as one), from then on in every
// state observed; a value a patch gives data or stringData (Add,
// AddPatch, AddText) is gathered once the object is secret.
func TestValuesStates(t *testing.T) {
	v := &Values{}
	v.Observe(node(t, `{apiVersion: v1, kind: ConfigMap, data: {a: config-value-1}}`))
	if v.On() || v.Text("config-value-1") != "config-value-1" {
		t.Error("a ConfigMap's values are secret")
	}
	v.Observe(node(t, `{apiVersion: v1, kind: Secret, stringData: {a: secret-value-1}}`))
	v.Observe(node(t, `{apiVersion: v2, kind: Secret, stringData: {a: secret-value-2}, metadata: {labels: {x: secret-value-1}}}`))
	v.AddPatch(node(t, `[{op: add, path: /stringData/b, value: secret-value-3}, {op: add, path: /metadata/c, value: public-value}]`), true)
	v.AddPatch(node(t, `{stringData: {c: secret-value-4}, metadata: {d: public-value}}`), false)
	v.AddText("secret-value-5", fieldpath.MustParse("data.e"))
	v.AddText("public-value", fieldpath.MustParse("metadata.f"))
	got := v.Text("config-value-1 secret-value-1 secret-value-2 secret-value-3 secret-value-4 secret-value-5 public-value")
	if want := "config-value-1 *** *** *** *** *** public-value"; got != want {
		t.Errorf("the values gathered mask %q, want %q", got, want)
	}
	m := &Values{}
	m.Mark()
	m.Observe(node(t, `{apiVersion: v2, kind: Thing, stringData: {a: marked-value}}`))
	if m.Text("marked-value") != Mask {
		t.Error("a Values marked does not gather the values of a state that is no Secret")
	}
}

// TestValuesNodes: Node and Pair mask by place as Value and Pair do, and
// every other scalar equal to a secret value (whatever its length) or
// holding one; keys stay; the values given are not changed.
func TestValuesNodes(t *testing.T) {
	v := valuesOf(t, `{apiVersion: v1, kind: Secret, stringData: {s: zq, p: HUNTER2J-long}}`)
	obj := node(t, `{apiVersion: v1, kind: Secret, metadata: {labels: {zq: zq, b: "url://HUNTER2J-long/x", c: zqx}}, stringData: {s: zq}}`)
	before := show(t, obj)
	want := `{"apiVersion":"v1","kind":"Secret","metadata":{"labels":{"zq":"***","b":"url://***/x","c":"zqx"}},"stringData":{"s":"***"}}`
	if got := show(t, v.Node(obj, nil)); got != want {
		t.Errorf("Node shows %s, want %s", got, want)
	}
	if !v.Masks(node(t, "zq")) || v.Masks(node(t, "zqx")) || v.Masks(node(t, "[zq]")) {
		t.Error("Masks does not tell a scalar holding a value")
	}
	old, new := v.Pair(node(t, "{x: zq}"), node(t, "{x: other}"), fieldpath.MustParse("metadata.labels"))
	if got := show(t, old) + " " + show(t, new); got != `{"x":"***"} {"x":"other"}` {
		t.Errorf("Pair shows %s", got)
	}
	if show(t, obj) != before {
		t.Error("Node changed the value it was given")
	}
}

// TestValuesError: an error's message masked: a *MaskedError for an
// error of no type that masks itself, each error of a joined one, the
// data of the error masked still found (errors.Is), and Masked.
func TestValuesError(t *testing.T) {
	v := valuesOf(t, `{apiVersion: v1, kind: Secret, stringData: {p: HUNTER2J-long}}`)
	base := errors.New("is HUNTER2J-long")
	err := v.Error(errors.Join(base, errors.New("fine")))
	if got, want := err.Error(), "is ***\nfine"; got != want {
		t.Errorf("the joined error is %q, want %q", got, want)
	}
	if !errors.Is(err, base) || !InError(err) {
		t.Error("the masked error hides the error it masks from errors.Is, or does not say it masks")
	}
	if v.Error(nil) != nil || (*Values)(nil).Error(base) != base {
		t.Error("nil, or a nil Values, changes the error")
	}
}
