package lsp

import (
	"fmt"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/explain"
	"github.com/kmerge/kmerge/kpatch"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// completer collects the proposals for one cursor: each replaces the text
// from start (a byte offset in the cursor's line) to the cursor.
type completer struct {
	d      *document
	ws     *workspace
	line   int
	start  int
	cursor int
	items  []CompletionItem
	seen   map[string]bool
}

func (c *completer) add(label string, kind int, detail, doc string) {
	c.addText(label, label, kind, detail, doc)
}

func (c *completer) addText(label, text string, kind int, detail, doc string) {
	if c.seen[label] {
		return
	}
	c.seen[label] = true
	item := CompletionItem{Label: label, Kind: kind, Detail: detail, SortText: fmt.Sprintf("%04d", len(c.items)),
		TextEdit: &TextEdit{Range: Range{Start: c.d.pos(c.line, c.start), End: c.d.pos(c.line, c.cursor)}, NewText: text}}
	if doc != "" {
		item.Documentation = &MarkupContent{Kind: "markdown", Value: doc}
	}
	c.items = append(c.items, item)
}

// complete proposes what may be typed at the cursor. In a .kpatch file:
// in a header, kinds and then object names (from the project's
// manifests), then fields and shortcuts (from the schema of the target's
// kind) and list selectors with the values of the items present in the
// target objects; in an assignment's key, the same below the section's
// header; in a value, ${values.*} and ${features.*} after "${", else
// !delete (and true or false for a boolean). In a YAML patch list, see
// patchList.
func (s *Server) complete(d *document, a *analysis, p Position) *CompletionList {
	if a.manifest {
		return &CompletionList{Items: []CompletionItem{}}
	}
	cursor := d.byteCol(p)
	text := d.line(p.Line)
	c := &completer{d: d, ws: a.ws, line: p.Line, cursor: cursor, seen: map[string]bool{}}
	before := text[:cursor]
	switch {
	case !d.kpatch:
		c.patchList(before)
	case syntax.IsHeader(before):
		c.header(strings.TrimLeft(before, " \t")[1:])
	default:
		c.assignment(a, p.Line, before)
	}
	return &CompletionList{Items: append([]CompletionItem{}, c.items...)}
}

// header completes inside a header, after its "[": the kind, the name (or
// a pattern), a label selector in braces after it, then the path. What is
// before the cursor is read by the header's grammar (syntax.HeaderCursor):
// a quoted kind or name may hold dots.
func (c *completer) header(inner string) {
	cur, ok := syntax.HeaderCursor(inner)
	if !ok {
		return
	}
	base := c.cursor - len(inner)
	c.start = base + cur.Start
	t := cur.Target
	kind := t.Kind
	if kind == "" {
		kind = "*"
	}
	switch cur.In {
	case syntax.InKind:
		c.kinds(t.Namespace)
	case syntax.InName:
		c.names(t.Namespace, kind)
	case syntax.InLabels:
		c.labels(t.Namespace, kind, t.Name, inner[cur.Start:])
	case syntax.InPath:
		c.below(t, cur.Path, cur.Bracket, true)
	}
}

// kinds proposes the kinds of the project's objects, and * (any kind).
func (c *completer) kinds(ns string) {
	count := map[string]int{}
	var ids []string
	for _, r := range c.ws.set.Resources {
		if ns != "" && r.Namespace != ns {
			continue
		}
		k := strings.ToLower(r.Kind)
		if count[k] == 0 {
			ids = append(ids, k+"\x00"+r.APIVersion+" "+r.Kind)
		}
		count[k]++
	}
	sort.Strings(ids)
	for _, id := range ids {
		k, detail, _ := strings.Cut(id, "\x00")
		c.add(k, kindClass, fmt.Sprintf("%s (%s)", detail, plural(count[k], "object")), "")
	}
	if len(ids) > 0 {
		c.add("*", kindClass, "any kind", "every kind: with a label selector, `[*.*{app=web}]`")
	}
}

// names proposes the names of the objects of a kind, *, and the patterns
// that pick the names sharing a prefix (a Helm release's: shop-*).
func (c *completer) names(ns, kind string) {
	var names []string
	where := map[string]string{}
	prefixes := map[string]int{}
	for _, r := range c.ws.set.Resources {
		if (ns == "" || r.Namespace == ns) && (kind == "*" || c.ws.schema.NameMatches(kind, r.GVK())) {
			if _, ok := where[r.Name]; !ok {
				names = append(names, r.Name)
				where[r.Name] = r.ID() + " (" + shortPos(r.Position()) + ")"
				if i := strings.IndexByte(r.Name, '-'); i > 0 {
					prefixes[r.Name[:i+1]]++
				}
			}
		}
	}
	sort.Strings(names)
	for _, n := range names {
		c.addText(n, syntax.TargetWord(n), kindRef, where[n], "") // app.v2 is written "app.v2"
	}
	if len(names) > 0 {
		c.add("*", kindRef, "every "+kind, "")
	}
	var patterns []string
	for p, n := range prefixes {
		if n > 1 {
			patterns = append(patterns, p+"*")
		}
	}
	sort.Strings(patterns)
	for _, p := range patterns {
		c.add(p, kindRef, fmt.Sprintf("%d objects", prefixes[strings.TrimSuffix(p, "*")]), "the names that start with "+strings.TrimSuffix(p, "*"))
	}
}

// labels completes a label selector in a header, after its "{": the keys
// of the labels of the objects the kind and name pick, and after key= the
// values they have.
func (c *completer) labels(ns, kind, name, text string) {
	part := text
	if i := strings.LastIndexByte(text, ','); i >= 0 {
		part = text[i+1:]
	}
	lead := len(part) - len(strings.TrimLeft(part, " !"))
	sel := syntax.Target{Namespace: ns, Kind: kind, Name: name}
	if kind == "*" {
		sel.Kind = ""
	}
	objs := c.ws.targets(sel)
	if k, v, ok := strings.Cut(part, "="); ok {
		k = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(k, "!"), "!"))
		v = strings.TrimPrefix(v, "=")
		c.start = c.cursor - len(v)
		var values []string
		count := map[string]int{}
		for _, r := range objs {
			if lv, has := r.Labels()[k]; has {
				if count[lv] == 0 {
					values = append(values, lv)
				}
				count[lv]++
			}
		}
		sort.Strings(values)
		for _, lv := range values {
			c.add(lv, kindValue, plural(count[lv], "object"), "")
		}
		return
	}
	c.start = c.cursor - len(part) + lead
	var keys []string
	count := map[string]int{}
	for _, r := range objs {
		for k := range r.Labels() {
			if count[k] == 0 {
				keys = append(keys, k)
			}
			count[k]++
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		c.add(k, kindField, "a label of "+plural(count[k], "object"), "")
	}
}

