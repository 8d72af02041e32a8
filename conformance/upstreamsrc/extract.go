package upstreamsrc

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// Kind says which checks upstream makes with a table's cases.
type Kind int

// The kinds of tables.
const (
	// Sort cases check upstream's test normaliser: sorting the merge lists
	// of original by key gives sorted.
	Sort Kind = iota
	// Apply cases apply a hand-written patch (twoWay) to original.
	Apply
	// TwoWay cases create a two-way patch and apply it.
	TwoWay
	// Create cases create a two-way patch and apply it, and create a
	// three-way patch and apply it to current.
	Create
)

// Format says how upstream turns a table's text into the JSON it passes to
// the library.
type Format int

// The formats of tables.
const (
	// YAMLTable is one YAML text holding every case; upstream decodes it
	// with sigs.k8s.io/yaml into maps and encodes each document with
	// encoding/json. A document left out is a nil slice.
	YAMLTable Format = iota
	// RawTable is a Go slice of cases whose documents are []byte YAML
	// literals, each converted with sigs.k8s.io/yaml.YAMLToJSON; a
	// document left out converts to null.
	RawTable
	// JSONMap is a Go map from description to a struct of JSON string
	// literals, passed as written.
	JSONMap
)

// Table is one of upstream's test tables.
type Table struct {
	// ID names the table here: its number in source order and a few words
	// (the names the shared copy of these cases uses, "04-create-patch").
	ID string
	// Name is upstream's variable (or Test.testcases for a table local
	// to a test function); Test is the test function that runs it.
	Name, Test string
	// Schema is the type the cases are patched as: mergeItem or
	// precisionItem.
	Schema string
	Kind   Kind
	Format Format
	// Line is the line of the table in upstream's test file.
	Line  int
	Cases []Case
}

// Case is one case of a table.
type Case struct {
	Description string
	// Line is the line of the case in upstream's test file.
	Line int
	// JSON holds each document the case has (original, modified, current,
	// twoWay, twoWayResult, threeWay, result; sorted in Sort tables) as the
	// exact bytes upstream passes to the library or compares with its
	// output. A document the case leaves out is absent; Absent gives what
	// upstream passes instead.
	JSON map[string]string
	// ExpectedError is part of the message the apply must fail with.
	ExpectedError string
	// ExpectedTwoWayError and ExpectedThreeWayError are part of the
	// message creating the patch may fail with (upstream accepts either
	// that error or the documents given).
	ExpectedTwoWayError, ExpectedThreeWayError string
	// ExpectConflict is set for the cases whose description says
	// "conflict" in Create tables: upstream expects CreateThreeWayMergePatch
	// to report a conflict without overwrite.
	ExpectConflict bool
}

// Absent returns what upstream passes for a document a case of the table
// leaves out: nil in YAML tables, null in raw tables, the empty string in
// JSON maps.
func (t Table) Absent() []byte {
	switch t.Format {
	case RawTable:
		return []byte("null")
	case JSONMap:
		return []byte{}
	}
	return nil
}

// Doc returns the document name of case c as upstream passes it to the
// library: its JSON, or Absent when the case leaves it out.
func (t Table) Doc(c Case, name string) []byte {
	if s, ok := c.JSON[name]; ok {
		return []byte(s)
	}
	return t.Absent()
}

// tableSpec says where a table is and how to read it. fields maps the Go
// field names of its cases to document names (or to the expected*
// strings); YAML tables use upstream's YAML keys, which are the document
// names.
type tableSpec struct {
	id, name, test, schema string
	kind                   Kind
	format                 Format
	// fn is the test function holding a JSONMap table (its variable is
	// testcases).
	fn     string
	fields map[string]string
}

var rawFields = map[string]string{
	"Original": "original", "Modified": "modified", "Current": "current",
	"TwoWay": "twoWay", "ThreeWay": "threeWay", "Result": "result", "TwoWayResult": "twoWayResult",
	"ExpectedError": "expectedError",
}

