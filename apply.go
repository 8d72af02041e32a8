package kmerge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/conflict"
	"github.com/kmerge/kmerge/internal/linediff"
	"github.com/kmerge/kmerge/internal/outdir"
	"github.com/kmerge/kmerge/internal/parallel"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// ApplyOptions control Apply (and Blame): what to read, and how to read
// it, and, through ApplyPatchesOptions, how to patch and write what was
// read, as ApplyPatches does with a set its caller loaded.
type ApplyOptions struct {
	// Manifests are files, folders (read recursively) and "-" for Stdin.
	Manifests []string
	Stdin     io.Reader
	// Patches are .kpatch files, YAML patch lists, and folders of them
	// (kpatch.Load). A kustomization among them adds the schema its
	// openapi field names to Schema (after it: Schema's kinds win), and,
	// with Strict, a file of its folder that nothing reads is an error.
	Patches []string
	// Inputs are the files (or folders) the caller read for the run
	// besides the manifests and patches: values files, schemas. A
	// kustomization among the patches whose folder holds one of them does
	// not warn that nothing reads it.
	Inputs []string
	// LoadRestrictions say which files a kustomization among the patches
	// may name (kpatch.LoadOptions.LoadRestrictions): by default those in
	// or below its folder, links followed, as kustomize by default.
	LoadRestrictions kpatch.LoadRestrictions
	// MaxLineBytes is the longest line of a .kpatch file; 0:
	// syntax.DefaultMaxLineBytes.
	MaxLineBytes int
	// Thorough takes the long way, which gives the same output: every
	// document of the manifests is parsed, and an edited one's text is
	// read back whatever its edits prove (tree.Options.Whole). Without
	// it, Apply parses only the documents some patch targets and writes
	// the others out as their text, checked but not parsed
	// (resource.LoadOptions.Select), and takes an edited document's text
	// as its edits prove it (changed values alone are not read back). The kmerge command's KMERGE_THOROUGH=1 sets
	// it, to rule the short way out when something looks wrong. (A
	// caller of ApplyPatches chooses this when it loads the set:
	// resource.LoadOptions.Whole.)
	Thorough bool

	ApplyPatchesOptions

	// partBytes is the size of the parts a long stream is read in
	// (resource.LoadOptions.Parts): 0 is partBytes, less than 0 none;
	// rewriteParts takes every file read in parts as one a part of which
	// was written by yaml.v3 as a whole (fileResult.rewritten). For tests.
	partBytes    int
	rewriteParts bool
}

// ApplyPatchesOptions control ApplyPatches, and Apply once it has read
// the manifests and the patches.
type ApplyPatchesOptions struct {
	Vars      *kpatch.Vars   // ${values.*} and ${features.*}; nil: none
	Schema    *schema.Schema // nil: schema.Builtin()
	Strict    bool           // a patch that matches nothing is an error
	ListOrder smp.ListOrder  // for strategic patches
	Workers   int            // files parsed, objects patched, files written at once; 0: GOMAXPROCS
	Trace     io.Writer      // every change, as it is made
	// KeepFormat writes JSON files as JSON (for writing files back); else
	// a touched JSON file becomes YAML, to join a stream of YAML.
	KeepFormat bool
	// Limits bound what variables and JSON patches' copies add
	// (MaxExpanded) and what is read again (a file's text, to attribute
	// validation errors and to mask Secrets in ApplyResult.Diff); Apply
	// reads the manifests and the patches with them too. nil:
	// tree.DefaultLimits().
	Limits *tree.Limits
	// NoOutput leaves the Output of ApplyResult's Files empty: ApplyPatches
	// does not write the sources, for a caller that writes them itself
	// after further edits (kmerge fn adds its results to the ResourceList
	// first). Errors writing them are then the caller's to meet.
	NoOutput bool
	// Validate checks every object a patch touched against its schema
	// (package validate): validate.Strict makes a violation a patch wrote
	// an error (the joined *validate.Error of every such violation, and
	// nothing is returned), validate.Warn makes it a warning
	// (ApplyResult.Invalid). Violations an object had before the patches
	// are warnings in both. The zero value, validate.None, checks nothing
	// (the kmerge command's default is strict).
	Validate validate.Mode
	// ShowSecrets shows the values of v1 Secrets (their data and
	// stringData) in clear in what is meant for people: the Trace, the
	// texts of the Conflicts (change.Change.Mask) and of validation
	// errors and warnings (validate.Violation.Secret), and
	// ApplyResult.Diff. By default they are masked: "***", and, where a
	// value is shown beside the value it replaced, "*** (before)" and
	// "*** (after)" when they differ, as kubectl diff shows them
	// (docs/reliability.md#secrets). The outputs themselves (File.Output)
	// keep their values either way.
	ShowSecrets bool
	// Stale finds the patches that look left behind by a change to the
	// manifests (change.Stales: a patch that changes nothing, a strategic
	// list item made new, and incomplete, where it probably meant an item
	// renamed since): ApplyResult.Stale. kmerge check asks for them.
	Stale bool

	blame *blameRun // Blame's: what the patches changed, kept per object
}

