package kpatch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/internal/lines"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/suggest"
	"github.com/kmerge/kmerge/internal/walk"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
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
// text. Its openapi field's path is read too: a schema for the run
// (LoadOptions.Schemas). A field kustomize does not know is refused, as
// kustomize refuses it; everything else a kustomization holds is
// kustomize's to do: the fields are named in one warning.

// KustomizationNames are the names of the files kustomize reads a
// kustomization from, in the order it looks for them.
var KustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// kustomizationFields are the fields of a kustomization, as kustomize
// v5.8.2 reads them: its build refuses a kustomization with any other
// (conformance's TestKustomizationFields holds the list against it).
var kustomizationFields = []string{
	"apiVersion", "kind", "metadata",
	"resources", "bases", "components", "crds", "openapi",
	"patchesStrategicMerge", "patches", "patchesJson6902",
	"namePrefix", "nameSuffix", "namespace", "commonLabels", "labels", "commonAnnotations",
	"images", "imageTags", "replicas", "replacements", "vars",
	"configMapGenerator", "secretGenerator", "generatorOptions",
	"helmGlobals", "helmCharts", "helmChartInflationGenerator",
	"configurations", "generators", "transformers", "validators",
	"buildMetadata", "sortOptions",
}

// KustomizationFields returns the fields of a kustomization kustomize
// v5.8.2 knows, in the order of its documentation's groups. Load refuses a
// kustomization holding another (an *UnknownFieldError), as kustomize
// build does. kustomize reads field names in any letter case (Patches is
// patches), and so does Load.
func KustomizationFields() []string { return slices.Clone(kustomizationFields) }

// UnknownFieldError is a field of a kustomization (or a key of one of its
// entries) that kustomize does not know: kustomize build refuses the
// kustomization, and so does Load.
type UnknownFieldError struct {
	Pos  tree.Position
	Name string // as written
	// In is "" for a field of the kustomization, else the field whose
	// entry holds the key (patches, patchesJson6902).
	In string
	// Known are the names that would be read there, and Near the nearest
	// of them (none when none is near).
	Known, Near []string
}

func (e *UnknownFieldError) Error() string {
	where, what := "a kustomization", "field"
	if e.In != "" {
		where, what = "an entry of "+e.In, "key"
	}
	msg := fmt.Sprintf("%sunknown %s %q in %s", e.Pos, what, e.Name, where)
	if len(e.Near) > 0 {
		msg += " (" + suggest.Phrase(e.Near, nil) + ")"
	}
	if e.In != "" {
		return msg + ": the keys are " + phrase(e.Known)
	}
	return msg + ": kustomize refuses a kustomization with a field it does not know"
}

// keyed is a mapping of a kustomization read by kustomize's names for its
// keys (readKeys).
type keyed struct {
	values, keys map[string]*yaml.Node // by name
	names        []string              // of each key, in order
}

// readKeys reads the keys of the mapping n as kustomize does: each stands
// for the name among known it equals, else one it equals in another
// letter case (kustomize reads Patches as patches). A key that stands for
// none is an *UnknownFieldError (in names the field whose entry n is, ""
// for the kustomization itself), two that stand for one an error.
func readKeys(file string, n *yaml.Node, in string, known []string) (*keyed, error) {
	m := &keyed{values: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}, names: make([]string, len(n.Content)/2)}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, v := n.Content[i], n.Content[i+1]
		name := ""
		for _, f := range known {
			if key.Value == f {
				name = f
				break
			}
			if name == "" && strings.EqualFold(key.Value, f) {
				name = f
			}
		}
		if name == "" {
			return nil, unknownKey(file, key, in, known)
		}
		if prev := m.keys[name]; prev != nil {
			return nil, nodeErr(file, key, "%s and %s (line %d) are one key to kustomize, which reads names in any letter case: keep one", key.Value, prev.Value, prev.Line)
		}
		m.keys[name], m.values[name], m.names[i/2] = key, v, name
	}
	return m, nil
}

