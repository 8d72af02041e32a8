// Package resource reads sets of Kubernetes objects from files, folders and
// standard input, and selects objects by kind, name, namespace and labels.
//
// An object is identified by its group, kind, namespace and name. Kinds are
// matched in any letter case by Kind, resource name or short name
// (deployment, deployments, deploy), or qualified by group
// ("deployment.apps") when a name is ambiguous among the objects of a set.
package resource

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/walk"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// Resource is one object of a set. Its Root is the object's mapping node
// inside its source's stream: editing it edits the source (nil once the
// source is released: Source.Release).
type Resource struct {
	Root   *yaml.Node
	Source *Source
	Doc    int // index of the document in the source
	Item   int // index in the items of a List document, -1 for a whole document

	// The object's identity: as it was read, or as the patches applied so
	// far made it (Reidentify).
	APIVersion, Kind, Namespace, Name string

	// Original is the identity the object was read with, once a patch
	// has changed it (a new name, kind, apiVersion or namespace); nil
	// while it has not. A selector picks an object by the name and the
	// namespace it has or had, and by the kind and apiVersion it has, as
	// kustomize picks the targets of later patches.
	Original *Identity
	// Deleted is set when a patch deleted the object: RemoveDeleted
	// takes it out of its source.
	Deleted bool

	line, column int // of Root, kept when it is released
}

// Identity is what names an object.
type Identity struct {
	APIVersion, Kind, Namespace, Name string
}

// String names the object: "apps/v1 Deployment prod/web".
func (id Identity) String() string {
	name := id.Name
	if id.Namespace != "" {
		name = id.Namespace + "/" + name
	}
	return id.APIVersion + " " + id.Kind + " " + name
}

// Identity returns the object's identity now.
func (r *Resource) Identity() Identity {
	return Identity{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
}

// GVK returns the group, version and kind of the object.
func (r *Resource) GVK() schema.GroupVersionKind { return schema.ParseGVK(r.APIVersion, r.Kind) }

// Position returns where the object starts.
func (r *Resource) Position() tree.Position {
	if r.Root == nil {
		return tree.Position{File: r.Source.Path, Line: r.line, Column: r.column}
	}
	return tree.Position{File: r.Source.Path, Line: r.Root.Line, Column: r.Root.Column}
}

// Target names the object as a target picks it, for messages that say
// what to write: kind.name, with its namespace (prod/deployment.web)
// where it has one, quoted as a target quotes (cm."app.config").
func (r *Resource) Target() string {
	return Selector{Namespace: r.Namespace, Kind: strings.ToLower(r.Kind), Name: r.Name}.String()
}

// ID names the object: "apps/v1 Deployment prod/web".
func (r *Resource) ID() string { return r.Identity().String() }

// OriginalID names the object by the identity it was read with, which
// patches do not change: what conflicts between patches are grouped by.
func (r *Resource) OriginalID() string {
	if r.Original != nil {
		return r.Original.String()
	}
	return r.ID()
}

// Reidentify reads the object's identity from its Root again, after a
// patch that may have changed it, and reports whether it changed (then
// Original holds the identity it was read with). A name or a kind a patch
// deleted or made something else than a string keeps the one it had: the
// object is invalid, which validation reports.
func (r *Resource) Reidentify() bool {
	meta := tree.MapGet(r.Root, "metadata")
	now := Identity{APIVersion: str(r.Root, "apiVersion"), Kind: str(r.Root, "kind"), Namespace: str(meta, "namespace"), Name: str(meta, "name")}
	if now.APIVersion == "" {
		now.APIVersion = r.APIVersion
	}
	if now.Kind == "" {
		now.Kind = r.Kind
	}
	if now.Name == "" {
		now.Name = r.Name
	}
	was := r.Identity()
	if now == was {
		return false
	}
	if r.Original == nil {
		r.Original = &was
	}
	r.APIVersion, r.Kind, r.Namespace, r.Name = now.APIVersion, now.Kind, now.Namespace, now.Name
	return true
}

// Labels returns the object's metadata.labels.
func (r *Resource) Labels() map[string]string { return r.metadataMap("labels") }

// Annotations returns the object's metadata.annotations.
func (r *Resource) Annotations() map[string]string { return r.metadataMap("annotations") }

func (r *Resource) metadataMap(field string) map[string]string {
	out := map[string]string{}
	m := tree.MapGet(tree.MapGet(r.Root, "metadata"), field)
	if m == nil || m.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		out[m.Content[i].Value] = m.Content[i+1].Value
	}
	return out
}

