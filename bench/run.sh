#!/usr/bin/env bash
# Runs the benchmark suite and the end-to-end comparison with kustomize,
# and writes docs/performance.md. Slow (20-40 minutes on 2 cores); not
# part of CI, which runs each benchmark once (.ci/run).
#
#   bash bench/run.sh                 # everything
#   COUNT=3 E2E_SIZES="1000:deployments:1" bash bench/run.sh
#   SKIP_E2E=1 bash bench/run.sh      # benchmarks only
#   SKIP_BENCH=1 E2E_APPEND=1 E2E_SIZES=10000:mixed:1:50 bash bench/run.sh
#                                     # one more end-to-end size, same benchmark results
#   BASELINE=e7cad0b bash bench/run.sh  # kmerge built from that commit too, side by side
#   SKIP_BENCH=1 E2E_SIZES= FN_SIZES=5000:10 BASELINE=e7cad0b bash bench/run.sh
#                                     # kmerge fn only, beside kmerge at that commit
#   SKIP_BENCH=1 E2E_SIZES= FN_SIZES= STREAM_SIZES="10000 100000" bash bench/run.sh
#                                     # one long stream only
#
# E2E_SIZES lists end-to-end runs as manifests:corpus:repetitions[:patches]:
# with patches (the sparse scenario), only that many manifests get a patch,
# spread evenly, and `cat` of the manifest files is timed (the copy floor);
# without, every manifest gets one and the yaml.v3 parse + emit floor is
# timed (for the crds corpus, one field of one CRD edited, always: its
# target is against that floor). Corpora: deployments, mixed, crds
# (controller-gen's style); -hand (a person's layout) and -commented (the
# same with a trailing comment on every line ending with a value, so the
# edited lines carry comments). kustomize takes about six minutes for the 10,000 manifests, so that
# one runs once. BASELINE names a commit whose kmerge runs beside the
# current one (its peak memory is the reference of the memory target).
# FN_SIZES lists kmerge fn runs as items:patches: a ResourceList of that
# many mixed manifests with the patches in its functionConfig (e2e gen's
# resourcelist.yaml), timed three times beside cat of it and BASELINE's
# kmerge fn. STREAM_SIZES lists the sizes of the one-stream scenario (e2e
# stream: that many small manifests in one YAML stream on standard input,
# ten .kpatch files patching half of them), each timed three times beside
# cat of the stream and yaml.v3's parse + emit of it. Every timed run
# records its wall time, peak memory and CPU time (user + system).
#
# Needs Go 1.26 and the Go module proxy; installs kustomize (v5.8.2, the
# newest that builds with Go 1.26 and kyaml v0.21.2) into a temporary
# GOBIN, and GNU time with apt-get when /usr/bin/time is missing.
set -euo pipefail
cd "$(dirname "$0")"
BENCH=$(pwd)
ROOT=$(cd .. && pwd)
COUNT=${COUNT:-6}
E2E_SIZES=${E2E_SIZES-"1000:deployments:3 1000:deployments-hand:3 1000:deployments-commented:3 1000:deployments-commented-crlf:3 50:crds:3:1 10000:mixed:1:50"}
FN_SIZES=${FN_SIZES-"5000:10"}
STREAM_SIZES=${STREAM_SIZES-"10000 25000 50000 100000"}
KUSTOMIZE_VERSION=v5.8.2
RESULTS=$BENCH/results
mkdir -p "$RESULTS"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

step() { printf '\n== %s\n' "$*" >&2; }

if [ -z "${SKIP_BENCH:-}" ]; then
  # COUNT rounds of every benchmark, rather than -count: the two sides of a
  # comparison run close together in time, so background load hits both.
  step "benchmarks ($COUNT rounds)"
  go test -c -o "$TMP/bench.test" .
  { go version; echo "cores: $(nproc)"; } | tee "$RESULTS/bench.txt" >&2
  for round in $(seq "$COUNT"); do
    step "round $round of $COUNT"
    "$TMP/bench.test" -test.run '^$' -test.bench . -test.benchmem -test.timeout 0 | tee -a "$RESULTS/bench.txt" >&2
  done
fi