// unknownKey is the error for the key k of the field in (a kustomization's
// field, when in is "") that is none of known.
func unknownKey(file string, k *yaml.Node, in string, known []string) error {
	e := &UnknownFieldError{Pos: nodePos(file, k), Name: k.Value, In: in, Known: known, Near: suggest.Closest(k.Value, known)}
	return &syntax.Error{Pos: e.Pos, Msg: strings.TrimPrefix(e.Error(), e.Pos.String()), Err: e}
}

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

// parseKustomization reads the patches of a kustomization, data read from
// file; the files it names are read relative to file's folder.
func parseKustomization(data []byte, file string, limits *tree.Limits, opts LoadOptions) (*parsed, error) {
	st, err := tree.Read(data, tree.Options{File: file, Limits: limits})
	if err != nil {
		return nil, err
	}
	var root *yaml.Node
	for _, d := range st.Docs {
		r := tree.Root(d)
		if r == nil || tree.KindOf(r) == tree.Null {
			continue
		}
		if root != nil {
			return nil, nodeErr(file, r, "a second kustomization in one file: kustomize reads one")
		}
		root = r
	}
	out := &parsed{}
	for _, w := range st.Warnings {
		out.warnings = append(out.warnings, Warning{Pos: w.Pos, Msg: w.Msg})
	}
	k := &kustomization{file: file, dir: filepath.Dir(file), data: data, limits: limits, restrictions: opts.LoadRestrictions}
	if root == nil {
		// an empty kustomization: no patches, and no file of its folder named
		return out, k.unread(nil, opts, out)
	}
	if root.Kind != yaml.MappingNode {
		return nil, nodeErr(file, root, "a kustomization is a mapping; this is %s", tree.Describe(root))
	}
	m, err := readKeys(file, root, "", kustomizationFields)
	if err != nil {
		return nil, k.inSecretText(err, root)
	}
	fields, keys, names := m.values, m.keys, m.names
	var ignored []string
	var ignoredAt *yaml.Node
	ignore := func(what string, key *yaml.Node) {
		ignored = append(ignored, what)
		if ignoredAt == nil {
			ignoredAt = key
		}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, v, name := root.Content[i], root.Content[i+1], names[i/2]
		switch {
		case isEmpty(v):
			// nothing for kustomize to do either
		case name == "resources" || name == "bases":
			if files := k.resourceFiles(v, opts.Inputs); len(files) > 0 {
				ignore(fmt.Sprintf("%s (%s: give them with -f)", key.Value, strings.Join(files, ", ")), key)
			}
		case name == "components":
			ignore(key.Value+" (give each component folder with -p)", key)
		case name == "openapi":
			s, err := k.openAPI(v)
			if err != nil {
				return nil, err
			}
			if s != nil {
				out.schemas = append(out.schemas, s)
			}
		case !slices.Contains([]string{"apiVersion", "kind", "metadata", "patchesStrategicMerge", "patches", "patchesJson6902"}, name):
			ignore(key.Value, key)
		}
	}
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
			return nil, nodeErr(file, v, "%s is a list", keys[read.field].Value)
		}
		ps, err := read.read(v)
		if err != nil {
			return nil, k.inSecretText(err, v)
		}
		out.patches = append(out.patches, ps...)
	}
	for _, p := range out.patches {
		p.Kustomization = file
	}
	if len(ignored) > 0 {
		out.warnings = append(out.warnings, Warning{Pos: nodePos(file, ignoredAt), Ignored: ignored,
			Msg: fmt.Sprintf("kmerge reads the patches of a kustomization (patches, patchesStrategicMerge, patchesJson6902), not its %s", phrase(ignored))})
	}
	return out, k.unread(root, opts, out)
}

// isEmpty reports whether a field's value holds nothing: null, an empty
// list or mapping, an empty string.
func isEmpty(v *yaml.Node) bool {
	switch {
	case tree.KindOf(v) == tree.Null:
		return true
	case v.Kind == yaml.SequenceNode || v.Kind == yaml.MappingNode:
		return len(v.Content) == 0
	case v.Kind == yaml.ScalarNode:
		return v.Value == ""
	}
	return false
}