// specs lists the tables kmerge is compared on, in source order. (The
// fourth kind of check upstream's file makes, inline calls with invalid
// arguments such as a nil schema, has no counterpart in kmerge's API.)
var specs = []tableSpec{
	{id: "01-sort-merge-lists", name: "sortMergeListTestCaseData", test: "TestSortMergeLists", schema: "mergeItem", kind: Sort, format: YAMLTable},
	{id: "02-custom-apply", name: "customStrategicMergePatchTestCaseData", test: "TestCustomStrategicMergePatch", schema: "mergeItem", kind: Apply, format: YAMLTable},
	{id: "03-custom-apply-raw", name: "customStrategicMergePatchRawTestCases", test: "TestCustomStrategicMergePatch", schema: "mergeItem", kind: Apply, format: RawTable, fields: rawFields},
	{id: "04-create-patch", name: "createStrategicMergePatchTestCaseData", test: "TestStrategicMergePatch", schema: "mergeItem", kind: Create, format: YAMLTable},
	{id: "05-create-patch-raw", name: "strategicMergePatchRawTestCases", test: "TestStrategicMergePatch", schema: "mergeItem", kind: Create, format: RawTable, fields: rawFields},
	{id: "06-replace-raw-extension", name: "replaceRawExtensionPatchTestCases", test: "TestReplaceWithRawExtension", schema: "mergeItem", kind: Create, format: RawTable, fields: rawFields},
	{id: "07-number-conversion", name: "TestNumberConversion.testcases", test: "TestNumberConversion", schema: "precisionItem", kind: TwoWay, format: JSONMap, fn: "TestNumberConversion",
		fields: map[string]string{"Old": "original", "New": "modified", "ExpectedPatch": "twoWay", "ExpectedResult": "twoWayResult"}},
	{id: "08-unknown-field", name: "TestUnknownField.testcases", test: "TestUnknownField", schema: "mergeItem", kind: Create, format: JSONMap, fn: "TestUnknownField",
		fields: map[string]string{"Original": "original", "Current": "current", "Modified": "modified",
			"ExpectedTwoWay": "twoWay", "ExpectedTwoWayErr": "expectedTwoWayError", "ExpectedTwoWayResult": "twoWayResult",
			"ExpectedThreeWay": "threeWay", "ExpectedThreeWayErr": "expectedThreeWayError", "ExpectedThreeWayResult": "result"}},
}

// Extract reads the tables from the text of upstream's test file (file
// names it in errors). The documents of the two tables upstream normalises
// (02 and 04) are sorted as upstream's tests sort them (SortMergeLists),
// which needs the schema: flavors returns the flavours of a schema, which
// must all give the same bytes.
func Extract(src []byte, file string, flavors func(schema string) ([]Flavor, error)) ([]Table, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	x := &extractor{fset: fset, file: f}
	var tables []Table
	for _, s := range specs {
		t := Table{ID: s.id, Name: s.name, Test: s.test, Schema: s.schema, Kind: s.kind, Format: s.format}
		switch s.format {
		case YAMLTable:
			err = x.yamlTable(&t)
			if err == nil && (s.id == "02-custom-apply" || s.id == "04-create-patch") {
				err = sortTable(&t, flavors)
			}
		case RawTable:
			err = x.rawTable(&t, s)
		case JSONMap:
			err = x.mapTable(&t, s)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: table %s: %w", file, s.name, err)
		}
		if len(t.Cases) == 0 {
			return nil, fmt.Errorf("%s: table %s has no cases", file, s.name)
		}
		tables = append(tables, t)
	}
	return tables, nil
}

type extractor struct {
	fset *token.FileSet
	file *ast.File
}

func (x *extractor) line(n ast.Node) int { return x.fset.Position(n.Pos()).Line }

func (x *extractor) errorf(n ast.Node, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", x.line(n), fmt.Sprintf(format, args...))
}

// topValue returns the value of the package-level variable name.
func (x *extractor) topValue(name string) (ast.Expr, error) {
	for _, d := range x.file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if id.Name == name && i < len(vs.Values) {
					return vs.Values[i], nil
				}
			}
		}
	}
	return nil, fmt.Errorf("no package-level variable %s", name)
}

// text returns the string an expression holds: a string literal, []byte of
// one, or a sum of them.
func (x *extractor) text(e ast.Expr) (string, error) {
	switch v := e.(type) {
	case *ast.BasicLit:
		if v.Kind != token.STRING {
			return "", x.errorf(v, "%s is not a string", v.Value)
		}
		return strconv.Unquote(v.Value)
	case *ast.CallExpr:
		if at, ok := v.Fun.(*ast.ArrayType); ok && at.Len == nil && len(v.Args) == 1 {
			if id, ok := at.Elt.(*ast.Ident); ok && id.Name == "byte" {
				return x.text(v.Args[0])
			}
		}
	case *ast.BinaryExpr:
		if v.Op == token.ADD {
			a, err := x.text(v.X)
			if err != nil {
				return "", err
			}
			b, err := x.text(v.Y)
			return a + b, err
		}
	case *ast.ParenExpr:
		return x.text(v.X)
	}
	return "", x.errorf(e, "a value that is not a string literal (%T)", e)
}