// Source is a file (or standard input) of a set.
type Source struct {
	Path   string // as found: the file's path, or "<stdin>"
	Rel    string // path relative to the folder it was found in (the file name for a file argument)
	Stream *tree.Stream
	// Input is the bytes read, to compare outputs with.
	Input []byte
	// Kustomization is set when the file is a kustomization (every
	// document of it that is not empty is one: see Objects): it holds no
	// objects, and is no manifest to write out.
	Kustomization bool
	// Part numbers the parts of a file read in parts (LoadOptions.Parts)
	// from 0; a file read whole is part 0 of one. A part is a source of
	// its own, of the file's Path and Rel, whose Input is its text (some
	// documents of the file: tree.SplitStream) and whose Line is the line
	// that text starts at in the file; Whole is the input of the file
	// (nil for a file read whole). The parts of a file follow each other
	// in a set.
	Part  int
	Line  int
	Whole []byte
	// Column is the number of columns before each line of Input in the
	// file (tree.Options.Column): a source whose Input is a part of a
	// file's text taken out of it dedented (package krm reads the items
	// of a long ResourceList so); 0 otherwise.
	Column int

	style tree.Style // of a part: the file's
	given bool       // named by the caller, not found in a folder: may be a pipe (readfile.Given)

	// Warnings are what reading the file noticed that is not an error
	// (tree.Stream.Warnings); Release keeps them.
	Warnings []tree.Warning
}

// Set is the objects of some files.
type Set struct {
	Sources   []*Source
	Resources []*Resource
}

// LoadOptions control Load.
type LoadOptions struct {
	Limits *tree.Limits
	// Workers is how many files are parsed at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Select, when set, says which objects the caller will look at beyond
	// their identity, or edit: the documents of a YAML file that hold none
	// are not parsed. Their text is checked as a parse checks it (it must
	// be valid YAML within the limits, without duplicate keys: the errors
	// are the same), and their objects' Roots are outlines holding only
	// apiVersion, kind, metadata.name and metadata.namespace (and
	// metadata.labels with SelectLabels), which Select decides on. Such a
	// document is written out as its text (tree.Stream.Load parses it). A
	// file Read cannot skim with certainty (tree.Options.Outline) is parsed
	// fully, as without Select.
	Select func(*Resource) bool
	// SelectLabels says that Select looks at labels and annotations.
	SelectLabels bool
	// Whole makes the sources' streams read back every edited document's
	// text when they write it (tree.Options.Whole), and reads every file
	// whole (not in parts).
	Whole bool
	// Parts, with Select and without Whole, reads a YAML file longer than
	// twice Parts bytes in parts of about that size, each a Source of its
	// own (Source.Part), cut where each part reads as the documents the
	// whole file holds there (tree.SplitStream): Stream then reads, and
	// passes to its callback, the parts of one file several at once, so
	// that one long stream is worked on by every core and a part's parsed
	// documents can be let go of as soon as it is done. A file whose
	// parts do not read as the whole does (one with an error, more
	// documents than Limits allow, or aliases that add more than they
	// allow to the file) is read whole, which gives its error.
	// 0: every file is read whole.
	Parts int
}

// Load reads the objects of files, folders (recursively: files ending in
// .yaml, .yml and .json, in lexical order, folders starting with a dot
// skipped) and standard input ("-"). Every document must be a Kubernetes
// object (apiVersion, kind, metadata.name) or a List of them; empty
// documents are kept as they are. Two objects with the same identity are an
// error naming both.
//
// A file found in a folder must be a regular file (a link to one is); a
// file of paths may be a pipe too (read to its end: bash's <(...)).
// Anything else (a device such as /dev/zero, a named pipe in a folder, a
// socket) is a *NotRegularError, refused before it is opened.
//
// Once ctx is done, no further file is read or parsed, and Load returns
// ctx.Err() wrapped with the first file (or document) it did not read.
func Load(ctx context.Context, paths []string, stdin io.Reader, opts LoadOptions) (*Set, error) {
	return Stream(ctx, paths, stdin, opts, nil)
}

