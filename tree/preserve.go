package tree

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/kmerge/kmerge/internal/linediff"
	yaml "go.yaml.in/yaml/v3"
)

// Writing YAML so that what was not edited keeps its text.
//
// yaml.v3 gives no byte offsets, so the source is cut into one chunk per
// document by its document markers (documentStarts), and an edited
// document is written by splicing three texts: S, the chunk; A, yaml.v3's
// rendering of the snapshot; B, the rendering of the current tree. The
// differences from A to B are the edit; a line diff between A and S tells
// where in S each line of A is. Each change from A to B replaces the part of
// S between the nearest unchanged lines of A that are found in S; the rest
// of S is copied. Everything written is checked by reading it back, and
// falls back to yaml.v3's rendering when the check fails.

// maxSpliceEdits bounds the line diffs of a splice (deleted plus inserted
// lines). Beyond it, the document is written as yaml.v3 renders it, which
// keeps Myers' O((N+M)·D) cost of the diffs linear in practice.
const maxSpliceEdits = 2000

// Snapshot records the current documents of the stream as its "original"
// state (deep copies), so that WriteYAML can later keep every untouched
// byte. Call it after Read and before editing the documents.
//
// After Snapshot, WriteYAML on a stream read from YAML writes each document
// as follows; documents are matched with their snapshots by position.
//
//   - A document that yaml.v3 renders exactly as its snapshot is copied
//     from the source text unchanged, with its "---" line, comments and
//     blank lines. When no document changed, the output is the input.
//   - An edited document is its source text with the changed lines
//     replaced: the lines yaml.v3's rendering of the edit changes are
//     written as yaml.v3 renders them, indented like the source lines
//     around them and with the source's line ends (CRLF stays CRLF); every
//     other line, blank lines and comments included, is copied. The "---"
//     and "..." lines and directives stay in place, and a missing final
//     newline stays missing.
//   - An edited document whose source text is exactly yaml.v3's rendering
//     of its snapshot (YAML written by a program) is written as yaml.v3
//     renders the edited tree: that keeps everything the source had, and
//     is what splicing would give (the tests check it), but for the blank
//     line yaml.v3 writes after a foot comment when a key follows it.
//   - A spliced document is read back before it is written: when it does
//     not give the edited tree with all its comments, or when the source
//     and the rendering are too far apart to line up, the document is
//     written as yaml.v3 renders it (still after its own "---" line).
//
// The source is cut into documents at its markers: a document's text runs
// from its "---" line up to the next document's "---" line, so comments and
// blank lines between two documents belong to the first one, as yaml.v3
// reads them, unless the first one ends with a "..." line: then what
// follows "..." belongs to the next document. Text before the first
// document (comments, directives) belongs to the first document, text
// after the last one to the last.
//
// Whenever the output would not read back as the current documents (the
// documents were added or removed, the source does not cut into documents
// that read as the snapshots, Snapshot was called again after edits), the
// whole stream is written by yaml.v3, as without Snapshot. Snapshot has no
// effect on streams read from JSON.
func (s *Stream) Snapshot() {
	if s.snapshot != nil {
		s.resnapshot = true
	}
	s.snapshot = make([]*yaml.Node, len(s.Docs))
	for i, d := range s.Docs {
		s.snapshot[i] = Clone(d)
	}
}

// DropSnapshot discards the copies Snapshot made, and the memory they hold:
// WriteYAML then writes the stream as if Snapshot had never been called.
func (s *Stream) DropSnapshot() { s.snapshot, s.resnapshot = nil, false }

// Snapshotted reports whether the stream holds a snapshot: Snapshot was
// called, and DropSnapshot was not since.
func (s *Stream) Snapshotted() bool { return s.snapshot != nil }

// writePreserving writes the stream keeping its source text, or, when that
// cannot be done correctly, as the function WriteYAML writes it.
func (s *Stream) writePreserving(w io.Writer) error {
	out, _, err := s.preserved()
	if err != nil {
		return err
	}
	if out == nil {
		return WriteYAML(w, s.Style, s.Docs...)
	}
	_, err = w.Write(out)
	return err
}

// outcome is how a document was written.
type outcome uint8

const (
	copied    outcome = iota // unchanged: the source text
	spliced                  // edited: the source text with changed lines replaced
	rendered                 // edited: yaml.v3's rendering (splicing failed)
	canonical                // edited: the source was yaml.v3's rendering, so is the output
)