// ApplyResult is what Apply did.
type ApplyResult struct {
	Files     []*File // one per input file, in input order (kustomizations left out)
	Patches   int     // the patches applied
	Objects   int     // the objects of the set
	Warnings  []kpatch.Warning
	Conflicts []conflict.Conflict
	// Invalid are the violations of the schema that are warnings (see
	// ApplyPatchesOptions.Validate), by file, then object, then place.
	Invalid []*validate.Error
	// Stale are the patches that look stale (ApplyPatchesOptions.Stale),
	// by file, then object, then patch.
	Stale []StalePatch
	// ShowSecrets makes Diff show the values of Secrets in clear; it is
	// ApplyPatchesOptions.ShowSecrets.
	ShowSecrets bool

	limits *tree.Limits              // what Diff reads a file's texts with, to mask them
	blamed map[*File][]*blamedObject // for Blame: the changes of each file's objects
	// the secret values of each file's objects that are or were Secrets,
	// as the run gathered them (kpatch.Run.Secrets), for Diff: a value a
	// patch gave a Secret and a later one moved out is in neither text
	secrets map[*File][]placedSecrets
	// the places of each file's objects that the patches deleted, for
	// Diff: the objects of the input and output that are one
	deleted map[*File][]objPlace
}

// StalePatch is a patch that looks stale on one object (change.Stale).
type StalePatch struct {
	Object string // its ID: "apps/v1 Deployment web"
	change.Stale
}

// placedSecrets are the secret values of the object at a place of a file
// (its document, and its item in a List document; -1: none).
type placedSecrets struct {
	doc, item int
	vals      *secret.Values
}

// objPlace is the place of an object in a file: its document, and its
// item in a List document (-1: none).
type objPlace struct{ doc, item int }

// File is one input file and its output.
type File struct {
	Path   string // as given, or "<stdin>"
	Rel    string // relative to the folder it was found in; the base name for a file argument
	Input  []byte
	Output []byte
}

// Changed reports whether the output differs from the input.
func (f *File) Changed() bool { return !bytes.Equal(f.Input, f.Output) }

// Apply loads the manifests and the patches of opts and applies them, as
// ApplyPatches does. It patches and writes each file as soon as it is
// parsed, while later files are still being read, and then lets go of its
// parsed form: the memory it needs is about that of the inputs and
// outputs, plus the files being worked on.
//
// Once ctx is done, Apply reads, patches and renders nothing more and
// returns ctx.Err() wrapped with where it stopped (the file, the object or
// the patch), and no result. It writes no file in any case (WriteDir
// does), and its inputs are left as they are.
func Apply(ctx context.Context, opts ApplyOptions) (*ApplyResult, error) {
	res, _, err := apply(ctx, opts)
	return res, err
}

