package kpatch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"

	"github.com/kmerge/kmerge/kpatch/syntax"
)

// Overlays as they are: a kustomization among the patch files is read for
// its patches, as kustomize applies them. Its three patch fields, in
// kustomize's order: patchesStrategicMerge (strategic merge patches, each
// naming its target by its own apiVersion, kind, name and namespace),
// patches (strategic merge patches or JSON patches, with or without a
// target, with options), patchesJson6902 (JSON patches with a target).
// A patch is a file, relative to the kustomization's folder, or inline
// text. Everything else a kustomization holds is kustomize's to do: the
// fields are named in one warning.

// KustomizationNames are the names of the files kustomize reads a
// kustomization from, in the order it looks for them.
var KustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// KustomizationIn returns the kustomization file of the folder dir, ""
// when it has none; two of them is an error, as for kustomize.
func KustomizationIn(dir string) (string, error) {
	var found []string
	for _, n := range KustomizationNames {
		p := filepath.Join(dir, n)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return "", nil
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%s: more than one kustomization file (%s): kustomize reads one; remove the others", dir, strings.Join(found, ", "))
}

// isKustomizationFile reports whether data, read from file, is a
// kustomization: a file kustomize would read as one (named Kustomization),
// or one whose documents are kustomizations (resource.IsKustomizationFile).
func isKustomizationFile(data []byte, file string) bool {
	return filepath.Base(file) == "Kustomization" || resource.IsKustomizationFile(data, file)
}

// kustomizationFields are the fields of a kustomization kmerge reads or
// needs not mention.
var kustomizationFields = map[string]bool{
	"apiVersion": true, "kind": true, "metadata": true,
	"patchesStrategicMerge": true, "patches": true, "patchesJson6902": true,
	"resources": true, "bases": true, // the manifests: given with -f (files among them are named)
}

// parseKustomization reads the patches of a kustomization, data read from
// file; the files it names are read relative to file's folder.
func parseKustomization(data []byte, file string, limits *tree.Limits, restrictions LoadRestrictions) ([]*syntax.Patch, []Warning, error) {
	st, err := tree.Read(data, tree.Options{File: file, Limits: limits})
	if err != nil {
		return nil, nil, err
	}
	var root *yaml.Node
	for _, d := range st.Docs {
		r := tree.Root(d)
		if r == nil || tree.KindOf(r) == tree.Null {
			continue
		}
		if root != nil {
			return nil, nil, nodeErr(file, r, "a second kustomization in one file: kustomize reads one")
		}
		root = r
	}
	if root == nil {
		return nil, nil, nil // an empty kustomization: no patches
	}
	if root.Kind != yaml.MappingNode {
		return nil, nil, nodeErr(file, root, "a kustomization is a mapping; this is %s", tree.Describe(root))
	}
	k := &kustomization{file: file, dir: filepath.Dir(file), data: data, limits: limits, restrictions: restrictions}
	var ignored []string
	var ignoredAt *yaml.Node
	fields := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, v := root.Content[i], root.Content[i+1]
		fields[key.Value] = v
		switch {
		case key.Value == "resources" || key.Value == "bases":
			if files := k.resourceFiles(v); len(files) > 0 {
				ignored = append(ignored, fmt.Sprintf("%s (%s: give them with -f)", key.Value, strings.Join(files, ", ")))
				if ignoredAt == nil {
					ignoredAt = key
				}
			}
		case !kustomizationFields[key.Value]:
			ignored = append(ignored, key.Value)
			if ignoredAt == nil {
				ignoredAt = key
			}
		}
	}
	var patches []*syntax.Patch
	for _, read := range []struct {
		field string
		read  func(*yaml.Node) ([]*syntax.Patch, error)
	}{
		{"patchesStrategicMerge", k.strategicMerge},
		{"patches", k.patches},
		{"patchesJson6902", k.json6902},
	} {
		v := fields[read.field]
		if v == nil || tree.KindOf(v) == tree.Null {
			continue
		}
		if v.Kind != yaml.SequenceNode {
			return nil, nil, nodeErr(file, v, "%s is a list", read.field)
		}
		ps, err := read.read(v)
		if err != nil {
			return nil, nil, err
		}
		patches = append(patches, ps...)
	}
	for _, p := range patches {
		p.Kustomization = file
	}
	var warnings []Warning
	for _, w := range st.Warnings {
		warnings = append(warnings, Warning{Pos: w.Pos, Msg: w.Msg})
	}
	if len(ignored) > 0 {
		warnings = append(warnings, Warning{Pos: nodePos(file, ignoredAt), Ignored: ignored,
			Msg: fmt.Sprintf("kmerge reads the patches of a kustomization (patches, patchesStrategicMerge, patchesJson6902), not its %s", phrase(ignored))})
	}
	return patches, warnings, nil
}