// Stream reads what Load reads and calls each with every source and its
// objects as soon as the source is parsed, on up to opts.Workers goroutines
// at once (for several sources at the same time), while later files are
// still being read. It returns the set, as Load does, once every call has
// returned; each may have released sources it is done with
// (Source.Release). A source that fails to parse is not passed to each;
// the error returned is the one Load would return. The parts of a file
// read in parts (LoadOptions.Parts) are passed one by one, several at once;
// should the file have to be read whole after all (one of its parts does
// not read), each is called with the whole file too, and only that source
// is in the set: each must not assume that every source it gets is in it.
// Once ctx is done, no further source is read, parsed or passed to each,
// and Stream returns the error Load returns then.
func Stream(ctx context.Context, paths []string, stdin io.Reader, opts LoadOptions, each func(src *Source, objs []*Resource)) (*Set, error) {
	// the files, in order; then read and parsed in parallel; then their
	// objects, in order
	type input struct {
		src   *Source
		objs  []*Resource
		err   error
		parts []*input // of a file read in parts
	}
	var inputs []*input
	files, err := listFiles(paths)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.Path == "-" {
			data, err := tree.ReadInput(stdin, "<stdin>", opts.Limits)
			if err != nil {
				return nil, err
			}
			f.Path, f.Input = "<stdin>", data
		}
		inputs = append(inputs, &input{src: f})
	}
	parallel.For(len(inputs), opts.Workers, func(i int) {
		in := inputs[i]
		src := in.src
		if err := ctx.Err(); err != nil {
			in.err = fmt.Errorf("stopped before reading %s: %w", src.Path, err)
			return
		}
		if src.Input == nil && src.Path != "<stdin>" {
			if src.Input, in.err = readfile.Read(src.Path, opts.Limits, src.given); in.err != nil {
				return
			}
		}
		if parts := src.split(opts); parts != nil {
			in.parts = make([]*input, len(parts))
			for j, p := range parts {
				in.parts[j] = &input{src: p}
			}
			var docs, kust, empty, expanded atomic.Int64
			parallel.For(len(parts), opts.Workers, func(j int) {
				p := in.parts[j]
				var c counts
				if p.objs, c, p.err = p.src.parse(ctx, opts); p.err != nil {
					return
				}
				docs.Add(int64(c.docs))
				kust.Add(int64(c.kustomizations))
				empty.Add(int64(c.empty))
				expanded.Add(int64(c.expanded))
				if each == nil {
					return
				}
				if err := ctx.Err(); err != nil {
					p.err = fmt.Errorf("stopped after reading %s: %w", src.Path, err)
					return
				}
				each(p.src, p.objs)
			})
			// the limits on a stream are on the file's, not a part's
			max, maxExpanded := streamLimits(opts.Limits)
			ok := (max <= 0 || docs.Load() <= int64(max)) && (maxExpanded <= 0 || expanded.Load() <= int64(maxExpanded))
			for _, p := range in.parts {
				ok = ok && p.err == nil
			}
			if ok {
				// the file is a kustomization when all its documents are
				// kustomizations or empty, not when a part's are
				k := kust.Load() > 0 && kust.Load()+empty.Load() == docs.Load()
				for _, p := range in.parts {
					p.src.Kustomization = k
				}
				return
			}
			in.parts = nil // read whole, for its error
		}
		if in.objs, _, in.err = src.parse(ctx, opts); in.err != nil || each == nil {
			return
		}
		if err := ctx.Err(); err != nil {
			in.err = fmt.Errorf("stopped after reading %s: %w", src.Path, err)
			return
		}
		each(src, in.objs)
	})
	set := &Set{}
	for _, in := range inputs {
		if in.err != nil {
			return nil, in.err
		}
		if in.parts != nil {
			for _, p := range in.parts {
				set.Sources = append(set.Sources, p.src)
				set.Resources = append(set.Resources, p.objs...)
			}
			continue
		}
		set.Sources = append(set.Sources, in.src)
		set.Resources = append(set.Resources, in.objs...)
	}
	return set, set.checkUnique()
}

