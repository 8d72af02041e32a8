package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kmerge/kmerge"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/project"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/smp"
)

// workspace is a project, loaded once and kept: its manifests parsed, its
// schema, variables and patch files. Diagnostics for an edited file run
// only that file's patches (and the project's other patches on the
// objects it targets), so an edit costs what the file touches, not what
// the project holds; and the objects whose patches did not change are not
// patched again (check.go).
type workspace struct {
	key  string // the project file, or the folder of a project found without one
	proj *project.Project

	// set by load, once; read-only after
	loaded sync.Once
	done   atomic.Bool // loaded (or failed to)
	err    error       // loading the project failed: reported on every file
	set    *resource.Set
	index  map[*resource.Resource]int // in set.Resources
	byName map[string][]*resource.Resource
	schema *schema.Schema
	vars   *kpatch.Vars
	order  smp.ListOrder
	files  []string // the project's patch files, absolute, in order

	mu        sync.Mutex
	disk      map[string]*unit // patch files as saved, parsed: one unit each
	shortcuts map[*schema.Type][]kpatch.Shortcut
	sections  map[string]map[string][]*unit // units of open files, by file and text (units)
	objects   map[string]*checked           // objects checked, by what the check depends on (objectKey)
	live      map[string]*liveKeys          // by document URI: what its last check used (retain)

	showSecrets bool // Options.ShowSecrets

	parsed, patched atomic.Int64 // sections parsed and objects patched so far, for tests
}

// newWorkspace makes the workspace of a project found by findProject; it
// is loaded on first use (load).
func newWorkspace(key string, p *project.Project, err error, showSecrets bool) *workspace {
	ws := &workspace{key: key, proj: p, err: err, disk: map[string]*unit{}, shortcuts: map[*schema.Type][]kpatch.Shortcut{},
		sections: map[string]map[string][]*unit{}, objects: map[string]*checked{}, live: map[string]*liveKeys{},
		byName: map[string][]*resource.Resource{}, index: map[*resource.Resource]int{}, schema: schema.Builtin(),
		vars: kpatch.NewVars(), set: &resource.Set{}, showSecrets: showSecrets}
	ws.done.Store(err != nil) // no project: nothing to load
	return ws
}

// findProject names the project a file belongs to: the kmerge.yaml of its
// folder or the nearest parent; else, in the nearest folder (up to the top
// of a git repository, at most three levels up) in which
// project.DetectAll finds manifests, the project whose patches hold the
// file (an overlay's), or the first; else the file's folder, with no
// manifests.
func findProject(file string) (key string, p *project.Project, err error) {
	dir := filepath.Dir(file)
	found, err := project.Find(dir)
	if err != nil {
		return dir, nil, err
	}
	if found != "" {
		abs, _ := filepath.Abs(found)
		p, err := project.Load(abs)
		return abs, p, err
	}
	for d, i := dir, 0; i < 4; d, i = filepath.Dir(d), i+1 {
		ps, err := project.DetectAll(d)
		if err != nil {
			ps = nil
		}
		// the proposed project whose patches hold the file (an overlay's,
		// when the folder has several), else the first with manifests
		var found *project.Project
		for _, p := range ps {
			if len(p.Manifests) == 0 {
				continue
			}
			for _, pp := range p.Patches {
				if file == pp || strings.HasPrefix(file, pp+string(filepath.Separator)) {
					return p.Dir, p, nil
				}
			}
			if found == nil {
				found = p
			}
		}
		if found != nil {
			return d, found, nil
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil || filepath.Dir(d) == d {
			break
		}
	}
	return dir, &project.Project{File: filepath.Join(dir, project.FileName), Dir: dir}, nil
}

// load reads the project's manifests, schemas and values, the first time
// it is called; the others wait for it. ctx is the server's: a check that
// is cancelled does not stop the loading it started, which the next check
// needs.
func (ws *workspace) load(ctx context.Context) {
	ws.loaded.Do(func() {
		ws.err = ws.read(ctx)
		ws.done.Store(true)
	})
}

func (ws *workspace) read(ctx context.Context) error {
	p := ws.proj
	if ws.err != nil {
		return ws.err
	}
	var err error
	if ws.schema, err = kmerge.LoadSchemas(p.Schemas); err != nil {
		return err
	}
	if ws.vars, err = p.Vars(nil); err != nil {
		return err
	}
	if p.ListOrder != "" {
		if ws.order, err = smp.ParseListOrder(p.ListOrder); err != nil {
			return err
		}
	}
	if len(p.Manifests) > 0 {
		set, err := resource.Load(ctx, abs(p.Manifests), nil, resource.LoadOptions{})
		if err != nil {
			return err
		}
		ws.set = set
	}
	for i, r := range ws.set.Resources {
		ws.byName[r.Name] = append(ws.byName[r.Name], r)
		ws.index[r] = i
	}
	if len(p.Patches) > 0 {
		if ws.files, err = kpatch.Files(abs(p.Patches)); err != nil {
			return err
		}
	}
	// the schemas the kustomizations among the patches name (openapi), as
	// kmerge apply reads them: after the project's, which win
	for _, f := range ws.files {
		if slices.Contains(kpatch.KustomizationNames, filepath.Base(f)) {
			if u := ws.diskUnit(f); len(u.schemas) > 0 {
				ws.schema = ws.schema.Extend(u.schemas...)
			}
		}
	}
	return nil
}

// unread returns the warning of a kustomization among the project's patch
// files that nothing reads file, a file of its folder (kpatch.Warning's
// Unread): kmerge apply reads nothing of it.
func (ws *workspace) unread(file string) (kpatch.Warning, bool) {
	for _, f := range ws.files {
		if !slices.Contains(kpatch.KustomizationNames, filepath.Base(f)) {
			continue
		}
		for _, w := range ws.diskUnit(f).warns {
			if w.Unread && w.Pos.File == file {
				return w, true
			}
		}
	}
	return kpatch.Warning{}, false
}

func abs(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			a = p
		}
		out[i] = a
	}
	return out
}

