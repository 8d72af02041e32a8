package lsp

import "testing"

// TestHeaderRange: what a diagnostic at a header underlines runs to the
// header's end, before its comment, with the comment found as the parser
// finds it (syntax.StripComment): a # inside a quoted name starts none.
// The range was cut at the first " #", inside the quotes.
func TestHeaderRange(t *testing.T) {
	for text, want := range map[string]string{
		`[configmap."a #b".data] # c`: `[configmap."a #b".data]`,
		`[deployment.web]   # c`:      `[deployment.web]`,
		`  [deployment.web]`:          `  [deployment.web]`,
	} {
		b := len(text) - len(text[indexHeader(text):])
		if end := kpatchTokenEnd(text, b, nil); text[:end] != want {
			t.Errorf("%q: underlines to %q, want %q", text, text[:end], want)
		}
	}
}

// indexHeader is the offset of a header's [.
func indexHeader(text string) int {
	for i := range text {
		if text[i] == '[' {
			return i
		}
	}
	return 0
}