// below proposes what may follow path in the objects target picks: in a
// bracket, the selectors of the items present; else the fields and
// shortcuts of the type there, and, for a list, its selectors (bare in a
// header).
func (c *completer) below(target syntax.Target, path syntax.Path, bracket, header bool) {
	objs := c.ws.targets(target)
	var typ *schema.Type
	var field *schema.Field
	var nodes []*yaml.Node
	for i, r := range objs {
		if i == maxShown {
			break
		}
		places, err := kpatch.Lookup(r, path, c.ws.options())
		if err != nil {
			continue
		}
		for _, pl := range places {
			if typ == nil {
				typ, field = pl.Type, pl.Field
			}
			if pl.Node != nil {
				nodes = append(nodes, pl.Node)
			}
		}
	}
	if len(path) == 0 && len(objs) > 0 {
		typ = c.ws.schema.Kind(objs[0].APIVersion, objs[0].Kind)
	}
	isList := typ != nil && typ.Kind == schema.List
	for _, n := range nodes {
		isList = isList || n.Kind == yaml.SequenceNode
	}
	if bracket || isList {
		c.selectors(field, nodes, bracket, header)
		if bracket {
			return
		}
		if typ != nil && typ.Kind == schema.List {
			typ = typ.Elem // a path through a list without a selector: every item
		}
	}
	if typ != nil && typ.Kind == schema.Object {
		for _, f := range typ.Fields() {
			if schema.ServerSet(typ, f.Name, len(path) == 0) {
				continue // patches set desired state, as shortcuts assume
			}
			c.add(f.Name, kindField, explain.TypeName(f.Type), explain.Summary(f))
		}
		for _, sc := range c.ws.shortcutsOf(typ) {
			if serverSetShortcut(typ, sc) {
				continue
			}
			c.add(sc.Name, kindRef, "→ "+strings.Join(sc.Path, "."), "a shortcut for "+strings.Join(sc.Path, "."))
		}
	}
	if typ == nil || typ.Kind == schema.Map || typ.Kind == schema.Any {
		for _, n := range nodes {
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					// written as a path writes it (one printer): a key
					// with a dot in it quoted, "example.com/team"
					k := n.Content[i].Value
					c.addText(k, syntax.Path{{Field: k}}.String(), kindField, "in "+objs[0].ID(), "")
				}
			}
		}
	}
}

