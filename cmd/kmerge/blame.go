package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/serverside"
	"github.com/kmerge/kmerge/tree"
)

func newBlameCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	o := &applyOptions{}
	var format string
	cmd := &cobra.Command{
		Use:   "blame -f PATH... -p PATH... [KIND.NAME...] [flags]",
		Short: "Show which patch wrote each line of the patched manifests",
		Long: `Apply the patches as kmerge apply does (same flags, same project file) and print
the documents they changed, each line a patch wrote marked with that patch
(file:line) and the earlier patches it overrode there. What a patch deleted
has no line: it is listed after the document. KIND.NAME arguments (targets, as
a patch header names them: deployment.web, staging/configmap.settings) print
only those objects.

-o json prints records for tools instead: for every place a patch wrote last,
the object, the field path, the operation, the value, the patch's position, the
positions it overrode, and the lines of the file's output that hold it.

--live PATH (the live objects, as kubectl get -o yaml --show-managed-fields
writes them) adds the field managers that own each line's field in the live
object; with --server-side --field-manager NAME, also those that own it once
the output is applied server-side as NAME (a conflict fails, as with apply;
docs/ssa.md).

The values of Secrets (data and stringData) are masked unless --show-secrets.
Warnings, schema violations and conflicts go to standard error, as with apply.`,
		Example: `  kmerge blame -f examples/base -p examples/overrides --values examples/values.yaml \
    --schema examples/crds/widget-crd.yaml deployment.web

  # in a folder with a kmerge.yaml
  kmerge blame
  kmerge blame -o json configmap.settings`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.changed = cmd.Flags().Changed
			return runBlame(o, format, args, stdin, stdout, stderr)
		},
	}
	o.flags(cmd, false)
	o.blame = true
	o.serverSideFlags(cmd)
	cmd.Flags().Lookup("live").Usage = "the live objects (kubectl get -o yaml --show-managed-fields): show, beside each line, the field managers that own it there (repeatable)"
	cmd.Flags().Lookup("server-side").Usage = "with --live: show too who owns each line once the output is applied server-side (with --field-manager)"
	cmd.Flags().StringVarP(&format, "output", "o", "text", "text (the documents, each line with the patch that wrote it) or json (records for tools)")
	return cmd
}

func runBlame(o *applyOptions, format string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if format != "text" && format != "json" {
		return usagef("-o %q: blame prints text or json", format)
	}
	var only []resource.Selector
	for _, a := range args {
		sel, err := syntax.ParseTarget(a, tree.Position{File: "argument"})
		if err != nil {
			return usagef("%q: name an object as a patch header does, kind.name (deployment.web, staging/configmap.settings)", a)
		}
		only = append(only, resource.TargetSelector(sel))
	}
	proj, err := o.prepare(stderr)
	if err != nil {
		return err
	}
	opts, err := o.load(proj, stdin, stderr)
	if err != nil {
		return err
	}
	var res *kmerge.BlameResult
	if o.ss != nil {
		res, err = serverside.Blame(context.Background(), opts, *o.ss, only...)
	} else {
		res, err = kmerge.Blame(context.Background(), opts, only...)
	}
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "kmerge: %s\n", warningText(w))
	}
	for _, e := range res.Invalid {
		warnInvalid(stderr, e)
	}
	for _, c := range res.Conflicts {
		fmt.Fprintf(stderr, "kmerge: conflict: %s\n", c)
	}
	for _, id := range res.Unchanged {
		fmt.Fprintf(stderr, "kmerge: %s: no patch changes it\n", id)
	}
	if len(res.Documents) == 0 && len(res.Deleted) == 0 && len(only) == 0 {
		what := fmt.Sprintf("any of the %d objects", res.Objects)
		if res.Objects == 1 {
			what = "the object"
		}
		fmt.Fprintf(stderr, "kmerge: no patch changes %s: nothing to blame\n", what)
	}
	if format == "json" {
		return writeBlameJSON(stdout, res, opts.ShowSecrets)
	}
	return writeBlameText(stdout, res, len(o.live) > 0, o.serverSide)
}

// maxOverrode bounds the overridden positions a line of text shows.
const maxOverrode = 3

// shortPos is a position as blame's text shows it: file:line.
func shortPos(p tree.Position) string { return fmt.Sprintf("%s:%d", p.File, p.Line) }

// relPos is an overridden position beside the writer's file: its line
// alone in the same file (":5"), its base name in the same folder.
func relPos(p tree.Position, writer string) string {
	switch {
	case p.File == writer:
		return fmt.Sprintf(":%d", p.Line)
	case filepath.Dir(p.File) == filepath.Dir(writer):
		return fmt.Sprintf("%s:%d", filepath.Base(p.File), p.Line)
	}
	return shortPos(p)
}

// annotation says who wrote a line: "p/b.kpatch:2 (over a.kpatch:2)",
// the overridden positions written as relPos writes them.
func annotation(o *kmerge.Origin) string {
	s := shortPos(o.Pos)
	if len(o.Overrode) == 0 {
		return s
	}
	var over []string
	for i, x := range o.Overrode {
		if i == maxOverrode {
			over = append(over, fmt.Sprintf("%d more", len(o.Overrode)-maxOverrode))
			break
		}
		over = append(over, relPos(x.Pos, o.Pos.File))
	}
	return s + " (over " + strings.Join(over, ", ") + ")"
}

