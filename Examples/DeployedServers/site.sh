#!/usr/bin/env bash
# Starts and stops the Django passkey test sites in this folder, for attest-harness to drive over HTTP.
#
#   ATTEST_SITE_PASSWORD=... Examples/DeployedServers/site.sh start NAME   # prints the base URL, http://localhost:PORT
#   Examples/DeployedServers/site.sh stop NAME
#   Examples/DeployedServers/site.sh status NAME
#
# NAME is a folder beside this script (django-passkeys, django-otp-webauthn). `start` creates the virtualenv
# .build/deployed-venv/NAME under the repository root from NAME/requirements.txt if it is absent (or if
# requirements.txt changed since), makes a fresh temp dir holding the SQLite database, the pid file and the logs,
# migrates, creates the users alice and bob with the password in ATTEST_SITE_PASSWORD, starts gunicorn on
# 127.0.0.1:PORT in the background in a process group of its own, and waits up to 30 s for it to answer.
# `stop` ends that process group and removes the temp dir.
#
# Environment:
#   ATTEST_SITE_PASSWORD  password of alice and bob (required by start; never written to a file)
#   ATTEST_SITE_PORT      port (default: 8741 for django-passkeys, 8742 for django-otp-webauthn). The sites'
#                         WebAuthn origin is http://localhost:PORT, so use that host name, not 127.0.0.1.
#   PYTHON                the Python that creates the virtualenv (default python3; Django 5.2 needs 3.10+)
#
# Works with bash 3.2 (macOS) and later.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
STATE_DIR="$ROOT/.build/deployed-sites"

say() { printf '%s\n' "site.sh: $*" >&2; }
die() { say "$*"; exit 1; }

usage() {
    printf '%s\n' "usage: site.sh start|stop|status NAME   (NAME: django-passkeys, django-otp-webauthn)" >&2
    exit 2
}

default_port() {
    case "$1" in
        django-passkeys) echo 8741 ;;
        django-otp-webauthn) echo 8742 ;;
        *) echo 8740 ;;
    esac
}

# True while the process group $1 has a member that is not a zombie.
group_alive() {
    ps -A -o pgid= -o stat= 2>/dev/null | awk -v g="$1" '$1 == g && $2 !~ /Z/ { found = 1 } END { exit !found }'
}

# True while the process $1 runs (a zombie counts as ended).
proc_alive() {
    local st
    st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
    case "$st" in
        ''|*Z*) return 1 ;;
    esac
    return 0
}

# True if $1 is a live process that still leads its own process group (so it is ours, not a reused pid).
is_group_leader() {
    local pgid
    proc_alive "$1" || return 1
    pgid=$(ps -o pgid= -p "$1" 2>/dev/null | tr -d ' ') || return 1
    [ -n "$pgid" ] && [ "$pgid" = "$1" ]
}

# True while the process group led by $1, or the process $1 itself, is alive.
anything_alive() {
    group_alive "$1" || proc_alive "$1"
}

# Sends signal $2 to the process group led by $1, and to $1 itself in case it has not made its group yet.
signal_group() {
    kill "-$2" -- "-$1" 2>/dev/null || true
    kill "-$2" "$1" 2>/dev/null || true
}

# Ends the process group led by $1: SIGTERM, up to 10 s, then SIGKILL.
kill_group() {
    local pid=$1 i=0
    anything_alive "$pid" || return 0
    signal_group "$pid" TERM
    while anything_alive "$pid" && [ $i -lt 50 ]; do
        sleep 0.2
        i=$((i + 1))
    done
    if anything_alive "$pid"; then
        say "process group $pid did not stop on SIGTERM; sending SIGKILL"
        signal_group "$pid" KILL
        sleep 0.2
    fi
    # Reap it if it is our child (start's failure path); harmless otherwise.
    wait "$pid" 2>/dev/null || true
}

# Removes a temp dir this script made (and nothing else).
remove_tmp() {
    case "$1" in
        */attest-site-"$NAME".*) rm -rf "$1" ;;
        *) say "not removing $1: not a temp dir of this script" ;;
    esac
}

