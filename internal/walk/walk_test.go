package walk

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func yamlFiles(name string) bool { return strings.HasSuffix(name, ".yaml") }

// tree writes files (name: text; a text starting with "->" makes a
// symbolic link to the rest) under root.
func tree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if to, ok := strings.CutPrefix(text, "->"); ok {
			if err := os.Symlink(to, p); err != nil {
				t.Skipf("no symbolic links here: %v", err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFilesSymlinks: links are followed, under their own names, in the
// lexical order of those names; dot folders are skipped, linked or not.
// The order is filepath.WalkDir's: entries by name, a folder's files where
// its name comes (linked/ before linked-txt.yaml). Before, a link to a
// folder (given itself, or found in the walk) gave no file at all, without
// an error.
func TestFilesSymlinks(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{
		"real/a.yaml":          "a",
		"real/sub/b.yaml":      "b",
		"real/.hidden/h.yaml":  "h",
		"other/c.yaml":         "c",
		"base/1.yaml":          "1",
		"base/linked":          "->../other",
		"base/file.yaml":       "->../other/c.yaml",
		"base/.dot":            "->../other",
		"base/dangling.yaml":   "->../nowhere.yaml",
		"base/dangling":        "->../nowhere",
		"base/z/zz.yaml":       "z",
		"base/z/up-to-real":    "->../../real",
		"linkdir":              "->real",
		"base/not-yaml.txt":    "t",
		"base/linked-txt.yaml": "->../base/not-yaml.txt",
	})
	for _, c := range []struct {
		dir  string
		want []string
	}{
		{"linkdir", []string{"linkdir/a.yaml", "linkdir/sub/b.yaml"}},
		{"base", []string{"base/1.yaml", "base/dangling.yaml", "base/file.yaml", "base/linked/c.yaml", "base/linked-txt.yaml", "base/z/up-to-real/a.yaml", "base/z/up-to-real/sub/b.yaml", "base/z/zz.yaml"}},
	} {
		got, err := Files(filepath.Join(root, c.dir), yamlFiles)
		if err != nil {
			t.Errorf("Files(%s): %v", c.dir, err)
			continue
		}
		for i := range got {
			got[i], _ = filepath.Rel(root, got[i])
			got[i] = filepath.ToSlash(got[i])
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("Files(%s):\n%q\nwant:\n%q", c.dir, got, c.want)
		}
	}
}

// TestFilesLoop: a link to a folder that holds it is an error naming the
// link, however far up it leads, and through other links.
func TestFilesLoop(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{
		"self/a.yaml":     "a",
		"self/again":      "->.",
		"up/x/y/a.yaml":   "a",
		"up/x/y/top":      "->../..",
		"ping/a.yaml":     "a",
		"ping/to-pong":    "->../pong",
		"pong/b.yaml":     "b",
		"pong/to-ping":    "->../ping",
		"fine/a.yaml":     "a",
		"fine/to-sibling": "->../self/a.yaml",
	})
	real, _ := filepath.EvalSymlinks(root)
	for _, c := range []struct{ dir, link, target, folder string }{
		{"self", "self/again", ".", "self"},
		{"up", "up/x/y/top", "../..", "up"},
		{"ping", "ping/to-pong/to-ping", "../ping", "ping"},
	} {
		_, err := Files(filepath.Join(root, c.dir), yamlFiles)
		var le *LoopError
		want := filepath.Join(root, c.link) + ": a symbolic link (to " + c.target + ") back to a folder that holds it: following it would never end"
		if !errors.As(err, &le) || err.Error() != want || le.Folder != filepath.Join(real, c.folder) {
			t.Errorf("Files(%s): %v\nwant: %s", c.dir, err, want)
		}
	}
	if _, err := Files(filepath.Join(root, "fine"), yamlFiles); err != nil {
		t.Errorf("a link to a file beside the folder: %v", err)
	}
}