// openAPI reads the schema the openapi field v names (its path), nil when
// it names none (version: one of kustomize's built-in schemas, for which
// kmerge's own stands).
func (k *kustomization) openAPI(v *yaml.Node) (*schema.Schema, error) {
	if v.Kind != yaml.MappingNode {
		return nil, nodeErr(k.file, v, "openapi is a mapping: {path: FILE} (an OpenAPI document) or {version: VERSION}")
	}
	path := tree.MapGet(v, "path")
	if path == nil || isEmpty(path) {
		return nil, nil
	}
	if path.Kind == yaml.ScalarNode && strings.Contains(path.Value, "://") {
		return nil, nodeErr(k.file, path, "kmerge reads no schema from the network: download %s and name the file here, or give it with --schema", path.Value)
	}
	c, err := k.readFile(path, "schema")
	if err != nil {
		return nil, err
	}
	s, err := schema.Load(c.data, c.file)
	if err != nil {
		return nil, err
	}
	return s, nil
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
	data         []byte   // the kustomization's text
	lines        []string // data's lines as the YAML reader counts them, once one is needed (line)
	limits       *tree.Limits
	restrictions LoadRestrictions
}

// resourceFiles lists the entries of resources that are files of the
// kustomization's folder (or below): manifests the kustomization adds,
// which kmerge does not read from it, but for those among the manifests
// given (files, or folders holding them: LoadOptions.Inputs). Folders
// (bases) and URLs are not listed: -f gives the manifests.
func (k *kustomization) resourceFiles(v *yaml.Node, manifests []string) []string {
	var out []string
	if v.Kind != yaml.SequenceNode {
		return nil
	}
	given := pathSet{}
	for _, m := range manifests {
		given[resolved(m)] = true
	}
	for _, e := range v.Content {
		if e.Kind != yaml.ScalarNode || strings.Contains(e.Value, "://") {
			continue
		}
		p := filepath.Join(k.dir, e.Value)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && !given.holds(resolved(p), "") {
			out = append(out, e.Value)
		}
	}
	return out
}

// pathSet is a set of paths, each standing for itself and what is below
// it.
type pathSet map[string]bool

// holds reports whether the set has p or a folder above it, below stop
// (a value naming the folder stop or one above it names none of its
// files); stop "" is none.
func (s pathSet) holds(p, stop string) bool {
	for ; p != stop; p = filepath.Dir(p) {
		if s[p] {
			return true
		}
		if filepath.Dir(p) == p {
			break
		}
	}
	return false
}

