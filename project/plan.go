package project

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
)

// DetectAll proposes the projects of a folder, as Detect finds its
// entries, one project per set of patches that belong together
// (`kmerge init` writes one project file per project):
//
//   - folders of patch files that are siblings (overlays/staging and
//     overlays/prod, environments/*) are overlays: one project each, in
//     the overlay's folder, whose patches are the overlay;
//   - any other folder of patch files (or loose patch files) belongs to the
//     folder that holds it (overrides/ to the root, argocd/app/overrides
//     to argocd/app): one project per such folder;
//   - a project's manifests are those of its folder (not those of another
//     project's folder), or, when its folder has none, of the nearest
//     folder above it that has some (base/ for overlays/prod); its values
//     files and schemas are those of the folders it looked in (values
//     files of the farthest first: later files win, so an overlay's own
//     values win over shared ones; schemas of the nearest first: earlier
//     schemas win);
//   - a kustomize overlay's project (a project whose patches hold a
//     kustomization with patches or components; dir itself may be one) has
//     what kustomize build reads of it: its resources, followed (files of
//     the overlay, bases, and the overlays it builds on), its components,
//     and its bases' openapi files (see followOverlays); the manifests of
//     an overlay's own project are those alone;
//   - of two manifest entries that define the same object, the one nearer
//     to the project's folder is kept, and the other left out, with a
//     comment saying why (a copy of the manifests elsewhere in the
//     repository would make every run fail as "defined twice").
//
// A folder with one project gets it at its root, as Detect proposes it
// (but for the duplicates); a folder without patches, one project of its
// manifests. Projects come in the order of their folders.
func DetectAll(dir string) ([]*Project, error) {
	all, err := Detect(dir)
	if err != nil {
		return nil, err
	}
	type unit struct {
		dir     string // the project's folder
		patches []string
		overlay bool
	}
	var units []*unit
	byDir := map[string]*unit{}
	add := func(dir string, overlay bool, patches ...string) {
		if u := byDir[dir]; u != nil {
			u.patches = append(u.patches, patches...)
			return
		}
		u := &unit{dir: dir, overlay: overlay, patches: patches}
		byDir[dir] = u
		units = append(units, u)
	}
	// the folder each patch entry stands for: itself, or a loose file's
	// folder; folders of patches that are siblings are overlays
	top := func(p string) string {
		if isDir(p) {
			return p
		}
		return filepath.Dir(p)
	}
	tops := map[string]map[string]bool{} // parent: its folders of patches
	var expanded []string                // the patch entries, folders of overlays split
	shared := map[string][]string{}      // a folder of overlays: the patch files beside them
	for _, p := range all.Patches {
		if subs, loose := overlays(p); len(subs) > 1 {
			expanded = append(expanded, subs...)
			shared[p] = loose
			continue
		}
		expanded = append(expanded, p)
	}
	for _, p := range expanded {
		t := top(p)
		if tops[filepath.Dir(t)] == nil {
			tops[filepath.Dir(t)] = map[string]bool{}
		}
		tops[filepath.Dir(t)][t] = true
	}
	for _, p := range expanded {
		t := top(p)
		if len(tops[filepath.Dir(t)]) > 1 {
			// an overlay: the patch files beside the overlays first
			before := append([]string(nil), shared[filepath.Dir(t)]...)
			for _, q := range all.Patches {
				if !isDir(q) && filepath.Dir(q) == filepath.Dir(t) {
					before = append(before, q)
				}
			}
			if byDir[t] == nil {
				add(t, true, before...)
			}
			add(t, true, p)
			continue
		}
		if len(tops[t]) > 1 {
			continue // patch files beside overlays: in each overlay
		}
		add(filepath.Dir(p), false, p) // a folder of patches, or loose ones: its folder's
	}
	if len(units) == 0 || len(units) == 1 && !units[0].overlay {
		all.followOverlays(false)
		all.dedupe(filepath.Clean(dir))
		return []*Project{all}, nil
	}
	sort.SliceStable(units, func(i, j int) bool { return units[i].dir < units[j].dir })
	// within reports whether path lies in the folder of unit u and in no
	// other unit's folder below it
	inUnit := func(path string, u *unit) bool {
		if !within(path, u.dir) {
			return false
		}
		for _, o := range units {
			if o != u && o.dir != u.dir && within(o.dir, u.dir) && within(path, o.dir) {
				return false
			}
		}
		return true
	}
	// in reports whether path lies in folder f and in no unit's folder
	// (below f) but u's own
	in := func(path, f string, u *unit) bool {
		if !within(path, f) {
			return false
		}
		for _, o := range units {
			if o != u && within(o.dir, f) && o.dir != f && within(path, o.dir) {
				return false
			}
		}
		return true
	}
	var out []*Project
	for _, u := range units {
		p := &Project{File: filepath.Join(u.dir, FileName), Dir: u.dir, Patches: u.patches}
		pick := func(from []string, f string) []string {
			var got []string
			for _, e := range from {
				if in(e, f, u) && (f == u.dir || !within(e, u.dir)) {
					got = append(got, e)
				}
			}
			return got
		}
		var values [][]string // by folder looked in, nearest first
		for f := u.dir; ; f = filepath.Dir(f) {
			var ms []string
			if f == u.dir {
				for _, m := range all.Manifests {
					if inUnit(m, u) {
						ms = append(ms, m)
					}
				}
			} else {
				ms = pick(all.Manifests, f)
			}
			values = append(values, pick(all.Values, f))
			p.Schemas = append(p.Schemas, pick(all.Schemas, f)...)
			if len(ms) > 0 {
				p.Manifests = ms
				break
			}
			if filepath.Clean(f) == filepath.Clean(dir) || filepath.Dir(f) == f {
				break
			}
		}
		// later values files win: the nearest come last
		for i := len(values) - 1; i >= 0; i-- {
			p.Values = append(p.Values, values[i]...)
		}
		p.Values, p.Schemas = unique(p.Values), unique(p.Schemas)
		p.followOverlays(u.overlay)
		p.dedupe(u.dir)
		out = append(out, p)
	}
	return out, nil
}

