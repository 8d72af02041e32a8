#!/bin/sh
# A Helm post-renderer: Helm writes the rendered manifests to standard input
# and installs what this writes to standard output. Helm 4 runs it as the
# kmerge plugin (plugin.yaml beside it), Helm 3 by its path:
#
#   helm template shop ./chart --post-renderer kmerge --post-renderer-args=--patches=overrides
#   helm template shop ./chart --post-renderer ./post-render.sh --post-renderer-args=--patches=overrides
#
# The arguments go to kmerge apply: --patches (-p) names the patches, and
# --values, --set and --feature work as they do there. Without --patches,
# kmerge.yaml in the folder Helm runs in (or a parent) gives them. --strict:
# a patch that no longer matches the chart (a container renamed upstream)
# fails the install instead of passing silently; --strict=false turns it
# off. kmerge must be on PATH, or named by $KMERGE.
#
# kmerge's messages: Helm 3 shows them when the post-renderer fails, and
# drops them when it succeeds (warnings); Helm 4 (4.3.1) drops them always,
# saying only 'plugin "kmerge" exited with error'. So under Helm 4 they go
# to the terminal when there is one; $KMERGE_STDERR names a file to append
# them to instead, under either Helm (CI logs).
set -eu
if [ -n "${KMERGE_STDERR:-}" ]; then
  exec 2>>"$KMERGE_STDERR"
elif [ -n "${HELM_PLUGIN_NAME:-}" ] && (exec 3>/dev/tty) 2>/dev/null; then
  exec 2>/dev/tty
fi
exec "${KMERGE:-kmerge}" apply -f - --strict "$@"