// yamlCase and sortCase are the shapes upstream decodes its YAML tables
// into (documents as maps; encoding/json ignores other keys).
type yamlCase struct {
	Description  string         `json:"description"`
	Original     map[string]any `json:"original"`
	Modified     map[string]any `json:"modified"`
	Current      map[string]any `json:"current"`
	TwoWay       map[string]any `json:"twoWay"`
	ThreeWay     map[string]any `json:"threeWay"`
	Result       map[string]any `json:"result"`
	TwoWayResult map[string]any `json:"twoWayResult"`
}

type sortCase struct {
	Description string         `json:"description"`
	Original    map[string]any `json:"original"`
	Sorted      map[string]any `json:"sorted"`
}

// yamlTable reads a table written as one YAML text (var X = []byte(`...`)).
// The values come from sigs.k8s.io/yaml, as upstream decodes them; the
// lines of the cases from go.yaml.in/yaml/v3's nodes.
func (x *extractor) yamlTable(t *Table) error {
	e, err := x.topValue(t.Name)
	if err != nil {
		return err
	}
	src, err := x.text(e)
	if err != nil {
		return err
	}
	lit := e
	if c, ok := e.(*ast.CallExpr); ok {
		lit = c.Args[0]
	}
	t.Line = x.line(lit)
	// the literal starts on the line of its opening quote: YAML line n is
	// source line t.Line+n-1
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(src), &root); err != nil {
		return err
	}
	items, err := yamlItems(&root)
	if err != nil {
		return err
	}
	// per case: document name to the decoded document (nil when left out)
	var docs []map[string]map[string]any
	var descriptions []string
	if t.Kind == Sort {
		var v struct {
			TestCases []sortCase `json:"testCases"`
		}
		if err := sigsyaml.Unmarshal([]byte(src), &v); err != nil {
			return err
		}
		for _, c := range v.TestCases {
			descriptions = append(descriptions, c.Description)
			docs = append(docs, map[string]map[string]any{"original": c.Original, "sorted": c.Sorted})
		}
	} else {
		var v struct {
			TestCases []yamlCase `json:"testCases"`
		}
		if err := sigsyaml.Unmarshal([]byte(src), &v); err != nil {
			return err
		}
		for _, c := range v.TestCases {
			descriptions = append(descriptions, c.Description)
			docs = append(docs, map[string]map[string]any{"original": c.Original, "modified": c.Modified, "current": c.Current,
				"twoWay": c.TwoWay, "threeWay": c.ThreeWay, "result": c.Result, "twoWayResult": c.TwoWayResult})
		}
	}
	if len(items) != len(descriptions) {
		return fmt.Errorf("%d cases read as nodes but %d as values", len(items), len(descriptions))
	}
	for i, it := range items {
		c := Case{Description: descriptions[i], Line: t.Line + it.Line - 1, JSON: map[string]string{}}
		if d := it.description(); d != c.Description {
			return fmt.Errorf("case %d: description %q as a node, %q as a value", i, d, c.Description)
		}
		for _, name := range []string{"original", "modified", "current", "twoWay", "threeWay", "result", "twoWayResult", "sorted"} {
			d := docs[i][name]
			if d == nil {
				continue // nil map: upstream passes nil
			}
			b, err := json.Marshal(d)
			if err != nil {
				return fmt.Errorf("case %q: %s: %v", c.Description, name, err)
			}
			c.JSON[name] = string(b)
		}
		if t.Kind == Create && strings.Contains(c.Description, "conflict") {
			c.ExpectConflict = true
		}
		t.Cases = append(t.Cases, c)
	}
	return nil
}

type yamlItem struct{ *yaml.Node }

func (it yamlItem) description() string {
	for i := 0; i+1 < len(it.Content); i += 2 {
		if it.Content[i].Value == "description" {
			return it.Content[i+1].Value
		}
	}
	return ""
}

