#!/usr/bin/env bash
# The A/A test of the gate (make aa): re-record the UNCHANGED prompt RUNS
# times with fresh seeds, as a live model draws fresh samples, and gate each
# recording against the baseline with the gates file. The share of runs
# that fail is the gate's false-alarm rate on your own data: a gate worth
# trusting fails an unchanged prompt rarely (docs/statistics.md).
#
# Everything happens in a copy of the tree: the working cassettes, reports
# and baseline are never touched.
#
#   RUNS      re-recordings (20)
#   SEED      the first base seed (1001); run i records with SEED+i-1
#   SAMPLES   samples per case of each re-recording (5)
#   FILTER    the cases re-recorded (dataset:routing)
#   BACKEND   sim (free, the default) or live (costs money: see CONFIRM)
#   VARIANT   the prompt variant (seed)
#   POLICY    the simulator policy (the variant's own); another policy makes
#             it a power check: careless, breaks-three
#   BASELINE  the baseline to gate against (reports/baseline.json); RECORD_BASELINE=SEED
#             re-records the baseline first, with that base seed and
#             BASELINE_SAMPLES (10) samples, and gates against it
#   GATES     the gates file (gates.yaml)
#   CONFIRM   BACKEND=live prints record --estimate of every run and stops
#             unless CONFIRM=yes
#   SEARCHBENCH  the binary (searchbench on PATH)
set -euo pipefail

sb=${SEARCHBENCH:-searchbench}
runs=${RUNS:-20}
first=${SEED:-1001}
samples=${SAMPLES:-5}
filter=${FILTER:-dataset:routing}
backend=${BACKEND:-sim}
variant=${VARIANT:-seed}
policy=${POLICY:-}
baseline=${BASELINE:-reports/baseline.json}
gates=${GATES:-gates.yaml}

case "$sb" in /*) ;; */*) sb="$PWD/$sb" ;; esac
command -v "$sb" >/dev/null || { echo "aa: $sb not found (make aa builds bin/searchbench)" >&2; exit 2; }
[ -r "$gates" ] || { echo "aa: gates file $gates not found" >&2; exit 2; }
[ -n "${RECORD_BASELINE:-}" ] || [ -r "$baseline" ] || { echo "aa: baseline $baseline not found (make baseline)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/searchbench-aa.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$work"
else
	tar -cf - . | tar -xf - -C "$work"
fi
mkdir -p "$work/.aa"
[ -n "${RECORD_BASELINE:-}" ] || cp "$baseline" "$work/.aa/baseline.json"
# The gates file where it is: the files it names (the judges' calibration
# report, the accepted regressions) are read beside it.
gates=$(cd "$(dirname "$gates")" && pwd)/$(basename "$gates")
cd "$work"

policyflag=()
[ -n "$policy" ] && policyflag=(--sim-policy "$policy")
record() { # base seed, samples
	"$sb" record --backend "$backend" "${policyflag[@]}" --variant "$variant" --seed "$1" --samples "$2" --filter "$filter" "${@:3}"
}

if [ "$backend" = live ] && [ "${CONFIRM:-}" != yes ]; then
	echo "aa: each of the $runs runs records the cases of --filter $filter with $samples samples:"
	record "$first" "$samples" --estimate
	echo "aa: that, times $runs runs. Run again with CONFIRM=yes to record them."
	exit 0
fi

if [ -n "${RECORD_BASELINE:-}" ]; then
	# A fresh baseline: the unchanged prompt recorded anew, as the base of a
	# pull request would be.
	record "$RECORD_BASELINE" "${BASELINE_SAMPLES:-10}" >/dev/null
	"$sb" run --quiet --out .aa/base --runs "" --variant "$variant" >/dev/null
	mv .aa/base/report.json .aa/baseline.json
	echo "aa: baseline re-recorded with seed $RECORD_BASELINE, ${BASELINE_SAMPLES:-10} samples"
fi

failed=0 errors=0
for i in $(seq 1 "$runs"); do
	seed=$((first + i - 1))
	if ! rec=$(record "$seed" "$samples" 2>&1); then
		echo "aa: run $i: record --seed $seed failed:" >&2
		printf '%s\n' "$rec" >&2
		exit 3
	fi
	rc=0
	out=$("$sb" run --quiet --out "" --runs "" --variant "$variant" --gates "$gates" --baseline .aa/baseline.json 2>&1) || rc=$?
	verdict=$(printf '%s\n' "$out" | sed -n '/^gate:/,$p' | tr -s ' \n' ' ' | sed 's/ *$//')
	case $rc in
	0) ;;
	1) failed=$((failed + 1)) ;;
	*) errors=$((errors + 1)); verdict="exit $rc: $(printf '%s\n' "$out" | head -3 | tr '\n' ' ')" ;;
	esac
	echo "run $i/$runs seed $seed: $verdict"
done

# The false-alarm rate with its Wilson 95% interval.
who=$policy
[ -n "$who" ] || who="of the variant"
awk -v f="$failed" -v n="$runs" -v p="$who" 'BEGIN {
	z = 1.959964; r = f / n; d = 1 + z*z/n; c = (r + z*z/(2*n)) / d
	h = z * sqrt(r*(1-r)/n + z*z/(4*n*n)) / d; lo = c - h; hi = c + h
	if (lo < 0 || f == 0) lo = 0; if (hi > 1 || f == n) hi = 1
	printf "aa: %d of %d runs failed the gate (%.0f%%, 95%% CI %.1f–%.1f%%), policy %s\n", f, n, 100*r, 100*lo, 100*hi, p
}'
[ "$errors" -eq 0 ] || { echo "aa: $errors run(s) could not be judged" >&2; exit 3; }
