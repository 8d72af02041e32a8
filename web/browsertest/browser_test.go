// Package browsertest tests the playground (web/) in a real browser:
// headless Chromium, driven over the DevTools protocol by chromedp. It is a
// module of its own so that the library's go.mod stays free of chromedp.
//
// The test needs Chromium (Debian's package chromium, or KMERGE_CHROMIUM
// naming a binary). Without one it skips, saying so, unless
// KMERGE_REQUIRE_BROWSER=1, which CI sets: there a missing browser fails.
// KMERGE_SCREENSHOT=FILE writes the screenshot it takes to FILE
// (docs/playground.png is one).
package browsertest

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// state is what the page keeps in its URL: playground.Input's JSON.
type state struct {
	Manifests   string `json:"manifests"`
	Patches     string `json:"patches"`
	PatchFormat string `json:"patchFormat"`
	Values      string `json:"values"`
	Features    string `json:"features"`
	Schema      string `json:"schema"`
	Explain     string `json:"explain"`
	Strict      bool   `json:"strict"`
	ShowSecrets bool   `json:"showSecrets"`
}

// TestPlayground builds the playground with web/build.sh, serves it, and
// uses it as a person would:
//
//  1. the page loads with its example, and shows the example's result; the
//     other examples of the menu give theirs, without warnings;
//  2. a patch is typed: the result, the diff and explain follow;
//  3. a broken patch is typed: the error shows with its position
//     (patches.kpatch:LINE:COL, the line quoted, a caret), the line is marked
//     in the editor, and a click on the message selects it;
//  4. a screenshot is taken;
//  5. the page's URL, opened in a new tab, restores everything typed; so do
//     URLs made here with Go's own deflate (#z=) and without compression
//     (#j=), which shows that the format is what docs/playground.md says.
func TestPlayground(t *testing.T) {
	browser := findChromium(t)
	dist := t.TempDir()
	build := exec.Command("bash", "../build.sh", dist)
	build.Stderr = os.Stderr
	out, err := build.Output()
	if err != nil {
		t.Fatalf("web/build.sh: %v", err)
	}
	t.Logf("%s", bytes.TrimSpace(out))
	srv := httptest.NewServer(http.FileServer(http.Dir(dist)))
	defer srv.Close()
	checkLicenseFiles(t, srv.URL)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser),
		chromedp.NoSandbox, // root in CI containers
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelTime()
	pageErrors := watchErrors(ctx)

	// 1. the example
	do(t, ctx, "load the page",
		chromedp.Navigate(srv.URL+"/"),
		waitFor(`document.body.dataset.state === "ok"`),
	)
	result := text(t, ctx, "#result")
	for _, want := range []string{"  replicas: 3\n", "image: registry.example.com/shop/web:1.5.0\n", "    port: 8080\n"} {
		if !strings.Contains(result, want) {
			t.Errorf("the example's result has no %q:\n%s", want, result)
		}
	}
	if s := text(t, ctx, "#status"); !strings.HasPrefix(s, "2 objects · 4 patches · 0 warnings · 0 conflicts · ") {
		t.Errorf("status: %q", s)
	}

	// the other examples work, without warnings: the Service gets UDP/53
	// next to TCP/53 ($patchMergeKey), the ConfigMap loses region and gets
	// owner from the values; with its CRD, the Widget's parts merge by name
	for _, ex := range []struct {
		name string
		want []string
	}{
		{"list", []string{"  - {name: dns-tcp, port: 53, protocol: TCP}\n", "name: dns-udp\n", "  owner: platform\n"}},
		{"crd", []string{"  - name: frame\n    color: gold\n", "  - name: light\n    color: white\n", "name: glow"}},
		{"kpatch", []string{"  replicas: 3\n"}},
	} {
		do(t, ctx, "load the example "+ex.name,
			chromedp.SetValue(chromedp.CSS("#example"), ex.name),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("example").dispatchEvent(new Event("change"))`),
			waitFor(`document.body.dataset.state === "ok"`),
		)
		r := text(t, ctx, "#result")
		for _, want := range ex.want {
			if !strings.Contains(r, want) {
				t.Errorf("example %s: no %q in the result:\n%s", ex.name, want, r)
			}
		}
		if s := text(t, ctx, "#status"); !strings.Contains(s, " · 0 warnings · 0 conflicts · ") {
			t.Errorf("example %s: %s", ex.name, s)
		}
	}

	// 2. a patch, typed
	patch := "[deployment.shop]\nreplicas: 5\n"
	do(t, ctx, "type a patch",
		retype("#patches", patch),
		waitFor(`document.getElementById("result").textContent.includes("replicas: 5\n")`),
	)
	if got := value(t, ctx, "#patches"); got != patch {
		t.Errorf("the patches pane holds %q, typed %q", got, patch)
	}
	do(t, ctx, "show the diff", chromedp.Click(chromedp.CSS("#tab-diff")))
	diff := text(t, ctx, "#diff")
	if want := "--- a/manifests.yaml\n+++ b/manifests.yaml\n@@ -4,7 +4,7 @@\n   name: shop\n   labels: {app: shop}\n spec:\n-  replicas: 1\n+  replicas: 5\n"; !strings.HasPrefix(diff, want) {
		t.Errorf("diff:\n%s\nwant it to start with:\n%s", diff, want)
	}
	do(t, ctx, "ask explain about service ports",
		retype("#explain", "service.spec.ports"),
		waitFor(`document.getElementById("explainOut").textContent.includes("PATH:     spec.ports")`),
	)
	if ex := text(t, ctx, "#explainOut"); !strings.Contains(ex, "RECOMMENDED KEYS:  port, protocol") {
		t.Errorf("explain service.spec.ports:\n%s", ex)
	}

	// 3. a broken patch: "many" is not an integer
	broken := "\n[deployment.shop.containers.name=web]\nimage: nginx:1.27\n\n[deployment.shop]\nreplicas: many\n"
	do(t, ctx, "type a broken patch",
		chromedp.Click(chromedp.CSS("#tab-result")),
		chromedp.SendKeys(chromedp.CSS("#patches"), broken),
		waitFor(`document.body.dataset.state === "error"`),
	)
	msg := text(t, ctx, "#messages li.error .text")
	if want := `patches.kpatch:8:11: apps/v1 Deployment shop: spec.replicas is an integer (schema type integer/int32); "many" is not an integer`; msg != want {
		t.Errorf("error message:\n%s\nwant:\n%s", msg, want)
	}
	if q := text(t, ctx, "#messages li.error pre"); q != "  replicas: many\n            ^" {
		t.Errorf("the quoted line: %q", q)
	}
	if s := text(t, ctx, "#status"); s != "error in patches.kpatch:8" {
		t.Errorf("status: %q", s)
	}
	// the line is marked in the patches editor, and only there
	marked := eval[[]string](t, ctx, `[...document.querySelectorAll(".gutter .err")].map(e => e.closest(".pane").dataset.file + ":" + e.textContent)`)
	if strings.Join(marked, " ") != "patches:8" {
		t.Errorf("marked lines: %v, want patches:8", marked)
	}
	// a click on the message selects the line from the column on
	do(t, ctx, "click the error", chromedp.Click(chromedp.CSS("#messages li.error")))
	selected := eval[string](t, ctx, `(() => { const ta = document.getElementById("patches"); return document.activeElement === ta ? ta.value.slice(ta.selectionStart, ta.selectionEnd) : "(not focused)"; })()`)
	if selected != "many" {
		t.Errorf("a click on the error selected %q, want \"many\"", selected)
	}

	// 4. the screenshot
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	checkScreenshot(t, shot)

	// 5. the state, shared by URL
	do(t, ctx, "wait for the URL", waitFor(`location.hash.startsWith("#z=")`))
	url := eval[string](t, ctx, `location.href`)
	// the share button copies it, or shows it when the clipboard is closed
	do(t, ctx, "share",
		chromedp.Click(chromedp.CSS("#share")),
		waitFor(`document.getElementById("shared").textContent !== "" || document.querySelector("#shared input") !== null`),
	)
	shared := eval[string](t, ctx, `(document.querySelector("#shared input") || {}).value || document.getElementById("shared").textContent`)
	if shared != url && shared != fmt.Sprintf("Link copied (%d characters)", len(url)) {
		t.Errorf("share: %q, for the URL %s", shared, url)
	}
	t.Logf("share: %.60s (the URL has %d characters)", shared, len(url))
	typed := state{
		Manifests: value(t, ctx, "#manifests"), Patches: patch + broken, PatchFormat: "kpatch",
		Values: "replicas: 3\nversion: \"1.5.0\"\n", Explain: "service.spec.ports",
	}
	if got := decodeURL(t, url); got != typed {
		t.Errorf("the URL holds %+v\nwant %+v", got, typed)
	}
	restored(t, ctx, "the page's own URL", url, typed, "error")

	fixed := typed
	fixed.Patches = "- target: deployment.shop\n  type: strategic\n  patch:\n    spec:\n      replicas: 7\n"
	fixed.PatchFormat = "yaml"
	fixed.Strict = true
	fixed.ShowSecrets = true
	fixed.Explain = ""
	r := restored(t, ctx, "a #z= URL made with Go's deflate", srv.URL+"/#z="+encode(t, fixed, true), fixed, "ok")
	if !strings.Contains(r, "  replicas: 7\n") {
		t.Errorf("the result of the #z= URL's state:\n%s", r)
	}
	fixed.Values = "just: plain\n"
	fixed.Features = "canary=true"
	restored(t, ctx, "a #j= URL, not compressed", srv.URL+"/#j="+encode(t, fixed, false), fixed, "ok")

	if e := pageErrors.String(); e != "" {
		t.Errorf("the page reported errors:\n%s", e)
	}
}

// restored opens url in a new tab of the browser of ctx, checks that the
// page shows the state s and ends in the given state ("ok" or "error"), and
// returns the result it shows.
func restored(t *testing.T, ctx context.Context, what, url string, s state, end string) string {
	t.Helper()
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	errs := watchErrors(tab)
	do(t, tab, "open "+what,
		chromedp.Navigate(url),
		waitFor(`document.body.dataset.state === "ok" || document.body.dataset.state === "error"`),
	)
	if runs := eval[string](t, tab, `document.body.dataset.state + " " + document.body.dataset.runs`); runs != end+" 1" {
		t.Errorf("%s: the page is %q after loading, want %q", what, runs, end+" 1")
	}
	got := state{
		Manifests: value(t, tab, "#manifests"), Patches: value(t, tab, "#patches"),
		PatchFormat: eval[string](t, tab, `document.getElementById("patchFormat").value`),
		Values:      value(t, tab, "#values"), Features: value(t, tab, "#features"),
		Schema: value(t, tab, "#schema"), Explain: value(t, tab, "#explain"),
		Strict:      eval[bool](t, tab, `document.getElementById("strict").checked`),
		ShowSecrets: eval[bool](t, tab, `document.getElementById("showSecrets").checked`),
	}
	if got != s {
		t.Errorf("%s: the page holds\n%+v\nwant\n%+v", what, got, s)
	}
	if e := errs.String(); e != "" {
		t.Errorf("%s: the page reported errors:\n%s", what, e)
	}
	return text(t, tab, "#result")
}

// encode makes a URL fragment's value as docs/playground.md describes it:
// the state's JSON, compressed with raw deflate (RFC 1951) or not, in
// base64url without padding.
func encode(t *testing.T, s state, compress bool) string {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if compress {
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, flate.BestCompression)
		w.Write(data)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data = b.Bytes()
	}
	return base64.RawURLEncoding.EncodeToString(data)
}

// decodeURL reads the state out of a URL the page made.
func decodeURL(t *testing.T, url string) state {
	t.Helper()
	_, frag, ok := strings.Cut(url, "#z=")
	if !ok {
		t.Fatalf("no #z= in %s", url)
	}
	data, err := base64.RawURLEncoding.DecodeString(frag)
	if err != nil {
		t.Fatalf("the URL's fragment: %v", err)
	}
	data, err = io.ReadAll(flate.NewReader(bytes.NewReader(data)))
	if err != nil {
		t.Fatalf("the URL's fragment is no raw deflate: %v", err)
	}
	var s state
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("the URL's state: %v\n%s", err, data)
	}
	return s
}

// checkScreenshot checks that the screenshot is a PNG of the window's size
// with something on it, and writes it to $KMERGE_SCREENSHOT when set.
func checkScreenshot(t *testing.T, shot []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	b := img.Bounds()
	colours := map[uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	if b.Dx() < 1000 || b.Dy() < 700 || len(colours) < 20 {
		t.Errorf("the screenshot is %dx%d with %d colours: not the page", b.Dx(), b.Dy(), len(colours))
	}
	if name := os.Getenv("KMERGE_SCREENSHOT"); name != "" {
		if err := os.WriteFile(name, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot written to %s", name)
	}
}

// findChromium returns the browser to test with, or skips the test (fails
// it with KMERGE_REQUIRE_BROWSER=1).
func findChromium(t *testing.T) string {
	if p := os.Getenv("KMERGE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "no Chromium to test the playground in: apt-get install chromium, or set KMERGE_CHROMIUM to a Chromium or Chrome binary"
	if os.Getenv("KMERGE_REQUIRE_BROWSER") == "1" {
		t.Fatal(msg + " (KMERGE_REQUIRE_BROWSER=1: a missing browser is a failure)")
	}
	t.Skip(msg)
	return ""
}

// do runs chromedp actions, failing the test with what they were for and
// what the page shows.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.dataset.state + ": " + document.getElementById("status").textContent + "\n" + document.getElementById("messages").innerText`))
		t.Fatalf("%s: %v\nthe page: %s", what, err, page)
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// retype replaces the text of a field by typing: select all, delete, type.
func retype(sel, text string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Focus(chromedp.CSS(sel)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent(kb.Backspace),
		chromedp.SendKeys(chromedp.CSS(sel), text),
	)
}

