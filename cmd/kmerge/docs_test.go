package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDocs runs every kmerge command shown in README.md and docs/*.md, so
// that the documentation cannot drift from the program:
//
//   - in ```sh blocks, each line that runs kmerge (or go run ./cmd/kmerge)
//     must exit 0; other lines (go test, helm, ...) are not kmerge's; a
//     line "cd DIR && kmerge ..." (or in parentheses) runs in DIR;
//   - in ```console blocks, each "$ kmerge ..." line runs, and the lines
//     after it must be its output (standard output, then standard error),
//     where a line "..." stands for any number of lines; it must exit 0,
//     unless the output shows an error (a line "kmerge: ..." that is not a
//     warning nor a conflict), when it must exit 1 or 2;
//   - a comment <!-- docs-test: exit N --> right before a block says the
//     exit code of its commands instead;
//   - a block right after a line <!-- not run: REASON --> is skipped; the
//     test lists what it skipped, and why.
//
// Commands run from the repository root; "< FILE" feeds standard input.
func TestDocs(t *testing.T) {
	t.Chdir("../..")
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{"README.md"}, files...)
	ran := 0
	var skipped []string
	catalogue := 0 // the blocks of docs/errors.md, run by TestErrorCatalogue
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range codeBlocks(string(data)) {
			if b.skip != "" {
				if !runsKmerge(b) {
					continue // a skipped block of Lua, JSON, ...
				}
				if strings.Contains(b.skip, "catalogue_test.go") {
					catalogue++
				} else {
					skipped = append(skipped, fmt.Sprintf("%s:%d: %s", file, b.line, b.skip))
				}
				continue
			}
			switch b.info {
			case "sh":
				for i, line := range joinContinued(b.lines) {
					dir, args, ok := kmergeCommand(line)
					if !ok {
						continue
					}
					ran++
					where := fmt.Sprintf("%s:%d", file, b.line+1+i)
					want := 0
					if b.exit != nil {
						want = *b.exit
					}
					if _, stderr, code, err := runDoc(dir, args); err != nil || code != want {
						t.Errorf("%s: %s: exit %d, want %d %v\n%s", where, line, code, want, err, stderr)
					}
				}
			case "":
				for i, l := range b.lines {
					if strings.HasPrefix(l, "$ kmerge") {
						t.Errorf("%s:%d: a block showing a kmerge run is a ```console block (or <!-- not run: ... -->)", file, b.line+1+i)
					}
				}
			case "console":
				for i := 0; i < len(b.lines); i++ {
					cmd, ok := strings.CutPrefix(b.lines[i], "$ ")
					if !ok {
						t.Errorf("%s:%d: a console block starts with $ COMMAND", file, b.line+1+i)
						break
					}
					start := i
					var want []string
					for i+1 < len(b.lines) && !strings.HasPrefix(b.lines[i+1], "$ ") {
						i++
						want = append(want, b.lines[i])
					}
					dir, args, ok := kmergeCommand(cmd)
					if !ok {
						continue
					}
					ran++
					where := fmt.Sprintf("%s:%d", file, b.line+1+start)
					stdout, stderr, code, err := runDoc(dir, args)
					if err != nil {
						t.Errorf("%s: %s: %v", where, cmd, err)
						continue
					}
					got := strings.Split(strings.TrimSuffix(stdout+stderr, "\n"), "\n")
					if !linesMatch(got, want) {
						t.Errorf("%s: %s\noutput:\n%s\ndocumented:\n%s", where, cmd, stdout+stderr, strings.Join(want, "\n"))
					}
					switch {
					case b.exit != nil && code != *b.exit:
						t.Errorf("%s: %s: exit %d, the doc says %d", where, cmd, code, *b.exit)
					case b.exit == nil && showsError(want) && code == 0:
						t.Errorf("%s: %s: exit 0, but the doc shows an error", where, cmd)
					case b.exit == nil && !showsError(want) && code != 0:
						t.Errorf("%s: %s: exit %d, but the doc shows no error\n%s", where, cmd, code, stderr)
					}
				}
			}
		}
	}
	t.Logf("%d documented commands ran; %d blocks of docs/errors.md are TestErrorCatalogue's; %d blocks skipped:\n%s",
		ran, catalogue, len(skipped), strings.Join(skipped, "\n"))
	if ran < 30 {
		t.Errorf("only %d documented commands ran", ran)
	}
}

// runsKmerge reports whether a block holds a kmerge command.
func runsKmerge(b codeBlock) bool {
	for _, l := range b.lines {
		if _, _, ok := kmergeCommand(strings.TrimPrefix(l, "$ ")); ok {
			return true
		}
	}
	return false
}

// showsError reports whether documented output holds an error: a line
// "kmerge: ..." that is not a warning nor a conflict.
func showsError(lines []string) bool {
	for _, l := range lines {
		msg, ok := strings.CutPrefix(l, "kmerge: ")
		if ok && !strings.Contains(msg, "warning: ") && !strings.HasPrefix(msg, "conflict: ") {
			return true
		}
	}
	return false
}

type codeBlock struct {
	info  string
	line  int // of the opening fence, from 1
	lines []string
	skip  string // why the block is not run, "" when it is
	exit  *int   // the exit code <!-- docs-test: exit N --> gives
}

// codeBlocks returns the fenced code blocks of a Markdown text, with what
// the comment line before each says.
func codeBlocks(text string) []codeBlock {
	var out []codeBlock
	lines := strings.Split(text, "\n")
	prev := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		info, ok := strings.CutPrefix(l, "```")
		if !ok {
			if strings.TrimSpace(l) != "" {
				prev = l
			}
			continue
		}
		b := codeBlock{info: strings.TrimSpace(info), line: i + 1}
		if reason, ok := strings.CutPrefix(prev, "<!-- not run"); ok {
			b.skip = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(reason, ":"), "-->"))
		}
		if n, ok := strings.CutPrefix(prev, "<!-- docs-test: exit "); ok {
			if code, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(n, "-->"))); err == nil {
				b.exit = &code
			}
		}
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			b.lines = append(b.lines, lines[i])
		}
		out = append(out, b)
		prev = ""
	}
	return out
}

// kmergeCommand returns the folder (relative to the repository root, ""
// for the root) and the arguments of a line that runs kmerge: "kmerge
// ...", "go run ./cmd/kmerge ...", "cd DIR && kmerge ..." and the latter in
// parentheses. A comment at the end is dropped.
func kmergeCommand(line string) (string, []string, bool) {
	line = strings.TrimSpace(line)
	if i := strings.Index(line, " #"); i >= 0 && !strings.ContainsAny(line[:i], `'"`) {
		line = strings.TrimSpace(line[:i])
	}
	dir := ""
	if inner, ok := strings.CutPrefix(line, "("); ok && strings.HasSuffix(inner, ")") {
		line = strings.TrimSuffix(inner, ")")
	}
	if rest, ok := strings.CutPrefix(line, "cd "); ok {
		d, cmd, ok := strings.Cut(rest, " && ")
		if !ok {
			return "", nil, false
		}
		dir, line = strings.TrimSpace(d), strings.TrimSpace(cmd)
	}
	for _, prefix := range []string{"kmerge ", "go run ./cmd/kmerge ", "go run ../cmd/kmerge "} {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return dir, shellWords(rest), true
		}
	}
	if line == "kmerge" || line == "go run ../cmd/kmerge" {
		return dir, nil, true
	}
	return "", nil, false
}

// shellWords splits a command line as sh does for the simple lines docs
// hold: spaces separate words, single and double quotes group them.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// runDoc runs kmerge with args in dir (relative to the current folder; ""
// for it), "< FILE" taken as standard input.
func runDoc(dir string, args []string) (string, string, int, error) {
	if dir != "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", "", 0, err
		}
		if err := os.Chdir(dir); err != nil {
			return "", "", 0, err
		}
		defer os.Chdir(wd)
	}
	var stdin []byte
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "<":
			if i+1 >= len(args) {
				return "", "", 0, fmt.Errorf("< without a file")
			}
			data, err := os.ReadFile(args[i+1])
			if err != nil {
				return "", "", 0, err
			}
			stdin = data
			args = append(args[:i], args[i+2:]...)
			i--
		case "|", ">", ">>", "&&", ";":
			return "", "", 0, fmt.Errorf("the docs test runs no pipes, redirections or lists; mark the block <!-- not run: ... -->")
		}
	}
	var stdout, stderr bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &stdout, &stderr)
	return stdout.String(), stderr.String(), code, nil
}

// linesMatch reports whether got matches want, where a want line "..."
// matches any number of lines.
func linesMatch(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0 || len(got) == 1 && got[0] == ""
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if linesMatch(got[i:], want[1:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && strings.TrimRight(got[0], " ") == strings.TrimRight(want[0], " ") && linesMatch(got[1:], want[1:])
}

// joinContinued joins lines that end with a backslash to the next one.
// Lines keep their index (a joined line takes the first's; the others
// become empty), for messages.
func joinContinued(lines []string) []string {
	out := append([]string(nil), lines...)
	for i := 0; i < len(out); i++ {
		for strings.HasSuffix(out[i], "\\") && i+1 < len(out) {
			j := i + 1
			for j < len(out) && out[j] == "" {
				j++
			}
			if j == len(out) {
				break
			}
			out[i] = strings.TrimSuffix(out[i], "\\") + " " + strings.TrimSpace(out[j])
			out[j] = ""
		}
	}
	return out
}
