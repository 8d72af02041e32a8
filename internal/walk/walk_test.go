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
		"outer/in/a.yaml": "a",
		"outer/in/parent": "->..",
	})
	real, _ := filepath.EvalSymlinks(root)
	for _, c := range []struct{ dir, link, target, folder string }{
		{"self", "self/again", ".", "self"},
		{"up", "up/x/y/top", "../..", "up"},
		{"ping", "ping/to-pong/to-ping", "../ping", "ping"},
		// parent leads to outer, which holds in, the folder walked: the
		// loop closes at outer's folder in (no link), and the link that
		// made it is parent (it was named "outer/in/parent/in", "a
		// symbolic link (to )")
		{"outer/in", "outer/in/parent", "..", "outer/in"},
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

// TestFilesEnter: enter is called on the folder walked and on each folder
// below it, links to folders included (under the path walked); the files
// it returns stand for the folder, whose entries are skipped when it says
// so. kpatch.Files reads a kustomization for its folder this way.
func TestFilesEnter(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{
		"real/a.yaml":         "a",
		"real/k/main.yaml":    "k",
		"real/k/other.yaml":   "o",
		"real/z.yaml":         "z",
		"elsewhere/k2/x.yaml": "x",
		"real/linked":         "->../elsewhere",
		"top":                 "->real",
	})
	var entered []string
	got, err := FilesEnter(filepath.Join(root, "top"), yamlFiles, func(dir string) ([]string, bool, error) {
		rel, _ := filepath.Rel(root, dir)
		entered = append(entered, filepath.ToSlash(rel))
		if b := filepath.Base(dir); b == "k" || b == "k2" {
			return []string{filepath.Join(dir, "main.yaml")}, true, nil
		}
		return nil, false, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i], _ = filepath.Rel(root, got[i])
		got[i] = filepath.ToSlash(got[i])
	}
	// entries in lexical order: a.yaml, k/ (standing for itself), linked/
	// (a link: entered, its k2 standing for itself), z.yaml
	if want := "top/a.yaml top/k/main.yaml top/linked/k2/main.yaml top/z.yaml"; strings.Join(got, " ") != want {
		t.Errorf("files: %q, want %q", got, want)
	}
	if want := "top top/k top/linked top/linked/k2"; strings.Join(entered, " ") != want {
		t.Errorf("entered: %q, want %q", entered, want)
	}
}