[ -n "${E2E_APPEND:-}" ] || : > "$RESULTS/e2e.txt"
if [ -z "${SKIP_E2E:-}" ]; then
  if [ -n "$E2E_SIZES" ]; then
    step "kustomize $KUSTOMIZE_VERSION into $TMP/bin"
    (cd "$TMP" && GOWORK=off GOBIN="$TMP/bin" go install "sigs.k8s.io/kustomize/kustomize/v5@$KUSTOMIZE_VERSION")
  fi
  if [ ! -x /usr/bin/time ]; then
    step "GNU time"
    apt-get update -qq && apt-get install -y -qq time >/dev/null
  fi
  go build -o "$TMP/bin/kmerge" "$ROOT/cmd/kmerge"
  go build -o "$TMP/bin/e2e" ./cmd/e2e
  if [ -n "${BASELINE:-}" ]; then
    step "kmerge at $BASELINE"
    mkdir -p "$TMP/baseline"
    git -C "$ROOT" archive "$BASELINE" | tar -x -C "$TMP/baseline"
    (cd "$TMP/baseline" && GOWORK=off go build -o "$TMP/bin/kmerge-baseline" ./cmd/kmerge)
  fi
  # timed LABEL COMMAND...: runs the command in $dir, output to
  # $TMP/LABEL.out, and records its wall time, peak memory and CPU time
  timed() {
    local label=$1
    shift
    (cd "$dir" && /usr/bin/time -f '%e %M %U %S' -o "$TMP/time" "$@" > "$TMP/$label.out")
    read -r wall rss user sys < "$TMP/time"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    echo "n=$n corpus=$corpus patches=$patches tool=$label wall=$wall rss_kb=$rss cpu=$cpu${extra:-}" | tee -a "$RESULTS/e2e.txt" >&2
  }
  for size in $E2E_SIZES; do
    IFS=: read -r n corpus runs patches <<< "$size"
    patches=${patches:-$n}
    dir="$TMP/e2e-$n-$corpus-$patches"
    step "end to end: $n $corpus, $patches patches"
    "$TMP/bin/e2e" gen -n "$n" -corpus "$corpus" -patches "$patches" "$dir"
    for run in $(seq "${runs:-1}"); do
      timed kmerge "$TMP/bin/kmerge" apply -f manifests -p patches
      if [ -n "${BASELINE:-}" ]; then
        timed kmerge-baseline "$TMP/bin/kmerge-baseline" apply -f manifests -p patches
        cmp -s "$TMP/kmerge.out" "$TMP/kmerge-baseline.out" || { echo "kmerge and kmerge at $BASELINE differ" >&2; exit 1; }
      fi
      timed kustomize "$TMP/bin/kustomize" build .
      if [ "$patches" = "$n" ] || [[ $corpus == crds* ]]; then
        timed yaml.v3 "$TMP/bin/e2e" floor .
      else
        timed cat find manifests -type f -name '*.yaml' -exec cat {} +
      fi
    done
    check=$("$TMP/bin/e2e" compare "$TMP/kmerge.out" "$TMP/kustomize.out")
    echo "n=$n corpus=$corpus patches=$patches check=$check" | tee -a "$RESULTS/e2e.txt" >&2
  done
  for size in $FN_SIZES; do
    IFS=: read -r n patches <<< "$size"
    corpus=mixed
    dir="$TMP/fn-$n-$patches"
    step "kmerge fn: a ResourceList of $n items, $patches patches"
    "$TMP/bin/e2e" gen -n "$n" -corpus "$corpus" -patches "$patches" "$dir"
    for run in 1 2 3; do
      timed fn-kmerge sh -c '"$0" fn < resourcelist.yaml' "$TMP/bin/kmerge"
      if [ -n "${BASELINE:-}" ]; then
        timed fn-kmerge-baseline sh -c '"$0" fn < resourcelist.yaml' "$TMP/bin/kmerge-baseline"
        cmp -s "$TMP/fn-kmerge.out" "$TMP/fn-kmerge-baseline.out" || { echo "kmerge fn and kmerge fn at $BASELINE differ" >&2; exit 1; }
      fi
      timed fn-cat cat resourcelist.yaml
    done
  done
  for n in $STREAM_SIZES; do
    corpus=stream patches=10
    dir="$TMP/stream-$n"
    step "one stream of $n manifests, $patches patch files"
    "$TMP/bin/e2e" stream -n "$n" "$dir"
    extra=" bytes=$(wc -c < "$dir/stream.yaml")"
    for run in 1 2 3; do
      timed stream-kmerge sh -c '"$0" apply -f - -p patches < stream.yaml' "$TMP/bin/kmerge"
      if [ -n "${BASELINE:-}" ] && [ "$run" = 1 ]; then
        timed stream-kmerge-baseline sh -c '"$0" apply -f - -p patches < stream.yaml' "$TMP/bin/kmerge-baseline"
        cmp -s "$TMP/stream-kmerge.out" "$TMP/stream-kmerge-baseline.out" || { echo "kmerge and kmerge at $BASELINE differ" >&2; exit 1; }
      fi
      timed stream-cat cat stream.yaml
      timed stream-yaml.v3 "$TMP/bin/e2e" floor stream.yaml
    done
    extra=
  done
fi

step "docs/performance.md"
# into a temporary file next to the page, then renamed: a failing report
# leaves the page as it was
page=$(mktemp "$ROOT/docs/.performance.md.XXXXXX")
trap 'rm -rf "$TMP" "$page"' EXIT
go run ./cmd/report -bench "$RESULTS/bench.txt" -e2e "$RESULTS/e2e.txt" -template performance.md.tmpl > "$page"
chmod 644 "$page"
mv "$page" "$ROOT/docs/performance.md"
echo "wrote $ROOT/docs/performance.md" >&2
