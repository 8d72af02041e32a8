package fastyaml

import (
	"hash/maphash"
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

// Skim reads a stream of YAML documents as Parse does, with the same
// reader, but builds only the nodes o names of each document: the rest is
// read, not built, and comments are left out. It declines (an
// *Unsupported error) a stream with a tag, an anchor, an alias, a complex
// key or a key that is not a scalar, a pair in a flow sequence, a merge
// key (<<) or a key given twice in one mapping, or nesting deeper than it
// counts: what those mean is the caller's to decide, from what Parse
// gives. Text that is not YAML is Parse's error, the same.
func Skim(data []byte, o *Outline) (docs []Skimmed, err error) {
	lines, norm, serr := survey(data)
	if serr != nil {
		return nil, serr
	}
	r := newReader(data, lines, norm)
	r.com.off = true
	sk := &skimmer{depth: &r.depth, seed: maphash.MakeSeed()}
	r.sk = sk
	defer func() {
		if p := recover(); p != nil {
			docs, err = nil, r.recovered(p)
		}
	}()
	r.byteOrderMark()
	r.skip()
	for !(r.ind < 0 && r.mark == 0) {
		sk.nodes, sk.deepest = 0, 0
		sk.o, sk.keep = o, true
		doc := r.document()
		clone(doc)
		docs = append(docs, Skimmed{Doc: doc, Nodes: sk.nodes, Depth: sk.deepest})
	}
	return docs, nil
}

// A skimmer is the state of a reader that skims: the outline of the node
// being read and whether it is kept, the count of nodes, the keys of the
// mappings being read.
type skimmer struct {
	o              *Outline
	keep           bool
	nodes, deepest int
	depth          *int      // the reader's nesting
	scratch        yaml.Node // the node of what is not kept
	slab           []yaml.Node
	keys           []string // of the mappings being read

	// The tables of the keys of the mappings being read that have many
	// (a stack: sets[:nsets] are in use).
	sets  []keySet
	nsets int
	seed  maphash.Seed
}

// A keySet is an open-addressing table of the indexes of a mapping's keys
// in skimmer.keys, to find a key given twice among many.
type keySet struct {
	slots []int32 // index+1 of a key; 0 empty
	n     int
}

// newSet starts a table for the mapping whose keys are keys[base:], and
// returns its place on the stack.
func (s *skimmer) newSet(base int) int {
	if s.nsets == len(s.sets) {
		s.sets = append(s.sets, keySet{})
	}
	t := &s.sets[s.nsets]
	if len(t.slots) < 64 {
		t.slots = make([]int32, 64)
	} else {
		clear(t.slots)
	}
	t.n = 0
	for i := base; i < len(s.keys); i++ {
		if !t.add(s.keys, base, i, s.seed) {
			panic(skimStop{reason: "a key given twice"})
		}
	}
	s.nsets++
	return s.nsets - 1
}

// endSet ends the table of a mapping (the last started).
func (s *skimmer) endSet(set int) {
	if set >= 0 {
		s.nsets = set
	}
}

// add adds keys[i] to the table, unless it holds the same key: then it
// reports false.
func (t *keySet) add(keys []string, base, i int, seed maphash.Seed) bool {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]int32, 2*len(old))
		t.n = 0
		for _, x := range old {
			if x != 0 {
				t.add(keys, base, int(x-1), seed)
			}
		}
	}
	mask := uint64(len(t.slots) - 1)
	h := maphash.String(seed, keys[i]) & mask
	for {
		x := t.slots[h]
		if x == 0 {
			t.slots[h] = int32(i + 1)
			t.n++
			return true
		}
		if keys[x-1] == keys[i] {
			return false
		}
		h = (h + 1) & mask
	}
}