// phrase joins words as a sentence lists them: "a", "a and b", "a, b and c".
func phrase(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// kustomization is a kustomization being read.
type kustomization struct {
	file, dir    string
	data         []byte // the kustomization's text
	limits       *tree.Limits
	restrictions LoadRestrictions
}

// resourceFiles lists the entries of resources that are files of the
// kustomization's folder (or below): manifests the kustomization adds,
// which kmerge does not read from it. Folders (bases) and URLs are not
// listed: -f gives the manifests.
func (k *kustomization) resourceFiles(v *yaml.Node) []string {
	var out []string
	if v.Kind != yaml.SequenceNode {
		return nil
	}
	for _, e := range v.Content {
		if e.Kind != yaml.ScalarNode || strings.Contains(e.Value, "://") {
			continue
		}
		if info, err := os.Stat(filepath.Join(k.dir, e.Value)); err == nil && info.Mode().IsRegular() {
			out = append(out, e.Value)
		}
	}
	return out
}

// content is the text of a patch: a file's, or inline text in the
// kustomization, with where it is.
type content struct {
	data []byte
	file string // the file the positions of the patch's nodes name
	// lines and columns to add to positions read from data: for text
	// inline in the kustomization, where it starts there
	line, col int
}

// read reads a patch file named by the kustomization at n: a regular file
// (readfile.Found), in or below the kustomization's folder once links are
// followed unless the restrictions are lifted (LoadOptions.LoadRestrictions).
func (k *kustomization) read(n *yaml.Node) (content, error) {
	if n.Kind != yaml.ScalarNode || n.Value == "" {
		return content{}, nodeErr(k.file, n, "a patch's path is a file name")
	}
	name := n.Value
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(k.dir, name)
	}
	if k.restrictions == RootOnly {
		if err := k.inRoot(name, p, n); err != nil {
			return content{}, err
		}
	}
	data, err := readfile.Found(p, k.limits)
	if err != nil {
		if os.IsNotExist(err) {
			return content{}, nodeErr(k.file, n, "the patch file %s does not exist (in %s)", name, k.dir)
		}
		return content{}, &syntax.Error{Pos: nodePos(k.file, n), Msg: err.Error(), Err: err}
	}
	return content{data: data, file: p}, nil
}

// inRoot checks that the file at p, named name by the kustomization at n,
// is in or below the kustomization's folder, as kustomize's default load
// restrictions require: the file it is once every link is followed (the
// file's own, a linked folder on its way, the kustomization's folder's),
// not its name. A file that does not exist is checked by its name.
func (k *kustomization) inRoot(name, p string, n *yaml.Node) error {
	root, errRoot := realPath(k.dir)
	real, err := realPath(p)
	if errRoot != nil || err != nil {
		// nothing to follow: the name says it (and reading says the rest)
		if rel, err := filepath.Rel(k.dir, p); err != nil || !filepath.IsLocal(rel) {
			e := &OutsideRootError{Name: name, File: p, Root: k.dir}
			return &syntax.Error{Pos: nodePos(k.file, n), Msg: e.Error(), Err: e}
		}
		return nil
	}
	if rel, err := filepath.Rel(root, real); err == nil && (rel == "." || filepath.IsLocal(rel)) {
		return nil
	}
	e := &OutsideRootError{Name: name, File: real, Root: root}
	if rel, err := filepath.Rel(k.dir, p); err == nil && filepath.IsLocal(rel) {
		e.Linked = true
	}
	return &syntax.Error{Pos: nodePos(k.file, n), Msg: e.Error(), Err: e}
}