// yamlItems returns the items of the testCases list of a YAML table.
func yamlItems(root *yaml.Node) ([]yamlItem, error) {
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the YAML text is not one mapping")
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != "testCases" {
			continue
		}
		seq := m.Content[i+1]
		if seq.Kind != yaml.SequenceNode {
			return nil, fmt.Errorf("testCases is not a list")
		}
		var out []yamlItem
		for _, n := range seq.Content {
			if n.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("line %d: a case that is not a mapping", n.Line)
			}
			out = append(out, yamlItem{n})
		}
		return out, nil
	}
	return nil, fmt.Errorf("no testCases key")
}

// fieldValues collects the fields of a case's composite literal, into
// embedded structs too: field name to its literal text.
func (x *extractor) fieldValues(lit *ast.CompositeLit, out map[string]string) error {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return x.errorf(el, "a field without a name")
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			return x.errorf(kv, "a field name that is not an identifier")
		}
		if inner, ok := kv.Value.(*ast.CompositeLit); ok {
			if err := x.fieldValues(inner, out); err != nil {
				return err
			}
			continue
		}
		s, err := x.text(kv.Value)
		if err != nil {
			return fmt.Errorf("field %s: %w", key.Name, err)
		}
		if _, dup := out[key.Name]; dup {
			return x.errorf(kv, "field %s twice", key.Name)
		}
		out[key.Name] = s
	}
	return nil
}

// setFields turns the fields of a Go case into its documents (converted by
// conv) and expected errors.
func setFields(c *Case, fields map[string]string, names map[string]string, conv func(string) (string, error)) error {
	for f, v := range fields {
		name, ok := names[f]
		if !ok {
			return fmt.Errorf("case %q: unknown field %s", c.Description, f)
		}
		switch name {
		case "expectedError":
			c.ExpectedError = v
		case "expectedTwoWayError":
			c.ExpectedTwoWayError = v
		case "expectedThreeWayError":
			c.ExpectedThreeWayError = v
		default:
			j, err := conv(v)
			if err != nil {
				return fmt.Errorf("case %q: %s: %v", c.Description, f, err)
			}
			c.JSON[name] = j
		}
	}
	return nil
}

// rawTable reads a Go slice of cases whose documents are YAML []byte
// literals.
func (x *extractor) rawTable(t *Table, s tableSpec) error {
	e, err := x.topValue(t.Name)
	if err != nil {
		return err
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return x.errorf(e, "not a composite literal")
	}
	t.Line = x.line(lit)
	yamlToJSON := func(v string) (string, error) {
		b, err := sigsyaml.YAMLToJSON([]byte(v))
		return string(b), err
	}
	for _, el := range lit.Elts {
		cl, ok := el.(*ast.CompositeLit)
		if !ok {
			return x.errorf(el, "a case that is not a composite literal")
		}
		fields := map[string]string{}
		if err := x.fieldValues(cl, fields); err != nil {
			return err
		}
		c := Case{Description: fields["Description"], Line: x.line(cl), JSON: map[string]string{}}
		delete(fields, "Description")
		if err := setFields(&c, fields, s.fields, yamlToJSON); err != nil {
			return err
		}
		if t.Kind == Create && strings.Contains(c.Description, "conflict") {
			c.ExpectConflict = true
		}
		t.Cases = append(t.Cases, c)
	}
	return nil
}

// mapTable reads the map testcases of a test function: description to a
// struct of JSON string literals, in source order.
func (x *extractor) mapTable(t *Table, s tableSpec) error {
	var lit *ast.CompositeLit
	for _, d := range x.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != s.fn || fd.Body == nil {
			continue
		}
		for _, st := range fd.Body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				continue
			}
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name == "testcases" {
				if cl, ok := as.Rhs[0].(*ast.CompositeLit); ok {
					if _, ok := cl.Type.(*ast.MapType); ok {
						lit = cl
					}
				}
			}
		}
	}
	if lit == nil {
		return fmt.Errorf("no map testcases in func %s", s.fn)
	}
	t.Line = x.line(lit)
	asIs := func(v string) (string, error) { return v, nil }
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return x.errorf(el, "a map element without a key")
		}
		desc, err := x.text(kv.Key)
		if err != nil {
			return err
		}
		cl, ok := kv.Value.(*ast.CompositeLit)
		if !ok {
			return x.errorf(kv.Value, "a case that is not a composite literal")
		}
		fields := map[string]string{}
		if err := x.fieldValues(cl, fields); err != nil {
			return err
		}
		c := Case{Description: desc, Line: x.line(kv), JSON: map[string]string{}}
		if err := setFields(&c, fields, s.fields, asIs); err != nil {
			return err
		}
		t.Cases = append(t.Cases, c)
	}
	return nil
}
