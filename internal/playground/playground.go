// Package playground is the engine of the browser playground (web/): the
// texts a user types in, everything the page shows out, all in memory. It
// runs what kmerge apply and kmerge explain run, through the library's
// in-memory entry points (resource.Parse, kpatch.Parse, kmerge.ApplyPatches);
// web/wasm only turns JavaScript values into an Input and an Output back.
package playground

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/kmerge/kmerge/kpatch/syntax"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/internal/errpos"
	"github.com/kmerge/kmerge/internal/explain"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// The names the inputs have in positions and messages: what the page
// calls its panes, and how it finds the pane an error points into.
const (
	ManifestsFile   = "manifests.yaml"
	KpatchFile      = "patches.kpatch" // the patches, as a .kpatch file
	PatchListFile   = "patches.yaml"   // the patches, as a YAML patch list
	ValuesFile      = "values.yaml"
	SchemaFile      = "schema.yaml"
	FormatKpatch    = "kpatch" // Input.PatchFormat
	FormatPatchList = "yaml"   // Input.PatchFormat
)

// Input is what the page holds. Empty texts are empty inputs.
type Input struct {
	Manifests string `json:"manifests"` // a YAML or JSON stream of objects
	Patches   string `json:"patches"`
	// PatchFormat is FormatKpatch (the default) or FormatPatchList.
	PatchFormat string `json:"patchFormat"`
	Values      string `json:"values"` // a YAML mapping: ${values.*}
	// Features are the ${features.*}, as --feature takes them
	// (NAME=true|false, or NAME for true), separated by spaces or commas.
	Features string `json:"features"`
	// Schema holds CustomResourceDefinitions or an OpenAPI document, for
	// custom resources: it extends the built-in schema, as --schema does.
	Schema string `json:"schema"`
	Strict bool   `json:"strict"` // a patch that matches nothing is an error
	// ShowSecrets shows the values of Secrets in clear in the Diff, the
	// Trace and the messages (--show-secrets); the Result has them either
	// way.
	ShowSecrets bool `json:"showSecrets"`
	// Explain is a kind or a field to explain, as kmerge explain takes it
	// (deployment.spec.template.spec.containers); "": none.
	Explain string `json:"explain"`
}

// Output is what the page shows.
type Output struct {
	// Error stopped the run (a manifest, a patch, the values or the schema
	// is wrong): Result, Diff, Warnings and Conflicts are empty, Trace
	// holds the changes made before it.
	Error *Message `json:"error,omitempty"`
	// Result is the patched manifests, as kmerge apply prints them.
	Result string `json:"result"`
	// Diff is the unified diff of the result, as kmerge apply --diff
	// prints it; "" when nothing changed.
	Diff      string    `json:"diff"`
	Trace     string    `json:"trace"` // every change, as --debug prints it
	Warnings  []Message `json:"warnings"`
	Conflicts []Message `json:"conflicts"`
	Patches   int       `json:"patches"` // the patches applied
	Objects   int       `json:"objects"` // the objects of the manifests

	Explain      string   `json:"explain"`      // kmerge explain's output
	ExplainError *Message `json:"explainError"` // or why there is none
}

