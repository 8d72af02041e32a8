// Copyright (c) 2011-2019 Canonical Ltd
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package fastyaml

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// Unsupported is the error of Parse for an input it leaves to yaml.v3:
// one that uses something this package does not handle, or that is not
// valid YAML (yaml.v3 then gives the error).
type Unsupported struct {
	Line   int    // the line (from 1) where Parse stopped
	Reason string // what it found there
}

// Error says what Parse declined and where.
func (e *Unsupported) Error() string {
	return fmt.Sprintf("fastyaml: line %d: %s: left to yaml.v3", e.Line, e.Reason)
}

// padding is the number of NUL bytes after the input in parser.src: the
// scanner looks up to four bytes ahead without checking for the end.
const padding = 4

// internalError starts the reason of an input declined because of a panic
// of this package.
const internalError = "internal error"

// Parse parses a stream of YAML documents into the document nodes
// go.yaml.in/yaml/v3's Decoder returns for it, one Decode after the other,
// or returns an *Unsupported error. An input without documents (empty, or
// only comments and blank lines that yaml.v3 reads as no document) gives
// no nodes and no error.
//
// The scalar values of the nodes may share memory with one copy of data
// that Parse makes: data itself can be modified after Parse returns.
func Parse(data []byte) (docs []*yaml.Node, err error) {
	lines, reason := check(data)
	if reason != "" {
		return nil, &Unsupported{Line: lines, Reason: reason}
	}
	b := newBuilder(data, lines)
	defer func() {
		if r := recover(); r != nil {
			d, ok := r.(declined)
			if !ok {
				// A bug of this package: yaml.v3 reads the input instead
				// (the tests fail on this reason).
				d = declined{line: b.p.mark.line + 1, reason: fmt.Sprintf("%s: %v", internalError, r)}
			}
			docs, err = nil, &Unsupported{Line: d.line, Reason: d.reason}
		}
	}()
	b.expect(evStreamStart)
	for b.peek() == evDocumentStart {
		docs = append(docs, b.document())
	}
	return docs, nil
}

