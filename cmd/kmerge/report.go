package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kmerge/kmerge/internal/errpos"
	"github.com/kmerge/kmerge/internal/readfile"
	"github.com/kmerge/kmerge/internal/secret"
	"github.com/kmerge/kmerge/serverside"
	"github.com/kmerge/kmerge/tree"
	"github.com/kmerge/kmerge/validate"
)

// texts remembers the inputs that are not files (standard input, a patch
// given on the command line), so that an error can quote their lines.
type texts map[string][]byte

// recorder is standard input, recorded as it is read.
type recorder struct {
	r      io.Reader
	buf    bytes.Buffer
	given  int           // of buf, returned by ReadText
	budget *memoryBudget // counts what ReadText reads; nil: none
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.buf.Write(p[:n])
	r.given = r.buf.Len()
	return n, err
}

// ReadText reads the rest of the input into the record and returns it,
// without a second copy of it (tree.TextReader): a long stream on
// standard input is held in memory once.
func (r *recorder) ReadText(limit int64) ([]byte, error) {
	src := r.r
	if f, ok := src.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
			if at, err := f.Seek(0, io.SeekCurrent); err == nil && at <= info.Size() {
				r.buf.Grow(int(info.Size()-at) + bytes.MinRead)
			}
		}
	}
	if limit > 0 {
		src = io.LimitReader(src, limit)
	}
	_, err := r.buf.ReadFrom(src)
	out := r.buf.Bytes()[r.given:]
	r.given = r.buf.Len()
	r.budget.add(int64(len(out)))
	return out, err
}

// quote returns the line an error points at, and a caret under its column
// (masked, errpos.QuoteMasked, when the error masks a secret value), from
// the inputs recorded or the file; "" when the line cannot be read.
func quote(pos tree.Position, inputs texts, masked bool) string {
	data, ok := inputs[pos.File]
	if !ok {
		var err error
		if data, err = readfile.Found(pos.File, &tree.Limits{MaxBytes: 64 << 20}); err != nil {
			return ""
		}
	}
	if masked {
		return errpos.QuoteMasked(data, pos)
	}
	return errpos.Quote(data, pos)
}

// report prints an error: "kmerge: message", then the line it points at
// with a caret, then what to do about it. Schema violations (several at
// once) are printed one by one, each with its line, then what to do about
// them.
func report(w io.Writer, err error, inputs texts) {
	var sce *serverside.ConflictError
	if errors.As(err, &sce) {
		reportServerSideConflicts(w, sce, inputs)
		return
	}
	if vs := validate.Errors(err); len(vs) > 0 {
		for _, v := range vs {
			fmt.Fprintf(w, "kmerge: %v\n", v)
			io.WriteString(w, quote(v.Position(), inputs, v.Secret))
		}
		fmt.Fprintf(w, "kmerge: %s in the result: fix the patches, or pass --validate=warn to write the result anyway\n",
			plural(len(vs), "schema violation", "schema violations"))
		return
	}
	fmt.Fprintf(w, "kmerge: %v\n", err)
	if pos, ok := tree.ErrorPosition(err); ok {
		io.WriteString(w, quote(pos, inputs, secret.InError(err)))
	}
	if a := advice(err); a != "" {
		fmt.Fprintf(w, "  (%s)\n", a)
	}
}

// warnInvalid prints a schema violation that is a warning: its position,
// what it is, and where.
func warnInvalid(w io.Writer, e *validate.Error) {
	fmt.Fprintf(w, "kmerge: %s\n", e.Warning())
}

// colorMode decides whether output is coloured: "always", "never", or
// "auto" (when w is a terminal and NO_COLOR is not set).
func useColor(mode string, w io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto", "":
		f, ok := w.(*os.File)
		if !ok || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
			return false, nil
		}
		info, err := f.Stat()
		return err == nil && info.Mode()&os.ModeCharDevice != 0, nil
	}
	return false, usagef("--color %q: use auto, always or never", mode)
}

// colorDiff colours a unified diff: headers bold, hunk lines cyan, removed
// lines red, added lines green.
func colorDiff(diff string) string {
	const (
		reset = "\x1b[0m"
		bold  = "\x1b[1m"
		red   = "\x1b[31m"
		green = "\x1b[32m"
		cyan  = "\x1b[36m"
	)
	var b strings.Builder
	for _, l := range strings.SplitAfter(diff, "\n") {
		if l == "" {
			continue
		}
		body, nl := strings.TrimSuffix(l, "\n"), l[len(strings.TrimSuffix(l, "\n")):]
		switch {
		case strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "):
			b.WriteString(bold + body + reset + nl)
		case strings.HasPrefix(l, "@@"):
			b.WriteString(cyan + body + reset + nl)
		case strings.HasPrefix(l, "-"):
			b.WriteString(red + body + reset + nl)
		case strings.HasPrefix(l, "+"):
			b.WriteString(green + body + reset + nl)
		default:
			b.WriteString(l)
		}
	}
	return b.String()
}

// reportServerSideConflicts prints a server-side apply's conflicts: each
// object's refusal in the API server's words, then each field with the
// line of the manifest (or of the patch) that sets it, then what to do.
func reportServerSideConflicts(w io.Writer, e *serverside.ConflictError, inputs texts) {
	for _, o := range e.Objects {
		fmt.Fprintf(w, "kmerge: %s (%s): %s\n", o.ID, o.File, o.Err)
		for _, f := range o.Fields {
			switch {
			case f.Patch:
				fmt.Fprintf(w, "  %s: %s (a patch writes it)\n", f.Path, shortPos(f.Pos))
			case f.Pos.Line > 0:
				fmt.Fprintf(w, "  %s: %s\n", f.Path, shortPos(f.Pos))
			default:
				fmt.Fprintf(w, "  %s: not in the manifest (%s holds an item of it)\n", f.Path, f.Manager)
				continue
			}
			io.WriteString(w, indent(quote(f.Pos, inputs, false), "  "))
		}
	}
	them := "them"
	if len(e.Objects) == 1 {
		them = "it"
	}
	fmt.Fprintf(w, "kmerge: %s with other field managers, and the API server would refuse %s: to take the fields over, run again with --force-conflicts; to leave them to their managers, take them out of the manifests (or of the patches that write them); docs/ssa.md#conflicts\n",
		plural(len(e.Objects), "object conflicts", "objects conflict"), them)
}

// indent puts prefix before every line of text.
func indent(text, prefix string) string {
	if text == "" {
		return ""
	}
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(prefix + l)
		}
	}
	return b.String()
}
