#!/usr/bin/env python3
"""How much faster the compiled engine is than the same code interpreted, side by side.

Runs ``random_games.py`` (random games, CPU time of the loop) alternately on two builds of
the same sources, ``--rounds`` times each, and prints each build's median actions per
second and their ratio.  The compiled build is the ``pegs`` this interpreter imports
(``--compiled-src`` names another source folder with the compiled modules in place); the
pure build is ``git archive HEAD src`` of this repository unpacked in a temporary folder
(compiled modules are never committed, so it is plain Python), or ``--pure-src``.

    .venv/bin/python benchmarks/compiled_speedup.py
    .venv/bin/python benchmarks/compiled_speedup.py --presets pegoo --players 8 --rounds 3
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "random_games.py"


def export_sources(into: Path) -> Path:
    """The committed ``src`` folder unpacked under ``into`` (no compiled modules)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "src"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def actions_per_second(src: Path | None, args: argparse.Namespace) -> tuple[float, bool]:
    """One run of random_games.py on the sources ``src`` (None: the installed ``pegs``):
    actions per second, and whether the engine's state module was compiled."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    command = [sys.executable, str(SCRIPT), "--presets", args.presets, "--players",
               str(args.players), "--games", str(args.games), "--budget", "0", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, check=True, env=env).stdout
    rate = float(json.loads(out)["results"][0]["actions_per_second"])
    probe = "import pegs.rules.state as s; print(s.__file__.endswith('.so'))"
    compiled = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              check=True, env=env).stdout.strip() == "True"
    return rate, compiled


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default="basic", help="one preset (default basic)")
    parser.add_argument("--players", type=int, default=4, help="table size (default 4)")
    parser.add_argument("--games", type=int, default=40, help="games a run (default 40)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument("--compiled-src", type=Path, help="sources with compiled modules")
    parser.add_argument("--pure-src", type=Path, help="sources without compiled modules")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        pure_src = args.pure_src or export_sources(Path(tmp))
        runs: dict[str, list[float]] = {"compiled": [], "pure": []}
        for _ in range(args.rounds):
            for name, src in (("compiled", args.compiled_src), ("pure", pure_src)):
                rate, compiled = actions_per_second(src, args)
                if compiled != (name == "compiled"):
                    print(f"the {name} build is {'' if compiled else 'not '}compiled: "
                          f"{src or 'the installed pegs'}", file=sys.stderr)
                    return 2
                runs[name].append(rate)
    compiled_rate = statistics.median(runs["compiled"])
    pure_rate = statistics.median(runs["pure"])
    print(f"{args.presets}, {args.players} players, {args.games} random games a run, "
          f"{args.rounds} runs of each build alternately (CPU time of the loop)")
    for name, rates in runs.items():
        print(f"{name:>9}: median {statistics.median(rates):,.0f} actions/s "
              f"(runs: {', '.join(f'{r:,.0f}' for r in rates)})")
    print(f"compiled / pure: {compiled_rate / pure_rate:.2f} times as fast")
    return 0


if __name__ == "__main__":
    sys.exit(main())
