#!/usr/bin/env bash
# The Go benchmarks of replay + score at a pull request's base and at its
# head, and benchstat's comparison of the two, as markdown on stdout (the
# workflow's bench job appends it to the job summary).
#
#   bench.sh BASE_SHA
#
# For information only: timings on a shared runner are noise, so nothing
# here judges them and the job never fails on them. What is nearly
# deterministic (allocations per case, a flat heap) make test's guard
# checks (docs/performance.md, Guards).
#
# Each side is built from its own tree (the base in a temporary worktree)
# and replays the synthetic set its own generator makes
# (SEARCHBENCH_BENCH_N cases, 1,000 unless set). The runs alternate, base
# then head, BENCH_COUNT times (6), each benchmark BENCH_TIME long (3x: three
# replays of the set), so a runner whose speed drifts slows both alike.
set -euo pipefail
base=${1:?usage: bench.sh BASE_SHA}
count=${BENCH_COUNT:-6}
benchtime=${BENCH_TIME:-3x}
pattern='^Benchmark(ReplayScore|CachedReplayScore|DecodeFloor|CachedFloor)$'

repo=$PWD
work=$(mktemp -d)
# Cleaning up never changes the script's exit status (the summary is written
# by then) and needs no working folder of its own.
cleanup() {
	local status=$?
	cd /
	git -C "$repo" worktree remove --force "$work/base" >/dev/null 2>&1 || true
	rm -rf "$work" || true
	git -C "$repo" worktree prune >/dev/null 2>&1 || true
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

git cat-file -e "$base^{commit}" 2>/dev/null || git fetch --quiet --no-tags --depth=1 origin "$base"
git worktree add --quiet --detach "$work/base" "$base"
echo "### Benchmarks: replay + score, base ${base:0:12} against this pull request"
echo
if ! (cd "$work/base" && go test -c -o "$work/base.test" ./eval/synth) >"$work/build.log" 2>&1; then
	echo "The base has no eval/synth benchmarks to compare with (\`go test -c ./eval/synth\` failed there):"
	echo
	echo '```'
	tail -n 20 "$work/build.log"
	echo '```'
	exit 0
fi
go test -c -o "$work/head.test" ./eval/synth
go build -o "$work/benchstat" golang.org/x/perf/cmd/benchstat # go.mod's tool
for _ in $(seq "$count"); do
	(cd "$work/base/eval/synth" && "$work/base.test" -test.run '^$' -test.bench "$pattern" -test.benchtime "$benchtime") >>"$work/base.txt"
	(cd eval/synth && "$work/head.test" -test.run '^$' -test.bench "$pattern" -test.benchtime "$benchtime") >>"$work/head.txt"
done
cd "$work"
echo "$count alternating runs of each side, ${SEARCHBENCH_BENCH_N:-1000} synthetic cases, one goroutine;"
echo "ns/case and allocs/case are per case of the set. Timings on a shared runner are"
echo "noise: read them, never gate on them (\`make guard\` checks the allocations)."
echo
echo '```'
./benchstat base.txt head.txt
echo '```'