// streamLimits returns the limits on one stream: its documents, and what
// its aliases add.
func streamLimits(l *tree.Limits) (documents, expanded int) {
	if l == nil {
		d := tree.DefaultLimits()
		l = &d
	}
	return l.MaxDocuments, l.MaxExpanded
}

// split returns the parts of a file to read in parts (LoadOptions.Parts),
// nil for one to read whole.
func (src *Source) split(opts LoadOptions) []*Source {
	if opts.Parts <= 0 || opts.Select == nil || opts.Whole || strings.EqualFold(filepath.Ext(src.Path), ".json") {
		return nil
	}
	parts, st := tree.SplitStream(src.Input, opts.Parts)
	if parts == nil {
		return nil
	}
	out := make([]*Source, len(parts))
	for i, p := range parts {
		out[i] = &Source{Path: src.Path, Rel: src.Rel, Input: p.Text, Part: i, Line: p.Line, Whole: src.Input, style: st}
	}
	return out
}

// Parse reads the objects of one input held in memory, as Load reads a
// file: file names it in positions and messages (a name ending in .json is
// read as JSON, anything else as YAML or JSON by its content) and is the
// Path and Rel of its one source.
func Parse(data []byte, file string, opts LoadOptions) (*Set, error) {
	src := &Source{Path: file, Rel: filepath.Base(file), Input: data}
	objs, _, err := src.parse(context.Background(), opts)
	if err != nil {
		return nil, err
	}
	set := &Set{Sources: []*Source{src}, Resources: objs}
	return set, set.checkUnique()
}

// counts are what a source's documents are (see Objects).
type counts struct {
	docs, kustomizations, empty int
	expanded                    int // what aliases added (tree.Stream.Expanded)
}

// parse parses the source's Input into its Stream and returns its objects;
// ctx is checked before each document parsed on its own (a selected one).
func (src *Source) parse(ctx context.Context, opts LoadOptions) ([]*Resource, counts, error) {
	var format *tree.Format
	if strings.EqualFold(filepath.Ext(src.Path), ".json") {
		f := tree.JSON // a .json file is JSON, not the YAML a JSON error would fall back to
		format = &f
	}
	topts := tree.Options{File: src.Path, Limits: opts.Limits, Format: format, Whole: opts.Whole}
	if src.Whole != nil {
		// a part: its documents are counted for the whole file, and it is
		// written in the file's style
		limits := tree.DefaultLimits()
		if opts.Limits != nil {
			limits = *opts.Limits
		}
		limits.MaxDocuments = 0
		topts.Limits, topts.Line, topts.Style = &limits, src.Line, &src.style
	}
	if opts.Select != nil && format == nil {
		topts.Outline = identityOutline
		if opts.SelectLabels {
			topts.Outline = identityOutlineLabels
		}
	}
	var err error
	if src.Stream, err = tree.Read(src.Input, topts); err != nil {
		return nil, counts{}, err
	}
	src.Warnings = src.Stream.Warnings
	objs, c, err := objects(src)
	if !src.Stream.Outlines() {
		return objs, c, err
	}
	if err != nil {
		// the error, as a full parse gives it
		if err := src.Stream.LoadAll(); err != nil {
			return nil, c, err
		}
		return objects(src)
	}
	loaded := false
	for _, r := range objs {
		if src.Stream.Outlined(r.Doc) && opts.Select(r) {
			if err := ctx.Err(); err != nil {
				return nil, c, fmt.Errorf("%s: stopped before document %d: %w", src.Path, r.Doc+1, err)
			}
			if err := src.Stream.Load(r.Doc); err != nil {
				return nil, c, err
			}
			loaded = true
		}
	}
	if !loaded {
		return objs, c, nil
	}
	return objects(src) // with the Roots of the documents parsed
}