# Stops what the state file of NAME records, if anything.
stop_site() {
    local tmp pid
    [ -f "$STATE_FILE" ] || return 1
    tmp=$(cat "$STATE_FILE")
    if [ -f "$tmp/server.pid" ]; then
        pid=$(cat "$tmp/server.pid")
        if is_group_leader "$pid"; then
            kill_group "$pid"
        elif group_alive "$pid"; then
            # The leader has exited but members of its group are left.
            kill_group "$pid"
        fi
    fi
    [ -n "$tmp" ] && [ -d "$tmp" ] && remove_tmp "$tmp"
    rm -f "$STATE_FILE"
    return 0
}

# Exits 0 if 127.0.0.1:$1 accepts a connection.
port_open() {
    "$PY" - "$1" <<'EOF'
import socket, sys
s = socket.socket()
s.settimeout(1)
try:
    s.connect(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
finally:
    s.close()
EOF
}

# Exits 0 once http://localhost:$1$2 answers with any HTTP status.
answers() {
    "$PY" - "$1" "$2" <<'EOF'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=2)
try:
    c.request("GET", sys.argv[2], headers={"Host": "localhost:" + sys.argv[1]})
    c.getresponse().read()
except (OSError, http.client.HTTPException):
    sys.exit(1)
finally:
    c.close()
EOF
}

ensure_venv() {
    local python=${PYTHON:-python3} stamp="$VENV/.attest-requirements.txt"
    if [ -x "$VENV/bin/python" ] && [ -f "$stamp" ] && cmp -s "$stamp" "$SITE/requirements.txt"; then
        return 0
    fi
    command -v "$python" >/dev/null 2>&1 || die "no $python to create the virtualenv with (set PYTHON)"
    "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' \
        || die "$python is older than 3.10; Django 5.2 needs 3.10 or later (set PYTHON)"
    if [ -d "$VENV" ]; then
        say "requirements changed or venv incomplete: recreating $VENV"
        rm -rf "$VENV"
    fi
    mkdir -p "$(dirname "$VENV")"
    say "creating $VENV from $SITE/requirements.txt"
    if ! "$python" -m venv "$VENV" >&2; then
        rm -rf "$VENV"
        die "python -m venv failed"
    fi
    if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$SITE/requirements.txt" >&2; then
        rm -rf "$VENV"
        die "pip install -r $SITE/requirements.txt failed"
    fi
    cp "$SITE/requirements.txt" "$stamp"
}

TMP=""
SERVER_PID=""

# Start's cleanup on failure or interruption: the server's process group, then the temp dir.
abort_start() {
    trap - INT TERM HUP
    if [ -n "$SERVER_PID" ]; then
        kill_group "$SERVER_PID"
    fi
    if [ -n "$TMP" ] && [ -d "$TMP" ]; then
        remove_tmp "$TMP"
    fi
    rm -f "$STATE_FILE"
}