// docEdit is what preserved learns about one document.
type docEdit struct {
	changed  bool
	a, b     []byte // renderings of the snapshot and of the current tree
	outcome  outcome
	verified []byte // a spliced text: it reads as the current tree, comments included
}

// preserved returns the stream written with its source text kept and how
// each document was written, or nil when the stream must be written by
// yaml.v3 instead.
func (s *Stream) preserved() ([]byte, []outcome, error) {
	n := len(s.Docs)
	if len(s.snapshot) != n {
		return nil, nil, nil
	}
	edits := make([]docEdit, n)
	changed := false
	for i, d := range s.Docs {
		if identical(s.snapshot[i], d) {
			continue
		}
		unflowFilled(s.snapshot[i], d)
		hint := len(s.src)/n + 512 // the source's bytes per document
		a, err := renderDoc(s.Style, s.snapshot[i], hint)
		if err != nil {
			return nil, nil, err
		}
		b, err := renderDoc(s.Style, d, hint)
		if err != nil {
			return nil, nil, err
		}
		if !bytes.Equal(a, b) {
			edits[i] = docEdit{changed: true, a: a, b: b}
			changed = true
		}
	}
	outcomes := make([]outcome, n)
	if !changed && !s.resnapshot {
		return s.src, outcomes, nil // nothing to check: the source reads as the snapshot
	}
	var out []byte
	if n == 0 {
		out = s.src
	} else {
		bom, body := cutBOM(s.src)
		starts := documentStarts(body)
		if len(starts) != n {
			return nil, nil, nil
		}
		out = append(out, bom...)
		for i := range n {
			end := len(body)
			if i+1 < n {
				end = starts[i+1]
			}
			chunk := body[starts[i]:end]
			if !edits[i].changed {
				out = append(out, chunk...)
				continue
			}
			out = append(out, s.editDoc(chunk, i, &edits[i])...)
			outcomes[i] = edits[i].outcome
		}
	}
	// A stream of one spliced document is the text editDoc has just read
	// back (same bytes, same checks): reading it again would only repeat
	// that.
	if n == 1 && outcomes[0] == spliced && bytes.Equal(out, edits[0].verified) {
		return out, outcomes, nil
	}
	// A stream of one canonical document is yaml.v3's rendering of it, as
	// WriteYAML without a snapshot writes it: that reads back as the
	// document (FuzzRead checks it).
	if n == 1 && outcomes[0] == canonical {
		return out, outcomes, nil
	}
	// Read everything back: the output must be the current documents, and
	// spliced documents must keep their comments.
	docs, err := readYAML(out, s.File, s.limits)
	if err != nil || len(docs) != n {
		return nil, nil, nil
	}
	for i, d := range docs {
		if !Equal(d, s.Docs[i]) || outcomes[i] == spliced && !sameComments(d, s.Docs[i]) {
			return nil, nil, nil
		}
	}
	return out, outcomes, nil
}

// editDoc returns the text of an edited document whose source text is
// chunk. Whether chunk is the snapshot's text (the source was cut into
// documents correctly, nothing was edited before Snapshot) is not checked
// here: a spliced text is used only if it reads as the current document,
// and a stream of several documents is read back whole.
func (s *Stream) editDoc(chunk []byte, i int, e *docEdit) []byte {
	// A source that is exactly yaml.v3's rendering of the document, as
	// programs write YAML (kustomize, kyaml, kubectl with yaml.v3), keeps
	// its comments, order, quoting and indentation when the edited tree is
	// rendered the same way: there is nothing to splice.
	if bytes.Equal(renderedText(chunk, e.a), chunk) {
		e.outcome = canonical
		return renderedText(chunk, e.b)
	}
	for _, loose := range []bool{true, false} {
		text, ok := splice(chunk, e.a, e.b, loose)
		if !ok {
			continue
		}
		// Without a final newline in the source, leave it out unless that
		// changes the document (a block scalar at its end).
		if len(chunk) > 0 && chunk[len(chunk)-1] != '\n' {
			if t := bytes.TrimSuffix(bytes.TrimSuffix(text, []byte("\n")), []byte("\r")); s.readsAs(t, s.Docs[i]) {
				e.outcome, e.verified = spliced, t
				return t
			}
		}
		if s.readsAs(text, s.Docs[i]) {
			e.outcome, e.verified = spliced, text
			return text
		}
	}
	e.outcome = rendered
	return renderedText(chunk, e.b)
}