// diskUnit returns a patch file as saved, parsed once, as one unit.
func (ws *workspace) diskUnit(file string) *unit {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if u, ok := ws.disk[file]; ok {
		return u
	}
	u := &unit{id: newUnitID(), name: file, file: file}
	data, err := readfile.Found(file, nil) // a file of the project, found or named: regular only
	if err == nil {
		var inputs []string // the project's other inputs, which an overlay's folder may hold
		if ws.proj != nil {
			inputs = abs(slices.Concat(ws.proj.Manifests, ws.proj.Values, ws.proj.Schemas))
		}
		u.patches, err = kpatch.Parse(data, file, kpatch.LoadOptions{Inputs: inputs,
			Warn:    func(w kpatch.Warning) { u.warns = append(u.warns, w) },
			Schemas: func(s *schema.Schema) { u.schemas = append(u.schemas, s) }})
	}
	if err != nil {
		u.errs = []error{err}
	}
	ws.disk[file] = u
	return u
}

// kustomizationOf returns the kustomization among the project's patch
// files that reads patches from file (a patch file of an overlay, which
// kmerge reads only through it), "" when there is none.
func (ws *workspace) kustomizationOf(file string) string {
	for _, f := range ws.files {
		if f == file || !slices.Contains(kpatch.KustomizationNames, filepath.Base(f)) {
			continue
		}
		for _, p := range ws.diskUnit(f).patches {
			if p.Pos.File == file {
				return f
			}
		}
	}
	return ""
}

// forget drops what is cached of a patch file saved anew, and of the
// kustomizations that read patches from it.
func (ws *workspace) forget(file string) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	delete(ws.disk, file)
	for f, p := range ws.disk { // the kustomizations that read it
		for _, pt := range p.patches {
			if pt.Pos.File == file {
				delete(ws.disk, f)
				break
			}
		}
	}
}

// owns reports whether a change to file changes the loaded project
// itself: the project file, a manifest, values file or schema, or a patch
// file added to or removed from a patch folder.
func (ws *workspace) owns(file string, created bool) bool {
	if ws.proj == nil {
		return false
	}
	if ws.proj.Owns(file) || filepath.Base(file) == project.FileName {
		return true
	}
	if created {
		for _, p := range abs(ws.proj.Patches) {
			if file == p || strings.HasPrefix(file, p+string(filepath.Separator)) {
				return true
			}
		}
	}
	return false
}

// isManifest reports whether file is one of the project's manifests (or
// below a folder of them).
func (ws *workspace) isManifest(file string) bool {
	if ws.proj == nil {
		return false
	}
	for _, m := range abs(ws.proj.Manifests) {
		if file == m || strings.HasPrefix(file, m+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// shortcutsOf returns the shortcuts at a type, computed once.
func (ws *workspace) shortcutsOf(t *schema.Type) []kpatch.Shortcut {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	sc, ok := ws.shortcuts[t]
	if !ok {
		sc = kpatch.Shortcuts(t)
		ws.shortcuts[t] = sc
	}
	return sc
}

// targets returns the objects a patch target picks, in set order (also
// when the target is ambiguous: the error is the run's to report).
func (ws *workspace) targets(t syntax.Target) []*resource.Resource {
	sel := resource.TargetSelector(t)
	m, err := sel.Matcher(ws.schema)
	if err != nil {
		return nil
	}
	candidates := ws.set.Resources
	if name, ok := sel.ExactName(); ok {
		candidates = ws.byName[name]
	}
	var out []*resource.Resource
	for _, r := range candidates {
		if m.Matches(r) {
			out = append(out, r)
		}
	}
	return out
}

// masks reports whether hovers and diagnostics mask the secret values of
// r (Options.ShowSecrets).
func (ws *workspace) masks(r *resource.Resource) bool {
	return !ws.showSecrets && secret.Holds(r.APIVersion, r.Kind)
}

func (ws *workspace) options() kpatch.Options {
	return kpatch.Options{Schema: ws.schema, Vars: ws.vars, ListOrder: ws.order, ShowSecrets: ws.showSecrets}
}

// failed reports whether the project failed to load (one still loading
// has not failed).
func (ws *workspace) failed() bool {
	return ws.done.Load() && ws.err != nil
}
