package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/mergepatch"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
)

type diffOptions struct {
	current    string
	overwrite  bool
	extended   bool
	patchType  string
	schemas    []string
	definition string
	fallback   string
	output     string
}

func newDiffCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
	o := &diffOptions{}
	cmd := &cobra.Command{
		Use:   "diff ORIGINAL MODIFIED [--current LIVE]",
		Short: "Print the patch that turns ORIGINAL into MODIFIED (two-way), or that kubectl apply sends (three-way)",
		Long: `Print the strategic merge patch that turns ORIGINAL into MODIFIED, exactly as
Kubernetes' CreateTwoWayMergePatch computes it.

With --current, print the three-way patch kubectl apply sends: ORIGINAL is the
last-applied configuration, MODIFIED the new one, LIVE the object as it is now.
The patch makes LIVE what MODIFIED says, deletes what ORIGINAL had and MODIFIED
does not, and keeps what others added. Unless --overwrite, a patch that would
undo a change made to LIVE since ORIGINAL is refused: kmerge prints each
conflicting path and exits 1.

Files with several documents are paired by apiVersion, kind, namespace and
name (or by position for documents that are not Kubernetes objects); each
patch is printed after a comment naming its object.`,
		Example: `  # what patch turns the example Deployment into the patched one?
  kmerge patch -f examples/deployment.yaml --patch-file examples/deployment-patch.yaml > /tmp/new.yaml
  kmerge diff examples/deployment.yaml /tmp/new.yaml

  # kubectl apply's patch, refusing to undo changes made on the cluster
  kmerge diff last-applied.yaml new.yaml --current live.yaml

  # a patch that merges Service ports by port and protocol (for kmerge, not API servers)
  kmerge diff old.yaml new.yaml --extended`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("diff needs ORIGINAL and MODIFIED, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			return runDiff(o, args[0], args[1], stdin, stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.current, "current", "", "the live object: print the three-way patch kubectl apply sends")
	f.BoolVar(&o.overwrite, "overwrite", false, "with --current: never refuse, let the patch undo changes made to the live object")
	f.BoolVar(&o.extended, "extended", false, "items of lists with recommended merge keys carry $patchMergeKey (kmerge extension)")
	f.StringVar(&o.patchType, "type", "strategic", "patch type: strategic or merge (RFC 7396)")
	f.StringArrayVar(&o.schemas, "schema", nil, "CustomResourceDefinition or OpenAPI v2/v3 document adding kinds and definitions (repeatable)")
	f.StringVar(&o.definition, "definition", "", "schema definition for documents that are not Kubernetes objects")
	f.StringVar(&o.fallback, "fallback", "", "merge: diff kinds without a schema as JSON merge patches instead of failing")
	f.StringVarP(&o.output, "output", "o", "yaml", "output format: yaml or json")
	return cmd
}

func runDiff(o *diffOptions, origName, modName string, stdin io.Reader, stdout io.Writer) error {
	strategic := o.patchType == "strategic"
	switch {
	case o.patchType != "strategic" && o.patchType != "merge":
		return usagef("--type %q: use strategic or merge", o.patchType)
	case o.output != "yaml" && o.output != "json":
		return usagef("-o %q: use yaml or json", o.output)
	case o.fallback != "" && o.fallback != "merge":
		return usagef("--fallback %q: the only fallback is merge", o.fallback)
	case o.overwrite && o.current == "":
		return usagef("--overwrite needs --current")
	case !strategic && o.current != "":
		return usagef("a three-way diff (--current) is strategic; JSON merge patches are two-way here")
	case !strategic && o.extended:
		return usagef("--extended is for strategic patches")
	}
	s, err := loadSchemas(o.schemas)
	if err != nil {
		return err
	}
	var def *schema.Type
	if o.definition != "" {
		if def, err = s.Definition(o.definition); err != nil {
			return usagef("--definition: %v", err)
		}
	}
	stdinUsed := false
	read := func(name string) (*tree.Stream, error) {
		var data []byte
		var err error
		if name == "-" {
			if stdinUsed {
				return nil, usagef("only one of the files can be standard input")
			}
			stdinUsed = true
			data, err = io.ReadAll(stdin)
			name = "<stdin>"
		} else {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			return nil, err
		}
		return tree.Read(data, tree.Options{File: name})
	}
	names := []string{origName, modName}
	if o.current != "" {
		names = append(names, o.current)
	}
	var streams []*tree.Stream
	for _, n := range names {
		st, err := read(n)
		if err != nil {
			return err
		}
		streams = append(streams, st)
	}
	pairs, err := pairDocuments(streams, names)
	if err != nil {
		return err
	}
	var patches []*yaml.Node
	var labels []string
	for _, p := range pairs {
		var patch *yaml.Node
		typ, terr := typeOf(s, def, p.docs[1], "diff")
		switch {
		case !strategic || errors.Is(terr, errNoSchema) && o.fallback == "merge":
			patch = mergepatch.Diff(p.docs[0], p.docs[1])
		case terr != nil:
			return fmt.Errorf("%s: %w", p.label, terr)
		case len(p.docs) == 3:
			patch, err = smp.CreateThreeWayPatch(p.docs[0], p.docs[1], p.docs[2], typ, o.overwrite, smp.DiffOptions{Extended: o.extended})
		default:
			patch, err = smp.CreateTwoWayPatch(p.docs[0], p.docs[1], typ, smp.DiffOptions{Extended: o.extended})
		}
		if err != nil {
			var ce *smp.ConflictError
			if errors.As(err, &ce) {
				return conflictReport(ce, p.label)
			}
			return fmt.Errorf("%s: %w", p.label, err)
		}
		patches = append(patches, patch)
		labels = append(labels, p.label)
	}
	var out bytes.Buffer
	if o.output == "json" {
		for _, p := range patches {
			b, err := tree.AppendJSON(nil, p, "    ")
			if err != nil {
				return err
			}
			out.Write(b)
			out.WriteByte('\n')
		}
	} else {
		docs := make([]*yaml.Node, len(patches))
		for i, p := range patches {
			docs[i] = &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{p}}
			if len(patches) > 1 {
				p.HeadComment = "patch for " + labels[i]
			}
		}
		if err := tree.WriteYAML(&out, streams[1].Style, docs...); err != nil {
			return err
		}
	}
	_, err = stdout.Write(out.Bytes())
	return err
}

