package kpatch

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLoadOrder: Load parses files in parallel but returns their patches in
// file order, and of several bad files always the first one's error.
func TestLoadOrder(t *testing.T) {
	dir := t.TempDir()
	for i := range 40 {
		text := "[deployment.app" + strconv.Itoa(i) + "]\nspec.replicas: " + strconv.Itoa(i) + "\n"
		if err := os.WriteFile(filepath.Join(dir, "p"+strconv.Itoa(100+i)+".kpatch"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, workers := range []int{1, 2, 8} {
		patches, err := Load(context.Background(), []string{dir}, LoadOptions{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if len(patches) != 40 {
			t.Fatalf("workers %d: %d patches, want 40", workers, len(patches))
		}
		for i, p := range patches {
			if want := "p" + strconv.Itoa(100+i) + ".kpatch"; filepath.Base(p.Pos.File) != want {
				t.Fatalf("workers %d: patch %d comes from %s, want %s", workers, i, p.Pos.File, want)
			}
		}
	}
	for _, name := range []string{"p105.kpatch", "p130.kpatch"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("[deployment.x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, workers := range []int{1, 2, 8} {
		_, err := Load(context.Background(), []string{dir}, LoadOptions{Workers: workers})
		if err == nil || !strings.Contains(err.Error(), "p105.kpatch:1:") {
			t.Fatalf("workers %d: %v, want the error of p105.kpatch", workers, err)
		}
	}
}