start_site() {
    local port pid waited url
    port=${ATTEST_SITE_PORT:-$(default_port "$NAME")}
    case "$port" in
        ''|*[!0-9]*) die "ATTEST_SITE_PORT must be a number, not \"$port\"" ;;
    esac
    [ -n "${ATTEST_SITE_PASSWORD:-}" ] || die "set ATTEST_SITE_PASSWORD: the password for alice and bob"

    if [ -f "$STATE_FILE" ]; then
        pid=""
        [ -f "$(cat "$STATE_FILE")/server.pid" ] && pid=$(cat "$(cat "$STATE_FILE")/server.pid")
        if [ -n "$pid" ] && is_group_leader "$pid"; then
            die "$NAME is already running (pid $pid); run: site.sh stop $NAME"
        fi
        say "clearing a stale run of $NAME"
        stop_site || true
    fi

    ensure_venv
    PY="$VENV/bin/python"
    if port_open "$port"; then
        die "127.0.0.1:$port is already in use (set ATTEST_SITE_PORT)"
    fi

    mkdir -p "$STATE_DIR"
    trap 'abort_start; exit 130' INT
    trap 'abort_start; exit 143' TERM
    trap 'abort_start; exit 129' HUP
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/attest-site-$NAME.XXXXXX")
    # Resolve symlinks (macOS: /var -> /private/var) so the state file names the real path.
    TMP=$(cd "$TMP" && pwd -P)
    printf '%s\n' "$TMP" > "$STATE_FILE"

    ATTEST_SITE_DATA_DIR="$TMP"
    ATTEST_SITE_PORT="$port"
    # A fresh secret per start, shared by manage.py and the server through the environment only.
    ATTEST_SITE_SECRET_KEY=$("$PY" -c 'import secrets; print(secrets.token_urlsafe(50))')
    DJANGO_SETTINGS_MODULE=site_project.settings
    export ATTEST_SITE_DATA_DIR ATTEST_SITE_PORT ATTEST_SITE_SECRET_KEY ATTEST_SITE_PASSWORD DJANGO_SETTINGS_MODULE

    if ! (cd "$SITE" && "$PY" manage.py migrate --noinput) > "$TMP/setup.log" 2>&1; then
        cat "$TMP/setup.log" >&2
        abort_start
        die "migrate failed"
    fi
    if ! (cd "$SITE" && "$PY" manage.py create_attest_accounts) >> "$TMP/setup.log" 2>&1; then
        cat "$TMP/setup.log" >&2
        abort_start
        die "creating the accounts failed"
    fi

    # gunicorn (pinned in requirements.txt), one worker process with threads. The Python wrapper puts it in a
    # process group of its own (os.setpgrp, then exec, so $! is both the master's pid and the group id): stop
    # kills that group, master and worker together, and a terminal's Ctrl-C does not reach it. The server does not
    # need the accounts' password, so it does not get it. gunicorn's own log goes to server.log, each request to
    # access.log, and what the application writes to stderr (Django's tracebacks of 500s) to app.log.
    (unset ATTEST_SITE_PASSWORD; cd "$SITE" && exec "$PY" -c 'import os, sys; os.setpgrp(); os.execv(sys.argv[1], sys.argv[1:])' \
        "$VENV/bin/gunicorn" \
        --bind "127.0.0.1:$port" \
        --workers 1 --worker-class gthread --threads 8 \
        --timeout 60 --graceful-timeout 5 --no-control-socket \
        --access-logfile "$TMP/access.log" --error-logfile "$TMP/server.log" \
        site_project.wsgi:application) < /dev/null > "$TMP/app.log" 2>&1 &
    SERVER_PID=$!
    printf '%s\n' "$SERVER_PID" > "$TMP/server.pid"

    waited=$SECONDS
    until answers "$port" /; do
        if ! proc_alive "$SERVER_PID"; then
            cat "$TMP/server.log" "$TMP/app.log" >&2 2>/dev/null || true
            abort_start
            die "the server exited before it answered"
        fi
        if [ $((SECONDS - waited)) -ge 30 ]; then
            tail -n 40 "$TMP/server.log" >&2 2>/dev/null || true
            abort_start
            die "the server did not answer within 30 s"
        fi
        sleep 0.3
    done
    trap - INT TERM HUP

    url="http://localhost:$port"
    say "$NAME is up (pid $SERVER_PID, data and logs in $TMP)"
    printf '%s\n' "$url"
}

[ $# -eq 2 ] || usage
COMMAND=$1
NAME=$2
case "$NAME" in
    ''|*/*|.*) usage ;;
esac
SITE="$HERE/$NAME"
[ -f "$SITE/requirements.txt" ] && [ -f "$SITE/manage.py" ] || die "no site named $NAME in $HERE"
VENV="$ROOT/.build/deployed-venv/$NAME"
STATE_FILE="$STATE_DIR/$NAME.tmpdir"
PY="$VENV/bin/python"

case "$COMMAND" in
    start) start_site ;;
    stop)
        if stop_site; then say "$NAME stopped"; else say "$NAME is not running"; fi
        ;;
    status)
        if [ -f "$STATE_FILE" ] && [ -f "$(cat "$STATE_FILE")/server.pid" ] \
            && is_group_leader "$(cat "$(cat "$STATE_FILE")/server.pid")"; then
            say "$NAME is running, data and logs in $(cat "$STATE_FILE")"
        else
            say "$NAME is not running"
            exit 1
        fi
        ;;
    *) usage ;;
esac
