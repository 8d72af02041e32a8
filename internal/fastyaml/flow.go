package fastyaml

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/resolve"
)

// flowSpace skips blanks and line breaks inside a flow collection, inside
// a block at column parent: lines it goes on with are indented more than
// parent. Comments inside flow collections are refused.
func (r *reader) flowSpace(parent int) {
	for {
		switch r.src[r.pos] {
		case ' ', '\t':
			r.pos++
		case '\n':
			r.newline()
			for r.src[r.pos] == ' ' {
				r.pos++
			}
			switch r.src[r.pos] {
			case '\n':
				continue
			case '\t':
				r.refuse("a tab in indentation")
			}
			if r.pos-r.bol <= parent {
				r.refuse("a flow collection's line indented as its parent")
			}
			if r.pos == r.bol && (r.isMarker('-') || r.isMarker('.')) {
				r.refuse("a document marker in a flow collection")
			}
		case '#':
			r.refuse("a comment in a flow collection")
		case 0:
			if r.pos >= r.end {
				r.refuse("a flow collection without its end")
			}
			return
		default:
			return
		}
	}
}

// flow reads a flow collection at pos, inside a block at column parent.
func (r *reader) flow(parent int) *yaml.Node {
	if r.com.nextFoot != "" {
		r.refuse("a foot comment for an item that starts with a flow collection")
	}
	r.enter()
	var n *yaml.Node
	closing := byte(']')
	if r.src[r.pos] == '{' {
		n = r.node(yaml.MappingNode, mapTag, r.line, r.col(r.pos))
		closing = '}'
	} else {
		n = r.node(yaml.SequenceNode, seqTag, r.line, r.col(r.pos))
	}
	n.Style = yaml.FlowStyle
	r.pos++
	base := len(r.kids)
	var o *Outline
	keep := false
	keys := 0
	set := -1
	if r.sk != nil {
		o, keep = r.sk.o, r.sk.keep
		keys = len(r.sk.keys)
		if closing == ']' {
			r.sk.items()
		}
	}
	r.flowSpace(parent)
	for r.src[r.pos] != closing {
		if r.sk != nil && closing == '}' {
			r.sk.o, r.sk.keep = o, keep
			r.sk.flowEntry(r, parent, keys, &set)
		} else if closing == ']' {
			item := r.flowItem(parent, false)
			if r.sk == nil || r.sk.keep {
				r.kids = append(r.kids, item)
			}
			r.flowSpace(parent)
			if r.src[r.pos] == ':' {
				r.refuse("a mapping in a flow sequence")
			}
		} else {
			key := r.flowKey(parent)
			r.kids = append(r.kids, key)
			r.kids = append(r.kids, r.flowValue(parent, key.Line, key.Style == 0))
		}
		switch r.src[r.pos] {
		case ',':
			r.pos++
			r.flowSpace(parent)
		case closing:
		default:
			r.refuse("no comma between the entries of a flow collection")
		}
	}
	r.pos++
	n.Content = r.content(base)
	if r.sk != nil {
		r.sk.o, r.sk.keep = o, keep
		r.sk.keys = r.sk.keys[:keys]
		r.sk.endSet(set)
	}
	r.leave()
	return n
}

// flowItem reads a node inside a flow collection: a nested collection, a
// quoted scalar or a plain scalar on one line (key says it is a flow
// mapping's key, which may not be a collection).
func (r *reader) flowItem(parent int, key bool) *yaml.Node {
	switch c := r.src[r.pos]; c {
	case '[', '{':
		if key {
			r.refuse("a collection as a key")
		}
		return r.flow(parent)
	case '"':
		return r.doubleQuoted(parent)
	case '\'':
		return r.singleQuoted(parent)
	case '-':
		switch r.src[r.pos+1] {
		case ' ', '\t', '\n', 0, ',', '[', ']', '{', '}':
			r.refuse("a dash alone in a flow collection")
		}
	case ',', ']', '}', '?', ':', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		r.refuse("a flow entry starting with an indicator")
	}
	n := r.node(yaml.ScalarNode, "", r.line, r.col(r.pos))
	start := r.pos
	end := start
	for {
		switch r.src[r.pos] {
		case ',', '[', ']', '{', '}':
		case ':':
			if !r.isBlankAt(r.pos + 1) {
				r.refuse("a colon in a plain scalar in a flow collection")
			}
		case '?':
			r.refuse("a question mark in a flow collection")
		case ' ', '\t':
			r.pos++
			continue
		case '\n':
			r.refuse("a plain scalar over lines in a flow collection")
		case '#':
			if r.pos > start && (r.src[r.pos-1] == ' ' || r.src[r.pos-1] == '\t') {
				r.refuse("a comment in a flow collection")
			}
			r.pos++
			end = r.pos
			continue
		case 0:
			if r.pos >= r.end {
				r.refuse("a flow collection without its end")
			}
			fallthrough
		default:
			r.pos++
			end = r.pos
			continue
		}
		break
	}
	n.Value = r.src[start:end]
	n.Tag = resolve.Tag(n.Value)
	r.pos = end
	return n
}

// flowValue reads what follows a flow mapping's key (on keyLine; plainKey
// if a plain scalar): a colon and the value, or none (a null).
func (r *reader) flowValue(parent, keyLine int, plainKey bool) *yaml.Node {
	r.flowSpace(parent)
	var v *yaml.Node
	if r.src[r.pos] == ':' {
		if r.line+1 != keyLine {
			r.refuse("a flow key over lines")
		}
		if r.pos-r.keyStart > maxKey {
			r.refuse("a key longer than yaml.v3 reads")
		}
		if plainKey && !r.isBlankAt(r.pos+1) {
			r.refuse("a colon after a plain key without a blank")
		}
		r.pos++
		r.flowSpace(parent)
		if c := r.src[r.pos]; c == ',' || c == '}' {
			v = r.node(yaml.ScalarNode, nullTag, r.line, r.col(r.pos))
		} else {
			v = r.flowItem(parent, false)
		}
	} else {
		v = r.node(yaml.ScalarNode, nullTag, r.line, r.col(r.pos))
	}
	r.flowSpace(parent)
	return v
}

// flowKey reads a flow mapping's key, and notes where it starts (a key
// and the blanks up to its colon are no longer than yaml.v3 reads).
func (r *reader) flowKey(parent int) *yaml.Node {
	r.keyStart = r.pos
	return r.flowItem(parent, true)
}