// waitFor waits until the page has run kmerge on what was typed last and a
// JavaScript expression is true.
func waitFor(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](`document.body.dataset.pending === "0" && (`+expr+`)`, chromedp.WithPollingTimeout(30*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q).textContent`, sel))
}

func value(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q).value`, sel))
}

// pageLog collects the uncaught exceptions and console errors of a page.
type pageLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *pageLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// watchErrors collects the console's errors and warnings and the uncaught
// exceptions of the tab of ctx.
func watchErrors(ctx context.Context) *pageLog {
	l := &pageLog{}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			switch m.Type {
			case chromedp.ConsoleError, chromedp.ConsoleWarning, chromedp.ConsoleException:
				l.mu.Lock()
				l.lines = append(l.lines, m.String())
				l.mu.Unlock()
			}
		}
	}()
	return l
}

// checkLicenseFiles checks that the built playground serves kmerge's
// license and the third-party notices as the repository has them (the
// page's footer links them).
func checkLicenseFiles(t *testing.T, base string) {
	t.Helper()
	for served, repo := range map[string]string{"LICENSE.txt": "LICENSE", "THIRD_PARTY_NOTICES.txt": "THIRD_PARTY_NOTICES.txt"} {
		want, err := os.ReadFile(filepath.Join("..", "..", repo))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get(base + "/" + served)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
			t.Errorf("/%s: status %d, %d bytes (%v); want the repository's %s (%d bytes)", served, resp.StatusCode, len(got), err, repo, len(want))
		}
	}
	index, err := os.ReadFile("../index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{`href="LICENSE.txt"`, `href="THIRD_PARTY_NOTICES.txt"`} {
		if !bytes.Contains(index, []byte(link)) {
			t.Errorf("index.html does not link %s", link)
		}
	}
}