// readsAs reports whether text is one YAML document that reads as doc:
// the same value and the same comments.
func (s *Stream) readsAs(text []byte, doc *yaml.Node) bool {
	docs, err := readYAML(text, s.File, s.limits)
	return err == nil && len(docs) == 1 && Equal(docs[0], doc) && sameComments(docs[0], doc)
}

// renderDoc renders one document as WriteYAML does, without "---", into a
// buffer first sized for about sizeHint bytes.
func renderDoc(st Style, doc *yaml.Node, sizeHint int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(sizeHint)
	if err := encodeYAML(&buf, st, []*yaml.Node{doc}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// identical reports whether two trees are the same to yaml.v3's encoder:
// then they render the same, without rendering them. Positions do not
// count; aliases are left to the renderings.
func identical(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		len(a.Content) != len(b.Content) || a.Kind == yaml.AliasNode {
		return false
	}
	for i := range a.Content {
		if !identical(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// sameComments reports whether two trees hold the same comment lines, as
// multisets. Comparing lines rather than whole comments keeps a comment
// that yaml.v3 reads into another node, or splits between a foot and a head
// comment, from counting as lost.
func sameComments(a, b *yaml.Node) bool {
	ca, cb := commentLines(a, nil), commentLines(b, nil)
	if len(ca) != len(cb) {
		return false
	}
	slices.Sort(ca)
	slices.Sort(cb)
	return slices.Equal(ca, cb)
}

// commentLines appends the non-empty lines of every comment in n, trimmed.
func commentLines(n *yaml.Node, out []string) []string {
	if n == nil {
		return out
	}
	for _, c := range [...]string{n.HeadComment, n.LineComment, n.FootComment} {
		for c != "" {
			line, rest, _ := strings.Cut(c, "\n")
			if line = strings.TrimSpace(line); line != "" {
				out = append(out, line)
			}
			c = rest
		}
	}
	for _, c := range n.Content {
		out = commentLines(c, out)
	}
	return out
}

// cutBOM splits a leading UTF-8 byte order mark from src.
func cutBOM(src []byte) (bom, rest []byte) {
	if bytes.HasPrefix(src, utf8BOM) {
		return src[:len(utf8BOM)], src[len(utf8BOM):]
	}
	return nil, src
}

// documentStarts returns the offset in src where each document's text
// starts; a document's text ends where the next one's starts (the last one
// at the end of src). The first document starts at 0, so that it holds the
// comments and directives before it. A later document starts at its "---"
// line, or, when the document before ended with "...", right after that
// line, so that comments after "..." belong to the next document (as
// yaml.v3 reads them). The count is checked against the parsed stream by
// the caller.
func documentStarts(src []byte) []int {
	var starts []int
	open := false // a document has started and not ended with "..."
	pending := 0  // where a document starting now would start
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		next := len(src)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(src)
		}
		line := src[off:end]
		switch {
		case isMarker(line, "---"):
			if open {
				starts = append(starts, off)
			} else {
				starts = append(starts, pending)
			}
			open = true
		case isMarker(line, "..."):
			open = false
			pending = next
		case open || isBlankOrComment(line) || line[0] == '%':
		default: // content without "---": the first document, or an error
			starts = append(starts, pending)
			open = true
		}
		off = next
	}
	if len(starts) > 0 {
		starts[0] = 0
	}
	return starts
}

// isMarker reports whether line is the document marker m ("---" or "...")
// at the start of a line, alone or followed by a space and more.
func isMarker(line []byte, m string) bool {
	return len(line) >= 3 && string(line[:3]) == m &&
		(len(line) == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r')
}

func isBlankOrComment(line []byte) bool {
	t := bytes.TrimLeft(line, " \t\r")
	return len(t) == 0 || t[0] == '#'
}

// pin marks source lines that a splice must keep where they are.
type pin uint8

const (
	pinNone pin = iota
	pinLead     // a directive or the "---" line: before the document's content
	pinTail     // a "..." line: after it
)

// srcLine is a line of a document's source text.
type srcLine struct {
	text string // without the line terminator
	eol  string // "\n", "\r\n", or "" for a last line without one
	pin  pin
}

// sourceLines splits a document's text into lines, marking its markers and
// directives, and returns the line terminator most of its lines use.
func sourceLines(chunk []byte) ([]srcLine, string) {
	var lines []srcLine
	crlf, lf := 0, 0
	lead := true // no content or "---" yet
	for off := 0; off < len(chunk); {
		l := srcLine{}
		end := bytes.IndexByte(chunk[off:], '\n')
		if end < 0 {
			l.text = string(chunk[off:])
			off = len(chunk)
		} else {
			l.text, l.eol = string(chunk[off:off+end]), "\n"
			off += end + 1
		}
		if t, ok := strings.CutSuffix(l.text, "\r"); ok && l.eol != "" {
			l.text, l.eol = t, "\r\n"
			crlf++
		} else if l.eol != "" {
			lf++
		}
		b := []byte(l.text)
		switch {
		case isMarker(b, "---"):
			l.pin, lead = pinLead, false
		case isMarker(b, "..."):
			l.pin = pinTail
		case lead && strings.HasPrefix(l.text, "%"):
			l.pin = pinLead
		case !isBlankOrComment(b):
			lead = false
		}
		lines = append(lines, l)
	}
	if crlf > lf {
		return lines, "\r\n"
	}
	return lines, "\n"
}

// renderedLines splits a rendering into lines. Without keepBlank it leaves
// out the blank lines yaml.v3 writes around comments, which the source may
// not have (blank lines in block scalars are content and stay).
func renderedLines(text []byte, keepBlank bool) []string {
	lines := linediff.SplitLines(string(text))
	if keepBlank {
		return lines
	}
	out := lines[:0:0]
	block := -1 // indentation of an open block scalar's header
	for _, l := range lines {
		if isBlank(l) {
			if block >= 0 {
				out = append(out, l)
			}
			continue
		}
		if block >= 0 && indent(l) <= block {
			block = -1
		}
		if block < 0 && isBlockHeader(l) {
			block = indent(l)
		}
		out = append(out, l)
	}
	return out
}

// renderedText is the text of a document written as yaml.v3 renders it:
// the directives and markers of its source, with a bare "---", around b.
func renderedText(chunk, b []byte) []byte {
	src, eol := sourceLines(chunk)
	var out []byte
	for _, l := range src {
		if l.pin == pinLead {
			if isMarker([]byte(l.text), "---") && strings.TrimSpace(l.text) != "---" {
				l.text = "---" // what followed the marker is in b
			}
			out = append(out, l.text+eol...)
		}
	}
	for _, l := range renderedLines(b, true) {
		out = append(out, l+eol...)
	}
	for _, l := range src {
		if l.pin == pinTail {
			out = append(out, l.text+eol...)
		}
	}
	return out
}

// alignment says where the lines of a rendering A are in a source S.
type alignment struct {
	sOf    []int           // per A line: the S line equal to it, or -1
	aOf    []int           // per S line: the A line equal to it, or -1
	hunkOf []int           // per A line without an equal S line: its hunk, else -1
	hunks  []linediff.Hunk // A→S hunks (B0, B1 are S lines), blank S lines at the edges left out
	block  []bool          // per hunk: it replaces A lines by S lines
}

// align lines up a and src by a line diff. Lines compare without trailing
// white space; loose also ignores indentation and the width of spaces
// within a line, so that a list indented otherwise than yaml.v3 indents it,
// or a comment set apart by more spaces, still lines up.
func align(a []string, src []srcLine, loose bool) (*alignment, bool) {
	key := func(l string) string { return strings.TrimRight(l, " \t\r") }
	if loose {
		key = looseKey
	}
	ak := make([]string, len(a))
	for i, l := range a {
		ak[i] = key(l)
	}
	sk := make([]string, len(src))
	for j, l := range src {
		if l.pin != pinNone {
			sk[j] = "\x00" + strconv.Itoa(j) // never equal to a rendered line
		} else {
			sk[j] = key(l.text)
		}
	}
	hunks, ok := linediff.DiffBounded(ak, sk, maxSpliceEdits)
	if !ok {
		return nil, false
	}
	m := &alignment{
		sOf: make([]int, len(a)), aOf: make([]int, len(src)), hunkOf: make([]int, len(a)),
		hunks: hunks, block: make([]bool, len(hunks)),
	}
	for j := range m.aOf {
		m.aOf[j] = -1
	}
	i, j := 0, 0
	pair := func(until int) {
		for ; i < until; i, j = i+1, j+1 {
			m.sOf[i], m.aOf[j], m.hunkOf[i] = j, i, -1
		}
	}
	for k, h := range hunks {
		pair(h.A0)
		for ; i < h.A1; i++ {
			m.sOf[i], m.hunkOf[i] = -1, k
		}
		j = h.B1
	}
	pair(len(a))
	// Blank source lines at the edges of a changed block are not part of
	// it: a change there keeps them.
	for k := range m.hunks {
		h := &m.hunks[k]
		if h.A0 == h.A1 {
			continue
		}
		for h.B0 < h.B1 && isBlank(src[h.B0].text) {
			h.B0++
		}
		for h.B1 > h.B0 && isBlank(src[h.B1-1].text) {
			h.B1--
		}
		m.block[k] = h.B0 < h.B1
	}
	return m, true
}

// looseKey is a line without its indentation and trailing white space,
// every other run of white space made one space: "-   name:  x   # c"
// lines up with yaml.v3's "- name: x # c".
func looseKey(l string) string {
	return strings.Join(strings.Fields(l), " ")
}

// spanStart and spanEnd give the S lines that stand for A line i: its
// equal line, or the S side of its hunk (empty for A lines S lacks).
func (m *alignment) spanStart(i int) int {
	if m.sOf[i] >= 0 {
		return m.sOf[i]
	}
	return m.hunks[m.hunkOf[i]].B0
}

func (m *alignment) spanEnd(i int) int {
	if m.sOf[i] >= 0 {
		return m.sOf[i] + 1
	}
	return m.hunks[m.hunkOf[i]].B1
}

// blockOf returns the block A line i is in, or -1.
func (m *alignment) blockOf(i int) int {
	if k := m.hunkOf[i]; k >= 0 && m.block[k] {
		return k
	}
	return -1
}

// region is a part of S replaced by lines of B: A[a0:a1] became B[b0:b1],
// and S[s0:s1] stands for A[a0:a1].
type region struct {
	a0, a1, b0, b1, s0, s1 int
}

// regions turns the A→B hunks into the parts of S they replace. A hunk
// grows to whole blocks of A lines that S writes otherwise (a region cannot
// replace half of such a block), and hunks that then meet are merged.
func (m *alignment) regions(ab []linediff.Hunk, na int, src []srcLine) ([]region, bool) {
	leadEnd, tailStart := 0, len(src)
	for j, l := range src {
		if l.pin == pinLead {
			leadEnd = j + 1
		} else if l.pin == pinTail && tailStart == len(src) {
			tailStart = j
		}
	}
	var out []region
	for _, h := range ab {
		x, y := h.A0, h.A1
		if x == y {
			if x > 0 && x < na && m.blockOf(x-1) >= 0 && m.blockOf(x-1) == m.blockOf(x) {
				k := m.blockOf(x)
				x, y = m.hunks[k].A0, m.hunks[k].A1 // an insertion inside a block
			}
		} else {
			if k := m.blockOf(x); k >= 0 {
				x = m.hunks[k].A0
			}
			if k := m.blockOf(y - 1); k >= 0 {
				y = m.hunks[k].A1
			}
		}
		// The lines between a region's ends and its first and last hunk
		// are equal in A and B, which gives its B lines.
		r := region{a0: x, a1: y, b0: h.B0 - (h.A0 - x), b1: h.B1 + (y - h.A1)}
		if len(out) > 0 && x <= out[len(out)-1].a1 {
			last := &out[len(out)-1]
			if y > last.a1 {
				last.a1, last.b1 = y, r.b1
			} else {
				last.b1 = h.B1 + (last.a1 - h.A1)
			}
			continue
		}
		out = append(out, r)
	}
	prev := 0
	for i := range out {
		r := &out[i]
		if r.a0 < r.a1 {
			r.s0, r.s1 = m.spanStart(r.a0), m.spanEnd(r.a1-1)
		} else {
			// an insertion goes right after the lines before it, ahead of
			// blank lines that separate them from what follows
			p := 0
			if r.a0 > 0 {
				p = m.spanEnd(r.a0 - 1)
			} else if na > 0 {
				p = m.spanStart(0)
			}
			p = min(max(p, leadEnd), tailStart)
			r.s0, r.s1 = p, p
		}
		if r.s0 < prev || r.s1 < r.s0 {
			return nil, false
		}
		prev = r.s1
	}
	return out, true
}

// splice writes a document's source text chunk with the change from the
// rendering a to the rendering b applied, as described in Snapshot. It
// reports false when the texts cannot be lined up within maxSpliceEdits;
// the caller checks that the result reads as intended.
//
// Without loose it follows the plain algorithm: lines compare without
// trailing white space, and lines of b are written as rendered. With
// loose, lines compare without any surrounding white space, the blank
// lines yaml.v3 writes around comments are left out of a and b, and lines
// taken from b are indented like the source lines around them.
func splice(chunk, aText, bText []byte, loose bool) ([]byte, bool) {
	src, eol := sourceLines(chunk)
	a, b := renderedLines(aText, !loose), renderedLines(bText, !loose)
	ab, ok := linediff.DiffBounded(a, b, maxSpliceEdits)
	if !ok {
		return nil, false
	}
	m, ok := align(a, src, loose)
	if !ok {
		return nil, false
	}
	regions, ok := m.regions(ab, len(a), src)
	if !ok {
		return nil, false
	}
	w := &splicer{src: src, a: a, b: b, m: m, eol: eol, loose: loose, out: make([]byte, 0, len(chunk)+len(chunk)/8)}
	pos := 0
	for _, r := range regions {
		w.copySource(pos, r.s0)
		for j := r.s0; j < r.s1; j++ {
			if src[j].pin == pinLead {
				w.line(src[j].text)
			}
		}
		w.insert(r)
		for j := r.s0; j < r.s1; j++ {
			if src[j].pin == pinTail {
				w.line(src[j].text)
			}
		}
		pos = r.s1
	}
	w.copySource(pos, len(src))
	return w.out, true
}

// splicer writes a spliced document.
type splicer struct {
	src   []srcLine
	a, b  []string
	m     *alignment
	eol   string
	loose bool
	out   []byte
	// before holds the shapes of the lines written so far whose place in
	// the rendering is known, for indenting lines taken from b.
	before []shape
}

// shape is what indenting a line of b needs to know about another line:
// its indentation in the rendering, how much more the output indents it
// (delta) and its content (child), whether it is a sequence item, and the
// width of the space after its dash.
type shape struct {
	indent, delta, child int
	item                 bool
	gap                  int
}

// shapeOf describes output line out, rendered as r.
func shapeOf(r, out string) shape {
	sh := shape{indent: indent(r), delta: indent(out) - indent(r), item: isItem(r) && isItem(out)}
	sh.child = sh.delta
	if sh.item {
		sh.gap = dashGap(out)
		sh.child += sh.gap - dashGap(r)
	}
	return sh
}

// dashGap returns the width of the space after an item's dash.
func dashGap(l string) int {
	t := strings.TrimLeft(l, " ")[1:]
	return len(t) - len(strings.TrimLeft(t, " "))
}

func (w *splicer) line(text string) {
	w.out = append(w.out, text...)
	w.out = append(w.out, w.eol...)
}

// copySource copies source lines [from, to).
func (w *splicer) copySource(from, to int) {
	for j := from; j < to; j++ {
		l := w.src[j]
		w.out = append(w.out, l.text...)
		if l.eol != "" {
			w.out = append(w.out, l.eol...)
		} else {
			w.out = append(w.out, w.eol...)
		}
		if i := w.m.aOf[j]; w.loose && i >= 0 && !isBlankOrComment([]byte(l.text)) {
			w.before = append(w.before, shapeOf(w.a[i], l.text))
		}
	}
}

// maxScan bounds the lines looked at to indent one line.
const maxScan = 1000

// insert writes the lines of b that replace region r. Without loose they
// are written as rendered. With loose each line is shifted as the source
// shifts its nearest sibling before it (same indentation and kind, same
// parent), else a line like it among the lines it replaces, else its
// nearest sibling after it, else the content of its parent; an item also
// takes the space after the dash of the line it follows. So an item added to a list the source indents more
// than yaml.v3 does is indented like the other items. Lines of a block
// scalar move with its header; comments with the line after them.
func (w *splicer) insert(r region) {
	lines := w.b[r.b0:r.b1]
	if !w.loose {
		for _, l := range lines {
			w.line(l)
		}
		return
	}
	var replaced []shape // the source lines the region replaces
	for j := r.s0; j < r.s1; j++ {
		if i := w.m.aOf[j]; i >= 0 && !isBlankOrComment([]byte(w.src[j].text)) {
			replaced = append(replaced, shapeOf(w.a[i], w.src[j].text))
		}
	}
	var after []shape // the source lines after it, looked at only when needed
	afterOnce := false
	lookAfter := func() []shape {
		if !afterOnce {
			afterOnce = true
			for j := r.s1; j < len(w.src) && len(after) < maxScan; j++ {
				if i := w.m.aOf[j]; i >= 0 && !isBlankOrComment([]byte(w.src[j].text)) {
					after = append(after, shapeOf(w.a[i], w.src[j].text))
				}
			}
		}
		return after
	}
	out := make([]string, len(lines))
	done := make([]bool, len(lines))
	shift := make([]int, len(lines))
	block, blockShift := -1, 0 // indentation of an open block scalar's header, and its content's shift
	for i, l := range lines {
		if isBlank(l) {
			out[i], done[i] = "", true
			continue
		}
		k := indent(l)
		if block >= 0 && k > block {
			out[i], done[i], shift[i] = reindent(l, blockShift), true, blockShift
			continue
		}
		block = -1
		if isBlankOrComment([]byte(l)) {
			continue // placed below
		}
		item := isItem(l)
		d, gap := 0, 0
		if sib, ok := sibling(w.before, nil, k, item); ok {
			d, gap = sib.delta, sib.gap
		} else if sib, ok := like(replaced, k, item); ok {
			d, gap = sib.delta, sib.gap
		} else if sib, ok := sibling(nil, lookAfter(), k, item); ok {
			d, gap = sib.delta, sib.gap
		} else if par, ok := parent(w.before, k, item); ok {
			d = par.child
		}
		o := reindent(l, d)
		if item && gap > 1 && dashGap(l) == 1 {
			o = o[:indent(o)+1] + strings.Repeat(" ", gap) + o[indent(o)+2:]
		}
		out[i], done[i], shift[i] = o, true, d
		sh := shapeOf(l, o)
		w.before = append(w.before, sh)
		if isBlockHeader(l) {
			block, blockShift = k, sh.child
		}
	}
	// a comment moves with the next line that is not a comment, or else
	// with the line before it
	for i, l := range lines {
		if done[i] {
			continue
		}
		d, found := 0, false
		for j := i + 1; j < len(lines) && !found; j++ {
			if done[j] && !isBlank(lines[j]) {
				d, found = shift[j], true
			}
		}
		for j := i - 1; j >= 0 && !found; j-- {
			if done[j] && !isBlank(lines[j]) {
				d, found = shift[j], true
			}
		}
		out[i] = reindent(l, d)
	}
	w.keepCommentGaps(out, r)
	for _, o := range out {
		w.line(o)
	}
}

// keepCommentGaps gives the line comments of new lines the white space
// before them that the source line they replace had before the same
// comment, as a person changing the value would leave it. yaml.v3 writes
// one space before every line comment.
func (w *splicer) keepCommentGaps(out []string, r region) {
	type gapOf struct{ comment, gap string }
	var gaps []gapOf
	for j := r.s0; j < r.s1; j++ {
		if _, gap, comment, ok := splitLineComment(w.src[j].text); ok {
			gaps = append(gaps, gapOf{comment, gap})
		}
	}
	for i, o := range out {
		code, _, comment, ok := splitLineComment(o)
		if !ok {
			continue
		}
		for k, g := range gaps {
			if g.comment == comment {
				out[i] = code + g.gap + comment
				gaps = append(gaps[:k], gaps[k+1:]...)
				break
			}
		}
	}
}

// splitLineComment splits a line into its code (without trailing white
// space), the white space before the comment, and the comment from its #.
// A # starts a comment after white space, outside quotes. ok is false when
// the line has no code or no comment.
func splitLineComment(l string) (code, gap, comment string, ok bool) {
	quote := byte(0)
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				if quote == '\'' && i+1 < len(l) && l[i+1] == '\'' {
					i++
				} else {
					quote = 0
				}
			}
		case c == '"' || c == '\'':
			if i == 0 || strings.IndexByte(" \t:[{,-", l[i-1]) >= 0 {
				quote = c
			}
		case c == '#' && i > 0 && (l[i-1] == ' ' || l[i-1] == '\t'):
			code = strings.TrimRight(l[:i], " \t")
			if strings.TrimSpace(code) == "" {
				return "", "", "", false
			}
			return code, l[len(code):i], l[i:], true
		}
	}
	return "", "", "", false
}

// reindent shifts line l right by d columns (left when d < 0).
func reindent(l string, d int) string {
	k := indent(l)
	return strings.Repeat(" ", max(k+d, 0)) + l[k:]
}

// like finds the first of the replaced lines with indentation k and of the
// same kind: the line a line of b replaces is the best guide to its place.
func like(replaced []shape, k int, item bool) (shape, bool) {
	for _, e := range replaced {
		if e.indent == k && e.item == item {
			return e, true
		}
	}
	return shape{}, false
}

// sibling finds the nearest line with indentation k and of the same kind
// (item or not) under the same parent: before the line, else after it. In
// a compact sequence an item and the key it belongs to have the same
// indentation; items are skipped when looking for a key's siblings, and a
// key ends the search for an item's.
func sibling(before, after []shape, k int, item bool) (shape, bool) {
	for i, n := len(before)-1, 0; i >= 0 && n < maxScan; i, n = i-1, n+1 {
		if e := before[i]; e.indent < k || e.indent == k && (e.item == item || item) {
			if e.indent == k && e.item == item {
				return e, true
			}
			break
		}
	}
	for _, e := range after {
		if e.indent < k || e.indent == k && (e.item == item || item) {
			if e.indent == k && e.item == item {
				return e, true
			}
			break
		}
	}
	return shape{}, false
}

// parent finds the line before whose content a line with indentation k
// is: the nearest one indented less, or, for an item, a key with the same
// indentation (a compact sequence).
func parent(before []shape, k int, item bool) (shape, bool) {
	for i, n := len(before)-1, 0; i >= 0 && n < maxScan; i, n = i-1, n+1 {
		if e := before[i]; e.indent < k || item && e.indent == k && !e.item {
			return e, true
		}
	}
	return shape{}, false
}

func indent(l string) int {
	return len(l) - len(strings.TrimLeft(l, " "))
}

// isItem reports whether l is a block sequence item ("- ...").
func isItem(l string) bool {
	t := strings.TrimLeft(l, " ")
	return t == "-" || strings.HasPrefix(t, "- ")
}

// isBlockHeader reports whether a rendered line ends with the header of a
// literal or folded block scalar ("key: |-", "- >", "| # comment").
func isBlockHeader(l string) bool {
	f := strings.Fields(l)
	for i, t := range f {
		if strings.HasPrefix(t, "#") {
			f = f[:i]
			break
		}
	}
	if len(f) == 0 {
		return false
	}
	t := f[len(f)-1]
	if t[0] != '|' && t[0] != '>' || strings.Trim(t[1:], "0123456789+-") != "" {
		return false
	}
	return len(f) == 1 || f[len(f)-2] == "-" || strings.HasSuffix(f[len(f)-2], ":")
}

func isBlank(l string) bool { return strings.TrimSpace(l) == "" }

// unflowFilled writes in block style the collections that were empty flow
// collections in the snapshot ({} or [], as templates render an empty
// value) and have content now: a person filling resources: {} writes a
// block. Nodes are matched by their position in the source.
func unflowFilled(snapshot, doc *yaml.Node) {
	type pos struct{ line, col int }
	empty := map[pos]bool{}
	var find func(n *yaml.Node)
	find = func(n *yaml.Node) {
		if (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle != 0 && len(n.Content) == 0 && n.Line > 0 {
			empty[pos{n.Line, n.Column}] = true
		}
		for _, c := range n.Content {
			find(c)
		}
	}
	find(snapshot)
	if len(empty) == 0 {
		return
	}
	var fix func(n *yaml.Node, inFlow bool)
	fix = func(n *yaml.Node, inFlow bool) {
		flow := n.Style&yaml.FlowStyle != 0
		if flow && !inFlow && len(n.Content) > 0 && empty[pos{n.Line, n.Column}] {
			n.Style &^= yaml.FlowStyle
			flow = false
		}
		for _, c := range n.Content {
			fix(c, inFlow || flow)
		}
	}
	fix(doc, false)
}
