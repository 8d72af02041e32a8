//go:build js && wasm

// Command wasm is kmerge's browser playground compiled to WebAssembly
// (web/build.sh builds it). It defines two JavaScript functions and waits
// for calls:
//
//	kmergeRun(json) string   a playground.Input as JSON in, a playground.Output as JSON out
//	kmergeInfo() string      {"schema": "built-in (k8s.io/api ...)", "go": "go1.26..."} as JSON
//
// and calls globalThis.kmergeReady(), when the page defined it, once they
// are. Everything else is internal/playground's, which has the tests.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"syscall/js"

	"github.com/kmerge/kmerge/internal/playground"
	"github.com/kmerge/kmerge/schema"
)

func main() {
	js.Global().Set("kmergeRun", js.FuncOf(run))
	js.Global().Set("kmergeInfo", js.FuncOf(info))
	if ready := js.Global().Get("kmergeReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // serve calls until the page goes away
}

// run is kmergeRun. A panic (a bug: playground.Run answers every input)
// becomes an error on the page instead of ending the program, which would
// leave the page dead.
func run(_ js.Value, args []js.Value) (result any) {
	defer func() {
		if r := recover(); r != nil {
			result = encode(playground.Output{Error: &playground.Message{
				Text: fmt.Sprintf("kmerge failed on this input (a bug; please report it with the share link): %v", r)}})
		}
	}()
	var in playground.Input
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return encode(playground.Output{Error: &playground.Message{Text: "kmergeRun takes one string, the input as JSON"}})
	}
	if err := json.Unmarshal([]byte(args[0].String()), &in); err != nil {
		return encode(playground.Output{Error: &playground.Message{Text: "kmergeRun: the input is not JSON: " + err.Error()}})
	}
	return encode(playground.Run(context.Background(), in))
}

// info is kmergeInfo.
func info(js.Value, []js.Value) any {
	b, _ := json.Marshal(map[string]string{"schema": schema.BuiltinVersion(), "go": runtime.Version()})
	return string(b)
}

func encode(out playground.Output) string {
	b, _ := json.Marshal(out) // strings, ints and slices of them: no error
	return string(b)
}