// Message is an error, a warning or a conflict.
type Message struct {
	// Text is the message as kmerge prints it, its position first
	// ("patches.kpatch:2:11: ...").
	Text string `json:"text"`
	// Quote is the line the message points at with a caret under the
	// column, as kmerge prints it below an error; "" when there is none.
	Quote string `json:"quote,omitempty"`
	// File, Line and Column are where it points: File is one of the names
	// above, Line 0 when it points nowhere in particular.
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// Run applies the patches to the manifests and explains the field asked
// for. It never fails: what goes wrong is in the Output (a ctx done before
// the patches are applied too: the Output's Error says so). Run is safe
// for concurrent use.
func Run(ctx context.Context, in Input) Output {
	var out Output
	s, err := loadSchema(in.Schema)
	if err != nil {
		out.Error = in.message(err)
		out.ExplainError = out.Error
		return out
	}
	if q := strings.TrimSpace(in.Explain); q != "" {
		words, err := explain.Split(q)
		if err == nil {
			out.Explain, err = explain.Kind(s, words, "")
		}
		if err != nil {
			text := err.Error()
			var uk *explain.UnknownKindError
			if errors.As(err, &uk) {
				// the library names the kind; the page says where a
				// custom resource's schema goes
				text += " (a custom resource's kind comes from its CRD or OpenAPI document: put it in the Schema pane)"
			}
			out.ExplainError = &Message{Text: text}
		}
	}
	if err := in.apply(ctx, s, &out); err != nil {
		out.Error = in.message(err)
	}
	return out
}

// apply runs kmerge apply on the inputs.
func (in Input) apply(ctx context.Context, s *schema.Schema, out *Output) error {
	vars := kpatch.NewVars()
	if strings.TrimSpace(in.Values) != "" {
		if err := vars.LoadValues([]byte(in.Values), ValuesFile); err != nil {
			return err
		}
	}
	for _, f := range strings.FieldsFunc(in.Features, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		if err := vars.SetFeatureText(f); err != nil {
			return fmt.Errorf("features %v", err)
		}
	}
	set, err := resource.Parse([]byte(in.Manifests), ManifestsFile, resource.LoadOptions{Workers: 1})
	if err != nil {
		return err
	}
	patches, err := kpatch.Parse([]byte(in.Patches), in.patchFile(), kpatch.LoadOptions{Workers: 1})
	if err != nil {
		return err
	}
	var trace bytes.Buffer
	res, err := kmerge.ApplyPatches(ctx, set, patches, kmerge.ApplyPatchesOptions{Vars: vars, Schema: s, Strict: in.Strict, Trace: &trace, Workers: 1,
		Validate: validate.Strict, ShowSecrets: in.ShowSecrets}) // as kmerge apply does by default
	out.Trace = trace.String() // the changes up to an error, too
	if err != nil {
		return err
	}
	out.Result, out.Diff = string(res.Stream()), res.Diff()
	out.Patches, out.Objects = res.Patches, res.Objects
	for _, w := range res.Warnings {
		out.Warnings = append(out.Warnings, in.at(warningText(w), w.Pos, false))
	}
	for _, e := range res.Invalid {
		out.Warnings = append(out.Warnings, in.at(e.Warning(), e.Position(), e.Secret))
	}
	for _, c := range res.Conflicts {
		out.Conflicts = append(out.Conflicts, in.at(c.String(), c.Sides[0].Change.Pos, c.Sides[0].Change.Mask))
	}
	return nil
}

// warningText is a warning as the page shows it, with its advice.
func warningText(w kpatch.Warning) string {
	if w.NoSchema {
		return w.String() + "; give its CustomResourceDefinition in the Schema pane"
	}
	return w.String()
}

// loadSchema is the built-in schema, extended by text when there is some.
func loadSchema(text string) (*schema.Schema, error) {
	s := schema.Builtin()
	if strings.TrimSpace(text) == "" {
		return s, nil
	}
	more, err := schema.Load([]byte(text), SchemaFile)
	if err != nil {
		return nil, err
	}
	return s.Extend(more), nil
}

// patchFile names the patches by their format, which is how kpatch.Parse
// tells them apart.
func (in Input) patchFile() string {
	if in.PatchFormat == FormatPatchList {
		return PatchListFile
	}
	return KpatchFile
}

// text returns the input a file name stands for.
func (in Input) text(file string) (string, bool) {
	switch file {
	case ManifestsFile:
		return in.Manifests, true
	case in.patchFile():
		return in.Patches, true
	case ValuesFile:
		return in.Values, true
	case SchemaFile:
		return in.Schema, true
	}
	return "", false
}

// message describes an error, with where it points and the line there.
func (in Input) message(err error) *Message {
	text := err.Error()
	var ke *syntax.Error
	if errors.As(err, &ke) && ke.Undefined != "" {
		// the library says what is missing; the page says where it goes
		if strings.HasPrefix(ke.Undefined, "features.") {
			text += " (give it in features)"
		} else {
			text += " (give it in the Values pane)"
		}
	}
	pos, ok := tree.ErrorPosition(err)
	if !ok {
		return &Message{Text: text}
	}
	m := in.at(text, pos, secret.InError(err))
	return &m
}

// at is a message pointing at pos, quoting the line there; masked says
// that the message masks a secret value, which the line holds too
// (errpos.QuoteMasked).
func (in Input) at(text string, pos tree.Position, masked bool) Message {
	m := Message{Text: text}
	if data, ok := in.text(pos.File); ok && pos.Line > 0 {
		m.File, m.Line, m.Column = pos.File, pos.Line, pos.Column
		if masked {
			m.Quote = errpos.QuoteMasked([]byte(data), pos)
		} else {
			m.Quote = errpos.Quote([]byte(data), pos)
		}
	}
	return m
}
