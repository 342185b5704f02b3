#!/usr/bin/env bash
# Merges each output mode's shard reports (shards/shard-<mode>-<k>/) and
# gates the merged report with every rule against that mode's reference
# (reference.sh MODE). Writes merged/<mode>/ (report.json, report.md,
# junit.xml, report.html) and merged/report.md: the modes' report.md in
# turn, model first, for the job summary and the comment. The worst exit
# status (0 pass, 1 violated, 2 bad input, 3 stale or missing cassettes)
# goes to $GITHUB_OUTPUT as status.
set -uo pipefail
status=0
mkdir -p merged
: >merged/report.md
for mode in model structured; do
	code=0
	bin/searchbench merge -o "merged/$mode/report.json" --markdown "merged/$mode/report.md" \
		--junit "merged/$mode/junit.xml" --html "merged/$mode/report.html" --gates gates.yaml \
		"$REFERENCE_FLAG" "$(bash .github/scripts/reference.sh "$mode")" shards/shard-"$mode"-*/report.json || code=$?
	echo "searchbench merge --gates, mode $mode: exit $code"
	[ "$code" -le "$status" ] || status=$code
	if [ -f "merged/$mode/report.md" ]; then
		[ ! -s merged/report.md ] || printf '\n---\n\n' >>merged/report.md
		cat "merged/$mode/report.md" >>merged/report.md
	fi
done
echo "status=$status" >>"$GITHUB_OUTPUT"
