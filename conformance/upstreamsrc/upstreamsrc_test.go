package upstreamsrc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
)

var loaded = sync.OnceValues(func() (struct {
	m      Module
	tables []Table
}, error) {
	m, tables, err := Load()
	return struct {
		m      Module
		tables []Table
	}{m, tables}, err
})

func load(t *testing.T) (Module, []Table) {
	t.Helper()
	l, err := loaded()
	if err != nil {
		t.Fatal(err)
	}
	return l.m, l.tables
}

func table(t *testing.T, id string) Table {
	_, tables := load(t)
	for _, tb := range tables {
		if tb.ID == id {
			return tb
		}
	}
	t.Fatalf("no table %s", id)
	return Table{}
}

// TestCounts compares the number of cases of each table with a count of
// the source text between the table's first line and the next table or
// function: "- description:" lines in YAML texts, "Description:" fields in
// Go slices, `"...": {` keys in maps. It also checks that each case's line
// is where its description is written.
func TestCounts(t *testing.T) {
	m, tables := load(t)
	src, err := m.Source()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	patterns := map[Format]*regexp.Regexp{
		YAMLTable: regexp.MustCompile(`^\s*- description: `),
		RawTable:  regexp.MustCompile(`^\s*Description:\s*"`),
		JSONMap:   regexp.MustCompile(`^\s*"[^"]*": \{$`),
	}
	total := 0
	for _, tb := range tables {
		n := 0
		for i := tb.Line; i < len(lines); i++ { // lines[i] is line i+1
			l := lines[i]
			if strings.HasPrefix(l, "func ") || strings.HasPrefix(l, "var ") || (tb.Format == JSONMap && l == "\t}") {
				break // the next declaration, or the end of the map
			}
			if patterns[tb.Format].MatchString(l) {
				n++
			}
		}
		if n != len(tb.Cases) {
			t.Errorf("%s: %d cases extracted, the source text has %d", tb.ID, len(tb.Cases), n)
		}
		total += len(tb.Cases)
		for _, c := range tb.Cases {
			l := lines[c.Line-1]
			if tb.Format == RawTable {
				// the first Description field after the case's opening
				// brace (comments may come between)
				for i := c.Line; i < len(lines) && !strings.Contains(l, "Description:"); i++ {
					l = lines[i]
				}
			}
			if !strings.Contains(l, c.Description) {
				t.Errorf("%s: case %q: line %d is %q", tb.ID, c.Description, c.Line, l)
			}
			if len(c.JSON) == 0 {
				t.Errorf("%s: case %q has no documents", tb.ID, c.Description)
			}
		}
	}
	// k8s.io/apimachinery v0.37.2: 8 + 18 + 10 + 22 + 94 + 2 + 7 + 15
	if total < 176 {
		t.Errorf("%d cases in all; upstream v0.37.2 has 176 in these tables", total)
	}
	t.Logf("%d cases in %d tables of %s %s", total, len(tables), ModulePath, m.Version)
}

