package fastyaml

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// An Outline names the nodes Skim builds: the entries of a mapping by key,
// each with an Outline of its value, the items of a sequence with one
// Outline for all of them, or everything below a node (All). A nil
// *Outline (an entry named with nothing below it) builds the node itself:
// a scalar with its value, a mapping or a sequence without its contents.
type Outline struct {
	Fields map[string]*Outline // of a mapping: the entries kept, by key
	Items  *Outline            // of a sequence: what of each item
	All    bool                // the whole value
}

// A Skimmed document is what Skim gives of one document of a stream.
type Skimmed struct {
	// Doc is the document node, with the nodes the Outline names below
	// its root (always built): their kinds, styles, tags, values, lines
	// and columns are those Parse gives; comments are left out.
	Doc *yaml.Node
	// Nodes counts the nodes Parse builds for the document (the document
	// node included), Depth is the depth of the deepest (the document
	// node's is 0).
	Nodes, Depth int
}

// Skim reads a stream of YAML documents as Parse does, through the same
// scanner and parser, but builds only the nodes o names of each document:
// the rest is read, not built. It declines (an *Unsupported error) every
// input Parse declines, and also a document with a mapping key that is not
// a scalar, a merge key (<<) or a key given twice in one mapping: what
// those mean is the caller's to decide, from what Parse or yaml.v3 gives.
func Skim(data []byte, o *Outline) (docs []Skimmed, err error) {
	if line, reason := check(data); reason != "" {
		return nil, &Unsupported{Line: line, Reason: reason}
	}
	s := &skimmer{b: newBuilder(data, 0)} // no line count: skimming builds few nodes, the slabs start small
	defer func() {
		if r := recover(); r != nil {
			d, ok := r.(declined)
			if !ok {
				d = declined{line: s.b.p.mark.line + 1, reason: fmt.Sprintf("%s: %v", internalError, r)}
			}
			docs, err = nil, &Unsupported{Line: d.line, Reason: d.reason}
		}
	}()
	s.b.expect(evStreamStart)
	for s.b.peek() == evDocumentStart {
		s.nodes, s.depth = 1, 0
		doc := s.node(yaml.DocumentNode, "", "")
		s.b.expect(evDocumentStart)
		doc.Content = []*yaml.Node{s.skim(o, true, 1)}
		s.b.peek()
		s.b.expect(evDocumentEnd)
		docs = append(docs, Skimmed{Doc: doc, Nodes: s.nodes, Depth: s.depth})
	}
	return docs, nil
}

// skimmer reads events with a builder's parser, building only some nodes.
type skimmer struct {
	b            *builder
	nodes, depth int         // of the document being read
	keys         []string    // the keys of the mappings being read
	slab         []yaml.Node // nodes to hand out
}

// node makes a node of the current event, without comments; its value is
// a copy, which does not hold the input's text in memory. Nodes come from
// small slabs: an object's identity is a dozen.
func (s *skimmer) node(kind yaml.Kind, tag, value string) *yaml.Node {
	if len(s.slab) == 0 {
		s.slab = make([]yaml.Node, 16)
	}
	n := &s.slab[0]
	s.slab = s.slab[1:]
	*n = yaml.Node{Kind: kind, Tag: tag, Value: strings.Clone(value), Line: s.b.ev.start.line + 1, Column: s.b.ev.start.column + 1}
	return n
}

// skim reads the node of the next event, at depth, and returns it if keep,
// with the parts of it o names; else nil.
func (s *skimmer) skim(o *Outline, keep bool, depth int) *yaml.Node {
	s.nodes++
	s.depth = max(s.depth, depth)
	var n *yaml.Node
	switch s.b.peek() {
	case evScalar:
		if keep {
			style, tag := scalarOf(&s.b.ev)
			n = s.node(yaml.ScalarNode, tag, s.b.ev.value)
			n.Style = style
		}
		s.b.expect(evScalar)
	case evSequenceStart:
		if keep {
			n = s.node(yaml.SequenceNode, seqTag, "")
			if s.b.ev.flow {
				n.Style = yaml.FlowStyle
			}
		}
		s.b.expect(evSequenceStart)
		items := o != nil && (o.All || o.Items != nil)
		sub := o
		if o != nil && !o.All {
			sub = o.Items
		}
		for s.b.peek() != evSequenceEnd {
			if it := s.skim(sub, keep && items, depth+1); it != nil {
				n.Content = append(n.Content, it)
			}
		}
		s.b.expect(evSequenceEnd)
	case evMappingStart:
		if keep {
			n = s.node(yaml.MappingNode, mapTag, "")
			if s.b.ev.flow {
				n.Style = yaml.FlowStyle
			}
		}
		s.b.expect(evMappingStart)
		base := len(s.keys)
		var seen map[string]bool // the keys, once there are many
		for s.b.peek() != evMappingEnd {
			if s.b.peek() != evScalar {
				s.b.p.decline("a mapping key that is not a scalar")
			}
			key := s.b.ev.value
			if _, tag := scalarOf(&s.b.ev); tag == mergeTag {
				s.b.p.decline("a merge key")
			}
			if seen == nil && len(s.keys)-base == 16 {
				seen = make(map[string]bool)
				for _, k := range s.keys[base:] {
					seen[k] = true
				}
			}
			if seen != nil {
				if seen[key] {
					s.b.p.decline("a key given twice")
				}
				seen[key] = true
			} else {
				for _, k := range s.keys[base:] {
					if k == key {
						s.b.p.decline("a key given twice")
					}
				}
				s.keys = append(s.keys, key)
			}
			var sub *Outline
			in := false
			if o != nil {
				sub, in = o.Fields[key]
				if o.All {
					sub, in = o, true
				}
			}
			k := s.skim(nil, keep && in, depth+1)
			v := s.skim(sub, keep && in, depth+1)
			if k != nil {
				n.Content = append(n.Content, k, v)
			}
		}
		s.keys = s.keys[:base]
		s.b.expect(evMappingEnd)
	default:
		s.b.p.decline("unexpected event")
	}
	return n
}
