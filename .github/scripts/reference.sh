#!/usr/bin/env bash
# What the searchbench jobs gate against.
#
#   reference.sh        reads EVENT (github.event_name) and BASE_SHA (the pull
#                       request's base) and writes REFERENCE_FLAG and
#                       REFERENCE_AT to $GITHUB_ENV:
#     - a pull request is judged against its base: --baseline-ref, at the
#       base commit (the checkout has the whole history; fetched by SHA
#       only when it is missing);
#     - a push to main is the release gate: --baseline, the committed files.
#   reference.sh MODE   prints the reference of an output mode's baseline for
#                       that flag: reports/baseline.json (model) or
#                       reports/baseline.structured.json (structured), with
#                       "<commit>:" before it against a base.
set -euo pipefail
if [ $# -gt 0 ]; then
	case $1 in
	model) file=reports/baseline.json ;;
	structured) file=reports/baseline.structured.json ;;
	*)
		echo "reference.sh: unknown output mode $1 (model or structured)" >&2
		exit 2
		;;
	esac
	echo "${REFERENCE_AT:+$REFERENCE_AT:}$file"
	exit 0
fi
if [ "${EVENT:-}" = pull_request ]; then
	git cat-file -e "$BASE_SHA^{commit}" 2>/dev/null || git fetch --no-tags --depth=1 origin "$BASE_SHA"
	{
		echo "REFERENCE_FLAG=--baseline-ref"
		echo "REFERENCE_AT=$BASE_SHA"
	} >>"$GITHUB_ENV"
else
	{
		echo "REFERENCE_FLAG=--baseline"
		echo "REFERENCE_AT="
	} >>"$GITHUB_ENV"
fi