// realPath returns the absolute path of the file at p, every link on the
// way followed.
func realPath(p string) (string, error) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(real)
}

// OutsideRootError is a file a kustomization names that is not in or
// below the kustomization's folder once links are followed: kustomize's
// default load restrictions (--load-restrictor LoadRestrictionsRootOnly)
// refuse it, and so does Load, unless LoadOptions.LoadRestrictions is
// NoRestrictions.
type OutsideRootError struct {
	Name string // as the kustomization names it
	// File is the file the name leads to, links followed (as named when
	// it does not exist), and Root the kustomization's folder, likewise.
	File, Root string
	// Linked is set when the name itself is in the folder, and a symbolic
	// link (the file, or a folder on its way) leads out of it.
	Linked bool
}

func (e *OutsideRootError) Error() string {
	if e.Linked {
		to := e.File // from the folder, when that is shorter
		if rel, err := filepath.Rel(e.Root, e.File); err == nil && len(rel) < len(to) {
			to = rel
		}
		return fmt.Sprintf("%s leads out of the kustomization's folder through a symbolic link (to %s), where kustomize reads no file (its default load restrictions)", e.Name, to)
	}
	return fmt.Sprintf("%s is outside the kustomization's folder, where kustomize reads no file (its default load restrictions)", e.Name)
}

// inline returns the text of an inline patch, the scalar n of the
// kustomization, with where its text starts.
func (k *kustomization) inline(n *yaml.Node) (content, error) {
	if n.Kind != yaml.ScalarNode {
		return content{}, nodeErr(k.file, n, "an inline patch is text: patch: |- followed by the patch")
	}
	c := content{data: []byte(n.Value), file: k.file, line: n.Line - 1, col: n.Column - 1}
	switch {
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		// the text starts on the next line, at the block's indentation
		c.line, c.col = n.Line, indentOfLine(k.data, n.Line+1)
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		c.col++ // after the quote
	}
	return c, nil
}

// indentOfLine returns the indentation of line (1-based) of text, 0 when
// it has no such line.
func indentOfLine(text []byte, line int) int {
	lines := strings.SplitN(string(text), "\n", line+1)
	if line-1 >= len(lines) {
		return 0
	}
	l := lines[line-1]
	return len(l) - len(strings.TrimLeft(l, " "))
}

// entryDocs reads the documents of an entry e of the field (patches,
// patchesJson6902) that gives a file by its path or the patch inline,
// and returns them with what they were read from (c: the file, or the
// kustomization for an inline patch) and the node that gave them.
func (k *kustomization) entryDocs(e *yaml.Node, field string, path, text *yaml.Node) ([]*yaml.Node, content, *yaml.Node, error) {
	var c content
	var err error
	at := path
	switch {
	case path != nil && text != nil:
		return nil, c, nil, nodeErr(k.file, e, "an entry of %s has a path or a patch, not both", field)
	case path != nil:
		c, err = k.read(path)
	case text != nil:
		c, err = k.inline(text)
		at = text
	default:
		return nil, c, nil, nodeErr(k.file, e, "an entry of %s needs a path or a patch", field)
	}
	if err != nil {
		return nil, c, nil, err
	}
	docs, err := k.docs(c, at)
	return docs, c, at, err
}

