package tree

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/kmerge/kmerge/internal/linediff"
)

// Splicing one document: the lines of its source text (S), of yaml.v3's
// rendering of its snapshot (A) and of the current tree (B). align finds
// where each line of A is in S, regions turns the line diff from A to B
// into the parts of S to replace, and a splicer writes S with them
// replaced, indenting new lines like their neighbours and keeping the
// space before line comments. preserved (preserve.go) decides which
// documents to splice and checks every result by reading it back.

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
