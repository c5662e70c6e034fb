#!/usr/bin/env bash
# Runs the whole webauthn-l3 catalogue against one of the real Django passkey sites in this folder, through the
# site's own API map, as a user would run it against a deployed server:
#
#   Examples/DeployedServers/run.sh django-passkeys
#   Examples/DeployedServers/run.sh django-otp-webauthn [more run options, e.g. --filter 'webauthn.signCount.*']
#
# It makes the site's virtualenv if needed and starts the site on loopback with a fresh database (site.sh start),
# runs `attest-harness run --api NAME/api-map.json` with nothing in its environment but PATH, HOME and the
# accounts' password, writes the JSON report to NAME.json beside this script (or to $ATTEST_REPORT_DIR/NAME.json),
# prints the console report, and stops the site (always, on failure and on Ctrl-C too).
#
# Exit status: the run's (0 nothing failed, 1 findings or crashes, 2 a harness error or a usage error).
#
# Environment:
#   ATTEST_SITE_PASSWORD  the accounts' password (default: a random one for this run, never written to a file)
#   ATTEST_HARNESS        the attest-harness binary (default: built here with `swift build`)
#   ATTEST_REPORT_DIR     where NAME.json goes (default: beside this script)
#
# Works with bash 3.2 (macOS) and later.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

say() { printf '%s\n' "run.sh: $*" >&2; }

[ $# -ge 1 ] || { printf '%s\n' "usage: run.sh django-passkeys|django-otp-webauthn [run options]" >&2; exit 2; }
NAME=$1
shift
case "$NAME" in
    django-passkeys|django-otp-webauthn) ;;
    *) printf '%s\n' "run.sh: unknown site \"$NAME\" (django-passkeys, django-otp-webauthn)" >&2; exit 2 ;;
esac
MAP="$HERE/$NAME/api-map.json"
REPORT_DIR=${ATTEST_REPORT_DIR:-$HERE}
[ -d "$REPORT_DIR" ] || { say "ATTEST_REPORT_DIR $REPORT_DIR is not a directory"; exit 2; }
REPORT="$REPORT_DIR/$NAME.json"
# Never write through a link someone left where the report goes.
if [ -L "$REPORT" ]; then say "$REPORT is a symbolic link; not writing through it"; exit 2; fi

if [ -z "${ATTEST_SITE_PASSWORD:-}" ]; then
    ATTEST_SITE_PASSWORD=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')
    say "ATTEST_SITE_PASSWORD is not set: using a random password for this run"
fi
export ATTEST_SITE_PASSWORD

BIN=${ATTEST_HARNESS:-}
if [ -z "$BIN" ]; then
    say "building attest-harness"
    (cd "$ROOT" && swift build --product attest-harness >&2)
    BIN="$(cd "$ROOT" && swift build --show-bin-path)/attest-harness"
fi
[ -x "$BIN" ] || { say "no attest-harness at $BIN"; exit 2; }

stop() { "$HERE/site.sh" stop "$NAME" > /dev/null 2>&1 || true; }
trap 'stop' EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM

URL=$("$HERE/site.sh" start "$NAME")
say "$NAME is up at $URL; running webauthn-l3 through $NAME/api-map.json"

status=0
env -i PATH="$PATH" HOME="${HOME:-/tmp}" ATTEST_SITE_PASSWORD="$ATTEST_SITE_PASSWORD" \
    "$BIN" run --profile webauthn-l3 --verifier "$URL" --api "$MAP" --timeout 30 --progress never \
    --format json --out "$REPORT" "$@" || status=$?
if [ -f "$REPORT" ]; then
    "$BIN" report "$REPORT" --format console --color never --quiet || true
    say "JSON report: $REPORT"
fi
exit "$status"