// The outlines of documents an object is identified by (Objects and
// object), with its labels and annotations or without: List documents keep
// the identity of their items.
var (
	identityOutline       = outlineOf(nil)
	identityOutlineLabels = outlineOf(&tree.Outline{All: true})
)

func outlineOf(labels *tree.Outline) *tree.Outline {
	object := func() *tree.Outline {
		meta := map[string]*tree.Outline{"name": nil, "namespace": nil, "labels": labels}
		if labels != nil {
			meta["annotations"] = labels
		}
		return &tree.Outline{Fields: map[string]*tree.Outline{
			"apiVersion": nil,
			"kind":       nil,
			"metadata":   {Fields: meta},
		}}
	}
	o := object()
	o.Fields["items"] = &tree.Outline{Items: object()}
	return o
}

// RemoveDeleted takes the objects of objs (objects of src) that a patch
// deleted (Resource.Deleted) out of src's stream: a document, or an item
// of a List document. Call it once no patch is working on src's objects.
// An object taken out already is left alone.
func (src *Source) RemoveDeleted(objs []*Resource) {
	for _, r := range objs {
		if !r.Deleted || r.Source != src || src.Stream == nil {
			continue
		}
		if r.Item < 0 {
			src.Stream.Remove(r.Doc)
			continue
		}
		items := tree.MapGet(tree.Root(src.Stream.Docs[r.Doc]), "items")
		if items == nil {
			continue
		}
		for j, it := range items.Content {
			if it == r.Root {
				items.Content = append(items.Content[:j:j], items.Content[j+1:]...)
				break
			}
		}
	}
}

// RemoveDeleted takes the objects a patch deleted out of their sources
// (Source.RemoveDeleted) and out of Resources.
func (set *Set) RemoveDeleted() {
	bySource := map[*Source][]*Resource{}
	kept := set.Resources[:0:0]
	for _, r := range set.Resources {
		if r.Deleted {
			bySource[r.Source] = append(bySource[r.Source], r)
		} else {
			kept = append(kept, r)
		}
	}
	for _, src := range set.Sources {
		if objs := bySource[src]; len(objs) > 0 {
			src.RemoveDeleted(objs)
		}
	}
	set.Resources = kept
}

// Release drops the parsed documents of src and the Roots of objs (its
// objects), keeping what identifies them and where they start (Position):
// for callers that have written the source out and want its memory back.
// The objects can still be selected by kind, name and namespace, but no
// longer by label.
func (src *Source) Release(objs []*Resource) {
	src.Stream = nil
	for _, r := range objs {
		if r.Root != nil {
			r.line, r.column, r.Root = r.Root.Line, r.Root.Column, nil
		}
	}
}

// NotRegularError is a file that is not a regular file, refused by Load
// (and by the other readers of kmerge's inputs: package kpatch's, the
// kmerge package's): a device, a socket, a named pipe that was not given on
// purpose (one found in a folder, or named by a kustomization).
type NotRegularError = readfile.NotRegularError

// Files lists the files Load reads, in the order it reads them: a file as
// given, the manifest files of a folder (recursively: .yaml, .yml, .json,
// in lexical order, folders starting with a dot skipped), and "-" for
// standard input.
func Files(paths []string) ([]string, error) {
	files, err := listFiles(paths)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out, nil
}

// listFiles lists the files of paths as Sources to be read: Path ("-" for
// standard input) and Rel.
func listFiles(paths []string) ([]*Source, error) {
	var out []*Source
	for _, p := range paths {
		if p == "-" {
			out = append(out, &Source{Path: "-", Rel: "stdin.yaml"})
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, &Source{Path: p, Rel: filepath.Base(p), given: true})
			continue
		}
		files, err := manifestFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			rel, _ := filepath.Rel(p, f)
			out = append(out, &Source{Path: f, Rel: rel})
		}
	}
	return out, nil
}