// resolved returns the absolute path of p, links followed when it exists.
func resolved(p string) string {
	if r, err := realPath(p); err == nil {
		return r
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// folderFiles lists the files of the kustomization's folder and below,
// as Load walks folders but for the folders below that hold a
// kustomization of their own (a component's, a base's): the .kpatch files,
// which kmerge reads beside a kustomization (kustomize never reads them),
// and the other files Load would read in a folder without a kustomization
// (.yaml, .yml, .json), the kustomization and project files left out.
func folderFiles(dir string) (kpatches, others []string, err error) {
	files, err := walk.FilesEnter(dir, func(path string) bool {
		return isPatchFile(path) && !isProjectFile(path) && !(filepath.Dir(path) == dir && slices.Contains(KustomizationNames, filepath.Base(path)))
	}, func(d string) ([]string, bool, error) {
		if d == dir {
			return nil, false, nil
		}
		k, err := KustomizationIn(d)
		return nil, k != "", err
	})
	for _, f := range files {
		if strings.EqualFold(filepath.Ext(f), ".kpatch") {
			kpatches = append(kpatches, f)
		} else {
			others = append(others, f)
		}
	}
	return kpatches, others, err
}

// unread adds to out, for each file of the kustomization's folder that
// Load would read in a folder without a kustomization (folderFiles) and
// that neither the kustomization, its root, names nor the run reads
// (opts.Inputs), a warning: nothing reads it. With opts.Strict, the first
// is an error. A file is named by any
// value of the kustomization that is its path (relative to the
// kustomization's folder; in a generator's files, after "key="), or the
// path of a folder holding it (a chart home: helmGlobals.chartHome, by
// default charts when the kustomization has helmCharts).
func (k *kustomization) unread(root *yaml.Node, opts LoadOptions, out *parsed) error {
	_, others, err := folderFiles(k.dir)
	if err != nil || len(others) == 0 {
		return err
	}
	dir := filepath.Clean(k.dir)
	named := pathSet{} // the paths the values name, joined to the folder
	name := func(v string) {
		// a value that is the folder itself (".") names no file of it
		if p := filepath.Join(dir, v); p != dir {
			named[p] = true
		}
	}
	// the values (not the keys: patches is a field, not the folder
	// patches/), and in a generator's files the path after key=
	var gather func(n *yaml.Node)
	gather = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.ScalarNode:
			if n.Value != "" && !strings.Contains(n.Value, "\n") {
				if _, after, ok := strings.Cut(n.Value, "="); ok {
					name(after)
				}
				name(n.Value)
			}
		case yaml.MappingNode:
			for i := 1; i < len(n.Content); i += 2 {
				gather(n.Content[i])
			}
		default:
			for _, c := range n.Content {
				gather(c)
			}
		}
	}
	if root != nil {
		gather(root)
		if charts := tree.MapGet(root, "helmCharts"); charts != nil && !isEmpty(charts) && tree.MapGet(tree.MapGet(root, "helmGlobals"), "chartHome") == nil {
			name("charts")
		}
	}
	// a file is named by its path or a folder's above it, as written
	// (the walk lists files under the names of the links it followed, as
	// the kustomization names them), else once links are followed (an
	// absolute path, a path through another link)
	var real pathSet // named, links followed: made when a file is not named as written
	var inputs pathSet
	realDir := resolved(dir)
	for _, f := range others {
		if named.holds(filepath.Clean(f), dir) {
			continue
		}
		if real == nil {
			real, inputs = pathSet{}, pathSet{}
			for p := range named {
				real[resolved(p)] = true
			}
			for _, p := range opts.Inputs {
				inputs[resolved(p)] = true
			}
		}
		if r := resolved(f); real.holds(r, realDir) || inputs.holds(r, "") {
			continue // named through a link, or a manifest, values file or schema of the run
		}
		rel, err := filepath.Rel(k.dir, f)
		if err != nil {
			rel = f
		}
		msg := fmt.Sprintf("nothing reads this file: kmerge reads its folder through %s (and the .kpatch files there), which does not name it; name it there (patches: [{path: %s}] for a patch), or remove it", k.file, filepath.ToSlash(rel))
		pos := tree.Position{File: f, Line: 1, Column: 1}
		if opts.Strict {
			return &syntax.Error{Pos: pos, Msg: msg + " (an error in strict mode)"}
		}
		out.warnings = append(out.warnings, Warning{Pos: pos, Msg: msg, Unread: true})
	}
	return nil
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
	return k.readFile(n, "patch")
}

// readFile reads a file named by the kustomization at n, as read does; what
// the file is (a patch, a schema) is said in errors.
func (k *kustomization) readFile(n *yaml.Node, what string) (content, error) {
	if n.Kind != yaml.ScalarNode || n.Value == "" {
		return content{}, nodeErr(k.file, n, "a %s's path is a file name", what)
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
			return content{}, nodeErr(k.file, n, "the %s file %s does not exist (in %s)", what, name, k.dir)
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
		// the text starts on the next line, at the block's indentation:
		// its first line with text has that many spaces more in the
		// kustomization than in the value (not the next line's spaces: a
		// blank line first, an indentation indicator as in |2, put its
		// errors at columns to the left or right; attack, 2026-11-29)
		c.line = n.Line
		for i, v := range lines.SplitYAML(n.Value) {
			if strings.TrimLeft(v, " ") != "" {
				l := k.line(n.Line + 1 + i)
				c.col = max(0, len(l)-len(strings.TrimLeft(l, " "))-(len(v)-len(strings.TrimLeft(v, " "))))
				break
			}
		}
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		c.col++ // after the quote
	}
	return c, nil
}