// node counts a node and makes it if kept.
func (s *skimmer) node(kind yaml.Kind, tag string, line, col int) *yaml.Node {
	s.nodes++
	d := *s.depth
	switch kind {
	case yaml.DocumentNode:
		d = 0
	case yaml.ScalarNode:
		d++
	}
	s.deepest = max(s.deepest, d)
	var n *yaml.Node
	if !s.keep {
		// The scratch node: what was set of it before is not read but
		// for its style (plain scalars set none).
		n = &s.scratch
		*n = yaml.Node{}
	} else {
		if len(s.slab) == 0 {
			s.slab = make([]yaml.Node, 16)
		}
		n = &s.slab[0]
		s.slab = s.slab[1:]
	}
	n.Kind, n.Tag, n.Line, n.Column = kind, tag, line+1, col+1
	return n
}

// items sets the outline of the items of the sequence about to be read.
func (s *skimmer) items() {
	if s.o == nil {
		s.keep = false
		return
	}
	if !s.o.All {
		s.keep = s.keep && s.o.Items != nil
		s.o = s.o.Items
	}
}

// key checks a mapping's key k (a scratch node), and returns it to keep,
// or nil; it sets the outline of the key's value.
func (s *skimmer) key(k *yaml.Node, base int, set *int) *yaml.Node {
	if k.Kind != yaml.ScalarNode {
		panic(skimStop{line: k.Line, reason: "a key that is not a scalar"})
	}
	if k.Tag == mergeTag {
		panic(skimStop{line: k.Line, reason: "a merge key"})
	}
	v := k.Value
	if *set < 0 {
		for _, x := range s.keys[base:] {
			if x == v {
				panic(skimStop{line: k.Line, reason: "a key given twice"})
			}
		}
		s.keys = append(s.keys, v)
		if len(s.keys)-base > 16 {
			// Many keys: a table of them from now on.
			*set = s.newSet(base)
		}
	} else {
		s.keys = append(s.keys, v)
		if !s.sets[*set].add(s.keys, base, len(s.keys)-1, s.seed) {
			panic(skimStop{line: k.Line, reason: "a key given twice"})
		}
	}
	var sub *Outline
	in := false
	if s.o != nil {
		if s.o.All {
			sub, in = s.o, true
		} else {
			sub, in = s.o.Fields[v]
		}
	}
	if !s.keep || !in {
		s.o, s.keep = sub, false
		return nil
	}
	s.o = sub
	if len(s.slab) == 0 {
		s.slab = make([]yaml.Node, 16)
	}
	kept := &s.slab[0]
	s.slab = s.slab[1:]
	*kept = *k
	return kept
}

// entry reads an entry of a block mapping at column col, keeping the key
// and the value if the outline names them.
func (s *skimmer) entry(r *reader, col, base int, set *int) {
	o, keep := s.o, s.keep
	s.keep = false
	k := r.key()
	s.keep = keep
	kept := s.key(k, base, set)
	v := r.value(col, k)
	if kept != nil {
		r.kids = append(r.kids, kept, v)
	}
	s.o, s.keep = o, keep
}

// flowEntry reads an entry of a flow mapping, as entry does.
func (s *skimmer) flowEntry(r *reader, open, base int, set *int) {
	o, keep := s.o, s.keep
	if r.src[r.pos] == '?' && r.isFlowBlankAt(r.pos+1) {
		panic(skimStop{r.line + 1, "a complex key"})
	}
	s.keep = false
	k := r.flowKey(open)
	s.keep = keep
	if k.Kind != yaml.ScalarNode {
		panic(skimStop{r.line + 1, "a key that is not a scalar"})
	}
	kept := s.key(k, base, set)
	var v *yaml.Node
	if r.atValueIndicator(k) {
		v = r.flowValue(open, false)
	} else {
		v = r.node(yaml.ScalarNode, nullTag, r.line, r.col(r.pos))
	}
	if kept != nil {
		r.kids = append(r.kids, kept, v)
	}
	s.o, s.keep = o, keep
}

// clone copies the values of a skimmed tree, which then holds no part of
// the input.
func clone(n *yaml.Node) {
	n.Value = strings.Clone(n.Value)
	for _, c := range n.Content {
		clone(c)
	}
}
