package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nvimConfig starts kmerge lsp for the buffer the way docs/editors.md
// says (vim.lsp.start, or start_client and buf_attach_client before
// Neovim 0.8, which Debian 12 ships), waits for the diagnostics, asks for
// completion at the end of the buffer's third line, writes both as JSON
// and quits.
const nvimConfig = `
local bin, file, root, out = os.getenv("KMERGE_BIN"), os.getenv("KPATCH_FILE"), os.getenv("KMERGE_ROOT"), os.getenv("NVIM_OUT")
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local config = { name = "kmerge", cmd = { bin, "lsp" }, root_dir = root }
if vim.lsp.start then
  vim.lsp.start(config)
else
  local id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(buf, id)
end
local got = vim.wait(30000, function() return #vim.diagnostic.get(buf) >= 2 end, 50)
local diags = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(diags, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity, message = d.message })
end
table.sort(diags, function(a, b) return a.lnum < b.lnum end)
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 2, character = 5 } }
local responses = vim.lsp.buf_request_sync(buf, "textDocument/completion", params, 30000) or {}
local labels = {}
for _, r in pairs(responses) do
  local items = r.result and (r.result.items or r.result) or {}
  for _, it in ipairs(items) do table.insert(labels, it.label) end
end
local f = io.open(out, "w")
f:write(vim.fn.json_encode({ waited = got, diagnostics = diags, completion = labels }))
f:close()
vim.cmd("qa!")
`

// TestNeovim drives a real editor: Neovim opens a .kpatch file of a copy
// of the testdata/lsp project with kmerge lsp as its language server. The
// diagnostics it shows and a completion it offers are checked. Where nvim
// is not installed the test skips, saying so, unless KMERGE_REQUIRE_NVIM=1
// (CI installs Neovim and sets it), which makes that a failure.
func TestNeovim(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the Neovim end-to-end test runs an editor")
	}
	nvim := neovim(t)
	bin := kmergeBinary(t)
	dir := t.TempDir()
	copyTree(t, "testdata/lsp", dir)
	file := filepath.Join(dir, "overrides", "e.kpatch")
	write(t, dir, "overrides/e.kpatch", "[deployment.web]\nreplicas: many\nspec.\n")
	lua := filepath.Join(dir, "test.lua")
	write(t, dir, "test.lua", nvimConfig)
	out := filepath.Join(dir, "out.json")
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+lua)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "KMERGE_BIN="+bin, "KPATCH_FILE="+file, "KMERGE_ROOT="+dir, "NVIM_OUT="+out,
		"HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home, "XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home)
	start := time.Now()
	output, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, output)
	}
	t.Logf("Neovim ran the session in %v", time.Since(start).Round(time.Millisecond))
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, output)
	}
	var res struct {
		Waited      bool `json:"waited"`
		Diagnostics []struct {
			Lnum, Col, EndLnum, EndCol, Severity int
			Message                              string
		} `json:"diagnostics"`
		Completion []string `json:"completion"`
	}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(strings.ReplaceAll(string(data), `"end_lnum"`, `"endlnum"`), `"end_col"`, `"endcol"`)), &res); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	if !res.Waited || len(res.Diagnostics) != 2 {
		t.Fatalf("Neovim shows %d diagnostics, want 2: %s", len(res.Diagnostics), data)
	}
	// replicas: many (line 1, "many" at 10-14); spec. (line 2, no
	// separator: the word it starts with, 0-4)
	want := []struct {
		lnum, col, endCol, severity int
		message                     string
	}{
		{1, 10, 14, 1, `"many" is not an integer`},
		{2, 0, 4, 1, `expected key: value or key = value`},
	}
	for i, w := range want {
		g := res.Diagnostics[i]
		if g.Lnum != w.lnum || g.Col != w.col || g.EndLnum != w.lnum || g.EndCol != w.endCol || g.Severity != w.severity || !strings.Contains(g.Message, w.message) {
			t.Errorf("diagnostic %d: %+v, want line %d, columns %d-%d, severity %d, %q", i, g, w.lnum, w.col, w.endCol, w.severity, w.message)
		}
	}
	found := false
	for _, l := range res.Completion {
		found = found || l == "template"
	}
	if !found {
		t.Errorf("completion after spec. does not offer template: %v", res.Completion)
	}
}

// neovim returns the path of nvim. Tests install nothing: where Neovim is
// missing the test skips, saying so, unless KMERGE_REQUIRE_NVIM=1 (.ci/run
// installs Debian's package and sets it), which makes that a failure.
func neovim(t *testing.T) string {
	p, err := exec.LookPath("nvim")
	if err == nil {
		return p
	}
	if os.Getenv("KMERGE_REQUIRE_NVIM") == "1" {
		t.Fatalf("Neovim is not installed (%v), and KMERGE_REQUIRE_NVIM=1 makes that a failure", err)
	}
	t.Skipf("Neovim is not installed (%v): install it (apt-get install neovim) to run this test; KMERGE_REQUIRE_NVIM=1 makes its absence a failure", err)
	return ""
}

// copyTree copies the files below src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		write(t, dst, rel, string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