// TestSortMergeLists checks SortMergeLists on upstream's own test of its
// sort helper (table 01): sorting original gives sorted, with each flavour
// of the schema.
func TestSortMergeLists(t *testing.T) {
	m, _ := load(t)
	tb := table(t, "01-sort-merge-lists")
	flavors, err := m.Flavors(tb.Schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tb.Cases {
		for _, fl := range flavors {
			got, err := SortMergeLists([]byte(c.JSON["original"]), fl.Meta)
			if err != nil {
				t.Errorf("%s/%s: %v", c.Description, fl.Name, err)
			} else if string(got) != c.JSON["sorted"] {
				t.Errorf("%s/%s:\n got  %s\n want %s", c.Description, fl.Name, got, c.JSON["sorted"])
			}
		}
	}
	// and a list out of order is a difference it sees
	got, err := SortMergeLists([]byte(`{"mergingList":[{"name":"b"},{"name":"a"}],"nonMergingList":[{"name":"b"},{"name":"a"}],"mergingIntList":[3,1,3]}`), flavors[0].Meta)
	if want := `{"mergingIntList":[1,3],"mergingList":[{"name":"a"},{"name":"b"}],"nonMergingList":[{"name":"b"},{"name":"a"}]}`; err != nil || string(got) != want {
		t.Errorf("got %s %v, want %s", got, err, want)
	}
}

// TestUpstreamAssertions replays, through upstream's library and with what
// Extract read, every assertion upstream's own tests make on these tables
// (in words in each branch below), per schema flavour. A case read wrong
// (a document lost, converted otherwise, sorted otherwise, a field
// mapped to the wrong document) fails one of them.
func TestUpstreamAssertions(t *testing.T) {
	m, tables := load(t)
	total := 0
	for _, tb := range tables {
		if tb.Kind == Sort {
			continue // TestSortMergeLists
		}
		flavors, err := m.Flavors(tb.Schema)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range tb.Cases {
			for _, fl := range flavors {
				name := fmt.Sprintf("%s/%d:%s/%s", tb.ID, c.Line, c.Description, fl.Name)
				steps := Observe(tb, c, fl)
				doc := func(n string) string { return string(tb.Doc(c, n)) }
				expectResult := doc("twoWayResult")
				if _, ok := c.JSON["twoWayResult"]; !ok && tb.Format != JSONMap {
					expectResult = doc("modified") // upstream: TwoWayResult, or Modified when nil
				}
				check := func(what, got, want string) {
					t.Helper()
					total++
					if got != want {
						t.Errorf("%s: %s:\n upstream gives %s\n the case says %s", name, what, got, want)
					}
				}
				// an apply whose case expects an error must fail with it
				checkApply := func(what, got, want string) {
					t.Helper()
					if c.ExpectedError != "" {
						total++
						if !strings.HasPrefix(got, "ERROR: ") || !strings.Contains(got, c.ExpectedError) {
							t.Errorf("%s: %s: upstream gives %s, the case expects an error containing %q", name, what, got, c.ExpectedError)
						}
						return
					}
					check(what, got, want)
				}
				switch tb.Kind {
				case Apply:
					// the hand-written patch applied to original gives
					// twoWayResult (or modified)
					checkApply("apply", steps[StepApplyTwoWay], expectResult)
				case TwoWay:
					// the two-way patch and its result, exactly
					check("two-way patch", steps[StepTwoWay], doc("twoWay"))
					check("two-way apply", steps[StepApplyTwoWay], doc("twoWayResult"))
				case Create:
					if tb.Format == JSONMap {
						// 08: an error containing the expected one, or
						// the expected patch and result
						for _, s := range []struct{ patch, apply, wantErr, wantPatch, wantResult string }{
							{StepTwoWay, StepApplyTwoWay, c.ExpectedTwoWayError, doc("twoWay"), doc("twoWayResult")},
							{StepThreeWay, StepApplyThreeWay, c.ExpectedThreeWayError, doc("threeWay"), doc("result")},
						} {
							if msg, failed := strings.CutPrefix(steps[s.patch], "ERROR: "); failed {
								total++
								if s.wantErr == "" || !strings.Contains(msg, s.wantErr) {
									t.Errorf("%s: %s: upstream fails with %q; the case expects %q", name, s.patch, msg, s.wantErr)
								}
								continue
							}
							check(s.patch, steps[s.patch], s.wantPatch)
							check(s.apply, steps[s.apply], s.wantResult)
						}
						break
					}
					// two-way: the patch, then its result (or the error)
					check("two-way patch", steps[StepTwoWay], doc("twoWay"))
					checkApply("two-way apply", steps[StepApplyTwoWay], expectResult)
					// three-way: a conflict exactly where the description
					// says so; then with overwrite, when the case has a
					// result, the patch and its result
					conflict := strings.HasPrefix(steps[StepThreeWay], "CONFLICT: ")
					total++
					if conflict != c.ExpectConflict {
						t.Errorf("%s: three-way: upstream gives %s; the case expects a conflict: %v", name, steps[StepThreeWay], c.ExpectConflict)
						continue
					}
					_, hasResult := c.JSON["result"]
					patch := StepThreeWay
					if conflict {
						if !hasResult {
							continue
						}
						patch = StepThreeWayForce
					} else if !hasResult {
						total++
						t.Errorf("%s: three-way: no conflict, and no result to compare with", name)
						continue
					}
					check(patch, steps[patch], doc("threeWay"))
					checkApply("three-way apply", steps[StepApplyThreeWay], doc("result"))
				}
			}
		}
	}
	// the shared copy's replay counted 2100 for all nine tables
	if total < 1900 {
		t.Errorf("only %d assertions replayed", total)
	}
	t.Logf("%d of upstream's assertions replayed", total)
}

// TestTypesMatchUpstream compares the test types re-declared in
// internal/upstreamcases (kmerge's schema of the struct flavour, and
// upstream's struct flavour here) with upstream's declarations: the same
// fields, Go types and tags (runtime.RawExtension is the stand-in
// RawExtension; field order does not matter to either side).
func TestTypesMatchUpstream(t *testing.T) {
	m, _ := load(t)
	src, err := m.Source()
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, TestFile, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	upstream := map[string][]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, sp := range g.Specs {
			ts := sp.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, fd := range st.Fields.List {
				tag := ""
				if fd.Tag != nil {
					tag = fd.Tag.Value[1 : len(fd.Tag.Value)-1]
				}
				typ := normType(types(fset, fd.Type))
				for _, n := range fd.Names {
					upstream[ts.Name.Name] = append(upstream[ts.Name.Name], n.Name+" "+typ+" "+tag)
				}
			}
		}
	}
	for _, v := range []any{upstreamcases.MergeItem{}, upstreamcases.RetainKeysMergeItem{}, upstreamcases.PrecisionItem{}} {
		rt := reflect.TypeOf(v)
		var ours []string
		for i := range rt.NumField() {
			fd := rt.Field(i)
			ours = append(ours, fd.Name+" "+normType(fd.Type.String())+" "+string(fd.Tag))
		}
		theirs := upstream[rt.Name()]
		slices.Sort(ours)
		slices.Sort(theirs)
		if !slices.Equal(ours, theirs) {
			t.Errorf("%s:\n here:     %q\n upstream: %q", rt.Name(), ours, theirs)
		}
	}
}

func types(fset *token.FileSet, e ast.Expr) string {
	var b strings.Builder
	if err := printer.Fprint(&b, fset, e); err != nil {
		return err.Error()
	}
	return b.String()
}

// normType writes a Go type without spaces or package names, byte as
// uint8 and runtime.RawExtension as the stand-in RawExtension.
func normType(s string) string {
	s = strings.ReplaceAll(s, " ", "")
	s = strings.ReplaceAll(s, "upstreamcases.", "")
	s = strings.ReplaceAll(s, "runtime.", "")
	return strings.ReplaceAll(s, "byte", "uint8")
}
