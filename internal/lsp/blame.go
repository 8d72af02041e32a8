package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/change"
	"github.com/kmerge/kmerge/fieldpath"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/resource"
	"github.com/kmerge/kmerge/tree"
)

// cursorPlace is the field (or list item) of a manifest under the cursor:
// its value, its key (nil for an item), the values holding it (the object
// first, the value last), and its path, items named by index, for the
// hover's title when no patch writes it.
type cursorPlace struct {
	value, key *yaml.Node
	chain      []*yaml.Node
	path       fieldpath.Path
	start      int // byte column where the key (or item) starts
}

// placeAt finds the entry of r whose key (or the scalar item) is the last
// one starting on line (1-based) at or before the byte column col.
func placeAt(d *document, root *yaml.Node, line, col int) *cursorPlace {
	var best *cursorPlace
	var walk func(n *yaml.Node, chain []*yaml.Node, path fieldpath.Path)
	consider := func(start *yaml.Node, value, key *yaml.Node, chain []*yaml.Node, path fieldpath.Path) {
		at := tree.Position{Line: start.Line, Column: start.Column}
		if d.lineOf(at) != line-1 {
			return
		}
		c := d.column(at)
		if c > col || best != nil && c < best.start {
			return
		}
		best = &cursorPlace{value: value, key: key, chain: append(append([]*yaml.Node(nil), chain...), value),
			path: path, start: c}
	}
	walk = func(n *yaml.Node, chain []*yaml.Node, path fieldpath.Path) {
		n = tree.Deref(n)
		if n == nil {
			return
		}
		chain = append(chain, n)
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], tree.Deref(n.Content[i+1])
				p := path.Append(fieldpath.Field(k.Value))
				consider(k, v, k, chain, p)
				walk(v, chain, p)
			}
		case yaml.SequenceNode:
			for i, it := range n.Content {
				p := path.Append(fieldpath.Index(i))
				if it.Kind == yaml.ScalarNode {
					consider(it, it, nil, chain, p)
				}
				walk(it, chain, p)
			}
		}
	}
	walk(root, nil, nil)
	return best
}

// manifestHover says, on a field of a manifest, which patch of the project
// writes it last and which earlier ones it overrides (kmerge blame's
// answer): the project's patches run on a copy of the object as the
// editor holds it, recording their changes, and the origins of those
// changes (change.Origins) that reach the field are shown, the innermost.
func (s *Server) manifestHover(d *document, a *analysis, p Position) *Hover {
	set, err := resource.Parse([]byte(d.text), d.path, resource.LoadOptions{})
	if err != nil {
		return nil
	}
	line, col := p.Line+1, d.byteCol(p)
	for _, r := range set.Resources {
		pl := placeAt(d, r.Root, line, col)
		if pl == nil {
			continue
		}
		copied := *r
		copied.Root = tree.Clone(r.Root)
		opts := a.ws.options()
		opts.KeepGoing, opts.Workers, opts.Changes = true, 1, true
		run := kpatch.NewRun(a.patches(), opts)
		run.Patch(context.Background(), &copied) // one object: as long as the project's patches on it take
		var best *change.Origin
		for _, o := range change.Origins(run.Changes(&copied), r.Root) {
			n := fieldpath.Get(r.Root, o.Path)
			at := -1
			for i, c := range pl.chain {
				if c == n {
					at = i
				}
			}
			if at < 0 || at < len(pl.chain)-1 && o.Op != change.Set && o.Op != change.Insert && o.Op != change.Delete {
				continue // not this place, nor a whole value holding it
			}
			if best == nil || len(o.Path) >= len(best.Path) {
				best = &o
			}
		}
		rng := Range{Start: d.pos(line-1, pl.start), End: d.pos(line-1, pl.start+len(keyText(pl)))}
		var b strings.Builder
		if best == nil {
			fmt.Fprintf(&b, "**%s**\n\nno patch of the project changes it\n", pl.path)
			return &Hover{Contents: MarkupContent{Kind: "markdown", Value: b.String()}, Range: &rng}
		}
		fmt.Fprintf(&b, "**%s**\n\n`%s` %s", best.Path, a.ws.relPos(a.at(best.Pos)), best.Change.String())
		if len(best.Path) < len(pl.path) {
			b.WriteString(" (a whole value holding this field)")
		}
		b.WriteString("\n")
		if len(best.Overrode) > 0 {
			b.WriteString("\nover:\n")
			for i, x := range best.Overrode {
				if i == maxShown {
					fmt.Fprintf(&b, "- and %d more\n", len(best.Overrode)-maxShown)
					break
				}
				fmt.Fprintf(&b, "- `%s` %s\n", a.ws.relPos(a.at(x.Pos)), x.String())
			}
		}
		return &Hover{Contents: MarkupContent{Kind: "markdown", Value: b.String()}, Range: &rng}
	}
	return nil
}

// keyText is the text the hover's range covers: the key, or the item.
func keyText(pl *cursorPlace) string {
	if pl.key != nil {
		return pl.key.Value
	}
	return pl.value.Value
}

// relPos writes a patch position relative to the project's folder.
func (ws *workspace) relPos(p tree.Position) string {
	file := p.File
	if ws.proj != nil {
		if rel, err := filepath.Rel(ws.proj.Dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	return fmt.Sprintf("%s:%d", file, p.Line)
}