// apply is Apply, and returns the set of objects read too (their roots
// released).
func apply(ctx context.Context, opts ApplyOptions) (*ApplyResult, *resource.Set, error) {
	var loadWarnings []kpatch.Warning // a kustomization's fields kmerge does not read
	var schemas []*schema.Schema      // kustomizations' openapi files
	patches, err := kpatch.Load(ctx, opts.Patches, kpatch.LoadOptions{Limits: opts.Limits, MaxLineBytes: opts.MaxLineBytes, Workers: opts.Workers,
		Warn: func(w kpatch.Warning) { loadWarnings = append(loadWarnings, w) }, LoadRestrictions: opts.LoadRestrictions,
		Schemas: func(s *schema.Schema) { schemas = append(schemas, s) }, Inputs: append(slices.Clip(opts.Manifests), opts.Inputs...), Strict: opts.Strict})
	if err != nil {
		return nil, nil, err
	}
	if len(schemas) > 0 {
		// after the schemas given: those win (schema.Schema.Extend)
		s := opts.Schema
		if s == nil {
			s = schema.Builtin()
		}
		opts.Schema = s.Extend(schemas...)
	}
	empty, err := emptyPatchPaths(opts.Patches, patches, opts.Strict)
	if err != nil {
		return nil, nil, err
	}
	rec := &conflict.Recorder{}
	run := kpatch.NewRun(patches, opts.kpatchOptions(rec))
	var mu sync.Mutex
	done := map[*resource.Source]fileResult{}
	joins := map[*byte]*partJoin{} // files read in parts, by their input
	// only the documents a patch targets are parsed (LoadOptions.Select),
	// and a long stream is read in parts, several at once (Parts)
	load := resource.LoadOptions{Limits: opts.Limits, Workers: opts.Workers, Whole: opts.Thorough}
	if !opts.Thorough {
		load.Select, load.SelectLabels, load.Parts = run.Targets, run.SelectsLabels(), partBytes
		if opts.partBytes != 0 {
			load.Parts = max(opts.partBytes, 0)
		}
	}
	set, err := resource.Stream(ctx, opts.Manifests, opts.Stdin, load,
		func(src *resource.Source, objs []*resource.Resource) {
			f := patchFile(ctx, run, src, objs, opts.ApplyPatchesOptions)
			src.Release(objs)
			mu.Lock()
			defer mu.Unlock()
			if src.Whole == nil {
				done[src] = f
				return
			}
			j := joins[&src.Whole[0]]
			if j == nil {
				j = &partJoin{waiting: map[int]partDone{}}
				joins[&src.Whole[0]] = j
			}
			j.add(src, f)
		})
	if err != nil {
		return nil, nil, err
	}
	var files []fileResult
	for i := 0; i < len(set.Sources); i++ {
		src := set.Sources[i]
		if src.Whole == nil {
			files = append(files, done[src])
			continue
		}
		j := joins[&src.Whole[0]]
		n := 1
		for i+n < len(set.Sources) && set.Sources[i+n].Part > 0 {
			n++
		}
		if j.next != n {
			return nil, nil, fmt.Errorf("%s: %d of its %d parts written", src.Path, j.next, n)
		}
		res := j.res
		switch {
		case src.Kustomization: // every part is: not a manifest
			res = fileResult{}
		case res.rewritten || opts.rewriteParts:
			// a part had to be written as yaml.v3 writes it, so the whole
			// file must be, as it is when read whole: the run is done
			// again, without parts (nothing was reported yet)
			again := opts
			again.partBytes, again.rewriteParts = -1, false
			for _, s := range set.Sources {
				if s.Path == "<stdin>" {
					text := s.Input
					if s.Whole != nil {
						text = s.Whole
					}
					again.Stdin = bytes.NewReader(text) // read already
					break
				}
			}
			return apply(ctx, again)
		}
		files = append(files, res)
		i += n - 1
	}
	res, err := finish(ctx, run, rec, set, files, len(patches), opts.ApplyPatchesOptions)
	if err != nil {
		return nil, nil, err
	}
	res.Warnings = append(append(loadWarnings, empty...), res.Warnings...)
	return res, set, nil
}

