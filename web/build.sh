#!/usr/bin/env bash
# Builds the playground into a folder that any static file server can serve:
#   bash web/build.sh [OUT]      (OUT: web/dist by default)
# OUT gets index.html, playground.js, playground.css, kmerge.wasm (kmerge
# compiled with GOOS=js GOARCH=wasm from web/wasm) and the wasm_exec.js of
# the Go that built it (they must match), LICENSE.txt and
# THIRD_PARTY_NOTICES.txt. Prints the sizes.
set -euo pipefail
web="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$web/dist}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

cd "$web/.."
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/kmerge.wasm.tmp" ./web/wasm
mv "$out/kmerge.wasm.tmp" "$out/kmerge.wasm"

root="$(go env GOROOT)"
exec_js="$root/lib/wasm/wasm_exec.js" # Go 1.24 and later
[ -f "$exec_js" ] || exec_js="$root/misc/wasm/wasm_exec.js"
cp "$exec_js" "$out/wasm_exec.js"
cp "$web/index.html" "$web/playground.js" "$web/playground.css" "$out/"
# kmerge's license and the notices of the third-party code in kmerge.wasm
# and wasm_exec.js (hack/notices writes them), linked from the page
cp LICENSE "$out/LICENSE.txt"
cp THIRD_PARTY_NOTICES.txt "$out/"

raw=$(wc -c <"$out/kmerge.wasm")
gz=$(gzip -9 -c "$out/kmerge.wasm" | wc -c)
echo "playground built in $out: kmerge.wasm $((raw / 1024)) KiB, $((gz / 1024)) KiB gzipped ($(go env GOVERSION))"