// check finds what yaml.v3's reader and scanner treat specially in the
// input, which this package declines: bytes that are not UTF-8, line breaks
// other than \n, control characters, byte order marks. It returns the line
// it stopped at, which for an input it does not decline is the number of
// lines.
func check(data []byte) (line int, reason string) {
	line = 1
	for i := 0; i < len(data); {
		// Eight bytes at a time while they are printable ASCII (from ' '
		// to '~') or line breaks, which are counted.
		for i+8 <= len(data) {
			w := binary.LittleEndian.Uint64(data[i:])
			nl := zeroBytes(w ^ 0x0a0a0a0a0a0a0a0a) // 0x80 in each \n byte
			w |= nl >> 2                            // \n (0x0a) becomes '*' (0x2a)
			if (w-0x2020202020202020|(w+0x0101010101010101))&0x8080808080808080 != 0 {
				break
			}
			line += bits.OnesCount64(nl)
			i += 8
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		if c >= 0x20 && c < 0x7F {
			i++
			continue
		}
		switch {
		case c == '\n':
			line++
			i++
			continue
		case c == '\t':
			i++
			continue
		case c == '\r':
			return line, "carriage return"
		case c < 0x80:
			return line, "control character"
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return line, "not UTF-8"
		case r == 0x85 || r == 0x2028 || r == 0x2029:
			return line, "Unicode line break"
		case r == 0xFEFF:
			return line, "byte order mark"
		case r < 0xA0, r >= 0xD800 && r < 0xE000, r > 0xFFFD && r < 0x10000:
			return line, "control character"
		}
		i += size
	}
	return line, ""
}

// zeroBytes returns 0x80 in each byte of w that is zero, 0 in the others.
func zeroBytes(w uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((w&low7 + low7) | w | low7)
}

// builder makes nodes out of events, as yaml.v3's decode.go parser does.
type builder struct {
	p  *parser
	ev event // the next event, if ev.typ != evNone

	stack     []*yaml.Node // children of the collections being built
	nodes     []yaml.Node  // slab of nodes
	ptrs      []*yaml.Node // slab of Content slices
	nodesUsed int          // nodes in the slabs before nodes
	ptrsUsed  int          // pointers in the slabs before ptrs
	lines     int          // lines of the input, for sizing the first slabs

	// The first backing arrays of the parser's stacks and queue, and of
	// stack, allocated with the builder: most documents need no other.
	parser   parser
	tokens   [12]token
	keys     [4]simpleKey
	keySlots [8]keySlot
	indents  [16]int
	states   [16]parseState
	children [32]*yaml.Node
}

// newBuilder returns a builder for parsing data, of so many lines.
func newBuilder(data []byte, lines int) *builder {
	b := &builder{lines: lines}
	b.p = &b.parser
	b.p.src = string(data) + "\x00\x00\x00\x00" // padding NULs
	b.p.tokens = b.tokens[:]
	b.p.simpleKeys = b.keys[:0]
	b.p.keysByTok = b.keySlots[:0]
	b.p.indents = b.indents[:0]
	b.p.states = b.states[:0]
	b.stack = b.children[:0]
	return b
}

func (b *builder) peek() eventType {
	if b.ev.typ == evNone {
		b.p.nextEvent(&b.ev)
		if b.ev.typ == evNone {
			b.p.decline("no more events")
		}
	}
	return b.ev.typ
}

func (b *builder) expect(t eventType) {
	if b.peek() != t {
		b.p.decline("unexpected event")
	}
	b.ev.typ = evNone
}

// Nodes and Content slices are carved out of slabs of at most slabNodes
// and slabPtrs, a little under 32 KiB each: Go allocates larger objects
// through a slower path. Slabs are sized to what the rest of the input
// will need, so that little of the last slab is left unused: parsed
// documents are often held for a whole run (the patches of kmerge apply),
// and an unused part is held with them. The first slab is sized by the
// number of lines: block YAML has 1.4 to 2.3 nodes a line in manifests,
// patches and the bench corpus (a key and its value, less where values
// span lines), and the first slab takes 1.5 a line, so that it is rarely
// too large; the next ones are sized by the node density of the part read
// so far.
const (
	slabNodes = 210
	slabPtrs  = 4000
)

// slabSize returns the size of the next slab of nodes or pointers, used
// of them allocated so far.
func (b *builder) slabSize(used, limit int) int {
	if used == 0 || b.p.pos == 0 {
		return min(max(3*b.lines/2, 4), limit)
	}
	rest := len(b.p.src) - padding - b.p.pos
	want := used*rest/b.p.pos + 1
	return min(max(want, 4), limit)
}

// node makes a node of the current event.
func (b *builder) node(kind yaml.Kind, tag, value string) *yaml.Node {
	if len(b.nodes) == cap(b.nodes) {
		b.nodesUsed += len(b.nodes)
		// append rounds the capacity up to the size Go allocates anyway.
		b.nodes = append([]yaml.Node(nil), make([]yaml.Node, b.slabSize(b.nodesUsed, slabNodes))...)[:0]
	}
	b.nodes = b.nodes[:len(b.nodes)+1]
	n := &b.nodes[len(b.nodes)-1]
	n.Kind = kind
	n.Tag = tag
	n.Value = value
	n.Line = b.ev.start.line + 1
	n.Column = b.ev.start.column + 1
	if b.ev.head.set() || b.ev.line.set() || b.ev.foot.set() {
		n.HeadComment = b.ev.head.str(b.p.src)
		n.LineComment = b.ev.line.str(b.p.src)
		n.FootComment = b.ev.foot.str(b.p.src)
	}
	return n
}

// content returns the children on the stack above base as a slice of
// their own (its capacity is its length, so that appending to it copies),
// and pops them.
func (b *builder) content(base int) []*yaml.Node {
	n := len(b.stack) - base
	if n == 0 {
		return nil
	}
	if cap(b.ptrs)-len(b.ptrs) < n {
		b.ptrsUsed += len(b.ptrs)
		b.ptrs = append([]*yaml.Node(nil), make([]*yaml.Node, max(n, b.slabSize(b.ptrsUsed, slabPtrs)))...)[:0]
	}
	i := len(b.ptrs)
	b.ptrs = append(b.ptrs, b.stack[base:]...)
	b.stack = b.stack[:base]
	return b.ptrs[i : i+n : i+n]
}

// parse builds the node of the next event (parser.parse).
func (b *builder) parse() *yaml.Node {
	switch b.peek() {
	case evScalar:
		return b.scalar()
	case evMappingStart:
		return b.mapping()
	case evSequenceStart:
		return b.sequence()
	case evDocumentStart:
		return b.document()
	}
	b.p.decline("unexpected event")
	return nil
}

func (b *builder) document() *yaml.Node {
	n := b.node(yaml.DocumentNode, "", "")
	b.expect(evDocumentStart)
	base := len(b.stack)
	b.stack = append(b.stack, b.parse())
	n.Content = b.content(base)
	if b.peek() == evDocumentEnd {
		n.FootComment = b.ev.foot.str(b.p.src)
	}
	b.expect(evDocumentEnd)
	return n
}

func (b *builder) scalar() *yaml.Node {
	style, tag := scalarOf(&b.ev)
	n := b.node(yaml.ScalarNode, tag, b.ev.value)
	n.Style = style
	b.expect(evScalar)
	return n
}

// scalarOf returns the style and the tag of the node of a scalar event.
func scalarOf(ev *event) (yaml.Style, string) {
	switch ev.style {
	case doubleQuotedStyle:
		return yaml.DoubleQuotedStyle, strTag
	case singleQuotedStyle:
		return yaml.SingleQuotedStyle, strTag
	case literalStyle:
		return yaml.LiteralStyle, strTag
	case foldedStyle:
		return yaml.FoldedStyle, strTag
	}
	if ev.value == "<<" {
		return 0, mergeTag
	}
	return 0, resolve(ev.value)
}

func (b *builder) sequence() *yaml.Node {
	n := b.node(yaml.SequenceNode, seqTag, "")
	if b.ev.flow {
		n.Style = yaml.FlowStyle
	}
	b.expect(evSequenceStart)
	base := len(b.stack)
	for b.peek() != evSequenceEnd {
		b.stack = append(b.stack, b.parse())
	}
	n.Content = b.content(base)
	n.LineComment = b.ev.line.str(b.p.src)
	n.FootComment = b.ev.foot.str(b.p.src)
	b.expect(evSequenceEnd)
	return n
}

// mapping builds a mapping, moving foot comments to the keys yaml.v3 puts
// them on (parser.mapping).
func (b *builder) mapping() *yaml.Node {
	n := b.node(yaml.MappingNode, mapTag, "")
	block := !b.ev.flow
	if !block {
		n.Style = yaml.FlowStyle
	}
	b.expect(evMappingStart)
	base := len(b.stack)
	for b.peek() != evMappingEnd {
		k := b.parse()
		b.stack = append(b.stack, k)
		if block && k.FootComment != "" {
			// A foot comment of the prior value, seen when dedenting.
			if len(b.stack)-base > 2 {
				b.stack[len(b.stack)-3].FootComment = k.FootComment
				k.FootComment = ""
			}
		}
		v := b.parse()
		b.stack = append(b.stack, v)
		if k.FootComment == "" && v.FootComment != "" {
			k.FootComment = v.FootComment
			v.FootComment = ""
		}
	}
	n.Content = b.content(base)
	n.LineComment = b.ev.line.str(b.p.src)
	n.FootComment = b.ev.foot.str(b.p.src)
	if n.Style&yaml.FlowStyle == 0 && n.FootComment != "" && len(n.Content) > 1 {
		n.Content[len(n.Content)-2].FootComment = n.FootComment
		n.FootComment = ""
	}
	b.expect(evMappingEnd)
	return n
}