// emptyPatchPaths says which of the patch paths given to Apply change
// nothing because they hold nothing: a folder without patch files, a file
// without patches (empty, comments only, an empty list), each once, in
// order. They are warnings, or, with strict, the first is an error: a run
// that applies nothing prints its manifests as they were, which is easily
// taken for success.
func emptyPatchPaths(paths []string, patches []*syntax.Patch, strict bool) ([]kpatch.Warning, error) {
	held := map[string]bool{}
	for _, p := range patches {
		held[p.Pos.File] = true
		if p.Kustomization != "" {
			held[p.Kustomization] = true // a kustomization whose patches are in files it names
		}
	}
	var out []kpatch.Warning
	seen := map[string]bool{}
	for _, path := range paths {
		files, err := kpatch.Files([]string{path})
		if err != nil {
			return nil, err
		}
		if len(files) == 0 && !seen[path] {
			seen[path] = true
			out = append(out, kpatch.Warning{Pos: tree.Position{File: path}, Msg: "the folder holds no patch files (.kpatch, .yaml, .yml, .json), so it changes nothing"})
		}
		for _, f := range files {
			if !held[f] && !seen[f] {
				seen[f] = true
				pos, what := emptyFile(f)
				out = append(out, kpatch.Warning{Pos: pos, Msg: what + ", so it changes nothing"})
			}
		}
	}
	if strict && len(out) > 0 {
		return nil, &syntax.Error{Pos: out[0].Pos, Msg: out[0].Msg + " (an error in strict mode)"}
	}
	return out, nil
}

// partBytes is the size of the parts Apply reads a long stream in
// (resource.LoadOptions.Parts): large enough that a part's overhead does
// not count, small enough that the parts being worked on (their
// documents parsed, and the copies of the edited ones) take little
// memory.
const partBytes = 64 << 10

// partJoin joins the results of the parts of a file read in parts
// (resource.Source.Part) into the file's, in order, as they come: the
// output of a part is added to the file's as soon as those of the parts
// before it are, and let go of.
type partJoin struct {
	next    int              // the part to add next
	waiting map[int]partDone // parts done before the ones before them
	res     fileResult
	read    int  // the bytes of input of the parts added
	docs    int  // the documents of the parts added
	same    bool // the output so far is the input so far
}

type partDone struct {
	src *resource.Source
	res fileResult
}

func (j *partJoin) add(src *resource.Source, f fileResult) {
	j.waiting[src.Part] = partDone{src, f}
	for {
		p, ok := j.waiting[j.next]
		if !ok {
			return
		}
		delete(j.waiting, j.next)
		j.next++
		if j.res.file == nil {
			j.res.file = &File{Path: p.src.Path, Rel: p.src.Rel, Input: p.src.Whole}
			j.same = true
		}
		if j.res.err == nil {
			j.res.err = p.res.err
		}
		j.res.rewritten = j.res.rewritten || p.res.rewritten
		j.res.invalid = append(j.res.invalid, p.res.invalid...)
		j.res.warns = append(j.res.warns, p.res.warns...)
		for _, b := range p.res.blamed {
			b.doc += j.docs // numbered in the part, blamed in the file
			j.res.blamed = append(j.res.blamed, b)
		}
		for _, s := range p.res.secrets {
			s.doc += j.docs
			j.res.secrets = append(j.res.secrets, s)
		}
		for _, d := range p.res.deleted {
			d.doc += j.docs
			j.res.deleted = append(j.res.deleted, d)
		}
		j.docs += p.res.docs
		// a part whose documents are all kustomizations, in a file whose
		// documents are not, is its text: it has no objects
		out := p.src.Input
		if p.res.file != nil {
			out = p.res.file.Output
		}
		if j.same && bytes.Equal(out, p.src.Input) {
			// the output is the input so far: a slice of it, not a copy
			j.read += len(p.src.Input)
			j.res.file.Output = p.src.Whole[:j.read]
			continue
		}
		if j.same {
			j.same = false
			j.res.file.Output = append(make([]byte, 0, j.read+len(out)), j.res.file.Output...)
		}
		j.read += len(p.src.Input)
		j.res.file.Output = j.grow(j.res.file.Output, len(out), len(p.src.Whole))
		j.res.file.Output = append(j.res.file.Output, out...)
	}
}

// grow returns b with room for n more bytes: when it has none, in an
// array sized for the whole output, by the output so far against the
// input it was made of (in total bytes of input), so that the output of a
// long stream is not copied again and again as it grows.
func (j *partJoin) grow(b []byte, n, total int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	size := len(b) + n
	if j.read > 0 {
		size = max(size, int(float64(size)/float64(j.read)*float64(total)*1.02))
	}
	return append(make([]byte, 0, size), b...)
}