// overlays returns the subfolders of a folder of patch files that hold
// patch files themselves (overlays/staging, overlays/prod), in order, and
// the patch files directly in it; nothing when dir is not a folder.
func overlays(dir string) (subs, loose []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case strings.HasPrefix(e.Name(), "."):
		case e.IsDir():
			if files, err := kpatch.Files([]string{path}); err == nil && len(files) > 0 {
				subs = append(subs, path)
			}
		case isPatchName(e.Name()):
			loose = append(loose, path)
		}
	}
	return subs, loose
}

// isPatchName reports whether a file name is a patch file's, as the patch
// loader reads them.
func isPatchName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".kpatch", ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// isDir reports whether path is a folder.
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// unique drops repeated paths, keeping the first.
func unique(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// dedupe leaves out the manifest entries that define an object an entry
// nearer to the folder near defines too (the first of equally near ones
// stays), noting each in the project's comments.
func (p *Project) dedupe(near string) {
	if len(p.Manifests) < 2 {
		return
	}
	type entry struct {
		path string
		ids  []string
		dist int
	}
	entries := make([]entry, len(p.Manifests))
	for i, m := range p.Manifests {
		entries[i] = entry{path: m, dist: distance(near, m)}
		set, err := resource.Load(context.Background(), []string{m}, nil, resource.LoadOptions{}) // a few files, for kmerge init
		if err != nil {
			continue // the run will say what is wrong with it
		}
		for _, r := range set.Resources {
			entries[i].ids = append(entries[i].ids, r.ID())
		}
	}
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return entries[order[a]].dist < entries[order[b]].dist })
	owner := map[string]string{} // object: the entry kept that defines it
	drop := map[int]bool{}
	for _, i := range order {
		e := entries[i]
		for _, id := range e.ids {
			if o, taken := owner[id]; taken {
				drop[i] = true
				p.notes = append(p.notes, fmt.Sprintf("left out %s: it defines %s, as %s does", rel(p.Dir, e.path), id, rel(p.Dir, o)))
				break
			}
		}
		if !drop[i] {
			for _, id := range e.ids {
				owner[id] = e.path
			}
		}
	}
	var kept []string
	for i, m := range p.Manifests {
		if !drop[i] {
			kept = append(kept, m)
		}
	}
	p.Manifests = kept
	sort.Strings(p.notes)
}

// distance counts the steps between a folder and a path below or beside
// it: up to their common folder, then down.
func distance(from, to string) int {
	r, err := filepath.Rel(from, to)
	if err != nil {
		return 1 << 20
	}
	return len(strings.Split(filepath.ToSlash(r), "/"))
}

// rel writes path relative to dir, with slashes, as a project file does.
func rel(dir, path string) string {
	r, err := filepath.Rel(dir, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}
