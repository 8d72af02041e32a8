// Command write writes the hostile corpus (package hostile) to a folder,
// one folder per case with its kmerge command line in cmd.txt:
//
//	go run ./internal/hostile/write DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kmerge/kmerge/internal/hostile"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: write DIR")
		os.Exit(2)
	}
	for _, c := range hostile.Cases() {
		dir := filepath.Join(os.Args[1], c.Name)
		if err := c.Write(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		quoted := make([]string, len(c.Args))
		for i, a := range c.Args {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		cmd := "kmerge " + strings.Join(quoted, " ") + "\n"
		if err := os.WriteFile(filepath.Join(dir, "cmd.txt"), []byte(cmd), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
