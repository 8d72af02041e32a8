package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocs runs every kmerge command shown in README.md and docs/*.md, so
// that the documentation cannot drift from the program:
//
//   - in ```sh blocks, each line that runs kmerge (or go run ./cmd/kmerge)
//     must exit 0; other lines (go test, helm, ...) are not kmerge's;
//   - in ```console blocks, each "$ kmerge ..." line runs, and the lines
//     after it must be its output (standard output, then standard error),
//     where a line "..." stands for any number of lines;
//   - a block right after a line <!-- not run: REASON --> is skipped.
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
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range codeBlocks(string(data)) {
			if b.skip {
				continue
			}
			switch b.info {
			case "sh":
				for i, line := range joinContinued(b.lines) {
					args, ok := kmergeArgs(line)
					if !ok {
						continue
					}
					ran++
					where := fmt.Sprintf("%s:%d", file, b.line+1+i)
					if _, _, code, err := runDoc(args); err != nil || code != 0 {
						t.Errorf("%s: %s: exit %d %v", where, line, code, err)
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
					args, ok := kmergeArgs(cmd)
					if !ok {
						continue
					}
					ran++
					stdout, stderr, _, err := runDoc(args)
					if err != nil {
						t.Errorf("%s:%d: %s: %v", file, b.line+1+start, cmd, err)
						continue
					}
					got := strings.Split(strings.TrimSuffix(stdout+stderr, "\n"), "\n")
					if !linesMatch(got, want) {
						t.Errorf("%s:%d: %s\noutput:\n%s\ndocumented:\n%s", file, b.line+1+start, cmd, stdout+stderr, strings.Join(want, "\n"))
					}
				}
			}
		}
	}
	t.Logf("%d documented commands ran", ran)
	if ran < 10 {
		t.Errorf("only %d documented commands ran", ran)
	}
}

type codeBlock struct {
	info  string
	line  int // of the opening fence, from 1
	lines []string
	skip  bool
}

// codeBlocks returns the fenced code blocks of a Markdown text.
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
		b := codeBlock{info: strings.TrimSpace(info), line: i + 1, skip: strings.HasPrefix(prev, "<!-- not run")}
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			b.lines = append(b.lines, lines[i])
		}
		out = append(out, b)
		prev = ""
	}
	return out
}

// kmergeArgs returns the arguments of a line that runs kmerge.
func kmergeArgs(line string) ([]string, bool) {
	line = strings.TrimSpace(line)
	if i := strings.Index(line, " #"); i >= 0 && !strings.ContainsAny(line[:i], `'"`) {
		line = strings.TrimSpace(line[:i])
	}
	for _, prefix := range []string{"kmerge ", "go run ./cmd/kmerge "} {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			return shellWords(rest), true
		}
	}
	return nil, false
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

// runDoc runs kmerge with args, "< FILE" taken as standard input.
func runDoc(args []string) (string, string, int, error) {
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
		case "|", ">", ">>":
			return "", "", 0, fmt.Errorf("the docs test runs no pipes or redirections; mark the block <!-- not run: ... -->")
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