// serverSetShortcut reports whether a shortcut at t leads to a field an
// API server sets (schema.ServerSet): metadata.uid, metadata.managedFields.
func serverSetShortcut(t *schema.Type, sc kpatch.Shortcut) bool {
	for i, name := range sc.Path {
		if t == nil {
			return false
		}
		if schema.ServerSet(t, name, i == 0) {
			return true
		}
		f := t.Field(name)
		if f == nil {
			return false
		}
		t = f.Type
	}
	return false
}

// selectors proposes selectors for the items of the lists in nodes: by
// the list's merge key (or, failing one, its list-map keys, recommended
// keys, or name), with the values the items have, then [-] to append.
func (c *completer) selectors(field *schema.Field, nodes []*yaml.Node, bracket, header bool) {
	var keys []string
	if field != nil {
		switch {
		case len(field.Meta.MergeKey) > 0:
			keys = field.Meta.MergeKey
		case len(field.ListMapKeys) > 0:
			keys = field.ListMapKeys
		case len(field.Meta.RecommendedKeys) > 0:
			keys = field.Meta.RecommendedKeys
		}
	}
	for _, n := range nodes {
		if n.Kind != yaml.SequenceNode {
			continue
		}
		for i, it := range n.Content {
			ks := keys
			if len(ks) == 0 && tree.MapGet(it, "name") != nil {
				ks = []string{"name"}
			}
			var conds []string
			for _, k := range ks {
				v := tree.MapGet(it, k)
				if v == nil || v.Kind != yaml.ScalarNode {
					conds = nil
					break
				}
				sel := &syntax.ItemSelector{Op: syntax.SelMatch, Conds: []syntax.Cond{{Key: []string{k}, Value: v.Value}}}
				conds = append(conds, strings.Trim(sel.String(), "[]"))
			}
			text := fmt.Sprint(i)
			if len(conds) > 0 {
				text = strings.Join(conds, ",")
			}
			switch {
			case bracket:
				c.add(text, kindValue, fmt.Sprintf("item %d", i), "")
			case header && len(conds) == 1:
				c.add(text, kindValue, fmt.Sprintf("item %d", i), "")
			default:
				c.add("["+text+"]", kindValue, fmt.Sprintf("item %d", i), "")
			}
		}
	}
	if bracket {
		c.add("-", kindKeyword, "a new item at the end", "")
	} else {
		c.add("[-]", kindKeyword, "a new item at the end", "")
	}
}

// assignment completes a line below a header: its key, or its value.
func (c *completer) assignment(a *analysis, line int, before string) {
	var section *syntax.Patch
	for _, p := range a.absolute(line) {
		if p.Pos.Line-1 <= line && (section == nil || p.Pos.Line > section.Pos.Line) {
			section = p
		}
	}
	sep := syntax.KeySeparator(before)
	if sep < 0 {
		key := strings.TrimLeft(before, " \t")
		if section == nil {
			return
		}
		cur, ok := syntax.PathCursor(key) // the key's grammar: a quoted step may hold dots
		if !ok {
			return
		}
		c.start = c.cursor - len(key) + cur.Start
		path := append(append(syntax.Path(nil), section.Path...), cur.Path...)
		if key == "" {
			c.add("!delete", kindKeyword, "delete what the header names", "")
		}
		c.below(section.Target, path, cur.Bracket, false)
		return
	}
	value := before[sep+1:]
	if i := strings.LastIndex(value, "${"); i >= 0 && !strings.Contains(value[i:], "}") {
		c.start = c.cursor - len(value) + i + 2
		for _, n := range c.ws.vars.Names() {
			c.addText(n, n+"}", kindVariable, "", "")
		}
		return
	}
	c.start = c.cursor - len(strings.TrimLeft(value, " \t"))
	c.add("!delete", kindKeyword, "delete what the key names", "")
	if section == nil {
		return
	}
	keyPath, err := syntax.ParsePath(strings.TrimSpace(before[:sep]), tree.Position{File: c.d.path, Line: line + 1, Column: 1})
	if err != nil {
		return
	}
	for i, r := range c.ws.targets(section.Target) {
		if i == maxShown {
			break
		}
		places, err := kpatch.Lookup(r, append(append(syntax.Path(nil), section.Path...), keyPath...), c.ws.options())
		if err != nil {
			continue
		}
		for _, pl := range places {
			if pl.Type != nil && pl.Type.Kind == schema.Boolean {
				c.add("true", kindValue, "boolean", "")
				c.add("false", kindValue, "boolean", "")
			}
			if pl.Node != nil && tree.KindOf(pl.Node).Scalar() {
				c.add(pl.Node.Value, kindValue, "now, in "+r.ID(), "")
			}
		}
	}
}