// docs parses a patch's text into its documents (their roots, empty ones
// left out), with positions in the file the text is in.
func (k *kustomization) docs(c content, at *yaml.Node) ([]*yaml.Node, error) {
	st, err := tree.Read(c.data, tree.Options{File: c.file, Limits: k.limits})
	if err != nil {
		if c.file == k.file { // inline: the position is the patch's in the kustomization
			return nil, &syntax.Error{Pos: nodePos(k.file, at), Msg: "the inline patch does not read as YAML: " + err.Error(), Err: err}
		}
		return nil, err
	}
	var out []*yaml.Node
	for _, d := range st.Docs {
		r := tree.Root(d)
		if r == nil || tree.KindOf(r) == tree.Null {
			continue
		}
		if c.line != 0 || c.col != 0 {
			shift(r, c.line, c.col)
		}
		out = append(out, r)
	}
	return out, nil
}

// shift moves the positions of n and the nodes below it.
func shift(n *yaml.Node, line, col int) {
	n.Line += line
	n.Column += col
	for _, c := range n.Content {
		shift(c, line, col)
	}
}

// strategic returns a strategic merge patch of the document root, for the
// objects sel picks, or, when sel is nil, for the object the document
// names (kustomize's patch without a target).
func (k *kustomization) strategic(root *yaml.Node, file string, sel *resource.Selector) (*syntax.Patch, error) {
	if root.Kind != yaml.MappingNode {
		return nil, nodeErr(file, root, "a strategic merge patch is a mapping; this is %s", tree.Describe(root))
	}
	p := &syntax.Patch{Pos: nodePos(file, root), Type: change.StrategicPatch, Body: root}
	if sel != nil {
		p.Target = *sel
		return p, nil
	}
	str := func(n *yaml.Node, key string) string {
		if v := tree.MapGet(n, key); v != nil && v.Kind == yaml.ScalarNode {
			return v.Value
		}
		return ""
	}
	meta := tree.MapGet(root, "metadata")
	p.Target = resource.Selector{ID: true, APIVersion: str(root, "apiVersion"), Kind: str(root, "kind"),
		Name: str(meta, "name"), Namespace: str(meta, "namespace")}
	if p.Target.Kind == "" || p.Target.Name == "" {
		return nil, nodeErr(file, root, "a strategic merge patch without a target names its object: apiVersion, kind and metadata.name")
	}
	return p, nil
}

