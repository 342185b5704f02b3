#!/usr/bin/env bash
# Posts FILE as this workflow's comment on the pull request: it edits the
# comment the workflow posted before, found by the marker line FILE starts
# with and by its author (never "the last comment", which may be another
# bot's), or posts a new one. Inputs: GH_TOKEN, PR (number), REPO
# (owner/name).
set -euo pipefail
file=$1
marker=$(head -n 1 "$file")
case $marker in
'<!-- '*' -->') ;;
*)
	echo "comment.sh: $file does not start with a marker line (<!-- ... -->)" >&2
	exit 2
	;;
esac
id=$(gh api --paginate "repos/$REPO/issues/$PR/comments" \
	--jq ".[] | select(.user.login == \"github-actions[bot]\" and (.body | startswith(\"$marker\"))) | .id" | head -n 1)
if [ -n "$id" ]; then
	gh api --method PATCH "repos/$REPO/issues/comments/$id" -F "body=@$file" >/dev/null
	echo "edited comment $id"
else
	gh pr comment "$PR" --body-file "$file"
fi