// line returns line n (from 1) of the kustomization's text, "" when it
// has no such line. Its lines are cut once, when the first is needed (an
// inline block patch's indentation, an error's line): lines as the YAML
// reader counts them (at "\n" alone, a file of CRs had no line 2, and an
// inline block's errors pointed at column 1), the text cut once per
// kustomization, not once per inline patch (a kustomization of n inline
// patches was cut n times).
func (k *kustomization) line(n int) string {
	if k.lines == nil {
		k.lines = lines.SplitYAML(string(k.data))
	}
	if n < 1 || n > len(k.lines) {
		return ""
	}
	return k.lines[n-1]
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
		if c.file == k.file {
			// inline: the error's position in the kustomization, moved as
			// the patch's nodes are (it named the line and column in the
			// patch's text with the kustomization's name: a line of
			// another entry, or none; an attack, 2026-11-29)
			var se *tree.SyntaxError
			if errors.As(err, &se) && se.Pos.Line > 0 {
				moved := *se
				moved.Pos.File = k.file
				moved.Pos.Line += c.line
				if se.Pos.Column > 0 {
					moved.Pos.Column += c.col
				}
				return nil, &syntax.Error{Pos: moved.Pos, Msg: "the inline patch does not read as YAML: " + se.Msg, Err: &moved}
			}
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
func (k *kustomization) strategic(root *yaml.Node, file string, sel *syntax.Target) (*syntax.Patch, error) {
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
	p.Target = syntax.Target{ID: true, APIVersion: str(root, "apiVersion"), Kind: str(root, "kind"),
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
		// inline text: a value of several lines (a block keeps an LS or a
		// PS, which end lines too: such a patch was taken for a file name)
		if strings.ContainsAny(e.Value, "\n\u2028\u2029") {
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
		m, err := readKeys(k.file, e, "patches", []string{"path", "patch", "target", "options"})
		if err != nil {
			return nil, err
		}
		path, text, target, options := m.values["path"], m.values["patch"], m.values["target"], m.values["options"]
		docs, c, _, err := k.entryDocs(e, "patches", path, text)
		if err != nil {
			return nil, err
		}
		var sel *syntax.Target
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
		m, err := readKeys(k.file, e, "patchesJson6902", []string{"target", "path", "patch"})
		if err != nil {
			return nil, err
		}
		path, text, target := m.values["path"], m.values["patch"], m.values["target"]
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

// inSecretText marks err, an error met reading the content of n (the
// kustomization's mapping, or the list of one of its patch fields), as
// one whose line is quoted masked when it points into the kustomization
// at an entry of n that may set a Secret's values: its text names secret
// in any letter case or holds a * (a patch's kind, a target's), or it has
// a target that names no kind. Such an entry is read before any object
// is known, and a line of it can hold an inline patch's values (a flow
// mapping: - {patch: "...stringData: {password: ...}", targt: ...}); it
// is the rule of a patch list that is not YAML (syntax.Error.Secret).
func (k *kustomization) inSecretText(err error, n *yaml.Node) error {
	var se *syntax.Error
	if !errors.As(err, &se) || se.Pos.File != k.file || se.Pos.Line == 0 {
		return err
	}
	// the entry the error is in: from its first line to the next entry's
	step := 1
	if n.Kind == yaml.MappingNode {
		step = 2
	}
	from, to := 0, 0
	var entry *yaml.Node
	for i := 0; i < len(n.Content); i += step {
		if n.Content[i].Line > se.Pos.Line {
			to = n.Content[i].Line
			break
		}
		from = n.Content[i].Line
		entry = n.Content[i+step-1]
	}
	if entry == nil {
		return err
	}
	// (lines as YAML's: ended by an LF, a CRLF or a lone CR; a file of
	// CRs was one line, the entry's text none: a Secret's values quoted in
	// clear, or, an entry after the first line's with another after it,
	// a slice out of range; and by a NEL, LS or PS, which the YAML reader
	// counts too: lines ended by NELs before the entry made the lines
	// taken for it later ones, without "secret", and its values were
	// quoted in clear)
	k.line(1) // (cuts the lines)
	lines := k.lines
	if to == 0 || to-1 > len(lines) {
		to = len(lines) + 1
	}
	if from > to-1 {
		se.Secret = true // (not found: masked)
		return err
	}
	text := strings.ToLower(strings.Join(lines[from-1:to-1], "\n"))
	secretText := strings.Contains(text, "secret") || strings.Contains(text, "*")
	if t := tree.MapGet(entry, "target"); t != nil && t.Kind == yaml.MappingNode && tree.MapGet(t, "kind") == nil {
		secretText = true
	}
	if secretText {
		se.Secret = true
	}
	return err
}