// docPair holds the matching documents of the files (original, modified
// and, for a three-way diff, current).
type docPair struct {
	docs  []*yaml.Node
	label string
}

// identity names a Kubernetes object, or is "" for other documents.
func identity(doc *yaml.Node) string {
	root := tree.Root(doc)
	kind := scalarField(root, "kind")
	if kind == "" {
		return ""
	}
	meta := tree.MapGet(root, "metadata")
	name := scalarField(meta, "name")
	if ns := scalarField(meta, "namespace"); ns != "" {
		name = ns + "/" + name
	}
	return strings.TrimSpace(scalarField(root, "apiVersion") + " " + kind + " " + name)
}

// pairDocuments pairs the documents of the files: by identity when every
// document is a named Kubernetes object, else by position.
func pairDocuments(streams []*tree.Stream, names []string) ([]docPair, error) {
	byIdentity := true
	for _, st := range streams {
		seen := map[string]bool{}
		for _, d := range st.Docs {
			id := identity(d)
			if id == "" || seen[id] {
				byIdentity = false
			}
			seen[id] = true
		}
	}
	if !byIdentity {
		n := len(streams[0].Docs)
		for i, st := range streams {
			if len(st.Docs) != n {
				return nil, fmt.Errorf("%s has %d documents and %s %d; documents that are not distinct Kubernetes objects are paired by position", names[0], n, names[i], len(st.Docs))
			}
		}
		pairs := make([]docPair, n)
		for i := range pairs {
			for _, st := range streams {
				pairs[i].docs = append(pairs[i].docs, st.Docs[i])
			}
			pairs[i].label = fmt.Sprintf("document %d", i+1)
			if id := identity(streams[1].Docs[i]); id != "" {
				pairs[i].label = id
			}
		}
		return pairs, nil
	}
	index := make([]map[string]*yaml.Node, len(streams))
	for i, st := range streams {
		index[i] = map[string]*yaml.Node{}
		for _, d := range st.Docs {
			index[i][identity(d)] = d
		}
	}
	var pairs []docPair
	for _, d := range streams[1].Docs {
		id := identity(d)
		p := docPair{label: id}
		for i := range streams {
			doc, ok := index[i][id]
			if !ok {
				doc = &yaml.Node{Kind: yaml.DocumentNode} // absent: an empty object
			}
			p.docs = append(p.docs, doc)
		}
		pairs = append(pairs, p)
	}
	for i, st := range streams {
		if i == 1 {
			continue
		}
		for _, d := range st.Docs {
			if _, ok := index[1][identity(d)]; !ok {
				return nil, fmt.Errorf("%s has %s, which %s lacks: a patch cannot delete an object", names[i], identity(d), names[1])
			}
		}
	}
	return pairs, nil
}

// conflictReport lists the conflicting paths with both sides.
func conflictReport(ce *smp.ConflictError, label string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the patch would undo changes made to the live object since it was last applied (use --overwrite to apply it anyway):", label)
	for _, c := range ce.Conflicts {
		fmt.Fprintf(&b, "\n  %s\n    patch:   %s\n    changed: %s", c.Path, short(c.Patch), short(c.Changed))
	}
	if ce.Err != nil {
		fmt.Fprintf(&b, "\n  (another path could not be compared: %v)", ce.Err)
	}
	return errors.New(b.String())
}

// short renders a value on one line, cut when long.
func short(n *yaml.Node) string {
	if n == nil {
		return "(nothing)"
	}
	b, err := tree.MarshalJSON(n)
	if err != nil {
		return "?"
	}
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}