// manifestFiles lists the manifest files below dir, in lexical order.
func manifestFiles(dir string) ([]string, error) {
	return walk.Files(dir, func(name string) bool {
		switch strings.ToLower(filepath.Ext(name)) {
		case ".yaml", ".yml", ".json":
			return true
		}
		return false
	})
}

// Objects returns the objects of a parsed source, in order: its documents,
// and the items of List documents. Empty documents and kustomizations have
// none. A kustomization is what kustomize reads as one: a document whose
// apiVersion is kustomize.config.k8s.io/..., or that has no apiVersion and
// is of kind Kustomization or Component, or that has neither apiVersion nor
// kind in a file named kustomization.yaml or kustomization.yml (most real
// ones: kustomize needs neither). A source whose documents are all
// kustomizations (or empty) is marked as one (Source.Kustomization).
func Objects(src *Source) ([]*Resource, error) {
	objs, _, err := objects(src)
	return objs, err
}

// objects is Objects, which also counts the source's documents.
func objects(src *Source) ([]*Resource, counts, error) {
	st, path := src.Stream, src.Path
	var out []*Resource
	kustomizations, empty := 0, 0
	words := interner{}
	for i, doc := range st.Docs {
		root := tree.Root(doc)
		if root == nil || tree.KindOf(root) == tree.Null {
			empty++
			continue // an empty document
		}
		if IsKustomization(root, path) {
			kustomizations++
			continue // a kustomization.yaml found in a folder of manifests: not an object
		}
		items, err := ListItems(root, path)
		if err != nil {
			return nil, counts{}, err
		}
		list := items != nil
		r, err := object(src, i, -1, root, list, words)
		if err != nil {
			return nil, counts{}, err
		}
		if list {
			for j, it := range items.Content {
				ir, err := object(src, i, j, it, false, words)
				if err != nil {
					return nil, counts{}, err
				}
				out = append(out, ir)
			}
			continue
		}
		out = append(out, r)
	}
	src.Kustomization = kustomizations > 0 && kustomizations+empty == len(st.Docs)
	return out, counts{len(st.Docs), kustomizations, empty, st.Expanded()}, nil
}

// IsKustomizationFile reports whether the file at path, holding data, is
// a kustomization: its documents are kustomizations (IsKustomization) or
// empty, and there is one at least. Data that does not parse is none.
func IsKustomizationFile(data []byte, path string) bool {
	if !bytes.Contains(data, []byte("kustomize.config.k8s.io/")) && !bytes.Contains(data, []byte("Kustomization")) &&
		!bytes.Contains(data, []byte("Component")) && !isKustomizationName(path) {
		return false // the quick answer, without parsing
	}
	st, err := tree.Read(data, tree.Options{File: path})
	if err != nil {
		return false
	}
	found := false
	for _, d := range st.Docs {
		root := tree.Root(d)
		switch {
		case root == nil || tree.KindOf(root) == tree.Null:
		case IsKustomization(root, path):
			found = true
		default:
			return false
		}
	}
	return found
}

// IsKustomization reports whether the document n (its root) of the file at
// path is a kustomization, which is no object (see Objects).
func IsKustomization(n *yaml.Node, path string) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	apiVersion, kind := str(n, "apiVersion"), str(n, "kind")
	switch {
	case apiVersion != "":
		return strings.HasPrefix(apiVersion, "kustomize.config.k8s.io/")
	case kind == "Kustomization" || kind == "Component":
		return true
	case kind != "" || tree.MapGet(n, "apiVersion") != nil || tree.MapGet(n, "kind") != nil:
		return false
	}
	return isKustomizationName(path)
}

// isKustomizationName reports whether a file's name is one of those
// kustomize reads a kustomization from (and kmerge reads at all).
func isKustomizationName(path string) bool {
	switch filepath.Base(path) {
	case "kustomization.yaml", "kustomization.yml":
		return true
	}
	return false
}

