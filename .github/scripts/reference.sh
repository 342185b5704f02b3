#!/usr/bin/env bash
# Chooses what the searchbench jobs gate against and writes it to
# $GITHUB_ENV as REFERENCE_FLAG and REFERENCE:
#   - a pull request is judged against its base: the baseline committed at
#     the base commit, read from git (--baseline-ref), fetched here by SHA;
#   - a push to main is a release gate against the committed baseline
#     (--baseline reports/baseline.json).
# Inputs: EVENT (github.event_name) and BASE_SHA (the pull request's base).
set -euo pipefail
if [ "${EVENT:-}" = pull_request ]; then
	git fetch --no-tags --depth=1 origin "$BASE_SHA"
	{
		echo "REFERENCE_FLAG=--baseline-ref"
		echo "REFERENCE=$BASE_SHA"
	} >>"$GITHUB_ENV"
else
	{
		echo "REFERENCE_FLAG=--baseline"
		echo "REFERENCE=reports/baseline.json"
	} >>"$GITHUB_ENV"
fi