// emptyFile says what a patch file that holds no patches holds instead,
// and where: "the patch list is empty ([])" at the list, "the .kpatch file
// holds only comments, no [section]" at its first line, and so on. The
// file is read again, when it is a regular file: a pipe given as a patch
// file was read to its end already (opening it again would wait for a
// writer that will not come).
func emptyFile(file string) (tree.Position, string) {
	pos := tree.Position{File: file, Line: 1}
	data, err := readfile.Found(file, nil)
	if err != nil {
		return tree.Position{File: file}, "the file holds no patches"
	}
	if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\ufeff")))) == 0 {
		return pos, "the file is empty"
	}
	if strings.EqualFold(filepath.Ext(file), ".kpatch") {
		return pos, "the .kpatch file holds only comments, no [section]"
	}
	if filepath.Base(file) == "Kustomization" || resource.IsKustomizationFile(data, file) {
		return pos, "the kustomization has no patches (patches, patchesStrategicMerge, patchesJson6902)"
	}
	if st, err := tree.Read(data, tree.Options{File: file}); err == nil {
		for _, d := range st.Docs {
			if r := tree.Root(d); r != nil && r.Kind == yaml.SequenceNode && len(r.Content) == 0 {
				pos.Line, pos.Column = r.Line, r.Column
				return pos, "the file's patch list is empty ([])"
			}
		}
		for _, d := range st.Docs {
			if r := tree.Root(d); r != nil && tree.KindOf(r) == tree.Null {
				pos.Line, pos.Column = r.Line, r.Column
				return pos, "the file's document is null, not a patch list"
			}
		}
	}
	return pos, "the file holds only comments, no patch list"
}

// ApplyPatches applies patches to a set, in kpatch.Apply's order, finds
// the conflicts between them, and renders every source of the set: files no
// patch touched are their input, touched ones keep the text of everything
// not changed. The set is edited in place: the objects a patch deleted are
// taken out of it (resource.Set.RemoveDeleted).
//
// Files are patched several at once (and the objects of a file too), each
// rendered as soon as its objects are patched; the copy of a file that
// keeps its text (tree.Stream.Snapshot) lives only from just before its
// first edit until then. A stream that holds a snapshot already (its
// caller means to write it again after more edits) keeps it.
//
// Once ctx is done, ApplyPatches patches and renders nothing more and
// returns ctx.Err() wrapped with where it stopped (the file, the object or
// the patch), and no result. The objects patched by then stay patched, as
// after any error: the set is then best thrown away.
func ApplyPatches(ctx context.Context, set *resource.Set, patches []*syntax.Patch, opts ApplyPatchesOptions) (*ApplyResult, error) {
	rec := &conflict.Recorder{}
	run := kpatch.NewRun(patches, opts.kpatchOptions(rec))
	objs := make([][]*resource.Resource, len(set.Sources))
	index := make(map[*resource.Source]int, len(set.Sources))
	for i, src := range set.Sources {
		index[src] = i
	}
	for _, r := range set.Resources {
		i := index[r.Source]
		objs[i] = append(objs[i], r)
	}
	files := make([]fileResult, len(set.Sources))
	parallel.For(len(set.Sources), opts.Workers, func(i int) {
		files[i] = patchFile(ctx, run, set.Sources[i], objs[i], opts)
	})
	res, err := finish(ctx, run, rec, set, files, len(patches), opts)
	set.RemoveDeleted()
	return res, err
}

func (opts ApplyPatchesOptions) kpatchOptions(rec *conflict.Recorder) kpatch.Options {
	o := kpatch.Options{Schema: opts.Schema, Vars: opts.Vars, Strict: opts.Strict,
		ListOrder: opts.ListOrder, Trace: opts.Trace, Records: rec.Add, Workers: opts.Workers,
		// validation attributes violations to changes; blame shows them
		Changes:     opts.Validate != validate.None || opts.blame != nil || opts.Stale,
		ShowSecrets: opts.ShowSecrets}
	if opts.Limits != nil {
		o.MaxExpanded = opts.Limits.MaxExpanded
		if o.MaxExpanded <= 0 {
			o.MaxExpanded = -1 // no limit
		}
	}
	return o
}