// writeBlameText prints each document: a heading naming its file and
// objects, its lines, each after the patch that wrote it (a column as wide
// as the document's widest), then what the patches deleted.
func writeBlameText(w io.Writer, res *kmerge.BlameResult, live, after bool) error {
	var b strings.Builder
	for i, d := range res.Documents {
		if i > 0 {
			b.WriteByte('\n')
		}
		var ids []string
		for _, o := range d.Objects {
			ids = append(ids, o.ID())
		}
		fmt.Fprintf(&b, "# %s (document %d): %s\n", d.File, d.Index+1, strings.Join(ids, ", "))
		type row struct{ note, live, after, text string }
		var rows []row
		width, liveWidth, afterWidth := 0, len("live"), len("after")
		for _, l := range d.Lines {
			r := row{text: l.Text, live: strings.Join(l.Live, ","), after: strings.Join(l.After, ",")}
			if _, og := d.LineOrigin(l.N); og != nil {
				r.note = annotation(og)
			}
			rows = append(rows, r)
		}
		// what has no line: deletions, and places not found
		for _, o := range d.Objects {
			for k := range o.Origins {
				og := &o.Origins[k]
				if og.Start != 0 {
					continue
				}
				what := "# " + og.Op.String() + " " + og.Path.String()
				if len(d.Objects) > 1 {
					what += " of " + o.ID()
				}
				if og.Op != change.Delete && og.Op != change.Retain {
					what += " (not in the output where the patch named it)"
				}
				rows = append(rows, row{note: annotation(og), text: what})
			}
		}
		for _, r := range rows {
			width, liveWidth, afterWidth = max(width, len(r.note)), max(liveWidth, len(r.live)), max(afterWidth, len(r.after))
		}
		if live {
			// a heading names the owner columns
			head := fmt.Sprintf("%-*s | %-*s | ", width, "", liveWidth, "live")
			if after {
				head += fmt.Sprintf("%-*s | ", afterWidth, "after")
			}
			fmt.Fprintln(&b, strings.TrimRight(head, " "))
		}
		for _, r := range rows {
			fmt.Fprintf(&b, "%-*s | ", width, r.note)
			if live {
				fmt.Fprintf(&b, "%-*s | ", liveWidth, r.live)
			}
			if after {
				fmt.Fprintf(&b, "%-*s | ", afterWidth, r.after)
			}
			fmt.Fprintf(&b, "%s\n", r.text)
		}
	}
	// the objects deleted: no line of the output is theirs
	for i, d := range res.Deleted {
		if i > 0 || len(res.Documents) > 0 {
			b.WriteByte('\n')
		}
		where := fmt.Sprintf("document %d", d.Index+1)
		if d.Item >= 0 {
			where += fmt.Sprintf(", items[%d]", d.Item)
		}
		fmt.Fprintf(&b, "# %s (%s): %s\n", d.File, where, d.ID())
		og := kmerge.Origin{Origin: change.Origin{Change: change.Change{Op: change.Delete, Pos: d.Pos}}}
		for _, p := range d.Overrode {
			og.Overrode = append(og.Overrode, change.Change{Pos: p})
		}
		fmt.Fprintf(&b, "%s | # deletes the object\n", annotation(&og))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// blameRecord is a record of -o json.
type blameRecord struct {
	File     string          `json:"file"`
	Object   blameObject     `json:"object"`
	Path     string          `json:"path"`
	Op       string          `json:"op"`
	Value    json.RawMessage `json:"value,omitempty"`
	Patch    blamePos        `json:"patch"`
	Overrode []blamePos      `json:"overrode"`
	Lines    *blameLines     `json:"lines,omitempty"`
	// the field managers of the place's first line in the live object,
	// and after the server-side apply (blame --live, --server-side)
	Live  []string `json:"live,omitempty"`
	After []string `json:"after,omitempty"`
}

type blameObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

type blamePos struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type blameLines struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// opNames are the operations as records name them.
var opNames = map[change.Op]string{change.Set: "set", change.Delete: "delete", change.Create: "create",
	change.Insert: "insert", change.Retain: "retain"}

func writeBlameJSON(w io.Writer, res *kmerge.BlameResult, showSecrets bool) error {
	records := []blameRecord{}
	for _, d := range res.Documents {
		for _, o := range d.Objects {
			for _, og := range o.Origins {
				r := blameRecord{File: d.File, Path: og.Path.String(), Op: opNames[og.Op],
					Object:   blameObject{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name},
					Patch:    blamePos{og.Pos.File, og.Pos.Line, og.Pos.Column},
					Overrode: []blamePos{}}
				if og.Value != nil && (og.Op == change.Set || og.Op == change.Insert || og.Op == change.Retain) {
					if js, err := tree.MarshalJSON(og.Shown()); err == nil { // secret values masked
						r.Value = js
					}
				}
				for _, x := range og.Overrode {
					r.Overrode = append(r.Overrode, blamePos{x.Pos.File, x.Pos.Line, x.Pos.Column})
				}
				if og.Start != 0 {
					r.Lines = &blameLines{og.Start, og.End}
					for _, l := range d.Lines {
						if l.N == og.Start {
							r.Live, r.After = l.Live, l.After
						}
					}
				}
				records = append(records, r)
			}
		}
	}
	for _, d := range res.Deleted {
		r := blameRecord{File: d.File, Path: "", Op: opNames[change.Delete],
			Object:   blameObject{APIVersion: d.APIVersion, Kind: d.Kind, Namespace: d.Namespace, Name: d.Name},
			Patch:    blamePos{d.Pos.File, d.Pos.Line, d.Pos.Column},
			Overrode: []blamePos{}}
		for _, p := range d.Overrode {
			r.Overrode = append(r.Overrode, blamePos{p.File, p.Line, p.Column})
		}
		records = append(records, r)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(records)
}