// strategicMerge reads patchesStrategicMerge: files or inline text, each
// of strategic merge patches that name their objects.
func (k *kustomization) strategicMerge(list *yaml.Node) ([]*syntax.Patch, error) {
	var out []*syntax.Patch
	for _, e := range list.Content {
		if e.Kind != yaml.ScalarNode {
			return nil, nodeErr(k.file, e, "an entry of patchesStrategicMerge is a file name or a patch's text")
		}
		var c content
		var err error
		if strings.Contains(e.Value, "\n") {
			c, err = k.inline(e)
		} else {
			c, err = k.read(e)
		}
		if err != nil {
			return nil, err
		}
		docs, err := k.docs(c, e)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			p, err := k.strategic(d, c.file, nil)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// patches reads patches: each a path or an inline patch, a target, and
// options; a strategic merge patch (one or several documents, without a
// target) or a JSON patch (with a target), as its text says.
func (k *kustomization) patches(list *yaml.Node) ([]*syntax.Patch, error) {
	var out []*syntax.Patch
	for _, e := range list.Content {
		if e.Kind != yaml.MappingNode {
			return nil, nodeErr(k.file, e, "an entry of patches is a mapping of path or patch, target and options")
		}
		var path, text, target, options *yaml.Node
		for i := 0; i+1 < len(e.Content); i += 2 {
			key, v := e.Content[i], e.Content[i+1]
			switch key.Value {
			case "path":
				path = v
			case "patch":
				text = v
			case "target":
				target = v
			case "options":
				options = v
			default:
				return nil, nodeErr(k.file, key, "unknown key %q in an entry of patches: the keys are path, patch, target and options", key.Value)
			}
		}
		docs, c, _, err := k.entryDocs(e, "patches", path, text)
		if err != nil {
			return nil, err
		}
		var sel *resource.Selector
		if target != nil && tree.KindOf(target) != tree.Null {
			if target.Kind != yaml.MappingNode {
				return nil, nodeErr(k.file, target, "the target of a kustomize patch is a mapping: {kind: Deployment, name: web}")
			}
			s, err := syntax.ParseYAMLTarget(target, k.file)
			if err != nil {
				return nil, err
			}
			sel = &s
		}
		var ps []*syntax.Patch
		switch {
		case len(docs) == 1 && docs[0].Kind == yaml.SequenceNode:
			if sel == nil {
				return nil, nodeErr(k.file, e, "a JSON patch in patches needs a target")
			}
			ps = []*syntax.Patch{{Pos: nodePos(c.file, docs[0]), Type: change.JSONPatch, Body: docs[0], Target: *sel}}
		case len(docs) > 1 && sel != nil:
			return nil, nodeErr(k.file, target, "a patch of several documents has no target: each names its object (as kustomize requires)")
		default:
			for _, d := range docs {
				p, err := k.strategic(d, c.file, sel)
				if err != nil {
					return nil, err
				}
				ps = append(ps, p)
			}
		}
		if options != nil {
			for _, p := range ps {
				if err := k.options(p, options); err != nil {
					return nil, err
				}
			}
		}
		out = append(out, ps...)
	}
	return out, nil
}

// options reads an entry's options: kustomize's allowNameChange and
// allowKindChange, which a JSON patch ignores (it changes what it says).
func (k *kustomization) options(p *syntax.Patch, n *yaml.Node) error {
	if p.Type == change.JSONPatch {
		return nil
	}
	return syntax.ParseOptions(p, n, k.file)
}

// json6902 reads patchesJson6902: JSON patches, each a path or an inline
// patch, with a target.
func (k *kustomization) json6902(list *yaml.Node) ([]*syntax.Patch, error) {
	var out []*syntax.Patch
	for _, e := range list.Content {
		if e.Kind != yaml.MappingNode {
			return nil, nodeErr(k.file, e, "an entry of patchesJson6902 is a mapping of target and path or patch")
		}
		var path, text, target *yaml.Node
		for i := 0; i+1 < len(e.Content); i += 2 {
			key, v := e.Content[i], e.Content[i+1]
			switch key.Value {
			case "path":
				path = v
			case "patch":
				text = v
			case "target":
				target = v
			default:
				return nil, nodeErr(k.file, key, "unknown key %q in an entry of patchesJson6902: the keys are target, path and patch", key.Value)
			}
		}
		if target == nil || target.Kind != yaml.MappingNode {
			return nil, nodeErr(k.file, e, "an entry of patchesJson6902 needs a target: {group: apps, version: v1, kind: Deployment, name: web}")
		}
		sel, err := syntax.ParseYAMLTarget(target, k.file)
		if err != nil {
			return nil, err
		}
		docs, c, at, err := k.entryDocs(e, "patchesJson6902", path, text)
		if err != nil {
			return nil, err
		}
		if len(docs) != 1 || docs[0].Kind != yaml.SequenceNode {
			return nil, nodeErr(k.file, at, "a JSON patch is a list of operations: - {op: replace, path: /spec/replicas, value: 3}")
		}
		out = append(out, &syntax.Patch{Pos: nodePos(c.file, docs[0]), Type: change.JSONPatch, Body: docs[0], Target: sel})
	}
	return out, nil
}

// nodeErr is the error about the node n of the file file.
func nodeErr(file string, n *yaml.Node, format string, args ...any) error {
	return &syntax.Error{Pos: nodePos(file, n), Msg: fmt.Sprintf(format, args...)}
}

func nodePos(file string, n *yaml.Node) tree.Position {
	return tree.Position{File: file, Line: n.Line, Column: n.Column}
}
