package lsp

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/explain"
	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

// Completion in a YAML patch list reads the lines above the cursor, not a
// parse of the file: the file is being typed and seldom parses. It finds
// the entry the cursor is in (its target: and type:) and the keys from
// the entry's patch: down to the mapping the cursor's key belongs to, by
// indentation, as a reader of block YAML would.

// yamlLine is one line of block YAML as completion sees it: the column of
// its first "- " (dash, -1 without one), the column of the key after the
// dashes, the key, and whether the line opens a block (nothing after the
// colon but a comment).
type yamlLine struct {
	dash, col int
	key       string
	opens     bool
	blank     bool
}

func readYAMLLine(l string) yamlLine {
	t := strings.TrimLeft(l, " ")
	if t == "" || t[0] == '#' {
		return yamlLine{blank: true}
	}
	y := yamlLine{dash: -1, col: len(l) - len(t)}
	for t == "-" || strings.HasPrefix(t, "- ") {
		y.dash = y.col
		rest := strings.TrimLeft(t[1:], " ")
		y.col += len(t) - len(rest)
		t = rest
	}
	colon := strings.Index(t, ":")
	if colon <= 0 || colon+1 < len(t) && t[colon+1] != ' ' {
		return y
	}
	y.key = strings.Trim(t[:colon], `"'`)
	after := strings.TrimSpace(t[colon+1:])
	y.opens = after == "" || after[0] == '#'
	return y
}

// yamlPlace is where the cursor is in a patch list entry.
type yamlPlace struct {
	target, typ string   // the entry's target: and type: ("" when absent)
	keys        []string // the keys from below patch: to the cursor's mapping
}

// yamlPlaceAt finds the entry and the keys above the cursor's line, whose
// key starts at column col, after a "- " at column dash (-1: none); ok is
// false outside an entry's patch:.
func yamlPlaceAt(lines []string, line, col, dash int) (yamlPlace, bool) {
	var pl yamlPlace
	cur := col
	seq := dash // the dash column of the list item the current mapping is, when it is one
	for i := line - 1; i >= 0; i-- {
		y := readYAMLLine(lines[i])
		if y.blank {
			continue
		}
		switch {
		case seq < 0 && y.col == cur && y.dash >= 0 && y.dash < cur:
			seq = y.dash // a sibling key that starts the item: the mapping is a list item
		case seq < 0 && y.col < cur, seq >= 0 && (y.col < seq || y.col == seq && y.dash < 0):
			if !y.opens {
				return pl, false
			}
			if y.key == "patch" {
				for l, r := 0, len(pl.keys)-1; l < r; l, r = l+1, r-1 {
					pl.keys[l], pl.keys[r] = pl.keys[r], pl.keys[l]
				}
				pl.target, pl.typ = entryKeys(lines, i, y.col)
				return pl, true
			}
			pl.keys = append(pl.keys, y.key)
			cur, seq = y.col, -1
			if y.dash >= 0 {
				seq = y.dash
			}
		}
	}
	return pl, false
}

// entryKeys returns the target: and type: of the entry whose key patch:
// is on line at column col.
func entryKeys(lines []string, line, col int) (target, typ string) {
	value := func(l string) {
		y := readYAMLLine(l)
		if y.blank || y.col != col {
			return
		}
		v := strings.TrimSpace(l[strings.Index(l, ":")+1:])
		if i := strings.Index(v, " #"); i >= 0 {
			v = strings.TrimSpace(v[:i])
		}
		switch y.key {
		case "target":
			target = yamlScalar(v)
		case "type":
			typ = yamlScalar(v)
		}
	}
	for i := line; i >= 0; i-- {
		y := readYAMLLine(lines[i])
		if !y.blank && y.col < col {
			break
		}
		value(lines[i])
		if y.dash >= 0 && y.col == col {
			break // the line that starts the entry
		}
	}
	for i := line + 1; i < len(lines); i++ {
		y := readYAMLLine(lines[i])
		if !y.blank && (y.col < col || y.dash >= 0 && y.col == col) {
			break
		}
		value(lines[i])
	}
	return target, typ
}

// yamlScalar is the string a scalar's text on one line holds: a quoted
// scalar unquoted as YAML reads it, a plain one as it is (a target quotes
// a dotted name, configmap."app.v2", in a plain scalar).
func yamlScalar(v string) string {
	var s string
	if v != "" && (v[0] == '"' || v[0] == '\'') && yaml.Unmarshal([]byte(v), &s) == nil {
		return s
	}
	return v
}

// patchList completes in a YAML patch list: the objects after target:,
// the patch types after type:, and in a patch: the fields of the target's
// kind at the cursor's place (dotpaths and shortcuts for field patches,
// the nested keys of strategic and merge patches).
func (c *completer) patchList(before string) {
	y := readYAMLLine(before)
	switch {
	case y.key == "target":
		c.start = c.cursor - len(strings.TrimLeft(before[strings.Index(before, ":")+1:], " "))
		for _, r := range c.ws.set.Resources {
			// the target as a header writes it (one printer): a dotted name
			// quoted, configmap."app.v2", which a YAML plain scalar holds
			c.add(syntax.Target{Kind: strings.ToLower(r.Kind), Name: r.Name}.String(), kindRef, r.ID(), "")
		}
		return
	case y.key == "type":
		c.start = c.cursor - len(strings.TrimLeft(before[strings.Index(before, ":")+1:], " "))
		for _, t := range [][2]string{{"field", "dotpath keys (the default)"}, {"strategic", "a Strategic Merge Patch"}, {"merge", "an RFC 7396 JSON merge patch"}, {"json", "an RFC 6902 JSON patch"}} {
			c.add(t[0], kindValue, t[1], "")
		}
		return
	case y.key != "" || y.blank && strings.TrimSpace(before) != "":
		return // a value, or text completion does not read
	}
	col, dash := len(before), -1 // a blank line: the key starts at the cursor
	if !y.blank {
		col, dash = y.col, y.dash
	}
	key := before[col:]
	pl, ok := yamlPlaceAt(c.d.lines, c.line, col, dash)
	if !ok || pl.target == "" {
		return
	}
	// the target as the patch list reads it (not as a header: there a
	// dot may start a path)
	target, err := syntax.ParseTarget(pl.target, tree.Position{File: c.d.path})
	if err != nil {
		return
	}
	switch pl.typ {
	case "", "field":
		if len(pl.keys) > 0 {
			return
		}
		cur, ok := syntax.PathCursor(key)
		if !ok {
			return
		}
		c.start = c.cursor - len(key) + cur.Start
		c.below(target, cur.Path, cur.Bracket, false)
	case "strategic", "merge":
		c.start = col
		objs := c.ws.targets(target)
		if len(objs) == 0 {
			return
		}
		typ := c.ws.schema.Kind(objs[0].APIVersion, objs[0].Kind)
		for _, k := range pl.keys {
			f := typ.Field(k)
			if f == nil {
				return
			}
			typ = f.Type
			if typ != nil && (typ.Kind == schema.List || typ.Kind == schema.Map) {
				typ = typ.Elem
			}
		}
		if typ == nil || typ.Kind != schema.Object {
			return
		}
		for _, f := range typ.Fields() {
			if schema.ServerSet(typ, f.Name, len(pl.keys) == 0) {
				continue
			}
			c.add(f.Name, kindField, explain.TypeName(f.Type), explain.Summary(f))
		}
	}
}
