#!/usr/bin/env bash
# Sets up a development checkout: a virtual environment at .venv with the project and
# its development tools installed.  Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
echo "Ready: .venv/bin/pegs --help"