// fileResult is a file written, or the error writing it, and the
// violations of its objects.
type fileResult struct {
	file           *File
	err            error
	invalid, warns []*validate.Error
	blamed         []*blamedObject // Blame's
	stale          []StalePatch    // ApplyPatchesOptions.Stale's
	secrets        []placedSecrets // of the objects that are or were Secrets
	deleted        []objPlace      // the objects the patches deleted, as read
	docs           int             // the documents of the source as read
	// rewritten: a part of a file (resource.Source.Part) that could not be
	// written keeping its text, and was written by yaml.v3 as a whole
	// (tree.Stream.Rewritten): Apply then runs again without parts, so
	// that the whole file is written as it is when read whole
	rewritten bool
}

// patchFile patches the objects of a source and renders it; once ctx is
// done, it does neither (the run's Finish reports where it stopped, or,
// when the source was not patched, the error of the file is that).
func patchFile(ctx context.Context, run *kpatch.Run, src *resource.Source, objs []*resource.Resource, opts ApplyPatchesOptions) fileResult {
	docs := len(src.Stream.Docs)
	if src.Kustomization {
		return fileResult{docs: docs} // not a manifest: left out of the output
	}
	if err := ctx.Err(); err != nil {
		return fileResult{err: fmt.Errorf("stopped before patching %s: %w", src.Path, err), docs: docs}
	}
	targeted := false
	for _, r := range objs {
		if run.Targets(r) {
			targeted = true
			break
		}
	}
	mine := false // the snapshot is taken here, and dropped once written
	if targeted && !src.Stream.Snapshotted() {
		src.Stream.Snapshot()
		mine = true
	}
	touched := make([]bool, len(objs))
	blamed := make([]*blamedObject, len(objs))
	stale := make([][]StalePatch, len(objs))
	secrets := make([]*secret.Values, len(objs))
	type check struct{ errs, warns []*validate.Error }
	checks := make([]check, len(objs))
	if targeted {
		c := checker{mode: opts.Validate, schema: opts.Schema, showSecrets: opts.ShowSecrets}
		input := newRereader(src.Input, src.Path, src.Line, src.Column, opts.Limits)
		parallel.For(len(objs), opts.Workers, func(j int) {
			r := objs[j]
			if touched[j] = run.Patch(ctx, r); touched[j] && !r.Deleted {
				checks[j].errs, checks[j].warns = c.check(r.Root, true, src.Path, r.ID(), run.Secrets(r),
					func() []validate.Violation { return c.violations(input.object(r), true) },
					func() []validate.Change { return validate.Changes(run.Changes(r)) })
			}
			if touched[j] && opts.blame != nil {
				blamed[j] = opts.blame.collect(run.Changes(r), r, run.Secrets(r))
			}
			if touched[j] && opts.Stale && !r.Deleted {
				for _, st := range change.Stales(run.Changes(r), input.object(r)) {
					stale[j] = append(stale[j], StalePatch{Object: r.ID(), Stale: st})
				}
			}
			secrets[j] = run.Secrets(r)
			run.Done(r)
		})
	}
	if opts.blame != nil {
		for j, r := range objs {
			if !touched[j] {
				opts.blame.picks(r) // picked and unchanged, for Blame's report
			}
		}
	}
	changed := slices.Contains(touched, true)
	src.RemoveDeleted(objs) // the objects a patch deleted
	var b []byte
	var err error
	if err = ctx.Err(); err != nil {
		err = fmt.Errorf("stopped before writing %s: %w", src.Path, err)
	} else if !opts.NoOutput {
		b, err = render(src, changed, opts.KeepFormat)
	}
	res := fileResult{file: &File{Path: src.Path, Rel: src.Rel, Input: src.Input, Output: b}, err: err,
		rewritten: src.Whole != nil && src.Stream.Rewritten(), docs: docs}
	if mine {
		src.Stream.DropSnapshot()
	}
	for _, c := range checks {
		res.invalid = append(res.invalid, c.errs...)
		res.warns = append(res.warns, c.warns...)
	}
	for _, b := range blamed {
		if b != nil {
			res.blamed = append(res.blamed, b)
		}
	}
	for _, st := range stale {
		res.stale = append(res.stale, st...)
	}
	for j, vals := range secrets {
		if vals != nil {
			res.secrets = append(res.secrets, placedSecrets{objs[j].Doc, objs[j].Item, vals})
		}
	}
	for _, r := range objs {
		if r.Deleted {
			res.deleted = append(res.deleted, objPlace{r.Doc, r.Item})
		}
	}
	return res
}