// ListItems returns the items of a List document, n its root: a document
// of kind List, or of a kind whose name ends in List (RoleList, as
// kubectl get -o yaml writes them), that has items. Its items are the
// objects, as kubectl reads them: apply and patch patch them, not the List.
// It is nil for any other document, and an error naming the file (path)
// and the position when items is not a list.
func ListItems(n *yaml.Node, path string) (*yaml.Node, error) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	items := tree.MapGet(n, "items")
	kind := str(n, "kind")
	if items == nil || kind != "List" && !strings.HasSuffix(kind, "List") {
		return nil, nil
	}
	if items.Kind != yaml.SequenceNode {
		return nil, errAt(path, items, "the items of a %s must be a list", kind)
	}
	return items, nil
}

func errAt(file string, n *yaml.Node, format string, args ...any) error {
	return &tree.SyntaxError{Pos: tree.Position{File: file, Line: n.Line, Column: n.Column}, Msg: fmt.Sprintf(format, args...)}
}

// str returns the scalar text of a field, "" when it is absent or not a
// scalar.
func str(m *yaml.Node, key string) string {
	if m == nil || m.Kind != yaml.MappingNode {
		return ""
	}
	v := tree.MapGet(m, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	// A copy: the identity of an object is kept after its document is
	// let go, and a value read by tree.Read may share memory with the
	// text of the whole file.
	return strings.Clone(v.Value)
}

// interner keeps one copy of the values that repeat from object to object
// (apiVersion, kind, namespace), for the identities of a source's objects.
type interner map[string]string

// str is the function str, whose result is shared with the other values
// of the interner that are the same.
func (in interner) str(m *yaml.Node, key string) string {
	v := tree.MapGet(m, key)
	if v == nil || v.Kind != yaml.ScalarNode || m.Kind != yaml.MappingNode {
		return ""
	}
	if s, ok := in[v.Value]; ok {
		return s
	}
	s := strings.Clone(v.Value)
	in[s] = s
	return s
}

// object checks that n is a Kubernetes object (or, when list is set, a List
// of them, which needs no name) and describes it.
func object(src *Source, doc, item int, n *yaml.Node, list bool, words interner) (*Resource, error) {
	if n.Kind != yaml.MappingNode {
		what := "the document"
		if item >= 0 {
			what = fmt.Sprintf("item %d of the list", item)
		}
		return nil, errAt(src.Path, n, "not a Kubernetes object: %s is %s, not a mapping", what, article(tree.KindOf(n).String()))
	}
	r := &Resource{Root: n, Source: src, Doc: doc, Item: item,
		APIVersion: words.str(n, "apiVersion"), Kind: words.str(n, "kind")}
	switch {
	case r.APIVersion == "" && r.Kind == "":
		return nil, errAt(src.Path, n, "not a Kubernetes object: no apiVersion and no kind")
	case r.APIVersion == "":
		return nil, errAt(src.Path, n, "not a Kubernetes object: %s without apiVersion", r.Kind)
	case r.Kind == "":
		return nil, errAt(src.Path, n, "not a Kubernetes object: no kind")
	}
	meta := tree.MapGet(n, "metadata")
	r.Name, r.Namespace = str(meta, "name"), words.str(meta, "namespace")
	if r.Name == "" && !list {
		return nil, errAt(src.Path, n, "%s %s has no metadata.name", r.APIVersion, r.Kind)
	}
	return r, nil
}

// Check reports an error when two objects of the set have one identity,
// as Load does: the set is made by its caller (package krm reads the items
// of a ResourceList one by one).
func (set *Set) Check() error { return set.checkUnique() }

func (set *Set) checkUnique() error {
	seen := map[string]*Resource{}
	for _, r := range set.Resources {
		read := r.Identity() // as read: Stream's callers may have patched the objects already
		if r.Original != nil {
			read = *r.Original
		}
		gvk := schema.ParseGVK(read.APIVersion, read.Kind)
		id := gvk.Group + "/" + gvk.Kind + "/" + read.Namespace + "/" + read.Name
		if prev, dup := seen[id]; dup {
			return &tree.SyntaxError{Pos: r.Position(), Msg: fmt.Sprintf("%s is defined twice: here and at %s", read, strings.TrimSuffix(prev.Position().String(), ": "))}
		}
		seen[id] = r
	}
	return nil
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
