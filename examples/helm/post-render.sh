#!/bin/sh
# A Helm post-renderer: Helm writes the rendered manifests to standard input
# and installs what this writes to standard output.
#
#   helm install shop ./chart --post-renderer ./examples/helm/post-render.sh
#
# kmerge must be on PATH (go install github.com/kmerge/kmerge/cmd/kmerge@latest).
set -eu
exec kmerge apply -f - -p "$(dirname "$0")/overrides" --strict