// finish completes a run: the warnings and the first error of the patches
// (kpatch.Run.Finish), then the first error writing a file. A run whose
// context is done stops at the first file (in input order) not patched or
// not written for that reason, when there is one.
func finish(ctx context.Context, run *kpatch.Run, rec *conflict.Recorder, set *resource.Set, files []fileResult, patches int, opts ApplyPatchesOptions) (*ApplyResult, error) {
	if done := ctx.Err(); done != nil {
		for _, f := range files {
			if f.err != nil && errors.Is(f.err, done) {
				return nil, f.err
			}
		}
	}
	res, err := run.Finish(ctx, set)
	if err != nil {
		return nil, err
	}
	// what reading the manifests noticed (a %YAML 1.3 directive), in
	// file order, before what the patches did
	var warnings []kpatch.Warning
	for _, src := range set.Sources {
		for _, w := range src.Warnings {
			warnings = append(warnings, kpatch.Warning{Pos: w.Pos, Msg: w.Msg})
		}
	}
	out := &ApplyResult{Patches: patches, Objects: len(set.Resources), Warnings: append(warnings, res.Warnings...),
		Conflicts: rec.Conflicts(res.Recorded), Files: make([]*File, len(files)),
		ShowSecrets: opts.ShowSecrets, limits: opts.Limits}
	if opts.blame != nil {
		out.blamed = blamedOf(files)
	}
	for _, f := range files {
		if f.file != nil && len(f.deleted) > 0 {
			if out.deleted == nil {
				out.deleted = map[*File][]objPlace{}
			}
			out.deleted[f.file] = f.deleted
		}
		if f.file != nil && len(f.secrets) > 0 && !opts.ShowSecrets {
			if out.secrets == nil {
				out.secrets = map[*File][]placedSecrets{}
			}
			out.secrets[f.file] = f.secrets
		}
	}
	var invalid []error
	for _, f := range files {
		for _, e := range f.invalid {
			invalid = append(invalid, e)
		}
		out.Invalid = append(out.Invalid, f.warns...)
		out.Stale = append(out.Stale, f.stale...)
	}
	if len(invalid) > 0 {
		return nil, errors.Join(invalid...)
	}
	for i, f := range files {
		if f.err != nil {
			return nil, f.err
		}
		out.Files[i] = f.file
	}
	out.Files = slices.DeleteFunc(out.Files, func(f *File) bool { return f == nil }) // kustomizations
	return out, nil
}

// render writes a source. A source no patch touched is its input (but a
// JSON file of several documents becomes YAML unless keepFormat: JSON texts
// cannot follow each other in a YAML stream). A touched JSON source is JSON
// with keepFormat, YAML without.
func render(src *resource.Source, changed, keepFormat bool) ([]byte, error) {
	copyInput := src.Stream.Format == tree.YAML || keepFormat || len(src.Stream.Docs) == 1
	if !changed && copyInput {
		return src.Input, nil
	}
	var b bytes.Buffer
	var err error
	if keepFormat && src.Stream.Format == tree.JSON {
		err = src.Stream.WriteJSON(&b)
	} else {
		err = src.Stream.WriteYAML(&b)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Path, err)
	}
	return b.Bytes(), nil
}

// Stream joins the outputs into one YAML stream, separated by --- (as
// tree.JoinStreams joins them: the output reads as the documents of every
// output, in order).
func (r *ApplyResult) Stream() []byte {
	outs := make([][]byte, len(r.Files))
	for i, f := range r.Files {
		outs[i] = f.Output
	}
	return tree.JoinStreams(outs...)
}

// Diff returns a unified diff (diff -u, three lines of context) of each
// changed file, named a/PATH and b/PATH; a file without a final newline is
// marked "\ No newline at end of file", as diff -u marks it, so that
// patch -p1 applies the diff. Unless ShowSecrets, the values of Secrets
// are masked first (maskTexts), so that the diff shows which values
// changed, not what they were or became.
func (r *ApplyResult) Diff() string {
	var b strings.Builder
	for _, f := range r.Files {
		if !f.Changed() {
			continue
		}
		in, out := string(f.Input), string(f.Output)
		if !r.ShowSecrets {
			in, out = maskTexts(f, r.limits, r.secrets[f], r.deleted[f])
		}
		b.WriteString(linediff.UnifiedText("a/"+f.Path, "b/"+f.Path, in, out, 3))
	}
	return b.String()
}

