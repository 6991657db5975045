#!/usr/bin/env bash
# Sets up a development checkout: the Debian packages the tests drive (Chromium for the
# browser tests, PostgreSQL for the database tests, tmux for the terminal-game tests, Redis
# for the shared-limits tests, npm), then a virtual environment at .venv with the project and
# its development tools installed (about 90 Python packages, and the rules engine compiled),
# then axe-core, the accessibility checker the browser tests inject (npm, pinned in
# tests/browser/package-lock.json).
# Safe to run again.
#
# On a terminal it tells each step with a rough duration and a ticker of the time spent and
# of what pip is doing; with CI set, or its output not a terminal, it prints plain lines.
# PYTHON names the Python to make the environment with (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -t 1 ] && [ -z "${CI:-}" ]; then live=1; else live=0; fi
started=$SECONDS
ticker=""

took() {  # the seconds since $1, as "N min N s"
  local s=$((SECONDS - $1))
  if [ "$s" -ge 60 ]; then echo "$((s / 60)) min $((s % 60)) s"; else echo "$s s"; fi
}

step() {  # step N TEXT: a header line
  echo "Step $1 of 5: $2"
}

stop_ticker() {
  if [ -n "$ticker" ]; then
    kill "$ticker" 2>/dev/null || true
    wait "$ticker" 2>/dev/null || true
    ticker=""
    printf '\r\033[K'
  fi
}
trap stop_ticker EXIT

start_ticker() {  # start_ticker LOG: on a terminal, one line redrawn every few seconds
  [ "$live" = 1 ] || return 0
  local log=$1 since=$SECONDS
  (
    while sleep 2; do
      doing=$(tail -n 300 "$log" 2>/dev/null \
        | grep -oE '(Collecting|Downloading|Requirement already satisfied:|Building|Installing collected|Successfully|Running command) [^ ]*( [^ ]*){0,2}' \
        | tail -n 1 || true)
      line="  ... $(took "$since") so far${doing:+: $doing}"
      printf '\r\033[K%s' "${line:0:$(( $(tput cols 2>/dev/null || echo 80) - 1 ))}"
    done
  ) &
  ticker=$!
}

pip_install() {  # pip_install ARGS...: quiet pip, its full log in .venv/pip.log
  local log=.venv/pip.log
  : > "$log"
  start_ticker "$log"
  if ! .venv/bin/python -m pip install --quiet --progress-bar off --log "$log" "$@"; then
    stop_ticker
    tail -n 40 "$log" >&2
    echo "pip failed; its full log is in $log (its last lines above)" >&2
    exit 1
  fi
  stop_ticker
}

step 1 "Debian packages: Chromium, PostgreSQL, tmux, Redis and npm"
t=$SECONDS
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "  installing ${missing[*]} (about 1-5 minutes)..."
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  echo "  done in $(took "$t")"
else
  echo "  already installed"
fi

step 2 "the virtual environment .venv"
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
  echo "  made"
else
  echo "  already there"
fi

step 3 "upgrading pip (under a minute)..."
t=$SECONDS
pip_install --upgrade pip
echo "  done in $(took "$t")"

step 4 "installing about 90 Python packages and compiling the rules engine"
echo "  (about 5-15 minutes on a small machine)..."
t=$SECONDS
pip_install -e '.[dev]'
echo "  done in $(took "$t")"

step 5 "axe-core for the browser tests' accessibility checks (seconds)"
t=$SECONDS
if ! npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error; then
  echo "npm could not install axe-core (tests/browser/package.json); the browser tests need it" >&2
  exit 1
fi
echo "  done in $(took "$t")"

echo "Ready in $(took "$started"). Play: .venv/bin/pegs play (or serve). Test: .venv/bin/python -m pytest -n 2"
echo "To type pegs without .venv/bin/, run: source .venv/bin/activate"
