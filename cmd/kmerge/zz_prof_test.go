package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

func TestZZProf(t *testing.T) {
	args := strings.Fields(os.Getenv("ZZ_ARGS"))
	if len(args) == 0 {
		t.Skip()
	}
	if d := os.Getenv("ZZ_DIR"); d != "" {
		wd, _ := os.Getwd()
		os.Chdir(d)
		defer os.Chdir(wd)
	}
	code := run(args, strings.NewReader(""), io.Discard, os.Stderr)
	t.Logf("exit %d", code)
}