// WriteDir writes every output under dir by its Rel name, all or nothing,
// while it holds dir's lock: WriteDirWith with no options.
func (r *ApplyResult) WriteDir(dir string) error {
	return r.WriteDirWith(dir, WriteDirOptions{})
}

// WriteDirOptions control ApplyResult.WriteDirWith.
type WriteDirOptions struct {
	// Context, when cancelled (on a signal, say), stops the writing: what
	// was written is undone, and the error wraps context.Cause.
	Context context.Context
	// Lock is dir's lock, taken by the caller with LockDir to hold it
	// from before the inputs are read (an edit in place must not be
	// overlapped by another run either); nil: WriteDirWith takes it while
	// it writes.
	Lock *DirLock
}

// WriteDirWith writes every output under dir by its Rel name, all or
// nothing. Every target is checked before the first file is created (a
// folder where a file must go, a file where a folder must go, a symbolic
// link: an error naming it); every output is then written to a temporary
// file next to its target (".NAME.kmerge-DIGITS.tmp"), and the targets are
// replaced by renames, each replaced file kept under a temporary name until
// every rename has succeeded. A failure, or the cancellation of
// opts.Context, undoes what was done: dir is left as it was (folders
// created are removed again). After success, the temporary files of the
// same targets that a killed run left are removed.
//
// A file that already holds its output is left alone (its modification
// time too), and a replaced file keeps its permissions, so that dir may be
// the folder the manifests came from: an edit in place. A new file gets
// the permissions 0666 less the umask (new folders 0777 less the umask).
// Nothing is written outside dir: a symbolic link below dir is refused,
// not followed (dir itself may be one). Two files with one Rel name are an
// error.
func (r *ApplyResult) WriteDirWith(dir string, opts WriteDirOptions) error {
	from := map[string]string{}
	files := make([]outdir.File, len(r.Files))
	for i, f := range r.Files {
		name := filepath.Join(dir, f.Rel)
		if prev, dup := from[name]; dup {
			return fmt.Errorf("%s: %s and %s would both be written to %s; give them in separate runs or from one folder", dir, prev, f.Path, name)
		}
		from[name] = f.Path
		files[i] = outdir.File{Name: f.Rel, Data: f.Output}
	}
	if opts.Lock == nil {
		lock, err := LockDir(dir)
		if err != nil {
			return err
		}
		defer lock.Unlock()
	} else if !opts.Lock.l.Holds(dir) {
		return fmt.Errorf("%s: the lock given is %s's", dir, opts.Lock.l.Dir)
	}
	return outdir.Write(dir, files, outdir.Options{Context: opts.Context})
}

// DirLock is the lock on an output folder (LockDir), which keeps two runs
// from writing one folder at once, or two nested folders (one inside the
// other, whose files both may write): a lock file, .kmerge.lock, in the
// folder, locked with flock(2) on Linux, macOS and the BSDs and with
// LockFileEx on Windows (the system lets go of it when the process ends,
// however it ends). Other systems have no lock.
type DirLock struct{ l *outdir.Lock }

// DirLockedError is the error of LockDir on a folder another process
// holds the lock of, or a folder inside it or around it that another
// process writes (Folder names it then).
type DirLockedError = outdir.LockedError

// LockDir takes the lock on the output folder dir, creating dir if it is
// missing (Unlock removes it again if it is still empty). It does not wait:
// a folder locked by another process is a *DirLockedError, and so is one
// that another process is writing a folder of, or a folder that holds it
// (the lock files of the folders above dir and below it are looked at:
// links followed to find dir's own place, none followed below it, and
// folders whose name starts with a dot passed over, as WriteDirWith writes
// none of them). A lock file that is not a regular file of one name (a
// link planted in a repository) is an error naming it, and is neither
// followed nor written.
func LockDir(dir string) (*DirLock, error) {
	l, err := outdir.Acquire(dir)
	if err != nil {
		return nil, err
	}
	return &DirLock{l}, nil
}

// Unlock lets go of the lock and removes the lock file.
func (l *DirLock) Unlock() error {
	if l == nil {
		return nil
	}
	return l.l.Unlock()
}
