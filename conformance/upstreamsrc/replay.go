package upstreamsrc

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/mergepatch"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	sptest "k8s.io/apimachinery/pkg/util/strategicpatch/testing"

	"github.com/kmerge/kmerge/conformance/internal/upstreamcases"
)

// Flavor is one of the three ways upstream's tests give a schema to the
// library: the Go struct's tags, OpenAPI v2, OpenAPI v3.
type Flavor struct {
	Name string // struct, openapi-v2 or openapi-v3
	Meta strategicpatch.LookupPatchMeta
	// File is the OpenAPI fixture (empty for the struct flavour).
	File string
}

// FlavorNames are the names of the flavours, in the order Flavors returns
// them.
var FlavorNames = []string{"struct", "openapi-v2", "openapi-v3"}

// Flavors returns the flavours of schema (mergeItem or precisionItem), as
// upstream's tests build them: the Go types (re-declared in
// internal/upstreamcases; TestTypesMatchUpstream compares them with
// upstream's), and the OpenAPI fixtures of the module's testdata.
func (m Module) Flavors(schema string) (fls []Flavor, err error) {
	var goValue any
	var file string
	switch schema {
	case "mergeItem":
		goValue, file = upstreamcases.MergeItem{}, "swagger-merge-item"
	case "precisionItem":
		goValue, file = upstreamcases.PrecisionItem{}, "swagger-precision-item"
	default:
		return nil, fmt.Errorf("unknown schema %q", schema)
	}
	structMeta, err := strategicpatch.NewPatchMetaFromStruct(goValue)
	if err != nil {
		return nil, err
	}
	// upstream's fixture loaders panic on a bad file
	defer func() {
		if r := recover(); r != nil {
			fls, err = nil, fmt.Errorf("loading upstream's OpenAPI fixtures for %s: %v", schema, r)
		}
	}()
	v2 := m.Testdata(file + ".json")
	v3 := m.Testdata(file + "-v3.json")
	fake := sptest.Fake{Path: v2}
	v3get := sptest.OpenAPIV3Getter{Path: v3}
	v3doc := v3get.SchemaOrDie()
	v3schema := v3doc.Components.Schemas[schema]
	if v3schema == nil {
		return nil, fmt.Errorf("%s has no schema %s", v3, schema)
	}
	return []Flavor{
		{Name: "struct", Meta: structMeta},
		{Name: "openapi-v2", Meta: strategicpatch.PatchMetaFromOpenAPI{Schema: sptest.GetSchemaOrDie(&fake, schema)}, File: v2},
		{Name: "openapi-v3", Meta: strategicpatch.PatchMetaFromOpenAPIV3{SchemaList: v3doc.Components.Schemas, Schema: v3schema}, File: v3},
	}, nil
}

// The steps Observe records, and the text of a step it did not run.
const (
	StepTwoWay        = "twoWay"                  // CreateTwoWayMergePatch(original, modified)
	StepApplyTwoWay   = "apply(original,twoWay)"  // StrategicMergePatch(original, that patch); in Apply tables, the case's own twoWay
	StepThreeWay      = "threeWay"                // CreateThreeWayMergePatch(original, modified, current, overwrite=false)
	StepThreeWayForce = "threeWay(overwrite)"     // the same with overwrite=true, after a conflict only
	StepApplyThreeWay = "apply(current,threeWay)" // StrategicMergePatch(current, the three-way patch used)
	NotRun            = "(not run: an earlier step failed)"
	errorPrefix       = "ERROR: "
	conflictPrefix    = "CONFLICT: "
	panicPrefix       = "PANIC: "
)

// Observe runs the steps upstream's test of the table runs for the case,
// with upstream's library and the flavour's schema, and returns what each
// returned: the exact bytes, or "ERROR: ", "CONFLICT: " or "PANIC: " and
// the message. Steps after one that failed are NotRun. Sort tables have no
// steps (see SortMergeLists).
func Observe(t Table, c Case, fl Flavor) map[string]string {
	steps := map[string]string{}
	doc := func(name string) []byte { return t.Doc(c, name) }
	switch t.Kind {
	case Apply:
		steps[StepApplyTwoWay], _ = apply(doc("original"), doc("twoWay"), fl.Meta)
	case TwoWay, Create:
		out, patch := run(func() ([]byte, error) {
			return strategicpatch.CreateTwoWayMergePatchUsingLookupPatchMeta(doc("original"), doc("modified"), fl.Meta)
		})
		steps[StepTwoWay] = out
		steps[StepApplyTwoWay] = NotRun
		if patch != nil {
			steps[StepApplyTwoWay], _ = apply(doc("original"), patch, fl.Meta)
		}
		if t.Kind == TwoWay {
			break
		}
		threeWay := func(overwrite bool) (string, []byte) {
			return run(func() ([]byte, error) {
				return strategicpatch.CreateThreeWayMergePatch(doc("original"), doc("modified"), doc("current"), fl.Meta, overwrite)
			})
		}
		out, patch = threeWay(false)
		steps[StepThreeWay] = out
		if strings.HasPrefix(out, conflictPrefix) {
			steps[StepThreeWayForce], patch = threeWay(true)
		}
		steps[StepApplyThreeWay] = NotRun
		if patch != nil {
			steps[StepApplyThreeWay], _ = apply(doc("current"), patch, fl.Meta)
		}
	}
	return steps
}

func apply(doc, patch []byte, meta strategicpatch.LookupPatchMeta) (string, []byte) {
	return run(func() ([]byte, error) {
		return strategicpatch.StrategicMergePatchUsingLookupPatchMeta(doc, patch, meta)
	})
}

// run calls f and returns its outcome as text, and its bytes when it
// succeeded.
func run(f func() ([]byte, error)) (text string, out []byte) {
	defer func() {
		if r := recover(); r != nil {
			text, out = panicPrefix+fmt.Sprint(r), nil
		}
	}()
	b, err := f()
	switch {
	case err != nil && mergepatch.IsConflict(err):
		return conflictPrefix + err.Error(), nil
	case err != nil:
		return errorPrefix + err.Error(), nil
	}
	if b == nil {
		b = []byte{}
	}
	return string(b), b
}
